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

    TextImage title;
    mutable long long labelKeyReuses = 0;

private:
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

} // namespace ridgeline::views
