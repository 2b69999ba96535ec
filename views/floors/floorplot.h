// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <optional>
#include <vector>

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include "document/baseline.h"
#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"
#include "views/kit/baselinelayer.h"
#include "views/kit/plotpanel.h"

class QCustomPlot;
class QWidget;

namespace ridgeline::views {

/** The five floor plots (issue 16), one value each; their window order is floorPlotIds(). */
enum class FloorPlotId {
    Decode,   ///< "decode_floor": t_step(B) and its parts (views/floors/decodeplot.h)
    Roofline, ///< "roofline" (views/floors/rooflineplot.h)
    KvShare,  ///< "kv_share" (views/floors/kvshareplot.h)
    Prefill,  ///< "prefill_crossover" (views/floors/prefillplot.h)
    Slo,      ///< "slo": t_step(B) against the ITL SLO lines (views/floors/sloplot.h)
};

/**
 * The one ordered list of the floor plots: their order in the window's grid (row by row, three to a
 * row: decode, roofline, KV share; prefill, SLO), in the export's dashboard, the Explain panel and
 * the export's file list. Everything that goes over the five plots goes over this list.
 */
inline constexpr std::array<FloorPlotId, 5> kFloorPlotIds{FloorPlotId::Decode, FloorPlotId::Roofline,
                                                          FloorPlotId::KvShare, FloorPlotId::Prefill, FloorPlotId::Slo};

/** floorPlotIds() as a function, for range-for and index look-up. */
inline constexpr const std::array<FloorPlotId, 5>& floorPlotIds() { return kFloorPlotIds; }

/** Where @p id is in floorPlotIds() (0 to 4). */
int floorPlotIndex(FloorPlotId id);

/**
 * The plot's stable string id: its export file stem, a contract (app/export.h: "decode_floor.png",
 * "kv_share.csv", README): decode_floor, roofline, kv_share, prefill_crossover, slo.
 */
QString floorPlotName(FloorPlotId id);
/** The id whose floorPlotName() is @p name; nothing for any other text. */
std::optional<FloorPlotId> floorPlotFromName(const QString& name);
/** The plot's heading, e.g. "Decode floor", "t_step(B) against ITL SLO lines" (translated). */
QString floorPlotTitle(FloorPlotId id);
/** The stem of the plot's object names ("<stem>Panel", "<stem>Title", "<stem>Plot"): decode,
 *  roofline, kvShare, prefill, slo (tests and the accessibility tree find the plots by these). */
QString floorPlotObjectStem(FloorPlotId id);

/** One CSV column of a floor plot: its header (units in the name) and the sweep it is read from. */
struct SweepColumn {
    const char* header;                         ///< e.g. "t_step_ms"
    Eigen::ArrayXd model::Sweeps::* values;     ///< e.g. &model::Sweeps::stepMs
};

/**
 * The CSV of @p columns of @p sweeps, "\n" line ends: the headers, then one row per sweep point
 * (as many as the shortest column), values in the shortest form that reads back to the same double
 * (model::formatNumber), non-finite values left empty.
 */
QByteArray sweepsCsv(const QList<SweepColumn>& columns, const model::Sweeps& sweeps);

/** The CSV columns of plot @p id (as FloorPlot::csvColumns(), without a plot). */
QList<SweepColumn> floorPlotCsvColumns(FloorPlotId id);

/** What one plot shows, for a class to follow the derivation: a sentence and the formulas with the
 *  live values filled in ("t_mem = R / (BW · η_bw) = 16.3 GB / (3.35 TB/s · 1) = 4.87 ms"). */
struct Explanation {
    QString title;
    QString summary;     ///< one or two sentences: what the plot shows and how to read it
    QStringList steps;   ///< formula = values = result, one per line
};

/** The explanation of plot @p id at @p evaluation of @p scenario (as FloorPlot::explanation(), without a plot). */
Explanation explainPlot(FloorPlotId id, const model::Scenario& scenario, const model::Evaluation& evaluation);
/** The explanation of plot @p index in floorPlotIds() (0 decode floor, 1 roofline, 2 KV share,
 *  3 prefill, 4 SLO); an index out of range: the SLO plot's, as before. */
Explanation explainPlot(int index, const model::Scenario& scenario, const model::Evaluation& evaluation);

class FloorPlot;
/** A new plot of kind @p id (its class: DecodePlot, RooflinePlot, ...), child of @p parent. */
FloorPlot* createFloorPlot(FloorPlotId id, QWidget* parent = nullptr);

/**
 * One of the five floor plots (views/floors/): a PlotPanel with a stable id, its title, its CSV
 * columns, its explanation in the Explain panel, and baseline A drawn by the plot itself.
 *
 * Pinned scenarios: setBaselines() takes each pinned scenario's evaluation (document::PinnedScenarios,
 * evaluated once at pin time; setBaseline() is the one-item case, baseline A) and the plot draws their
 * curves into its own dashed graphs (baselineGraphs()) once; the live path never touches them again,
 * and keepBaselineInView() (after refresh()) only widens the value axis so they stay in view.
 * clearBaseline() takes them off. No code outside the plot writes its graphs.
 *
 * To add a floor plot: a value in FloorPlotId, its place in kFloorPlotIds, its row in the table of
 * floorplot.cpp (name, object stem, title, class), and a subclass that implements refresh(),
 * csvColumns(), explanation() and drawBaseline() (docs/architecture.md, "Where to add").
 */
class FloorPlot : public PlotPanel {
    Q_OBJECT

public:
    /** @param formulaToolTip the formulas the plot draws (PlotPanel); the heading and object names come from @p id. */
    FloorPlot(FloorPlotId id, const QString& formulaToolTip, QWidget* parent = nullptr);

    FloorPlotId id() const { return m_id; }
    /** floorPlotName(id()): the export file stem, e.g. "decode_floor". */
    QString name() const { return floorPlotName(m_id); }
    /** floorPlotTitle(id()): the heading, e.g. "Decode floor". */
    QString title() const { return floorPlotTitle(m_id); }

    /** The columns of the plot's CSV (app/export.h: plotCsv): headers with units, and the sweeps they read. */
    virtual QList<SweepColumn> csvColumns() const = 0;
    /** The plot's CSV of @p evaluation's sweeps (sweepsCsv() of csvColumns()); also for baseline A's evaluation. */
    QByteArray csv(const model::Evaluation& evaluation) const { return sweepsCsv(csvColumns(), evaluation.sweeps); }

    /** What the Explain panel and the title's tool tip show for this plot at @p evaluation of @p scenario. */
    virtual Explanation explanation(const model::Scenario& scenario, const model::Evaluation& evaluation) const = 0;

    /**
     * Draws baseline A (@p a, pinned) on this plot, named @p label ("A: Llama 3.1 8B on H100 SXM"), in
     * place of every pinned scenario drawn before, keeps it in view and queues a replot. The one-item
     * case of setBaselines().
     */
    void setBaseline(const document::Baseline& a, const QString& label);
    /**
     * Draws every scenario of @p pinned (N-way comparison), each in its slot's colour, dash and marker
     * (views/kit/baselinelayer.h: pinnedPen) and named by @p labels (one per pinned scenario, in
     * PinnedScenarios::items() order; "C: Llama 3.1 70B on H200"), in place of what was drawn before;
     * keeps them in view and queues a replot. An empty @p pinned clears.
     */
    void setBaselines(const document::PinnedScenarios& pinned, const QStringList& labels);
    /** Takes every pinned scenario off this plot (nothing when none is drawn); the next refresh() narrows the axes they widened. */
    void clearBaseline();
    bool hasBaseline() const { return !m_pinned.empty(); }
    /** How many pinned scenarios the plot draws. */
    int baselineCount() const { return int(m_pinned.size()); }
    /** Every pinned scenario's graphs on this plot, in slot order (each: main curve first, then markers); empty without one. */
    QList<QCPGraph*> baselineGraphs() const;
    /** The graphs of the @p index-th pinned scenario drawn (0 = the first in slot order); empty out of range. */
    QList<QCPGraph*> baselineGraphs(int index) const;
    /** The slot (0 = A) of the @p index-th pinned scenario drawn, or -1. */
    int baselineSlot(int index) const;
    /** Widens the value axes to keep every pinned scenario in view; call after refresh() (nothing without one). */
    virtual void keepBaselineInView();

    /** A small plot the card shows above plot() (the KV share's bar chart), or nullptr. The export draws it at its
     *  height on screen. */
    virtual QCustomPlot* barPlot() const { return nullptr; }

protected:
    /**
     * Adds pinned scenario @p a's curves, markers and extent to @p layer (empty, on plot(); its slot()
     * says which pinned scenario it is) and anything else it shows. Called once per pinned scenario, in
     * slot order, after eraseBaseline().
     */
    virtual void drawBaseline(const document::Baseline& a, const QString& label, BaselineLayer& layer) = 0;
    /** Takes off what drawBaseline() drew outside the layers, for every pinned scenario (the layers are removed by the caller). */
    virtual void eraseBaseline() {}

    /** Lines of explanation() that several plots share: the KV bytes per token, the weights read, and which side of
     *  the roofline's ridge a point is on (boundName(): t_comp against t_mem by definition; what bounds a step or a
     *  prefill, t_comm included, is views::boundByText()). */
    static QString kvPerTokenStep(const model::Scenario& scenario, const model::Evaluation& evaluation);
    static QString weightsStep(const model::Scenario& scenario, const model::Evaluation& evaluation);
    static QString boundName(model::Bound bound);

private:
    FloorPlotId m_id;
    std::vector<BaselineLayer> m_pinned; ///< one per pinned scenario drawn, in slot order
};

} // namespace ridgeline::views
