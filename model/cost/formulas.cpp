// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/formulas.h"

#include <cmath>

namespace ridgeline::model {

SpeculativeResult speculativeDecoding(double alpha, int draftTokens, double draftCost, double verifyCost)
{
    SpeculativeResult r;
    const int k = draftTokens;
    // E = sum_{i=0..k} alpha^i, which is (1 - alpha^(k+1)) / (1 - alpha) for alpha != 1.
    double accepted = 0; // sum_{i=1..k} alpha^i
    double power = 1;
    for (int i = 1; i <= k; ++i) {
        power *= alpha;
        accepted += power;
    }
    r.expectedTokensPerStep = 1.0 + accepted;
    r.speedup = r.expectedTokensPerStep / (1.0 + k * draftCost + k * verifyCost);
    r.discardedFraction = k > 0 ? 1.0 - accepted / k : 0.0;
    return r;
}

double prefixCacheSavedSeconds(double sharedPrefixTokens, double prefillSecondsPerToken)
{
    return sharedPrefixTokens * prefillSecondsPerToken;
}

long long maxSequencesContiguous(double kvBudgetBytes, double maxContextTokens, double kvBytesPerToken)
{
    const double perSequence = maxContextTokens * kvBytesPerToken;
    if (kvBudgetBytes <= 0 || perSequence <= 0)
        return 0;
    return static_cast<long long>(std::floor(kvBudgetBytes / perSequence));
}

long long maxSequencesPaged(double kvBudgetBytes, double heldTokens, double kvBytesPerToken, int blockTokens)
{
    const double blocks = std::ceil(heldTokens / blockTokens);
    const double perSequence = blocks * blockTokens * kvBytesPerToken;
    if (kvBudgetBytes <= 0 || perSequence <= 0)
        return 0;
    return static_cast<long long>(std::floor(kvBudgetBytes / perSequence));
}

double logitsBytes(double positions, double vocab, double bytesPerLogit)
{
    return positions * vocab * bytesPerLogit;
}

double scoreMatrixElements(double promptTokens)
{
    return promptTokens * promptTokens;
}

} // namespace ridgeline::model
