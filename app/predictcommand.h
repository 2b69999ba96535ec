// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <vector>

#include <QString>

#include "model/files/benchmarkfile.h"
#include "model/analysis/benchmarkpredict.h"
#include "model/cost/scenario.h"

namespace ridgeline::app {

/**
 * `ridgeline --predict FILE [--scenario S] [--set K=V] [--format text|json|csv] [--scheduler v1|v0]
 * [--token-budget N] [--max-sequences N]`: reads a benchmark output (model/files/benchmarkfile.h), predicts every
 * point with the serving simulator (model/analysis/benchmarkpredict.h), and prints per point the measured and
 * predicted ITL and TTFT with residuals, then the MAPE of each, and the step-cost terms in use. Returns 0;
 * on a bad file prints "ridgeline: FILE: message" to stderr and returns 2. @p scenarioFile is the `--scenario` given
 * (empty: none, the defaults): when it is not the scenario file kept beside FILE (model::companionScenarioPath()), a
 * reading note says that one exists and is not used (text and json; csv prints the points only).
 */
int runPredict(const QString& file, const model::Scenario& scenario, const QString& scenarioFile, const model::BenchmarkOptions& options,
               const QString& format);

} // namespace ridgeline::app
