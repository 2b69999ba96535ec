// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/onelinelabel.h"
#include "views/kit/onelinelayout.h"

#include <algorithm>

#include <QPaintDevice>
#include <QPainter>
#include <QStyle>
#include <QTextLayout>

namespace ridgeline::views {

namespace {

bool g_oneLineLabelEnabled = true;

} // namespace

/** The line as painted for one text, font, width and paint device. */
struct OneLineLabel::Line {
    QString text;     ///< text()
    QFont font;       ///< the painter's font (resolved for its device)
    int widthPx = -1; ///< the contents rect's width
    int dpiX = 0;
    int dpiY = 0;
    QString shown;    ///< text() elided to widthPx, as QFontMetrics::elidedText() gives it
    std::unique_ptr<QTextLayout> layout; ///< shown, laid out (null: nothing to draw)
};

OneLineLabel::OneLineLabel(int hintWidthPx, QWidget* parent)
    : QLabel(parent)
    , m_hintWidthPx(hintWidthPx)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
}

OneLineLabel::~OneLineLabel() = default;

void OneLineLabel::setEnabled(bool on)
{
    g_oneLineLabelEnabled = on;
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

const OneLineLabel::Line* OneLineLabel::lineFor(const QPainter& painter)
{
    QPaintDevice* device = painter.device();
    const QFont& font = painter.font(); // resolved for the painter's device
    // QFusionStyle::drawItemText() draws an enabled label's text in the pen made of the palette's brush, nothing more;
    // the painter's font must be shaped at the resolution fontMetrics() measures at (QFontMetricsF::fontDpi(), the
    // resolution a font's glyphs are made at), for elidedText()'s widths to be the layout's.
    if (!g_oneLineLabelEnabled || !device || !isEnabled() || layoutDirection() != Qt::LeftToRight
        || painter.layoutDirection() != Qt::LeftToRight || testAttribute(Qt::WA_StyleSheet)
        || qstrcmp(style()->metaObject()->className(), "QFusionStyle") != 0
        || QFontMetricsF(font).fontDpi() != fontMetrics().fontDpi() || !plainOneLine(text(), font))
        return nullptr;
    const int widthPx = std::max(0, contentsRect().width());
    if (m_line && m_line->widthPx == widthPx && m_line->dpiX == device->logicalDpiX() && m_line->dpiY == device->logicalDpiY()
        && m_line->text == text() && m_line->font == font)
        return m_line.get();
    auto line = std::make_unique<Line>();
    line->text = text();
    line->font = font;
    line->widthPx = widthPx;
    line->dpiX = device->logicalDpiX();
    line->dpiY = device->logicalDpiY();
    // The whole text shaped once: QFontMetrics::elidedText() returns the text as it is when the sum of its glyphs'
    // advances (QTextEngine::width(), in QFixed) is no more than the width, and that sum is the line's natural width.
    // Only a text that does not fit is elided there, and its shown part laid out on its own.
    line->layout = layOutOneLine(line->text, font, device, Qt::LeftToRight);
    ++m_layouts;
    if (!line->layout)
        return nullptr;
    if (line->layout->lineAt(0).naturalTextWidth() <= qreal(widthPx)) {
        line->shown = line->text;
    } else {
        line->shown = fontMetrics().elidedText(line->text, Qt::ElideRight, widthPx);
        line->layout.reset();
        if (!line->shown.isEmpty()) {
            if (!plainOneLine(line->shown, font))
                return nullptr;
            line->layout = layOutOneLine(line->shown, font, device, Qt::LeftToRight);
            ++m_layouts;
            if (!line->layout)
                return nullptr;
        }
    }
    m_line = std::move(line);
    return m_line.get();
}

void OneLineLabel::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const Qt::Alignment alignment = QStyle::visualAlignment(layoutDirection(), this->alignment());
    const Line* line = lineFor(painter);
    if (!line) {
        style()->drawItemText(&painter, contentsRect(), int(alignment), palette(), isEnabled(), shownText(), foregroundRole());
        return;
    }
    if (!line->layout)
        return; // (drawItemText() draws no empty text)
    // QPainter::drawText(contentsRect(), alignment, shown) of one line, in QFusionStyle::drawItemText()'s pen.
    painter.setPen(QPen(palette().brush(foregroundRole()), painter.pen().widthF()));
    drawOneLine(painter, *line->layout, QRectF(contentsRect()), alignment);
    ++m_layoutDraws;
}

} // namespace ridgeline::views
