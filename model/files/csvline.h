// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One line of a comma-separated file, as the measurement readers (calibration, benchmark outputs) read it.

#include <string>
#include <vector>

namespace ridgeline::model {

/** @p s without leading and trailing white space. */
std::string trimmedText(std::string s);

/**
 * The cells of one CSV line, each trimmed. A comma inside double quotes stays in its cell and the
 * quotes are dropped ("1,146.31" is one cell, 1,146.31). No escaped quotes, no line breaks in cells.
 */
std::vector<std::string> splitCsvLine(const std::string& line);

/**
 * "" when every double quote of @p line is closed (an even count); else a phrase for the reader's message
 * ("a double quote is not closed (the line holds 3; ...)"): splitCsvLine() would run cells together and
 * every later column would shift.
 */
std::string csvQuoteProblem(const std::string& line);

} // namespace ridgeline::model
