// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/laidouttext.h"
#include "views/kit/inlineblend.h"
#include "views/kit/onelinelayout.h"

#include <algorithm>
#include <memory>

#include <QPaintDevice>
#include <QPolygonF>
#include <QTextLayout>
#include <QTransform>

namespace ridgeline::views {

namespace {

bool g_laidOutTextEnabled = true;
bool g_boundsFromLayout = true;

/** The flags QCPItemText measures and draws its text with. */
int flagsOf(const QCPItemText* item)
{
    return int(Qt::TextDontClip | item->textAlignment());
}

/** True when QPainter::drawText() lays @p text out as one line from the left, with nothing it would rewrite first
 *  (line breaks, tabs, carriage returns, length variants) and nothing it draws after the glyphs (decorations). */
bool oneLine(const QString& text, const QFont& font, Qt::Alignment alignment)
{
    if (text.isEmpty() || text.back() == QLatin1Char(' ') || alignment != (Qt::AlignTop | Qt::AlignHCenter)
        || font.underline() || font.overline() || font.strikeOut())
        return false;
    for (const QChar c : text)
        if (c == QLatin1Char('\n') || c == QLatin1Char('\r') || c == QLatin1Char('\t') || c == QChar(0x9c)
            || c == QChar::LineSeparator || c == QChar::ParagraphSeparator)
            return false;
    return true;
}

} // namespace

/** The text laid out for one font resolution, as QPainter::drawText() lays it out (one line, at the origin). */
struct LaidOutText::Layout {
    QString text;
    QFont font;
    int flags = 0;
    qreal fontDpi = 0; ///< the resolution the font is shaped at (QFontMetricsF::fontDpi())
    Qt::LayoutDirection direction = Qt::LeftToRight;
    QRect bounds;    ///< the painter's QFontMetrics::boundingRect(0, 0, 0, 0, flags, text)
    qreal advance = 0; ///< the line's horizontal advance
    std::unique_ptr<QTextLayout> layout;
};

LaidOutText::LaidOutText(QCustomPlot* plot)
    : QCPItemText(plot)
{
}

LaidOutText::~LaidOutText()
{
    delete m_layout;
}

void LaidOutText::setEnabled(bool on)
{
    g_laidOutTextEnabled = on;
}

void LaidOutText::setBoundsFromLayout(bool on)
{
    g_boundsFromLayout = on;
}

const LaidOutText::Layout* LaidOutText::layoutFor(const QPainter* painter)
{
    const QFont& font = painter->font(); // resolved for the painter's device
    const QPaintDevice* device = painter->device();
    if (!device || !oneLine(text(), font, textAlignment()))
        return nullptr;
    // The kept layout, whether made here or by measured() (without a device), when its font is shaped at the
    // painter's font's resolution: a QTextLayout's glyphs depend on the device only through that resolution.
    if (m_layout && m_layout->flags == flagsOf(this) && m_layout->direction == painter->layoutDirection()
        && m_layout->text == text() && m_layout->font == font && m_layout->fontDpi == QFontMetricsF(font).fontDpi())
        return m_layout;
    return layOut(font, device, painter->layoutDirection());
}

const LaidOutText::Layout* LaidOutText::layOut(const QFont& font, const QPaintDevice* device, Qt::LayoutDirection direction) const
{
    if (!m_layout)
        m_layout = new Layout;
    Layout& l = *m_layout;
    l.text = text();
    l.font = font;
    l.flags = flagsOf(this);
    l.fontDpi = QFontMetricsF(font).fontDpi();
    l.direction = direction;
    l.layout = layOutOneLine(l.text, font, device, l.direction);
    ++m_layouts;
    if (!l.layout) {
        delete m_layout;
        m_layout = nullptr;
        return nullptr;
    }
    const QTextLine laid = l.layout->lineAt(0);
    l.advance = laid.horizontalAdvance();
    // QFontMetrics::boundingRect(0, 0, 0, 0, flags, text) of the font, which lays the text out and shapes it
    // again (issue 16, twenty-second stop in docs/performance.md), read from this layout of the same text in the same
    // font: QPainter's text layout (qt_format_text()) makes the box of a line it does not wrap its natural width by its
    // ascent plus descent (the leading added above the first line is taken off again), centred on x = 0 for
    // AlignHCenter, top at y = 0, rounded out to whole pixels. It counts trailing spaces in the width (it sets
    // QTextOption::IncludeTrailingSpaces) and this layout does not: a text ending in white space is measured there.
    if (g_boundsFromLayout && !l.text.back().isSpace()) {
        const qreal width = laid.naturalTextWidth();
        l.bounds = QRectF(-width / 2, 0, width, laid.ascent() + laid.descent()).toAlignedRect();
    } else {
        l.bounds = QFontMetrics(font).boundingRect(0, 0, 0, 0, l.flags, l.text); // (the font resolved for the device)
        ++m_measurements;
    }
    return m_layout;
}

void LaidOutText::draw(QCPPainter* painter)
{
    const double degrees = rotation();
    if (!g_laidOutTextEnabled || painter->modes().testFlag(QCPPainter::pmVectorized)) {
        QCPItemText::draw(painter);
        return;
    }
    painter->setFont(mainFont());
    const Layout* layout = layoutFor(painter);
    if (!layout) {
        QCPItemText::draw(painter);
        return;
    }
    // QCPItemText::draw(), the text's rect read from the layout: the box at the position, turned with the item.
    const QPointF pos = position->pixelPosition();
    QTransform transform = painter->transform();
    transform.translate(pos.x(), pos.y());
    if (!qFuzzyIsNull(degrees))
        transform.rotate(degrees);
    const QMargins pad = padding();
    QRect textRect = layout->bounds;
    QRect boxRect = textRect.adjusted(-pad.left(), -pad.top(), pad.right(), pad.bottom());
    const QPointF at = getTextDrawPoint(QPointF(0, 0), boxRect, positionAlignment());
    textRect.moveTopLeft(at.toPoint() + QPoint(pad.left(), pad.top()));
    boxRect.moveTopLeft(at.toPoint());
    const double clipPad = mainPen().widthF();
    const QRect outer = boxRect.adjusted(-clipPad, -clipPad, clipPad, clipPad);
    if (!transform.mapRect(outer).intersects(painter->transform().mapRect(clipRect())))
        return;
    painter->setTransform(transform);
    const QPen pen = mainPen();
    const QBrush brush = mainBrush();
    if ((brush.style() != Qt::NoBrush && brush.color().alpha() != 0) || (pen.style() != Qt::NoPen && pen.color().alpha() != 0)) {
        painter->setPen(pen);
        painter->setBrush(brush);
        // A box turned upright (the prefill and decode plots' labels at -90 degrees) is as tall as its text is long:
        // drawn in strips of rows, its blends run on this thread, not on the raster engine's pool (InlineBlend).
        const double penPad = pen.style() == Qt::NoPen ? 0.0 : std::max(1.0, pen.widthF());
        InlineBlend::draw(painter, QRectF(boxRect).adjusted(-penPad, -penPad, penPad, penPad),
                          [&] { painter->drawRect(boxRect); });
    }
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(mainColor()));
    // Where QPainter::drawText(textRect, top | centred) draws the line: centred in the rect by its advance.
    const QRectF r(textRect);
    layout->layout->lineAt(0).draw(painter, QPointF(r.x() + (r.width() - layout->advance) / 2, r.y()));
    ++m_layoutDraws;
}

QRect LaidOutText::measured() const
{
    const QFont font = mainFont();
    const int flags = flagsOf(this);
    if (m_measuredFlags != flags || m_measuredText != text() || m_measuredFont != font) {
        m_measuredText = text();
        m_measuredFont = font;
        m_measuredFlags = flags;
        // The kept layout's box when it is of this text, font and flags, its font shaped at the resolution
        // QFontMetrics(font) measures at (QFont::operator==() does not compare resolutions; QFontMetricsF::fontDpi()
        // is the resolution a font's glyphs are made at): the same rect without shaping the text again. A new text
        // (its anchors are read before the replot draws it: the SLO plot's label separation) is laid out here,
        // without a device, and draw() takes that layout when the painter's font has the same resolution
        // (issue 16, twenty-third stop in docs/performance.md).
        const Layout* layout = nullptr;
        if (g_boundsFromLayout && oneLine(m_measuredText, font, textAlignment())) {
            if (m_layout && m_layout->text == m_measuredText && m_layout->flags == flags && m_layout->font == font
                && m_layout->fontDpi == QFontMetricsF(font).fontDpi())
                layout = m_layout;
            else // (in the direction of the painter that drew the last text: no painter here)
                layout = layOut(font, nullptr, m_layout ? m_layout->direction : Qt::LeftToRight);
        }
        if (layout)
            m_measured = layout->bounds;
        else {
            m_measured = QFontMetrics(font).boundingRect(0, 0, 0, 0, flags, m_measuredText);
            ++m_measurements;
        }
    }
    return m_measured;
}

QPointF LaidOutText::anchorPixelPosition(int anchorId) const
{
    if (!g_laidOutTextEnabled)
        return QCPItemText::anchorPixelPosition(anchorId);
    // QCPItemText::anchorPixelPosition() with the text measured once: the box's corners and edge centres, turned.
    const QPointF pos = position->pixelPosition();
    QTransform transform;
    transform.translate(pos.x(), pos.y());
    if (!qFuzzyIsNull(rotation()))
        transform.rotate(rotation());
    const QMargins pad = padding();
    QRectF boxRect = QRectF(measured()).adjusted(-pad.left(), -pad.top(), pad.right(), pad.bottom());
    boxRect.moveTopLeft(getTextDrawPoint(QPointF(0, 0), boxRect, positionAlignment()).toPoint());
    const QPolygonF corners = transform.map(QPolygonF(boxRect));
    switch (anchorId) {
    case aiTopLeft: return corners.at(0);
    case aiTop: return (corners.at(0) + corners.at(1)) * 0.5;
    case aiTopRight: return corners.at(1);
    case aiRight: return (corners.at(1) + corners.at(2)) * 0.5;
    case aiBottomRight: return corners.at(2);
    case aiBottom: return (corners.at(2) + corners.at(3)) * 0.5;
    case aiBottomLeft: return corners.at(3);
    case aiLeft: return (corners.at(3) + corners.at(0)) * 0.5;
    default: return QCPItemText::anchorPixelPosition(anchorId);
    }
}

} // namespace ridgeline::views
