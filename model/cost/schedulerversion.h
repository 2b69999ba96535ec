// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The serving scheduler's semantics, named by the cost layer so that an efficiency preset (fitted under one
// scheduler) can say which without depending on the simulator (docs/architecture.md: cost < sim).

namespace ridgeline::model {

/**
 * How a paged scheduler holds KV for a prompt it admits (vLLM's two engines; docs/cost-model.md, "Serving-step costs").
 * Under both, decodes come first and every step's token budget (Chunked) is shared by decodes and prefill chunks.
 */
enum class SchedulerVersion {
    V0, ///< blocks for the whole prompt are reserved at admission (beyond the watermark); the simulator's original rule
    V1, ///< no whole-prompt reservation: a prompt gets the blocks of each chunk as it is scheduled; when a chunk finds
        ///< none free, the latest-admitted sequence is preempted (recompute), as for a decode
    /// TensorRT-LLM's in-flight batching without chunked context (enable_chunked_context off, its default before
    /// v0.12 and in NIM's TensorRT-LLM profiles) and the GUARANTEED_NO_EVICT capacity policy (its default): a request
    /// is admitted only when blocks for its whole prompt + output are free (never evicted, never grows); context
    /// requests are scheduled before generation, whole prompts only, while their tokens plus the step's decodes
    /// (1 each) fit token_budget (max_num_tokens); the first prompt of a step is taken even when larger (TensorRT-LLM
    /// would reject it); a head that does not fit waits for the next step (FIFO). Under any BatchingPolicy but Static.
    /// Sources: nvidia.github.io/TensorRT-LLM, "Paged Attention, IFB, and Request Scheduling", "Tuning Max Batch
    /// Size and Max Num Tokens", "Useful Runtime Options" (docs/cost-model.md, "Serving-step costs").
    TrtllmInflight
};

} // namespace ridgeline::model
