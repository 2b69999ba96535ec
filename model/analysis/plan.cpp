// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include "model/cost/costmodel.h"
#include "model/cost/costterms.h"
#include "model/cost/formulatext.h"
#include "model/cost/presets.h"
#include "model/cost/scenariokeys.h"
#include "model/cost/steptime.h"
#include "model/sim/simulator.h"

namespace ridgeline::model {

namespace {

constexpr double kSecondsPerHour = 3600.0;
constexpr double kMillion = 1e6;

std::optional<double> positive(double v)
{
    return v > 0 && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

/** ceil(x) for a positive finite x, at least 1, without counting rounding noise as a whole unit. */
/** The most instances (replicas, or either pool) one plan may have: a load needing more is not planned (it overflowed
 *  int and came out as a 1-GPU fleet at a negative ITL in a trial). A hundred thousand instances is far past any fleet. */

int wholeUnits(double x)
{
    if (!(x > 0) || !std::isfinite(x))
        return 1;
    return std::max(1, int(std::ceil(x - 1e-9)));
}

/**
 * Mean queue wait of an M/D/1 queue with service time @p service at utilization @p rho < 1:
 * rho * service / (2 (1 - rho)) (Pollaczek-Khinchine with zero service variance).
 */
double mdOneWaitSeconds(double rho, double service)
{
    return rho > 0 ? rho * service / (2.0 * (1.0 - rho)) : 0.0;
}

/**
 * Mean ITL (TPOT) of a colocated instance, s: the time average t_step / (1 - rho) (decode pauses while a prompt
 * prefills, rho = lambda_i t_pre), plus the prefills of the requests that arrived while its own prompt prefilled
 * (lambda_i t_pre of them on average, t_pre each), which run before its next token and land on its O - 1 intervals:
 * ITL = t_step / (1 - rho) + rho t_pre / (O - 1). The second term is negligible for long outputs and dominant when one
 * prefill outlasts a request's whole decode (issue 14, h14g: 2M-token prompts with 10 output tokens read about 600
 * times low as the time average). An upper estimate: the simulator, which prefills several waiting prompts in one
 * step, measured 324 ms where this gives 598 ms and the time average 65 ms (tst_plan::longPromptStallLandsOnFewTokens).
 * O < 2 (no interval): the time average alone.
 */
double colocatedItlSeconds(double step, double pre, double rho, double outputTokens)
{
    const double base = step / (1.0 - rho);
    return outputTokens >= 2 ? base + rho * pre / (outputTokens - 1.0) : base;
}

/**
 * Largest utilization rho of an M/D/1 queue with service @p service whose mean wait stays within @p slack:
 * rho * s / (2 (1 - rho)) <= x  <=>  rho <= 2x / (s + 2x). nullopt when @p slack <= 0.
 */
/**
 * The lowest utilization a pool (a colocated instance's prefills, or a prefill pool) is sized for. A TTFT SLO
 * barely above one prefill leaves almost no room to queue, and M/D/1 then asks for a pool at a fraction of a
 * percent busy (a trial found 1,196 prefill instances, 9,576 GPUs, for one 32k-prompt plan). Sized at this floor
 * instead, such a plan shows the TTFT it would have and misses the SLO: nobody buys a pool to run it 95 % idle.
 * A planning convention, not a fact (docs/cost-model.md section 5).
 */
constexpr double kMinPoolUtilization = 0.05;

std::optional<double> utilizationWithin(double slack, double service)
{
    if (!(slack > 0))
        return std::nullopt;
    if (!(service > 0))
        return 1.0;
    return 2.0 * slack / (service + 2.0 * slack);
}

} // namespace

// ------------------------------------------------------------------------------------------------
// Economics
// ------------------------------------------------------------------------------------------------

OperatingCost operatingCost(const EconomicsInputs& e, double gpus, double outputTokensPerSecond, double inputTokensPerSecond,
                            double prefillShare)
{
    OperatingCost c;
    const double share = std::clamp(std::isfinite(prefillShare) ? prefillShare : 0.0, 0.0, 1.0);
    const std::optional<double> price = e.pricePerGpuHour ? positive(*e.pricePerGpuHour) : std::nullopt;
    const std::optional<double> power = e.boardPowerWatts ? positive(*e.boardPowerWatts) : std::nullopt;
    const double pue = e.pue >= 1.0 && std::isfinite(e.pue) ? e.pue : kDefaultPue;
    const bool out = outputTokensPerSecond > 0 && std::isfinite(outputTokensPerSecond) && gpus > 0;
    const bool in = inputTokensPerSecond > 0 && std::isfinite(inputTokensPerSecond) && gpus > 0;
    if (price && gpus > 0) {
        const double perHour = gpus * *price;
        c.costPerHour = perHour;
        const double perSecond = perHour / kSecondsPerHour;
        if (out) {
            c.costPerMillionOutputTokensAllIn = perSecond / outputTokensPerSecond * kMillion;
            c.costPerMillionOutputTokens = (1.0 - share) * perSecond / outputTokensPerSecond * kMillion;
        }
        if (in)
            c.costPerMillionInputTokens = share * perSecond / inputTokensPerSecond * kMillion;
    }
    if (power && gpus > 0) {
        const double facility = gpus * *power * pue;
        c.facilityPowerWatts = facility;
        if (out) {
            c.joulesPerOutputToken = facility / outputTokensPerSecond;
            c.outputTokensPerSecondPerMegawatt = outputTokensPerSecond / (facility / kMillion);
        }
    }
    return c;
}

OperatingCost operatingCost(const EconomicsInputs& economics, const Scenario& s, const Evaluation& ev)
{
    const WorkloadResult& w = ev.workload;
    const double requestSeconds = w.prefillSecondsPerRequest + w.decodeSecondsPerRequest;
    const double requestsPerSecond = requestSeconds > 0 ? 1.0 / requestSeconds : 0.0;
    return operatingCost(economics, std::max(1, s.hardware.gpus), requestsPerSecond * s.workload.outputTokens,
                         requestsPerSecond * s.workload.promptTokens, w.prefillShare);
}

namespace {

/** The example price file, read once: its currency and prices per GPU-hour. */
struct ExamplePrices {
    std::string currency = "USD";
    std::map<std::string, double> prices;
};

const ExamplePrices& examplePrices()
{
    static const ExamplePrices prices = [] {
        ExamplePrices out;
        QFile f(QStringLiteral(":/plans/gpu-prices-example.json"));
        if (!f.open(QIODevice::ReadOnly))
            return out;
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        if (const QString c = root.value(QStringLiteral("currency")).toString(); !c.isEmpty())
            out.currency = c.toStdString();
        const QJsonObject o = root.value(QStringLiteral("prices_per_gpu_hour")).toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (it.value().isDouble() && it.value().toDouble() > 0)
                out.prices[it.key().toStdString()] = it.value().toDouble();
        return out;
    }();
    return prices;
}

} // namespace

std::optional<double> examplePricePerGpuHour(const std::string& deviceId)
{
    const auto& prices = examplePrices().prices;
    const auto it = prices.find(deviceId);
    return it == prices.end() ? std::nullopt : std::optional<double>(it->second);
}

std::string examplePriceCurrency()
{
    return examplePrices().currency;
}

bool examplePricesApply(const std::string& currency)
{
    return QString::fromStdString(currency).compare(QString::fromStdString(examplePriceCurrency()), Qt::CaseInsensitive) == 0;
}

std::string acceleratorNoun(const Hardware& hardware, bool plural)
{
    const bool tpu = hardware.name.rfind("TPU", 0) == 0;
    return std::string(tpu ? "TPU" : "GPU") + (plural ? "s" : "");
}

std::string noGpuLinkReason(const std::string& link)
{
    return link.rfind("no GPU-to-GPU link", 0) == 0 ? link : std::string();
}

// ------------------------------------------------------------------------------------------------
// Layout
// ------------------------------------------------------------------------------------------------

// layoutRefusal() lives in model/cost/parallellayout.cpp: the simulator checks a simulation file's layout with it.

std::vector<ParallelLayout> layoutsFor(const ModelShape& m, int gpus)
{
    std::vector<ParallelLayout> out;
    for (int pp = 1; pp <= gpus; ++pp) {
        if (gpus % pp != 0)
            continue;
        const int w = gpus / pp;
        for (int tp = 1; tp <= w; ++tp) {
            if (w % tp != 0)
                continue;
            for (int ep = 1; ep <= w; ++ep) {
                if (w % ep != 0 || std::max(tp, ep) != w)
                    continue;
                const ParallelLayout l{tp, pp, ep, 0};
                if (layoutRefusal(m, l).empty())
                    out.push_back(l);
            }
        }
    }
    return out;
}

namespace {

/** evaluateLayout() of a layout layoutRefusal() accepts, without asking it again (searchPlans() asks once per layout,
 *  not once per batch cap and device: docs/performance.md, "Plan tab, one frame"). */
LayoutResult evaluateAcceptedLayout(const Scenario& s0, const ParallelLayout& l, double batch, double context, double prompt,
                                    double capacityContext)
{
    LayoutResult r;
    Scenario s = s0;
    s.hardware.gpus = l.tp;
    // The instance's step time, weights and KV budget: StepCost of the layout (model/cost/steptime.h), the one
    // implementation the serving simulator prices its steps with too. The cost terms at T = tp give the per-sequence
    // cache and the reported byte counts.
    const StepCost cost(s, l);
    const CostTerms t = costTerms(s);
    const double tp = l.tp, pp = l.pp, ep = l.ep, w = l.stageWidth(), groups = l.attentionGroups();
    r.gpus = l.gpus();
    r.weightBytesPerGpu = cost.weightBytesPerGpu();
    r.kvBudgetBytesPerGpu = cost.kvBudgetBytes();
    r.weightsFit = r.kvBudgetBytesPerGpu > 0;
    r.kvBytesPerSequencePerGpu = t.cacheBytesPerSequence(capacityContext) / pp;
    if (r.weightsFit)
        r.maxSequences = r.kvBytesPerSequencePerGpu > 0
            ? static_cast<long long>(groups * std::floor(r.kvBudgetBytesPerGpu / r.kvBytesPerSequencePerGpu))
            : (1LL << 40);

    // Decode at batch B and mean context S: m microbatches of B / m sequences cycle through the pp stages.
    const double B = std::max(1.0, batch);
    const LayoutStep decode = cost.layoutStep(t.decodeStep(B, context));
    const int m = decode.decodeMicrobatches;
    r.microbatches = m;
    const double tokensPerMicrobatch = B / m;
    const double perGroup = tokensPerMicrobatch / groups;
    const double layers = t.layers;
    // Reported bytes per GPU per step (the times are in the step above). EP > 1: half the all-reduce stays.
    const double allReduceShare = l.ep > 1 ? 0.5 : 1.0;
    r.allReduceBytesPerStep = l.tp > 1 ? allReduceShare * 2.0 * layers * (2.0 * (tp - 1.0) / tp) * perGroup * t.hidden * kActivationBytes : 0.0;
    r.allToAllBytesPerStep = l.ep > 1
        ? 2.0 * layers * (tokensPerMicrobatch / w) * t.expertsPerToken * t.hidden * kActivationBytes * (ep - 1.0) / ep / pp
        : 0.0;
    r.pipelineSendBytesPerStep = l.pp > 1 ? tokensPerMicrobatch * t.hidden * kActivationBytes / w : 0.0;
    r.stageSeconds = decode.decodeStageSeconds;
    r.pipelineBubble = decode.bubble;
    r.stepSeconds = decode.seconds;
    r.tokensPerSecond = B / r.stepSeconds;

    // Prefill of one prompt: one microbatch through the stages in turn (no speed-up from pp for one request).
    StepTotals prefill;
    cost.addPrefill(prefill, 0.0, prompt);
    r.prefillSeconds = cost.seconds(prefill);
    r.kvTransferBytesPerRequest = cost.kvTransferBytes(prompt);
    r.kvTransferSeconds = cost.kvTransferSeconds(prompt);
    return r;
}

} // namespace

LayoutResult evaluateLayout(const Scenario& s0, const ParallelLayout& l, double batch, double context, double prompt,
                            double capacityContext)
{
    if (std::string refusal = layoutRefusal(s0.model, l); !refusal.empty()) {
        LayoutResult r;
        r.refusal = std::move(refusal);
        return r;
    }
    return evaluateAcceptedLayout(s0, l, batch, context, prompt, capacityContext);
}

// ------------------------------------------------------------------------------------------------
// Search
// ------------------------------------------------------------------------------------------------

std::vector<int> paretoFrontier(const std::vector<PlanPoint>& points, const std::vector<int>& candidates)
{
    std::vector<int> order = candidates;
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        const PlanPoint &pa = points[size_t(a)], &pb = points[size_t(b)];
        if (pa.tokensPerSecondPerUser != pb.tokensPerSecondPerUser)
            return pa.tokensPerSecondPerUser > pb.tokensPerSecondPerUser;
        return pa.outputTokensPerSecondPerGpu > pb.outputTokensPerSecondPerGpu;
    });
    std::vector<int> frontier;
    double best = -1.0;
    for (int i : order) {
        const double perGpu = points[size_t(i)].outputTokensPerSecondPerGpu;
        if (perGpu > best) { // strictly more per GPU than every faster-per-user point: not dominated
            frontier.push_back(i);
            best = perGpu;
        }
    }
    std::reverse(frontier.begin(), frontier.end());
    return frontier;
}

std::vector<PlanDevice> catalogueDevices(bool examplePrices, double pue)
{
    std::vector<PlanDevice> out;
    for (const HardwarePreset& h : hardwarePresets()) {
        PlanDevice d;
        d.id = h.id;
        d.hardware = h.hardware;
        d.hardware.gpus = 1;
        d.economics.pue = pue;
        d.noGpuLink = noGpuLinkReason(h.link);
        if (examplePrices)
            d.economics.pricePerGpuHour = examplePricePerGpuHour(h.id);
        if (h.hardware.boardPowerWatts > 0)
            d.economics.boardPowerWatts = h.hardware.boardPowerWatts;
        out.push_back(std::move(d));
    }
    return out;
}

PlanRequest planRequestFor(const Scenario& scenario, double requestsPerSecond, double itlSloMs)
{
    PlanRequest r;
    r.scenario = scenario;
    r.load = {requestsPerSecond, double(std::max(1, scenario.workload.promptTokens)), double(std::max(1, scenario.workload.outputTokens))};
    r.slo = {scenario.workload.ttftSloMs, itlSloMs};
    if (!scenario.economics.currency.empty())
        r.currency = scenario.economics.currency;
    // The example prices are in their own currency: a plan in another has them unknown, never relabelled.
    r.candidates.devices = catalogueDevices(examplePricesApply(r.currency));
    return r;
}

namespace {

/** The scenario and simulation of simulatePlan(); false when @p p is no plan of @p req (@p why says so). */
bool planCheckInputs(const PlanRequest& req, const PlanPoint& p, long long requests, Scenario& s, SimulationConfig& config, std::string& why)
{
    const bool pools = p.disaggregated ? p.prefillInstances >= 1 && p.decodeInstances >= 1 : p.replicas >= 1;
    if (p.device < 0 || size_t(p.device) >= req.candidates.devices.size() || !pools || !layoutRefusal(req.scenario.model, p.layout).empty()) {
        why = "not a plan of this request";
        return false;
    }
    s = req.scenario;
    s.hardware = req.candidates.devices[size_t(p.device)].hardware;
    s.hardware.gpus = p.layout.tp;
    const int P = int(std::lround(req.load.promptTokens)), O = int(std::lround(req.load.outputTokens));
    s.serving.maxContextTokens = std::max(s.serving.maxContextTokens, P + O);
    s.workload.promptTokens = P;
    s.workload.outputTokens = O;
    s.workload.contextTokens = P + O / 2;
    config = SimulationConfig();
    config.policy = BatchingPolicy::Continuous;
    config.maxSequences = std::max(1, p.batchCap);
    config.blockTokens = s.serving.blockTokens;
    // Each replica in the plan's layout, priced by the layout's StepCost as the analytic plan is.
    config.pipelineStages = p.layout.pp;
    config.expertParallel = p.layout.ep;
    config.microbatches = p.layout.microbatches;
    // The whole fleet: the plan's replicas (or its prefill and decode pools) behind least-loaded routers, sharing the requests.
    config.replicas = p.disaggregated ? p.decodeInstances : p.replicas;
    config.prefillReplicas = p.disaggregated ? p.prefillInstances : 0;
    config.router = RouterPolicy::LeastLoaded;
    config.requests = std::max(1LL, requests);
    config.itlSloMs = req.slo.itlMs;
    config.ttftSloMs = req.slo.ttftMs;
    config.itlSloStatistic = ItlSloStatistic::Mean;
    RequestClass cls;
    cls.name = "plan";
    cls.ratePerSecond = req.load.requestsPerSecond;
    cls.prompt.kind = LengthDistribution::Kind::Fixed;
    cls.prompt.value = P;
    cls.output.kind = LengthDistribution::Kind::Fixed;
    cls.output.value = O;
    config.classes = {cls};
    return true;
}

} // namespace

double planCheckWorkUnits(const PlanRequest& req, const PlanPoint& p, long long requests)
{
    Scenario s;
    SimulationConfig config;
    std::string why;
    return planCheckInputs(req, p, requests, s, config, why) ? estimateSimulationCost(config).workUnits : 0.0;
}

namespace {
std::string fixed(double v, int decimals); // below, with the other texts
std::string secondsText(double s);
} // namespace

SimulatedCheck simulatePlan(const PlanRequest& req, const PlanPoint& p, long long requests)
{
    SimulatedCheck c;
    Scenario s;
    SimulationConfig config;
    if (!planCheckInputs(req, p, requests, s, config, c.skipped))
        return c;
    const int P = int(std::lround(req.load.promptTokens));
    if (const std::string err = checkSimulationConfig(config); !err.empty()) {
        // The simulation this plan's fleet needs, not a field of the plan file (it named simulation.prefill_replicas,
        // which a plan file does not have: adversarial trial, stop 31).
        c.skipped = "its fleet is past what the simulator runs (in a simulation file it would read: " + err + ")";
        return c;
    }
    config.requestRecords = 0; // the summaries only
    const SimulationResult r = simulateWorkload(s, config);
    const LatencySummary& l = r.all.latency;
    c.simulated = true;
    c.requests = r.all.requests;
    c.completed = r.all.completed;
    c.rejected = r.all.rejected;
    c.replicas = p.disaggregated ? 0 : p.replicas;
    c.prefillReplicas = p.disaggregated ? p.prefillInstances : 0;
    c.decodeReplicas = p.disaggregated ? p.decodeInstances : 0;
    c.kvTransferMs = p.disaggregated ? StepCost(s, p.layout).kvTransferSeconds(P) * 1e3 : 0.0;
    if (r.spanSeconds > 0) {
        const double prefillGpuSeconds = r.prefillBusySeconds, decodeGpuSeconds = r.busySeconds - r.prefillBusySeconds;
        if (p.disaggregated) {
            c.prefillBusyFraction = prefillGpuSeconds / (r.spanSeconds * p.prefillInstances);
            c.decodeBusyFraction = decodeGpuSeconds / (r.spanSeconds * p.decodeInstances);
        } else {
            c.decodeBusyFraction = r.busySeconds / (r.spanSeconds * p.replicas);
        }
    }
    const int receiving = p.disaggregated ? p.prefillInstances : p.replicas; // the instances requests queue at first
    if (receiving > 0 && double(c.requests) / receiving < kFewCheckRequestsPerReplica)
        c.caveat = fixed(double(c.requests) / receiving, 1) + " requests per " + (p.disaggregated ? "prefill " : "") + "replica (about "
                   + secondsText(req.load.requestsPerSecond > 0 ? double(c.requests) / req.load.requestsPerSecond : 0.0)
                   + " of traffic): the check sees little queueing; raise simulate_requests for one that does";
    c.ttftMeanMs = l.ttft.mean * 1e3;
    c.ttftP90Ms = l.ttft.p90 * 1e3;
    c.ttftP99Ms = l.ttft.p99 * 1e3;
    c.tpotMeanMs = l.tpot.mean * 1e3;
    c.tpotP90Ms = l.tpot.p90 * 1e3;
    c.tpotDefined = req.load.outputTokens >= 2; // one output token: no inter-token gap (issue 14, h14k)
    c.goodputFraction = r.all.goodputFraction;
    c.meetsSloAtP90 = c.ttftP90Ms <= req.slo.ttftMs && (!c.tpotDefined || c.tpotP90Ms <= req.slo.itlMs) && r.all.rejected == 0;
    return c;
}

std::string exclusionText(ExclusionReason reason)
{
    switch (reason) {
    case ExclusionReason::None: return "meets the SLOs";
    case ExclusionReason::DoesNotFit: return "does not fit";
    case ExclusionReason::MissesItl: return "misses ITL";
    case ExclusionReason::MissesTtft: return "misses TTFT";
    case ExclusionReason::MissesBoth: return "misses ITL and TTFT";
    case ExclusionReason::NoLayoutSearched: return "no layout searched";
    case ExclusionReason::TooManyReplicas: // kMaxPlanInstances, 1e5
        static_assert(kMaxPlanInstances == 1e5, "the text below names the cap");
        return "needs more than 100,000 replicas (the search's cap)";
    }
    return {};
}

std::string layoutText(const ParallelLayout& l)
{
    return "TP" + std::to_string(l.tp) + " PP" + std::to_string(l.pp) + " EP" + std::to_string(l.ep);
}

namespace {

/** @p v with @p decimals decimals: Qt's formatter, the one the command line's tables use, so that one value
 *  rounds the same in the takeaway and in the tables (2.8125 J is 2.813 in both). */
std::string fixed(double v, int decimals)
{
    return QString::number(v, 'f', decimals).toStdString();
}

/** A price or energy of the takeaway: @p decimals decimals as the tables, or four significant digits where that would keep
 *  fewer than two ("0.00012", "1.2e-5"; it read "0.000 USD per 1M output tokens": h14k), as app::fixedOrSignificant(). */
std::string amountText(double v, int decimals)
{
    if (std::isfinite(v) && v != 0 && std::abs(v) < std::pow(10.0, 1 - decimals))
        return formulaNumber(v).toStdString();
    if (std::isfinite(v) && std::abs(v) >= 1e4 && std::abs(v) < 1e15) // grouped as the tables: "2,387,152.778", not "2387152.778" (trial, stop 32)
        return QLocale(QLocale::English).toString(v, 'f', decimals).toStdString();
    return fixed(v, decimals);
}

/** An SLO in ms as written (0.001 stays 0.001, 50 is 50, 1234567 is not 1.23457e+06), never rounded to 0: the scenario
 *  files' formatter (adversarial trial, stop 31). */
std::string sloText(double ms)
{
    return formatNumber(ms);
}

/** Orders plans: known cost first, cheaper first; then fewer J per token; then fewer GPUs. */
bool cheaperThan(const PlanPoint& a, const PlanPoint& b)
{
    const auto& ca = a.cost.costPerMillionOutputTokensAllIn;
    const auto& cb = b.cost.costPerMillionOutputTokensAllIn;
    if (ca.has_value() != cb.has_value())
        return ca.has_value();
    if (ca && *ca != *cb)
        return *ca < *cb;
    const auto& ja = a.cost.joulesPerOutputToken;
    const auto& jb = b.cost.joulesPerOutputToken;
    if (ja.has_value() != jb.has_value())
        return ja.has_value();
    if (ja && *ja != *jb)
        return *ja < *jb;
    if (a.totalGpus != b.totalGpus)
        return a.totalGpus < b.totalGpus;
    // Same cost, energy and GPUs: the faster plan first (a trial found a tie ranked by the worse ITL and TTFT).
    if (a.itlMs != b.itlMs)
        return a.itlMs < b.itlMs;
    if (a.ttftMs != b.ttftMs)
        return a.ttftMs < b.ttftMs;
    return a.outputTokensPerSecondPerGpu > b.outputTokensPerSecondPerGpu;
}

struct DeviceTally {
    bool anyFit = false, anyItl = false, anyTtft = false;
    double bestItlMs = INFINITY, bestTtftMs = INFINITY;
    double leastWeightsPerGpu = INFINITY, usableAtLeast = 0;
    int leastGpus = 0;
    // A layout whose weights fit but whose KV budget holds not one sequence at the capacity context: the one
    // with the largest KV budget per GPU, and what one sequence needs there.
    bool weightsFitSomewhere = false;
    double kvBudgetBest = -INFINITY, kvPerSequenceThere = 0;
    int kvGpus = 0;
    int layoutsSearched = 0; ///< layouts tried on the device (0 with explicit layouts: none has a GPU count searched)
    bool tooManyInstances = false; ///< some layout that fits was not planned: the load needs more than kMaxPlanInstances
};

} // namespace

namespace {

/** A count with thousands separators, "197,600,000" (beyond 1e15 in exponent form). */
std::string countText(double n)
{
    if (!(n < 1e15))
        return QString::number(n, 'g', 3).toStdString();
    return QLocale(QLocale::English).toString(qlonglong(std::llround(n))).toStdString();
}

/** "0.3 s", "45 s", "3 min", "2.5 h". */
std::string secondsText(double s)
{
    if (s < 10)
        return QString::number(s, 'g', 2).toStdString() + " s";
    if (s < 120)
        return fixed(s, 0) + " s";
    if (s < 7200)
        return fixed(s / 60, 0) + " min";
    return QString::number(s / 3600, 'g', 3).toStdString() + " h";
}

/** "1, 2, 4, 8" (the first 8 entries, then "..."). */
std::string listText(const std::vector<int>& values)
{
    std::string out;
    for (size_t i = 0; i < values.size() && i < 8; ++i)
        out += (i ? ", " : "") + std::to_string(values[i]);
    if (values.size() > 8)
        out += ", ... (" + std::to_string(values.size()) + " entries)";
    return out;
}

std::string disaggregationText(Disaggregation d)
{
    return d == Disaggregation::Both ? "both" : d == Disaggregation::Colocated ? "colocated" : "disaggregated";
}

} // namespace

PlanWork estimatePlanWork(const PlanRequest& req, int simulateTop, long long simulateRequests)
{
    PlanWork w;
    const PlanCandidates& c = req.candidates;
    w.devices = int(c.devices.size());
    w.gpuCounts = int(c.gpuCounts.size());
    std::map<int, int> layoutsOfCount; // the search's layouts per GPU count, as its loops find them
    for (int gpus : c.gpuCounts) {
        if (layoutsOfCount.count(gpus))
            continue;
        int n = 0;
        if (c.layouts.empty()) {
            n = int(layoutsFor(req.scenario.model, gpus).size());
        } else {
            for (const ParallelLayout& l : c.layouts)
                n += l.gpus() == gpus && layoutRefusal(req.scenario.model, l).empty() ? 1 : 0;
        }
        layoutsOfCount[gpus] = n;
    }
    double layouts = 0;
    for (const PlanDevice& d : c.devices)
        for (int gpus : c.gpuCounts)
            if (gpus == 1 || d.noGpuLink.empty())
                layouts += layoutsOfCount[gpus];
    w.layouts = int(std::min(layouts, 2e9));
    std::vector<int> caps = c.batchCaps;
    std::sort(caps.begin(), caps.end());
    caps.erase(std::unique(caps.begin(), caps.end()), caps.end());
    w.batchCaps = int(caps.size());
    w.modes = c.disaggregation == Disaggregation::Both ? 2 : 1;
    w.operatingPoints = layouts * double(w.batchCaps) * w.modes;
    w.searchSeconds = w.operatingPoints * kPlanSecondsPerPoint;
    w.simulatedRequests = double(std::max(0, simulateTop)) * double(std::max(0LL, simulateRequests));
    w.simulatedOutputTokens = w.simulatedRequests * std::max(1.0, req.load.outputTokens);
    w.simulationSeconds = w.simulatedOutputTokens * kPlanSimulationSecondsPerToken + w.simulatedRequests * kPlanSimulationSecondsPerRequest;
    return w;
}

std::string checkPlanContext(const PlanRequest& request, const std::string& promptField)
{
    const int trained = request.scenario.model.maxPositionEmbeddings;
    const double prompt = request.load.promptTokens;
    if (trained <= 0 || !(prompt > trained))
        return {};
    return promptField + " = " + formatNumber(prompt) + ": longer than the model's context of " + std::to_string(trained)
           + " tokens (model.max_position_embeddings): no request of this prompt can be served; shorten the prompt, or give "
             "the model's longer context as model.max_position_embeddings";
}

std::string checkPlanWork(const PlanRequest& req, int simulateTop, long long simulateRequests)
{
    const PlanWork w = estimatePlanWork(req, simulateTop, simulateRequests);
    if (!(w.operatingPoints <= kMaxPlanOperatingPoints)) {
        // Name the field that weighs most: the batch caps when there are more of them than the default 11.
        const bool caps = w.batchCaps > 11;
        return std::string(caps ? "candidates.batch_caps" : "candidates") + ": " + countText(w.batchCaps) + " batch caps x "
               + countText(w.layouts) + " layouts (" + std::to_string(w.devices) + " devices x candidates.gpu_counts ["
               + listText(req.candidates.gpuCounts) + "]" + (req.candidates.layouts.empty() ? "" : " x candidates.layouts")
               + ") x " + std::to_string(w.modes) + (w.modes == 1 ? " mode" : " modes") + " (candidates.disaggregation "
               + disaggregationText(req.candidates.disaggregation) + ") = about " + countText(w.operatingPoints)
               + " operating points to search, about " + secondsText(w.searchSeconds) + " and "
               + countText(w.operatingPoints * kPlanBytesPerPoint / 1e6) + " MB; at most " + countText(kMaxPlanOperatingPoints)
               + " (about " + secondsText(kMaxPlanOperatingPoints * kPlanSecondsPerPoint) + "): "
               + (caps ? "give fewer batch caps (e.g. powers of 2: [1, 2, 4, ..., 1024])"
                       : "give fewer devices, GPU counts or layouts");
    }
    const std::string sims = "simulate_top " + std::to_string(simulateTop) + " x simulate_requests " + countText(double(simulateRequests));
    if (!(w.simulatedRequests <= kMaxPlanSimulatedRequests))
        return "simulate_top: " + sims + " = " + countText(w.simulatedRequests) + " requests to simulate, about "
               + secondsText(w.simulationSeconds) + " of work; at most " + countText(kMaxPlanSimulatedRequests)
               + " in all: lower simulate_top or simulate_requests";
    if (!(w.simulatedOutputTokens <= kMaxPlanSimulatedOutputTokens))
        return "simulate_requests: " + sims + " x load.output_tokens " + countText(req.load.outputTokens) + " = "
               + countText(w.simulatedOutputTokens) + " output tokens to simulate, about " + secondsText(w.simulationSeconds)
               + " of work; at most " + countText(kMaxPlanSimulatedOutputTokens) + " (about "
               + secondsText(kMaxPlanSimulatedOutputTokens * kPlanSimulationSecondsPerToken)
               + "): lower simulate_top or simulate_requests";
    return {};
}

PlanResult searchPlans(const PlanRequest& req)
{
    PlanResult out;
    const double lambda = req.load.requestsPerSecond;
    const double P = req.load.promptTokens, O = req.load.outputTokens;
    const double meanContext = P + O / 2.0, capacityContext = P + O;
    const double ttftSlo = req.slo.ttftMs / 1000.0;
    const double headroom = std::clamp(req.candidates.maxUtilization, 0.01, 1.0);
    const auto& devices = req.candidates.devices;
    std::vector<DeviceTally> tally(devices.size());
    std::map<std::tuple<int, int, int, int, int, bool>, int> bestOfConfig; // (device, gpus, tp, pp, ep, disagg) -> point
    // layoutsFor() per GPU count: the model is the request's for every device (only the hardware differs), so each
    // count's layouts are found once, not once per device.
    std::map<int, std::vector<ParallelLayout>> layoutsOfCount;

    for (size_t di = 0; di < devices.size(); ++di) {
        const PlanDevice& dev = devices[di];
        DeviceTally& dt = tally[di];
        Scenario s = req.scenario;
        s.hardware = dev.hardware;
        bool linkRefused = false;
        bool tooManyInstances = false; // some point needed more than kMaxPlanInstances instances
        for (int gpus : req.candidates.gpuCounts) {
            if (gpus > 1 && !dev.noGpuLink.empty()) {
                linkRefused = true; // no GPU-to-GPU link: one GPU per instance only
                continue;
            }
            std::vector<ParallelLayout> layouts;
            if (req.candidates.layouts.empty()) {
                auto found = layoutsOfCount.find(gpus);
                if (found == layoutsOfCount.end())
                    found = layoutsOfCount.emplace(gpus, layoutsFor(s.model, gpus)).first;
                layouts = found->second;
            } else {
                for (const ParallelLayout& l : req.candidates.layouts) {
                    if (l.gpus() != gpus)
                        continue;
                    if (const std::string why = layoutRefusal(s.model, l); !why.empty()) {
                        if (di == 0)
                            out.refusals.push_back(layoutText(l) + ": " + why);
                        continue;
                    }
                    layouts.push_back(l);
                }
            }
            dt.layoutsSearched += int(layouts.size());
            for (ParallelLayout layout : layouts) {
                // candidates.microbatches is a pipeline setting: a layout without a pipeline keeps 0 (adversarial
                // trial: 16 micro-batches on TP2 PP1 made its ITL 42 ms instead of 3.1 ms).
                if (layout.microbatches == 0 && layout.pp > 1)
                    layout.microbatches = req.candidates.microbatches;
                // Every layout here passed layoutRefusal() (layoutsFor(), or the check above) with its microbatches as
                // given; only the request's microbatches, set just now, are unchecked: a negative count is asked about.
                const bool accepted = layout.microbatches >= 0;
                auto evaluate = [&](double batch) {
                    return accepted ? evaluateAcceptedLayout(s, layout, batch, meanContext, P, capacityContext)
                                    : evaluateLayout(s, layout, batch, meanContext, P, capacityContext);
                };
                const LayoutResult base = evaluate(1.0);
                const double usable = s.hardware.memoryBytes * s.serving.memoryUtilization - s.serving.activationReserveBytes;
                if (base.weightBytesPerGpu < dt.leastWeightsPerGpu) {
                    dt.leastWeightsPerGpu = base.weightBytesPerGpu;
                    dt.usableAtLeast = usable;
                    dt.leastGpus = base.gpus;
                }
                if (base.weightsFit && base.maxSequences < 1) {
                    dt.weightsFitSomewhere = true;
                    if (base.kvBudgetBytesPerGpu > dt.kvBudgetBest) {
                        dt.kvBudgetBest = base.kvBudgetBytesPerGpu;
                        dt.kvPerSequenceThere = base.kvBytesPerSequencePerGpu;
                        dt.kvGpus = base.gpus;
                    }
                }
                if (!base.weightsFit || base.maxSequences < 1)
                    continue;
                dt.anyFit = true;
                std::vector<int> caps;
                for (int cap : req.candidates.batchCaps) {
                    const int b = int(std::min<long long>(cap, base.maxSequences));
                    if (b >= 1 && std::find(caps.begin(), caps.end(), b) == caps.end())
                        caps.push_back(b);
                }
                for (int B : caps) {
                    const LayoutResult lr = evaluate(B);
                    const double step = lr.stepSeconds, pre = lr.prefillSeconds;
                    const double G = lr.gpus;
                    for (const bool disagg : {false, true}) {
                        if (disagg && req.candidates.disaggregation == Disaggregation::Colocated)
                            continue;
                        if (!disagg && req.candidates.disaggregation == Disaggregation::Disaggregated)
                            continue;
                        PlanPoint p;
                        p.device = int(di);
                        p.layout = layout;
                        p.layout.microbatches = lr.microbatches;
                        p.disaggregated = disagg;
                        p.batchCap = B;
                        p.gpusPerInstance = lr.gpus;
                        p.weightBytesPerGpu = lr.weightBytesPerGpu;
                        p.kvBudgetBytesPerGpu = lr.kvBudgetBytesPerGpu;
                        p.maxSequences = lr.maxSequences;
                        p.stepSeconds = step;
                        p.prefillSeconds = pre;
                        if (!disagg && B == 1) {
                            // Batch cap 1: one request at a time, start to end, so no other prompt prefills inside its
                            // decode (ITL = t_step, not the interleaved estimate below: a new-user trial, stop 31, read
                            // 559.7 ms where the simulator measured 8.4 ms) and a request queues for the whole of the one
                            // before it: M/D/1 with service g = t_pre + O t_step.
                            const double g = pre + O * step;
                            const std::optional<double> rhoMax = utilizationWithin(ttftSlo - pre, g);
                            const double perInstanceMax = rhoMax ? std::min(headroom, std::max(*rhoMax, kMinPoolUtilization)) / g : headroom / g;
                            if (!(lambda / perInstanceMax <= kMaxPlanInstances)) {
                                tooManyInstances = true;
                                continue;
                            }
                            p.replicas = wholeUnits(lambda / perInstanceMax);
                            const double rho = lambda / p.replicas * g;
                            p.ttftMs = (pre + mdOneWaitSeconds(rho, g)) * 1000.0;
                            p.itlMs = step * 1000.0;
                            p.totalGpus = p.replicas * lr.gpus;
                            p.prefillShare = pre / g;
                            p.outputTokensPerSecondPerGpu = O * perInstanceMax / G;
                            p.tokensPerSecondPerUser = 1.0 / step;
                        } else if (!disagg) {
                            // One instance serves a request in g = t_pre + O t_step / B instance-seconds and is loaded to
                            // at most maxUtilization of 1 / g; prefills queue (M/D/1) and wait half a decode step on average.
                            const double g = pre + O * step / B;
                            const std::optional<double> rhoMax = utilizationWithin(ttftSlo - pre - step / 2.0, pre);
                            const double perInstanceMax =
                                rhoMax ? std::min(headroom / g, std::max(*rhoMax, kMinPoolUtilization) / pre) : headroom / g;
                            if (!(lambda / perInstanceMax <= kMaxPlanInstances)) {
                                tooManyInstances = true;
                                continue;
                            }
                            p.replicas = wholeUnits(lambda / perInstanceMax);
                            const double rho = lambda / p.replicas * pre;
                            p.ttftMs = (pre + mdOneWaitSeconds(rho, pre) + step / 2.0) * 1000.0;
                            p.itlMs = colocatedItlSeconds(step, pre, rho, O) * 1000.0;
                            p.totalGpus = p.replicas * lr.gpus;
                            p.prefillShare = pre / g;
                            p.outputTokensPerSecondPerGpu = O * perInstanceMax / G;
                            p.tokensPerSecondPerUser = (1.0 - perInstanceMax * pre) / step;
                        } else {
                            // Prefill pool and decode pool of the same device and layout; the KV of each prompt crosses
                            // the link, each of the tp * pp GPUs holding the cache sending its share.
                            p.kvTransferSeconds = lr.kvTransferSeconds;
                            const double rhoMax =
                                std::max(utilizationWithin(ttftSlo - pre - p.kvTransferSeconds, pre).value_or(0.9), kMinPoolUtilization);
                            // The prefill pool makes each request's first token, so the decode pool runs O - 1 steps
                            // per request, none when O = 1 (issue 14, h14g: it was sized for O). With no decode step the
                            // pool's demand is 0 and it keeps its least size, one instance, idle (a colocated plan of the
                            // same layout is then cheaper); the simulator sends such requests to no decode replica.
                            const double decodeSteps = std::max(0.0, O - 1.0);
                            const double perDecodeInstance = decodeSteps > 0 ? headroom * B / (decodeSteps * step) : std::numeric_limits<double>::infinity();
                            if (!(lambda * pre / rhoMax <= kMaxPlanInstances && lambda / perDecodeInstance <= kMaxPlanInstances)) {
                                tooManyInstances = true;
                                continue;
                            }
                            p.prefillInstances = wholeUnits(lambda * pre / rhoMax);
                            p.decodeInstances = wholeUnits(lambda / perDecodeInstance);
                            const double rho = lambda * pre / p.prefillInstances;
                            p.ttftMs = (pre + mdOneWaitSeconds(rho, pre) + p.kvTransferSeconds) * 1000.0;
                            p.itlMs = step * 1000.0;
                            p.totalGpus = (p.prefillInstances + p.decodeInstances) * lr.gpus;
                            p.prefillShare = double(p.prefillInstances) / (p.prefillInstances + p.decodeInstances);
                            p.outputTokensPerSecondPerGpu = O / (G * (pre / rhoMax + 1.0 / perDecodeInstance));
                            p.tokensPerSecondPerUser = 1.0 / step;
                        }
                        // One output token (O < 2): no inter-token gap, so no ITL to hold against its SLO (issue 14, h14k).
                        p.itlDefined = O >= 2;
                        p.meetsItl = !p.itlDefined || p.itlMs <= req.slo.itlMs;
                        p.meetsTtft = p.ttftMs <= req.slo.ttftMs;
                        dt.anyItl = dt.anyItl || p.meetsItl;
                        dt.anyTtft = dt.anyTtft || p.meetsTtft;
                        if (p.itlDefined)
                            dt.bestItlMs = std::min(dt.bestItlMs, p.itlMs);
                        dt.bestTtftMs = std::min(dt.bestTtftMs, p.ttftMs);
                        p.cost = operatingCost(dev.economics, p.totalGpus, lambda * O, lambda * P, p.prefillShare);
                        out.points.push_back(p);
                        const int index = int(out.points.size()) - 1;
                        if (p.meetsSlo()) {
                            const auto key = std::make_tuple(int(di), lr.gpus, layout.tp, layout.pp, layout.ep, disagg);
                            auto it = bestOfConfig.find(key);
                            if (it == bestOfConfig.end())
                                bestOfConfig.emplace(key, index);
                            else if (cheaperThan(p, out.points[size_t(it->second)]))
                                it->second = index;
                        }
                    }
                }
            }
        }
        dt.tooManyInstances = tooManyInstances;
        if (tooManyInstances)
            out.refusals.push_back(dev.hardware.name + ": some layouts were not planned: the load needs more than 100,000 instances of them");
        if (linkRefused)
            out.refusals.push_back(dev.hardware.name + ": layouts of more than 1 GPU refused: the catalogue lists " + dev.noGpuLink);
    }
    out.evaluated = int(out.points.size());

    for (const auto& [key, index] : bestOfConfig)
        out.plans.push_back(index);
    std::stable_sort(out.plans.begin(), out.plans.end(),
                     [&](int a, int b) { return cheaperThan(out.points[size_t(a)], out.points[size_t(b)]); });

    for (int i : out.plans) {
        const PlanPoint& p = out.points[size_t(i)];
        if (p.cost.costPerMillionOutputTokensAllIn
            && (!out.cheapest || *p.cost.costPerMillionOutputTokensAllIn < *out.points[size_t(*out.cheapest)].cost.costPerMillionOutputTokensAllIn))
            out.cheapest = i;
        if (p.cost.joulesPerOutputToken
            && (!out.mostPowerEfficient || *p.cost.joulesPerOutputToken < *out.points[size_t(*out.mostPowerEfficient)].cost.joulesPerOutputToken))
            out.mostPowerEfficient = i;
    }

    // Per device: the frontier over its points, its best plan, or why it has none.
    std::vector<std::vector<int>> byDevice(devices.size());
    for (size_t i = 0; i < out.points.size(); ++i)
        byDevice[size_t(out.points[i].device)].push_back(int(i));
    for (size_t di = 0; di < devices.size(); ++di) {
        DeviceSummary d;
        d.device = int(di);
        d.frontier = paretoFrontier(out.points, byDevice[di]);
        for (int i : out.plans)
            if (out.points[size_t(i)].device == int(di)) {
                d.bestPlan = i;
                break;
            }
        const DeviceTally& dt = tally[di];
        const std::string slo = " (SLO ITL " + sloText(req.slo.itlMs) + " ms, TTFT " + sloText(req.slo.ttftMs) + " ms)";
        if (d.bestPlan) {
            d.reason = ExclusionReason::None;
        } else if (!dt.anyFit && dt.layoutsSearched == 0 && !req.candidates.layouts.empty()
                   && (devices[di].noGpuLink.empty()
                       || std::find(req.candidates.gpuCounts.begin(), req.candidates.gpuCounts.end(), 1) != req.candidates.gpuCounts.end())) {
            // Layouts given explicitly, none of them searchable at the GPU counts given: not a memory verdict (it read
            // "does not fit" with "no layout ... can split the model", a trial finding).
            d.reason = ExclusionReason::NoLayoutSearched;
            std::vector<int> layoutCounts;
            for (const ParallelLayout& l : req.candidates.layouts)
                if (std::find(layoutCounts.begin(), layoutCounts.end(), l.gpus()) == layoutCounts.end())
                    layoutCounts.push_back(l.gpus());
            d.detail = "none of the " + std::to_string(req.candidates.layouts.size()) + " layouts given ("
                       + acceleratorNoun(devices[di].hardware, true) + " per instance: "
                       + listText(layoutCounts) + ") is searched at candidates.gpu_counts [" + listText(req.candidates.gpuCounts)
                       + "]" + (out.refusals.empty() ? "" : " or the model can use (see the refused layouts)")
                       + ": give counts the layouts have, or layouts of those counts";
        } else if (!dt.anyFit) {
            d.reason = ExclusionReason::DoesNotFit;
            const std::string capacity = fixed(req.load.promptTokens + req.load.outputTokens, 0);
            const std::string one = acceleratorNoun(devices[di].hardware), many = acceleratorNoun(devices[di].hardware, true);
            if (dt.weightsFitSomewhere)
                d.detail = "the weights fit, but not one sequence's KV cache at the capacity context (" + capacity + " tokens): it needs "
                           + fixed(dt.kvPerSequenceThere / 1e9, 2) + " GB per " + one + " and " + fixed(std::max(0.0, dt.kvBudgetBest) / 1e9, 2)
                           + " GB is left after the weights at best (" + std::to_string(dt.kvGpus) + " " + many + ")";
            else if (std::isfinite(dt.leastWeightsPerGpu))
                d.detail = "the weights alone need " + fixed(dt.leastWeightsPerGpu / 1e9, 1) + " GB per " + one + " at best ("
                           + std::to_string(dt.leastGpus) + " " + (dt.leastGpus == 1 ? one : many) + "); "
                           + fixed(dt.usableAtLeast / 1e9, 1) + " GB usable per " + one;
            else
                d.detail = "no layout of the " + one + " counts searched can split the model";
            if (!devices[di].noGpuLink.empty())
                d.detail += " (multi-GPU layouts refused: " + devices[di].noGpuLink + ")";
        } else if (dt.tooManyInstances && !std::isfinite(dt.bestItlMs) && !std::isfinite(dt.bestTtftMs)) {
            // Every layout that fits needs more instances than are planned: no ITL or TTFT was computed, so none is
            // printed (it read "best ITL inf ms", a trial finding), and the verdict is the cap, not an SLO (it read
            // "misses ITL and TTFT" at 10M req/s: h14k).
            d.reason = ExclusionReason::TooManyReplicas;
            d.detail = "every layout that fits would need more at " + countText(req.load.requestsPerSecond)
                       + " req/s, so none was planned (plan a share of the load per fleet)";
        } else if (!dt.anyItl && !dt.anyTtft) {
            d.reason = ExclusionReason::MissesBoth;
            d.detail = "best ITL " + fixed(dt.bestItlMs, 1) + " ms and best TTFT " + fixed(dt.bestTtftMs, 0) + " ms" + slo;
        } else if (!dt.anyItl) {
            d.reason = ExclusionReason::MissesItl;
            d.detail = "best ITL " + fixed(dt.bestItlMs, 1) + " ms" + slo;
        } else if (!dt.anyTtft) {
            d.reason = ExclusionReason::MissesTtft;
            d.detail = "best TTFT " + fixed(dt.bestTtftMs, 0) + " ms" + slo;
        } else {
            d.reason = ExclusionReason::MissesBoth;
            d.detail = "meets ITL and TTFT only in different configurations, never both at once" + slo;
        }
        if (dt.tooManyInstances && (d.reason == ExclusionReason::MissesItl || d.reason == ExclusionReason::MissesTtft
                                    || d.reason == ExclusionReason::MissesBoth))
            d.detail += "; other layouts would need more than 100,000 replicas (the search's cap), so were not planned";
        out.devices.push_back(std::move(d));
    }

    auto describe = [&](int i) {
        const PlanPoint& p = out.points[size_t(i)];
        const std::string fleet = p.disaggregated
            ? countText(p.prefillInstances) + " prefill + " + countText(p.decodeInstances) + " decode x "
            : p.replicas == 1 ? std::string() // "1 H100 SXM", not "1 x 1 H100 SXM" (new-user trial, stop 31)
                              : countText(p.replicas) + " x "; // grouped: "28,099 prefill" (adversarial trial, stop 32)
        return fleet + std::to_string(p.gpusPerInstance) + " " + devices[size_t(p.device)].hardware.name + " (" + layoutText(p.layout)
               + ", batch " + std::to_string(p.batchCap) + ")";
    };
    const bool onlyCapOrFit = !out.devices.empty() && std::all_of(out.devices.begin(), out.devices.end(), [](const DeviceSummary& d) {
        return d.reason == ExclusionReason::TooManyReplicas || d.reason == ExclusionReason::DoesNotFit;
    });
    const bool anyCap = std::any_of(out.devices.begin(), out.devices.end(),
                                    [](const DeviceSummary& d) { return d.reason == ExclusionReason::TooManyReplicas; });
    if (out.plans.empty() && onlyCapOrFit && anyCap) {
        // No ITL or TTFT was computed: every fitting layout needs more instances than are planned (adversarial trial,
        // stop 32: the takeaway read "No configuration meets ITL ... and TTFT ..." at 10M req/s).
        out.takeaway = "No plan at " + countText(req.load.requestsPerSecond)
                       + " req/s: every device that fits would need more than 100,000 replicas (the search's cap); plan a share of the load per fleet.";
    } else if (out.plans.empty()) {
        out.takeaway = "No configuration meets ITL " + sloText(req.slo.itlMs) + " ms and TTFT " + sloText(req.slo.ttftMs)
                       + " ms at this load; see why each device fails.";
    } else {
        std::string line;
        // "Cheapest" compares prices: with one device priced among several with plans it is the only priced one
        // (issue 14 trial: "Cheapest" named the one device with a price).
        std::set<int> pricedDevices, plannedDevices;
        int pricedPlans = 0;
        for (int i : out.plans) {
            const PlanPoint& p = out.points[size_t(i)];
            plannedDevices.insert(p.device);
            if (p.cost.costPerMillionOutputTokensAllIn) {
                pricedDevices.insert(p.device);
                ++pricedPlans;
            }
        }
        std::string cheapestLead = "Cheapest: ";
        if (pricedPlans == 1 && out.plans.size() > 1)
            cheapestLead = "Only priced plan: ";
        else if (pricedDevices.size() == 1 && plannedDevices.size() > 1)
            cheapestLead = "Cheapest of the priced plans (only " + devices[size_t(*pricedDevices.begin())].hardware.name
                           + " has a price): ";
        if (out.cheapest)
            line = cheapestLead + describe(*out.cheapest) + " at "
                   + amountText(*out.points[size_t(*out.cheapest)].cost.costPerMillionOutputTokensAllIn, 3) + " " + req.currency
                   + " per 1M output tokens";
        if (out.mostPowerEfficient) {
            const PlanPoint& p = out.points[size_t(*out.mostPowerEfficient)];
            line += (line.empty() ? "" : "; ") + std::string("most power-efficient: ")
                    + (out.mostPowerEfficient == out.cheapest ? std::string("the same") : describe(*out.mostPowerEfficient)) + " at "
                    + amountText(*p.cost.joulesPerOutputToken, 3) + " J per output token";
        }
        if (line.empty())
            line = "Best: " + describe(out.plans.front()) + " (no price or power known for the candidates)";
        out.takeaway = line + ".";
    }
    return out;
}

} // namespace ridgeline::model
