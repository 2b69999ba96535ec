// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <vector>

#include <QJsonObject>
#include <QString>

#include "model/files/simulationfile.h"
#include "model/sim/simulator.h"

namespace ridgeline::app {

/**
 * The aggregates of a simulation run (and the max-sequences sweep when @p sweep is not empty) as a JSON
 * object: counts, throughput (output tokens/s), goodput, preemptions, slot-time on finished sequences,
 * KV blocks (total, peak, downsampled series), latency percentiles in milliseconds, overall and per class.
 */
QJsonObject simulationJson(const model::SimulationFile& file, const model::SimulationResult& result,
                           const std::vector<model::SweepPoint>& sweep);

/** The same as aligned text for a terminal (no KV series). */
QString simulationText(const model::SimulationFile& file, const model::SimulationResult& result,
                       const std::vector<model::SweepPoint>& sweep);

/** A rate sweep's results as JSON: "rate_sweep" {attainment_target, base_rate_per_s, max_rate_per_s (null when the
 *  first rate misses), first_miss_rate_per_s (null when none missed), points [{rate_per_s, requests, attainment,
 *  goodput_requests_per_s, throughput_tokens_per_s, ttft_p50_ms, ttft_p99_ms, itl_p50_ms, itl_p99_ms,
 *  end_to_end_p99_ms, bisection}]}. */
QJsonObject rateSweepJson(const model::RateSweep& sweep, const model::RateSweepResult& result);

/** The same as aligned text: a table per rate and the line naming the highest rate holding the target. */
QString rateSweepText(const model::RateSweep& sweep, const model::RateSweepResult& result);

/**
 * CSV for --simulate --format csv: a header row, then one row per rate of the sweep (or one row for the run itself
 * without a sweep): rate_per_s,requests,attainment,goodput_requests_per_s,throughput_tokens_per_s,ttft_p50_ms,
 * ttft_p99_ms,itl_p50_ms,itl_p99_ms,end_to_end_p99_ms,bisection,meets_target.
 */
QString rateSweepCsv(const model::RateSweep& sweep, const model::RateSweepResult& result);

/** Options of --simulate besides the file: a rate sweep from the command line overrides the file's "rate_sweep". */
struct SimulateOptions {
    QString format = QStringLiteral("text");  ///< text, json or csv
    std::optional<model::RateSweep> rateSweep; ///< --rate-sweep FROM:TO:STEPS (with --attainment)
    std::optional<double> attainment;          ///< --attainment X: the target, over the file's or the option's sweep
};

/**
 * Parses --rate-sweep's "FROM:TO:STEPS" (rates in requests/s, STEPS a whole number) into @p out; "" or a message
 * naming the option and the value.
 */
QString parseRateSweepOption(const QString& text, model::RateSweep& out);

/**
 * `ridgeline --simulate FILE [--format text|json|csv] [--rate-sweep FROM:TO:STEPS] [--attainment X]`: loads the
 * simulation file (model/files/simulationfile.h), simulates it, runs the sweep when sweep_max_sequences is given,
 * and prints the aggregates to stdout, plus the open-loop arrival-rate sweep when the file's "rate_sweep" or
 * --rate-sweep asks for one (JSON: the key "rate_sweep" added; text: a table after the run's; CSV: the sweep's
 * table, or the run's one row). Returns 0; on a bad file prints one line "ridgeline: FILE: message" to stderr and
 * returns 2.
 */
int runSimulate(const QString& file, const SimulateOptions& options);

} // namespace ridgeline::app
