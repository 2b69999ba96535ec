// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/onelinelabel.h"

#include <algorithm>

#include <QPainter>
#include <QStyle>

namespace ridgeline::views {

OneLineLabel::OneLineLabel(int hintWidthPx, QWidget* parent)
    : QLabel(parent)
    , m_hintWidthPx(hintWidthPx)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
}

QSize OneLineLabel::sizeHint() const
{
    const QMargins margins = contentsMargins();
    return {m_hintWidthPx + margins.left() + margins.right(), fontMetrics().height() + margins.top() + margins.bottom()};
}

QSize OneLineLabel::minimumSizeHint() const
{
    return sizeHint();
}

QString OneLineLabel::shownText() const
{
    return fontMetrics().elidedText(text(), Qt::ElideRight, std::max(0, contentsRect().width()));
}

void OneLineLabel::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    style()->drawItemText(&painter, contentsRect(), int(QStyle::visualAlignment(layoutDirection(), alignment())), palette(),
                          isEnabled(), shownText(), foregroundRole());
}

} // namespace ridgeline::views
