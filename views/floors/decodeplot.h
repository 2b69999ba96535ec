// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "views/floors/floorplot.h"

class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace ridgeline::views {

/**
 * Plot 1, "Decode floor": t_mem(B), t_comp(B) and t_step(B) in ms per step against batch
 * (log-log), the weights-only floor (Sweeps::weightFloorMs: flat for a dense model; for MoE rising
 * from the active-weight floor at B = 1 toward the all-experts floor, both labelled), aggregate
 * tokens/s on the right axis, the current batch and the compute-bound batch marked. The takeaway
 * names the batch-1 floor W/BW (W/(T BW) per GPU share with tensor parallelism), the all-reduce
 * time when T > 1, and where decode turns compute-bound.
 */
class DecodePlot final : public FloorPlot {
    Q_OBJECT

public:
    explicit DecodePlot(QWidget* parent = nullptr);

    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation) override;
    QList<SweepColumn> csvColumns() const override { return columns(); }
    Explanation explanation(const model::Scenario& scenario, const model::Evaluation& evaluation) const override
    {
        return explain(scenario, evaluation);
    }
    /** The CSV columns (the export's "<name>.csv": headers with units, and the sweeps they read). */
    static QList<SweepColumn> columns();
    /** What the Explain panel shows for this plot at @p evaluation of @p scenario. */
    static Explanation explain(const model::Scenario& scenario, const model::Evaluation& evaluation);

    QCPGraph* memoryGraph() const { return m_memory; }
    QCPGraph* computeGraph() const { return m_compute; }
    /** t_comm(B), ms (model::Sweeps::commMs): visible and in the legend with tensor parallelism (T > 1) only. */
    QCPGraph* commGraph() const { return m_comm; }
    QCPGraph* stepGraph() const { return m_step; }
    QCPGraph* throughputGraph() const { return m_throughput; }
    /** Weights-only floor (ms) over batch: weights read per step per GPU / BW. */
    QCPGraph* weightFloorGraph() const { return m_weightFloor; }
    /** MoE only (hidden when dense): the label at the active-weight floor and the all-experts line's label. */
    QCPItemText* activeFloorLabel() const { return m_activeFloorLabel; }
    QCPItemText* totalFloorLabel() const { return m_totalFloorLabel; }
    /** One point: (current B, t_step ms). */
    QCPGraph* currentMarker() const { return m_current; }

protected:
    void drawBaseline(const document::Baseline& a, const QString& label, BaselineLayer& layer) override;

private:
    QCPGraph* m_memory = nullptr;
    QCPGraph* m_compute = nullptr;
    QCPGraph* m_comm = nullptr;
    QCPGraph* m_step = nullptr;
    QCPGraph* m_throughput = nullptr;
    QCPGraph* m_weightFloor = nullptr;
    QCPItemStraightLine* m_totalFloorLine = nullptr;
    QCPItemText* m_totalFloorLabel = nullptr;
    QCPItemText* m_activeFloorLabel = nullptr;
    QCPGraph* m_current = nullptr;
    QCPGraph* m_currentThroughput = nullptr;
    QCPItemStraightLine* m_currentLine = nullptr;
    QCPItemStraightLine* m_computeBoundLine = nullptr;
    QCPItemText* m_computeBoundLabel = nullptr;
    QCPItemText* m_currentLabel = nullptr;
};

} // namespace ridgeline::views
