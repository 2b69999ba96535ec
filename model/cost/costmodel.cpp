// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/costmodel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/cost/costterms.h"
#include "model/cost/formulas.h"

namespace ridgeline::model {

namespace {

Eigen::ArrayXd logGrid(int points, double from, double to)
{
    Eigen::ArrayXd g = Eigen::ArrayXd::LinSpaced(points, std::log10(from), std::log10(to));
    g = Eigen::pow(10.0, g);
    g(0) = from; // exact ends, free of rounding
    g(points - 1) = to;
    return g;
}

const Eigen::ArrayXd& batchGrid()
{
    static const Eigen::ArrayXd g = logGrid(Sweeps::kBatchPoints, 1.0, Sweeps::kBatchMax);
    return g;
}
const Eigen::ArrayXd& contextGrid()
{
    static const Eigen::ArrayXd g = logGrid(Sweeps::kContextPoints, Sweeps::kContextMin, Sweeps::kContextMax);
    return g;
}
const Eigen::ArrayXd& promptGrid()
{
    static const Eigen::ArrayXd g = logGrid(Sweeps::kPromptPoints, Sweeps::kPromptMin, Sweeps::kPromptMax);
    return g;
}
const Eigen::ArrayXd& intensityGrid()
{
    static const Eigen::ArrayXd g = logGrid(Sweeps::kIntensityPoints, Sweeps::kIntensityMin, Sweeps::kIntensityMax);
    return g;
}

/** Largest whole B >= 1 with t_step(B) <= limit (t_step is non-decreasing in B), or nullopt. */
std::optional<long long> largestBatchWithin(const CostTerms& t, double context, double limitSeconds)
{
    if (t.stepSeconds(1.0, context) > limitSeconds)
        return std::nullopt;
    constexpr long long kCap = 1LL << 50; // beyond any real batch
    long long lo = 1, hi = 2;
    while (hi < kCap && t.stepSeconds(double(hi), context) <= limitSeconds) {
        lo = hi;
        hi *= 2;
    }
    if (hi >= kCap && t.stepSeconds(double(kCap), context) <= limitSeconds)
        return kCap;
    while (hi - lo > 1) { // invariant: t(lo) <= limit < t(hi)
        const long long mid = lo + (hi - lo) / 2;
        (t.stepSeconds(double(mid), context) <= limitSeconds ? lo : hi) = mid;
    }
    return lo;
}

/** Root of an increasing-then-positive f on (lo, hi) by bisection in log space; nullopt without a sign change. */
template <typename F>
std::optional<double> logBisect(F f, double lo, double hi)
{
    if (f(lo) >= 0)
        return lo;
    if (f(hi) < 0)
        return std::nullopt;
    for (int i = 0; i < 200 && hi / lo > 1.0 + 1e-15; ++i) {
        const double mid = std::sqrt(lo * hi);
        (f(mid) < 0 ? lo : hi) = mid;
    }
    return std::sqrt(lo * hi);
}

} // namespace

double kvBytesPerToken(const ModelShape& m)
{
    const double kvElement = bytesPerElement(m.kvDtype);
    if (m.isMla())
        return double(m.attentionLayersOrAll()) * (m.kvLoraRank + m.ropeHeadDim) * kvElement;
    return 2.0 * m.attentionLayersOrAll() * m.kvHeads * double(m.headDimOrDefault()) * kvElement;
}

double weightBytes(const ModelShape& m)
{
    const double unquantized = std::clamp(m.unquantizedParams, 0.0, m.params);
    return (m.params - unquantized) * weightBytesPerParameter(m.weightDtype) + unquantized * kUnquantizedBytesPerParameter;
}

double expectedExpertsTouched(const ModelShape& m, double tokens)
{
    if (!m.isMoe())
        return 0.0;
    return m.experts * (1.0 - std::pow(1.0 - double(m.expertsPerToken) / m.experts, tokens));
}

DType matmulDtype(DType weights)
{
    switch (weights) {
    case DType::FP8: return DType::FP8;
    case DType::INT8: return DType::INT8;
    case DType::NVFP4: return DType::NVFP4;
    case DType::MXFP4: return DType::MXFP4;
    default: return DType::BF16; // bf16, fp16, int4 (W4A16), q8_0 and q4_0 (dequantized into 16-bit matmuls)
    }
}

namespace {

/** The field of @p hw (const or not) that holds the matmul peak for @p weights. */
template <typename HardwareT>
auto& peakFieldOf(HardwareT& hw, DType weights)
{
    switch (matmulDtype(weights)) {
    case DType::FP8: return hw.peakFlopsFp8 > 0 ? hw.peakFlopsFp8 : hw.peakFlopsPerSecond;
    case DType::INT8: return hw.peakOpsInt8 > 0 ? hw.peakOpsInt8 : hw.peakFlopsPerSecond;
    case DType::NVFP4:
    case DType::MXFP4: return hw.peakFlopsFp4 > 0 ? hw.peakFlopsFp4 : hw.peakFlopsPerSecond;
    default: return hw.peakFlopsPerSecond;
    }
}

} // namespace

double& matmulPeakField(Hardware& hw, DType weights)
{
    return peakFieldOf(hw, weights);
}

double matmulPeak(const Hardware& hw, DType weights)
{
    return peakFieldOf(hw, weights);
}

DType matmulPeakDtype(const Hardware& hw, DType weights)
{
    const double* field = &peakFieldOf(hw, weights);
    if (field == &hw.peakFlopsFp8)
        return DType::FP8;
    if (field == &hw.peakOpsInt8)
        return DType::INT8;
    if (field == &hw.peakFlopsFp4)
        return matmulDtype(weights);
    return DType::BF16;
}

double stepSecondsAt(const Scenario& scenario, double batch)
{
    return costTerms(scenario).stepSeconds(batch, scenario.workload.contextTokens);
}

void evaluate(const Scenario& s, Evaluation& out)
{
    const CostTerms t = costTerms(s);
    const double B = s.workload.batch;
    const double S = s.workload.contextTokens;
    const double P = s.workload.promptTokens;

    // Decode.
    DecodeResult& d = out.decode;
    d.weightBytes = t.weightReadBytes(B);
    d.residentWeightBytes = t.residentWeightBytes;
    d.kvBytesPerToken = kvBytesPerToken(s.model);
    d.kvBytesPerTokenPerGpu = t.kvPerLayerTokenPerGpu * t.attentionLayers;
    d.kvBytesPerSequence = t.cacheBytesPerSequence(S);
    d.expertsTouched = t.expertsTouched(B);
    d.kvBytes = B * d.kvBytesPerSequence;
    d.readBytes = d.weightBytes + d.kvBytes;
    d.flop = t.decodeFlop(B, S);
    {
        // The cost model's one step time (CostTerms::step, as the sweep below and the simulator's StepCost).
        const StepBreakdown step = t.step(t.decodeStep(B, S));
        d.memorySeconds = step.memorySeconds;
        d.computeSeconds = step.computeSeconds;
        d.commSeconds = step.commSeconds;
        d.stepSeconds = step.seconds;
    }
    d.bound = d.computeSeconds > d.memorySeconds ? Bound::Compute : Bound::Memory;
    d.floorSecondsBatch1 = t.weightReadBytes(1.0) / t.bandwidth;
    d.totalWeightFloorSeconds = t.residentWeightBytes / t.gpus / t.bandwidth;
    d.kvShare = d.kvBytes / d.readBytes;
    d.tokensPerSecondPerUser = 1.0 / d.stepSeconds;
    d.tokensPerSecondTotal = B / d.stepSeconds;
    d.intensityFlopPerByte = d.flop / d.readBytes;
    // Dense: t_step(B) = a + b B exactly, the embedding rows a step gathers counted per sequence in b (0 under the
    // table convention). MoE: a(B) = W(B) / BW holds the rows with the experts touched.
    const double rowPerSequence = t.experts > 0 ? 0.0 : t.embeddingRowBytesPerGpu();
    d.interceptSeconds = t.weightReadBytes(t.experts > 0 ? 1.0 : 0.0) / t.effectiveBandwidth + (t.gpus > 1 ? t.commLatencySeconds : 0.0)
                         + t.stepOverheadSeconds;
    d.slopeSecondsPerSequence = d.kvBytesPerSequence / t.kvEffectiveBandwidth + rowPerSequence / t.effectiveBandwidth
                                + t.commSecondsPerToken + t.perSequenceOverheadSeconds;

    // Roofline.
    RooflineResult& r = out.roofline;
    r.computeDtype = matmulDtype(s.model.weightDtype);
    r.computePeakFallback = (isFp4(r.computeDtype) && !(s.hardware.peakFlopsFp4 > 0))
                            || (r.computeDtype == DType::FP8 && !(s.hardware.peakFlopsFp8 > 0))
                            || (r.computeDtype == DType::INT8 && !(s.hardware.peakOpsInt8 > 0));
    r.peakFlopsPerSecond = t.peakFlops;
    r.ridgeFlopPerByte = t.peakFlops / t.bandwidth;
    r.effectiveRidgeFlopPerByte = t.decodeFlops / t.effectiveBandwidth;
    if (t.experts <= 0) {
        // Dense: t_comp = c B and t_mem = a + b B cross at B = a / (c - b) when c > b.
        const double a = t.weightReadBytes(0.0) / t.effectiveBandwidth;
        const double b = d.kvBytesPerSequence / t.kvEffectiveBandwidth + rowPerSequence / t.effectiveBandwidth;
        const double c = t.decodeFlop(1.0, S) / t.decodeFlops;
        r.computeBoundBatch = c > b ? std::optional<double>(a / (c - b)) : std::nullopt;
    } else {
        r.computeBoundBatch = logBisect(
            [&](double b) { return t.decodeComputeSeconds(b, S) - t.decodeMemorySeconds(b, S); }, 1e-6, 1e12);
    }
    r.decodeIntensityFlopPerByte = d.intensityFlopPerByte;
    r.decodeAchievedFlopsPerSecond = d.flop / d.stepSeconds;

    // Prefill.
    PrefillResult& p = out.prefill;
    p.linearFlop = t.prefillLinearFlop(P);
    p.attentionFlop = t.prefillAttentionFlop(P);
    p.flop = p.linearFlop + p.attentionFlop;
    p.computeSeconds = t.prefillComputeSecondsOf(p.linearFlop, p.attentionFlop);
    p.memorySeconds = t.prefillMemorySeconds(P);
    p.commSeconds = t.commSeconds(P);
    p.seconds = std::max(p.computeSeconds, p.memorySeconds) + p.commSeconds + t.prefillOverheadSeconds;
    p.bound = p.computeSeconds >= p.memorySeconds ? Bound::Compute : Bound::Memory;
    {
        // Linear = attention where 2 N_active = factor * d_attn * (L_g P + L_w min(P, w)).
        const double target = 2.0 * t.activeParams / (t.prefillAttentionFactor * t.attentionWidth);
        const double allLayers = t.globalLayers + t.windowLayers;
        p.crossoverExists = true;
        if (allLayers <= 0) {
            p.crossoverTokens = 0; // no attention layer: the attention term never grows
            p.crossoverExists = false;
        } else if (t.windowLayers <= 0 || target <= allLayers * t.window)
            p.crossoverTokens = target / allLayers;
        else if (t.globalLayers > 0)
            p.crossoverTokens = (target - t.windowLayers * t.window) / t.globalLayers;
        else {
            p.crossoverTokens = 0;
            p.crossoverExists = false;
        }
    }
    {
        // Prompt length where compute time overtakes memory time.
        auto gap = [&](double prompt) { return t.prefillComputeSeconds(prompt) - t.prefillMemorySeconds(prompt); };
        const std::optional<double> root = logBisect(gap, 1e-3, 1e12);
        p.computeBoundExists = root.has_value();
        p.computeBoundTokens = root.value_or(0.0);
    }
    p.attentionShare = p.flop > 0 ? p.attentionFlop / p.flop : 0.0;
    p.kvWrittenBytes = t.kvPerLayerToken * t.layerTokens(P) + t.statePerSequencePerGpu * t.gpus;
    p.scoreMatrixElements = scoreMatrixElements(P);
    p.scoreMatrixBytesPerHead = p.scoreMatrixElements * bytesPerElement(DType::BF16);
    p.logitsBytesAllPositions = logitsBytes(P, double(s.model.vocab));
    r.prefillIntensityFlopPerByte = (p.flop / t.gpus) / t.prefillBytes(P);
    r.prefillAchievedFlopsPerSecond = p.seconds > 0 ? p.flop / t.gpus / p.seconds : 0.0;

    // Capacity per GPU.
    CapacityResult& c = out.capacity;
    const Serving& sv = s.serving;
    const double kvLayerToken = t.kvPerLayerTokenPerGpu;
    c.utilization = sv.memoryUtilization;
    c.kvBudgetBytes = t.kvBudgetBytes;
    c.kvNeededBytes = d.kvBytes;
    c.fits = c.kvBudgetBytes >= 0 && c.kvNeededBytes <= c.kvBudgetBytes;
    c.maxSequencesContiguous = S > 0 ? maxSequencesContiguous(c.kvBudgetBytes, 1.0, d.kvBytesPerSequence) : 0;
    const double state = t.statePerSequencePerGpu;
    c.maxSequencesContiguousAtMaxContext
        = maxSequencesContiguous(c.kvBudgetBytes, 1.0, kvLayerToken * t.layerTokens(sv.maxContextTokens) + state);
    const double held = std::min<double>(S, sv.maxContextTokens);
    c.maxSequencesPaged = held > 0 ? maxSequencesContiguous(c.kvBudgetBytes, 1.0, kvLayerToken * t.pagedLayerTokens(held, sv.blockTokens) + state) : 0;
    {
        // Largest S with B * kv(S) <= budget, kv(S) piecewise linear: L * S up to the window, then L_g * S + L_w * w.
        // layer-tokens one sequence may hold beside its fixed-size state
        const double perSequence = (c.kvBudgetBytes / B - state) / kvLayerToken;
        const double allLayers = t.globalLayers + t.windowLayers;
        if (c.kvBudgetBytes < 0 || perSequence < 0)
            c.maxContextAtBatch = 0;
        else if (!(kvLayerToken > 0) || allLayers <= 0)
            c.maxContextAtBatch = std::nullopt; // no KV cache: the context does not fill memory
        else if (t.windowLayers > 0 && perSequence > allLayers * t.window) {
            if (t.globalLayers > 0)
                c.maxContextAtBatch = static_cast<long long>(std::floor((perSequence - t.windowLayers * t.window) / t.globalLayers));
            else
                c.maxContextAtBatch = std::nullopt; // every layer slides: the cache stops growing at the window
        } else {
            c.maxContextAtBatch = static_cast<long long>(std::floor(perSequence / allLayers));
        }
    }

    c.requestKvBytes = p.kvWrittenBytes;
    c.weightsFit = c.kvBudgetBytes >= 0;

    // Largest batch per ITL SLO: the step time and the KV budget both cap it.
    d.maxBatchForItlSlo.resize(s.workload.itlSloMs.size());
    for (size_t i = 0; i < s.workload.itlSloMs.size(); ++i) {
        SloBatch& sb = d.maxBatchForItlSlo[i];
        sb.sloMs = s.workload.itlSloMs[i];
        sb.batch = largestBatchWithin(t, S, sb.sloMs / 1000.0);
        sb.fittingBatch = c.weightsFit ? c.maxSequencesContiguous : 0;
        // An SLO that even B = 1 misses binds whatever memory holds: more memory would not meet it.
        if (!sb.batch)
            sb.limit = BatchLimit::Slo;
        else
            sb.limit = sb.fittingBatch <= 0 || *sb.batch > sb.fittingBatch ? BatchLimit::Memory : BatchLimit::Slo;
        if (sb.batch && sb.fittingBatch > 0)
            sb.servableBatch = std::min(*sb.batch, sb.fittingBatch);
        else
            sb.servableBatch.reset();
    }

    // SLO headroom.
    SloResult& slo = out.slo;
    slo.itlHeadroom.resize(s.workload.itlSloMs.size());
    slo.itlHeadroomAtBatch.resize(s.workload.itlSloMs.size());
    for (size_t i = 0; i < s.workload.itlSloMs.size(); ++i) {
        slo.itlHeadroom[i] = s.workload.itlSloMs[i] / (d.floorSecondsBatch1 * 1e3);
        slo.itlHeadroomAtBatch[i] = s.workload.itlSloMs[i] / (d.stepSeconds * 1e3);
    }
    slo.ttftMs = s.workload.queueWaitMs + p.seconds * 1e3;
    slo.ttftHeadroom = s.workload.ttftSloMs / slo.ttftMs;
    slo.ttftMet = slo.ttftMs <= s.workload.ttftSloMs;

    // Workload shape: one request's GPU time in each phase at the current batch.
    WorkloadResult& wl = out.workload;
    const double O = s.workload.outputTokens;
    wl.decodeContextTokens = P + O / 2.0;
    wl.prefillSecondsPerRequest = p.seconds;
    wl.decodeSecondsPerRequest = O * t.stepSeconds(B, wl.decodeContextTokens) / B;
    const double requestSeconds = wl.prefillSecondsPerRequest + wl.decodeSecondsPerRequest;
    wl.prefillShare = requestSeconds > 0 ? wl.prefillSecondsPerRequest / requestSeconds : 0.0;
    wl.gpuSecondsPerOutputToken = O > 0 ? requestSeconds / O : 0.0;

    // Prefix caching: the cached prefix is neither computed nor written again; the suffix still attends to all P.
    PrefixCacheResult& pc = out.prefixCache;
    pc.sharedTokens = std::min<double>(sv.prefixTokens, P);
    const double suffix = P - pc.sharedTokens;
    const double suffixLinearFlop = t.prefillLinearFlop(suffix);
    const double suffixAttentionFlop = t.prefillAttentionFactor * t.attentionWidth * suffix * t.layerTokens(P);
    const double suffixFlop = suffixLinearFlop + suffixAttentionFlop;
    const double suffixBytes = t.weightReadBytes(suffix) + kvLayerToken * (t.layerTokens(P) - t.layerTokens(pc.sharedTokens));
    const double suffixSeconds = std::max(t.prefillComputeSecondsOf(suffixLinearFlop, suffixAttentionFlop), suffixBytes / t.effectiveBandwidth) + t.commSeconds(suffix)
                                 + t.prefillOverheadSeconds;
    pc.prefillSecondsPerToken = P > 0 ? p.seconds / P : 0.0;
    pc.savedSecondsPerRequest = sv.prefixHitRate * std::max(0.0, p.seconds - suffixSeconds);
    pc.savedFlopPerRequest = sv.prefixHitRate * (p.flop - suffixFlop);
    pc.costPerOutputTokenChange = requestSeconds > 0 ? -pc.savedSecondsPerRequest / requestSeconds : 0.0;

    // Speculative decoding.
    SpeculativeEvaluation& sp = out.speculative;
    const Speculative& spec = s.speculative;
    const SpeculativeResult sr = speculativeDecoding(spec.acceptance, spec.draftTokens, spec.draftCost, spec.verifyCost);
    sp.expectedTokensPerStep = sr.expectedTokensPerStep;
    sp.speedup = sr.speedup;
    sp.discardedFraction = sr.discardedFraction;
    const double k = spec.draftTokens;
    sp.breakEvenVerifyCost = (sr.expectedTokensPerStep - 1.0 - k * spec.draftCost) / k;
    {
        const double verifySeconds = std::max(d.memorySeconds, (k + 1.0) * d.computeSeconds) + t.commSeconds(B * (k + 1.0))
                                     + t.stepOverheadSeconds;
        sp.modelVerifyCost = (verifySeconds - d.stepSeconds) / (k * d.stepSeconds);
    }

    // Sweeps on fixed grids.
    Sweeps& w = out.sweeps;
    if (w.batch.size() != Sweeps::kBatchPoints) {
        w.batch = batchGrid();
        w.context = contextGrid();
        w.prompt = promptGrid();
        w.intensity = intensityGrid();
        w.maxContext = logGrid(Sweeps::kCapacityPoints, Sweeps::kCapacityMin, Sweeps::kContextMax);
        w.verifyCost = Eigen::ArrayXd::LinSpaced(Sweeps::kVerifyPoints, 0.0, 1.0);
    }
    w.sequencesContiguous.resize(w.maxContext.size());
    w.sequencesPaged.resize(w.maxContext.size());
    for (Eigen::Index i = 0; i < w.maxContext.size(); ++i) {
        const double maxContext = w.maxContext(i);
        w.sequencesContiguous(i) = double(maxSequencesContiguous(c.kvBudgetBytes, 1.0, kvLayerToken * t.layerTokens(maxContext) + state));
        const double heldTokens = std::min(S, maxContext);
        w.sequencesPaged(i) = heldTokens > 0
            ? double(maxSequencesContiguous(c.kvBudgetBytes, 1.0, kvLayerToken * t.pagedLayerTokens(heldTokens, sv.blockTokens) + state))
            : 0.0;
    }
    w.maxBatchFitting.resize(w.context.size());
    for (Eigen::Index i = 0; i < w.context.size(); ++i)
        w.maxBatchFitting(i) = double(maxSequencesContiguous(c.kvBudgetBytes, 1.0, kvLayerToken * t.layerTokens(w.context(i)) + state));
    w.speculativeSpeedup = sr.expectedTokensPerStep / (1.0 + k * spec.draftCost + k * w.verifyCost);
    if (t.experts > 0 || t.embeddingTableBytes > 0) {
        w.weightFloorMs.resize(w.batch.size());
        for (Eigen::Index i = 0; i < w.batch.size(); ++i)
            w.weightFloorMs(i) = t.weightReadBytes(w.batch(i)) / t.bandwidth * 1000.0;
    } else {
        w.weightFloorMs.setConstant(w.batch.size(), t.residentWeightBytes / t.gpus / t.bandwidth * 1000.0);
    }
    // t_step(B) at each grid batch from the one step time (CostTerms::step), as d.stepSeconds above.
    w.memoryMs.resize(w.batch.size());
    w.computeMs.resize(w.batch.size());
    w.stepMs.resize(w.batch.size());
    w.commMs.resize(w.batch.size());
    for (Eigen::Index i = 0; i < w.batch.size(); ++i) {
        const StepBreakdown step = t.step(t.decodeStep(w.batch(i), S));
        w.memoryMs(i) = step.memorySeconds * 1000.0;
        w.computeMs(i) = step.computeSeconds * 1000.0;
        w.stepMs(i) = step.seconds * 1000.0;
        w.commMs(i) = step.commSeconds * 1000.0;
    }
    w.tokensPerSecondPerUser = 1000.0 / w.stepMs;
    w.tokensPerSecondTotal = w.batch * w.tokensPerSecondPerUser;

    {
        const double perLayerB = B * t.kvPerLayerTokenPerGpu;
        w.kvShare.resize(w.context.size());
        for (Eigen::Index i = 0; i < w.context.size(); ++i) {
            const double kv = perLayerB * t.layerTokens(w.context(i)) + B * t.statePerSequencePerGpu;
            w.kvShare(i) = kv / (d.weightBytes + kv);
        }
    }

    w.prefillLinearFlop = 2.0 * t.activeParams * w.prompt;
    if (t.windowLayers > 0) {
        w.prefillAttentionFlop.resize(w.prompt.size());
        for (Eigen::Index i = 0; i < w.prompt.size(); ++i)
            w.prefillAttentionFlop(i) = t.prefillAttentionFlop(w.prompt(i));
    } else {
        w.prefillAttentionFlop = (t.prefillAttentionFactor * t.attentionWidth * t.globalLayers) * w.prompt.square();
    }
    w.prefillFlop = w.prefillLinearFlop + w.prefillAttentionFlop;
    w.prefillMs.resize(w.prompt.size());
    for (Eigen::Index i = 0; i < w.prompt.size(); ++i) {
        const double prompt = w.prompt(i);
        w.prefillMs(i) = (std::max(t.prefillComputeSecondsOf(w.prefillLinearFlop(i), w.prefillAttentionFlop(i)), t.prefillMemorySeconds(prompt))
                          + t.commSeconds(prompt) + t.prefillOverheadSeconds) * 1000.0;
    }

    w.attainableFlopsPerSecond = (w.intensity * t.bandwidth).min(t.peakFlops);
    w.attainableDeratedFlopsPerSecond = (w.intensity * t.effectiveBandwidth).min(t.decodeFlops);
}

Evaluation evaluate(const Scenario& scenario)
{
    Evaluation e;
    evaluate(scenario, e);
    return e;
}

TimeTerm largestTimeTerm(double computeSeconds, double memorySeconds, double commSeconds, bool computeOnTie)
{
    if (commSeconds > computeSeconds && commSeconds > memorySeconds)
        return TimeTerm::Communication;
    return computeSeconds > memorySeconds || (computeOnTie && computeSeconds == memorySeconds) ? TimeTerm::Compute : TimeTerm::Memory;
}

TimeTerm largestTimeTerm(const DecodeResult& d)
{
    return largestTimeTerm(d.computeSeconds, d.memorySeconds, d.commSeconds);
}

TimeTerm largestTimeTerm(const PrefillResult& p)
{
    return largestTimeTerm(p.computeSeconds, p.memorySeconds, p.commSeconds, true);
}

const char* timeTermName(TimeTerm term)
{
    switch (term) {
    case TimeTerm::Compute: return "compute";
    case TimeTerm::Memory: return "memory";
    case TimeTerm::Communication: break;
    }
    return "communication";
}

} // namespace ridgeline::model
