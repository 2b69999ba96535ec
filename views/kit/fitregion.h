// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>

#include <QString>

class QCPAxis;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QCustomPlot;

namespace ridgeline::views {

/**
 * Marks where the KV cache no longer fits on a plot whose key (x) axis is context or batch: a
 * dashed red boundary at the key where the cache outgrows the KV budget, a translucent band from
 * it to the right edge of the axis rect, and a short label. Created once; place() moves it in place.
 *
 * Meant for any plot with x = context S at the current batch (boundary
 * evaluation.capacity.maxContextAtBatch) or x = batch B at the current context (boundary
 * evaluation.capacity.maxSequencesContiguous, the largest batch whose cache fits).
 */
class NoFitRegion final {
public:
    /** Adds the items to @p plot on (@p keyAxis, @p valueAxis); @p label e.g. "cache does not fit", drawn
     *  beside the boundary at @p labelRatio of the axis rect's height from the top (0 = top edge). */
    NoFitRegion(QCustomPlot* plot, QCPAxis* keyAxis, QCPAxis* valueAxis, const QString& label, double labelRatio = 0.02);

    /**
     * Places the boundary at key @p x: keys above x do not fit. nullopt (or +inf) hides everything
     * (it always fits); x at or below zero shades the whole axis rect (nothing fits). Keys beyond the
     * visible range clip naturally (the band is then out of view).
     */
    void place(std::optional<double> x);

    /** The key the boundary was last placed at, nullopt when hidden. */
    std::optional<double> boundary() const { return m_boundary; }

    QCPItemRect* band() const { return m_band; }
    QCPItemStraightLine* line() const { return m_line; }
    QCPItemText* label() const { return m_label; }

private:
    QCPItemRect* m_band = nullptr;
    QCPItemStraightLine* m_line = nullptr;
    QCPItemText* m_label = nullptr;
    std::optional<double> m_boundary;
    double m_labelRatio = 0.02;
};

} // namespace ridgeline::views
