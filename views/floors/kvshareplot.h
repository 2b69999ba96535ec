// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMap>

#include "views/floors/floorplot.h"

class QCPAxis;
class QCPBars;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace ridgeline::views {

/**
 * Plot 3, "KV share of the decode read": a stacked bar of the bytes one decode step reads at the
 * current (B, S), weights vs KV cache in GB, above a curve of the KV share (%) across context S for
 * the current batch, the current S marked. Both are QCustomPlots: the bar a small one of its own
 * (barPlot(), fixed height, the plot kit's look and cached grid and legend layers), two QCPBars
 * stacked, their values written in place (issue 16, nineteenth stop in docs/performance.md: it was
 * a Qt Charts QChartView, about 3 M instructions a model-size step in Qt Charts and QGraphicsScene).
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
    QCustomPlot* barPlot() const override { return m_barPlot; }
    /** Also the pinned scenarios' bars: the bar chart's value axis reaches the largest one's bytes. */
    void keepBaselineInView() override;
    /** The bars of weight bytes (GB) and of KV cache bytes (GB), stacked: key 0 the current point, key i >= 1 the
     *  i-th pinned scenario drawn (bar i of barLabels()). */
    QCPBars* weightsBars() const { return m_weights; }
    QCPBars* kvBars() const { return m_kv; }
    /** How many bars the chart draws: 1, plus one per pinned scenario. */
    int barCount() const;
    /** The weights' (GB) and the KV cache's (GB) part of bar @p index (0 = the current point); 0 out of range. */
    double weightsGb(int index) const;
    double kvGb(int index) const;
    /** The bars' names on the category axis, bar 0 first: "read" alone (the axis hidden), "B", "A" beside baseline A
     *  alone, else "live", "A", "B", ... */
    QStringList barLabels() const;
    /** The category axis naming the bars (vertical; hidden without a pinned scenario). */
    QCPAxis* barAxis() const { return m_barAxis; }
    /** What hovering bar @p index of @p bars (weightsBars() or kvBars()) shows: that part and the total, in GB. */
    QString barToolTip(const QCPBars* bars, int index) const;
    /** The bar under @p pos (pixels in barPlot()): which part (weightsBars() or kvBars()) and its index; nullptr when
     *  none is there. */
    QCPBars* barAt(const QPointF& pos, int* index) const;
    /** The bar chart's byte axis (values in GB; its tick labels in the unit that keeps them short). */
    QCPAxis* bytesAxis() const { return m_bytesAxis; }
    /** Ticks at 0, half and @p maxGb (GB), labelled in GB below 1,000 GB, else TB, PB, EB, ZB, YB (decimal) so that
     *  no label passes 8 characters ("75 PB", not "75000000000 GB"); the range 0 to @p maxGb. The axis's ticker is a
     *  QCPAxisTickerText (set here when it is another), its ticks replaced in place. */
    static void setBytesAxisRange(QCPAxis* axis, double maxGb);
    /** The byte axis's tick labels, by value in GB (its QCPAxisTickerText's ticks). */
    static QMap<double, QString> bytesAxisTicks(const QCPAxis* axis);

protected:
    void drawBaseline(const document::Baseline& a, const QString& label, BaselineLayer& layer) override;
    void eraseBaseline() override;

private:
    /** Sets the bar chart's category axis to @p labels, one per bar (key 0 first), shown when @p visible. */
    void setBarCategories(const QStringList& labels, bool visible);

    QCustomPlot* m_barPlot = nullptr; ///< the stacked bar, above the share curve's plot()
    QCPBars* m_weights = nullptr;
    QCPBars* m_kv = nullptr;          ///< stacked on m_weights
    QCPAxis* m_barAxis = nullptr;     ///< vertical: one category a bar
    QCPAxis* m_bytesAxis = nullptr;   ///< ticks labelled in GB, TB, PB... (the bars hold GB)
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
