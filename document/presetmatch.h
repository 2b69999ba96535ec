// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include "model/cost/presets.h"
#include "model/cost/scenario.h"

namespace ridgeline::views {
class UserCatalogue;
}

namespace ridgeline::document {

/**
 * True when two models have the same architecture: total and active parameters (to 1e-9 relative), L, d, H, H_kv,
 * head dim, vocabulary, MoE experts (E, k, expert parameters), MLA widths and the sliding window. Name, dtypes and the
 * attention FLOP convention are not compared: a preset run at fp8 is still that preset. The rule the model combo of
 * the controls and the window's status line share (docs/architecture.md, document layer).
 */
bool sameModelShape(const model::ModelShape& a, const model::ModelShape& b);

/** sameModelShape() and, besides, every other field: name, dtypes, attention convention, exact parameter counts. */
bool sameModel(const model::ModelShape& a, const model::ModelShape& b);

/** True when two devices have the same HBM bandwidth, memory, peak bf16 / fp8 / int8 rates and link bandwidth (1e-9 relative). */
bool sameHardware(const model::Hardware& a, const model::Hardware& b);

/**
 * Index into @p presets of the first preset whose shape is @p shape's (sameModelShape()), preferring one named as
 * @p shape is; -1 when none matches.
 */
int matchModelPreset(const std::vector<model::ModelPreset>& presets, const model::ModelShape& shape);

/** As matchModelPreset(), for devices (sameHardware()). */
int matchHardwarePreset(const std::vector<model::HardwarePreset>& presets, const model::Hardware& hardware);

/**
 * The names to show for the scenario's model and device (the status line, UTF-8): each its own name, followed by
 * " (edited)" when a built-in preset or one of @p catalogue's (null: built-ins only) carries that name but no longer
 * matches (a slider, a field or a `--set` moved it away); a name no preset carries (an import, the user's own) is
 * shown as it is. An empty name reads "custom model" / "custom hardware".
 */
struct ShownNames {
    std::string model;
    std::string hardware;
};
ShownNames shownNames(const model::Scenario& scenario, const views::UserCatalogue* catalogue);

} // namespace ridgeline::document
