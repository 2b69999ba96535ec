// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include <QByteArray>
#include <QString>

#include "model/cost/scenario.h"
#include "model/sim/simulator.h"

namespace ridgeline::model {

/**
 * A simulation file: a scenario and how to load it.
 *
 * ```
 * {
 *   "title": "text (optional)",
 *   "format_version": 1 (optional),
 *   "scenario": { scenario keys as in scenario files, applied over defaultScenario() },
 *   "simulation": {
 *     "policy": "static" | "continuous" | "chunked",              default "continuous"
 *     "max_sequences": 256,  "token_budget": 512,                  whole numbers >= 1
 *     "kv_admission": "paged" | "contiguous",                     default "paged"
 *     "block_tokens": 16 (default scenario serving.block_tokens), "kv_watermark": 0.01,
 *     "duration_s": 600  and/or  "requests": 10000,               needed when a rate has no end_s
 *     "seed": 1,
 *     "itl_slo_ms": (default the scenario's first ITL SLO), "ttft_slo_ms": (default the scenario's),
 *     "itl_slo_statistic": "mean" (TPOT) | "max" (worst interval),
 *     "classes": [{"name": "chat", "priority": "interactive" | "batch",
 *                  "rate_per_s": 10  and/or  "count": 50 (a burst at start_s),
 *                  "prompt": DIST, "output": DIST, "start_s": 0, "end_s": null}],
 *     "trace_csv": "trace.csv" (a file in the simulation file's folder or below it: no absolute path, no
 *                  "..", no link leading out; rows arrival_s,prompt,output[,class]),
 *     "admission_rule": "none" | "separate_queues" | "prefill_token_cap" | "reserved_kv",
 *     "batch_prefill_token_cap": 256, "reserved_kv_fraction": 0.3,
 *     "sweep_max_sequences": [8, 16, 32, 64, 128, 256],
 *     "kv_series_points": 200
 *   }
 * }
 * DIST: {"dist": "fixed", "value": 200} | {"dist": "uniform", "min": 100, "max": 300}
 *     | {"dist": "lognormal", "median": 2000, "p99": 8000, "min": (optional clamp), "max": (optional clamp)}
 * ```
 * Unknown keys, wrong types and bad values are errors naming the key and the value. Names and the title
 * may not hold control characters. Bounds (simulator.h): at most 64 classes, max_sequences and sweep
 * caps up to 1,000,000, at most 16 sweep caps, and at most 2,000,000 requests in all (classes, trace
 * rows and each sweep run), at most 1e9 output tokens over all runs and about 1 GiB of memory (estimated
 * from the classes' mean lengths; the message gives the estimate), so that any accepted file runs in
 * seconds. A lognormal's min and max may not contradict its median (min <= median <= max). Duplicate
 * keys are refused (model/cost/jsoninput.h).
 */
struct SimulationFile {
    std::string title;        ///< "title", or "" when absent
    Scenario scenario;        ///< defaultScenario() with "scenario" applied; validated
    SimulationConfig config;  ///< "simulation", with the trace rows loaded; checked
};

/**
 * Parses simulation JSON text into @p out. A relative trace_csv resolves against @p baseDir.
 * Returns "" on success, else one message naming the key and value (e.g.
 * "simulation.policy = \"fast\": expected static, continuous or chunked"); @p out is then unspecified.
 */
std::string parseSimulationJson(const QByteArray& json, const QString& baseDir, SimulationFile& out);

/** Reads and parses the simulation file at @p path (trace_csv relative to its folder). */
std::string loadSimulationFile(const QString& path, SimulationFile& out);

/**
 * Parses trace CSV text: one request per line, "arrival_s,prompt_tokens,output_tokens[,class]"; blank lines,
 * lines starting with '#' and a first line that does not start with a number (a header) are skipped.
 * A class names an entry of @p classes; rows without one go to a class "trace" (interactive), appended to
 * @p classes when missing. Errors name @p field, the line and the field, never the file's text (it may
 * be any file): "simulation.trace_csv line 4: prompt_tokens (field 2) is not a whole number from 1 to ...".
 */
std::string parseTraceCsv(const QByteArray& text, const std::string& field, std::vector<RequestClass>& classes,
                          std::vector<Request>& out);

} // namespace ridgeline::model
