// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

class QJsonValue;

namespace ridgeline::model {

/**
 * Text for the one-line error messages of every parser of outside input (scenario files, simulation
 * files, triage tickets, calibration data), so that they show values the same way.
 */

/** A number as a file would hold it: whole numbers below 1e9 in digits ("10000000", not "1e+07"),
 *  else the shortest round-trip text with a bare exponent ("1e12", "1e-6"). */
std::string messageNumber(double value);

/**
 * @p text for a one-line message: control characters (below 0x20, 0x7F, U+0080-U+009F) written as \xNN
 * or \uNNNN, bytes that are not UTF-8 as U+FFFD, cut after @p limit characters with "..." (0: never cut).
 */
std::string printableText(std::string_view text, std::size_t limit = 80);

/** Where @p text (UTF-8) first holds a control character (below 0x20, 0x7F, or U+0080-U+009F: the byte offset of
 *  its 0xC2), or std::string::npos. */
std::size_t findControlCharacter(std::string_view text);

/** Most characters (Unicode code points) of a currency label: short enough for every table header it titles. */
inline constexpr std::size_t kMaxCurrencyCharacters = 8;

/**
 * Why @p currency (UTF-8) is not a currency label, or "" when it is: the one rule of economics.currency (--set, scenario
 * files; validate()) and a plan file's "currency" (parsePlanFile()): 1 to kMaxCurrencyCharacters characters, no control
 * character, no blank (space, tab) at either end, so never blank. "USD", "EUR", "\u20ac", "US$" and "k USD" pass. The
 * reason reads after "field = value: ", e.g. "must name the currency in 1 to 8 printable characters, no blank at either
 * end, e.g. \"USD\" (this is 16 characters long)".
 */
std::string currencyProblem(std::string_view currency);

/** A JSON value as it would be written, for messages: 3, "fast", [1,2], {...}, null, true; through
 *  printableText (one line, cut when long). */
std::string jsonValueText(const QJsonValue& value);

} // namespace ridgeline::model
