// SPDX-License-Identifier: GPL-3.0-or-later
// Calibration data: the same bytes as measurements CSV and as vLLM benchmark JSON (or JSON lines);
// refused with a message, or read within kMaxMeasurements and fitted without a non-finite result.
#include <cmath>
#include <cstdlib>

#include <QByteArray>

#include "model/analysis/calibration.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace ridgeline::model;
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    for (const bool json : {false, true}) {
        std::vector<Measurement> points;
        const std::string error = json ? parseVllmBenchmarkJson(bytes, points) : parseMeasurementsCsv(bytes, points);
        if (!error.empty())
            continue;
        if (points.empty() || points.size() > size_t(kMaxMeasurements))
            std::abort();
        CalibrationResult result;
        if (calibrate(defaultScenario(), points, result).empty()
            && (!std::isfinite(result.bandwidthEfficiency.value) || !std::isfinite(result.mfuPrefill.value)))
            std::abort();
    }
    return 0;
}
