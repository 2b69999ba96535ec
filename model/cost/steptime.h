// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include "model/cost/costterms.h"
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
 *   BW * eta_kv (efficiency.kv_bandwidth; eta_bw when unset) while the weights move at BW * eta_bw;
 * - a decoding sequence reads its fixed-size recurrent state (hybrids) and a prefill chunk writes it.
 * The time itself is CostTerms::step() (model/cost/costterms.h), the cost model's one step time.
 * Precondition: validate(scenario) is empty.
 */
class StepCost {
public:
    explicit StepCost(const Scenario& scenario);

    /** Adds a sequence decoding one token while holding @p contextTokens tokens (including the one fed). */
    void addDecode(StepTotals& totals, double contextTokens) const
    {
        totals.decodeTokens += 1.0;
        totals.decodeLayerTokens += layerTokens(contextTokens);
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
    /** The same, split by resource. */
    StepBreakdown breakdown(const StepTotals& totals) const;

    /** K(S) = L_global * S + L_window * min(S, w): layer-tokens of cache a sequence of S tokens holds. */
    double layerTokens(double tokens) const
    {
        return m_t.layerTokens(tokens);
    }
    /** Paged cache of a sequence of @p tokens tokens, in per-layer blocks of @p blockTokens tokens:
     *  L_global * ceil(S / block) + L_window * ceil(min(S, w) / block). */
    long long layerBlocks(long long tokens, int blockTokens) const;
    /** KV budget per GPU, bytes: HBM * utilization - N * b_w / T - activation reserve (negative: weights do not fit). */
    double kvBudgetBytes() const { return m_t.kvBudgetBytes; }
    /** KV bytes of one token in one layer, per GPU. */
    double kvBytesPerLayerToken() const { return m_t.kvPerLayerTokenPerGpu; }
    /** Per-layer blocks of @p blockTokens tokens that fit the KV budget (0 when the weights do not fit). */
    long long totalLayerBlocks(int blockTokens) const;
    /** L_attn, layers holding a KV cache (per-layer blocks / L_attn = whole-model blocks for a model without sliding
     *  layers); L for every model but linear-attention / state-space hybrids, at least 1. */
    double layers() const { return std::max(1.0, m_t.attentionLayers); }

private:
    CostTerms m_t; ///< the cost model's per-scenario constants (model/cost/costterms.h)
    bool m_causal = false;
};

/**
 * Seconds of one step serving @p load on @p scenario (see StepCost). With B decoding sequences all
 * at context S and no chunks this equals stepSecondsAt() with workload.context_tokens = S; with one
 * chunk (0, P) and no decodes it equals evaluate().prefill.seconds. Precondition: validate(scenario) is empty.
 */
double mixedStepSeconds(const Scenario& scenario, const StepLoad& load);

} // namespace ridgeline::model
