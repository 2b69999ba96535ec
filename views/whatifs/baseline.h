// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QList>
#include <QObject>
#include <QString>

#include "document/baseline.h"
#include "views/kit/baselinelayer.h"

class QCPGraph;

namespace ridgeline::views {

class CapacityPlot;
class FloorPlot;
class KvFitPlot;
class PlotPanel;
class SpeculativePlot;

/**
 * Baseline A for A/B comparison, drawn on the five floor plots and on the what-if plots of the same
 * cost model, on the same axes as the live scenario B.
 *
 * pin() evaluates A once (document::Baseline: model::evaluate into a stored Evaluation) and hands it
 * to each floor plot, which draws A's curves into dashed graphs of its own once
 * (views/floors/floorplot.h: FloorPlot::setBaseline; what each plot draws is in its drawBaseline());
 * the live path never touches them again. A's main curve in each plot is named "A: <model> on
 * <hardware>" inside the plot.
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
    /** @p floors: the five floor plots (views/floors/floorplot.h), in floorPlotIds() order. */
    explicit BaselineOverlay(const QList<FloorPlot*>& floors, QObject* parent = nullptr);

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
    /** A on a what-if plot, drawn from here (the floor plots draw their own). */
    struct Layer {
        PlotPanel* panel = nullptr;
        BaselineLayer layer;
    };

    void removeLayers();
    BaselineLayer& layer(PlotPanel* panel);

    QList<FloorPlot*> m_floors;
    CapacityPlot* m_capacity = nullptr;
    KvFitPlot* m_kvFit = nullptr;
    SpeculativePlot* m_speculative = nullptr;
    document::Baseline m_a; ///< the pinned scenario and its evaluation
    std::vector<Layer> m_layers;
};

} // namespace ridgeline::views
