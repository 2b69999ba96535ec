// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/benchmarkpredict.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <random>
#include <thread>

#include "model/cost/messagetext.h"
#include "model/cost/steptime.h"

namespace ridgeline::model {

namespace {

/** The most clients (or batch) a benchmark point may name: what checkPoint() of model/files/benchmarkfile.cpp allows. */
constexpr double kMaxBenchmarkClients = 1e6;

/** numpy's default percentile (linear interpolation between closest ranks), as vLLM's benchmark computes them. */
double interpolated(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
        return 0;
    const double at = q * double(sorted.size() - 1);
    const size_t lo = size_t(std::floor(at));
    const size_t hi = std::min(sorted.size() - 1, lo + 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - double(lo));
}

Percentiles stats(std::vector<double>& v)
{
    Percentiles p;
    p.count = static_cast<long long>(v.size());
    if (v.empty())
        return p;
    std::sort(v.begin(), v.end());
    p.mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    p.p50 = interpolated(v, 0.50);
    p.p90 = interpolated(v, 0.90);
    p.p95 = interpolated(v, 0.95);
    p.p99 = interpolated(v, 0.99);
    p.max = v.back();
    return p;
}

/**
 * The statistics of values with weights, each value counted as its weight's worth of requests: the mean weighted, the
 * percentiles interpolated between ranks as stats() does, a value of weight w holding w consecutive ranks (so that
 * weights of 1 give stats()'s figures). count = the weights' sum, rounded. Sorts @p v ((value, weight) pairs, weights > 0).
 */
Percentiles weightedStats(std::vector<std::pair<double, double>>& v)
{
    Percentiles p;
    if (v.empty())
        return p;
    std::sort(v.begin(), v.end());
    double total = 0, sum = 0;
    for (const auto& [x, w] : v) {
        total += w;
        sum += x * w;
    }
    p.count = std::llround(total);
    p.mean = sum / total;
    auto at = [&](double q) {
        const double rank = q * std::max(0.0, total - 1);
        double before = 0; // the weight of the values before value i: its first rank
        for (size_t i = 0; i < v.size(); ++i) {
            const double end = before + v[i].second; // value i holds the ranks before to end - 1
            if (rank <= end - 1 || i + 1 == v.size()) {
                if (rank >= before || i == 0)
                    return v[i].first;
                return v[i - 1].first + (v[i].first - v[i - 1].first) * (rank - (before - 1)); // between two values' ranks
            }
            before = end;
        }
        return v.back().first;
    };
    p.p50 = at(0.50);
    p.p90 = at(0.90);
    p.p95 = at(0.95);
    p.p99 = at(0.99);
    p.max = v.back().first;
    return p;
}

std::optional<double> pick(const Percentiles& p, BenchmarkStatistic s)
{
    if (p.count == 0)
        return std::nullopt;
    switch (s) {
    case BenchmarkStatistic::Mean: return p.mean * 1e3;
    case BenchmarkStatistic::Median: return p.p50 * 1e3;
    case BenchmarkStatistic::P90: return p.p90 * 1e3;
    case BenchmarkStatistic::P95: return p.p95 * 1e3;
    case BenchmarkStatistic::P99: return p.p99 * 1e3;
    }
    return std::nullopt;
}

int tokens(double mean)
{
    return int(std::clamp(std::round(mean), 1.0, 1e7));
}

/** A uniform draw in [0, 1) from the top 53 bits of one engine output. */
double uniform01(std::mt19937_64& g)
{
    return double(g() >> 11) * 0x1.0p-53;
}

/** A standard normal draw (Box-Muller from two uniform draws; the first in (0, 1) so that its log is finite). */
double standardNormal(std::mt19937_64& g)
{
    const double u1 = (double(g() >> 11) + 0.5) * 0x1.0p-53;
    const double u2 = uniform01(g);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.14159265358979323846 * u2);
}

/**
 * One request's length drawn around @p mean tokens with @p shape and standard deviation @p sd (Workload's length
 * distribution keys), rounded and clipped to [1, max] (max 0: 1e7). Fixed or sd 0: the mean, as tokens() rounds it.
 */
int drawLength(LengthShape shape, double mean, double sd, int max, std::mt19937_64& g)
{
    double x = mean;
    if (sd > 0) {
        switch (shape) {
        case LengthShape::Fixed:
            break;
        case LengthShape::Uniform:
            x = mean + sd * std::sqrt(3.0) * (2.0 * uniform01(g) - 1.0);
            break;
        case LengthShape::Normal:
            x = mean + sd * standardNormal(g);
            break;
        case LengthShape::LogNormal: {
            const double sigma2 = std::log1p((sd * sd) / (mean * mean));
            x = std::exp(std::log(mean) - sigma2 / 2.0 + std::sqrt(sigma2) * standardNormal(g));
            break;
        }
        }
    }
    return int(std::clamp(std::round(x), 1.0, max > 0 ? double(max) : 1e7));
}

} // namespace

std::optional<double> predictedMs(const BenchmarkPrediction& p, BenchmarkMetric metric, BenchmarkStatistic statistic)
{
    switch (metric) {
    case BenchmarkMetric::Ttft: return pick(p.ttft, statistic);
    case BenchmarkMetric::Tpot: return pick(p.tpot, statistic);
    case BenchmarkMetric::Itl: return pick(p.itl, statistic);
    case BenchmarkMetric::EndToEnd: return pick(p.endToEnd, statistic);
    case BenchmarkMetric::EndToEndPerOutputToken: return pick(p.endToEndPerOutputToken, statistic);
    }
    return std::nullopt;
}

namespace {

constexpr BenchmarkStatistic kStatistics[] = {BenchmarkStatistic::Mean, BenchmarkStatistic::Median, BenchmarkStatistic::P90,
                                              BenchmarkStatistic::P95, BenchmarkStatistic::P99};

std::optional<ComparedLatency> compare(const BenchmarkPoint& point, const BenchmarkPrediction& prediction,
                                       std::initializer_list<BenchmarkMetric> metrics)
{
    for (const BenchmarkMetric m : metrics)
        for (const BenchmarkStatistic s : kStatistics)
            if (const auto measured = point.latency(m, s)) {
                const auto predicted = predictedMs(prediction, m, s);
                if (!predicted)
                    return std::nullopt;
                return ComparedLatency{m, s, *measured, *predicted, (*predicted - *measured) / *measured};
            }
    return std::nullopt;
}

} // namespace

std::optional<ComparedLatency> compareItl(const BenchmarkPoint& point, const BenchmarkPrediction& prediction)
{
    return compare(point, prediction, {BenchmarkMetric::Itl, BenchmarkMetric::Tpot, BenchmarkMetric::EndToEndPerOutputToken});
}

std::optional<ComparedLatency> compareTtft(const BenchmarkPoint& point, const BenchmarkPrediction& prediction)
{
    return compare(point, prediction, {BenchmarkMetric::Ttft});
}

std::optional<ClosedLoopOccupancy> measuredClosedLoop(const BenchmarkPoint& point)
{
    if (point.load != BenchmarkLoad::Concurrency || !(point.concurrency > 0) || !(point.outputTokens >= 1))
        return std::nullopt;
    const std::optional<double> ttftMs = point.latency(BenchmarkMetric::Ttft, BenchmarkStatistic::Mean);
    std::optional<double> gapMs = point.latency(BenchmarkMetric::Itl, BenchmarkStatistic::Mean);
    if (!gapMs)
        gapMs = point.latency(BenchmarkMetric::Tpot, BenchmarkStatistic::Mean);
    if (!ttftMs || !gapMs || !(*ttftMs >= 0) || !(*gapMs >= 0))
        return std::nullopt;
    const double ttft = *ttftMs / 1e3, decode = (point.outputTokens - 1) * *gapMs / 1e3;
    if (!(ttft + decode > 0) || !std::isfinite(ttft + decode))
        return std::nullopt;
    ClosedLoopOccupancy o;
    o.requestsPerSecond = point.concurrency / (ttft + decode);
    o.outputTokensPerSecond = o.requestsPerSecond * point.outputTokens;
    o.decoding = o.requestsPerSecond * decode;
    o.beforeFirstToken = o.requestsPerSecond * ttft;
    return o;
}

std::optional<TtftLine> fitTtftLine(const std::vector<std::pair<double, double>>& promptTokensAndTtftMs)
{
    const auto& xy = promptTokensAndTtftMs;
    if (xy.size() < 2)
        return std::nullopt;
    double mx = 0, my = 0;
    for (const auto& [x, y] : xy) {
        if (!std::isfinite(x) || !std::isfinite(y))
            return std::nullopt;
        mx += x;
        my += y;
    }
    mx /= double(xy.size());
    my /= double(xy.size());
    double sxx = 0, sxy = 0;
    for (const auto& [x, y] : xy) {
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
    }
    if (!(sxx > 0)) // one prompt length: no slope
        return std::nullopt;
    TtftLine line;
    line.slopeMsPerToken = sxy / sxx;
    line.interceptMs = my - line.slopeMsPerToken * mx;
    line.points = int(xy.size());
    return line;
}

std::optional<TtftLine> loneRequestTtftLine(const std::vector<BenchmarkPoint>& points, double maxPromptTokens)
{
    std::vector<std::pair<double, double>> xy;
    for (const BenchmarkPoint& p : points)
        if (p.load == BenchmarkLoad::Concurrency && p.concurrency == 1 && p.inputTokens <= maxPromptTokens)
            if (const std::optional<double> t = p.latency(BenchmarkMetric::Ttft, BenchmarkStatistic::Mean))
                xy.emplace_back(p.inputTokens, *t);
    return fitTtftLine(xy);
}

std::optional<double> loadedPrefillWait(double ttftMs, double concurrency, double loneTtftMs, double interceptMs)
{
    const double prefillMs = loneTtftMs - interceptMs;
    if (!(concurrency > 1) || !(prefillMs > 0) || !std::isfinite(ttftMs) || !std::isfinite(loneTtftMs) || !std::isfinite(concurrency))
        return std::nullopt;
    return (ttftMs - loneTtftMs) / ((concurrency - 1) / 2 * prefillMs);
}

ClosedLoopOccupancy predictedOccupancy(const BenchmarkPrediction& prediction)
{
    ClosedLoopOccupancy o;
    o.requestsPerSecond = prediction.requestsPerSecond;
    o.outputTokensPerSecond = prediction.outputTokensPerSecond;
    o.decoding = prediction.requestsPerSecond * std::max(0.0, prediction.endToEnd.mean - prediction.ttft.mean);
    o.beforeFirstToken = prediction.requestsPerSecond * prediction.ttft.mean;
    return o;
}

std::string predictBenchmark(const Scenario& scenario, const BenchmarkPoint& point, const BenchmarkOptions& options,
                             BenchmarkPrediction& out)
{
    const int prompt = tokens(point.inputTokens);
    const int output = tokens(point.outputTokens);
    // Bounded before any cast: a cap of 1e12 clients would overflow the int the simulator takes (undefined behaviour).
    if (!(point.concurrency >= 0 && point.concurrency <= kMaxBenchmarkClients))
        return point.label + ": concurrency = " + messageNumber(point.concurrency) + ": expected 0 to "
               + messageNumber(kMaxBenchmarkClients) + " clients";
    const long long clients = static_cast<long long>(std::llround(point.concurrency));

    SimulationConfig config;
    config.policy = BatchingPolicy::Chunked;
    config.scheduler = scenario.serving.scheduler.value_or(options.scheduler); // serving.scheduler, when set, before the option
    // serving.max_num_tokens, when the scenario sets it (a calibrated or known engine value), before the option's default.
    config.tokenBudget = std::max(1, scenario.serving.maxNumTokens > 0 ? scenario.serving.maxNumTokens : options.tokenBudget);
    config.maxSequences = std::max(1, options.maxSequences);
    config.maxPrefillsPerStep = std::max(0, scenario.serving.maxPrefillsPerStep > 0 ? scenario.serving.maxPrefillsPerStep
                                                                                  : options.maxPrefillsPerStep);
    config.dynamicBatchTuning = scenario.serving.dynamicBatchTuning || options.dynamicBatchTuning;
    config.blockTokens = std::max(1, scenario.serving.blockTokens);
    config.kvSeriesPoints = 2;
    config.classes.resize(2);
    config.classes[0].name = "warm-up";
    config.classes[1].name = "measured";

    // The requests, in sending order; class 1 is what the benchmark measures.
    std::vector<Request> requests;
    long long n = 0, warm = 0, measured = 0;
    switch (point.load) {
    case BenchmarkLoad::StaticBatch:
        config.policy = BatchingPolicy::Static;
        config.maxSequences = int(std::max<long long>(1, clients));
        n = measured = clients;
        break;
    case BenchmarkLoad::Concurrency:
        config.closedLoopClients = int(clients);
        // The client's worker threads (BenchmarkOptions::clientThreads, h13ay): GenAI-Perf's concurrency mode only.
        config.clientThreads = std::max(0, options.clientThreads);
        config.clientTurnaroundSeconds = std::max(0.0, options.clientTurnaroundSeconds);
        if (point.steadyState) {
            // Warm-up (the first N), the window, then the last N draining the loop: the window sees N in flight.
            warm = clients;
            measured = std::max(options.measuredRequests, clients);
            n = warm + measured + clients;
        } else {
            n = measured = point.requests > 0 ? std::min(point.requests, options.maxRequests) : std::max(options.measuredRequests, 2 * clients);
        }
        break;
    case BenchmarkLoad::RequestRate:
        if (clients > 0)
            config.closedLoopClients = int(clients);
        n = measured = point.requests > 0 ? std::min(point.requests, options.maxRequests) : std::max<long long>(options.measuredRequests, 200);
        break;
    }
    // A whole-run point that lists its requests' own lengths (vLLM's input_lens / output_lens) runs exactly those
    // requests, in the file's (sending) order, up to maxRequests.
    const bool listed = !point.inputLengths.empty() && point.inputLengths.size() == point.outputLengths.size();
    if (listed && point.load != BenchmarkLoad::StaticBatch && !point.steadyState)
        n = measured = std::min(static_cast<long long>(point.inputLengths.size()), options.maxRequests);
    if (n < 1 || n > kMaxSimulationRequests)
        return point.label + ": " + messageNumber(double(n)) + " requests to simulate; expected 1 to " + messageNumber(double(kMaxSimulationRequests));
    requests.resize(size_t(n));
    std::mt19937_64 engine(options.seed);
    // Lengths drawn from the scenario's distributions (workload.*_length_distribution) when the point lists none: a
    // stream of their own, seeded, so that every parameter set of a fit sees the same requests and the Poisson arrivals
    // are those of fixed lengths.
    const Workload& w = scenario.workload;
    const bool drawInput = !listed && w.inputLengthShape != LengthShape::Fixed && w.inputLengthSd > 0;
    const bool drawOutput = !listed && w.outputLengthShape != LengthShape::Fixed && w.outputLengthSd > 0;
    std::mt19937_64 lengthEngine(options.seed ^ 0x9E3779B97F4A7C15ULL);
    double t = 0;
    for (long long i = 0; i < n; ++i) {
        Request& r = requests[size_t(i)];
        if (point.load == BenchmarkLoad::RequestRate && std::isfinite(point.requestRatePerSecond) && i > 0)
            t += -std::log((double(engine() >> 11) + 0.5) * 0x1.0p-53) / point.requestRatePerSecond;
        r.arrivalSeconds = t;
        if (listed) {
            // An output of 0 tokens (an empty text: the first token ended the sequence) is one engine token.
            const size_t k = size_t(i) % point.inputLengths.size();
            r.promptTokens = std::max(1, point.inputLengths[k]);
            r.outputTokens = std::max(1, point.outputLengths[k]);
        } else {
            r.promptTokens = drawInput ? drawLength(w.inputLengthShape, point.inputTokens, w.inputLengthSd, w.inputLengthMax, lengthEngine) : prompt;
            r.outputTokens = drawOutput ? drawLength(w.outputLengthShape, point.outputTokens, w.outputLengthSd, w.outputLengthMax, lengthEngine) : output;
        }
        r.classIndex = (i >= warm && i < warm + measured) ? 1 : 0;
    }

    const StepCost cost(scenario);
    const double capacity = double(cost.totalLayerBlocks(config.blockTokens))
                            / double(std::max<long long>(1, cost.layerBlocks(static_cast<long long>(prompt) + output, config.blockTokens)));
    if (cost.totalLayerBlocks(config.blockTokens) <= 0)
        return point.label + ": the weights leave no KV cache on this hardware (hardware.memory_bytes x serving.memory_utilization "
                             "is below the weights); nothing can be served";
    if (capacity < 1)
        return point.label + ": one request of " + messageNumber(prompt) + " + " + messageNumber(output)
               + " tokens needs more KV than the budget holds (" + messageNumber(capacity) + " of one); the server would reject it";
    // A listed or drawn request whose KV can never fit is rejected by the simulator and left out of the statistics.

    if ((options.staggerClients || options.randomClientStarts) && point.load == BenchmarkLoad::Concurrency && point.steadyState
        && clients > 1) {
        // Started together (as the tools start them), equal requests stay in lockstep: all prefilling in one step,
        // all finishing in another. Staggered, the warm-up clients start spread over one estimated request time:
        // prefill alone plus OSL steps of the batch the clients (or the KV) allow, at the mean context.
        StepTotals prefill, decode;
        cost.addPrefill(prefill, 0, prompt);
        const double batch = std::min({double(clients), std::max(1.0, std::floor(capacity)), double(config.maxSequences)});
        for (int b = 0; b < int(batch); ++b)
            cost.addDecode(decode, prompt + output / 2.0);
        const double cycle = cost.seconds(prefill) + double(output) * cost.seconds(decode);
        // Evenly spread (staggerClients), or at seeded uniform times over the cycle (randomClientStarts), sorted so
        // that the sending order is kept.
        std::vector<double> starts(static_cast<size_t>(warm));
        for (long long i = 0; i < warm; ++i)
            starts[size_t(i)] = cycle * double(i) / double(clients);
        if (options.randomClientStarts) {
            std::mt19937_64 startEngine(options.seed);
            for (double& start : starts)
                start = cycle * double(startEngine() >> 11) * 0x1.0p-53;
            std::sort(starts.begin(), starts.end());
        }
        for (long long i = 0; i < n; ++i) // the later ones no earlier than the last client's start: sending order kept
            requests[size_t(i)].arrivalSeconds = starts[size_t(std::min(i, warm - 1))];
    }
    // A static-batch benchmark (TensorRT-LLM's) hands the engine its batch directly: no serving front end to pass.
    Scenario run = scenario;
    if (point.load == BenchmarkLoad::StaticBatch) {
        run.efficiency.frontendSerialSeconds = 0;
        run.efficiency.tokenGateSeconds = 0;
        run.serving.apiOutputSeconds = 0;
        run.efficiency.firstTokenReturnSeconds = 0; // no stream to start: the benchmark reads the engine's output
    }
    // A burst accepted before the engine's first step (BenchmarkOptions::burstAcceptanceSeconds, h13ar): every request
    // of a point sent all at once reaches the engine when the whole burst has been accepted.
    const bool burst = point.load == BenchmarkLoad::RequestRate && !std::isfinite(point.requestRatePerSecond) && clients == 0;
    if (burst && options.burstAcceptanceSeconds > 0)
        run.efficiency.ttftOverheadSeconds += double(n) * options.burstAcceptanceSeconds;
    const int rounds = std::max(1, options.streamIntervalSteps);
    if (rounds > 1)
        config.recordTokenTimes = true; // the engine's steps are the distinct token times (every step here emits a token)
    const int lag = std::max(0, options.outputLagSteps);
    if (lag > 0 || options.ttftParts)
        config.recordStepTimes = true;
    const SimulationResult result = simulate(run, config, requests);
    // The output lag (BenchmarkOptions::outputLagSteps): a token emitted at the end of a step reaches the client at the
    // end of the step lag steps later, each of them started right as the one before ended; where the engine went idle
    // instead, at the end of the last step before the idle time.
    const std::vector<double>& stepStarts = result.stepStarts;
    const std::vector<double>& engineStepEnds = result.stepEnds;
    auto lagged = [&](double seconds) {
        if (lag == 0 || engineStepEnds.empty())
            return seconds;
        size_t step = size_t(std::lower_bound(engineStepEnds.begin(), engineStepEnds.end(), seconds) - engineStepEnds.begin());
        if (step >= engineStepEnds.size() || engineStepEnds[step] != seconds)
            return seconds; // not a step's end (the API server's output path moved it): as it is
        for (int k = 0; k < lag && step + 1 < engineStepEnds.size() && stepStarts[step + 1] <= engineStepEnds[step]; ++k)
            ++step;
        return engineStepEnds[step];
    };
    // Streaming in rounds (BenchmarkOptions::streamIntervalSteps): the end of every engine step that emitted a token, in
    // order; a request's last token reaches its client at the end of the round holding its step (h13ap).
    std::vector<double> stepEnds;
    if (rounds > 1) {
        for (const double t : result.tokenTimes)
            if (std::isfinite(t))
                stepEnds.push_back(t);
        std::sort(stepEnds.begin(), stepEnds.end());
        stepEnds.erase(std::unique(stepEnds.begin(), stepEnds.end()), stepEnds.end());
    }
    auto delivered = [&](double engineSeconds) {
        if (stepEnds.empty())
            return engineSeconds;
        const size_t step = size_t(std::lower_bound(stepEnds.begin(), stepEnds.end(), engineSeconds) - stepEnds.begin());
        const size_t roundEnd = (step / size_t(rounds) + 1) * size_t(rounds) - 1; // steps counted from 0: rounds end at K - 1, 2K - 1, ...
        return stepEnds[std::min(roundEnd, stepEnds.size() - 1)];
    };
    BenchmarkPrediction p;
    std::vector<double> ttft, tpot, e2e, perToken;
    // GenAI-Perf's window from the run's start (BenchmarkOptions::measurementWindowSeconds): the first wave's requests
    // (the first N, sent as the run starts) as well, each with its finish as the client sees it.
    // The run's own window where the options give none and ask for the points' (BenchmarkOptions::pointMeasurementWindows).
    const double windowSeconds = options.measurementWindowSeconds > 0 ? options.measurementWindowSeconds
                                 : options.pointMeasurementWindows   ? point.measurementWindowSeconds
                                                                     : 0.0;
    const bool window = windowSeconds > 0 && point.load == BenchmarkLoad::Concurrency && point.steadyState && warm > 0;
    std::vector<double> waveTtft, waveTpot, waveE2e, wavePerToken, waveFinished;
    double first = std::numeric_limits<double>::infinity(), last = -first, outTokens = 0, inTokens = 0;
    for (size_t i = 0; i < result.requests.size(); ++i) {
        const RequestResult& r = result.requests[i];
        const bool wave = window && i < size_t(warm);
        if ((r.classIndex != 1 && !wave) || r.rejected || std::isnan(r.finishedSeconds))
            continue;
        // vLLM's benchmark client times the first token at the first streamed chunk with text; a request whose text is
        // empty (output_lens 0) never sets it and enters the TTFT statistics as 0 (benchmark_serving.py, vLLM 0.5.x:
        // `ttft = 0.0` until a chunk with text arrives; docs/cost-model.md, "Length distributions"). Counted the same.
        const bool emptyText = listed && i < size_t(n) && point.outputLengths[i % point.outputLengths.size()] == 0;
        // The first and the last token as the client sees them: at their steps, the last at the end of its streaming
        // round (only after the first), both the output lag later.
        const double firstSeen = lagged(r.firstTokenSeconds);
        const double finished = lagged(r.outputTokens >= 2 ? delivered(r.finishedSeconds) : r.finishedSeconds);
        const double endToEnd = finished - r.arrivalSeconds;
        const double requestTtft = emptyText ? 0.0 : (lag > 0 ? firstSeen - r.arrivalSeconds : r.ttftSeconds());
        const double requestTpot = std::isnan(r.tpotSeconds) ? r.tpotSeconds
                                   : finished == r.finishedSeconds && firstSeen == r.firstTokenSeconds
                                       ? r.tpotSeconds
                                       : (finished - firstSeen) / double(r.outputTokens - 1);
        if (wave) {
            waveTtft.push_back(requestTtft);
            waveE2e.push_back(endToEnd);
            wavePerToken.push_back(endToEnd / double(r.outputTokens));
            waveTpot.push_back(requestTpot);
            waveFinished.push_back(finished);
            if (r.classIndex != 1)
                continue;
        }
        ttft.push_back(requestTtft);
        e2e.push_back(endToEnd);
        perToken.push_back(endToEnd / double(r.outputTokens));
        if (!std::isnan(requestTpot))
            tpot.push_back(requestTpot);
        first = std::min(first, r.arrivalSeconds);
        last = std::max(last, finished);
        outTokens += r.outputTokens;
        inTokens += r.promptTokens;
    }
    if (ttft.empty())
        return point.label + ": no measured request completed in the simulation";
    p.measuredRequests = static_cast<long long>(ttft.size());
    p.simulatedRequests = n;
    p.ttft = stats(ttft);
    p.tpot = stats(tpot);
    p.endToEnd = stats(e2e);
    p.endToEndPerOutputToken = stats(perToken);
    p.itl = result.classes.at(1).latency.itl;
    // Whole run: the benchmark's duration (first sent to last finished). Steady state: whole waves of N sendings, from
    // the sending of the first measured request to that of the request k N later (k = the measured requests / N, rounded
    // up: the draining requests are sent in the steady state too), and the requests sent at or after the first and
    // before the last of these instants, whichever class they are, with their tokens. Each of those sends answers a
    // completion, N in flight throughout; a closed loop whose sendings repeat with every client sending once a period
    // spans whole periods, so that the throughput is exact whether the clients send apart, in lockstep (all N at one
    // instant) or in groups (the measured number, max(64, N), counted over the span of its sendings overstated it when
    // no multiple of N: 64 at N = 25 over two waves of 25, +28 %; h13au, h13aw).
    double span = last - first, spanRequests = double(p.measuredRequests);
    const long long waves = clients > 0 ? (measured + clients - 1) / clients : 0;
    if (point.load == BenchmarkLoad::Concurrency && point.steadyState && waves > 0 && size_t(warm + waves * clients) < result.requests.size()) {
        const double from = result.requests[size_t(warm)].arrivalSeconds, to = result.requests[size_t(warm + waves * clients)].arrivalSeconds;
        span = to - from;
        spanRequests = outTokens = inTokens = 0;
        for (const RequestResult& r : result.requests)
            if (r.arrivalSeconds >= from && r.arrivalSeconds < to) {
                ++spanRequests;
                outTokens += r.outputTokens;
                inTokens += r.promptTokens;
            }
    }
    if (span > 0) {
        p.requestsPerSecond = spanRequests / span;
        p.outputTokensPerSecond = outTokens / span;
        p.totalTokensPerSecond = (outTokens + inTokens) / span;
    }
    p.meanInFlight = p.requestsPerSecond * p.endToEnd.mean;
    if (window && !waveTtft.empty()) {
        // GenAI-Perf's window (BenchmarkOptions::measurementWindowSeconds): the first wave's requests that finish within
        // it, once each, and the steady state's, weighted to the number the window holds after each client's first
        // request: (window - that request's finish) / the steady mean E2E, summed over the clients (Little's law for N
        // clients without think time: throughput N / E2E; requestsPerSecond counts a span of whole sending waves and
        // overstates it in lockstep when the measured requests are no multiple of N).
        const double start = requests.front().arrivalSeconds;
        double clientSeconds = 0;
        for (const double f : waveFinished)
            clientSeconds += std::max(0.0, windowSeconds - (f - start));
        const double steady = p.endToEnd.mean > 0 ? clientSeconds / p.endToEnd.mean : 0;
        const bool anyWave = std::any_of(waveFinished.begin(), waveFinished.end(), [&](double f) { return f - start <= windowSeconds; });
        // A window that no request finishes in: perf_analyzer measures on until some do; the first wave stands for them.
        const bool allWave = !anyWave && !(steady > 0);
        std::vector<std::pair<double, double>> wTtft, wTpot, wE2e, wPerToken;
        for (size_t k = 0; k < waveTtft.size(); ++k) {
            if (!allWave && waveFinished[k] - start > windowSeconds)
                continue;
            wTtft.emplace_back(waveTtft[k], 1.0);
            wE2e.emplace_back(waveE2e[k], 1.0);
            wPerToken.emplace_back(wavePerToken[k], 1.0);
            if (!std::isnan(waveTpot[k]))
                wTpot.emplace_back(waveTpot[k], 1.0);
        }
        if (steady > 0) {
            const double each = steady / double(ttft.size());
            for (size_t k = 0; k < ttft.size(); ++k) {
                wTtft.emplace_back(ttft[k], each);
                wE2e.emplace_back(e2e[k], each);
                wPerToken.emplace_back(perToken[k], each);
            }
            for (const double x : tpot)
                wTpot.emplace_back(x, steady / double(tpot.size()));
        }
        p.firstWaveTtft = stats(waveTtft);
        p.firstWaveEndToEnd = stats(waveE2e);
        p.windowSteadyRequests = steady;
        p.ttft = weightedStats(wTtft);
        p.tpot = weightedStats(wTpot);
        p.endToEnd = weightedStats(wE2e);
        p.endToEndPerOutputToken = weightedStats(wPerToken);
        p.measuredRequests = p.ttft.count;
    }
    if (options.ttftParts && point.load == BenchmarkLoad::Concurrency && !result.stepStarts.empty()) {
        // The parts of each measured request's TTFT (TtftParts): its hand-over by the serial front end and the per-request
        // delay, both read from when the simulator says the engine saw it (RequestResult::engineArrivalSeconds), then the
        // engine's steps by their starts.
        TtftParts& q = p.ttftParts;
        const double delay = std::max(0.0, run.efficiency.ttftOverheadSeconds);
        const double ret = std::max(0.0, run.efficiency.firstTokenReturnSeconds);
        const std::vector<double>& starts = result.stepStarts;
        double stepsWithWaits = 0;
        for (const RequestResult& r : result.requests) {
            if (r.classIndex != 1 || r.rejected || std::isnan(r.firstTokenSeconds) || std::isnan(r.admittedSeconds))
                continue;
            const double engineArrival = r.engineArrivalSeconds;
            const double handed = engineArrival - delay;
            const size_t s0 = size_t(std::lower_bound(starts.begin(), starts.end(), engineArrival - 1e-12) - starts.begin());
            const size_t own = size_t(std::lower_bound(starts.begin(), starts.end(), r.admittedSeconds - 1e-12) - starts.begin());
            if (own >= starts.size())
                continue;
            const double nextStart = s0 < starts.size() ? std::min(starts[s0], r.admittedSeconds) : r.admittedSeconds;
            ++q.requests;
            q.frontEnd += handed - r.arrivalSeconds;
            q.requestDelay += delay;
            q.stepInProgress += std::max(0.0, nextStart - engineArrival);
            q.stepsWaited += r.admittedSeconds - nextStart;
            q.stepsWaitedCount += double(own > s0 ? own - s0 : 0);
            for (size_t k = s0; k < own; ++k) {
                q.waitedPrefillTokens += result.stepPrefillTokens[k];
                q.waitedDecodes += result.stepDecodes[k];
                stepsWithWaits += 1;
            }
            q.prefillStep += result.stepEnds[own] - r.admittedSeconds;
            StepTotals alone;
            cost.addPrefill(alone, 0, r.promptTokens);
            q.prefillAlone += cost.seconds(alone);
            q.ownStepPrefillTokens += result.stepPrefillTokens[own];
            q.ownStepDecodes += result.stepDecodes[own];
            q.firstTokenReturn += ret;
            q.other += r.firstTokenSeconds - result.stepEnds[own] - ret;
        }
        if (q.requests > 0) {
            const double n = double(q.requests);
            for (double* x : {&q.frontEnd, &q.requestDelay, &q.stepInProgress, &q.stepsWaited, &q.prefillStep, &q.prefillAlone,
                              &q.firstTokenReturn, &q.other, &q.stepsWaitedCount, &q.ownStepPrefillTokens, &q.ownStepDecodes})
                *x /= n;
            if (stepsWithWaits > 0) {
                q.waitedPrefillTokens /= stepsWithWaits;
                q.waitedDecodes /= stepsWithWaits;
            }
        }
    }
    p.meanBatch = result.meanSequences;
    p.peakSequences = result.peakSequences;
    p.preemptions = result.preemptions;
    p.steps = result.steps;
    p.mixedSteps = result.mixedSteps;
    p.busySeconds = result.busySeconds;
    p.overheadSeconds = result.overheadSeconds;
    p.chunkOverheadSeconds = result.chunkOverheadSeconds;
    p.commSeconds = result.commSeconds;
    p.kvCapacitySequences = capacity;
    out = p;
    return {};
}

std::vector<PointPrediction> predictBenchmarks(const Scenario& scenario, const std::vector<BenchmarkPoint>& points,
                                               const BenchmarkOptions& options)
{
    std::vector<PointPrediction> out(points.size());
    std::atomic<size_t> next{0};
    auto work = [&]() {
        for (size_t i; (i = next.fetch_add(1)) < points.size();)
            out[i].error = predictBenchmark(scenario, points[i], options, out[i].prediction);
    };
    const unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), unsigned(points.size())));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& t : pool)
        t.join();
    return out;
}

} // namespace ridgeline::model
