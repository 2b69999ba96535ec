// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <vector>

#include "model/cost/costterms.h"
#include "model/cost/parallellayout.h"
#include "model/cost/scenario.h"

namespace ridgeline::model {

/** A slice of one sequence's prompt computed in a step (chunked prefill; a whole prompt is one chunk at offset 0). */
struct PrefillChunk {
    double tokens = 0; ///< c, query tokens computed this step
    double offset = 0; ///< o, tokens of the same sequence already in the KV cache before this chunk
};

/**
 * The work of one serving step of a mixed batch: decoding sequences plus prefill chunks.
 * Convenience form for mixedStepSeconds(); the simulator accumulates StepTotals instead.
 */
struct StepLoad {
    std::vector<double> decodeContexts;      ///< one per decoding sequence: S, tokens it holds in the KV cache (tokens)
    std::vector<PrefillChunk> prefillChunks; ///< one per sequence prefilling this step
};

// StepTotals and StepBreakdown live in model/cost/costterms.h beside CostTerms::step(), the one step time.

/**
 * How StepCost prices one step of an instance with a ParallelLayout (docs/cost-model.md section 5, "Parallel
 * layout"): the step's decoding sequences spread evenly over m microbatches (default min(pp, B)), its prefill
 * chunks together as one more microbatch (with one stage and one decode microbatch, the same one: one forward pass); each microbatch's all-layer time is CostTerms::step() of its work at
 * T = tp (experts over w = max(tp, ep), the decode work of one attention group, the all-reduce halved when EP > 1)
 * plus its all-to-all, a stage takes 1 / pp of it and then hands the microbatch to the next stage over the link.
 * Seconds; a field is 0 when the step holds no such microbatch.
 */
struct LayoutStep {
    int decodeMicrobatches = 0;       ///< m: microbatches the decoding sequences are spread over (0: none decodes)
    bool prefillMicrobatch = false;   ///< the step prefills: its chunks are one more microbatch
    double decodeStageSeconds = 0;    ///< one stage, one decode microbatch: [max(t_mem, t_comp) + a t_allreduce + t_a2a] / pp
    double decodeSendSeconds = 0;     ///< its hand-off to the next stage: tokens x d x 2 B / w / link + latency (0 at pp = 1)
    double decodeAllToAllSeconds = 0; ///< its expert-parallel dispatch and combine over all layers (0 at EP = 1)
    double prefillStageSeconds = 0;   ///< one stage, the prefill microbatch
    double prefillSendSeconds = 0;
    double prefillAllToAllSeconds = 0;
    double fixedSeconds = 0;          ///< once per step: t_oh + chunks x t_chunk + B x t_seq (CostTerms::step of the whole step)
    /// max(sum over microbatches of stage + send, pp x the longest stage + send) + fixed: a stage serves every microbatch
    /// once per step, and a microbatch crosses all pp stages (pp hand-offs: pp - 1 between stages and the return of
    /// its outputs to the first); pp = 1 and one microbatch: CostTerms::step() exactly
    double seconds = 0;
    double bubble = 0;                ///< idle fraction of a stage: 1 - busy / (seconds - fixed)
};

/**
 * Step time of a mixed batch from the cost model's formulas (docs/cost-model.md section 3),
 * resolved once per scenario so that each step is a handful of multiplies.
 *
 * - weights are read once per step: N * b_w / T (MoE: shared plus the experts the step's tokens touch,
 *   E (1 - (1 - k/E)^tokens));
 * - each decoding sequence holding S tokens reads K(S) * kv per layer-token and costs
 *   2 N_active + 4 d_attn K(S) FLOP (exactly t_step(B, S) of the cost model for B equal sequences);
 * - a prefill chunk of c tokens at offset o costs 2 N_active c + 4 d_attn * pairs FLOP, where pairs =
 *   c * K(o + c) with the full-matrix convention (every query of the chunk against every key up to its end)
 *   and c * (K(o) + K(o + c)) / 2 with the causal one; it reads the K(o) cached layer-tokens and writes
 *   K(o + c) - K(o). A whole prompt (o = 0, c = P) is then exactly t_pre(P) of the cost model.
 *   Chunking a prompt under the full convention scores c * sum(o + c) pairs, fewer than P^2: each chunk
 *   scores its own rows of the matrix;
 * - FLOP and weight bytes split T ways, the KV by whole heads; the all-reduces cost latency plus
 *   bytes per token of the step;
 * - a step is one forward pass: it adds the larger of efficiency.step_overhead_ms (when it decodes) and
 *   efficiency.prefill_overhead_ms (when it prefills), so a decode-only or prefill-only step matches the cost model;
 * - each prefill chunk in the step adds efficiency.chunk_overhead_ms (0 at the floor), so a prompt split in k
 *   chunks pays k times what one whole-prompt prefill pays (docs/cost-model.md, "Serving-step costs");
 * - each decoding sequence adds efficiency.per_sequence_overhead_us (0 at the floor), and the KV bytes move at
 *   BW * eta_kv (efficiency.kv_bandwidth; eta_bw when unset) while the weights move at BW * eta_bw; with
 *   efficiency.kv_bandwidth_one_sequence (eta_kv1) set, the KV read takes at least the longest decoding sequence's
 *   cache at BW * eta_kv1 (a lone sequence's decode attention does not fill the GPU);
 * - a decoding sequence reads its fixed-size recurrent state (hybrids) and a prefill chunk writes it.
 * The time itself is CostTerms::step() (model/cost/costterms.h), the cost model's one step time.
 * Precondition: validate(scenario) is empty.
 */
class StepCost {
public:
    /** The scenario's own instance: T = hardware.gpus, tensor parallel only. */
    explicit StepCost(const Scenario& scenario);
    /**
     * One instance of @p layout (model/cost/parallellayout.h) on @p scenario's device (hardware.gpus is replaced by
     * layout.tp): weights, KV budget and step time as docs/cost-model.md section 5 gives them (LayoutStep). With
     * pp = ep = 1 and no microbatches set it is StepCost(scenario at T = tp). The analytic plan (evaluateLayout(),
     * model/analysis/plan.h) and the serving simulator (SimulationConfig::pipelineStages, expertParallel) both price
     * steps here. Precondition: validate(scenario) is empty and the layout's counts are at least 1.
     */
    StepCost(const Scenario& scenario, const ParallelLayout& layout);

    /** Adds a sequence decoding one token while holding @p contextTokens tokens (including the one fed). */
    void addDecode(StepTotals& totals, double contextTokens) const
    {
        totals.decodeTokens += 1.0;
        const double k = layerTokens(contextTokens);
        totals.decodeLayerTokens += k;
        totals.decodeMaxLayerTokens = std::max(totals.decodeMaxLayerTokens, k);
    }
    /** Adds a prefill chunk of @p tokens tokens at offset @p offset (tokens already cached). */
    void addPrefill(StepTotals& totals, double offset, double tokens) const
    {
        const double before = layerTokens(offset);
        const double after = layerTokens(offset + tokens);
        totals.prefillTokens += tokens;
        totals.prefillPairs += m_causal ? tokens * (before + after) * 0.5 : tokens * after;
        totals.prefillLayerTokens += after;
        totals.prefillChunks += 1.0;
    }
    /** Step time in seconds; 0 for an empty step. */
    double seconds(const StepTotals& totals) const;
    /**
     * The same, split by resource. With a layout: seconds is LayoutStep::seconds, memory and compute those of one
     * stage summed over the microbatches, comm its all-reduces, all-to-alls and hand-offs, the fixed terms once.
     */
    StepBreakdown breakdown(const StepTotals& totals) const;
    /** The step of a layout, microbatch by microbatch (also valid without one: one microbatch, pp = 1). */
    LayoutStep layoutStep(const StepTotals& totals) const;
    /** The instance's layout ({hardware.gpus, 1, 1, 0} for the one-argument constructor). */
    const ParallelLayout& layout() const { return m_layout; }
    /** Weights held by the most loaded GPU: (W_non-expert / tp + W_experts / w) / pp, bytes. */
    double weightBytesPerGpu() const { return m_weightBytesPerGpu; }
    /**
     * Disaggregated serving: seconds to move the cache of a @p promptTokens-token prompt from a prefill instance to a
     * decode instance of this layout: (P x kv_tok + recurrent state) / (link x tp x pp) + link latency, the tp x pp
     * GPUs holding the cache each sending their share over their own link (docs/cost-model.md section 5).
     */
    double kvTransferSeconds(double promptTokens) const;
    /** The bytes it moves, all GPUs: P x kv_tok + the recurrent state. */
    double kvTransferBytes(double promptTokens) const;

    /** K(S) = L_global * S + L_window * min(S, w): layer-tokens of cache a sequence of S tokens holds. */
    double layerTokens(double tokens) const
    {
        return m_t.layerTokens(tokens);
    }
    /** Paged cache of a sequence of @p tokens tokens, in per-layer blocks of @p blockTokens tokens:
     *  L_global * ceil(S / block) + L_window * ceil(min(S, w) / block). */
    long long layerBlocks(long long tokens, int blockTokens) const;
    /** KV budget per GPU, bytes: HBM * utilization - N * b_w / T - activation reserve (negative: weights do not fit);
     *  with a layout, HBM * utilization - weightBytesPerGpu() - reserve. */
    double kvBudgetBytes() const { return m_t.kvBudgetBytes; }
    /** KV bytes of one token in one layer, per GPU. */
    double kvBytesPerLayerToken() const { return m_t.kvPerLayerTokenPerGpu; }
    /** Per-layer blocks of @p blockTokens tokens that fit the KV budget (0 when the weights do not fit); with a layout,
     *  over the whole instance: pp stages of L / pp layers and w / tp attention groups, each with its own budget. */
    long long totalLayerBlocks(int blockTokens) const;
    /** L_attn, layers holding a KV cache (per-layer blocks / L_attn = whole-model blocks for a model without sliding
     *  layers); L for every model but linear-attention / state-space hybrids, at least 1. */
    double layers() const { return std::max(1.0, m_t.attentionLayers); }

private:
    CostTerms m_t; ///< the cost model's per-scenario constants (model/cost/costterms.h); with a layout at T = tp
    CostTerms m_microbatch; ///< m_t without the per-step terms and with the all-reduce share: one microbatch's work
    ParallelLayout m_layout;
    bool m_layered = false;    ///< pp > 1, EP > 1 or microbatches set: the LayoutStep path
    double m_weightBytesPerGpu = 0;
    double m_kvBytesPerToken = 0, m_stateBytes = 0; ///< all GPUs (the disaggregated transfer)
    double m_linkBandwidth = 0, m_linkLatency = 0;
    double m_allToAllBandwidth = 0, m_sendBandwidth = 0; ///< collectiveBandwidth() of the stage (w) and of the instance (pp w)
    bool m_causal = false;
};

/**
 * Seconds of one step serving @p load on @p scenario (see StepCost). With B decoding sequences all
 * at context S and no chunks this equals stepSecondsAt() with workload.context_tokens = S; with one
 * chunk (0, P) and no decodes it equals evaluate().prefill.seconds. Precondition: validate(scenario) is empty.
 */
double mixedStepSeconds(const Scenario& scenario, const StepLoad& load);

} // namespace ridgeline::model
