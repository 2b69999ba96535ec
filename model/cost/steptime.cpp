// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/steptime.h"

#include <algorithm>
#include <cmath>

#include "model/cost/costmodel.h"
#include "model/cost/dtype.h"

namespace ridgeline::model {

StepCost::StepCost(const Scenario& s) : m_t(costTerms(s)), m_causal(s.model.attention == AttentionFlops::Causal) {}

StepBreakdown StepCost::breakdown(const StepTotals& t) const
{
    if (t.decodeTokens + t.prefillTokens <= 0)
        return {}; // an empty step costs nothing
    return m_t.step(t);
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
    return static_cast<long long>(std::floor(m_t.kvBudgetBytes / blockBytes));
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
