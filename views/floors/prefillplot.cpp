// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/floors/prefillplot.h"

#include <algorithm>
#include <cmath>

#include <QStringList>

#include <qcustomplot.h>

#include "document/readouts.h"
#include "model/cost/formulatext.h"
#include "document/format.h"
#include "views/kit/boundtext.h"
#include "views/kit/curvelayer.h"
#include "views/kit/palette.h"
#include "views/kit/plotinteraction.h"
#include "views/kit/plotkit.h"
#include "views/kit/references.h"
#include "views/kit/units.h"

namespace ridgeline::views {

using namespace plotkit;

namespace {


/** A label reading upwards along a vertical line at @p x, hanging from @p yRatio of the axis rect. */
void placeRotated(QCPItemText* label, double x, double yRatio)
{
    label->setRotation(-90);
    placeLabelAtKey(label, x, yRatio);
    // In the text's own frame: left of and above the anchor; rotated -90 degrees it reads upwards,
    // ends at the anchor and sits just left of the line.
    setPlacement(label, Qt::AlignRight | Qt::AlignBottom, QMargins(2, 0, 4, 2));
}

/** A label reading upwards along a vertical line at @p x, rising from the bottom of the axis rect. */
void placeRotatedFromBottom(QCPItemText* label, double x)
{
    label->setRotation(-90);
    placeLabelAtKey(label, x, 0.98);
    setPlacement(label, Qt::AlignLeft | Qt::AlignBottom, QMargins(4, 0, 2, 2));
}

} // namespace

PrefillPlot::PrefillPlot(QWidget* parent)
    : FloorPlot(FloorPlotId::Prefill,
                tr("Prefill FLOP of a P-token prompt: F_pre = 2\u00b7N_active\u00b7P + 4\u00b7L\u00b7P\u00b2\u00b7d_attn\n"
                   "(the full P \u00d7 P score matrix, the seeds' convention; the causal setting halves the\n"
                   "attention term to 2\u00b7L\u00b7P\u00b2\u00b7d_attn).\n"
                   "Crossover P* = 2\u00b7N_active / (c\u00b7L\u00b7d_attn), c = 4 full or 2 causal: the quadratic term\n"
                   "equals the linear one. Attention share = F_attn / F_pre (= P / (P + P*) without sliding layers).\n"
                   "The Explain panel and the Numbers tool tips show each with this scenario's numbers.\n"
                   "Compute-bound from the P where F_pre / (F_peak\u00b7MFU) = (W + P\u00b7kv_tok) / (BW\u00b7\u03b7_bw).\n"
                   "Sliding-window layers attend over min(P, window) tokens each: their term grows linearly\n"
                   "past the window, so P* moves out, and when every layer slides there is no P*.\n"
                   "Grey lines: P* of Llama 3.1 8B, 70B and 405B."),
                parent)
{
    QCustomPlot* p = plot();
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    setupAxis(x, titleWithShortForms(tr("prompt length P (tokens)"), {tr("prompt P (tokens)")}), true);
    setupAxis(y, titleWithShortForms(tr("prefill work (TFLOP)"), {tr("TFLOP")}), true);
    x->setRange(model::Sweeps::kPromptMin, model::Sweeps::kPromptMax);

    for (const ReferenceCrossover& reference : referenceCrossovers()) {
        QCPItemStraightLine* line = addStraightLine(p, x, y, pen(palette::reference(), 1, Qt::DotLine));
        placeVertical(line, reference.crossoverTokens);
        QCPItemText* label = addLabel(p, x, y, palette::reference());
        label->setText(tr("%1 P*").arg(reference.label));
        label->setBrush(Qt::NoBrush);
        placeRotated(label, reference.crossoverTokens, 0.02);
        m_referenceLines.push_back(line);
        m_referenceLabels.push_back(label);
    }
    m_crossoverLine = addStraightLine(p, x, y, pen(palette::kv(), 1.4));
    m_crossoverLabel = addLabel(p, x, y, palette::kv());
    m_computeBoundLine = addStraightLine(p, x, y, pen(palette::compute(), 1.2, Qt::DashLine));
    m_computeBoundLabel = addLabel(p, x, y, palette::compute());
    m_currentLine = addStraightLine(p, x, y, pen(palette::reference(), 1, Qt::DotLine));

    m_linear = addCurve(p, x, y, pen(palette::memory(), 1.6, Qt::DashLine), tr("linear 2NP"));
    m_attention = addCurve(p, x, y, pen(palette::kv(), 1.6, Qt::DashLine), tr("attention 4LP\u00b2d"));
    m_total = addCurve(p, x, y, pen(palette::ruling(), 2.4), tr("total"));
    // From an image: a bandwidth or peak FLOP/s step moves the lines under them, not the FLOP curves.
    CurveLayerCache::install(p, {m_linear, m_attention, m_total});
    m_current = addMarker(p, x, y, QCPScatterStyle(QCPScatterStyle::ssCircle, palette::ruling(), palette::ruling(), 8));
    m_current->setName(tr("current P"));
    m_current->addToLegend();
    // Outside the fixed prompt axis (16 to 1,048,576 tokens) the scenario's own point is not drawn (issue 14).
    watchCurrentPoint(m_current, [](double prompt, double) { return tr("P = %1").arg(format::integer(prompt)); });
    placeLegendBelow(p, 4);

    interaction()->setFormulaNumbers([this] {
        const model::Scenario* s = readoutScenario();
        if (!s)
            return QString();
        const model::Evaluation e = model::evaluate(*s);
        return QStringList{model::prefillFlopFormula(*s, e).line(), model::prefillAttentionFormula(*s, e).line(),
                           model::crossoverFormula(*s, e).line(), model::attentionShareFormula(*s, e).line()}
            .join(QLatin1Char('\n'));
    });
    // Read-out: the model's prefill FLOP at the whole prompt length under the cursor.
    interaction()->setReadout([this](double key) {
        const model::Scenario* s = readoutScenario();
        if (!s)
            return interaction()->interpolatedReadout(key);
        const double prompt = std::clamp(std::round(key), model::Sweeps::kPromptMin, model::Sweeps::kPromptMax);
        const document::PrefillFlopAt at = document::prefillFlopAt(*s, prompt);
        const double linear = at.linearFlop / units::kTera;
        const double attention = at.attentionFlop / units::kTera;
        const double total = linear + attention;
        Readout r;
        r.key = prompt;
        r.keyText = tr("P = %1 tokens").arg(format::integer(prompt));
        r.values = {{m_total->name(), total, format::number(total, 4) + tr(" TFLOP"), m_total},
                    {m_linear->name(), linear, format::number(linear, 4) + tr(" TFLOP"), m_linear},
                    {m_attention->name(), attention, format::number(attention, 4) + tr(" TFLOP"), m_attention},
                    {tr("attention share"), attention / total, format::percent(attention / total), nullptr}};
        return r;
    });
    m_referenceWanted.assign(m_referenceLabels.size(), true);
    connect(p, &QCustomPlot::afterLayout, this, &PrefillPlot::separateReferenceLabels);
}

void PrefillPlot::separateReferenceLabels()
{
    QCPAxis* x = plot()->xAxis;
    const double gap = QFontMetricsF(m_crossoverLabel->font()).height() + 2; // rotated: a label's width in x
    std::vector<double> taken;
    if (m_crossoverLabel->visible())
        taken.push_back(x->coordToPixel(m_crossoverLabel->position->key()));
    if (m_computeBoundLabel->visible())
        taken.push_back(x->coordToPixel(m_computeBoundLabel->position->key()));
    for (size_t i = 0; i < m_referenceLabels.size(); ++i) {
        const double at = x->coordToPixel(referenceCrossovers()[i].crossoverTokens);
        bool clear = m_referenceWanted[i];
        for (double other : taken)
            clear = clear && std::abs(at - other) >= gap;
        m_referenceLabels[i]->setVisible(clear);
        if (clear)
            taken.push_back(at);
    }
}

void PrefillPlot::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const model::Sweeps& sweeps = evaluation.sweeps;
    const model::PrefillResult& prefill = evaluation.prefill;
    QCustomPlot* p = plot();
    keepForReadout(scenario); // the read-out and formulas at the cursor follow every change
    // Everything drawn below comes from these: skip the redraw when none changed (a batch or context
    // step leaves them all as they were).
    QByteArray inputs;
    auto add = [&inputs](const auto& value) { inputs.append(reinterpret_cast<const char*>(&value), sizeof value); };
    for (const Eigen::ArrayXd* a : {&sweeps.prompt, &sweeps.prefillLinearFlop, &sweeps.prefillAttentionFlop, &sweeps.prefillFlop})
        inputs.append(reinterpret_cast<const char*>(a->data()), qsizetype(a->size() * qsizetype(sizeof(double))));
    for (double v : {prefill.flop, prefill.seconds, prefill.crossoverTokens, prefill.computeBoundTokens, prefill.attentionShare,
                     p->xAxis->range().lower, p->xAxis->range().upper})
        add(v);
    for (int v : {int(prefill.bound), int(model::largestTimeTerm(prefill)), int(prefill.crossoverExists), int(scenario.model.attention), scenario.model.windowLayers(),
                  scenario.model.layers, scenario.hardware.gpus, scenario.workload.promptTokens})
        add(v);
    if (sameInputsAsDrawn(inputs))
        return;

    QString attentionName = scenario.model.attention == model::AttentionFlops::Causal
        ? tr("attention 2LP\u00b2d") : tr("attention 4LP\u00b2d");
    if (scenario.model.windowLayers() > 0)
        attentionName = tr("attention (%1/%2 windowed)")
                            .arg(format::integer(scenario.model.windowLayers()), format::integer(scenario.model.layers));
    if (m_attention->name() != attentionName)
        m_attention->setName(attentionName);
    assignCurve(m_linear, sweeps.prompt, sweeps.prefillLinearFlop, 1.0 / units::kTera);
    assignCurve(m_attention, sweeps.prompt, sweeps.prefillAttentionFlop, 1.0 / units::kTera);
    assignCurve(m_total, sweeps.prompt, sweeps.prefillFlop, 1.0 / units::kTera);
    const double prompt = scenario.workload.promptTokens;
    assignPoint(m_current, prompt, prefill.flop / units::kTera);
    m_current->setVisible(prompt >= model::Sweeps::kPromptMin);
    placeVertical(m_currentLine, prompt);

    Extent work;
    work.include(sweeps.prefillFlop, 1.0 / units::kTera);
    // The quadratic term starts many decades down: show at most two decades below the total.
    if (work.valid()) {
        const double low = work.low / 100.0;
        Extent attention;
        attention.include(sweeps.prefillAttentionFlop, 1.0 / units::kTera);
        if (attention.valid())
            work.include(std::max(attention.low, low));
    }
    applyRange(p->yAxis, work, 1.5, QCPRange(1e-3, 1e6));

    // Every layer sliding: attention grows linearly past the window and never catches up (no P*).
    const bool hasCrossover = prefill.crossoverExists && std::isfinite(prefill.crossoverTokens)
        && prefill.crossoverTokens > 0;
    const double crossover = hasCrossover ? prefill.crossoverTokens : qQNaN();
    placeVertical(m_crossoverLine, crossover);
    m_crossoverLine->setVisible(hasCrossover);
    m_crossoverLabel->setVisible(hasCrossover && inRange(p->xAxis, crossover));
    if (hasCrossover) {
        // "P*" alone where the plot is lower than "P* = 30,633" is long (900 x 600: plotkit::fitLabels()).
        plotkit::setTextWithShortForm(m_crossoverLabel, tr("P* = %1").arg(format::integer(crossover)), tr("P*"));
        placeRotatedFromBottom(m_crossoverLabel, crossover);
    }

    // Hide a reference that coincides with the current model (the current line carries it).
    for (size_t i = 0; i < m_referenceLines.size(); ++i) {
        const double reference = referenceCrossovers()[i].crossoverTokens;
        const bool same = hasCrossover && std::abs(reference / crossover - 1.0) < 0.01;
        m_referenceLines[i]->setVisible(!same);
        m_referenceLabels[i]->setVisible(!same);
        m_referenceWanted[i] = !same; // separateReferenceLabels() may still hide the label on a small plot
    }

    const double bound = prefill.computeBoundTokens;
    const bool showBound = inRange(p->xAxis, bound);
    placeVertical(m_computeBoundLine, showBound ? bound : qQNaN());
    m_computeBoundLabel->setVisible(showBound);
    // Its short form where the plot is lower than the whole text is long (1280 x 720, 900 x 600: plotkit::fitLabels()).
    const QString boundShort = tr("P \u2265 %1").arg(format::approximate(bound));
    plotkit::setTextWithShortForm(m_computeBoundLabel, tr("%1: compute-bound").arg(boundShort), boundShort);
    placeRotatedFromBottom(m_computeBoundLabel, bound);

    QString reference;
    for (const ReferenceCrossover& ref : referenceCrossovers()) {
        if (hasCrossover && std::abs(ref.crossoverTokens / crossover - 1.0) < 0.01)
            reference = tr(" (as %1)").arg(ref.name);
    }
    const QString crossing = hasCrossover
        ? tr("P* = %1%2").arg(format::tokens(crossover), reference)
        : tr("No P*: attention never overtakes the linear term (every layer slides)");
    const int gpus = std::max(1, scenario.hardware.gpus);
    const QString workText = gpus > 1 ? tr("%1 over %2 GPUs").arg(format::teraflop(prefill.flop), format::integer(gpus))
                                  : format::teraflop(prefill.flop);
    // The crossover is t_comp against t_mem; beside a prefill bound by communication "compute-bound from P ~ 116" read as a
    // contradiction (issue 14 trial), so it is worded as what it compares there.
    const model::TimeTerm largest = model::largestTimeTerm(prefill); // t_comm too: at TP16 across nodes, the all-reduces
    const QString crossoverText = largest == model::TimeTerm::Communication
        ? tr("compute exceeds memory from P \u2248 %1").arg(format::approximate(bound))
        : tr("compute-bound from P \u2248 %1").arg(format::approximate(bound));
    setTakeaway(tr("%1. At P = %2: %3, attention %4 of it, %5 %6; %7.")
                    .arg(crossing, format::integer(prompt), workText,
                         format::percent(prefill.attentionShare), format::duration(prefill.seconds),
                         boundByText(largest), crossoverText));
    countRedraw();
    p->replot(QCustomPlot::rpQueuedReplot);
}

QList<SweepColumn> PrefillPlot::columns()
{
    return {{"prompt_tokens", &model::Sweeps::prompt},
            {"linear_flop", &model::Sweeps::prefillLinearFlop},
            {"attention_flop", &model::Sweeps::prefillAttentionFlop},
            {"total_flop", &model::Sweeps::prefillFlop},
            {"prefill_ms", &model::Sweeps::prefillMs}};
}

Explanation PrefillPlot::explain(const model::Scenario& s, const model::Evaluation& e)
{
    using namespace format;
    const model::PrefillResult& p = e.prefill;
    Explanation x;
    x.title = floorPlotTitle(FloorPlotId::Prefill);
    x.summary = tr("Prefill work has a part linear in the prompt (every token through every weight) and an attention "
                   "part quadratic in it. P* is where they are equal: beyond it attention dominates.");
    x.steps << tr("linear = 2\u00b7N_active\u00b7P = 2\u00b7%1\u00b7%2 = %3")
                   .arg(billionParams(s.model.activeParamsOrTotal()), integer(s.workload.promptTokens), teraflop(p.linearFlop))
            << model::prefillAttentionFormula(s, e).line()
            << model::prefillFlopFormula(s, e).line()
            << model::crossoverFormula(s, e).line()
            << model::attentionShareFormula(s, e).line()
            << model::formula(model::Quantity::PrefillTime) + tr(" = %1, %2")
                   .arg(duration(p.seconds), boundByText(model::largestTimeTerm(p)));
    return x;
}

void PrefillPlot::drawBaseline(const document::Baseline& a, const QString& label, BaselineLayer& layer)
{
    // A's total work and A's P*.
    const model::Sweeps& sweeps = a.evaluation().sweeps;
    assignCurve(layer.addCurve(label), sweeps.prompt, sweeps.prefillFlop, 1.0 / units::kTera);
    const model::PrefillResult& prefill = a.evaluation().prefill;
    if (prefill.crossoverExists && prefill.crossoverTokens > 0)
        layer.addVerticalLine(prefill.crossoverTokens);
    Extent extent;
    extent.include(sweeps.prefillFlop, 1.0 / units::kTera);
    layer.setExtent(extent.low, extent.high, 1.5, 1.5);
}

} // namespace ridgeline::views
