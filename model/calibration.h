// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <QByteArray>

#include "model/scenario.h"

namespace ridgeline::model {

/** One measured operating point. Milliseconds, tokens; unset latencies were not measured. */
struct Measurement {
    double batch = 1;            ///< sequences decoding together (batch or concurrency)
    double contextTokens = 0;    ///< tokens each sequence holds while decoding (given, or input + output / 2)
    double promptTokens = 0;     ///< prompt length for the TTFT point (0: unknown, then no TTFT fit from this row)
    std::optional<double> itlMs; ///< inter-token latency (or TPOT)
    std::optional<double> ttftMs; ///< time to first token
};

/**
 * Most measurements a calibration reads (rows of a CSV, results of a benchmark JSON). Fitting costs three
 * model evaluations per point on the UI thread (about 0.4 s of CPU per 10,000 points); more rows are refused with
 * a message naming the line, before any fit.
 */
inline constexpr int kMaxMeasurements = 10000;

/**
 * Reads measurements from CSV with a header naming each column and its unit: batch | concurrency
 * (sequences); context_tokens | input_tokens + output_tokens | prompt_tokens (tokens); itl_ms |
 * itl_s | tpot_ms | tpot_s; ttft_ms | ttft_s. "name (unit)" and "name [unit]" spellings are read as
 * name_unit. Unknown columns or units are refused, naming them. Returns "" on success.
 */
std::string parseMeasurementsCsv(const QByteArray& csv, std::vector<Measurement>& out);

/**
 * Reads the JSON result of vLLM's serving benchmark (benchmarks/benchmark_serving.py): one object
 * or a list of them (or JSON lines), each one point: batch = max_concurrency, prompt = total_input_tokens
 * / completed, output = total_output_tokens / completed, ITL = mean_tpot_ms, TTFT = median_ttft_ms.
 */
std::string parseVllmBenchmarkJson(const QByteArray& json, std::vector<Measurement>& out);

/** A fitted coefficient with its standard error (nullopt when the data cannot give one). */
struct Coefficient {
    double value = 0;
    std::optional<double> standardError;
    bool fitted = false; ///< false: kept at the scenario's value (the data cannot tell it)
};

/** Fit quality of one latency: relative errors of the model against the measurements. */
struct FitError {
    int points = 0;
    double mapeBefore = 0, mapeAfter = 0;        ///< mean absolute percentage error, fraction
    double maxErrorBefore = 0, maxErrorAfter = 0; ///< largest relative error, fraction
};

/** What calibrate() found. */
struct CalibrationResult {
    Coefficient bandwidthEfficiency;   ///< eta_bw = 1 / slope of ITL against the peak-bandwidth memory time
    Coefficient stepOverheadMs;        ///< intercept of that line
    Coefficient mfuPrefill;            ///< 1 / slope of TTFT against the peak-FLOP/s prefill time
    Coefficient prefillOverheadMs;     ///< intercept of that line
    FitError itl, ttft;
    std::vector<std::string> notes;    ///< what could not be fitted, and why; points left out
    Scenario calibrated;               ///< the scenario with the fitted efficiencies and overheads applied
};

/**
 * Fits the few interpretable coefficients by weighted linear least squares (Eigen, weights 1/t so
 * that relative errors count): ITL = overhead + (1/eta_bw) * R(B, S) / BW over the points the
 * floor marks memory-bound, and TTFT = overhead + (1/MFU) * F_pre(P) / F_peak. Standard errors
 * from the residual variance and (X^T W^2 X)^-1; eta = 1/slope by the delta method. Degenerate
 * data (one point, or every point at the same (B, S)) fits only the efficiency with the overhead
 * at 0, and says so; a per-layer overhead needs models of different depth and is folded into the
 * fixed overhead (said in a note). Efficiencies above 1 (faster than the floor) are capped at 1 in
 * the calibrated scenario, with a note. Returns "" on success, else why nothing could be fitted.
 */
std::string calibrate(const Scenario& scenario, const std::vector<Measurement>& data, CalibrationResult& out);

} // namespace ridgeline::model
