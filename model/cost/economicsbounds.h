// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace ridgeline::model {

/**
 * Bounds of power usage effectiveness (facility power / IT power), one pair for every input that takes a PUE: the
 * scenario's economics.pue (validate(), model/cost/scenario.h), a plan file's "pue" (model/analysis/planfile.h) and
 * the Plan tab's PUE box. 1 is a facility that spends nothing beyond the IT load; 10 is far past any data centre
 * (typical 1.1 to 2), kept generous so that a what-if is never refused for being pessimistic.
 */
inline constexpr double kMinPue = 1.0;
inline constexpr double kMaxPue = 10.0;

} // namespace ridgeline::model
