// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/steptime.h"

#include <algorithm>
#include <cmath>

#include "model/costmodel.h"
#include "model/dtype.h"

namespace ridgeline::model {

namespace {
constexpr double kActivationBytes = 2.0; // bf16 activations in the tensor-parallel all-reduces (as costmodel.cpp)
} // namespace

// The per-scenario constants below repeat costmodel.cpp's internal Terms (same formulas) so that a
// step of B equal decodes, or one whole prompt, gives the cost model's t_step and t_pre to rounding.
StepCost::StepCost(const Scenario& s)
{
    const ModelShape& m = s.model;
    const Hardware& hw = s.hardware;
    m_gpus = std::max(1, hw.gpus);
    m_effectiveBandwidth = hw.bandwidthBytesPerSecond * s.efficiency.bandwidth;
    const DType compute = matmulDtype(m.weightDtype);
    double peak = hw.peakFlopsPerSecond;
    if (compute == DType::FP8 && hw.peakFlopsFp8 > 0)
        peak = hw.peakFlopsFp8;
    else if (compute == DType::INT8 && hw.peakOpsInt8 > 0)
        peak = hw.peakOpsInt8;
    m_decodeFlops = peak * s.efficiency.mfuDecode;
    m_prefillFlops = peak * s.efficiency.mfuPrefill;
    const double bw = weightBytesPerParameter(m.weightDtype);
    m_residentWeightBytes = m.params * bw;
    m_experts = m.isMoe() ? m.experts : 0;
    m_expertsPerToken = m.expertsPerToken;
    m_expertWeightBytes = m.isMoe() ? m.expertParams * bw : 0.0;
    m_nonExpertWeightBytes = m_residentWeightBytes - m_experts * m_expertWeightBytes;
    m_activeParams = m.activeParamsOrTotal();
    m_attentionWidth = m.attentionWidth();
    m_layers = m.layers;
    m_globalLayers = m.globalLayers();
    m_windowLayers = m.windowLayers();
    m_window = m.slidingWindow;
    const double kvElement = bytesPerElement(m.kvDtype);
    if (m.isMla()) {
        m_kvPerLayerTokenPerGpu = double(m.kvLoraRank + m.ropeHeadDim) * kvElement; // latent replicated
    } else {
        const double h = m.headDimOrDefault();
        m_kvPerLayerTokenPerGpu = 2.0 * std::ceil(double(m.kvHeads) / m_gpus) * h * kvElement;
    }
    m_causal = m.attention == AttentionFlops::Causal;
    if (m_gpus > 1) {
        const double ringFactor = 2.0 * (m_gpus - 1) / m_gpus;
        m_commSecondsPerToken = 2.0 * m_layers * ringFactor * double(m.hidden) * kActivationBytes / hw.linkBandwidthBytesPerSecond;
        m_commLatencySeconds = 2.0 * m_layers * hw.linkLatencySeconds;
    }
    m_stepOverheadSeconds = s.efficiency.stepOverheadSeconds;
    m_prefillOverheadSeconds = s.efficiency.prefillOverheadSeconds;
    m_kvBudgetBytes = hw.memoryBytes * s.serving.memoryUtilization - m_residentWeightBytes / m_gpus
                      - s.serving.activationReserveBytes;
}

StepBreakdown StepCost::breakdown(const StepTotals& t) const
{
    StepBreakdown b;
    const double tokens = t.decodeTokens + t.prefillTokens;
    if (tokens <= 0)
        return b;
    double weights = m_residentWeightBytes / m_gpus;
    if (m_experts > 0) {
        const double touched = m_experts * (1.0 - std::pow(1.0 - m_expertsPerToken / m_experts, tokens));
        weights = (m_nonExpertWeightBytes + touched * m_expertWeightBytes) / m_gpus;
    }
    const double bytes = weights + (t.decodeLayerTokens + t.prefillLayerTokens) * m_kvPerLayerTokenPerGpu;
    b.memorySeconds = bytes / m_effectiveBandwidth;
    const double decodeFlop = (2.0 * m_activeParams * t.decodeTokens + 4.0 * m_attentionWidth * t.decodeLayerTokens) / m_gpus;
    const double prefillFlop = (2.0 * m_activeParams * t.prefillTokens + 4.0 * m_attentionWidth * t.prefillPairs) / m_gpus;
    b.computeSeconds = decodeFlop / m_decodeFlops + prefillFlop / m_prefillFlops;
    b.commSeconds = m_gpus > 1 ? m_commLatencySeconds + m_commSecondsPerToken * tokens : 0.0;
    // One forward pass: the larger fixed overhead of the kinds of work it holds.
    b.overheadSeconds = std::max(t.decodeTokens > 0 ? m_stepOverheadSeconds : 0.0,
                                 t.prefillTokens > 0 ? m_prefillOverheadSeconds : 0.0);
    b.seconds = std::max(b.memorySeconds, b.computeSeconds) + b.commSeconds + b.overheadSeconds;
    return b;
}

double StepCost::seconds(const StepTotals& totals) const
{
    return breakdown(totals).seconds;
}

long long StepCost::layerBlocks(long long tokens, int blockTokens) const
{
    const long long block = std::max(1, blockTokens);
    const long long window = m_window > 0 ? std::min<long long>(tokens, static_cast<long long>(m_window)) : tokens;
    return static_cast<long long>(m_globalLayers) * ((tokens + block - 1) / block)
           + static_cast<long long>(m_windowLayers) * ((window + block - 1) / block);
}

long long StepCost::totalLayerBlocks(int blockTokens) const
{
    const double blockBytes = std::max(1, blockTokens) * m_kvPerLayerTokenPerGpu;
    if (!(m_kvBudgetBytes > 0) || !(blockBytes > 0))
        return 0;
    return static_cast<long long>(std::floor(m_kvBudgetBytes / blockBytes));
}

double mixedStepSeconds(const Scenario& scenario, const StepLoad& load)
{
    const StepCost cost(scenario);
    StepTotals totals;
    for (double context : load.decodeContexts)
        cost.addDecode(totals, context);
    for (const PrefillChunk& chunk : load.prefillChunks)
        cost.addPrefill(totals, chunk.offset, chunk.tokens);
    return cost.seconds(totals);
}

} // namespace ridgeline::model
