// SPDX-License-Identifier: GPL-3.0-or-later
// Property tests (issue 7): over 100,000 random valid scenarios spanning every input's range,
// every output is finite and inside its physical range, and the curves keep their shape.
// A failing case prints the `--set` line that reproduces it.

#include <cmath>
#include <random>

#include <QtTest>

#include "model/cost/costmodel.h"
#include "model/cost/scenariokeys.h"

using namespace ridgeline::model;

namespace {

class Generator {
public:
    explicit Generator(std::uint64_t seed) : m_rng(seed) {}

    double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
    double logUniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
    int integer(int lo, int hi) { return lo + int(std::floor(unit() * (hi - lo + 1 - 1e-9))); }
    bool chance(double p) { return unit() < p; }
    template <typename T, size_t N>
    T pick(const T (&items)[N]) { return items[size_t(integer(0, int(N) - 1))]; }

    Scenario scenario()
    {
        Scenario s = defaultScenario();
        ModelShape& m = s.model;
        m.params = logUniform(1e8, 2e12);
        m.activeParams.reset();
        m.layers = integer(1, 200);
        m.heads = pick({1, 2, 4, 8, 12, 16, 24, 32, 40, 48, 64, 96, 128, 256});
        m.headDim = pick({32, 64, 80, 96, 128, 192, 256});
        m.hidden = chance(0.7) ? m.heads * *m.headDim : integer(64, 32768);
        int kv = integer(1, m.heads);
        while (m.heads % kv != 0)
            --kv;
        m.kvHeads = kv;
        m.vocab = integer(1000, 300000);
        m.weightDtype = pick(kAllDTypes);
        m.kvDtype = pick(kAllDTypes);
        m.attention = chance(0.5) ? AttentionFlops::Full : AttentionFlops::Causal;
        if (chance(0.3)) {
            m.experts = integer(2, 256);
            m.expertsPerToken = integer(1, std::min(8, m.experts));
            m.expertParams = m.params * uniform(0.05, 0.95) / m.experts;
        }
        if (chance(0.15)) {
            m.kvLoraRank = integer(16, 1024);
            m.ropeHeadDim = integer(0, 128);
        }
        if (chance(0.2)) {
            m.slidingWindow = integer(1, 32768);
            m.slidingLayers = integer(0, m.layers);
        }
        if (chance(0.2))
            m.activeParams = m.params * uniform(0.01, 1.0);

        Hardware& h = s.hardware;
        h.bandwidthBytesPerSecond = logUniform(0.05e12, 25e12);
        h.peakFlopsPerSecond = logUniform(5e12, 20000e12);
        h.peakFlopsFp8 = chance(0.5) ? 2 * h.peakFlopsPerSecond : 0.0;
        h.peakOpsInt8 = chance(0.5) ? 2 * h.peakFlopsPerSecond : 0.0;
        h.memoryBytes = logUniform(4e9, 1e12);
        h.gpus = chance(0.6) || m.heads < 2 ? 1 : integer(2, std::min(64, m.heads));
        h.linkBandwidthBytesPerSecond = logUniform(1e9, 2e12);
        h.linkLatencySeconds = chance(0.2) ? 0.0 : logUniform(1e-7, 1e-4);

        Workload& w = s.workload;
        w.batch = int(std::round(logUniform(1, 4096)));
        w.contextTokens = chance(0.1) ? 0 : int(std::round(logUniform(1, 2e6)));
        w.promptTokens = chance(0.05) ? 0 : int(std::round(logUniform(1, 2e6)));
        w.outputTokens = integer(0, 32768);
        w.itlSloMs.clear();
        for (int i = integer(0, 3); i > 0; --i)
            w.itlSloMs.push_back(logUniform(0.01, 10000));
        w.ttftSloMs = logUniform(1, 1e6);
        w.queueWaitMs = chance(0.5) ? 0 : logUniform(0.01, 1e5);

        s.efficiency = {uniform(0.01, 1.0), uniform(0.01, 1.0), uniform(0.01, 1.0)};
        if (chance(0.2))
            s.efficiency = {1.0, 1.0, 1.0};

        Serving& v = s.serving;
        v.memoryUtilization = uniform(0.05, 1.0);
        v.activationReserveBytes = chance(0.5) ? 0 : logUniform(1e6, 50e9);
        v.maxContextTokens = int(std::round(logUniform(1, 2e6)));
        v.blockTokens = pick({1, 8, 16, 32, 128});
        v.prefixTokens = chance(0.5) ? 0 : integer(0, std::max(0, w.promptTokens + 100));
        v.prefixHitRate = uniform(0, 1);

        s.speculative = {uniform(0, 0.99), integer(1, 16), uniform(0, 0.5), uniform(0, 1.0)};
        return s;
    }

private:
    double unit() { return double(m_rng() >> 11) * 0x1.0p-53; }
    std::mt19937_64 m_rng;
};

/** QVERIFY2 with a message built only on failure (Qt 6.4's QVERIFY2 evaluates it on every pass). */
#define PROPERTY(condition, message) \
    do { \
        if (!(condition)) \
            QFAIL(message); \
    } while (false)

/** The command line that reproduces @p s. */
QString setLine(const Scenario& s)
{
    QString line = QStringLiteral("ridgeline --report");
    for (const KeyInfo& k : scenarioKeys()) {
        const std::string v = getKey(s, k.key);
        if (!v.empty() && k.kind != KeyKind::Text)
            line += QStringLiteral(" --set ") + QString::fromUtf8(k.key.data(), qsizetype(k.key.size())) + QLatin1Char('=')
                    + QString::fromStdString(v);
    }
    return line;
}

bool nonDecreasing(const Eigen::ArrayXd& a, double relative = 1e-12)
{
    for (Eigen::Index i = 1; i < a.size(); ++i)
        if (a(i) < a(i - 1) * (1 - relative) - 1e-300)
            return false;
    return true;
}

} // namespace

class TestProperties final : public QObject {
    Q_OBJECT

private slots:
    void randomScenarios()
    {
        const int count = qEnvironmentVariableIntValue("RIDGELINE_PROPERTY_CASES") > 0
                              ? qEnvironmentVariableIntValue("RIDGELINE_PROPERTY_CASES")
                              : 100000;
        Generator gen(20261129);
        Evaluation e, wider;
        for (int i = 0; i < count; ++i) {
            const Scenario s = gen.scenario();
            // Built only when a check fails: formatting it for every case cost most of the run under ASan.
            const auto repro = [&] { return QStringLiteral("case %1: ").arg(i) + setLine(s); };
            const auto errors = validate(s);
            PROPERTY(errors.empty(), qPrintable(QString::fromStdString(errors.empty() ? "" : errors[0].message) + QStringLiteral("\n") + repro()));
            evaluate(s, e);
            const DecodeResult& d = e.decode;
            const double scalars[] = {d.weightBytes, d.residentWeightBytes, d.kvBytesPerToken, d.kvBytesPerTokenPerGpu,
                                      d.kvBytesPerSequence, d.kvBytes, d.readBytes, d.flop, d.memorySeconds, d.computeSeconds,
                                      d.commSeconds, d.stepSeconds, d.floorSecondsBatch1, d.totalWeightFloorSeconds, d.kvShare,
                                      d.tokensPerSecondPerUser, d.tokensPerSecondTotal, d.intensityFlopPerByte, d.interceptSeconds,
                                      d.slopeSecondsPerSequence, d.expertsTouched, e.roofline.ridgeFlopPerByte,
                                      e.roofline.effectiveRidgeFlopPerByte, e.roofline.decodeAchievedFlopsPerSecond,
                                      e.roofline.prefillIntensityFlopPerByte, e.roofline.prefillAchievedFlopsPerSecond,
                                      e.prefill.linearFlop, e.prefill.attentionFlop, e.prefill.flop, e.prefill.seconds,
                                      e.prefill.crossoverTokens, e.prefill.computeBoundTokens, e.prefill.attentionShare,
                                      e.prefill.kvWrittenBytes, e.capacity.kvBudgetBytes, e.slo.ttftMs, e.slo.ttftHeadroom,
                                      e.workload.prefillSecondsPerRequest, e.workload.decodeSecondsPerRequest, e.workload.prefillShare,
                                      e.prefixCache.savedSecondsPerRequest, e.prefixCache.costPerOutputTokenChange,
                                      e.speculative.speedup, e.speculative.modelVerifyCost, e.speculative.breakEvenVerifyCost};
            for (double v : scalars)
                PROPERTY(std::isfinite(v), qPrintable(QStringLiteral("non-finite output\n") + repro()));
            PROPERTY(d.stepSeconds > 0 && d.kvShare >= 0 && d.kvShare <= 1, qPrintable(repro()));
            PROPERTY(e.prefill.attentionShare >= 0 && e.prefill.attentionShare <= 1, qPrintable(repro()));
            PROPERTY(e.workload.prefillShare >= 0 && e.workload.prefillShare <= 1, qPrintable(repro()));
            PROPERTY(d.stepSeconds >= d.floorSecondsBatch1 * (1 - 1e-12), qPrintable(QStringLiteral("t_step below the floor\n") + repro()));
            PROPERTY(e.prefixCache.savedSecondsPerRequest >= 0 && e.prefixCache.savedSecondsPerRequest <= e.prefill.seconds * (1 + 1e-12),
                     qPrintable(repro()));
            // Capacity is never negative.
            PROPERTY(e.capacity.maxSequencesContiguous >= 0 && e.capacity.maxSequencesPaged >= 0
                         && e.capacity.maxSequencesContiguousAtMaxContext >= 0 && e.capacity.maxContextAtBatch.value_or(0) >= 0,
                     qPrintable(repro()));
            PROPERTY((e.sweeps.sequencesContiguous >= 0).all() && (e.sweeps.sequencesPaged >= 0).all()
                         && (e.sweeps.maxBatchFitting >= 0).all(),
                     qPrintable(repro()));
            // Sweeps: finite, shares in range, t_step and throughput non-decreasing in B.
            const Sweeps& w = e.sweeps;
            for (const Eigen::ArrayXd* a : {&w.stepMs, &w.memoryMs, &w.computeMs, &w.tokensPerSecondTotal, &w.weightFloorMs, &w.kvShare,
                                            &w.prefillFlop, &w.prefillMs, &w.attainableFlopsPerSecond, &w.speculativeSpeedup})
                PROPERTY(a->allFinite(), qPrintable(QStringLiteral("non-finite sweep\n") + repro()));
            PROPERTY((w.kvShare >= 0).all() && (w.kvShare <= 1).all(), qPrintable(repro()));
            PROPERTY(nonDecreasing(w.stepMs), qPrintable(QStringLiteral("t_step decreases with B\n") + repro()));
            PROPERTY(nonDecreasing(w.tokensPerSecondTotal, 1e-9), qPrintable(QStringLiteral("throughput decreases with B\n") + repro()));
            PROPERTY(nonDecreasing(w.prefillMs), qPrintable(QStringLiteral("prefill time decreases with P\n") + repro()));
            // t_step is non-decreasing in context.
            Scenario longer = s;
            longer.workload.contextTokens = std::min(2000000000, s.workload.contextTokens * 2 + 1);
            PROPERTY(stepSecondsAt(longer, s.workload.batch) >= d.stepSeconds * (1 - 1e-12),
                     qPrintable(QStringLiteral("t_step decreases with S\n") + repro()));
            // The largest batch for an SLO sits on the SLO boundary.
            for (const SloBatch& sb : d.maxBatchForItlSlo) {
                // The answer shown is the smaller of the SLO's batch and what fits, and names the bound.
                const long long fitting = e.capacity.weightsFit ? e.capacity.maxSequencesContiguous : 0;
                PROPERTY(sb.fittingBatch == fitting, qPrintable(repro()));
                PROPERTY(sb.servableBatch.has_value() == (sb.batch.has_value() && fitting > 0), qPrintable(repro()));
                if (sb.servableBatch)
                    PROPERTY(*sb.servableBatch == std::min(*sb.batch, fitting), qPrintable(repro()));
                PROPERTY((sb.limit == BatchLimit::Memory) == (sb.batch && (fitting <= 0 || *sb.batch > fitting)), qPrintable(repro()));
                if (!sb.batch) {
                    PROPERTY(stepSecondsAt(s, 1) * 1e3 > sb.sloMs, qPrintable(repro()));
                    continue;
                }
                PROPERTY(stepSecondsAt(s, double(*sb.batch)) * 1e3 <= sb.sloMs * (1 + 1e-12), qPrintable(repro()));
                if (*sb.batch < (1LL << 50))
                    PROPERTY(stepSecondsAt(s, double(*sb.batch + 1)) * 1e3 > sb.sloMs * (1 - 1e-12), qPrintable(repro()));
            }
            // P* and the attention share agree: for global full attention, share = P / (P + P*).
            if (s.model.slidingWindow == 0 && s.model.attention == AttentionFlops::Full && s.workload.promptTokens > 0) {
                const double P = s.workload.promptTokens;
                PROPERTY(std::abs(e.prefill.attentionShare - P / (P + e.prefill.crossoverTokens)) <= 1e-9, qPrintable(repro()));
            }
            if (e.prefill.crossoverExists && e.prefill.crossoverTokens > 0) {
                // At P*, the linear and quadratic terms are equal (checked on the closed forms).
                const double pStar = e.prefill.crossoverTokens;
                const double linear = 2.0 * s.model.activeParamsOrTotal() * pStar;
                const double factor = s.model.attention == AttentionFlops::Causal ? 2.0 : 4.0;
                const double layerTokens = s.model.globalLayers() * pStar
                                           + s.model.windowLayers() * std::min(pStar, double(s.model.slidingWindow));
                const double attention = factor * s.model.attentionWidth() * pStar * layerTokens;
                PROPERTY(std::abs(linear - attention) <= 1e-9 * linear, qPrintable(QStringLiteral("P* is not the crossover\n") + repro()));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestProperties)
#include "tst_properties.moc"
