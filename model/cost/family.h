// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/cost/scenario.h"

namespace ridgeline::model {

/**
 * The "model size" slider's dense-family rule (docs/cost-model.md section 2).
 *
 * N moves through the Llama 3 family (Llama 3.2 1B and 3B, Llama 3.1 8B, 70B and 405B; their
 * published configs). L and d follow from N by piecewise-linear interpolation of log L and log d
 * against log N through the members (extrapolated along the end segments outside 1B-405B);
 * d is rounded to a multiple of the 128 head dim, L to the nearest whole layer; H = d / 128;
 * H_kv keeps its value when it divides H, else becomes the largest divisor of H not above it;
 * head_dim is set to 128 and active parameters to N (dense). Vocabulary and dtypes are kept.
 *
 * @param params N in parameters, > 0.
 * @return @p model with params, active params, L, d, H, H_kv, head dim replaced.
 */
ModelShape applyDenseFamily(ModelShape model, double params);

/** Layers and hidden size the family rule gives for @p params (before head-count rounding). */
struct FamilyShape { int layers; int hidden; };
FamilyShape denseFamilyShape(double params);

/**
 * The "model size" slider's whole rule: applyDenseFamily(@p anchor, @p params), and the result a member of a
 * dense family: no routed experts, no latent (MLA) cache, no sliding window. The name is left as it was (the
 * caller names it). @p params: N in parameters, > 0.
 */
ModelShape denseFamilyMember(const ModelShape& anchor, double params);

/**
 * Sets E (@p experts), k (@p perToken) and the parameters of one routed expert summed over all MoE layers
 * (@p expertParams) holding the shared (non-expert) parameters fixed: N = shared + E * expert params,
 * N_active = shared active + k * expert params. E <= 0 makes the model dense (k and the expert size go to 0
 * with it); a first E on a dense model with k <= 0 starts k at min(2, E). The controls' MoE rule.
 */
void setMoeExperts(ModelShape& model, int experts, int perToken, double expertParams);

} // namespace ridgeline::model
