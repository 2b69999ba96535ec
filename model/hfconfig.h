// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include <QByteArray>

#include "model/scenario.h"

namespace ridgeline::model {

/** A model read from a HuggingFace config.json, with its counted parameters and what was assumed. */
struct ImportedModel {
    ModelShape shape;                ///< params and activeParams are the counts below
    double totalParams = 0;          ///< every weight: embeddings, attention (biases, q/k norms), MLP or experts,
                                     ///< routers, norms, lm_head unless tied (no multi-token-prediction layers)
    double activeParams = 0;         ///< weights one token uses: shared parts plus k routed experts per MoE layer
    double quantizedParams = 0;      ///< weights held at shape.weightDtype under a quantization_config (0 without one);
                                     ///< the rest, shape.unquantizedParams, at 16 bits
    std::string modelType;           ///< config "model_type"
    std::vector<std::string> notes;  ///< what was inferred or assumed, one sentence each, to show the user
};

/**
 * Reads a HuggingFace `config.json` (Llama, Mistral, Mixtral, Qwen2/2.5/3 and their MoE, Gemma 2/3,
 * Phi-3, DeepSeek-V2/V3, gpt-oss; others as a Llama-style decoder, said in a note) and counts its
 * parameters from the architecture.
 *
 * Reads hidden size, layers, heads, KV heads, explicit head_dim, intermediate size, vocab,
 * tie_word_embeddings, MoE fields (experts, experts per token, shared experts, first dense layers,
 * expert intermediate size), MLA fields (kv_lora_rank, qk_rope_head_dim, q_lora_rank, v_head_dim)
 * and sliding windows (layer_types, alternating patterns). Weight and KV dtypes are bf16 (set them
 * in the scenario). Source for the counts: each family's modeling code in HF transformers.
 *
 * @return "" on success (then @p out is filled), else one sentence naming the field and value;
 *         @p out is untouched on failure.
 */
std::string importHfConfig(const QByteArray& json, ImportedModel& out);

} // namespace ridgeline::model
