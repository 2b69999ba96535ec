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
 * The pinned scenarios of an N-way comparison (A alone: the A/B comparison), drawn on the five floor plots and on the what-if plots of the same
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
 *
 * N-way (issue 14): pinNext() pins the live scenario into the next free slot (B, C, ... up to F,
 * document::PinnedScenarios), unpin() takes one off, clear() all; each is drawn in its slot's colour,
 * dash and marker (views/kit/baselinelayer.h: pinnedPen) and named "C: <model> on <hardware>" in the
 * stack of names at each plot's top left. pin() replaces A only. scenario(), evaluation() and label()
 * are the reference's: the first pinned (the lowest slot), the one ratios divide by.
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

    /** Makes @p scenario baseline A (it must be valid) and draws it. Replaces an earlier A; other pinned scenarios stay. */
    void pin(const model::Scenario& scenario);
    /** Pins @p scenario (valid) into the lowest free slot and draws it; returns the slot (0 = A), or -1 when all kMaxPinned are taken. */
    int pinNext(const model::Scenario& scenario, const QString& source = {});
    /** Unpins the scenario in @p slot and takes it off every plot; false when none is pinned there. */
    bool unpin(int slot);
    /** Removes every pinned scenario from every plot. */
    void clear();

    /** Whether any scenario is pinned. */
    bool isPinned() const { return !m_pinned.isEmpty(); }
    /** How many scenarios are pinned. */
    int count() const { return m_pinned.size(); }
    /** The pinned scenarios, in slot order. */
    const document::PinnedScenarios& pinned() const { return m_pinned; }
    /** The reference's (first pinned) scenario and evaluation; default ones when nothing is pinned. */
    const model::Scenario& scenario() const;
    const model::Evaluation& evaluation() const;
    /** The reference's name, "A: Llama 3.1 8B on H100 SXM". */
    QString label() const;
    /** Pinned scenario @p slot's name, "C: Llama 3.1 70B on H200" (empty when none is pinned there). */
    QString label(int slot) const;

    /** Widens the panels' value axes to keep A in view (after PlotPanel::refresh from B). */
    void afterRefresh();

    /** Every pinned scenario's graphs in @p panel, in slot order (each: main curve first, then markers); empty when nothing is pinned. */
    QList<QCPGraph*> graphs(const PlotPanel* panel) const;
    /** The graphs of pinned scenario @p slot in @p panel; empty when none is pinned there. */
    QList<QCPGraph*> graphs(const PlotPanel* panel, int slot) const;

signals:
    /** Something is pinned (true) or nothing is any more (false); after every pin, unpin and clear. */
    void pinnedChanged(bool pinned);

private:
    /** A on a what-if plot, drawn from here (the floor plots draw their own). */
    struct Layer {
        PlotPanel* panel = nullptr;
        BaselineLayer layer;
    };

    /** Takes every pinned scenario off and draws the pinned set again (after a pin, unpin or clear). */
    void redraw();
    void removeLayers();
    BaselineLayer& layer(PlotPanel* panel, int slot);

    QList<FloorPlot*> m_floors;
    CapacityPlot* m_capacity = nullptr;
    KvFitPlot* m_kvFit = nullptr;
    SpeculativePlot* m_speculative = nullptr;
    document::PinnedScenarios m_pinned; ///< the pinned scenarios and their evaluations
    std::vector<Layer> m_layers;          ///< on the what-if plots, per pinned scenario
};

} // namespace ridgeline::views
