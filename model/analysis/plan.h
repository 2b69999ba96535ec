// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/cost/parallellayout.h"
#include "model/cost/scenario.h"

namespace ridgeline::model {

struct Evaluation;

// ---------------------------------------------------------------------------------------------
// Economics (docs/cost-model.md section 5, "Fleet plan: economics")
// ---------------------------------------------------------------------------------------------

/** Power usage effectiveness used when none is given: facility power / IT power. An assumption, not a fact. */
inline constexpr double kDefaultPue = 1.2;

/** What one GPU costs to run. Prices are the user's (defaults are named examples, never facts). */
struct EconomicsInputs {
    std::optional<double> pricePerGpuHour;  ///< USD (or the plan's currency) per GPU-hour; nullopt: unknown
    std::optional<double> boardPowerWatts;  ///< board power (TDP) per GPU, W; nullopt: unknown
    double pue = kDefaultPue;               ///< facility power / IT power, >= 1
};

/**
 * Cost and energy at one operating point: @p gpus GPUs delivering @p outputTokensPerSecond output tokens/s
 * and @p inputTokensPerSecond prompt tokens/s, spending the fraction @p prefillShare of their time in prefill.
 * Every field is nullopt where its input (price, power) is unknown or the rate is 0: never NaN.
 */
struct OperatingCost {
    std::optional<double> costPerHour;                      ///< C_h = G * price, per hour
    std::optional<double> costPerMillionOutputTokensAllIn;  ///< C_h / (3600 * out/s) * 1e6: every GPU-second on the output
    std::optional<double> costPerMillionOutputTokens;       ///< (1 - prefill share) * C_h / (3600 * out/s) * 1e6
    std::optional<double> costPerMillionInputTokens;        ///< prefill share * C_h / (3600 * in/s) * 1e6
    std::optional<double> facilityPowerWatts;               ///< P_f = G * board power * PUE, W (board at TDP: an upper bound)
    std::optional<double> joulesPerOutputToken;             ///< P_f / out/s, J (prefill energy included: all-in)
    std::optional<double> outputTokensPerSecondPerMegawatt; ///< out/s / (P_f / 1e6)
};

/**
 * The formulas of OperatingCost (docs/cost-model.md section 5). @p gpus >= 0, rates in tokens/s,
 * @p prefillShare in [0, 1] (clamped). Unknown price or power, or zero rates, give nullopt fields.
 */
OperatingCost operatingCost(const EconomicsInputs& economics, double gpus, double outputTokensPerSecond,
                            double inputTokensPerSecond, double prefillShare);

/**
 * Operating cost of one evaluated scenario (the window's operating point): hardware.gpus GPUs serving
 * requests of P prompt and O output tokens at the current batch, each request costing the GPU time
 * evaluation.workload gives (prefill + O * t_step(B, P + O/2) / B); out/s = O / that, in/s = P / that,
 * prefill share = workload.prefillShare.
 */
OperatingCost operatingCost(const EconomicsInputs& economics, const Scenario& scenario, const Evaluation& evaluation);

/** Example price per GPU-hour for catalogue device @p deviceId (resources/plans/gpu-prices-example.json):
 *  an illustrative figure to edit, not a quote. nullopt when the example file names none. */
std::optional<double> examplePricePerGpuHour(const std::string& deviceId);

/** Currency of the example prices (the "currency" of resources/plans/gpu-prices-example.json, "USD"). The example
 *  prices apply only to a plan in this currency: they are never converted. */
std::string examplePriceCurrency();

/** Whether plan currency @p currency is the example prices' (case-insensitive): only then may examples fill prices. */
bool examplePricesApply(const std::string& currency);

// ---------------------------------------------------------------------------------------------
// Parallel layout (docs/cost-model.md section 5, "Fleet plan: parallel layout")
// ---------------------------------------------------------------------------------------------

// ParallelLayout (how one instance splits the model) lives in model/cost/parallellayout.h beside the step time it prices.

// layoutRefusal(model, layout) (why a layout cannot run a model) is declared in model/cost/parallellayout.h.

/** Every layout with exactly @p gpus GPUs per instance that layoutRefusal() accepts for @p model. */
std::vector<ParallelLayout> layoutsFor(const ModelShape& model, int gpus);

/**
 * Memory, communication and step time of one instance of @p layout (docs/cost-model.md section 5).
 * Per GPU figures are for the most loaded GPU; bytes and seconds in SI units.
 */
struct LayoutResult {
    std::string refusal;                ///< non-empty: the layout cannot run the model (then nothing else is set)
    int gpus = 0;                       ///< GPUs per instance
    double weightBytesPerGpu = 0;       ///< (W_nonexpert / tp + W_experts / max(tp, ep)) / pp
    double kvBudgetBytesPerGpu = 0;     ///< HBM * utilization - weights per GPU - activation reserve (negative: no fit)
    bool weightsFit = false;            ///< kvBudgetBytesPerGpu > 0
    double kvBytesPerSequencePerGpu = 0; ///< cache of one sequence at the capacity context on one GPU (its layers, its heads)
    long long maxSequences = 0;         ///< sequences of the capacity context the instance holds: groups * floor(budget / per-sequence)
    double allReduceBytesPerStep = 0;   ///< tensor-parallel all-reduce bytes per GPU per decode step (ring, 2 per layer)
    double allToAllBytesPerStep = 0;    ///< expert-parallel dispatch + combine bytes per GPU per decode step
    double pipelineSendBytesPerStep = 0; ///< activations one stage sends the next per microbatch, B_mb * d * 2 B
    int microbatches = 1;               ///< microbatches used
    double pipelineBubble = 0;          ///< idle fraction of each stage in decode, 1 - m / max(pp, m)
    double stageSeconds = 0;            ///< one stage's time for one microbatch (memory/compute max + comm)
    double stepSeconds = 0;             ///< ITL at the batch: max(pp, m) * (stage + send) + step overhead (LayoutStep::seconds)
    double tokensPerSecond = 0;         ///< batch / stepSeconds, per instance
    double prefillSeconds = 0;          ///< one prompt's prefill on the instance (stages in turn, pp hand-offs)
    double kvTransferBytesPerRequest = 0; ///< P * kv bytes per token (all GPUs): what disaggregation moves per request
    double kvTransferSeconds = 0;       ///< that over the tp * pp GPUs' links, plus a link latency (StepCost::kvTransferSeconds)
};

/**
 * Evaluates @p layout for @p scenario's model, hardware (per GPU; hardware.gpus is ignored), efficiency and
 * serving at decode batch @p batch, mean decode context @p contextTokens, prompt @p promptTokens, capacity
 * context @p capacityContextTokens. The step, the prefill, the weights, the KV budget and the KV transfer are
 * StepCost(scenario, layout)'s (model/cost/steptime.h: costTerms() at hardware.gpus = tp, one formula), the function
 * the serving simulator prices its steps with: at pp = ep = 1 stepSeconds equals stepSecondsAt() of that scenario.
 * Precondition: validate(scenario) empty.
 */
LayoutResult evaluateLayout(const Scenario& scenario, const ParallelLayout& layout, double batch, double contextTokens,
                            double promptTokens, double capacityContextTokens);

// ---------------------------------------------------------------------------------------------
// Search (docs/cost-model.md section 5, "Fleet plan: search")
// ---------------------------------------------------------------------------------------------

/** Target traffic: mean request rate and lengths (Poisson arrivals assumed by the queue estimate). */
struct PlanLoad {
    double requestsPerSecond = 1;
    double promptTokens = 2048;
    double outputTokens = 256;
};

/**
 * SLOs. The analytic plan checks mean estimates (mean decode step, M/D/1 mean queue wait): proxies for the
 * percentile SLOs, not percentiles; the simulator gives the distributions.
 */
struct PlanSlo {
    double ttftMs = 2000;
    double itlMs = 50;
};

/** One device the search may use. */
struct PlanDevice {
    std::string id;            ///< catalogue id, e.g. "h100-sxm"
    Hardware hardware;         ///< per-GPU figures (hardware.gpus is ignored)
    EconomicsInputs economics;
    /** Non-empty: the device has no GPU-to-GPU link (the catalogue's "link" says so, e.g. Apple M2 Ultra), so the
     *  search refuses layouts of more than one GPU on it and this text says why. */
    std::string noGpuLink;
    /// Where economics.pricePerGpuHour came from: "plan file" (its "prices"), "example" (the example prices,
    /// resources/plans/gpu-prices-example.json) or "" (no price; the live Plan tab fills its own sources)
    std::string priceSource;
    /// Where economics.boardPowerWatts came from: "plan file" (its "power_watts"), "datasheet" (the catalogue's TDP) or ""
    std::string powerSource;
};

/** The catalogue's link text @p link when it marks a device without a GPU-to-GPU link ("no GPU-to-GPU link ..."), else "". */
std::string noGpuLinkReason(const std::string& link);

/** Which of colocated and disaggregated serving to consider. */
enum class Disaggregation { Colocated, Disaggregated, Both };

/** What to search over. */
struct PlanCandidates {
    std::vector<PlanDevice> devices;
    std::vector<int> gpuCounts{1, 2, 3, 4, 5, 6, 7, 8}; ///< GPUs per instance
    std::vector<ParallelLayout> layouts;      ///< empty: every valid layout of each GPU count; else only these
    std::vector<int> batchCaps{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
    Disaggregation disaggregation = Disaggregation::Both;
    int microbatches = 0;                     ///< 0: min(pp, batch)
    /** Fraction of an instance's request capacity (1 / g colocated, B / ((O - 1) t_step) for a decode instance) the plan
     *  loads it to: headroom for the queueing for batch slots that the mean estimates do not see (the simulator
     *  shows P90 TTFT growing fast near 1). In (0, 1]. */
    double maxUtilization = 0.85;
};

/** Everything a search needs. The scenario gives model, efficiency and serving; its hardware and workload are replaced. */
struct PlanRequest {
    Scenario scenario;
    PlanLoad load;
    PlanSlo slo;
    PlanCandidates candidates;
    std::string currency = "USD"; ///< label for prices in the takeaway
};

/** One operating point: a device, a layout, a batch cap, and the fleet that carries the load with it. */
struct PlanPoint {
    int device = 0;                 ///< index into PlanRequest::candidates.devices
    ParallelLayout layout;
    bool disaggregated = false;
    int batchCap = 0;               ///< decode batch per instance (after the KV capacity cap)
    // Per instance.
    int gpusPerInstance = 0;
    double weightBytesPerGpu = 0;
    double kvBudgetBytesPerGpu = 0;
    long long maxSequences = 0;
    double stepSeconds = 0;         ///< decode step at the batch cap (mean context)
    double prefillSeconds = 0;
    double kvTransferSeconds = 0;   ///< disaggregated: per request, prefill pool to decode pool
    // At the target load.
    double itlMs = 0;               ///< mean ITL estimate: step / (1 - prefill time share) colocated, step disaggregated
    double ttftMs = 0;              ///< mean TTFT estimate: prefill + M/D/1 queue wait (+ KV transfer; + half a step colocated)
    bool meetsItl = false, meetsTtft = false;
    int replicas = 0;               ///< colocated instances (0 when disaggregated)
    int prefillInstances = 0, decodeInstances = 0; ///< disaggregated pools
    int totalGpus = 0;
    double prefillShare = 0;        ///< fraction of GPU time charged to input tokens
    // The frontier axes (fractional fleet at the SLO's utilization, no rounding).
    double outputTokensPerSecondPerGpu = 0;
    double tokensPerSecondPerUser = 0; ///< 1 / ITL
    /** false when load.outputTokens < 2: one output token has no inter-token gap, so ITL and tokens/s per user do not
     *  exist (issue 14, h14k). itlMs and tokensPerSecondPerUser then keep the step-time figures for ordering and the
     *  frontier's x only: text and tables show an en dash, CSV an empty field, JSON null; the ITL SLO never excludes
     *  the point (meetsItl true). */
    bool itlDefined = true;
    // Economics of the rounded fleet at the target load.
    OperatingCost cost;

    bool meetsSlo() const { return meetsItl && meetsTtft; }
};

/** Why a device has no plan meeting the SLOs. NoLayoutSearched: layouts were given explicitly and none of them has one
 *  of the GPU counts searched (or the model can use none of them), so nothing was evaluated on the device.
 *  TooManyReplicas (added last, h14k): every layout that fits needs more than kMaxPlanInstances instances at the load
 *  (the search's fleet-size cap), so none was planned and no ITL or TTFT exists to miss (it read "misses ITL and TTFT"). */
enum class ExclusionReason { None, DoesNotFit, MissesItl, MissesTtft, MissesBoth, NoLayoutSearched, TooManyReplicas };

/** Most instances (replicas, or prefill + decode instances) the search plans of one layout: a point needing more is not
 *  planned (ExclusionReason::TooManyReplicas when no layout of the device is left). */
inline constexpr double kMaxPlanInstances = 1e5;

struct DeviceSummary {
    int device = 0;
    ExclusionReason reason = ExclusionReason::None;
    std::string detail;             ///< one sentence with the figures (best ITL, best TTFT, weights vs memory)
    std::optional<int> bestPlan;    ///< index into PlanResult::plans of the device's cheapest (else fastest) plan
    std::vector<int> frontier;      ///< indices into PlanResult::points: the device's Pareto frontier, by tokens/s/user
};

struct PlanResult {
    std::vector<PlanPoint> points;  ///< every fitting operating point evaluated (met SLOs or not)
    std::vector<int> plans;         ///< indices into points meeting both SLOs, best per (device, GPUs, layout,
                                    ///< disaggregation), ranked: cheapest first (unknown cost last, by J/token)
    std::vector<DeviceSummary> devices; ///< one per candidate device, same order
    std::optional<int> cheapest;        ///< index into points
    std::optional<int> mostPowerEfficient; ///< index into points: fewest J per output token
    std::string takeaway;           ///< one line naming both
    std::vector<std::string> refusals; ///< layouts given explicitly that a model cannot use, with the reason, and
                                       ///< devices whose multi-GPU layouts were refused (no GPU-to-GPU link)
    int evaluated = 0;              ///< operating points evaluated
};

/**
 * Work bounds of one plan (docs/performance.md, "Fleet plan work budget"), checked before anything runs (checkPlanWork()),
 * as the simulator bounds its own work (kMaxSimulationOutputTokens, model/sim/simulator.h). The search evaluates each
 * operating point in about kPlanSecondsPerPoint and keeps it (kPlanBytesPerPoint); the simulator checks cost about
 * kPlanSimulationSecondsPerToken per output token and kPlanSimulationSecondsPerRequest per request (measured, see the
 * doc). The bounds keep the worst accepted plan file to well under a second of search and about 5 s of simulator CPU
 * (measured: 20 checks of 48,000 Llama 3.1 70B requests, 4.6 s CPU, 17 s wall at load average 16 on 2 cores), while the
 * whole catalogue x 1-8 GPUs x every layout x the default 11 batch caps x both modes (6,292 points at most for Llama 3.1
 * 70B, 9,152 for DeepSeek-V3) stays more than thirty times inside.
 */
inline constexpr double kMaxPlanOperatingPoints = 300000;        ///< operating points one search may evaluate (upper estimate)
inline constexpr double kMaxPlanSimulatedRequests = 1000000;     ///< simulate_top x simulate_requests
inline constexpr double kMaxPlanSimulatedOutputTokens = 250e6;   ///< simulate_top x simulate_requests x load.output_tokens
inline constexpr double kPlanSecondsPerPoint = 0.5e-6;           ///< search CPU time per operating point, s (measured 0.3 us; for messages)
inline constexpr double kPlanBytesPerPoint = 256;                ///< memory per operating point kept: sizeof(PlanPoint), bytes (for messages)
inline constexpr double kPlanSimulationSecondsPerToken = 20e-9;  ///< simulator check CPU time per output token, s (measured 13-23 ns; for messages)
inline constexpr double kPlanSimulationSecondsPerRequest = 1.5e-6; ///< simulator check CPU time per request, s (measured 1.4 us; for messages)

/** What a plan will cost before it runs: the search's loops counted from the candidates, and the simulator checks. */
struct PlanWork {
    int devices = 0;             ///< candidates.devices
    int gpuCounts = 0;           ///< entries of candidates.gpu_counts (each searched)
    int layouts = 0;             ///< layouts over all GPU counts, summed over the devices that may use them
    int batchCaps = 0;           ///< distinct values of candidates.batch_caps
    int modes = 0;               ///< 1 (colocated or disaggregated) or 2 (both)
    double operatingPoints = 0;  ///< layouts x batch caps x modes: an upper bound (caps above a layout's KV capacity merge)
    double simulatedRequests = 0;      ///< simulate_top x simulate_requests
    double simulatedOutputTokens = 0;  ///< simulatedRequests x load.output_tokens
    double searchSeconds = 0;          ///< operatingPoints x kPlanSecondsPerPoint
    double simulationSeconds = 0;      ///< the simulator checks' estimated time
};

/** Estimates @p request's search and @p simulateTop checks of @p simulateRequests requests each (precondition: valid model). */
PlanWork estimatePlanWork(const PlanRequest& request, int simulateTop = 0, long long simulateRequests = 0);

/**
 * Checks @p request (and its simulator checks) against kMaxPlanOperatingPoints, kMaxPlanSimulatedRequests and
 * kMaxPlanSimulatedOutputTokens. Returns "" or one sentence naming the plan file's fields, their values, the estimate
 * and the bound, e.g. "candidates.batch_caps: 100,000 batch caps x 266 layouts (26 devices x candidates.gpu_counts
 * [1, 2, 3, 4, 5, 6, 7, 8]) x 2 modes (candidates.disaggregation both) = about 53,200,000 operating points to search,
 * about 27 s and 13,619 MB; at most 300,000 (about 0.15 s): give fewer batch caps ..." (Llama 3.1 70B, the whole
 * catalogue). parsePlanFile() refuses a file over it, so nothing runs for minutes.
 */
std::string checkPlanWork(const PlanRequest& request, int simulateTop = 0, long long simulateRequests = 0);

/**
 * Refuses a prompt longer than the model's trained context: "" when @p request's
 * scenario.model.maxPositionEmbeddings is 0 (not known) or load.promptTokens is at most it; else one message naming
 * @p promptField (the key the prompt length came from: "load.prompt_tokens" in a plan file, "workload.prompt_tokens"
 * for the Plan tab's live plan) and its value, and model.max_position_embeddings and its value, e.g.
 * "load.prompt_tokens = 9000: longer than the model's context of 8192 tokens (model.max_position_embeddings): ...".
 * No request of that prompt can be served as asked, so no plan is made. The one rule of parsePlanFile() (--plan) and
 * the Plan tab. A prompt that fits with its output running past the context is not refused (parsePlanFile() notes it).
 */
std::string checkPlanContext(const PlanRequest& request, const std::string& promptField = "load.prompt_tokens");

/** Searches @p request (docs/cost-model.md section 5). Precondition: the scenario's model is valid; checkPlanWork()
 *  bounds the work of requests from outside (plan files). */
PlanResult searchPlans(const PlanRequest& request);

/**
 * Indices (into @p points) of the Pareto frontier among @p candidates: no other candidate has both
 * higher-or-equal tokens/s/user and higher-or-equal tokens/s/GPU with one strictly higher. Sorted by
 * tokens/s/user ascending.
 */
std::vector<int> paretoFrontier(const std::vector<PlanPoint>& points, const std::vector<int>& candidates);

/**
 * Every catalogue device (resources/presets/hardware.json) as a plan candidate: its per-GPU figures, its
 * board power (catalogue, datasheet TDP; unknown where the catalogue has none), the example price per
 * GPU-hour when @p examplePrices (else unknown), and @p pue. What a view starts from without a plan file.
 */
std::vector<PlanDevice> catalogueDevices(bool examplePrices = true, double pue = kDefaultPue);

/**
 * A request for the window's scenario: its model, efficiency and serving; load = @p requestsPerSecond with
 * workload.promptTokens and workload.outputTokens; SLOs = workload.ttftSloMs and @p itlSloMs (a view passes
 * the ITL line it plans for, e.g. workload.itlSloMs.front()); candidates = catalogueDevices() with the defaults;
 * currency = economics.currency, the example prices only when examplePricesApply() to it (else unknown).
 */
PlanRequest planRequestFor(const Scenario& scenario, double requestsPerSecond, double itlSloMs);

/**
 * The serving simulator's check of one plan (model/sim/simulator.h): the plan's replicas of its device in its layout
 * (T = tp, SimulationConfig::pipelineStages = pp, expertParallel = ep, microbatches; each step priced by the layout's
 * StepCost, the analytic plan's own step time) behind a least-loaded router (SimulationConfig::replicas), each with
 * continuous batching and max sequences = the batch cap; a disaggregated plan as its prefill and decode pools
 * (SimulationConfig::prefillReplicas), each behind its own least-loaded router, the KV crossing the link between them.
 * Poisson arrivals at the whole load, fixed prompt and output lengths; @p requests in all (shared by the replicas).
 * Distributions, not mean estimates: P90 TTFT and P90 TPOT against the SLOs. Every plan kind is simulated; skipped is
 * set (simulated false) only for a point that is not a plan of the request or a workload the simulator refuses.
 */
struct SimulatedCheck {
    bool simulated = false;
    std::string skipped;           ///< why not simulated
    long long requests = 0;
    long long completed = 0;       ///< requests that finished; 0: every latency below is undefined (reported as none)
    long long rejected = 0;        ///< requests refused (over the context or the KV budget): the plan misses its SLOs
    double ttftMeanMs = 0, ttftP90Ms = 0, ttftP99Ms = 0;
    double tpotMeanMs = 0, tpotP90Ms = 0;
    bool tpotDefined = true;       ///< false when load.outputTokens < 2: no inter-token gap, TPOT undefined (shown as none)
    double goodputFraction = 0;    ///< requests meeting both SLOs (TTFT and TPOT, per request)
    bool meetsSloAtP90 = false;    ///< P90 TTFT <= TTFT SLO and P90 TPOT <= ITL SLO
    int replicas = 0;              ///< colocated replicas simulated (0 when disaggregated)
    int prefillReplicas = 0, decodeReplicas = 0; ///< disaggregated pools simulated (0 when colocated)
    double kvTransferMs = 0;       ///< disaggregated: each request's KV transfer, prefill pool to decode pool, ms
    double prefillBusyFraction = 0; ///< disaggregated: the prefill pool's busy time / (span x its replicas)
    double decodeBusyFraction = 0; ///< the decode pool's (colocated: the replicas') busy time / (span x replicas)
    /// Added last (new-user trial, stop 32): non-empty when the check holds fewer than kFewCheckRequestsPerReplica
    /// requests per replica (per prefill instance when disaggregated), so it sees little queueing: 2,000 requests over
    /// 562 prefill replicas measured pure prefill time (243 ms at P50, P90 and P99) where the plan estimated 1,000 ms.
    std::string caveat;
};

/** Requests per replica below which a simulator check says it sees little queueing (SimulatedCheck::caveat). */
inline constexpr double kFewCheckRequestsPerReplica = 20;

/** Runs the check above on @p point of @p request with @p requests requests in all (seed 1: deterministic). */
SimulatedCheck simulatePlan(const PlanRequest& request, const PlanPoint& point, long long requests = 2000);

/**
 * The simulator's own work estimate of simulatePlan(@p request, @p point, @p requests), in sequence-steps
 * (SimulationCost::workUnits, model/sim/simulator.h): output tokens plus the least-loaded routers' looks at every
 * replica of both pools for every request, which grow with the fleet (4,096 prefill replicas: about 1,000 steps a
 * request; issue 14, h14g). 0 when the point is no plan of @p request. checkPlanWork() cannot count it (the fleet is
 * known only after the search): --plan adds it up over its checks and skips those past kMaxSimulationOutputTokens.
 */
double planCheckWorkUnits(const PlanRequest& request, const PlanPoint& point, long long requests = 2000);

/**
 * What user-visible text calls one unit of @p hardware: "TPU" for a device whose name starts with "TPU" (Google's), else
 * "GPU"; with @p plural "TPUs" / "GPUs". Text about one device uses it; text over the mixed catalogue says "device"
 * (issue 14 trial: TPU plans read "8 GPUs"). JSON keys keep "gpu" (gpus_per_instance, gpu_counts: contracts).
 */
std::string acceleratorNoun(const Hardware& hardware, bool plural = false);

/** "does not fit", "misses ITL", ..., "no layout searched", "needs more than 100,000 replicas (the search's cap)" */
std::string exclusionText(ExclusionReason reason);

/** "TP4 PP2 EP1" */
std::string layoutText(const ParallelLayout& layout);

} // namespace ridgeline::model
