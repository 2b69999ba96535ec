// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/files/simulationfile.h"

#include <algorithm>
#include <unordered_map>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <optional>

#include <QDate>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QList>
#include <QRegularExpression>

#include "model/files/inputfile.h"
#include "model/cost/jsoninput.h"
#include "model/cost/messagetext.h"
#include "model/cost/parallellayout.h"
#include "model/cost/scenariokeys.h"

namespace ridgeline::model {

namespace {

/** 1234567 -> "1,234,567". */
std::string grouped(long long v)
{
    const std::string digits = std::to_string(v); // v >= 0
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

std::string key(const std::string& prefix, const QString& name)
{
    return prefix + "." + printableText(name.toStdString());
}

/** A text value taken from the file: no control characters (they would break reports and CSV). */
std::string checkText(const std::string& text, const std::string& field)
{
    if (const size_t at = findControlCharacter(text); at != std::string::npos)
        return field + " = \"" + printableText(text) + "\": must not contain control characters (byte " + std::to_string(at + 1)
               + " is " + printableText(text.substr(at, 1)) + ")";
    return {};
}

/** Every key of @p object must be one of @p allowed. */
std::string onlyKeys(const QJsonObject& object, const std::string& prefix, std::initializer_list<const char*> allowed)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        bool known = false;
        for (const char* a : allowed)
            known = known || it.key() == QLatin1String(a);
        if (!known) {
            std::string list;
            for (const char* a : allowed)
                list += (list.empty() ? "" : ", ") + std::string(a);
            return "unknown key \"" + key(prefix, it.key()) + "\" (expected one of: " + list + ")";
        }
    }
    return {};
}

std::string number(const QJsonValue& v, const std::string& field, double& out)
{
    if (!v.isDouble())
        return field + " = " + jsonValueText(v) + ": expected a number";
    out = v.toDouble();
    if (!std::isfinite(out))
        return field + " = " + jsonValueText(v) + ": must be finite";
    return {};
}

std::string wholeNumber(const QJsonValue& v, const std::string& field, long long& out, long long min, long long max)
{
    double d = 0;
    if (!v.isDouble() || (d = v.toDouble(), d != std::floor(d)) || !std::isfinite(d))
        return field + " = " + jsonValueText(v) + ": expected a whole number";
    if (d < double(min) || d > double(max))
        return simulationRangeMessage(field, d, min, max); // the same words as checkSimulationConfig()
    out = static_cast<long long>(d);
    return {};
}

std::string integer(const QJsonValue& v, const std::string& field, int& out, int max)
{
    long long x = 0;
    if (std::string e = wholeNumber(v, field, x, 1, max); !e.empty())
        return e;
    out = int(x);
    return {};
}

/** A string out of @p choices; writes its index to @p out. */
std::string choice(const QJsonValue& v, const std::string& field, std::initializer_list<const char*> choices, int& out)
{
    std::string list;
    int i = 0, n = int(choices.size());
    for (const char* c : choices) {
        if (v.isString() && v.toString() == QLatin1String(c)) {
            out = i;
            return {};
        }
        list += (i == 0 ? "" : (i == n - 1 ? (n > 2 ? ", or " : " or ") : ", ")) + std::string(c);
        ++i;
    }
    return field + " = " + jsonValueText(v) + ": expected " + list;
}

std::string parseDistribution(const QJsonValue& v, const std::string& field, LengthDistribution& d)
{
    if (!v.isObject())
        return field + " = " + jsonValueText(v) + ": expected an object such as {\"dist\": \"lognormal\", \"median\": 2000, \"p99\": 8000}";
    const QJsonObject o = v.toObject();
    if (!o.contains(QLatin1String("dist")))
        return field + ".dist: missing (fixed, uniform or lognormal)";
    int kind = 0;
    if (std::string e = choice(o.value(QLatin1String("dist")), field + ".dist", {"fixed", "uniform", "lognormal"}, kind); !e.empty())
        return e;
    d = LengthDistribution{};
    d.kind = static_cast<LengthDistribution::Kind>(kind);
    auto read = [&](const char* name, double& out, bool required) -> std::string {
        const QJsonValue x = o.value(QLatin1String(name));
        if (x.isUndefined())
            return required ? field + "." + name + ": missing" : std::string();
        return number(x, field + "." + name, out);
    };
    switch (d.kind) {
    case LengthDistribution::Kind::Fixed:
        if (std::string e = onlyKeys(o, field, {"dist", "value"}); !e.empty())
            return e;
        return read("value", d.value, true);
    case LengthDistribution::Kind::Uniform:
        if (std::string e = onlyKeys(o, field, {"dist", "min", "max"}); !e.empty())
            return e;
        if (std::string e = read("min", d.min, true); !e.empty())
            return e;
        return read("max", d.max, true);
    case LengthDistribution::Kind::LogNormal:
        if (std::string e = onlyKeys(o, field, {"dist", "median", "p99", "min", "max"}); !e.empty())
            return e;
        if (std::string e = read("median", d.median, true); !e.empty())
            return e;
        if (std::string e = read("p99", d.p99, true); !e.empty())
            return e;
        if (std::string e = read("min", d.min, false); !e.empty())
            return e;
        return read("max", d.max, false);
    }
    return {};
}

std::string parseClass(const QJsonValue& v, const std::string& field, RequestClass& k)
{
    if (!v.isObject())
        return field + " = " + jsonValueText(v) + ": expected an object such as {\"name\": \"chat\", \"rate_per_s\": 10, ...}";
    const QJsonObject o = v.toObject();
    if (std::string e = onlyKeys(o, field, {"name", "priority", "rate_per_s", "count", "prompt", "output", "start_s", "end_s",
                                            "arrival", "burstiness", "prefix_groups", "prefix_tokens"});
        !e.empty())
        return e;
    const QJsonValue name = o.value(QLatin1String("name"));
    if (!name.isString())
        return field + ".name = " + jsonValueText(name) + ": expected a string";
    k.name = name.toString().toStdString();
    if (std::string e = checkText(k.name, field + ".name"); !e.empty())
        return e;
    if (o.contains(QLatin1String("priority"))) {
        int p = 0;
        if (std::string e = choice(o.value(QLatin1String("priority")), field + ".priority", {"interactive", "batch"}, p); !e.empty())
            return e;
        k.priority = p == 0 ? Priority::Interactive : Priority::Batch;
    }
    if (o.contains(QLatin1String("rate_per_s")))
        if (std::string e = number(o.value(QLatin1String("rate_per_s")), field + ".rate_per_s", k.ratePerSecond); !e.empty())
            return e;
    if (o.contains(QLatin1String("count")))
        if (std::string e = wholeNumber(o.value(QLatin1String("count")), field + ".count", k.count, 0, kMaxSimulationRequests); !e.empty())
            return e;
    if (o.contains(QLatin1String("start_s")))
        if (std::string e = number(o.value(QLatin1String("start_s")), field + ".start_s", k.startSeconds); !e.empty())
            return e;
    if (o.contains(QLatin1String("end_s")) && !o.value(QLatin1String("end_s")).isNull()) {
        double end = 0;
        if (std::string e = number(o.value(QLatin1String("end_s")), field + ".end_s", end); !e.empty())
            return e;
        k.endSeconds = end;
    }
    if (o.contains(QLatin1String("arrival"))) {
        int a = 0;
        if (std::string e = choice(o.value(QLatin1String("arrival")), field + ".arrival", {"poisson", "gamma"}, a); !e.empty())
            return e;
        k.arrival = a == 0 ? ArrivalProcess::Poisson : ArrivalProcess::Gamma;
    }
    if (o.contains(QLatin1String("burstiness"))) {
        if (std::string e = number(o.value(QLatin1String("burstiness")), field + ".burstiness", k.burstiness); !e.empty())
            return e;
        if (k.arrival != ArrivalProcess::Gamma)
            return field + ".burstiness = " + jsonValueText(o.value(QLatin1String("burstiness")))
                   + ": goes with \"arrival\": \"gamma\" (Poisson arrivals have burstiness 1)";
        if (!(k.burstiness >= kMinSimulationBurstiness && k.burstiness <= kMaxSimulationBurstiness))
            return field + ".burstiness = " + jsonValueText(o.value(QLatin1String("burstiness")))
                   + ": must be from 0.001 to 1,000 (the gamma shape; 1 is Poisson, below 1 burstier)";
    }
    if (o.contains(QLatin1String("prefix_groups"))) {
        long long g = 0;
        if (std::string e = wholeNumber(o.value(QLatin1String("prefix_groups")), field + ".prefix_groups", g, 0, kMaxSimulationPrefixGroups);
            !e.empty())
            return e;
        k.prefixGroups = int(g);
    }
    if (o.contains(QLatin1String("prefix_tokens"))) {
        long long t = 0;
        if (std::string e = wholeNumber(o.value(QLatin1String("prefix_tokens")), field + ".prefix_tokens", t, 0, kMaxSimulationTokens);
            !e.empty())
            return e;
        if (t > 0 && k.prefixGroups == 0)
            return field + ".prefix_tokens = " + std::to_string(t)
                   + ": goes with \"prefix_groups\" (the groups whose requests share those tokens)";
        k.prefixTokens = int(t);
    }
    const bool generates = k.ratePerSecond > 0 || k.count > 0;
    for (const char* which : {"prompt", "output"}) {
        const QJsonValue d = o.value(QLatin1String(which));
        LengthDistribution& dist = std::string(which) == "prompt" ? k.prompt : k.output;
        if (d.isUndefined()) {
            if (generates)
                return field + "." + which + ": missing (a distribution such as {\"dist\": \"fixed\", \"value\": 200})";
            continue;
        }
        if (std::string e = parseDistribution(d, field + "." + which, dist); !e.empty())
            return e;
    }
    return {};
}

bool parseDouble(const QByteArray& t, double& out)
{
    const char* first = t.constData();
    const char* last = first + t.size();
    auto [ptr, ec] = std::from_chars(first, last, out);
    return ec == std::errc() && ptr == last && std::isfinite(out);
}

/** The trace's class for rows without one: "trace", appended to @p classes when missing. */
int traceClassIndex(std::vector<RequestClass>& classes)
{
    for (size_t c = 0; c < classes.size(); ++c)
        if (classes[c].name == "trace")
            return int(c);
    RequestClass k;
    k.name = "trace";
    classes.push_back(k);
    return int(classes.size()) - 1;
}

/** "2023-11-16 18:15:46.6805900" (or with T, an optional Z or +hh:mm offset) -> seconds since 1970-01-01 UTC; false when not one. */
bool parseTraceTimestamp(const QByteArray& text, double& out)
{
    static const QRegularExpression re(QStringLiteral(
        "^(\\d{4})-(\\d{2})-(\\d{2})[ T](\\d{2}):(\\d{2}):(\\d{2})(\\.\\d{1,9})?(Z|[+-]\\d{2}:?\\d{2})?$"));
    const QRegularExpressionMatch m = re.match(QString::fromLatin1(text));
    if (!m.hasMatch())
        return false;
    const QDate date(m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt());
    const int h = m.captured(4).toInt(), mi = m.captured(5).toInt(), sec = m.captured(6).toInt();
    if (!date.isValid() || h > 23 || mi > 59 || sec > 60)
        return false;
    double fraction = 0;
    if (m.capturedLength(7) > 0)
        fraction = QStringView(m.captured(7)).toDouble();
    double offset = 0;
    const QString zone = m.captured(8);
    if (zone.size() > 1) {
        const QString digits = QString(zone).remove(QLatin1Char(':'));
        offset = (digits.mid(1, 2).toInt() * 3600.0 + digits.mid(3, 2).toInt() * 60.0) * (zone.startsWith(QLatin1Char('-')) ? -1 : 1);
    }
    out = double(date.toJulianDay() - 2440588) * 86400.0 + h * 3600.0 + mi * 60.0 + sec + fraction - offset;
    return true;
}

/** A token count cell of a public trace: a whole number from 0 to kMaxSimulationTokens. */
bool traceTokens(const QByteArray& cell, double& out)
{
    return parseDouble(cell.trimmed(), out) && out == std::floor(out) && out >= 0 && out <= double(kMaxSimulationTokens);
}

std::string tooManyRows(const std::string& where)
{
    return where + ": more than " + grouped(kMaxSimulationRequests) + " rows; at most " + grouped(kMaxSimulationRequests) + " requests in all";
}

/**
 * The Azure LLM inference trace (AzurePublicDataset, 2023 and 2024): header TIMESTAMP,ContextTokens,GeneratedTokens,
 * rows of a datetime and two token counts. Arrivals are seconds after the first row's. Rows with 0 context or
 * generated tokens (failed requests) are skipped and counted.
 */
std::string parseAzureTrace(const QList<QByteArray>& lines, int headerLine, const std::string& field, std::vector<RequestClass>& classes,
                            std::vector<Request>& out, TraceStats& stats)
{
    const int cls = traceClassIndex(classes);
    std::optional<double> first;
    for (int i = headerLine + 1; i < int(lines.size()); ++i) {
        const QByteArray l = lines[i].trimmed();
        if (l.isEmpty())
            continue;
        const std::string where = field + " line " + std::to_string(i + 1);
        const QList<QByteArray> cells = l.split(',');
        if (cells.size() != 3)
            return where + ": expected TIMESTAMP,ContextTokens,GeneratedTokens (an Azure LLM inference trace), got "
                   + std::to_string(cells.size()) + " fields";
        double t = 0;
        if (!parseTraceTimestamp(cells[0].trimmed(), t))
            return where + ": TIMESTAMP (field 1) is not a date and time such as 2023-11-16 18:15:46.6805900";
        if (!first)
            first = t;
        if (t < *first)
            return where + ": TIMESTAMP (field 1) is earlier than the first row's; the trace must be in time order";
        if (t - *first > kMaxSimulationSeconds)
            return where + ": TIMESTAMP (field 1) is more than 1e7 s after the first row's";
        double context = 0, generated = 0;
        if (!traceTokens(cells[1], context))
            return where + ": ContextTokens (field 2) is not a whole number from 0 to " + grouped(kMaxSimulationTokens);
        if (!traceTokens(cells[2], generated))
            return where + ": GeneratedTokens (field 3) is not a whole number from 0 to " + grouped(kMaxSimulationTokens);
        if (context < 1 || generated < 1) {
            ++stats.skippedRows;
            continue;
        }
        if (out.size() >= size_t(kMaxSimulationRequests))
            return tooManyRows(where);
        Request r;
        r.arrivalSeconds = t - *first;
        r.promptTokens = int(context);
        r.outputTokens = int(generated);
        r.classIndex = cls;
        out.push_back(r);
    }
    return {};
}

/**
 * The Mooncake trace (JSON Lines): one object a line with "timestamp" (ms), "input_length", "output_length" and
 * "hash_ids" (the prompt's block hashes; the first is the request's prefix group). Other keys are ignored. A row's
 * shared prefix (Request::prefixTokens) is kMooncakeBlockTokens per leading hash id that another row of the trace
 * also has (the hashes chain, so a shared hash means a shared prefix up to it), at most its input length.
 */
std::string parseMooncakeTrace(const QList<QByteArray>& lines, const std::string& field, std::vector<RequestClass>& classes,
                               std::vector<Request>& out)
{
    const int cls = traceClassIndex(classes);
    const size_t first = out.size();
    std::vector<std::vector<qint64>> rowHashes; // each row's hash ids, to find the prefixes rows share
    std::unordered_map<qint64, int> rowsWith;   // hash id -> rows holding it (counted to 2)
    for (int i = 0; i < int(lines.size()); ++i) {
        const QByteArray l = lines[i].trimmed();
        if (l.isEmpty())
            continue;
        const std::string where = field + " line " + std::to_string(i + 1);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(l, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            return where + ": not a JSON object (a Mooncake trace has one {\"timestamp\": ..., \"input_length\": ..., "
                           "\"output_length\": ..., \"hash_ids\": [...]} a line)";
        const QJsonObject o = doc.object();
        const QJsonValue ts = o.value(QLatin1String("timestamp"));
        if (!ts.isDouble() || !std::isfinite(ts.toDouble()) || ts.toDouble() < 0 || ts.toDouble() / 1000.0 > kMaxSimulationSeconds)
            return where + ": timestamp is missing or not a number of milliseconds from 0 to 1e10";
        Request r;
        r.arrivalSeconds = ts.toDouble() / 1000.0;
        r.classIndex = cls;
        const char* names[2] = {"input_length", "output_length"};
        int* fields[2] = {&r.promptTokens, &r.outputTokens};
        for (int k = 0; k < 2; ++k) {
            const QJsonValue v = o.value(QLatin1String(names[k]));
            const double d = v.toDouble();
            if (!v.isDouble() || d != std::floor(d) || d < 1 || d > double(kMaxSimulationTokens))
                return where + ": " + names[k] + " is missing or not a whole number of tokens from 1 to " + grouped(kMaxSimulationTokens);
            *fields[k] = int(d);
        }
        const QJsonValue hashes = o.value(QLatin1String("hash_ids"));
        if (!hashes.isUndefined()) {
            if (!hashes.isArray())
                return where + ": hash_ids is not a list of whole numbers";
            const QJsonArray a = hashes.toArray();
            if (!a.isEmpty()) {
                const double h = a.first().toDouble(-1);
                if (!a.first().isDouble() || h != std::floor(h) || h < 0 || h > 2147483647.0)
                    return where + ": hash_ids[0] is not a whole number from 0 to 2,147,483,647";
                r.prefixGroup = int(h);
            }
            std::vector<qint64> ids;
            for (const QJsonValue& id : a) {
                if (!id.isDouble() || id.toDouble() != std::floor(id.toDouble()))
                    break; // the chain's usable part: a malformed later id ends it
                ids.push_back(qint64(id.toDouble()));
            }
            std::sort(ids.begin(), ids.end()); // counted once per row
            for (size_t k = 0; k < ids.size(); ++k)
                if (k == 0 || ids[k] != ids[k - 1]) {
                    int& n = rowsWith[ids[k]];
                    n = std::min(2, n + 1);
                }
            ids.clear();
            for (const QJsonValue& id : a) {
                if (!id.isDouble() || id.toDouble() != std::floor(id.toDouble()))
                    break;
                ids.push_back(qint64(id.toDouble()));
            }
            rowHashes.push_back(std::move(ids));
        } else
            rowHashes.emplace_back();
        if (out.size() >= size_t(kMaxSimulationRequests))
            return tooManyRows(where);
        out.push_back(r);
    }
    for (size_t i = 0; i < rowHashes.size(); ++i) {
        long long shared = 0;
        for (const qint64 id : rowHashes[i]) {
            if (rowsWith[id] < 2)
                break;
            ++shared;
        }
        Request& r = out[first + i];
        r.prefixTokens = int(std::min<long long>(shared * kMooncakeBlockTokens, r.promptTokens));
    }
    return {};
}

} // namespace

std::string parseTraceCsv(const QByteArray& text, const std::string& field, std::vector<RequestClass>& classes,
                          std::vector<Request>& out, TraceStats* stats)
{
    const QList<QByteArray> lines = text.split('\n');
    TraceStats local;
    TraceStats& st = stats ? *stats : local;
    // The format, from the first line that is not blank: a JSON object (Mooncake), the Azure header, else ours.
    for (int i = 0; i < int(lines.size()); ++i) {
        const QByteArray l = lines[i].trimmed();
        if (l.isEmpty())
            continue;
        if (l.startsWith('{')) {
            st.format = TraceFormat::Mooncake;
            return parseMooncakeTrace(lines, field, classes, out);
        }
        QByteArray header = l.toLower();
        header.replace(' ', "");
        if (header == "timestamp,contexttokens,generatedtokens") {
            st.format = TraceFormat::Azure;
            return parseAzureTrace(lines, i, field, classes, out, st);
        }
        break;
    }
    st.format = TraceFormat::Rows;
    bool first = true;
    int line = 0;
    int traceClass = -1;
    for (const QByteArray& raw : lines) {
        ++line;
        const QByteArray l = raw.trimmed();
        if (l.isEmpty() || l.startsWith('#'))
            continue;
        const QList<QByteArray> cells = l.split(',');
        const std::string where = field + " line " + std::to_string(line);
        double arrival = 0;
        if (!parseDouble(cells[0].trimmed(), arrival)) {
            if (first) { // a header
                first = false;
                continue;
            }
            return where + ": arrival_s (field 1) is not a number of seconds";
        }
        first = false;
        if (out.size() >= size_t(kMaxSimulationRequests))
            return where + ": more than " + grouped(kMaxSimulationRequests) + " rows; at most " + grouped(kMaxSimulationRequests)
                   + " requests in all";
        if (cells.size() < 3 || cells.size() > 4)
            return where + ": expected arrival_s,prompt_tokens,output_tokens[,class], got " + std::to_string(cells.size())
                   + " fields";
        if (arrival < 0)
            return where + ": arrival " + formatNumber(arrival) + ": must be >= 0";
        Request r;
        r.arrivalSeconds = arrival;
        const char* names[2] = {"prompt_tokens", "output_tokens"};
        int* fields[2] = {&r.promptTokens, &r.outputTokens};
        for (int i = 0; i < 2; ++i) {
            double v = 0;
            const QByteArray cell = cells[i + 1].trimmed();
            if (!parseDouble(cell, v) || v != std::floor(v) || v < 1 || v > double(kMaxSimulationTokens))
                return where + ": " + names[i] + " (field " + std::to_string(i + 2) + ") is not a whole number from 1 to "
                       + grouped(kMaxSimulationTokens);
            *fields[i] = int(v);
        }
        if (cells.size() == 4) {
            const std::string name = cells[3].trimmed().toStdString();
            r.classIndex = -1;
            for (size_t c = 0; c < classes.size(); ++c)
                if (classes[c].name == name)
                    r.classIndex = int(c);
            if (r.classIndex < 0) {
                std::string known;
                for (size_t c = 0; c < classes.size() && c < 8; ++c)
                    known += (c == 0 ? "" : ", ") + printableText(classes[c].name, 40);
                return where + ": class (field 4) is not one of simulation.classes" + (known.empty() ? "" : " (" + known + ")");
            }
        } else {
            if (traceClass < 0) {
                for (size_t c = 0; c < classes.size(); ++c)
                    if (classes[c].name == "trace")
                        traceClass = int(c);
                if (traceClass < 0) {
                    RequestClass k;
                    k.name = "trace";
                    classes.push_back(k);
                    traceClass = int(classes.size()) - 1;
                }
            }
            r.classIndex = traceClass;
        }
        out.push_back(r);
    }
    return {};
}

std::string parseSimulationJson(const QByteArray& json, const QString& baseDir, SimulationFile& out)
{
    QJsonDocument doc;
    if (std::string e = parseJsonInput(json, doc); !e.empty())
        return e;
    if (!doc.isObject())
        return "expected a JSON object at the top level";
    const QJsonObject root = doc.object();
    for (auto it = root.begin(); it != root.end(); ++it) {
        const QString k = it.key();
        if (k != QLatin1String("title") && k != QLatin1String("format_version") && k != QLatin1String("scenario")
            && k != QLatin1String("simulation"))
            return "unknown key \"" + printableText(k.toStdString()) + "\" (expected title, format_version, scenario, simulation)";
    }
    out = SimulationFile{};
    out.scenario = defaultScenario();
    if (root.contains(QLatin1String("title"))) {
        const QJsonValue t = root.value(QLatin1String("title"));
        if (!t.isString())
            return "title = " + jsonValueText(t) + ": expected a string";
        out.title = t.toString().toStdString();
        if (std::string e = checkText(out.title, "title"); !e.empty())
            return e;
    }
    if (root.contains(QLatin1String("format_version"))) {
        long long v = 0;
        if (std::string e = wholeNumber(root.value(QLatin1String("format_version")), "format_version", v, 1, 1); !e.empty())
            return e;
    }
    if (root.contains(QLatin1String("scenario"))) {
        const QJsonValue s = root.value(QLatin1String("scenario"));
        if (!s.isObject())
            return "scenario = " + jsonValueText(s) + ": expected an object of scenario keys";
        if (std::string e = applyJson(out.scenario, s.toObject()); !e.empty())
            return "scenario: " + e;
    }
    for (const ScenarioError& e : validate(out.scenario))
        return "scenario: " + e.message;

    const QJsonValue simValue = root.value(QLatin1String("simulation"));
    if (simValue.isUndefined())
        return "simulation: missing (an object with the policy and the workload)";
    if (!simValue.isObject())
        return "simulation = " + jsonValueText(simValue) + ": expected an object";
    const QJsonObject sim = simValue.toObject();
    const std::string p = "simulation";
    if (std::string e = onlyKeys(sim, p,
                                 {"policy", "max_sequences", "token_budget", "kv_admission", "block_tokens", "kv_watermark",
                                  "duration_s", "requests", "seed", "itl_slo_ms", "ttft_slo_ms", "itl_slo_statistic",
                                  "classes", "trace_csv", "admission_rule", "batch_prefill_token_cap",
                                  "reserved_kv_fraction", "sweep_max_sequences", "kv_series_points", "replicas", "router",
                                  "rate_sweep", "prefix_caching", "closed_loop_clients", "pipeline_stages", "expert_parallel",
                                  "microbatches", "prefill_replicas", "max_prefills_per_step"});
        !e.empty())
        return e;

    SimulationConfig& c = out.config;
    c.blockTokens = out.scenario.serving.blockTokens;
    // The scenario's serving.max_prefills_per_step, as --predict takes it; simulation.max_prefills_per_step, when given,
    // replaces it (issue 14 trial: the scenario's was dropped without a word).
    c.maxPrefillsPerStep = out.scenario.serving.maxPrefillsPerStep;
    c.dynamicBatchTuning = out.scenario.serving.dynamicBatchTuning; // as --predict takes it (trtllm scheduler only)
    c.ttftSloMs = out.scenario.workload.ttftSloMs;
    if (!out.scenario.workload.itlSloMs.empty())
        c.itlSloMs = out.scenario.workload.itlSloMs.front();

    auto has = [&](const char* name) { return sim.contains(QLatin1String(name)); };
    auto val = [&](const char* name) { return sim.value(QLatin1String(name)); };
    auto f = [&](const char* name) { return p + "." + name; };
    int index = 0;
    if (has("policy")) {
        if (std::string e = choice(val("policy"), f("policy"), {"static", "continuous", "chunked"}, index); !e.empty())
            return e;
        c.policy = static_cast<BatchingPolicy>(index);
    }
    if (has("kv_admission")) {
        if (std::string e = choice(val("kv_admission"), f("kv_admission"), {"paged", "contiguous"}, index); !e.empty())
            return e;
        c.kvAdmission = static_cast<KvAdmission>(index);
    }
    if (has("admission_rule")) {
        if (std::string e = choice(val("admission_rule"), f("admission_rule"),
                                   {"none", "separate_queues", "prefill_token_cap", "reserved_kv"}, index);
            !e.empty())
            return e;
        c.admissionRule = static_cast<AdmissionRule>(index);
    }
    if (has("router")) {
        if (std::string e = choice(val("router"), f("router"), {"round_robin", "least_loaded", "prefix_aware"}, index); !e.empty())
            return e;
        c.router = static_cast<RouterPolicy>(index);
    }
    if (has("prefix_caching")) {
        if (!val("prefix_caching").isBool())
            return f("prefix_caching") + " = " + jsonValueText(val("prefix_caching")) + ": expected true or false";
        c.prefixCaching = val("prefix_caching").toBool();
    }
    if (has("replicas")) {
        long long n = 0;
        if (std::string e = wholeNumber(val("replicas"), f("replicas"), n, 1, kMaxSimulationReplicas); !e.empty())
            return e;
        c.replicas = int(n);
    }
    if (has("max_prefills_per_step")) { // 0: no limit (SimulationConfig::maxPrefillsPerStep)
        long long n = 0;
        if (std::string e = wholeNumber(val("max_prefills_per_step"), f("max_prefills_per_step"), n, 0, kMaxSimulationSequences); !e.empty())
            return e;
        c.maxPrefillsPerStep = int(n);
    }
    if (has("closed_loop_clients")) {
        long long n = 0;
        if (std::string e = wholeNumber(val("closed_loop_clients"), f("closed_loop_clients"), n, 0, kMaxSimulationSequences); !e.empty())
            return e;
        c.closedLoopClients = int(n);
    }
    // Each replica's layout beyond tensor parallelism (TP = the scenario's hardware.gpus) and disaggregated pools.
    struct LayoutField { const char* name; int* out; long long min, max; };
    for (const LayoutField& l : {LayoutField{"pipeline_stages", &c.pipelineStages, 1, kMaxSimulationLayoutCount},
                                 LayoutField{"expert_parallel", &c.expertParallel, 1, kMaxSimulationLayoutCount},
                                 LayoutField{"microbatches", &c.microbatches, 0, kMaxSimulationLayoutCount},
                                 LayoutField{"prefill_replicas", &c.prefillReplicas, 0, kMaxSimulationReplicas}})
        if (has(l.name)) {
            long long n = 0;
            if (std::string e = wholeNumber(val(l.name), f(l.name), n, l.min, l.max); !e.empty())
                return e;
            *l.out = int(n);
        }
    if (c.microbatches > 0 && c.pipelineStages <= 1) // each microbatch would read every weight again: many times the step
        return f("microbatches") + " = " + std::to_string(c.microbatches)
               + ": goes with pipeline_stages > 1 (decode microbatches flow through the pipeline's stages; 0: min(PP, batch))";
    if (c.pipelineStages > 1 || c.expertParallel > 1) {
        const ParallelLayout layout{std::max(1, out.scenario.hardware.gpus), c.pipelineStages, c.expertParallel, c.microbatches};
        if (std::string why = layoutRefusal(out.scenario.model, layout); !why.empty())
            return p + ": pipeline_stages = " + std::to_string(c.pipelineStages) + ", expert_parallel = " + std::to_string(c.expertParallel)
                   + " with TP " + std::to_string(layout.tp) + " (scenario hardware.gpus): " + why;
    }
    if (has("rate_sweep")) {
        const QJsonValue v = val("rate_sweep");
        const std::string rs = f("rate_sweep");
        if (!v.isObject())
            return rs + " = " + jsonValueText(v) + ": expected an object such as {\"from\": 1, \"to\": 20, \"steps\": 10}";
        const QJsonObject o = v.toObject();
        if (std::string e = onlyKeys(o, rs, {"from", "to", "steps", "attainment", "bisections"}); !e.empty())
            return e;
        for (const char* required : {"from", "to", "steps"})
            if (!o.contains(QLatin1String(required)))
                return rs + "." + required + ": missing";
        RateSweep& sweep = out.rateSweep;
        if (std::string e = number(o.value(QLatin1String("from")), rs + ".from", sweep.fromPerSecond); !e.empty())
            return e;
        if (std::string e = number(o.value(QLatin1String("to")), rs + ".to", sweep.toPerSecond); !e.empty())
            return e;
        long long steps = 0;
        if (std::string e = wholeNumber(o.value(QLatin1String("steps")), rs + ".steps", steps, 1, kMaxRateSweepSteps); !e.empty())
            return e;
        sweep.steps = int(steps);
        if (o.contains(QLatin1String("attainment")))
            if (std::string e = number(o.value(QLatin1String("attainment")), rs + ".attainment", sweep.attainmentTarget); !e.empty())
                return e;
        if (o.contains(QLatin1String("bisections"))) {
            long long b = 0;
            if (std::string e = wholeNumber(o.value(QLatin1String("bisections")), rs + ".bisections", b, 0, kMaxRateSweepBisections); !e.empty())
                return e;
            sweep.bisections = int(b);
        }
    }
    if (has("itl_slo_statistic")) {
        if (std::string e = choice(val("itl_slo_statistic"), f("itl_slo_statistic"), {"mean", "max"}, index); !e.empty())
            return e;
        c.itlSloStatistic = static_cast<ItlSloStatistic>(index);
    }
    struct IntField { const char* name; int* out; int max; };
    for (const IntField& i : {IntField{"max_sequences", &c.maxSequences, kMaxSimulationSequences},
                              IntField{"token_budget", &c.tokenBudget, kMaxSimulationTokens},
                              IntField{"block_tokens", &c.blockTokens, kMaxSimulationBlockTokens},
                              IntField{"batch_prefill_token_cap", &c.batchPrefillTokenCap, kMaxSimulationTokens},
                              IntField{"kv_series_points", &c.kvSeriesPoints, kMaxSimulationSeriesPoints}})
        if (has(i.name))
            if (std::string e = integer(val(i.name), f(i.name), *i.out, i.max); !e.empty())
                return e;
    struct NumberField { const char* name; double* out; };
    for (const NumberField& n : {NumberField{"kv_watermark", &c.kvWatermark}, NumberField{"itl_slo_ms", &c.itlSloMs},
                                 NumberField{"ttft_slo_ms", &c.ttftSloMs}, NumberField{"reserved_kv_fraction", &c.reservedKvFraction}})
        if (has(n.name))
            if (std::string e = number(val(n.name), f(n.name), *n.out); !e.empty())
                return e;
    if (has("duration_s")) {
        double d = 0;
        if (std::string e = number(val("duration_s"), f("duration_s"), d); !e.empty())
            return e;
        c.durationSeconds = d;
    }
    if (has("requests")) {
        long long n = 0;
        if (std::string e = wholeNumber(val("requests"), f("requests"), n, 1, kMaxSimulationRequests); !e.empty())
            return e;
        c.requests = n;
    }
    if (has("seed")) {
        long long s = 0;
        if (std::string e = wholeNumber(val("seed"), f("seed"), s, 0, 1LL << 53); !e.empty())
            return e;
        c.seed = static_cast<std::uint64_t>(s);
    }
    if (has("sweep_max_sequences")) {
        const QJsonValue v = val("sweep_max_sequences");
        if (!v.isArray())
            return f("sweep_max_sequences") + " = " + jsonValueText(v) + ": expected a list of whole numbers such as [8, 16, 32]";
        const QJsonArray a = v.toArray();
        if (a.size() > kMaxSimulationSweepCaps)
            return f("sweep_max_sequences") + ": " + std::to_string(a.size()) + " caps; at most " + std::to_string(kMaxSimulationSweepCaps)
                   + " (each is one more simulation)";
        for (qsizetype i = 0; i < a.size(); ++i) {
            int cap = 0;
            if (std::string e = integer(a.at(i), f("sweep_max_sequences") + "[" + std::to_string(i) + "]", cap, kMaxSimulationSequences);
                !e.empty())
                return e;
            c.sweepMaxSequences.push_back(cap);
        }
    }
    if (has("classes")) {
        const QJsonValue v = val("classes");
        if (!v.isArray())
            return f("classes") + " = " + jsonValueText(v) + ": expected a list of classes";
        const QJsonArray a = v.toArray();
        if (a.size() > kMaxSimulationClasses)
            return f("classes") + ": " + std::to_string(a.size()) + " classes; at most " + std::to_string(kMaxSimulationClasses);
        for (qsizetype i = 0; i < a.size(); ++i) {
            RequestClass k;
            if (std::string e = parseClass(a.at(i), f("classes") + "[" + std::to_string(i) + "]", k); !e.empty())
                return e;
            c.classes.push_back(k);
        }
    }
    if (has("trace_csv")) {
        const QJsonValue v = val("trace_csv");
        if (!v.isString() || v.toString().isEmpty())
            return f("trace_csv") + " = " + jsonValueText(v) + ": expected a file name";
        // Relative to the simulation file, inside its folder: a shared file must not read (and quote) any other.
        const QString name = v.toString();
        const bool parent = name.split(QRegularExpression(QStringLiteral("[/\\\\]"))).contains(QStringLiteral(".."));
        if (QDir::isAbsolutePath(name) || name.startsWith(QLatin1Char('~')) || parent)
            return f("trace_csv") + " = " + jsonValueText(v)
                   + ": must name a file in the simulation file's folder or below it (no absolute path, no ..)";
        const QString path = QDir(baseDir).filePath(name);
        const QString folder = QFileInfo(baseDir).canonicalFilePath();
        const QString target = QFileInfo(path).canonicalFilePath();
        if (!folder.isEmpty() && !target.isEmpty() && !target.startsWith(folder + QLatin1Char('/')))
            return f("trace_csv") + " = " + jsonValueText(v) + ": leads outside the simulation file's folder (a link); copy the trace there";
        QByteArray bytes;
        if (std::string e = readInputFile(path, bytes); !e.empty())
            return f("trace_csv") + " = " + jsonValueText(v) + ": " + e;
        if (std::string e = parseTraceCsv(bytes, f("trace_csv"), c.classes, c.trace, &out.trace); !e.empty())
            return e;
    }
    if (std::string e = checkSimulationConfig(c); !e.empty())
        return e;
    if (out.rateSweep.steps > 0)
        return checkRateSweep(c, out.rateSweep, f("rate_sweep"));
    return {};
}

std::string loadSimulationFile(const QString& path, SimulationFile& out)
{
    QByteArray bytes;
    if (std::string e = readInputFile(path, bytes); !e.empty())
        return e;
    return parseSimulationJson(bytes, QFileInfo(path).absolutePath(), out);
}

} // namespace ridgeline::model
