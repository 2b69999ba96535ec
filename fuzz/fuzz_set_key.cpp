// SPDX-License-Identifier: GPL-3.0-or-later
// Command-line values: `--set KEY=VALUE` lines, one per input line, applied in order.
#include <string>

#include "fuzz/fuzzcheck.h"
#include "model/cost/scenariokeys.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace ridgeline::model;
    Scenario s = defaultScenario();
    const std::string text(reinterpret_cast<const char*>(data), size);
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string line = text.substr(start, end - start);
        const size_t eq = line.find('=');
        if (eq != std::string::npos) {
            const Scenario before = s;
            if (!setKey(s, line.substr(0, eq), line.substr(eq + 1)).empty()
                && toJson(s) != toJson(before))
                std::abort(); // a refused value must not change the scenario
        }
        start = end + 1;
    }
    ridgeline::fuzz::checkScenario(s);
    return 0;
}
