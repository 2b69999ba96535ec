// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/baseline.h"

namespace ridgeline::document {

void Baseline::pin(const model::Scenario& scenario)
{
    m_scenario = scenario;
    model::evaluate(m_scenario, m_evaluation);
    m_pinned = true;
}

} // namespace ridgeline::document
