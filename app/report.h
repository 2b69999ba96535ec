// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>

#include "model/costmodel.h"

namespace ridgeline::app {

/**
 * The JSON report of one evaluation: nested objects with SI units named in each key
 * (`decode.step_ms`, `decode.read_bytes`, ...), plus the scenario that produced it under
 * "scenario". The keys are a contract for scripts: add, never rename.
 */
QJsonObject reportJson(const model::Scenario& scenario, const model::Evaluation& evaluation);

/** The same figures as a plain-text report for people, with units and the formulas used. */
QString reportText(const model::Scenario& scenario, const model::Evaluation& evaluation);

} // namespace ridgeline::app
