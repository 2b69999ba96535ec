// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cmath>

#include "model/cost/scenario.h"

namespace ridgeline::model {

/** Bytes per activation element in the tensor-parallel all-reduces (bf16). */
inline constexpr double kActivationBytes = 2.0;

/**
 * Running sums of a step's work, built with StepCost::addDecode / addPrefill (model/cost/steptime.h) or
 * CostTerms::decodeStep without allocating. "Layer-tokens" weigh each token by the layers that hold it:
 * K(S) = L_global * S + L_window * min(S, w).
 */
struct StepTotals {
    double decodeTokens = 0;          ///< decoding sequences (one token each)
    double decodeLayerTokens = 0;     ///< sum of K(S) over decoding sequences: the KV they read
    double decodeMaxLayerTokens = 0;  ///< the largest K(S) of one decoding sequence (the lone-sequence KV read, eta_kv1)
    double prefillTokens = 0;         ///< sum of chunk tokens c
    double prefillPairs = 0;          ///< layer-weighted (query, key) pairs the chunks score
    double prefillLayerTokens = 0;    ///< sum of K(o + c): cache the chunks read (K(o)) and write (K(o + c) - K(o))
    double prefillChunks = 0;         ///< prefill chunks in the step (one per prefilling sequence)
    /// tokens whose weights (experts touched, embedding rows) the step reads when more than its own: one attention
    /// group's share of a microbatch still reads the experts every group's tokens touch (data-parallel attention around
    /// one expert-parallel group, StepCost with a ParallelLayout); 0: the step's own tokens
    double weightTokens = 0;
};

/** Time of one step split by resource, seconds, per GPU (formula text: model/cost/formulatext.h, Quantity::StepTime). */
struct StepBreakdown {
    double memorySeconds = 0;  ///< t_mem: weights read at BW * eta_bw + KV and state read and written at BW * eta_kv
    double computeSeconds = 0; ///< t_comp: decode FLOP / (F_peak * MFU_decode) + prefill FLOP / (F_peak * MFU_prefill)
    double commSeconds = 0;    ///< t_comm: tensor-parallel all-reduces for every token of the step (0 at T = 1)
    double overheadSeconds = 0; ///< t_oh, fixed: max(step overhead if it decodes, prefill overhead if it prefills)
    double chunkSeconds = 0;   ///< prefill chunks x efficiency.chunk_overhead_ms (per-chunk launches and metadata)
    double sequenceSeconds = 0; ///< B x t_seq: decoding sequences x efficiency.per_sequence_overhead_us
    double seconds = 0;        ///< t_step = max(t_mem, t_comp) + t_comm + t_oh + chunks x t_chunk + B x t_seq
};

/**
 * Every per-scenario constant of the formulas, resolved once: per-GPU rates and sizes, so that
 * t_step(B), t_pre(P) and their sweeps are cheap closed forms of B, S and P.
 * Source: docs/cost-model.md section 3.
 */
struct CostTerms {
    double gpus;                 // T
    double bandwidth;            // BW, per GPU
    double effectiveBandwidth;   // BW * eta_bw
    double kvEffectiveBandwidth; // BW * eta_kv (eta_kv = eta_bw unless efficiency.kv_bandwidth is set)
    double kvOneSequenceBandwidth; // BW * eta_kv1 (efficiency.kv_bandwidth_one_sequence), 0: no lone-sequence limit
    double peakFlops;            // F_peak for the matmul dtype, per GPU
    double decodeFlops;          // F_peak * MFU_decode
    double prefillFlops;         // F_peak * MFU_prefill
    double attentionPeakFlops;   // F_peak of the attention matmuls' dtype (QK^T, PV: bf16 activations, or fp8 with an fp8
                                 // KV cache), whatever the weights' dtype, per GPU
    double attentionPrefillFlops; // attentionPeakFlops * MFU of prefill attention (efficiency.mfu_prefill_attention, else MFU_prefill)
    double residentWeightBytes;  // (N - U) * b_w + U * 2, all GPUs (U unquantized parameters; 0: N * b_w)
    double nonExpertWeightBytes; // (N - E * P_e) * b_w, all GPUs
    double expertWeightBytes;    // P_e * b_w, one expert over all MoE layers
    double experts, expertsPerToken;
    double activeParams;         // N_active
    double globalLayers, windowLayers, window;
    double attentionWidth;       // d_attn
    double hidden;               // d
    double layers;               // L
    double attentionLayers;      // L_attn, layers holding a KV cache (L but for hybrids)
    double embeddingTableBytes;  // V * d * b_e of an untied input table read by rows (0: read whole, or tied), all GPUs
    double vocab;                // V
    double statePerSequencePerGpu; // fixed-size recurrent state per sequence, per GPU
    double kvPerLayerToken;      // all GPUs
    double kvPerLayerTokenPerGpu;
    double prefillAttentionFactor; // 4 (full) or 2 (causal)
    double stepOverheadSeconds;  // fixed per decode step
    double prefillOverheadSeconds; // fixed per prefill
    double chunkOverheadSeconds; // per prefill chunk in a serving step (simulator only)
    double perSequenceOverheadSeconds; // per decoding sequence per step
    double commLatencySeconds;   // per step, all layers
    double commSecondsPerToken;  // per step, all layers, per token in the step

    /** Layer-tokens of cache a sequence of S tokens holds: L_global * S + L_window * min(S, w). */
    double layerTokens(double tokens) const { return globalLayers * tokens + windowLayers * std::min(tokens, window); }
    double expertsTouched(double tokens) const
    {
        return experts > 0 ? experts * (1.0 - std::pow(1.0 - expertsPerToken / experts, tokens)) : 0.0;
    }
    /**
     * Bytes of the input embedding table a step serving @p tokens tokens does not read, all GPUs: the table less
     * its min(tokens, V) rows when decode reads rows of an untied table (docs/cost-model.md section 3), else 0.
     */
    double embeddingUnreadBytes(double tokens) const
    {
        if (embeddingTableBytes <= 0 || vocab <= 0)
            return 0.0;
        return embeddingTableBytes * (1.0 - std::min(tokens, vocab) / vocab);
    }
    /** One row of an untied input table read by rows, per GPU: d * b_e / T (0 under the table convention or tied). */
    double embeddingRowBytesPerGpu() const { return embeddingTableBytes > 0 && vocab > 0 ? embeddingTableBytes / vocab / gpus : 0.0; }
    /** Weights read by a step serving @p tokens tokens, per GPU. */
    double weightReadBytes(double tokens) const
    {
        const double all = experts <= 0 ? residentWeightBytes : nonExpertWeightBytes + expertsTouched(tokens) * expertWeightBytes;
        return (all - embeddingUnreadBytes(tokens)) / gpus;
    }
    /** Cache one sequence of @p context tokens holds per GPU: its KV plus the fixed-size recurrent state. */
    double cacheBytesPerSequence(double context) const { return kvPerLayerTokenPerGpu * layerTokens(context) + statePerSequencePerGpu; }
    /** KV budget per GPU: HBM * utilization - N * b_w / T - activation reserve (negative: weights do not fit). */
    double kvBudgetBytes;

    double commSeconds(double tokens) const { return gpus > 1 ? commLatencySeconds + commSecondsPerToken * tokens : 0.0; }

    /**
     * The one step time of the cost model (docs/cost-model.md section 3, "Decode step" and "Serving-step costs"):
     * t_step = max(t_mem, t_comp) + t_comm + t_oh (+ chunks x t_chunk + B x t_seq) of the work in @p totals.
     * evaluate()'s decode result and t_step(B) sweep (model/cost/costmodel.cpp), stepSeconds() below and the
     * simulator's StepCost (model/cost/steptime.h) all call it. A step with no token still pays nothing but
     * what the totals name (StepCost returns zero for it).
     */
    StepBreakdown step(const StepTotals& work) const
    {
        StepBreakdown b;
        const double tokens = work.decodeTokens + work.prefillTokens;
        // Weights at eta_bw; the KV the step reads and writes and each sequence's fixed-size state at eta_kv
        // (a decoding sequence reads its state, a prefill chunk writes it).
        // With eta_kv1 set, the KV read takes at least the longest decoding sequence's cache at BW * eta_kv1 (one
        // sequence's attention does not fill the GPU; docs/cost-model.md, "Serving-step costs").
        const double kvSeconds = ((work.decodeLayerTokens + work.prefillLayerTokens) * kvPerLayerTokenPerGpu
                                  + (work.decodeTokens + work.prefillChunks) * statePerSequencePerGpu)
                                 / kvEffectiveBandwidth;
        const double loneSeconds = kvOneSequenceBandwidth > 0 ? work.decodeMaxLayerTokens * kvPerLayerTokenPerGpu / kvOneSequenceBandwidth : 0.0;
        b.memorySeconds = weightReadBytes(std::max(tokens, work.weightTokens)) / effectiveBandwidth + std::max(kvSeconds, loneSeconds);
        const double decodeFlop = (2.0 * activeParams * work.decodeTokens + 4.0 * attentionWidth * work.decodeLayerTokens) / gpus;
        b.computeSeconds = decodeFlop / decodeFlops
                           + prefillComputeSecondsOf(2.0 * activeParams * work.prefillTokens, 4.0 * attentionWidth * work.prefillPairs);
        b.commSeconds = commSeconds(tokens);
        // One forward pass: the larger fixed overhead of the kinds of work it holds.
        b.overheadSeconds = std::max(work.decodeTokens > 0 ? stepOverheadSeconds : 0.0, work.prefillTokens > 0 ? prefillOverheadSeconds : 0.0);
        b.chunkSeconds = work.prefillChunks * chunkOverheadSeconds;
        b.sequenceSeconds = work.decodeTokens * perSequenceOverheadSeconds;
        b.seconds = std::max(b.memorySeconds, b.computeSeconds) + b.commSeconds + b.overheadSeconds + b.chunkSeconds + b.sequenceSeconds;
        return b;
    }
    /** The work of a decode step of @p batch sequences each holding @p context tokens. */
    StepTotals decodeStep(double batch, double context) const
    {
        StepTotals work;
        work.decodeTokens = batch;
        work.decodeLayerTokens = batch * layerTokens(context);
        work.decodeMaxLayerTokens = batch > 0 ? layerTokens(context) : 0.0;
        return work;
    }
    /** t_mem of a decode step of B sequences at context S: step(decodeStep(B, S)).memorySeconds. */
    double decodeMemorySeconds(double batch, double context) const { return step(decodeStep(batch, context)).memorySeconds; }
    double decodeFlop(double batch, double context) const
    {
        return (2.0 * activeParams * batch + 4.0 * attentionWidth * batch * layerTokens(context)) / gpus;
    }
    /** t_comp of a decode step of B sequences at context S: step(decodeStep(B, S)).computeSeconds. */
    double decodeComputeSeconds(double batch, double context) const { return step(decodeStep(batch, context)).computeSeconds; }
    /** t_step(B, S), seconds: step(decodeStep(B, S)).seconds. */
    double stepSeconds(double batch, double context) const { return step(decodeStep(batch, context)).seconds; }

    double prefillLinearFlop(double prompt) const { return 2.0 * activeParams * prompt; }
    double prefillAttentionFlop(double prompt) const
    {
        return prefillAttentionFactor * attentionWidth * prompt * layerTokens(prompt);
    }
    /** Compute time of @p linearFlop (at the weights' peak) and @p attentionFlop (at the attention dtype's peak), all GPUs. */
    double prefillComputeSecondsOf(double linearFlop, double attentionFlop) const
    {
        return (linearFlop / prefillFlops + attentionFlop / attentionPrefillFlops) / gpus;
    }
    double prefillComputeSeconds(double prompt) const
    {
        return prefillComputeSecondsOf(prefillLinearFlop(prompt), prefillAttentionFlop(prompt));
    }
    /** Layer-tokens of paged cache: each layer's tokens rounded up to whole blocks. */
    double pagedLayerTokens(double tokens, double block) const
    {
        auto blocks = [block](double t) { return std::ceil(t / block) * block; };
        return globalLayers * blocks(tokens) + windowLayers * blocks(std::min(tokens, window));
    }

    /** Weights read once plus the KV the prompt writes (sliding layers keep only the last window) and the state it leaves. */
    double prefillBytes(double prompt) const { return weightReadBytes(prompt) + cacheBytesPerSequence(prompt); }
    /** Weights at eta_bw, the KV and state the prompt writes at eta_kv (efficiency.kv_bandwidth, eta_bw when unset). */
    double prefillMemorySeconds(double prompt) const
    {
        return weightReadBytes(prompt) / effectiveBandwidth + cacheBytesPerSequence(prompt) / kvEffectiveBandwidth;
    }
};

/** Resolves every per-scenario constant of the formulas. Precondition: validate(s) is empty. */
CostTerms costTerms(const Scenario& s);

/**
 * Per-GPU one-direction bandwidth, B/s, that the collectives of a group of @p groupGpus GPUs run at: hardware.link_bandwidth
 * while the group fits one scale-up domain (groupGpus <= hardware.scale_up_domain, or the domain is 0 = unbounded), else
 * min(link, hardware.inter_node_bandwidth): a ring or all-to-all across nodes goes at the pace of its slowest hop.
 * The one place the plan, the step time and the simulator choose a link (docs/cost-model.md section 3, "Tensor
 * parallelism", and section 5). Latency stays hardware.link_latency_s.
 */
double collectiveBandwidth(const Hardware& hardware, int groupGpus);

/** Whether a group of @p groupGpus GPUs is wider than hardware.scale_up_domain (0 = unbounded: never), so that its
 *  collectives cross nodes: collectiveBandwidth()'s rule, and the one the report and the numbers panel name. */
bool crossesScaleUpDomain(const Hardware& hardware, int groupGpus);

} // namespace ridgeline::model
