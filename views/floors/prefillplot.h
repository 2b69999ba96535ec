// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include "views/floors/floorplot.h"

class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace ridgeline::views {

/**
 * Plot 4, "Prefill crossover": the linear term 2·N_active·P and the quadratic attention term
 * 4·L·P²·d_attn of the prefill FLOP, and their sum, against prompt length P (log-log). Marks
 * P* of the current model, P* of the Llama 3.1 8B/70B/405B references, the prompt length where
 * prefill turns compute-bound, and the current P.
 */
class PrefillPlot final : public FloorPlot {
    Q_OBJECT

public:
    explicit PrefillPlot(QWidget* parent = nullptr);

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

    QCPGraph* linearGraph() const { return m_linear; }
    QCPGraph* attentionGraph() const { return m_attention; }
    QCPGraph* totalGraph() const { return m_total; }
    /** One point: (current P tokens, prefill TFLOP). */
    QCPGraph* currentMarker() const { return m_current; }
    /** The "70B P*", "405B P*" reference labels, in referenceCrossovers() order. */
    const std::vector<QCPItemText*>& referenceLabels() const { return m_referenceLabels; }

protected:
    void drawBaseline(const document::Baseline& a, const QString& label, BaselineLayer& layer) override;

private:
    /** After each layout: shows a reference label only when its line is at least a label's height
     *  (in pixels) from the P* and compute-bound lines and from the reference labels shown before
     *  it, so that on a small plot the rotated labels do not print over each other. */
    void separateReferenceLabels();

    QCPGraph* m_linear = nullptr;
    QCPGraph* m_attention = nullptr;
    QCPGraph* m_total = nullptr;
    QCPGraph* m_current = nullptr;
    QCPItemStraightLine* m_crossoverLine = nullptr;
    QCPItemText* m_crossoverLabel = nullptr;
    QCPItemStraightLine* m_computeBoundLine = nullptr;
    QCPItemText* m_computeBoundLabel = nullptr;
    QCPItemStraightLine* m_currentLine = nullptr;
    std::vector<QCPItemStraightLine*> m_referenceLines;
    std::vector<QCPItemText*> m_referenceLabels;
    std::vector<bool> m_referenceWanted; ///< per reference: not the current model's own P*
};

} // namespace ridgeline::views
