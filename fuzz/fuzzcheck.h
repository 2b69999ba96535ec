// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cmath>
#include <cstdlib>

#include "model/cost/costmodel.h"

namespace ridgeline::fuzz {

/** Evaluates @p s when valid and traps on any non-finite or out-of-range headline output. */
inline void checkScenario(const model::Scenario& s)
{
    if (!model::validate(s).empty())
        return;
    const model::Evaluation e = model::evaluate(s);
    const double values[] = {e.decode.stepSeconds, e.decode.kvShare, e.decode.readBytes, e.decode.tokensPerSecondTotal,
                             e.prefill.seconds, e.prefill.crossoverTokens, e.prefill.computeBoundTokens, e.prefill.attentionShare,
                             e.capacity.kvBudgetBytes, e.slo.ttftMs, e.workload.prefillShare, e.speculative.speedup};
    for (double v : values)
        if (!std::isfinite(v))
            std::abort();
    if (e.decode.kvShare < 0 || e.decode.kvShare > 1 || !e.sweeps.stepMs.allFinite() || !e.sweeps.kvShare.allFinite()
        || !e.sweeps.prefillMs.allFinite() || e.capacity.maxSequencesPaged < 0)
        std::abort();
}

} // namespace ridgeline::fuzz
