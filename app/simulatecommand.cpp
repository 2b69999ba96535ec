// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/simulatecommand.h"

#include "app/commandline.h"
#include "app/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

namespace ridgeline::app {

namespace {


QString str(const std::string& s)
{
    return QString::fromStdString(s);
}

QString policyName(model::BatchingPolicy p)
{
    switch (p) {
    case model::BatchingPolicy::Static: return QStringLiteral("static");
    case model::BatchingPolicy::Continuous: return QStringLiteral("continuous");
    case model::BatchingPolicy::Chunked: return QStringLiteral("chunked");
    }
    return {};
}

QString ruleName(model::AdmissionRule r)
{
    switch (r) {
    case model::AdmissionRule::None: return QStringLiteral("none");
    case model::AdmissionRule::SeparateQueues: return QStringLiteral("separate_queues");
    case model::AdmissionRule::PrefillTokenCap: return QStringLiteral("prefill_token_cap");
    case model::AdmissionRule::ReservedKv: return QStringLiteral("reserved_kv");
    }
    return {};
}

QString routerName(model::RouterPolicy r)
{
    switch (r) {
    case model::RouterPolicy::RoundRobin: return QStringLiteral("round_robin");
    case model::RouterPolicy::LeastLoaded: return QStringLiteral("least_loaded");
    case model::RouterPolicy::PrefixAware: return QStringLiteral("prefix_aware");
    }
    return {};
}

QString priorityName(model::Priority p)
{
    return p == model::Priority::Batch ? QStringLiteral("batch") : QStringLiteral("interactive");
}

QJsonObject percentilesJson(const model::Percentiles& p)
{
    // No sample (every request rejected, say): the statistics do not exist, so null, not 0 (a trial, stop 30).
    const auto secondsAsMs = [&p](double seconds) { return p.count > 0 ? QJsonValue(seconds * 1e3) : QJsonValue(QJsonValue::Null); };
    return QJsonObject{{QStringLiteral("count"), double(p.count)}, {QStringLiteral("mean"), secondsAsMs(p.mean)},
                       {QStringLiteral("p50"), secondsAsMs(p.p50)},         {QStringLiteral("p95"), secondsAsMs(p.p95)},
                       {QStringLiteral("p99"), secondsAsMs(p.p99)},         {QStringLiteral("max"), secondsAsMs(p.max)},
                       {QStringLiteral("p90"), secondsAsMs(p.p90)}};
}

QJsonObject latencyJson(const model::LatencySummary& l)
{
    return QJsonObject{{QStringLiteral("queue_wait"), percentilesJson(l.queueWait)},
                       {QStringLiteral("prefill"), percentilesJson(l.prefill)},
                       {QStringLiteral("ttft"), percentilesJson(l.ttft)},
                       {QStringLiteral("itl"), percentilesJson(l.itl)},
                       {QStringLiteral("tpot"), percentilesJson(l.tpot)},
                       {QStringLiteral("end_to_end"), percentilesJson(l.endToEnd)}};
}

void addTraffic(QJsonObject& o, const model::TrafficSummary& t)
{
    o.insert(QStringLiteral("requests"), double(t.requests));
    o.insert(QStringLiteral("completed"), double(t.completed));
    o.insert(QStringLiteral("rejected"), double(t.rejected));
    o.insert(QStringLiteral("output_tokens"), t.outputTokens);
    o.insert(QStringLiteral("throughput_tokens_per_s"), t.throughputTokensPerSecond);
    o.insert(QStringLiteral("goodput_requests_per_s"), t.goodputRequestsPerSecond);
    o.insert(QStringLiteral("goodput_fraction"), t.goodputFraction);
    o.insert(QStringLiteral("latency_ms"), latencyJson(t.latency));
}

QString secondsAsMs(double seconds)
{
    return QString::number(seconds * 1e3, 'f', 1);
}

QString latencyLine(const QString& name, const model::Percentiles& p)
{
    return QStringLiteral("  %1 %2 %3 %4 %5 %6").arg(name.leftJustified(12), secondsAsMs(p.mean).rightJustified(10), secondsAsMs(p.p50).rightJustified(10),
                                                      secondsAsMs(p.p95).rightJustified(10), secondsAsMs(p.p99).rightJustified(10),
                                                      secondsAsMs(p.max).rightJustified(10));
}

void appendTraffic(QStringList& lines, const model::TrafficSummary& t)
{
    lines << QStringLiteral("  requests %1, completed %2, rejected %3, output tokens %4")
                 .arg(groupedNumber(double(t.requests)), groupedNumber(double(t.completed)), groupedNumber(double(t.rejected)),
                      groupedNumber(t.outputTokens, 0));
    lines << QStringLiteral("  throughput %1 tok/s, goodput %2 req/s (%3 % of requests)")
                 .arg(groupedNumber(t.throughputTokensPerSecond, 1), fixedOrSignificant(t.goodputRequestsPerSecond, 2),
                      QString::number(t.goodputFraction * 100.0, 'f', 1));
    if (t.completed == 0) { // zeros would read as instant service (a trial, stop 30)
        lines << QStringLiteral("  no request completed (%1 rejected): no latencies").arg(t.rejected);
        return;
    }
    lines << QStringLiteral("  %1 %2 %3 %4 %5 %6").arg(QStringLiteral("latency ms").leftJustified(12), QStringLiteral("mean").rightJustified(10),
                                                        QStringLiteral("p50").rightJustified(10), QStringLiteral("p95").rightJustified(10),
                                                        QStringLiteral("p99").rightJustified(10), QStringLiteral("max").rightJustified(10));
    const model::LatencySummary& l = t.latency;
    lines << latencyLine(QStringLiteral("queue wait"), l.queueWait) << latencyLine(QStringLiteral("prefill"), l.prefill)
          << latencyLine(QStringLiteral("TTFT"), l.ttft) << latencyLine(QStringLiteral("ITL"), l.itl)
          << latencyLine(QStringLiteral("TPOT"), l.tpot) << latencyLine(QStringLiteral("end to end"), l.endToEnd);
}

/** A replica's name in the text table: its index, or P0, P1, ... and D0, D1, ... for disaggregated pools. */
QString replicaName(const model::SimulationResult& r, size_t i)
{
    if (r.prefillReplicas <= 0)
        return QString::number(i);
    return int(i) < r.prefillReplicas ? QStringLiteral("P%1").arg(i) : QStringLiteral("D%1").arg(int(i) - r.prefillReplicas);
}

} // namespace

QJsonObject simulationJson(const model::SimulationFile& file, const model::SimulationResult& r,
                           const std::vector<model::SweepPoint>& sweep)
{
    const model::SimulationConfig& c = file.config;
    QJsonObject o;
    o.insert(QStringLiteral("title"), str(file.title));
    o.insert(QStringLiteral("scenario"), QJsonObject{{QStringLiteral("model"), str(file.scenario.model.name)},
                                                     {QStringLiteral("hardware"), str(file.scenario.hardware.name)},
                                                     {QStringLiteral("gpus"), file.scenario.hardware.gpus}});
    o.insert(QStringLiteral("simulation"),
             QJsonObject{{QStringLiteral("policy"), policyName(c.policy)},
                         {QStringLiteral("max_sequences"), c.maxSequences},
                         {QStringLiteral("token_budget"), c.tokenBudget},
                         {QStringLiteral("kv_admission"),
                          c.kvAdmission == model::KvAdmission::Paged ? QStringLiteral("paged") : QStringLiteral("contiguous")},
                         {QStringLiteral("block_tokens"), c.blockTokens},
                         {QStringLiteral("admission_rule"), ruleName(c.admissionRule)},
                         {QStringLiteral("seed"), double(c.seed)},
                         {QStringLiteral("itl_slo_ms"), c.itlSloMs},
                         {QStringLiteral("ttft_slo_ms"), c.ttftSloMs},
                         {QStringLiteral("itl_slo_statistic"),
                          c.itlSloStatistic == model::ItlSloStatistic::Mean ? QStringLiteral("mean") : QStringLiteral("max")}});
    {
        QJsonObject sim = o.value(QStringLiteral("simulation")).toObject();
        sim.insert(QStringLiteral("prefix_caching"), c.prefixCaching);
        // The prompts one step may prefill (0: no limit), as the file's key; whether the policy uses it (issue 14 trial:
        // not echoed, and ignored under static batching without a word).
        sim.insert(QStringLiteral("max_prefills_per_step"), c.maxPrefillsPerStep);
        sim.insert(QStringLiteral("max_prefills_per_step_applies"), model::maxPrefillsPerStepApplies(c));
        o.insert(QStringLiteral("simulation"), sim);
    }
    if (c.replicas > 1 || c.prefillReplicas > 0) {
        QJsonObject sim = o.value(QStringLiteral("simulation")).toObject();
        sim.insert(QStringLiteral("replicas"), c.replicas);
        sim.insert(QStringLiteral("router"), routerName(c.router));
        o.insert(QStringLiteral("simulation"), sim);
    }
    if (c.pipelineStages > 1 || c.expertParallel > 1 || c.microbatches > 0 || c.prefillReplicas > 0) {
        // The replica layout beyond TP, and disaggregated pools (keys added with the simulation file's keys of the same names).
        QJsonObject sim = o.value(QStringLiteral("simulation")).toObject();
        sim.insert(QStringLiteral("pipeline_stages"), c.pipelineStages);
        sim.insert(QStringLiteral("expert_parallel"), c.expertParallel);
        sim.insert(QStringLiteral("microbatches"), c.microbatches);
        sim.insert(QStringLiteral("prefill_replicas"), c.prefillReplicas);
        if (c.prefillReplicas > 0)
            sim.insert(QStringLiteral("prefill_busy_s"), r.prefillBusySeconds);
        o.insert(QStringLiteral("simulation"), sim);
    }
    addTraffic(o, r.all);
    if (!r.replicas.empty()) {
        QJsonArray loads;
        for (size_t i = 0; i < r.replicas.size(); ++i) {
            const model::ReplicaLoad& l = r.replicas[i];
            QJsonObject load{{QStringLiteral("replica"), int(i)},
                                     {QStringLiteral("requests"), double(l.requests)},
                                     {QStringLiteral("completed"), double(l.completed)},
                                     {QStringLiteral("rejected"), double(l.rejected)},
                                     {QStringLiteral("output_tokens"), l.outputTokens},
                                     {QStringLiteral("throughput_tokens_per_s"), l.throughputTokensPerSecond},
                                     {QStringLiteral("goodput_fraction"), l.goodputFraction},
                                     {QStringLiteral("busy_s"), l.busySeconds},
                                     {QStringLiteral("busy_fraction"), l.busyFraction},
                                     {QStringLiteral("ttft_p99_ms"), l.p99TtftSeconds * 1e3},
                                     {QStringLiteral("ttft_p50_ms"), l.p50TtftSeconds * 1e3},
                                     {QStringLiteral("peak_sequences"), l.peakSequences},
                                     {QStringLiteral("mean_sequences"), l.meanSequences},
                                     {QStringLiteral("kv_blocks_peak"), l.kvBlocksPeak},
                                     {QStringLiteral("preemptions"), double(l.preemptions)},
                                     {QStringLiteral("prefix_cache_hit_rate"),
                                      l.prefixPromptTokens > 0 ? l.prefixHitTokens / l.prefixPromptTokens : 0.0}};
            if (l.requests == 0) // served no request: no TTFT and no goodput exist (null, not 0: adversarial trial, stop 32)
                for (const char* key : {"ttft_p99_ms", "ttft_p50_ms", "goodput_fraction"})
                    load.insert(QLatin1String(key), QJsonValue(QJsonValue::Null));
            if (r.prefillReplicas > 0) // disaggregated: the prefill pool's replicas first
                load.insert(QStringLiteral("pool"), int(i) < r.prefillReplicas ? QStringLiteral("prefill") : QStringLiteral("decode"));
            loads.append(load);
        }
        o.insert(QStringLiteral("replicas"), loads);
    }
    o.insert(QStringLiteral("rejected_over_max_context"), double(r.rejectedOverMaxContext));
    o.insert(QStringLiteral("rejected_over_kv_budget"), double(r.rejectedOverKvBudget));
    o.insert(QStringLiteral("span_s"), r.spanSeconds);
    o.insert(QStringLiteral("arrival_span_s"), r.arrivalSpanSeconds); // first to last arrival (h14b)
    if (const std::string backlog = model::backlogText(r); !backlog.empty())
        o.insert(QStringLiteral("backlog"), str(backlog));
    o.insert(QStringLiteral("busy_s"), r.busySeconds);
    o.insert(QStringLiteral("steps"), double(r.steps));
    o.insert(QStringLiteral("preemptions"), double(r.preemptions));
    o.insert(QStringLiteral("prefill_tokens_computed"), r.prefillTokensComputed);
    o.insert(QStringLiteral("recomputed_tokens"), r.recomputedTokens);
    o.insert(QStringLiteral("finished_slot_fraction"), r.finishedSlotFraction);
    o.insert(QStringLiteral("peak_sequences"), r.peakSequences);
    o.insert(QStringLiteral("mean_sequences"), r.meanSequences);
    // Prefix caching (docs/fleet-simulation.md): tokens of shared prefixes looked up at admission and found cached.
    o.insert(QStringLiteral("prefix_cache"), QJsonObject{{QStringLiteral("hit_rate"), r.prefixHitRate()},
                                                         {QStringLiteral("hit_tokens"), r.prefixHitTokens},
                                                         {QStringLiteral("prefix_tokens"), r.prefixPromptTokens},
                                                         {QStringLiteral("evicted_blocks"), double(r.prefixEvictedBlocks)}});
    QJsonArray series;
    for (const model::KvSample& k : r.kvSeries)
        series.append(QJsonArray{k.seconds, k.blocks, k.sequences});
    o.insert(QStringLiteral("kv"), QJsonObject{{QStringLiteral("blocks_total"), r.kvBlocksTotal},
                                               {QStringLiteral("blocks_peak"), r.kvBlocksPeak},
                                               {QStringLiteral("series_columns"),
                                                QJsonArray{QStringLiteral("t_s"), QStringLiteral("blocks"), QStringLiteral("sequences")}},
                                               {QStringLiteral("series"), series}});
    QJsonArray classes;
    for (size_t i = 0; i < r.classes.size() && i < c.classes.size(); ++i) {
        QJsonObject k{{QStringLiteral("name"), str(c.classes[i].name)},
                      {QStringLiteral("priority"), priorityName(c.classes[i].priority)}};
        addTraffic(k, r.classes[i]);
        classes.append(k);
    }
    o.insert(QStringLiteral("classes"), classes);
    if (!sweep.empty()) {
        QJsonArray points;
        for (const model::SweepPoint& p : sweep)
            points.append(QJsonObject{{QStringLiteral("max_sequences"), p.maxSequences},
                                      {QStringLiteral("throughput_tokens_per_s"), p.throughputTokensPerSecond},
                                      {QStringLiteral("goodput_requests_per_s"), p.goodputRequestsPerSecond},
                                      {QStringLiteral("goodput_fraction"), p.goodputFraction},
                                      {QStringLiteral("p95_ttft_ms"), p.p95TtftSeconds * 1e3},
                                      {QStringLiteral("p95_tpot_ms"), p.p95TpotSeconds * 1e3},
                                      {QStringLiteral("p99_itl_ms"), p.p99ItlSeconds * 1e3},
                                      {QStringLiteral("mean_sequences"), p.meanSequences},
                                      {QStringLiteral("preemptions"), double(p.preemptions)}});
        o.insert(QStringLiteral("sweep"), points);
    }
    return o;
}

QString simulationText(const model::SimulationFile& file, const model::SimulationResult& r,
                       const std::vector<model::SweepPoint>& sweep)
{
    const model::SimulationConfig& c = file.config;
    QStringList lines;
    if (!file.title.empty())
        lines << str(file.title);
    lines << QStringLiteral("%1 on %2 x%3; policy %4, max sequences %5%6, %7 KV (blocks of %8), admission rule %9, seed %10")
                 .arg(str(file.scenario.model.name), str(file.scenario.hardware.name))
                 .arg(file.scenario.hardware.gpus)
                 .arg(policyName(c.policy))
                 .arg(c.maxSequences)
                 .arg(c.policy == model::BatchingPolicy::Chunked ? QStringLiteral(", token budget %1").arg(c.tokenBudget) : QString())
                 .arg(c.kvAdmission == model::KvAdmission::Paged ? QStringLiteral("paged") : QStringLiteral("contiguous"))
                 .arg(c.blockTokens)
                 .arg(ruleName(c.admissionRule))
                 .arg(double(c.seed), 0, 'f', 0);
    if (c.maxPrefillsPerStep > 0) // 0: no limit, not shown
        lines << QString::fromStdString(model::maxPrefillsPerStepText(c));
    if (c.prefillReplicas > 0)
        lines << QStringLiteral("Disaggregated: %1 prefill and %2 decode replicas, each pool behind a %3 router, the KV sent over the link")
                     .arg(c.prefillReplicas)
                     .arg(c.replicas)
                     .arg(routerName(c.router).replace(QLatin1Char('_'), QLatin1Char(' ')));
    else if (c.replicas > 1)
        lines << QStringLiteral("Fleet: %1 replicas behind a %2 router (each the scenario's %3 GPU(s))")
                     .arg(c.replicas)
                     .arg(routerName(c.router).replace(QLatin1Char('_'), QLatin1Char(' ')))
                     .arg(file.scenario.hardware.gpus);
    if (c.pipelineStages > 1 || c.expertParallel > 1)
        lines << QStringLiteral("Each replica: TP %1 (hardware.gpus) x PP %2, EP %3, %4 GPUs; decode microbatches %5")
                     .arg(std::max(1, file.scenario.hardware.gpus))
                     .arg(c.pipelineStages)
                     .arg(c.expertParallel)
                     .arg(c.pipelineStages * std::max(std::max(1, file.scenario.hardware.gpus), c.expertParallel))
                     .arg(c.microbatches > 0 ? QString::number(c.microbatches) : QStringLiteral("min(PP, batch)"));
    lines << QStringLiteral("SLOs: TTFT %1 ms, ITL %2 ms (%3)")
                 .arg(c.ttftSloMs)
                 .arg(c.itlSloMs)
                 .arg(c.itlSloStatistic == model::ItlSloStatistic::Mean ? QStringLiteral("per-request TPOT") : QStringLiteral("per-request max ITL"));
    lines << QString();
    lines << QStringLiteral("All requests");
    appendTraffic(lines, r.all);
    lines << QStringLiteral("  span %1 s, busy %2 s, %3 steps, %4 preemptions (%5 tokens recomputed)")
                 .arg(QString::number(r.spanSeconds, 'f', 1), QString::number(r.busySeconds, 'f', 1))
                 .arg(r.steps)
                 .arg(r.preemptions)
                 .arg(QString::number(r.recomputedTokens, 'f', 0));
    if (const std::string backlog = model::backlogText(r); !backlog.empty())
        lines << QStringLiteral("  behind: %1").arg(str(backlog));
    lines << QStringLiteral("  sequences holding a slot: peak %1, mean %2; slot-time on finished sequences %3 %")
                 .arg(r.peakSequences)
                 .arg(QString::number(r.meanSequences, 'f', 1), QString::number(r.finishedSlotFraction * 100.0, 'f', 1));
    lines << QStringLiteral("  KV blocks%4: %1 total, peak %2 in use (%3 %)")
                 .arg(QString::number(r.kvBlocksTotal, 'f', 0), QString::number(r.kvBlocksPeak, 'f', 0),
                      QString::number(r.kvBlocksTotal > 0 ? 100.0 * r.kvBlocksPeak / r.kvBlocksTotal : 0.0, 'f', 1),
                      r.replicas.empty() ? QString() : QStringLiteral(" (per replica, the highest peak)"));
    if (r.prefixPromptTokens > 0)
        lines << QStringLiteral("  prefix cache: %1 % hit (%2 of %3 shared-prefix tokens not prefilled)%4")
                     .arg(QString::number(r.prefixHitRate() * 100.0, 'f', 1), QString::number(r.prefixHitTokens, 'f', 0),
                          QString::number(r.prefixPromptTokens, 'f', 0),
                          c.prefixCaching ? QString() : QStringLiteral("; prefix_caching is off"));
    if (!r.replicas.empty()) {
        lines << QString();
        lines << (r.prefillReplicas > 0 ? QStringLiteral("Load per replica (P: the prefill pool, D: the decode pool)")
                                        : QStringLiteral("Load per replica"));
        lines << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7 %8")
                     .arg(QStringLiteral("replica").rightJustified(7), QStringLiteral("requests").rightJustified(9),
                          QStringLiteral("tok/s").rightJustified(10), QStringLiteral("busy %").rightJustified(7),
                          QStringLiteral("good %").rightJustified(7), QStringLiteral("p99 TTFT ms").rightJustified(12),
                          QStringLiteral("mean seqs").rightJustified(10), QStringLiteral("preempt").rightJustified(8));
        // Replicas that served no request are one line, not one row each (8,192 replicas printed thousands of zero rows:
        // h14k); the JSON keeps every replica (the CSV is one row for the run: the adversarial trial of stop 32 found the text
        // pointing to it).
        size_t idle = 0, idlePrefill = 0;
        for (size_t i = 0; i < r.replicas.size(); ++i) {
            const model::ReplicaLoad& l = r.replicas[i];
            if (l.requests == 0 && r.replicas.size() > 1) {
                ++idle;
                idlePrefill += int(i) < r.prefillReplicas ? 1 : 0;
                continue;
            }
            lines << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7 %8")
                         .arg(replicaName(r, i).rightJustified(7), groupedNumber(double(l.requests)).rightJustified(9),
                              groupedNumber(l.throughputTokensPerSecond, 1).rightJustified(10),
                              QString::number(l.busyFraction * 100.0, 'f', 1).rightJustified(7),
                              QString::number(l.goodputFraction * 100.0, 'f', 1).rightJustified(7),
                              secondsAsMs(l.p99TtftSeconds).rightJustified(12), QString::number(l.meanSequences, 'f', 1).rightJustified(10),
                              QString::number(l.preemptions).rightJustified(8));
        }
        if (idle > 0)
            lines << QStringLiteral("  %1 served no request%2 (not listed; --format json lists every replica)")
                         .arg(idle == 1 ? QStringLiteral("1 replica") : QStringLiteral("%1 replicas").arg(groupedNumber(double(idle))),
                              r.prefillReplicas > 0 ? QStringLiteral(": %1 prefill, %2 decode").arg(groupedNumber(double(idlePrefill)),
                                                                                                   groupedNumber(double(idle - idlePrefill)))
                                                    : QString());
        if (r.prefillReplicas > 0)
            lines << QStringLiteral("  (a D row's p99 TTFT is its wait for a decode slot, from the KV's arrival to the first decoded token: "
                                    "part of the requests' ITL and TPOT; their TTFT is the P rows')");
    }
    for (size_t i = 0; i < r.classes.size() && i < c.classes.size() && c.classes.size() > 1; ++i) {
        lines << QString();
        lines << QStringLiteral("Class %1 (%2)").arg(str(c.classes[i].name), priorityName(c.classes[i].priority));
        appendTraffic(lines, r.classes[i]);
    }
    if (!sweep.empty()) {
        lines << QString();
        lines << QStringLiteral("Sweep of max sequences");
        lines << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7")
                     .arg(QStringLiteral("cap").rightJustified(6), QStringLiteral("tok/s").rightJustified(10),
                          QStringLiteral("good req/s").rightJustified(11), QStringLiteral("good %").rightJustified(8),
                          QStringLiteral("p95 TTFT ms").rightJustified(12), QStringLiteral("p95 TPOT ms").rightJustified(12),
                          QStringLiteral("p99 ITL ms").rightJustified(11));
        for (const model::SweepPoint& p : sweep)
            lines << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7")
                         .arg(QString::number(p.maxSequences).rightJustified(6),
                              QString::number(p.throughputTokensPerSecond, 'f', 1).rightJustified(10),
                              QString::number(p.goodputRequestsPerSecond, 'f', 2).rightJustified(11),
                              QString::number(p.goodputFraction * 100.0, 'f', 1).rightJustified(8),
                              secondsAsMs(p.p95TtftSeconds).rightJustified(12), secondsAsMs(p.p95TpotSeconds).rightJustified(12),
                              secondsAsMs(p.p99ItlSeconds).rightJustified(11));
    }
    return lines.join(QLatin1Char('\n'));
}

QJsonObject rateSweepJson(const model::RateSweep& sweep, const model::RateSweepResult& result)
{
    QJsonArray points;
    for (const model::RatePoint& p : result.points)
        points.append(QJsonObject{{QStringLiteral("rate_per_s"), p.ratePerSecond},
                                  {QStringLiteral("requests"), double(p.requests)},
                                  {QStringLiteral("attainment"), p.attainment},
                                  {QStringLiteral("goodput_requests_per_s"), p.goodputRequestsPerSecond},
                                  {QStringLiteral("throughput_tokens_per_s"), p.throughputTokensPerSecond},
                                  {QStringLiteral("ttft_p50_ms"), p.p50TtftSeconds * 1e3},
                                  {QStringLiteral("ttft_p99_ms"), p.p99TtftSeconds * 1e3},
                                  {QStringLiteral("itl_p50_ms"), p.p50ItlSeconds * 1e3},
                                  {QStringLiteral("itl_p99_ms"), p.p99ItlSeconds * 1e3},
                                  {QStringLiteral("end_to_end_p99_ms"), p.p99EndToEndSeconds * 1e3},
                                  {QStringLiteral("prefix_cache_hit_rate"), p.prefixCacheHitRate},
                                  {QStringLiteral("bisection"), p.bisection}});
    auto optional = [](const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); };
    return QJsonObject{{QStringLiteral("from_per_s"), sweep.fromPerSecond},
                       {QStringLiteral("to_per_s"), sweep.toPerSecond},
                       {QStringLiteral("steps"), sweep.steps},
                       {QStringLiteral("bisections"), sweep.bisections},
                       {QStringLiteral("attainment_target"), sweep.attainmentTarget},
                       {QStringLiteral("base_rate_per_s"), result.baseRatePerSecond},
                       {QStringLiteral("max_rate_per_s"), optional(result.maxRatePerSecond)},
                       {QStringLiteral("first_miss_rate_per_s"), optional(result.firstMissPerSecond)},
                       {QStringLiteral("points"), points}};
}

namespace {

QString maxRateSentence(const model::RateSweep& sweep, const model::RateSweepResult& result)
{
    const QString target = QString::number(sweep.attainmentTarget * 100.0, 'g', 4);
    if (!result.maxRatePerSecond)
        return QStringLiteral("No swept rate holds %1 % attainment: %2 req/s already misses it (sweep lower rates)")
            .arg(target, QString::number(result.firstMissPerSecond.value_or(sweep.fromPerSecond), 'g', 4));
    if (!result.firstMissPerSecond)
        return QStringLiteral("Every swept rate holds %1 % attainment: the highest is at least %2 req/s (sweep higher rates)")
            .arg(target, QString::number(*result.maxRatePerSecond, 'g', 4));
    QString sentence = QStringLiteral("Highest rate holding %1 % attainment: %2 req/s (the next simulated, %3 req/s, misses it)")
                           .arg(target, QString::number(*result.maxRatePerSecond, 'g', 4), QString::number(*result.firstMissPerSecond, 'g', 4));
    // The bisections may end with the answer anywhere in a wide bracket (a trial, stop 30: 1:1e308 ended at "1 req/s"
    // with the bracket 1 to 6.5e4, where the rate is about 85): say so rather than let the lower end read as the answer.
    if (const double width = *result.firstMissPerSecond / *result.maxRatePerSecond; width >= 2.0)
        sentence += QStringLiteral("; the answer lies between the two, a factor of %1 apart: sweep between them for a closer one")
                        .arg(QString::number(width, 'g', 3));
    return sentence;
}

/** A rate for the text table's 9-character column: fixed with 3 decimals up to 1e5 req/s, else 4 significant figures
 *  (a trial, stop 30: 1e308 printed as a 300-digit number). */
QString rateCell(double ratePerSecond)
{
    return ratePerSecond < 1e5 ? QString::number(ratePerSecond, 'f', 3) : QString::number(ratePerSecond, 'g', 4);
}

} // namespace

namespace {

/**
 * An attainment fraction as a percentage with two decimals, rounded down: a rate that misses a 99 % target at
 * 0.98995 prints 98.99, not a 99.00 beside the verdict "misses it" (the 1e-9 keeps 0.99 itself at 99.00).
 */
QString attainmentPercent(double attainment)
{
    return QString::number(std::floor(attainment * 10000.0 + 1e-9) / 100.0, 'f', 2);
}

} // namespace

QString rateSweepText(const model::RateSweep& sweep, const model::RateSweepResult& result)
{
    QStringList lines;
    lines << QStringLiteral("Open-loop arrival-rate sweep (the workload's %1 req/s scaled; attainment: requests meeting both SLOs)")
                 .arg(QString::number(result.baseRatePerSecond, 'g', 4));
    lines << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7")
                 .arg(QStringLiteral("req/s").rightJustified(9), QStringLiteral("requests").rightJustified(9),
                      QStringLiteral("attain %").rightJustified(9), QStringLiteral("good req/s").rightJustified(11),
                      QStringLiteral("tok/s").rightJustified(10), QStringLiteral("p99 TTFT ms").rightJustified(12),
                      QStringLiteral("p99 ITL ms").rightJustified(11));
    for (const model::RatePoint& p : result.points)
        lines << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7")
                         .arg(rateCell(p.ratePerSecond).rightJustified(9), QString::number(p.requests).rightJustified(9),
                              attainmentPercent(p.attainment).rightJustified(9),
                              QString::number(p.goodputRequestsPerSecond, 'f', 3).rightJustified(11),
                              QString::number(p.throughputTokensPerSecond, 'f', 1).rightJustified(10), secondsAsMs(p.p99TtftSeconds).rightJustified(12),
                              secondsAsMs(p.p99ItlSeconds).rightJustified(11))
                     + (p.bisection ? QStringLiteral("  (bisection)") : QString());
    lines << QStringLiteral("  ") + maxRateSentence(sweep, result);
    return lines.join(QLatin1Char('\n'));
}

QString rateSweepCsv(const model::RateSweep& sweep, const model::RateSweepResult& result)
{
    QStringList lines;
    lines << QStringLiteral("rate_per_s,requests,attainment,goodput_requests_per_s,throughput_tokens_per_s,ttft_p50_ms,ttft_p99_ms,"
                            "itl_p50_ms,itl_p99_ms,end_to_end_p99_ms,bisection,meets_target,prefix_cache_hit_rate");
    auto n = [](double v) { return QString::number(v, 'g', 10); };
    for (const model::RatePoint& p : result.points)
        lines << QStringList{n(p.ratePerSecond), QString::number(p.requests), n(p.attainment), n(p.goodputRequestsPerSecond),
                             n(p.throughputTokensPerSecond), n(p.p50TtftSeconds * 1e3), n(p.p99TtftSeconds * 1e3),
                             n(p.p50ItlSeconds * 1e3), n(p.p99ItlSeconds * 1e3), n(p.p99EndToEndSeconds * 1e3),
                             p.bisection ? QStringLiteral("1") : QStringLiteral("0"),
                             p.attainment >= sweep.attainmentTarget ? QStringLiteral("1") : QStringLiteral("0"),
                             n(p.prefixCacheHitRate)}
                     .join(QLatin1Char(','));
    return lines.join(QLatin1Char('\n'));
}

QString parseRateSweepOption(const QString& text, model::RateSweep& out)
{
    const QStringList parts = text.split(QLatin1Char(':'));
    const QString bad = QStringLiteral("--rate-sweep %1: expected FROM:TO:STEPS, rates in requests/s and a whole number of steps "
                                       "from 1 to %2, e.g. 1:20:10")
                            .arg(text)
                            .arg(model::kMaxRateSweepSteps);
    if (parts.size() != 3)
        return bad;
    bool okFrom = false, okTo = false, okSteps = false;
    const double from = parts[0].trimmed().toDouble(&okFrom);
    const double to = parts[1].trimmed().toDouble(&okTo);
    const int steps = parts[2].trimmed().toInt(&okSteps);
    if (!okFrom || !okTo || !okSteps || !std::isfinite(from) || !std::isfinite(to) || steps < 1 || steps > model::kMaxRateSweepSteps)
        return bad;
    if (!(from > 0) || to < from)
        return QStringLiteral("--rate-sweep %1: FROM must be > 0 and TO >= FROM").arg(text);
    out.fromPerSecond = from;
    out.toPerSecond = to;
    out.steps = steps;
    return {};
}

int runSimulate(const QString& file, const SimulateOptions& options)
{
    const bool json = options.format == QLatin1String("json");
    model::SimulationFile sim;
    if (const std::string err = model::loadSimulationFile(file, sim); !err.empty()) {
        printLine(stderr, QStringLiteral("ridgeline: ") + file + QStringLiteral(": ") + QString::fromStdString(err));
        return kExitBadInput;
    }
    model::RateSweep sweepSpec = sim.rateSweep;
    if (options.rateSweep) {
        sweepSpec.fromPerSecond = options.rateSweep->fromPerSecond;
        sweepSpec.toPerSecond = options.rateSweep->toPerSecond;
        sweepSpec.steps = options.rateSweep->steps;
    }
    const std::string sweepField = options.rateSweep ? "--rate-sweep" : "simulation.rate_sweep";
    if (options.attainment) {
        if (sweepSpec.steps == 0) {
            printLine(stderr, QStringLiteral("ridgeline: --attainment goes with --rate-sweep FROM:TO:STEPS or a \"rate_sweep\" in the file"));
            return kExitBadInput;
        }
        sweepSpec.attainmentTarget = *options.attainment;
    }
    if (sweepSpec.steps > 0)
        if (const std::string err = model::checkRateSweep(sim.config, sweepSpec, sweepField); !err.empty()) {
            printLine(stderr, QStringLiteral("ridgeline: ") + file + QStringLiteral(": ") + QString::fromStdString(err));
            return kExitBadInput;
        }
    // A note, not an error: the run is still the one asked for (a limit of 0 under static batching needs no word).
    if (sim.config.maxPrefillsPerStep > 0 && !model::maxPrefillsPerStepApplies(sim.config))
        printLine(stderr, QStringLiteral("ridgeline: %1: note: %2").arg(file, QString::fromStdString(model::maxPrefillsPerStepText(sim.config))));
    // Prompts past the model's trained context (model.max_position_embeddings): served all the same, as a note, the
    // rule of the report and the plan (an adversarial trial, stop 30: the simulator never compared them). The longest
    // prompt a class can draw: a fixed length, a uniform's max, a log-normal's clamp or else its p99.
    if (const int trained = sim.scenario.model.maxPositionEmbeddings; trained > 0)
        for (const model::RequestClass& c : sim.config.classes) {
            const model::LengthDistribution& d = c.prompt;
            const double longest = d.kind == model::LengthDistribution::Kind::Fixed     ? d.value
                                   : d.kind == model::LengthDistribution::Kind::Uniform ? d.max
                                   : d.max > 0                                          ? d.max
                                                                                        : d.p99;
            if (longest > trained)
                printLine(stderr, QStringLiteral("ridgeline: %1: note: class \"%2\" has prompts of up to %3 tokens, past the model's trained "
                                                 "context of %4 (model.max_position_embeddings); they are simulated all the same")
                                      .arg(file, QString::fromStdString(c.name), QString::number(longest, 'f', 0))
                                      .arg(trained));
        }
    if (sim.trace.skippedRows > 0)
        printLine(stderr, QStringLiteral("ridgeline: %1: %2 trace row(s) with 0 context or generated tokens (failed requests) were left out")
                              .arg(file)
                              .arg(sim.trace.skippedRows));
    // The workload is drawn as the run goes (simulateWorkload()) and no per-request record is kept: none of the outputs
    // needs one, so memory stays flat in the run's length (docs/fleet-simulation.md, "Memory").
    sim.config.requestRecords = 0;
    model::Request firstRequest;
    if (!model::RequestGenerator(sim.config).next(firstRequest)) {
        printLine(stderr, QStringLiteral("ridgeline: ") + file
                              + QStringLiteral(": the workload generates no requests (every class has rate 0 and count 0, "
                                               "duration_s or requests is 0, or the trace has no rows): nothing to simulate"));
        return kExitBadInput;
    }
    const model::SimulationResult result = model::simulateWorkload(sim.scenario, sim.config);
    if (result.all.rejected > 0) {
        // Said on stderr so that the JSON on stdout stays machine-readable; the tables still print.
        QStringList why;
        if (result.rejectedOverMaxContext > 0)
            why << QStringLiteral("%1 with prompt + output over serving.max_context_tokens = %2")
                       .arg(result.rejectedOverMaxContext)
                       .arg(sim.scenario.serving.maxContextTokens);
        if (result.rejectedOverKvBudget > 0)
            why << QStringLiteral("%1 needing more KV than the budget can ever grant (%2 blocks of %3 tokens)")
                       .arg(result.rejectedOverKvBudget)
                       .arg(QString::number(result.kvBlocksTotal, 'f', 0))
                       .arg(sim.config.blockTokens);
        printLine(stderr, QStringLiteral("ridgeline: %1: %2 of %3 requests were rejected%4%5")
                              .arg(file)
                              .arg(result.all.rejected)
                              .arg(result.all.requests)
                              .arg(why.isEmpty() ? QString() : QStringLiteral(": "), why.join(QStringLiteral("; "))));
    }
    const std::vector<model::SweepPoint> sweep = sim.config.sweepMaxSequences.empty()
        ? std::vector<model::SweepPoint>{}
        : model::sweepWorkloadMaxSequences(sim.scenario, sim.config);
    model::RateSweepResult rates;
    if (sweepSpec.steps > 0)
        rates = model::sweepArrivalRate(sim.scenario, sim.config, sweepSpec);
    if (options.format == QLatin1String("csv")) {
        if (sweepSpec.steps == 0) { // the run itself as the one row
            model::RatePoint p;
            p.ratePerSecond = model::workloadRatePerSecond(sim.config);
            p.requests = result.all.requests;
            p.attainment = result.all.goodputFraction;
            p.goodputRequestsPerSecond = result.all.goodputRequestsPerSecond;
            p.throughputTokensPerSecond = result.all.throughputTokensPerSecond;
            p.p50TtftSeconds = result.all.latency.ttft.p50;
            p.p99TtftSeconds = result.all.latency.ttft.p99;
            p.p50ItlSeconds = result.all.latency.itl.p50;
            p.p99ItlSeconds = result.all.latency.itl.p99;
            p.p99EndToEndSeconds = result.all.latency.endToEnd.p99;
            p.prefixCacheHitRate = result.prefixHitRate();
            rates.points = {p};
        }
        printLine(stdout, rateSweepCsv(sweepSpec, rates));
        return 0;
    }
    if (json) {
        QJsonObject o = simulationJson(sim, result, sweep);
        if (sweepSpec.steps > 0)
            o.insert(QStringLiteral("rate_sweep"), rateSweepJson(sweepSpec, rates));
        printLine(stdout, QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)).trimmed());
    } else {
        QString text = simulationText(sim, result, sweep);
        if (sweepSpec.steps > 0)
            text += QStringLiteral("\n\n") + rateSweepText(sweepSpec, rates);
        printLine(stdout, text);
    }
    return 0;
}

} // namespace ridgeline::app
