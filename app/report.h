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

/** The same as a side-by-side text table: figure, A, B, B / A; the names as comparedTitles() of @p files (A's, B's). */
QString compareText(const model::Scenario& a, const model::Evaluation& ea, const model::Scenario& b,
                    const model::Evaluation& eb, const QStringList& files = {});

/** @p value with @p decimals decimals and thousands separators ("1,234,567.50", "10,000,000"): the text report's numbers,
 *  and the load figures of --plan and --simulate (h14k: "10000000.00 requests/s" beside grouped figures). */
QString groupedNumber(double value, int decimals = 0);

/**
 * As groupedNumber(), except where @p decimals would keep fewer than two significant digits of a non-zero @p value
 * (|value| < 10^(1 - decimals)): then four significant digits as the formulas write them (model::formulaNumber():
 * "0.00012", "1.2e-5"), so that a tiny price or per-user speed never reads "0.000" (h14k).
 */
QString fixedOrSignificant(double value, int decimals);

/** The letter of compared scenario @p index: "A" for 0 (the --scenario), "B" for the first --compare FILE, ... */
QString comparedLetter(int index);

/**
 * The names of compared @p scenarios as the comparison's headers print them: "Llama 3.1 8B on H100 SXM"; where two or
 * more share that name (scenario files that keep a preset's name), each followed by its file's name, as the window
 * names its pinned scenarios: "(fast.json)"; "(defaults)" for a scenario from no file (an empty entry of @p files);
 * and where the file names repeat too (one file twice, or a/s.json and b/s.json), by its order among them:
 * "(s.json, #2)". @p files: the file of each scenario in order (may be shorter: the rest are from no file).
 */
QStringList comparedTitles(const std::vector<model::Scenario>& scenarios, const QStringList& files);

/**
 * N-way comparison (--report with --compare given several times): @p scenarios[0] is A (the reference),
 * the others B, C, ... with their @p evaluations (as many). {"a": report A, "b": report B, "c": ..., "ratio":
 * every numeric figure as B / A (as the A/B comparison), "ratio_c": C / A, "ratio_d": ..., "labels": ["A", "B",
 * ...], "names": ["Llama 3.1 8B on H100 SXM", ...], and with @p files (added, h14k) "files": each scenario's file as
 * given (null: none, the defaults) and "titles": comparedTitles() (the names told apart where they repeat)}. With two
 * scenarios "a", "b" and "ratio" are compareJson()'s; the A/B command line prints compareJson() itself.
 */
QJsonObject compareJson(const std::vector<model::Scenario>& scenarios, const std::vector<model::Evaluation>& evaluations,
                        const QStringList& files = {});

/** The N-way comparison as a text table: the names ("A: ...", comparedTitles() of @p files), then figure, A, B, C, ...,
 *  B / A, C / A, ... */
QString compareText(const std::vector<model::Scenario>& scenarios, const std::vector<model::Evaluation>& evaluations,
                    const QStringList& files = {});

/**
 * The comparison as CSV ("\n" line ends): header figure,A,B,...,B / A,...; a "name" row with each scenario's
 * name (comparedTitles() of @p files: told apart where they repeat); then one row per figure (dotted key as in the JSON), numbers in the shortest form that reads back to the
 * same double, ratios empty where undefined (A is 0 or either is not a number).
 */
QString compareCsv(const std::vector<model::Scenario>& scenarios, const std::vector<model::Evaluation>& evaluations,
                   const QStringList& files = {});

} // namespace ridgeline::app
