// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include <QByteArray>
#include <QString>

#include "model/cost/scenario.h"
#include "model/sim/simulator.h"

namespace ridgeline::model {

/** Which format parseTraceCsv() found. */
enum class TraceFormat {
    Rows,     ///< ours: arrival_s,prompt_tokens,output_tokens[,class]
    Azure,    ///< the Azure LLM inference trace CSV: TIMESTAMP,ContextTokens,GeneratedTokens
    Mooncake  ///< the Mooncake trace JSON Lines: timestamp (ms), input_length, output_length, hash_ids
};

/** What parseTraceCsv() found besides the requests. */
/** Tokens per hash id of a Mooncake trace (its prompts are hashed in blocks of 512 tokens; Mooncake, FAST 2025). */
inline constexpr int kMooncakeBlockTokens = 512;

struct TraceStats {
    TraceFormat format = TraceFormat::Rows;
    long long skippedRows = 0; ///< Azure rows with 0 context or generated tokens (failed requests), left out
};

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
 *                  "prompt": DIST, "output": DIST, "start_s": 0, "end_s": null,
 *                  "arrival": "poisson" | "gamma", "burstiness": 1 (gamma only: shape, 0.001 to 1000),
 *                  "prefix_groups": 0 (N: each request one of N prompt prefixes, for the prefix-aware router),
 *                  "prefix_tokens": 0 (with prefix_groups: the prompt tokens a group's requests share)}],
 *     "trace_csv": "trace.csv" (a file in the simulation file's folder or below it: no absolute path, no
 *                  "..", no link leading out; rows arrival_s,prompt,output[,class], or an Azure LLM
 *                  inference trace CSV, or a Mooncake trace JSONL: parseTraceCsv()),
 *     "replicas": 1 (1 to 4096), "router": "round_robin" | "least_loaded" | "prefix_aware",
 *     "prefix_caching": true (each replica's KV prefix cache; false: every prompt prefilled in full),
 *     "closed_loop_clients": 0 (N >= 1: N clients in all, each sending its next request when its last one leaves,
 *                  routed across the replicas; docs/fleet-simulation.md, "Closed-loop clients"),
 *     "pipeline_stages": 1, "expert_parallel": 1, "microbatches": 0 (each replica's layout with TP = the scenario's
 *                  hardware.gpus: PP stages, EP GPUs sharing the routed experts, decode microbatches, 0: min(PP, B);
 *                  a layout that layoutRefusal() refuses for the scenario's model is an error naming it),
 *     "prefill_replicas": 0 (N >= 1: disaggregated pools, N prefill replicas and `replicas` decode replicas,
 *                  the KV sent over the link; open loop only; docs/fleet-simulation.md, "Disaggregated pools"),
 *     "rate_sweep": {"from": 1, "to": 20, "steps": 10, "attainment": 0.99, "bisections": 6},
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
    RateSweep rateSweep;      ///< "rate_sweep" (steps 0: none); checked with checkRateSweep()
    TraceStats trace;         ///< the trace's format and skipped rows (trace_csv)
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
 * Parses a trace, its format found from its first line that is not blank:
 * - a line starting with '{': the Mooncake trace, JSON Lines, one {"timestamp": ms, "input_length": tokens,
 *   "output_length": tokens, "hash_ids": [block hashes]} a line (other keys ignored); arrival = timestamp / 1000 s,
 *   prefix group = hash_ids[0];
 * - the header TIMESTAMP,ContextTokens,GeneratedTokens (any case): the Azure LLM inference trace; arrivals are
 *   seconds after the first row's datetime ("2023-11-16 18:15:46.6805900", T and a zone allowed), rows in time
 *   order; rows with 0 tokens (failed requests) are skipped and counted in @p stats;
 * - else ours: one request per line, "arrival_s,prompt_tokens,output_tokens[,class]"; blank lines,
 *   lines starting with '#' and a first line that does not start with a number (a header) are skipped.
 * A class names an entry of @p classes; rows without one go to a class "trace" (interactive), appended to
 * @p classes when missing. Errors name @p field, the line and the field, never the file's text (it may
 * be any file): "simulation.trace_csv line 4: prompt_tokens (field 2) is not a whole number from 1 to ...".
 */
std::string parseTraceCsv(const QByteArray& text, const std::string& field, std::vector<RequestClass>& classes,
                          std::vector<Request>& out, TraceStats* stats = nullptr);

} // namespace ridgeline::model
