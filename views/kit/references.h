// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QString>

namespace ridgeline::views {

/** The prefill crossover of one reference model, for marking on the prefill plot. */
struct ReferenceCrossover {
    QString label;          ///< short name shown on the plot, e.g. "8B"
    QString name;           ///< the preset's display name, e.g. "Llama 3.1 8B"
    double crossoverTokens; ///< P* = N_active / (2 * L * d_attn), tokens
};

/**
 * P* of the Llama 3.1 8B, 70B and 405B presets (ids "llama-3.1-8b", "llama-3.1-70b",
 * "llama-3.1-405b" in model::modelPresets()), in that order; presets that are missing are
 * skipped. Presentation of preset data (docs/cost-model.md section 4, reference 6), computed
 * once.
 */
const std::vector<ReferenceCrossover>& referenceCrossovers();

} // namespace ridgeline::views
