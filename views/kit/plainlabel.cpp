// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/plainlabel.h"
#include "views/kit/onelinelayout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <QFontMetrics>
#include <QGlyphRun>
#include <QPainter>
#include <QRawFont>
#include <QRect>
#include <QStyle>
#include <QTextDocument>
#include <QTextLayout>

namespace ridgeline::views {

/** The glyphs of a one-line layout in drawing order, each with its font (an index into fonts) and its position in the
 *  layout (QGlyphRun::positions(); drawn at that plus the line's origin, placeOneLine()). */
struct PlacedGlyphs {
    std::vector<QRawFont> fonts;
    struct Glyph {
        int font = 0;
        quint32 index = 0;
        QPointF position;
    };
    std::vector<Glyph> glyphs;
};
// (Outside the anonymous namespace: PlainLabel::Line holds one, and g++ warns of a member whose type has internal
// linkage when the file is part of a unity batch, CMakeLists.txt.)

namespace {

bool g_drawsItself = true;

PlacedGlyphs placedGlyphs(const QTextLayout& layout)
{
    PlacedGlyphs placed;
    const QList<QGlyphRun> runs = layout.glyphRuns();
    for (const QGlyphRun& run : runs) {
        placed.fonts.push_back(run.rawFont());
        const int font = int(placed.fonts.size()) - 1;
        const QList<quint32> indexes = run.glyphIndexes();
        const QList<QPointF> positions = run.positions();
        for (qsizetype i = 0; i < indexes.size() && i < positions.size(); ++i)
            placed.glyphs.push_back({font, indexes[i], positions[i]});
    }
    return placed;
}

/** True when glyph @p i of @p a drawn at origin @p shiftA is glyph @p j of @p b drawn at @p shiftB: the same glyph of
 *  the same font at the same place (positions in QFixed's 1/64 px, so the sums are exact). */
bool sameGlyph(const PlacedGlyphs& a, std::size_t i, QPointF shiftA, const PlacedGlyphs& b, std::size_t j, QPointF shiftB)
{
    const PlacedGlyphs::Glyph& x = a.glyphs[i];
    const PlacedGlyphs::Glyph& y = b.glyphs[j];
    // (QPointF's operator== is fuzzy: compared exactly)
    return x.index == y.index && x.position.x() + shiftA.x() == y.position.x() + shiftB.x()
        && x.position.y() + shiftA.y() == y.position.y() + shiftB.y() && a.fonts[std::size_t(x.font)] == b.fonts[std::size_t(y.font)];
}

/** Widens [@p left, @p right] (px) to the ink of @p placed's glyphs [from, to) drawn at the origin's x @p shiftX. */
void addInk(const PlacedGlyphs& placed, std::size_t from, std::size_t to, qreal shiftX, qreal& left, qreal& right)
{
    for (std::size_t i = from; i < to; ++i) {
        const PlacedGlyphs::Glyph& glyph = placed.glyphs[i];
        const QRectF ink = placed.fonts[std::size_t(glyph.font)].boundingRect(glyph.index);
        left = std::min(left, glyph.position.x() + shiftX + ink.left());
        right = std::max(right, glyph.position.x() + shiftX + ink.right());
    }
}

} // namespace

/** text() laid out as one line in one font at one resolution (onelinelayout.h). */
struct PlainLabel::Line {
    QString text;
    QFont font;
    qreal dpi = 0; ///< QFontMetricsF(font).fontDpi(): QFont::operator== does not compare resolutions
    std::unique_ptr<QTextLayout> layout;
    /** The layout's glyphs where the layout puts them (placedGlyphs() at the origin), once compared: kept for the
     *  next new text's comparison (setTextRepaintingChanges()). */
    std::optional<PlacedGlyphs> glyphs;
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

bool PlainLabel::drawsItself() const
{
    return g_drawsItself && measuresOnce() && isEnabled() && !testAttribute(Qt::WA_StyleSheet)
        && qstrcmp(style()->metaObject()->className(), "QFusionStyle") == 0;
}

QRect PlainLabel::textRect(Qt::Alignment align) const
{
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
    return rect;
}

void PlainLabel::setTextRepaintingChanges(const QString& text)
{
    if (text == this->text())
        return;
    // The font a paint's painter has: the label's, resolved for the widget (QPainter::begin()).
    const QFont paintFont(font(), this);
    const qreal dpi = QFontMetricsF(paintFont).fontDpi();
    const bool shownFromLayout = isVisible() && updatesEnabled() && drawsItself() && m_line && m_line->layout
        && m_line->text == this->text() && m_line->font == paintFont && m_line->dpi == dpi;
    if (!shownFromLayout) {
        setText(text);
        return;
    }
    std::unique_ptr<Line> before = std::move(m_line);
    // QLabel::setText() repaints the whole contents rect: held back here as DocumentLabel::setTextRepaintingChanges()
    // holds it back (setUpdatesEnabled(true) would post a whole-widget update()).
    setAttribute(Qt::WA_UpdatesDisabled, true);
    setText(text);
    setAttribute(Qt::WA_UpdatesDisabled, false);
    const QRect contents = contentsRect();
    // The new text laid out as the next paint asks (layoutFor() with the painter's font and device), so that the paint
    // draws this layout.
    const QTextLayout* after = drawsItself() ? layoutFor(paintFont, this) : nullptr;
    if (!after) {
        update(contents);
        return;
    }
    const Qt::Alignment align = QStyle::visualAlignment(Qt::LeftToRight, alignment());
    const QRectF rect(textRect(align));
    const OneLinePlacement was = placeOneLine(*before->layout, rect, align);
    const OneLinePlacement now = placeOneLine(*after, rect, align);
    if (was.clipped != now.clipped) {
        update(contents);
        return;
    }
    // Each layout's glyphs are read once (QTextLayout::glyphRuns()): the new text's are kept for the next comparison.
    if (!before->glyphs)
        before->glyphs = placedGlyphs(*before->layout);
    m_line->glyphs = placedGlyphs(*after);
    const PlacedGlyphs& a = *before->glyphs;
    const PlacedGlyphs& b = *m_line->glyphs;
    const QPointF shiftA = was.origin;
    const QPointF shiftB = now.origin;
    const std::size_t shorter = std::min(a.glyphs.size(), b.glyphs.size());
    std::size_t prefix = 0;
    while (prefix < shorter && sameGlyph(a, prefix, shiftA, b, prefix, shiftB))
        ++prefix;
    std::size_t suffix = 0;
    while (prefix + suffix < shorter
           && sameGlyph(a, a.glyphs.size() - 1 - suffix, shiftA, b, b.glyphs.size() - 1 - suffix, shiftB))
        ++suffix;
    ++m_partialRepaints;
    qreal left = std::numeric_limits<qreal>::max();
    qreal right = std::numeric_limits<qreal>::lowest();
    addInk(a, prefix, a.glyphs.size() - suffix, shiftA.x(), left, right);
    addInk(b, prefix, b.glyphs.size() - suffix, shiftB.x(), left, right);
    if (left > right)
        return; // the same glyphs at the same places
    const int fromX = int(std::floor(left)) - kInkPaddingPx;
    const int toX = int(std::ceil(right)) + kInkPaddingPx;
    const QRect changed = QRect(QPoint(fromX, contents.top()), QPoint(toX, contents.bottom())) & contents;
    if (!changed.isEmpty())
        update(changed);
}

void PlainLabel::paintEvent(QPaintEvent* event)
{
    // QLabel::paintEvent() (Qt 6.4) of a plain text label without frame, margin, pixmap or mnemonic: the text drawn by
    // QStyle::drawItemText() in the contents rect less the indent on its aligned sides, with the label's alignment
    // made visual for the text's direction and Qt::TextForceLeftToRight, in QFusionStyle::drawItemText()'s pen.
    if (!drawsItself()) {
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
    painter.setPen(QPen(palette().brush(foregroundRole()), painter.pen().widthF()));
    drawOneLine(painter, *layout, QRectF(textRect(align)), align);
    ++m_layoutDraws;
}

} // namespace ridgeline::views
