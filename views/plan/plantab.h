// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <QFont>
#include <QString>
#include <QWidget>

#include "model/analysis/plan.h"
#include "model/analysis/planfile.h"
#include "views/kit/plotpanel.h"

class QCheckBox;
class QCPGraph;
class QCPItemLine;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTableWidget;
class QTableWidgetItem;
class QTimer;

namespace ridgeline::views {

class ScenarioDocument;

/**
 * The fleet plan's Pareto plot (issue 14): output tokens/s per GPU (y) against tokens/s per user
 * (x = 1 / ITL), one line with markers per drawn device through its Pareto frontier
 * (model::DeviceSummary::frontier); frontier points that miss an SLO get a hollow grey marker (legend
 * "misses SLO"). When no plan meets the SLOs the devices drawn are those that fit (their frontiers all
 * hollow) and a note inside the plot says why nothing qualifies (noPlanLabel()). The ITL SLO is a
 * vertical line at x = 1000 / ITL_ms; the cheapest and most power-efficient plans are marked and
 * labelled, their labels (and the ITL SLO's) placed apart (separateLabels()). At most kMaxDevices devices are
 * drawn; a line under the legend says how many more have points (notDrawnNote()). Axes turn logarithmic when the
 * drawn values span more than 20x (a linear axis gets a linear ticker back). Every value drawn is
 * finite. Object names: planPanel, planTitle, planPlot.
 */
class PlanPlot final : public PlotPanel {
    Q_OBJECT

public:
    /** Most devices drawn; the others are listed by the tab. */
    static constexpr int kMaxDevices = 8;

    explicit PlanPlot(QWidget* parent = nullptr);

    /** Nothing: the plan tab draws through setResult(). */
    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation) override;

    /** Draws @p result of @p request for the devices @p drawn (indices into the request's devices). */
    void setResult(const model::PlanRequest& request, const model::PlanResult& result, const std::vector<int>& drawn);

    /** Devices drawn, in legend order (indices into the request's devices). */
    const std::vector<int>& drawnDevices() const { return m_drawn; }
    /** The frontier graph (line + markers) of drawn device @p i. */
    QCPGraph* frontierGraph(int i) const { return m_frontier.at(size_t(i)); }
    /** Hollow markers of drawn device @p i's frontier points that miss an SLO. */
    QCPGraph* missedGraph(int i) const { return m_missed.at(size_t(i)); }
    /** The legend's "misses SLO" key (no data of its own), shown while any hollow marker is. */
    QCPGraph* missedLegendKey() const { return m_missedKey; }
    /** The note inside the plot saying why no plan qualifies (hidden while some plan does). */
    QCPItemText* noPlanLabel() const { return m_noPlanLabel; }
    QCPGraph* cheapestMarker() const { return m_cheapestMarker; }
    QCPGraph* efficientMarker() const { return m_efficientMarker; }
    QCPItemText* cheapestLabel() const { return m_cheapestLabel; }
    QCPItemText* efficientLabel() const { return m_efficientLabel; }
    /** The line from the cheapest (most power-efficient) plan's marker to its label, shown while the label sits away from
     *  the marker (where the curves leave no room beside it). */
    QCPItemLine* cheapestLeader() const { return m_cheapestLeader; }
    QCPItemLine* efficientLeader() const { return m_efficientLeader; }
    QCPItemStraightLine* itlLine() const { return m_itlLine; }
    /** The ITL SLO line's label ("ITL SLO 50 ms"). */
    QCPItemText* itlLabel() const { return m_itlLabel; }
    /**
     * The line under the legend saying how many devices with points are not drawn, which are, and where the others
     * are (the table, the list beside it, plan_pareto.csv in an export); in the plot's layout only while some device
     * is left out (else taken out, leaving no gap).
     */
    QCPTextElement* notDrawnNote() const { return m_notDrawnNote; }
    /** The line under the plot while the cheapest or most power-efficient plan sits below its device's frontier: the
     *  plan's fleet is rounded up to whole replicas (and priced) after the per-replica frontier is drawn. */
    QCPTextElement* roundingNote() const { return m_roundingNote; }
    /** True when plan @p index of @p result (none: false) is dominated by a point of its device's frontier: faster per
     *  user and per GPU, or as fast in one and faster in the other (the frontier is per replica, the plan's fleet whole
     *  replicas). */
    static bool markedPlanBelowFrontier(const model::PlanResult& result, const std::optional<int>& index);
    /** Devices with points that the plot leaves out (beyond kMaxDevices). */
    int notDrawnCount() const { return m_notDrawn; }
    /** Pairs of placements (of two labels) whose joint cost the last separateLabels() computed: each pair once, at most
     *  4 x 38 + 4 x 38 + 38 x 38 = 1,748 with the ITL label and two marked plans (docs/performance.md, "Plan tab, one
     *  frame"). */
    int labelPairsCosted() const { return m_labelPairsCosted; }
    /** Times the no-plan note's lines were broken again to fit the axis rect (wrapNoPlanNote()): once per new text,
     *  width or font, not once per layout. */
    int noPlanWraps() const { return m_noPlanWraps; }

    /** Sets the takeaway line above the plot (plain text). */
    void showTakeaway(const QString& text) { setTakeaway(text); }

private:
    /**
     * Places the cheapest and most power-efficient labels (at a corner of their marker, centred under or over it, or
     * farther out in one of six directions with a leader line) and the ITL SLO label (top or bottom of its line) so that no two of them overlap,
     * none covers the no-plan note, a marker or a drawn curve (the frontiers; the ITL line for the marker labels), and
     * each stays inside the axis rect, as far as some placement allows: the placements are scored (areas of overlap,
     * length of curve covered, distance from the marker; for a leader its length and each frontier it crosses) and the
     * cheapest combination wins. Runs after each layout
     * (QCustomPlot::afterLayout, after plotkit::fitLabels), on pixel rectangles.
     */
    void separateLabels();
    /** Breaks the no-plan note's lines at spaces to fit an axis rect @p areaWidth px wide (a small window clipped
     *  them); the lines as set are kept and wrapped again at each layout. */
    void wrapNoPlanNote(double areaWidth);

    std::vector<int> m_drawn;
    std::vector<QCPGraph*> m_frontier; ///< kMaxDevices, created once; unused ones hidden
    std::vector<QCPGraph*> m_missed;
    QCPGraph* m_missedKey = nullptr;
    QCPItemText* m_noPlanLabel = nullptr;
    QString m_noPlanSource;  ///< the no-plan note's text as set, before wrapNoPlanNote()
    QString m_noPlanWrapped; ///< what wrapNoPlanNote() last showed
    double m_noPlanWrapWidth = -1; ///< the width (px) m_noPlanWrapped was broken for
    QFont m_noPlanWrapFont;        ///< the font m_noPlanWrapped was broken in
    int m_noPlanWraps = 0;
    int m_labelPairsCosted = 0;
    QCPGraph* m_cheapestMarker = nullptr;
    QCPGraph* m_efficientMarker = nullptr;
    QCPItemText* m_cheapestLabel = nullptr;
    QCPItemText* m_efficientLabel = nullptr;
    QCPItemLine* m_cheapestLeader = nullptr;
    QCPItemLine* m_efficientLeader = nullptr;
    QCPItemStraightLine* m_itlLine = nullptr;
    QCPItemText* m_itlLabel = nullptr;
    QCPTextElement* m_notDrawnNote = nullptr;
    QCPTextElement* m_roundingNote = nullptr; ///< in the layout while a marked plan sits below its device's frontier
    int m_notDrawn = 0;
    double m_itlLabelTop = 0.02; ///< the ITL label's preferred top (axis-rect ratio): below the no-plan note when shown
    bool m_logX = false;
    bool m_logY = false;
};

/**
 * The "Plan" tab (issue 14): which accelerator, how many, in which layout, at what cost, for the
 * document's scenario (model, prompt and output lengths, efficiencies, serving) at a request rate
 * and two SLOs given here (model::planRequestFor, model::searchPlans over the hardware catalogue).
 *
 * Inputs: request rate (req/s, > 0), TTFT and ITL SLOs (ms; they follow the document's
 * workload.ttft_slo_ms and first ITL SLO line whenever those change, and the plan uses the scenario's value as it
 * is even where the box cannot show it: rangeNoteLabel() says so), example prices on or off
 * (resources/plans/gpu-prices-example.json: examples, not quotes; off, every cost is unknown "-"),
 * and PUE. Prices and costs are in currency(): the scenario's economics.currency (a plan file's "currency" while
 * one is shown), named in the headers; the example prices (USD) apply only to a plan in their currency, else the
 * check box is off and disabled and only the scenario's own price and the user's edits are known. While a plan file is
 * shown the check box is off and disabled too (the file's prices are in use); the user's choice comes back with the live
 * plan. Shows the takeaway, the Pareto plot (PlanPlot), the ranked plans in a sortable table
 * and the devices without a plan with the reason (model::exclusionText) and its figures.
 *
 * Per-device economics (economicsTable()): one row per catalogue device with its price per GPU-hour
 * and board power, each marked "example" / "datasheet" (or "none") as its source; the row of the
 * device the document's scenario runs on (hardware.name, model::operatingEconomics) takes the
 * scenario's economics.price_per_gpu_hour and hardware.board_power_watts where set, marked "scenario"
 * (the price's source names the currency when it is not USD), and follows them; until the user edits
 * the cell ("edited", which wins over both); an edit re-runs the search. A value that is not a number above 0 is
 * refused with a message naming the device and the field, and the cell goes back to the last good
 * value.
 *
 * Recomputes on the document's evaluated() and on input changes, coalesced to one search per event
 * loop pass, while visible (else on the next show). The plot and the takeaway follow each change and the ranked plans
 * and the list follow 150 ms after the last change (the tables cost two frames; docs/performance.md, "Plan tab, slider
 * to painted"); recompute() shows everything at once. A rate
 * <= 0 shows a message naming the value and keeps the previous result on screen.
 *
 * A plan file instead (`ridgeline --plan FILE`'s format, model/analysis/planfile.h): "Open plan file…" (or
 * loadPlanFile()) reads and searches it, and the plot, the tables, the takeaway and the export's plan_pareto files
 * show that plan: its model, load, SLOs, candidates, prices, power and PUE. The source label says which file (its
 * title, model, load and SLOs) is shown, the inputs show the file's rate, SLOs and PUE (disabled), the economics
 * table (the live plan's) is disabled, and
 * "Back to the scenario's plan" returns to the live plan. A file that cannot be read or is refused shows
 * "FILE: message" (the command line's message) and leaves the plan on screen as it was.
 * Object names: planTab, planRateSpinBox, planTtftSpinBox, planItlSpinBox,
 * planExamplePricesCheckBox, planPueSpinBox, planMessageLabel, planRangeNoteLabel, planTable, planExcludedList,
 * planEconomicsTable, planSourceLabel, planOpenFileButton, planLiveButton.
 */
class PlanTab final : public QWidget {
    Q_OBJECT

public:
    /** Columns of table(): what the plans are ranked by (cost) and checked against (ITL, TTFT) first, beside the device,
     *  so that they show without scrolling (a new-user trial, stop 30: at 1,600 px the cost sat behind the scroll bar). */
    enum Column {
        RankColumn, DeviceColumn, CostColumn, ItlColumn, TtftColumn, GpusColumn, LayoutColumn, ModeColumn, BatchCapColumn,
        FleetColumn, TokensPerGpuColumn, TokensPerUserColumn, JoulesColumn, ColumnCount
    };

    /** Columns of economicsTable(). */
    enum EconomicsColumn { EconomicsDeviceColumn, PriceColumn, PriceSourceColumn, PowerColumn, PowerSourceColumn, EconomicsColumnCount };

    explicit PlanTab(ScenarioDocument* document, QWidget* parent = nullptr);

    /**
     * The Pareto plot's data as CSV (the export's plan_pareto.csv): the columns "series" (device name),
     * "tokens/s per user (1000 / ITL ms)" and "output tokens/s per GPU" as the plot's axes, then device_id,
     * gpus_per_instance, tp, pp, ep, disaggregated, batch_cap, total_gpus, itl_ms, ttft_ms, meets_slo,
     * excluded_by ("", misses_itl, misses_ttft, misses_itl_and_ttft), on_frontier,
     * cost_per_million_output_tokens_all_in, joules_per_output_token. One row per evaluated point (met the
     * SLOs or not), then one row each for the "cheapest plan" and "most power-efficient plan" markers.
     * Header only before the first search.
     */
    QByteArray paretoCsv() const;

    /** Searches now from the document's evaluated scenario and the inputs (or the plan file shown); returns "" or the
     *  message shown. */
    QString recompute();

    /**
     * Reads the plan file at @p path (model::readInputFile, model::parsePlanFile with its folder as the base of
     * relative paths), searches it and shows it. Returns "" or "PATH: message" (also shown in messageLabel()); on
     * error the plan on screen (live or another file's) stays.
     */
    QString loadPlanFile(const QString& path);
    /** Shows @p file's plan (parsed already, e.g. by the command line), labelled with @p path. */
    void showPlanFile(const model::PlanFile& file, const QString& path);
    /** Back to the window scenario's live plan (a no-op when it is shown). */
    void showLivePlan();
    /** The plan file shown, or nullopt while the live plan is. */
    const std::optional<model::PlanFile>& planFile() const { return m_planFile; }
    /** The path of the plan file shown ("" while the live plan is). */
    const QString& planFilePath() const { return m_planFilePath; }

    /** The last successful search and its request (nullopt before the first). */
    const std::optional<model::PlanResult>& result() const { return m_result; }
    const std::optional<model::PlanRequest>& request() const { return m_request; }

    /** Searches run so far (to check that bursts of changes coalesce). */
    int searchCount() const { return m_searches; }
    /** True while a search is queued or under way and its result not yet shown. */
    bool isRecomputePending() const;
    /** True while the ranked-plans and excluded tables wait for the results to pause (kTablesQuietMs after the last
     *  queued result: a slider step, an input's change); the plot and the takeaway are already current. */
    bool areTablesPending() const;
    /** Wall time of the last search alone (model::searchPlans), ms. */
    double lastSearchMs() const { return m_lastSearchMs; }
    /** Wall time of the last showing of a result on the GUI thread (plot, tables, list; not the paint), ms. */
    double lastShowMs() const { return m_lastShowMs; }

    QDoubleSpinBox* rateSpinBox() const { return m_rate; }
    QDoubleSpinBox* ttftSpinBox() const { return m_ttft; }
    QDoubleSpinBox* itlSpinBox() const { return m_itl; }
    QCheckBox* examplePricesCheckBox() const { return m_examplePrices; }
    QDoubleSpinBox* pueSpinBox() const { return m_pue; }
    QLabel* messageLabel() const { return m_message; }
    /**
     * The note under the inputs naming every value (the scenario's or a plan file's SLO, rate or PUE) that its box
     * cannot show as it is (outside the box's range or past its decimals): "ITL SLO: the scenario's 1,000,000 ms is
     * outside this box's 1 to 100,000 ms; the plan uses 1,000,000 ms". Hidden when every box shows its value.
     */
    QLabel* rangeNoteLabel() const { return m_rangeNote; }
    /** The currency of the prices and costs shown: the plan file's while one is shown, else the scenario's
     *  economics.currency ("USD" by default). */
    QString currency() const;
    QTableWidget* table() const { return m_table; }
    QListWidget* excludedList() const { return m_excluded; }
    QTableWidget* economicsTable() const { return m_economics; }
    PlanPlot* plot() const { return m_plot; }
    QLabel* sourceLabel() const { return m_source; }
    QPushButton* openFileButton() const { return m_openFile; }
    QPushButton* liveButton() const { return m_live; }

signals:
    /** A search's result is on screen (the plot, the tables and the list are set; the paint follows). */
    void resultShown();

public slots:
    /** Queues one recompute for the next event-loop pass when visible; else marks the tab stale. A plan file's plan
     *  does not follow the document: nothing is queued while one is shown. */
    void scheduleRecompute();
    /** "Open plan file…": asks for a file (QFileDialog) and loadPlanFile()s it. */
    void openPlanFileFromDialog();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void syncSlosFromDocument();
    /** Shows the live inputs (the scenario's SLOs, the user's rate and PUE) or the plan file's in the boxes, and
     *  the range note. */
    void showInputValues();
    /** The currency labels: the table's cost header, the economics table's price header and tool tips, the example
     *  prices check box (off and disabled when the example prices' currency is not currency()). */
    void showCurrency();
    /** The search behind recompute() (@p deferTables false) and the queued one (true: during a drag, the tables wait). */
    QString search(bool deferTables);
    /** Shows the result: the plot and the takeaway at once; the tables too unless @p deferTables, when showTables()
     *  follows kTablesQuietMs after the last deferred result (the timer restarts with each). */
    void showResult(bool deferTables);
    /** The ranked plans and the list of devices without a plan, of the result shown. */
    void showTables();
    void fillEconomicsTable();
    void economicsEdited(QTableWidgetItem* item);
    void showSource();

    /** The document scenario's own price and board power for the catalogue device it runs on (empty id: none). */
    struct ScenarioEconomics {
        std::string deviceId;                 ///< catalogue id of the scenario's device, "" when not a catalogue device
        std::optional<double> pricePerGpuHour; ///< economics.price_per_gpu_hour when > 0
        std::optional<double> boardPowerWatts; ///< hardware.board_power_watts when set and not the datasheet's
        std::string currency;                 ///< economics.currency
    };
    ScenarioEconomics scenarioEconomics() const;

    ScenarioDocument* m_document = nullptr;
    std::optional<model::PlanRequest> m_request;
    std::optional<model::PlanResult> m_result;
    bool m_stale = true;
    int m_searches = 0;
    double m_lastSearchMs = 0, m_lastShowMs = 0;
    double m_documentTtftMs = -1;
    double m_documentItlMs = -1;
    /// The SLOs the live plan uses (the scenario's as they are, or the user's typed value): a box clamps to its range
    /// and decimals, the plan never does
    double m_liveTtftMs = 800, m_liveItlMs = 50;
    double m_liveRate = 10, m_livePue = 0; ///< the live plan's rate and PUE, kept while a plan file's are shown
    /// The user's "Example prices" choice; the box shows it only while the example prices can apply (unticked and
    /// disabled while a plan file's prices are in use, or the plan's currency is not theirs)
    bool m_examplePricesWanted = true;
    QTimer* m_timer = nullptr;
    /// A queued search shows the frontier at once and the tables this long after the last result, ms
    static constexpr int kTablesQuietMs = 150;
    QTimer* m_tablesTimer = nullptr;
    std::vector<int> m_drawn, m_withPlans; ///< of the result shown: devices drawn, devices with plans (ranking order)

    QDoubleSpinBox* m_rate = nullptr;
    QDoubleSpinBox* m_ttft = nullptr;
    QDoubleSpinBox* m_itl = nullptr;
    QCheckBox* m_examplePrices = nullptr;
    QDoubleSpinBox* m_pue = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_rangeNote = nullptr;
    PlanPlot* m_plot = nullptr;
    QTableWidget* m_table = nullptr;
    QListWidget* m_excluded = nullptr;
    QTableWidget* m_economics = nullptr;
    std::vector<model::PlanDevice> m_catalogue;              ///< the catalogue with example prices and datasheet power
    std::map<std::string, double> m_priceEdits, m_powerEdits; ///< the user's values per device id
    std::optional<model::PlanFile> m_planFile; ///< the plan file shown instead of the live plan
    QString m_planFilePath;
    QLabel* m_source = nullptr;
    QLabel* m_inputsNote = nullptr; ///< where the model, lengths and efficiencies come from (the scenario's or the file's)
    QPushButton* m_openFile = nullptr;
    QPushButton* m_live = nullptr;
};

} // namespace ridgeline::views
