// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QFont>
#include <QPaintDevice>
#include <QPainter>
#include <QRectF>
#include <QString>
#include <QTextLayout>

namespace ridgeline::views {

/** True when QPainter::drawText() lays @p text out as one line from the left with nothing it would rewrite first (line
 *  breaks, tabs, other control characters, length variants) and QTextLine::naturalTextWidth() is the width
 *  QFontMetrics::elidedText() and QFontMetrics::boundingRect() measure (no trailing white space, which the line leaves
 *  out of it); in a font without underline, overline or strike-out. For OneLineLabel and PlainLabel. */
inline bool plainOneLine(const QString& text, const QFont& font)
{
    if (text.isEmpty() || text.back().isSpace() || text.isRightToLeft() || font.underline() || font.overline()
        || font.strikeOut())
        return false;
    for (const QChar c : text)
        if (c.unicode() < 0x20 || (c.unicode() >= 0x7f && c.unicode() <= 0x9f) || c == QChar::LineSeparator
            || c == QChar::ParagraphSeparator || c == QChar::SoftHyphen || c == QChar::ObjectReplacementCharacter)
            return false;
    return true;
}

/**
 * @p text in @p font laid out as QPainter::drawText() with a rect lays out a line it does not wrap: left aligned (the
 * rect aligns it), an unbounded width, the line at the origin, in @p direction, for @p device (null: the font's default
 * resolution); its glyphs cached for every draw. Null when the text does not make exactly one line. Shared by the
 * in-plot labels (LaidOutText), the one-line labels (OneLineLabel) and PlainLabel: issue 16, docs/performance.md.
 */
inline std::unique_ptr<QTextLayout> layOutOneLine(const QString& text, const QFont& font, const QPaintDevice* device,
                                                  Qt::LayoutDirection direction)
{
    auto layout = std::make_unique<QTextLayout>(text, font, const_cast<QPaintDevice*>(device));
    QTextOption option = layout->textOption();
    option.setTextDirection(direction);
    option.setAlignment(Qt::AlignLeft);
    layout->setTextOption(option);
    layout->setCacheEnabled(true);
    layout->beginLayout();
    QTextLine line = layout->createLine();
    line.setLineWidth(0x01000000);
    line.setPosition(QPointF(0, 0));
    const bool single = !layout->createLine().isValid();
    layout->endLayout();
    if (!single || layout->lineCount() != 1)
        return nullptr;
    return layout;
}

/** Where drawOneLine() draws the line of @p layout in @p rect with @p alignment: the point given to QTextLine::draw(),
 *  and whether the painter is clipped to the rect (the line box does not fit in it). */
struct OneLinePlacement {
    QPointF origin;
    bool clipped = false;
};

/** The placement drawOneLine() draws @p layout's line at (see there); glyph positions of QTextLayout::glyphRuns() plus
 *  origin are where the glyphs are drawn. Issue 16, docs/performance.md (twenty-fifth stop: the status summary repaints
 *  its changed glyphs). */
inline OneLinePlacement placeOneLine(const QTextLayout& layout, const QRectF& rect, Qt::Alignment alignment)
{
    const QTextLine text = layout.lineAt(0);
    const qreal width = text.naturalTextWidth();
    const qreal height = text.ascent() + text.descent();
    qreal xoff = 0;
    qreal yoff = 0;
    if (alignment & Qt::AlignBottom)
        yoff = rect.height() - height;
    else if (alignment & Qt::AlignVCenter)
        yoff = (rect.height() - height) / 2;
    if (alignment & Qt::AlignRight)
        xoff = rect.width() - width;
    else if (alignment & Qt::AlignHCenter)
        xoff = (rect.width() - width) / 2;
    const QRectF bounds(rect.x() + xoff, rect.y() + yoff, width, height);
    OneLinePlacement placement;
    placement.clipped = !rect.contains(bounds);
    const qreal advance = text.horizontalAdvance();
    xoff = 0;
    if (alignment & Qt::AlignRight)
        xoff = rect.width() - advance;
    else if (alignment & Qt::AlignHCenter)
        xoff = (rect.width() - advance) / 2;
    placement.origin = QPointF(rect.x() + xoff, rect.y() + yoff);
    return placement;
}

/**
 * Draws the one line of @p layout (layOutOneLine()) where QPainter::drawText(@p rect, @p alignment, text) puts that text
 * laid out as one line from the left in the painter's pen: the line box (its natural width, ascent plus descent high)
 * aligned in the rect, the painter clipped to the rect when the box does not fit in it, the line drawn at the box's top,
 * moved by the line's advance for right or centred alignment (qt_format_text(), Qt 6.4, for a left-to-right line).
 * @p alignment is visual (QStyle::visualAlignment()). Shared by OneLineLabel and PlainLabel: issue 16,
 * docs/performance.md.
 */
inline void drawOneLine(QPainter& painter, const QTextLayout& layout, const QRectF& rect, Qt::Alignment alignment)
{
    const OneLinePlacement placement = placeOneLine(layout, rect, alignment);
    if (placement.clipped)
        painter.setClipRect(rect, Qt::IntersectClip);
    layout.lineAt(0).draw(&painter, placement.origin);
}

} // namespace ridgeline::views
