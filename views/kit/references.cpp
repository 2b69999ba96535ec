// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/references.h"

#include <string_view>

#include "model/cost/presets.h"

namespace ridgeline::views {

const std::vector<ReferenceCrossover>& referenceCrossovers()
{
    static const std::vector<ReferenceCrossover> references = [] {
        struct Wanted { std::string_view id; const char* label; };
        static constexpr Wanted kWanted[] = {
            {"llama-3.1-8b", "8B"}, {"llama-3.1-70b", "70B"}, {"llama-3.1-405b", "405B"}};
        std::vector<ReferenceCrossover> out;
        for (const Wanted& wanted : kWanted) {
            for (const model::ModelPreset& preset : model::modelPresets()) {
                if (preset.id != wanted.id)
                    continue;
                const model::ModelShape& shape = preset.shape;
                const double denominator = 2.0 * shape.layers * shape.attentionWidth();
                if (denominator > 0)
                    out.push_back({QString::fromLatin1(wanted.label), QString::fromStdString(shape.name),
                                   shape.activeParamsOrTotal() / denominator});
            }
        }
        return out;
    }();
    return references;
}

} // namespace ridgeline::views
