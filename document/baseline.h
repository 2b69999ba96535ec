// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"

namespace ridgeline::document {

/**
 * Baseline A for A/B comparison: a pinned scenario and its model::Evaluation, computed once at pin time (one
 * model::evaluate, the same as the live scenario's). Each floor plot draws it from here
 * (views/floors/floorplot.h: FloorPlot::setBaseline), handed to them by the overlay (views/whatifs/baseline.h),
 * which also draws it on the what-if plots; the A/B table and the export read it. Nothing on the live path
 * evaluates A again.
 */
class Baseline {
public:
    /** Makes @p scenario baseline A (it must be valid: model::validate) and evaluates it. Replaces an earlier A. */
    void pin(const model::Scenario& scenario);
    /** Forgets A (scenario() and evaluation() keep their last values until the next pin()). */
    void clear() { m_pinned = false; }
    bool isPinned() const { return m_pinned; }
    const model::Scenario& scenario() const { return m_scenario; }
    const model::Evaluation& evaluation() const { return m_evaluation; }

private:
    bool m_pinned = false;
    model::Scenario m_scenario;
    model::Evaluation m_evaluation;
};

} // namespace ridgeline::document
