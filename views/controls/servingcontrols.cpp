// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/controls/servingcontrols.h"

#include <algorithm>
#include <cmath>

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include "document/format.h"
#include "views/kit/palette.h"
#include "document/scenariodocument.h"
#include "views/kit/valueslider.h"
#include "views/kit/units.h"
#include "views/whatifs/whatifkit.h"

namespace ridgeline::views {

using namespace whatifkit;

namespace {


const QString& capacityHeading()
{
    static const QString text = QObject::tr("Memory and capacity (per GPU)");
    return text;
}

} // namespace

CapacityControls::CapacityControls(ScenarioDocument* document, QWidget* parent)
    : QFrame(parent)
    , m_document(document)
{
    setObjectName(QStringLiteral("capacityControls"));
    setStyleSheet(QStringLiteral("QFrame#capacityControls { background: %1; border: 1px solid %2; border-radius: 6px; }")
                      .arg(palette::css(palette::card()), palette::css(palette::cardBorder())));

    const QString budgetFormula = tr("KV budget = HBM \u00b7 utilisation \u2212 N\u00b7b_w / T \u2212 activation reserve (per GPU).");
    m_title = titleLabel(QStringLiteral("capacityControlsTitle"), capacityHeading(), budgetFormula);

    m_hbm = doubleSpin(QStringLiteral("hbmSpinBox"), 0, 100000, 1, 8, tr(" GB"),
                       tr("HBM capacity of one GPU in GB (10\u2079 B): hardware.memory_bytes.\n%1").arg(budgetFormula));
    m_utilization = doubleSpin(QStringLiteral("memoryUtilizationSpinBox"), 0, 1, 2, 0.01, QString(),
                               tr("Fraction of HBM the server may use (vLLM's gpu_memory_utilization), default 0.90.\n%1")
                                   .arg(budgetFormula));
    m_reserve = doubleSpin(QStringLiteral("activationReserveSpinBox"), 0, 100000, 1, 1, tr(" GB"),
                           tr("HBM kept back for activations and workspace on each GPU, in GB.\n%1").arg(budgetFormula));
    m_maxContext = new ValueSlider({QStringLiteral("maxContext"), tr("Max context S_max"), tr("tokens"),
                                    tr("Advertised max context: what contiguous reservation sets aside for every sequence.\n"
                                       "Contiguous: sequences = floor(budget / (S_max \u00b7 kv_tok))."),
                                    ValueSlider::Scale::Log, 1024, 1048576, 1, 1e8, 0, true},
                                   this);
    m_block = integerSpin(QStringLiteral("blockSpinBox"), 0, 65536, tr(" tokens"),
                          tr("Paged-KV block size (vLLM: 16 tokens). A sequence holding S tokens takes ceil(S / b) blocks:\n"
                             "sequences = floor(budget / (ceil(S_held / b) \u00b7 b \u00b7 kv_tok))."));

    connect(m_hbm, &QDoubleSpinBox::valueChanged, this, [this](double gb) {
        m_document->edit([gb](model::Scenario& s) {
            s.hardware.memoryBytes = gb * units::kGB;
            s.hardware.name = editedName(s.hardware.name);
        });
    });
    connect(m_utilization, &QDoubleSpinBox::valueChanged, this,
            [this](double value) { m_document->edit([value](model::Scenario& s) { s.serving.memoryUtilization = value; }); });
    connect(m_reserve, &QDoubleSpinBox::valueChanged, this, [this](double gb) {
        m_document->edit([gb](model::Scenario& s) { s.serving.activationReserveBytes = gb * units::kGB; });
    });
    connect(m_maxContext, &ValueSlider::valueChanged, this, [this](double tokens) {
        m_document->edit([tokens](model::Scenario& s) { s.serving.maxContextTokens = int(std::llround(std::min(tokens, 2e9))); });
    });
    connect(m_block, &QSpinBox::valueChanged, this,
            [this](int tokens) { m_document->edit([tokens](model::Scenario& s) { s.serving.blockTokens = tokens; }); });

    m_kvBudget = valueLabel(QStringLiteral("kvBudgetValue"), budgetFormula);
    m_kvPerToken = valueLabel(QStringLiteral("kvPerTokenValue"),
                              tr("kv_tok per GPU = 2 \u00b7 L_attn \u00b7 ceil(H_kv / T) \u00b7 h \u00b7 b_kv (MLA: L_attn \u00b7 (r + d_r) \u00b7 b_kv); L_attn: layers holding KV (L but for hybrids); KiB = 1024 B."));
    m_requestKv = valueLabel(QStringLiteral("requestKvValue"),
                             tr("KV one request of P prompt tokens writes: P \u00b7 kv_tok (all GPUs), in GiB = 1024\u00b3 B.\n"
                                "Seed 001: a 30,000-token prompt at 128 KiB/token is about 3.7 GiB."));
    m_fits = valueLabel(QStringLiteral("fitsValue"), tr("B \u00b7 S \u00b7 kv_tok per GPU against the KV budget."));
    m_maxContextAtBatch = valueLabel(QStringLiteral("maxContextAtBatchValue"),
                                     tr("The longest context whose cache fits at the current batch: budget / (B \u00b7 kv_tok)."));

    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->setHorizontalSpacing(10);
    form->setVerticalSpacing(4);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(caption(tr("HBM per GPU"), m_hbm->toolTip()), m_hbm);
    form->addRow(caption(tr("Memory utilisation"), m_utilization->toolTip()), m_utilization);
    form->addRow(caption(tr("Activation reserve"), m_reserve->toolTip()), m_reserve);
    form->addRow(caption(tr("Paged block size"), m_block->toolTip()), m_block);

    auto* figures = new QFormLayout;
    figures->setContentsMargins(0, 4, 0, 0);
    figures->setHorizontalSpacing(10);
    figures->setVerticalSpacing(3);
    figures->addRow(caption(tr("KV budget"), m_kvBudget->toolTip()), m_kvBudget);
    figures->addRow(caption(tr("KV per token"), m_kvPerToken->toolTip()), m_kvPerToken);
    figures->addRow(caption(tr("One request"), m_requestKv->toolTip()), m_requestKv);
    figures->addRow(caption(tr("Cache at (B, S)"), m_fits->toolTip()), m_fits);
    figures->addRow(caption(tr("Longest context"), m_maxContextAtBatch->toolTip()), m_maxContextAtBatch);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(6);
    layout->addWidget(m_title);
    layout->addLayout(form);
    layout->addWidget(m_maxContext);
    layout->addLayout(figures);
    layout->addStretch(1);

    syncFromScenario();
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &CapacityControls::syncFromScenario);
}

void CapacityControls::syncFromScenario()
{
    const model::Scenario& s = m_document->scenario();
    setQuietly(m_hbm, s.hardware.memoryBytes / units::kGB);
    setQuietly(m_utilization, s.serving.memoryUtilization);
    setQuietly(m_reserve, s.serving.activationReserveBytes / units::kGB);
    if (m_maxContext->value() != s.serving.maxContextTokens)
        m_maxContext->setValue(s.serving.maxContextTokens);
    setQuietly(m_block, s.serving.blockTokens);
}

void CapacityControls::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const model::CapacityResult& c = evaluation.capacity;
    const model::DecodeResult& d = evaluation.decode;
    const double weightsPerGpu = d.residentWeightBytes / std::max(1, scenario.hardware.gpus);
    setTitle(m_title, capacityHeading(),
             tr("KV budget %1 = %2 \u00d7 %3 \u2212 %4 weights \u2212 %5 reserve.")
                 .arg(format::gigabytes(c.kvBudgetBytes), format::gigabytes(scenario.hardware.memoryBytes),
                      format::plain(c.utilization), format::gigabytes(weightsPerGpu),
                      format::gigabytes(scenario.serving.activationReserveBytes)));
    setText(m_kvBudget, c.kvBudgetBytes >= 0 ? format::gigabytes(c.kvBudgetBytes)
                                             : tr("%1: the weights do not fit").arg(format::gigabytes(c.kvBudgetBytes)));
    setText(m_kvPerToken, format::kibibytesPerToken(d.kvBytesPerTokenPerGpu));
    setText(m_requestKv, tr("%1 for a %2-token prompt").arg(format::gibibytes(c.requestKvBytes), format::integer(scenario.workload.promptTokens)));
    setText(m_fits, c.fits ? tr("fits: %1 of %2 (%3)")
                                 .arg(format::gigabytes(c.kvNeededBytes), format::gigabytes(std::max(0.0, c.kvBudgetBytes)),
                                      format::percent(c.kvBudgetBytes > 0 ? c.kvNeededBytes / c.kvBudgetBytes : 0.0))
                           : tr("does not fit: needs %1, budget %2")
                                 .arg(format::gigabytes(c.kvNeededBytes), format::gigabytes(c.kvBudgetBytes)));
    QString longest;
    if (!c.maxContextAtBatch)
        longest = tr("unbounded at B = %1 (every layer slides)").arg(format::integer(scenario.workload.batch));
    else
        longest = tr("%1 at B = %2").arg(format::tokens(double(*c.maxContextAtBatch)), format::integer(scenario.workload.batch));
    setText(m_maxContextAtBatch, longest);
    if (m_fitsShown != int(c.fits)) {
        m_fitsShown = int(c.fits);
        m_fits->setStyleSheet(QStringLiteral("QLabel { color: %1; background: transparent; border: none; }")
                                  .arg(palette::css(c.fits ? palette::text() : palette::error())));
    }
}

} // namespace ridgeline::views
