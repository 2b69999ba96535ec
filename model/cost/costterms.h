// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cmath>

#include "model/cost/scenario.h"

namespace ridgeline::model {

/** Bytes per activation element in the tensor-parallel all-reduces (bf16). */
inline constexpr double kActivationBytes = 2.0;

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
    double peakFlops;            // F_peak for the matmul dtype, per GPU
    double decodeFlops;          // F_peak * MFU_decode
    double prefillFlops;         // F_peak * MFU_prefill
    double attentionPeakFlops;   // F_peak of the attention matmuls' dtype (QK^T, PV: bf16 activations, or fp8 with an fp8
                                 // KV cache), whatever the weights' dtype, per GPU
    double attentionPrefillFlops; // attentionPeakFlops * MFU_prefill
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

    double decodeMemorySeconds(double batch, double context) const
    {
        return weightReadBytes(batch) / effectiveBandwidth + batch * cacheBytesPerSequence(context) / kvEffectiveBandwidth;
    }
    double decodeFlop(double batch, double context) const
    {
        return (2.0 * activeParams * batch + 4.0 * attentionWidth * batch * layerTokens(context)) / gpus;
    }
    double decodeComputeSeconds(double batch, double context) const { return decodeFlop(batch, context) / decodeFlops; }
    double stepSeconds(double batch, double context) const
    {
        return std::max(decodeMemorySeconds(batch, context), decodeComputeSeconds(batch, context)) + commSeconds(batch)
               + stepOverheadSeconds + batch * perSequenceOverheadSeconds;
    }

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

} // namespace ridgeline::model
