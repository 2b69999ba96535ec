// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <optional>

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include "model/cost/scenario.h"
#include "model/files/simulationfile.h"
#include "document/simulationrunner.h" // the simulator's config and result types, through the document layer

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace ridgeline::views {

class AttainmentPlot;
class CapSweepPlot;
class RateSweepPlot;
class ItlTimelinePlot;
class KvUsagePlot;
class LatencyCdfPlot;
class ScenarioDocument;
class SimulationRunner;
struct SimulationOutcome;

/**
 * The Simulation tab (issue 9): inputs for model::simulate on the left, the last run's plots and
 * aggregates on the right.
 *
 * Inputs: batching policy, max-sequences cap, token budget (chunked), prompts prefilled per step (0: no limit;
 * continuous and chunked only, model::maxPrefillsPerStepApplies; a file's max_prefills_per_step, or without a file the
 * window scenario's serving.max_prefills_per_step whenever it changes), KV admission, seed, duration
 * (s) and/or request count, a chat class (Poisson rate, requests/s; lognormal prompt and output
 * lengths by median and p99, tokens), an optional batch job (a burst of count requests of fixed
 * prompt / output tokens landing at a time, s), the admission rule, the SLOs (TTFT and ITL, ms,
 * and whether the ITL SLO is checked on TPOT or the worst gap; by default the scenario's) and the
 * caps to sweep. "Load example" fills them from a simulation file (the shipped examples are Qt
 * resources, :/simulations/...; "Open..." reads any file); the run then uses the file's scenario
 * (unless "Use the example's scenario" is cleared) and the file's other keys (block size,
 * watermark, clamps, trace). Without an example the scenario is the document's evaluatedScenario().
 *
 * Run simulates on a SimulationRunner worker thread with a progress bar; Cancel abandons the run,
 * keeps the previous results and re-enables Run. When a run finishes the four plots (ITL timeline,
 * latency CDFs, goodput against the cap, KV blocks in use) and two tables (p50 / p95 / p99 / max of
 * queue wait, prefill, TTFT, ITL, TPOT, end to end; throughput, goodput, preemptions, static
 * slot-time waste...) show it.
 *
 * Object names: simulationTab, simulationExampleCombo, simulationOpenButton, simulationPolicyCombo,
 * simulationMaxSequencesSpinBox, simulationTokenBudgetSpinBox, simulationMaxPrefillsSpinBox, simulationKvAdmissionCombo,
 * simulationSeedSpinBox, simulationDurationCheckBox, simulationDurationSpinBox,
 * simulationRequestsCheckBox, simulationRequestsSpinBox, simulationChatRateSpinBox, ...,
 * simulationBatchJobCheckBox, simulationAdmissionRuleCombo, simulationSloFromScenarioCheckBox,
 * simulationTtftSloSpinBox, simulationItlSloSpinBox, simulationItlStatisticCombo,
 * simulationSweepEdit, simulationRunButton, simulationCancelButton, simulationProgressBar,
 * simulationStatusLabel, simulationErrorLabel, simulationSummaryLabel, simulationClassCombo,
 * simulationLatencyTable, simulationTotalsTable.
 *
 * Fleet and rate sweep (issue 14): replicas behind a router (round robin, least loaded, prefix aware) and
 * closed-loop clients (0: open loop) set the run's fleet; with more than one replica a table gives each replica's
 * requests, throughput, goodput, TTFT p50 / p99, busy time, sequences, KV peak, preemptions and prefix-cache hit
 * rate (model::ReplicaLoad) under a line naming the router. "Rate sweep" (from, to, steps, attainment target)
 * adds model::sweepArrivalRate after the run, on the same worker: goodput and throughput against the arrival rate,
 * and SLO attainment against it with the target line and the highest rate holding it, named in the takeaway
 * (rateSweepTakeaway()). Object names simulationReplicasSpinBox, simulationRouterCombo,
 * simulationClientsSpinBox, simulationRateSweepCheckBox, simulationRateFromSpinBox, simulationRateToSpinBox,
 * simulationRateStepsSpinBox, simulationAttainmentSpinBox, simulationReplicaTitle, simulationReplicaTable.
 *
 * Results per class: the class combo shows the tables for every class together or one class alone,
 * and with more than one class the summary gives each class's p99 TTFT, p99 ITL and goodput (a batch
 * job's queueing must not read as the chat users' TTFT).
 */
class SimulationTab final : public QWidget {
    Q_OBJECT

public:
    /** Rows of latencyTable(), in order. */
    enum LatencyRow { QueueWaitRow, PrefillRow, TtftRow, ItlRow, TpotRow, EndToEndRow, LatencyRowCount };
    /** Columns of latencyTable(), in order. */
    enum LatencyColumn { P50Column, P95Column, P99Column, MaxColumn, LatencyColumnCount };
    /** Rows of totalsTable(), in order. */
    enum TotalsRow { RequestsRow, ThroughputRow, GoodputRow, PreemptionsRow, StaticWasteRow, SequencesRow, TotalsRowCount };
    /** Columns of replicaTable() (one row per replica, in replica order). */
    enum ReplicaColumn {
        ReplicaRequestsColumn,    ///< completed / routed (and rejected)
        ReplicaThroughputColumn,  ///< output tok/s over the fleet's span
        ReplicaGoodputColumn,     ///< share of its requests meeting both SLOs
        ReplicaTtftP50Column,
        ReplicaTtftP99Column,
        ReplicaBusyColumn,        ///< busy time / the fleet's span
        ReplicaSequencesColumn,   ///< mean and peak sequences holding a slot
        ReplicaKvPeakColumn,      ///< KV blocks in use at its peak, as a share of its budget (the blocks in the tool tip)
        ReplicaPreemptionsColumn,
        ReplicaPrefixHitColumn,   ///< prefix-cache hit rate in tokens
        ReplicaColumnCount
    };

    explicit SimulationTab(ScenarioDocument* document, QWidget* parent = nullptr);
    ~SimulationTab() override;

    /** The shipped example files, as resource paths, in the order of the example combo (after "None"). */
    static QStringList examplePaths();

    /**
     * Loads the simulation file at @p path (a resource or a file) into the inputs. Returns "" on
     * success; else the message naming the file and field, also shown under the Run button, and the
     * inputs stay as they were.
     */
    QString loadExample(const QString& path);
    /** Drops the loaded example: the inputs stay, the run uses the document's scenario. */
    void clearExample();

    /** The configuration Run would simulate now (not yet checked). */
    model::SimulationConfig config() const;
    /** The scenario Run would simulate on now. */
    model::Scenario scenario() const;
    /** The arrival-rate sweep Run would add (steps 0 when "Rate sweep" is not ticked). */
    model::RateSweep rateSweep() const;
    /** What is wrong with the inputs ("" when Run would start), e.g. a bad sweep cap list. */
    QString inputError() const;

    /** The run on screen (nullptr before the first one finishes). */
    std::shared_ptr<const SimulationOutcome> outcome() const { return m_outcome; }
    SimulationRunner* runner() const { return m_runner; }

    QComboBox* exampleCombo() const { return m_exampleCombo; }
    QComboBox* policyCombo() const { return m_policy; }
    QSpinBox* maxSequencesSpinBox() const { return m_maxSequences; }
    /** "Prefills / step" (SimulationConfig::maxPrefillsPerStep, 0 shown as "no limit"); disabled, its tool tip saying
     *  why, under static batching (model::maxPrefillsPerStepApplies). */
    QSpinBox* maxPrefillsSpinBox() const { return m_maxPrefills; }
    QCheckBox* durationCheckBox() const { return m_durationCheck; }
    QDoubleSpinBox* durationSpinBox() const { return m_duration; }
    QCheckBox* requestsCheckBox() const { return m_requestsCheck; }
    QSpinBox* requestsSpinBox() const { return m_requests; }
    QDoubleSpinBox* chatRateSpinBox() const { return m_chatRate; }
    QCheckBox* batchJobCheckBox() const { return m_batchJob; }
    QLineEdit* sweepEdit() const { return m_sweep; }
    QSpinBox* replicasSpinBox() const { return m_replicas; }
    QComboBox* routerCombo() const { return m_router; }
    QSpinBox* clientsSpinBox() const { return m_clients; }
    QCheckBox* rateSweepCheckBox() const { return m_rateSweepCheck; }
    QDoubleSpinBox* rateFromSpinBox() const { return m_rateFrom; }
    QDoubleSpinBox* rateToSpinBox() const { return m_rateTo; }
    QSpinBox* rateStepsSpinBox() const { return m_rateSteps; }
    QDoubleSpinBox* attainmentSpinBox() const { return m_attainment; }
    /** One row per replica of a fleet run (hidden with one replica); columns ReplicaColumn. */
    QTableWidget* replicaTable() const { return m_replicaTable; }
    /** Names the fleet and its router above replicaTable(). */
    QLabel* replicaTitle() const { return m_replicaTitle; }
    /** The aggregates card's pages: 0 the latency and totals tables, 1 the replicas (its tab shown for a fleet only). */
    QTabWidget* resultPages() const { return m_resultPages; }
    RateSweepPlot* rateSweepPlot() const { return m_rateSweepPlot; }
    AttainmentPlot* attainmentPlot() const { return m_attainmentPlot; }
    QPushButton* runButton() const { return m_runButton; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* errorLabel() const { return m_error; }
    QLabel* summaryLabel() const { return m_summary; }
    QTableWidget* latencyTable() const { return m_latencyTable; }
    QTableWidget* totalsTable() const { return m_totalsTable; }
    /** Which requests the tables show: "All classes", then one entry per class of the run. */
    QComboBox* classCombo() const { return m_classCombo; }
    ItlTimelinePlot* itlTimelinePlot() const { return m_timeline; }
    LatencyCdfPlot* latencyCdfPlot() const { return m_cdf; }
    CapSweepPlot* capSweepPlot() const { return m_sweepPlot; }
    KvUsagePlot* kvUsagePlot() const { return m_kvPlot; }
    /** The four QCustomPlots of every run (the rate sweep's two are rateSweepPlot() and attainmentPlot()). */
    QList<QCustomPlot*> plots() const;

public slots:
    /** Checks the inputs and starts a run (shows the problem instead when there is one). */
    void run();
    /** Abandons the run under way; the previous results stay. */
    void cancel();

signals:
    /** A finished run is on screen (outcome() is it). */
    void outcomeShown();

private:
    void buildInputs(QWidget* side);
    QWidget* buildResults();
    void showOutcome(std::shared_ptr<const SimulationOutcome> outcome);
    void showTables();
    void showReplicas();
    void fillInputs(const model::SimulationConfig& config);
    void setRunning(bool running);
    void showError(const QString& message);
    void syncFromScenario();
    void updateEnabled();
    /** Enables "Prefills / step" for the policy and sets its tool tip for its value. */
    void updateMaxPrefills();
    void exampleChosen(int index);
    void openFromDialog();
    bool usingExampleScenario() const;

    ScenarioDocument* m_document = nullptr;
    SimulationRunner* m_runner = nullptr;
    std::optional<model::SimulationFile> m_example; ///< the loaded file (scenario, full config)
    QString m_examplePath;
    bool m_classesEditable = true;                  ///< the example's classes map onto the chat / batch inputs
    int m_exampleIndex = 0;                         ///< combo index of what is loaded
    int m_documentMaxPrefills = -1;                 ///< the window scenario's serving.max_prefills_per_step last put in the box
    std::shared_ptr<const SimulationOutcome> m_outcome;

    QComboBox* m_exampleCombo = nullptr;
    QPushButton* m_openButton = nullptr;
    QCheckBox* m_useExampleScenario = nullptr;
    QLabel* m_scenarioLabel = nullptr;
    QComboBox* m_policy = nullptr;
    QSpinBox* m_maxSequences = nullptr;
    QSpinBox* m_tokenBudget = nullptr;
    QSpinBox* m_maxPrefills = nullptr;      ///< "Prefills / step": SimulationConfig::maxPrefillsPerStep (0: no limit)
    QLabel* m_maxPrefillsCaption = nullptr;
    QComboBox* m_kvAdmission = nullptr;
    QSpinBox* m_seed = nullptr;
    QCheckBox* m_durationCheck = nullptr;
    QDoubleSpinBox* m_duration = nullptr;
    QCheckBox* m_requestsCheck = nullptr;
    QSpinBox* m_requests = nullptr;
    QDoubleSpinBox* m_chatRate = nullptr;
    QSpinBox* m_promptMedian = nullptr;
    QSpinBox* m_promptP99 = nullptr;
    QSpinBox* m_outputMedian = nullptr;
    QSpinBox* m_outputP99 = nullptr;
    QCheckBox* m_batchJob = nullptr;
    QSpinBox* m_batchCount = nullptr;
    QDoubleSpinBox* m_batchStart = nullptr;
    QSpinBox* m_batchPrompt = nullptr;
    QSpinBox* m_batchOutput = nullptr;
    QLabel* m_classesNote = nullptr;
    QComboBox* m_admissionRule = nullptr;
    QCheckBox* m_sloFromScenario = nullptr;
    QDoubleSpinBox* m_ttftSlo = nullptr;
    QDoubleSpinBox* m_itlSlo = nullptr;
    QComboBox* m_itlStatistic = nullptr;
    QLineEdit* m_sweep = nullptr;
    QSpinBox* m_replicas = nullptr;
    QComboBox* m_router = nullptr;
    QSpinBox* m_clients = nullptr;
    QCheckBox* m_rateSweepCheck = nullptr;
    QDoubleSpinBox* m_rateFrom = nullptr;
    QDoubleSpinBox* m_rateTo = nullptr;
    QSpinBox* m_rateSteps = nullptr;
    QDoubleSpinBox* m_attainment = nullptr;
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_error = nullptr;

    ItlTimelinePlot* m_timeline = nullptr;
    LatencyCdfPlot* m_cdf = nullptr;
    CapSweepPlot* m_sweepPlot = nullptr;
    KvUsagePlot* m_kvPlot = nullptr;
    RateSweepPlot* m_rateSweepPlot = nullptr;
    AttainmentPlot* m_attainmentPlot = nullptr;
    QWidget* m_rateRow = nullptr;        ///< the two rate-sweep plots, shown when a run swept the rate
    QLabel* m_replicaTitle = nullptr;
    QTableWidget* m_replicaTable = nullptr;
    QTabWidget* m_resultPages = nullptr;
    QLabel* m_summary = nullptr;
    QComboBox* m_classCombo = nullptr;
    QTableWidget* m_latencyTable = nullptr;
    QTableWidget* m_totalsTable = nullptr;
};

} // namespace ridgeline::views
