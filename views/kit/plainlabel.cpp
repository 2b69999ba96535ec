// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/plainlabel.h"
#include "views/kit/onelinelayout.h"

#include <QFontMetrics>
#include <QPainter>
#include <QRect>
#include <QStyle>
#include <QTextDocument>
#include <QTextLayout>

namespace ridgeline::views {

namespace {

bool g_drawsItself = true;

} // namespace

/** text() laid out as one line in one font at one resolution (onelinelayout.h). */
struct PlainLabel::Line {
    QString text;
    QFont font;
    qreal dpi = 0; ///< QFontMetricsF(font).fontDpi(): QFont::operator== does not compare resolutions
    std::unique_ptr<QTextLayout> layout;
};

PlainLabel::PlainLabel(const QString& text, QWidget* parent)
    : QLabel(text, parent)
{
}

PlainLabel::~PlainLabel() = default;

void PlainLabel::setDrawsItself(bool on)
{
    g_drawsItself = on;
}

bool PlainLabel::measuresOnce() const
{
    const bool plain = textFormat() == Qt::PlainText || (textFormat() == Qt::AutoText && !Qt::mightBeRichText(text()));
    return plain && !wordWrap() && pixmap().isNull() && !movie() && margin() == 0 && frameWidth() == 0
        && !text().contains(QLatin1Char('&')) && !text().isEmpty();
}

QSize PlainLabel::sizeHint() const
{
    ensurePolished(); // as QLabel: a style may set the font
    return measuresOnce() ? measured() : QLabel::sizeHint();
}

QSize PlainLabel::minimumSizeHint() const
{
    ensurePolished();
    // QLabel::minimumSizeHint() of a text that does not wrap: the one-line height and the widest word are the
    // whole text's rect, and its height is no more than sizeHint()'s (the same rect).
    return measuresOnce() ? measured() : QLabel::minimumSizeHint();
}

const QTextLayout* PlainLabel::layoutFor(const QFont& font, const QPaintDevice* device) const
{
    if (!g_drawsItself || !plainOneLine(text(), font))
        return nullptr;
    const qreal dpi = QFontMetricsF(font).fontDpi();
    if (m_line && m_line->dpi == dpi && m_line->text == text() && m_line->font == font)
        return m_line->layout.get();
    auto line = std::make_unique<Line>();
    line->text = text();
    line->font = font;
    line->dpi = dpi;
    // Left to right: what QLabel::paintEvent() asks (Qt::TextForceLeftToRight for a text that is not right to left)
    // and what boundingRect() without a painter lays out in.
    line->layout = layOutOneLine(line->text, font, device, Qt::LeftToRight);
    ++m_layouts;
    m_line = std::move(line);
    return m_line->layout.get();
}

QSize PlainLabel::measured() const
{
    const QMargins margins = contentsMargins();
    if (m_valid && m_text == text() && m_font == font() && m_alignment == int(alignment()) && m_indent == indent()
        && m_margins == margins)
        return m_hintPx;
    m_text = text();
    m_font = font();
    m_alignment = int(alignment());
    m_indent = indent();
    m_margins = margins;
    // QLabelPrivate::sizeForWidth() (Qt 6.4) for a text label without margin, frame, word wrap or mnemonic.
    // The text's own direction, as QLabelPrivate::textDirection() for a label without a document.
    const int align = int(QStyle::visualAlignment(m_text.isRightToLeft() ? Qt::RightToLeft : Qt::LeftToRight, alignment()));
    int hextra = 0;
    int vextra = 0;
    if (m_indent > 0) { // (a negative indent without a frame adds nothing)
        if ((align & Qt::AlignLeft) || (align & Qt::AlignRight))
            hextra += m_indent;
        if ((align & Qt::AlignTop) || (align & Qt::AlignBottom))
            vextra += m_indent;
    }
    const QSize marginsPx(margins.left() + margins.right(), margins.top() + margins.bottom());
    // Centring off, as QLabel turns it off for the size (it only rounds the rect's place); a 2000 px box: a text
    // that does not wrap has the same rect in any box (QLabel's three widths).
    const int flags = align & ~(Qt::AlignVCenter | Qt::AlignHCenter);
    const QRectF box(0, 0, 2000 - (hextra + marginsPx.width()), 2000);
    QRect rect;
    if (const QTextLayout* layout = layoutFor(m_font, nullptr)) {
        // The rect qt_format_text() (Qt 6.4) computes for one line without a painter: the line's natural width and
        // its ascent plus descent (the leading it adds above a line is taken off again for the first), aligned in the
        // box, rounded out (QFontMetrics::boundingRect()'s toAlignedRect()).
        const QTextLine line = layout->lineAt(0);
        const qreal width = line.naturalTextWidth();
        const qreal height = line.ascent() + line.descent();
        const qreal xoff = (flags & Qt::AlignRight) ? box.width() - width : 0;
        const qreal yoff = (flags & Qt::AlignBottom) ? box.height() - height : 0;
        rect = QRectF(box.x() + xoff, box.y() + yoff, width, height).toAlignedRect();
    } else {
        rect = QFontMetrics(m_font).boundingRect(box.toRect(), flags, m_text);
    }
    ++m_measurements;
    m_hintPx = (QSize(rect.width() + hextra, rect.height() + vextra) + marginsPx).expandedTo(minimumSize());
    m_valid = true;
    return m_hintPx;
}

void PlainLabel::paintEvent(QPaintEvent* event)
{
    // QLabel::paintEvent() (Qt 6.4) of a plain text label without frame, margin, pixmap or mnemonic: the text drawn by
    // QStyle::drawItemText() in the contents rect less the indent on its aligned sides, with the label's alignment
    // made visual for the text's direction and Qt::TextForceLeftToRight, in QFusionStyle::drawItemText()'s pen.
    if (!g_drawsItself || !measuresOnce() || !isEnabled() || testAttribute(Qt::WA_StyleSheet)
        || qstrcmp(style()->metaObject()->className(), "QFusionStyle") != 0) {
        QLabel::paintEvent(event);
        return;
    }
    QPainter painter(this);
    const QTextLayout* layout = layoutFor(painter.font(), painter.device()); // the painter's font: resolved for its device
    if (!layout) {
        painter.end();
        QLabel::paintEvent(event);
        return;
    }
    const Qt::Alignment align = QStyle::visualAlignment(Qt::LeftToRight, alignment());
    QRect rect = contentsRect();
    if (const int indentPx = indent(); indentPx > 0) {
        if (align & Qt::AlignLeft)
            rect.setLeft(rect.left() + indentPx);
        if (align & Qt::AlignRight)
            rect.setRight(rect.right() - indentPx);
        if (align & Qt::AlignTop)
            rect.setTop(rect.top() + indentPx);
        if (align & Qt::AlignBottom)
            rect.setBottom(rect.bottom() - indentPx);
    }
    painter.setPen(QPen(palette().brush(foregroundRole()), painter.pen().widthF()));
    drawOneLine(painter, *layout, QRectF(rect), align);
    ++m_layoutDraws;
}

} // namespace ridgeline::views
