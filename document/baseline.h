// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

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

/** One scenario pinned for an N-way comparison: its slot (0 = A, 1 = B, ...) and its Baseline (scenario and evaluation). */
struct PinnedScenario {
    int slot = 0;
    Baseline baseline;
    std::string source; ///< where it was pinned from: a file's name ("fast.json", --compare), "" from the window
};

/**
 * The scenarios pinned for an N-way comparison (issue 14): up to kMaxPinned, each in a slot of its own
 * (0 = A to 5 = F) that keeps its letter, colour and dash while others are unpinned. Each is evaluated
 * once when pinned (Baseline::pin). The first pinned (the lowest slot) is the reference the table's and
 * the report's ratios divide by. Baseline A of the A/B comparison is the one-item case: slot 0 alone.
 */
class PinnedScenarios {
public:
    static constexpr int kMaxPinned = 6;

    /** Pins @p scenario (valid: model::validate) into the lowest free slot, from @p source (a file's name, or "");
     *  returns the slot, or -1 when all are taken. */
    int pinNext(const model::Scenario& scenario, const std::string& source = {});
    /** Pins @p scenario into @p slot (0 to kMaxPinned - 1), replacing what was there. */
    void pinAt(int slot, const model::Scenario& scenario, const std::string& source = {});
    /** Unpins @p slot; false when nothing is pinned there. */
    bool unpin(int slot);
    /** Unpins every scenario. */
    void clear() { m_pinned.clear(); }

    bool isEmpty() const { return m_pinned.empty(); }
    int size() const { return int(m_pinned.size()); }
    bool isFull() const { return size() >= kMaxPinned; }
    /** The pinned scenarios in slot order (A first). */
    const std::vector<PinnedScenario>& items() const { return m_pinned; }
    /** The one in @p slot, or nullptr. */
    const PinnedScenario* at(int slot) const;
    /** The reference: the pinned scenario in the lowest slot (nullptr when none is pinned). */
    const PinnedScenario* first() const { return m_pinned.empty() ? nullptr : &m_pinned.front(); }

private:
    std::vector<PinnedScenario> m_pinned; ///< sorted by slot
};

} // namespace ridgeline::document
