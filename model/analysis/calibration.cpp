// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/calibration.h"
#include "model/files/csvline.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>

#include <Eigen/Dense>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QString>

#include "model/cost/costmodel.h"
#include "model/cost/costterms.h"
#include "model/cost/jsoninput.h"
#include "model/cost/messagetext.h"
#include "model/cost/scenariokeys.h"

namespace ridgeline::model {

namespace {

/** "ITL (ms)" / "itl [ms]" / "itl_ms" -> "itl_ms". */
std::string normaliseHeader(std::string h)
{
    std::transform(h.begin(), h.end(), h.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    for (const char* open : {"(", "["}) {
        const size_t at = h.find(open);
        if (at != std::string::npos) {
            const size_t close = h.find_first_of(")]", at);
            const std::string unit = trimmedText(h.substr(at + 1, close == std::string::npos ? std::string::npos : close - at - 1));
            h = trimmedText(h.substr(0, at)) + "_" + unit;
        }
    }
    std::replace(h.begin(), h.end(), ' ', '_');
    return h;
}

/** How many different rows @p m has (exact comparison): repeated measurements of one operating point count once. */
Eigen::Index distinctRows(const Eigen::MatrixXd& m)
{
    std::set<std::vector<double>> rows;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        std::vector<double> row(static_cast<size_t>(m.cols()));
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            row[size_t(j)] = m(i, j);
        rows.insert(std::move(row));
    }
    return Eigen::Index(rows.size());
}

/**
 * Weighted least squares of y on the columns of X with weights w; returns coefficients and standard errors.
 * No standard errors when the points are fewer than the coefficients, or when fewer distinct (x, y) points
 * than coefficients remain (copies of one measurement leave no residual to estimate the scatter from: the
 * error would read 0, as if the fit were exact).
 */
struct Fit {
    Eigen::VectorXd beta;
    std::optional<Eigen::VectorXd> standardErrors;
};
Fit weightedLeastSquares(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const Eigen::VectorXd& w)
{
    const Eigen::MatrixXd Xw = w.asDiagonal() * X;
    const Eigen::VectorXd yw = w.asDiagonal() * y;
    Fit f;
    f.beta = Xw.colPivHouseholderQr().solve(yw);
    const Eigen::Index n = X.rows(), p = X.cols();
    Eigen::MatrixXd points(n, p + 1);
    points << X, y;
    if (n > p && distinctRows(points) > p) {
        const double rss = (yw - Xw * f.beta).squaredNorm();
        const Eigen::MatrixXd covariance = (rss / double(n - p)) * (Xw.transpose() * Xw).inverse();
        f.standardErrors = covariance.diagonal().cwiseSqrt();
    }
    return f;
}

std::string fmt(const char* pattern, double a, double b = 0)
{
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, pattern, a, b);
    return buffer;
}

/** What a column gives: columns that give the same thing may not both be there. */
const char* columnMeaning(const std::string& column)
{
    if (column == "batch" || column == "concurrency")
        return "the batch";
    if (column == "input_tokens" || column == "prompt_tokens")
        return "the prompt length";
    if (column == "itl_ms" || column == "itl_s" || column == "tpot_ms" || column == "tpot_s")
        return "the ITL";
    if (column == "ttft_ms" || column == "ttft_s")
        return "the TTFT";
    return nullptr;
}

/** Fits y = intercept + slope * x (relative weights), or slope only when the x values do not vary. */
void fitLine(const std::vector<double>& x, const std::vector<double>& y, Coefficient& slope, Coefficient& intercept,
             std::vector<std::string>& notes, const char* what)
{
    const Eigen::Index n = Eigen::Index(x.size());
    Eigen::VectorXd X1(n), Y(n), W(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        X1(i) = x[size_t(i)];
        Y(i) = y[size_t(i)];
        W(i) = 1.0 / y[size_t(i)];
    }
    const double spread = (X1.maxCoeff() - X1.minCoeff()) / X1.maxCoeff();
    auto slopeOnly = [&]() {
        const Fit f = weightedLeastSquares(X1, Y, W);
        slope.value = f.beta(0);
        slope.standardError = f.standardErrors ? std::optional<double>((*f.standardErrors)(0)) : std::nullopt;
        slope.fitted = true;
        intercept = Coefficient{0, std::nullopt, false};
    };
    if (n >= 2 && spread > 1e-6) {
        Eigen::MatrixXd X(n, 2);
        X.col(0).setOnes();
        X.col(1) = X1;
        const Fit f = weightedLeastSquares(X, Y, W);
        if (f.beta(0) >= 0) {
            intercept = {f.beta(0), f.standardErrors ? std::optional<double>((*f.standardErrors)(0)) : std::nullopt, true};
            slope = {f.beta(1), f.standardErrors ? std::optional<double>((*f.standardErrors)(1)) : std::nullopt, true};
            if (n == 2)
                notes.push_back(std::string(what) + ": two points fit the line exactly; no uncertainty can be given.");
            return;
        }
        notes.push_back(std::string(what) + ": the fitted fixed overhead came out negative (" + fmt("%.3g ms", f.beta(0))
                        + "); refitted with the overhead at 0.");
        slopeOnly();
        return;
    }
    notes.push_back(std::string(what) + (n == 1 ? ": one point" : ": every point has the same operating point")
                    + " cannot tell a fixed overhead from the efficiency; fitted the efficiency only, overhead at 0.");
    slopeOnly();
    if (n >= 2 && !slope.standardError)
        notes.push_back(std::string(what) + ": the " + std::to_string(n) + " points are copies of one measurement; the standard "
                        "error cannot be estimated (it would read 0).");
}

FitError errors(const std::vector<double>& measured, const std::vector<double>& before, const std::vector<double>& after)
{
    FitError e;
    e.points = int(measured.size());
    for (size_t i = 0; i < measured.size(); ++i) {
        const double b = std::abs(before[i] - measured[i]) / measured[i];
        const double a = std::abs(after[i] - measured[i]) / measured[i];
        e.mapeBefore += b / double(measured.size());
        e.mapeAfter += a / double(measured.size());
        e.maxErrorBefore = std::max(e.maxErrorBefore, b);
        e.maxErrorAfter = std::max(e.maxErrorAfter, a);
    }
    return e;
}

std::string tooManyMeasurements(const std::string& where)
{
    return where + ": more than " + messageNumber(kMaxMeasurements) + " measurements; at most " + messageNumber(kMaxMeasurements)
           + " (a fit of four coefficients needs dozens of operating points: average repeated runs or thin the file)";
}

} // namespace

std::string parseMeasurementsCsv(const QByteArray& csv, std::vector<Measurement>& out)
{
    const QList<QByteArray> lines = csv.split('\n');
    std::vector<std::string> header;
    std::vector<Measurement> rows;
    int lineNumber = 0;
    for (const QByteArray& raw : lines) {
        ++lineNumber;
        std::string line = trimmedText(raw.toStdString());
        if (lineNumber == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0)
            line.erase(0, 3); // a UTF-8 byte-order mark
        if (line.empty() || line[0] == '#')
            continue;
        if (!header.empty() && rows.size() >= size_t(kMaxMeasurements))
            return tooManyMeasurements("line " + std::to_string(lineNumber));
        if (const std::string quote = csvQuoteProblem(line); !quote.empty())
            return "line " + std::to_string(lineNumber) + ": " + quote;
        std::vector<std::string> cells = splitCsvLine(line);
        if (header.empty()) {
            static const std::map<std::string, double> known = {
                {"batch", 1},        {"concurrency", 1},    {"context_tokens", 1}, {"input_tokens", 1}, {"prompt_tokens", 1},
                {"output_tokens", 1}, {"itl_ms", 1},        {"itl_s", 1000},       {"tpot_ms", 1},      {"tpot_s", 1000},
                {"ttft_ms", 1},      {"ttft_s", 1000}};
            for (size_t i = 0; i < cells.size(); ++i) {
                std::string& c = cells[i];
                c = normaliseHeader(c);
                if (!known.count(c))
                    return "unknown column \"" + printableText(c) + "\" (expected batch or concurrency, context_tokens or input_tokens and "
                           "output_tokens, itl_ms or tpot_ms, ttft_ms; units after an underscore or in brackets)";
                for (size_t j = 0; j < i; ++j) {
                    if (cells[j] == c)
                        return "column \"" + c + "\" appears twice (columns " + std::to_string(j + 1) + " and " + std::to_string(i + 1)
                               + "): keep one";
                    const char* meaning = columnMeaning(c);
                    if (meaning && meaning == columnMeaning(cells[j]))
                        return "columns \"" + cells[j] + "\" and \"" + c + "\" both give " + meaning + ": keep one";
                }
            }
            header = cells;
            const auto has = [&](const char* n) { return std::find(header.begin(), header.end(), n) != header.end(); };
            if (!has("batch") && !has("concurrency"))
                return "the header needs a batch or concurrency column";
            if (!has("itl_ms") && !has("itl_s") && !has("tpot_ms") && !has("tpot_s") && !has("ttft_ms") && !has("ttft_s"))
                return "the header needs a latency column (itl_ms, tpot_ms or ttft_ms)";
            continue;
        }
        if (cells.size() != header.size())
            return "line " + std::to_string(lineNumber) + ": " + std::to_string(cells.size()) + " cells for "
                   + std::to_string(header.size()) + " columns";
        Measurement m;
        double input = -1, output = -1;
        bool haveContext = false;
        for (size_t i = 0; i < cells.size(); ++i) {
            const std::string& h = header[i];
            const std::string where = "line " + std::to_string(lineNumber) + ", column " + h;
            if (cells[i].empty()) {
                if (h == "batch" || h == "concurrency")
                    return where + ": empty (every row needs its batch)";
                continue; // not measured
            }
            double v = 0;
            const char* first = cells[i].data();
            const auto [ptr, ec] = std::from_chars(first, first + cells[i].size(), v);
            // "NaN" read as a number is not finite: say that, not "\"NaN\" is not a number" (which reads as a tautology).
            if (ec == std::errc() && ptr == first + cells[i].size() && !std::isfinite(v))
                return where + " = " + printableText(cells[i]) + ": expected a finite number";
            if (ec != std::errc() || ptr != first + cells[i].size())
                return where + ": \"" + printableText(cells[i]) + "\" is not a number";
            const std::string shownCell = where + " = " + printableText(cells[i]) + ": ";
            const bool seconds = h.size() > 2 && h.compare(h.size() - 2, 2, "_s") == 0;
            if ((h == "batch" || h == "concurrency") && !(v >= 1 && v <= 1e7 && v == std::floor(v)))
                return shownCell + "expected a whole number of sequences from 1 to 10,000,000";
            if ((h == "context_tokens" || h == "input_tokens" || h == "prompt_tokens" || h == "output_tokens") && !(v >= 0 && v <= 1e9))
                return shownCell + "expected a number of tokens from 0 to 1e9";
            if (h.rfind("itl", 0) == 0 || h.rfind("tpot", 0) == 0 || h.rfind("ttft", 0) == 0) {
                const double ms = seconds ? v * 1000 : v;
                if (!(ms >= 1e-6 && ms <= 1e9))
                    return shownCell + (seconds ? "expected a latency from 1e-9 to 1e6 s" : "expected a latency from 1e-6 to 1e9 ms");
            }
            if (h == "batch" || h == "concurrency")
                m.batch = v;
            else if (h == "context_tokens") {
                m.contextTokens = v;
                haveContext = true;
            } else if (h == "input_tokens" || h == "prompt_tokens")
                input = v;
            else if (h == "output_tokens")
                output = v;
            else if (h == "itl_ms" || h == "tpot_ms")
                m.itlMs = v;
            else if (h == "itl_s" || h == "tpot_s")
                m.itlMs = v * 1000;
            else if (h == "ttft_ms")
                m.ttftMs = v;
            else if (h == "ttft_s")
                m.ttftMs = v * 1000;
        }
        if (input >= 0)
            m.promptTokens = input;
        if (!haveContext && input >= 0)
            m.contextTokens = input + std::max(0.0, output) / 2.0;
        if (m.contextTokens > 1e9)
            return "line " + std::to_string(lineNumber) + ": context input + output / 2 = " + messageNumber(m.contextTokens)
                   + " tokens; at most 1e9";
        rows.push_back(m);
    }
    if (header.empty())
        return "no header line";
    if (rows.empty())
        return "no data rows";
    out = std::move(rows);
    return {};
}

std::string parseVllmBenchmarkJson(const QByteArray& json, std::vector<Measurement>& out)
{
    QList<QJsonValue> objects;
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error == QJsonParseError::NoError) {
        if (std::string e = findDuplicateJsonKey(json); !e.empty())
            return e;
        if (doc.isObject())
            objects << QJsonValue(doc.object());
        else
            for (const QJsonValue v : doc.array())
                objects << v;
    } else {
        for (const QByteArray& line : json.split('\n')) { // JSON lines
            if (line.trimmed().isEmpty())
                continue;
            const QJsonDocument d = QJsonDocument::fromJson(line, &error);
            if (error.error != QJsonParseError::NoError || !d.isObject())
                return "not valid JSON (nor JSON lines): " + error.errorString().toStdString();
            if (std::string e = findDuplicateJsonKey(line); !e.empty())
                return e;
            objects << QJsonValue(d.object());
            if (objects.size() > kMaxMeasurements)
                return tooManyMeasurements("line " + std::to_string(objects.size()));
        }
    }
    if (objects.size() > kMaxMeasurements)
        return tooManyMeasurements("result " + std::to_string(kMaxMeasurements + 1));
    std::vector<Measurement> rows;
    int index = 0;
    for (const QJsonValue& value : objects) {
        ++index;
        const std::string where = "result " + std::to_string(index) + ": ";
        if (!value.isObject())
            return where + jsonValueText(value) + ": expected an object (one benchmark result)";
        const QJsonObject o = value.toObject();
        // A number, or nullopt when absent or null; a value of another type is an error, naming it.
        std::string problem;
        auto number = [&](const char* key) -> std::optional<double> {
            const QJsonValue v = o.value(QLatin1String(key));
            if (v.isUndefined() || v.isNull())
                return std::nullopt;
            if (!v.isDouble()) {
                if (problem.empty())
                    problem = where + key + " = " + jsonValueText(v) + ": expected a number, not " + (v.isString() ? "text" : "this");
                return std::nullopt;
            }
            return v.toDouble();
        };
        auto whole = [&](const char* key, double v, double min, const char* what) -> std::string {
            if (!(v >= min && v <= 1e12 && v == std::floor(v)))
                return where + key + " = " + messageNumber(v) + ": expected a whole number of " + what + " from " + messageNumber(min)
                       + " to 1e12";
            return {};
        };
        const auto completed = number("completed");
        const auto input = number("total_input_tokens");
        const auto output = number("total_output_tokens");
        const auto concurrency = number("max_concurrency");
        const auto tpot = number("mean_tpot_ms");
        const auto ttft = number("median_ttft_ms");
        if (!problem.empty())
            return problem;
        if (!completed)
            return where + "\"completed\" is missing (the number of requests that completed)";
        if (!input || !output)
            return where + "\"total_input_tokens\" and \"total_output_tokens\" are needed";
        if (!concurrency)
            return where + "\"max_concurrency\" is missing or null (run the benchmark with --max-concurrency to know the batch)";
        for (const std::string& e : {whole("completed", *completed, 1, "requests"), whole("total_input_tokens", *input, 1, "tokens"),
                                     whole("total_output_tokens", *output, 0, "tokens")})
            if (!e.empty())
                return e;
        if (!(*concurrency >= 1 && *concurrency <= 1e7 && *concurrency == std::floor(*concurrency)))
            return where + "max_concurrency = " + messageNumber(*concurrency) + ": expected a whole number from 1 to 10,000,000";
        for (const auto& [key, latency] : {std::pair{"mean_tpot_ms", tpot}, std::pair{"median_ttft_ms", ttft}})
            if (latency && !(*latency >= 1e-6 && *latency <= 1e9))
                return where + key + " = " + messageNumber(*latency) + ": expected a latency from 1e-6 to 1e9 ms";
        Measurement m;
        m.batch = *concurrency;
        m.promptTokens = *input / *completed;
        m.contextTokens = m.promptTokens + *output / *completed / 2.0;
        m.itlMs = tpot;
        m.ttftMs = ttft;
        if (!m.itlMs && !m.ttftMs)
            return where + "neither mean_tpot_ms nor median_ttft_ms is present";
        if (m.contextTokens > 1e9)
            return where + "context (total_input_tokens + total_output_tokens / 2) / completed = " + messageNumber(m.contextTokens)
                   + " tokens per request; at most 1e9";
        rows.push_back(m);
    }
    if (rows.empty())
        return "no benchmark results";
    out = std::move(rows);
    return {};
}

std::string calibrate(const Scenario& scenario, const std::vector<Measurement>& data, CalibrationResult& out)
{
    CalibrationResult r;
    Scenario floor = scenario;
    floor.efficiency = Efficiency{}; // peak rates: the x of each fitted line
    std::vector<double> itlX, itlY, itlBefore, ttftX, ttftY, ttftBefore;
    std::vector<const Measurement*> itlRows, ttftRows;
    int computeBound = 0;
    for (const Measurement& m : data) {
        Scenario at = floor;
        at.workload.batch = int(std::max(1.0, std::round(m.batch)));
        at.workload.contextTokens = int(std::round(m.contextTokens));
        at.workload.promptTokens = int(std::round(m.promptTokens));
        const Evaluation e = evaluate(at);
        Scenario current = scenario;
        current.workload = at.workload;
        const Evaluation before = evaluate(current);
        if (m.itlMs) {
            if (e.decode.bound == Bound::Compute) {
                ++computeBound;
            } else {
                itlX.push_back(e.decode.memorySeconds * 1e3);
                itlY.push_back(*m.itlMs);
                itlBefore.push_back(before.decode.stepSeconds * 1e3);
                itlRows.push_back(&m);
            }
        }
        if (m.ttftMs && m.promptTokens > 0) {
            ttftX.push_back(e.prefill.computeSeconds * 1e3);
            ttftY.push_back(*m.ttftMs);
            ttftBefore.push_back(before.prefill.seconds * 1e3);
            ttftRows.push_back(&m);
        }
    }
    if (computeBound > 0)
        r.notes.push_back(std::to_string(computeBound) + " ITL point(s) are compute-bound at the floor and were left out of the bandwidth fit.");
    if (itlX.empty() && ttftX.empty())
        return "no usable points: give ITL with batch and context, or TTFT with prompt tokens";

    r.calibrated = scenario;
    r.bandwidthEfficiency = {scenario.efficiency.bandwidth, std::nullopt, false};
    r.stepOverheadMs = {scenario.efficiency.stepOverheadSeconds * 1e3, std::nullopt, false};
    r.mfuPrefill = {scenario.efficiency.mfuPrefill, std::nullopt, false};
    r.prefillOverheadMs = {scenario.efficiency.prefillOverheadSeconds * 1e3, std::nullopt, false};

    if (!itlX.empty()) {
        Coefficient slope, intercept;
        fitLine(itlX, itlY, slope, intercept, r.notes, "ITL");
        if (slope.value <= 0) {
            r.notes.push_back("ITL does not grow with the bytes read; the bandwidth efficiency cannot be fitted.");
        } else {
            r.bandwidthEfficiency = {1.0 / slope.value,
                                     slope.standardError ? std::optional<double>(*slope.standardError / (slope.value * slope.value))
                                                         : std::nullopt,
                                     true};
            r.stepOverheadMs = intercept.fitted ? intercept : Coefficient{0, std::nullopt, false};
            if (r.bandwidthEfficiency.value > 1)
                r.notes.push_back(fmt("The measurements are faster than the bandwidth floor (eta_bw %.3f > 1): check the "
                                      "hardware figures; the calibrated scenario caps eta_bw at 1.", r.bandwidthEfficiency.value));
            r.calibrated.efficiency.bandwidth = std::min(1.0, r.bandwidthEfficiency.value);
            r.calibrated.efficiency.stepOverheadSeconds = r.stepOverheadMs.value / 1e3;
        }
        r.notes.push_back("A per-layer overhead needs models of different depth to tell apart; it is folded into the fixed overhead.");
    }
    if (!ttftX.empty()) {
        Coefficient slope, intercept;
        fitLine(ttftX, ttftY, slope, intercept, r.notes, "TTFT");
        if (slope.value <= 0) {
            r.notes.push_back("TTFT does not grow with the prefill FLOP; MFU cannot be fitted.");
        } else {
            r.mfuPrefill = {1.0 / slope.value,
                            slope.standardError ? std::optional<double>(*slope.standardError / (slope.value * slope.value)) : std::nullopt,
                            true};
            r.prefillOverheadMs = intercept.fitted ? intercept : Coefficient{0, std::nullopt, false};
            if (r.mfuPrefill.value > 1)
                r.notes.push_back(fmt("TTFT is faster than the compute floor (MFU %.3f > 1); capped at 1.", r.mfuPrefill.value));
            r.calibrated.efficiency.mfuPrefill = std::min(1.0, r.mfuPrefill.value);
            r.calibrated.efficiency.prefillOverheadSeconds = r.prefillOverheadMs.value / 1e3;
        }
        r.notes.push_back("TTFT includes queue wait: calibrate on low-load runs, or the overhead absorbs the queue.");
    }

    // A fit far outside what the cost model accepts (eta_bw 5e-9 from an ITL of 1e9 ms, an overhead
    // of 2.4e8 ms) says the measurements and the scenario do not belong together: refuse it rather
    // than hand out a scenario that Ridgeline itself would refuse to open.
    if (const std::vector<ScenarioError> problems = validate(r.calibrated); !problems.empty())
        return "the fit gives a scenario Ridgeline refuses (" + problems.front().message
               + "): the measurements do not match this scenario (check the units, the model and the hardware)";

    // Errors before and after, on the same points, through the same cost model.
    std::vector<double> itlAfter, ttftAfter;
    for (const Measurement* m : itlRows) {
        Scenario at = r.calibrated;
        at.workload.batch = int(std::max(1.0, std::round(m->batch)));
        at.workload.contextTokens = int(std::round(m->contextTokens));
        itlAfter.push_back(evaluate(at).decode.stepSeconds * 1e3);
    }
    for (const Measurement* m : ttftRows) {
        Scenario at = r.calibrated;
        at.workload.promptTokens = int(std::round(m->promptTokens));
        ttftAfter.push_back(evaluate(at).prefill.seconds * 1e3);
    }
    r.itl = errors(itlY, itlBefore, itlAfter);
    r.ttft = errors(ttftY, ttftBefore, ttftAfter);
    out = std::move(r);
    return {};
}

// ---------------------------------------------------------------------------------------------
// Calibration against benchmark runs, the prediction in the loop.

namespace {

struct FitParameter {
    const char* key;
    double lower, upper;
    double start;
    double step; // forward-difference step (absolute, in the parameter's unit)
    bool free = true;
};

constexpr int kParameters = 14;

/** Applies parameter vector @p x (eta_bw, MFU prefill, MFU decode, step ms, chunk ms, eta_kv, per-sequence us,
 *  TTFT overhead ms, eta_kv1, prefill attention MFU, serial front end ms, admission gate us per token, API server output
 *  path us per token, first token's return path ms) to @p s. */
Scenario withParameters(Scenario s, const Eigen::VectorXd& x)
{
    s.efficiency.bandwidth = x(0);
    s.efficiency.mfuPrefill = x(1);
    s.efficiency.mfuDecode = x(2);
    s.efficiency.stepOverheadSeconds = x(3) / 1e3;
    s.efficiency.prefillOverheadSeconds = x(3) / 1e3;
    s.efficiency.chunkOverheadSeconds = x(4) / 1e3;
    s.efficiency.kvBandwidth = x(5);
    s.efficiency.perSequenceOverheadSeconds = x(6) / 1e6;
    s.efficiency.ttftOverheadSeconds = x(7) / 1e3;
    s.efficiency.kvBandwidthOneSequence = x(8);
    s.efficiency.mfuPrefillAttention = x(9);
    s.efficiency.frontendSerialSeconds = x(10) / 1e3;
    s.efficiency.tokenGateSeconds = x(11) / 1e6;
    s.serving.apiOutputSeconds = x(12) / 1e6;
    s.efficiency.firstTokenReturnSeconds = x(13) / 1e3;
    return s;
}

struct Residuals {
    Eigen::VectorXd r;       // predicted / measured - 1, ITL rows then TTFT rows
    double itlMape = 0, ttftMape = 0;
    int itlPoints = 0, ttftPoints = 0;
    bool ok = true;
};

/**
 * True when the TTFT points of @p rows (indices into @p points) include in-flight load: TTFT of closed-loop or
 * open-loop points at two or more concurrencies (or rates), at least one with more than one request in flight. There
 * a request's first token waits for a number of other prompts' prefill steps that changes with the load, while the
 * per-request overhead is paid once, so the two are told apart at one prompt length (calibrateBenchmark()). Static
 * batches do not count: every first token comes after the one prefill step of the batch, so TTFT = overhead + step
 * overhead + prefill at every batch size and the overhead cannot be told from the step overhead. @p burstsBySize: bursts
 * (request rate inf, no cap) of different sizes count as different loads (BenchmarkFitOptions::fitFrontendOnBursts).
 */
bool loadedPrefills(const std::vector<BenchmarkPoint>& points, const std::vector<int>& rows, bool burstsBySize = false)
{
    std::set<std::pair<double, double>> levels; // (clients, request rate): distinct loads
    bool loaded = false;
    for (const int i : rows) {
        const BenchmarkPoint& p = points[size_t(i)];
        if (p.load == BenchmarkLoad::StaticBatch)
            continue;
        const bool rate = p.load == BenchmarkLoad::RequestRate;
        // With burstsBySize, a burst (every request sent at once, no cap: vLLM's request rate inf) is loaded by how many it
        // sends: bursts of different sizes are different loads (h13al; otherwise every burst counts as one load).
        const bool burst = burstsBySize && rate && std::isinf(p.requestRatePerSecond) && !(p.concurrency > 0);
        levels.emplace(p.concurrency, burst ? -double(p.requests) : rate ? p.requestRatePerSecond : 0.0);
        loaded = loaded || rate || p.concurrency > 1;
    }
    return levels.size() >= 2 && loaded;
}

/**
 * A starting value for eta_kv1 from the single-request ITL points of @p rows: the least-squares slope s of ITL against
 * the layer-tokens of cache K(S) at the decode context S = input + output / 2 (a lone sequence's step grows by its KV read
 * at BW x eta_kv1, docs/cost-model.md), eta_kv1 = kv bytes per layer-token / (BW x s), within [0.01, 1]. 0 when the points
 * give no positive slope (two or more contexts needed).
 */
double loneSequenceStart(const Scenario& scenario, const std::vector<BenchmarkPoint>& points, const std::vector<int>& rows)
{
    const CostTerms terms = costTerms(scenario);
    std::vector<std::pair<double, double>> xy; // (K(S), ITL seconds)
    for (const int i : rows) {
        const BenchmarkPoint& p = points[size_t(i)];
        if (std::llround(p.concurrency) != 1 || p.load == BenchmarkLoad::RequestRate)
            continue;
        std::optional<double> ms;
        for (const BenchmarkMetric m : {BenchmarkMetric::Itl, BenchmarkMetric::Tpot})
            for (const BenchmarkStatistic st : {BenchmarkStatistic::Mean, BenchmarkStatistic::Median})
                if (!ms)
                    ms = p.latency(m, st);
        if (ms)
            xy.emplace_back(terms.layerTokens(p.inputTokens + p.outputTokens / 2.0), *ms / 1e3);
    }
    if (xy.size() < 2)
        return 0;
    double mx = 0, my = 0;
    for (const auto& [x, y] : xy) {
        mx += x;
        my += y;
    }
    mx /= double(xy.size());
    my /= double(xy.size());
    double sxy = 0, sxx = 0;
    for (const auto& [x, y] : xy) {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
    }
    if (!(sxx > 0) || !(sxy > 0) || !(terms.bandwidth > 0))
        return 0;
    const double slope = sxy / sxx; // seconds per layer-token
    return std::clamp(terms.kvPerLayerTokenPerGpu / (terms.bandwidth * slope), 0.01, 1.0);
}

} // namespace

std::vector<int> prefillLimitCandidates(int maxLimit)
{
    std::vector<int> limits{0}; // 0: no limit
    for (long long k = 1; k <= std::max(1, maxLimit); k *= 2) {
        limits.push_back(int(k));
        if (k >= 2 && k + k / 2 <= maxLimit) // 3, 6, 12, ...: between two powers of two
            limits.push_back(int(k + k / 2));
    }
    return limits;
}

int sharedTokenBudget(const std::vector<std::vector<std::pair<int, double>>>& costs, int preferred, double tolerance)
{
    std::map<int, std::pair<double, int>> sum; // candidate -> (summed cost, fits that scored it)
    int fits = 0;
    for (const std::vector<std::pair<int, double>>& fit : costs) {
        if (fit.empty())
            continue;
        ++fits;
        for (const auto& [budget, cost] : fit) {
            auto& [total, count] = sum[budget];
            total += cost;
            ++count;
        }
    }
    double lowest = std::numeric_limits<double>::infinity();
    for (const auto& [budget, s] : sum)
        if (s.second == fits && std::isfinite(s.first))
            lowest = std::min(lowest, s.first);
    if (fits == 0 || !std::isfinite(lowest))
        return 0;
    const double within = lowest + std::max(0.0, tolerance) * lowest;
    int chosen = 0;
    for (const auto& [budget, s] : sum) { // ascending: the smaller of two equally near comes first
        if (s.second != fits || !(s.first <= within))
            continue;
        if (chosen == 0)
            chosen = budget;
        else if (preferred > 0 && std::llabs(static_cast<long long>(budget) - preferred) < std::llabs(static_cast<long long>(chosen) - preferred))
            chosen = budget;
    }
    return chosen;
}

std::string calibrateBenchmark(const Scenario& scenario, const std::vector<BenchmarkPoint>& points, const BenchmarkFitOptions& options,
                               BenchmarkFitResult& out)
{
    if (points.empty())
        return "no benchmark points to fit";
    BenchmarkOptions fitEngine = options.engine;
    fitEngine.measuredRequests = std::max<long long>(1, options.measuredRequests);

    // Single requests in flight (closed loop at concurrency 1): their TTFT is t_req + one prefill step, with no queue.
    auto singleRequest = [&](const BenchmarkPoint& p) {
        return p.load == BenchmarkLoad::Concurrency && std::llround(p.concurrency) == 1;
    };
    auto hasTtft = [&](const BenchmarkPoint& p) {
        for (const BenchmarkStatistic st : {BenchmarkStatistic::Mean, BenchmarkStatistic::Median, BenchmarkStatistic::P90,
                                            BenchmarkStatistic::P95, BenchmarkStatistic::P99})
            if (p.latency(BenchmarkMetric::Ttft, st).has_value())
                return true;
        return false;
    };
    // fitTtftSingleRequestsOnly: where single requests give TTFT at two or more prompt lengths (10 % apart), they alone
    // price the prefill and the in-flight TTFT under load stays out of the residuals (its queue is the simulated clients',
    // lockstep or random, not the measured ones'; docs/cost-model.md, h13ac). Static batches (one step each) stay in.
    std::set<long long> singleLengths;
    for (const BenchmarkPoint& p : points)
        if (singleRequest(p) && hasTtft(p))
            singleLengths.insert(std::llround(std::log(std::max(1.0, p.inputTokens)) / std::log(1.1)));
    const bool singleTtftOnly = options.fitTtftSingleRequestsOnly && options.fitTtft && singleLengths.size() >= 2;

    // Which residual each point gives (fixed for the whole fit, so that the residual vector keeps its shape).
    std::vector<int> itlRows, ttftRows;
    for (size_t i = 0; i < points.size(); ++i) {
        bool itl = false;
        for (const BenchmarkMetric m : {BenchmarkMetric::Itl, BenchmarkMetric::Tpot, BenchmarkMetric::EndToEndPerOutputToken})
            for (const BenchmarkStatistic st : {BenchmarkStatistic::Mean, BenchmarkStatistic::Median, BenchmarkStatistic::P90,
                                                BenchmarkStatistic::P95, BenchmarkStatistic::P99})
                itl = itl || points[i].latency(m, st).has_value();
        bool ttft = false;
        for (const BenchmarkStatistic st : {BenchmarkStatistic::Mean, BenchmarkStatistic::Median, BenchmarkStatistic::P90,
                                            BenchmarkStatistic::P95, BenchmarkStatistic::P99})
            ttft = ttft || points[i].latency(BenchmarkMetric::Ttft, st).has_value();
        if (itl && options.fitItl)
            itlRows.push_back(int(i));
        if (singleTtftOnly && points[i].load != BenchmarkLoad::StaticBatch && !singleRequest(points[i]))
            ttft = false;
        if (ttft && options.fitTtft)
            ttftRows.push_back(int(i));
    }
    const Eigen::Index rows = Eigen::Index(itlRows.size() + ttftRows.size());
    if (rows == 0)
        return "no point has a latency to fit (ITL, TPOT or TTFT)";

    auto score = [&](const Scenario& s, const BenchmarkOptions& engine) {
        Residuals res;
        res.r.resize(rows);
        const std::vector<PointPrediction> predicted = predictBenchmarks(s, points, engine);
        Eigen::Index k = 0;
        for (const int i : itlRows) {
            const auto c = predicted[size_t(i)].error.empty() ? compareItl(points[size_t(i)], predicted[size_t(i)].prediction) : std::nullopt;
            if (!c || !(c->predictedMs > 0)) {
                res.ok = false;
                res.r(k++) = 0;
                continue;
            }
            res.r(k++) = c->predictedMs / c->measuredMs - 1.0;
            res.itlMape += std::abs(c->residual);
            ++res.itlPoints;
        }
        for (const int i : ttftRows) {
            const auto c = predicted[size_t(i)].error.empty() ? compareTtft(points[size_t(i)], predicted[size_t(i)].prediction) : std::nullopt;
            if (!c || !(c->predictedMs > 0)) {
                res.ok = false;
                res.r(k++) = 0;
                continue;
            }
            res.r(k++) = c->predictedMs / c->measuredMs - 1.0;
            res.ttftMape += std::abs(c->residual);
            ++res.ttftPoints;
        }
        if (res.itlPoints > 0)
            res.itlMape /= res.itlPoints;
        if (res.ttftPoints > 0)
            res.ttftMape /= res.ttftPoints;
        return res;
    };

    BenchmarkFitResult r;
    if (singleTtftOnly)
        r.notes.push_back("single requests' TTFT at " + std::to_string(singleLengths.size())
                          + " prompt lengths price the prefill: the TTFT under in-flight load is left out of the fit");
    {
        const Residuals before = score(scenario, options.engine);
        if (!before.ok) {
            // A point the simulator cannot run (a request that never fits): say which, fit nothing.
            const std::vector<PointPrediction> predicted = predictBenchmarks(scenario, points, options.engine);
            for (const PointPrediction& p : predicted)
                if (!p.error.empty())
                    return p.error;
            return "a point could not be predicted";
        }
        r.itlMapeBefore = before.itlMape;
        r.ttftMapeBefore = before.ttftMape;
    }

    // Parameters the points cannot identify by the rules below (decided from the points alone): the only ones a prior
    // from other data (BenchmarkFitOptions::priors) may pull.
    std::array<bool, kParameters> unidentified{};
    std::array<FitParameter, kParameters> params = {{{"efficiency.bandwidth", 0.01, 1.0, 0.75, 0.01},
                                                     {"efficiency.mfu_prefill", 0.01, 1.0, 0.40, 0.01},
                                                     {"efficiency.mfu_decode", 0.01, 1.0, 0.50, 0.01},
                                                     {"efficiency.step_overhead_ms", 0.0, 1000.0, 0.5, 0.05},
                                                     {"efficiency.chunk_overhead_ms", 0.0, 1000.0, 0.0, 0.05},
                                                     {"efficiency.kv_bandwidth", 0.01, 1.0, 0.75, 0.01},
                                                     {"efficiency.per_sequence_overhead_us", 0.0, 10000.0, 0.0, 2.0},
                                                     {"efficiency.ttft_overhead_ms", 0.0, 1000.0, 0.0, 0.05},
                                                     {"efficiency.kv_bandwidth_one_sequence", 0.01, 1.0, 0.3, 0.01},
                                                     {"efficiency.mfu_prefill_attention", 0.01, 1.0, 0.40, 0.01},
                                                     {"efficiency.frontend_serial_ms", 0.0, 100.0, 0.0, 0.05},
                                                     {"efficiency.token_gate_us", 0.0, 1000.0, 0.0, 2.0},
                                                     {"serving.api_output_us_per_token", 0.0, 2000.0, 0.0, 2.0},
                                                     {"efficiency.first_token_return_ms", 0.0, 1000.0, 0.0, 0.05}}};
    {
        // The ITL slope against the batch is (per-sequence cost) + S x (KV bytes per token) / (BW eta_kv): the two
        // are told apart only by slopes at different contexts S. Decided from the points alone (so it holds for
        // held-out fits too): both are fitted when the ITL points have at least two batch sizes at each of at least
        // two decode contexts (input + output / 2, distinct by more than 10 %); otherwise eta_kv = eta_bw and the
        // per-sequence cost stay at the scenario's values.
        std::map<long long, std::set<long long>> batchesAtContext;
        std::map<long long, std::pair<double, double>> contextRange; // each bucket's shortest and longest context, tokens
        for (const int i : itlRows) {
            const BenchmarkPoint& p = points[size_t(i)];
            const double context = p.inputTokens + p.outputTokens / 2.0;
            const long long bucket = std::llround(std::log(std::max(1.0, context)) / std::log(1.1));
            batchesAtContext[bucket].insert(std::llround(p.concurrency));
            auto& range = contextRange.try_emplace(bucket, context, context).first->second;
            range = {std::min(range.first, context), std::max(range.second, context)};
        }
        int contexts = 0;
        double shortest = 0, longest = 0; // the shortest and longest context with a slope, tokens
        for (const auto& [bucket, batches] : batchesAtContext)
            if (batches.size() >= 2) {
                shortest = contexts == 0 ? contextRange[bucket].first : std::min(shortest, contextRange[bucket].first);
                longest = std::max(longest, contextRange[bucket].second);
                ++contexts;
            }
        // With BenchmarkFitOptions::decodeContextRatio R > 0, only where those contexts span a factor of R or more, and
        // MFU decode with them (h13az): the per-sequence cost is the slopes' intercept at context 0, extrapolated from the
        // contexts the slopes were taken at, so its error is the slopes' times about sqrt(r^2 + 1) / (r - 1) for two
        // contexts a factor r apart (2.2 at r = 2, 4.1 at r = 1.43); and a compute-bound decode step costs a fixed time per
        // sequence too (2 N_active / (F_peak MFU_decode) whatever the context), so at close contexts MFU decode trades with
        // them. The NIM 8B fp16 set's half of ISL 2,000 (contexts 2,100 and 3,000 from one prompt length and two output
        // lengths) put per-sequence 4.7 +- 130 us and MFU decode about 0.1 and extrapolated ISL 200's ITL at N >= 100 by
        // +26 to +99 % (docs/cost-model.md, h13aw and h13az). Decided from the points alone, as the rule above; the three
        // then stay at the scenario's values, and a prior from other data (options.priors) may pull them.
        const bool spanned = contexts >= 2 && longest >= options.decodeContextRatio * shortest;
        if (contexts < 2) {
            params[5].free = false;
            params[6].free = false;
            unidentified[5] = unidentified[6] = true;
            r.notes.push_back("ITL slopes against the batch at fewer than two contexts: the KV-read bandwidth efficiency and the "
                              "per-sequence cost are not fitted (kept at the scenario's values)");
        } else if (!spanned) {
            // eta_kv stays free: with the per-sequence cost held, the slope at any one context gives it.
            params[2].free = false;
            params[6].free = false;
            unidentified[2] = unidentified[6] = true;
            r.notes.push_back("ITL slopes against the batch at contexts less than a factor of " + messageNumber(options.decodeContextRatio)
                              + " apart: MFU decode and the per-sequence cost are not fitted (kept at the scenario's values; the "
                                "KV-read bandwidth efficiency is fitted at them)");
        }
    }
    {
        // A lone sequence's KV read (eta_kv1) shows where one request decodes by itself: its ITL grows with its context
        // faster than another sequence of that context adds (docs/cost-model.md). Fitted only when the ITL points hold
        // a single request in flight (concurrency or batch 1) at two or more decode contexts (10 % apart), from the
        // points alone; otherwise kept at the scenario's value (0: no such limit).
        std::set<long long> loneContexts;
        for (const int i : itlRows) {
            const BenchmarkPoint& p = points[size_t(i)];
            if (std::llround(p.concurrency) == 1 && p.load != BenchmarkLoad::RequestRate)
                loneContexts.insert(std::llround(std::log(std::max(1.0, p.inputTokens + p.outputTokens / 2.0)) / std::log(1.1)));
        }
        if (loneContexts.size() < 2) {
            params[8].free = false;
            unidentified[8] = true;
            r.notes.push_back("ITL of a single request at fewer than two contexts: the lone-sequence KV read (eta_kv1) is not fitted "
                              "(kept at the scenario's value)");
        } else if (const double start = loneSequenceStart(scenario, points, itlRows); start > 0) {
            params[8].start = start;
        }
    }
    {
        // The attention share of the prefill FLOP grows with the prompt (P / (P + P*)), so prefill attention's MFU is told
        // from the GEMMs' only by TTFT at two or more prompt lengths (10 % apart), decided from the points alone;
        // otherwise it stays at the scenario's value (0: the same as MFU prefill, docs/cost-model.md).
        std::set<long long> promptLengths;
        for (const int i : ttftRows)
            promptLengths.insert(std::llround(std::log(std::max(1.0, points[size_t(i)].inputTokens)) / std::log(1.1)));
        if (options.prefillAttentionMfu > 0) {
            // Held at a given value (a kernel benchmark's, BenchmarkFitOptions::prefillAttentionMfu; docs/cost-model.md, h13bb).
            params[9].free = false;
            r.notes.push_back("the prefill attention MFU is held at " + messageNumber(options.prefillAttentionMfu)
                              + " (given), not fitted");
        } else if (promptLengths.size() < 2) {
            params[9].free = false;
            unidentified[9] = true;
            r.notes.push_back("TTFT at fewer than two prompt lengths: the prefill attention MFU is not fitted (kept at the scenario's "
                              "value; 0 means the same as MFU prefill)");
        } else if (singleTtftOnly && promptLengths.size() < 3) {
            // Single requests alone: TTFT(P) = t_req + t_oh + GEMMs (linear in P) + attention (P^2), an intercept, a slope
            // and a curvature; t_oh comes from the ITL, so with t_req free the curvature needs a third length.
            params[9].free = false;
            unidentified[9] = true;
            r.notes.push_back("single-request TTFT at two prompt lengths: t_req and MFU prefill take them; the prefill attention MFU "
                              "is not fitted (kept at the scenario's value; 0 means the same as MFU prefill)");
        }
    }
    std::set<long long> loadedLengths; // prompt lengths (10 % apart) of the in-flight (not static) TTFT points
    for (const int i : ttftRows)
        if (points[size_t(i)].load != BenchmarkLoad::StaticBatch)
            loadedLengths.insert(std::llround(std::log(std::max(1.0, points[size_t(i)].inputTokens)) / std::log(1.1)));
    if (!options.fitFrontend) {
        params[10].free = false;
    } else if (!loadedPrefills(points, ttftRows, options.fitFrontendOnBursts || options.fitApiOutput) || loadedLengths.size() < 2) {
        // The serial front end spreads requests sent together c apart, so the engine takes them in several steps: only
        // TTFT under in-flight load shows it (a single request pays it once, like the per-request overhead; a static batch
        // passes no front end, predictBenchmark()). And only against prefills of two or more lengths: at one length, N
        // prompts arriving c apart and taken a few per step cannot be told from a token budget of that many prompts (the
        // budget's search), since c and the prefill time scale together only across lengths. Decided from the points alone.
        params[10].free = false;
        // The points cannot identify it here, so a prior from other data (options.priors) may pull it: with one loaded
        // prompt length and the front end held at 0, the NIM 8B fp16 set's half of ISL 2,000 sent every client's
        // 200-token prompt into one context step when predicting ISL 200 (docs/cost-model.md, h13ax and h13bc).
        unidentified[10] = true;
        r.notes.push_back("no in-flight TTFT under load at two or more prompt lengths: the serial front end is not fitted (kept at "
                          "the scenario's value)");
    }
    // The admission gate on the delivered token rate (efficiency.tokenGateSeconds): only with fitTokenGate, and only where
    // TTFT is measured under in-flight load (a ceiling on delivered tokens delays first tokens only when requests queue
    // for it; a static batch passes no front end). Its start comes from a search over candidates below (at 0 no point
    // moves with it, so a derivative there says nothing).
    const bool searchTokenGate = options.fitTokenGate && loadedPrefills(points, ttftRows);
    params[11].free = false;
    if (options.fitTokenGate && !searchTokenGate)
        r.notes.push_back("no in-flight TTFT under load: the admission gate on the delivered token rate is not fitted (kept at the "
                          "scenario's value)");
    // The API server's output path (serving.api_output_us_per_token): only with fitApiOutput, and only under in-flight
    // load at two or more loads (its FIFO delays tokens only when many requests stream at once). Its start comes from a
    // search over candidates, as the gate's (at 0 no point moves with it).
    const bool searchApiOutput = options.fitApiOutput && (loadedPrefills(points, ttftRows, true) || loadedPrefills(points, itlRows, true));
    params[12].free = false;
    if (options.fitApiOutput && !searchApiOutput)
        r.notes.push_back("no latency under in-flight load at two or more loads: the API server's output path is not fitted (kept "
                          "at the scenario's value)");
    // The first token's return path (efficiency.first_token_return_ms, h13aq): only with fitFirstTokenReturn, and only where
    // TTFT is measured under in-flight load (loadedPrefills()). A single request or a static batch pays it once, exactly as
    // the per-request overhead t_req, so there the two cannot be told apart; under load it moves every first token by
    // itself while the engine's step grid absorbs most of t_req (a request that reaches a busy engine a little later waits
    // less for the running step to end), which tells them apart (docs/cost-model.md, h13ao and h13aq). Decided from the
    // points alone; otherwise kept at the scenario's value (0: none).
    // And only where the TTFT under load (more than one request in flight) holds two or more prompt lengths (10 % apart,
    // h13av): at one length the return path, the per-request overhead and the prefill's MFU all add a fixed time to that
    // length's first tokens, so the points barely tell it apart (the NIM 8B fp16 set's half of ISL 2,000 alone fitted
    // 17.4 +- 330 ms and moved the other lengths' lone requests by +88 to +108 %, docs/cost-model.md, h13at); across
    // lengths the prefill scales with the prompt and the return path does not.
    std::set<long long> underLoadLengths;
    for (const int i : ttftRows) {
        const BenchmarkPoint& p = points[size_t(i)];
        if (p.load == BenchmarkLoad::RequestRate || (p.load != BenchmarkLoad::StaticBatch && p.concurrency > 1))
            underLoadLengths.insert(std::llround(std::log(std::max(1.0, p.inputTokens)) / std::log(1.1)));
    }
    const bool returnPathLoaded = loadedPrefills(points, ttftRows);
    params[13].free = options.fitFirstTokenReturn && returnPathLoaded && underLoadLengths.size() >= 2;
    if (options.fitFirstTokenReturn && !returnPathLoaded)
        r.notes.push_back("no in-flight TTFT under load: the first token's return path cannot be told from the per-request TTFT "
                          "overhead; not fitted (kept at the scenario's value)");
    else if (options.fitFirstTokenReturn && !params[13].free) {
        r.notes.push_back("TTFT under load at one prompt length: the first token's return path cannot be told from the per-request "
                          "TTFT overhead and the prefill's MFU; not fitted (kept at the scenario's value)");
        // The points cannot identify it here, so a prior from other data (options.priors) may pull it, as the serial front
        // end's (h13bc): the NIM 8B fp16 set's half of ISL 2,000 held it at 0 and priced ISL 200's lone requests 16-24 % low
        // for want of a fixed time per request (docs/cost-model.md, h13be).
        unidentified[13] = true;
    }
    if (ttftRows.empty()) {
        params[1].free = false;
        params[4].free = false;
        params[7].free = false;
        r.notes.push_back("no TTFT points: prefill MFU and the per-chunk cost are not fitted (kept at the scenario's values)");
    }
    if (params[4].free) {
        // With one prompt length, each in one chunk, every request pays one chunk: the per-chunk cost is then a
        // per-request cost that the data cannot tell from prefill MFU (or the step overhead). Known before any
        // fit from the points alone, so it holds for held-out fits too.
        std::set<long long> lengths;
        bool chunked = false;
        for (const int i : ttftRows) {
            lengths.insert(std::llround(points[size_t(i)].inputTokens));
            chunked = chunked || points[size_t(i)].inputTokens > options.engine.tokenBudget;
        }
        if (lengths.size() < 2 && !chunked) {
            params[4].free = false;
            // One prompt length: a per-request time (t_req, or a chunk every request pays once) and the prefill's MFU
            // trade against each other; under load the points separate t_req from the prefill only weakly (the NIM set's
            // half of ISL 2,000 puts t_req at 0 and MFU prefill at 0.66, docs/cost-model.md). All four may take a prior.
            unidentified[1] = unidentified[4] = unidentified[7] = unidentified[9] = true;
            // The per-request TTFT overhead is a fixed time per request too, but it delays only the request's own first
            // token, while the prefill time also delays every other request's tokens and first token: under in-flight
            // load (closed or open loop, TTFT at two or more concurrencies, one above 1; loadedPrefills()) the points
            // price the prefill apart from it, so one prompt length is then enough. Single requests alone give TTFT =
            // overhead + prefill, and static batches overhead + step overhead + prefill: neither can be split.
            if (!loadedPrefills(points, ttftRows)) {
                params[7].free = false;
                r.notes.push_back("one prompt length, never chunked, no point under load: the per-chunk cost and the per-request "
                                  "TTFT overhead cannot be told from prefill MFU; kept at the scenario's values");
            } else {
                r.notes.push_back("one prompt length, never chunked: the per-chunk cost cannot be told from prefill MFU; kept at the "
                                  "scenario's value (the per-request TTFT overhead is fitted: points under load price the prefill "
                                  "apart from it)");
            }
        }
    }
    // Priors from other data: only on parameters the points cannot identify (above); each frees its parameter and adds
    // the row (p - mu) / sigma to the residuals, so the objective gains ((p - mu) / sigma)^2.
    std::vector<std::pair<int, ParameterPrior>> priors; // (parameter index, prior)
    for (const ParameterPrior& prior : options.priors) {
        int j = 0;
        while (j < kParameters && prior.key != params[size_t(j)].key)
            ++j;
        if (j == kParameters)
            return "a prior on \"" + prior.key + "\": not a parameter of the benchmark calibration";
        if (!(prior.sigma > 0) || !std::isfinite(prior.mean))
            return "a prior on " + prior.key + ": sigma must be above 0 and mu finite";
        const std::string text = prior.key + " " + messageNumber(prior.mean) + " +- " + messageNumber(prior.sigma) + " (prior from "
                                 + prior.source + ")";
        if (j == 9 && options.prefillAttentionMfu > 0) {
            r.notes.push_back("prior not applied: " + text + "; the prefill attention MFU is held at a given value");
            continue;
        }
        if (!unidentified[size_t(j)]) {
            r.notes.push_back("prior not applied: " + text + "; the points identify it");
            continue;
        }
        // A parameter the fit frees anyway keeps its usual start, so that the fit takes the same path as without the prior
        // but for the prior's pull (started at mu, the NIM set's half of ISL 2,000 settled in a worse minimum of its data:
        // training cost 1.50 against 1.22, docs/cost-model.md); one freed by the prior starts at mu.
        if (!params[size_t(j)].free)
            params[size_t(j)].start = std::clamp(prior.mean, params[size_t(j)].lower, params[size_t(j)].upper);
        params[size_t(j)].free = true;
        priors.emplace_back(j, prior);
        r.priorsApplied.push_back(prior);
        r.notes.push_back("prior applied: " + text + "; the points cannot identify it");
    }
    const Eigen::Index priorRows = Eigen::Index(priors.size());
    const Eigen::Index totalRows = rows + priorRows;
    // The fit's residuals at parameters xv on scenario at: the points' relative residuals, then one row per prior.
    auto evaluate = [&](const Scenario& at, const Eigen::VectorXd& xv) {
        Residuals res = score(withParameters(at, xv), fitEngine);
        res.r.conservativeResize(totalRows);
        for (Eigen::Index k = 0; k < priorRows; ++k) {
            const auto& [j, prior] = priors[size_t(k)];
            res.r(rows + k) = (xv(j) - prior.mean) / prior.sigma;
        }
        return res;
    };

    Eigen::VectorXd x(kParameters);
    for (int j = 0; j < kParameters; ++j)
        x(j) = params[size_t(j)].start;
    if (!params[2].free)
        x(2) = scenario.efficiency.mfuDecode;
    if (!params[5].free)
        x(5) = scenario.efficiency.kvBandwidth;
    if (!params[6].free)
        x(6) = scenario.efficiency.perSequenceOverheadSeconds * 1e6;
    if (!params[1].free)
        x(1) = scenario.efficiency.mfuPrefill;
    if (!params[4].free)
        x(4) = scenario.efficiency.chunkOverheadSeconds * 1e3;
    if (!params[7].free)
        x(7) = scenario.efficiency.ttftOverheadSeconds * 1e3;
    if (!params[8].free)
        x(8) = scenario.efficiency.kvBandwidthOneSequence;
    if (!params[9].free)
        x(9) = options.prefillAttentionMfu > 0 ? std::min(1.0, options.prefillAttentionMfu) : scenario.efficiency.mfuPrefillAttention;
    if (!params[10].free)
        x(10) = scenario.efficiency.frontendSerialSeconds * 1e3;
    x(11) = scenario.efficiency.tokenGateSeconds * 1e6;
    x(12) = scenario.serving.apiOutputSeconds * 1e6;
    if (!params[13].free)
        x(13) = scenario.efficiency.firstTokenReturnSeconds * 1e3;
    auto clampTo = [&](Eigen::VectorXd& v) {
        for (int j = 0; j < kParameters; ++j)
            if (params[size_t(j)].free)
                v(j) = std::clamp(v(j), params[size_t(j)].lower, params[size_t(j)].upper);
    };

    // The token budget the fit predicts with: the scenario's, else the engine's; searched with fitTokenBudget.
    Scenario base = scenario;
    Eigen::MatrixXd J(totalRows, kParameters);
    std::array<bool, kParameters> determined{};
    Residuals current;
    double cost = 0;
    // Bounded Levenberg-Marquardt from x at the budget in base; leaves x, current, cost, J and determined at its end.
    auto levenbergMarquardt = [&]() {
        current = evaluate(base, x);
        ++r.evaluations;
        cost = current.r.squaredNorm();
        double lambda = 1e-2;
        for (int iteration = 0; iteration < options.maxIterations; ++iteration) {
            ++r.iterations;
            // Forward differences, stepping inward from an upper bound.
            J.setZero();
            for (int j = 0; j < kParameters; ++j) {
                if (!params[size_t(j)].free)
                    continue;
                Eigen::VectorXd xh = x;
                double h = std::max(params[size_t(j)].step, 0.02 * std::abs(x(j)));
                if (xh(j) + h > params[size_t(j)].upper)
                    h = -h;
                xh(j) += h;
                const Residuals rh = evaluate(base, xh);
                ++r.evaluations;
                if (rh.ok)
                    J.col(j) = (rh.r - current.r) / h;
            }
            const Eigen::MatrixXd A = J.transpose() * J;
            const Eigen::VectorXd g = J.transpose() * current.r;
            for (int j = 0; j < kParameters; ++j)
                determined[size_t(j)] = params[size_t(j)].free && A(j, j) > 1e-12 * std::max(1.0, A.diagonal().maxCoeff());
            bool improved = false;
            // The simulated latencies are piecewise smooth (a roofline's max(compute, memory), whole steps): a
            // forward difference at a kink can point the wrong way for one parameter, and a parameter the points
            // hardly move takes a huge step. So each failed attempt holds, for this iteration, the parameter that
            // moved furthest for its scale (a fraction for efficiencies, its value or its step x 10 for overheads)
            // besides raising the damping, and no step moves an efficiency by more than 0.25.
            std::array<bool, kParameters> heldNow{};
            for (int attempt = 0; attempt < 8 && !improved; ++attempt) {
                Eigen::MatrixXd M = A;
                for (int j = 0; j < kParameters; ++j) {
                    M(j, j) += lambda * std::max(A(j, j), 1e-9);
                    if (!determined[size_t(j)] || heldNow[size_t(j)]) { // held: a zero row and column with a one on the diagonal
                        M.row(j).setZero();
                        M.col(j).setZero();
                        M(j, j) = 1;
                    }
                }
                Eigen::VectorXd rhs = -g;
                for (int j = 0; j < kParameters; ++j)
                    if (!determined[size_t(j)] || heldNow[size_t(j)])
                        rhs(j) = 0;
                Eigen::VectorXd delta = M.ldlt().solve(rhs);
                int furthest = -1;
                double furthestMove = 0;
                for (int j = 0; j < kParameters; ++j) {
                    const bool efficiency = params[size_t(j)].upper <= 1.0;
                    const double scale = efficiency ? 0.25 : std::max(10 * params[size_t(j)].step, std::abs(x(j)));
                    if (efficiency)
                        delta(j) = std::clamp(delta(j), -0.25, 0.25);
                    const double move = std::abs(delta(j)) / scale;
                    if (move > furthestMove) {
                        furthestMove = move;
                        furthest = j;
                    }
                }
                Eigen::VectorXd xn = x + delta;
                clampTo(xn);
                const Residuals trial = evaluate(base, xn);
                ++r.evaluations;
                const double trialCost = trial.r.squaredNorm();
                if (trial.ok && trialCost < cost) {
                    const double gain = (cost - trialCost) / std::max(cost, 1e-300);
                    x = xn;
                    current = trial;
                    cost = trialCost;
                    lambda = std::max(lambda / 3, 1e-7);
                    improved = true;
                    if (gain < 1e-5)
                        iteration = options.maxIterations; // converged
                } else {
                    lambda *= 4;
                    if (furthest >= 0 && attempt % 2 == 1) // every other failure: hold the furthest mover, try the rest
                        heldNow[size_t(furthest)] = true;
                }
            }
            if (!improved)
                break;
        }
    };
    levenbergMarquardt();
    bool inFlight = false; // a static batch holds every prompt in one step whatever the budget: nothing to search then
    for (const BenchmarkPoint& p : points)
        inFlight = inFlight || p.load != BenchmarkLoad::StaticBatch;
    if (options.fitTokenBudget && !inFlight)
        r.notes.push_back("static batches only: the token budget plays no part; not fitted");
    // The prompt limit per step (serving.max_prefills_per_step): at one prompt length it and the token budget are the
    // same thing (K prompts of P tokens = K x P tokens), so it is searched only when the TTFT points under in-flight load
    // hold two or more prompt lengths (10 % apart), decided from the points alone (held-out fits decide on their own).
    bool searchPrefillLimit = false;
    if (options.fitPrefillLimit) {
        std::set<long long> lengths;
        for (const int i : ttftRows)
            if (points[size_t(i)].load != BenchmarkLoad::StaticBatch)
                lengths.insert(std::llround(std::log(std::max(1.0, points[size_t(i)].inputTokens)) / std::log(1.1)));
        searchPrefillLimit = inFlight && lengths.size() >= 2;
        if (!searchPrefillLimit)
            r.notes.push_back("in-flight TTFT at fewer than two prompt lengths: the prompt limit per step cannot be told from the "
                              "token budget; not fitted (kept at the scenario's value, 0: no limit)");
    }
    const bool searchKvReserve = options.fitKvReserve && inFlight && options.kvReserveStepGb > 0 && options.maxKvReserveGb >= 0;
    if (options.fitKvReserve && !inFlight)
        r.notes.push_back("static batches only: no request queues for KV; the runtime reserve is not fitted");
    // The engine's cap on running sequences (BenchmarkOptions::maxSequences, vLLM max_num_seqs; h13an): only with
    // fitMaxSequences and only where the points reach the cap under in-flight load at two or more loads (bursts of
    // different sizes counting as different loads); a profile over the candidates on the fitted points only.
    bool reachesCap = false;
    for (const int i : itlRows)
        reachesCap = reachesCap
                     || (points[size_t(i)].load != BenchmarkLoad::StaticBatch
                         && std::max<double>(points[size_t(i)].concurrency, double(points[size_t(i)].requests)) > options.engine.maxSequences);
    const bool searchMaxSequences = options.fitMaxSequences && reachesCap
                                    && (loadedPrefills(points, ttftRows, true) || loadedPrefills(points, itlRows, true));
    if (options.fitMaxSequences && !searchMaxSequences)
        r.notes.push_back("no in-flight point holds more requests than the engine's sequence cap at two or more loads: the cap "
                          "(max_num_seqs) is not fitted (kept at the engine options' value)");
    if ((options.fitTokenBudget && inFlight) || searchPrefillLimit || searchKvReserve || searchTokenGate || searchApiOutput
        || searchMaxSequences) {
        // The budget and the prompt limit are discrete engine settings (powers of two, as engines are built with): at the
        // parameters fitted so far, score every candidate on the fitted points (never on any other), keep the best (the
        // budget first, then the limit at that budget), refit the continuous parameters there; until both stay (at most
        // three rounds).
        std::vector<int> candidates;
        for (long long b = 1; b <= std::max(1, options.maxTokenBudget); b *= 2)
            if (b >= options.minTokenBudget)
                candidates.push_back(int(b));
        const std::vector<int> limits = prefillLimitCandidates(options.maxPrefillLimit);
        int budget = 0;
        int limit = base.serving.maxPrefillsPerStep;
        auto search = [&](const std::vector<int>& values, int Serving::*field, std::vector<std::pair<int, double>>& costs) {
            costs.clear();
            int best = -1;
            double bestCost = 0;
            for (const int v : values) {
                Scenario at = base;
                at.serving.*field = v;
                const Residuals res = evaluate(at, x);
                ++r.evaluations;
                double c = res.ok ? res.r.squaredNorm() : std::numeric_limits<double>::infinity();
                if (singleTtftOnly && res.ok) {
                    // The single requests alone price the prefill; the engine settings (budget, prompt limit) are what
                    // the loaded TTFT measures, so their candidates are scored on every fitted point's TTFT too, at the
                    // continuous values priced without it (docs/cost-model.md, h13ah and h13aj).
                    const std::vector<PointPrediction> all = predictBenchmarks(withParameters(at, x), points, fitEngine);
                    for (size_t i = 0; i < points.size(); ++i) {
                        if (singleRequest(points[i]) || !hasTtft(points[i]))
                            continue;
                        const auto t = all[i].error.empty() ? compareTtft(points[i], all[i].prediction) : std::nullopt;
                        c += t && t->predictedMs > 0 ? std::pow(t->predictedMs / t->measuredMs - 1.0, 2)
                                                     : std::numeric_limits<double>::infinity();
                    }
                }
                costs.emplace_back(v, c);
                if (best < 0 || c < bestCost) {
                    best = v;
                    bestCost = c;
                }
            }
            return best;
        };
        // The budget's tie rule (h13ak): of the candidates that score the same as the best within the tolerance, the one
        // nearest the engine's documented default (TensorRT-LLM max_num_tokens 8,192), not the first (the smallest).
        auto nearestTied = [&](const std::vector<std::pair<int, double>>& costs, int best) {
            if (options.tokenBudgetTiePreferred <= 0 || costs.empty())
                return best;
            double lowest = std::numeric_limits<double>::infinity();
            for (const auto& [v, c] : costs)
                lowest = std::min(lowest, c);
            if (!std::isfinite(lowest))
                return best;
            const double within = lowest + std::max(0.0, options.tokenBudgetTieTolerance) * lowest;
            const long long preferred = options.tokenBudgetTiePreferred;
            int chosen = best;
            for (const auto& [v, c] : costs) {
                if (!(c <= within))
                    continue;
                const long long d = std::llabs(v - preferred), dChosen = std::llabs(chosen - preferred);
                if (d < dChosen || (d == dChosen && v < chosen))
                    chosen = v;
            }
            return chosen;
        };
        for (int round = 0; round < 3; ++round) {
            bool changed = false;
            if (options.fitTokenBudget && inFlight && !candidates.empty()) {
                const int best = nearestTied(r.tokenBudgetCosts, search(candidates, &Serving::maxNumTokens, r.tokenBudgetCosts));
                changed = changed || best != budget;
                budget = best;
                base.serving.maxNumTokens = budget;
            }
            if (searchPrefillLimit) {
                const int best = search(limits, &Serving::maxPrefillsPerStep, r.prefillLimitCosts);
                changed = changed || best != limit; // the scenario's limit kept: nothing to refit (as without the search)
                limit = best;
                base.serving.maxPrefillsPerStep = limit;
            }
            if (searchKvReserve) {
                // The runtime reserve per GPU: where the KV capacity ends (and requests start to queue) at these parameters.
                r.kvReserveCosts.clear();
                const double before = base.serving.activationReserveBytes;
                double best = before, bestCost = std::numeric_limits<double>::infinity();
                const int steps = int(std::floor(options.maxKvReserveGb / options.kvReserveStepGb + 1e-9));
                for (int k = 0; k <= steps; ++k) {
                    const double gb = k * options.kvReserveStepGb;
                    Scenario at = base;
                    at.serving.activationReserveBytes = gb * 1e9;
                    const Residuals res = evaluate(at, x);
                    ++r.evaluations;
                    const double c = res.ok ? res.r.squaredNorm() : std::numeric_limits<double>::infinity();
                    r.kvReserveCosts.emplace_back(gb, c);
                    if (c < bestCost) { // ties keep the smaller reserve
                        best = gb * 1e9;
                        bestCost = c;
                    }
                }
                changed = changed || best != before;
                base.serving.activationReserveBytes = best;
            }
            if (searchTokenGate) {
                // The gate's time per delivered token: candidates over 0 to maxTokenGateUs at these parameters, on the
                // fitted points only; the best one starts (or restarts) the continuous fit, which then refines it with
                // the others (free from here on when above 0: its standard error comes from the Jacobian like theirs).
                r.tokenGateCosts.clear();
                const double before = x(11);
                double best = 0, bestCost = std::numeric_limits<double>::infinity();
                const int steps = int(std::floor(options.maxTokenGateUs / options.tokenGateStepUs + 1e-9));
                for (int k = 0; k <= steps; ++k) {
                    const double us = k * options.tokenGateStepUs;
                    Eigen::VectorXd xg = x;
                    xg(11) = us;
                    const Residuals res = evaluate(base, xg);
                    ++r.evaluations;
                    const double c = res.ok ? res.r.squaredNorm() : std::numeric_limits<double>::infinity();
                    r.tokenGateCosts.emplace_back(us, c);
                    if (c < bestCost) { // ties keep the smaller time: 0 when no point reaches a ceiling
                        best = us;
                        bestCost = c;
                    }
                }
                // A continuous value the last refit moved off the grid is kept unless a candidate is better.
                const double atBefore = evaluate(base, x).r.squaredNorm();
                ++r.evaluations;
                if (!(bestCost < atBefore))
                    best = before;
                changed = changed || std::abs(best - before) > 1e-9;
                x(11) = best;
                params[11].free = best > 0;
            }
            if (searchApiOutput) {
                // The API server's time per streamed token, searched as the gate's: candidates on the fitted points
                // only, the best one starting the continuous fit, which refines it (free from here on when above 0).
                // Tokens wait for the acceptance of the requests sent before them, so the serial front end fitted without
                // the output path (an engine-arrival spread alone) is no start for it: where the front end is fitted too,
                // each candidate is scored with the front end at 0 to 3 ms in 0.5 ms steps as well (the best pair kept).
                r.apiOutputCosts.clear();
                const double before = x(12), frontendBefore = x(10);
                double best = 0, bestFrontend = frontendBefore, bestCost = std::numeric_limits<double>::infinity();
                std::vector<double> frontends{frontendBefore};
                if (params[10].free)
                    for (int f = 0; f <= 6; ++f)
                        frontends.push_back(0.5 * f);
                const int steps = int(std::floor(options.maxApiOutputUs / options.apiOutputStepUs + 1e-9));
                for (int k = 0; k <= steps; ++k) {
                    const double us = k * options.apiOutputStepUs;
                    double cost = std::numeric_limits<double>::infinity();
                    for (const double fe : frontends) {
                        Eigen::VectorXd xg = x;
                        xg(12) = us;
                        xg(10) = fe;
                        const Residuals res = evaluate(base, xg);
                        ++r.evaluations;
                        const double c = res.ok ? res.r.squaredNorm() : std::numeric_limits<double>::infinity();
                        cost = std::min(cost, c);
                        if (c < bestCost) { // ties keep the smaller time
                            best = us;
                            bestFrontend = fe;
                            bestCost = c;
                        }
                    }
                    r.apiOutputCosts.emplace_back(us, cost);
                }
                const double atBefore = evaluate(base, x).r.squaredNorm();
                ++r.evaluations;
                if (!(bestCost < atBefore)) {
                    best = before;
                    bestFrontend = frontendBefore;
                }
                changed = changed || std::abs(best - before) > 1e-9 || std::abs(bestFrontend - frontendBefore) > 1e-9;
                x(12) = best;
                x(10) = bestFrontend;
                params[12].free = best > 0;
            }
            if (searchMaxSequences) {
                // A profile: each candidate cap with the continuous parameters refitted at it (the cap moves TPOT and TTFT
                // at the loads above it the opposite ways, so a cost at fixed parameters would mislead); the best kept,
                // ties keeping the engine options' value, then the smaller cap.
                r.maxSequencesCosts.clear();
                const int before = fitEngine.maxSequences;
                const Eigen::VectorXd x0 = x;
                Eigen::VectorXd bestX = x;
                int best = before;
                double bestCost = std::numeric_limits<double>::infinity();
                for (const int cap : options.maxSequencesCandidates) {
                    if (cap < 1)
                        continue;
                    fitEngine.maxSequences = cap;
                    x = x0;
                    levenbergMarquardt();
                    const double c = current.ok ? cost : std::numeric_limits<double>::infinity();
                    r.maxSequencesCosts.emplace_back(cap, c);
                    if (c < bestCost || (c == bestCost && cap == options.engine.maxSequences)) {
                        best = cap;
                        bestCost = c;
                        bestX = x;
                    }
                }
                fitEngine.maxSequences = best;
                x = bestX;
                levenbergMarquardt(); // the Jacobian, cost and standard errors at the kept cap
                changed = changed || best != before;
            }
            if (!changed)
                break;
            levenbergMarquardt();
        }
        r.tokenBudget = budget;
        if (searchPrefillLimit)
            r.prefillLimit = limit;
    }

    // Standard errors from the Jacobian at the solution, over the determined parameters not at a bound.
    std::vector<int> freeAt;
    for (int j = 0; j < kParameters; ++j) {
        const bool atBound = x(j) <= params[size_t(j)].lower + 1e-12 || x(j) >= params[size_t(j)].upper - 1e-12;
        if (determined[size_t(j)] && !atBound)
            freeAt.push_back(j);
    }
    std::array<std::optional<double>, kParameters> se{};
    const Eigen::Index dof = totalRows - Eigen::Index(freeAt.size());
    if (!freeAt.empty() && dof > 0) {
        Eigen::MatrixXd Jf(totalRows, Eigen::Index(freeAt.size()));
        for (size_t k = 0; k < freeAt.size(); ++k)
            Jf.col(Eigen::Index(k)) = J.col(freeAt[k]);
        const Eigen::MatrixXd JtJ = Jf.transpose() * Jf;
        Eigen::FullPivLU<Eigen::MatrixXd> lu(JtJ);
        // Copies of one measurement give no scatter to estimate the error from (it would read 0): none given.
        if (lu.isInvertible() && distinctRows(Jf) > Eigen::Index(freeAt.size())) {
            const Eigen::MatrixXd cov = (cost / double(dof)) * lu.inverse();
            for (size_t k = 0; k < freeAt.size(); ++k)
                if (cov(Eigen::Index(k), Eigen::Index(k)) >= 0)
                    se[size_t(freeAt[k])] = std::sqrt(cov(Eigen::Index(k), Eigen::Index(k)));
        }
    }
    if (searchKvReserve && !r.kvReserveCosts.empty()) {
        // The reserve's standard error from the profile of the training cost S around the best candidate: near a minimum
        // S ~ S_min + (S'' / 2) (g - g0)^2 and S'' = 2 / var x s^2, so SE = sqrt(2 s^2 / S''), s^2 = S_min / (n - p).
        const auto& c = r.kvReserveCosts;
        // Flat: every candidate the simulator can run (a reserve that leaves no room for one request cannot) scores the same.
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        size_t at = 0;
        for (size_t k = 0; k < c.size(); ++k) {
            if (std::isfinite(c[k].second)) {
                lo = std::min(lo, c[k].second);
                hi = std::max(hi, c[k].second);
            }
            if (c[k].first * 1e9 == base.serving.activationReserveBytes)
                at = k;
        }
        Coefficient g{base.serving.activationReserveBytes / 1e9, std::nullopt, hi > lo};
        const Eigen::Index dofReserve = totalRows - Eigen::Index(freeAt.size()) - 1;
        if (g.fitted && at > 0 && at + 1 < c.size() && dofReserve > 0 && std::isfinite(c[at - 1].second) && std::isfinite(c[at + 1].second)) {
            const double h = options.kvReserveStepGb;
            const double curvature = (c[at - 1].second - 2 * c[at].second + c[at + 1].second) / (h * h);
            const double s2 = c[at].second / double(dofReserve);
            if (curvature > 0)
                g.standardError = std::sqrt(2 * s2 / curvature);
        }
        if (!g.fitted)
            r.notes.push_back("serving.activation_reserve_bytes: every candidate scores the same (no fitted point reaches the KV "
                              "capacity); kept at " + messageNumber(g.value) + " GB per GPU");
        else if (!g.standardError)
            r.notes.push_back("serving.activation_reserve_bytes = " + messageNumber(g.value) + " GB per GPU: at the end of its range "
                              "(0 to " + messageNumber(options.maxKvReserveGb) + " GB) or the cost is flat there; no standard error");
        r.kvReserveGb = g;
    }
    Coefficient* outs[kParameters] = {&r.bandwidthEfficiency, &r.mfuPrefill, &r.mfuDecode, &r.stepOverheadMs, &r.chunkOverheadMs,
                                      &r.kvBandwidthEfficiency, &r.perSequenceOverheadUs, &r.ttftOverheadMs,
                                      &r.kvOneSequenceBandwidthEfficiency, &r.mfuPrefillAttention, &r.frontendSerialMs,
                                      &r.tokenGateUs, &r.apiOutputUs, &r.firstTokenReturnMs};
    for (int j = 0; j < kParameters; ++j) {
        *outs[j] = Coefficient{x(j), se[size_t(j)], determined[size_t(j)]};
        if (!params[size_t(j)].free)
            continue;
        if (!determined[size_t(j)])
            r.notes.push_back(std::string(params[size_t(j)].key) + ": no residual depends on it here; kept at " + messageNumber(x(j)));
        else if (x(j) <= params[size_t(j)].lower + 1e-12 || x(j) >= params[size_t(j)].upper - 1e-12)
            r.notes.push_back(std::string(params[size_t(j)].key) + " = " + messageNumber(x(j)) + ": at its bound ("
                              + messageNumber(params[size_t(j)].lower) + " to " + messageNumber(params[size_t(j)].upper)
                              + "); no standard error");
    }
    r.calibrated = withParameters(base, x);
    r.calibratedEngine = options.engine;
    r.calibratedEngine.maxSequences = fitEngine.maxSequences;
    if (searchMaxSequences)
        r.maxSequences = fitEngine.maxSequences;
    const Residuals after = score(r.calibrated, r.calibratedEngine);
    r.itlPoints = after.itlPoints;
    r.ttftPoints = after.ttftPoints;
    r.itlMapeAfter = after.itlMape;
    r.ttftMapeAfter = after.ttftMape;
    if (const std::vector<ScenarioError> problems = validate(r.calibrated); !problems.empty())
        return "the fit gives a scenario Ridgeline refuses (" + problems.front().message + ")";
    out = std::move(r);
    return {};
}

std::string priorsFromFit(const BenchmarkFitResult& fit, const std::vector<std::string>& keys, const std::string& source,
                          double sigmaScale, std::vector<ParameterPrior>& out)
{
    const std::pair<const char*, const Coefficient*> known[] = {
        {"efficiency.bandwidth", &fit.bandwidthEfficiency},
        {"efficiency.mfu_prefill", &fit.mfuPrefill},
        {"efficiency.mfu_decode", &fit.mfuDecode},
        {"efficiency.step_overhead_ms", &fit.stepOverheadMs},
        {"efficiency.chunk_overhead_ms", &fit.chunkOverheadMs},
        {"efficiency.kv_bandwidth", &fit.kvBandwidthEfficiency},
        {"efficiency.per_sequence_overhead_us", &fit.perSequenceOverheadUs},
        {"efficiency.ttft_overhead_ms", &fit.ttftOverheadMs},
        {"efficiency.kv_bandwidth_one_sequence", &fit.kvOneSequenceBandwidthEfficiency},
        {"efficiency.mfu_prefill_attention", &fit.mfuPrefillAttention},
        {"efficiency.frontend_serial_ms", &fit.frontendSerialMs},
        {"efficiency.token_gate_us", &fit.tokenGateUs},
        {"serving.api_output_us_per_token", &fit.apiOutputUs},
        {"efficiency.first_token_return_ms", &fit.firstTokenReturnMs}};
    if (!(sigmaScale > 0))
        return "the prior's sigma scale must be above 0";
    std::vector<ParameterPrior> priors;
    for (const std::string& key : keys) {
        const Coefficient* c = nullptr;
        for (const auto& [name, coefficient] : known)
            if (key == name)
                c = coefficient;
        if (!c)
            return "\"" + key + "\": not a parameter of the benchmark calibration";
        if (!c->fitted || !c->standardError || !(*c->standardError > 0))
            return key + " = " + messageNumber(c->value) + " in the fit of " + source
                   + " has no standard error (not fitted, or at a bound): no prior can be taken from it";
        priors.push_back({key, c->value, *c->standardError * sigmaScale, source});
    }
    out = std::move(priors);
    return {};
}

std::string measuredSetScenarios(const QByteArray& scenarioJson, Scenario& floor, Scenario& fitStart)
{
    Scenario start = defaultScenario();
    start.efficiency = Efficiency{}; // the floor's efficiencies, then the file's own efficiency keys over them
    if (std::string e = applyJsonText(start, scenarioJson); !e.empty())
        return e;
    floor = start;
    floor.efficiency = Efficiency{};
    fitStart = start;
    return {};
}

} // namespace ridgeline::model
