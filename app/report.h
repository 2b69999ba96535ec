// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>

#include "model/cost/costmodel.h"

namespace ridgeline::app {

/**
 * The JSON report of one evaluation: nested objects with SI units named in each key
 * (`decode.step_ms`, `decode.read_bytes`, ...), plus the scenario that produced it under
 * "scenario". The keys are a contract for scripts: add, never rename.
 */
QJsonObject reportJson(const model::Scenario& scenario, const model::Evaluation& evaluation);

/** The same figures as a plain-text report for people, with units and the formulas used. */
QString reportText(const model::Scenario& scenario, const model::Evaluation& evaluation);

/**
 * A/B comparison: {"a": report A, "b": report B, "ratio": every numeric figure as B / A (null where
 * A is 0 or the figure is not a number in both)}. Scenarios are kept under a.scenario, b.scenario.
 */
QJsonObject compareJson(const model::Scenario& a, const model::Evaluation& ea, const model::Scenario& b,
                        const model::Evaluation& eb);

/** The same as a side-by-side text table: figure, A, B, B / A. */
QString compareText(const model::Scenario& a, const model::Evaluation& ea, const model::Scenario& b,
                    const model::Evaluation& eb);

} // namespace ridgeline::app
