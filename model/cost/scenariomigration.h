// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include <QByteArray>
#include <QJsonObject>

#include "model/cost/scenario.h"

namespace ridgeline::model {

/**
 * What loading a scenario file did besides setting the keys it holds, for the message the window
 * shows. Keys are dotted ("workload.batch"), as in scenarioKeys() and `--set`.
 */
struct ScenarioLoadReport {
    int fileVersion = 0;                 ///< "format_version" of the file; 0 when the file has none
    std::vector<std::string> ignored;    ///< keys and groups this version does not know (newer files only)
    std::vector<std::string> defaulted;  ///< keys of scenarioKeys() the file lacks: they keep the base value
                                         ///< (model.active_params and model.head_dim, absent when unset, excluded)

    /** True when the file is from an older or newer format than kScenarioFormatVersion, or had no version. */
    bool migrated() const;
};

/**
 * Applies a scenario JSON object from a file of any format version onto @p scenario.
 *
 * - Version <= kScenarioFormatVersion (or none): exactly model::applyJson (unknown keys are errors).
 * - Newer version: the keys this version knows are applied with applyJson's checks (types, values);
 *   unknown groups and keys are skipped and listed in @p ignored, never dropped silently.
 *
 * A malformed object (a known key of the wrong type, a bad value, a non-numeric format_version) is
 * refused: the message names the key and the reason, and @p scenario is left unchanged.
 * @return "" on success, else the message.
 */
std::string applyJsonLenient(Scenario& scenario, const QJsonObject& object, std::vector<std::string>& ignored);

/**
 * Reads a whole scenario file over @p base (use defaultScenario() for "open": every key the file
 * lacks takes its default). On success @p out is the result and @p report says what was migrated
 * or ignored; on failure @p out is untouched and the message names the byte offset (not JSON), or
 * the key and the reason.
 */
std::string loadScenarioJson(const QByteArray& json, const Scenario& base, Scenario& out, ScenarioLoadReport& report);

} // namespace ridgeline::model
