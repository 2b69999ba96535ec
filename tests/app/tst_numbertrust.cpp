// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 17, "nothing lies on screen": the numbers the window, the report and the command line show
// are the model's, and a control changes only what it says it changes.
//  - formula text: every formula line's numbers, evaluated here, give the value shown beside it
//    (dense, MoE, sliding window, causal, tensor parallel, fixed overheads, compute-bound);
//  - the largest batch per ITL SLO is capped by what fits in memory and says which bound binds;
//    a model whose weights do not fit says so on every plot;
//  - SLO headroom compares against t_step at the current batch;
//  - the peak slider moves the peak the matmuls use; --set hardware.peak_flops says when it is not;
//  - the model-size slider keeps H_kv and returns exactly to where it started.

#include <algorithm>
#include <cmath>
#include <optional>

#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QSlider>
#include <QTest>

#include <qcustomplot.h>

#include "app/commandline.h"
#include "app/mainwindow.h"
#include "app/report.h"
#include "model/cost/costmodel.h"
#include "model/cost/formulatext.h"
#include "model/cost/presets.h"
#include "model/cost/scenario.h"
#include "model/cost/scenariokeys.h"
#include "views/whatifs/capacityplot.h"
#include "views/controls/controlspanel.h"
#include "views/floors/decodeplot.h"
#include "views/kit/explainpanel.h"
#include "document/format.h"
#include "views/floors/kvshareplot.h"
#include "views/floors/numberspanel.h"
#include "views/kit/plotpanel.h"
#include "views/floors/prefillplot.h"
#include "views/floors/rooflineplot.h"
#include "document/scenariodocument.h"
#include "views/whatifs/sloheadroom.h"
#include "views/floors/sloplot.h"
#include "views/kit/valueslider.h"
#include "views/whatifs/whatifstabs.h"

using ridgeline::app::MainWindow;
namespace model = ridgeline::model;
namespace views = ridgeline::views;

Q_DECLARE_METATYPE(model::Scenario)

namespace {

/**
 * Evaluates a formula's numbers as shown: decimal numbers with "e" exponents, + − - · * / ² ^ ( ),
 * max(a, b) and min(a, b). Returns nullopt on anything else (so a formula that is not arithmetic fails).
 */
class Expression {
public:
    explicit Expression(const QString& text) : m_text(text) {}

    std::optional<double> value()
    {
        std::optional<double> v = sum();
        skipSpace();
        if (!v || m_pos != m_text.size())
            return std::nullopt;
        return v;
    }

private:
    void skipSpace()
    {
        while (m_pos < m_text.size() && m_text[m_pos].isSpace())
            ++m_pos;
    }
    bool take(QChar c)
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    std::optional<double> sum()
    {
        std::optional<double> v = product();
        while (v) {
            if (take(QLatin1Char('+'))) {
                const auto r = product();
                if (!r)
                    return std::nullopt;
                *v += *r;
            } else if (take(QLatin1Char('-')) || take(QChar(0x2212))) {
                const auto r = product();
                if (!r)
                    return std::nullopt;
                *v -= *r;
            } else {
                break;
            }
        }
        return v;
    }
    std::optional<double> product()
    {
        std::optional<double> v = power();
        while (v) {
            if (take(QChar(0x00b7)) || take(QLatin1Char('*'))) {
                const auto r = power();
                if (!r)
                    return std::nullopt;
                *v *= *r;
            } else if (take(QLatin1Char('/'))) {
                const auto r = power();
                if (!r)
                    return std::nullopt;
                *v /= *r;
            } else {
                break;
            }
        }
        return v;
    }
    std::optional<double> power()
    {
        std::optional<double> v = atom();
        if (v && take(QChar(0x00b2)))
            *v *= *v;
        else if (v && take(QLatin1Char('^'))) {
            const auto r = atom();
            if (!r)
                return std::nullopt;
            *v = std::pow(*v, *r);
        }
        return v;
    }
    std::optional<double> atom()
    {
        skipSpace();
        for (const QString& name : {QStringLiteral("max"), QStringLiteral("min")}) {
            if (m_text.mid(m_pos, 3) == name) {
                m_pos += 3;
                if (!take(QLatin1Char('(')))
                    return std::nullopt;
                const auto a = sum();
                if (!a || !take(QLatin1Char(',')))
                    return std::nullopt;
                const auto b = sum();
                if (!b || !take(QLatin1Char(')')))
                    return std::nullopt;
                return name == QLatin1String("max") ? std::max(*a, *b) : std::min(*a, *b);
            }
        }
        if (take(QLatin1Char('('))) {
            const auto v = sum();
            if (!v || !take(QLatin1Char(')')))
                return std::nullopt;
            return v;
        }
        const qsizetype start = m_pos;
        while (m_pos < m_text.size()
               && (m_text[m_pos].isDigit() || m_text[m_pos] == QLatin1Char('.')
                   || (m_text[m_pos] == QLatin1Char('e') && m_pos > start)
                   || (m_text[m_pos] == QLatin1Char('-') && m_pos > start && m_text[m_pos - 1] == QLatin1Char('e'))))
            ++m_pos;
        bool ok = false;
        const double v = m_text.mid(start, m_pos - start).toDouble(&ok);
        if (!ok)
            return std::nullopt;
        return v;
    }

    QString m_text;
    qsizetype m_pos = 0;
};

const model::Scenario& shipped(const char* id)
{
    for (const model::ScenarioPreset& p : model::scenarioPresets())
        if (p.id == id)
            return p.scenario;
    qFatal("shipped scenario %s is missing", id);
}

model::ModelShape presetModel(const char* id)
{
    for (const model::ModelPreset& p : model::modelPresets())
        if (p.id == id)
            return p.shape;
    qFatal("model preset %s is missing", id);
}

model::Scenario llama8b()
{
    return shipped("llama-3.1-8b-h100");
}

/** 70B in bf16 (141 GB) on one 80 GB H100. */
model::Scenario llama70bOneGpu()
{
    model::Scenario s = llama8b();
    s.model = presetModel("llama-3.1-70b");
    return s;
}

bool near(double a, double b, double relative)
{
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b)) + 1e-12;
}

} // namespace

class TestNumberTrust final : public QObject {
    Q_OBJECT

private slots:
    void formulaNumbersGiveTheValue_data();
    void formulaNumbersGiveTheValue();
    void sloBatchIsCappedByMemory();
    void notFittingSaysSoOnEveryPlot();
    void sloAxisReachesItsMarkers();
    void headroomAtTheCurrentBatch();
    void peakSliderMovesTheMatmulPeak();
    void peakFlopsKeyOnTheCommandLine();
    void modelSizeRoundTrip();
    void shownFormulasComeFromOneSource_data();
    void shownFormulasComeFromOneSource();
};

void TestNumberTrust::formulaNumbersGiveTheValue_data()
{
    QTest::addColumn<model::Scenario>("scenario");
    {
        model::Scenario s = llama8b();
        s.workload.batch = 64;
        s.workload.contextTokens = 8192;
        QTest::newRow("dense 8B, B 64") << s;
    }
    {
        model::Scenario s = llama8b();
        s.model = presetModel("mixtral-8x7b");
        s.hardware.gpus = 2;
        s.workload.batch = 48;
        QTest::newRow("MoE Mixtral, B 48, T 2") << s;
    }
    for (int prompt : {2048, 32768}) {
        model::Scenario s = llama8b();
        s.model = presetModel("gemma-2-9b");
        s.workload.promptTokens = prompt;
        QTest::newRow(qPrintable(QStringLiteral("sliding Gemma 2, full, P %1").arg(prompt))) << s;
        s.model.attention = model::AttentionFlops::Causal;
        QTest::newRow(qPrintable(QStringLiteral("sliding Gemma 2, causal, P %1").arg(prompt))) << s;
    }
    {
        model::Scenario s = llama8b();
        s.model.attention = model::AttentionFlops::Causal;
        s.workload.promptTokens = 65536;
        QTest::newRow("causal 8B, P 65,536") << s;
    }
    {
        model::Scenario s = llama8b();
        s.model = presetModel("llama-3.1-70b");
        s.hardware.gpus = 4;
        s.efficiency.stepOverheadSeconds = 0.8e-3;
        s.efficiency.prefillOverheadSeconds = 3e-3;
        s.workload.batch = 32;
        QTest::newRow("70B, T 4, with overheads") << s;
    }
    {
        model::Scenario s = llama8b();
        s.workload.batch = 2048;
        s.workload.contextTokens = 128;
        s.efficiency.stepOverheadSeconds = 0.5e-3;
        QTest::newRow("compute-bound 8B, B 2,048, S 128") << s;
    }
}

void TestNumberTrust::formulaNumbersGiveTheValue()
{
    QFETCH(model::Scenario, scenario);
    QVERIFY(model::validate(scenario).empty());
    const model::Evaluation e = model::evaluate(scenario);
    struct Check {
        model::FormulaText formula;
        double modelValue;
    };
    const std::vector<Check> checks{
        {model::stepTimeFormula(scenario, e), e.decode.stepSeconds * 1e3},
        {model::stepLineFormula(scenario, e), e.decode.stepSeconds * 1e3},
        {model::prefillAttentionFormula(scenario, e), e.prefill.attentionFlop},
        {model::prefillFlopFormula(scenario, e), e.prefill.flop},
        {model::crossoverFormula(scenario, e), e.prefill.crossoverTokens},
        {model::attentionShareFormula(scenario, e), e.prefill.attentionShare},
        {model::prefillTimeFormula(scenario, e), e.prefill.seconds * 1e3},
    };
    for (const Check& c : checks) {
        if (c.formula.numbers.isEmpty()) { // only "no P*"
            QVERIFY(!e.prefill.crossoverExists);
            continue;
        }
        const std::optional<double> shown = Expression(c.formula.numbers).value();
        QVERIFY2(shown, qPrintable(QStringLiteral("not arithmetic: ") + c.formula.numbers));
        // Four significant digits per number: the shown arithmetic agrees to a few parts per thousand.
        QVERIFY2(near(*shown, c.modelValue, 3e-3),
                 qPrintable(QStringLiteral("%1 evaluates to %2, the model says %3").arg(c.formula.line()).arg(*shown).arg(c.modelValue)));
    }
    // The shown t_step formula names the overhead and the all-reduce when the model adds them.
    const model::FormulaText step = model::stepTimeFormula(scenario, e);
    QCOMPARE(step.symbols.contains(QStringLiteral("t_oh")), scenario.efficiency.stepOverheadSeconds > 0);
    QCOMPARE(step.symbols.contains(QStringLiteral("t_comm")), scenario.hardware.gpus > 1);

    // One source: the Explain panel, the t_step plot, the Numbers panel and the report show these lines.
    const views::Explanation decode = views::explainPlot(0, scenario, e);
    QVERIFY(decode.steps.contains(step.line()));
    const views::Explanation prefill = views::explainPlot(3, scenario, e);
    QVERIFY(prefill.steps.contains(model::crossoverFormula(scenario, e).line()));
    QVERIFY(prefill.steps.contains(model::attentionShareFormula(scenario, e).line()));
    QVERIFY(prefill.steps.contains(model::prefillAttentionFormula(scenario, e).line()));
    const views::Explanation slo = views::explainPlot(4, scenario, e);
    QVERIFY(slo.steps.contains(model::stepLineFormula(scenario, e).line()));

    MainWindow window(scenario);
    window.document()->evaluateNow();
    QCoreApplication::processEvents();
    const model::FormulaText line = model::stepLineFormula(scenario, e);
    QVERIFY2(window.sloPanel()->takeaway().contains(line.numbers), qPrintable(window.sloPanel()->takeaway()));
    QCOMPARE(window.numbersPanel()->valueLabel(QStringLiteral("crossover"))->toolTip(), model::crossoverFormula(scenario, e).line());
    QVERIFY(window.numbersPanel()->valueLabel(QStringLiteral("step"))->toolTip().startsWith(step.line()));

    const QString report = ridgeline::app::reportText(scenario, e);
    QVERIFY2(report.contains(model::asciiFormula(model::crossoverFormula(scenario, e).symbols)), qPrintable(report));
    QVERIFY(report.contains(model::asciiFormula(step.numbers)));
}

void TestNumberTrust::sloBatchIsCappedByMemory()
{
    // 8B on H100 at S = 2,048: t_step stays under 100 ms to B = 1,188, but only 208 caches fit.
    const model::Scenario s = llama8b();
    const model::Evaluation e = model::evaluate(s);
    const long long fitting = e.capacity.maxSequencesContiguous;
    QVERIFY(fitting > 0);
    bool sawMemory = false;
    for (const model::SloBatch& slo : e.decode.maxBatchForItlSlo) {
        QVERIFY(slo.batch);
        QCOMPARE(slo.fittingBatch, fitting);
        QCOMPARE(*slo.servableBatch, std::min(*slo.batch, fitting));
        QVERIFY(slo.limit == (*slo.batch > fitting ? model::BatchLimit::Memory : model::BatchLimit::Slo));
        // Whatever binds, the answer fits and meets the SLO.
        QVERIFY(model::stepSecondsAt(s, double(*slo.servableBatch)) * 1e3 <= slo.sloMs);
        model::Scenario at = s;
        at.workload.batch = int(*slo.servableBatch);
        QVERIFY(model::evaluate(at).capacity.fits);
        sawMemory = sawMemory || slo.limit == model::BatchLimit::Memory;
    }
    QVERIFY2(sawMemory, "the 100 ms line should be memory-bound at S = 2,048");

    // The report keeps "batch" (the SLO alone) and adds the capped answer and the binding bound.
    const QJsonObject report = ridgeline::app::reportJson(s, e);
    const QJsonArray batches = report.value(QStringLiteral("decode")).toObject().value(QStringLiteral("max_batch_for_itl_slo")).toArray();
    QCOMPARE(batches.size(), qsizetype(e.decode.maxBatchForItlSlo.size()));
    for (qsizetype i = 0; i < batches.size(); ++i) {
        const model::SloBatch& slo = e.decode.maxBatchForItlSlo[size_t(i)];
        const QJsonObject o = batches.at(i).toObject();
        QCOMPARE(o.value(QStringLiteral("batch")).toDouble(), double(*slo.batch));
        QCOMPARE(o.value(QStringLiteral("servable_batch")).toDouble(), double(*slo.servableBatch));
        QCOMPARE(o.value(QStringLiteral("memory_batch")).toDouble(), double(fitting));
        QCOMPARE(o.value(QStringLiteral("binding")).toString(),
                 slo.limit == model::BatchLimit::Memory ? QStringLiteral("memory") : QStringLiteral("slo"));
    }
    const QString text = ridgeline::app::reportText(s, e);
    QVERIFY2(text.contains(QStringLiteral("B <= %1 (memory binds").arg(fitting)), qPrintable(text));

    // The window: plot markers, Numbers and the A/B table give the capped batch.
    MainWindow window(s);
    window.document()->evaluateNow();
    QCoreApplication::processEvents();
    QSharedPointer<QCPGraphDataContainer> markers = window.sloPanel()->sloBatchMarkers()->data();
    for (auto it = markers->constBegin(); it != markers->constEnd(); ++it)
        QVERIFY2(it->key <= double(fitting), qPrintable(QString::number(it->key)));
    QVERIFY(window.sloPanel()->memoryLine()->visible());
    QVERIFY(window.sloPanel()->takeaway().contains(QStringLiteral("memory binds")));
    const QString numbers = window.numbersPanel()->valueLabel(QStringLiteral("sloBatches"))->text();
    QVERIFY2(numbers.contains(QStringLiteral("100 ms: B \u2264 %1, memory binds").arg(views::format::integer(double(fitting)))),
             qPrintable(numbers));
}

void TestNumberTrust::notFittingSaysSoOnEveryPlot()
{
    const model::Scenario s = llama70bOneGpu();
    const model::Evaluation e = model::evaluate(s);
    QVERIFY(!e.capacity.weightsFit);
    for (const model::SloBatch& slo : e.decode.maxBatchForItlSlo) {
        QVERIFY(!slo.servableBatch);
        // t_step(1) = 42 ms: 20 and 40 ms are missed whatever memory holds (a tester saw "none (memory)" there).
        QVERIFY(slo.limit == (slo.batch ? model::BatchLimit::Memory : model::BatchLimit::Slo));
    }
    QVERIFY(!e.decode.maxBatchForItlSlo.front().batch);  // 20 ms
    QVERIFY(e.decode.maxBatchForItlSlo.back().batch);    // 100 ms: the SLO allows a batch, memory does not
    QVERIFY(ridgeline::app::reportText(s, e).contains(QStringLiteral("DOES NOT FIT")));
    QCOMPARE(ridgeline::app::reportJson(s, e).value(QStringLiteral("capacity")).toObject().value(QStringLiteral("weights_fit")).toBool(),
             false);

    MainWindow window(s);
    window.show();
    window.document()->evaluateNow();
    QCoreApplication::processEvents();
    QList<views::PlotPanel*> panels{window.decodePanel(), window.rooflinePanel(), window.kvSharePanel(), window.prefillPanel(),
                                    window.sloPanel()};
    window.whatIfTabs()->ensureBuilt(views::WhatIfTabs::CapacityTab); // built on first show otherwise
    window.whatIfTabs()->ensureBuilt(views::WhatIfTabs::WorkloadTab);
    panels += window.whatIfTabs()->findChildren<views::PlotPanel*>(QStringLiteral("capacityPanel"));
    panels += window.whatIfTabs()->findChildren<views::PlotPanel*>(QStringLiteral("kvFitPanel"));
    panels += window.whatIfTabs()->findChildren<views::PlotPanel*>(QStringLiteral("speculativePanel"));
    QCOMPARE(panels.size(), 8);
    for (views::PlotPanel* panel : panels) {
        window.whatIfTabs()->refreshAll();
        QVERIFY2(panel->takeaway().startsWith(QStringLiteral("Does not fit")), qPrintable(panel->objectName() + panel->takeaway()));
        QVERIFY(panel->titleLabel()->text().contains(QStringLiteral("Does not fit")));
    }
    // Back to a model that fits: the warning goes.
    window.document()->edit([](model::Scenario& x) { x.model = presetModel("llama-3.1-8b"); });
    window.document()->evaluateNow();
    QCoreApplication::processEvents();
    QVERIFY(!window.sloPanel()->takeaway().contains(QStringLiteral("Does not fit")));
}

void TestNumberTrust::sloAxisReachesItsMarkers()
{
    // A small model with a loose SLO: the SLO allows far more than the 4,096 of the fixed grid.
    model::Scenario s = llama8b();
    s.model = presetModel("llama-3.2-1b");
    s.workload.contextTokens = 128;
    s.workload.itlSloMs = {200};
    const model::Evaluation e = model::evaluate(s);
    const model::SloBatch& slo = e.decode.maxBatchForItlSlo.at(0);
    QVERIFY(slo.servableBatch);
    QVERIFY2(*slo.servableBatch > model::Sweeps::kBatchMax, qPrintable(QString::number(*slo.servableBatch)));
    MainWindow window(s);
    window.document()->evaluateNow();
    QCoreApplication::processEvents();
    QCustomPlot* plot = window.sloPanel()->plot();
    QSharedPointer<QCPGraphDataContainer> markers = window.sloPanel()->sloBatchMarkers()->data();
    QCOMPARE(markers->size(), 1);
    QVERIFY(plot->xAxis->range().contains(markers->constBegin()->key));
    // The t_step curve reaches the marker too, with the model's values.
    QSharedPointer<QCPGraphDataContainer> curve = window.sloPanel()->stepGraph()->data();
    QVERIFY((curve->constEnd() - 1)->key >= markers->constBegin()->key);
    const double lastKey = (curve->constEnd() - 1)->key;
    QVERIFY(near((curve->constEnd() - 1)->value, model::stepSecondsAt(s, lastKey) * 1e3, 1e-9));
}

void TestNumberTrust::headroomAtTheCurrentBatch()
{
    model::Scenario s = llama8b();
    s.workload.batch = 1024; // at S = 2,048: t_step about 87 ms
    const model::Evaluation e = model::evaluate(s);
    const double stepMs = e.decode.stepSeconds * 1e3;
    QVERIFY(stepMs > 40); // 20 and 40 ms are missed at B = 1,024
    QCOMPARE(e.slo.itlHeadroomAtBatch.size(), s.workload.itlSloMs.size());
    for (size_t i = 0; i < s.workload.itlSloMs.size(); ++i)
        QVERIFY(near(e.slo.itlHeadroomAtBatch[i], s.workload.itlSloMs[i] / stepMs, 1e-12));
    QVERIFY(e.slo.itlHeadroom[0] > 1); // against the floor 20 ms looks fine...
    QVERIFY(e.slo.itlHeadroomAtBatch[0] < 1); // ...but the current batch misses it

    MainWindow window(s);
    window.show();
    window.document()->evaluateNow();
    window.whatIfTabs()->ensureBuilt(views::WhatIfTabs::CapacityTab); // built on first show otherwise
    window.whatIfTabs()->refreshAll();
    QCoreApplication::processEvents();
    auto* panel = window.findChild<views::SloHeadroomPanel*>();
    QVERIFY(panel);
    const std::vector<QLabel*> labels = panel->itlLabels();
    QCOMPARE(labels.size(), size_t(3));
    QVERIFY2(labels[0]->text().contains(QStringLiteral("missed at this batch")), qPrintable(labels[0]->text()));
    QVERIFY(labels[1]->text().contains(QStringLiteral("missed at this batch")));
    QVERIFY(labels[0]->text().contains(views::format::milliseconds(stepMs)));
    const QJsonArray itl = ridgeline::app::reportJson(s, e).value(QStringLiteral("slo")).toObject().value(QStringLiteral("itl")).toArray();
    QCOMPARE(itl.at(0).toObject().value(QStringLiteral("met_at_batch")).toBool(), false);
    QVERIFY(near(itl.at(0).toObject().value(QStringLiteral("headroom_at_batch")).toDouble(), 20.0 / stepMs, 1e-12));
}

void TestNumberTrust::peakSliderMovesTheMatmulPeak()
{
    for (const model::DType weights : {model::DType::FP8, model::DType::INT8, model::DType::BF16}) {
        model::Scenario s = llama8b();
        s.model.weightDtype = weights;
        MainWindow window(s);
        window.show();
        views::ValueSlider* peak = window.controlsPanel()->peakFlopsSlider();
        const double before = model::evaluate(s).roofline.peakFlopsPerSecond;
        QVERIFY(std::abs(peak->value() * 1e12 - before) <= 0.05e12 + 1e-3 * before);
        const std::string_view name = model::dtypeName(model::matmulDtype(weights));
        QVERIFY2(peak->findChild<QLabel*>(QStringLiteral("peakFlopsLabel"))->text().contains(QString::fromUtf8(name.data(), qsizetype(name.size()))),
                 qPrintable(peak->findChild<QLabel*>(QStringLiteral("peakFlopsLabel"))->text()));
        peak->slider()->setFocus();
        QTest::keyClick(peak->slider(), Qt::Key_PageDown); // one decade down
        window.document()->evaluateNow();
        const double after = window.document()->evaluation().roofline.peakFlopsPerSecond;
        QVERIFY2(after < before / 5, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
        QVERIFY(std::abs(after - peak->value() * 1e12) <= 1e-6 * after);
    }
}

void TestNumberTrust::peakFlopsKeyOnTheCommandLine()
{
    model::Scenario out;
    QStringList notes;
    const QString path = QStringLiteral(RIDGELINE_SOURCE_DIR "/resources/scenarios/llama-3.1-8b-h100.json");
    QVERIFY(ridgeline::app::buildScenario(path, QString(), {QStringLiteral("model.weight_dtype=fp8"), QStringLiteral("hardware.peak_flops=1e14")},
                                          out, notes)
                .isEmpty());
    QCOMPARE(notes.size(), 1);
    QVERIFY2(notes.at(0).contains(QStringLiteral("hardware.peak_flops_fp8")), qPrintable(notes.at(0)));
    QVERIFY(model::matmulPeakKey(out.hardware, out.model.weightDtype) == std::string_view("hardware.peak_flops_fp8"));
    QCOMPARE(ridgeline::app::reportJson(out, model::evaluate(out)).value(QStringLiteral("roofline")).toObject()
                 .value(QStringLiteral("compute_peak_key")).toString(),
             QStringLiteral("hardware.peak_flops_fp8"));
    // bf16 weights: the key is the peak in use, nothing to say.
    notes.clear();
    QVERIFY(ridgeline::app::buildScenario(path, QString(), {QStringLiteral("hardware.peak_flops=1e14")}, out, notes).isEmpty());
    QVERIFY(notes.isEmpty());
    QCOMPARE(model::evaluate(out).roofline.peakFlopsPerSecond, 1e14);
}

void TestNumberTrust::shownFormulasComeFromOneSource_data()
{
    QTest::addColumn<double>("kvBandwidth");
    QTest::newRow("one bandwidth efficiency") << 0.0;
    QTest::newRow("KV read at its own efficiency") << 0.5;
}

/**
 * Issue 16: the report, the Explain panel and the Numbers panel's tool tips write each general formula as the one
 * source (model::formula, model/cost/formulatext.h) does: t_mem, t_comp, throughput, per-user speed and t_pre.
 */
void TestNumberTrust::shownFormulasComeFromOneSource()
{
    QFETCH(double, kvBandwidth);
    model::Scenario scenario = model::defaultScenario();
    scenario.workload.batch = 32;
    scenario.efficiency.bandwidth = 0.75;
    scenario.efficiency.kvBandwidth = kvBandwidth;
    const model::Evaluation e = model::evaluate(scenario);
    const model::Quantity memory = kvBandwidth > 0 ? model::Quantity::MemoryTimeSplit : model::Quantity::MemoryTime;

    const QString report = ridgeline::app::reportText(scenario, e);
    for (model::Quantity q : {memory, model::Quantity::ComputeTime, model::Quantity::PerUserSpeed, model::Quantity::Throughput,
                              model::Quantity::PrefillTime})
        QVERIFY2(report.contains(model::asciiFormula(model::formula(q))), qPrintable(model::asciiFormula(model::formula(q))));

    auto startsOneStep = [](const views::Explanation& x, const QString& formula) {
        return std::any_of(x.steps.begin(), x.steps.end(), [&](const QString& step) { return step.startsWith(formula + QStringLiteral(" = ")); });
    };
    const views::Explanation decode = views::explainPlot(0, scenario, e);
    for (model::Quantity q : {memory, model::Quantity::ComputeTime, model::Quantity::Throughput})
        QVERIFY2(startsOneStep(decode, model::formula(q)), qPrintable(model::formula(q) + QStringLiteral("\n") + decode.steps.join(QLatin1Char('\n'))));
    QVERIFY(startsOneStep(views::explainPlot(3, scenario, e), model::formula(model::Quantity::PrefillTime)));

    MainWindow window(scenario);
    window.document()->evaluateNow();
    QCoreApplication::processEvents();
    const QString stepTip = window.numbersPanel()->valueLabel(QStringLiteral("step"))->toolTip();
    QVERIFY2(stepTip.contains(model::formula(memory)) && stepTip.contains(model::formula(model::Quantity::ComputeTime)), qPrintable(stepTip));
    for (const auto& [key, quantity] : {std::pair{QStringLiteral("perUser"), model::Quantity::PerUserSpeed},
                                        std::pair{QStringLiteral("total"), model::Quantity::Throughput},
                                        std::pair{QStringLiteral("prefillTime"), model::Quantity::PrefillTime}}) {
        const QString tip = window.numbersPanel()->valueLabel(key)->toolTip();
        QVERIFY2(tip.contains(model::formula(quantity)), qPrintable(key + QStringLiteral(": ") + tip));
    }
}

void TestNumberTrust::modelSizeRoundTrip()
{
    const model::Scenario start = shipped("incident-drill-13b-a100");
    MainWindow window(start);
    window.show();
    views::ScenarioDocument* document = window.document();
    auto* slider = window.findChild<QSlider*>(QStringLiteral("modelSizeSlider"));
    auto* note = window.findChild<QLabel*>(QStringLiteral("modelSizeNoteLabel"));
    QVERIFY(slider && note);
    slider->setFocus();
    const QJsonObject startJson = model::toJson(start);

    // Right then left returns the exact starting scenario.
    QTest::keyClick(slider, Qt::Key_Right);
    QVERIFY(document->scenario().model.params > start.model.params);
    QTest::keyClick(slider, Qt::Key_Left);
    QVERIFY2(model::toJson(document->scenario()) == startJson, qPrintable(QString::fromStdString(document->scenario().model.name)));

    // Further out, H_kv stays 8 wherever 8 divides H, and the note says so where it cannot.
    bool sawChange = false;
    for (int i = 0; i < 12; ++i) {
        QTest::keyClick(slider, Qt::Key_Right);
        const model::ModelShape& m = document->scenario().model;
        QCOMPARE(m.heads % m.kvHeads, 0);
        if (m.heads % 8 == 0) {
            QCOMPARE(m.kvHeads, 8);
            QVERIFY2(!note->text().contains(QStringLiteral("does not divide")), qPrintable(note->text())); // the shape (L, d, H, h)
        } else {
            sawChange = true;
            QVERIFY(m.kvHeads != 8);
            QVERIFY2(note->text().contains(QStringLiteral("H_kv 8 does not divide H = %1").arg(m.heads)), qPrintable(note->text()));
        }
    }
    QVERIFY2(sawChange, "expected a size whose head count 8 does not divide");
    for (int i = 0; i < 12; ++i)
        QTest::keyClick(slider, Qt::Key_Left);
    QVERIFY2(model::toJson(document->scenario()) == startJson, qPrintable(QString::fromStdString(document->scenario().model.name)));
    QVERIFY2(!note->text().contains(QStringLiteral("does not divide")), qPrintable(note->text()));
}

QTEST_MAIN(TestNumberTrust)
#include "tst_numbertrust.moc"
