// SPDX-License-Identifier: GPL-3.0-or-later
// The serving simulator (issue 9): the mixed-batch step time against the cost model, the workload
// generator, the shapes of seed 001 section 3 (and seed 000 ticket B4) on traces built for each, and
// the simulation file's parser. Every run is deterministic; figures are printed with qInfo.

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>
#include <random>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "model/cost/costmodel.h"
#include "model/files/simulationfile.h"
#include "model/sim/simulator.h"
#include "model/cost/steptime.h"

using namespace ridgeline::model;

namespace {

/** Llama 3.1 8B bf16 on one H100 SXM at the seeds' planning efficiencies (eta_bw 0.75, MFU 0.40). */
Scenario planning()
{
    Scenario s = defaultScenario();
    s.efficiency.bandwidth = 0.75;
    s.efficiency.mfuPrefill = 0.40;
    s.efficiency.mfuDecode = 0.40;
    return s;
}

LengthDistribution fixedTokens(double v)
{
    LengthDistribution d;
    d.kind = LengthDistribution::Kind::Fixed;
    d.value = v;
    return d;
}

LengthDistribution logNormal(double median, double p99)
{
    LengthDistribution d;
    d.kind = LengthDistribution::Kind::LogNormal;
    d.median = median;
    d.p99 = p99;
    return d;
}

RequestClass poisson(const char* name, double rate, LengthDistribution prompt, LengthDistribution output)
{
    RequestClass k;
    k.name = name;
    k.ratePerSecond = rate;
    k.prompt = prompt;
    k.output = output;
    return k;
}

double relative(double a, double b)
{
    return std::abs(a - b) / std::max(std::abs(a), std::abs(b));
}

/** A minimal valid simulation file with @p simulationExtra spliced into "simulation". */
QByteArray simulationJson(const char* simulationExtra, const char* top = "")
{
    return QByteArray(R"({)") + top
           + R"("simulation": {)" + simulationExtra
           + R"("requests": 10, "classes": [{"name": "chat", "rate_per_s": 1, "prompt": {"dist": "fixed", "value": 100},
                "output": {"dist": "fixed", "value": 10}}]}})";
}

} // namespace

class TestSimulator final : public QObject {
    Q_OBJECT

private slots:
    // -- the step time of a mixed batch --------------------------------------------------------

    void stepTimeMatchesCostModel_data()
    {
        QTest::addColumn<int>("gpus");
        QTest::addColumn<bool>("moe");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<int>("window");
        QTest::addColumn<double>("overhead");
        QTest::newRow("8B H100 (seed 001)") << 1 << false << false << 0 << 0.0;
        QTest::newRow("8B on 4 GPUs, tensor parallel") << 4 << false << false << 0 << 0.0;
        QTest::newRow("MoE 8 experts top-2") << 1 << true << false << 0 << 0.0;
        QTest::newRow("causal attention") << 1 << false << true << 0 << 0.0;
        QTest::newRow("half the layers slide over 4k") << 2 << false << false << 4096 << 0.0;
        QTest::newRow("fixed step and prefill overheads") << 1 << false << false << 0 << 0.4e-3;
    }
    void stepTimeMatchesCostModel()
    {
        QFETCH(int, gpus);
        QFETCH(bool, moe);
        QFETCH(bool, causal);
        QFETCH(int, window);
        QFETCH(double, overhead);
        Scenario s = planning();
        s.efficiency.stepOverheadSeconds = overhead;
        s.efficiency.prefillOverheadSeconds = 3 * overhead;
        s.hardware.gpus = gpus;
        if (moe) {
            s.model.experts = 8;
            s.model.expertsPerToken = 2;
            s.model.expertParams = 0.7e9;
        }
        if (causal)
            s.model.attention = AttentionFlops::Causal;
        if (window > 0) {
            s.model.slidingWindow = window;
            s.model.slidingLayers = 16;
        }
        QVERIFY(validate(s).empty());
        for (int batch : {1, 7, 64, 300}) {
            for (int context : {100, 2200, 8192, 40000}) {
                s.workload.contextTokens = context;
                StepLoad load;
                load.decodeContexts.assign(size_t(batch), double(context));
                QVERIFY2(relative(mixedStepSeconds(s, load), stepSecondsAt(s, batch)) < 1e-12,
                         qPrintable(QStringLiteral("B %1 S %2").arg(batch).arg(context)));
            }
        }
        for (int prompt : {16, 300, 2048, 32768}) {
            s.workload.promptTokens = prompt;
            StepLoad load;
            load.prefillChunks.push_back({double(prompt), 0.0});
            QVERIFY2(relative(mixedStepSeconds(s, load), evaluate(s).prefill.seconds) < 1e-12, qPrintable(QString::number(prompt)));
        }
    }

    void chunkingConservesCausalAttention()
    {
        // Causal: the chunks' (query, key) pairs telescope to the whole prompt's P^2 / 2.
        Scenario s = planning();
        s.model.attention = AttentionFlops::Causal;
        const StepCost cost(s);
        StepTotals whole, chunks;
        cost.addPrefill(whole, 0, 10000);
        for (int offset = 0; offset < 10000; offset += 512)
            cost.addPrefill(chunks, offset, std::min(512, 10000 - offset));
        QVERIFY(relative(whole.prefillPairs, chunks.prefillPairs) < 1e-12);
        QVERIFY(relative(cost.breakdown(whole).computeSeconds, cost.breakdown(chunks).computeSeconds) < 1e-12);
        // A decode is a chunk of one token: the mixed step adds prefill to decode work.
        StepTotals mixed;
        cost.addDecode(mixed, 3000);
        cost.addPrefill(mixed, 0, 512);
        StepTotals decodeOnly;
        cost.addDecode(decodeOnly, 3000);
        QVERIFY(cost.seconds(mixed) > cost.seconds(decodeOnly));
    }

    // -- the workload ----------------------------------------------------------------------------

    void samplingIsDeterministicAndShaped()
    {
        std::mt19937_64 g(42);
        const LengthDistribution ln = logNormal(2000, 8000);
        std::vector<double> v;
        for (int i = 0; i < 40000; ++i)
            v.push_back(sampleLength(ln, g));
        std::sort(v.begin(), v.end());
        const double median = v[v.size() / 2], p99 = v[size_t(0.99 * double(v.size()))];
        qInfo("log-normal median 2000 p99 8000: sampled median %.0f, p99 %.0f", median, p99);
        QVERIFY(relative(median, 2000) < 0.03);
        QVERIFY(relative(p99, 8000) < 0.06);

        LengthDistribution u;
        u.kind = LengthDistribution::Kind::Uniform;
        u.min = 10;
        u.max = 12;
        int seen[3] = {0, 0, 0};
        for (int i = 0; i < 3000; ++i) {
            const int x = sampleLength(u, g);
            QVERIFY(x >= 10 && x <= 12);
            ++seen[x - 10];
        }
        QVERIFY(seen[0] > 900 && seen[1] > 900 && seen[2] > 900);
        QCOMPARE(sampleLength(fixedTokens(300), g), 300);

        SimulationConfig c;
        c.durationSeconds = 100;
        c.classes.push_back(poisson("chat", 10, logNormal(500, 2000), logNormal(100, 800)));
        RequestClass job = poisson("job", 0, fixedTokens(8000), fixedTokens(2000));
        job.count = 25;
        job.startSeconds = 40;
        job.priority = Priority::Batch;
        c.classes.push_back(job);
        const std::vector<Request> a = generateRequests(c), b = generateRequests(c);
        QCOMPARE(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i)
            QVERIFY(a[i].arrivalSeconds == b[i].arrivalSeconds && a[i].promptTokens == b[i].promptTokens
                    && a[i].outputTokens == b[i].outputTokens && a[i].classIndex == b[i].classIndex);
        QVERIFY(std::is_sorted(a.begin(), a.end(), [](const Request& x, const Request& y) { return x.arrivalSeconds < y.arrivalSeconds; }));
        const long long jobs = std::count_if(a.begin(), a.end(), [](const Request& r) { return r.classIndex == 1; });
        QCOMPARE(jobs, 25LL);
        QVERIFY(std::abs(double(a.size() - 25) - 1000.0) < 100.0); // Poisson: 1000 +- 3 sigma
        c.seed = 2;
        QVERIFY(generateRequests(c)[0].arrivalSeconds != a[0].arrivalSeconds);
        // The chat stream does not move when another class is added: streams are per class.
        SimulationConfig only = c;
        only.seed = 1;
        only.classes.pop_back();
        const std::vector<Request> chat = generateRequests(only);
        QCOMPARE(chat[5].arrivalSeconds, a[5].arrivalSeconds);
        // requests: N keeps the first N arrivals.
        only.durationSeconds.reset();
        only.requests = 50;
        QCOMPARE(generateRequests(only).size(), size_t(50));
    }

    // -- TensorRT-LLM's dynamic batch tuner (h13bf) --------------------------------------------------

    void dynamicBatchTunerFollowsTensorRtLlmsRule()
    {
        // The values of TensorRT-LLM's own unit test of DynamicBatchTuner (window 1: the last request's lengths).
        QCOMPARE(dynamicBatchRuntimeMaxNumTokens(100, 2, 1), 8192);     // context heavy
        QCOMPARE(dynamicBatchRuntimeMaxNumTokens(100, 2, 256), 16384);  // context heavy, B (r + 1) above the threshold
        QCOMPARE(dynamicBatchRuntimeMaxNumTokens(100, 100, 1), 4096);   // balanced
        QCOMPARE(dynamicBatchRuntimeMaxNumTokens(100, 100, 4000), 8192);
        QCOMPARE(dynamicBatchRuntimeMaxNumTokens(2, 256, 1), 2048);     // generation heavy
        QCOMPARE(dynamicBatchRuntimeMaxNumTokens(2, 256, 4000), 4096);
        QCOMPARE(dynamicBatchRuntimeBatchSize(831), 768);
        QCOMPARE(dynamicBatchRuntimeBatchSize(1279), 1024);
        QCOMPARE(dynamicBatchRuntimeBatchSize(1663), 1536);
        QCOMPARE(dynamicBatchRuntimeBatchSize(2049), 2048); // above the table: a multiple of 512 less than 128 below
        QCOMPARE(dynamicBatchRuntimeBatchSize(1665), 1665);
        QCOMPARE(dynamicBatchRuntimeBatchSize(100), 128);
    }

    void dynamicBatchTunerSetsTheStepBudgetByWorkload()
    {
        // 40 requests at once under TensorRT-LLM's in-flight batching with a static max_num_tokens of 65,536 that
        // binds no step here: the most prompt tokens one step takes, without and with the tuner, at ISL / OSL
        // 200 / 200 (ratio 1: 4,096 tokens, 20 prompts) and 2,000 / 200 (ratio 10, context heavy: 8,192, 4 prompts).
        auto mostPromptTokens = [](int prompt, bool tuning) {
            SimulationConfig c;
            c.policy = BatchingPolicy::Chunked;
            c.scheduler = SchedulerVersion::TrtllmInflight;
            c.tokenBudget = 65536;
            c.dynamicBatchTuning = tuning;
            c.recordStepTimes = true;
            c.classes.push_back(poisson("burst", 0, fixedTokens(prompt), fixedTokens(200)));
            const std::vector<Request> trace(40, Request{0.0, prompt, 200, 0});
            const SimulationResult r = simulate(planning(), c, trace);
            return *std::max_element(r.stepPrefillTokens.begin(), r.stepPrefillTokens.end());
        };
        QCOMPARE(mostPromptTokens(200, false), 8000.0);   // every prompt in the first step
        QCOMPARE(mostPromptTokens(2000, false), 64000.0); // 32 prompts within 65,536
        QCOMPARE(mostPromptTokens(200, true), 4000.0);    // 20 prompts within 4,096
        QCOMPARE(mostPromptTokens(2000, true), 8000.0);   // 4 prompts within 8,192
    }

    // -- against the analytical model --------------------------------------------------------------

    void oneRequestMatchesAnalyticalModel()
    {
        const Scenario s = planning();
        SimulationConfig c;
        c.recordTokenTimes = true;
        c.classes.push_back(poisson("one", 0, fixedTokens(2000), fixedTokens(64)));
        const int prompt = 2000, output = 64;
        const std::vector<Request> trace{Request{0.0, prompt, output, 0}};
        const SimulationResult r = simulate(s, c, trace);
        const RequestResult& q = r.requests[0];
        Scenario at = s;
        at.workload.promptTokens = prompt;
        const double prefill = evaluate(at).prefill.seconds;
        QVERIFY(relative(q.ttftSeconds(), prefill) < 1e-12);
        QCOMPARE(q.queueWaitSeconds(), 0.0);
        QCOMPARE(r.tokenOffsets[1], 64LL);
        for (int k = 1; k < output; ++k) {
            // Token k + 1 comes from the decode step that feeds token k: the sequence then holds P + k tokens.
            at.workload.contextTokens = prompt + k;
            const double itl = r.tokenTimes[size_t(k)] - r.tokenTimes[size_t(k - 1)];
            QVERIFY2(relative(itl, stepSecondsAt(at, 1)) < 1e-9, qPrintable(QString::number(k)));
        }
        at.workload.contextTokens = prompt + 1;
        qInfo("one request: TTFT %.3f ms = t_pre(2000); first ITL %.4f ms = t_step(1) at S = 2001", q.ttftSeconds() * 1e3,
              stepSecondsAt(at, 1) * 1e3);
        QCOMPARE(r.all.completed, 1LL);
        QCOMPARE(r.steps, 64LL);
    }

    void engineArrivalRecordsTheFrontEndAndTheDelay()
    {
        // RequestResult::engineArrivalSeconds: when the engine saw a request. Three requests sent at 0, 0 and 10 ms
        // through a serial front end of 4 ms (FIFO) and a per-request delay of 2 ms: handed over at 4, 8 and 14 ms
        // (the third waits for no one), seen at 6, 10 and 16 ms; without either the engine sees each as it is sent.
        Scenario s = planning();
        SimulationConfig c;
        c.classes.push_back(poisson("one", 0, fixedTokens(200), fixedTokens(8)));
        const std::vector<Request> trace{Request{0.0, 200, 8, 0}, Request{0.0, 200, 8, 0}, Request{10e-3, 200, 8, 0}};
        const SimulationResult plain = simulate(s, c, trace);
        QCOMPARE(plain.requests.size(), trace.size());
        for (size_t i = 0; i < trace.size(); ++i)
            QCOMPARE(plain.requests[i].engineArrivalSeconds, trace[i].arrivalSeconds);
        s.efficiency.frontendSerialSeconds = 4e-3;
        s.efficiency.ttftOverheadSeconds = 2e-3;
        const SimulationResult r = simulate(s, c, trace);
        const double seen[] = {6e-3, 10e-3, 16e-3};
        for (size_t i = 0; i < trace.size(); ++i) {
            const RequestResult& q = r.requests[i];
            QVERIFY2(std::abs(q.engineArrivalSeconds - seen[i]) < 1e-15, qPrintable(QStringLiteral("request %1: %2 s").arg(i).arg(q.engineArrivalSeconds)));
            QCOMPARE(q.arrivalSeconds, trace[i].arrivalSeconds);
            QVERIFY(q.admittedSeconds >= q.engineArrivalSeconds); // no step takes a request before the engine has it
        }
    }

    // -- seed 001, 3.2(a): static against continuous batching ----------------------------------------

    void continuousBeatsStaticBatching()
    {
        const Scenario s = planning();
        SimulationConfig c;
        c.requests = 1000;
        c.maxSequences = 16;
        c.itlSloMs = 50;
        c.ttftSloMs = 5000;
        // Long-tailed outputs: median 100 tokens, p99 800.
        c.classes.push_back(poisson("chat", 8, logNormal(500, 2000), logNormal(100, 800)));
        const std::vector<Request> trace = generateRequests(c);
        c.policy = BatchingPolicy::Static;
        const SimulationResult st = simulate(s, c, trace);
        c.policy = BatchingPolicy::Continuous;
        const SimulationResult co = simulate(s, c, trace);
        const double ratio = co.all.throughputTokensPerSecond / st.all.throughputTokensPerSecond;
        qInfo("static %.0f tok/s (%.0f %% of slot-time on finished sequences, goodput %.0f %%); continuous %.0f tok/s "
              "(goodput %.0f %%): %.2fx (seed 001: 816 vs 1541 tok/s, 71 %%, 8 %% vs 100 %%)",
              st.all.throughputTokensPerSecond, st.finishedSlotFraction * 100, st.all.goodputFraction * 100,
              co.all.throughputTokensPerSecond, co.all.goodputFraction * 100, ratio);
        QVERIFY(ratio >= 1.8);
        QVERIFY(st.finishedSlotFraction > 0.5);
        QCOMPARE(co.finishedSlotFraction, 0.0);
        QVERIFY(co.all.goodputFraction > st.all.goodputFraction + 0.5);
        QCOMPARE(st.all.completed, 1000LL);
        QCOMPARE(co.all.completed, 1000LL);
    }

    // -- seed 001, 3.4: chunked prefill against whole-prompt prefill ---------------------------------

    void chunkedPrefillCutsTheItlTail()
    {
        const Scenario s = planning();
        SimulationConfig c;
        c.durationSeconds = 120;
        c.maxSequences = 64;
        c.tokenBudget = 512;
        // Streaming chat decodes, and now and then an 8k-token prompt.
        c.classes.push_back(poisson("chat", 4, fixedTokens(200), logNormal(300, 1000)));
        c.classes.push_back(poisson("long prompts", 0.2, fixedTokens(8000), fixedTokens(50)));
        const std::vector<Request> trace = generateRequests(c);
        c.policy = BatchingPolicy::Continuous;
        const SimulationResult whole = simulate(s, c, trace);
        c.policy = BatchingPolicy::Chunked;
        const SimulationResult chunked = simulate(s, c, trace);
        const LatencySummary& w = whole.all.latency;
        const LatencySummary& k = chunked.all.latency;
        qInfo("whole-prompt prefill: mean TPOT %.2f ms, p99 ITL %.1f ms, max ITL %.1f ms; chunked (512): %.2f, %.1f, %.1f ms; "
              "max ITL %.1fx (seed 001: 7.79 / 69.9 / 293.1 against 7.76 / 29.6 / 29.8)",
              w.tpot.mean * 1e3, w.itl.p99 * 1e3, w.itl.max * 1e3, k.tpot.mean * 1e3, k.itl.p99 * 1e3, k.itl.max * 1e3,
              w.itl.max / k.itl.max);
        QVERIFY(w.itl.max >= 5.0 * k.itl.max);
        QVERIFY(relative(w.tpot.mean, k.tpot.mean) < 0.05);
        QVERIFY(relative(whole.all.throughputTokensPerSecond, chunked.all.throughputTokensPerSecond) < 0.02);
        // The stall is one step holding a whole 8k prompt: at least the prompt's prefill time.
        Scenario at = s;
        at.workload.promptTokens = 8000;
        QVERIFY(w.itl.max >= evaluate(at).prefill.seconds);
    }

    // -- seed 001, 3.1: the goodput-optimal cap -------------------------------------------------------

    void goodputCapBelowThroughputCap()
    {
        const Scenario s = planning();
        SimulationConfig c;
        c.requests = 2000;
        c.policy = BatchingPolicy::Chunked;
        c.tokenBudget = 2048;
        c.itlSloMs = 25;
        c.ttftSloMs = 1e9; // queueing set aside: only the ITL SLO binds
        // More traffic than any cap serves, so the queue never empties and the cap sets the batch.
        c.classes.push_back(poisson("chat", 100, logNormal(1500, 6000), logNormal(150, 800)));
        c.sweepMaxSequences = {8, 16, 32, 64, 128, 256};
        const std::vector<SweepPoint> sweep = sweepMaxSequences(s, c, generateRequests(c));
        QCOMPARE(sweep.size(), size_t(6));
        const SweepPoint* bestGoodput = &sweep[0];
        const SweepPoint* bestThroughput = &sweep[0];
        for (const SweepPoint& p : sweep) {
            qInfo("cap %3d: %7.1f tok/s, goodput %.2f req/s (%.0f %%), p95 TPOT %.1f ms", p.maxSequences,
                  p.throughputTokensPerSecond, p.goodputRequestsPerSecond, p.goodputFraction * 100, p.p95TpotSeconds * 1e3);
            if (p.goodputRequestsPerSecond > bestGoodput->goodputRequestsPerSecond)
                bestGoodput = &p;
            if (p.throughputTokensPerSecond > bestThroughput->throughputTokensPerSecond)
                bestThroughput = &p;
        }
        qInfo("goodput-optimal cap %d, throughput-optimal cap %d (seed 001: 32 and 128)", bestGoodput->maxSequences,
              bestThroughput->maxSequences);
        QVERIFY(bestGoodput->maxSequences < bestThroughput->maxSequences);
        QVERIFY(bestThroughput->throughputTokensPerSecond > 1.1 * bestGoodput->throughputTokensPerSecond);
    }

    // -- seed 001, 3.3: paged against contiguous KV admission -------------------------------------------

    void pagedAdmissionHoldsManyMoreSequences()
    {
        Scenario s = planning();
        s.serving.maxContextTokens = 131072;
        SimulationConfig c;
        c.requests = 500;
        c.maxSequences = 256;
        c.classes.push_back(poisson("chat", 50, fixedTokens(2000), fixedTokens(200)));
        const std::vector<Request> trace = generateRequests(c);
        c.kvAdmission = KvAdmission::Contiguous;
        const SimulationResult contiguous = simulate(s, c, trace);
        c.kvAdmission = KvAdmission::Paged;
        const SimulationResult paged = simulate(s, c, trace);
        s.workload.contextTokens = 2200;
        const Evaluation e = evaluate(s);
        qInfo("128k max context: contiguous holds %d sequences at once (cost model: %lld), paged %d (%.0fx; seed 001: 1 vs 67); "
              "paged preemptions %lld",
              contiguous.peakSequences, e.capacity.maxSequencesContiguousAtMaxContext, paged.peakSequences,
              double(paged.peakSequences) / contiguous.peakSequences, paged.preemptions);
        QCOMPARE(static_cast<long long>(contiguous.peakSequences), e.capacity.maxSequencesContiguousAtMaxContext);
        QVERIFY(paged.peakSequences >= 10 * contiguous.peakSequences);
        QVERIFY(paged.all.throughputTokensPerSecond > 3.0 * contiguous.all.throughputTokensPerSecond);
        QCOMPARE(paged.all.completed, 500LL);
        QVERIFY(paged.kvBlocksPeak <= paged.kvBlocksTotal);
        QCOMPARE(paged.kvBlocksTotal, std::floor(e.capacity.kvBudgetBytes / (16.0 * e.decode.kvBytesPerTokenPerGpu / 32.0)) / 32.0);
    }

    void preemptionByRecompute()
    {
        Scenario s = planning();
        s.hardware.memoryBytes = weightBytes(s.model) / 0.9 + 2e9; // a 2 GB KV budget: about 950 blocks
        SimulationConfig c;
        c.requests = 200;
        c.maxSequences = 64;
        c.classes.push_back(poisson("chat", 20, fixedTokens(1000), logNormal(300, 1500)));
        const std::vector<Request> trace = generateRequests(c);
        // Every policy drains the trace, however often it preempts.
        for (BatchingPolicy policy : {BatchingPolicy::Static, BatchingPolicy::Chunked}) {
            SimulationConfig other = c;
            other.policy = policy;
            const SimulationResult r = simulate(s, other, trace);
            QCOMPARE(r.all.completed, 200LL);
            QVERIFY(r.preemptions > 0);
        }
        const SimulationResult r = simulate(s, c, trace);
        qInfo("2 GB of KV: %lld preemptions, %.0f tokens recomputed, peak %.0f of %.0f blocks, max ITL %.0f ms", r.preemptions,
              r.recomputedTokens, r.kvBlocksPeak, r.kvBlocksTotal, r.all.latency.itl.max * 1e3);
        QVERIFY(r.preemptions > 0);
        QVERIFY(r.recomputedTokens > 0);
        QCOMPARE(r.all.completed, 200LL);
        QVERIFY(r.kvBlocksPeak <= r.kvBlocksTotal);
        QVERIFY(r.kvBlocksPeak > 0.9 * r.kvBlocksTotal);
        // Each request's tokens are all produced once, in order.
        for (const RequestResult& q : r.requests)
            QVERIFY(q.finishedSeconds >= q.firstTokenSeconds && q.firstTokenSeconds > q.admittedSeconds);
        QVERIFY(!r.kvSeries.empty() && r.kvSeries.size() <= size_t(2 * c.kvSeriesPoints));
        double peak = 0;
        for (const KvSample& k : r.kvSeries)
            peak = std::max(peak, k.blocks);
        QCOMPARE(peak, r.kvBlocksPeak);
    }

    void oversizedRequestsAreRejected()
    {
        Scenario s = planning();
        s.serving.maxContextTokens = 8192;
        SimulationConfig c;
        c.classes.push_back(poisson("chat", 0, fixedTokens(1), fixedTokens(1)));
        const std::vector<Request> trace{Request{0.0, 8150, 100, 0}, Request{0.0, 100, 100, 0}, Request{1.0, 100, 50, 0}};
        const SimulationResult r = simulate(s, c, trace);
        QVERIFY(r.requests[0].rejected);
        QVERIFY(!r.requests[1].rejected && !r.requests[2].rejected);
        QCOMPARE(r.all.rejected, 1LL);
        QCOMPARE(r.all.completed, 2LL);
        QVERIFY(r.all.goodputFraction <= 2.0 / 3.0);
    }

    // -- seed 000, ticket B4: a batch job beside chat -----------------------------------------------

    void admissionRuleProtectsChatFromBatchJob()
    {
        const Scenario s = planning();
        SimulationConfig c;
        c.durationSeconds = 120;
        c.policy = BatchingPolicy::Chunked;
        c.tokenBudget = 1024;
        c.maxSequences = 128;
        c.itlSloMs = 50;
        c.ttftSloMs = 1000;
        c.batchPrefillTokenCap = 256;
        c.classes.push_back(poisson("chat", 5, logNormal(1000, 4000), logNormal(150, 800)));
        RequestClass job = poisson("batch job", 0, fixedTokens(8000), fixedTokens(2000));
        job.priority = Priority::Batch;
        job.count = 40;
        job.startSeconds = 30;
        c.classes.push_back(job);
        const std::vector<Request> trace = generateRequests(c);

        SimulationConfig chatOnly = c;
        chatOnly.classes[1].count = 0;
        const SimulationResult quiet = simulate(s, chatOnly, generateRequests(chatOnly));
        const SimulationResult none = simulate(s, c, trace);
        const double sloS = c.ttftSloMs / 1000.0;
        qInfo("chat p95 TTFT: %.0f ms alone, %.0f ms with the batch job (rule none); batch job %.0f tok/s",
              quiet.classes[0].latency.ttft.p95 * 1e3, none.classes[0].latency.ttft.p95 * 1e3,
              none.classes[1].throughputTokensPerSecond);
        QVERIFY(quiet.classes[0].latency.ttft.p95 < sloS);
        QVERIFY(none.classes[0].latency.ttft.p95 > 3 * sloS);
        QCOMPARE(none.classes[1].completed, 40LL);

        for (AdmissionRule rule : {AdmissionRule::SeparateQueues, AdmissionRule::PrefillTokenCap}) {
            c.admissionRule = rule;
            const SimulationResult r = simulate(s, c, trace);
            qInfo("rule %s: chat p95 TTFT %.0f ms; batch job %lld of 40 done, %.0f tok/s, last done at %.1f s (rule none: %.1f s)",
                  rule == AdmissionRule::SeparateQueues ? "separate_queues" : "prefill_token_cap (256)", r.classes[0].latency.ttft.p95 * 1e3, r.classes[1].completed, r.classes[1].throughputTokensPerSecond,
                  r.classes[1].latency.endToEnd.max + 30, none.classes[1].latency.endToEnd.max + 30);
            QVERIFY(r.classes[0].latency.ttft.p95 < sloS);
            // Not starved: the whole job finishes, at the same rate, at most 10 % later.
            QCOMPARE(r.classes[1].completed, 40LL);
            QVERIFY(r.classes[1].throughputTokensPerSecond >= 0.95 * none.classes[1].throughputTokensPerSecond);
            QVERIFY(r.classes[1].latency.endToEnd.max <= 1.1 * none.classes[1].latency.endToEnd.max);
        }
        // A reserved KV share protects memory, not prefill compute: here the cache is not what chat waits for.
        c.admissionRule = AdmissionRule::ReservedKv;
        const SimulationResult reserved = simulate(s, c, trace);
        qInfo("rule reserved_kv: chat p95 TTFT %.0f ms", reserved.classes[0].latency.ttft.p95 * 1e3);
        QCOMPARE(reserved.classes[1].completed, 40LL);
    }

    void reservedKvKeepsRoomForInteractive()
    {
        // A job big enough to fill the cache: without a reservation chat waits for memory.
        Scenario s = planning();
        SimulationConfig c;
        c.durationSeconds = 120;
        c.policy = BatchingPolicy::Continuous;
        c.maxSequences = 256;
        c.reservedKvFraction = 0.3;
        c.classes.push_back(poisson("chat", 2, fixedTokens(500), fixedTokens(100)));
        // Long batch generations arriving steadily: their caches grow until memory runs out.
        RequestClass job = poisson("batch job", 4, fixedTokens(3000), fixedTokens(3000));
        job.priority = Priority::Batch;
        job.endSeconds = 50;
        c.classes.push_back(job);
        const std::vector<Request> trace = generateRequests(c);
        const SimulationResult none = simulate(s, c, trace);
        c.admissionRule = AdmissionRule::ReservedKv;
        const SimulationResult reserved = simulate(s, c, trace);
        qInfo("KV-bound job: chat p95 TTFT %.0f ms without a reservation, %.0f ms with 30 %% reserved; preemptions %lld and %lld; "
              "batch job %.0f and %.0f tok/s, all %lld done by %.0f and %.0f s",
              none.classes[0].latency.ttft.p95 * 1e3, reserved.classes[0].latency.ttft.p95 * 1e3, none.preemptions,
              reserved.preemptions, none.classes[1].throughputTokensPerSecond, reserved.classes[1].throughputTokensPerSecond,
              reserved.classes[1].requests, none.spanSeconds, reserved.spanSeconds);
        QVERIFY(none.classes[0].latency.ttft.p95 > 10.0);
        QVERIFY(reserved.classes[0].latency.ttft.p95 < 1.0);
        QCOMPARE(none.classes[1].completed, none.classes[1].requests);
        QCOMPARE(reserved.classes[1].completed, reserved.classes[1].requests);
        QVERIFY(reserved.classes[1].throughputTokensPerSecond >= 0.8 * none.classes[1].throughputTokensPerSecond);
    }

    // -- the simulation file ---------------------------------------------------------------------------

    void exampleFilesParse_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("chat") << QStringLiteral("chat-llama-3.1-8b-h100.json");
        QTest::newRow("chat and batch job") << QStringLiteral("chat-and-batch-job-llama-3.1-8b-h100.json");
        QTest::newRow("agents with prefix caching") << QStringLiteral("agent-prefix-cache-llama-3.1-8b-h100.json");
    }
    void exampleFilesParse()
    {
        QFETCH(QString, file);
        const QString path = QFINDTESTDATA(QStringLiteral("../resources/simulations/") + file);
        QVERIFY(!path.isEmpty());
        SimulationFile sim;
        const std::string err = loadSimulationFile(path, sim);
        QVERIFY2(err.empty(), err.c_str());
        QCOMPARE(sim.scenario.efficiency.bandwidth, 0.75);
        const SimulationResult r = simulate(sim.scenario, sim.config, generateRequests(sim.config));
        QVERIFY(r.all.completed > 100);
    }

    void fileFields()
    {
        SimulationFile sim;
        const std::string err = parseSimulationJson(simulationJson(R"("policy": "static", "max_sequences": 8, "token_budget": 256,
            "kv_admission": "contiguous", "block_tokens": 32, "seed": 7, "itl_slo_ms": 30, "ttft_slo_ms": 900,
            "itl_slo_statistic": "max", "admission_rule": "reserved_kv", "reserved_kv_fraction": 0.25,
            "batch_prefill_token_cap": 128, "kv_watermark": 0, "kv_series_points": 50, "sweep_max_sequences": [4, 8],)",
                                                                   R"("title": "t", "scenario": {"hardware": {"gpus": 2}},)"),
                                                    QString(), sim);
        QVERIFY2(err.empty(), err.c_str());
        const SimulationConfig& c = sim.config;
        QCOMPARE(sim.title, std::string("t"));
        QCOMPARE(sim.scenario.hardware.gpus, 2);
        QVERIFY(c.policy == BatchingPolicy::Static && c.kvAdmission == KvAdmission::Contiguous);
        QVERIFY(c.admissionRule == AdmissionRule::ReservedKv && c.itlSloStatistic == ItlSloStatistic::Max);
        QCOMPARE(c.maxSequences, 8);
        QCOMPARE(c.tokenBudget, 256);
        QCOMPARE(c.blockTokens, 32);
        QCOMPARE(c.seed, std::uint64_t(7));
        QCOMPARE(c.itlSloMs, 30.0);
        QCOMPARE(c.ttftSloMs, 900.0);
        QCOMPARE(c.reservedKvFraction, 0.25);
        QCOMPARE(c.batchPrefillTokenCap, 128);
        QCOMPARE(c.sweepMaxSequences, (std::vector<int>{4, 8}));
        QCOMPARE(*c.requests, 10LL);
        QCOMPARE(c.classes.size(), size_t(1));
        // Defaults come from the scenario.
        SimulationFile d;
        QVERIFY(parseSimulationJson(simulationJson(""), QString(), d).empty());
        QCOMPARE(d.config.itlSloMs, defaultScenario().workload.itlSloMs.front());
        QCOMPARE(d.config.ttftSloMs, defaultScenario().workload.ttftSloMs);
        QCOMPARE(d.config.blockTokens, defaultScenario().serving.blockTokens);
    }

    void fileErrors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("policy") << simulationJson(R"("policy": "fast",)")
                                << QStringLiteral("simulation.policy = \"fast\": expected static, continuous, or chunked");
        QTest::newRow("unknown simulation key") << simulationJson(R"("polcy": "static",)")
                                                << QStringLiteral("unknown key \"simulation.polcy\"");
        QTest::newRow("unknown top key") << simulationJson("", R"("simulations": 1,)") << QStringLiteral("unknown key \"simulations\"");
        QTest::newRow("cap zero") << simulationJson(R"("max_sequences": 0,)")
                                  << QStringLiteral("simulation.max_sequences = 0: must be from 1 to 1,000,000");
        // One range message, whether the parser or checkSimulationConfig() refuses the value.
        QTest::newRow("cap huge") << simulationJson(R"("max_sequences": 1e9,)")
                                  << QStringLiteral("simulation.max_sequences = 1e9: must be from 1 to 1,000,000");
        QTest::newRow("series points huge") << simulationJson(R"("kv_series_points": 1073741824,)")
                                            << QStringLiteral("simulation.kv_series_points = 1073741824: must be from 1 to 100,000");
        QTest::newRow("too many sweep caps")
            << simulationJson(R"("sweep_max_sequences": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17],)")
            << QStringLiteral("simulation.sweep_max_sequences: 17 caps; at most 16 (each is one more simulation)");
        QTest::newRow("title with a newline") << simulationJson("", "\"title\": \"a\\nb\",")
                                              << QStringLiteral("title = \"a\\x0Ab\": must not contain control characters (byte 2 is \\x0A)");
        QTest::newRow("unknown key with an escape") << simulationJson("\"x\\u001b[31m\": 1,")
                                                    << QStringLiteral("unknown key \"simulation.x\\x1B[31m\"");
        QTest::newRow("cap fraction") << simulationJson(R"("max_sequences": 1.5,)")
                                      << QStringLiteral("simulation.max_sequences = 1.5: expected a whole number");
        QTest::newRow("budget text") << simulationJson(R"("token_budget": "512",)")
                                     << QStringLiteral("simulation.token_budget = \"512\": expected a whole number");
        QTest::newRow("slo text") << simulationJson(R"("itl_slo_ms": "x",)") << QStringLiteral("simulation.itl_slo_ms = \"x\": expected a number");
        QTest::newRow("slo negative") << simulationJson(R"("ttft_slo_ms": -1,)") << QStringLiteral("simulation.ttft_slo_ms = -1: must be");
        QTest::newRow("kv admission") << simulationJson(R"("kv_admission": "buddy",)")
                                      << QStringLiteral("simulation.kv_admission = \"buddy\": expected paged or contiguous");
        QTest::newRow("rule") << simulationJson(R"("admission_rule": "fair",)") << QStringLiteral("simulation.admission_rule = \"fair\"");
        QTest::newRow("reserved fraction") << simulationJson(R"("reserved_kv_fraction": 1.5,)")
                                           << QStringLiteral("simulation.reserved_kv_fraction = 1.5: must be in (0, 1)");
        QTest::newRow("sweep item") << simulationJson(R"("sweep_max_sequences": [8, 0],)")
                                    << QStringLiteral("simulation.sweep_max_sequences[1] = 0");
        QTest::newRow("duration") << simulationJson(R"("duration_s": 0,)") << QStringLiteral("simulation.duration_s = 0");
        QTest::newRow("seed") << simulationJson(R"("seed": -1,)") << QStringLiteral("simulation.seed = -1");
        QTest::newRow("trace file") << simulationJson(R"("trace_csv": "no-such-trace.csv",)")
                                    << QStringLiteral("simulation.trace_csv = \"no-such-trace.csv\": cannot open");
        QTest::newRow("scenario key") << simulationJson("", R"("scenario": {"model": {"paramz": 1}},)")
                                      << QStringLiteral("scenario: unknown key \"model.paramz\"");
        QTest::newRow("scenario value") << simulationJson("", R"("scenario": {"hardware": {"bandwidth": 0}},)")
                                        << QStringLiteral("scenario: ");
        QTest::newRow("syntax") << QByteArray("{\"simulation\": ") << QStringLiteral("not valid JSON at byte");
        QTest::newRow("no simulation") << QByteArray("{}") << QStringLiteral("simulation: missing");
        const char* classes[][2] = {
            {R"({"name": "chat", "rate_per_s": 1, "output": {"dist": "fixed", "value": 10}})", "simulation.classes[0].prompt: missing"},
            {R"({"name": "chat", "rate": 1})", "unknown key \"simulation.classes[0].rate\""},
            {R"({"name": "chat", "rate_per_s": 1, "prompt": {"dist": "gauss"}, "output": {"dist": "fixed", "value": 1}})",
             "simulation.classes[0].prompt.dist = \"gauss\": expected fixed, uniform, or lognormal"},
            {R"({"name": "chat", "rate_per_s": 1, "prompt": {"dist": "lognormal", "median": 2000, "p99": 100},
                 "output": {"dist": "fixed", "value": 1}})",
             "simulation.classes[0].prompt.p99 = 100: must exceed the median (2000)"},
            {R"({"name": "chat", "rate_per_s": 1, "prompt": {"dist": "fixed", "value": 1, "median": 3},
                 "output": {"dist": "fixed", "value": 1}})",
             "unknown key \"simulation.classes[0].prompt.median\""},
            {R"({"name": "chat", "rate_per_s": 1, "prompt": {"dist": "uniform", "min": 10, "max": 5},
                 "output": {"dist": "fixed", "value": 1}})",
             "simulation.classes[0].prompt.max = 5: must be >= min (10)"},
            {R"({"name": "chat", "priority": "urgent"})", "simulation.classes[0].priority = \"urgent\": expected interactive or batch"},
            {R"({"name": "chat", "count": -2})", "simulation.classes[0].count = -2"},
            {R"({"name": "chat", "rate_per_s": -1})", "simulation.classes[0].rate_per_s = -1"},
            {R"({"name": 3})", "simulation.classes[0].name = 3: expected a string"},
        };
        for (const auto& row : classes)
            QTest::newRow(row[1]) << (QByteArray(R"({"simulation": {"duration_s": 10, "classes": [)") + row[0] + "]}}")
                                  << QString::fromUtf8(row[1]);
        // Found by a tester: every sample silently clamped to 10, 1e7 requests ran for minutes, control
        // characters went raw into reports, and a huge rate gave "simulation.the classes would ...".
        const char* refused[][2] = {
            {R"({"name": "chat", "count": 1, "prompt": {"dist": "lognormal", "median": 1500, "p99": 6000, "max": 10},
                 "output": {"dist": "fixed", "value": 1}})",
             "simulation.classes[0].prompt.max = 10: must be at least the median (1500), or every sample above it would become max"},
            {R"({"name": "chat", "count": 1, "output": {"dist": "lognormal", "median": 200, "p99": 900, "min": 300},
                 "prompt": {"dist": "fixed", "value": 1}})",
             "simulation.classes[0].output.min = 300: must be at most the median (200), or every sample below it would become min"},
            {R"({"name": "chat", "count": 1, "prompt": {"dist": "fixed", "value": 1e12}, "output": {"dist": "fixed", "value": 1}})",
             "simulation.classes[0].prompt.value = 1e12: must be from 1 to 1,000,000,000"},
            {R"({"name": "chat", "count": 10000000, "prompt": {"dist": "fixed", "value": 1}, "output": {"dist": "fixed", "value": 1}})",
             "simulation.classes[0].count = 10000000: must be from 0 to 2,000,000"},
            {R"({"name": "chat", "rate_per_s": 1e9, "prompt": {"dist": "fixed", "value": 1}, "output": {"dist": "fixed", "value": 1}})",
             "simulation.classes[0].rate_per_s = 1e9: about 10,000,000,000 requests over 10 s; at most 2,000,000 requests in all "
             "(lower rate_per_s, end_s, duration_s or requests)"},
            {R"({"name": "a", "count": 1500000, "prompt": {"dist": "fixed", "value": 1}, "output": {"dist": "fixed", "value": 1}},
                {"name": "b", "count": 1500000, "prompt": {"dist": "fixed", "value": 1}, "output": {"dist": "fixed", "value": 1}})",
             "simulation.classes: the classes would generate about 3,000,000 requests; at most 2,000,000 requests in all "
             "(lower rate_per_s, count, duration_s or requests)"},
            {R"({"name": "a\nb"})", "simulation.classes[0].name = \"a\\x0Ab\": must not contain control characters (byte 2 is \\x0A)"},
            {"{\"name\": \"x\\u001b[31mRED\"}",
             "simulation.classes[0].name = \"x\\x1B[31mRED\": must not contain control characters (byte 2 is \\x1B)"},
        };
        for (const auto& row : refused)
            QTest::newRow(row[1]) << (QByteArray(R"({"simulation": {"duration_s": 10, "classes": [)") + row[0] + "]}}")
                                  << QString::fromUtf8(row[1]);
        QTest::newRow("requests over the bound")
            << QByteArray(R"({"simulation": {"requests": 3000000, "classes": [{"name": "c", "rate_per_s": 1,
                           "prompt": {"dist": "fixed", "value": 1}, "output": {"dist": "fixed", "value": 1}}]}})")
            << QStringLiteral("simulation.requests = 3000000: must be from 1 to 2,000,000");
        QTest::newRow("sweep runs over the bound")
            << QByteArray(R"({"simulation": {"requests": 1000000, "sweep_max_sequences": [8, 16], "classes": [{"name": "c",
                           "rate_per_s": 1, "prompt": {"dist": "fixed", "value": 1}, "output": {"dist": "fixed", "value": 1}}]}})")
            << QStringLiteral("simulation.sweep_max_sequences: 2 caps simulate the 1,000,000 requests 2 more times, 3,000,000 in all; "
                              "at most 2,000,000 requests in all (fewer caps, or fewer requests)");
        QByteArray many = R"({"simulation": {"duration_s": 10, "classes": [)";
        for (int i = 0; i < 65; ++i)
            many += (i ? ",{\"name\": \"c" : "{\"name\": \"c") + QByteArray::number(i) + "\"}";
        QTest::newRow("65 classes") << many + "]}}" << QStringLiteral("simulation.classes: 65 classes; at most 64");
        QTest::newRow("rate without end")
            << QByteArray(R"({"simulation": {"classes": [{"name": "c", "rate_per_s": 1, "prompt": {"dist": "fixed", "value": 1},
                           "output": {"dist": "fixed", "value": 1}}]}})")
            << QStringLiteral("simulation.duration_s: a class arrives at a rate without end_s");
        QTest::newRow("duplicate class")
            << QByteArray(R"({"simulation": {"duration_s": 1, "classes": [{"name": "c"}, {"name": "c"}]}})")
            << QStringLiteral("simulation.classes[1].name = \"c\": another class has this name");
    }
    void fileErrors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        SimulationFile sim;
        const QString err = QString::fromStdString(parseSimulationJson(json, QDir::tempPath(), sim));
        QVERIFY2(err.startsWith(expected), qPrintable(err));
        QVERIFY2(!err.contains(QLatin1Char('\n')) && !err.contains(QChar(0x1b)), qPrintable(err));
    }

    /** checkSimulationConfig() (the GUI's path) says what the file parser says, in the same words. */
    void configChecksMatchTheFile()
    {
        SimulationConfig c;
        c.requests = 10;
        c.classes.push_back(poisson("chat", 1, fixedTokens(100), fixedTokens(10)));
        QCOMPARE(checkSimulationConfig(c), std::string());
        SimulationConfig zero = c;
        zero.maxSequences = 0;
        SimulationFile sim;
        QCOMPARE(checkSimulationConfig(zero), parseSimulationJson(simulationJson(R"("max_sequences": 0,)"), QString(), sim));
        QCOMPARE(checkSimulationConfig(zero), std::string("simulation.max_sequences = 0: must be from 1 to 1,000,000"));

        SimulationConfig named = c;
        named.classes[0].name = "x\x1b[31mRED";
        QCOMPARE(checkSimulationConfig(named),
                 std::string("simulation.classes[0].name = \"x\\x1B[31mRED\": must not contain control characters (byte 2 is \\x1B)"));

        SimulationConfig clamp = c;
        clamp.classes[0].prompt = logNormal(1500, 6000);
        clamp.classes[0].prompt.max = 10;
        QVERIFY(QString::fromStdString(checkSimulationConfig(clamp))
                    .startsWith(QStringLiteral("simulation.classes[0].prompt.max = 10: must be at least the median (1500)")));

        SimulationConfig many = c;
        for (int i = 1; i < 65; ++i)
            many.classes.push_back(poisson(("c" + std::to_string(i)).c_str(), 1, fixedTokens(1), fixedTokens(1)));
        QCOMPARE(checkSimulationConfig(many), std::string("simulation.classes: 65 classes; at most 64"));
        many.classes.pop_back();
        QCOMPARE(checkSimulationConfig(many), std::string());

        SimulationConfig trace = c; // a trace's rows count in the same bound
        trace.trace.assign(size_t(kMaxSimulationRequests) + 1, Request{});
        QCOMPARE(checkSimulationConfig(trace), std::string("simulation.trace_csv: 2,000,001 rows; at most 2,000,000 requests in all"));
    }

    /**
     * The summaries cost one pass over the requests and the ITL record, whatever the number of classes:
     * 5,000 classes of 3 requests took 20 s when each class was summarised over every request and every
     * step looped over every class; now a fraction of a second. (simulate() does not bound the classes;
     * checkSimulationConfig() does, at 64.)
     */
    void manyClassesCostLinearTime()
    {
        SimulationConfig c;
        c.durationSeconds = 60;
        for (int i = 0; i < 5000; ++i) {
            RequestClass k = poisson(("c" + std::to_string(i)).c_str(), 3.0 / 60, fixedTokens(500), fixedTokens(200));
            c.classes.push_back(k);
        }
        const std::vector<Request> requests = generateRequests(c);
        QElapsedTimer timer;
        timer.start();
        const SimulationResult r = simulate(planning(), c, requests);
        const qint64 elapsed = timer.elapsed();
        // Reported, not asserted: wall-clock limits fail on a loaded machine (16.7 s once under ASan with
        // load 12); the speed figure belongs to bench/simulator_bench.cpp.
        qInfo("5,000 classes, %zu requests: %lld ms", requests.size(), static_cast<long long>(elapsed));
        QCOMPARE(r.classes.size(), size_t(5000));
        long long total = 0, itl = 0;
        for (const TrafficSummary& t : r.classes) {
            total += t.requests;
            itl += t.latency.itl.count;
        }
        QCOMPARE(total, r.all.requests);
        QCOMPARE(itl, r.all.latency.itl.count);
        QCOMPARE(r.all.completed, static_cast<long long>(requests.size()));
    }

    /** Each class's ITL percentiles are the nearest-rank ones of its own intervals, counted from the token times. */
    void perClassItlMatchesTokenTimes()
    {
        SimulationConfig c;
        c.policy = BatchingPolicy::Chunked;
        c.maxSequences = 16;
        c.durationSeconds = 30;
        c.recordTokenTimes = true;
        c.classes.push_back(poisson("chat", 2, logNormal(800, 3000), logNormal(100, 400)));
        c.classes.push_back(poisson("code", 1, logNormal(2000, 6000), logNormal(300, 900)));
        RequestClass job = poisson("job", 0, fixedTokens(6000), fixedTokens(50));
        job.priority = Priority::Batch;
        job.count = 5;
        job.startSeconds = 3;
        c.classes.push_back(job);
        const std::vector<Request> requests = generateRequests(c);
        const SimulationResult r = simulate(planning(), c, requests);
        for (int k = -1; k < int(c.classes.size()); ++k) {
            std::vector<double> intervals;
            for (size_t i = 0; i < requests.size(); ++i) {
                if (k >= 0 && requests[i].classIndex != k)
                    continue;
                for (long long t = r.tokenOffsets[i] + 1; t < r.tokenOffsets[i + 1]; ++t)
                    intervals.push_back(r.tokenTimes[size_t(t)] - r.tokenTimes[size_t(t - 1)]);
            }
            std::sort(intervals.begin(), intervals.end());
            const Percentiles& p = k < 0 ? r.all.latency.itl : r.classes[size_t(k)].latency.itl;
            QCOMPARE(p.count, static_cast<long long>(intervals.size()));
            QVERIFY(!intervals.empty());
            auto rank = [&](double q) { return intervals[size_t(std::clamp(std::ceil(q * double(intervals.size())), 1.0, double(intervals.size()))) - 1]; };
            // LatencyHistogram: never below the exact nearest rank, less than 1/256 above it; max exact.
            for (const auto& [got, want] : {std::pair{p.p50, rank(0.50)}, std::pair{p.p95, rank(0.95)}, std::pair{p.p99, rank(0.99)}}) {
                QVERIFY2(got >= want - 1e-15 && got <= want * (1.0 + 1.0 / 256), qPrintable(QStringLiteral("%1 vs %2").arg(got).arg(want)));
                QVERIFY(std::binary_search(intervals.begin(), intervals.end(), got)); // an interval that occurred
            }
            QVERIFY(std::abs(p.max - intervals.back()) <= 1e-12);
        }
    }


    // -- bounded work ------------------------------------------------------------------------------

    /** The ITL record is a fixed-size histogram: percentiles within 1/256 above the exact ones, exact max and mean. */
    void latencyHistogramIsFixedAndClose()
    {
        LatencyHistogram h;
        std::vector<double> values;
        std::mt19937_64 g(7);
        for (int i = 0; i < 100000; ++i) {
            const double v = 1e-3 * std::exp(4.0 * double(g() >> 11) * 0x1.0p-53); // 1 ms to 55 ms
            values.push_back(v);
            h.add(v);
        }
        h.add(0.25, 3); // a run of equal intervals
        values.insert(values.end(), 3, 0.25);
        std::sort(values.begin(), values.end());
        const Percentiles p = h.percentiles();
        QCOMPARE(p.count, static_cast<long long>(values.size()));
        QCOMPARE(p.max, 0.25);
        for (const auto& [q, got] : {std::pair{0.50, p.p50}, std::pair{0.95, p.p95}, std::pair{0.99, p.p99}}) {
            const double want = values[size_t(std::ceil(q * double(values.size()))) - 1];
            QVERIFY2(got >= want && got < want * (1.0 + 1.0 / 256), qPrintable(QStringLiteral("q %1: %2 vs %3").arg(q).arg(got).arg(want)));
        }
        // Bins are monotonic and the ends catch everything.
        QCOMPARE(LatencyHistogram::binOf(0.0), 0);
        QCOMPARE(LatencyHistogram::binOf(1e30), LatencyHistogram::kBins - 1);
        QVERIFY(LatencyHistogram::binOf(0.0100) < LatencyHistogram::binOf(0.0101));
    }

    /** Work beyond the budget is refused before running, with the estimate (a 1,000-request file ran 95 s at 2.8 GB). */
    void workBudgetRefusedWithEstimate()
    {
        SimulationConfig c;
        c.requests = 1000;
        c.classes.push_back(poisson("chat", 10, fixedTokens(500), fixedTokens(2000000)));
        const std::string err = checkSimulationConfig(c);
        QVERIFY2(QString::fromStdString(err).startsWith(QStringLiteral(
                     "simulation.classes: about 1,000 requests x about 2,000,000 output tokens each = 2,000,000,000 output tokens "
                     "to simulate, about 32 s of work; at most 1,000,000,000 (about 16 s)")),
                 err.c_str());
        const SimulationCost cost = estimateSimulationCost(c);
        QCOMPARE(cost.outputTokens, 2e9);
        QCOMPARE(cost.requests, 1000.0);
        // The sweep multiplies the work.
        c.classes[0].output = fixedTokens(400000);
        QVERIFY(checkSimulationConfig(c).empty());
        c.sweepMaxSequences = {8, 16, 32};
        QVERIFY2(checkSimulationConfig(c).find("x 4 runs (the sweep)") != std::string::npos, checkSimulationConfig(c).c_str());
        // Recorded token times count in the memory estimate.
        c.sweepMaxSequences.clear();
        c.recordTokenTimes = true;
        QVERIFY2(checkSimulationConfig(c).find("of memory; at most 1 GiB") != std::string::npos, checkSimulationConfig(c).c_str());
    }

    /**
     * Work that is not output tokens counts too: a chunked prefill with a tiny token budget (one
     * engine step per prompt token) and a static batch whose short sequences pad until the longest
     * ends both ran for hours on a small file that passed the output-token budget.
     */
    void prefillStepsAndStaticPaddingCountInTheBudget()
    {
        SimulationConfig chunked;
        chunked.policy = BatchingPolicy::Chunked;
        chunked.tokenBudget = 1;
        chunked.maxSequences = 1;
        chunked.classes.push_back(poisson("a", 0, fixedTokens(1000000000), fixedTokens(1)));
        chunked.classes[0].count = 1000;
        std::string err = checkSimulationConfig(chunked);
        QVERIFY2(QString::fromStdString(err).startsWith(QStringLiteral("simulation.token_budget = 1: about 1,000 requests")), err.c_str());
        QVERIFY2(err.find("chunked-prefill steps") != std::string::npos, err.c_str());
        QCOMPARE(estimateSimulationCost(chunked).prefillSteps, 1e12);
        chunked.tokenBudget = 8192; // the same prompts in large chunks: about 1.2e8 steps, allowed
        QVERIFY2(checkSimulationConfig(chunked).empty(), checkSimulationConfig(chunked).c_str());
        chunked.policy = BatchingPolicy::Continuous; // whole prompts in one step each
        QCOMPARE(estimateSimulationCost(chunked).prefillSteps, 0.0);

        SimulationConfig padded;
        padded.policy = BatchingPolicy::Static;
        padded.maxSequences = 1000000;
        padded.classes.push_back(poisson("short", 0, fixedTokens(1), fixedTokens(1)));
        padded.classes[0].count = 200000;
        padded.classes.push_back(poisson("long", 0, fixedTokens(1), fixedTokens(100000)));
        padded.classes[1].count = 1;
        err = checkSimulationConfig(padded);
        QVERIFY2(QString::fromStdString(err).startsWith(QStringLiteral("simulation.policy = static: ")), err.c_str());
        QVERIFY2(err.find("longest output (100,000 tokens)") != std::string::npos, err.c_str());
        padded.policy = BatchingPolicy::Continuous; // finished sequences leave: 300,000 output tokens
        QVERIFY2(checkSimulationConfig(padded).empty(), checkSimulationConfig(padded).c_str());
        QCOMPARE(estimateSimulationCost(padded).paddingTokens, 0.0);
    }

    /** An overflowing estimate says so rather than "about inf requests". */
    void hugeRateMessageIsFinite()
    {
        SimulationFile sim;
        const std::string err = parseSimulationJson(R"({"simulation": {"duration_s": 600, "classes": [{"name": "c", "rate_per_s": 1e308,
            "prompt": {"dist": "fixed", "value": 1}, "output": {"dist": "fixed", "value": 1}}]}})", QDir::tempPath(), sim);
        QCOMPARE(err, std::string("simulation.classes[0].rate_per_s = 1e308: more than 1e308 requests over 600 s; at most 2,000,000 "
                                  "requests in all (lower rate_per_s, end_s, duration_s or requests)"));
        // A huge finite estimate in three significant digits (a trial printed "about 3.0000000000000002e302").
        const std::string large = parseSimulationJson(R"({"simulation": {"duration_s": 300, "classes": [{"name": "c", "rate_per_s": 1e300,
            "prompt": {"dist": "fixed", "value": 1}, "output": {"dist": "fixed", "value": 1}}]}})", QDir::tempPath(), sim);
        QCOMPARE(large, std::string("simulation.classes[0].rate_per_s = 1e300: about 3e302 requests over 300 s; at most 2,000,000 "
                                    "requests in all (lower rate_per_s, end_s, duration_s or requests)"));
    }

    /** The progress callback sees the run advance and stops it at once when it returns false. */
    void progressCallbackStopsTheRun()
    {
        SimulationConfig c;
        c.policy = BatchingPolicy::Chunked;
        c.maxSequences = 64;
        c.requests = 2000;
        c.classes.push_back(poisson("chat", 20, logNormal(1000, 4000), logNormal(200, 1000)));
        const std::vector<Request> requests = generateRequests(c);
        std::vector<long long> seen;
        const SimulationResult full = simulate(planning(), c, requests, [&](long long done, long long total) {
            seen.push_back(done);
            return total == 2000;
        });
        QVERIFY(!full.cancelled);
        QVERIFY(seen.size() >= 3);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        const SimulationResult plain = simulate(planning(), c, requests);
        QCOMPARE(full.all.latency.ttft.p99, plain.all.latency.ttft.p99); // watching does not change the run

        int calls = 0;
        const SimulationResult stopped = simulate(planning(), c, requests, [&](long long, long long) { return ++calls < 2; });
        QVERIFY(stopped.cancelled);
        QCOMPARE(calls, 2);
        QVERIFY(stopped.steps < full.steps / 2);
        const std::vector<SweepPoint> none = [&] {
            SimulationConfig s = c;
            s.sweepMaxSequences = {8, 16};
            return sweepMaxSequences(planning(), s, requests, [](long long, long long) { return false; });
        }();
        QVERIFY(none.empty());

        SimulationConfig many = c;
        many.requests = 500000;
        many.classes[0].ratePerSecond = 1000;
        QVERIFY(generateRequests(many, [](long long, long long) { return false; }).empty());
    }

    // -- memory flat in the run's length (issue 16) --------------------------------------------------

    /**
     * RequestGenerator (the lazy workload) gives what generating each class's stream in full, adding the trace rows
     * and sorting by arrival (ties: class order, a class's own requests before trace rows of the same class) gave.
     */
    void lazyWorkloadIsTheSortedWorkload()
    {
        SimulationConfig c;
        c.durationSeconds = 60;
        c.requests = 1300; // of about 1,470 before the duration: the first 1,300 are kept
        c.classes.push_back(poisson("chat", 20, logNormal(500, 2000), logNormal(100, 800)));
        c.classes[0].prefixGroups = 7;
        c.classes[0].prefixTokens = 300;
        RequestClass g = poisson("bursty", 4, fixedTokens(900), fixedTokens(40));
        g.arrival = ArrivalProcess::Gamma;
        g.burstiness = 0.3;
        g.startSeconds = 2;
        c.classes.push_back(g);
        RequestClass job = poisson("job", 0, fixedTokens(8000), fixedTokens(200));
        job.count = 30;
        job.startSeconds = 10;
        job.priority = Priority::Batch;
        c.classes.push_back(job);
        // Trace rows out of order, one tied with the burst (an earlier class: before it) and past the duration.
        for (const auto& [t, cls] : {std::pair{12.5, 1}, std::pair{10.0, 0}, std::pair{10.0, 2}, std::pair{3.25, 1}, std::pair{70.0, 0}}) {
            Request r;
            r.arrivalSeconds = t;
            r.promptTokens = 77;
            r.outputTokens = 5;
            r.classIndex = cls;
            c.trace.push_back(r);
        }
        QVERIFY2(checkSimulationConfig(c).empty(), checkSimulationConfig(c).c_str());
        // The reference: each class's stream alone (the others silenced keep their indices, so their seeds), then sorted.
        std::vector<Request> want;
        for (size_t i = 0; i < c.classes.size(); ++i) {
            SimulationConfig alone = c;
            alone.trace.clear();
            for (size_t j = 0; j < alone.classes.size(); ++j)
                if (j != i) {
                    alone.classes[j].ratePerSecond = 0;
                    alone.classes[j].count = 0;
                }
            const std::vector<Request> part = generateRequests(alone);
            want.insert(want.end(), part.begin(), part.end());
        }
        for (const Request& r : c.trace)
            if (r.arrivalSeconds < *c.durationSeconds)
                want.push_back(r);
        std::stable_sort(want.begin(), want.end(), [](const Request& a, const Request& b) {
            return a.arrivalSeconds < b.arrivalSeconds || (a.arrivalSeconds == b.arrivalSeconds && a.classIndex < b.classIndex);
        });
        QVERIFY(want.size() > size_t(*c.requests));
        want.resize(size_t(*c.requests));
        const std::vector<Request> got = generateRequests(c);
        QCOMPARE(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i)
            QVERIFY2(got[i].arrivalSeconds == want[i].arrivalSeconds && got[i].promptTokens == want[i].promptTokens
                         && got[i].outputTokens == want[i].outputTokens && got[i].classIndex == want[i].classIndex
                         && got[i].prefixGroup == want[i].prefixGroup && got[i].prefixTokens == want[i].prefixTokens,
                     qPrintable(QStringLiteral("request %1").arg(i)));
        QVERIFY(std::any_of(got.begin(), got.end(), [](const Request& r) { return r.promptTokens == 77; })); // trace rows in
        QVERIFY(std::all_of(got.begin(), got.end(), [](const Request& r) { return r.prefixTokens <= r.promptTokens; }));
        // One at a time from the generator: the same.
        RequestGenerator gen(c);
        Request r;
        size_t n = 0;
        while (gen.next(r)) {
            QVERIFY(n < got.size() && r.arrivalSeconds == got[n].arrivalSeconds && r.classIndex == got[n].classIndex);
            ++n;
        }
        QCOMPARE(n, got.size());
        QCOMPARE(gen.generated(), static_cast<long long>(n));
    }

    /** simulateWorkload() (drawn as it runs, records optional) gives simulate()'s result, single replica and fleet. */
    void workloadRunMatchesVectorRun()
    {
        SimulationConfig c;
        c.policy = BatchingPolicy::Chunked;
        c.maxSequences = 32;
        c.requests = 4000;
        c.classes.push_back(poisson("chat", 12, logNormal(800, 3000), logNormal(80, 400)));
        c.classes[0].prefixGroups = 50;
        RequestClass job = poisson("job", 0, fixedTokens(4000), fixedTokens(100));
        job.count = 20;
        job.startSeconds = 30;
        job.priority = Priority::Batch;
        c.classes.push_back(job);
        for (const int replicas : {1, 3}) {
            c.replicas = replicas;
            c.router = replicas > 1 ? RouterPolicy::LeastLoaded : RouterPolicy::RoundRobin;
            const SimulationResult a = simulate(planning(), c, generateRequests(c));
            const SimulationResult b = simulateWorkload(planning(), c);
            QCOMPARE(b.requests.size(), a.requests.size());
            for (size_t i = 0; i < a.requests.size(); ++i) {
                const RequestResult &x = a.requests[i], &y = b.requests[i];
                QVERIFY2(x.arrivalSeconds == y.arrivalSeconds && x.firstTokenSeconds == y.firstTokenSeconds
                             && x.finishedSeconds == y.finishedSeconds && x.metSlo == y.metSlo && x.preemptions == y.preemptions,
                         qPrintable(QStringLiteral("replicas %1, request %2").arg(replicas).arg(i)));
            }
            QCOMPARE(b.replicaOf, a.replicaOf);
            QCOMPARE(b.all.latency.ttft.p99, a.all.latency.ttft.p99);
            QCOMPARE(b.all.latency.itl.p99, a.all.latency.itl.p99);
            QCOMPARE(b.classes[1].latency.endToEnd.p50, a.classes[1].latency.endToEnd.p50);
            QCOMPARE(b.all.goodputFraction, a.all.goodputFraction);
            QCOMPARE(b.steps, a.steps);
            // Records for the first 100 arrivals only (or none): the same summaries over every request.
            SimulationConfig few = c;
            few.requestRecords = 100;
            const SimulationResult f = simulateWorkload(planning(), few);
            QCOMPARE(f.requests.size(), size_t(100));
            for (size_t i = 0; i < 100; ++i)
                QCOMPARE(f.requests[i].finishedSeconds, a.requests[i].finishedSeconds); // generateRequests() is in arrival order
            few.requestRecords = 0;
            const SimulationResult none = simulateWorkload(planning(), few);
            QVERIFY(none.requests.empty() && none.replicaOf.empty());
            QCOMPARE(none.all.requests, a.all.requests);
            QCOMPARE(none.all.latency.ttft.p95, a.all.latency.ttft.p95);
            QCOMPARE(none.all.latency.tpot.mean, a.all.latency.tpot.mean);
            QCOMPARE(none.spanSeconds, a.spanSeconds);
            if (replicas > 1) {
                QCOMPARE(none.replicas.size(), a.replicas.size());
                for (size_t k = 0; k < a.replicas.size(); ++k) {
                    QCOMPARE(none.replicas[k].requests, a.replicas[k].requests);
                    QCOMPARE(none.replicas[k].p99TtftSeconds, a.replicas[k].p99TtftSeconds);
                }
            }
        }
    }

    /** StreamingPercentiles: exact up to kExactSamples values, then within kRelativeError above the exact nearest rank. */
    void streamingPercentilesExactThenBounded()
    {
        std::mt19937_64 g(11);
        std::vector<double> values;
        StreamingPercentiles s;
        auto rank = [&](double q) {
            std::vector<double> v = values;
            std::sort(v.begin(), v.end());
            return v[size_t(std::clamp(std::ceil(q * double(v.size())), 1.0, double(v.size()))) - 1];
        };
        for (long long i = 0; i < 3 * StreamingPercentiles::kExactSamples; ++i) {
            const double v = 1e-2 * std::exp(3.0 * double(g() >> 11) * 0x1.0p-53);
            values.push_back(v);
            s.add(v);
            if (i + 1 == StreamingPercentiles::kExactSamples) {
                QVERIFY(s.exact());
                const Percentiles p = s.percentiles();
                QCOMPARE(p.p50, rank(0.50)); // exact: the nearest-rank value itself
                QCOMPARE(p.p99, rank(0.99));
            }
        }
        QVERIFY(!s.exact());
        const Percentiles p = s.percentiles();
        QCOMPARE(p.count, static_cast<long long>(values.size()));
        QCOMPARE(p.max, *std::max_element(values.begin(), values.end()));
        for (const auto& [q, got] : {std::pair{0.5, p.p50}, std::pair{0.9, p.p90}, std::pair{0.95, p.p95}, std::pair{0.99, p.p99}}) {
            const double want = rank(q);
            QVERIFY2(got >= want && got <= want * (1 + StreamingPercentiles::kRelativeError),
                     qPrintable(QStringLiteral("q %1: %2 vs %3").arg(q).arg(got).arg(want)));
        }
        s.add(std::numeric_limits<double>::quiet_NaN()); // ignored
        QCOMPARE(s.count(), static_cast<long long>(values.size()));
    }

    /**
     * On a long run (40,000 requests, past the exact samples) the reported TTFT, TPOT, E2E, queue and prefill
     * percentiles agree with the exact nearest-rank ones from the records within the stated error (0.4 % above,
     * never below); counts, means and maxima are exact.
     */
    void streamingPercentilesMatchExactOnALongRun()
    {
        SimulationConfig c;
        c.policy = BatchingPolicy::Chunked;
        c.maxSequences = 64;
        c.tokenBudget = 2048;
        c.requests = 40000;
        c.classes.push_back(poisson("chat", 25, logNormal(600, 3000), logNormal(40, 200)));
        const SimulationResult r = simulateWorkload(planning(), c);
        QCOMPARE(r.requests.size(), size_t(40000));
        std::vector<double> ttft, tpot, e2e, queue, prefill;
        for (const RequestResult& q : r.requests) {
            if (q.rejected || std::isnan(q.finishedSeconds))
                continue;
            ttft.push_back(q.ttftSeconds());
            e2e.push_back(q.endToEndSeconds());
            queue.push_back(q.queueWaitSeconds());
            prefill.push_back(q.prefillSeconds());
            if (!std::isnan(q.tpotSeconds))
                tpot.push_back(q.tpotSeconds);
        }
        QVERIFY(ttft.size() > size_t(StreamingPercentiles::kExactSamples) * 4);
        const LatencySummary& l = r.all.latency;
        for (const auto& [name, got, values] : {std::tuple{"ttft", l.ttft, ttft}, std::tuple{"tpot", l.tpot, tpot},
                                                std::tuple{"e2e", l.endToEnd, e2e}, std::tuple{"queue", l.queueWait, queue},
                                                std::tuple{"prefill", l.prefill, prefill}}) {
            std::vector<double> v = values;
            std::sort(v.begin(), v.end());
            auto rank = [&](double q) { return v[size_t(std::clamp(std::ceil(q * double(v.size())), 1.0, double(v.size()))) - 1]; };
            QCOMPARE(got.count, static_cast<long long>(v.size()));
            QCOMPARE(got.max, v.back());
            const double mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
            QVERIFY2(std::abs(got.mean - mean) <= 1e-9 * std::max(1e-9, mean), name);
            for (const auto& [q, p] : {std::pair{0.5, got.p50}, std::pair{0.9, got.p90}, std::pair{0.95, got.p95}, std::pair{0.99, got.p99}}) {
                const double want = rank(q);
                // Below 2^-20 s (about 1 us) values share one bin: there the bound is absolute.
                const bool ok = p >= want && (p <= want * (1 + StreamingPercentiles::kRelativeError) || p - want < 1e-6);
                QVERIFY2(ok, qPrintable(QStringLiteral("%1 q %2: %3 vs exact %4").arg(QLatin1String(name)).arg(q).arg(p, 0, 'g', 10).arg(want, 0, 'g', 10)));
            }
        }
        qInfo("40,000 requests: p99 TTFT %.2f ms (exact %.2f ms)", l.ttft.p99 * 1e3,
              [&] { std::vector<double> v = ttft; std::sort(v.begin(), v.end()); return v[size_t(std::ceil(0.99 * double(v.size()))) - 1] * 1e3; }());
    }

    /** trace_csv stays in the simulation file's folder and its errors do not quote the file's text. */
    void traceCsvStaysInItsFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sim")));
        auto write = [](const QString& path, const QByteArray& bytes) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        write(dir.filePath(QStringLiteral("secret.csv")), "0,1,1\nsecret-token-1234,1,1\n");
        write(dir.filePath(QStringLiteral("sim/own.csv")), "0,1,1\nnot-a-number,1,1\n");
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("secret.csv")), dir.filePath(QStringLiteral("sim/link.csv"))));
        const QString base = dir.filePath(QStringLiteral("sim"));
        auto load = [&](const QByteArray& name) {
            SimulationFile sim;
            return QString::fromStdString(parseSimulationJson(
                R"({"simulation": {"duration_s": 10, "trace_csv": ")" + name + R"(", "classes": []}})", base, sim));
        };
        const QString up = load("../secret.csv");
        QVERIFY2(up.startsWith(QStringLiteral("simulation.trace_csv = \"../secret.csv\": must name a file in the simulation file's folder")),
                 qPrintable(up));
        const QString absolute = load(dir.filePath(QStringLiteral("secret.csv")).toUtf8());
        QVERIFY2(absolute.contains(QStringLiteral("no absolute path")), qPrintable(absolute));
        const QString link = load("link.csv");
        QVERIFY2(link.contains(QStringLiteral("leads outside the simulation file's folder")), qPrintable(link));
        const QString own = load("own.csv");
        QCOMPARE(own, QStringLiteral("simulation.trace_csv line 2: arrival_s (field 1) is not a number of seconds"));
        for (const QString& e : {up, absolute, link, own})
            QVERIFY2(!e.contains(QStringLiteral("secret-token")) && !e.contains(QStringLiteral("not-a-number")), qPrintable(e));
    }

    void traceCsv()
    {
        std::vector<RequestClass> classes(1);
        classes[0].name = "job";
        classes[0].priority = Priority::Batch;
        std::vector<Request> rows;
        const std::string err = parseTraceCsv("arrival_s,prompt_tokens,output_tokens,class\n# a comment\n0.5, 100, 20\n\n1.25,8000,2000,job\n",
                                              "simulation.trace_csv", classes, rows);
        QVERIFY2(err.empty(), err.c_str());
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[0].arrivalSeconds, 0.5);
        QCOMPARE(rows[0].promptTokens, 100);
        QCOMPARE(rows[0].classIndex, 1); // "trace", appended
        QCOMPARE(classes.size(), size_t(2));
        QCOMPARE(classes[1].name, std::string("trace"));
        QCOMPARE(rows[1].classIndex, 0);
        QCOMPARE(rows[1].outputTokens, 2000);

        std::vector<Request> more;
        QCOMPARE(parseTraceCsv("0,100,x\n", "simulation.trace_csv", classes, more),
                 std::string("simulation.trace_csv line 1: output_tokens (field 3) is not a whole number from 1 to 1,000,000,000"));
        QCOMPARE(parseTraceCsv("0,100,10\n1,2\n", "simulation.trace_csv", classes, more),
                 std::string("simulation.trace_csv line 2: expected arrival_s,prompt_tokens,output_tokens[,class], got 2 fields"));
        QCOMPARE(parseTraceCsv("0,100,10,nobody\n", "simulation.trace_csv", classes, more),
                 std::string("simulation.trace_csv line 1: class (field 4) is not one of simulation.classes (job, trace)"));

        // A trace drives the simulation as it is.
        SimulationConfig c;
        c.classes = classes;
        c.trace = rows;
        QVERIFY(checkSimulationConfig(c).empty());
        const std::vector<Request> trace = generateRequests(c);
        QCOMPARE(trace.size(), size_t(2));
        const SimulationResult r = simulate(planning(), c, trace);
        QCOMPARE(r.all.completed, 2LL);
        QCOMPARE(r.classes[0].outputTokens, 2000.0);
    }
};

QTEST_APPLESS_MAIN(TestSimulator)
#include "tst_simulator.moc"
