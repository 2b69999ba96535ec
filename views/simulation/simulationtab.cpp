// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/simulation/simulationtab.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "document/format.h"
#include "model/cost/parallellayout.h"
#include "views/kit/palette.h"
#include "views/kit/resulttable.h"
#include "document/scenariodocument.h"
#include "views/simulation/simulationplots.h"
#include "document/simulationrunner.h"
#include "views/whatifs/whatifkit.h"

namespace ridgeline::views {

using namespace whatifkit;

namespace {

constexpr int kMaxSweepCaps = 16;
const QString kDefaultSweep = QStringLiteral("8, 16, 32, 64, 128, 256");

/** Index of the class the chat inputs stand for: the first interactive class with a rate (else the first interactive). */
int chatClassIndex(const model::SimulationConfig& c)
{
    int fallback = -1;
    for (size_t i = 0; i < c.classes.size(); ++i) {
        if (c.classes[i].priority != model::Priority::Interactive)
            continue;
        if (c.classes[i].ratePerSecond > 0)
            return int(i);
        if (fallback < 0)
            fallback = int(i);
    }
    return fallback;
}

/** Index of the class the batch-job inputs stand for: the first batch class with a burst. */
int batchClassIndex(const model::SimulationConfig& c)
{
    for (size_t i = 0; i < c.classes.size(); ++i) {
        if (c.classes[i].priority == model::Priority::Batch && c.classes[i].count > 0)
            return int(i);
    }
    return -1;
}

/** A small bold section heading inside the inputs card. */
QLabel* sectionLabel(const QString& text)
{
    auto* label = new QLabel(text);
    label->setStyleSheet(QStringLiteral("QLabel { color: %1; background: transparent; border: none; font-weight: 600; padding-top: 4px; }")
                             .arg(palette::css(palette::text())));
    return label;
}

/** The "Prefills / step" box's tool tip, before the sentence on the current value (model::maxPrefillsPerStepText). */
QString maxPrefillsTip()
{
    return QObject::tr("max_prefills_per_step: at most this many prompts get prefill tokens in one step (prompts under way\n"
                       "first, then new ones in arrival order; the rest wait for a later step), besides the token budget;\n"
                       "a chunk counts as one prompt. 0: no limit. Continuous and chunked batching only: a static batch\n"
                       "prefills all its prompts together (docs/cost-model.md, \"Prefills per step\").");
}

QFormLayout* compactForm()
{
    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->setHorizontalSpacing(8);
    form->setVerticalSpacing(3);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    return form;
}

} // namespace

SimulationTab::SimulationTab(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_runner(new SimulationRunner(this))
{
    setObjectName(QStringLiteral("simulationTab"));

    auto* side = new QWidget;
    side->setObjectName(QStringLiteral("simulationSide"));
    buildInputs(side);
    auto* sideScroll = new QScrollArea;
    sideScroll->setObjectName(QStringLiteral("simulationScroll"));
    sideScroll->setWidget(side);
    sideScroll->setWidgetResizable(true);
    sideScroll->setFrameShape(QFrame::NoFrame);
    sideScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    sideScroll->setStyleSheet(QStringLiteral("QScrollArea { background: transparent; } QWidget#simulationSide { background: %1; }")
                                  .arg(palette::css(palette::window())));

    // Run, Cancel and progress stay in view below the scrolling inputs.
    QFrame* runCard = whatifkit::card(QStringLiteral("simulationRunCard"));
    auto* buttons = new QHBoxLayout;
    buttons->setSpacing(6);
    buttons->addWidget(m_runButton, 1);
    buttons->addWidget(m_cancelButton, 1);
    auto* runLayout = new QVBoxLayout(runCard);
    runLayout->setContentsMargins(10, 6, 10, 6);
    runLayout->setSpacing(4);
    runLayout->addLayout(buttons);
    runLayout->addWidget(m_progress);
    runLayout->addWidget(m_status);
    runLayout->addWidget(m_error);
    auto* column = new QVBoxLayout;
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(8);
    column->addWidget(sideScroll, 1);
    column->addWidget(runCard);
    auto* columnWidget = new QWidget;
    columnWidget->setLayout(column);
    columnWidget->setMinimumWidth(300);
    columnWidget->setMaximumWidth(340);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 8, 0, 0);
    layout->setSpacing(8);
    layout->addWidget(columnWidget);
    layout->addWidget(buildResults(), 1);

    connect(m_runner, &SimulationRunner::progressChanged, this, [this](int done, int total, const QString& stage) {
        m_progress->setRange(0, std::max(1, total));
        m_progress->setValue(std::clamp(done, 0, std::max(1, total)));
        setText(m_status, stage);
    });
    connect(m_runner, &SimulationRunner::finished, this, [this](std::shared_ptr<const SimulationOutcome> outcome) {
        setRunning(false);
        showOutcome(std::move(outcome));
    });
    connect(m_runner, &SimulationRunner::cancelled, this, [this] {
        setRunning(false);
        m_progress->setValue(0);
        setText(m_status, m_outcome ? tr("Cancelled: the previous results stay.") : tr("Cancelled."));
    });
    connect(m_document, &ScenarioDocument::evaluated, this, &SimulationTab::syncFromScenario);
    syncFromScenario();
    setRunning(false);
}

SimulationTab::~SimulationTab()
{
    // Abandon the run and wait for the workers while the tab is still whole.
    delete m_runner;
    m_runner = nullptr;
}

QStringList SimulationTab::examplePaths()
{
    return {QStringLiteral(":/simulations/chat-llama-3.1-8b-h100.json"),
            QStringLiteral(":/simulations/chat-and-batch-job-llama-3.1-8b-h100.json"),
            QStringLiteral(":/simulations/fleet-chat-llama-3.1-8b-h100.json"),
            QStringLiteral(":/simulations/disaggregated-chat-llama-3.1-70b-h100.json")};
}

void SimulationTab::buildInputs(QWidget* side)
{
    QFrame* card = whatifkit::card(QStringLiteral("simulationInputs"));

    // Example and scenario.
    m_exampleCombo = new QComboBox;
    m_exampleCombo->setObjectName(QStringLiteral("simulationExampleCombo"));
    m_exampleCombo->addItem(tr("None: the inputs below"), QString());
    m_exampleCombo->addItem(tr("Chat, 6 req/s, cap 32 (seed 001, 3.1)"), examplePaths().at(0));
    m_exampleCombo->addItem(tr("Chat + a batch job at 30 s (ticket B4)"), examplePaths().at(1));
    m_exampleCombo->addItem(tr("Fleet: 8 replicas, bursty chat, rate sweep"), examplePaths().at(2));
    m_exampleCombo->addItem(tr("Disaggregated 70B: 3 prefill + 2 decode TP4"), examplePaths().at(3));
    m_exampleCombo->setToolTip(tr("Load a shipped simulation file: its scenario, workload and engine settings fill the inputs."));
    m_exampleCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_exampleCombo->setMinimumContentsLength(12);
    m_openButton = new QPushButton(tr("Open\u2026"));
    m_openButton->setObjectName(QStringLiteral("simulationOpenButton"));
    m_openButton->setToolTip(tr("Load a simulation file (JSON, the format of --simulate)."));
    auto* exampleRow = new QHBoxLayout;
    exampleRow->setSpacing(4);
    exampleRow->addWidget(m_exampleCombo, 1);
    exampleRow->addWidget(m_openButton);
    m_useExampleScenario = new QCheckBox(tr("Use the example's scenario"));
    m_useExampleScenario->setObjectName(QStringLiteral("simulationUseExampleScenarioCheckBox"));
    m_useExampleScenario->setToolTip(tr("Checked: simulate the model, hardware and efficiencies the example file gives.\n"
                                        "Cleared: simulate the window's current scenario with the example's workload."));
    m_scenarioLabel = valueLabel(QStringLiteral("simulationScenarioLabel"),
                                 tr("The scenario the run uses: the window's, or the loaded example's."));

    // Engine.
    const QString policyTip = tr("Static: request-level batches, a new batch only when the last one has wholly finished (seed 001, 3.2a).\n"
                                 "Continuous: iteration-level scheduling, whole prompts prefill in one step (Orca).\n"
                                 "Chunked: continuous, prompts split into a per-step token budget (Sarathi-Serve, 3.4).");
    m_policy = new QComboBox;
    m_policy->setObjectName(QStringLiteral("simulationPolicyCombo"));
    m_policy->addItems({tr("Static"), tr("Continuous"), tr("Chunked prefill")});
    m_policy->setToolTip(policyTip);
    m_maxSequences = integerSpin(QStringLiteral("simulationMaxSequencesSpinBox"), 1, 65536, QString(),
                                 tr("max_sequences: cap on sequences holding a slot (vLLM --max-num-seqs)."));
    m_tokenBudget = integerSpin(QStringLiteral("simulationTokenBudgetSpinBox"), 1, 1048576, tr(" tokens"),
                                tr("token_budget: tokens per step under chunked prefill; each decode counts 1."));
    m_maxPrefills = integerSpin(QStringLiteral("simulationMaxPrefillsSpinBox"), 0, model::kMaxSimulationSequences, QString(),
                                maxPrefillsTip());
    m_maxPrefills->setSpecialValueText(tr("no limit"));
    m_kvAdmission = new QComboBox;
    m_kvAdmission->setObjectName(QStringLiteral("simulationKvAdmissionCombo"));
    m_kvAdmission->addItems({tr("Paged"), tr("Contiguous")});
    m_kvAdmission->setToolTip(tr("Paged: blocks allocated as sequences grow, preemption by recompute when none is free.\n"
                                 "Contiguous: a whole max-context reservation per sequence at admission (seed 001, 3.3)."));
    m_seed = integerSpin(QStringLiteral("simulationSeedSpinBox"), 0, std::numeric_limits<int>::max(), QString(),
                         tr("seed of the workload's random streams: the same seed gives the same requests."));
    m_seed->setGroupSeparatorShown(false);
    m_durationCheck = new QCheckBox(tr("Duration"));
    m_durationCheck->setObjectName(QStringLiteral("simulationDurationCheckBox"));
    m_duration = doubleSpin(QStringLiteral("simulationDurationSpinBox"), 0.1, 1e6, 1, 10, tr(" s"),
                            tr("duration_s: arrivals are generated over [0, duration)."));
    m_durationCheck->setToolTip(m_duration->toolTip());
    m_requestsCheck = new QCheckBox(tr("Requests"));
    m_requestsCheck->setObjectName(QStringLiteral("simulationRequestsCheckBox"));
    m_requests = integerSpin(QStringLiteral("simulationRequestsSpinBox"), 1, 100000000, QString(),
                             tr("requests: keep the first N arrivals. With a duration too, whichever ends first."));
    m_requestsCheck->setToolTip(m_requests->toolTip());

    // Classes.
    const QString lognormalTip = tr("Lognormal lengths: median and 99th percentile, tokens (sigma = ln(p99 / median) / 2.326).");
    m_chatRate = doubleSpin(QStringLiteral("simulationChatRateSpinBox"), 0, 100000, 2, 0.5, tr(" req/s"),
                            tr("Poisson arrival rate of the chat class, requests per second."));
    m_promptMedian = integerSpin(QStringLiteral("simulationPromptMedianSpinBox"), 1, 10000000, QString(), lognormalTip);
    m_promptP99 = integerSpin(QStringLiteral("simulationPromptP99SpinBox"), 2, 10000000, QString(), lognormalTip);
    m_outputMedian = integerSpin(QStringLiteral("simulationOutputMedianSpinBox"), 1, 10000000, QString(), lognormalTip);
    m_outputP99 = integerSpin(QStringLiteral("simulationOutputP99SpinBox"), 2, 10000000, QString(), lognormalTip);
    m_batchJob = new QCheckBox(tr("Batch job"));
    m_batchJob->setObjectName(QStringLiteral("simulationBatchJobCheckBox"));
    m_batchJob->setToolTip(tr("A burst of batch-priority requests all landing at one time (seed 000, ticket B4)."));
    m_batchCount = integerSpin(QStringLiteral("simulationBatchCountSpinBox"), 1, 10000000, tr(" requests"),
                               tr("How many batch requests land together."));
    m_batchStart = doubleSpin(QStringLiteral("simulationBatchStartSpinBox"), 0, 1e6, 1, 5, tr(" s"),
                              tr("When the batch job lands, seconds from the start."));
    m_batchPrompt = integerSpin(QStringLiteral("simulationBatchPromptSpinBox"), 1, 10000000, QString(),
                                tr("Prompt tokens of every batch request (fixed)."));
    m_batchOutput = integerSpin(QStringLiteral("simulationBatchOutputSpinBox"), 1, 10000000, QString(),
                                tr("Output tokens of every batch request (fixed)."));
    m_classesNote = valueLabel(QStringLiteral("simulationClassesNote"), QString());
    m_classesNote->setVisible(false);
    m_admissionRule = new QComboBox;
    m_admissionRule->setObjectName(QStringLiteral("simulationAdmissionRuleCombo"));
    m_admissionRule->addItems({tr("None (one FIFO queue)"), tr("Separate queues"), tr("Batch prefill token cap"),
                               tr("Reserved KV for interactive")});
    m_admissionRule->setToolTip(tr("How interactive and batch requests share admission:\n"
                                   "None: one FIFO queue in arrival order.\n"
                                   "Separate queues: interactive requests always go first, and may preempt batch ones.\n"
                                   "Batch prefill token cap: batch prompts prefill at most batch_prefill_token_cap tokens per step.\n"
                                   "Reserved KV: batch requests hold at most 1 - reserved_kv_fraction of the blocks."));

    // SLOs.
    m_sloFromScenario = new QCheckBox(tr("SLOs from the scenario"));
    m_sloFromScenario->setObjectName(QStringLiteral("simulationSloFromScenarioCheckBox"));
    m_sloFromScenario->setToolTip(tr("Checked: the TTFT SLO and the first ITL SLO of the scenario (or the example file's)."));
    m_ttftSlo = doubleSpin(QStringLiteral("simulationTtftSloSpinBox"), 0.1, 1e7, 1, 50, tr(" ms"), tr("ttft_slo_ms: time to first token."));
    m_itlSlo = doubleSpin(QStringLiteral("simulationItlSloSpinBox"), 0.1, 1e7, 1, 5, tr(" ms"), tr("itl_slo_ms: inter-token latency."));
    m_itlStatistic = new QComboBox;
    m_itlStatistic->setObjectName(QStringLiteral("simulationItlStatisticCombo"));
    m_itlStatistic->addItems({tr("on TPOT (mean gap)"), tr("on the worst gap")});
    m_itlStatistic->setToolTip(tr("Which per-request statistic the ITL SLO is checked against: the mean inter-token interval\n"
                                  "(TPOT, seed 001 3.1) or the worst one (what a user sees freeze, 3.4)."));
    m_sweep = new QLineEdit;
    m_sweep->setObjectName(QStringLiteral("simulationSweepEdit"));
    m_sweep->setToolTip(tr("Max-sequences caps to simulate the same requests at (comma separated); empty: no sweep.\n"
                           "Each cap is one more simulation."));

    // Fleet and arrival-rate sweep (docs/fleet-simulation.md).
    m_replicas = integerSpin(QStringLiteral("simulationReplicasSpinBox"), 1, model::kMaxSimulationReplicas, QString(),
                             tr("replicas: identical replicas of the scenario's GPUs, each with its own queue, KV cache and scheduler,\n"
                                "behind one router. 1: a single replica."));
    m_router = new QComboBox;
    m_router->setObjectName(QStringLiteral("simulationRouterCombo"));
    m_router->addItems({tr("Round robin"), tr("Least loaded"), tr("Prefix aware")});
    m_router->setToolTip(tr("router: how each request is assigned when it is sent.\n"
                            "Round robin: request k to replica k mod N.\n"
                            "Least loaded: to the replica with the fewest requests in flight.\n"
                            "Prefix aware: a request's prefix group to the replica that last served it, else least loaded."));
    m_clients = integerSpin(QStringLiteral("simulationClientsSpinBox"), 0, model::kMaxSimulationSequences, QString(),
                            tr("closed_loop_clients: 0, open loop (requests sent at their arrival times).\n"
                               "N: N clients in all, each sending its next request when its last one finishes\n"
                               "(or at its arrival time, if later), routed across the replicas."));
    m_clients->setSpecialValueText(tr("open loop"));
    m_rateSweepCheck = new QCheckBox(tr("Rate sweep"));
    m_rateSweepCheck->setObjectName(QStringLiteral("simulationRateSweepCheckBox"));
    m_rateSweepCheck->setToolTip(tr("rate_sweep: after the run, simulate the workload again at each arrival rate from .. to\n"
                                    "(every class's rate scaled, the same seed), then bisect for the highest rate whose SLO\n"
                                    "attainment holds the target. Each rate and each bisection is one more simulation."));
    m_rateFrom = doubleSpin(QStringLiteral("simulationRateFromSpinBox"), 0.01, 1e6, 2, 1, tr(" req/s"),
                            tr("rate_sweep.from: the first arrival rate, requests per second in all."));
    m_rateTo = doubleSpin(QStringLiteral("simulationRateToSpinBox"), 0.01, 1e6, 2, 1, tr(" req/s"),
                          tr("rate_sweep.to: the last arrival rate (at least from)."));
    m_rateSteps = integerSpin(QStringLiteral("simulationRateStepsSpinBox"), 1, model::kMaxRateSweepSteps, tr(" rates"),
                              tr("rate_sweep.steps: rates evenly spaced from .. to (1: from only); 6 bisections follow."));
    m_attainment = doubleSpin(QStringLiteral("simulationAttainmentSpinBox"), 0.1, 100, 1, 0.5, tr(" %"),
                              tr("rate_sweep.attainment: the share of requests that must meet both SLOs (TTFT and ITL)."));
    m_rateSweepCheck->setToolTip(m_rateSweepCheck->toolTip());

    // Run.
    m_runButton = new QPushButton(tr("Run"));
    m_runButton->setObjectName(QStringLiteral("simulationRunButton"));
    m_runButton->setDefault(true);
    m_runButton->setToolTip(tr("Simulate off the UI thread: the main run, then one per sweep cap."));
    m_cancelButton = new QPushButton(tr("Cancel"));
    m_cancelButton->setObjectName(QStringLiteral("simulationCancelButton"));
    m_cancelButton->setToolTip(tr("Stop the run: the previous results stay. The simulation stops within milliseconds."));
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("simulationProgressBar"));
    m_progress->setFormat(tr("%v / %m simulations"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setMaximumHeight(16);
    m_status = valueLabel(QStringLiteral("simulationStatusLabel"), QString());
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("simulationErrorLabel"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: %1; background: %2; border: 1px solid %1; border-radius: 4px; padding: 3px; }")
                               .arg(palette::css(palette::error()), palette::css(palette::errorBackground())));
    m_error->setVisible(false);

    // Layout.
    auto* engine = compactForm();
    engine->addRow(caption(tr("Policy"), policyTip), m_policy);
    engine->addRow(caption(tr("Max sequences"), m_maxSequences->toolTip()), m_maxSequences);
    engine->addRow(caption(tr("Token budget"), m_tokenBudget->toolTip()), m_tokenBudget);
    m_maxPrefillsCaption = caption(tr("Prefills / step"), m_maxPrefills->toolTip());
    engine->addRow(m_maxPrefillsCaption, m_maxPrefills);
    engine->addRow(caption(tr("KV admission"), m_kvAdmission->toolTip()), m_kvAdmission);
    engine->addRow(caption(tr("Seed"), m_seed->toolTip()), m_seed);
    engine->addRow(m_durationCheck, m_duration);
    engine->addRow(m_requestsCheck, m_requests);

    auto* chat = compactForm();
    chat->addRow(caption(tr("Rate"), m_chatRate->toolTip()), m_chatRate);
    auto* promptRow = new QHBoxLayout;
    promptRow->setSpacing(4);
    promptRow->addWidget(m_promptMedian, 1);
    promptRow->addWidget(caption(tr("p99"), lognormalTip));
    promptRow->addWidget(m_promptP99, 1);
    chat->addRow(caption(tr("Prompt median"), lognormalTip), promptRow);
    auto* outputRow = new QHBoxLayout;
    outputRow->setSpacing(4);
    outputRow->addWidget(m_outputMedian, 1);
    outputRow->addWidget(caption(tr("p99"), lognormalTip));
    outputRow->addWidget(m_outputP99, 1);
    chat->addRow(caption(tr("Output median"), lognormalTip), outputRow);

    auto* batch = compactForm();
    auto* burstRow = new QHBoxLayout;
    burstRow->setSpacing(4);
    burstRow->addWidget(m_batchCount, 3);
    burstRow->addWidget(caption(tr("at"), m_batchStart->toolTip()));
    burstRow->addWidget(m_batchStart, 2);
    batch->addRow(m_batchJob, burstRow);
    auto* batchLengths = new QHBoxLayout;
    batchLengths->setSpacing(4);
    batchLengths->addWidget(m_batchPrompt, 1);
    batchLengths->addWidget(caption(tr("out"), m_batchOutput->toolTip()));
    batchLengths->addWidget(m_batchOutput, 1);
    batch->addRow(caption(tr("Prompt in"), m_batchPrompt->toolTip()), batchLengths);
    batch->addRow(caption(tr("Admission"), m_admissionRule->toolTip()), m_admissionRule);

    auto* slos = compactForm();
    slos->addRow(m_sloFromScenario);
    slos->addRow(caption(tr("TTFT SLO"), m_ttftSlo->toolTip()), m_ttftSlo);
    slos->addRow(caption(tr("ITL SLO"), m_itlSlo->toolTip()), m_itlSlo);
    slos->addRow(caption(tr("Checked"), m_itlStatistic->toolTip()), m_itlStatistic);
    slos->addRow(caption(tr("Sweep caps"), m_sweep->toolTip()), m_sweep);

    auto* fleet = compactForm();
    fleet->addRow(caption(tr("Replicas"), m_replicas->toolTip()), m_replicas);
    fleet->addRow(caption(tr("Router"), m_router->toolTip()), m_router);
    fleet->addRow(caption(tr("Clients"), m_clients->toolTip()), m_clients);
    fleet->addRow(m_rateSweepCheck);
    auto* rateRow = new QHBoxLayout;
    rateRow->setSpacing(4);
    rateRow->addWidget(m_rateFrom, 1);
    rateRow->addWidget(caption(tr("to"), m_rateTo->toolTip()));
    rateRow->addWidget(m_rateTo, 1);
    fleet->addRow(caption(tr("From"), m_rateFrom->toolTip()), rateRow);
    auto* stepsRow = new QHBoxLayout;
    stepsRow->setSpacing(4);
    stepsRow->addWidget(m_rateSteps, 1);
    stepsRow->addWidget(caption(tr("target"), m_attainment->toolTip()));
    stepsRow->addWidget(m_attainment, 1);
    fleet->addRow(caption(tr("Steps"), m_rateSteps->toolTip()), stepsRow);

    auto* cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(10, 8, 10, 8);
    cardLayout->setSpacing(4);
    cardLayout->addWidget(titleLabel(QStringLiteral("simulationInputsTitle"), tr("Serving simulation"),
                                     tr("Discrete-event, iteration-level simulation of one replica on the cost model's step time.")));
    cardLayout->addLayout(exampleRow);
    cardLayout->addWidget(m_useExampleScenario);
    cardLayout->addWidget(m_scenarioLabel);
    cardLayout->addWidget(sectionLabel(tr("Engine")));
    cardLayout->addLayout(engine);
    cardLayout->addWidget(sectionLabel(tr("Chat class (interactive)")));
    cardLayout->addLayout(chat);
    cardLayout->addWidget(sectionLabel(tr("Batch job")));
    cardLayout->addLayout(batch);
    cardLayout->addWidget(m_classesNote);
    cardLayout->addWidget(sectionLabel(tr("SLOs and sweep")));
    cardLayout->addLayout(slos);
    cardLayout->addWidget(sectionLabel(tr("Fleet and rate sweep")));
    cardLayout->addLayout(fleet);

    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(card);
    sideLayout->addStretch(1);

    // Narrow columns: the fields' size hints (from their ranges) must not widen the column.
    for (QWidget* field : card->findChildren<QWidget*>()) {
        if (qobject_cast<QAbstractSpinBox*>(field) || qobject_cast<QComboBox*>(field) || qobject_cast<QLineEdit*>(field))
            field->setMinimumWidth(48);
        if (auto* combo = qobject_cast<QComboBox*>(field)) {
            combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
            combo->setMinimumContentsLength(6);
        }
    }

    // Defaults: the seed-001 chat load on the inputs alone.
    model::SimulationConfig defaults;
    defaults.policy = model::BatchingPolicy::Chunked;
    defaults.maxSequences = 32;
    defaults.tokenBudget = 1024;
    defaults.durationSeconds = 120;
    model::RequestClass chatClass;
    chatClass.name = "chat";
    chatClass.ratePerSecond = 6;
    chatClass.prompt = {model::LengthDistribution::Kind::LogNormal, 1, 0, 0, 1500, 6000};
    chatClass.output = {model::LengthDistribution::Kind::LogNormal, 1, 0, 0, 150, 800};
    defaults.classes = {chatClass};
    fillInputs(defaults);
    setQuietly(m_requests, 1000);
    setQuietly(m_batchCount, 40);
    setQuietly(m_batchStart, 30.0);
    setQuietly(m_batchPrompt, 8000);
    setQuietly(m_batchOutput, 2000);
    m_sweep->setText(kDefaultSweep);
    setQuietly(m_sloFromScenario, true);
    setQuietly(m_rateFrom, 2.0);
    setQuietly(m_rateTo, 12.0);
    setQuietly(m_rateSteps, 6);
    setQuietly(m_attainment, 99.0);

    connect(m_exampleCombo, &QComboBox::activated, this, &SimulationTab::exampleChosen);
    connect(m_openButton, &QPushButton::clicked, this, &SimulationTab::openFromDialog);
    connect(m_useExampleScenario, &QCheckBox::toggled, this, &SimulationTab::syncFromScenario);
    connect(m_sloFromScenario, &QCheckBox::toggled, this, &SimulationTab::syncFromScenario);
    for (QCheckBox* box : {m_durationCheck, m_requestsCheck, m_batchJob, m_rateSweepCheck})
        connect(box, &QCheckBox::toggled, this, &SimulationTab::updateEnabled);
    connect(m_policy, &QComboBox::currentIndexChanged, this, &SimulationTab::updateEnabled);
    connect(m_replicas, &QSpinBox::valueChanged, this, &SimulationTab::updateEnabled);
    // Its tool tip says what the value does. Not updateEnabled(): a value typed and not yet entered is taken when the box
    // loses focus, which may be while the tab is destroyed, after its runner.
    connect(m_maxPrefills, &QSpinBox::valueChanged, this, &SimulationTab::updateMaxPrefills);
    connect(m_runButton, &QPushButton::clicked, this, &SimulationTab::run);
    connect(m_cancelButton, &QPushButton::clicked, this, &SimulationTab::cancel);
    updateEnabled();
}

QWidget* SimulationTab::buildResults()
{
    m_timeline = new ItlTimelinePlot;
    m_cdf = new LatencyCdfPlot;
    m_sweepPlot = new CapSweepPlot;
    m_kvPlot = new KvUsagePlot;
    m_rateSweepPlot = new RateSweepPlot;
    m_attainmentPlot = new AttainmentPlot;

    QFrame* card = whatifkit::card(QStringLiteral("simulationResults"));
    m_summary = titleLabel(QStringLiteral("simulationSummaryLabel"), tr("Aggregates"),
                           tr("Per-request latencies (ITL: every interval) over all classes, nearest-rank percentiles.\n"
                              "Goodput: requests meeting both SLOs; rejected requests count as missing."));
    setTitle(m_summary, tr("Aggregates"), tr("No run yet."));
    m_classCombo = new QComboBox;
    m_classCombo->setObjectName(QStringLiteral("simulationClassCombo"));
    m_classCombo->setToolTip(tr("Which requests the tables show: every class together, or one class.\n"
                                "Classes differ by design (a batch job's TTFT is not a chat user's): read each one alone."));
    m_classCombo->addItem(tr("All classes"));
    m_classCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_classCombo->setEnabled(false);
    connect(m_classCombo, &QComboBox::currentIndexChanged, this, [this] { showTables(); });
    m_latencyTable = resultTable(QStringLiteral("simulationLatencyTable"), LatencyRowCount, LatencyColumnCount);
    m_latencyTable->setHorizontalHeaderLabels({tr("p50"), tr("p95"), tr("p99"), tr("max")});
    m_latencyTable->setVerticalHeaderLabels({tr("Queue wait"), tr("Prefill"), tr("TTFT"), tr("ITL"), tr("TPOT"), tr("End to end")});
    m_latencyTable->setToolTip(tr("Queue wait = admitted - arrival; prefill = first token - admitted; TTFT = first token - arrival;\n"
                                  "ITL = every inter-token interval; TPOT = per-request mean interval; end to end = last token - arrival."));
    m_totalsTable = resultTable(QStringLiteral("simulationTotalsTable"), TotalsRowCount, 1);
    m_totalsTable->horizontalHeader()->setVisible(false);
    m_totalsTable->setFixedHeight(m_latencyTable->height());
    m_totalsTable->setVerticalHeaderLabels({tr("Requests"), tr("Throughput"), tr("Goodput"), tr("Preemptions"),
                                            tr("Static slot waste"), tr("Sequences")});
    m_totalsTable->setToolTip(tr("Requests: completed / all (rejected: could never fit).\n"
                                 "Throughput: output tokens / span.  Goodput: requests meeting both SLOs per second, and their share.\n"
                                 "Preemptions: KV dropped and recomputed.  Static slot waste: slot-time spent on finished sequences\n"
                                 "(static batching only, seed 001 3.2a).  Sequences: peak and time-weighted mean holding a slot."));
    auto* tables = new QHBoxLayout;
    tables->setSpacing(8);
    tables->addWidget(m_latencyTable, 4);
    tables->addWidget(m_totalsTable, 3);
    m_replicaTitle = valueLabel(QStringLiteral("simulationReplicaTitle"),
                                tr("Each replica of the fleet: what the router sent it and how it served it (model::ReplicaLoad).\n"
                                   "Requests: completed / routed.  Throughput and busy: over the fleet's span.  Goodput: its requests\n"
                                   "meeting both SLOs.  Sequences: time-weighted mean and peak holding a slot.  KV peak: whole-model\n"
                                   "blocks at its peak, and of its budget.  Prefix hits: its prefix cache's hit rate in tokens."));
    m_replicaTable = resultTable(QStringLiteral("simulationReplicaTable"), 0, ReplicaColumnCount);
    m_replicaTable->setHorizontalHeaderLabels({tr("Requests"), tr("Throughput"), tr("Goodput"), tr("TTFT p50"), tr("TTFT p99"),
                                               tr("Busy"), tr("Sequences"), tr("KV peak"), tr("Preempt."), tr("Prefix hits")});
    m_replicaTable->setToolTip(m_replicaTitle->toolTip());
    auto* cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(10, 6, 10, 8);
    cardLayout->setSpacing(4);
    auto* classRow = new QHBoxLayout;
    classRow->setSpacing(6);
    classRow->addWidget(caption(tr("Show"), m_classCombo->toolTip()));
    classRow->addWidget(m_classCombo);
    classRow->addStretch(1);
    cardLayout->addWidget(m_summary);
    cardLayout->addLayout(classRow);
    // The replicas share the tables' place, on a second page whose tab shows for a fleet only: a fleet costs no height.
    auto* aggregatesPage = new QWidget;
    aggregatesPage->setLayout(tables);
    tables->setContentsMargins(0, 0, 0, 0);
    auto* replicasPage = new QWidget;
    auto* replicasLayout = new QVBoxLayout(replicasPage);
    replicasLayout->setContentsMargins(0, 0, 0, 0);
    replicasLayout->setSpacing(2);
    replicasLayout->addWidget(m_replicaTitle);
    replicasLayout->addWidget(m_replicaTable);
    replicasLayout->addStretch(1);
    m_resultPages = new QTabWidget;
    m_resultPages->setObjectName(QStringLiteral("simulationResultPages"));
    m_resultPages->setDocumentMode(true);
    m_resultPages->addTab(aggregatesPage, tr("Latencies and totals"));
    m_resultPages->addTab(replicasPage, tr("Replicas"));
    m_resultPages->setTabVisible(1, false);
    m_resultPages->tabBar()->setVisible(false);
    cardLayout->addWidget(m_resultPages);

    auto* results = new QWidget;
    auto* grid = new QGridLayout(results);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(8);
    grid->addWidget(m_timeline, 0, 0);
    grid->addWidget(m_cdf, 0, 1);
    grid->addWidget(m_sweepPlot, 1, 0);
    grid->addWidget(m_kvPlot, 1, 1);
    m_rateRow = new QWidget;
    m_rateRow->setObjectName(QStringLiteral("simulationRateRow"));
    auto* rateLayout = new QHBoxLayout(m_rateRow);
    rateLayout->setContentsMargins(0, 0, 0, 0);
    rateLayout->setSpacing(8);
    rateLayout->addWidget(m_rateSweepPlot, 1);
    rateLayout->addWidget(m_attainmentPlot, 1);
    m_rateRow->setVisible(false);
    grid->addWidget(m_rateRow, 2, 0, 1, 2);
    grid->addWidget(card, 3, 0, 1, 2);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    grid->setRowStretch(2, 0); // the rate-sweep row, 1 while shown
    return results;
}

QList<QCustomPlot*> SimulationTab::plots() const
{
    return {m_timeline->plot(), m_cdf->plot(), m_sweepPlot->plot(), m_kvPlot->plot()};
}

void SimulationTab::fillInputs(const model::SimulationConfig& c)
{
    setQuietly(m_policy, int(c.policy));
    setQuietly(m_maxSequences, c.maxSequences);
    setQuietly(m_tokenBudget, c.tokenBudget);
    setQuietly(m_maxPrefills, std::clamp(c.maxPrefillsPerStep, 0, m_maxPrefills->maximum()));
    setQuietly(m_kvAdmission, c.kvAdmission == model::KvAdmission::Paged ? 0 : 1);
    setQuietly(m_seed, int(std::min<std::uint64_t>(c.seed, std::uint64_t(std::numeric_limits<int>::max()))));
    setQuietly(m_durationCheck, c.durationSeconds.has_value());
    if (c.durationSeconds)
        setQuietly(m_duration, *c.durationSeconds);
    setQuietly(m_requestsCheck, c.requests.has_value());
    if (c.requests)
        setQuietly(m_requests, int(std::min<long long>(*c.requests, m_requests->maximum())));
    setQuietly(m_admissionRule, int(c.admissionRule));
    setQuietly(m_ttftSlo, c.ttftSloMs);
    setQuietly(m_itlSlo, c.itlSloMs);
    setQuietly(m_itlStatistic, c.itlSloStatistic == model::ItlSloStatistic::Mean ? 0 : 1);
    setQuietly(m_replicas, std::clamp(c.replicas, 1, model::kMaxSimulationReplicas));
    setQuietly(m_router, std::clamp(int(c.router), 0, 2));
    setQuietly(m_clients, std::max(0, c.closedLoopClients));

    const int chat = chatClassIndex(c);
    const int batch = batchClassIndex(c);
    auto lognormal = [](const model::LengthDistribution& d) { return d.kind == model::LengthDistribution::Kind::LogNormal; };
    auto fixed = [](const model::LengthDistribution& d) { return d.kind == model::LengthDistribution::Kind::Fixed; };
    auto tokens = [](double v) { return int(std::clamp(std::round(v), 1.0, 1e7)); };
    if (chat < 0 && !c.classes.empty())
        setQuietly(m_chatRate, 0.0); // no chat class: none is added unless a rate is typed
    if (chat >= 0) {
        const model::RequestClass& k = c.classes[size_t(chat)];
        setQuietly(m_chatRate, k.ratePerSecond);
        if (lognormal(k.prompt)) {
            setQuietly(m_promptMedian, tokens(k.prompt.median));
            setQuietly(m_promptP99, tokens(k.prompt.p99));
        }
        if (lognormal(k.output)) {
            setQuietly(m_outputMedian, tokens(k.output.median));
            setQuietly(m_outputP99, tokens(k.output.p99));
        }
    }
    setQuietly(m_batchJob, batch >= 0);
    if (batch >= 0) {
        const model::RequestClass& k = c.classes[size_t(batch)];
        setQuietly(m_batchCount, int(std::min<long long>(k.count, m_batchCount->maximum())));
        setQuietly(m_batchStart, k.startSeconds);
        if (fixed(k.prompt))
            setQuietly(m_batchPrompt, tokens(k.prompt.value));
        if (fixed(k.output))
            setQuietly(m_batchOutput, tokens(k.output.value));
    }
    // The inputs stand for the classes only when they can say everything the classes say.
    const size_t mapped = size_t(chat >= 0) + size_t(batch >= 0);
    m_classesEditable = c.trace.empty() && mapped == c.classes.size()
                        && (chat < 0 || (lognormal(c.classes[size_t(chat)].prompt) && lognormal(c.classes[size_t(chat)].output)
                                         && c.classes[size_t(chat)].count == 0))
                        && (batch < 0 || (fixed(c.classes[size_t(batch)].prompt) && fixed(c.classes[size_t(batch)].output)
                                          && c.classes[size_t(batch)].ratePerSecond == 0));
    if (!c.sweepMaxSequences.empty()) {
        QStringList caps;
        for (int cap : c.sweepMaxSequences)
            caps << QString::number(cap);
        m_sweep->setText(caps.join(QStringLiteral(", ")));
    }
    updateEnabled();
}

QString SimulationTab::loadExample(const QString& path)
{
    model::SimulationFile file;
    const std::string error = model::loadSimulationFile(path, file);
    const QString name = QFileInfo(path).fileName();
    if (!error.empty()) {
        const QString message = tr("%1: %2").arg(name, QString::fromStdString(error));
        showError(message);
        setQuietly(m_exampleCombo, m_exampleIndex);
        return message;
    }
    showError(QString());
    m_example = std::move(file);
    m_examplePath = path;
    fillInputs(m_example->config);
    if (m_example->config.sweepMaxSequences.empty())
        m_sweep->clear(); // the file sweeps nothing: no caps it does not hold
    const model::RateSweep& rs = m_example->rateSweep;
    setQuietly(m_rateSweepCheck, rs.steps > 0);
    if (rs.steps > 0) {
        setQuietly(m_rateFrom, rs.fromPerSecond);
        setQuietly(m_rateTo, rs.toPerSecond);
        setQuietly(m_rateSteps, rs.steps);
        setQuietly(m_attainment, rs.attainmentTarget * 100.0);
    }
    m_classesNote->setVisible(!m_classesEditable);
    setText(m_classesNote, m_classesEditable ? QString()
                                             : tr("This file's request classes (or trace) run as written; the class inputs are not used."));
    int index = m_exampleCombo->findData(path);
    if (index < 0) {
        m_exampleCombo->addItem(name, path);
        index = m_exampleCombo->count() - 1;
    }
    m_exampleIndex = index;
    setQuietly(m_exampleCombo, index);
    m_exampleCombo->setToolTip(QString::fromStdString(m_example->title));
    setQuietly(m_useExampleScenario, true);
    setQuietly(m_sloFromScenario, true);
    syncFromScenario();
    setText(m_status, tr("Loaded %1.").arg(name));
    return QString();
}

void SimulationTab::clearExample()
{
    m_example.reset();
    m_examplePath.clear();
    m_exampleIndex = 0;
    m_classesEditable = true;
    m_classesNote->setVisible(false);
    setQuietly(m_exampleCombo, 0);
    m_exampleCombo->setToolTip(tr("Load a shipped simulation file: its scenario, workload and engine settings fill the inputs."));
    showError(QString());
    syncFromScenario();
}

void SimulationTab::exampleChosen(int index)
{
    const QString path = m_exampleCombo->itemData(index).toString();
    if (path.isEmpty())
        clearExample();
    else
        loadExample(path);
}

void SimulationTab::openFromDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open simulation file"), QString(),
                                                      tr("Simulation files (*.json);;All files (*)"));
    if (!path.isEmpty())
        loadExample(path);
}

bool SimulationTab::usingExampleScenario() const
{
    return m_example && m_useExampleScenario->isChecked();
}

/**
 * Each replica's parallel layout as the Scenario label and the headline name it: "" for one GPU without PP or EP,
 * else " ×G GPUs per replica (TP t, PP p, EP e[, m microbatches])": TP = hardware.gpus, PP, EP and the microbatches
 * from @p config (the simulation file's pipeline_stages, expert_parallel, microbatches).
 */
static QString layoutLabel(const model::Scenario& s, const model::SimulationConfig& c)
{
    const model::ParallelLayout l{std::max(1, s.hardware.gpus), std::max(1, c.pipelineStages), std::max(1, c.expertParallel),
                                  c.microbatches};
    if (l.tp == 1 && l.pp == 1 && l.ep == 1)
        return {};
    QString text = QObject::tr(" \u00d7%1 GPUs per replica (TP %2, PP %3, EP %4").arg(l.gpus()).arg(l.tp).arg(l.pp).arg(l.ep);
    if (l.pp > 1)
        text += l.microbatches > 0 ? QObject::tr(", %1 microbatches").arg(l.microbatches) : QObject::tr(", min(PP, batch) microbatches");
    return text + QLatin1Char(')');
}

model::Scenario SimulationTab::scenario() const
{
    return usingExampleScenario() ? m_example->scenario : m_document->evaluatedScenario();
}

void SimulationTab::syncFromScenario()
{
    const bool exampleScenario = usingExampleScenario();
    m_useExampleScenario->setEnabled(m_example.has_value());
    const model::Scenario s = scenario();
    const QString source = exampleScenario ? tr("the example's") : tr("the window's");
    setText(m_scenarioLabel, tr("Scenario: %1 \u2014 %2 on %3%4, \u03b7_bw %5, prefill MFU %6.")
                                 .arg(source, QString::fromStdString(s.model.name), QString::fromStdString(s.hardware.name), layoutLabel(s, config()),
                                      format::number(s.efficiency.bandwidth, 2), format::number(s.efficiency.mfuPrefill, 2)));
    // Without a file, the window scenario's serving.max_prefills_per_step seeds "Prefills / step" as a file's scenario
    // seeds its simulation (model::parseSimulationJson); the user's value stays until the scenario's changes.
    if (!m_example && s.serving.maxPrefillsPerStep != m_documentMaxPrefills) {
        m_documentMaxPrefills = s.serving.maxPrefillsPerStep;
        setQuietly(m_maxPrefills, std::clamp(m_documentMaxPrefills, 0, m_maxPrefills->maximum()));
    }
    if (m_sloFromScenario->isChecked()) {
        if (exampleScenario) {
            setQuietly(m_ttftSlo, m_example->config.ttftSloMs);
            setQuietly(m_itlSlo, m_example->config.itlSloMs);
        } else {
            setQuietly(m_ttftSlo, s.workload.ttftSloMs);
            if (!s.workload.itlSloMs.empty())
                setQuietly(m_itlSlo, s.workload.itlSloMs.front());
        }
    }
    updateEnabled();
}

void SimulationTab::updateEnabled()
{
    const bool running = m_runner && m_runner->isRunning(); // no runner while the tab is destroyed (a focus-out may land here)
    m_duration->setEnabled(m_durationCheck->isChecked());
    m_requests->setEnabled(m_requestsCheck->isChecked());
    m_tokenBudget->setEnabled(m_policy->currentIndex() == int(model::BatchingPolicy::Chunked));
    updateMaxPrefills();
    for (QWidget* w : std::initializer_list<QWidget*>{m_chatRate, m_promptMedian, m_promptP99, m_outputMedian, m_outputP99, m_batchJob})
        w->setEnabled(m_classesEditable);
    for (QWidget* w : std::initializer_list<QWidget*>{m_batchCount, m_batchStart, m_batchPrompt, m_batchOutput})
        w->setEnabled(m_classesEditable && m_batchJob->isChecked());
    m_ttftSlo->setEnabled(!m_sloFromScenario->isChecked());
    m_itlSlo->setEnabled(!m_sloFromScenario->isChecked());
    m_router->setEnabled(m_replicas->value() > 1);
    for (QWidget* w : std::initializer_list<QWidget*>{m_rateFrom, m_rateTo, m_rateSteps, m_attainment})
        w->setEnabled(m_rateSweepCheck->isChecked());
    m_runButton->setEnabled(!running);
    m_cancelButton->setEnabled(running);
}

void SimulationTab::updateMaxPrefills()
{
    // Off with the reason under static batching (model::maxPrefillsPerStepApplies, the command line's rule); the tool
    // tip ends with what the value does (model::maxPrefillsPerStepText, the --simulate report's sentence).
    model::SimulationConfig probe;
    probe.policy = model::BatchingPolicy(std::clamp(m_policy->currentIndex(), 0, 2));
    probe.maxPrefillsPerStep = m_maxPrefills->value();
    m_maxPrefills->setEnabled(model::maxPrefillsPerStepApplies(probe));
    const QString tip = maxPrefillsTip() + QStringLiteral("\n") + QString::fromStdString(model::maxPrefillsPerStepText(probe)) + QLatin1Char('.');
    m_maxPrefills->setToolTip(tip);
    m_maxPrefills->setAccessibleDescription(tip);
    m_maxPrefillsCaption->setToolTip(tip);
}

model::SimulationConfig SimulationTab::config() const
{
    model::SimulationConfig c;
    if (m_example) {
        c = m_example->config;
    } else {
        c.blockTokens = m_document->evaluatedScenario().serving.blockTokens; // as a file without block_tokens
    }
    c.policy = model::BatchingPolicy(std::clamp(m_policy->currentIndex(), 0, 2));
    c.maxSequences = m_maxSequences->value();
    c.tokenBudget = m_tokenBudget->value();
    c.maxPrefillsPerStep = m_maxPrefills->value(); // kept under static batching too, as a file keeps it: the run ignores it
    c.kvAdmission = m_kvAdmission->currentIndex() == 0 ? model::KvAdmission::Paged : model::KvAdmission::Contiguous;
    c.seed = std::uint64_t(m_seed->value());
    c.durationSeconds = m_durationCheck->isChecked() ? std::optional<double>(m_duration->value()) : std::nullopt;
    c.requests = m_requestsCheck->isChecked() ? std::optional<long long>(m_requests->value()) : std::nullopt;
    c.admissionRule = model::AdmissionRule(std::clamp(m_admissionRule->currentIndex(), 0, 3));
    c.ttftSloMs = m_ttftSlo->value();
    c.itlSloMs = m_itlSlo->value();
    c.itlSloStatistic = m_itlStatistic->currentIndex() == 0 ? model::ItlSloStatistic::Mean : model::ItlSloStatistic::Max;
    c.recordTokenTimes = false; // the runner decides
    c.replicas = m_replicas->value();
    c.router = model::RouterPolicy(std::clamp(m_router->currentIndex(), 0, 2));
    c.closedLoopClients = m_clients->value();

    c.sweepMaxSequences.clear();
    const QStringList caps = m_sweep->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString& cap : caps) {
        bool ok = false;
        const int value = cap.toInt(&ok);
        c.sweepMaxSequences.push_back(ok ? value : 0); // 0 is refused by inputError()
    }

    if (m_classesEditable) {
        const int chat = chatClassIndex(c);
        const int batch = batchClassIndex(c);
        model::RequestClass chatClass;
        if (chat >= 0) {
            chatClass = c.classes[size_t(chat)];
        } else {
            chatClass.name = "chat";
            chatClass.priority = model::Priority::Interactive;
        }
        chatClass.ratePerSecond = m_chatRate->value();
        auto lognormal = [](model::LengthDistribution d, double median, double p99) {
            if (d.kind != model::LengthDistribution::Kind::LogNormal)
                d = model::LengthDistribution{};
            d.kind = model::LengthDistribution::Kind::LogNormal;
            d.median = median;
            d.p99 = p99;
            return d; // clamps (min, max) of a loaded file are kept
        };
        chatClass.prompt = lognormal(chatClass.prompt, m_promptMedian->value(), m_promptP99->value());
        chatClass.output = lognormal(chatClass.output, m_outputMedian->value(), m_outputP99->value());
        std::vector<model::RequestClass> classes;
        if (chat >= 0 || chatClass.ratePerSecond > 0) // a file without a chat class gets none at rate 0
            classes.push_back(chatClass);
        if (m_batchJob->isChecked()) {
            model::RequestClass batchClass;
            if (batch >= 0) {
                batchClass = c.classes[size_t(batch)];
            } else {
                batchClass.name = "batch-job";
                batchClass.priority = model::Priority::Batch;
            }
            batchClass.count = m_batchCount->value();
            batchClass.startSeconds = m_batchStart->value();
            batchClass.prompt = {model::LengthDistribution::Kind::Fixed, double(m_batchPrompt->value())};
            batchClass.output = {model::LengthDistribution::Kind::Fixed, double(m_batchOutput->value())};
            if (batchClass.name == chatClass.name)
                batchClass.name += "-batch";
            classes.push_back(batchClass);
        }
        c.classes = std::move(classes);
    }
    return c;
}

QString SimulationTab::inputError() const
{
    const model::SimulationConfig c = config();
    const QStringList caps = m_sweep->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString& cap : caps) {
        bool ok = false;
        if (cap.toInt(&ok) < 1 || !ok)
            return tr("Sweep caps: \u201c%1\u201d is not a whole number of sequences \u2265 1.").arg(cap);
    }
    if (caps.size() > kMaxSweepCaps)
        return tr("Sweep caps: at most %1 caps (each is one more simulation).").arg(kMaxSweepCaps);
    if (!m_durationCheck->isChecked() && !m_requestsCheck->isChecked())
        return tr("Give a duration or a request count: the chat class's arrivals would never end.");
    const std::string problem = model::checkSimulationConfig(c);
    if (!problem.empty())
        return QString::fromStdString(problem);
    if (m_rateSweepCheck->isChecked()) {
        if (const std::string sweep = model::checkRateSweep(c, rateSweep(), "Rate sweep"); !sweep.empty())
            return QString::fromStdString(sweep);
    }
    const model::Scenario s = scenario();
    const std::vector<model::ScenarioError> errors = model::validate(s);
    if (!errors.empty())
        return tr("The scenario is not valid: %1").arg(QString::fromStdString(errors.front().message));
    if (c.pipelineStages > 1 || c.expertParallel > 1) { // a loaded file's layout, against the model run now
        const model::ParallelLayout layout{std::max(1, s.hardware.gpus), c.pipelineStages, c.expertParallel, c.microbatches};
        if (const std::string why = model::layoutRefusal(s.model, layout); !why.empty())
            return tr("The file's layout (pipeline_stages %1, expert_parallel %2) cannot run this model: %3")
                .arg(c.pipelineStages)
                .arg(c.expertParallel)
                .arg(QString::fromStdString(why));
    }
    return QString();
}

model::RateSweep SimulationTab::rateSweep() const
{
    model::RateSweep s;
    if (m_example && m_example->rateSweep.steps > 0)
        s = m_example->rateSweep; // its bisections
    if (!m_rateSweepCheck->isChecked()) {
        s.steps = 0;
        return s;
    }
    s.fromPerSecond = m_rateFrom->value();
    s.toPerSecond = m_rateTo->value();
    s.steps = m_rateSteps->value();
    s.attainmentTarget = m_attainment->value() / 100.0;
    return s;
}

void SimulationTab::run()
{
    if (m_runner->isRunning())
        return;
    // Commit any text being typed into a spin box.
    if (QWidget* focus = focusWidget())
        focus->clearFocus();
    const QString problem = inputError();
    showError(problem);
    if (!problem.isEmpty())
        return;
    const model::SimulationConfig c = config();
    m_runner->start(scenario(), c, m_example && usingExampleScenario() ? m_example->title : std::string(), rateSweep());
    setRunning(true);
}

void SimulationTab::cancel()
{
    m_runner->cancel(); // emits cancelled(): the buttons follow
}

void SimulationTab::setRunning(bool running)
{
    Q_UNUSED(running);
    updateEnabled();
    m_progress->setEnabled(m_runner->isRunning());
}

void SimulationTab::showError(const QString& message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

void SimulationTab::showTables()
{
    if (!m_outcome)
        return;
    const SimulationOutcome& o = *m_outcome;
    const model::SimulationResult& r = o.result;
    const int chosen = m_classCombo->currentIndex() - 1; // -1: all classes
    const bool oneClass = chosen >= 0 && size_t(chosen) < r.classes.size();
    const model::TrafficSummary& all = oneClass ? r.classes[size_t(chosen)] : r.all;
    const model::LatencySummary& l = all.latency;
    const model::Percentiles* rows[LatencyRowCount] = {&l.queueWait, &l.prefill, &l.ttft, &l.itl, &l.tpot, &l.endToEnd};
    for (int row = 0; row < LatencyRowCount; ++row) {
        const model::Percentiles& p = *rows[row];
        const double values[LatencyColumnCount] = {p.p50, p.p95, p.p99, p.max};
        for (int column = 0; column < LatencyColumnCount; ++column)
            m_latencyTable->item(row, column)->setText(p.count > 0 ? format::duration(values[column]) : QStringLiteral("\u2013"));
    }
    m_totalsTable->item(RequestsRow, 0)->setText(tr("%1 / %2%3")
                                                     .arg(format::integer(double(all.completed)), format::integer(double(all.requests)),
                                                          all.rejected > 0 ? tr(", %1 rejected").arg(format::integer(double(all.rejected)))
                                                                           : QString()));
    if (all.rejected > 0) {
        QStringList why;
        if (r.rejectedOverMaxContext > 0)
            why << tr("%1 over the max context of %2 tokens")
                       .arg(format::integer(double(r.rejectedOverMaxContext)), format::integer(double(o.scenario.serving.maxContextTokens)));
        if (r.rejectedOverKvBudget > 0)
            why << tr("%1 needing more KV than the budget can ever hold").arg(format::integer(double(r.rejectedOverKvBudget)));
        m_totalsTable->item(RequestsRow, 0)->setToolTip(tr("Rejected: %1").arg(why.join(QStringLiteral("; "))));
    } else {
        m_totalsTable->item(RequestsRow, 0)->setToolTip(QString());
    }
    m_totalsTable->item(ThroughputRow, 0)->setText(format::tokensPerSecond(all.throughputTokensPerSecond));
    m_totalsTable->item(GoodputRow, 0)->setText(tr("%1 \u00b7 %2 req/s").arg(format::percent(all.goodputFraction),
                                                                             format::number(all.goodputRequestsPerSecond)));
    m_totalsTable->item(PreemptionsRow, 0)->setText(format::integer(double(r.preemptions)));
    m_totalsTable->item(StaticWasteRow, 0)->setText(format::percent(r.finishedSlotFraction));
    m_totalsTable->item(SequencesRow, 0)->setText(tr("%1 peak, %2 mean").arg(format::integer(r.peakSequences), format::number(r.meanSequences)));

    if (oneClass) {
        long long preemptions = 0;
        for (const model::RequestResult& q : r.requests)
            preemptions += q.classIndex == chosen ? q.preemptions : 0;
        m_totalsTable->item(PreemptionsRow, 0)->setText(format::integer(double(preemptions)));
    }
}

void SimulationTab::showOutcome(std::shared_ptr<const SimulationOutcome> outcome)
{
    m_outcome = std::move(outcome);
    const SimulationOutcome& o = *m_outcome;
    const model::SimulationResult& r = o.result;
    const model::LatencySummary& l = r.all.latency;

    m_timeline->showOutcome(o);
    m_cdf->showOutcome(o);
    m_sweepPlot->showOutcome(o);
    m_kvPlot->showOutcome(o);
    const bool swept = o.rateSweep.steps > 0 && !o.rateSweepResult.points.empty();
    if (swept) {
        m_rateSweepPlot->showOutcome(o);
        m_attainmentPlot->showOutcome(o);
    } else {
        m_rateSweepPlot->clearOutcome();
        m_attainmentPlot->clearOutcome();
    }
    m_rateRow->setVisible(swept);
    if (auto* grid = qobject_cast<QGridLayout*>(m_rateRow->parentWidget()->layout()))
        grid->setRowStretch(2, swept ? 1 : 0); // hidden, the row takes no room
    showReplicas();

    {
        const QSignalBlocker blocker(m_classCombo);
        m_classCombo->clear();
        m_classCombo->addItem(o.config.classes.size() > 1 ? tr("All %1 classes together").arg(o.config.classes.size()) : tr("All classes"));
        for (const model::RequestClass& k : o.config.classes)
            m_classCombo->addItem(tr("%1 (%2)").arg(QString::fromStdString(k.name), k.priority == model::Priority::Batch ? tr("batch") : tr("interactive")));
        m_classCombo->setCurrentIndex(0);
        m_classCombo->setEnabled(o.config.classes.size() > 1);
    }
    showTables();
    const model::TrafficSummary& all = r.all;

    // The headline: the tail the policy leaves and the goodput at the run's cap.
    QString takeaway = tr("%1: max ITL %2; goodput %3 at cap %4")
                           .arg(runLabel(o.config) + layoutLabel(o.scenario, o.config), format::duration(l.itl.max), format::percent(all.goodputFraction),
                                format::integer(o.config.maxSequences));
    if (!o.sweep.empty()) {
        const model::SweepPoint* best = &o.sweep.front();
        for (const model::SweepPoint& s : o.sweep) {
            if (s.goodputRequestsPerSecond > best->goodputRequestsPerSecond * (1 + 1e-9))
                best = &s;
        }
        if (best->maxSequences != o.config.maxSequences)
            takeaway += tr(" (best in the sweep: %1 at cap %2)").arg(format::percent(best->goodputFraction), format::integer(best->maxSequences));
    }
    takeaway += tr("; %1 requests over %2 of traffic, %3 throughput.")
                    .arg(format::integer(double(all.requests)), format::duration(r.spanSeconds),
                         format::tokensPerSecond(all.throughputTokensPerSecond));
    if (r.classes.size() > 1 && r.classes.size() == o.config.classes.size()) {
        // Classes differ by design: each one's tail alone, not a mix of chat and batch latencies.
        QStringList perClass;
        for (size_t c = 0; c < r.classes.size(); ++c) {
            const model::LatencySummary& k = r.classes[c].latency;
            if (r.classes[c].requests == 0)
                continue;
            perClass << tr("%1: p99 TTFT %2, p99 ITL %3, goodput %4")
                            .arg(QString::fromStdString(o.config.classes[c].name), k.ttft.count > 0 ? format::duration(k.ttft.p99) : tr("none"),
                                 k.itl.count > 0 ? format::duration(k.itl.p99) : tr("none"), format::percent(r.classes[c].goodputFraction));
        }
        takeaway += QLatin1Char('\n') + perClass.join(QStringLiteral("; ")) + QLatin1Char('.');
    }
    // A run that fell behind its load (a 1-replica decode pool under a 3-replica prefill pool): its percentiles are of
    // a queue that never settles, and a disaggregated run's TTFT (the prefill pool's) does not show the decode wait.
    if (const std::string backlog = model::backlogText(r); !backlog.empty()) {
        QString line = QString::fromStdString(backlog);
        line[0] = line[0].toUpper();
        if (r.prefillReplicas > 0 && size_t(r.prefillReplicas) < r.replicas.size()) {
            // The pool behind is the one its requests wait for: a prefill slot (queue wait, in the TTFT) or a decode
            // slot (the decode rows' wait, in the ITL and TPOT). Busy time tells them apart badly: both read ~100 %.
            double decodeWait = 0;
            for (size_t i = size_t(r.prefillReplicas); i < r.replicas.size(); ++i)
                if (r.replicas[i].completed > 0)
                    decodeWait = std::max(decodeWait, r.replicas[i].p99TtftSeconds);
            const double prefillWait = r.all.latency.queueWait.p99;
            const bool decodeBehind = decodeWait >= prefillWait;
            line += tr(" (the %1 pool: p99 wait for a %1 slot %2, against %3 for a %4 slot; a decode slot's wait is in the ITL "
                       "and TPOT, not in the TTFT, which ends at the prefill)")
                        .arg(decodeBehind ? tr("decode") : tr("prefill"), format::duration(std::max(decodeWait, prefillWait)),
                             format::duration(std::min(decodeWait, prefillWait)), decodeBehind ? tr("prefill") : tr("decode"));
        }
        takeaway += QLatin1Char('\n') + line + QLatin1Char('.');
    }
    if (swept)
        takeaway += QLatin1Char('\n') + rateSweepTakeaway(o);
    setTitle(m_summary, tr("Aggregates"), takeaway);
    setText(m_status, tr("Simulated %1 in %2 (%3).")
                          .arg(counted(double(all.requests), tr("1 request"), tr("%1 requests")), format::duration(o.elapsedSeconds),
                               counted(double(1 + o.sweep.size() + o.rateSweepResult.points.size()), tr("1 simulation"),
                                       tr("%1 simulations"))));
    emit outcomeShown();
}

/** "round-robin", "least-loaded", "prefix-aware": the router as the replica table's title names it. */
static QString routerLabel(model::RouterPolicy router)
{
    switch (router) {
    case model::RouterPolicy::RoundRobin: return QObject::tr("round-robin");
    case model::RouterPolicy::LeastLoaded: return QObject::tr("least-loaded");
    case model::RouterPolicy::PrefixAware: return QObject::tr("prefix-aware");
    }
    return {};
}

void SimulationTab::showReplicas()
{
    const bool fleet = m_outcome && m_outcome->result.replicas.size() > 1;
    m_resultPages->setTabVisible(1, fleet);
    m_resultPages->tabBar()->setVisible(fleet);
    if (!fleet) {
        m_resultPages->setCurrentIndex(0);
        m_replicaTable->setRowCount(0);
        return;
    }
    m_resultPages->setTabText(1, tr("Replicas (%1)").arg(m_outcome->result.replicas.size()));
    const SimulationOutcome& o = *m_outcome;
    const std::vector<model::ReplicaLoad>& loads = o.result.replicas;
    const int rows = int(loads.size());
    m_replicaTable->setRowCount(rows);
    QStringList names;
    const int prefillReplicas = o.result.prefillReplicas; // disaggregated: the prefill pool's replicas come first
    for (int i = 0; i < rows; ++i)
        names << (prefillReplicas <= 0 ? tr("Replica %1").arg(i)
                                       : i < prefillReplicas ? tr("Prefill %1").arg(i) : tr("Decode %1").arg(i - prefillReplicas));
    m_replicaTable->setVerticalHeaderLabels(names);
    const double blocks = o.result.kvBlocksTotal;
    auto orDash = [](double v, const QString& text) { return std::isfinite(v) ? text : QStringLiteral("\u2013"); };
    for (int i = 0; i < rows; ++i) {
        const model::ReplicaLoad& l = loads[size_t(i)];
        const double hit = l.prefixPromptTokens > 0 ? l.prefixHitTokens / l.prefixPromptTokens : 0.0;
        QString cells[ReplicaColumnCount];
        cells[ReplicaRequestsColumn] = tr("%1 / %2%3").arg(format::integer(double(l.completed)), format::integer(double(l.requests)),
                                                         l.rejected > 0 ? tr(", %1 rejected").arg(format::integer(double(l.rejected)))
                                                                        : QString());
        cells[ReplicaThroughputColumn] = orDash(l.throughputTokensPerSecond, format::tokensPerSecond(l.throughputTokensPerSecond));
        cells[ReplicaGoodputColumn] = orDash(l.goodputFraction, format::percent(l.goodputFraction));
        // A decode replica's "first token" is its first decoded one, from the KV's arrival: the wait for a decode slot,
        // not the requests' TTFT (the prefill pool's), so it is named so.
        const bool decodeRow = prefillReplicas > 0 && i >= prefillReplicas;
        const QString wait = decodeRow ? tr("wait ") : QString();
        cells[ReplicaTtftP50Column] = l.completed > 0 ? wait + format::duration(l.p50TtftSeconds) : QStringLiteral("\u2013");
        cells[ReplicaTtftP99Column] = l.completed > 0 ? wait + format::duration(l.p99TtftSeconds) : QStringLiteral("\u2013");
        cells[ReplicaBusyColumn] = orDash(l.busyFraction, format::percent(std::clamp(l.busyFraction, 0.0, 1.0)));
        cells[ReplicaSequencesColumn] = tr("%1 / %2").arg(format::number(l.meanSequences), format::integer(l.peakSequences));
        cells[ReplicaKvPeakColumn] = blocks > 0 ? format::percent(l.kvBlocksPeak / blocks) : format::integer(l.kvBlocksPeak);
        cells[ReplicaPreemptionsColumn] = format::integer(double(l.preemptions));
        cells[ReplicaPrefixHitColumn] = l.prefixPromptTokens > 0 ? format::percent(hit) : QStringLiteral("\u2013");
        for (int c = 0; c < ReplicaColumnCount; ++c) {
            QTableWidgetItem* item = m_replicaTable->item(i, c);
            if (!item) {
                item = new QTableWidgetItem;
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                m_replicaTable->setItem(i, c, item);
            }
            item->setText(cells[c]);
        }
        m_replicaTable->item(i, ReplicaKvPeakColumn)
            ->setToolTip(tr("%1 of %2 KV blocks").arg(format::integer(l.kvBlocksPeak), format::integer(blocks)));
        const QString ttftTip = prefillReplicas <= 0 ? QString()
            : i < prefillReplicas ? tr("TTFT of the requests this prefill replica served (to the KV's arrival at the decode pool)")
                                  : tr("Decode replica: from the KV's arrival to the first decoded token, the wait for a decode "
                                       "slot (part of the requests' ITL and TPOT, not of their TTFT, which ends at the prefill)");
        for (int c : {int(ReplicaTtftP50Column), int(ReplicaTtftP99Column)})
            m_replicaTable->item(i, c)->setToolTip(ttftTip);
    }
    // Up to 6 rows in view (the latency table's height); a larger fleet scrolls.
    const int shown = std::min(rows, 6);
    const int row = m_replicaTable->verticalHeader()->defaultSectionSize();
    m_replicaTable->setVerticalScrollBarPolicy(rows > shown ? Qt::ScrollBarAsNeeded : Qt::ScrollBarAlwaysOff);
    m_replicaTable->setFixedHeight(row * shown + m_replicaTable->horizontalHeader()->height() + 6);
    const QString loop = o.config.closedLoopClients > 0
        ? tr("closed loop, %1 in all").arg(counted(double(o.config.closedLoopClients), tr("1 client"), tr("%1 clients")))
        : tr("open loop");
    const QString pools = prefillReplicas > 0
        ? tr("%1 prefill and %2 decode replicas, each pool behind a %3 router").arg(format::integer(double(prefillReplicas)),
                                                                                format::integer(double(rows - prefillReplicas)),
                                                                                routerLabel(o.config.router))
        : tr("%1 replicas behind a %2 router").arg(format::integer(double(rows)), routerLabel(o.config.router));
    // The TTFT range over the replicas whose TTFT it is: the prefill pool's in a disaggregated run (a decode row's is
    // the wait for a decode slot, given apart).
    const auto ttftEnd = prefillReplicas > 0 ? loads.begin() + std::min(prefillReplicas, rows) : loads.end();
    auto byTtft = [](const model::ReplicaLoad& a, const model::ReplicaLoad& b) { return a.p99TtftSeconds < b.p99TtftSeconds; };
    QString title = tr("%1 (%2); busy %3 to %4, p99 TTFT %5 to %6")
                        .arg(pools, loop,
                             format::percent(std::min_element(loads.begin(), loads.end(), [](auto& a, auto& b) { return a.busyFraction < b.busyFraction; })->busyFraction),
                             format::percent(std::max_element(loads.begin(), loads.end(), [](auto& a, auto& b) { return a.busyFraction < b.busyFraction; })->busyFraction),
                             format::duration(std::min_element(loads.begin(), ttftEnd, byTtft)->p99TtftSeconds),
                             format::duration(std::max_element(loads.begin(), ttftEnd, byTtft)->p99TtftSeconds));
    if (prefillReplicas > 0 && prefillReplicas < rows)
        title += tr(", p99 wait for a decode slot %1 to %2")
                     .arg(format::duration(std::min_element(ttftEnd, loads.end(), byTtft)->p99TtftSeconds),
                          format::duration(std::max_element(ttftEnd, loads.end(), byTtft)->p99TtftSeconds));
    setText(m_replicaTitle, title + QLatin1Char('.'));
}

} // namespace ridgeline::views
