// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

/** Decimal unit scales the controls and plots convert with (SI: docs/conventions.md, units in names). */
namespace ridgeline::views::units {

inline constexpr double kGB = 1e9;    ///< bytes in a GB (10^9 B): HBM capacity, KV memory, reserves
inline constexpr double kTera = 1e12; ///< 10^12: TB/s of bandwidth, TFLOP/s and TOP/s of peak compute

} // namespace ridgeline::views::units
