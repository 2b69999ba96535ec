// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/baselinelayer.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "views/kit/palette.h"
#include "views/kit/pinnedlayer.h"
#include "views/kit/plotkit.h"
#include "views/kit/theme.h"

namespace ridgeline::views {

using namespace plotkit;

QPen baselinePen()
{
    return pinnedPen(0);
}

QPen pinnedPen(int slot)
{
    // Dash patterns in pen widths, one per slot: A's dashes as before, then dots, long dashes,
    // dash-dot, dash-dot-dot and short dashes (C's long dashes: the decode plot's live tok/s is dash-dot).
    static const QList<QList<qreal>> kPatterns{
        {4.0, 2.5}, {1.0, 1.6}, {8.0, 2.5}, {5.0, 1.8, 1.2, 1.8}, {5.0, 1.6, 1.2, 1.6, 1.2, 1.6}, {2.2, 2.2}};
    const int index = slot >= 0 && slot < int(kPatterns.size()) ? slot : 0;
    QPen p = pen(palette::pinned(index), 2.2 * currentTheme().lineScale, Qt::CustomDashLine);
    QVector<qreal> pattern(kPatterns[index].begin(), kPatterns[index].end());
    p.setDashPattern(pattern);
    return p;
}

QString pinnedLetter(int slot)
{
    return QString(QChar(u'A' + std::clamp(slot, 0, 25)));
}

QCPGraph* BaselineLayer::addCurve(const QString& name)
{
    QCustomPlot* p = m_plot;
    QCPGraph* graph = plotkit::addCurve(p, p->xAxis, p->yAxis, pinnedPen(m_slot), name);
    graph->setObjectName(QStringLiteral("baselineGraph"));
    graph->setProperty("pinnedSlot", m_slot);
    graph->removeFromLegend();
    if (!name.isEmpty()) { // named, but labelled inside the plot: a legend row would cost the plot its height
        QCPItemText* text = addLabel(p, p->xAxis, p->yAxis, palette::pinned(m_slot));
        QFont font = text->font();
        font.setPointSizeF(font.pointSizeF() * currentTheme().fontScale);
        text->setFont(font);
        // Elided to the plot's width (a long scenario name would be cut by the axis rect); the graph keeps the whole name.
        const int width = p->axisRect()->width() > 40 ? p->axisRect()->width() - 12 : 320;
        text->setText(QFontMetrics(font).elidedText(QStringLiteral("\u2013 \u2013 ") + name, Qt::ElideRight, width));
        if (m_labelBelow) { // one line under the pinned scenario drawn before
            text->position->setParentAnchor(m_labelBelow->bottomLeft);
            text->position->setType(QCPItemPosition::ptAbsolute);
            text->position->setCoords(0.0, 0.0);
            text->setPadding(QMargins(4, 0, 4, 2));
        } else {
            text->position->setType(QCPItemPosition::ptAxisRectRatio);
            text->position->setCoords(0.0, 0.0);
            text->setPadding(QMargins(4, 2, 4, 2));
        }
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setObjectName(QStringLiteral("baselineLabel"));
        text->setLayer(PinnedLayerCache::pinnedLabelLayer(p)); // above the live curves, from a picture
        m_label = text;
        m_items.append(text);
    }
    // Above the grid, under the live curves; drawn from a picture redrawn only when it changes.
    graph->setLayer(PinnedLayerCache::pinnedLayer(p));
    m_graphs.append(graph);
    return graph;
}

QCPGraph* BaselineLayer::addMarker()
{
    QCustomPlot* p = m_plot;
    const double scale = currentTheme().lineScale;
    // A ring for A, then a shape per pinned scenario.
    static const QCPScatterStyle::ScatterShape kShapes[]{QCPScatterStyle::ssCircle,  QCPScatterStyle::ssSquare,
                                                         QCPScatterStyle::ssDiamond, QCPScatterStyle::ssTriangle,
                                                         QCPScatterStyle::ssTriangleInverted, QCPScatterStyle::ssCrossSquare};
    const QCPScatterStyle::ScatterShape shape = kShapes[m_slot >= 0 && m_slot < 6 ? m_slot : 0];
    QCPGraph* graph = plotkit::addMarker(p, p->xAxis, p->yAxis,
                                         QCPScatterStyle(shape, QPen(palette::pinned(m_slot), 2.0 * scale),
                                                         QBrush(palette::card()), 9 * scale));
    graph->setObjectName(QStringLiteral("baselineGraph"));
    graph->setProperty("pinnedSlot", m_slot);
    graph->setLayer(PinnedLayerCache::pinnedLayer(p));
    m_graphs.append(graph);
    return graph;
}

void BaselineLayer::addVerticalLine(double key)
{
    QCPItemStraightLine* line = addStraightLine(m_plot, m_plot->xAxis, m_plot->yAxis, pinnedPen(m_slot));
    line->setLayer(PinnedLayerCache::pinnedLayer(m_plot));
    placeVertical(line, key);
    m_items.append(line);
}

void BaselineLayer::setExtent(double low, double high, double lowPad, double highPad)
{
    m_low = low;
    m_high = high;
    m_lowPad = lowPad;
    m_highPad = highPad;
    m_upperOnly = false;
}

void BaselineLayer::setUpperExtent(double high, double highPad)
{
    m_low = 0;
    m_high = high;
    m_highPad = highPad;
    m_upperOnly = true;
}

void BaselineLayer::keepInView() const
{
    if (isEmpty())
        return;
    QCPAxis* axis = m_plot->yAxis;
    const QCPRange range = axis->range();
    if (m_upperOnly) {
        if (m_high > 0 && std::isfinite(m_high) && m_high * m_highPad > range.upper)
            axis->setRange(range.lower, m_high * m_highPad);
        return;
    }
    if (!(m_low > 0) || !(m_high > 0) || !std::isfinite(m_low) || !std::isfinite(m_high))
        return;
    const double lower = std::min(range.lower, m_low / m_lowPad);
    const double upper = std::max(range.upper, m_high * m_highPad);
    if (lower != range.lower || upper != range.upper)
        axis->setRange(lower, upper);
}

void BaselineLayer::remove()
{
    for (QCPGraph* graph : m_graphs)
        m_plot->removeGraph(graph);
    for (QCPAbstractItem* item : m_items)
        m_plot->removeItem(item);
    m_graphs.clear();
    m_items.clear();
    m_label = nullptr;
    m_low = m_high = 0;
    m_lowPad = m_highPad = 1.4;
    m_upperOnly = false;
}

} // namespace ridgeline::views
