// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <utility>
#include <vector>

#include <QJsonObject>
#include <QString>

#include "model/analysis/planfile.h"

namespace ridgeline::app {

/** Most plans the text form lists (JSON and CSV list every plan). */
inline constexpr int kPlanTextRows = 25;

/** The ranked plans as text: inputs, takeaway, the top kPlanTextRows plans, each device's verdict, notes. */
QString planText(const model::PlanFile& file, const model::PlanResult& result);

/** The simulator checks of the best file.simulateTop plans: (rank - 1, check) pairs, ranked order. */
std::vector<std::pair<int, model::SimulatedCheck>> planSimulations(const model::PlanFile& file, const model::PlanResult& result);

/** Everything as JSON: "inputs", "takeaway", "plans" (ranked), "devices" (verdict, best plan, frontier), "notes". */
QJsonObject planJson(const model::PlanFile& file, const model::PlanResult& result);

/** One CSV row per ranked plan (RFC 4180 quoting), header first; empty cells where price or power is unknown. */
QString planCsv(const model::PlanFile& file, const model::PlanResult& result);

/**
 * `ridgeline --plan FILE [--format text|json|csv]`: reads the plan file (model/analysis/planfile.h), searches
 * (model/analysis/plan.h) and prints the ranked plans. Returns 0; a bad file prints "ridgeline: FILE: message" on
 * stderr and returns 2. @p parsed (may be nullptr) receives the parsed file (with --export or --screenshot, the plan the
 * window then shows).
 */
int runPlan(const QString& file, const QString& format, model::PlanFile* parsed = nullptr);

} // namespace ridgeline::app
