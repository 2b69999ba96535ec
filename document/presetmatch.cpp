// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/presetmatch.h"

#include <algorithm>
#include <cmath>

#include "document/usercatalogue.h"

namespace ridgeline::document {

namespace {

bool close(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

/** Index of the first of @p choices @p same accepts, preferring one named @p name; -1 when none. */
template <typename Choice, typename Same, typename NameOf>
int matchChoice(const std::vector<Choice>& choices, Same same, NameOf nameOf, const std::string& name)
{
    int firstSame = -1;
    for (int i = 0; i < int(choices.size()); ++i) {
        if (!same(choices[size_t(i)]))
            continue;
        if (nameOf(choices[size_t(i)]) == name)
            return i;
        if (firstSame < 0)
            firstSame = i;
    }
    return firstSame;
}

/** @p name as shown: " (edited)" added when some preset of @p lists carries it and @p matches of none of them. */
template <typename Preset, typename NameOf, typename Matches>
std::string shownName(const std::string& name, const char* emptyName, NameOf nameOf, Matches matches,
                      std::initializer_list<const std::vector<Preset>*> lists)
{
    if (name.empty())
        return emptyName;
    bool named = false;
    for (const std::vector<Preset>* list : lists)
        for (const Preset& preset : *list)
            if (nameOf(preset) == name) {
                if (matches(preset))
                    return name;
                named = true;
            }
    return named ? name + " (edited)" : name;
}

} // namespace

bool sameModelShape(const model::ModelShape& a, const model::ModelShape& b)
{
    return close(a.params, b.params) && close(a.activeParamsOrTotal(), b.activeParamsOrTotal())
        && a.layers == b.layers && a.hidden == b.hidden && a.heads == b.heads && a.kvHeads == b.kvHeads
        && a.headDimOrDefault() == b.headDimOrDefault() && a.vocab == b.vocab && a.experts == b.experts
        && a.expertsPerToken == b.expertsPerToken && close(a.expertParams, b.expertParams)
        && a.kvLoraRank == b.kvLoraRank && a.ropeHeadDim == b.ropeHeadDim && a.slidingWindow == b.slidingWindow
        && a.slidingLayers == b.slidingLayers;
}

bool sameModel(const model::ModelShape& a, const model::ModelShape& b)
{
    return sameModelShape(a, b) && a.params == b.params && a.activeParams == b.activeParams && a.headDim == b.headDim
           && a.name == b.name && a.weightDtype == b.weightDtype && a.kvDtype == b.kvDtype && a.attention == b.attention;
}

bool sameHardware(const model::Hardware& a, const model::Hardware& b)
{
    return close(a.bandwidthBytesPerSecond, b.bandwidthBytesPerSecond)
        && close(a.peakFlopsPerSecond, b.peakFlopsPerSecond) && close(a.memoryBytes, b.memoryBytes)
        && close(a.peakFlopsFp8, b.peakFlopsFp8) && close(a.peakOpsInt8, b.peakOpsInt8)
        && close(a.linkBandwidthBytesPerSecond, b.linkBandwidthBytesPerSecond);
}

int matchModelPreset(const std::vector<model::ModelPreset>& presets, const model::ModelShape& shape)
{
    return matchChoice(
        presets, [&shape](const model::ModelPreset& p) { return sameModelShape(p.shape, shape); },
        [](const model::ModelPreset& p) { return p.shape.name; }, shape.name);
}

int matchHardwarePreset(const std::vector<model::HardwarePreset>& presets, const model::Hardware& hardware)
{
    return matchChoice(
        presets, [&hardware](const model::HardwarePreset& p) { return sameHardware(p.hardware, hardware); },
        [](const model::HardwarePreset& p) { return p.hardware.name; }, hardware.name);
}

ShownNames shownNames(const model::Scenario& scenario, const views::UserCatalogue* catalogue)
{
    static const std::vector<model::ModelPreset> noModels;
    static const std::vector<model::HardwarePreset> noDevices;
    ShownNames out;
    out.model = shownName<model::ModelPreset>(
        scenario.model.name, "custom model", [](const model::ModelPreset& p) { return p.shape.name; },
        [&scenario](const model::ModelPreset& p) { return sameModelShape(p.shape, scenario.model); },
        {&model::modelPresets(), catalogue ? &catalogue->models() : &noModels});
    out.hardware = shownName<model::HardwarePreset>(
        scenario.hardware.name, "custom hardware", [](const model::HardwarePreset& p) { return p.hardware.name; },
        [&scenario](const model::HardwarePreset& p) { return sameHardware(p.hardware, scenario.hardware); },
        {&model::hardwarePresets(), catalogue ? &catalogue->devices() : &noDevices});
    return out;
}

} // namespace ridgeline::document
