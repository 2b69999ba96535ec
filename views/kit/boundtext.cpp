// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/boundtext.h"

namespace ridgeline::views {

// The words are the model's (model::timeTermName(), also the report's and the formula notes'), so every text agrees.
QString boundByText(model::TimeTerm term)
{
    return timeTermText(term) + QStringLiteral("-bound");
}

QString timeTermText(model::TimeTerm term)
{
    return QString::fromLatin1(model::timeTermName(term));
}

} // namespace ridgeline::views
