// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include <QString>

#include "model/scenario.h"

namespace ridgeline::model {

/** A named model shape from resources/presets/models.json, with where its figures come from. */
struct ModelPreset {
    std::string id;      ///< stable id, e.g. "llama-3.1-8b"
    ModelShape shape;
    std::string source;  ///< the config or document the figures come from
};

/** A named accelerator from resources/presets/hardware.json, with its datasheet source. */
struct HardwarePreset {
    std::string id;      ///< stable id, e.g. "h100-sxm"
    Hardware hardware;
    std::string source;
};

/** Built-in model presets (loaded once from the compiled-in resource). */
const std::vector<ModelPreset>& modelPresets();

/** Built-in hardware presets. */
const std::vector<HardwarePreset>& hardwarePresets();

/** A shipped scenario (the JSON files under resources/scenarios): id is the file stem. */
struct ScenarioPreset {
    std::string id;
    std::string title;
    Scenario scenario;
};
const std::vector<ScenarioPreset>& scenarioPresets();

} // namespace ridgeline::model
