// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/costterms.h"

#include <algorithm>

#include "model/cost/costmodel.h"
#include "model/cost/dtype.h"

namespace ridgeline::model {

CostTerms costTerms(const Scenario& s)
{
    const ModelShape& m = s.model;
    const Hardware& hw = s.hardware;
    CostTerms t{};
    t.gpus = std::max(1, hw.gpus);
    t.bandwidth = hw.bandwidthBytesPerSecond;
    t.effectiveBandwidth = hw.bandwidthBytesPerSecond * s.efficiency.bandwidth;
    t.kvEffectiveBandwidth = hw.bandwidthBytesPerSecond * s.efficiency.kvBandwidthOrDefault();
    t.kvOneSequenceBandwidth = hw.bandwidthBytesPerSecond * std::max(0.0, s.efficiency.kvBandwidthOneSequence);
    t.peakFlops = matmulPeak(hw, m.weightDtype);
    t.decodeFlops = t.peakFlops * s.efficiency.mfuDecode;
    t.prefillFlops = t.peakFlops * s.efficiency.mfuPrefill;
    // Attention's matmuls (Q K^T, scores x V) multiply activations and the KV cache, not weights: bf16, whatever the
    // weights' dtype (docs/cost-model.md, "Peak FLOP/s").
    t.attentionPeakFlops = hw.peakFlopsPerSecond;
    // Prefill attention at its own MFU when efficiency.mfu_prefill_attention is set (docs/cost-model.md, "Serving-step costs").
    t.attentionPrefillFlops = t.attentionPeakFlops * s.efficiency.mfuPrefillAttentionOrDefault();
    const double bw = weightBytesPerParameter(m.weightDtype);
    t.residentWeightBytes = weightBytes(m);
    t.experts = m.isMoe() ? m.experts : 0;
    t.expertsPerToken = m.expertsPerToken;
    t.expertWeightBytes = m.isMoe() ? m.expertParams * bw : 0.0;
    t.nonExpertWeightBytes = t.residentWeightBytes - t.experts * t.expertWeightBytes;
    t.activeParams = m.activeParamsOrTotal();
    t.layers = m.layers;
    t.attentionLayers = m.attentionLayersOrAll();
    t.vocab = m.vocab;
    if (m.embeddingRead == EmbeddingRead::Rows && !m.tiedEmbeddings) {
        // The input table is among the 16-bit parameters when the unquantized count holds it (docs/cost-model.md).
        const double table = double(m.vocab) * m.hidden;
        const double tableBytes = table * (m.unquantizedParams >= table ? kUnquantizedBytesPerParameter : bw);
        // An untied table has an LM head as large beside it, so a consistent model's table is at most half its
        // non-expert weights; the cap keeps W_read(0) > 0 for scenarios whose N is smaller than that.
        t.embeddingTableBytes = std::min(tableBytes, 0.5 * std::max(0.0, t.nonExpertWeightBytes));
    }
    t.statePerSequencePerGpu = m.stateBytesPerSequence / t.gpus;
    t.globalLayers = m.globalLayers();
    t.windowLayers = m.windowLayers();
    t.window = m.slidingWindow;
    t.attentionWidth = m.attentionWidth();
    t.hidden = m.hidden;
    const double kvElement = bytesPerElement(m.kvDtype);
    if (m.isMla()) {
        t.kvPerLayerToken = double(m.kvLoraRank + m.ropeHeadDim) * kvElement;
        t.kvPerLayerTokenPerGpu = t.kvPerLayerToken; // the latent is replicated on every GPU
    } else {
        const double h = m.headDimOrDefault();
        t.kvPerLayerToken = 2.0 * m.kvHeads * h * kvElement;
        // KV splits by whole heads: each GPU holds ceil(H_kv / T), at least one (replicated when H_kv < T).
        const double headsPerGpu = std::ceil(double(m.kvHeads) / t.gpus);
        t.kvPerLayerTokenPerGpu = 2.0 * headsPerGpu * h * kvElement;
    }
    t.prefillAttentionFactor = m.attention == AttentionFlops::Causal ? 2.0 : 4.0;
    t.stepOverheadSeconds = s.efficiency.stepOverheadSeconds;
    t.prefillOverheadSeconds = s.efficiency.prefillOverheadSeconds;
    t.chunkOverheadSeconds = s.efficiency.chunkOverheadSeconds;
    t.perSequenceOverheadSeconds = s.efficiency.perSequenceOverheadSeconds;
    if (t.gpus > 1) {
        // Two all-reduces per layer of tokens x d activations, ring: 2 (T - 1) / T of the bytes over the link.
        const double ringFactor = 2.0 * (t.gpus - 1) / t.gpus;
        t.commSecondsPerToken = 2.0 * t.layers * ringFactor * t.hidden * kActivationBytes / collectiveBandwidth(hw, t.gpus);
        t.commLatencySeconds = 2.0 * t.layers * hw.linkLatencySeconds;
    }
    t.kvBudgetBytes = hw.memoryBytes * s.serving.memoryUtilization - t.residentWeightBytes / t.gpus - s.serving.activationReserveBytes;
    return t;
}

double collectiveBandwidth(const Hardware& hw, int groupGpus)
{
    return crossesScaleUpDomain(hw, groupGpus) ? std::min(hw.linkBandwidthBytesPerSecond, hw.interNodeBandwidthBytesPerSecond)
                                               : hw.linkBandwidthBytesPerSecond;
}

bool crossesScaleUpDomain(const Hardware& hw, int groupGpus)
{
    return hw.scaleUpDomainGpus > 0 && groupGpus > hw.scaleUpDomainGpus;
}

} // namespace ridgeline::model
