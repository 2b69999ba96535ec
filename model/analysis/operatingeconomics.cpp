// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/operatingeconomics.h"

#include <algorithm>
#include <cctype>

#include "model/cost/costmodel.h"
#include "model/cost/presets.h"

namespace ridgeline::model {

namespace {

/**
 * The built-in catalogue device whose display name is @p name, or nullptr. A name the controls marked " (edited)"
 * (a slider moved a figure of the device) still names the device it started from: its price and power stay examples.
 */
const HardwarePreset* catalogueDevice(std::string name)
{
    static const std::string kEdited = " (edited)";
    if (name.size() > kEdited.size() && name.compare(name.size() - kEdited.size(), kEdited.size(), kEdited) == 0)
        name.resize(name.size() - kEdited.size());
    if (name.empty())
        return nullptr;
    for (const HardwarePreset& p : hardwarePresets())
        if (p.hardware.name == name)
            return &p;
    return nullptr;
}

bool sameCurrency(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
           });
}

} // namespace

OperatingEconomics operatingEconomics(const Scenario& s, const Evaluation& evaluation)
{
    OperatingEconomics out;
    out.currency = s.economics.currency;
    out.inputs.pue = s.economics.pue;
    const HardwarePreset* device = catalogueDevice(s.hardware.name);
    if (device) {
        out.catalogueDevice = device->hardware.name;
        out.catalogueSource = device->source;
    }
    if (s.economics.pricePerGpuHour > 0) {
        out.inputs.pricePerGpuHour = s.economics.pricePerGpuHour;
        out.priceSource = PriceSource::User;
    } else if (device && sameCurrency(s.economics.currency, kExamplePriceCurrency)) {
        if (const std::optional<double> example = examplePricePerGpuHour(device->id)) {
            out.inputs.pricePerGpuHour = example;
            out.priceSource = PriceSource::Example;
        }
    }
    const double datasheet = device ? device->hardware.boardPowerWatts : 0.0;
    if (s.hardware.boardPowerWatts > 0) {
        out.inputs.boardPowerWatts = s.hardware.boardPowerWatts;
        out.powerSource = s.hardware.boardPowerWatts == datasheet ? PowerSource::Datasheet : PowerSource::Scenario;
    } else if (datasheet > 0) {
        out.inputs.boardPowerWatts = datasheet;
        out.powerSource = PowerSource::Datasheet;
    }
    // A configuration whose weights do not fit serves no request: no figure (it was priced as if it ran, issue 14 trial).
    out.weightsFit = evaluation.capacity.weightsFit;
    // Per request: B sequences decode at the mean context P + O/2; when their cache does not fit there is no such
    // operating point to price either (issue 14 trial: 0.06 USD/1M at batch 4,096 on one GPU).
    const std::optional<long long>& longest = evaluation.capacity.maxContextAtBatch;
    out.fitsPerRequest = out.weightsFit && (!longest || double(*longest) >= evaluation.workload.decodeContextTokens);
    if (out.fitsPerRequest)
        out.cost = operatingCost(out.inputs, s, evaluation);
    // At (B, S), as t_step: the decode throughput of the instance, B / t_step(B, S); nothing when the point does not fit.
    out.fitsAtBatchContext = out.weightsFit && evaluation.capacity.fits;
    if (out.fitsAtBatchContext && evaluation.decode.stepSeconds > 0) {
        out.outputTokensPerSecondAtBatchContext = s.workload.batch / evaluation.decode.stepSeconds;
        out.atBatchContext = operatingCost(out.inputs, std::max(1, s.hardware.gpus), out.outputTokensPerSecondAtBatchContext, 0.0, 0.0);
    }
    return out;
}

std::string_view priceSourceKey(PriceSource source)
{
    switch (source) {
    case PriceSource::User: return "user";
    case PriceSource::Example: return "example";
    case PriceSource::Unknown: break;
    }
    return "unknown";
}

std::string_view powerSourceKey(PowerSource source)
{
    switch (source) {
    case PowerSource::Datasheet: return "datasheet";
    case PowerSource::Scenario: return "scenario";
    case PowerSource::Unknown: break;
    }
    return "unknown";
}

} // namespace ridgeline::model
