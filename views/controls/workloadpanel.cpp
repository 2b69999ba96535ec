// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/controls/workloadpanel.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegend>
#include <QSpinBox>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include "document/format.h"
#include "views/kit/palette.h"
#include "document/scenariodocument.h"
#include "views/whatifs/whatifkit.h"

namespace ridgeline::views {

using namespace whatifkit;

namespace {

struct LengthPair {
    int prompt;
    int output;
};

/** Seed 002, "Workload shape decides everything". */
constexpr std::array<LengthPair, 3> kShapes{{{2000, 300}, {1000, 20}, {8000, 200}}};

const QString& workloadHeading()
{
    static const QString text = QObject::tr("Workload shape: GPU time per request");
    return text;
}

QString formula()
{
    return QObject::tr("GPU time one request costs at the current batch B:\n"
                       "  prefill = t_pre(P): the prefill holds the whole GPU;\n"
                       "  decode = O \u00b7 t_step(B, S = P + O/2) / B: the request's share of each of its O steps.\n"
                       "With prefix cache: prefill \u2212 hit rate \u00b7 (t_pre(P) \u2212 t_pre of the uncached suffix).\n"
                       "Seed 002: chat (2,000 in / 300 out) is about 95 % decode, classification (1,000 / 20)\n"
                       "about 75 % prefill, RAG (8,000 / 200) prefill-heavy.");
}

QFont chartFont(double points)
{
    QFont font;
    font.setPointSizeF(points);
    return font;
}

/** "a chat request's", "a 4,000-in / 50-out request's". */
QString requestName(WorkloadPanel::Preset preset, int prompt, int output)
{
    switch (preset) {
    case WorkloadPanel::Chat: return QObject::tr("a chat request's");
    case WorkloadPanel::Classification: return QObject::tr("a classification request's");
    case WorkloadPanel::Rag: return QObject::tr("a RAG request's");
    case WorkloadPanel::Custom: break;
    }
    return QObject::tr("a %1-in / %2-out request's").arg(format::integer(prompt), format::integer(output));
}

} // namespace

WorkloadPanel::Preset WorkloadPanel::presetFor(int promptTokens, int outputTokens)
{
    for (size_t i = 0; i < kShapes.size(); ++i) {
        if (kShapes[i].prompt == promptTokens && kShapes[i].output == outputTokens)
            return Preset(i);
    }
    return Custom;
}

WorkloadPanel::WorkloadPanel(ScenarioDocument* document, QWidget* parent)
    : QFrame(parent)
    , m_document(document)
{
    setObjectName(QStringLiteral("workloadPanel"));
    setStyleSheet(QStringLiteral("QFrame#workloadPanel { background: %1; border: 1px solid %2; border-radius: 6px; }")
                      .arg(palette::css(palette::card()), palette::css(palette::cardBorder())));
    m_title = titleLabel(QStringLiteral("workloadTitle"), workloadHeading(), formula());

    m_preset = new QComboBox;
    m_preset->setObjectName(QStringLiteral("workloadPresetCombo"));
    m_preset->addItem(tr("Chat (2,000 in / 300 out)"), int(Chat));
    m_preset->addItem(tr("Classification (1,000 / 20)"), int(Classification));
    m_preset->addItem(tr("RAG (8,000 / 200)"), int(Rag));
    m_preset->addItem(tr("Custom"), int(Custom));
    m_preset->setToolTip(tr("Prompt and output lengths of typical traffic (seed 002). Custom keeps the spin boxes' values."));
    m_preset->setAccessibleName(tr("Workload preset"));
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(12);
    m_prompt = integerSpin(QStringLiteral("workloadPromptSpinBox"), 0, 10000000, tr(" in"),
                           tr("Prompt length P in tokens (workload.prompt_tokens): the prefill's work."));
    m_output = integerSpin(QStringLiteral("workloadOutputSpinBox"), 0, 10000000, tr(" out"),
                           tr("Output length O in tokens (workload.output_tokens): the decode steps of one request."));
    m_prompt->setAccessibleName(tr("Prompt tokens"));
    m_output->setAccessibleName(tr("Output tokens"));

    connect(m_preset, &QComboBox::activated, this, [this](int index) {
        const int preset = m_preset->itemData(index).toInt();
        if (preset < 0 || preset >= int(kShapes.size()))
            return; // Custom: keep the current lengths, edit them in the spin boxes
        const LengthPair shape = kShapes[size_t(preset)];
        m_document->edit([shape](model::Scenario& s) {
            s.workload.promptTokens = shape.prompt;
            s.workload.outputTokens = shape.output;
        });
    });
    connect(m_prompt, &QSpinBox::valueChanged, this,
            [this](int tokens) { m_document->edit([tokens](model::Scenario& s) { s.workload.promptTokens = tokens; }); });
    connect(m_output, &QSpinBox::valueChanged, this,
            [this](int tokens) { m_document->edit([tokens](model::Scenario& s) { s.workload.outputTokens = tokens; }); });

    // Qt Charts: one horizontal stacked bar, prefill then decode, ms.
    m_prefillSet = new QBarSet(tr("Prefill"));
    m_prefillSet->setColor(palette::compute());
    m_prefillSet->setBorderColor(palette::compute());
    m_prefillSet->append({0.0, 0.0});
    m_decodeSet = new QBarSet(tr("Decode"));
    m_decodeSet->setColor(palette::memory());
    m_decodeSet->setBorderColor(palette::memory());
    m_decodeSet->append({0.0, 0.0});
    auto* series = new QHorizontalStackedBarSeries;
    series->setBarWidth(0.55);
    series->append(m_prefillSet);
    series->append(m_decodeSet);

    m_chart = new QChart;
    m_chart->addSeries(series);
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setBackgroundRoundness(0);
    m_chart->setBackgroundBrush(QBrush(palette::card()));
    m_chart->setMargins(QMargins(0, 0, 0, 0));
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->legend()->setAlignment(Qt::AlignTop);
    m_chart->legend()->setFont(chartFont(8.5));
    m_chart->legend()->setLabelColor(palette::axis());
    m_chart->legend()->setMarkerShape(QLegend::MarkerShapeRectangle);

    auto* category = new QBarCategoryAxis;
    category->append(tr("with prefix cache")); // kWithPrefixCache, drawn at the bottom
    category->append(tr("as is"));             // kAsIs
    category->setLabelsFont(chartFont(8.0));
    category->setLabelsColor(palette::axis());
    category->setGridLineVisible(false);
    m_chart->addAxis(category, Qt::AlignLeft);
    series->attachAxis(category);
    m_timeAxis = new QValueAxis;
    m_timeAxis->setTitleText(tr("GPU time per request (ms)"));
    m_timeAxis->setTitleFont(chartFont(8.5));
    m_timeAxis->setTitleBrush(QBrush(palette::axis()));
    m_timeAxis->setLabelsFont(chartFont(8.0));
    m_timeAxis->setLabelsColor(palette::axis());
    m_timeAxis->setGridLineColor(palette::grid());
    m_timeAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_timeAxis->setTickCount(6);
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    series->attachAxis(m_timeAxis);

    m_chartView = new QChartView(m_chart, this);
    m_chartView->setObjectName(QStringLiteral("workloadChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setFrameShape(QFrame::NoFrame);
    m_chartView->setStyleSheet(QStringLiteral("background: transparent; border: none;"));
    m_chartView->setMinimumHeight(150);
    m_chartView->setToolTip(formula());
    m_chartView->setAccessibleName(tr("GPU time per request in prefill and decode"));
    // Hovering a bar says its value (issue 18).
    connect(series, &QHorizontalStackedBarSeries::hovered, this, [this, category](bool status, int index, QBarSet* set) {
        if (!status || !set || index < 0 || index >= category->count()) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(QCursor::pos(),
                           tr("%1, %2: %3 ms of GPU time per request")
                               .arg(category->at(index), set->label(), format::number(set->at(index))),
                           m_chartView);
    });

    m_detail = valueLabel(QStringLiteral("workloadDetail"),
                          tr("GPU time per output token = (prefill + decode) / O; the decode context is the mean P + O/2."));

    auto* inputs = new QHBoxLayout;
    inputs->setSpacing(8);
    inputs->addWidget(m_preset, 2);
    inputs->addWidget(m_prompt, 1);
    inputs->addWidget(m_output, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(6);
    layout->addWidget(m_title);
    layout->addLayout(inputs);
    layout->addWidget(m_chartView, 1);
    layout->addWidget(m_detail);

    syncFromScenario();
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &WorkloadPanel::syncFromScenario);
}

void WorkloadPanel::syncFromScenario()
{
    const model::Workload& w = m_document->scenario().workload;
    setQuietly(m_prompt, w.promptTokens);
    setQuietly(m_output, w.outputTokens);
    setQuietly(m_preset, m_preset->findData(int(presetFor(w.promptTokens, w.outputTokens))));
}

void WorkloadPanel::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const model::WorkloadResult& w = evaluation.workload;
    const double prefillMs = w.prefillSecondsPerRequest * 1e3;
    const double decodeMs = w.decodeSecondsPerRequest * 1e3;
    const double cachedPrefillMs = std::max(0.0, prefillMs - evaluation.prefixCache.savedSecondsPerRequest * 1e3);
    m_prefillSet->replace(kAsIs, prefillMs);
    m_decodeSet->replace(kAsIs, decodeMs);
    m_prefillSet->replace(kWithPrefixCache, cachedPrefillMs);
    m_decodeSet->replace(kWithPrefixCache, decodeMs);
    m_prefillSet->setLabel(tr("Prefill %1").arg(format::duration(w.prefillSecondsPerRequest)));
    m_decodeSet->setLabel(tr("Decode %1").arg(format::duration(w.decodeSecondsPerRequest)));
    const double total = prefillMs + decodeMs;
    m_timeAxis->setRange(0.0, std::isfinite(total) && total > 0 ? total : 1.0);
    m_timeAxis->applyNiceNumbers(); // round ticks: 0, 200, 400 ... ms
    const double top = m_timeAxis->max();
    const QString labelFormat = top >= 20 ? QStringLiteral("%.0f") : top >= 2 ? QStringLiteral("%.1f") : QStringLiteral("%.3g");
    if (m_timeAxis->labelFormat() != labelFormat)
        m_timeAxis->setLabelFormat(labelFormat);

    const int prompt = scenario.workload.promptTokens;
    const int output = scenario.workload.outputTokens;
    const Preset preset = presetFor(prompt, output);
    const bool decodeOwns = w.prefillShare < 0.5;
    m_takeaway = tr("%1 owns %2 of %3 GPU time at B = %4 (%5 of %6).")
                     .arg(decodeOwns ? tr("Decode") : tr("Prefill"), format::percent(decodeOwns ? 1.0 - w.prefillShare : w.prefillShare),
                          requestName(preset, prompt, output), format::integer(scenario.workload.batch),
                          format::duration((decodeOwns ? decodeMs : prefillMs) / 1e3), format::duration(total / 1e3));
    if (!(total > 0))
        m_takeaway = tr("An empty request (P = 0, O = 0) costs no GPU time.");
    setTitle(m_title, workloadHeading(), m_takeaway);
    QString detail = output > 0 ? tr("%1 of GPU time per output token; decode runs at a mean context of %2.")
                                      .arg(format::duration(w.gpuSecondsPerOutputToken), format::tokens(w.decodeContextTokens))
                                : tr("No output tokens: the request is all prefill.");
    detail += scenario.serving.prefixTokens > 0
        ? tr(" Prefix cache: prefill %1 → %2 per request.").arg(format::duration(prefillMs / 1e3), format::duration(cachedPrefillMs / 1e3))
        : tr(" Prefix cache: no shared prefix set (below).");
    setText(m_detail, detail);
}

} // namespace ridgeline::views
