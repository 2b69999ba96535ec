// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <QByteArray>
#include <QString>

namespace ridgeline::model {

/**
 * Most measurements a calibration or a benchmark file reads (rows of a CSV, results of a benchmark JSON). Fitting costs three
 * model evaluations per point on the UI thread (about 0.4 s of CPU per 10,000 points); more rows are refused with
 * a message naming the line, before any fit.
 */
inline constexpr int kMaxMeasurements = 10000;

/** How a benchmark loaded the server. */
enum class BenchmarkLoad {
    Concurrency, ///< closed loop: N clients, each sending its next request when the last one finished
    RequestRate, ///< open loop: Poisson arrivals at a rate (infinite: all at once), optionally capped at N in flight
    StaticBatch  ///< one static batch of N sequences started together (TensorRT-LLM's benchmark)
};

/** A latency the benchmark tools report, with vLLM's benchmark definitions (benchmarks/benchmark_serving.py). */
enum class BenchmarkMetric {
    Ttft,                  ///< time to first token, from sending the request
    Tpot,                  ///< per request: (E2E - TTFT) / (output tokens - 1); GenAI-Perf and AIPerf call it inter_token_latency
    Itl,                   ///< every gap between two consecutive tokens of a request, pooled over requests
    EndToEnd,              ///< E2E: sending the request to its last token
    EndToEndPerOutputToken ///< per request: E2E / output tokens (llmperf's inter_token_latency_s, TTFT included)
};

/** Which statistic of a latency's distribution a value is. Mean and median are never mixed. */
enum class BenchmarkStatistic { Mean, Median, P90, P95, P99 };

/** One measured latency: metric, statistic, milliseconds. */
struct MeasuredLatency {
    BenchmarkMetric metric = BenchmarkMetric::Ttft;
    BenchmarkStatistic statistic = BenchmarkStatistic::Mean;
    double ms = 0;
};

/** One benchmark run (one operating point), as a benchmark tool reported it. Tokens are means per request. */
struct BenchmarkPoint {
    std::string label;            ///< where it is in the file: "line 3", "result 2"
    std::string set;              ///< the CSV's `set` column, if any ("" otherwise)
    BenchmarkLoad load = BenchmarkLoad::Concurrency;
    double concurrency = 0;       ///< Concurrency: clients; StaticBatch: batch; RequestRate: in-flight cap (0: none)
    double requestRatePerSecond = std::numeric_limits<double>::infinity(); ///< RequestRate: Poisson rate (inf: all at once)
    double inputTokens = 0;       ///< mean prompt tokens per request (ISL)
    double outputTokens = 0;      ///< mean output tokens per request (OSL), the first token included
    long long requests = 0;       ///< requests the run completed (0: not recorded)
    bool steadyState = false;     ///< measured in a window after warm-up (GenAI-Perf, and CSV rows), not over the whole run
    std::vector<MeasuredLatency> latencies;
    std::optional<double> requestsPerSecond;     ///< request throughput
    std::optional<double> outputTokensPerSecond; ///< output token throughput
    /// Per-request lengths in tokens, in the order the tool sent the requests (vLLM `--save-result`'s `input_lens` and
    /// `output_lens`, SGLang's the same), one entry per completed request each; both empty when the file gives none.
    /// An output length is the tool's count of the request's generated text (vLLM re-tokenizes it), 0 for an empty text
    /// (the engine's first token was the end of the sequence). Prediction simulates each request with its own lengths
    /// (predictBenchmark()); inputTokens / outputTokens stay the file's means.
    std::vector<int> inputLengths, outputLengths;
    /// The measurement window of a steady-state closed loop measured in GenAI-Perf's time windows, seconds from the run's
    /// start (perf_analyzer's windows of 1.2 x --measurement-interval, three or more: docs/cost-model.md, h13au and h13aw),
    /// where the file records it (a measurement CSV's `measurement_window_s` column); 0: not recorded. Used by a prediction
    /// only with BenchmarkOptions::pointMeasurementWindows.
    double measurementWindowSeconds = 0;

    /** The measured value of @p metric / @p statistic in ms, if the file gave it. */
    std::optional<double> latency(BenchmarkMetric metric, BenchmarkStatistic statistic) const;
};

/** What readBenchmarkFile() read. */
struct BenchmarkFile {
    std::string format;               ///< "vLLM bench serve JSON", "SGLang bench_serving JSON", "GenAI-Perf CSV", ...
    std::vector<BenchmarkPoint> points;
    std::vector<std::string> notes;   ///< columns ignored, values inferred (each said once)
};

/** "ttft", "tpot", "itl", "e2e", "e2e_per_output_token". */
const char* benchmarkMetricKey(BenchmarkMetric metric);
/** "mean", "median", "p90", "p95", "p99". */
const char* benchmarkStatisticKey(BenchmarkStatistic statistic);

/**
 * Reads a serving benchmark's output as the tool writes it, recognised by its content (the file name is
 * used only for a GenAI-Perf artifact directory's "concurrencyN"):
 * - vLLM `bench serve --save-result` / benchmark_serving.py JSON: one object, a list, or JSON lines;
 *   `max_concurrency` (null: none) with `request_rate` (a number, "inf", or Infinity); each of
 *   mean/median/p90/p95/p99 x ttft/tpot/itl/e2el kept under its own statistic; per-request `input_lens` and
 *   `output_lens` kept when present (BenchmarkPoint::inputLengths; requests whose `errors` entry is not empty are
 *   left out, as the tool leaves them out of `completed`); extra metadata keys ignored;
 * - SGLang `bench_serving --output-file` JSON lines (`request_rate`: Infinity, `mean_e2e_latency_ms`);
 *   tokens from total_*_tokens, else *_throughput x duration / completed (with a note);
 * - GenAI-Perf `profile_export_genai_perf.csv` ("Metric,avg,min,max,p99,...", quoted thousands) and
 *   GenAI-Perf / AIPerf `profile_export_*.json` ({"unit", "avg", "p50", ...} per metric): their
 *   inter_token_latency is per-request TPOT; concurrency from input_config, the path's "concurrencyN",
 *   or else Little's law (request throughput x mean request latency, rounded, with a note);
 * - llmperf `*_summary.json` (seconds; `num_concurrent_requests`; its inter_token_latency_s is E2E / output tokens);
 * - CSV with a header: concurrency | batch (static) | request_rate, isl | input_tokens | prompt_tokens,
 *   osl | output_tokens, and latency columns "[stat_]metric_unit" (itl_ms, median_ttft_ms, tpot_p99_s, ...;
 *   no statistic: the mean, said in a note); optionally measurement_window_s (seconds > 0, empty: not recorded;
 *   BenchmarkPoint::measurementWindowSeconds); other columns (model, gpu, engine, ...) are ignored with a note.
 * Returns "" and fills @p out, or one message naming the line or result, the key and the value. At most
 * kMaxMeasurements points.
 */
std::string readBenchmarkFile(const QByteArray& bytes, const std::string& fileName, BenchmarkFile& out);

/**
 * The scenario file kept beside a measured benchmark file, as tests/data/measured keeps its sets: the same folder and
 * the file's name with its last suffix replaced by ".scenario.json" ("runs/set.v2.csv" -> "runs/set.v2.scenario.json";
 * a name without a suffix gets it appended). Returns the absolute path when that file exists (a regular file; it is not
 * read here), else an empty string; an empty @p benchmarkPath gives an empty string. The prediction of a file is made
 * against the scenario the caller gives (`ridgeline --predict FILE --scenario S`, the window's), never this one
 * silently: the caller says that it exists (README.md, "`--predict FILE`").
 */
QString companionScenarioPath(const QString& benchmarkPath);

} // namespace ridgeline::model
