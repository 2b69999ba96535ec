// SPDX-License-Identifier: GPL-3.0-or-later
// Serving what-ifs (issue 4): capacity, SLO headroom, workload shape, prefix caching and
// speculative decoding, each through the shared cost model.

#include <cmath>

#include <QtTest>

#include "model/cost/costmodel.h"
#include "model/cost/formulas.h"
#include "model/cost/presets.h"

using namespace ridgeline::model;

namespace {

constexpr double kGiB = 1073741824.0;

Scenario llama8b()
{
    Scenario s = defaultScenario();
    s.model.params = 8.03e9;
    return s;
}

Scenario drill()
{
    for (const ScenarioPreset& p : scenarioPresets())
        if (p.id == "incident-drill-13b-a100")
            return p.scenario;
    qFatal("missing drill scenario");
}

/** A GPU whose KV budget is exactly 16 GiB ("17.18 GB", seed 001). */
Scenario sixteenGiBBudget(int context)
{
    Scenario s = llama8b();
    s.serving.memoryUtilization = 1.0;
    s.hardware.memoryBytes = weightBytes(s.model) + 16 * kGiB;
    s.workload.contextTokens = context;
    return s;
}

} // namespace

class TestServingWhatIfs final : public QObject {
    Q_OBJECT

private slots:
    void capacityContiguousVersusPaged()
    {
        Scenario s = sixteenGiBBudget(8192);
        s.serving.maxContextTokens = 8192;
        Evaluation e = evaluate(s);
        QCOMPARE(e.capacity.kvBudgetBytes, 16 * kGiB);
        QCOMPARE(e.capacity.maxSequencesContiguousAtMaxContext, 16LL); // seed 001: 16 at 8k
        s.serving.maxContextTokens = 131072;
        e = evaluate(s);
        QCOMPARE(e.capacity.maxSequencesContiguousAtMaxContext, 1LL); // and 1 at 128k
        // Paging by what sequences hold (2,000 tokens, 125 blocks of 16) fits far more.
        s.workload.contextTokens = 2000;
        e = evaluate(s);
        QCOMPARE(e.capacity.maxSequencesPaged, static_cast<long long>(std::floor(16 * kGiB / (2000.0 * 131072))));
        QVERIFY(e.capacity.maxSequencesPaged >= 50 * e.capacity.maxSequencesContiguousAtMaxContext);
        // The sweep over max context agrees with the scalar and never rises with max context.
        for (Eigen::Index i = 1; i < e.sweeps.maxContext.size(); ++i)
            QVERIFY(e.sweeps.sequencesContiguous(i) <= e.sweeps.sequencesContiguous(i - 1));
        QCOMPARE(e.sweeps.sequencesPaged(e.sweeps.sequencesPaged.size() - 1), double(e.capacity.maxSequencesPaged));
    }

    void pagedRoundsUpToBlocks()
    {
        Scenario s = sixteenGiBBudget(17); // 17 tokens take two 16-token blocks
        const Evaluation e = evaluate(s);
        QCOMPARE(e.capacity.maxSequencesPaged, static_cast<long long>(std::floor(16 * kGiB / (32.0 * 131072))));
    }

    void requestKvAndFitRegion()
    {
        Scenario s = llama8b();
        s.workload.promptTokens = 30000;
        const Evaluation e = evaluate(s);
        QVERIFY(std::abs(e.capacity.requestKvBytes / kGiB - 3.66) < 0.005 * 3.66); // seed 001: 3.7 GiB; cost-model.md 3.66
        // The largest context that fits at the current batch sits exactly on the budget boundary.
        s.workload.batch = 64;
        const Evaluation f = evaluate(s);
        QVERIFY(f.capacity.maxContextAtBatch.has_value());
        const double fitting = *f.capacity.maxContextAtBatch;
        QVERIFY(64 * fitting * 131072 <= f.capacity.kvBudgetBytes);
        QVERIFY(64 * (fitting + 1) * 131072 > f.capacity.kvBudgetBytes);
        // The fit boundary over context matches the per-context batch limit.
        for (Eigen::Index i = 0; i < f.sweeps.context.size(); i += 20)
            QCOMPARE(f.sweeps.maxBatchFitting(i), std::floor(f.capacity.kvBudgetBytes / (f.sweeps.context(i) * 131072)));
    }

    void weightsThatDoNotFitLeaveNoBudget()
    {
        Scenario s = defaultScenario();
        for (const ModelPreset& p : modelPresets())
            if (p.id == "llama-3.1-405b")
                s.model = p.shape;
        const Evaluation e = evaluate(s);
        QVERIFY(e.capacity.kvBudgetBytes < 0);
        QVERIFY(!e.capacity.fits);
        QCOMPARE(e.capacity.maxSequencesContiguous, 0LL);
        QCOMPARE(e.capacity.maxContextAtBatch.value_or(-1), 0LL);
        QVERIFY((e.sweeps.sequencesContiguous == 0).all());
    }

    void sloHeadroom()
    {
        Scenario s = drill();
        s.workload.itlSloMs = {40};
        s.workload.queueWaitMs = 250;
        const Evaluation e = evaluate(s);
        // "40 ms SLO = 3.1x the 13.0 ms floor" (issue 4, seed 000).
        QCOMPARE(QString::number(e.slo.itlHeadroom.at(0), 'f', 1), QStringLiteral("3.1"));
        QCOMPARE(e.slo.ttftMs, 250 + e.prefill.seconds * 1e3);
        QCOMPARE(e.slo.ttftMet, e.slo.ttftMs <= 800);
        QCOMPARE(e.slo.ttftHeadroom, 800 / e.slo.ttftMs);
    }

    void workloadShape_data()
    {
        QTest::addColumn<int>("prompt");
        QTest::addColumn<int>("output");
        QTest::addColumn<int>("batch");
        QTest::addColumn<bool>("prefillOwns");
        // Seed 002: chat is about 95 % decode; classification is prefill-heavy when batched.
        QTest::newRow("chat 2,000 / 300, B 1") << 2000 << 300 << 1 << false;
        QTest::newRow("classification 1,000 / 20, B 64") << 1000 << 20 << 64 << true;
        QTest::newRow("RAG 8,000 / 200, B 64") << 8000 << 200 << 64 << true;
    }
    void workloadShape()
    {
        QFETCH(int, prompt);
        QFETCH(int, output);
        QFETCH(int, batch);
        QFETCH(bool, prefillOwns);
        Scenario s = llama8b();
        s.efficiency = {0.75, 0.40, 0.40};
        s.workload.promptTokens = prompt;
        s.workload.outputTokens = output;
        s.workload.batch = batch;
        const Evaluation e = evaluate(s);
        QCOMPARE(e.workload.prefillSecondsPerRequest, e.prefill.seconds);
        Scenario decodeAt = s;
        decodeAt.workload.contextTokens = prompt + output / 2;
        QCOMPARE(e.workload.decodeSecondsPerRequest, output * evaluate(decodeAt).decode.stepSeconds / batch);
        QCOMPARE(e.workload.prefillShare >= 0.5, prefillOwns);
        if (prompt == 2000)
            QVERIFY(e.workload.prefillShare < 0.06); // about 95 % decode
    }

    void prefixCaching()
    {
        Scenario s = llama8b();
        s.workload.promptTokens = 1900;
        s.serving.prefixTokens = 1800;
        const Evaluation e = evaluate(s);
        QVERIFY(e.prefixCache.savedSecondsPerRequest > 0);
        QVERIFY(e.prefixCache.savedSecondsPerRequest < e.prefill.seconds);
        // Full-matrix convention: the cached prefix saves 2 N x + 4 L d x P FLOP.
        const double x = 1800, P = 1900;
        QCOMPARE(e.prefixCache.savedFlopPerRequest, 2 * 8.03e9 * x + 4.0 * 32 * 4096 * x * P);
        QVERIFY(e.prefixCache.costPerOutputTokenChange < 0);
        s.serving.prefixHitRate = 0.5;
        QCOMPARE(evaluate(s).prefixCache.savedSecondsPerRequest, 0.5 * e.prefixCache.savedSecondsPerRequest);
        s.serving.prefixTokens = 5000; // longer than the prompt: capped at P
        QCOMPARE(evaluate(s).prefixCache.sharedTokens, 1900.0);
    }

    void speculativeFromTheScenario()
    {
        Scenario s = llama8b();
        s.speculative = {0.7, 4, 0.05, 0.0};
        Evaluation e = evaluate(s);
        QVERIFY(std::abs(e.speculative.speedup - 2.31) < 0.005 * 2.31);
        QVERIFY(std::abs(e.sweeps.speculativeSpeedup(0) - 2.31) < 0.005 * 2.31);
        QVERIFY(std::abs(e.sweeps.speculativeSpeedup(50) - 0.87) < 0.005 * 0.87); // c_v = 0.5
        // The break-even verification cost is where the sweep crosses 1.
        const double cv = e.speculative.breakEvenVerifyCost;
        QVERIFY(std::abs(speculativeDecoding(0.7, 4, 0.05, cv).speedup - 1.0) < 1e-12);
        QVERIFY(cv > 0.3 && cv < 0.5);
        // Memory-bound at batch 1: verifying more positions costs nothing extra.
        QVERIFY(e.speculative.modelVerifyCost < 0.01);
        // Compute-bound (large batch, no cache): verification is no longer free.
        s.workload.contextTokens = 0;
        s.workload.batch = 1024;
        e = evaluate(s);
        QVERIFY(e.speculative.modelVerifyCost > 0.5);
    }
};

QTEST_APPLESS_MAIN(TestServingWhatIfs)
#include "tst_servingwhatifs.moc"
