// SPDX-License-Identifier: GPL-3.0-or-later
// How well Ridgeline predicts measured serving benchmarks (issue 13). Not a test: run by hand, or through
// scripts/measured-accuracy.sh. For each measured set in DIR (NAME.csv or, without one, NAME.json: a benchmark tool's
// output such as vLLM `bench serve --save-result` results; and NAME.scenario.json) it prints ITL and
// TTFT MAPE of the benchmark prediction (model/analysis/benchmarkpredict.h) at the floor, at the planning convention
// (eta_bw 0.75, prefill MFU 0.40), calibrated in-sample (model/analysis/calibration.h, calibrateBenchmark), and
// calibrated on half of the points and predicted on the other half: the halves alternate over the sorted
// concurrency (or batch, or for an uncapped all-at-once open loop the number of requests sent) levels, and
// separately over the sorted prompt lengths; each half is fitted and the other predicted, so every point is
// predicted once by a fit that never saw it (pooled MAPE). The fit never sees the held-out half.
// Usage: measured_accuracy [--fit-token-budget] [--fit-kv-reserve] [--fit-token-gate] [--fit-api-output] [--fit-first-token-return] [--fit-frontend-bursts] [--fit-max-seqs] [--max-seqs N] [--max-seqs-candidates N,...] [--token-budget N] [--tie-token-budget] [--fit-prefill-limit] [--ttft-single-only] [--no-frontend] [--only in-sample|concurrency|prompt] [--residuals [--ttft-parts]] [--random-client-starts] [--tie-max-seqs] [--stream-steps K] [--output-lag-steps K] [--burst-accept-ms MS] [--measurement-window-s S] [--point-windows] [--decode-context-ratio R] [--prefill-attention-mfu M] [--client-threads T [--client-turnaround-ms MS]] [--dynamic-batch-tuning]
//   [--prior-from DIR/NAME [--prior-params KEY,...] [--prior-sigma-scale K]] [--prior-values KEY=MU:SIGMA,...] [--scheduler v1|v0|v0-prompt-first|trtllm] DIR [NAME...]   (default: vLLM V1; every
// *.scenario.json in DIR). --fit-token-budget also fits the engine's token budget (serving.max_num_tokens) in every fit,
// on that fit's own points only (BenchmarkFitOptions::fitTokenBudget); --fit-prefill-limit the engine's limit on prompts
// prefilled per step (serving.max_prefills_per_step, BenchmarkFitOptions::fitPrefillLimit) the same way, where a fit's
// points hold two prompt lengths; --fit-kv-reserve the runtime reserve per GPU kept out of the KV cache
// (serving.activation_reserve_bytes, 0 to 20 GB, BenchmarkFitOptions::fitKvReserve) the same way; --fit-token-gate the
// admission gate on the delivered token rate (efficiency.tokenGateSeconds, us per token, BenchmarkFitOptions::fitTokenGate)
// where a fit's TTFT points are under in-flight load; --fit-api-output the API server's output path
// (serving.api_output_us_per_token, us per streamed token, BenchmarkFitOptions::fitApiOutput, h13al) where a fit's points
// are under in-flight load at two or more loads (bursts of different sizes counting as different loads);
// --fit-first-token-return the first token's return path (efficiency.first_token_return_ms, ms after the engine's step,
// BenchmarkFitOptions::fitFirstTokenReturn, h13aq) beside the per-request TTFT overhead where a fit's TTFT points are under
// in-flight load at two or more prompt lengths (h13av);
// --fit-frontend-bursts counts bursts of different sizes as different loads for the serial front end's fit too
// (BenchmarkFitOptions::fitFrontendOnBursts); --fit-max-seqs the engine's cap on running sequences (max_num_seqs,
// BenchmarkFitOptions::fitMaxSequences, h13an) where a fit's points hold more requests than the cap at two or more loads, the
// fitted cap used for that fit's predictions; with --tie-max-seqs the two halves of a held-out split share one cap, the
// engine's one configuration (the same server ran every point): the candidate whose two training-cost profiles sum lowest,
// a half fitted elsewhere refitted there (h13ap). --max-seqs N sets the engine's cap itself (BenchmarkOptions::maxSequences,
// default 256) in every column: the fits start from it and --fit-max-seqs searches only where a point exceeds it (h13bb:
// TensorRT-LLM's max_batch_size, NIM's undocumented, below the NIM sets' top load of 250), and --max-seqs-candidates N,... the caps the search scores (default 128, 192,
// 256, 384, 512, 768, 1024). --token-budget N sets the engine's token budget (BenchmarkOptions::tokenBudget, default 8,192,
// TensorRT-LLM's max_num_tokens) in every column where the set's scenario sets none; without --fit-token-budget every fit
// then holds it (h13bd: the NIM 1.8 8B fp8 set's budget held at 16,384 or 32,768). With --tie-token-budget (and
// --fit-token-budget) the two halves of a held-out split share one token budget, the engine's one configuration as with
// --tie-max-seqs: the candidate whose two training-cost profiles (each half's budget search) sum lowest, ties to the
// search's own preference (sharedTokenBudget()); a half fitted at another budget is refitted there with the budget (and
// its sequence cap) held (h13bd). --stream-steps K streams every token after a request's first in rounds
// of K engine steps (BenchmarkOptions::streamIntervalSteps; vLLM 0.5.4's OpenAI server, about 10, h13ap) in every
// prediction and fit. --output-lag-steps K hands every token to its client K engine steps after its own
// (BenchmarkOptions::outputLagSteps; the Lambda vLLM sets' first tokens, 1, h13ar) and --burst-accept-ms MS has the server
// accept a burst sent at once before the engine's first step, MS per request (BenchmarkOptions::burstAcceptanceSeconds,
// h13ar), in every prediction and fit. --measurement-window-s S measures each steady-state closed loop as GenAI-Perf's
// time windows do, every request that finishes within S seconds of the run's start, the first wave of N included
// (BenchmarkOptions::measurementWindowSeconds; the NIM Llama 3 8B fp16 set's GenAI-Perf runs, 216: h13au), in every
// prediction and fit. --point-windows measures each steady-state closed loop whose row records its own window (the set's
// CSV column measurement_window_s) with that window, as --measurement-window-s does with one window for all, where
// --measurement-window-s is not given (BenchmarkOptions::pointMeasurementWindows; the NIM Llama 3 8B fp16 set's windows
// recovered from its GenAI-Perf records, 216 s to 648 s: h13aw); points without one as before. --decode-context-ratio R fits
// MFU decode and the per-sequence cost only where the ITL slopes against the batch span decode contexts a factor R apart
// (BenchmarkFitOptions::decodeContextRatio, h13az; 0, the default: off), else keeps them at the set's scenario's values or
// lets a --prior-from / --prior-values prior on them pull them (eta_kv is fitted at them). --prefill-attention-mfu M holds
// the prefill attention MFU at M in every fit instead of fitting it (BenchmarkFitOptions::prefillAttentionMfu, h13bb; 0, the
// default: fitted where the TTFT points hold two prompt lengths). --dynamic-batch-tuning runs TensorRT-LLM's
// dynamic batch tuner under --scheduler trtllm in every prediction and fit (BenchmarkOptions::dynamicBatchTuning,
// h13bf): each step's token budget the tuner's from the moving mean ISL / OSL, at most --token-budget (the engine's
// static max_num_tokens). The fits start from the set's scenario with its efficiency keys (measuredSetScenarios()), the
// floor column from the floor. --only runs one of the calibrated columns (the others print as nan). --residuals lists every point's measured and predicted
// ITL and TTFT under its fit (in-sample, and each held-out point under the half that did not see it), and under each fit the
// set's lone-request TTFT line (ISL <= 2,000: intercept + slope, measured -> predicted) and each loaded closed-loop point's wait
// for its first token in lone prefills ("prefill wait", measured -> predicted; loadedPrefillWait(), h13ao); with --ttft-parts
// also each held-out closed-loop point's predicted mean TTFT split into its parts under the half that predicted it (front end,
// t_req, the step under way, whole steps waited, its own prefill step and its prompt alone, t_ret; BenchmarkOptions::ttftParts,
// h13ax). --client-threads T sends each concurrency point's requests through T client threads, each send taking
// --client-turnaround-ms MS (default 0) on its thread after the later of the response it follows and the thread's previous
// send (BenchmarkOptions::clientThreads; perf_analyzer up to 2.48: 16 threads, about 0.1 ms a send: h13ay), in every
// prediction and fit. --random-client-starts starts each steady-state closed loop's
// clients at seeded random times over one request time (BenchmarkOptions::randomClientStarts) in every prediction and fit.
// --ttft-single-only prices the prefill on single requests' TTFT alone in every fit whose points hold them at two or more
// prompt lengths, leaving the in-flight TTFT under load out of its residuals (BenchmarkFitOptions::fitTtftSingleRequestsOnly;
// every TTFT point is still scored, and the searches of the token budget and the prompt limit score the loaded TTFT too; h13aj).
// --scheduler trtllm predicts (and calibrates) with TensorRT-LLM's in-flight batching without chunked context
// (SchedulerVersion::TrtllmInflight, docs/cost-model.md), the same table and fits otherwise; --scheduler v0-prompt-first
// with vLLM V0 without chunked prefill (SchedulerVersion::V0PromptFirst). A set whose scenario sets serving.scheduler is
// predicted with that scheduler whatever --scheduler says (its fits' line names it). --no-frontend keeps the serial
// front end (efficiency.frontend_serial_ms) at 0 in every fit: the table as it was before that term, for comparison.
// --prior-from DIR/NAME fits the measured set NAME (NAME.csv, NAME.scenario.json) in-sample first and takes Gaussian priors
// from it (mu = its fitted value, sigma = its standard error x --prior-sigma-scale, default 1) on the parameters of
// --prior-params (comma-separated keys, default efficiency.ttft_overhead_ms,efficiency.mfu_prefill); every fit of a set on
// the same device (hardware.name) then uses them where its points cannot identify those parameters
// (BenchmarkFitOptions::priors). Never for the prior's own set (that would fit it on itself), nor for another device's.
// --prior-values KEY=MU:SIGMA[,...] gives priors by value instead (e.g. a preset's values), for every set of the run: a
// preset fitted on the set being scored has seen its held-out points, so such a run measures that leak, not accuracy.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include "model/files/benchmarkfile.h"
#include "model/analysis/benchmarkpredict.h"
#include "model/analysis/calibration.h"
#include "model/analysis/fittext.h"
#include "model/cost/scenariokeys.h"

using namespace ridgeline::model;

namespace {

bool g_ttftSingleOnly = false; // --ttft-single-only: BenchmarkFitOptions::fitTtftSingleRequestsOnly in every fit
bool g_residuals = false; // --residuals: every held-out point's measured and predicted ITL and TTFT
bool g_ttftParts = false; // --ttft-parts: with --residuals, each held-out point's predicted TTFT split into its parts (h13ax)
bool g_tieTokenBudget = false; // --tie-token-budget: with --fit-token-budget, one token budget for both halves of a held-out split (h13bd)
bool g_tieMaxSeqs = false; // --tie-max-seqs: with --fit-max-seqs, one sequence cap for both halves of a held-out split (h13ap)
std::string g_only;        // --only in-sample|concurrency|prompt: that column alone (floor and planning always), the others "-"
// With --residuals, the set being scored: its lone requests' TTFT line and their TTFT per (ISL, OSL), so that each loaded
// point's line says how many lone prefills its clients wait, measured -> predicted (loadedPrefillWait(), h13ao).
std::optional<TtftLine> g_loneLine;
std::map<std::pair<double, double>, double> g_loneTtftMs;

/**
 * The measured set NAME in DIR: its points, its scenario at the floor (efficiencies cleared) and the scenario the fits
 * start from (the floor with the file's own efficiency keys: what a fit keeps for a parameter the points cannot identify;
 * measuredSetScenarios(), h13ap). "" or why not.
 */
std::string loadSet(const QDir& dir, const QString& name, BenchmarkFile& file, Scenario& floor, Scenario& fitStart)
{
    // NAME.csv, or else NAME.json: a benchmark tool's own output (vLLM `bench serve --save-result` results, one per line),
    // read by content like any file readBenchmarkFile() knows.
    const QString points = QFileInfo::exists(dir.filePath(name + QStringLiteral(".csv"))) ? name + QStringLiteral(".csv")
                                                                                         : name + QStringLiteral(".json");
    QFile csv(dir.filePath(points)), sc(dir.filePath(name + QStringLiteral(".scenario.json")));
    if (!csv.open(QIODevice::ReadOnly) || !sc.open(QIODevice::ReadOnly))
        return "cannot open the CSV (or JSON) or the scenario";
    if (std::string e = readBenchmarkFile(csv.readAll(), points.toStdString(), file); !e.empty())
        return e;
    return measuredSetScenarios(sc.readAll(), floor, fitStart);
}

/** "; prior from SET: key mu +- sigma, ..." for the priors a fit used, or "". */
std::string priorText(const BenchmarkFitResult& fit)
{
    std::string t;
    for (const ParameterPrior& p : fit.priorsApplied) {
        char b[200];
        std::snprintf(b, sizeof b, "%s %.4g +- %.2g", p.key.c_str(), p.mean, p.sigma);
        t += (t.empty() ? "; prior from " + p.source + ": " : std::string(", ")) + b;
    }
    return t;
}

bool column(const char* name)
{
    return g_only.empty() || g_only == name;
}

struct Mape {
    double itl = 0, ttft = 0;
    int itlN = 0, ttftN = 0;
    void add(const std::optional<ComparedLatency>& i, const std::optional<ComparedLatency>& t)
    {
        if (i) {
            itl += std::abs(i->residual);
            ++itlN;
        }
        if (t) {
            ttft += std::abs(t->residual);
            ++ttftN;
        }
    }
    std::string text() const
    {
        char b[64];
        std::snprintf(b, sizeof b, "%5.1f / %5.1f", itlN ? 100 * itl / itlN : NAN, ttftN ? 100 * ttft / ttftN : NAN);
        return b;
    }
};

Mape score(const Scenario& s, const std::vector<BenchmarkPoint>& points, const BenchmarkOptions& o)
{
    Mape m;
    const std::vector<PointPrediction> r = predictBenchmarks(s, points, o);
    for (size_t i = 0; i < points.size(); ++i)
        if (r[i].error.empty())
            m.add(compareItl(points[i], r[i].prediction), compareTtft(points[i], r[i].prediction));
        else
            std::fprintf(stderr, "  %s: %s\n", points[i].label.c_str(), r[i].error.c_str());
    return m;
}

/**
 * One point's measured and predicted ITL and TTFT with their relative residuals, one line; for a closed loop also the
 * output tokens per second and the clients before their first token, measured (Little's law from the point's own
 * latencies, measuredClosedLoop()) -> predicted (h13am).
 */
std::string residualLine(const BenchmarkPoint& p, const BenchmarkPrediction& prediction)
{
    const std::optional<ComparedLatency> itl = compareItl(p, prediction), ttft = compareTtft(p, prediction);
    char b[400];
    int n = std::snprintf(b, sizeof b, "        ISL %6.0f OSL %5.0f N %4.0f  ITL %7.2f -> %7.2f (%+6.1f %%)  TTFT %9.1f -> %9.1f (%+6.1f %%)",
                          p.inputTokens, p.outputTokens, p.concurrency, itl ? itl->measuredMs : NAN, itl ? itl->predictedMs : NAN,
                          itl ? 100 * itl->residual : NAN, ttft ? ttft->measuredMs : NAN, ttft ? ttft->predictedMs : NAN,
                          ttft ? 100 * ttft->residual : NAN);
    if (const std::optional<ClosedLoopOccupancy> m = measuredClosedLoop(p); m && n > 0 && size_t(n) < sizeof b) {
        const ClosedLoopOccupancy q = predictedOccupancy(prediction);
        n += std::snprintf(b + n, sizeof b - size_t(n), "  out tok/s %7.0f -> %7.0f  before 1st token %6.1f -> %6.1f", m->outputTokensPerSecond,
                           q.outputTokensPerSecond, m->beforeFirstToken, q.beforeFirstToken);
    }
    const auto lone = g_loneTtftMs.find({p.inputTokens, p.outputTokens});
    if (ttft && g_loneLine && lone != g_loneTtftMs.end() && p.load == BenchmarkLoad::Concurrency && n > 0 && size_t(n) < sizeof b) {
        const std::optional<double> m = loadedPrefillWait(ttft->measuredMs, p.concurrency, lone->second, g_loneLine->interceptMs);
        const std::optional<double> q = loadedPrefillWait(ttft->predictedMs, p.concurrency, lone->second, g_loneLine->interceptMs);
        if (m && q)
            std::snprintf(b + n, sizeof b - size_t(n), "  prefill wait %5.2f -> %5.2f", *m, *q);
    }
    std::string t = std::string(b) + "\n";
    if (const TtftParts& q = prediction.ttftParts; q.requests > 0) {
        std::snprintf(b, sizeof b, "          parts, ms: front end %.2f + t_req %.2f + step under way %.2f + %.2f steps waited %.2f (%.0f prompt tok, %.1f decodes a step) + own step %.2f (alone %.2f; %.0f prompt tok, %.1f decodes) + t_ret %.2f + other %.2f\n",
                      1e3 * q.frontEnd, 1e3 * q.requestDelay, 1e3 * q.stepInProgress, q.stepsWaitedCount, 1e3 * q.stepsWaited,
                      q.waitedPrefillTokens, q.waitedDecodes, 1e3 * q.prefillStep, 1e3 * q.prefillAlone, q.ownStepPrefillTokens,
                      q.ownStepDecodes, 1e3 * q.firstTokenReturn, 1e3 * q.other);
        t += b;
    }
    return t;
}

/**
 * With --residuals: the lone requests' TTFT line of the set (ISL <= 2,000), measured and as @p s predicts the same
 * points (loneRequestTtftLine(), h13ao), one line; "" without two lone prompt lengths.
 */
std::string loneLineText(const Scenario& s, const std::vector<BenchmarkPoint>& points, const BenchmarkOptions& o)
{
    std::vector<BenchmarkPoint> lone;
    for (const BenchmarkPoint& p : points)
        if (p.load == BenchmarkLoad::Concurrency && p.concurrency == 1 && p.inputTokens <= 2000)
            lone.push_back(p);
    const std::optional<TtftLine> measured = loneRequestTtftLine(lone);
    if (!measured)
        return "";
    std::vector<std::pair<double, double>> xy;
    const std::vector<PointPrediction> r = predictBenchmarks(s, lone, o);
    for (size_t i = 0; i < lone.size(); ++i)
        if (r[i].error.empty())
            if (const std::optional<ComparedLatency> t = compareTtft(lone[i], r[i].prediction))
                xy.emplace_back(lone[i].inputTokens, t->predictedMs);
    const std::optional<TtftLine> predicted = fitTtftLine(xy);
    char b[240];
    std::snprintf(b, sizeof b, "        lone-request TTFT line (ISL <= 2,000, %d points): %.2f ms + %.2f us/token -> %.2f ms + %.2f us/token\n",
                  measured->points, measured->interceptMs, 1e3 * measured->slopeMsPerToken, predicted ? predicted->interceptMs : NAN,
                  predicted ? 1e3 * predicted->slopeMsPerToken : NAN);
    return b;
}

/** residualLine() for every point of @p points predicted with @p s. */
std::string residualLines(const Scenario& s, const std::vector<BenchmarkPoint>& points, const BenchmarkOptions& o)
{
    std::string t;
    const std::vector<PointPrediction> r = predictBenchmarks(s, points, o);
    for (size_t i = 0; i < points.size(); ++i)
        if (r[i].error.empty())
            t += residualLine(points[i], r[i].prediction);
    return t;
}

/**
 * With --tie-max-seqs and --fit-max-seqs: the sequence cap both halves' fits share, the engine's one configuration (the
 * same server binary and flags ran every point): the candidate whose training costs, each half's after its own refit at
 * that cap (BenchmarkFitResult::maxSequencesCosts), sum lowest (ties: the engine options' value, then the smaller cap);
 * a half whose points did not search the cap adds nothing. 0 when no half searched it.
 */
int tiedCap(const BenchmarkFitResult (&fits)[2], const bool (&ok)[2], int engineCap)
{
    std::map<int, double> sum;
    for (int k = 0; k < 2; ++k)
        if (ok[k])
            for (const auto& [cap, cost] : fits[k].maxSequencesCosts)
                sum[cap] += cost;
    int best = 0;
    double bestCost = std::numeric_limits<double>::infinity();
    for (const auto& [cap, cost] : sum)
        if (cost < bestCost || (cost == bestCost && cap == engineCap)) {
            best = cap;
            bestCost = cost;
        }
    return best;
}

/**
 * Fits on the points where @p inA is true and predicts the others, and the other way round; pooled MAPE. With
 * --tie-max-seqs (and --fit-max-seqs) the two halves' fits share one sequence cap (tiedCap(); a half fitted at another
 * cap is refitted at the shared one with the cap held), h13ap.
 */
Mape heldOut(const Scenario& s, const std::vector<BenchmarkPoint>& points, const std::vector<bool>& inA, const BenchmarkFitOptions& fo,
             std::string& fits)
{
    Mape m;
    std::vector<BenchmarkPoint> trains[2], tests[2];
    BenchmarkFitResult results[2];
    bool ok[2] = {false, false};
    for (int k = 0; k < 2; ++k) {
        const bool side = k == 0;
        for (size_t i = 0; i < points.size(); ++i)
            (inA[i] == side ? trains[k] : tests[k]).push_back(points[i]);
        if (trains[k].empty() || tests[k].empty())
            continue;
        if (const std::string e = calibrateBenchmark(s, trains[k], fo, results[k]); !e.empty()) {
            std::fprintf(stderr, "  fit failed: %s\n", e.c_str());
            continue;
        }
        ok[k] = true;
    }
    if (g_tieMaxSeqs && fo.fitMaxSequences) {
        if (const int cap = tiedCap(results, ok, fo.engine.maxSequences); cap > 0) {
            char b[64];
            std::snprintf(b, sizeof b, "      sequence cap tied across the halves: %d\n", cap);
            fits += b;
            for (int k = 0; k < 2; ++k) {
                if (!ok[k] || results[k].calibratedEngine.maxSequences == cap)
                    continue;
                BenchmarkFitOptions held = fo; // this half refitted at the shared cap, the cap held
                held.fitMaxSequences = false;
                held.engine.maxSequences = cap;
                BenchmarkFitResult refit;
                if (const std::string e = calibrateBenchmark(s, trains[k], held, refit); !e.empty()) {
                    std::fprintf(stderr, "  fit failed: %s\n", e.c_str());
                    ok[k] = false;
                    continue;
                }
                refit.maxSequencesCosts = results[k].maxSequencesCosts;
                refit.maxSequences = cap;
                results[k] = refit;
            }
        }
    }
    if (g_tieTokenBudget && fo.fitTokenBudget) {
        std::vector<std::vector<std::pair<int, double>>> costs;
        for (int k = 0; k < 2; ++k)
            if (ok[k])
                costs.push_back(results[k].tokenBudgetCosts);
        if (const int budget = sharedTokenBudget(costs, fo.tokenBudgetTiePreferred, fo.tokenBudgetTieTolerance); budget > 0) {
            char b[64];
            std::snprintf(b, sizeof b, "      token budget tied across the halves: %d\n", budget);
            fits += b;
            for (int k = 0; k < 2; ++k) {
                if (!ok[k] || results[k].tokenBudget == budget)
                    continue;
                BenchmarkFitOptions held = fo; // this half refitted at the shared budget (and its own cap), both held
                held.fitTokenBudget = false;
                held.fitMaxSequences = false;
                held.engine.maxSequences = results[k].calibratedEngine.maxSequences;
                Scenario at = s;
                at.serving.maxNumTokens = budget;
                BenchmarkFitResult refit;
                if (const std::string e = calibrateBenchmark(at, trains[k], held, refit); !e.empty()) {
                    std::fprintf(stderr, "  fit failed: %s\n", e.c_str());
                    ok[k] = false;
                    continue;
                }
                refit.tokenBudgetCosts = results[k].tokenBudgetCosts;
                refit.tokenBudget = budget;
                refit.maxSequencesCosts = results[k].maxSequencesCosts;
                refit.maxSequences = results[k].maxSequences;
                results[k] = refit;
            }
        }
    }
    for (int k = 0; k < 2; ++k) {
        if (!ok[k])
            continue;
        const std::vector<BenchmarkPoint>& test = tests[k];
        const BenchmarkFitResult& fit = results[k];
        fits += "      " + fitCoefficientsText(fit) + fitSearchesText(fit) + priorText(fit) + "\n";
        BenchmarkOptions fitted = fo.engine; // with the fitted sequence cap (--fit-max-seqs)
        fitted.maxSequences = fit.calibratedEngine.maxSequences;
        fitted.ttftParts = g_ttftParts;
        if (g_residuals)
            fits += loneLineText(fit.calibrated, points, fitted);
        const std::vector<PointPrediction> r = predictBenchmarks(fit.calibrated, test, fitted);
        for (size_t i = 0; i < test.size(); ++i)
            if (r[i].error.empty()) {
                const auto itl = compareItl(test[i], r[i].prediction);
                const auto ttft = compareTtft(test[i], r[i].prediction);
                m.add(itl, ttft);
                if (g_residuals)
                    fits += residualLine(test[i], r[i].prediction);
            }
    }
    return m;
}

/** Alternating halves over the sorted distinct values of @p key. */
std::vector<bool> alternate(const std::vector<BenchmarkPoint>& points, double (*key)(const BenchmarkPoint&))
{
    std::set<double> levels;
    for (const BenchmarkPoint& p : points)
        levels.insert(key(p));
    std::map<double, bool> side;
    bool a = true;
    for (const double l : levels) {
        side[l] = a;
        a = !a;
    }
    std::vector<bool> inA;
    for (const BenchmarkPoint& p : points)
        inA.push_back(side[key(p)]);
    return inA;
}

/**
 * The load level the concurrency split alternates over: clients (closed loop), batch (static), the in-flight cap of an
 * open loop, or, for an open loop with no cap (vLLM `bench serve` at request rate inf without --max-concurrency: every
 * request sent at once), the number of requests sent, which sets the load there.
 */
double loadLevel(const BenchmarkPoint& p)
{
    return p.concurrency > 0 ? p.concurrency : double(p.requests);
}

} // namespace

int main(int argc, char** argv)
{
    BenchmarkOptions engine; // vLLM V1 defaults (docs/cost-model.md)
    BenchmarkFitOptions fo;
    std::string priorFrom, priorParams = "efficiency.ttft_overhead_ms,efficiency.mfu_prefill";
    double priorSigmaScale = 1;
    std::string priorValues; // --prior-values KEY=MU:SIGMA,...
    int arg = 1;
    for (; argc > arg; ++arg)
        if (std::strcmp(argv[arg], "--prior-from") == 0 && argc > arg + 1)
            priorFrom = argv[++arg];
        else if (std::strcmp(argv[arg], "--prior-params") == 0 && argc > arg + 1)
            priorParams = argv[++arg];
        else if (std::strcmp(argv[arg], "--prior-values") == 0 && argc > arg + 1)
            priorValues = argv[++arg];
        else if (std::strcmp(argv[arg], "--prior-sigma-scale") == 0 && argc > arg + 1)
            priorSigmaScale = std::atof(argv[++arg]);
        else if (std::strcmp(argv[arg], "--fit-token-budget") == 0)
            fo.fitTokenBudget = true;
        else if (std::strcmp(argv[arg], "--fit-kv-reserve") == 0)
            fo.fitKvReserve = true;
        else if (std::strcmp(argv[arg], "--fit-token-gate") == 0)
            fo.fitTokenGate = true;
        else if (std::strcmp(argv[arg], "--fit-max-seqs") == 0)
            fo.fitMaxSequences = true;
        else if (std::strcmp(argv[arg], "--fit-api-output") == 0)
            fo.fitApiOutput = true;
        else if (std::strcmp(argv[arg], "--fit-first-token-return") == 0)
            fo.fitFirstTokenReturn = true;
        else if (std::strcmp(argv[arg], "--fit-frontend-bursts") == 0)
            fo.fitFrontendOnBursts = true;
        else if (std::strcmp(argv[arg], "--fit-prefill-limit") == 0)
            fo.fitPrefillLimit = true;
        else if (std::strcmp(argv[arg], "--ttft-single-only") == 0)
            g_ttftSingleOnly = true;
        else if (std::strcmp(argv[arg], "--no-frontend") == 0)
            fo.fitFrontend = false;
        else if (std::strcmp(argv[arg], "--only") == 0 && argc > arg + 1)
            g_only = argv[++arg];
        else if (std::strcmp(argv[arg], "--residuals") == 0)
            g_residuals = true;
        else if (std::strcmp(argv[arg], "--ttft-parts") == 0)
            g_ttftParts = true;
        else if (std::strcmp(argv[arg], "--tie-token-budget") == 0)
            g_tieTokenBudget = true;
        else if (std::strcmp(argv[arg], "--tie-max-seqs") == 0)
            g_tieMaxSeqs = true;
        else if (std::strcmp(argv[arg], "--stream-steps") == 0 && argc > arg + 1)
            engine.streamIntervalSteps = std::atoi(argv[++arg]);
        else if (std::strcmp(argv[arg], "--output-lag-steps") == 0 && argc > arg + 1)
            engine.outputLagSteps = std::atoi(argv[++arg]);
        else if (std::strcmp(argv[arg], "--burst-accept-ms") == 0 && argc > arg + 1)
            engine.burstAcceptanceSeconds = std::atof(argv[++arg]) * 1e-3;
        else if (std::strcmp(argv[arg], "--measurement-window-s") == 0 && argc > arg + 1)
            engine.measurementWindowSeconds = std::atof(argv[++arg]);
        else if (std::strcmp(argv[arg], "--point-windows") == 0)
            engine.pointMeasurementWindows = true;
        else if (std::strcmp(argv[arg], "--decode-context-ratio") == 0 && argc > arg + 1)
            fo.decodeContextRatio = std::atof(argv[++arg]);
        else if (std::strcmp(argv[arg], "--max-seqs") == 0 && argc > arg + 1)
            engine.maxSequences = std::max(1, std::atoi(argv[++arg]));
        else if (std::strcmp(argv[arg], "--token-budget") == 0 && argc > arg + 1)
            engine.tokenBudget = std::max(1, std::atoi(argv[++arg]));
        else if (std::strcmp(argv[arg], "--max-seqs-candidates") == 0 && argc > arg + 1) {
            fo.maxSequencesCandidates.clear();
            for (const QString& c : QString::fromLocal8Bit(argv[++arg]).split(QLatin1Char(','), Qt::SkipEmptyParts))
                if (c.toInt() > 0)
                    fo.maxSequencesCandidates.push_back(c.toInt());
        } else if (std::strcmp(argv[arg], "--prefill-attention-mfu") == 0 && argc > arg + 1)
            fo.prefillAttentionMfu = std::max(0.0, std::atof(argv[++arg]));
        else if (std::strcmp(argv[arg], "--dynamic-batch-tuning") == 0)
            engine.dynamicBatchTuning = true;
        else if (std::strcmp(argv[arg], "--random-client-starts") == 0)
            engine.randomClientStarts = true;
        else if (std::strcmp(argv[arg], "--client-threads") == 0 && argc > arg + 1)
            engine.clientThreads = std::max(0, std::atoi(argv[++arg]));
        else if (std::strcmp(argv[arg], "--client-turnaround-ms") == 0 && argc > arg + 1)
            engine.clientTurnaroundSeconds = std::max(0.0, std::atof(argv[++arg]) * 1e-3);
        else
            break;
    if (argc > arg + 1 && std::strcmp(argv[arg], "--scheduler") == 0) {
        const std::string v = argv[arg + 1];
        if (const std::optional<SchedulerVersion> parsed = parseSchedulerName(v))
            engine.scheduler = *parsed;
        else {
            std::fprintf(stderr, "--scheduler %s: expected v1, v0, v0-prompt-first or trtllm\n", v.c_str());
            return 2;
        }
        arg += 2;
    }
    if (argc <= arg) {
        std::fprintf(stderr, "usage: measured_accuracy [--fit-token-budget] [--fit-kv-reserve] [--fit-token-gate] [--fit-api-output] [--fit-first-token-return] [--fit-frontend-bursts] [--fit-max-seqs] [--max-seqs N] [--max-seqs-candidates N,...] [--token-budget N] [--tie-token-budget] [--fit-prefill-limit] [--ttft-single-only] [--no-frontend] [--only in-sample|concurrency|prompt] [--residuals [--ttft-parts]] [--random-client-starts] [--tie-max-seqs] [--stream-steps K] [--output-lag-steps K] [--burst-accept-ms MS] [--measurement-window-s S] [--point-windows] [--decode-context-ratio R] [--prefill-attention-mfu M] [--client-threads T [--client-turnaround-ms MS]] [--dynamic-batch-tuning] "
                             "[--prior-from DIR/NAME [--prior-params KEY,...] [--prior-sigma-scale K]] [--prior-values KEY=MU:SIGMA,...] [--scheduler v1|v0|v0-prompt-first|trtllm] DIR [NAME...]\n");
        return 2;
    }
    const QDir dir(QString::fromLocal8Bit(argv[arg]));
    QStringList names;
    for (int i = arg + 1; i < argc; ++i)
        names << QString::fromLocal8Bit(argv[i]);
    if (names.isEmpty())
        for (const QString& f : dir.entryList({QStringLiteral("*.scenario.json")}, QDir::Files, QDir::Name))
            names << f.chopped(int(std::strlen(".scenario.json")));

    fo.engine = engine;
    fo.fitTtftSingleRequestsOnly = g_ttftSingleOnly;

    // Priors from another measured set, fitted in-sample with the same options (and no priors).
    std::vector<ParameterPrior> priors;
    std::string priorDevice, priorName;
    std::vector<ParameterPrior> givenPriors; // --prior-values: for every set
    for (const QString& item : QString::fromStdString(priorValues).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype eq = item.indexOf(QLatin1Char('=')), colon = item.indexOf(QLatin1Char(':'));
        bool okMu = false, okSigma = false;
        ParameterPrior p;
        if (eq > 0 && colon > eq) {
            p.key = item.left(eq).trimmed().toStdString();
            p.mean = item.mid(eq + 1, colon - eq - 1).toDouble(&okMu);
            p.sigma = item.mid(colon + 1).toDouble(&okSigma);
        }
        if (!okMu || !okSigma || !(p.sigma > 0)) {
            std::fprintf(stderr, "--prior-values %s: expected KEY=MU:SIGMA with SIGMA > 0\n", qPrintable(item));
            return 2;
        }
        p.source = "--prior-values";
        givenPriors.push_back(p);
    }
    if (!priorFrom.empty()) {
        const QFileInfo at(QString::fromLocal8Bit(priorFrom.c_str()));
        QString name = at.fileName();
        for (const char* suffix : {".csv", ".scenario.json", ".json"})
            if (name.endsWith(QLatin1String(suffix)))
                name.chop(int(std::strlen(suffix)));
        BenchmarkFile file;
        Scenario floor, fitStart;
        BenchmarkFitResult fit;
        std::vector<std::string> keys;
        for (const QString& k : QString::fromStdString(priorParams).split(QLatin1Char(','), Qt::SkipEmptyParts))
            keys.push_back(k.trimmed().toStdString());
        std::string e = loadSet(at.dir(), name, file, floor, fitStart);
        if (e.empty())
            e = calibrateBenchmark(fitStart, file.points, fo, fit);
        if (e.empty())
            e = priorsFromFit(fit, keys, name.toStdString(), priorSigmaScale, priors);
        if (!e.empty()) {
            std::fprintf(stderr, "--prior-from %s: %s\n", priorFrom.c_str(), e.c_str());
            return 2;
        }
        priorDevice = floor.hardware.name;
        priorName = name.toStdString();
        std::printf("Priors from %s (%s, in-sample fit, sigma = standard error x %g), for sets on the same device other than itself:",
                    priorName.c_str(), priorDevice.c_str(), priorSigmaScale);
        for (const ParameterPrior& p : priors)
            std::printf(" %s %.4g +- %.2g;", p.key.c_str(), p.mean, p.sigma);
        std::printf("\n  its fit: %s\n\n", fitCoefficientsText(fit).c_str());
    }

    const char* schedulerText = engine.scheduler == SchedulerVersion::V1   ? "vLLM V1 scheduler"
                                : engine.scheduler == SchedulerVersion::V0 ? "vLLM V0 scheduler"
                                : engine.scheduler == SchedulerVersion::V0PromptFirst
                                    ? "vLLM V0 scheduler without chunked prefill (prompt steps first)"
                                    : "TensorRT-LLM in-flight batching (no chunked context, GUARANTEED_NO_EVICT)";
    std::printf("ITL / TTFT MAPE, %% (benchmark prediction: simulator in closed loop / static batch, %s, "
                "token budget %s%s, max sequences %d)\n\n",
                schedulerText,
                fo.fitTokenBudget ? ("fitted on each fit's own points (" + std::to_string(fo.minTokenBudget) + " to "
                                     + std::to_string(fo.maxTokenBudget) + "; the floor and planning columns at "
                                     + std::to_string(engine.tokenBudget) + ")").c_str()
                                  : std::to_string(engine.tokenBudget).c_str(),
                engine.dynamicBatchTuning ? " at most, each step's the dynamic batch tuner's" : "",
                engine.maxSequences);
    std::printf("%-34s %6s  %-13s  %-13s  %-13s  %-13s  %-13s\n", "set", "points", "floor", "planning", "calibrated",
                "held-out conc", "held-out ISL");
    std::string details;
    for (const QString& name : names) {
        BenchmarkFile file;
        Scenario floor, fitStart;
        if (const std::string e = loadSet(dir, name, file, floor, fitStart); !e.empty()) {
            std::fprintf(stderr, "%s: %s\n", qPrintable(name), e.c_str());
            return 1;
        }
        g_loneLine = loneRequestTtftLine(file.points);
        g_loneTtftMs.clear();
        for (const BenchmarkPoint& p : file.points)
            if (p.load == BenchmarkLoad::Concurrency && p.concurrency == 1)
                if (const std::optional<double> t = p.latency(BenchmarkMetric::Ttft, BenchmarkStatistic::Mean))
                    g_loneTtftMs[{p.inputTokens, p.outputTokens}] = *t;
        // The priors only for another set on the prior's device: never the prior's own points.
        BenchmarkFitOptions setFo = fo;
        if (!priors.empty() && floor.hardware.name == priorDevice && name.toStdString() != priorName)
            setFo.priors = priors;
        setFo.priors.insert(setFo.priors.end(), givenPriors.begin(), givenPriors.end());
        Scenario planning = floor;
        planning.efficiency.bandwidth = 0.75;
        planning.efficiency.mfuPrefill = 0.40;

        const auto started = std::chrono::steady_clock::now();
        const Mape atFloor = score(floor, file.points, engine);
        const Mape atPlanning = score(planning, file.points, engine);
        BenchmarkFitResult fit;
        Mape inSample;
        std::string inSampleResiduals;
        if (!column("in-sample"))
            ;
        else if (const std::string e = calibrateBenchmark(fitStart, file.points, setFo, fit); !e.empty())
            std::fprintf(stderr, "%s: fit failed: %s\n", qPrintable(name), e.c_str());
        else {
            BenchmarkOptions fitted = engine; // with the fitted sequence cap (--fit-max-seqs)
            fitted.maxSequences = fit.calibratedEngine.maxSequences;
            inSample = score(fit.calibrated, file.points, fitted);
            if (g_residuals) // the in-sample fit's residual per point, as the held-out columns list theirs
                inSampleResiduals = loneLineText(fit.calibrated, file.points, fitted) + residualLines(fit.calibrated, file.points, fitted);
        }
        std::string concFits, islFits;
        const Mape byConcurrency = !column("concurrency") ? Mape{}
                                   : heldOut(fitStart, file.points, alternate(file.points, loadLevel),
                                             setFo, concFits);
        const Mape byPrompt = !column("prompt") ? Mape{}
                              : heldOut(fitStart, file.points, alternate(file.points, [](const BenchmarkPoint& p) { return p.inputTokens; }),
                                        setFo, islFits);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::printf("%-34s %6zu  %-13s  %-13s  %-13s  %-13s  %-13s\n", qPrintable(name), file.points.size(), atFloor.text().c_str(),
                    atPlanning.text().c_str(), inSample.text().c_str(), byConcurrency.text().c_str(), byPrompt.text().c_str());
        std::fflush(stdout);
        details += name.toStdString() + " (" + std::to_string(int(seconds)) + " s"
                   + (floor.serving.scheduler ? "; scheduler " + std::string(schedulerName(*floor.serving.scheduler))
                                                    + " from its scenario's serving.scheduler, before --scheduler"
                                              : std::string())
                   + ")\n";
        details += "  in-sample: " + fitCoefficientsText(fit) + fitSearchesText(fit) + priorText(fit) + "; " + std::to_string(fit.iterations) + " iterations, "
                   + std::to_string(fit.evaluations) + " evaluations\n";
        for (const std::string& n : fit.notes)
            details += "    note: " + n + "\n";
        details += inSampleResiduals;
        details += "  halves by concurrency:\n" + concFits + "  halves by prompt length:\n" + islFits;
    }
    std::printf("\nFits (value +- standard error from the Jacobian):\n%s", details.c_str());
    return 0;
}
