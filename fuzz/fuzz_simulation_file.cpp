// SPDX-License-Identifier: GPL-3.0-or-later
// Simulation files: refused with a message, or accepted within the simulator's bounds; an accepted file
// is simulated on a short leash (the progress callback stops it) so that the engine is fuzzed too.
#include <cstdlib>

#include <QByteArray>
#include <QString>

#include "model/files/simulationfile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace ridgeline::model;
    SimulationFile file;
    // No folder: a trace_csv cannot reach any file (relative names resolve inside a folder that does not exist).
    const std::string error = parseSimulationJson(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)),
                                                  QStringLiteral("/nonexistent-ridgeline-fuzz"), file);
    if (!error.empty()) {
        if (error.size() > 4096) // messages stay one readable line
            std::abort();
        return 0;
    }
    if (!checkSimulationConfig(file.config).empty() || !(estimateSimulationCost(file.config).seconds >= 0))
        std::abort();
    int calls = 0;
    const SimulationProgress stopSoon = [&calls](long long, long long) { return ++calls < 4; };
    const std::vector<Request> requests = generateRequests(file.config, stopSoon);
    calls = 0;
    const SimulationResult r = simulate(file.scenario, file.config, requests, stopSoon);
    if (!r.cancelled && r.all.requests != static_cast<long long>(requests.size()))
        std::abort();
    return 0;
}
