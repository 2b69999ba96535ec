// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/cost/scenario.h"
#include "model/cost/schedulerversion.h"

namespace ridgeline::model {

/**
 * A calibrated set of efficiencies (issue 13): the coefficients that `bench/measured_accuracy`
 * fitted, with the simulator in the loop, to one public measured serving benchmark in
 * tests/data/measured/, named by device, engine and batching, with the error that fit makes on
 * points it never saw. A preset is a starting point for a similar device and engine, not a fact
 * about another model or server: the held-out errors say how far it carried on its own set.
 */
struct EfficiencyPreset {
    std::string id;          ///< command-line name, e.g. "h100-trtllm-inflight" (`--efficiency ID`)
    std::string name;        ///< display name: device, engine, batching
    std::string measuredOn;  ///< the model, dtype and set it was fitted to
    std::string source;      ///< repo file with the data's provenance (tests/data/measured/<set>.source.md)
    std::string fitted;      ///< when and how it was fitted (date, tool, scheduler assumptions)
    Efficiency efficiency;   ///< the fitted coefficients (every field set; efficiencies in (0, 1], overheads >= 0)
    double inSampleItlPercent = 0;  ///< ITL MAPE, %, of the fit on its whole set
    double inSampleTtftPercent = 0; ///< TTFT MAPE, %, the same
    double heldOutItlPercent = 0;   ///< ITL MAPE, %, fitted on half the concurrencies, predicted on the other half
    double heldOutTtftPercent = 0;  ///< TTFT MAPE, %, the same split
    std::string caveat;      ///< what the fit could not pin down (coefficients at a bound, not fitted)
    /// the scheduler the fit simulated (--scheduler; the errors above hold with it)
    SchedulerVersion scheduler = SchedulerVersion::V1;
    /// the fitted engine token budget (serving.max_num_tokens, set with the efficiencies); 0: not fitted (8,192)
    int maxNumTokens = 0;
};

/** The built-in presets, in display order. Each figure's source is its set's source.md; see docs/cost-model.md. */
const std::vector<EfficiencyPreset>& efficiencyPresets();

/** The preset with @p id (case-insensitive), or nullptr. */
const EfficiencyPreset* findEfficiencyPreset(std::string_view id);

/** "id1, id2, ..." for messages that list the choices. */
std::string efficiencyPresetIds();

/** One-paragraph description of @p preset for a tooltip or the report: values, source, held-out errors, caveat. */
std::string efficiencyPresetDescription(const EfficiencyPreset& preset);

} // namespace ridgeline::model
