// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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

/**
 * `ridgeline --simulate FILE [--format json]`: loads the simulation file (model/files/simulationfile.h), simulates
 * it, runs the sweep when sweep_max_sequences is given, and prints the aggregates to stdout as JSON
 * (@p json) or text. Returns 0; on a bad file prints one line "ridgeline: FILE: message" to stderr and
 * returns 2.
 */
int runSimulate(const QString& file, bool json);

} // namespace ridgeline::app
