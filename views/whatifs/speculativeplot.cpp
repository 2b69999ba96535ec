// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/whatifs/speculativeplot.h"

#include <algorithm>
#include <cmath>

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "model/cost/formulas.h"

#include "document/format.h"
#include "views/kit/palette.h"
#include "views/kit/plotinteraction.h"
#include "views/kit/plotkit.h"
#include "document/scenariodocument.h"
#include "views/kit/valueslider.h"
#include "views/whatifs/whatifkit.h"

namespace ridgeline::views {

using namespace plotkit;

namespace {

QString speculativeFormula()
{
    return QObject::tr("Speculative decoding: a draft proposes k tokens, the target verifies them in one step.\n"
                       "Expected tokens per step E = (1 \u2212 \u03b1^(k+1)) / (1 \u2212 \u03b1)\n"
                       "speedup = E / (1 + k\u00b7c_d + k\u00b7c_v)\n"
                       "drafted tokens discarded = 1 \u2212 (\u03b1 + \u03b1\u00b2 + \u2026 + \u03b1^k) / k\n"
                       "break-even c_v = (E \u2212 1 \u2212 k\u00b7c_d) / k (speedup = 1).\n"
                       "Cost model's c_v at (B, S): verifying k more positions multiplies the decode FLOP by k + 1\n"
                       "and reads nothing new, so c_v = (max(t_mem, (k+1)\u00b7t_comp) \u2212 t_step) / (k\u00b7t_step):\n"
                       "near 0 while decode is bandwidth-bound, towards 1 once it is compute-bound.\n"
                       "Seed 001: \u03b1 0.7, k 4, c_d 0.05: 2.31x at c_v 0, 0.87x at 0.5; 55.7 % of drafts discarded.");
}

} // namespace

SpeculativePlot::SpeculativePlot(ScenarioDocument* document, QWidget* parent)
    : PlotPanel(tr("Speculative decoding: speedup against verification cost"), QStringLiteral("speculative"), speculativeFormula(), parent)
    , m_document(document)
{
    m_acceptance = new ValueSlider({QStringLiteral("acceptance"), tr("Acceptance \u03b1"), QString(),
                                    tr("Probability each drafted token is accepted (speculative.acceptance), in [0, 1)."),
                                    ValueSlider::Scale::Linear, 0.0, 0.99, 0.0, 0.999, 3, false},
                                   this);
    m_verifyCost = new ValueSlider({QStringLiteral("verifyCost"), tr("Verification cost c_v"), tr("of a step"),
                                    tr("Marginal cost of verifying one drafted position, as a fraction of one target step\n"
                                       "(speculative.verify_cost). Near 0 while decode is bandwidth-bound."),
                                    ValueSlider::Scale::Linear, 0.0, 1.0, 0.0, 10.0, 3, false},
                                   this);
    m_draftTokens = whatifkit::integerSpin(QStringLiteral("draftTokensSpinBox"), 0, 64, QString(),
                                           tr("k, tokens drafted per step (speculative.draft_tokens)."));
    m_draftCost = whatifkit::doubleSpin(QStringLiteral("draftCostSpinBox"), 0, 10, 3, 0.01, QString(),
                                        tr("c_d, cost of drafting one token as a fraction of one target step (speculative.draft_cost)."));
    connect(m_acceptance, &ValueSlider::valueChanged, this,
            [this](double value) { m_document->edit([value](model::Scenario& s) { s.speculative.acceptance = value; }); });
    connect(m_verifyCost, &ValueSlider::valueChanged, this,
            [this](double value) { m_document->edit([value](model::Scenario& s) { s.speculative.verifyCost = value; }); });
    connect(m_draftTokens, &QSpinBox::valueChanged, this,
            [this](int k) { m_document->edit([k](model::Scenario& s) { s.speculative.draftTokens = k; }); });
    connect(m_draftCost, &QDoubleSpinBox::valueChanged, this,
            [this](double value) { m_document->edit([value](model::Scenario& s) { s.speculative.draftCost = value; }); });

    m_tokens = whatifkit::valueLabel(QStringLiteral("speculativeTokensValue"), tr("E = (1 \u2212 \u03b1^(k+1)) / (1 \u2212 \u03b1)"));
    m_speedup = whatifkit::valueLabel(QStringLiteral("speculativeSpeedupValue"), tr("speedup = E / (1 + k\u00b7c_d + k\u00b7c_v)"));
    m_discarded = whatifkit::valueLabel(QStringLiteral("speculativeDiscardedValue"),
                                        tr("discarded = 1 \u2212 (\u03b1 + \u03b1\u00b2 + \u2026 + \u03b1^k) / k"));

    // Each figure keeps its words together (non-breaking spaces); the row wraps between figures when narrow.
    for (QLabel* label : {m_tokens, m_speedup, m_discarded})
        label->setWordWrap(true);
    m_speedup->setStyleSheet(QStringLiteral("QLabel { color: %1; background: transparent; border: none; font-weight: 600; }")
                                 .arg(palette::css(palette::throughput())));

    auto* inputs = new QGridLayout;
    inputs->setContentsMargins(0, 0, 0, 0);
    inputs->setHorizontalSpacing(16);
    inputs->setVerticalSpacing(2);
    inputs->addWidget(m_acceptance, 0, 0, 1, 2);
    inputs->addWidget(m_verifyCost, 3, 0, 1, 2);
    auto* spins = new QHBoxLayout;
    spins->setSpacing(8);
    spins->addWidget(whatifkit::caption(tr("Drafted k"), m_draftTokens->toolTip()));
    spins->addWidget(m_draftTokens);
    spins->addSpacing(12);
    spins->addWidget(whatifkit::caption(tr("Draft cost c_d"), m_draftCost->toolTip()));
    spins->addWidget(m_draftCost);
    spins->addStretch(1);
    inputs->addLayout(spins, 1, 0, 1, 2);
    inputs->setRowMinimumHeight(2, 4);
    auto* figures = new QHBoxLayout;
    figures->setSpacing(18);
    figures->addWidget(m_tokens, 1);
    figures->addWidget(m_speedup, 1);
    figures->addWidget(m_discarded, 1);
    inputs->addLayout(figures, 4, 0, 1, 2);
    inputs->setColumnStretch(0, 1);
    inputs->setColumnStretch(1, 1);
    cardLayout()->insertLayout(1, inputs);

    QCustomPlot* p = plot();
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    setupAxis(x, tr("verification cost c_v per drafted position (fraction of a target step)"), false);
    setupAxis(y, tr("speedup over plain decode (x)"), false);
    x->setRange(-0.02, 1.02); // the c_v = 0 and c_v = 1 markers stay whole
    y->setRange(0.0, 3.0);

    m_oneLine = addStraightLine(p, x, y, pen(palette::slo(), 1.3, Qt::DashLine));
    placeHorizontal(m_oneLine, 1.0);
    m_oneLabel = addLabel(p, x, y, palette::slo());
    m_oneLabel->setText(tr("1.0x: no gain"));
    placeLabelAt(m_oneLabel, 1.0, 1.0);
    setPlacement(m_oneLabel, Qt::AlignRight | Qt::AlignBottom, QMargins(2, 0, 4, 2));
    m_breakEvenLine = addStraightLine(p, x, y, pen(palette::slo(), 1, Qt::DotLine));
    m_breakEvenLabel = addLabel(p, x, y, palette::slo());
    m_modelLine = addStraightLine(p, x, y, pen(palette::compute(), 1.3, Qt::DashDotLine));
    m_modelLabel = addLabel(p, x, y, palette::compute());
    m_curve = addCurve(p, x, y, pen(palette::throughput(), 2.4), tr("speedup at \u03b1, k, c_d"));
    m_current = addMarker(p, x, y, QCPScatterStyle(QCPScatterStyle::ssCircle, palette::ruling(), palette::ruling(), 8));
    m_current->setName(tr("current c_v"));
    m_current->addToLegend();
    placeLegendBelow(p, 2);

    // Read-out: the speedup the model gives at the verification cost under the cursor.
    interaction()->setReadout([this](double key) {
        const model::Scenario* s = readoutScenario();
        if (!s)
            return interaction()->interpolatedReadout(key);
        const model::Speculative& spec = s->speculative;
        const double verifyCost = std::clamp(key, 0.0, 1.0);
        const double speedup = model::speculativeDecoding(spec.acceptance, spec.draftTokens, spec.draftCost, verifyCost).speedup;
        Readout r;
        r.key = verifyCost;
        r.keyText = tr("c_v = %1").arg(format::number(verifyCost, 3));
        r.values = {{tr("speedup"), speedup, format::number(speedup, 4) + QStringLiteral("\u00d7"), m_curve}};
        return r;
    });

    syncFromScenario();
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &SpeculativePlot::syncFromScenario);
}

void SpeculativePlot::syncFromScenario()
{
    const model::Speculative& s = m_document->scenario().speculative;
    if (m_acceptance->value() != s.acceptance)
        m_acceptance->setValue(s.acceptance);
    if (m_verifyCost->value() != s.verifyCost)
        m_verifyCost->setValue(s.verifyCost);
    whatifkit::setQuietly(m_draftTokens, s.draftTokens);
    whatifkit::setQuietly(m_draftCost, s.draftCost);
}

void SpeculativePlot::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const model::SpeculativeEvaluation& sp = evaluation.speculative;
    const model::Sweeps& sweeps = evaluation.sweeps;
    const model::Speculative& spec = scenario.speculative;
    QCustomPlot* p = plot();
    keepForReadout(scenario);

    assignCurve(m_curve, sweeps.verifyCost, sweeps.speculativeSpeedup, 1.0, false);
    assignPoint(m_current, spec.verifyCost, sp.speedup);
    Extent speed;
    speed.log = false;
    speed.include(sweeps.speculativeSpeedup);
    speed.include(1.0);
    if (spec.verifyCost <= 1.0)
        speed.include(sp.speedup);
    p->yAxis->setRange(0.0, std::max(1.5, speed.high * 1.12));

    // Break-even c_v and the cost model's c_v at (B, S).
    const double breakEven = sp.breakEvenVerifyCost;
    const bool breakEvenShown = std::isfinite(breakEven) && breakEven >= 0 && breakEven <= 1;
    m_breakEvenLine->setVisible(breakEvenShown);
    m_breakEvenLabel->setVisible(breakEvenShown);
    if (breakEvenShown) {
        placeVertical(m_breakEvenLine, breakEven);
        m_breakEvenLabel->setText(tr("slowdown beyond c_v = %1").arg(format::number(breakEven, 2)));
        placeLabelAtKey(m_breakEvenLabel, breakEven, 0.04);
        setPlacement(m_breakEvenLabel, Qt::AlignLeft | Qt::AlignTop, QMargins(4, 0, 2, 0));
    }
    const double modelCv = sp.modelVerifyCost;
    const bool modelShown = std::isfinite(modelCv);
    m_modelLine->setVisible(modelShown);
    m_modelLabel->setVisible(modelShown);
    if (modelShown) {
        const double shownAt = std::clamp(modelCv, 0.0, 1.0);
        placeVertical(m_modelLine, shownAt);
        m_modelLabel->setText(tr("cost model at B = %1, S = %2: c_v %3 %4")
                                  .arg(format::integer(scenario.workload.batch), format::integer(scenario.workload.contextTokens),
                                       modelCv > 1.0 ? QStringLiteral("\u2265") : QStringLiteral("\u2248"),
                                       format::number(std::min(modelCv, 1.0), 2)));
        placeLabelAtKey(m_modelLabel, shownAt, 0.96); // low: the curve usually runs well above the axis there
        setPlacement(m_modelLabel, Qt::AlignLeft | Qt::AlignBottom, QMargins(4, 0, 2, 0));
    }

    const QString space = QStringLiteral(" ");
    const QChar nbsp(0x00a0);
    whatifkit::setText(m_tokens, tr("E = %1 tokens per step").arg(format::number(sp.expectedTokensPerStep)).replace(space, nbsp));
    whatifkit::setText(m_speedup, tr("speedup %1x").arg(format::number(sp.speedup)).replace(space, nbsp));
    whatifkit::setText(m_discarded, tr("%1 of drafts discarded").arg(format::percent(sp.discardedFraction)).replace(space, nbsp));

    QString verdict;
    if (!std::isfinite(breakEven) || breakEven < 0)
        verdict = tr("never a win at these \u03b1, k and c_d");
    else
        verdict = tr("slowdown beyond c_v = %1").arg(format::number(breakEven, 2));
    QString model;
    if (modelShown) {
        const bool wins = modelCv < breakEven;
        model = tr("; the cost model puts c_v at %1 at B = %2, %3")
                    .arg(format::number(modelCv, 2), format::integer(scenario.workload.batch),
                         wins ? tr("a win there") : tr("a loss there"));
    }
    setTakeaway(tr("%1x at c_v = %2 (\u03b1 %3, k %4): %5%6.")
                    .arg(format::number(sp.speedup), format::plain(spec.verifyCost), format::plain(spec.acceptance),
                         format::integer(spec.draftTokens), verdict, model));
    p->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ridgeline::views
