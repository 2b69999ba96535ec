// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "model/files/benchmarkfile.h"
#include "model/cost/scenario.h"
#include "model/sim/simulator.h"

namespace ridgeline::model {

/** How the predicted engine schedules (docs/cost-model.md, "Serving-step costs"). Defaults: vLLM V1 on a GPU. */
struct BenchmarkOptions {
    SchedulerVersion scheduler = SchedulerVersion::V1; ///< V1: no whole-prompt KV reservation; V0, V0PromptFirst (vLLM V0
                                                       ///< without chunked prefill: prompt steps first) and TrtllmInflight
                                                       ///< (whole-prompt contexts within tokenBudget, GUARANTEED_NO_EVICT)
                                                       ///< selectable; the scenario's serving.scheduler replaces it when set
    int tokenBudget = 8192;       ///< tokens per step shared by decodes and prefill chunks (vLLM max_num_batched_tokens,
                                  ///< TensorRT-LLM max_num_tokens; 8,192 is both engines' serving default); the scenario's
                                  ///< serving.max_num_tokens replaces it when set (> 0)
    int maxSequences = 256;       ///< sequences holding a slot (vLLM max_num_seqs, TensorRT-LLM max_batch_size)
    /// prompts one step may prefill besides the token budget (SimulationConfig::maxPrefillsPerStep); 0 (the default): no
    /// limit; the scenario's serving.max_prefills_per_step replaces it when set (> 0)
    int maxPrefillsPerStep = 0;
    /// TensorRT-LLM's dynamic batch tuner under the trtllm scheduler (SimulationConfig::dynamicBatchTuning): false (the
    /// default) off; on when this or the scenario's serving.dynamic_batch_tuning is true. tokenBudget (or
    /// serving.max_num_tokens) is then the engine's static max_num_tokens, which the tuner's budget never exceeds
    bool dynamicBatchTuning = false;
    long long measuredRequests = 64; ///< steady-state points: at least this many requests measured after the warm-up
    long long maxRequests = 4000; ///< whole-run points: at most this many of the file's requests are simulated
    std::uint64_t seed = 1;       ///< Poisson arrivals of request-rate points
    /** Steady-state closed loops: false (default) starts the N clients together, as GenAI-Perf, llmperf and vLLM
     *  do, so that equal requests run in lockstep (the NIM set's TTFT at low concurrency grows as N prefills in a
     *  row, as lockstep predicts); true spreads their first requests over one estimated request time. */
    bool staggerClients = false;
    /** Steady-state closed loops: true sends each of the N clients' first requests at a time drawn uniformly over one
     *  estimated request time (prefill alone plus OSL decode steps of the batch the clients or the KV allow), from a
     *  generator seeded with @c seed, so that a run is the same for the same seed. It stands in for what de-synchronises
     *  real clients over a benchmark's warm-up and measurement windows, which the simulated equal requests lack
     *  (docs/cost-model.md, "How the clients start"). Off (default): the clients start together (or staggerClients). */
    bool randomClientStarts = false;
    /** The server streams every token after a request's first to its client in rounds of this many engine steps: such a
     *  token reaches the client at the end of the first step, counted from the run's first, whose number is a multiple of
     *  this (the last step of the run at the latest), and the client's E2E and TPOT count from there; the first token
     *  comes at its own step. Measured on vLLM 0.5.4's OpenAI server in the Lambda sets' per-request `itls` (each
     *  streamed chunk about ten engine steps of tokens, every running request's chunk at the same instants; the first
     *  token at its prompt step), docs/cost-model.md, "vLLM 0.5.4 streams in rounds" (h13ap). Only the per-request TTFT,
     *  TPOT and E2E statistics of the prediction see it (the engine's steps, slots and ITL statistics are unchanged, and a
     *  closed-loop client sends its next request when the engine finishes). 0 or 1 (default): every token at its step. */
    int streamIntervalSteps = 0;
    /**
     * The server hands every token to its client this many engine steps after the step that emitted it: at the end of
     * the step that follows (for 1), when the engine runs it right after; when the engine goes idle instead, at once
     * (at the end of its own step). Applied after streamIntervalSteps' rounds. Measured in the Lambda vLLM sets'
     * per-request `ttfts` (docs/cost-model.md, "The first token waits for the next engine step (h13ar)"): at N = 20 the
     * requests of both prompt steps get their first token together, at the end of the second; at N = 40 the five prompt
     * steps' first tokens come one prompt step late each, the last one step of decodes after the fourth's. vLLM's V0 engine
     * overlaps the output processing of step n with step n + 1 (async output processing, vLLM 0.6.0). Only the
     * per-request TTFT, TPOT and E2E statistics see it (the engine's steps and ITL statistics are unchanged, and a
     * closed-loop client sends its next request when the engine finishes). 0 (default): every token at its own step.
     */
    int outputLagSteps = 0;
    /**
     * Seconds per request of a burst the server accepts before the engine's first step: for a whole-run point whose
     * requests are all sent at once (request rate infinite, no concurrency cap), every request reaches the engine
     * n x this after it was sent (n the requests of the burst), on top of efficiency.ttft_overhead_ms. The Lambda vLLM
     * sets' first tokens (docs/cost-model.md, h13ar): the engine's first prompt step holds a full token budget of
     * requests from all over the burst, and starts about 2-2.5 ms per request sent after the sending (request 0's first
     * token at 3.26 s at N = 1,280). 0 (default): none.
     */
    double burstAcceptanceSeconds = 0;
    /**
     * GenAI-Perf's measurement of a closed loop (perf_analyzer's time windows), seconds from the run's start: a
     * steady-state concurrency point measures every request that finishes within this time of the first sending, the
     * first wave included (the N requests every client sends at once when the run starts), instead of the requests
     * after a warm-up of N. perf_analyzer starts its first window as its load manager starts sending, runs each window
     * for 1.2 x --measurement-interval, and counts a request in the window in which its last response arrives
     * (src/inference_profiler.cc, Measure() and ValidLatencyMeasurement()); with GenAI-Perf's --stability-percentage
     * 999 it stops after three windows, so this is 3.6 x the interval (216 s for the NIM Llama 3 8B fp16 set, whose
     * GenAI-Perf records give stability 999 and spans of 210-216 s: docs/cost-model.md, "GenAI-Perf measures from the
     * first request (h13au)"). The prediction simulates the first wave and a warm-up-free steady state as before and
     * weighs them as the window would: the first wave's requests that finish within the window, once each, and the
     * steady state's requests by the number the window holds after each client's first request, the sum over clients
     * of (window - its first finish) / the steady state's mean E2E (Little's law). Only the per-request TTFT, TPOT and E2E statistics see
     * it (the ITL, the throughput and the engine's figures stay the steady state's). Clients that start spread out
     * (staggerClients, randomClientStarts) have their first requests as the first wave. 0 (default): measured after
     * the warm-up, as before.
     */
    double measurementWindowSeconds = 0;
    /**
     * With measurementWindowSeconds 0: each steady-state closed loop whose point records its own measurement window
     * (BenchmarkPoint::measurementWindowSeconds, a measurement CSV's `measurement_window_s`) is measured as
     * measurementWindowSeconds describes, with that window; points without one as before. The NIM Llama 3 8B fp16 set's
     * GenAI-Perf runs: 216 s on most points, four to nine 72 s windows where perf_analyzer measured on until three windows
     * in a row held finished requests (docs/cost-model.md, h13aw). false (default): the points' windows are not used.
     */
    bool pointMeasurementWindows = false;
    /** Steady-state and whole-run closed loops: split each measured request's TTFT into its parts
     *  (BenchmarkPrediction::ttftParts). Off (default): the parts stay empty. A diagnostic (h13ax). */
    bool ttftParts = false;
    /**
     * Concurrency points: the benchmark client's worker threads (SimulationConfig::clientThreads): the N clients go
     * floor(N / T) to a thread (the first N mod T one more), and a thread sends its clients' requests one at a time, each
     * clientTurnaroundSeconds after the later of the response it follows and its own previous send. perf_analyzer (under
     * GenAI-Perf) ran 16 threads in its concurrency mode up to 2.48 (Triton 24.07), one a client from 2.49 on; its
     * per-request exports show 0.03-0.65 ms, median about 0.1 ms, from a client's last response to its next request
     * (docs/cost-model.md, "what perf_analyzer's clients do between a response and the next request (h13ay)").
     * 0 (default): no threads, each request sent as the one before it leaves.
     */
    int clientThreads = 0;
    double clientTurnaroundSeconds = 0; ///< with clientThreads: each send's time on its thread, seconds (0.0001: the measured median)
};

/**
 * A closed-loop point's mean TTFT split into where its measured requests spent it, seconds, each the mean over them
 * (BenchmarkOptions::ttftParts; docs/cost-model.md, h13ax). The parts sum to the mean TTFT but for `other` (the API
 * server's output path, an output lag): front end (its serial turn, efficiency.frontend_serial_ms, and the wait for
 * it) + per-request delay (efficiency.ttft_overhead_ms) + the engine's step under way when the request arrives + the
 * whole steps it waits through before it is scheduled (prompts ahead of it within the token budget or the prompt
 * limit, KV, slots) + its own prefill step (its prompt alone, as StepCost prices it, and what the step's other prompts
 * and decodes add) + the first token's return path (efficiency.first_token_return_ms).
 */
struct TtftParts {
    long long requests = 0;
    double frontEnd = 0, requestDelay = 0, stepInProgress = 0, stepsWaited = 0, prefillStep = 0, prefillAlone = 0,
           firstTokenReturn = 0, other = 0;
    double stepsWaitedCount = 0;       ///< whole steps waited, mean
    double waitedPrefillTokens = 0;    ///< of those steps, prompt tokens prefilled per step (mean over the steps)
    double waitedDecodes = 0;          ///< of those steps, decoding sequences per step
    double ownStepPrefillTokens = 0;   ///< its own prefill step's prompt tokens (its own included)
    double ownStepDecodes = 0;         ///< its own prefill step's decoding sequences
};

/**
 * What a benchmark tool would report for one point, vLLM's definitions (benchmarks/benchmark_serving.py):
 * per request TTFT = first token - sent, TPOT = (E2E - TTFT) / (output - 1), E2E = last token - sent,
 * E2E / output tokens (llmperf); ITL pooled over every gap between two tokens of a request. Seconds.
 * Statistics over the measured requests: all of a whole-run point; for a steady-state point (GenAI-Perf) the
 * requests sent after the first N and before the last N of a closed loop of N clients.
 */
struct BenchmarkPrediction {
    Percentiles ttft, tpot, itl, endToEnd, endToEndPerOutputToken; ///< mean, p50 (interpolated median), p90, p95, p99
    double requestsPerSecond = 0;     ///< measured requests / their span (first sent to last finished); steady state: the
                                      ///< requests sent in whole waves of N sendings from that of the first measured request
                                      ///< (the measured number / N, rounded up), / that span
    double outputTokensPerSecond = 0;
    double totalTokensPerSecond = 0;  ///< (input + output) tokens / span
    double meanInFlight = 0;          ///< Little's law: requestsPerSecond x mean E2E (equals the clients in a steady closed loop)
    double meanBatch = 0;             ///< sequences holding a slot, time-weighted over busy time
    int peakSequences = 0;
    long long preemptions = 0;        ///< KV ran out: sequences dropped and recomputed
    long long simulatedRequests = 0, measuredRequests = 0;
    /** With BenchmarkOptions::measurementWindowSeconds: the TTFT and the E2E of the first wave's requests (the first N
     *  of a closed loop of N clients, sent when the run starts), whatever the window, and the steady-state requests the
     *  window holds besides the first wave's (the sum over clients of (window - first finish) / the steady mean E2E,
     *  fractional). Empty and 0 otherwise. Seconds. */
    Percentiles firstWaveTtft, firstWaveEndToEnd;
    double windowSteadyRequests = 0;
    TtftParts ttftParts; ///< BenchmarkOptions::ttftParts: the mean TTFT's parts (measured requests, steady state); else empty
    long long steps = 0, mixedSteps = 0; ///< engine steps; those holding decodes and prefill chunks together
    double busySeconds = 0;
    double overheadSeconds = 0;       ///< of busySeconds: fixed step / prefill overheads
    double chunkOverheadSeconds = 0;  ///< of busySeconds: per-chunk prefill cost
    double commSeconds = 0;           ///< of busySeconds: tensor-parallel all-reduces
    double kvCapacitySequences = 0;   ///< sequences of this point's ISL + OSL whose KV fits the budget
};

/** The predicted value of @p metric / @p statistic, milliseconds (nullopt when the run measured none). */
std::optional<double> predictedMs(const BenchmarkPrediction& p, BenchmarkMetric metric, BenchmarkStatistic statistic);

/**
 * Runs the serving simulator (model/sim/simulator.h) the way the benchmark drove the server: closed loop of N
 * clients (Concurrency), Poisson arrivals optionally capped at N in flight (RequestRate), or one static
 * batch (StaticBatch). The requests' lengths: a whole-run point that lists them (BenchmarkPoint::inputLengths and
 * outputLengths, vLLM's input_lens / output_lens) runs exactly those requests in the file's order (an output of 0 tokens
 * as one engine token, and its TTFT counted as 0, as vLLM's client records a request that streamed no text); otherwise
 * each request's prompt and output are drawn around the point's means from the scenario's length distributions
 * (Workload::inputLengthShape, ...; a seeded stream of its own, the same requests for every parameter set), which by
 * default are fixed: every request at the point's mean lengths. Deterministic.
 * Returns "" and sets @p out, or why the point cannot be simulated (naming it), e.g. a request of the mean lengths whose
 * KV can never fit. Precondition: validate(scenario) is empty.
 */
std::string predictBenchmark(const Scenario& scenario, const BenchmarkPoint& point, const BenchmarkOptions& options,
                             BenchmarkPrediction& out);

/** A latency compared for one point: the file's own metric and statistic against the prediction's. */
struct ComparedLatency {
    BenchmarkMetric metric = BenchmarkMetric::Itl;
    BenchmarkStatistic statistic = BenchmarkStatistic::Mean;
    double measuredMs = 0;
    double predictedMs = 0;
    double residual = 0; ///< (predicted - measured) / measured
};

/**
 * The decode-latency comparison of a point: the file's ITL, else its TPOT, else llmperf's E2E / output token,
 * each at the first statistic it gives among mean, median, p90, p95, p99 (the prediction at the same one).
 */
std::optional<ComparedLatency> compareItl(const BenchmarkPoint& point, const BenchmarkPrediction& prediction);
/** The same for TTFT. */
std::optional<ComparedLatency> compareTtft(const BenchmarkPoint& point, const BenchmarkPrediction& prediction);

/**
 * Where the clients of a closed loop are, on average, by Little's law (docs/cost-model.md, "Where the loaded TTFT is lost
 * (h13am)"): request throughput, output tokens per second, and the mean number of clients past their first token
 * (decoding: streaming their output) and before it (sent, not yet given a first token: queued in the server or the
 * engine, or in their prefill). decoding + beforeFirstToken = the clients N in a steady closed loop without think time.
 */
struct ClosedLoopOccupancy {
    double requestsPerSecond = 0;
    double outputTokensPerSecond = 0;
    double decoding = 0;         ///< clients, time-averaged
    double beforeFirstToken = 0; ///< clients, time-averaged
};

/**
 * The occupancy a measured closed-loop point implies from its own latencies: a client's cycle is TTFT + (OSL - 1) x ITL
 * (GenAI-Perf's and vLLM's concurrency mode: each client sends its next request when its last one finished, no think
 * time), so X = N / cycle, output = X x OSL, decoding = X x (OSL - 1) x ITL, before the first token = X x TTFT.
 * Needs a Concurrency point with N > 0, OSL >= 1 and the mean TTFT and the mean ITL (else the mean TPOT); nullopt otherwise.
 */
std::optional<ClosedLoopOccupancy> measuredClosedLoop(const BenchmarkPoint& point);

/** The same figures from a prediction's own run: its request and token throughput, X x (mean E2E - mean TTFT) decoding,
 *  X x mean TTFT before the first token. */
ClosedLoopOccupancy predictedOccupancy(const BenchmarkPrediction& prediction);

/**
 * TTFT of lone requests against the prompt as a straight line, TTFT = intercept + slope x ISL (docs/cost-model.md, "TTFT at
 * low load, the lone requests' line and the loaded prefill queue (h13ao)"). Up to a few thousand prompt tokens the prefill's
 * attention is a few per cent of its FLOP (Llama 3 8B at 2,000 tokens: 2 L P d_model causal against 2 N_active per token,
 * about 3 %), so the line splits a lone request's TTFT into what every request pays once (intercept, ms: the client's
 * HTTP round trip, tokenisation, the engine's scheduling and fixed step overhead, detokenising and streaming the first
 * token) and the prefill's time per prompt token (slope, ms per token: the GEMMs' 2 N_active FLOP per token at their
 * achieved rate).
 */
struct TtftLine {
    double interceptMs = 0;
    double slopeMsPerToken = 0;
    int points = 0;            ///< (ISL, TTFT) pairs fitted
};

/**
 * Least-squares TtftLine through (prompt tokens, TTFT ms) pairs; nullopt unless they hold two distinct prompt lengths
 * and finite values.
 */
std::optional<TtftLine> fitTtftLine(const std::vector<std::pair<double, double>>& promptTokensAndTtftMs);

/**
 * fitTtftLine() over the lone requests of @p points: closed-loop points at concurrency 1 with a mean TTFT and at most
 * @p maxPromptTokens prompt tokens (static batches of 1 are left out: their TTFT has no client front end).
 */
std::optional<TtftLine> loneRequestTtftLine(const std::vector<BenchmarkPoint>& points, double maxPromptTokens = 2000);

/**
 * How long a loaded closed-loop client waits for its first token, counted in lone prefills (docs/cost-model.md, h13ao):
 * W = (TTFT(N) - TTFT(1)) / ((N - 1) / 2 x t_p), with t_p = TTFT(1) - @p interceptMs the prefill of one prompt of the same
 * length alone (TTFT(1) the lone request of the same ISL / OSL, intercept from loneRequestTtftLine()). N prompts that
 * arrive together and are prefilled one after another, each first token sent when its own prefill ends, wait (N - 1) / 2
 * prefills on average: W = 1. All N in one context step, every first token at its end (N prefills' time where one request
 * alone waits one): W = 2 at the lone prefill's speed. Clients apart, a new prompt finding no other: W near 0. nullopt when N <= 1, t_p <= 0
 * or a value is not finite.
 */
std::optional<double> loadedPrefillWait(double ttftMs, double concurrency, double loneTtftMs, double interceptMs);

/** One point's prediction, or the reason there is none. */
struct PointPrediction {
    BenchmarkPrediction prediction;
    std::string error;
};

/** predictBenchmark() for every point, split over the machine's cores (results in the points' order). */
std::vector<PointPrediction> predictBenchmarks(const Scenario& scenario, const std::vector<BenchmarkPoint>& points,
                                               const BenchmarkOptions& options);

} // namespace ridgeline::model
