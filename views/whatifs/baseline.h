// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include "document/baseline.h"

class QCPAbstractItem;
class QCPGraph;
class QCustomPlot;

namespace ridgeline::views {

class CapacityPlot;
class DecodePlot;
class KvFitPlot;
class KvSharePlot;
class PlotPanel;
class PrefillPlot;
class RooflinePlot;
class SloPlot;
class SpeculativePlot;

/**
 * Baseline A for A/B comparison, drawn into the five plot panels on the same axes as the live
 * scenario B.
 *
 * pin() evaluates A once (document::Baseline: model::evaluate into a stored Evaluation) and writes A's curves into
 * dashed graphs of the baseline colour once; the live path never touches them again. A's main
 * curve in each plot is named "A: <model> on <hardware>" in the legend:
 * decode floor: A's t_step(B) and A's operating point; roofline: A's roof and A's decode and
 * prefill points; KV share: A's share over S, A's point, and A's bytes as a second bar ("A") in
 * the bar chart; prefill: A's total FLOP and A's P*; SLO: A's t_step(B) and A's point.
 *
 * With setWhatIfPanels() A is drawn on the what-if plots that evaluate the same cost model too:
 * capacity: A's paged and contiguous sequences over S_max and A's points; where the cache fits: A's
 * largest batch that fits over S and A's (S, B); speculative: A's speedup over c_v and A's point.
 * The Simulation and Calibration plots are not the cost model's curves (a simulated run, measured
 * points) and carry no A. plotNames() lists the plots A is drawn on, for the messages that say so.
 *
 * afterRefresh() (call after the panels refreshed from B) only widens the value axes so A stays
 * in view, from extents computed at pin time: no data is copied on the live path.
 */
class BaselineOverlay final : public QObject {
    Q_OBJECT

public:
    BaselineOverlay(DecodePlot* decode, RooflinePlot* roofline, KvSharePlot* kvShare, PrefillPlot* prefill,
                    SloPlot* slo, QObject* parent = nullptr);

    /** Also draws A on these what-if plots (any may be nullptr). Call before pin(). */
    void setWhatIfPanels(CapacityPlot* capacity, KvFitPlot* kvFit, SpeculativePlot* speculative);

    /** The plots A is drawn on, for messages: "the five Floors plots and ...". */
    QString plotNames() const;

    /** Makes @p scenario baseline A (it must be valid) and draws it. Replaces an earlier baseline. */
    void pin(const model::Scenario& scenario);
    /** Removes A from every plot. */
    void clear();

    bool isPinned() const { return m_a.isPinned(); }
    const model::Scenario& scenario() const { return m_a.scenario(); }
    const model::Evaluation& evaluation() const { return m_a.evaluation(); }
    /** "A: Llama 3.1 8B on H100 SXM". */
    QString label() const;

    /** Widens the panels' value axes to keep A in view (after PlotPanel::refresh from B). */
    void afterRefresh();

    /** A's graphs in @p panel (main curve first, then markers); empty when nothing is pinned. */
    QList<QCPGraph*> graphs(const PlotPanel* panel) const;

signals:
    /** A was pinned (true) or cleared (false). */
    void pinnedChanged(bool pinned);

private:
    struct Layer {
        PlotPanel* panel = nullptr;
        QList<QCPGraph*> graphs;
        QList<QCPAbstractItem*> items;
        double low = 0, high = 0; ///< A's extent on the left (log) value axis, plot units; 0: none
        double lowPad = 1.4;      ///< the axis goes down to low / lowPad at least
        double highPad = 1.4;     ///< and up to high * highPad at least
        bool upperOnly = false;   ///< a linear axis from 0 (or a fixed floor): widen the top only
    };

    void removeLayers();
    Layer& layer(PlotPanel* panel);
    QCPGraph* addGraph(Layer& layer, bool curve, const QString& name);

    DecodePlot* m_decode;
    RooflinePlot* m_roofline;
    KvSharePlot* m_kvShare;
    PrefillPlot* m_prefill;
    SloPlot* m_slo;
    CapacityPlot* m_capacity = nullptr;
    KvFitPlot* m_kvFit = nullptr;
    SpeculativePlot* m_speculative = nullptr;
    document::Baseline m_a; ///< the pinned scenario and its evaluation
    QList<Layer> m_layers;
    double m_barTotalGb = 0; ///< A's bytes per decode step in the bar chart
    int m_barViewHeight = 0; ///< the bar chart's height before A's bar was added
};

} // namespace ridgeline::views
