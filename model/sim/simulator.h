// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "model/cost/messagetext.h"
#include "model/cost/scenario.h"
#include "model/cost/schedulerversion.h"

namespace ridgeline::model {

/**
 * Discrete-event, iteration-level simulation of one serving replica (one GPU, T with tensor parallelism, or a TP x PP x EP
 * layout, SimulationConfig::pipelineStages): requests arrive, wait in a queue, are admitted, prefill, decode one token
 * per step and leave (fleets, disaggregated pools: SimulationConfig). Each step's time is the cost model's time for that
 * step's mixed batch (StepCost, model/cost/steptime.h). Times are seconds, lengths tokens.
 *
 * Each step, in order:
 * 1. arrivals up to the step's start join their class's queue; requests that could never fit (prompt +
 *    output over serving.max_context_tokens, or over the KV budget) are rejected;
 * 2. every decoding sequence gets the paged block its next token needs; when none is free the
 *    latest-admitted sequence is preempted by recompute (its cache is dropped; it rejoins the front of its
 *    queue and later prefills prompt + generated tokens again), batch class first unless the rule is None;
 * 3. prompts under way take their next chunk, then new sequences are admitted while a slot, KV blocks
 *    (beyond the watermark) and, under Chunked, token budget remain; under SeparateQueues an interactive
 *    request that finds no slot or memory preempts the latest batch sequence;
 * 4. the step lasts StepCost::seconds of its work; its tokens appear at its end.
 * With prefix caching (SimulationConfig::prefixCaching, Request::prefixTokens) an admitted request first takes its
 * group's cached prefix blocks and prefills only past them; cached blocks share the KV budget and are evicted,
 * least recently used first, before anything is preempted (docs/fleet-simulation.md, "Prefix caching").
 * A decoding sequence holding P + g tokens (g generated so far) costs a decode at context S = P + g; the
 * step that completes a prefill yields the first token. An inter-token interval is the time between two
 * of a request's tokens, a preemption's wait included.
 *
 * The shapes it reproduces (tests/model/tst_simulator.cpp) are those of seed 001, section 3: continuous
 * against static batching (3.2a), chunked prefill against whole-prompt prefill (3.4), the goodput-
 * against the throughput-optimal admission cap (3.1), paged against contiguous KV admission (3.3),
 * and a batch job sharing the replica with chat (seed 000, ticket B4).
 */

/** How the scheduler forms each step's batch. */
enum class BatchingPolicy {
    Static,     ///< request-level: a batch is formed when the previous one has wholly finished; finished
                ///< sequences keep their slot (computing padding) until the longest one ends
    Continuous, ///< iteration-level (Orca): admit whenever a slot and KV are free; whole prompts prefill in one step
    Chunked     ///< continuous with chunked prefill (Sarathi-Serve): decodes first, prompts fill the rest of a
                ///< per-step token budget
};

/** How admission sizes a sequence's KV cache. */
enum class KvAdmission {
    Paged,     ///< blocks of block_tokens allocated as the sequence grows; preemption by recompute when they run out
    Contiguous ///< a whole max-context reservation (serving.max_context_tokens) per sequence at admission
};


/** Priority class of a request. */
enum class Priority { Interactive, Batch };

/** How interactive and batch requests share admission. */
enum class AdmissionRule {
    None,            ///< one FIFO queue in arrival order; a head that cannot be admitted blocks the rest
    SeparateQueues,  ///< interactive requests (and their prefill chunks) always go before batch ones
    PrefillTokenCap, ///< FIFO, but batch requests prefill at most batchPrefillTokenCap tokens per step
                     ///< (their prompts are chunked to it under every policy); a capped batch head is skipped
    ReservedKv       ///< FIFO, but batch requests may hold at most (1 - reservedKvFraction) of the KV blocks;
                     ///< a batch head blocked by its share is skipped
};

/** Which per-request statistic of its inter-token intervals the ITL SLO is checked against. */
enum class ItlSloStatistic {
    Mean, ///< TPOT, the request's mean inter-token interval (seed 001, 3.1)
    Max   ///< the request's worst inter-token interval (seed 001, 3.4)
};

/** A distribution of token counts; samples are rounded to whole tokens and at least 1. */
struct LengthDistribution {
    enum class Kind {
        Fixed,    ///< always value
        Uniform,  ///< whole numbers in [min, max], equally likely
        LogNormal ///< exp(N(mu, sigma)) with mu = ln(median), sigma = ln(p99 / median) / 2.3263; clamped to [min, max]
                  ///< when those are > 0 (min <= median <= max, else refused)
    };
    Kind kind = Kind::Fixed;
    double value = 1;   ///< Fixed: tokens
    double min = 0;     ///< Uniform: lower bound; LogNormal: optional clamp (0: none)
    double max = 0;     ///< Uniform: upper bound; LogNormal: optional clamp (0: none)
    double median = 0;  ///< LogNormal: median tokens
    double p99 = 0;     ///< LogNormal: 99th percentile tokens (> median)
};

/** How a class's requests arrive at its rate. */
enum class ArrivalProcess {
    Poisson, ///< exponential inter-arrival times (coefficient of variation 1)
    /// gamma inter-arrival times with shape = burstiness and scale = 1 / (rate x burstiness): mean 1 / rate, squared
    /// coefficient of variation 1 / burstiness; burstiness 1 is Poisson, below 1 burstier, above 1 smoother (vLLM bench
    /// serve's --burstiness). Drawn by Marsaglia-Tsang from the class's own stream.
    Gamma
};

/** One class of traffic: arrivals at a rate (Poisson or gamma), or a burst of requests landing together. */
struct RequestClass {
    std::string name;                    ///< unique, e.g. "chat"
    Priority priority = Priority::Interactive;
    double ratePerSecond = 0;            ///< arrival rate, requests/s (0: no arrivals at a rate)
    long long count = 0;                 ///< burst: this many requests all arriving at startSeconds (0: none)
    LengthDistribution prompt;           ///< prompt tokens
    LengthDistribution output;           ///< output tokens
    double startSeconds = 0;             ///< first possible arrival
    std::optional<double> endSeconds;    ///< Poisson arrivals stop here (none: at the duration or request count)
    ArrivalProcess arrival = ArrivalProcess::Poisson; ///< arrival: how arrivals at ratePerSecond are spaced
    double burstiness = 1;               ///< burstiness: the gamma shape (ArrivalProcess::Gamma), from 0.001 to 1000
    /// prefix_groups: 0, the class's requests share no prompt prefix a router could follow; N >= 1, each request
    /// draws one of N prefix groups (conversations or system prompts), equally likely, ids distinct from other classes'
    int prefixGroups = 0;
    /// prefix_tokens: with prefixGroups, the tokens of the prompt prefix a group's requests share (a system prompt, a
    /// conversation's history), at most each request's prompt; 0 (the default): the groups route but share no tokens,
    /// so prefix caching has nothing to reuse (the behaviour before the key)
    int prefixTokens = 0;
};

/** How a fleet's router assigns each arriving request to a replica (SimulationConfig::router). */
enum class RouterPolicy {
    RoundRobin,  ///< request k (in arrival order) to replica k mod N
    LeastLoaded, ///< to the replica with the fewest requests in flight (routed, not yet finished or rejected) at the
                 ///< arrival; ties to the lowest index
    PrefixAware  ///< a request with a prefix group to the replica that last served that group; a request without one,
                 ///< or whose group is new, to the least loaded replica (as LeastLoaded)
};

/** One request: when it arrives and how long it is. */
struct Request {
    double arrivalSeconds = 0;
    int promptTokens = 1;
    int outputTokens = 1;   ///< including the first token, which the prefill produces
    int classIndex = 0;     ///< into SimulationConfig::classes
    int prefixGroup = -1;   ///< requests sharing a prompt prefix (RequestClass::prefixGroups, a Mooncake trace's first
                            ///< hash id); -1: none. The prefix-aware router and the prefix cache read it.
    int prefixTokens = 0;   ///< of promptTokens, the leading tokens shared with the rest of its group (RequestClass::
                            ///< prefixTokens; a Mooncake trace: 512 per hash id of the group's chain); 0: none
    /// a disaggregated decode pool's request (SimulationConfig::prefillReplicas): its prompt's KV arrived from a prefill
    /// replica, so admission takes blocks for it and the sequence decodes from its first step, with no prefill (after a
    /// preemption it recomputes as any request); its outputTokens are the decode tokens, its first the first decoded
    bool kvReady = false;
};

/** Everything the simulation does besides the scenario. Field names follow the simulation file's keys. */
struct SimulationConfig {
    BatchingPolicy policy = BatchingPolicy::Continuous;
    int maxSequences = 256;              ///< max_sequences: cap on sequences holding a slot
    int tokenBudget = 512;               ///< token_budget: tokens per step under Chunked (decodes count 1 each)
    /// max_prefills_per_step: 0 (the default), no limit; N >= 1, at most N prompts get prefill tokens in one step (prompts
    /// under way first, then new ones in arrival order; the rest wait for a later step, FIFO), besides the token budget.
    /// Under TrtllmInflight each is a whole prompt (a context request); under chunked V0 / V1 a chunk counts as one.
    /// Engines may cap a step's prompts apart from its tokens (vLLM V0 max_num_partial_prefills; for TensorRT-LLM a
    /// fitted, unsourced value: docs/cost-model.md, "Prefills per step"). Not under BatchingPolicy::Static.
    int maxPrefillsPerStep = 0;
    /**
     * dynamic_batch_tuning (SchedulerVersion::TrtllmInflight only; false, the default: off): TensorRT-LLM's dynamic
     * batch tuner with both its tunings on (the executor's DynamicBatchConfig(true, true, 128)). Before each step every
     * request the engine holds (running or queued) adds its prompt and output tokens to a moving window of the last
     * 128 such entries; from the window's means the step's runtime batch size is dynamicBatchRuntimeBatchSize() of the
     * sequences of mean length the KV budget holds (at most maxSequences; it caps admission) and its token budget is
     * min(tokenBudget, dynamicBatchRuntimeMaxNumTokens()): tokenBudget is the engine's static max_num_tokens, the
     * tuner's value only lowers it (docs/cost-model.md, "TensorRT-LLM's dynamic batch tuner (h13bf)").
     */
    bool dynamicBatchTuning = false;
    KvAdmission kvAdmission = KvAdmission::Paged;
    int blockTokens = 16;                ///< block_tokens: paged-KV block size
    double kvWatermark = 0.01;           ///< kv_watermark: fraction of blocks admission keeps free for growth
    std::optional<double> durationSeconds; ///< duration_s: generate arrivals in [0, duration)
    std::optional<long long> requests;   ///< requests: generate (or keep) the first N arrivals
    std::uint64_t seed = 1;              ///< seed of the workload's random streams
    double itlSloMs = 20;                ///< itl_slo_ms
    double ttftSloMs = 800;              ///< ttft_slo_ms
    ItlSloStatistic itlSloStatistic = ItlSloStatistic::Mean; ///< itl_slo_statistic
    std::vector<RequestClass> classes;   ///< classes
    std::vector<Request> trace;          ///< rows of trace_csv (classIndex into classes)
    AdmissionRule admissionRule = AdmissionRule::None;
    int batchPrefillTokenCap = 256;      ///< batch_prefill_token_cap (AdmissionRule::PrefillTokenCap)
    double reservedKvFraction = 0.3;     ///< reserved_kv_fraction (AdmissionRule::ReservedKv), in (0, 1)
    std::vector<int> sweepMaxSequences;  ///< sweep_max_sequences: caps to sweep (empty: no sweep)
    int kvSeriesPoints = 200;            ///< kv_series_points: most points of the KV-in-use series (at least this many / 2)
    bool recordTokenTimes = false;       ///< keep every token's time (SimulationResult::tokenTimes); memory ~ 8 B per token
    /// keep every engine step's start and end (SimulationResult::stepStarts, stepEnds), seconds; one replica only (a fleet's
    /// and a disaggregated run's results leave them empty); memory 32 B per step (with each step's prompt tokens and decodes, SimulationResult::stepPrefillTokens, stepDecodes)
    bool recordStepTimes = false;
    SchedulerVersion scheduler = SchedulerVersion::V0; ///< KV reservation of admitted prompts (Paged only)
    /**
     * Closed loop (benchmark clients): 0 for none; else at most this many requests are in the system at once.
     * Request k (in arrival order) is sent at the later of its own arrival time and the completion (or
     * rejection) of request k - N: N clients each sending the next request as the last one finishes (all
     * arrivals 0), or an open loop capped at N in flight (vLLM's --max-concurrency with a request rate).
     * RequestResult::arrivalSeconds is then the sending time, from which TTFT and E2E count.
     * With replicas > 1 the N clients are the fleet's, in all: each request is routed (router) at its sending time
     * (docs/fleet-simulation.md, "Closed-loop clients"). closed_loop_clients in a simulation file.
     */
    int closedLoopClients = 0;
    /**
     * The benchmark client's worker threads that send a closed loop's requests (not a simulation-file key;
     * BenchmarkOptions::clientThreads). perf_analyzer's concurrency mode (ConcurrencyManager::ReconfigThreads) gives
     * min(T, N) threads floor(N / T) clients each, the first N mod T one more, consecutive clients to a thread, and a
     * thread sends its clients' requests one at a time. 0 (the default): none, each request is sent when the request
     * before it leaves, as above. T >= 1 (with closedLoopClients): a request is sent clientTurnaroundSeconds after the
     * later of that time and its thread's previous send; a client's next request goes through the same thread, and the
     * first N through their threads in turn at the start. perf_analyzer up to 2.48 (Triton 24.07) ran 16 threads whatever
     * the concurrency, 2.49 on max(16, N), one a client (docs/cost-model.md, "what perf_analyzer's clients do between a
     * response and the next request (h13ay)"). One replica only: validate() refuses it with replicas > 1.
     */
    int clientThreads = 0;
    /// With clientThreads: each send's time on its thread (wake-up, request record, hand-over to the HTTP client),
    /// seconds; the sending time, from which TTFT counts, is its end. 0: the threads only order the sends.
    double clientTurnaroundSeconds = 0;
    /**
     * replicas: identical replicas (each this scenario's GPUs and scheduler) behind one router; 1: the single replica
     * above. With more, simulate() routes each request at its arrival (router) and runs every replica's engine in
     * step up to that time, so that the router sees the load in flight. With closedLoopClients, requests are routed
     * at their sending times.
     */
    int replicas = 1;
    RouterPolicy router = RouterPolicy::RoundRobin; ///< router
    /**
     * requestRecords: which requests keep a RequestResult in SimulationResult::requests (and token times, replicaOf).
     * None (the default): every request, in input order. K >= 0: only the first K requests in arrival order (0: none),
     * so that a run's memory does not grow with its length; the summaries cover every request either way.
     */
    std::optional<long long> requestRecords;
    /**
     * prefix_caching: each replica keeps a KV prefix cache (vLLM's automatic prefix caching): the full blocks of a
     * request's shared prefix (Request::prefixTokens) stay cached after it, evictable (least recently used first)
     * when running requests need the blocks, and a later request of the same group skips the prefill of the cached
     * blocks. Only requests with a prefix read it, so a workload without prefix_tokens runs as with it off.
     */
    bool prefixCaching = true;
    /**
     * The parallel layout of each replica (model/cost/parallellayout.h) with tp = the scenario's hardware.gpus:
     * pipelineStages (pp) stages of L / pp layers, expertParallel (EP) GPUs sharing the routed experts, decode
     * microbatches (0: min(pp, B)). Each step is priced by StepCost(scenario, layout) (model/cost/steptime.h), the
     * function the analytic plan uses (docs/cost-model.md section 5): decodes spread over the microbatches, the step's
     * prefill chunks one more microbatch, a stage taking 1 / pp of each; the KV budget is the layout's. 1, 1, 0: tensor
     * parallel only, as before. Simulation file keys pipeline_stages, expert_parallel, microbatches (model/files/simulationfile.h);
     * --plan's simulator check sets them too.
     */
    int pipelineStages = 1;
    int expertParallel = 1;
    int microbatches = 0;
    /**
     * Disaggregated prefill and decode pools (DistServe, OSDI 2024; Splitwise, ISCA 2024): 0, colocated (every replica
     * prefills and decodes); N >= 1: N prefill replicas and `replicas` decode replicas of the same scenario and layout,
     * each pool behind its own router (router). A request prefills in the prefill pool (its first token), its KV then
     * crosses the link (StepCost::kvTransferSeconds(prompt): P x kv_tok / (link x tp x pp) + latency) and it decodes its
     * other tokens in the decode pool. TTFT = prefill queue + prefill + transfer; its inter-token intervals are the
     * decode pool's (the first from the KV's arrival). The decode pool does not hold up the prefill pool (a prefill
     * replica frees the KV as it sends it). Open loop only; simulate() and simulateWorkload() run it, not simulateFleet().
     */
    int prefillReplicas = 0;
};

/**
 * Bounds of a simulation, shared by checkSimulationConfig() and the simulation file parser. With the
 * work and memory budgets below they keep any accepted run to seconds on a 2-core machine (about 4 s
 * per million chat requests; 210 MB keeping every request's record, under 10 MB with requestRecords = 0).
 */
inline constexpr long long kMaxSimulationRequests = 2000000; ///< requests generated in all: classes and trace,
                                                             ///< and again for each sweep run
inline constexpr int kMaxSimulationClasses = 64;             ///< classes, a trace's "trace" class included
inline constexpr int kMaxSimulationSequences = 1000000;      ///< max_sequences and each sweep cap
inline constexpr int kMaxSimulationSweepCaps = 16;           ///< entries of sweep_max_sequences
inline constexpr int kMaxSimulationTokens = 1000000000;      ///< token_budget, batch_prefill_token_cap, lengths
inline constexpr int kMaxSimulationBlockTokens = 1000000;    ///< block_tokens
inline constexpr int kMaxSimulationSeriesPoints = 100000;    ///< kv_series_points
inline constexpr double kMaxSimulationSeconds = 1e7;         ///< duration_s, start_s, end_s, trace arrivals
inline constexpr int kMaxSimulationReplicas = 4096;          ///< replicas
inline constexpr int kMaxSimulationLayoutCount = 1024;       ///< pipelineStages, expertParallel
inline constexpr int kMaxSimulationPrefixGroups = 1000000;   ///< a class's prefix_groups
inline constexpr double kMinSimulationBurstiness = 0.001;    ///< burstiness (gamma shape) bounds
inline constexpr double kMaxSimulationBurstiness = 1000;

/**
 * Called by simulate() about every 16,384 sequence-steps or requests prepared (under a millisecond) and by
 * generateRequests() every 65,536 requests, from the thread running them, with the requests finished
 * (generated) so far and in all. Returning false stops the run at once: simulate() returns a result
 * with cancelled set, generateRequests() an empty list. Empty: never called.
 */
using SimulationProgress = std::function<bool(long long done, long long total)>;

/**
 * Work and memory bounds of a simulation, stated in the refusal message and docs/performance.md. The
 * engine's work is one sequence-step per output token, plus, under Static, the padding steps of
 * sequences that finished before the longest in their batch, plus, under Chunked, at least
 * prompt tokens / token_budget steps of prefill (a step costs about two sequence-steps): about 16 ns of CPU each
 * (measured: 1,000,000 chat requests, 254 million output tokens, 4.1 s), so the budget of 1e9 output
 * tokens over all runs is about 16 s; the run shows progress and stops within milliseconds when
 * cancelled. Memory is about kSimulationBytesPerRequest per request (206 MB for that run) when every request's
 * record is kept (the estimate assumes it), plus 8 bytes per recorded token time, plus the fixed histograms; with
 * SimulationConfig::requestRecords = 0 and simulateWorkload() it is the requests in flight and the bounded summaries
 * (9 MB for 8 replicas and 1 to 4 million requests: docs/fleet-simulation.md, "Memory").
 */
inline constexpr double kMaxSimulationOutputTokens = 1e9;           ///< work units in all runs (SimulationCost::workUnits: output tokens, static padding, prefill steps)
inline constexpr double kMaxSimulationBytes = 1024.0 * 1024 * 1024; ///< estimated peak memory of one run, bytes (1 GiB)
inline constexpr double kSimulationSecondsPerToken = 16e-9;         ///< measured engine CPU time per output token, s (for messages)
/// sequence-steps of work per replica a load-aware router looks at for one request (each replica run up to the arrival,
/// then its load read). Measured 3.4 ns a look with 1,024 replicas and 15.6 ns with 4,096 (cache misses grow with the
/// fleet; it was taken as a quarter of a step): one step, about right for large fleets and conservative for small ones
/// (docs/performance.md, "Fleet plan work budget")
inline constexpr double kSimulationStepsPerRoutingCheck = 1.0;
inline constexpr double kSimulationBytesPerRequest = 220;           ///< measured peak bytes per request (input, result, summaries)
inline constexpr double kFleetBytesPerRequest = 120;                ///< a fleet's extra: the replicas' copies of inputs and results

/** What a configuration will cost, from the expected request count and lengths (before generating them). */
struct SimulationCost {
    double requests = 0;     ///< requests of one run (expected; the trace's exactly)
    double outputTokens = 0; ///< output tokens of one run (expected: means of the length distributions)
    double prefillSteps = 0; ///< Chunked: engine steps the prompts need at least (prompt tokens / token_budget)
    double paddingTokens = 0;///< Static: sequence-steps of finished sequences kept in their batch (up to the longest output)
    double longestOutput = 0;///< Static: the longest output a request can have, tokens
    double routingChecks = 0;///< a fleet with a load-aware router: replicas looked at, requests x (replicas + prefill replicas)
    double workUnits = 0;    ///< sequence-steps of one run: outputTokens + paddingTokens + 2 x prefillSteps + routingChecks x kSimulationStepsPerRoutingCheck
    int runs = 1;            ///< the run plus one per sweep cap
    double bytes = 0;        ///< estimated peak memory of one run, bytes
    double seconds = 0;      ///< estimated engine time of all runs, s
};

/** Estimates @p config's cost; meaningful once checkSimulationConfig()'s other checks pass. */
SimulationCost estimateSimulationCost(const SimulationConfig& config);

/**
 * The one range message of simulation files: "FIELD = VALUE: must be from MIN to MAX", the bounds with
 * thousands separators ("simulation.max_sequences = 0: must be from 1 to 1,000,000").
 */
std::string simulationRangeMessage(const std::string& field, double value, long long min, long long max);


/**
 * Checks @p config; returns "" or one sentence naming the field as spelled in simulation files and its
 * value, e.g. "simulation.classes[0].prompt.p99 = 100: must exceed the median (2000)". Refuses class
 * names with control characters, more than kMaxSimulationClasses classes, and workloads over the
 * bounds above (requests generated, sweep runs included), or over the work and memory budgets
 * (estimateSimulationCost(); the message gives the estimate: "about 1,000 requests x about 2,000,000
 * output tokens each = 2,000,000,000 output tokens to simulate, about 32 s of work; at most ...").
 */
std::string checkSimulationConfig(const SimulationConfig& config);

/**
 * Whether @p config's batching policy uses SimulationConfig::maxPrefillsPerStep (the simulation file's
 * max_prefills_per_step): true under continuous and chunked batching, false under static batching, whose batches
 * prefill all their prompts together (whatever the value; 0, no limit, included). The one rule the simulator, the
 * --simulate report (its JSON key simulation.max_prefills_per_step_applies, the note on stderr) and the Simulation
 * tab's "Prefills / step" box follow.
 */
bool maxPrefillsPerStepApplies(const SimulationConfig& config);

/**
 * TensorRT-LLM's dynamic batch tuner's runtime batch size (DynamicBatchTuner::getRuntimeBatchSize, executor
 * DynamicBatchConfig::kDefaultBatchSizeTable; docs/cost-model.md, "TensorRT-LLM's dynamic batch tuner (h13bf)"): from
 * @p capacitySequences, the sequences of the window's mean prompt + output length the KV cache holds, the first table
 * entry whose limit it is under (under 144: 128, 336: 256, 672: 512, 832: 768, 1,280: 1,024, 1,664: 1,536); above
 * the table, the multiple of 512 below it when it is less than 128 above that multiple, else itself. Sequences.
 */
int dynamicBatchRuntimeBatchSize(int capacitySequences);

/**
 * TensorRT-LLM's dynamic batch tuner's runtime max_num_tokens (DynamicBatchTuner::getRuntimeMaxNumTokens;
 * docs/cost-model.md, "TensorRT-LLM's dynamic batch tuner (h13bf)"), tokens: with r = @p meanInputTokens /
 * @p meanOutputTokens (the window's means), the larger of a threshold (8,192 for r > 2, context heavy; 4,096 for
 * 0.5 < r <= 2; 2,048 below) and the power of two at or above floor(B r + B), B = @p runtimeBatchSize. The engine
 * takes the smaller of this and its static max_num_tokens. @p meanOutputTokens must be > 0.
 */
int dynamicBatchRuntimeMaxNumTokens(double meanInputTokens, double meanOutputTokens, int runtimeBatchSize);

/**
 * The one sentence saying what @p config's max_prefills_per_step does: "At most N prompts prefilled per step
 * (max_prefills_per_step); the rest wait for a later step", "No limit on the prompts prefilled per step
 * (max_prefills_per_step = 0)", or, when it does not apply (maxPrefillsPerStepApplies() false), "max_prefills_per_step
 * = N is ignored under the static policy (...)" giving the reason. No trailing full stop. Used by the --simulate text
 * report and note and the Simulation tab's tool tip.
 */
std::string maxPrefillsPerStepText(const SimulationConfig& config);

/**
 * The workload: each class's Poisson arrivals (its own std::mt19937_64 stream, seeded from seed and the
 * class index, with inverse-CDF exponentials and Box-Muller normals, so the result is the same on every
 * standard library) and bursts, plus the trace rows, sorted by arrival (ties: class order), limited to
 * durationSeconds and to the first `requests`. Precondition: checkSimulationConfig(config) is "".
 */
std::vector<Request> generateRequests(const SimulationConfig& config, const SimulationProgress& progress = {});

/**
 * The workload of generateRequests() drawn one request at a time, in the same order and with the same values, in
 * memory that does not grow with the number of requests: per class its random stream and next request, plus (for a
 * trace that is not already in arrival order) one 4-byte index per trace row. simulateWorkload() runs from it.
 * Precondition: checkSimulationConfig(config) is ""; @p config must outlive the generator.
 */
class RequestGenerator {
public:
    explicit RequestGenerator(const SimulationConfig& config);
    ~RequestGenerator();
    RequestGenerator(const RequestGenerator&) = delete;
    RequestGenerator& operator=(const RequestGenerator&) = delete;
    /** Sets @p request to the next request in arrival order (ties: class order); false when there are no more. */
    bool next(Request& request);
    /** Requests returned so far. */
    long long generated() const { return m_generated; }

private:
    struct ClassStream;
    bool fill(ClassStream& stream);
    const SimulationConfig& m_config;
    std::vector<ClassStream> m_streams;
    std::vector<std::uint32_t> m_traceOrder; // trace rows in arrival order when the trace is not sorted; empty if it is
    size_t m_traceNext = 0;
    long long m_generated = 0;
    long long m_limit = 0;
};

/**
 * Draws one length from @p dist with @p engine (advanced): uniforms from the top 53 bits of one draw,
 * normals by Box-Muller from two. Exposed for tests.
 */
int sampleLength(const LengthDistribution& dist, std::mt19937_64& engine);

/** What happened to one request. Times are seconds since the start; NaN where it never happened. */
struct RequestResult {
    double arrivalSeconds = 0;
    /// when the engine sees it: handed over by the serial front end (efficiency.frontend_serial_ms, FIFO), then
    /// efficiency.ttft_overhead_ms later; equals arrivalSeconds when both are 0
    double engineArrivalSeconds = 0;
    double admittedSeconds = 0;   ///< start of the first step it was scheduled in
    double firstTokenSeconds = 0; ///< end of the step that completed its prefill
    double finishedSeconds = 0;   ///< end of the step that produced its last token
    double maxItlSeconds = 0;     ///< worst inter-token interval (0 with one output token)
    double tpotSeconds = 0;       ///< (finished - first token) / (output - 1): mean inter-token interval (NaN with one token)
    int promptTokens = 0;
    int outputTokens = 0;
    int classIndex = 0;
    int preemptions = 0;          ///< times its KV was dropped and later recomputed
    bool rejected = false;        ///< could never fit (prompt + output over max context, or over the KV budget)
    bool metSlo = false;          ///< TTFT <= ttft SLO and (TPOT or max ITL) <= ITL SLO

    double queueWaitSeconds() const { return admittedSeconds - arrivalSeconds; }
    double prefillSeconds() const { return firstTokenSeconds - admittedSeconds; }
    double ttftSeconds() const { return firstTokenSeconds - arrivalSeconds; }
    double endToEndSeconds() const { return finishedSeconds - arrivalSeconds; }
};

/** Order statistics of one latency, seconds (nearest rank). All zero when count is 0. */
struct Percentiles {
    long long count = 0;
    double mean = 0, p50 = 0, p95 = 0, p99 = 0, max = 0;
    double p90 = 0;
};

/**
 * Inter-token intervals in fixed memory: counts in kBins log-spaced bins (kBinsPerOctave per power of
 * two, from 2^kMinExponent to 2^kMaxExponent s, about 1 us to 194 days; outside values go to the end
 * bins), each with the largest interval it holds; count, mean and max are exact. A percentile is the
 * largest interval in the bin holding the nearest rank: an interval that occurred, never below the exact
 * nearest-rank value and less than 1/256 (0.4 %) above it; exact when the bin holds one distinct value
 * (equal step times). Memory: 4 KiB per power of two that holds an interval (a run's step times span a
 * few), at most 176 KiB, whatever the run's length (it replaced a record of every step's intervals,
 * which grew to gigabytes on long runs).
 */
class LatencyHistogram {
public:
    static constexpr int kBinsPerOctave = 256;
    static constexpr int kMinExponent = -20;
    static constexpr int kMaxExponent = 24;
    static constexpr int kOctaves = kMaxExponent - kMinExponent;
    static constexpr int kBins = kOctaves * kBinsPerOctave;

    /** Adds @p count intervals of @p seconds (ignored unless finite and count > 0). */
    void add(double seconds, long long count = 1);
    /** Adds every interval of @p other. */
    void merge(const LatencyHistogram& other);
    /** Count, mean, p50 / p90 / p95 / p99 (as above) and max; all zero when empty. */
    Percentiles percentiles() const;
    long long count() const { return m_total; }
    /** Bin of @p seconds (exposed for tests). */
    static int binOf(double seconds);

private:
    /** One power of two's bins: counts and the largest interval in each. */
    struct Octave {
        std::array<long long, kBinsPerOctave> count{};
        std::array<double, kBinsPerOctave> top{};
    };
    Octave& octave(int index);

    std::vector<std::unique_ptr<Octave>> m_octaves; // kOctaves, each allocated when it first holds an interval
    long long m_total = 0;
    double m_sum = 0, m_max = 0;
};

/**
 * Order statistics of a per-request latency in bounded memory: the first kExactSamples values are kept and their
 * percentiles are exact (nearest rank, as Percentiles); from the next one on, every value is counted in a
 * LatencyHistogram instead and a percentile is the largest value in the 1/256-octave bin holding the nearest rank:
 * a value that occurred, never below the exact nearest-rank value and less than 1/256 (0.4 %) above it (values under
 * 2^-20 s, about 1 us, share one bin: there the error is under 1 us). Count, mean and max are always exact.
 * Memory: at most 64 KiB (the exact values), then 4 KiB per power of two that holds a value.
 */
class StreamingPercentiles {
public:
    static constexpr long long kExactSamples = 8192;
    static constexpr double kRelativeError = 1.0 / LatencyHistogram::kBinsPerOctave; ///< bound past kExactSamples
    /** Adds one value, seconds (ignored unless finite). */
    void add(double seconds);
    Percentiles percentiles() const;
    long long count() const { return m_count; }
    /** True while the percentiles are exact (at most kExactSamples values so far). */
    bool exact() const { return m_count <= kExactSamples; }

private:
    std::vector<double> m_exact;
    LatencyHistogram m_histogram; // every value once there are more than kExactSamples
    long long m_count = 0;
    double m_sum = 0, m_max = 0;
};

/** The latencies of a set of requests. itl is over every inter-token interval (LatencyHistogram: its
 *  percentiles within 0.4 %), the others per request (StreamingPercentiles: exact up to 8,192 requests, then
 *  within 0.4 %). */
struct LatencySummary {
    Percentiles queueWait, prefill, ttft, itl, tpot, endToEnd;
};

/** Aggregates of one set of requests (all, or one class). Rates are over the run's span. */
struct TrafficSummary {
    long long requests = 0, completed = 0, rejected = 0;
    double outputTokens = 0;
    double throughputTokensPerSecond = 0;   ///< output tokens / span
    double goodputRequestsPerSecond = 0;    ///< requests meeting both SLOs / span
    double goodputFraction = 0;             ///< requests meeting both SLOs / requests (rejected count as missing)
    LatencySummary latency;
};

/** One point of the KV-in-use series (downsampled: the peak over the interval it stands for). */
struct KvSample {
    double seconds = 0;       ///< start of the interval
    double blocks = 0;        ///< whole-model blocks in use (per-layer blocks / L)
    int sequences = 0;        ///< sequences holding a slot
};

/** What one replica of a fleet (SimulationConfig::replicas > 1) served. Rates are over the fleet's span. */
struct ReplicaLoad {
    long long requests = 0, completed = 0, rejected = 0; ///< routed to it
    double outputTokens = 0;
    double throughputTokensPerSecond = 0;
    double goodputFraction = 0;  ///< of its requests, meeting both SLOs
    double busySeconds = 0;      ///< time it spent in steps
    double busyFraction = 0;     ///< busySeconds / the fleet's span
    double p99TtftSeconds = 0;
    double p50TtftSeconds = 0;   ///< the median TTFT of its completed requests (added with the Simulation tab's replica table)
    int peakSequences = 0;
    double meanSequences = 0;
    double kvBlocksPeak = 0;     ///< whole-model blocks, of SimulationResult::kvBlocksTotal
    long long preemptions = 0;
    double prefixPromptTokens = 0; ///< prompt tokens of its requests with a shared prefix (SimulationResult's)
    double prefixHitTokens = 0;    ///< of them, taken from its prefix cache
};

/** Everything a run measures. */
struct SimulationResult {
    /// same order as the input requests, or with SimulationConfig::requestRecords = K the first K in arrival order
    std::vector<RequestResult> requests;
    TrafficSummary all;
    std::vector<TrafficSummary> classes;     ///< one per SimulationConfig::classes entry
    double spanSeconds = 0;                  ///< first arrival to last completion
    /// first arrival to last arrival. spanSeconds - arrivalSpanSeconds is how long the run went on after the last
    /// arrival: longer than the arrivals' own span, the fleet fell behind the offered load (backlogText())
    double arrivalSpanSeconds = 0;
    double busySeconds = 0;                  ///< time spent in steps
    long long steps = 0;
    long long mixedSteps = 0;                ///< steps holding decodes and prefill chunks together
    double overheadSeconds = 0;              ///< of busySeconds: fixed step / prefill overheads (StepBreakdown)
    double chunkOverheadSeconds = 0;         ///< of busySeconds: per-chunk prefill cost
    double commSeconds = 0;                  ///< of busySeconds: tensor-parallel all-reduces
    long long preemptions = 0;
    double prefillTokensComputed = 0;        ///< including recomputation after preemption
    double recomputedTokens = 0;             ///< prefill tokens spent rebuilding preempted caches
    double finishedSlotFraction = 0;         ///< slot-seconds on finished sequences / all slot-seconds (static only > 0)
    int peakSequences = 0;                   ///< most sequences holding a slot at once
    double meanSequences = 0;                ///< time-weighted mean of the same over busy time
    double kvBlocksTotal = 0;                ///< whole-model blocks the KV budget holds
    double kvBlocksPeak = 0;                 ///< most whole-model blocks in use at once
    long long rejectedOverMaxContext = 0;    ///< rejected: prompt + output over serving.max_context_tokens
    long long rejectedOverKvBudget = 0;      ///< rejected: needs more KV blocks than admission may ever grant
    std::vector<KvSample> kvSeries;          ///< KV blocks in use over time
    std::vector<double> tokenTimes;          ///< recordTokenTimes: emission time of every token, request by request
    std::vector<long long> tokenOffsets;     ///< recordTokenTimes: request i's tokens start at tokenOffsets[i] (size n + 1)
    /// recordStepTimes: every engine step's start and end, seconds, in the order the steps ran (one replica)
    std::vector<double> stepStarts, stepEnds;
    /// recordStepTimes: each of those steps' prompt tokens prefilled (all chunks) and decoding sequences, in the same order
    std::vector<double> stepPrefillTokens, stepDecodes;
    bool cancelled = false;                  ///< the progress callback stopped the run: the rest is partial, not to be shown
    /**
     * A fleet (SimulationConfig::replicas > 1): one entry per replica, and the fields above are the fleet's: requests,
     * latencies, throughput and goodput over every request; steps, busySeconds, preemptions, token and rejection counts
     * summed over replicas; peakSequences, kvBlocksTotal and kvBlocksPeak those of one replica (the most loaded one's
     * peak); meanSequences per replica; kvSeries that of the replica with the highest KV peak. Empty for one replica.
     */
    std::vector<ReplicaLoad> replicas;
    std::vector<int> replicaOf;              ///< a fleet: the replica each request was routed to (as requests)
    /// prefix caching (SimulationConfig::prefixCaching): prompt tokens of the requests with a shared prefix
    /// (Request::prefixTokens > 0) at their first scheduling, and of those the tokens found in the prefix cache
    /// (whole blocks of the shared prefix), whose prefill was skipped. Hit rate = prefixHitTokens / prefixPromptTokens.
    double prefixPromptTokens = 0;
    double prefixHitTokens = 0;
    long long prefixEvictedBlocks = 0;       ///< whole-model blocks of cached prefixes given up to running requests
    /// disaggregated (SimulationConfig::prefillReplicas > 0): the first prefillReplicas entries of replicas are the
    /// prefill pool's, the rest the decode pool's; the KV series and KV peaks are the decode pool's. 0: colocated
    int prefillReplicas = 0;
    double prefillBusySeconds = 0;           ///< disaggregated: of busySeconds, the prefill pool's
    /** The prefix cache's hit rate in tokens: prefixHitTokens / prefixPromptTokens (0 when no request has a prefix). */
    double prefixHitRate() const { return prefixPromptTokens > 0 ? prefixHitTokens / prefixPromptTokens : 0.0; }
};


/**
 * Simulates @p requests (any order) on @p scenario under @p config's policy. Deterministic.
 * Preconditions: validate(scenario) and checkSimulationConfig(config) are empty, every classIndex is
 * a valid index into config.classes. Cost: O(steps * sequences holding a slot), plus O(1) per request for the
 * streamed summaries (StreamingPercentiles, LatencyHistogram) whatever the number of classes. Memory: the requests
 * in flight (about 150 bytes each), the bounded summaries, and the records config.requestRecords keeps (all by
 * default: about 100 bytes a request).
 */
SimulationResult simulate(const Scenario& scenario, const SimulationConfig& config, const std::vector<Request>& requests,
                          const SimulationProgress& progress = {});

/**
 * The fleet engine under simulate() when config.replicas > 1, callable with any replica count (1 gives the same
 * result as the single-replica engine: tests/tst_fleet.cpp). Each replica is the single-replica engine with its own
 * queue, KV and clock; before routing a request arriving at t, every replica runs its steps that start before t.
 * Cost: the replicas' steps plus O(replicas) per request. Preconditions as simulate().
 * Closed loop (config.closedLoopClients = N > 0): N clients in all; a request is sent when one leaves any replica (or
 * at its own arrival, if later) and routed then. Events run in time order across the fleet (one replica's step at a
 * time, the earliest first; O(log replicas) each), so the router sees every replica's steps that start before the
 * sending time. One replica gives the single engine's closed loop request by request (tests/model/tst_fleet.cpp).
 */
SimulationResult simulateFleet(const Scenario& scenario, const SimulationConfig& config, const std::vector<Request>& requests,
                               const SimulationProgress& progress = {});

/**
 * simulate() of the workload generateRequests(config) would return, drawn as the run goes (RequestGenerator) rather
 * than held in a vector: with config.requestRecords = 0 its memory does not grow with the number of requests (the
 * requests in flight, the fixed summaries; docs/fleet-simulation.md, "Memory"). The same result as
 * simulate(scenario, config, generateRequests(config)) (tests/model/tst_simulator.cpp). @p progress's total is the
 * expected request count (estimateSimulationCost()).
 */
SimulationResult simulateWorkload(const Scenario& scenario, const SimulationConfig& config, const SimulationProgress& progress = {});

/** One point of the max-sequences sweep. */
struct SweepPoint {
    int maxSequences = 0;
    double throughputTokensPerSecond = 0;
    double goodputRequestsPerSecond = 0;
    double goodputFraction = 0;
    double p95TtftSeconds = 0;
    double p95TpotSeconds = 0;
    double p99ItlSeconds = 0;
    double meanSequences = 0;
    long long preemptions = 0;
};

/** Simulates @p requests once per cap in config.sweepMaxSequences (seed 001, 3.1: goodput vs throughput).
 *  @p progress as in simulate(); when it stops a run the points so far are returned. */
std::vector<SweepPoint> sweepMaxSequences(const Scenario& scenario, const SimulationConfig& config,
                                          const std::vector<Request>& requests, const SimulationProgress& progress = {});

/** sweepMaxSequences() of config's own workload, drawn for each run (simulateWorkload()): memory flat in its length. */
std::vector<SweepPoint> sweepWorkloadMaxSequences(const Scenario& scenario, const SimulationConfig& config,
                                                  const SimulationProgress& progress = {});

/**
 * "" or one sentence saying that run @p r fell behind its offered load: at least 100 requests, and the run went on
 * after its last arrival (spanSeconds - arrivalSpanSeconds) for more than a fifth of the arrivals' span and more than
 * ten times a request's own work (median prefill + median ITL x mean output tokens): "the fleet fell behind the offered load: the last request finished 3,050 s after the last
 * arrival (arrivals over 600 s), so the latencies grow with the run's length". Its percentiles then describe a
 * queue that never settles (a longer run reports longer ones), which a headline must not pass off as a steady state.
 */
std::string backlogText(const SimulationResult& r);

/** An open-loop arrival-rate sweep (the simulation file's "rate_sweep", or --rate-sweep FROM:TO:STEPS). */
struct RateSweep {
    double fromPerSecond = 0;      ///< first rate, requests/s (> 0)
    double toPerSecond = 0;        ///< last rate (>= from)
    int steps = 0;                 ///< rates from..to, evenly spaced (1: from only); 0: no sweep
    double attainmentTarget = 0.99;///< attainment: fraction of requests meeting both SLOs the search holds, in (0, 1]
    int bisections = 6;            ///< simulations spent narrowing the bracket after the sweep (0: none)
};

inline constexpr int kMaxRateSweepSteps = 64;   ///< steps
inline constexpr int kMaxRateSweepBisections = 20;

/** One rate of the sweep: the workload's rates scaled to ratePerSecond in all (its trace's time compressed). */
struct RatePoint {
    double ratePerSecond = 0;
    long long requests = 0;
    double attainment = 0;                 ///< requests meeting both SLOs / requests (rejected ones miss)
    double goodputRequestsPerSecond = 0;   ///< requests meeting both SLOs / span
    double throughputTokensPerSecond = 0;
    double p50TtftSeconds = 0, p99TtftSeconds = 0;
    double p50ItlSeconds = 0, p99ItlSeconds = 0;
    double p99EndToEndSeconds = 0;
    bool bisection = false;                ///< added by the bisection, not one of the even steps
    double prefixCacheHitRate = 0;         ///< SimulationResult::prefixHitRate() of the run
};

/** The sweep's points in rate order and the highest rate holding the target. */
struct RateSweepResult {
    std::vector<RatePoint> points;         ///< sorted by rate
    double baseRatePerSecond = 0;          ///< the workload's own total rate, which the sweep scales
    /// the highest rate simulated whose attainment is >= the target with every lower swept rate's too; none when
    /// the first rate misses it
    std::optional<double> maxRatePerSecond;
    /// the lowest simulated rate above maxRatePerSecond that misses the target (the bracket's upper end); none when
    /// every rate met it (the answer is then at least toPerSecond)
    std::optional<double> firstMissPerSecond;
    bool cancelled = false;
};

/**
 * The workload's total arrival rate: the classes' rate_per_s plus a trace's rows over its span (first to last
 * arrival); bursts (count) do not count. 0 when nothing arrives at a rate.
 */
double workloadRatePerSecond(const SimulationConfig& config);

/**
 * @p config with its arrival rate scaled to @p ratePerSecond in all: each class's rate_per_s multiplied, trace
 * arrivals divided, by ratePerSecond / workloadRatePerSecond(config) (the same seed: the same draws, time
 * compressed); bursts, duration_s and requests unchanged. Precondition: workloadRatePerSecond(config) > 0.
 */
SimulationConfig configAtRate(const SimulationConfig& config, double ratePerSecond);

/**
 * The requests a rate sweep's lowest rate must let its run see (docs/fleet-simulation.md, "Rate sweeps"): ten, or
 * the request cap when lower. Below that a run can see no request at all and reports zero latencies.
 */
inline constexpr long long kMinRateSweepRequests = 10;

/** The lowest rate a sweep of a workload may start at, requests/s, and why (rateSweepFloor()). */
struct RateSweepFloor {
    double ratePerSecond = 0; ///< 0: no floor besides > 0 (a trace alone: checkSimulationConfig() bounds its arrivals)
    std::string reason;       ///< the sentence the refusal gives, naming the workload's keys
};

/**
 * The lowest rate @p config can be swept at: with duration_s D, min(kMinRateSweepRequests, requests) / D, so that the
 * run sees about that many requests; else, when the request cap ends the run (a class without end_s), requests /
 * kMaxSimulationSeconds, so that its requests arrive within the simulator's bound on any time (1e7 s); else (every
 * rated class has end_s) min(kMinRateSweepRequests, requests) / the longest class window. checkRateSweep() refuses a
 * lower from (and so to).
 */
RateSweepFloor rateSweepFloor(const SimulationConfig& config);

/**
 * Checks @p sweep against @p config: "" or one message naming the field ("simulation.rate_sweep.steps = 0: must be
 * from 1 to 64"; @p field is "simulation.rate_sweep" or "--rate-sweep"), including the workload having a rate to
 * scale and every rate's run passing checkSimulationConfig() and the work budget over all runs.
 */
std::string checkRateSweep(const SimulationConfig& config, const RateSweep& sweep, const std::string& field);

/**
 * Simulates the workload at each rate of @p sweep (fleet and policy as in @p config), then bisects between the
 * last rate meeting the attainment target and the first missing it, sweep.bisections times: at the midpoint, or
 * at the geometric mean sqrt(lo x hi) while the bracket spans more than a decade (hi > 10 lo), so that a wide
 * sweep (1 to 1e9 req/s) still narrows to the rate where attainment falls. Attainment is the
 * fraction of requests meeting both SLOs (TTFT and the ITL statistic), goodput those requests per second.
 * Preconditions: checkRateSweep() is "". @p progress as in simulate() (per run).
 */
RateSweepResult sweepArrivalRate(const Scenario& scenario, const SimulationConfig& config, const RateSweep& sweep,
                                 const SimulationProgress& progress = {});

/**
 * Draws a gamma variate of @p shape (> 0) and scale 1 with @p engine (Marsaglia and Tsang 2000, normals by
 * Box-Muller; shape < 1 by the shape + 1 draw times U^(1/shape)). Exposed for tests.
 */
double sampleGamma(double shape, std::mt19937_64& engine);

} // namespace ridgeline::model
