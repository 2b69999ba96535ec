// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/costmodel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/formulas.h"

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

/** Coefficients of t_step(B) = max(a + b*B, c*B), seconds. */
struct StepLine {
    double a; ///< W / (BW * eta_bw)
    double b; ///< S * kv_tok / (BW * eta_bw)
    double c; ///< (2 N_active + 4 L S d_attn) / (F_peak * MFU_decode)
    double at(double batch) const { return std::max(a + b * batch, c * batch); }
};

StepLine stepLine(const Scenario& s)
{
    const ModelShape& m = s.model;
    const double effectiveBandwidth = s.hardware.bandwidthBytesPerSecond * s.efficiency.bandwidth;
    const double effectiveFlops = s.hardware.peakFlopsPerSecond * s.efficiency.mfuDecode;
    const double context = s.workload.contextTokens;
    return {weightBytes(m) / effectiveBandwidth, context * kvBytesPerToken(m) / effectiveBandwidth,
            (2.0 * m.activeParamsOrTotal() + 4.0 * m.layers * context * m.attentionWidth()) / effectiveFlops};
}

/** Largest whole B >= 1 with line.at(B) <= limit, or nullopt when even B = 1 misses it. */
std::optional<long long> largestBatchWithin(const StepLine& line, double limitSeconds)
{
    if (line.at(1.0) > limitSeconds)
        return std::nullopt;
    constexpr double kCap = 1e15; // beyond any real batch; keeps the result a long long
    double bound = kCap;
    if (line.b > 0)
        bound = std::min(bound, (limitSeconds - line.a) / line.b);
    if (line.c > 0)
        bound = std::min(bound, limitSeconds / line.c);
    long long batch = std::max(1LL, static_cast<long long>(std::floor(bound)));
    // The closed form can land one off through rounding; settle it on the exact comparison.
    while (batch < kCap && line.at(double(batch + 1)) <= limitSeconds)
        ++batch;
    while (batch > 1 && line.at(double(batch)) > limitSeconds)
        --batch;
    return batch;
}

} // namespace

double kvBytesPerToken(const ModelShape& m)
{
    return 2.0 * m.layers * m.kvHeads * double(m.headDimOrDefault()) * bytesPerElement(m.kvDtype);
}

double weightBytes(const ModelShape& m)
{
    return m.params * bytesPerElement(m.weightDtype);
}

double stepSecondsAt(const Scenario& scenario, double batch)
{
    return stepLine(scenario).at(batch);
}

void evaluate(const Scenario& s, Evaluation& out)
{
    const ModelShape& m = s.model;
    const double bandwidth = s.hardware.bandwidthBytesPerSecond;
    const double peakFlops = s.hardware.peakFlopsPerSecond;
    const double effectiveBandwidth = bandwidth * s.efficiency.bandwidth;
    const double decodeFlops = peakFlops * s.efficiency.mfuDecode;
    const double prefillFlops = peakFlops * s.efficiency.mfuPrefill;
    const double W = weightBytes(m);
    const double kvTok = kvBytesPerToken(m);
    const double activeParams = m.activeParamsOrTotal();
    const double layers = m.layers;
    const double dAttn = m.attentionWidth();
    const double B = s.workload.batch;
    const double S = s.workload.contextTokens;
    const double P = s.workload.promptTokens;
    const StepLine line = stepLine(s);

    // Decode.
    DecodeResult& d = out.decode;
    d.weightBytes = W;
    d.kvBytesPerToken = kvTok;
    d.kvBytes = B * S * kvTok;
    d.readBytes = W + d.kvBytes;
    d.flop = 2.0 * activeParams * B + 4.0 * layers * B * S * dAttn;
    d.memorySeconds = d.readBytes / effectiveBandwidth;
    d.computeSeconds = d.flop / decodeFlops;
    d.stepSeconds = std::max(d.memorySeconds, d.computeSeconds);
    d.bound = d.computeSeconds > d.memorySeconds ? Bound::Compute : Bound::Memory;
    d.floorSecondsBatch1 = W / bandwidth;
    d.kvShare = d.kvBytes / d.readBytes;
    d.tokensPerSecondPerUser = 1.0 / d.stepSeconds;
    d.tokensPerSecondTotal = B / d.stepSeconds;
    d.intensityFlopPerByte = d.flop / d.readBytes;
    d.interceptSeconds = line.a;
    d.slopeSecondsPerSequence = line.b;
    d.maxBatchForItlSlo.resize(s.workload.itlSloMs.size());
    for (size_t i = 0; i < s.workload.itlSloMs.size(); ++i) {
        const double sloMs = s.workload.itlSloMs[i];
        d.maxBatchForItlSlo[i] = {sloMs, largestBatchWithin(line, sloMs / 1000.0)};
    }

    // Roofline.
    RooflineResult& r = out.roofline;
    r.ridgeFlopPerByte = peakFlops / bandwidth;
    r.effectiveRidgeFlopPerByte = decodeFlops / effectiveBandwidth;
    r.computeBoundBatch = line.c > line.b ? std::optional<double>(line.a / (line.c - line.b)) : std::nullopt;
    r.decodeIntensityFlopPerByte = d.intensityFlopPerByte;
    r.decodeAchievedFlopsPerSecond = d.flop / d.stepSeconds;

    // Prefill.
    PrefillResult& p = out.prefill;
    p.linearFlop = 2.0 * activeParams * P;
    p.attentionFlop = 4.0 * layers * P * P * dAttn;
    p.flop = p.linearFlop + p.attentionFlop;
    p.computeSeconds = p.flop / prefillFlops;
    p.memorySeconds = (W + P * kvTok) / effectiveBandwidth;
    p.seconds = std::max(p.computeSeconds, p.memorySeconds);
    p.bound = p.computeSeconds >= p.memorySeconds ? Bound::Compute : Bound::Memory;
    p.crossoverTokens = activeParams / (2.0 * layers * dAttn);
    {
        // alpha P^2 + beta P - gamma = 0; the positive root, in the cancellation-free form.
        const double alpha = 4.0 * layers * dAttn / prefillFlops;
        const double beta = 2.0 * activeParams / prefillFlops - kvTok / effectiveBandwidth;
        const double gamma = W / effectiveBandwidth;
        p.computeBoundTokens = 2.0 * gamma / (beta + std::sqrt(beta * beta + 4.0 * alpha * gamma));
    }
    p.attentionShare = P > 0 ? P / (P + p.crossoverTokens) : 0.0;
    p.kvWrittenBytes = P * kvTok;
    p.scoreMatrixElements = scoreMatrixElements(P);
    r.prefillIntensityFlopPerByte = p.flop / (W + P * kvTok);
    r.prefillAchievedFlopsPerSecond = p.seconds > 0 ? p.flop / p.seconds : 0.0;

    // Capacity on one GPU.
    CapacityResult& c = out.capacity;
    c.kvBudgetBytes = s.hardware.memoryBytes * c.utilization - W;
    c.kvNeededBytes = d.kvBytes;
    c.fits = c.kvBudgetBytes >= 0 && c.kvNeededBytes <= c.kvBudgetBytes;
    c.maxSequencesContiguous = S > 0 ? maxSequencesContiguous(c.kvBudgetBytes, S, kvTok) : 0;

    // Sweeps on fixed grids.
    Sweeps& w = out.sweeps;
    if (w.batch.size() != Sweeps::kBatchPoints) {
        w.batch = batchGrid();
        w.context = contextGrid();
        w.prompt = promptGrid();
        w.intensity = intensityGrid();
    }
    w.memoryMs = (line.a + line.b * w.batch) * 1000.0;
    w.computeMs = (line.c * w.batch) * 1000.0;
    w.stepMs = w.memoryMs.max(w.computeMs);
    w.tokensPerSecondPerUser = 1000.0 / w.stepMs;
    w.tokensPerSecondTotal = w.batch * w.tokensPerSecondPerUser;

    w.kvShare = (B * kvTok * w.context) / (W + B * kvTok * w.context);

    w.prefillLinearFlop = 2.0 * activeParams * w.prompt;
    w.prefillAttentionFlop = (4.0 * layers * dAttn) * w.prompt.square();
    w.prefillFlop = w.prefillLinearFlop + w.prefillAttentionFlop;
    w.prefillMs = ((w.prefillFlop / prefillFlops).max((W + kvTok * w.prompt) / effectiveBandwidth)) * 1000.0;

    w.attainableFlopsPerSecond = (w.intensity * bandwidth).min(peakFlops);
    w.attainableDeratedFlopsPerSecond = (w.intensity * effectiveBandwidth).min(decodeFlops);
}

Evaluation evaluate(const Scenario& scenario)
{
    Evaluation e;
    evaluate(scenario, e);
    return e;
}

} // namespace ridgeline::model
