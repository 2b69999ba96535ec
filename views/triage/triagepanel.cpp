// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/triage/triagepanel.h"

#include <algorithm>
#include <optional>

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "model/cost/presets.h"
#include "document/format.h"
#include "views/kit/glossary.h"
#include "views/kit/palette.h"
#include "views/kit/units.h"
#include "document/scenariodocument.h"
#include "views/whatifs/whatifkit.h"

namespace ridgeline::views {

using namespace whatifkit;

namespace {

const char* const kDrillScenarioId = "incident-drill-13b-a100";

struct Ticket {
    const char* id;
    const char* path;
};
constexpr Ticket kTickets[] = {{"B1", ":/tickets/b1-ttft.json"},
                               {"B2", ":/tickets/b2-itl.json"},
                               {"B3", ":/tickets/b3-concurrency.json"},
                               {"B4", ":/tickets/b4-batch-job.json"},
                               {"B5", ":/tickets/b5-oom.json"}};

QColor classColor(model::TicketClass c)
{
    switch (c) {
    case model::TicketClass::Prefill: return palette::compute();
    case model::TicketClass::Decode: return palette::memory();
    case model::TicketClass::Admission: return palette::slo();
    case model::TicketClass::NoisyNeighbourPrefill: return palette::compute();
    case model::TicketClass::KvCapacity: return palette::kv();
    case model::TicketClass::WithinSlo: return palette::throughput();
    case model::TicketClass::Inconsistent: return palette::error();
    case model::TicketClass::NotEnoughData: return palette::axis(); // neutral: neither a fault nor an all-clear
    }
    return palette::text();
}

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

QString list(const std::vector<std::string>& items, bool ordered)
{
    QString html = ordered ? QStringLiteral("<ol style=\"margin-top:0px;\">") : QStringLiteral("<ul style=\"margin-top:0px;\">");
    for (const std::string& item : items)
        html += QStringLiteral("<li>%1</li>").arg(q(item).toHtmlEscaped());
    html += ordered ? QStringLiteral("</ol>") : QStringLiteral("</ul>");
    return html;
}

/** A spin box where 0 reads "not measured". */
QDoubleSpinBox* measuredSpin(const QString& objectName, double maximum, int decimals, const QString& suffix, const QString& toolTip)
{
    QDoubleSpinBox* spin = doubleSpin(objectName, 0, maximum, decimals, 1, suffix, toolTip + QObject::tr("\n0 = not measured."));
    spin->setSpecialValueText(QObject::tr("not measured"));
    spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    return spin;
}

std::optional<double> measured(double value)
{
    return value > 0 ? std::optional<double>(value) : std::nullopt;
}

/** "B3: B2 at concurrency 48, ..." from a ticket's title, else its id. */
QString ticketTitle(const Ticket& ticket)
{
    QFile file(QString::fromLatin1(ticket.path));
    QString title;
    if (file.open(QIODevice::ReadOnly))
        title = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("title")).toString();
    const QString id = QString::fromLatin1(ticket.id);
    const int colon = title.indexOf(QLatin1Char(':'));
    if (colon >= 0)
        title = title.mid(colon + 1).trimmed();
    return title.isEmpty() ? id : QStringLiteral("%1: %2").arg(id, title);
}

} // namespace

TriagePanel::TriagePanel(ScenarioDocument* document, QWidget* parent)
    : QFrame(parent)
    , m_document(document)
    , m_run(document)
{
    setObjectName(QStringLiteral("triagePanel"));
    setFrameShape(QFrame::NoFrame);

    // Left: the ticket.
    QFrame* ticketCard = card(QStringLiteral("triageTicketCard"), this);
    QLabel* ticketTitleLabel = titleLabel(QStringLiteral("triageTicketTitle"), tr("The ticket"),
                                          tr("\u201cIt's slow\u201d is not a ticket. TTFT, ITL, queue wait and OOM are tickets (seed 000)."));
    setTitle(ticketTitleLabel, tr("The ticket"), tr("What on-call measured; 0 means not measured."));

    m_examples = new QComboBox;
    m_examples->setObjectName(QStringLiteral("triageExampleCombo"));
    m_examples->addItem(tr("Load a drill ticket (seed 000)\u2026"), QString());
    for (const Ticket& ticket : kTickets) {
        const QString title = ticketTitle(ticket);
        m_examples->addItem(title, QString::fromLatin1(ticket.path));
        m_examples->setItemData(m_examples->count() - 1, title, Qt::ToolTipRole);
    }
    m_examples->setToolTip(tr("The five tickets of seed 000's incident drill, B1-B5 (13B bf16 chat model on one A100 80GB)."));
    m_examples->setAccessibleName(tr("Example tickets"));
    m_examples->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_examples->setMinimumContentsLength(20);

    m_symptom = new QLineEdit;
    m_symptom->setObjectName(QStringLiteral("triageSymptomEdit"));
    m_symptom->setPlaceholderText(tr("e.g. users say it types slow"));
    m_symptom->setToolTip(tr("The ticket in the user's words; the standup's first line."));
    m_ttft = measuredSpin(QStringLiteral("triageTtftSpinBox"), 1e8, 0, tr(" ms"),
                          tr("P95 time to first token.") + QStringLiteral("\n") + glossaryTip(QStringLiteral("TTFT")));
    m_itl = measuredSpin(QStringLiteral("triageItlSpinBox"), 1e7, 1, tr(" ms"),
                         tr("P95 inter-token latency.") + QStringLiteral("\n") + glossaryTip(QStringLiteral("ITL")));
    m_queue = measuredSpin(QStringLiteral("triageQueueSpinBox"), 1e8, 0, tr(" ms"), tr("Queue wait inside that TTFT: not model time."));
    m_concurrency = integerSpin(QStringLiteral("triageConcurrencySpinBox"), 0, 10000000, QString(),
                                tr("Sequences served together when the symptom shows.\n0 = not measured (taken as 1)."));
    m_concurrency->setSpecialValueText(tr("not measured"));
    m_prompt = integerSpin(QStringLiteral("triagePromptSpinBox"), 0, 100000000, tr(" tokens"),
                           tr("Typical prompt length of the slow requests.\n0 = not measured (the scenario's prompt P)."));
    m_prompt->setSpecialValueText(tr("not measured"));
    m_kv = measuredSpin(QStringLiteral("triageKvSpinBox"), 1e6, 1, tr(" GB"), tr("KV cache memory in use, GB (10\u2079 B)."));
    m_gpu = measuredSpin(QStringLiteral("triageGpuSpinBox"), 100, 0, tr(" %"),
                         tr("GPU utilisation as the counter reports it (a kernel resident, not useful work)."));
    m_oom = new QCheckBox(tr("Errors are CUDA/HIP out-of-memory"));
    m_oom->setObjectName(QStringLiteral("triageOomCheckBox"));
    m_batchJob = new QCheckBox(tr("A batch job shares the GPU"));
    m_batchJob->setObjectName(QStringLiteral("triageBatchJobCheckBox"));

    m_scenario = valueLabel(QStringLiteral("triageScenarioLabel"),
                            tr("The floors every ticket is compared against come from the current scenario."));
    m_drill = new QPushButton(tr("Use the drill's 13B on A100"));
    m_drill->setObjectName(QStringLiteral("triageDrillButton"));
    m_drill->setToolTip(tr("Replaces the scenario with the incident drill's: a 13B bf16 chat model on one A100 80GB,\n"
                           "P95 TTFT SLO 800 ms, ITL SLO 40 ms (the tickets' own setting)."));
    m_loadError = valueLabel(QStringLiteral("triageLoadError"), QString());
    m_loadError->setStyleSheet(QStringLiteral("QLabel { color: %1; background: transparent; border: none; }").arg(palette::css(palette::error())));
    m_loadError->setVisible(false);

    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->setHorizontalSpacing(10);
    form->setVerticalSpacing(4);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(caption(tr("Symptom"), m_symptom->toolTip()), m_symptom);
    form->addRow(caption(tr("P95 TTFT"), m_ttft->toolTip()), m_ttft);
    form->addRow(caption(tr("P95 ITL"), m_itl->toolTip()), m_itl);
    form->addRow(caption(tr("Queue wait"), m_queue->toolTip()), m_queue);
    form->addRow(caption(tr("Concurrency"), m_concurrency->toolTip()), m_concurrency);
    form->addRow(caption(tr("Prompt length"), m_prompt->toolTip()), m_prompt);
    form->addRow(caption(tr("KV in use"), m_kv->toolTip()), m_kv);
    form->addRow(caption(tr("GPU utilisation"), m_gpu->toolTip()), m_gpu);

    auto* ticketLayout = new QVBoxLayout(ticketCard);
    ticketLayout->setContentsMargins(10, 8, 10, 8);
    ticketLayout->setSpacing(6);
    ticketLayout->addWidget(ticketTitleLabel);
    ticketLayout->addWidget(m_examples);
    ticketLayout->addWidget(m_loadError);
    ticketLayout->addLayout(form);
    ticketLayout->addWidget(m_oom);
    ticketLayout->addWidget(m_batchJob);
    ticketLayout->addSpacing(6);
    ticketLayout->addWidget(m_scenario);
    ticketLayout->addWidget(m_drill, 0, Qt::AlignLeft);
    ticketLayout->addStretch(1);

    // Right: the verdict.
    QFrame* verdictCard = card(QStringLiteral("triageVerdictCard"), this);
    m_class = new QLabel;
    m_class->setObjectName(QStringLiteral("triageClassLabel"));
    m_class->setTextFormat(Qt::RichText);
    m_class->setWordWrap(true);
    m_class->setToolTip(tr("Order of the rules (seeds 000 and 001): out-of-memory \u2192 KV capacity; a batch job while TTFT misses \u2192\n"
                           "noisy-neighbour prefill; queue wait \u2265 half of TTFT \u2192 admission; ITL over its SLO \u2192 decode when\n"
                           "batching explains little (t_step at the concurrency < 1.25 \u00d7 t_step(1)), else admission / concurrency;\n"
                           "TTFT over its SLO \u2192 prefill; otherwise within SLO. ITL is judged against the tightest ITL SLO line."));
    m_details = new QTextBrowser;
    m_details->setObjectName(QStringLiteral("triageResult"));
    m_details->setOpenLinks(false);
    m_details->setFrameShape(QFrame::NoFrame);
    m_details->setStyleSheet(QStringLiteral("QTextBrowser { background: %1; color: %2; }")
                                 .arg(palette::css(palette::card()), palette::css(palette::text())));

    QLabel* standupTitle = titleLabel(QStringLiteral("triageStandupTitle"), tr("Standup"), tr("Seed 000, Part C: the six lines an on-call engineer pastes."));
    setTitle(standupTitle, tr("Standup"), tr("Six lines to paste into the incident channel."));
    m_standup = new QPlainTextEdit;
    m_standup->setObjectName(QStringLiteral("triageStandupEdit"));
    m_standup->setReadOnly(true);
    m_standup->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_standup->setAccessibleName(tr("Standup"));
    m_standup->setStyleSheet(QStringLiteral("QPlainTextEdit { background: %1; color: %2; border: 1px solid %3; border-radius: 4px; }")
                                 .arg(palette::css(palette::window()), palette::css(palette::text()), palette::css(palette::cardBorder())));
    const QFontMetrics metrics(m_standup->font());
    m_standup->setMinimumHeight(metrics.lineSpacing() * 7 + 12);
    m_standup->setMaximumHeight(metrics.lineSpacing() * 11 + 12); // six lines, wrapped once each at 1280 px
    m_copy = new QPushButton(tr("Copy standup"));
    m_copy->setObjectName(QStringLiteral("triageCopyButton"));
    m_copy->setToolTip(tr("Copies the six lines to the clipboard."));

    auto* verdictLayout = new QVBoxLayout(verdictCard);
    verdictLayout->setContentsMargins(10, 8, 10, 8);
    verdictLayout->setSpacing(6);
    verdictLayout->addWidget(m_class);
    verdictLayout->addWidget(m_details, 3);
    verdictLayout->addWidget(standupTitle);
    verdictLayout->addWidget(m_standup, 2);
    verdictLayout->addWidget(m_copy, 0, Qt::AlignRight);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(8);
    layout->addWidget(ticketCard, 0);
    layout->addWidget(verdictCard, 1);
    ticketCard->setMinimumWidth(330);
    ticketCard->setMaximumWidth(420);

    // Every edit re-triages; the combo loads a shipped ticket (activated: even the same one again).
    connect(m_examples, &QComboBox::activated, this, [this](int index) {
        const QString path = m_examples->itemData(index).toString();
        if (!path.isEmpty())
            loadTicket(path);
    });
    connect(m_symptom, &QLineEdit::textChanged, this, &TriagePanel::readInputs);
    for (QDoubleSpinBox* spin : {m_ttft, m_itl, m_queue, m_kv, m_gpu})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &TriagePanel::readInputs);
    for (QSpinBox* spin : {m_concurrency, m_prompt})
        connect(spin, &QSpinBox::valueChanged, this, &TriagePanel::readInputs);
    for (QCheckBox* box : {m_oom, m_batchJob})
        connect(box, &QCheckBox::toggled, this, &TriagePanel::readInputs);
    connect(m_copy, &QPushButton::clicked, this, &TriagePanel::copyStandup);
    connect(m_drill, &QPushButton::clicked, this, [this] {
        for (const model::ScenarioPreset& preset : model::scenarioPresets()) {
            if (preset.id == kDrillScenarioId) {
                m_document->setScenario(preset.scenario);
                return;
            }
        }
    });

    runTriage();
}

QString TriagePanel::loadTicket(const QString& path)
{
    const QString error = m_run.loadTicket(path);
    m_loadError->setText(error);
    m_loadError->setVisible(!error.isEmpty());
    if (!error.isEmpty())
        return error;
    setQuietly(m_examples, std::max(0, m_examples->findData(path)));
    showInput(m_run.input());
    runTriage();
    return {};
}

void TriagePanel::showInput(const model::TriageInput& in)
{
    if (m_symptom->text() != q(in.symptom)) {
        const QSignalBlocker blocker(m_symptom);
        m_symptom->setText(q(in.symptom));
        m_symptom->setCursorPosition(0);
    }
    setQuietly(m_ttft, in.p95TtftMs.value_or(0));
    setQuietly(m_itl, in.p95ItlMs.value_or(0));
    setQuietly(m_queue, in.queueWaitMs.value_or(0));
    setQuietly(m_concurrency, int(std::min(in.concurrency.value_or(0), 1e7)));
    setQuietly(m_prompt, int(std::min(in.promptTokens.value_or(0), 1e8)));
    setQuietly(m_kv, in.kvMemoryBytes.value_or(0) / units::kGB);
    setQuietly(m_gpu, in.gpuUtilization.value_or(0) * 100.0);
    setQuietly(m_oom, in.outOfMemory);
    setQuietly(m_batchJob, in.batchJobRunning);
}

void TriagePanel::readInputs()
{
    model::TriageInput in;
    in.symptom = m_symptom->text().trimmed().toStdString();
    in.p95TtftMs = measured(m_ttft->value());
    in.p95ItlMs = measured(m_itl->value());
    in.queueWaitMs = measured(m_queue->value());
    in.concurrency = measured(m_concurrency->value());
    in.promptTokens = measured(m_prompt->value());
    in.kvMemoryBytes = measured(m_kv->value() * units::kGB);
    in.gpuUtilization = measured(m_gpu->value() / 100.0);
    in.outOfMemory = m_oom->isChecked();
    in.batchJobRunning = m_batchJob->isChecked();
    m_run.setInput(in);
    runTriage();
}

void TriagePanel::runTriage()
{
    const model::TriageResult& r = m_run.run();
    const model::Scenario& scenario = m_run.scenario();

    setText(m_scenario, tr("Floors from %1 on %2: decode %3/token at batch 1, prefill %4 for %5.")
                            .arg(q(scenario.model.name), q(scenario.hardware.name), format::milliseconds(r.decodeFloorMs),
                                 format::milliseconds(r.prefillFloorMs),
                                 format::tokens(m_run.input().promptTokens.value_or(scenario.workload.promptTokens))));

    const QColor color = classColor(r.ticketClass);
    setText(m_class, QStringLiteral("<span style=\"font-size:9pt; color:%1;\">%2</span><br>"
                                    "<span style=\"font-size:15pt; font-weight:700; color:%3;\">%4</span>")
                         .arg(palette::css(palette::axis()), tr("Phase").toHtmlEscaped(), palette::css(color),
                              q(model::ticketClassName(r.ticketClass)).toHtmlEscaped()));

    QString html;
    html += QStringLiteral("<p style=\"margin-bottom:2px;\"><b>%1</b></p>").arg(tr("Reasoning, in numbers").toHtmlEscaped());
    html += list(r.reasoning, true);
    html += QStringLiteral("<p><b>%1</b> %2</p>").arg(tr("Metric to plot:").toHtmlEscaped(), q(r.metricToPlot).toHtmlEscaped());
    html += QStringLiteral("<p><b>%1</b> %2</p>").arg(tr("Plausible cause:").toHtmlEscaped(), q(r.plausibleCause).toHtmlEscaped());
    html += QStringLiteral("<p style=\"margin-bottom:2px;\"><b><span style=\"color:%1;\">%2</span></b></p>")
                .arg(palette::css(palette::throughput()), tr("Fixes that can work").toHtmlEscaped());
    html += list(r.fixesThatCanWork, false);
    html += QStringLiteral("<p style=\"margin-bottom:2px;\"><b><span style=\"color:%1;\">%2</span></b></p>")
                .arg(palette::css(palette::slo()), tr("Fixes that cannot").toHtmlEscaped());
    html += list(r.fixesThatCannot, false);
    if (m_html != html) {
        m_html = html;
        m_details->setHtml(html);
    }

    const QString standup = standupText();
    if (m_standup->toPlainText() != standup)
        m_standup->setPlainText(standup);
}

QString TriagePanel::standupText() const
{
    QString text = q(m_run.result().standup.text());
    while (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    return text;
}

void TriagePanel::copyStandup()
{
    if (QClipboard* clipboard = QGuiApplication::clipboard())
        clipboard->setText(standupText());
}

} // namespace ridgeline::views
