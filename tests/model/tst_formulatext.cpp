// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 16: one computation of t_step and one source of formula text per quantity.
//  - the three t_step paths (evaluate()'s decode result and t_step(B) sweep, CostTerms::stepSeconds, the
//    simulator's StepCost) agree on a grid of scenarios, batches, contexts and prefill chunks;
//  - docs/cost-model.md writes each formula of the table in model/cost/formulatext.h the same, under the
//    section the table names;
//  - the scenario's own t_step formula is the table's general one with the absent terms left out.
#include <cmath>

#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include "model/cost/costmodel.h"
#include "model/cost/costterms.h"
#include "model/cost/formulatext.h"
#include "model/cost/scenario.h"
#include "model/cost/steptime.h"

using namespace ridgeline::model;

namespace {

double relative(double a, double b)
{
    return std::abs(a - b) / std::max(std::abs(b), 1e-300);
}

/** Llama 3.1 8B bf16 on one H100 (the default) with the variations the rows name. */
Scenario variant(const QString& name)
{
    Scenario s = defaultScenario();
    s.efficiency.bandwidth = 0.75;
    s.efficiency.mfuDecode = 0.40;
    s.efficiency.mfuPrefill = 0.40;
    if (name.contains(QStringLiteral("moe"))) {
        s.model.experts = 8;
        s.model.expertsPerToken = 2;
        s.model.expertParams = 0.7e9;
    }
    if (name.contains(QStringLiteral("window"))) {
        s.model.slidingWindow = 4096;
        s.model.slidingLayers = 16;
    }
    if (name.contains(QStringLiteral("causal")))
        s.model.attention = AttentionFlops::Causal;
    if (name.contains(QStringLiteral("tp4")))
        s.hardware.gpus = 4;
    if (name.contains(QStringLiteral("hybrid"))) {
        s.model.attentionLayers = 8; // 8 of 32 layers hold KV; the rest keep a fixed-size state
        s.model.stateBytesPerSequence = 24.0 * (32 * 128 * 128 * 2 + 8192 * 3 * 2);
    }
    if (name.contains(QStringLiteral("overheads"))) {
        s.efficiency.stepOverheadSeconds = 0.8e-3;
        s.efficiency.prefillOverheadSeconds = 1.5e-3;
        s.efficiency.chunkOverheadSeconds = 0.3e-3;
        s.efficiency.perSequenceOverheadSeconds = 20e-6;
        s.efficiency.kvBandwidth = 0.55;
    }
    return s;
}

/** docs/cost-model.md with every run of white space (line breaks and indents of wrapped lines) one space. */
QString costModelDoc()
{
    QFile file(QStringLiteral(RIDGELINE_SOURCE_DIR "/docs/cost-model.md"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
}

} // namespace

class TestFormulaText final : public QObject {
    Q_OBJECT

private slots:
    void stepPathsAgree_data()
    {
        QTest::addColumn<QString>("variation");
        for (const char* row : {"dense", "moe", "window causal", "tp4", "hybrid", "overheads", "moe window tp4 overheads",
                                "hybrid causal overheads tp4"})
            QTest::newRow(row) << QString::fromLatin1(row);
    }

    /** evaluate() (read-out and sweep), CostTerms::stepSeconds and StepCost give one t_step (within 1e-12 relative). */
    void stepPathsAgree()
    {
        QFETCH(QString, variation);
        Scenario s = variant(variation);
        QVERIFY(validate(s).empty());
        for (int context : {1, 100, 2200, 8192, 40000, 131072}) {
            s.workload.contextTokens = context;
            const CostTerms terms = costTerms(s);
            const StepCost cost(s);
            Evaluation e = evaluate(s);
            // The sweep: every grid batch against CostTerms (real-valued B).
            for (Eigen::Index i = 0; i < e.sweeps.batch.size(); ++i) {
                const double batch = e.sweeps.batch(i);
                QVERIFY2(relative(e.sweeps.stepMs(i), terms.stepSeconds(batch, context) * 1e3) < 1e-12,
                         qPrintable(QStringLiteral("sweep B %1 S %2").arg(batch).arg(context)));
                QVERIFY(relative(e.sweeps.memoryMs(i), terms.decodeMemorySeconds(batch, context) * 1e3) < 1e-12);
                QVERIFY(relative(e.sweeps.computeMs(i), terms.decodeComputeSeconds(batch, context) * 1e3) < 1e-12);
            }
            // Whole batches: the read-out, CostTerms and the simulator's step of B sequences at S.
            for (int batch : {1, 2, 7, 64, 300, 1024}) {
                s.workload.batch = batch;
                evaluate(s, e);
                StepTotals totals;
                for (int k = 0; k < batch; ++k)
                    cost.addDecode(totals, context);
                const double viaTerms = terms.stepSeconds(batch, context);
                QVERIFY2(relative(e.decode.stepSeconds, viaTerms) < 1e-12, qPrintable(QStringLiteral("read-out B %1 S %2").arg(batch).arg(context)));
                QVERIFY2(relative(cost.seconds(totals), viaTerms) < 1e-12, qPrintable(QStringLiteral("StepCost B %1 S %2").arg(batch).arg(context)));
                const StepBreakdown parts = cost.breakdown(totals);
                QVERIFY(relative(parts.memorySeconds, e.decode.memorySeconds) < 1e-12);
                QVERIFY(relative(parts.computeSeconds, e.decode.computeSeconds) < 1e-12);
                QCOMPARE(parts.commSeconds > 0, s.hardware.gpus > 1);
            }
        }
    }

    void prefillChunksAgree_data() { stepPathsAgree_data(); }

    /**
     * A whole prompt as one chunk is the cost model's t_pre plus the one chunk's t_chunk (hybrids included: the
     * prefill writes each sequence's fixed-size state once); chunks of a causal prompt score the same pairs.
     */
    void prefillChunksAgree()
    {
        QFETCH(QString, variation);
        Scenario s = variant(variation);
        const StepCost cost(s);
        for (int prompt : {1, 16, 300, 2048, 32768}) {
            s.workload.promptTokens = prompt;
            StepTotals whole;
            cost.addPrefill(whole, 0, prompt);
            const double expected = evaluate(s).prefill.seconds + s.efficiency.chunkOverheadSeconds;
            QVERIFY2(relative(cost.seconds(whole), expected) < 1e-12,
                     qPrintable(QStringLiteral("P %1: step %2 s, t_pre + t_chunk %3 s").arg(prompt).arg(cost.seconds(whole)).arg(expected)));
            // A mixed step: the decodes and the chunks priced by the one step time, chunk by chunk.
            StepTotals decodes;
            for (int k = 0; k < 16; ++k)
                cost.addDecode(decodes, 3000);
            StepTotals mixed = decodes;
            for (int offset = 0; offset < prompt; offset += 512)
                cost.addPrefill(mixed, offset, std::min(512, prompt - offset));
            QCOMPARE(cost.seconds(mixed), costTerms(s).step(mixed).seconds);
            QVERIFY(cost.seconds(mixed) > cost.seconds(decodes)); // the chunks add work to the decodes' step
        }
    }

    /** docs/cost-model.md states every formula of the table as the source writes it, in the section it names. */
    void docStatesEachFormula()
    {
        const QString doc = costModelDoc();
        QVERIFY2(!doc.isEmpty(), "docs/cost-model.md not read");
        QCOMPARE(formulaTable().size(), size_t(Quantity::AttentionShare) + 1);
        for (size_t i = 0; i < formulaTable().size(); ++i) {
            const FormulaEntry& row = formulaTable()[i];
            QCOMPARE(size_t(row.quantity), i);
            QCOMPARE(formula(row.quantity), row.symbols);
            const QString text = asciiFormula(row.symbols);
            const qsizetype section = doc.indexOf(QString::fromUtf8(row.docSection));
            QVERIFY2(section >= 0, row.docSection);
            QVERIFY2(doc.indexOf(text, section) >= 0,
                     qPrintable(QStringLiteral("docs/cost-model.md does not write \"%1\" (%2) under \"%3\"")
                                    .arg(text, QString::fromLatin1(row.id), QString::fromUtf8(row.docSection))));
        }
    }

    /** The scenario's t_step formula is the general one with each term the scenario adds, in the same order. */
    void stepFormulaIsTheGeneralOne()
    {
        Scenario s = variant(QStringLiteral("tp4 overheads"));
        QCOMPARE(stepTimeFormula(s, evaluate(s)).symbols, formula(Quantity::StepTime));
        s = variant(QStringLiteral("dense"));
        const QString plain = stepTimeFormula(s, evaluate(s)).symbols;
        QVERIFY(formula(Quantity::StepTime).startsWith(plain + QStringLiteral(" + ")));
        QCOMPARE(prefillFlopFormula(s, evaluate(s)).symbols, formula(Quantity::PrefillFlop));
        QCOMPARE(attentionShareFormula(s, evaluate(s)).symbols, formula(Quantity::AttentionShare));
        s.workload.batch = 1; // memory-bound: the dense line a + b·B
        QCOMPARE(evaluate(s).decode.bound, Bound::Memory);
        QCOMPARE(stepLineFormula(s, evaluate(s)).symbols, formula(Quantity::StepLine));
    }

    /** Issue 14 trial: at TP16 across nodes the report's prefill read "compute-bound" while most of its time was the
     *  all-reduces, and the formula's weight term read W, not each GPU's W / T. */
    void tensorParallelFormulasSplitTheWeightsAndNameTheLargestTerm()
    {
        Scenario s = defaultScenario();
        s.model.params = 70.6e9;
        s.model.layers = 80;
        s.model.hidden = 8192;
        s.model.heads = 64;
        s.model.kvHeads = 8;
        s.hardware.gpus = 16; // wider than the 8-GPU scale-up domain: the all-reduces run at the inter-node link
        QVERIFY(validate(s).empty());
        const Evaluation e = evaluate(s);
        QVERIFY2(e.prefill.commSeconds > std::max(e.prefill.computeSeconds, e.prefill.memorySeconds),
                 qPrintable(QStringLiteral("comm %1 s, compute %2 s").arg(e.prefill.commSeconds).arg(e.prefill.computeSeconds)));
        QCOMPARE(e.prefill.bound, Bound::Compute); // the JSON key "bound" keeps its meaning: t_comp against t_mem
        QCOMPARE(largestTimeTerm(e.prefill), TimeTerm::Communication);
        const FormulaText time = prefillTimeFormula(s, e);
        QVERIFY2(time.note.startsWith(QStringLiteral("communication-bound")), qPrintable(time.note));
        // 8 KV heads over 16 GPUs: one whole head each, not kv_tok / 16.
        QVERIFY2(time.symbols.contains(QStringLiteral("W / T + P\u00b7kv_tok,GPU")), qPrintable(time.symbols));
        QVERIFY2(time.symbols.contains(QStringLiteral("T\u00b7F_peak")), qPrintable(time.symbols));
        s.hardware.gpus = 4; // 2 heads each: the even split
        const Evaluation four = evaluate(s);
        QVERIFY2(prefillTimeFormula(s, four).symbols.contains(QStringLiteral("W / T + P\u00b7kv_tok / T")), qPrintable(prefillTimeFormula(s, four).symbols));
        s.workload.batch = 1; // memory-bound decode: the line's intercept is each GPU's weights
        QVERIFY2(stepLineFormula(s, evaluate(s)).note.contains(QStringLiteral("a = W / T / (BW")) ||
                     stepLineFormula(s, evaluate(s)).note.contains(QStringLiteral("a = (W \u2212 V\u00b7d\u00b7b_e) / T / (BW")),
                 qPrintable(stepLineFormula(s, evaluate(s)).note));
        s.hardware.gpus = 1; // one GPU: the general formula, unchanged
        QCOMPARE(prefillTimeFormula(s, evaluate(s)).symbols, formula(Quantity::PrefillTime));
    }
};

QTEST_APPLESS_MAIN(TestFormulaText)
#include "tst_formulatext.moc"
