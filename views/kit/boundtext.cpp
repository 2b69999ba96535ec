// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/boundtext.h"

#include <QCoreApplication>

namespace ridgeline::views {

QString boundByText(model::TimeTerm term)
{
    switch (term) {
    case model::TimeTerm::Memory: return QCoreApplication::translate("ridgeline::views", "memory-bound");
    case model::TimeTerm::Compute: return QCoreApplication::translate("ridgeline::views", "compute-bound");
    case model::TimeTerm::Communication: return QCoreApplication::translate("ridgeline::views", "communication-bound");
    }
    return {};
}

QString timeTermText(model::TimeTerm term)
{
    switch (term) {
    case model::TimeTerm::Memory: return QCoreApplication::translate("ridgeline::views", "memory");
    case model::TimeTerm::Compute: return QCoreApplication::translate("ridgeline::views", "compute");
    case model::TimeTerm::Communication: return QCoreApplication::translate("ridgeline::views", "communication");
    }
    return {};
}

} // namespace ridgeline::views
