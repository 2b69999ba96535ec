// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/files/csvline.h"

#include <algorithm>
#include <cctype>

namespace ridgeline::model {

std::string trimmedText(std::string s)
{
    const auto notSpace = [](unsigned char c) { return !std::isspace(c); };
    s.erase(s.begin(), std::find_if(s.begin(), s.end(), notSpace));
    s.erase(std::find_if(s.rbegin(), s.rend(), notSpace).base(), s.end());
    return s;
}

std::vector<std::string> splitCsvLine(const std::string& line)
{
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (char c : line) {
        if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted) {
            cells.push_back(trimmedText(cell));
            cell.clear();
        } else
            cell += c;
    }
    cells.push_back(trimmedText(cell));
    return cells;
}

std::string csvQuoteProblem(const std::string& line)
{
    const auto quotes = std::count(line.begin(), line.end(), '"');
    if (quotes % 2 == 0)
        return {};
    return "a double quote is not closed (the line holds " + std::to_string(quotes)
           + "; the cells after it would shift, and a cell cannot span lines)";
}

} // namespace ridgeline::model
