// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <QString>

#include "model/cost/scenario.h"

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
    std::string source;  ///< where each figure comes from, with dates
    std::string link;    ///< the GPU-to-GPU link by name ("NVLink 4", "PCIe 5 x16", ...)
    double memoryReportedGib = 0; ///< capacity as the device reports it (nvidia-smi total / 1024, rocm-smi B / 2^30),
                                  ///< GiB; 0 where not verified. Informational: the model uses hardware.memoryBytes
    /// A drill or test device ("drill": true in resources/presets/hardware.json, e.g. the incident drill's A100 rounded to
    /// 2.0 TB/s): a seed's figures, not a product to buy. A plan file's "devices": "all" leaves it out (it can still be named).
    bool drill = false;
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

/**
 * Loads every catalogue figure of the built-in device @p name (its id, e.g. "h200", or its name, e.g. "H200";
 * case, spaces, dashes and underscores ignored) into @p scenario's hardware, keeping hardware.gpus (the tensor
 * parallelism is the deployment's, not the device's).
 * @return "" on success; else a sentence naming the value and the nearest catalogue names (@p scenario untouched).
 */
std::string applyHardwarePreset(Scenario& scenario, std::string_view name);

/**
 * The built-in device of id @p id: the one whose id is @p id exactly, else the one whose id matches it with case,
 * spaces, dashes, underscores and dots ignored ("H100_SXM" is "h100-sxm"), when exactly one does; else nullptr
 * (issue 14, h14g: plan files' ids were case-sensitive with no hint).
 */
const HardwarePreset* findHardwarePresetId(std::string_view id);

/**
 * What to suggest for the device name @p name that matched none: "nearest: h100-sxm, h100-pcie" (ids containing it or
 * within a third of its length in edits, six at most), or "the catalogue has a, b, ..." when none is near. An empty
 * (or blank) @p name suggests nothing: "the value is empty; give a catalogue id" (it read "nearest: l4", the nearest
 * name to nothing). Each ends "(--list-hardware shows them all)".
 */
std::string nearestHardwareText(std::string_view name);

} // namespace ridgeline::model
