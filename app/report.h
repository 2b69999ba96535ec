// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QJsonObject>
#include <QString>

#include "model/cost/costmodel.h"

namespace ridgeline::model {
struct OperatingCost;
}

namespace ridgeline::app {

/**
 * The seven figures of an operating cost (model/analysis/plan.h, OperatingCost) under their JSON keys, shared by
 * --report's "economics" and each --plan point: cost_per_hour, cost_per_million_output_tokens,
 * cost_per_million_input_tokens, cost_per_million_output_tokens_all_in, facility_power_watts,
 * joules_per_output_token, output_tokens_per_second_per_megawatt; null where the price or the power is unknown.
 */
QJsonObject operatingCostJson(const model::OperatingCost& cost);

/**
 * The JSON report of one evaluation: nested objects with SI units named in each key
 * (`decode.step_ms`, `decode.read_bytes`, ...), plus the scenario that produced it under
 * "scenario". The keys are a contract for scripts: add, never rename.
 */
QJsonObject reportJson(const model::Scenario& scenario, const model::Evaluation& evaluation);

/** The same figures as a plain-text report for people, with units and the formulas used. */
QString reportText(const model::Scenario& scenario, const model::Evaluation& evaluation);

/**
 * A/B comparison: {"a": report A, "b": report B, "ratio": every numeric figure as B / A (null where
 * A is 0 or the figure is not a number in both)}. Scenarios are kept under a.scenario, b.scenario.
 */
QJsonObject compareJson(const model::Scenario& a, const model::Evaluation& ea, const model::Scenario& b,
                        const model::Evaluation& eb);

/** The same as a side-by-side text table: figure, A, B, B / A. */
QString compareText(const model::Scenario& a, const model::Evaluation& ea, const model::Scenario& b,
                    const model::Evaluation& eb);

/** The letter of compared scenario @p index: "A" for 0 (the --scenario), "B" for the first --compare FILE, ... */
QString comparedLetter(int index);

/**
 * N-way comparison (--report with --compare given several times): @p scenarios[0] is A (the reference),
 * the others B, C, ... with their @p evaluations (as many). {"a": report A, "b": report B, "c": ..., "ratio":
 * every numeric figure as B / A (as the A/B comparison), "ratio_c": C / A, "ratio_d": ..., "labels": ["A", "B",
 * ...], "names": ["Llama 3.1 8B on H100 SXM", ...]}. With two scenarios "a", "b" and "ratio" are
 * compareJson()'s; the A/B command line prints compareJson() itself.
 */
QJsonObject compareJson(const std::vector<model::Scenario>& scenarios, const std::vector<model::Evaluation>& evaluations);

/** The N-way comparison as a text table: the names ("A: ..."), then figure, A, B, C, ..., B / A, C / A, ... */
QString compareText(const std::vector<model::Scenario>& scenarios, const std::vector<model::Evaluation>& evaluations);

/**
 * The comparison as CSV ("\n" line ends): header figure,A,B,...,B / A,...; a "name" row with each scenario's
 * name; then one row per figure (dotted key as in the JSON), numbers in the shortest form that reads back to the
 * same double, ratios empty where undefined (A is 0 or either is not a number).
 */
QString compareCsv(const std::vector<model::Scenario>& scenarios, const std::vector<model::Evaluation>& evaluations);

} // namespace ridgeline::app
