// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include "views/floors/floorplot.h"

class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace ridgeline::views {

/**
 * Plot 5, "t_step(B) against ITL SLO lines": t_step against batch (log-log), one dashed line per
 * ITL SLO with the largest batch that meets it marked, aggregate tokens/s on the right axis, and
 * the line form of t_step(B) at the current B in the takeaway (model/cost/formulatext.h). Each marked
 * batch is the smaller of the SLO's and what the KV budget holds; the takeaway says which binds.
 */
class SloPlot final : public FloorPlot {
    Q_OBJECT

public:
    explicit SloPlot(QWidget* parent = nullptr);

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

    QCPGraph* stepGraph() const { return m_step; }
    QCPGraph* throughputGraph() const { return m_throughput; }
    /** One point: (current B, t_step ms). */
    QCPGraph* currentMarker() const { return m_current; }
    /** One point per SLO that some batch meets within memory: (largest servable batch, t_step there, ms).
     *  The batch is the smaller of the SLO's and the one whose KV cache fits (model::SloBatch::servableBatch). */
    QCPGraph* sloBatchMarkers() const { return m_sloBatches; }
    /** The vertical line at the largest batch whose KV cache fits at S (shown when memory binds). */
    QCPItemStraightLine* memoryLine() const { return m_memoryLine; }
    /** The SLO lines' labels, one per ITL SLO in the scenario's order (more may exist, hidden). A label that would
     *  overlap a tighter SLO's label or be crossed by another SLO line is mirrored to the other side of its line, or
     *  hidden (separateSloLabels()). */
    const std::vector<QCPItemText*>& sloLabels() const { return m_sloLabels; }
    /** The SLO lines (horizontal at each ITL SLO, ms), in sloLabels()' order (more may exist, hidden). */
    const std::vector<QCPItemStraightLine*>& sloLines() const { return m_sloLines; }

protected:
    void drawBaseline(const document::Baseline& a, const QString& label, BaselineLayer& layer) override;

private:
    void ensureSloItems(size_t count);
    /** Keeps the SLO labels apart after layout (pixel geometry known): tighter SLOs first, a label that overlaps one
     *  already kept or is crossed by another SLO line tries the other side of its line, else it is hidden (its figure
     *  stays in the takeaway); the tightest SLO's label is never hidden. */
    void separateSloLabels();

    QCPGraph* m_step = nullptr;
    QCPGraph* m_throughput = nullptr;
    QCPGraph* m_current = nullptr;
    QCPGraph* m_sloBatches = nullptr;
    QCPItemStraightLine* m_currentLine = nullptr;
    QCPItemStraightLine* m_memoryLine = nullptr;
    QCPItemText* m_memoryLabel = nullptr;
    std::vector<QCPItemStraightLine*> m_sloLines;
    std::vector<QCPItemText*> m_sloLabels;
    std::vector<double> m_sloMs; ///< the SLO (ms) of each label in use, m_sloLabels' order
};

} // namespace ridgeline::views
