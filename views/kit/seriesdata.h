// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cmath>
#include <utility>

#include <QVector>

#include <qcustomplot.h>

/**
 * Writing result series of varying length (simulation and calibration plots) into QCustomPlot
 * graphs without ever drawing NaN or infinity: points that cannot be drawn are left out rather
 * than written as gaps, and a graph whose point count is unchanged is overwritten in place.
 */
namespace ridgeline::views::seriesdata {

/** True when @p value can be drawn on a linear axis, or on a log axis when @p log (then > 0). */
inline bool drawable(double value, bool log)
{
    return std::isfinite(value) && (!log || value > 0);
}

/**
 * Writes the drawable points among @p count points into @p graph; @p at(i) gives point i as
 * (key, value), keys non-decreasing. Overwrites in place when the graph already holds as many
 * drawable points, else rebuilds the container once. Returns the number of points written.
 */
template <typename At>
int assign(QCPGraph* graph, int count, At at, bool logKeys, bool logValues)
{
    int drawn = 0;
    for (int i = 0; i < count; ++i) {
        const std::pair<double, double> p = at(i);
        if (drawable(p.first, logKeys) && drawable(p.second, logValues))
            ++drawn;
    }
    QSharedPointer<QCPGraphDataContainer> data = graph->data();
    if (data->size() == drawn) {
        auto it = data->begin();
        for (int i = 0; i < count; ++i) {
            const std::pair<double, double> p = at(i);
            if (drawable(p.first, logKeys) && drawable(p.second, logValues)) {
                it->key = p.first;
                it->value = p.second;
                ++it;
            }
        }
        return drawn;
    }
    QVector<QCPGraphData> points;
    points.reserve(drawn);
    for (int i = 0; i < count; ++i) {
        const std::pair<double, double> p = at(i);
        if (drawable(p.first, logKeys) && drawable(p.second, logValues))
            points.append(QCPGraphData(p.first, p.second));
    }
    data->set(points, true);
    return drawn;
}

/** Empties @p graph. */
inline void clear(QCPGraph* graph)
{
    graph->data()->clear();
}

} // namespace ridgeline::views::seriesdata
