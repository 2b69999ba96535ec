// SPDX-License-Identifier: GPL-3.0-or-later
// Traces (ours, the Azure LLM inference CSV, the Mooncake JSONL; found by content): refused with a message that
// does not echo the file's text, or read within the bounds.
#include <cstdlib>

#include <QByteArray>

#include "model/files/simulationfile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace ridgeline::model;
    std::vector<RequestClass> classes(1);
    classes[0].name = "job";
    classes[0].priority = Priority::Batch;
    std::vector<Request> rows;
    TraceStats stats;
    const std::string error = parseTraceCsv(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)),
                                            "simulation.trace_csv", classes, rows, &stats);
    if (!error.empty()) {
        if (error.size() > 512)
            std::abort();
        return 0;
    }
    if (rows.size() > size_t(kMaxSimulationRequests) || classes.size() > 2)
        std::abort();
    for (const Request& r : rows)
        if (r.promptTokens < 1 || r.outputTokens < 1 || r.classIndex < 0 || size_t(r.classIndex) >= classes.size()
            || !(r.arrivalSeconds >= 0) || !(r.arrivalSeconds <= kMaxSimulationSeconds) || r.prefixGroup < -1
            || (r.prefixGroup >= 0 && stats.format != TraceFormat::Mooncake))
            std::abort();
    if (stats.skippedRows < 0 || (stats.skippedRows > 0 && stats.format != TraceFormat::Azure))
        std::abort();
    return 0;
}
