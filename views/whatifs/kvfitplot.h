// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include "views/kit/plotpanel.h"

class QCPGraph;
class QCPItemStraightLine;

namespace ridgeline::views {

/**
 * "Where the KV cache fits: batch against context": the largest batch whose cache fits the KV
 * budget at each context S (sweeps.context against sweeps.maxBatchFitting, log-log), the region
 * above it shaded "does not fit", and the current (S, B) marked, green when it fits and red when not.
 * A context where not even one sequence fits is drawn at kNoBatch, below the visible range.
 */
class KvFitPlot final : public PlotPanel {
    Q_OBJECT

public:
    /** Where a maxBatchFitting of 0 is drawn: below the bottom of the y axis (which starts at 0.7). */
    static constexpr double kNoBatch = 0.5;
    /** The fill's ceiling, far above any range the y axis takes. */
    static constexpr double kCeiling = 1e12;

    explicit KvFitPlot(QWidget* parent = nullptr);

    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation) override;

    /** (S tokens, largest batch that fits): max(sweeps.maxBatchFitting, kNoBatch) on sweeps.context. */
    QCPGraph* boundaryGraph() const { return m_boundary; }
    /** One point: (current S, current B). */
    QCPGraph* currentMarker() const { return m_current; }

private:
    QCPGraph* m_boundary = nullptr;
    QCPGraph* m_ceiling = nullptr;
    QCPGraph* m_current = nullptr;
    QCPItemStraightLine* m_batchLine = nullptr;
    QCPItemStraightLine* m_contextLine = nullptr;
    Eigen::ArrayXd m_drawn; ///< maxBatchFitting floored at kNoBatch, reused across refreshes
    bool m_currentFits = true;
};

} // namespace ridgeline::views
