// SPDX-License-Identifier: GPL-3.0-or-later
// HuggingFace config.json import: refused with a message, or a model the cost model evaluates finite.
#include <QByteArray>

#include "fuzz/fuzzcheck.h"
#include "model/files/hfconfig.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace ridgeline::model;
    ImportedModel m;
    const std::string err = importHfConfig(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)), m);
    if (!err.empty())
        return 0;
    if (!(m.totalParams >= 0) || !(m.activeParams >= 0) || m.activeParams > m.totalParams * (1 + 1e-12))
        std::abort();
    Scenario s = defaultScenario();
    s.model = m.shape;
    ridgeline::fuzz::checkScenario(s);
    return 0;
}
