// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include <QByteArray>

#include "model/cost/scenario.h"

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
 * Reads a HuggingFace `config.json` (Llama, Mistral, Mixtral, Qwen2/2.5/3 and their MoE, Qwen3-Next / Qwen3.5,
 * Gemma 2/3, Phi-3/4, DeepSeek-V2/V3, Kimi K2, GLM-4.5, gpt-oss, Llama 4, Nemotron, Nemotron-H; others as a decoder
 * from the generic fields they have, and a note says plainly what that was) and counts its parameters from the
 * architecture.
 *
 * Reads hidden size, layers, heads, KV heads, explicit head_dim, intermediate size, vocab, tie_word_embeddings,
 * MoE fields (experts, experts per token, shared experts, first_k_dense_replace / moe_layer_freq,
 * interleave_moe_layer_step / moe_layers, decoder_sparse_step / mlp_only_layers, expert widths), MLA fields,
 * sliding windows (layer_types, alternating patterns, Llama 4's attention chunks), hybrid layers (linear attention:
 * layer_types / full_attention_interval with Gated DeltaNet widths; Mamba-2: hybrid_override_pattern) and their
 * per-sequence state, and `quantization_config` (fp8 block-scaled, MXFP4, ModelOpt NVFP4 / FP8, AWQ / GPTQ with group
 * size, compressed-tensors) with the modules it leaves at 16 bits. Multimodal wrappers are read from "text_config",
 * with the family defaults of transformers' config classes for fields the file leaves out (Gemma 3). Python's
 * Infinity / NaN tokens are accepted where Ridgeline does not read the field; a field it reads that holds one is
 * refused, naming the token (a sliding_window of Infinity, or past 2e9, reads as no window, with a note).
 * The trained context (max_position_embeddings) is kept in shape.maxPositionEmbeddings. Every import notes what
 * was read and what was assumed; odd values it cannot read as written are refused, never replaced silently.
 * Source for the counts: each family's modeling code in HF transformers.
 *
 * @return "" on success (then @p out is filled), else one sentence naming the field and value (or the
 *         architecture feature not counted); @p out is untouched on failure.
 */
std::string importHfConfig(const QByteArray& json, ImportedModel& out);

} // namespace ridgeline::model
