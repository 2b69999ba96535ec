// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/**
 * Number formatting for everything shown on screen, with units (docs/cost-model.md section 1):
 * decimal GB, TB/s, TFLOP and TFLOP/s for sizes and rates; KiB only per token of KV cache and
 * GiB only for cache sizes. Numbers use three significant digits, whole numbers from 1,000 up
 * with a thousands separator; a non-finite value prints as an en dash, never "nan" or "inf".
 * The same helpers format the plots' takeaways and the numbers panel, so they always agree.
 */
namespace ridgeline::views::format {

/** @p value to @p significant digits ("4.79", "0.0858", "295", "30,632"); where that needs more than nine decimals,
 *  with an exponent ("1.2e-10", never "0.000000000"). */
QString number(double value, int significant = 3);

/** A whole number with thousands separators ("1,048,576"). */
QString integer(double value);

/** An approximate value rounded to @p significant digits, whole numbers grouped: "123,000",
 *  "296", "4.79" (for "≈" figures read off a curve). */
QString approximate(double value, int significant = 3);

/** The shortest exact form of a user-entered value: "20", "12.5", "100". */
QString plain(double value);

/** Milliseconds: "4.79 ms". */
QString milliseconds(double ms);

/** Seconds shown in ms below one second, else in s: "88.7 ms", "2.75 s". */
QString duration(double seconds);

/** Decimal gigabytes: "16.1 GB"; from 10,000 GB on in the next decimal unit that keeps it below 10,000: "15.3 TB", "268 PB". */
QString gigabytes(double bytes);

/** Binary gibibytes, for KV cache sizes: "0.244 GiB". */
QString gibibytes(double bytes);

/** KV bytes per token in KiB: "128 KiB/token". */
QString kibibytesPerToken(double bytes);

/** Tokens per second: "209 tok/s". */
QString tokensPerSecond(double tokensPerSecond);

/** FLOP in TFLOP: "34.2 TFLOP". */
QString teraflop(double flop);

/** FLOP/s in TFLOP/s: "989 TFLOP/s". */
QString teraflopsPerSecond(double flopsPerSecond);

/** B/s in TB/s: "3.35 TB/s". */
QString terabytesPerSecond(double bytesPerSecond);

/** Arithmetic intensity: "295 FLOP/byte". */
QString flopPerByte(double intensity);

/** A fraction in [0, 1] as a percentage: "81.1 %", "1.6 %", "0.32 %". */
QString percent(double fraction);

/** Token count: "30,632 tokens". */
QString tokens(double count);

/** Parameters in billions: "8.03 B". */
QString billionParams(double params);

} // namespace ridgeline::views::format

namespace ridgeline::views {

/** @p one when @p count is 1, else @p many with %1 replaced by the count with thousands separators
 *  ("1 point", "12 points"): plain English without a translation file. */
QString counted(double count, const QString& one, const QString& many);

} // namespace ridgeline::views
