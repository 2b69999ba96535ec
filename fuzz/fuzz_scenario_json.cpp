// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files: any bytes either apply cleanly or are refused, never crash; a valid result evaluates finite.
#include <QByteArray>

#include "fuzz/fuzzcheck.h"
#include "model/cost/scenariokeys.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace ridgeline::model;
    Scenario s = defaultScenario();
    const QJsonObject before = toJson(s);
    const std::string err = applyJsonText(s, QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)));
    if (!err.empty() && toJson(s) != before)
        std::abort(); // a refused file must leave the scenario untouched
    ridgeline::fuzz::checkScenario(s);
    return 0;
}
