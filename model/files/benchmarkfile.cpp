// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/files/benchmarkfile.h"
#include "model/files/csvline.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QRegularExpression>
#include <QString>

#include "model/cost/jsoninput.h"
#include "model/cost/messagetext.h"

namespace ridgeline::model {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

/** A CSV number: "1,146.31" (thousands inside quotes) allowed; nullopt when not a finite number. */
std::optional<double> csvNumber(std::string text)
{
    text.erase(std::remove(text.begin(), text.end(), ','), text.end());
    double v = 0;
    const char* first = text.data();
    const auto [ptr, ec] = std::from_chars(first, first + text.size(), v);
    if (text.empty() || ec != std::errc() || ptr != first + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

void addNote(BenchmarkFile& f, const std::string& note)
{
    if (std::find(f.notes.begin(), f.notes.end(), note) == f.notes.end())
        f.notes.push_back(note);
}

std::optional<BenchmarkStatistic> statisticFrom(const std::string& s)
{
    if (s == "mean" || s == "avg" || s == "average")
        return BenchmarkStatistic::Mean;
    if (s == "median" || s == "p50")
        return BenchmarkStatistic::Median;
    if (s == "p90")
        return BenchmarkStatistic::P90;
    if (s == "p95")
        return BenchmarkStatistic::P95;
    if (s == "p99")
        return BenchmarkStatistic::P99;
    return std::nullopt;
}

std::optional<BenchmarkMetric> metricFrom(const std::string& s)
{
    if (s == "ttft")
        return BenchmarkMetric::Ttft;
    if (s == "tpot")
        return BenchmarkMetric::Tpot;
    if (s == "itl")
        return BenchmarkMetric::Itl;
    if (s == "e2el" || s == "e2e" || s == "e2e_latency")
        return BenchmarkMetric::EndToEnd;
    return std::nullopt;
}

std::string checkLatency(const std::string& where, double ms)
{
    if (!(ms > 0 && ms <= 1e9))
        return where + " = " + messageNumber(ms) + " ms: expected a latency above 0 and at most 1e9 ms";
    return {};
}

/** Checks a point's load and lengths; "" when usable. */
std::string checkPoint(const BenchmarkPoint& p)
{
    const std::string where = p.label + ": ";
    if (p.load != BenchmarkLoad::RequestRate && !(p.concurrency >= 1 && p.concurrency <= 1e6 && p.concurrency == std::floor(p.concurrency)))
        return where + (p.load == BenchmarkLoad::StaticBatch ? "batch = " : "concurrency = ") + messageNumber(p.concurrency)
               + ": expected a whole number from 1 to 1,000,000";
    if (p.load == BenchmarkLoad::RequestRate && p.concurrency != 0
        && !(p.concurrency >= 1 && p.concurrency <= 1e6 && p.concurrency == std::floor(p.concurrency)))
        return where + "concurrency cap = " + messageNumber(p.concurrency) + ": expected a whole number from 1 to 1,000,000 (or none)";
    if (p.load == BenchmarkLoad::RequestRate && !(p.requestRatePerSecond > 0))
        return where + "request rate = " + messageNumber(p.requestRatePerSecond) + ": expected a rate above 0 requests/s (or inf)";
    if (!(p.inputTokens >= 1 && p.inputTokens <= 1e7))
        return where + "input tokens per request = " + messageNumber(p.inputTokens) + ": expected 1 to 1e7 tokens";
    if (!(p.outputTokens >= 1 && p.outputTokens <= 1e7))
        return where + "output tokens per request = " + messageNumber(p.outputTokens) + ": expected 1 to 1e7 tokens";
    if (p.latencies.empty())
        return where + "no latency (TTFT, TPOT, ITL or E2E) to compare";
    return {};
}

// -- JSON ---------------------------------------------------------------------------------------

/** Python's json writes Infinity and NaN bare; turn them into strings outside quoted text so Qt parses. */
QByteArray quotePythonConstants(const QByteArray& in, bool& changed)
{
    QByteArray out;
    out.reserve(in.size() + 16);
    bool inString = false, escaped = false;
    for (qsizetype i = 0; i < in.size(); ++i) {
        const char c = in[i];
        if (inString) {
            out += c;
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            out += c;
            continue;
        }
        for (const char* word : {"-Infinity", "Infinity", "NaN"}) {
            const qsizetype n = qsizetype(std::strlen(word));
            if (in.mid(i, n) == word) {
                out += '"';
                out += word;
                out += '"';
                i += n - 1;
                changed = true;
                goto next;
            }
        }
        out += c;
    next:;
    }
    return out;
}

struct JsonReader {
    const QJsonObject& o;
    std::string where;
    std::string problem;

    std::optional<double> number(const char* key)
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return std::nullopt;
        if (v.isString()) {
            const std::string s = lower(v.toString().toStdString());
            if (s == "inf" || s == "infinity")
                return kInf;
            if (const auto n = csvNumber(s))
                return n;
        }
        if (!v.isDouble()) {
            if (problem.empty())
                problem = where + key + " = " + jsonValueText(v) + ": expected a number";
            return std::nullopt;
        }
        return v.toDouble();
    }
};

/** Most per-request entries one result's input_lens / output_lens may hold (what one simulation may run). */
constexpr qsizetype kMaxPerRequestLengths = 1000000;

/**
 * vLLM's (and SGLang's) per-request `input_lens` and `output_lens` of one result, into p.inputLengths / p.outputLengths:
 * both lists or neither, of equal length, whole numbers of tokens (prompts 1 to 1e7, outputs 0 to 1e7). Requests whose
 * `errors` entry (same length) is a non-empty text failed and are left out, as the tool leaves them out of `completed`;
 * when what remains is not `completed` requests the lists are not used (a note says so). "" or one message naming the key.
 */
std::string readPerRequestLengths(const QJsonObject& o, BenchmarkPoint& p, BenchmarkFile& f)
{
    const QJsonValue in = o.value(QLatin1String("input_lens")), out = o.value(QLatin1String("output_lens"));
    if (in.isUndefined() && out.isUndefined())
        return {};
    const std::string where = p.label + ": ";
    auto checkList = [&](const std::string& key, const QJsonValue& v) -> std::string {
        if (v.isUndefined())
            return where + key + ": missing (input_lens and output_lens come together: one entry per request each)";
        if (!v.isArray())
            return where + key + " = " + jsonValueText(v) + ": expected a list of token counts, one per request, such as [13, 25, 27]";
        if (v.toArray().isEmpty())
            return where + key + " = []: expected one token count per request (the list is empty)";
        if (v.toArray().size() > kMaxPerRequestLengths)
            return where + key + ": " + messageNumber(double(v.toArray().size())) + " entries; at most "
                   + messageNumber(double(kMaxPerRequestLengths)) + " requests per result";
        return {};
    };
    if (std::string e = checkList("input_lens", in); !e.empty())
        return e;
    if (std::string e = checkList("output_lens", out); !e.empty())
        return e;
    const QJsonArray ins = in.toArray(), outs = out.toArray();
    if (ins.size() != outs.size())
        return where + "input_lens has " + messageNumber(double(ins.size())) + " entries and output_lens "
               + messageNumber(double(outs.size())) + ": expected one of each per request";
    const QJsonArray errors = o.value(QLatin1String("errors")).toArray();
    const bool useErrors = errors.size() == ins.size();
    std::vector<int> inputs, outputs;
    inputs.reserve(size_t(ins.size()));
    outputs.reserve(size_t(ins.size()));
    for (qsizetype i = 0; i < ins.size(); ++i) {
        int values[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
            const QJsonValue v = (k == 0 ? ins : outs).at(i);
            const double lowest = k == 0 ? 1 : 0;
            const double x = v.isDouble() ? v.toDouble() : std::nan("");
            if (!(x >= lowest && x <= 1e7 && x == std::floor(x)))
                return where + (k == 0 ? "input_lens[" : "output_lens[") + std::to_string(i) + "] = " + jsonValueText(v)
                       + ": expected a whole number of tokens from " + (k == 0 ? "1" : "0") + " to 1e7";
            values[k] = int(x);
        }
        if (useErrors && errors.at(i).isString() && !errors.at(i).toString().isEmpty())
            continue; // a failed request: the tool counts it in neither completed nor the statistics
        inputs.push_back(values[0]);
        outputs.push_back(values[1]);
    }
    if (p.requests > 0 && static_cast<long long>(inputs.size()) != p.requests) {
        addNote(f, p.label + ": input_lens / output_lens hold " + messageNumber(double(inputs.size())) + " requests where completed = "
                       + messageNumber(double(p.requests)) + ": not used (the point is simulated at its mean lengths)");
        return {};
    }
    p.inputLengths = std::move(inputs);
    p.outputLengths = std::move(outputs);
    addNote(f, "per-request input_lens / output_lens: each request is simulated with its own lengths");
    return {};
}

/** vLLM and SGLang: flat keys mean_ttft_ms, p99_itl_ms, median_e2e_latency_ms, ... */
std::string readFlatResult(const QJsonObject& o, BenchmarkPoint& p, BenchmarkFile& f)
{
    JsonReader r{o, p.label + ": ", {}};
    // vLLM's save-result writes tokenizer_id (SGLang's bench_serving does not); vLLM 0.5.x wrote input_throughput too.
    const bool sglang = !o.contains(QLatin1String("tokenizer_id"))
                        && (o.contains(QLatin1String("mean_e2e_latency_ms")) || o.contains(QLatin1String("input_throughput"))
                            || o.value(QLatin1String("backend")).toString().startsWith(QLatin1String("sglang")));
    if (f.format.empty())
        f.format = sglang ? "SGLang bench_serving JSON" : "vLLM bench serve JSON";
    static const QRegularExpression key(QStringLiteral("^(mean|median|p90|p95|p99)_(ttft|tpot|itl|e2el|e2e_latency)_ms$"));
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string k = it.key().toStdString();
        const QRegularExpressionMatch m = key.match(it.key());
        if (!m.hasMatch())
            continue;
        const auto v = r.number(k.c_str());
        if (!v)
            continue;
        if (std::string e = checkLatency(p.label + ": " + k, *v); !e.empty())
            return e;
        p.latencies.push_back({*metricFrom(m.captured(2).toStdString()), *statisticFrom(m.captured(1).toStdString()), *v});
    }
    const auto completed = r.number("completed");
    const auto inputTotal = r.number("total_input_tokens");
    const auto outputTotal = r.number("total_output_tokens");
    const auto duration = r.number("duration");
    const auto inputRate = r.number("input_throughput");
    const auto outputRate = r.number("output_throughput");
    const auto rate = r.number("request_rate");
    const auto cap = r.number("max_concurrency");
    const auto requestThroughput = r.number("request_throughput");
    if (!r.problem.empty())
        return r.problem;
    if (!completed || !(*completed >= 1))
        return p.label + ": \"completed\" is missing or below 1 (the number of requests that completed)";
    p.requests = static_cast<long long>(*completed);
    if (inputTotal && outputTotal) {
        p.inputTokens = *inputTotal / *completed;
        p.outputTokens = *outputTotal / *completed;
    } else if (inputRate && outputRate && duration) {
        p.inputTokens = *inputRate * *duration / *completed;
        p.outputTokens = *outputRate * *duration / *completed;
        addNote(f, "total_input_tokens / total_output_tokens missing: tokens per request = throughput x duration / completed");
    } else
        return p.label + ": the tokens per request are missing (total_input_tokens and total_output_tokens, or input_throughput, "
                         "output_throughput and duration)";
    p.requestsPerSecond = requestThroughput;
    p.outputTokensPerSecond = outputRate;
    if (std::string e = readPerRequestLengths(o, p, f); !e.empty())
        return e;
    if (cap && !(*cap >= 0 && *cap <= 1e6 && *cap == std::floor(*cap)))
        return p.label + ": max_concurrency = " + messageNumber(*cap) + ": expected a whole number from 1 to 1,000,000 (or null: no cap)";
    const double r0 = rate.value_or(kInf);
    if (cap && *cap > 0 && std::isinf(r0)) {
        p.load = BenchmarkLoad::Concurrency;
        p.concurrency = *cap;
    } else {
        p.load = BenchmarkLoad::RequestRate;
        p.requestRatePerSecond = r0;
        p.concurrency = cap.value_or(0);
        if (!rate)
            addNote(f, "no request_rate: read as inf (every request sent at once), as the tools' default");
    }
    return {};
}

/** GenAI-Perf / AIPerf profile export JSON: {"time_to_first_token": {"unit": "ms", "avg": ..., "p50": ...}, ...}. */
/// The concurrency that a benchmark tool's artifact directory or file name records ("concurrency50",
/// "concurrency-50", "concurrency_50"), as the digits; nullopt when the name has none.
std::optional<std::string> concurrencyInFileName(const std::string& fileName)
{
    static const QRegularExpression inName(QStringLiteral("concurrency[-_]?([0-9]+)"));
    const QRegularExpressionMatch m = inName.match(QString::fromStdString(fileName));
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(1).toStdString();
}

std::string readProfileExport(const QJsonObject& o, const std::string& fileName, BenchmarkPoint& p, BenchmarkFile& f)
{
    f.format = "GenAI-Perf / AIPerf profile export JSON";
    p.steadyState = true;
    std::string statProblem;
    auto stat = [&](const char* metric, const char* s) -> std::optional<double> {
        const QJsonValue m = o.value(QLatin1String(metric));
        if (!m.isObject())
            return std::nullopt;
        const QJsonObject mo = m.toObject();
        QJsonValue v = mo.value(QLatin1String(s));
        if (v.isUndefined() && std::string(s) == "avg")
            v = mo.value(QLatin1String("mean"));
        if (v.isUndefined() || v.isNull())
            return std::nullopt;
        if (!v.isDouble()) {
            // NaN / Infinity (or text): refused rather than read as absent, which would switch the statistic compared.
            if (statProblem.empty())
                statProblem = p.label + ": " + metric + "." + s + " = " + jsonValueText(v) + ": expected a finite number";
            return std::nullopt;
        }
        double x = v.toDouble();
        const QString unit = mo.value(QLatin1String("unit")).toString();
        if (unit == QLatin1String("ns"))
            x /= 1e6;
        else if (unit == QLatin1String("us"))
            x /= 1e3;
        else if (unit == QLatin1String("s") || unit == QLatin1String("sec"))
            x *= 1e3;
        return x;
    };
    const std::pair<const char*, BenchmarkMetric> metrics[] = {{"time_to_first_token", BenchmarkMetric::Ttft},
                                                               {"inter_token_latency", BenchmarkMetric::Tpot},
                                                               {"request_latency", BenchmarkMetric::EndToEnd}};
    const std::pair<const char*, BenchmarkStatistic> stats[] = {{"avg", BenchmarkStatistic::Mean}, {"p50", BenchmarkStatistic::Median},
                                                                {"p90", BenchmarkStatistic::P90}, {"p95", BenchmarkStatistic::P95},
                                                                {"p99", BenchmarkStatistic::P99}};
    for (const auto& [key, metric] : metrics)
        for (const auto& [s, statistic] : stats)
            if (const auto v = stat(key, s)) {
                if (std::string e = checkLatency(p.label + ": " + key + "." + s, *v); !e.empty())
                    return e;
                p.latencies.push_back({metric, statistic, *v});
            } else if (!statProblem.empty())
                return statProblem;
    addNote(f, "inter_token_latency of GenAI-Perf / AIPerf is per request (latency - TTFT) / (output tokens - 1): compared as TPOT");
    const auto tokens = [&](const char* key) -> std::optional<double> {
        const QJsonValue m = o.value(QLatin1String(key));
        if (!m.isObject())
            return std::nullopt;
        const QJsonObject mo = m.toObject();
        const QJsonValue v = mo.contains(QLatin1String("avg")) ? mo.value(QLatin1String("avg")) : mo.value(QLatin1String("mean"));
        return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
    };
    p.inputTokens = tokens("input_sequence_length").value_or(0);
    p.outputTokens = tokens("output_sequence_length").value_or(0);
    p.requestsPerSecond = tokens("request_throughput");
    p.outputTokensPerSecond = tokens("output_token_throughput");
    if (const auto count = tokens("request_count"))
        p.requests = static_cast<long long>(*count);
    // Concurrency: the config the export records (GenAI-Perf: input_config.concurrency; AIPerf: loadgen), the
    // artifact directory's name, or Little's law.
    std::optional<double> concurrency;
    const QJsonObject config = o.value(QLatin1String("input_config")).toObject();
    for (const QJsonValue& v : {config.value(QLatin1String("concurrency")),
                               config.value(QLatin1String("loadgen")).toObject().value(QLatin1String("concurrency")),
                               config.value(QLatin1String("perf_analyzer")).toObject().value(QLatin1String("stimulus")).toObject().value(QLatin1String("concurrency"))})
        if (!concurrency && v.isDouble())
            concurrency = v.toDouble();
    if (!concurrency) {
        if (const std::optional<std::string> n = concurrencyInFileName(fileName)) {
            concurrency = std::stod(*n);
            addNote(f, "concurrency " + *n + " taken from the file name");
        }
    }
    if (!concurrency) {
        const auto latency = p.latency(BenchmarkMetric::EndToEnd, BenchmarkStatistic::Mean);
        if (p.requestsPerSecond && latency) {
            const double little = *p.requestsPerSecond * *latency / 1000.0;
            concurrency = std::max(1.0, std::round(little));
            addNote(f, "the export does not record the concurrency: Little's law gives request throughput x mean request latency = "
                           + messageNumber(little) + ", read as " + messageNumber(*concurrency));
        } else
            return p.label + ": the concurrency is not recorded (no input_config.concurrency, no \"concurrencyN\" in the file name, "
                             "and no request throughput and request latency for Little's law)";
    }
    p.load = BenchmarkLoad::Concurrency;
    p.concurrency = *concurrency;
    return {};
}

/** llmperf summary JSON (seconds). */
std::string readLlmperf(const QJsonObject& o, BenchmarkPoint& p, BenchmarkFile& f)
{
    f.format = "llmperf summary JSON";
    JsonReader r{o, p.label + ": ", {}};
    const std::pair<const char*, BenchmarkMetric> metrics[] = {{"ttft_s", BenchmarkMetric::Ttft},
                                                               {"inter_token_latency_s", BenchmarkMetric::EndToEndPerOutputToken},
                                                               {"end_to_end_latency_s", BenchmarkMetric::EndToEnd}};
    const std::pair<const char*, BenchmarkStatistic> stats[] = {{"mean", BenchmarkStatistic::Mean}, {"quantiles_p50", BenchmarkStatistic::Median},
                                                                {"quantiles_p90", BenchmarkStatistic::P90}, {"quantiles_p95", BenchmarkStatistic::P95},
                                                                {"quantiles_p99", BenchmarkStatistic::P99}};
    for (const auto& [key, metric] : metrics)
        for (const auto& [s, statistic] : stats) {
            const std::string k = std::string("results_") + key + "_" + s;
            if (const auto v = r.number(k.c_str())) {
                if (std::string e = checkLatency(p.label + ": " + k, *v * 1000); !e.empty())
                    return e;
                p.latencies.push_back({metric, statistic, *v * 1000});
            }
        }
    addNote(f, "llmperf's inter_token_latency_s is E2E / output tokens per request (TTFT included): compared as such, not as ITL");
    const auto clients = r.number("num_concurrent_requests");
    const auto input = r.number("results_number_input_tokens_mean");
    const auto output = r.number("results_number_output_tokens_mean");
    const auto inputSet = r.number("mean_input_tokens");
    const auto outputSet = r.number("mean_output_tokens");
    const auto completed = r.number("results_num_completed_requests");
    const auto throughput = r.number("results_mean_output_throughput_token_per_s");
    const auto perMinute = r.number("results_num_completed_requests_per_min");
    if (!r.problem.empty())
        return r.problem;
    if (!clients)
        return p.label + ": num_concurrent_requests is missing";
    p.load = BenchmarkLoad::Concurrency;
    p.concurrency = *clients;
    p.inputTokens = input.value_or(inputSet.value_or(0));
    p.outputTokens = output.value_or(outputSet.value_or(0));
    p.requests = completed ? static_cast<long long>(*completed) : 0;
    p.outputTokensPerSecond = throughput;
    if (perMinute)
        p.requestsPerSecond = *perMinute / 60.0;
    return {};
}

std::string readJson(const QByteArray& bytes, const std::string& fileName, BenchmarkFile& f)
{
    bool changed = false;
    const QByteArray text = quotePythonConstants(bytes, changed);
    QList<QJsonObject> objects;
    QJsonDocument doc;
    if (parseJsonInput(text, doc).empty() && (doc.isObject() || doc.isArray())) {
        if (doc.isObject())
            objects << doc.object();
        else
            for (const QJsonValue v : doc.array()) {
                if (!v.isObject())
                    return "result " + std::to_string(objects.size() + 1) + ": " + jsonValueText(v) + ": expected an object (one benchmark result)";
                objects << v.toObject();
            }
    } else {
        int line = 0;
        for (const QByteArray& raw : text.split('\n')) {
            ++line;
            if (raw.trimmed().isEmpty())
                continue;
            QJsonDocument d;
            if (std::string e = parseJsonInput(raw, d); !e.empty())
                return "line " + std::to_string(line) + ": " + e + " (expected one JSON object, or one per line)";
            if (!d.isObject())
                return "line " + std::to_string(line) + ": expected a JSON object (one benchmark result)";
            objects << d.object();
            if (objects.size() > kMaxMeasurements)
                return "more than " + messageNumber(kMaxMeasurements) + " results; at most " + messageNumber(kMaxMeasurements);
        }
    }
    if (changed)
        addNote(f, "bare Infinity / NaN (Python's JSON extension) read as \"inf\" / \"nan\"");
    if (objects.size() > kMaxMeasurements)
        return "more than " + messageNumber(kMaxMeasurements) + " results; at most " + messageNumber(kMaxMeasurements);
    int index = 0;
    for (const QJsonObject& o : objects) {
        ++index;
        BenchmarkPoint p;
        p.label = "result " + std::to_string(index);
        std::string e;
        if (o.contains(QLatin1String("num_concurrent_requests")) || o.contains(QLatin1String("results_ttft_s_mean")))
            e = readLlmperf(o, p, f);
        else if (o.value(QLatin1String("time_to_first_token")).isObject() || o.value(QLatin1String("inter_token_latency")).isObject())
            e = readProfileExport(o, fileName, p, f);
        else if (o.contains(QLatin1String("completed")))
            e = readFlatResult(o, p, f);
        else
            e = p.label + ": not a benchmark result this reader knows (vLLM / SGLang: \"completed\" and mean_ttft_ms ...; GenAI-Perf / "
                          "AIPerf: \"time_to_first_token\": {\"avg\": ...}; llmperf: num_concurrent_requests)";
        if (e.empty())
            e = checkPoint(p);
        if (!e.empty())
            return e;
        f.points.push_back(std::move(p));
    }
    if (f.points.empty())
        return "no benchmark results";
    return {};
}

// -- CSV ----------------------------------------------------------------------------------------

std::string readGenaiPerfCsv(const QList<QByteArray>& lines, const std::string& fileName, BenchmarkFile& f)
{
    f.format = "GenAI-Perf CSV";
    BenchmarkPoint p;
    p.label = "the run";
    p.steadyState = true;
    std::vector<std::string> header;
    int lineNumber = 0;
    for (const QByteArray& raw : lines) {
        ++lineNumber;
        const std::string line = trimmedText(raw.toStdString());
        if (line.empty()) {
            header.clear();
            continue;
        }
        if (const std::string quote = csvQuoteProblem(line); !quote.empty())
            return "line " + std::to_string(lineNumber) + ": " + quote;
        std::vector<std::string> cells = splitCsvLine(line);
        if (header.empty() || cells[0] == "Metric") {
            header = cells;
            for (std::string& h : header)
                h = lower(h);
            continue;
        }
        const std::string name = lower(cells[0]);
        const std::string where = "line " + std::to_string(lineNumber) + " (" + printableText(cells[0]) + ")";
        std::string cellProblem;
        // A cell that is there but no finite number (nan, inf, text) is refused: read as absent, the comparison
        // would switch to another statistic (avg -> p50) without a word. Empty or "N/A" cells are not measured.
        auto value = [&](const std::string& column) -> std::optional<double> {
            const auto at = std::find(header.begin(), header.end(), column);
            if (at == header.end() || size_t(at - header.begin()) >= cells.size())
                return std::nullopt;
            const std::string& cell = cells[size_t(at - header.begin())];
            if (cell.empty() || lower(cell) == "n/a" || cell == "-")
                return std::nullopt;
            const auto v = csvNumber(cell);
            if (!v && cellProblem.empty())
                cellProblem = where + " " + column + " = " + printableText(cell, 40)
                              + ": expected a finite number (leave the cell empty when it was not measured)";
            return v;
        };
        std::optional<BenchmarkMetric> metric;
        if (name.rfind("time to first token", 0) == 0)
            metric = BenchmarkMetric::Ttft;
        else if (name.rfind("inter token latency", 0) == 0)
            metric = BenchmarkMetric::Tpot;
        else if (name.rfind("request latency", 0) == 0)
            metric = BenchmarkMetric::EndToEnd;
        if (metric) {
            const double scale = name.find("(ns)") != std::string::npos ? 1e-6 : name.find("(s)") != std::string::npos ? 1e3 : 1.0;
            for (const auto& [column, statistic] : {std::pair{"avg", BenchmarkStatistic::Mean}, std::pair{"p50", BenchmarkStatistic::Median},
                                                    std::pair{"p90", BenchmarkStatistic::P90}, std::pair{"p95", BenchmarkStatistic::P95},
                                                    std::pair{"p99", BenchmarkStatistic::P99}})
                if (const auto v = value(column)) {
                    if (std::string e = checkLatency(where + " " + column, *v * scale); !e.empty())
                        return e;
                    p.latencies.push_back({*metric, statistic, *v * scale});
                } else if (!cellProblem.empty())
                    return cellProblem;
        } else if (name.rfind("input sequence length", 0) == 0)
            p.inputTokens = value("avg").value_or(0);
        else if (name.rfind("output sequence length", 0) == 0)
            p.outputTokens = value("avg").value_or(0);
        else if (name.rfind("request throughput", 0) == 0)
            p.requestsPerSecond = value("value");
        else if (name.rfind("output token throughput", 0) == 0 && name.find("per user") == std::string::npos)
            p.outputTokensPerSecond = value("value");
        else if (name.rfind("request count", 0) == 0) {
            if (const auto v = value("value"))
                p.requests = static_cast<long long>(*v);
        }
        if (!cellProblem.empty())
            return cellProblem;
    }
    addNote(f, "inter_token_latency of GenAI-Perf / AIPerf is per request (latency - TTFT) / (output tokens - 1): compared as TPOT");
    const auto latency = p.latency(BenchmarkMetric::EndToEnd, BenchmarkStatistic::Mean);
    if (const std::optional<std::string> n = concurrencyInFileName(fileName)) {
        p.concurrency = std::stod(*n);
        addNote(f, "concurrency " + *n + " taken from the file name");
    } else if (p.requestsPerSecond && latency) {
        const double little = *p.requestsPerSecond * *latency / 1000.0;
        p.concurrency = std::max(1.0, std::round(little));
        addNote(f, "the CSV does not record the concurrency: Little's law gives request throughput x mean request latency = "
                       + messageNumber(little) + ", read as " + messageNumber(p.concurrency));
    } else
        return "the CSV does not record the concurrency, the file name has no \"concurrencyN\", and Little's law needs the request "
               "throughput and the request latency";
    p.load = BenchmarkLoad::Concurrency;
    if (std::string e = checkPoint(p); !e.empty())
        return e;
    f.points.push_back(std::move(p));
    return {};
}

/** A measurement window longer than a year is a unit slip (ms or ns for s), not a benchmark. */
constexpr double kMaxMeasurementWindowSeconds = 365.0 * 86400.0;

/** A column of a measurement CSV: what it gives. */
struct Column {
    enum Kind { Ignored, Set, Concurrency, Batch, RequestRate, Input, Output, Latency, MeasurementWindow } kind = Ignored;
    BenchmarkMetric metric = BenchmarkMetric::Ttft;
    BenchmarkStatistic statistic = BenchmarkStatistic::Mean;
    double toMs = 1;
};

/** "itl_ms" / "median_ttft_ms" / "tpot_p99_s" / "ITL (ms)". */
std::optional<Column> latencyColumn(std::string h, BenchmarkFile& f)
{
    const std::string column = h;
    double toMs = 0;
    for (const auto& [suffix, scale] : {std::pair{"_ms", 1.0}, std::pair{"_s", 1000.0}, std::pair{"_us", 1e-3}, std::pair{"_ns", 1e-6}}) {
        const std::string s(suffix);
        if (h.size() > s.size() && h.compare(h.size() - s.size(), s.size(), s) == 0) {
            toMs = scale;
            h.erase(h.size() - s.size());
            break;
        }
    }
    if (toMs == 0)
        return std::nullopt;
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t at; (at = h.find('_', start)) != std::string::npos; start = at + 1)
        parts.push_back(h.substr(start, at - start));
    parts.push_back(h.substr(start));
    std::optional<BenchmarkMetric> metric;
    std::optional<BenchmarkStatistic> statistic;
    for (const std::string& part : parts) {
        if (const auto m = metricFrom(part); m && !metric)
            metric = m;
        else if (const auto s = statisticFrom(part); s && !statistic)
            statistic = s;
        else if (part != "latency")
            return std::nullopt;
    }
    if (!metric)
        return std::nullopt;
    Column c;
    c.kind = Column::Latency;
    c.metric = *metric;
    c.statistic = statistic.value_or(BenchmarkStatistic::Mean);
    c.toMs = toMs;
    if (!statistic)
        addNote(f, "column \"" + column + "\" names no statistic: read as the mean (name median_..., p99_... otherwise)");
    return c;
}

std::string readMeasurementCsv(const QList<QByteArray>& lines, BenchmarkFile& f)
{
    f.format = "measurement CSV";
    std::vector<Column> columns;
    std::vector<std::string> names;
    int lineNumber = 0;
    for (const QByteArray& raw : lines) {
        ++lineNumber;
        std::string line = trimmedText(raw.toStdString());
        if (lineNumber == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0)
            line.erase(0, 3);
        if (line.empty() || line[0] == '#')
            continue;
        if (const std::string quote = csvQuoteProblem(line); !quote.empty())
            return "line " + std::to_string(lineNumber) + ": " + quote;
        std::vector<std::string> cells = splitCsvLine(line);
        if (columns.empty()) {
            std::vector<std::string> ignored;
            for (std::string h : cells) {
                h = lower(h);
                for (const char* open : {"(", "["}) { // "ITL (ms)" -> "itl_ms"
                    const size_t at = h.find(open);
                    if (at != std::string::npos) {
                        const size_t close = h.find_first_of(")]", at);
                        h = trimmedText(h.substr(0, at)) + "_" + trimmedText(h.substr(at + 1, close == std::string::npos ? std::string::npos : close - at - 1));
                    }
                }
                std::replace(h.begin(), h.end(), ' ', '_');
                Column c;
                if (h == "set")
                    c.kind = Column::Set;
                else if (h == "concurrency" || h == "max_concurrency" || h == "clients")
                    c.kind = Column::Concurrency;
                else if (h == "batch" || h == "batch_size")
                    c.kind = Column::Batch;
                else if (h == "request_rate" || h == "request_rate_per_s")
                    c.kind = Column::RequestRate;
                else if (h == "isl" || h == "input_tokens" || h == "prompt_tokens" || h == "input_len")
                    c.kind = Column::Input;
                else if (h == "osl" || h == "output_tokens" || h == "output_len")
                    c.kind = Column::Output;
                else if (h == "measurement_window_s")
                    c.kind = Column::MeasurementWindow;
                else if (const auto l = latencyColumn(h, f))
                    c = *l;
                else
                    ignored.push_back(h);
                for (size_t j = 0; j < names.size(); ++j)
                    if (names[j] == h)
                        return "column \"" + printableText(h) + "\" appears twice (columns " + std::to_string(j + 1) + " and "
                               + std::to_string(names.size() + 1) + "): keep one";
                names.push_back(h);
                columns.push_back(c);
            }
            const auto has = [&](Column::Kind k) { return std::any_of(columns.begin(), columns.end(), [k](const Column& c) { return c.kind == k; }); };
            if (!has(Column::Concurrency) && !has(Column::Batch) && !has(Column::RequestRate))
                return "the header needs a concurrency, batch or request_rate column";
            if (!has(Column::Input) || !has(Column::Output))
                return "the header needs the prompt and output lengths (isl and osl, or input_tokens and output_tokens)";
            if (!has(Column::Latency))
                return "the header needs a latency column (itl_ms, tpot_ms, ttft_ms, median_ttft_ms, ...)";
            if (has(Column::MeasurementWindow))
                addNote(f, "measurement_window_s read and checked; predicted as without it (measured from the first steady request): "
                           "only bench/measured_accuracy --point-windows measures each point in its own window");
            if (!ignored.empty()) {
                std::string list;
                for (const std::string& i : ignored)
                    list += (list.empty() ? "" : ", ") + printableText(i, 40);
                addNote(f, "columns ignored (not used by the prediction): " + list);
            }
            continue;
        }
        if (f.points.size() >= size_t(kMaxMeasurements))
            return "line " + std::to_string(lineNumber) + ": more than " + messageNumber(kMaxMeasurements) + " rows; at most "
                   + messageNumber(kMaxMeasurements);
        if (cells.size() != columns.size())
            return "line " + std::to_string(lineNumber) + ": " + std::to_string(cells.size()) + " cells for " + std::to_string(columns.size())
                   + " columns";
        BenchmarkPoint p;
        p.label = "line " + std::to_string(lineNumber);
        p.steadyState = true;
        std::optional<double> concurrency, batch, rate;
        for (size_t i = 0; i < cells.size(); ++i) {
            const Column& c = columns[i];
            if (c.kind == Column::Ignored)
                continue;
            if (c.kind == Column::Set) {
                p.set = cells[i];
                continue;
            }
            if (cells[i].empty())
                continue;
            std::optional<double> v = csvNumber(cells[i]);
            if (!v && c.kind == Column::RequestRate && (lower(cells[i]) == "inf" || lower(cells[i]) == "infinity"))
                v = kInf;
            if (!v) {
                double parsed = 0;
                const std::string& cell = cells[i];
                const auto [ptr, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), parsed);
                if (ec == std::errc() && ptr == cell.data() + cell.size()) // nan, inf: a number, not a finite one
                    return p.label + ", column " + names[i] + " = " + printableText(cell) + ": expected a finite number";
                return p.label + ", column " + names[i] + ": \"" + printableText(cell) + "\" is not a number";
            }
            switch (c.kind) {
            case Column::Concurrency: concurrency = v; break;
            case Column::Batch: batch = v; break;
            case Column::RequestRate: rate = v; break;
            case Column::Input: p.inputTokens = *v; break;
            case Column::Output: p.outputTokens = *v; break;
            case Column::MeasurementWindow:
                // GenAI-Perf's measurement from the run's start (BenchmarkPoint::measurementWindowSeconds): a time, > 0.
                if (!(*v > 0) || *v > kMaxMeasurementWindowSeconds)
                    return p.label + ", column " + names[i] + " = " + printableText(cells[i])
                           + ": expected the measurement window in seconds, more than 0 and at most " + messageNumber(kMaxMeasurementWindowSeconds)
                           + " (empty: not recorded)";
                p.measurementWindowSeconds = *v;
                break;
            case Column::Latency:
                if (std::string e = checkLatency(p.label + ", column " + names[i], *v * c.toMs); !e.empty())
                    return e;
                p.latencies.push_back({c.metric, c.statistic, *v * c.toMs});
                break;
            default: break;
            }
        }
        if (batch && !concurrency && !rate) {
            p.load = BenchmarkLoad::StaticBatch;
            p.concurrency = *batch;
        } else if (concurrency && !rate) {
            p.load = BenchmarkLoad::Concurrency;
            p.concurrency = *concurrency;
        } else if (rate) {
            p.load = BenchmarkLoad::RequestRate;
            p.requestRatePerSecond = *rate;
            p.concurrency = concurrency.value_or(0);
        } else
            return p.label + ": no concurrency, batch or request rate";
        if (std::string e = checkPoint(p); !e.empty())
            return e;
        f.points.push_back(std::move(p));
    }
    if (columns.empty())
        return "no header line";
    if (f.points.empty())
        return "no data rows";
    return {};
}

} // namespace

std::optional<double> BenchmarkPoint::latency(BenchmarkMetric metric, BenchmarkStatistic statistic) const
{
    for (const MeasuredLatency& l : latencies)
        if (l.metric == metric && l.statistic == statistic)
            return l.ms;
    return std::nullopt;
}

const char* benchmarkMetricKey(BenchmarkMetric metric)
{
    switch (metric) {
    case BenchmarkMetric::Ttft: return "ttft";
    case BenchmarkMetric::Tpot: return "tpot";
    case BenchmarkMetric::Itl: return "itl";
    case BenchmarkMetric::EndToEnd: return "e2e";
    case BenchmarkMetric::EndToEndPerOutputToken: return "e2e_per_output_token";
    }
    return "?";
}

const char* benchmarkStatisticKey(BenchmarkStatistic statistic)
{
    switch (statistic) {
    case BenchmarkStatistic::Mean: return "mean";
    case BenchmarkStatistic::Median: return "median";
    case BenchmarkStatistic::P90: return "p90";
    case BenchmarkStatistic::P95: return "p95";
    case BenchmarkStatistic::P99: return "p99";
    }
    return "?";
}

std::string readBenchmarkFile(const QByteArray& bytes, const std::string& fileName, BenchmarkFile& out)
{
    BenchmarkFile f;
    const QByteArray head = bytes.trimmed();
    std::string e;
    if (head.isEmpty())
        e = "the file is empty";
    else if (head.startsWith('{') || head.startsWith('['))
        e = readJson(bytes, fileName, f);
    else {
        const QList<QByteArray> lines = bytes.split('\n');
        if (head.startsWith("Metric,"))
            e = readGenaiPerfCsv(lines, fileName, f);
        else
            e = readMeasurementCsv(lines, f);
    }
    if (!e.empty())
        return e;
    out = std::move(f);
    return {};
}

QString companionScenarioPath(const QString& benchmarkPath)
{
    if (benchmarkPath.isEmpty())
        return QString();
    const QFileInfo file(benchmarkPath);
    const QString stem = file.suffix().isEmpty() ? file.fileName() : file.completeBaseName();
    if (stem.isEmpty()) // ".csv": no name to put the suffix on
        return QString();
    const QFileInfo companion(file.dir(), stem + QStringLiteral(".scenario.json"));
    return companion.isFile() ? companion.absoluteFilePath() : QString();
}

} // namespace ridgeline::model
