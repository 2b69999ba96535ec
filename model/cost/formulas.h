// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace ridgeline::model {

/**
 * Speculative decoding with acceptance rate alpha in [0, 1), k drafted tokens, draft cost c_d and
 * marginal verification cost c_v per drafted position (fractions of one target step).
 * Source: docs/cost-model.md section 3; seed 001 (alpha 0.7, k 4: 2.31x at c_v 0, 0.87x at 0.5).
 */
struct SpeculativeResult {
    double expectedTokensPerStep = 0; ///< E = (1 - alpha^(k+1)) / (1 - alpha)
    double speedup = 0;               ///< E / (1 + k*c_d + k*c_v)
    double discardedFraction = 0;     ///< 1 - (sum_{i=1..k} alpha^i) / k
};
SpeculativeResult speculativeDecoding(double alpha, int draftTokens, double draftCost, double verifyCost);

/** Prefill seconds saved per request by a prefix cache: shared tokens * seconds per prefill token (seed 001). */
double prefixCacheSavedSeconds(double sharedPrefixTokens, double prefillSecondsPerToken);

/** Contiguous reservation: floor(budget / (maxContext * kv_tok)); 0 when the budget is negative. */
long long maxSequencesContiguous(double kvBudgetBytes, double maxContextTokens, double kvBytesPerToken);

/** Paged allocation in blocks of @p blockTokens: floor(budget / (ceil(held/block) * block * kv_tok)). */
long long maxSequencesPaged(double kvBudgetBytes, double heldTokens, double kvBytesPerToken, int blockTokens = 16);

/** Bytes of the full-vocabulary logits for @p positions positions (seed 002: 8,192 x 128,256 x 4 B = 3.91 GiB). */
double logitsBytes(double positions, double vocab, double bytesPerLogit = 4.0);

/** Attention score matrix per head per layer for P tokens: P^2 elements (seed 002). */
double scoreMatrixElements(double promptTokens);

} // namespace ridgeline::model
