// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/baselinelayer.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "views/kit/palette.h"
#include "views/kit/plotkit.h"
#include "views/kit/theme.h"

namespace ridgeline::views {

using namespace plotkit;

QPen baselinePen()
{
    QPen p = pen(palette::baseline(), 2.2 * currentTheme().lineScale, Qt::CustomDashLine);
    p.setDashPattern({4.0, 2.5});
    return p;
}

QCPGraph* BaselineLayer::addCurve(const QString& name)
{
    QCustomPlot* p = m_plot;
    QCPGraph* graph = plotkit::addCurve(p, p->xAxis, p->yAxis, baselinePen(), name);
    graph->setObjectName(QStringLiteral("baselineGraph"));
    graph->removeFromLegend();
    if (!name.isEmpty()) { // named, but labelled inside the plot: a legend row would cost the plot its height
        QCPItemText* text = addLabel(p, p->xAxis, p->yAxis, palette::baseline());
        text->setText(QStringLiteral("\u2013 \u2013 ") + name);
        QFont font = text->font();
        font.setPointSizeF(font.pointSizeF() * currentTheme().fontScale);
        text->setFont(font);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(0.0, 0.0);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setPadding(QMargins(4, 2, 4, 2));
        text->setLayer(QStringLiteral("legend"));
        m_items.append(text);
    }
    graph->setLayer(QStringLiteral("grid")); // under B's curves, above the grid
    m_graphs.append(graph);
    return graph;
}

QCPGraph* BaselineLayer::addMarker()
{
    QCustomPlot* p = m_plot;
    const double scale = currentTheme().lineScale;
    QCPGraph* graph = plotkit::addMarker(p, p->xAxis, p->yAxis,
                                         QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(palette::baseline(), 2.0 * scale),
                                                         QBrush(palette::card()), 9 * scale));
    graph->setObjectName(QStringLiteral("baselineGraph"));
    graph->setLayer(QStringLiteral("grid"));
    m_graphs.append(graph);
    return graph;
}

void BaselineLayer::addVerticalLine(double key)
{
    QCPItemStraightLine* line = addStraightLine(m_plot, m_plot->xAxis, m_plot->yAxis, baselinePen());
    line->setLayer(QStringLiteral("grid"));
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
    m_low = m_high = 0;
    m_lowPad = m_highPad = 1.4;
    m_upperOnly = false;
}

} // namespace ridgeline::views
