// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/baseline.h"

namespace ridgeline::document {

void Baseline::pin(const model::Scenario& scenario)
{
    m_scenario = scenario;
    model::evaluate(m_scenario, m_evaluation);
    m_pinned = true;
}

int PinnedScenarios::pinNext(const model::Scenario& scenario, const std::string& source)
{
    for (int slot = 0; slot < kMaxPinned; ++slot)
        if (!at(slot)) {
            pinAt(slot, scenario, source);
            return slot;
        }
    return -1;
}

void PinnedScenarios::pinAt(int slot, const model::Scenario& scenario, const std::string& source)
{
    if (slot < 0 || slot >= kMaxPinned)
        return;
    auto it = m_pinned.begin();
    while (it != m_pinned.end() && it->slot < slot)
        ++it;
    if (it == m_pinned.end() || it->slot != slot)
        it = m_pinned.insert(it, PinnedScenario{slot, Baseline(), {}});
    it->baseline.pin(scenario);
    it->source = source;
}

bool PinnedScenarios::unpin(int slot)
{
    for (auto it = m_pinned.begin(); it != m_pinned.end(); ++it)
        if (it->slot == slot) {
            m_pinned.erase(it);
            return true;
        }
    return false;
}

const PinnedScenario* PinnedScenarios::at(int slot) const
{
    for (const PinnedScenario& p : m_pinned)
        if (p.slot == slot)
            return &p;
    return nullptr;
}

} // namespace ridgeline::document
