// SPDX-License-Identifier: GPL-3.0-or-later
// Triage tickets: refused with a message, or classified with a six-line standup.
#include <QByteArray>

#include "model/analysis/triage.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace ridgeline::model;
    TriageInput in;
    QByteArray scenarioJson;
    if (!parseTriageInput(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)), in, &scenarioJson).empty())
        return 0;
    const TriageResult r = triage(defaultScenario(), in);
    if (r.standup.text().empty() || r.reasoning.empty())
        std::abort();
    return 0;
}
