// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <QByteArray>

#include "model/files/benchmarkfile.h"
#include "model/analysis/benchmarkpredict.h"
#include "model/cost/scenario.h"

namespace ridgeline::model {

/** One measured operating point. Milliseconds, tokens; unset latencies were not measured. */
struct Measurement {
    double batch = 1;            ///< sequences decoding together (batch or concurrency)
    double contextTokens = 0;    ///< tokens each sequence holds while decoding (given, or input + output / 2)
    double promptTokens = 0;     ///< prompt length for the TTFT point (0: unknown, then no TTFT fit from this row)
    std::optional<double> itlMs; ///< inter-token latency (or TPOT)
    std::optional<double> ttftMs; ///< time to first token
};

/**
 * Reads measurements from CSV with a header naming each column and its unit: batch | concurrency
 * (sequences); context_tokens | input_tokens + output_tokens | prompt_tokens (tokens); itl_ms |
 * itl_s | tpot_ms | tpot_s; ttft_ms | ttft_s. "name (unit)" and "name [unit]" spellings are read as
 * name_unit. Unknown columns or units are refused, naming them. Returns "" on success.
 */
std::string parseMeasurementsCsv(const QByteArray& csv, std::vector<Measurement>& out);

/**
 * Reads the JSON result of vLLM's serving benchmark (benchmarks/benchmark_serving.py): one object
 * or a list of them (or JSON lines), each one point: batch = max_concurrency, prompt = total_input_tokens
 * / completed, output = total_output_tokens / completed, ITL = mean_tpot_ms, TTFT = median_ttft_ms.
 */
std::string parseVllmBenchmarkJson(const QByteArray& json, std::vector<Measurement>& out);

/** A fitted coefficient with its standard error (nullopt when the data cannot give one). */
struct Coefficient {
    double value = 0;
    std::optional<double> standardError;
    bool fitted = false; ///< false: kept at the scenario's value (the data cannot tell it)
};

/** Fit quality of one latency: relative errors of the model against the measurements. */
struct FitError {
    int points = 0;
    double mapeBefore = 0, mapeAfter = 0;        ///< mean absolute percentage error, fraction
    double maxErrorBefore = 0, maxErrorAfter = 0; ///< largest relative error, fraction
};

/** What calibrate() found. */
struct CalibrationResult {
    Coefficient bandwidthEfficiency;   ///< eta_bw = 1 / slope of ITL against the peak-bandwidth memory time
    Coefficient stepOverheadMs;        ///< intercept of that line
    Coefficient mfuPrefill;            ///< 1 / slope of TTFT against the peak-FLOP/s prefill time
    Coefficient prefillOverheadMs;     ///< intercept of that line
    FitError itl, ttft;
    std::vector<std::string> notes;    ///< what could not be fitted, and why; points left out
    Scenario calibrated;               ///< the scenario with the fitted efficiencies and overheads applied
};

/**
 * Fits the few interpretable coefficients by weighted linear least squares (Eigen, weights 1/t so
 * that relative errors count): ITL = overhead + (1/eta_bw) * R(B, S) / BW over the points the
 * floor marks memory-bound, and TTFT = overhead + (1/MFU) * F_pre(P) / F_peak. Standard errors
 * from the residual variance and (X^T W^2 X)^-1; eta = 1/slope by the delta method. Degenerate
 * data (one point, or every point at the same (B, S)) fits only the efficiency with the overhead
 * at 0, and says so; a per-layer overhead needs models of different depth and is folded into the
 * fixed overhead (said in a note). Efficiencies above 1 (faster than the floor) are capped at 1 in
 * the calibrated scenario, with a note. Returns "" on success, else why nothing could be fitted.
 */
std::string calibrate(const Scenario& scenario, const std::vector<Measurement>& data, CalibrationResult& out);

/**
 * A Gaussian prior on one fitted parameter of calibrateBenchmark(), from other data (another measured set on the same
 * device family): the fit adds ((p - mean) / sigma)^2 to its objective (the sum of squared relative residuals) while the
 * points cannot identify p, and never otherwise (BenchmarkFitOptions::priors). Units: the parameter's key's
 * (efficiency.ttft_overhead_ms in ms, efficiencies as fractions).
 */
struct ParameterPrior {
    std::string key;    ///< the parameter, as calibrateBenchmark() names it (e.g. "efficiency.ttft_overhead_ms")
    double mean = 0;    ///< mu, in the key's unit
    double sigma = 0;   ///< > 0, in the key's unit (e.g. the standard error of the fit it comes from)
    std::string source; ///< where mu and sigma come from (a measured set's name), printed with the fit
};

/** Options of calibrateBenchmark(). */
struct BenchmarkFitOptions {
    BenchmarkOptions engine;          ///< the engine the prediction simulates (as --predict)
    long long measuredRequests = 32;  ///< steady-state requests per point during the fit (the final errors use engine's)
    int maxIterations = 25;           ///< Levenberg-Marquardt iterations (each costs 1 + fitted parameters predictions)
    bool fitItl = true, fitTtft = true; ///< which latencies enter the residuals
    /// Only single requests' TTFT (concurrency 1, closed loop; static batches stay in) enter the continuous fit's residuals
    /// where they hold two or more prompt lengths: a lone prefill with no queue, so that the prefill parameters are priced
    /// by it alone; the searches of the token budget and the prompt limit then score every fitted point's TTFT, the loaded
    /// ones too (off by default; measured_accuracy --ttft-single-only; docs/cost-model.md, h13ac, h13ah and h13aj)
    bool fitTtftSingleRequestsOnly = false;
    /** Also fit the engine's token budget (serving.max_num_tokens, TensorRT-LLM max_num_tokens) when its value is not
     *  known: a discrete search over the powers of two from minTokenBudget to maxTokenBudget, the continuous fit
     *  redone at the best (docs/cost-model.md). Off: the scenario's value, else engine.tokenBudget (8,192). */
    bool fitTokenBudget = false;
    int minTokenBudget = 2048, maxTokenBudget = 131072; ///< tokens, the search's range (powers of two within it)
    /** The token-budget search's tie rule (h13ak): among the candidates whose training cost is within
     *  tokenBudgetTieTolerance (relative) of the lowest, the one nearest tokenBudgetTiePreferred (tokens; the nearer in
     *  tokens, the smaller of two equally near) is taken, not the smallest. A budget that binds none of the fitted
     *  points' steps leaves their schedules, and so the cost, unchanged to the last bit; 1e-6 only absorbs rounding and
     *  is far below what one point's changed schedule moves the cost by. 8,192 is TensorRT-LLM's documented default
     *  max_num_tokens (docs/cost-model.md, "Engine token budget" and h13ak). tokenBudgetTiePreferred 0: the smallest of
     *  the tied candidates, the rule before h13ak. */
    int tokenBudgetTiePreferred = 8192;
    double tokenBudgetTieTolerance = 1e-6; ///< relative to the lowest training cost, >= 0
    /** Also fit the engine's limit on prompts prefilled per step (serving.max_prefills_per_step) when the in-flight TTFT
     *  points hold two or more prompt lengths (at one length it is the token budget by another name): a discrete search
     *  over prefillLimitCandidates(maxPrefillLimit) (0: no limit; 1, 2, 3, 4, 6, 8, 12, ...), alternating with the token
     *  budget's search and the continuous fit (docs/cost-model.md, "Prefills per step"; 3 and 6 since h13aj). Off: the
     *  scenario's value (0: no limit). */
    bool fitPrefillLimit = false;
    int maxPrefillLimit = 128; ///< prompts, the search's largest candidate
    /** Also fit the runtime reserve per GPU that the engine keeps out of its KV cache (serving.activation_reserve_bytes:
     *  activations, workspaces, CUDA graphs, the runtime's buffers), which sets where the KV capacity ends and requests
     *  queue: a discrete search over 0 to maxKvReserveGb in kvReserveStepGb steps, on the fitted points only (never on
     *  held-out ones), alternating with the token budget's search and the continuous fit (docs/cost-model.md, "TTFT on
     *  the in-flight sets"). Off: the scenario's value (0 unless it states one). */
    bool fitKvReserve = false;
    double maxKvReserveGb = 20, kvReserveStepGb = 1; ///< GB (1e9 bytes) per GPU: the search's physical range and resolution
    /** Fit the serial front end (efficiency.frontend_serial_ms) where the points allow it (TTFT under in-flight load);
     *  false keeps the scenario's value (measured_accuracy --no-frontend: the table without it, for comparison). */
    bool fitFrontend = true;
    /** Count bursts of different sizes (every request sent at once, no cap, as vLLM's benchmark with request rate inf)
     *  as different loads when deciding whether the serial front end can be fitted: the time to accept a burst grows
     *  with its size (h13al; measured_accuracy --fit-frontend-bursts; fitApiOutput does the same). Off: every burst is one
     *  load, as before. */
    bool fitFrontendOnBursts = false;
    /** Also fit the admission gate on the delivered token rate (efficiency.tokenGateSeconds, h13z): the front end's time
     *  per output token, whose backlog holds new requests out of the engine, so that delivered tokens stay under
     *  1 / c_tok per second and clients past that ceiling wait before their first token. Only where TTFT is measured
     *  under in-flight load; a search over 0 to maxTokenGateUs in tokenGateStepUs steps on the fitted points only, then
     *  the continuous fit refines it (bounded >= 0, standard error from the Jacobian). Off: the scenario's value (0). */
    bool fitTokenGate = false;
    double maxTokenGateUs = 200, tokenGateStepUs = 10; ///< us per token: the search's range and resolution
    /** Also fit the API server's output path (serving.api_output_us_per_token, h13al): the time one FIFO server shared
     *  with request acceptance spends on each streamed token before the client sees it. Only where TTFT or ITL is measured
     *  under in-flight load at two or more loads; a search over 0 to maxApiOutputUs in apiOutputStepUs steps on the
     *  fitted points only, then the continuous fit refines it (bounded >= 0, standard error from the Jacobian). Off: the
     *  scenario's value (0: none). */
    bool fitApiOutput = false;
    /** Also fit the first token's return path (efficiency.first_token_return_ms, h13aq): the time from the engine's step
     *  that emits a request's first token to the client seeing it, which every TTFT pays whatever the load. Only where
     *  TTFT is measured under in-flight load at two or more loads (loadedPrefills: a single request or a static batch
     *  pays it exactly as the per-request overhead efficiency.ttft_overhead_ms) and the TTFT with more than one request in
     *  flight holds two or more prompt lengths, 10 % apart (at one length it trades with t_req and the prefill's MFU, and a
     *  fit of one length under load put it at 17.4 +- 330 ms; docs/cost-model.md, h13at and h13av); a continuous parameter beside t_req,
     *  started at 0, bounded to [0, 1000] ms, standard error from the Jacobian. Off: the scenario's value (0: none), so
     *  every fit is as before (measured_accuracy --fit-first-token-return; docs/cost-model.md, h13aq). */
    bool fitFirstTokenReturn = false;
    double maxApiOutputUs = 400, apiOutputStepUs = 20; ///< us per token: the search's range and resolution
    /** Also fit the engine's cap on running sequences (BenchmarkOptions::maxSequences, vLLM max_num_seqs, TensorRT-LLM
     *  max_batch_size; h13an) as a calibrated engine parameter: only where an in-flight point holds more requests than
     *  engine.maxSequences at two or more loads; each of maxSequencesCandidates scored on the fitted points only with the
     *  continuous parameters refitted at it (a profile), the best kept (ties: the engine's value). The result is
     *  BenchmarkFitResult::calibratedEngine. Off: the engine options' value (docs/cost-model.md, "The sequence cap as a
     *  calibrated engine parameter"). */
    bool fitMaxSequences = false;
    std::vector<int> maxSequencesCandidates{128, 192, 256, 384, 512, 768, 1024}; ///< sequences
    /** Gaussian priors from other data (ParameterPrior), each applied only while the points cannot identify its parameter:
     *  the prefill MFU, the per-request TTFT overhead, the prefill attention MFU and the per-chunk cost when every TTFT point
     *  has one prompt length in one chunk (then the fit cannot tell the per-request overhead from the prefill); eta_kv and
     *  the per-sequence cost with ITL slopes at fewer than two contexts; MFU decode and the per-sequence cost with slopes at
     *  contexts closer than decodeContextRatio; eta_kv1 without single requests at two contexts; the serial front end
     *  (efficiency.frontend_serial_ms) without in-flight TTFT under load at two or more prompt lengths (h13bc); the first
     *  token's return path (efficiency.first_token_return_ms) where fitFirstTokenReturn holds it because the TTFT under load
     *  has one prompt length (h13be).
     *  An applied prior frees its parameter (started at mu when it was not free, else at its usual start); one on an
     *  identified parameter is left out, with a note. */
    std::vector<ParameterPrior> priors;
    /** MFU decode and the per-sequence cost fitted only where the ITL slopes against the batch (two or more concurrencies
     *  at one decode context, input + output / 2) are taken at contexts whose longest is at least this factor times the
     *  shortest; otherwise both stay at the scenario's values (a prior may pull them) and eta_kv is fitted at them. The
     *  per-sequence cost is the slopes' intercept at context 0 and a compute-bound step's cost per sequence does not
     *  depend on the context, so slopes at close contexts (one prompt length with two output lengths: 2,100 and 3,000
     *  tokens on the NIM 8B fp16 set's half of ISL 2,000) leave them in a flat valley (docs/cost-model.md, h13az). 0: off,
     *  the rule of two contexts 10 % apart alone, as before (measured_accuracy --decode-context-ratio R). */
    double decodeContextRatio = 0;
    /** When above 0, the prefill attention MFU (efficiency.mfu_prefill_attention, of the attention dtype's peak under the
     *  scenario's attention FLOP count) is held at this fraction in every fit instead of fitted, and no prior frees it. For a
     *  value from a kernel benchmark rather than from the points: the attention share of a prefill is small below a few
     *  thousand tokens (P / (P + P*)), so TTFT at prompts of 5,000 and less price the quadratic term loosely and a fit
     *  extrapolates it to longer prompts with their errors times (P_long / P_short)^2 (the NIM 1.8 8B fp8 set's lone
     *  20,000-token request +42 to +57 % from fits on prompts of 5,000 and less; docs/cost-model.md, h13bb). In (0, 1];
     *  0: off, fitted by the rule of two prompt lengths as before (measured_accuracy --prefill-attention-mfu M). */
    double prefillAttentionMfu = 0;
};

/** What calibrateBenchmark() found. MAPE as fractions over the points each latency was compared on. */
struct BenchmarkFitResult {
    Coefficient bandwidthEfficiency; ///< eta_bw, in [0.01, 1]
    Coefficient mfuPrefill;          ///< in [0.01, 1]
    Coefficient mfuDecode;           ///< in [0.01, 1]
    Coefficient stepOverheadMs;      ///< every step's fixed overhead (efficiency.step_overhead_ms = prefill_overhead_ms), >= 0
    Coefficient chunkOverheadMs;     ///< per prefill chunk (efficiency.chunk_overhead_ms), >= 0
    Coefficient kvBandwidthEfficiency; ///< eta_kv (efficiency.kv_bandwidth), in [0.01, 1]; 0 when unfitted and unset (= eta_bw)
    Coefficient perSequenceOverheadUs; ///< per decoding sequence per step (efficiency.per_sequence_overhead_us), >= 0
    Coefficient ttftOverheadMs;      ///< per request, before the engine sees it (efficiency.ttft_overhead_ms), >= 0
    /// the first token's way back to the client after the engine's step (efficiency.first_token_return_ms), >= 0 (at most
    /// 1 s); fitted only with BenchmarkFitOptions::fitFirstTokenReturn where TTFT is under in-flight load at two or more
    /// prompt lengths, else the scenario's value (0: none)
    Coefficient firstTokenReturnMs;
    /// eta_kv1, one decoding sequence's KV read by itself (efficiency.kv_bandwidth_one_sequence), in [0.01, 1]; 0 when
    /// unfitted and unset (no such limit)
    Coefficient kvOneSequenceBandwidthEfficiency;
    /// MFU of prefill attention apart from the prefill GEMMs (efficiency.mfu_prefill_attention), in [0.01, 1]; fitted only
    /// when the TTFT points hold two or more prompt lengths, else the scenario's value (0: unset, = MFU prefill)
    Coefficient mfuPrefillAttention;
    /// time each request holds the serving front end alone (efficiency.frontend_serial_ms), >= 0 (at most 100 ms); fitted
    /// only when the TTFT points are under in-flight load at two or more concurrencies, else the scenario's value
    Coefficient frontendSerialMs;
    /// the admission gate's front-end time per delivered token, us (efficiency.tokenGateSeconds x 1e6), >= 0; fitted only
    /// with BenchmarkFitOptions::fitTokenGate where TTFT is under in-flight load, else the scenario's value (0: no gate)
    Coefficient tokenGateUs;
    std::vector<std::pair<double, double>> tokenGateCosts; ///< the gate's search: each candidate (us per token) with its training cost
    /// the API server's time per streamed token, us (serving.api_output_us_per_token), >= 0; fitted only with
    /// BenchmarkFitOptions::fitApiOutput under in-flight load, else the scenario's value (0: none)
    Coefficient apiOutputUs;
    std::vector<std::pair<double, double>> apiOutputCosts; ///< its search: each candidate (us per token) with its training cost
    /// the fitted cap on running sequences (BenchmarkFitOptions::fitMaxSequences); 0: not fitted (the engine options')
    int maxSequences = 0;
    std::vector<std::pair<int, double>> maxSequencesCosts; ///< its profile: each candidate cap with its training cost after a refit
    /// the engine options to predict with: BenchmarkFitOptions::engine with the fitted sequence cap (when fitted)
    BenchmarkOptions calibratedEngine;
    int tokenBudget = 0;             ///< fitted serving.max_num_tokens (0: not fitted, the scenario's or the engine's budget)
    /** The token-budget search: each candidate (tokens) with the sum of squared relative residuals at the parameters
     *  fitted so far (the last round's); empty when not fitted. */
    std::vector<std::pair<int, double>> tokenBudgetCosts;
    /// fitted serving.max_prefills_per_step (0: no limit, or not fitted: then the scenario's value stays); -1: not searched
    int prefillLimit = -1;
    /** The prompt-limit search: each candidate (0: no limit) with its training cost, as tokenBudgetCosts; empty when not fitted. */
    std::vector<std::pair<int, double>> prefillLimitCosts;
    /** Fitted runtime reserve per GPU, GB (serving.activation_reserve_bytes / 1e9), with BenchmarkFitOptions::fitKvReserve:
     *  the best candidate of the search, its standard error from the curvature of the training cost S over the candidates
     *  next to it (s^2 = S / (n - p), SE = sqrt(2 s^2 / S'')); none at either end of the range or where S is flat there.
     *  fitted false: not searched, or no fitted point reaches the KV capacity (every candidate scores the same). */
    Coefficient kvReserveGb;
    std::vector<std::pair<double, double>> kvReserveCosts; ///< the reserve search: each candidate (GB per GPU) with its training cost
    int itlPoints = 0, ttftPoints = 0;
    double itlMapeBefore = 0, itlMapeAfter = 0, ttftMapeBefore = 0, ttftMapeAfter = 0;
    int iterations = 0, evaluations = 0;
    std::vector<std::string> notes;  ///< parameters at a bound or not determined by the data, points left out
    std::vector<ParameterPrior> priorsApplied; ///< the priors of BenchmarkFitOptions::priors that entered this fit
    Scenario calibrated;             ///< the scenario with the fitted values
};

/**
 * Priors on @p keys from a fit @p fit of other data named @p source: each key's fitted value as mu and its standard error
 * times @p sigmaScale as sigma. Returns "" or why not (an unknown key, or a parameter that fit did not give a standard
 * error for: not fitted, or at a bound).
 */
std::string priorsFromFit(const BenchmarkFitResult& fit, const std::vector<std::string>& keys, const std::string& source,
                          double sigmaScale, std::vector<ParameterPrior>& out);

/**
 * The candidates of the prompt limit per step (serving.max_prefills_per_step) that calibrateBenchmark() scores under
 * BenchmarkFitOptions::fitPrefillLimit: 0 (no limit), then the powers of two and the midpoints 1.5 x 2^k between them up to
 * @p maxLimit prompts: 0, 1, 2, 3, 4, 6, 8, 12, 16, 24, ... Ascending, no duplicates; {0, 1} when @p maxLimit < 2. The
 * midpoints are there because the NIM 1.8 70B set is predicted best at 3 prompts per context step, which a powers-of-two
 * grid does not hold (docs/cost-model.md, h13ah and h13aj); the limit is fitted, not a documented engine setting.
 */
std::vector<int> prefillLimitCandidates(int maxLimit);

/**
 * The token budget (serving.max_num_tokens, tokens) that several fits of one engine share, as the halves of a held-out split
 * do (the same server ran every point; measured_accuracy --tie-token-budget, docs/cost-model.md, h13bd): from each fit's
 * budget search @p costs (BenchmarkFitResult::tokenBudgetCosts: each candidate with that fit's training cost on its own
 * points; fits with an empty search add nothing), the candidate whose costs sum lowest over the fits, among the candidates
 * every such fit scored. Of the candidates within @p tolerance (relative, >= 0) of the lowest sum, the one nearest
 * @p preferred (tokens; the smaller of two equally near; <= 0: the smallest), the search's own tie rule
 * (BenchmarkFitOptions::tokenBudgetTiePreferred). 0 when no fit searched the budget or no candidate was scored by all of them
 * with a finite cost.
 */
int sharedTokenBudget(const std::vector<std::vector<std::pair<int, double>>>& costs, int preferred, double tolerance);

/**
 * Fits eta_bw, prefill and decode MFU, the fixed step overhead, the per-chunk prefill cost, the KV-read
 * bandwidth efficiency eta_kv, the per-sequence step cost, the per-request TTFT overhead (held at the scenario's value
 * when every TTFT point has one prompt length in one chunk and no point is under load: then it cannot be told from the
 * prefill), with BenchmarkFitOptions::fitFirstTokenReturn the first token's return path (only where TTFT is under
 * in-flight load at two or more prompt lengths), the lone-sequence KV read eta_kv1 (fitted only when ITL points at concurrency or batch 1 hold two or more
 * decode contexts; otherwise the scenario's value, and started from the batch-1 ITL slope against the context), the
 * prefill attention MFU (fitted only when the TTFT points hold two or more prompt lengths, 10 % apart: the attention share
 * of the prefill FLOP grows with the prompt, so only several lengths tell it from the GEMMs' MFU; otherwise the scenario's
 * value, 0 = the same as MFU prefill) and, with BenchmarkFitOptions::fitTokenBudget, the engine's token budget
 * (alternating: continuous fit at a budget, discrete search over the budgets at those parameters, refit; at most three
 * rounds) with the
 * benchmark prediction in the loop (predictBenchmark(), the simulator run as the benchmark ran): bounded
 * Levenberg-Marquardt (projected steps, forward-difference Jacobian, Eigen) on the relative residuals
 * predicted / measured - 1 of each point's compared ITL and TTFT (compareItl(), compareTtft()): their mean absolute
 * value is the MAPE the fit is judged by (docs/cost-model.md). eta_kv and the per-sequence cost are fitted only when
 * the ITL points have two or more concurrencies at each of two or more contexts (otherwise eta_kv = eta_bw), and with
 * BenchmarkFitOptions::decodeContextRatio the per-sequence cost and MFU decode only where those contexts span that factor
 * (else both stay, and eta_kv is fitted at them). Bounds: efficiencies in [0.01, 1] (physical: no faster than the peak), overheads >= 0
 * (at most 1 s). Starts from eta_bw 0.75, MFU 0.4 / 0.5, 0.5 ms and 0 ms, eta_kv1 from the batch-1 slope (0.3 without one),
 * prefill attention MFU 0.4. A parameter no residual depends on
 * (e.g. prefill MFU without TTFT points) stays at its scenario value, unfitted; so does the per-chunk cost when
 * every TTFT point has the same prompt length in one chunk (it is then a per-request cost that cannot be told from
 * prefill MFU). Standard errors from the
 * Jacobian at the solution: s^2 (J^T J)^-1 over the free parameters, s^2 = residual sum of squares / (n - p);
 * none for a parameter at a bound. Returns "" or why nothing could be fitted.
 */
std::string calibrateBenchmark(const Scenario& scenario, const std::vector<BenchmarkPoint>& points, const BenchmarkFitOptions& options,
                               BenchmarkFitResult& out);

/**
 * The two scenarios a measured set's scenario file @p scenarioJson (NAME.scenario.json, any key applyJsonText() knows)
 * is scored with (bench/measured_accuracy.cpp): @p floor, defaultScenario() with the file applied and every efficiency
 * cleared (Efficiency{}: eta = MFU = 1, no overheads; the floor column), and @p fitStart, defaultScenario() with its
 * efficiencies cleared first and then the file applied, so that an efficiency key the file sets (e.g.
 * efficiency.per_sequence_overhead_us) is the value calibrateBenchmark() keeps for a parameter the points cannot
 * identify ("kept at the scenario's values"). Before h13ap the fits started from the floor, which dropped those keys
 * (docs/cost-model.md, "vLLM 0.5.4 streams in rounds"). A file without efficiency keys gives fitStart = floor. Returns ""
 * or the file's error.
 */
std::string measuredSetScenarios(const QByteArray& scenarioJson, Scenario& floor, Scenario& fitStart);

} // namespace ridgeline::model
