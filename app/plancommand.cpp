// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/plancommand.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QStringList>

#include "app/commandline.h"
#include "app/report.h"
#include "model/files/inputfile.h"
#include "model/cost/scenariokeys.h"
#include "model/sim/simulator.h"

namespace ridgeline::app {

namespace {


QString q(const std::string& s) { return QString::fromStdString(s); }

QString fixedText(double v, int decimals) { return QString::number(v, 'f', decimals); }

/// A price or energy figure to @p decimals, or significant digits where that would read "0.000" (h14k); "-" when unknown.
QString opt(const std::optional<double>& v, int decimals) { return v ? fixedOrSignificant(*v, decimals) : QStringLiteral("-"); }

/// What the text prints where a figure does not exist (ITL and tokens/s per user at one output token), as the window does.
const QString kNone = QStringLiteral("\u2013");

QJsonValue jsonOrNull(const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); }

QString planCsvCell(QString s)
{
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n')))
        s = QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return s;
}

QString fleetText(const model::PlanPoint& p)
{
    return p.disaggregated ? QStringLiteral("%1P+%2D").arg(p.prefillInstances).arg(p.decodeInstances) : QStringLiteral("%1").arg(p.replicas);
}

QString reasonKey(model::ExclusionReason r)
{
    switch (r) {
    case model::ExclusionReason::None: return QStringLiteral("meets_slo");
    case model::ExclusionReason::DoesNotFit: return QStringLiteral("does_not_fit");
    case model::ExclusionReason::MissesItl: return QStringLiteral("misses_itl");
    case model::ExclusionReason::MissesTtft: return QStringLiteral("misses_ttft");
    case model::ExclusionReason::MissesBoth: return QStringLiteral("misses_itl_and_ttft");
    case model::ExclusionReason::NoLayoutSearched: return QStringLiteral("no_layout_searched");
    case model::ExclusionReason::TooManyReplicas: return QStringLiteral("needs_too_many_replicas"); // added (h14k)
    }
    return {};
}

QJsonObject pointJson(const model::PlanFile& f, const model::PlanPoint& p)
{
    const model::PlanDevice& d = f.request.candidates.devices[size_t(p.device)];
    QJsonObject o{
        {QStringLiteral("device_id"), q(d.id)},
        {QStringLiteral("device"), q(d.hardware.name)},
        {QStringLiteral("gpus_per_instance"), p.gpusPerInstance},
        {QStringLiteral("tp"), p.layout.tp},
        {QStringLiteral("pp"), p.layout.pp},
        {QStringLiteral("ep"), p.layout.ep},
        {QStringLiteral("microbatches"), p.layout.microbatches},
        {QStringLiteral("disaggregated"), p.disaggregated},
        {QStringLiteral("batch_cap"), p.batchCap},
        {QStringLiteral("replicas"), p.replicas},
        {QStringLiteral("prefill_instances"), p.prefillInstances},
        {QStringLiteral("decode_instances"), p.decodeInstances},
        {QStringLiteral("total_gpus"), p.totalGpus},
        {QStringLiteral("weight_bytes_per_gpu"), p.weightBytesPerGpu},
        {QStringLiteral("kv_budget_bytes_per_gpu"), p.kvBudgetBytesPerGpu},
        {QStringLiteral("max_sequences_per_instance"), double(p.maxSequences)},
        {QStringLiteral("step_ms"), p.stepSeconds * 1e3},
        {QStringLiteral("prefill_ms"), p.prefillSeconds * 1e3},
        {QStringLiteral("kv_transfer_ms"), p.kvTransferSeconds * 1e3},
        {QStringLiteral("itl_ms"), p.itlDefined ? QJsonValue(p.itlMs) : QJsonValue(QJsonValue::Null)}, // O = 1: no ITL (null, h14k)
        {QStringLiteral("ttft_ms"), p.ttftMs},
        {QStringLiteral("meets_itl"), p.meetsItl},
        {QStringLiteral("meets_ttft"), p.meetsTtft},
        {QStringLiteral("prefill_share"), p.prefillShare},
        {QStringLiteral("output_tokens_per_second_per_gpu"), p.outputTokensPerSecondPerGpu},
        {QStringLiteral("tokens_per_second_per_user"), p.itlDefined ? QJsonValue(p.tokensPerSecondPerUser) : QJsonValue(QJsonValue::Null)},
    };
    const QJsonObject cost = operatingCostJson(p.cost); // the same keys as --report's "economics"
    for (auto it = cost.begin(); it != cost.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

QString modelLine(const model::PlanFile& f)
{
    const model::Scenario& s = f.request.scenario;
    return QStringLiteral("Model: %1 (%2), %3 weights, %4 KV cache")
        .arg(q(s.model.name), q(f.modelSource), QString::fromUtf8(model::dtypeName(s.model.weightDtype).data()),
             QString::fromUtf8(model::dtypeName(s.model.kvDtype).data()));
}

QString sloLine(const model::PlanFile& f)
{
    return QStringLiteral("SLOs: ITL <= %1 ms, TTFT <= %2 ms, checked as mean estimates (mean decode step, M/D/1 mean queue wait), "
                          "not percentiles: use the simulator (--simulate) for distributions")
        .arg(QString::fromStdString(model::formatNumber(f.request.slo.itlMs)),
             QString::fromStdString(model::formatNumber(f.request.slo.ttftMs))); // as written: 0.001 stays 0.001, 1234567 stays digits
}

} // namespace

QString planText(const model::PlanFile& f, const model::PlanResult& r)
{
    const model::PlanRequest& req = f.request;
    const model::Efficiency& eff = req.scenario.efficiency;
    QStringList out;
    out << modelLine(f);
    out << QStringLiteral("Load: %1 requests/s, prompt %2 tokens, output %3 tokens (%4 output tokens/s)")
               .arg(fixedOrSignificant(req.load.requestsPerSecond, 2), groupedNumber(req.load.promptTokens, 0),
                    groupedNumber(req.load.outputTokens, 0), fixedOrSignificant(req.load.requestsPerSecond * req.load.outputTokens, 0));
    out << sloLine(f);
    out << QStringLiteral("Efficiency: eta_bw %1, MFU prefill %2, MFU decode %3%4")
               .arg(fixedText(eff.bandwidth, 2), fixedText(eff.mfuPrefill, 2), fixedText(eff.mfuDecode, 2),
                    eff.bandwidth == 1.0 && eff.mfuPrefill == 1.0 && eff.mfuDecode == 1.0
                        ? QStringLiteral(" (the floor: every time is a lower bound; set efficiency.* in \"set\")")
                        : QString());
    const double pue = req.candidates.devices.empty() ? model::kDefaultPue : req.candidates.devices.front().economics.pue;
    out << QStringLiteral("Economics: %1 per device-hour (GPU- or TPU-hour), board power at TDP (catalogue, datasheet), PUE %2")
               .arg(q(f.currency), fixedText(pue, 2));
    out << QStringLiteral("Searched: %1 device(s), %2 operating points; %3 plan(s) meet both SLOs")
               .arg(req.candidates.devices.size())
               .arg(r.evaluated)
               .arg(r.plans.size());
    out << QString() << QStringLiteral("Takeaway: ") + q(r.takeaway) << QString();

    if (!r.plans.empty()) {
        out << QStringLiteral("Ranked plans (cheapest first; %1 of %2 shown, --format json or csv for all)")
                   .arg(std::min<size_t>(kPlanTextRows, r.plans.size()))
                   .arg(r.plans.size());
        const QStringList header{QStringLiteral("#"), QStringLiteral("device"), QStringLiteral("devices/inst"), QStringLiteral("layout"),
                                 QStringLiteral("mode"), QStringLiteral("batch"), QStringLiteral("fleet"), QStringLiteral("total"),
                                 QStringLiteral("ITL ms"), QStringLiteral("TTFT ms"), QStringLiteral("tok/s/device"), QStringLiteral("tok/s/user"),
                                 QStringLiteral("%1/1M out").arg(q(f.currency)), QStringLiteral("%1/1M in").arg(q(f.currency)),
                                 QStringLiteral("J/tok"), QStringLiteral("tok/s/MW")};
        std::vector<QStringList> rows{header};
        for (size_t i = 0; i < r.plans.size() && int(i) < kPlanTextRows; ++i) {
            const model::PlanPoint& p = r.points[size_t(r.plans[i])];
            rows.push_back({QString::number(i + 1), q(req.candidates.devices[size_t(p.device)].hardware.name), QString::number(p.gpusPerInstance),
                            q(model::layoutText(p.layout)), p.disaggregated ? QStringLiteral("disagg") : QStringLiteral("coloc"),
                            QString::number(p.batchCap), fleetText(p), groupedNumber(p.totalGpus), p.itlDefined ? fixedOrSignificant(p.itlMs, 1) : kNone,
                            fixedOrSignificant(p.ttftMs, 0), fixedOrSignificant(p.outputTokensPerSecondPerGpu, 0),
                            p.itlDefined ? fixedOrSignificant(p.tokensPerSecondPerUser, 1) : kNone, opt(p.cost.costPerMillionOutputTokensAllIn, 3),
                            opt(p.cost.costPerMillionInputTokens, 3), opt(p.cost.joulesPerOutputToken, 3),
                            p.cost.outputTokensPerSecondPerMegawatt ? fixedOrSignificant(*p.cost.outputTokensPerSecondPerMegawatt, 0) : QStringLiteral("-")});
        }
        std::vector<qsizetype> width(header.size(), 0);
        for (const QStringList& row : rows)
            for (qsizetype c = 0; c < row.size(); ++c)
                width[size_t(c)] = std::max(width[size_t(c)], row[c].size());
        for (const QStringList& row : rows) {
            QString line = QStringLiteral(" ");
            for (qsizetype c = 0; c < row.size(); ++c)
                line += QLatin1Char(' ') + (c == 1 || c == 3 || c == 4 ? row[c].leftJustified(width[size_t(c)]) : row[c].rightJustified(width[size_t(c)]));
            out << line;
        }
        out << QStringLiteral("  %1/1M out is all-in (every device-second charged to output tokens); JSON and CSV split it into output "
                              "(decode share) and input (prefill share). fleet: replicas, or prefill + decode instances. "
                              "tok/s/device and tok/s/user (the frontier's axes) are at the utilization the SLOs allow, before "
                              "rounding to whole instances; cost and energy are for the whole fleet at the target load.")
                   .arg(q(f.currency));
        out << QString();
    }

    if (f.simulateTop > 0 && !r.plans.empty()) {
        // As many as there are, not simulate_top above fewer plans ("the best 3 plan(s)" above one: a new-user trial, stop 31).
        const qsizetype checked = std::min<qsizetype>(f.simulateTop, qsizetype(r.plans.size()));
        out << QStringLiteral("Simulator check of the best %1 (all replicas in the plan's layout behind a least-loaded router, or its prefill and decode pools each behind one, continuous batching, Poisson arrivals, %2 requests in all; "
                              "distributions, not mean estimates)")
                   .arg(checked == 1 ? QStringLiteral("plan") : QStringLiteral("%1 plans").arg(checked))
                   .arg(f.simulateRequests);
        for (const auto& [rank, c] : planSimulations(f, r)) {
            if (!c.simulated)
                out << QStringLiteral("  #%1: not simulated: %2").arg(rank + 1).arg(q(c.skipped));
            else if (c.completed == 0) // no latency exists: zeros read as a perfect plan (a trial, stop 30)
                out << QStringLiteral("  #%1: none of the %2 requests completed (%3 rejected: over the KV budget or the context); "
                                      "no latencies; MISSES an SLO at P90")
                           .arg(rank + 1)
                           .arg(c.requests)
                           .arg(c.rejected);
            else
                out << QStringLiteral("  #%1: TTFT mean %2 ms, P90 %3 ms, P99 %4 ms; TPOT mean %5 ms, P90 %6 ms; goodput %7 %; %8%9")
                           .arg(rank + 1)
                           .arg(fixedText(c.ttftMeanMs, 0), fixedText(c.ttftP90Ms, 0), fixedText(c.ttftP99Ms, 0), c.tpotDefined ? fixedText(c.tpotMeanMs, 1) : kNone, c.tpotDefined ? fixedText(c.tpotP90Ms, 1) : kNone,
                                fixedText(c.goodputFraction * 100, 1),
                                c.meetsSloAtP90 ? QStringLiteral("meets both SLOs at P90") : QStringLiteral("MISSES an SLO at P90"),
                                c.prefillReplicas > 0
                                    ? QStringLiteral(" (%1 prefill + %2 decode replicas, busy %3 % and %4 %; KV transfer %5 ms)")
                                          .arg(c.prefillReplicas)
                                          .arg(c.decodeReplicas)
                                          .arg(fixedText(c.prefillBusyFraction * 100, 0), fixedText(c.decodeBusyFraction * 100, 0), fixedText(c.kvTransferMs, 2))
                                    : QString());
            if (c.simulated && !c.caveat.empty())
                out << QStringLiteral("      note: %1").arg(q(c.caveat));
        }
        out << QString();
    }
    out << QStringLiteral("Devices");
    for (const model::DeviceSummary& d : r.devices) {
        const QString name = q(req.candidates.devices[size_t(d.device)].hardware.name);
        if (d.bestPlan) {
            const model::PlanPoint& p = r.points[size_t(*d.bestPlan)];
            // The device's own noun: a TPU plan reads "TPUs", not "GPUs" (issue 14 trial).
            // Singular for one (a new-user trial, stop 30: "1 x 1 GPUs", "1 GPUs in all").
            const model::Hardware& hw = req.candidates.devices[size_t(d.device)].hardware;
            const auto noun = [&hw](int n) { return q(model::acceleratorNoun(hw, n != 1)); };
            out << QStringLiteral("  %1: meets the SLOs; best %2 x %3 %4 (%5, %6, batch %7), %8 %9 in all, %10/1M out %11; frontier %12 point(s)")
                       .arg(name, fleetText(p))
                       .arg(p.gpusPerInstance)
                       .arg(noun(p.gpusPerInstance))
                       .arg(q(model::layoutText(p.layout)), p.disaggregated ? QStringLiteral("disaggregated") : QStringLiteral("colocated"))
                       .arg(p.batchCap)
                       .arg(p.totalGpus)
                       .arg(noun(p.totalGpus))
                       .arg(q(f.currency), opt(p.cost.costPerMillionOutputTokensAllIn, 3))
                       .arg(d.frontier.size());
        } else {
            out << QStringLiteral("  %1: %2: %3").arg(name, q(model::exclusionText(d.reason)), q(d.detail));
        }
    }
    QStringList notes;
    for (const std::string& n : f.notes)
        notes << q(n);
    for (const std::string& n : r.refusals)
        notes << QStringLiteral("layout refused: ") + q(n);
    if (!notes.isEmpty()) {
        out << QString() << QStringLiteral("Notes");
        for (const QString& n : notes)
            out << QStringLiteral("  - ") + n;
    }
    return out.join(QLatin1Char('\n'));
}

std::vector<std::pair<int, model::SimulatedCheck>> planSimulations(const model::PlanFile& f, const model::PlanResult& r)
{
    // The checks' work over all of them within the simulator's budget: a large fleet's routing (every request looks at
    // every replica of both pools) grows with its size, which checkPlanWork() cannot see before the search (issue 14,
    // h14g: 4,096 prefill replicas). A check past the budget is skipped and says why.
    std::vector<std::pair<int, model::SimulatedCheck>> out;
    double work = 0;
    for (int i = 0; i < f.simulateTop && size_t(i) < r.plans.size(); ++i) {
        const model::PlanPoint& p = r.points[size_t(r.plans[size_t(i)])];
        const double units = model::planCheckWorkUnits(f.request, p, f.simulateRequests);
        if (work + units > model::kMaxSimulationOutputTokens) {
            model::SimulatedCheck skipped;
            // "not simulated: " is the caller's prefix; "with the checks before it" only where there are some
            // (adversarial trial, stop 31: the first plan read "not simulated: not simulated: with the checks before it").
            skipped.skipped = std::string(i > 0 ? "with the checks before it about " : "about ")
                              + QLocale::c().toString(std::ceil((work + units) * model::kSimulationSecondsPerToken), 'f', 0).toStdString()
                              + " s of simulator work, over the budget of about "
                              + QLocale::c().toString(model::kMaxSimulationOutputTokens * model::kSimulationSecondsPerToken, 'f', 0).toStdString()
                              + " s (its fleet's routers look at every replica for every request): lower simulate_requests";
            out.emplace_back(i, skipped);
            continue;
        }
        work += units;
        out.emplace_back(i, model::simulatePlan(f.request, p, f.simulateRequests));
    }
    return out;
}
namespace {

/**
 * What the search ran over, as the plan file gave it after defaults and de-duplication (inputs.candidates; added keys,
 * a trial at stop 30: a script could not see what was searched): device ids with the price per GPU-hour (null: none),
 * board power in W (null: unknown), PUE, and price_source / power_source ("plan file", "example", "datasheet"; null: none)
 * each device was priced at, gpu_counts, layouts ("TP4 PP2 EP1"; empty: every layout the model
 * allows), batch_caps, disaggregation ("both", "colocated", "disaggregated"), microbatches (0: min(PP, batch)) and
 * max_utilization (fraction of an instance's request capacity).
 */
QJsonObject candidatesJson(const model::PlanCandidates& c)
{
    const auto orNull = [](const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); };
    QJsonArray devices, counts, layouts, caps;
    for (const model::PlanDevice& d : c.devices)
        devices.append(QJsonObject{{QStringLiteral("id"), q(d.id)},
                                   {QStringLiteral("price_per_gpu_hour"), orNull(d.economics.pricePerGpuHour)},
                                   {QStringLiteral("board_power_watts"), orNull(d.economics.boardPowerWatts)},
                                   {QStringLiteral("pue"), d.economics.pue},
                                   {QStringLiteral("price_source"), d.priceSource.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(q(d.priceSource))},
                                   {QStringLiteral("power_source"), d.powerSource.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(q(d.powerSource))}});
    for (const int n : c.gpuCounts)
        counts.append(n);
    for (const model::ParallelLayout& l : c.layouts)
        layouts.append(q(model::layoutText(l)));
    for (const int b : c.batchCaps)
        caps.append(b);
    const QString disaggregation = c.disaggregation == model::Disaggregation::Both       ? QStringLiteral("both")
                                   : c.disaggregation == model::Disaggregation::Colocated ? QStringLiteral("colocated")
                                                                                          : QStringLiteral("disaggregated");
    return QJsonObject{{QStringLiteral("devices"), devices},           {QStringLiteral("gpu_counts"), counts},
                       {QStringLiteral("layouts"), layouts},           {QStringLiteral("batch_caps"), caps},
                       {QStringLiteral("disaggregation"), disaggregation}, {QStringLiteral("microbatches"), c.microbatches},
                       {QStringLiteral("max_utilization"), c.maxUtilization}};
}

} // namespace


QJsonObject planJson(const model::PlanFile& f, const model::PlanResult& r)
{
    const model::PlanRequest& req = f.request;
    QJsonArray plans;
    for (size_t i = 0; i < r.plans.size(); ++i) {
        QJsonObject o = pointJson(f, r.points[size_t(r.plans[i])]);
        o.insert(QStringLiteral("rank"), int(i + 1));
        plans.append(o);
    }
    for (const auto& [rank, c] : planSimulations(f, r)) {
        QJsonObject o = plans[rank].toObject();
        // A latency of no completed request does not exist: null, not 0 (a trial, stop 30).
        const auto latency = [completed = c.completed](double ms) { return completed > 0 ? QJsonValue(ms) : QJsonValue(QJsonValue::Null); };
        const auto tpot = [&latency, defined = c.tpotDefined](double ms) { return defined ? latency(ms) : QJsonValue(QJsonValue::Null); };
        o.insert(QStringLiteral("simulated"),
                 c.simulated ? QJsonValue(QJsonObject{{QStringLiteral("requests"), double(c.requests)},
                                                      {QStringLiteral("completed"), double(c.completed)},
                                                      {QStringLiteral("rejected"), double(c.rejected)},
                                                      {QStringLiteral("ttft_mean_ms"), latency(c.ttftMeanMs)},
                                                      {QStringLiteral("ttft_p90_ms"), latency(c.ttftP90Ms)},
                                                      {QStringLiteral("ttft_p99_ms"), latency(c.ttftP99Ms)},
                                                      {QStringLiteral("tpot_mean_ms"), tpot(c.tpotMeanMs)},
                                                      {QStringLiteral("tpot_p90_ms"), tpot(c.tpotP90Ms)},
                                                      {QStringLiteral("goodput_fraction"), c.goodputFraction},
                                                      {QStringLiteral("meets_slo_at_p90"), c.meetsSloAtP90},
                                                      {QStringLiteral("replicas"), c.replicas},
                                                      {QStringLiteral("prefill_replicas"), c.prefillReplicas},
                                                      {QStringLiteral("decode_replicas"), c.decodeReplicas},
                                                      {QStringLiteral("kv_transfer_ms"), c.kvTransferMs},
                                                      {QStringLiteral("prefill_busy_fraction"), c.prefillBusyFraction},
                                                      {QStringLiteral("decode_busy_fraction"), c.decodeBusyFraction},
                                                      {QStringLiteral("caveat"), c.caveat.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(q(c.caveat))}}) // added (stop 32)
                             : QJsonValue(QJsonObject{{QStringLiteral("skipped"), q(c.skipped)}}));
        plans[rank] = o;
    }
    QJsonArray devices;
    for (const model::DeviceSummary& d : r.devices) {
        const model::PlanDevice& dev = req.candidates.devices[size_t(d.device)];
        QJsonArray frontier;
        for (int i : d.frontier)
            frontier.append(pointJson(f, r.points[size_t(i)]));
        devices.append(QJsonObject{
            {QStringLiteral("device_id"), q(dev.id)},
            {QStringLiteral("device"), q(dev.hardware.name)},
            {QStringLiteral("verdict"), reasonKey(d.reason)},
            {QStringLiteral("detail"), q(d.detail)},
            {QStringLiteral("price_per_gpu_hour"), jsonOrNull(dev.economics.pricePerGpuHour)},
            {QStringLiteral("board_power_watts"), jsonOrNull(dev.economics.boardPowerWatts)},
            {QStringLiteral("best_plan"), d.bestPlan ? pointJson(f, r.points[size_t(*d.bestPlan)]) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("frontier"), frontier},
        });
    }
    QStringList notes;
    for (const std::string& n : f.notes)
        notes << q(n);
    QStringList refusals;
    for (const std::string& n : r.refusals)
        refusals << q(n);
    return QJsonObject{
        {QStringLiteral("format_version"), 1},
        {QStringLiteral("inputs"),
         QJsonObject{{QStringLiteral("model"), model::toJson(req.scenario).value(QStringLiteral("model"))},
                     {QStringLiteral("model_source"), q(f.modelSource)},
                     {QStringLiteral("efficiency"), model::toJson(req.scenario).value(QStringLiteral("efficiency"))},
                     {QStringLiteral("serving"), model::toJson(req.scenario).value(QStringLiteral("serving"))},
                     {QStringLiteral("load"), QJsonObject{{QStringLiteral("requests_per_second"), req.load.requestsPerSecond},
                                                          {QStringLiteral("prompt_tokens"), req.load.promptTokens},
                                                          {QStringLiteral("output_tokens"), req.load.outputTokens}}},
                     {QStringLiteral("slo"), QJsonObject{{QStringLiteral("itl_ms"), req.slo.itlMs},
                                                         {QStringLiteral("ttft_ms"), req.slo.ttftMs},
                                                         {QStringLiteral("statistic"), QStringLiteral("mean estimate")}}},
                     {QStringLiteral("candidates"), candidatesJson(req.candidates)},
                     {QStringLiteral("currency"), q(f.currency)},
                     {QStringLiteral("pue"), req.candidates.devices.empty() ? model::kDefaultPue : req.candidates.devices.front().economics.pue}}},
        {QStringLiteral("evaluated_points"), r.evaluated},
        {QStringLiteral("takeaway"), q(r.takeaway)},
        {QStringLiteral("cheapest"), r.cheapest ? pointJson(f, r.points[size_t(*r.cheapest)]) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("most_power_efficient"),
         r.mostPowerEfficient ? pointJson(f, r.points[size_t(*r.mostPowerEfficient)]) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("plans"), plans},
        {QStringLiteral("devices"), devices},
        {QStringLiteral("layout_refusals"), QJsonArray::fromStringList(refusals)},
        {QStringLiteral("notes"), QJsonArray::fromStringList(notes)},
    };
}

QString planCsv(const model::PlanFile& f, const model::PlanResult& r)
{
    static const char* const keys[] = {"device_id", "device", "gpus_per_instance", "tp", "pp", "ep", "microbatches", "disaggregated",
                                       "batch_cap", "replicas", "prefill_instances", "decode_instances", "total_gpus",
                                       "weight_bytes_per_gpu", "kv_budget_bytes_per_gpu", "step_ms", "prefill_ms", "kv_transfer_ms", "itl_ms",
                                       "ttft_ms", "output_tokens_per_second_per_gpu", "tokens_per_second_per_user", "prefill_share",
                                       "cost_per_hour", "cost_per_million_output_tokens", "cost_per_million_input_tokens",
                                       "cost_per_million_output_tokens_all_in", "joules_per_output_token",
                                       "output_tokens_per_second_per_megawatt"};
    QStringList lines;
    QStringList header{QStringLiteral("rank")};
    for (const char* k : keys)
        header << QString::fromLatin1(k);
    header << QStringLiteral("currency"); // added last: the columns before it keep their places
    // The simulator check (simulate_top), as the text and JSON give it, after the columns above (a new-user trial, stop
    // 30: the CSV dropped it); empty for a plan not simulated, and the latencies empty where no request completed.
    header << QStringLiteral("simulated_ttft_p90_ms") << QStringLiteral("simulated_tpot_p90_ms")
           << QStringLiteral("simulated_goodput_fraction") << QStringLiteral("simulated_meets_slo_at_p90");
    lines << header.join(QLatin1Char(','));
    std::vector<std::optional<model::SimulatedCheck>> simulated(r.plans.size());
    for (auto& [rank, c] : planSimulations(f, r))
        simulated[size_t(rank)] = std::move(c);
    for (size_t i = 0; i < r.plans.size(); ++i) {
        const QJsonObject o = pointJson(f, r.points[size_t(r.plans[i])]);
        QStringList row{QString::number(i + 1)};
        for (const char* k : keys) {
            const QJsonValue v = o.value(QString::fromLatin1(k));
            row << (v.isString() ? planCsvCell(v.toString())
                    : v.isBool() ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
                    : v.isDouble() ? QString::number(v.toDouble(), 'g', 10)
                                   : QString());
        }
        row << planCsvCell(q(f.currency)); // the money columns' currency (issue 14 trial: a CSV read alone did not say)
        if (const std::optional<model::SimulatedCheck>& c = simulated[i]; c && c->simulated) {
            const auto latency = [&c](double ms) { return c->completed > 0 ? QString::number(ms, 'g', 10) : QString(); };
            row << latency(c->ttftP90Ms) << (c->tpotDefined ? latency(c->tpotP90Ms) : QString()) << QString::number(c->goodputFraction, 'g', 10)
                << (c->meetsSloAtP90 ? QStringLiteral("true") : QStringLiteral("false"));
        } else {
            row << QString() << QString() << QString() << QString();
        }
        lines << row.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n'));
}

int runPlan(const QString& file, const QString& format, model::PlanFile* parsed)
{
    QByteArray bytes;
    if (const std::string err = model::readInputFile(file, bytes); !err.empty()) {
        printLine(stderr, QStringLiteral("ridgeline: ") + file + QStringLiteral(": ") + q(err));
        return kExitBadInput;
    }
    model::PlanFile plan;
    if (const std::string err = model::parsePlanFile(bytes, QFileInfo(file).absolutePath(), plan); !err.empty()) {
        printLine(stderr, QStringLiteral("ridgeline: ") + file + QStringLiteral(": ") + q(err));
        return kExitBadInput;
    }
    const model::PlanResult result = model::searchPlans(plan.request);
    if (format == QLatin1String("json"))
        printLine(stdout, QString::fromUtf8(QJsonDocument(planJson(plan, result)).toJson(QJsonDocument::Indented)).trimmed());
    else if (format == QLatin1String("csv")) {
        printLine(stdout, planCsv(plan, result));
        // The CSV has no place for notes (text and JSON print them): on stderr, so that a set key the plan ignores or a
        // duplicate it drops is still said.
        for (const std::string& n : plan.notes)
            printLine(stderr, QStringLiteral("ridgeline: note: ") + q(n));
    }
    else
        printLine(stdout, planText(plan, result));
    if (std::ferror(stdout) != 0) { // e.g. > /dev/full: the plan was not written, and the exit status says so
        const int error = errno;
        printLine(stderr, QStringLiteral("ridgeline: cannot write the plan to standard output: ") + QString::fromLocal8Bit(std::strerror(error)));
        return 1;
    }
    if (parsed)
        *parsed = std::move(plan);
    return 0;
}

} // namespace ridgeline::app
