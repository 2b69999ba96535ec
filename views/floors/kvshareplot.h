// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "views/floors/floorplot.h"

class QBarSet;
class QCategoryAxis;
class QChart;
class QChartView;
class QValueAxis;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace ridgeline::views {

/**
 * Plot 3, "KV share of the decode read": a Qt Charts stacked bar of the bytes one decode step
 * reads at the current (B, S), weights vs KV cache in GB, above a QCustomPlot curve of the KV
 * share (%) across context S for the current batch, the current S marked. The bar sets are
 * updated in place (QBarSet::replace), never cleared and refilled.
 */
class KvSharePlot final : public FloorPlot {
    Q_OBJECT

public:
    explicit KvSharePlot(QWidget* parent = nullptr);

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

    QCPGraph* shareGraph() const { return m_share; }
    /** One point: (current S tokens, KV share %). */
    QCPGraph* currentMarker() const { return m_current; }
    QChartView* chartView() const override { return m_chartView; }
    /** Also the pinned scenarios' bars: the bar chart's value axis reaches the largest one's bytes. */
    void keepBaselineInView() override;
    /** Bar set of weight bytes (GB) and of KV cache bytes (GB) at the current point. */
    QBarSet* weightsBarSet() const { return m_weightsSet; }
    QBarSet* kvBarSet() const { return m_kvSet; }
    /** What hovering bar @p index of @p set shows: that part and the total, in GB. */
    QString barToolTip(const QBarSet* set, int index) const;
    /** The bar chart's byte axis (values in GB; its tick labels in the unit that keeps them short). */
    QCategoryAxis* bytesAxis() const { return m_bytesAxis; }
    /** Ticks at 0, half and @p maxGb (GB), labelled in GB below 1,000 GB, else TB, PB, EB, ZB, YB (decimal) so that
     *  no label passes 8 characters ("75 PB", not "75000000000 GB"). */
    static void setBytesAxisRange(QCategoryAxis* axis, double maxGb);

protected:
    void drawBaseline(const document::Baseline& a, const QString& label, BaselineLayer& layer) override;
    void eraseBaseline() override;

private:
    QChartView* m_chartView = nullptr;
    QChart* m_chart = nullptr;
    QBarSet* m_weightsSet = nullptr;
    QBarSet* m_kvSet = nullptr;
    QCategoryAxis* m_bytesAxis = nullptr; ///< ticks labelled in GB, TB, PB... (the bars hold GB)
    QCPGraph* m_share = nullptr;
    QCPGraph* m_current = nullptr;
    QCPItemStraightLine* m_currentLine = nullptr;
    QCPItemStraightLine* m_halfLine = nullptr;
    QCPItemText* m_halfLabel = nullptr;
    double m_barTotalGb = 0; ///< the largest pinned scenario's bytes per decode step in the bar chart (GB); 0 without one
    int m_barViewHeight = 0; ///< the bar chart's height before the pinned scenarios' bars were added; 0 without one
    QStringList m_barLetters; ///< the pinned scenarios' letters, one per bar after the live one
};

} // namespace ridgeline::views
