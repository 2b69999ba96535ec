// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/steptime.h"

#include <algorithm>
#include <cmath>

#include "model/cost/costmodel.h"
#include "model/cost/dtype.h"

namespace ridgeline::model {

namespace {

/** costTerms() of @p s with hardware.gpus = @p tp. */
CostTerms termsAt(const Scenario& s, int tp)
{
    if (s.hardware.gpus == tp)
        return costTerms(s);
    Scenario at = s;
    at.hardware.gpus = std::max(1, tp);
    return costTerms(at);
}

} // namespace

StepCost::StepCost(const Scenario& s) : StepCost(s, ParallelLayout{std::max(1, s.hardware.gpus), 1, 1, 0}) {}

StepCost::StepCost(const Scenario& s0, const ParallelLayout& layout)
    : m_t(termsAt(s0, std::max(1, layout.tp))), m_layout(layout), m_causal(s0.model.attention == AttentionFlops::Causal)
{
    m_layout.tp = std::max(1, m_layout.tp);
    m_layout.pp = std::max(1, m_layout.pp);
    m_layout.ep = std::max(1, m_layout.ep);
    m_layout.microbatches = std::max(0, m_layout.microbatches);
    const double tp = m_layout.tp, pp = m_layout.pp, w = m_layout.stageWidth();
    m_layered = m_layout.pp > 1 || m_layout.ep > 1 || m_layout.microbatches > 1;
    m_kvBytesPerToken = kvBytesPerToken(s0.model);
    m_stateBytes = s0.model.stateBytesPerSequence;
    m_linkBandwidth = s0.hardware.linkBandwidthBytesPerSecond;
    // Beyond one scale-up domain the traffic crosses nodes (collectiveBandwidth(), the one choice of link): the
    // expert-parallel all-to-all of a stage of w GPUs, and the pipeline's hand-offs of an instance of pp x w GPUs.
    m_allToAllBandwidth = collectiveBandwidth(s0.hardware, int(w));
    m_sendBandwidth = collectiveBandwidth(s0.hardware, int(pp * w));
    m_linkLatency = s0.hardware.linkLatencySeconds;
    m_weightBytesPerGpu = m_t.residentWeightBytes / m_t.gpus;
    if (m_layered) {
        // The experts spread over w = max(tp, ep) GPUs: one expert's bytes scaled by tp / w, so that weightReadBytes()'s
        // division by tp gives each GPU its share of w. Each GPU holds L / pp layers of all that.
        const double expertBytesAll = m_t.experts * m_t.expertWeightBytes;
        m_t.expertWeightBytes *= tp / w;
        m_weightBytesPerGpu = (m_t.nonExpertWeightBytes / tp + expertBytesAll / w) / pp;
        m_t.kvBudgetBytes = s0.hardware.memoryBytes * s0.serving.memoryUtilization - m_weightBytesPerGpu - s0.serving.activationReserveBytes;
    }
    // One microbatch's all-layer work: no per-step terms (paid once per step), and with EP > 1 half the tensor-parallel
    // all-reduce (the MLP's becomes the all-to-all).
    m_microbatch = m_t;
    m_microbatch.stepOverheadSeconds = m_microbatch.prefillOverheadSeconds = 0;
    m_microbatch.chunkOverheadSeconds = m_microbatch.perSequenceOverheadSeconds = 0;
    if (m_layout.ep > 1) {
        m_microbatch.commSecondsPerToken *= 0.5;
        m_microbatch.commLatencySeconds *= 0.5;
    }
}

LayoutStep StepCost::layoutStep(const StepTotals& t) const
{
    LayoutStep r;
    if (t.decodeTokens + t.prefillTokens <= 0)
        return r; // an empty step costs nothing
    const ParallelLayout& l = m_layout;
    const double pp = l.pp, w = l.stageWidth(), ep = l.ep, groups = l.attentionGroups();
    const double layers = m_t.layers;
    // Expert-parallel dispatch and combine of @p tokens, all layers: tokens / w per GPU, k copies of d activations, the
    // (ep - 1) / ep of them bound for other GPUs, plus a link latency each way per layer (every layer counted as MoE).
    auto allToAll = [&](double tokens) {
        return l.ep > 1 ? 2.0 * layers * (tokens / w) * m_t.expertsPerToken * m_t.hidden * kActivationBytes * (ep - 1.0) / ep / m_allToAllBandwidth
                              + 2.0 * layers * m_linkLatency
                        : 0.0;
    };
    // A stage hands a microbatch of @p tokens to the next: tokens x d x 2 B split over the stage's w GPUs.
    auto send = [&](double tokens) { return l.pp > 1 ? tokens * m_t.hidden * kActivationBytes / w / m_sendBandwidth + m_linkLatency : 0.0; };

    if (t.decodeTokens > 0) {
        const double n = t.decodeTokens;
        const int wanted = l.microbatches > 0 ? l.microbatches : l.pp;
        const int m = std::max(1, std::min(wanted, std::max(1, int(std::floor(n)))));
        r.decodeMicrobatches = m;
        // One microbatch of n / m sequences, of which one attention group's share (n / (m groups)) sets the per-GPU
        // KV read, FLOP and all-reduce; the weight read covers the experts all n / m tokens touch.
        StepTotals mb;
        mb.decodeTokens = n / m / groups;
        mb.decodeLayerTokens = t.decodeLayerTokens / m / groups;
        mb.decodeMaxLayerTokens = t.decodeMaxLayerTokens; // the longest sequence is in one microbatch of one group
        mb.weightTokens = n / m;
        r.decodeAllToAllSeconds = allToAll(n / m);
        r.decodeStageSeconds = (m_microbatch.step(mb).seconds + r.decodeAllToAllSeconds) / pp;
        r.decodeSendSeconds = send(n / m);
    }
    if (t.prefillTokens > 0 && l.pp == 1 && r.decodeMicrobatches == 1) {
        // One stage and one decode microbatch: one forward pass holds the chunks and the decodes (as at TP only), the
        // chunks each in one attention group, so not divided among the groups.
        StepTotals mb;
        mb.decodeTokens = t.decodeTokens / groups;
        mb.decodeLayerTokens = t.decodeLayerTokens / groups;
        mb.decodeMaxLayerTokens = t.decodeMaxLayerTokens;
        mb.prefillTokens = t.prefillTokens;
        mb.prefillPairs = t.prefillPairs;
        mb.prefillLayerTokens = t.prefillLayerTokens;
        mb.prefillChunks = t.prefillChunks;
        mb.weightTokens = t.decodeTokens + t.prefillTokens;
        r.decodeAllToAllSeconds = allToAll(t.decodeTokens + t.prefillTokens);
        r.decodeStageSeconds = m_microbatch.step(mb).seconds + r.decodeAllToAllSeconds;
    } else if (t.prefillTokens > 0) {
        // The chunks, in one attention group each, together as one microbatch (no pipelining across prompts).
        StepTotals pre;
        pre.prefillTokens = t.prefillTokens;
        pre.prefillPairs = t.prefillPairs;
        pre.prefillLayerTokens = t.prefillLayerTokens;
        pre.prefillChunks = t.prefillChunks;
        r.prefillMicrobatch = true;
        r.prefillAllToAllSeconds = allToAll(t.prefillTokens);
        r.prefillStageSeconds = (m_microbatch.step(pre).seconds + r.prefillAllToAllSeconds) / pp;
        r.prefillSendSeconds = send(t.prefillTokens);
    }
    const StepBreakdown whole = m_t.step(t);
    r.fixedSeconds = whole.overheadSeconds + whole.chunkSeconds + whole.sequenceSeconds;
    const double decodeSlot = r.decodeStageSeconds + r.decodeSendSeconds;
    const double prefillSlot = r.prefillMicrobatch ? r.prefillStageSeconds + r.prefillSendSeconds : 0.0;
    const double busy = r.decodeMicrobatches * decodeSlot + prefillSlot;
    const double cycle = std::max(busy, pp * std::max(decodeSlot, prefillSlot));
    r.seconds = cycle + r.fixedSeconds;
    r.bubble = cycle > 0 ? 1.0 - busy / cycle : 0.0;
    return r;
}

StepBreakdown StepCost::breakdown(const StepTotals& t) const
{
    if (t.decodeTokens + t.prefillTokens <= 0)
        return {}; // an empty step costs nothing
    if (!m_layered)
        return m_t.step(t);
    const LayoutStep ls = layoutStep(t);
    StepBreakdown b = m_t.step(t); // the fixed terms, once
    b.seconds = ls.seconds;
    // Per stage, summed over the microbatches.
    b.memorySeconds = b.memorySeconds / m_layout.pp;
    b.computeSeconds = b.computeSeconds / m_layout.pp;
    b.commSeconds = ls.decodeMicrobatches * (ls.decodeAllToAllSeconds / m_layout.pp + ls.decodeSendSeconds)
                    + (ls.prefillMicrobatch ? ls.prefillAllToAllSeconds / m_layout.pp + ls.prefillSendSeconds : 0.0)
                    + b.commSeconds / m_layout.pp;
    return b;
}

double StepCost::kvTransferBytes(double promptTokens) const
{
    return std::max(0.0, promptTokens) * m_kvBytesPerToken + m_stateBytes;
}

double StepCost::kvTransferSeconds(double promptTokens) const
{
    return kvTransferBytes(promptTokens) / (m_linkBandwidth * m_layout.tp * m_layout.pp) + m_linkLatency;
}

double StepCost::seconds(const StepTotals& totals) const
{
    return breakdown(totals).seconds;
}

long long StepCost::layerBlocks(long long tokens, int blockTokens) const
{
    const long long block = std::max(1, blockTokens);
    const long long window = m_t.window > 0 ? std::min<long long>(tokens, static_cast<long long>(m_t.window)) : tokens;
    return static_cast<long long>(m_t.globalLayers) * ((tokens + block - 1) / block)
           + static_cast<long long>(m_t.windowLayers) * ((window + block - 1) / block);
}

long long StepCost::totalLayerBlocks(int blockTokens) const
{
    const double blockBytes = std::max(1, blockTokens) * m_t.kvPerLayerTokenPerGpu;
    if (!(m_t.kvBudgetBytes > 0) || !(blockBytes > 0))
        return 0;
    // Each of the pp stages holds L / pp layers of each sequence, each of the w / tp attention groups its own sequences.
    return static_cast<long long>(std::floor(m_t.kvBudgetBytes / blockBytes)) * m_layout.pp * m_layout.attentionGroups();
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
