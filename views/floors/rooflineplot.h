// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "views/floors/floorplot.h"

class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace ridgeline::views {

/**
 * Plot 2, "Roofline": attainable FLOP/s = min(F_peak, I * BW) against arithmetic intensity
 * (log-log), the derated roof dashed when an efficiency is below 1, the ridge point
 * I* = F_peak / BW, and the decode (B, S) and prefill (P) operating points.
 */
class RooflinePlot final : public FloorPlot {
    Q_OBJECT

public:
    explicit RooflinePlot(QWidget* parent = nullptr);

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

    QCPGraph* roofGraph() const { return m_roof; }
    QCPGraph* deratedGraph() const { return m_derated; }
    /** One point: (decode intensity FLOP/byte, achieved TFLOP/s). */
    QCPGraph* decodeMarker() const { return m_decode; }
    /** One point: (prefill intensity FLOP/byte, achieved TFLOP/s). */
    QCPGraph* prefillMarker() const { return m_prefill; }
    /** One point: (ridge FLOP/byte, peak TFLOP/s). */
    QCPGraph* ridgeMarker() const { return m_ridge; }

protected:
    void drawBaseline(const document::Baseline& a, const QString& label, BaselineLayer& layer) override;

private:
    QCPGraph* m_roof = nullptr;
    QCPGraph* m_derated = nullptr;
    QCPGraph* m_ridge = nullptr;
    QCPGraph* m_decode = nullptr;
    QCPGraph* m_prefill = nullptr;
    QCPItemStraightLine* m_ridgeLine = nullptr;
    QCPItemText* m_ridgeLabel = nullptr;
    QCPItemText* m_decodeLabel = nullptr;
    QCPItemText* m_prefillLabel = nullptr;
};

} // namespace ridgeline::views
