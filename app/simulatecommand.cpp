// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/simulatecommand.h"

#include "app/commandline.h"

#include <cstdio>

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

namespace ridgeline::app {

namespace {

constexpr int kExitBadInput = 2;

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

QString priorityName(model::Priority p)
{
    return p == model::Priority::Batch ? QStringLiteral("batch") : QStringLiteral("interactive");
}

QJsonObject percentilesJson(const model::Percentiles& p)
{
    return QJsonObject{{QStringLiteral("count"), double(p.count)},    {QStringLiteral("mean"), p.mean * 1e3},
                       {QStringLiteral("p50"), p.p50 * 1e3},          {QStringLiteral("p95"), p.p95 * 1e3},
                       {QStringLiteral("p99"), p.p99 * 1e3},          {QStringLiteral("max"), p.max * 1e3}};
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

QString ms(double seconds)
{
    return QString::number(seconds * 1e3, 'f', 1);
}

QString latencyLine(const QString& name, const model::Percentiles& p)
{
    return QStringLiteral("  %1 %2 %3 %4 %5 %6").arg(name.leftJustified(12), ms(p.mean).rightJustified(10), ms(p.p50).rightJustified(10),
                                                      ms(p.p95).rightJustified(10), ms(p.p99).rightJustified(10),
                                                      ms(p.max).rightJustified(10));
}

void appendTraffic(QStringList& lines, const model::TrafficSummary& t)
{
    lines << QStringLiteral("  requests %1, completed %2, rejected %3, output tokens %4")
                 .arg(t.requests).arg(t.completed).arg(t.rejected).arg(QString::number(t.outputTokens, 'f', 0));
    lines << QStringLiteral("  throughput %1 tok/s, goodput %2 req/s (%3 % of requests)")
                 .arg(QString::number(t.throughputTokensPerSecond, 'f', 1), QString::number(t.goodputRequestsPerSecond, 'f', 2),
                      QString::number(t.goodputFraction * 100.0, 'f', 1));
    lines << QStringLiteral("  %1 %2 %3 %4 %5 %6").arg(QStringLiteral("latency ms").leftJustified(12), QStringLiteral("mean").rightJustified(10),
                                                        QStringLiteral("p50").rightJustified(10), QStringLiteral("p95").rightJustified(10),
                                                        QStringLiteral("p99").rightJustified(10), QStringLiteral("max").rightJustified(10));
    const model::LatencySummary& l = t.latency;
    lines << latencyLine(QStringLiteral("queue wait"), l.queueWait) << latencyLine(QStringLiteral("prefill"), l.prefill)
          << latencyLine(QStringLiteral("TTFT"), l.ttft) << latencyLine(QStringLiteral("ITL"), l.itl)
          << latencyLine(QStringLiteral("TPOT"), l.tpot) << latencyLine(QStringLiteral("end to end"), l.endToEnd);
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
    addTraffic(o, r.all);
    o.insert(QStringLiteral("rejected_over_max_context"), double(r.rejectedOverMaxContext));
    o.insert(QStringLiteral("rejected_over_kv_budget"), double(r.rejectedOverKvBudget));
    o.insert(QStringLiteral("span_s"), r.spanSeconds);
    o.insert(QStringLiteral("busy_s"), r.busySeconds);
    o.insert(QStringLiteral("steps"), double(r.steps));
    o.insert(QStringLiteral("preemptions"), double(r.preemptions));
    o.insert(QStringLiteral("prefill_tokens_computed"), r.prefillTokensComputed);
    o.insert(QStringLiteral("recomputed_tokens"), r.recomputedTokens);
    o.insert(QStringLiteral("finished_slot_fraction"), r.finishedSlotFraction);
    o.insert(QStringLiteral("peak_sequences"), r.peakSequences);
    o.insert(QStringLiteral("mean_sequences"), r.meanSequences);
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
    lines << QStringLiteral("  sequences holding a slot: peak %1, mean %2; slot-time on finished sequences %3 %")
                 .arg(r.peakSequences)
                 .arg(QString::number(r.meanSequences, 'f', 1), QString::number(r.finishedSlotFraction * 100.0, 'f', 1));
    lines << QStringLiteral("  KV blocks: %1 total, peak %2 in use (%3 %)")
                 .arg(QString::number(r.kvBlocksTotal, 'f', 0), QString::number(r.kvBlocksPeak, 'f', 0),
                      QString::number(r.kvBlocksTotal > 0 ? 100.0 * r.kvBlocksPeak / r.kvBlocksTotal : 0.0, 'f', 1));
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
                              ms(p.p95TtftSeconds).rightJustified(12), ms(p.p95TpotSeconds).rightJustified(12),
                              ms(p.p99ItlSeconds).rightJustified(11));
    }
    return lines.join(QLatin1Char('\n'));
}

int runSimulate(const QString& file, bool json)
{
    model::SimulationFile sim;
    if (const std::string err = model::loadSimulationFile(file, sim); !err.empty()) {
        printLine(stderr, QStringLiteral("ridgeline: ") + file + QStringLiteral(": ") + QString::fromStdString(err));
        return kExitBadInput;
    }
    const std::vector<model::Request> requests = model::generateRequests(sim.config);
    if (requests.empty()) {
        printLine(stderr, QStringLiteral("ridgeline: ") + file
                              + QStringLiteral(": the workload generates no requests (every class has rate 0 and count 0, "
                                               "duration_s or requests is 0, or the trace has no rows): nothing to simulate"));
        return kExitBadInput;
    }
    const model::SimulationResult result = model::simulate(sim.scenario, sim.config, requests);
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
        : model::sweepMaxSequences(sim.scenario, sim.config, requests);
    if (json)
        printLine(stdout, QString::fromUtf8(QJsonDocument(simulationJson(sim, result, sweep)).toJson(QJsonDocument::Indented)).trimmed());
    else
        printLine(stdout, simulationText(sim, result, sweep));
    return 0;
}

} // namespace ridgeline::app
