// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/axistitle.h"

#include <algorithm>

#include <QColor>
#include <QFont>
#include <QFontMetrics>

#include <qcustomplot.h>

#include "views/kit/textimage.h"

namespace ridgeline::views {

namespace {

bool g_labelKeyKept = true;
bool g_linesKept = true;
bool g_titleSizeKept = true;

/** True when @p pen draws nothing, or one-pixel solid lines of an opaque colour: such a line gives each pixel it covers
 *  the pen's colour, whatever was under it, so its pixels from an image over transparent, blended, are the same. */
bool opaqueHairline(const QPen& pen)
{
    if (pen.style() == Qt::NoPen)
        return true;
    return pen.style() == Qt::SolidLine && pen.brush().style() == Qt::SolidPattern && pen.color().alpha() == 255
        && pen.widthF() <= 1.0;
}

/** @p pen drawing nothing (its width, colour and the rest kept: QCustomPlot reads them for the brush of the endings). */
QPen hidden(QPen pen)
{
    pen.setStyle(Qt::NoPen);
    return pen;
}

/** QCPAxis::mAxisPainter (protected, no setter), from outside QCustomPlot's friends. */
struct AxisAccess : QCPAxis {
    static QCPAxisPainterPrivate*& painterOf(QCPAxis* axis) { return axis->*(&AxisAccess::mAxisPainter); }
    static QCPAxisPainterPrivate* painterOf(const QCPAxis* axis) { return axis->*(&AxisAccess::mAxisPainter); }
};

/**
 * QCustomPlot's axis painter, but for the title: the axis is drawn by QCPAxisPainterPrivate::draw() without its label,
 * then the label from a TextImage where draw() would have put it (the same offset from the axis: outward tick length,
 * tick label padding, the widest or tallest tick label drawn, label padding) with the same call (QCustomPlot 2.1:
 * translate, rotate by -90 / 90 for a left / right axis, drawText() in a box the axis rect's length long and the
 * title's bounding height high, Qt::TextDontClip | Qt::AlignCenter).
 */
class TitleAxisPainter final : public QCPAxisPainterPrivate {
public:
    TitleAxisPainter(QCustomPlot* plot, const QCPAxisPainterPrivate& from)
        : QCPAxisPainterPrivate(plot)
    {
        // Every public member: QCPAxis's setters and draw() write them directly.
        type = from.type;
        basePen = from.basePen;
        lowerEnding = from.lowerEnding;
        upperEnding = from.upperEnding;
        labelPadding = from.labelPadding;
        labelFont = from.labelFont;
        labelColor = from.labelColor;
        label = from.label;
        tickLabelPadding = from.tickLabelPadding;
        tickLabelRotation = from.tickLabelRotation;
        tickLabelSide = from.tickLabelSide;
        substituteExponent = from.substituteExponent;
        numberMultiplyCross = from.numberMultiplyCross;
        tickLengthIn = from.tickLengthIn;
        tickLengthOut = from.tickLengthOut;
        subTickLengthIn = from.subTickLengthIn;
        subTickLengthOut = from.subTickLengthOut;
        tickPen = from.tickPen;
        subTickPen = from.subTickPen;
        tickLabelFont = from.tickLabelFont;
        tickLabelColor = from.tickLabelColor;
        axisRect = from.axisRect;
        viewportRect = from.viewportRect;
        offset = from.offset;
        abbreviateDecimalPowers = from.abbreviateDecimalPowers;
        reversedEndings = from.reversedEndings;
        subTickPositions = from.subTickPositions;
        tickPositions = from.tickPositions;
        tickLabels = from.tickLabels;
    }

    void draw(QCPPainter* painter) override
    {
        // The base line and tick marks from their strip image (linesFromImage()); QCustomPlot then draws the tick labels
        // and the title (below) with the lines' pens drawing nothing, which sets the selection boxes as before.
        if (!linesFromImage(painter)) {
            drawLabels(painter);
            return;
        }
        const QPen base = basePen;
        const QPen tick = tickPen;
        const QPen subTick = subTickPen;
        basePen = hidden(base);
        tickPen = hidden(tick);
        subTickPen = hidden(subTick);
        drawLabels(painter);
        basePen = base;
        tickPen = tick;
        subTickPen = subTick;
    }

    /** QCPAxisPainterPrivate::draw() with the title from its image (TextImage). */
    void drawLabels(QCPPainter* painter)
    {
        if (!TextImage::enabled() || label.isEmpty() || tickLabelSide != QCPAxis::lsOutside || !painter->device()
            || painter->modes().testFlag(QCPPainter::pmVectorized) || painter->modes().testFlag(QCPPainter::pmNoCaching)) {
            QCPAxisPainterPrivate::draw(painter);
            return;
        }
        QString text;
        text.swap(label);
        QCPAxisPainterPrivate::draw(painter); // the axis without its title
        label.swap(text);

        const bool horizontal = QCPAxis::orientation(type) == Qt::Horizontal;
        const int tickLabelsSize = drawnTickLabelsSize();
        const int beforeTitle = (tickLabels.isEmpty() ? 0 : tickLabelPadding + tickLabelsSize) + labelPadding;
        const int margin = std::max(0, std::max(tickLengthOut, subTickLengthOut)) + beforeTitle;
        const int height = titleHeight(painter->device());

        QPoint at;
        int degrees = 0;
        QSize box(horizontal ? axisRect.width() : axisRect.height(), height);
        switch (type) {
        case QCPAxis::atLeft: {
            const QPoint origin = axisRect.bottomLeft() + QPoint(-offset, 0);
            at = QPoint(origin.x() - margin - height, origin.y());
            degrees = -90;
            break;
        }
        case QCPAxis::atRight: {
            const QPoint origin = axisRect.bottomRight() + QPoint(offset, 0);
            at = QPoint(origin.x() + margin + height, origin.y() - axisRect.height());
            degrees = 90;
            break;
        }
        case QCPAxis::atTop: {
            const QPoint origin = axisRect.topLeft() + QPoint(0, -offset);
            at = QPoint(origin.x(), origin.y() - margin - height);
            break;
        }
        case QCPAxis::atBottom: {
            const QPoint origin = axisRect.bottomLeft() + QPoint(0, offset);
            at = QPoint(origin.x(), origin.y() + margin);
            break;
        }
        }
        painter->setFont(labelFont);
        painter->setPen(QPen(labelColor));
        title.draw(painter, at, degrees, box, Qt::TextDontClip | Qt::AlignCenter, label);

        // The title's selection box, as draw() sets it with the title.
        const int selOffset = std::max(tickLengthOut, subTickLengthOut) + beforeTitle;
        const int x = (type == QCPAxis::atLeft ? axisRect.bottomLeft().x() - offset : axisRect.bottomRight().x() + offset);
        const int y = (type == QCPAxis::atTop ? axisRect.top() - offset : axisRect.bottom() + offset);
        switch (type) {
        case QCPAxis::atLeft:
            mLabelSelectionBox.setCoords(x - selOffset - height, axisRect.top(), x - selOffset, axisRect.bottom());
            break;
        case QCPAxis::atRight:
            mLabelSelectionBox.setCoords(x + selOffset + height, axisRect.top(), x + selOffset, axisRect.bottom());
            break;
        case QCPAxis::atTop:
            mLabelSelectionBox.setCoords(axisRect.left(), y - selOffset - height, axisRect.right(), y - selOffset);
            break;
        case QCPAxis::atBottom:
            mLabelSelectionBox.setCoords(axisRect.left(), y + selOffset + height, axisRect.right(), y + selOffset);
            break;
        }
        mLabelSelectionBox = mLabelSelectionBox.normalized();
    }

    /**
     * QCustomPlot's key of the tick labels' parameters, from a memo while its inputs (those the base reads: the plot's
     * buffer pixel ratio, tickLabelRotation, tickLabelSide, substituteExponent, numberMultiplyCross, tickLabelColor,
     * tickLabelFont) compare equal to those it was built from; built by the base otherwise. Equal fonts and colours
     * give the same QFont::toString() and QColor::name(), so the same bytes.
     */
    QByteArray generateLabelParameterHash() const override
    {
        const double ratio = mParentPlot ? mParentPlot->bufferDevicePixelRatio() : 1.0;
        if (g_labelKeyKept && m_labelKeyBuilt && ratio == m_keyRatio && tickLabelRotation == m_keyRotation
            && tickLabelSide == m_keySide && substituteExponent == m_keySubstituteExponent
            && numberMultiplyCross == m_keyMultiplyCross && tickLabelColor == m_keyColor && tickLabelFont == m_keyFont) {
            ++labelKeyReuses;
            return m_labelKey;
        }
        m_labelKey = QCPAxisPainterPrivate::generateLabelParameterHash();
        m_labelKeyBuilt = true;
        m_keyRatio = ratio;
        m_keyRotation = tickLabelRotation;
        m_keySide = tickLabelSide;
        m_keySubstituteExponent = substituteExponent;
        m_keyMultiplyCross = numberMultiplyCross;
        m_keyColor = tickLabelColor;
        m_keyFont = tickLabelFont;
        return m_labelKey;
    }

    /**
     * QCPAxisPainterPrivate::size() (the axis' margin, QCustomPlot 2.1) with the title's part from a memo: the base adds
     * the bounding height of the title, QFontMetrics(labelFont).boundingRect(0, 0, 0, 0, Qt::TextDontClip |
     * Qt::AlignCenter, label), plus labelPadding, and measured it (a text layout and its shaping) on every call, in every
     * layout pass whose axis range moved (about 0.24 M instructions a model-size step, issue 16, twenty-fourth stop in
     * docs/performance.md). That height depends on the text, the font and the resolution the font is at (a
     * QFontMetrics without a device measures at the font's own, QFontMetricsF::fontDpi(); QFont::operator== does not
     * compare it), not on the plot's pixel ratio; it is measured again when one of the three changed. The rest of the
     * size (ticks, tick labels) is the base's, asked with the title taken out.
     */
    int size() override
    {
        if (!g_titleSizeKept || label.isEmpty())
            return QCPAxisPainterPrivate::size();
        QString text;
        text.swap(label);
        const int withoutTitle = QCPAxisPainterPrivate::size();
        label.swap(text);
        const qreal dpi = QFontMetricsF(labelFont).fontDpi();
        if (m_sizeHeight < 0 || m_sizeText != label || m_sizeDpi != dpi || m_sizeFont != labelFont) {
            m_sizeText = label;
            m_sizeFont = labelFont;
            m_sizeDpi = dpi;
            m_sizeHeight = QFontMetrics(labelFont)
                               .boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignHCenter | Qt::AlignVCenter, label)
                               .height();
            ++titleSizeMeasurements;
        }
        return withoutTitle + m_sizeHeight + labelPadding;
    }

    TextImage title;
    long long titleSizeMeasurements = 0; ///< times size() measured the title (its memo renewed)
    mutable long long labelKeyReuses = 0;
    long long lineImageRenders = 0; ///< times the strip image of the base line and ticks was drawn again
    long long lineImageDraws = 0;   ///< times the axis drew its lines from that image, drawn again or not

private:
    /**
     * Draws the base line and the tick marks from an image of them, a strip of the viewport along the axis (issue 16,
     * nineteenth stop in docs/performance.md): on a slider step most axes keep their range, yet QCustomPlot strokes
     * every tick again (about 1.6 k instructions a drawLine()). When the lines are drawn from what the last replot drew
     * them from (axis type, rect, viewport, offset, tick lengths, pens, tick and sub-tick positions), they come from the
     * strip, made (QCPAxisPainterPrivate::draw() without labels into a transparent image) on the first such replot; when
     * that changed, QCustomPlot draws them (an axis that moves on every step, as the value axes on a model-size step,
     * would otherwise pay for a strip and its blend each time). Only where the strip gives the same pixels: aliased,
     * solid, opaque pens of one pixel (each covered pixel takes the pen's colour, so the image blended over the paint
     * buffer leaves what drawing them there would), no line endings, pixel ratio 1, no export.
     * False (nothing drawn) when QCustomPlot is to draw them, and always with setAxisLinesKept(false).
     */
    bool linesFromImage(QCPPainter* painter)
    {
        QPaintDevice* device = painter->device();
        if (!g_linesKept || !device || painter->modes().testFlag(QCPPainter::pmVectorized)
            || painter->modes().testFlag(QCPPainter::pmNoCaching) || painter->antialiasing()
            || lowerEnding.style() != QCPLineEnding::esNone || upperEnding.style() != QCPLineEnding::esNone
            || !opaqueHairline(basePen) || !opaqueHairline(tickPen) || !opaqueHairline(subTickPen)) {
            m_lines = QImage();
            return false;
        }
        const double ratio = device->devicePixelRatioF();
        if (ratio != 1.0) {
            m_lines = QImage();
            return false;
        }
        const bool steady = m_seen && m_linesType == type && m_linesAxisRect == axisRect && m_linesViewport == viewportRect
            && m_linesOffset == offset && m_linesTickIn == tickLengthIn && m_linesTickOut == tickLengthOut
            && m_linesSubTickIn == subTickLengthIn && m_linesSubTickOut == subTickLengthOut && m_linesBasePen == basePen
            && m_linesTickPen == tickPen && m_linesSubTickPen == subTickPen && m_linesTicks == tickPositions
            && m_linesSubTicks == subTickPositions;
        if (!steady) {
            // Moved since the last replot: drawn by QCustomPlot this time (an axis that moves on every step, as the value
            // axes on a model-size step, would pay for the strip and its blend on each); the strip is made when the same
            // lines come again.
            m_seen = true;
            m_linesType = type;
            m_linesAxisRect = axisRect;
            m_linesViewport = viewportRect;
            m_linesOffset = offset;
            m_linesTickIn = tickLengthIn;
            m_linesTickOut = tickLengthOut;
            m_linesSubTickIn = subTickLengthIn;
            m_linesSubTickOut = subTickLengthOut;
            m_linesBasePen = basePen;
            m_linesTickPen = tickPen;
            m_linesSubTickPen = subTickPen;
            m_linesTicks = tickPositions;
            m_linesSubTicks = subTickPositions;
            m_lines = QImage();
            return false;
        }
        if (m_lines.isNull() && !drawStrip(painter))
            return false;
        ++lineImageDraws;
        painter->drawImage(m_linesOrigin + m_linesInk.topLeft(), m_lines, m_linesInk);
        return true;
    }

    /** Draws the strip image of the base line and ticks as they are now (linesFromImage()); false when there is none. */
    bool drawStrip(QCPPainter* painter)
    {
        // The strip: the ticks' reach on both sides of the base line, a pixel more for QCustomPlot's one-pixel
        // correction of top and right axes and one for the pen, the viewport's length.
        const int reach = std::max({0, tickLengthIn, tickLengthOut, subTickLengthIn, subTickLengthOut}) + 2;
        QRect strip;
        switch (type) {
        case QCPAxis::atLeft:
            strip = QRect(QPoint(axisRect.left() - offset - reach, viewportRect.top()),
                          QPoint(axisRect.left() - offset + reach, viewportRect.bottom()));
            break;
        case QCPAxis::atRight:
            strip = QRect(QPoint(axisRect.right() + offset - reach, viewportRect.top()),
                          QPoint(axisRect.right() + offset + reach, viewportRect.bottom()));
            break;
        case QCPAxis::atTop:
            strip = QRect(QPoint(viewportRect.left(), axisRect.top() - offset - reach),
                          QPoint(viewportRect.right(), axisRect.top() - offset + reach));
            break;
        case QCPAxis::atBottom:
            strip = QRect(QPoint(viewportRect.left(), axisRect.bottom() + offset - reach),
                          QPoint(viewportRect.right(), axisRect.bottom() + offset + reach));
            break;
        }
        strip &= viewportRect;
        if (strip.isEmpty())
            return false;
        m_lines = QImage(strip.size(), QImage::Format_ARGB32_Premultiplied);
        m_lines.fill(Qt::transparent);
        {
            QCPPainter picture(&m_lines);
            picture.setModes(painter->modes());
            picture.setAntialiasing(false);
            picture.translate(-strip.topLeft());
            // QCustomPlot's own drawing of the axis, without tick labels and title (its selection boxes are set again by
            // the drawing of the labels that follows).
            QVector<QString> labels;
            QString text;
            labels.swap(tickLabels);
            text.swap(label);
            QCPAxisPainterPrivate::draw(&picture);
            labels.swap(tickLabels);
            text.swap(label);
        }
        // Blended as the bounding box of its ink: a transparent pixel blended changes nothing.
        int top = m_lines.height();
        int bottom = -1;
        int left = m_lines.width();
        int right = -1;
        for (int y = 0; y < m_lines.height(); ++y) {
            const auto* row = reinterpret_cast<const QRgb*>(m_lines.constScanLine(y));
            for (int x = 0; x < m_lines.width(); ++x)
                if (row[x]) {
                    top = std::min(top, y);
                    bottom = y;
                    left = std::min(left, x);
                    right = std::max(right, x);
                }
        }
        if (bottom < 0) {
            m_lines = QImage();
            return false;
        }
        m_linesInk = QRect(QPoint(left, top), QPoint(right, bottom));
        m_linesOrigin = strip.topLeft();
        ++lineImageRenders;
        return true;
    }

    QImage m_lines; ///< the base line and ticks over transparent, m_linesOrigin (viewport pixels) at its top left
    QPoint m_linesOrigin;
    QRect m_linesInk; ///< the part of m_lines that holds all of its ink
    bool m_seen = false; ///< the m_lines* inputs below are those of the last replot
    QCPAxis::AxisType m_linesType = QCPAxis::atLeft;
    QRect m_linesAxisRect;
    QRect m_linesViewport;
    int m_linesOffset = 0;
    int m_linesTickIn = 0;
    int m_linesTickOut = 0;
    int m_linesSubTickIn = 0;
    int m_linesSubTickOut = 0;
    QPen m_linesBasePen;
    QPen m_linesTickPen;
    QPen m_linesSubTickPen;
    QVector<double> m_linesTicks;
    QVector<double> m_linesSubTicks;

    mutable QByteArray m_labelKey;
    mutable bool m_labelKeyBuilt = false;
    mutable double m_keyRatio = 0;
    mutable double m_keyRotation = 0;
    mutable QCPAxis::LabelSide m_keySide = QCPAxis::lsOutside;
    mutable bool m_keySubstituteExponent = false;
    mutable bool m_keyMultiplyCross = false;
    mutable QColor m_keyColor;
    mutable QFont m_keyFont;

    /**
     * The tick labels' extent away from the axis as draw() measured it (as drawn, from its label cache), read back from
     * the selection box it set: from the edge nearest the axis (the axis' position, offset, outward tick length and tick
     * label padding) to the far edge. QRect::normalized() (Qt 6) turns a box set from its far to its near edge (right
     * and bottom axes) into one from near + 1 to far - 1, and leaves a box of no extent at the near edge.
     */
    int drawnTickLabelsSize() const
    {
        const QRect& box = mTickLabelsSelectionBox;
        const int out = std::max(tickLengthOut, subTickLengthOut) + tickLabelPadding;
        switch (type) {
        case QCPAxis::atLeft:
            return axisRect.left() - offset - out - box.left();
        case QCPAxis::atTop:
            return axisRect.top() - offset - out - box.top();
        case QCPAxis::atRight: {
            const int near = axisRect.right() + offset + out;
            return box.left() == near ? 0 : box.right() - near + 1;
        }
        case QCPAxis::atBottom: {
            const int near = axisRect.bottom() + offset + out;
            return box.top() == near ? 0 : box.bottom() - near + 1;
        }
        }
        return 0;
    }

    /** The title's bounding height as draw() measures it (the painter's font metrics, Qt::TextDontClip), kept per text,
     *  font and resolution. */
    int titleHeight(QPaintDevice* device)
    {
        const int dpi = device->logicalDpiY();
        if (m_heightText != label || m_heightFont != labelFont || m_heightDpi != dpi || m_height < 0) {
            m_heightText = label;
            m_heightFont = labelFont;
            m_heightDpi = dpi;
            m_height = QFontMetrics(labelFont, device).boundingRect(0, 0, 0, 0, Qt::TextDontClip, label).height();
        }
        return m_height;
    }

    QString m_sizeText; ///< the title size() measured last, in m_sizeFont at m_sizeDpi: m_sizeHeight px high
    QFont m_sizeFont;
    qreal m_sizeDpi = 0;
    int m_sizeHeight = -1;

    QString m_heightText;
    QFont m_heightFont;
    int m_heightDpi = 0;
    int m_height = -1;
};

} // namespace

void cacheAxisTitle(QCPAxis* axis)
{
    QCPAxisPainterPrivate*& painter = AxisAccess::painterOf(axis);
    if (!painter || dynamic_cast<TitleAxisPainter*>(painter))
        return;
    auto* titled = new TitleAxisPainter(axis->parentPlot(), *painter);
    delete painter;
    painter = titled;
}

const TextImage* axisTitleImage(const QCPAxis* axis)
{
    auto* painter = dynamic_cast<const TitleAxisPainter*>(AxisAccess::painterOf(axis));
    return painter ? &painter->title : nullptr;
}

long long axisLabelKeyReuses(const QCPAxis* axis)
{
    auto* painter = dynamic_cast<const TitleAxisPainter*>(AxisAccess::painterOf(axis));
    return painter ? painter->labelKeyReuses : -1;
}

void setAxisLabelKeyKept(bool on)
{
    g_labelKeyKept = on;
}

std::pair<long long, long long> axisLineImageUse(const QCPAxis* axis)
{
    auto* painter = dynamic_cast<const TitleAxisPainter*>(AxisAccess::painterOf(axis));
    return painter ? std::make_pair(painter->lineImageRenders, painter->lineImageDraws) : std::make_pair(-1LL, -1LL);
}

void setAxisLinesKept(bool on)
{
    g_linesKept = on;
}

long long axisTitleSizeMeasurements(const QCPAxis* axis)
{
    auto* painter = dynamic_cast<const TitleAxisPainter*>(AxisAccess::painterOf(axis));
    return painter ? painter->titleSizeMeasurements : -1;
}

void setAxisTitleSizeKept(bool on)
{
    g_titleSizeKept = on;
}

} // namespace ridgeline::views
