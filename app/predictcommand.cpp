// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/predictcommand.h"

#include <cmath>
#include <cstdio>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include "app/commandline.h"
#include "model/files/inputfile.h"
#include "model/cost/scenariokeys.h"

namespace ridgeline::app {

namespace {

using model::BenchmarkMetric;
using model::BenchmarkStatistic;
using model::ComparedLatency;
using model::compareItl;
using model::compareTtft;

constexpr BenchmarkStatistic kStatistics[] = {BenchmarkStatistic::Mean, BenchmarkStatistic::Median, BenchmarkStatistic::P90,
                                              BenchmarkStatistic::P95, BenchmarkStatistic::P99};

QString loadText(const model::BenchmarkPoint& p)
{
    switch (p.load) {
    case model::BenchmarkLoad::Concurrency: return QStringLiteral("C=%1").arg(p.concurrency);
    case model::BenchmarkLoad::StaticBatch: return QStringLiteral("B=%1").arg(p.concurrency);
    case model::BenchmarkLoad::RequestRate: {
        QString r = std::isinf(p.requestRatePerSecond) ? QStringLiteral("rate=inf") : QStringLiteral("rate=%1/s").arg(p.requestRatePerSecond);
        if (p.concurrency > 0)
            r += QStringLiteral(",C<=%1").arg(p.concurrency);
        return r;
    }
    }
    return {};
}

QString loadKey(model::BenchmarkLoad l)
{
    switch (l) {
    case model::BenchmarkLoad::Concurrency: return QStringLiteral("concurrency");
    case model::BenchmarkLoad::StaticBatch: return QStringLiteral("static_batch");
    case model::BenchmarkLoad::RequestRate: return QStringLiteral("request_rate");
    }
    return {};
}

QString statName(const ComparedLatency& c)
{
    return QString::fromLatin1(model::benchmarkStatisticKey(c.statistic)) + QLatin1Char(' ') + QString::fromLatin1(model::benchmarkMetricKey(c.metric));
}

QString ms(double v)
{
    return v >= 1000 ? QString::number(v, 'f', 0) : v >= 100 ? QString::number(v, 'f', 1) : QString::number(v, 'f', 2);
}

QString pct(double fraction)
{
    return QString::asprintf("%+.1f%%", fraction * 100);
}

/** The step-cost terms that are not zero in this scenario and these options (each documented in docs/cost-model.md). */
QStringList terms(const model::Scenario& s, const model::BenchmarkOptions& o)
{
    QStringList t;
    const model::SchedulerVersion scheduler = s.serving.scheduler.value_or(o.scheduler); // as model::predictBenchmark takes it
    const QString fromScenario = s.serving.scheduler ? QStringLiteral(" (serving.scheduler)") : QString();
    if (scheduler == model::SchedulerVersion::TrtllmInflight)
        t << QStringLiteral("scheduler: TensorRT-LLM in-flight batching (whole prompts, no chunked context, within the token budget; "
                            "prompt + output KV reserved at admission, GUARANTEED_NO_EVICT)")
                 + fromScenario;
    else if (scheduler == model::SchedulerVersion::V0PromptFirst)
        t << QStringLiteral("scheduler: vLLM V0 without chunked prefill (whole prompts first: a step that admits prompts holds "
                            "no decodes; whole prompt's KV reserved at admission)")
                 + fromScenario;
    else
        t << QStringLiteral("scheduler: vLLM %1 (%2)")
                 .arg(scheduler == model::SchedulerVersion::V1 ? QStringLiteral("V1") : QStringLiteral("V0"),
                      scheduler == model::SchedulerVersion::V1 ? QStringLiteral("no whole-prompt KV reservation at admission")
                                                               : QStringLiteral("whole prompt's KV reserved at admission"))
                 + fromScenario;
    if (scheduler == model::SchedulerVersion::V0PromptFirst)
        t << QStringLiteral("prompt steps of whole prompts up to %1 tokens%2 (max_num_batched_tokens), decodes waiting; "
                            "otherwise a step decodes every running sequence")
                 .arg(s.serving.maxNumTokens > 0 ? s.serving.maxNumTokens : o.tokenBudget)
                 .arg(s.serving.maxNumTokens > 0 ? QStringLiteral(" (serving.max_num_tokens)") : QString());
    else if (s.serving.maxNumTokens > 0) // the scenario's (calibrated or known) value replaces the option's
        t << QStringLiteral("one token budget of %1 per step (serving.max_num_tokens) shared by decodes and prefill chunks (mixed steps); "
                            "chunks attend to their cached prefix")
                 .arg(s.serving.maxNumTokens);
    else
        t << QStringLiteral("one token budget of %1 per step shared by decodes and prefill chunks (mixed steps); chunks attend to their cached prefix")
                 .arg(o.tokenBudget);
    if (s.serving.dynamicBatchTuning && scheduler == model::SchedulerVersion::TrtllmInflight)
        t << QStringLiteral("TensorRT-LLM's dynamic batch tuner (serving.dynamic_batch_tuning): each step's token "
                            "budget and batch size from the moving mean prompt and output lengths of the last 128 "
                            "requests held, the budget at most the one above");
    if (s.serving.maxPrefillsPerStep > 0) // 0: no limit, not shown
        t << QStringLiteral("at most %1 prompts prefilled per step (serving.max_prefills_per_step); the rest wait for a later step")
                 .arg(s.serving.maxPrefillsPerStep);
    t << QStringLiteral("decode batch capped at %1 sequences and by KV capacity (paged, %2-token blocks), preemption by recompute")
             .arg(o.maxSequences)
             .arg(s.serving.blockTokens);
    if (s.efficiency.stepOverheadSeconds > 0)
        t << QStringLiteral("fixed step overhead %1 ms (efficiency.step_overhead_ms)").arg(s.efficiency.stepOverheadSeconds * 1e3);
    if (s.efficiency.prefillOverheadSeconds > 0)
        t << QStringLiteral("fixed prefill overhead %1 ms per prefilling step (efficiency.prefill_overhead_ms)").arg(s.efficiency.prefillOverheadSeconds * 1e3);
    if (s.efficiency.chunkOverheadSeconds > 0)
        t << QStringLiteral("per-chunk prefill cost %1 ms (efficiency.chunk_overhead_ms)").arg(s.efficiency.chunkOverheadSeconds * 1e3);
    if (s.efficiency.perSequenceOverheadSeconds > 0)
        t << QStringLiteral("per-sequence step cost %1 us per decoding sequence (efficiency.per_sequence_overhead_us)")
                 .arg(s.efficiency.perSequenceOverheadSeconds * 1e6);
    if (s.efficiency.ttftOverheadSeconds > 0)
        t << QStringLiteral("TTFT = %1 ms per request before the engine (HTTP, tokenization; efficiency.ttft_overhead_ms) + queue + prefill step")
                 .arg(s.efficiency.ttftOverheadSeconds * 1e3);
    if (s.efficiency.firstTokenReturnSeconds > 0)
        t << QStringLiteral("first token returned %1 ms after the engine's step that emitted it (detokenising, starting the stream; "
                            "efficiency.first_token_return_ms): TTFT grows by it at any load, later tokens follow in order")
                 .arg(s.efficiency.firstTokenReturnSeconds * 1e3);
    if (s.efficiency.frontendSerialSeconds > 0)
        t << QStringLiteral("serial front end %1 ms per request, one request at a time (efficiency.frontend_serial_ms): requests sent "
                            "together reach the engine this far apart")
                 .arg(s.efficiency.frontendSerialSeconds * 1e3);
    if (s.serving.apiOutputSeconds > 0)
        t << QStringLiteral("API server output path %1 us per streamed token, one FIFO shared with request acceptance "
                            "(serving.api_output_us_per_token): the client sees each token when it has passed")
                 .arg(s.serving.apiOutputSeconds * 1e6);
    if (s.efficiency.kvBandwidth > 0 && s.efficiency.kvBandwidth != s.efficiency.bandwidth)
        t << QStringLiteral("KV cache read at %1 of peak bandwidth, weights at %2 (efficiency.kv_bandwidth, efficiency.bandwidth)")
                 .arg(s.efficiency.kvBandwidth)
                 .arg(s.efficiency.bandwidth);
    if (s.efficiency.kvBandwidthOneSequence > 0)
        t << QStringLiteral("a step's KV read takes at least its longest sequence's cache at %1 of peak bandwidth (one sequence's attention "
                            "does not fill the GPU; efficiency.kv_bandwidth_one_sequence)")
                 .arg(s.efficiency.kvBandwidthOneSequence);
    if (s.efficiency.mfuPrefillAttention > 0 && s.efficiency.mfuPrefillAttention != s.efficiency.mfuPrefill)
        t << QStringLiteral("prefill attention at %1 of peak FLOP/s, prefill GEMMs at %2 (efficiency.mfu_prefill_attention, "
                            "efficiency.mfu_prefill)")
                 .arg(s.efficiency.mfuPrefillAttention)
                 .arg(s.efficiency.mfuPrefill);
    if (s.hardware.gpus > 1)
        t << QStringLiteral("tensor-parallel all-reduces over %1 GPUs").arg(s.hardware.gpus);
    return t;
}

QJsonObject predictionJson(const model::BenchmarkPrediction& p)
{
    QJsonObject o;
    const std::pair<const char*, BenchmarkMetric> metrics[] = {{"ttft", BenchmarkMetric::Ttft},
                                                               {"tpot", BenchmarkMetric::Tpot},
                                                               {"itl", BenchmarkMetric::Itl},
                                                               {"e2e", BenchmarkMetric::EndToEnd},
                                                               {"e2e_per_output_token", BenchmarkMetric::EndToEndPerOutputToken}};
    for (const auto& [name, m] : metrics)
        for (const BenchmarkStatistic s : kStatistics)
            if (const auto v = model::predictedMs(p, m, s))
                o.insert(QStringLiteral("%1_%2_ms").arg(QLatin1String(model::benchmarkStatisticKey(s)), QLatin1String(name)), *v);
    o.insert(QStringLiteral("request_throughput"), p.requestsPerSecond);
    o.insert(QStringLiteral("output_token_throughput"), p.outputTokensPerSecond);
    o.insert(QStringLiteral("total_token_throughput"), p.totalTokensPerSecond);
    o.insert(QStringLiteral("mean_in_flight"), p.meanInFlight);
    // Where the clients are (Little's law; h13am): past their first token and before it, to set beside the measured ones.
    const model::ClosedLoopOccupancy occupancy = model::predictedOccupancy(p);
    o.insert(QStringLiteral("mean_decoding"), occupancy.decoding);
    o.insert(QStringLiteral("mean_before_first_token"), occupancy.beforeFirstToken);
    o.insert(QStringLiteral("mean_batch"), p.meanBatch);
    o.insert(QStringLiteral("peak_sequences"), p.peakSequences);
    o.insert(QStringLiteral("kv_capacity_sequences"), p.kvCapacitySequences);
    o.insert(QStringLiteral("preemptions"), double(p.preemptions));
    o.insert(QStringLiteral("steps"), double(p.steps));
    o.insert(QStringLiteral("mixed_steps"), double(p.mixedSteps));
    o.insert(QStringLiteral("busy_s"), p.busySeconds);
    if (p.overheadSeconds > 0)
        o.insert(QStringLiteral("overhead_s"), p.overheadSeconds);
    if (p.chunkOverheadSeconds > 0)
        o.insert(QStringLiteral("chunk_overhead_s"), p.chunkOverheadSeconds);
    if (p.commSeconds > 0)
        o.insert(QStringLiteral("comm_s"), p.commSeconds);
    o.insert(QStringLiteral("simulated_requests"), double(p.simulatedRequests));
    o.insert(QStringLiteral("measured_requests"), double(p.measuredRequests));
    return o;
}

QJsonObject comparedJson(const std::optional<ComparedLatency>& c)
{
    if (!c)
        return {};
    return QJsonObject{{QStringLiteral("metric"), QLatin1String(model::benchmarkMetricKey(c->metric))},
                       {QStringLiteral("statistic"), QLatin1String(model::benchmarkStatisticKey(c->statistic))},
                       {QStringLiteral("measured_ms"), c->measuredMs},
                       {QStringLiteral("predicted_ms"), c->predictedMs},
                       {QStringLiteral("residual"), c->residual}};
}

/** A CSV cell as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break (a label or an error message
 *  from the file), its quotes doubled (as app/plancommand.cpp's cells). */
QString predictCsvCell(QString s)
{
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n')) || s.contains(QLatin1Char('\r')))
        s = QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return s;
}

} // namespace

int runPredict(const QString& file, const model::Scenario& scenario, const QString& scenarioFile, const model::BenchmarkOptions& options,
               const QString& format)
{
    QByteArray bytes;
    if (const std::string err = model::readInputFile(file, bytes); !err.empty()) {
        printLine(stderr, QStringLiteral("ridgeline: ") + file + QStringLiteral(": ") + QString::fromStdString(err));
        return kExitBadInput;
    }
    model::BenchmarkFile bench;
    if (const std::string err = model::readBenchmarkFile(bytes, file.toStdString(), bench); !err.empty()) {
        printLine(stderr, QStringLiteral("ridgeline: ") + file + QStringLiteral(": ") + QString::fromStdString(err));
        return kExitBadInput;
    }
    const std::vector<model::PointPrediction> results = model::predictBenchmarks(scenario, bench.points, options);

    double itlSum = 0, ttftSum = 0;
    int itlN = 0, ttftN = 0;
    std::vector<std::optional<ComparedLatency>> itl(results.size()), ttft(results.size());
    for (size_t i = 0; i < results.size(); ++i) {
        if (!results[i].error.empty())
            continue;
        itl[i] = compareItl(bench.points[i], results[i].prediction);
        ttft[i] = compareTtft(bench.points[i], results[i].prediction);
        if (itl[i]) {
            itlSum += std::abs(itl[i]->residual);
            ++itlN;
        }
        if (ttft[i]) {
            ttftSum += std::abs(ttft[i]->residual);
            ++ttftN;
        }
    }
    const double itlMape = itlN > 0 ? itlSum / itlN : 0, ttftMape = ttftN > 0 ? ttftSum / ttftN : 0;
    QStringList notes;
    for (const std::string& n : bench.notes)
        notes << QString::fromStdString(n);
    // A scenario kept beside the file and not the one given: predicted against another machine or model than the
    // run's, which reads as a bad prediction (a Llama 2 7B set against the default scenario: 43 % ITL MAPE).
    if (const QString companion = model::companionScenarioPath(file);
        !companion.isEmpty()
        && (scenarioFile.isEmpty() || QFileInfo(scenarioFile).canonicalFilePath() != QFileInfo(companion).canonicalFilePath()))
        notes << QStringLiteral("%1 lies beside the file and is not used: predicted against %2; add --scenario %3 to predict with it")
                     .arg(QFileInfo(companion).fileName(),
                          scenarioFile.isEmpty() ? QStringLiteral("the default scenario") : QStringLiteral("--scenario %1").arg(scenarioFile),
                          QDir::toNativeSeparators(QDir(QDir::currentPath()).relativeFilePath(companion)));

    if (format == QLatin1String("json")) {
        QJsonArray points;
        for (size_t i = 0; i < results.size(); ++i) {
            const model::BenchmarkPoint& p = bench.points[i];
            QJsonObject measured;
            for (const model::MeasuredLatency& l : p.latencies)
                measured.insert(QStringLiteral("%1_%2_ms").arg(QLatin1String(model::benchmarkStatisticKey(l.statistic)),
                                                               QLatin1String(model::benchmarkMetricKey(l.metric))),
                                l.ms);
            // What the measured latencies imply for a closed loop (Little's law, model::measuredClosedLoop(); h13am).
            if (const std::optional<model::ClosedLoopOccupancy> c = model::measuredClosedLoop(p))
                measured.insert(QStringLiteral("closed_loop"),
                                QJsonObject{{QStringLiteral("request_throughput"), c->requestsPerSecond},
                                            {QStringLiteral("output_token_throughput"), c->outputTokensPerSecond},
                                            {QStringLiteral("mean_decoding"), c->decoding},
                                            {QStringLiteral("mean_before_first_token"), c->beforeFirstToken}});
            QJsonObject o{{QStringLiteral("label"), QString::fromStdString(p.label)},
                          {QStringLiteral("load"), loadKey(p.load)},
                          {QStringLiteral("concurrency"), p.concurrency},
                          {QStringLiteral("input_tokens"), p.inputTokens},
                          {QStringLiteral("output_tokens"), p.outputTokens},
                          {QStringLiteral("measured"), measured}};
            if (!p.set.empty())
                o.insert(QStringLiteral("set"), QString::fromStdString(p.set));
            if (p.load == model::BenchmarkLoad::RequestRate)
                o.insert(QStringLiteral("request_rate"), std::isinf(p.requestRatePerSecond) ? QJsonValue(QStringLiteral("inf"))
                                                                                            : QJsonValue(p.requestRatePerSecond));
            if (!results[i].error.empty())
                o.insert(QStringLiteral("error"), QString::fromStdString(results[i].error));
            else {
                o.insert(QStringLiteral("predicted"), predictionJson(results[i].prediction));
                if (itl[i])
                    o.insert(QStringLiteral("itl"), comparedJson(itl[i]));
                if (ttft[i])
                    o.insert(QStringLiteral("ttft"), comparedJson(ttft[i]));
            }
            points.append(o);
        }
        const QJsonObject doc{{QStringLiteral("file"), file},
                              {QStringLiteral("format"), QString::fromStdString(bench.format)},
                              {QStringLiteral("notes"), QJsonArray::fromStringList(notes)},
                              {QStringLiteral("step_cost_terms"), QJsonArray::fromStringList(terms(scenario, options))},
                              {QStringLiteral("scenario"), model::toJson(scenario)},
                              {QStringLiteral("points"), points},
                              {QStringLiteral("mape"), QJsonObject{{QStringLiteral("itl"), itlN > 0 ? QJsonValue(itlMape) : QJsonValue()},
                                                                   {QStringLiteral("itl_points"), itlN},
                                                                   {QStringLiteral("ttft"), ttftN > 0 ? QJsonValue(ttftMape) : QJsonValue()},
                                                                   {QStringLiteral("ttft_points"), ttftN}}}};
        printLine(stdout, QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented)).trimmed());
        return 0;
    }
    if (format == QLatin1String("csv")) {
        QStringList lines;
        lines << QStringLiteral("label,set,load,concurrency,request_rate,input_tokens,output_tokens,itl_statistic,itl_measured_ms,"
                                "itl_predicted_ms,itl_residual,ttft_statistic,ttft_measured_ms,ttft_predicted_ms,ttft_residual,"
                                "request_throughput,output_token_throughput,mean_in_flight,preemptions,error");
        for (size_t i = 0; i < results.size(); ++i) {
            const model::BenchmarkPoint& p = bench.points[i];
            const model::BenchmarkPrediction& r = results[i].prediction;
            QStringList c{predictCsvCell(QString::fromStdString(p.label)), predictCsvCell(QString::fromStdString(p.set)), loadKey(p.load),
                          QString::number(p.concurrency),
                          p.load == model::BenchmarkLoad::RequestRate ? (std::isinf(p.requestRatePerSecond) ? QStringLiteral("inf")
                                                                                                             : QString::number(p.requestRatePerSecond))
                                                                      : QString(),
                          QString::number(p.inputTokens), QString::number(p.outputTokens)};
            for (const auto* cmp : {&itl[i], &ttft[i]}) {
                if (*cmp)
                    c << statName(**cmp) << QString::number((*cmp)->measuredMs) << QString::number((*cmp)->predictedMs)
                      << QString::number((*cmp)->residual);
                else
                    c << QString() << QString() << QString() << QString();
            }
            const bool ok = results[i].error.empty();
            c << (ok ? QString::number(r.requestsPerSecond) : QString()) << (ok ? QString::number(r.outputTokensPerSecond) : QString())
              << (ok ? QString::number(r.meanInFlight) : QString()) << (ok ? QString::number(r.preemptions) : QString())
              << predictCsvCell(QString::fromStdString(results[i].error));
            lines << c.join(QLatin1Char(','));
        }
        printLine(stdout, lines.join(QLatin1Char('\n')));
        return 0;
    }

    QStringList out;
    out << QStringLiteral("Benchmark prediction: %1 (%2), %3 point(s)").arg(QFileInfo(file).fileName(), QString::fromStdString(bench.format)).arg(bench.points.size());
    const QJsonObject shape = model::toJson(scenario).value(QStringLiteral("model")).toObject();
    out << QStringLiteral("Scenario: %1 on %2, TP %3, weights %4, KV %5")
               .arg(QString::fromStdString(scenario.model.name), QString::fromStdString(scenario.hardware.name))
               .arg(scenario.hardware.gpus)
               .arg(shape.value(QStringLiteral("weight_dtype")).toString(), shape.value(QStringLiteral("kv_dtype")).toString());
    out << QStringLiteral("Step cost terms (docs/cost-model.md):");
    for (const QString& t : terms(scenario, options))
        out << QStringLiteral("  - ") + t;
    if (!notes.isEmpty()) {
        out << QStringLiteral("Reading notes:");
        for (const QString& n : notes)
            out << QStringLiteral("  - ") + n;
    }
    out << QString();
    out << QStringLiteral("%1 %2 %3 %4  %5 %6 %7 %8  %9 %10 %11 %12")
               .arg(QStringLiteral("point"), -10)
               .arg(QStringLiteral("load"), -14)
               .arg(QStringLiteral("ISL"), 6)
               .arg(QStringLiteral("OSL"), 6)
               .arg(QStringLiteral("ITL stat"), -12)
               .arg(QStringLiteral("meas ms"), 9)
               .arg(QStringLiteral("pred ms"), 9)
               .arg(QStringLiteral("resid"), 7)
               .arg(QStringLiteral("TTFT stat"), -12)
               .arg(QStringLiteral("meas ms"), 9)
               .arg(QStringLiteral("pred ms"), 9)
               .arg(QStringLiteral("resid"), 7);
    for (size_t i = 0; i < results.size(); ++i) {
        const model::BenchmarkPoint& p = bench.points[i];
        QString line = QStringLiteral("%1 %2 %3 %4  ").arg(QString::fromStdString(p.label), -10).arg(loadText(p), -14)
                           .arg(QString::number(p.inputTokens, 'f', 0), 6).arg(QString::number(p.outputTokens, 'f', 0), 6);
        if (!results[i].error.empty()) {
            out << line + QStringLiteral("not predicted: ") + QString::fromStdString(results[i].error);
            continue;
        }
        for (const auto* cmp : {&itl[i], &ttft[i]}) {
            if (*cmp)
                line += QStringLiteral("%1 %2 %3 %4  ").arg(statName(**cmp), -12).arg(ms((*cmp)->measuredMs), 9).arg(ms((*cmp)->predictedMs), 9)
                            .arg(pct((*cmp)->residual), 7);
            else
                line += QStringLiteral("%1 %2 %3 %4  ").arg(QStringLiteral("-"), -12).arg(QString(), 9).arg(QString(), 9).arg(QString(), 7);
        }
        const model::BenchmarkPrediction& r = results[i].prediction;
        if (r.preemptions > 0)
            line += QStringLiteral("(%1 preemptions)").arg(r.preemptions);
        out << line.trimmed();
    }
    out << QString();
    out << QStringLiteral("MAPE: ITL %1 over %2 point(s); TTFT %3 over %4 point(s)")
               .arg(itlN > 0 ? QString::asprintf("%.1f %%", itlMape * 100) : QStringLiteral("-"))
               .arg(itlN)
               .arg(ttftN > 0 ? QString::asprintf("%.1f %%", ttftMape * 100) : QStringLiteral("-"))
               .arg(ttftN);
    printLine(stdout, out.join(QLatin1Char('\n')));
    return 0;
}

} // namespace ridgeline::app
