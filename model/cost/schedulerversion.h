// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string_view>

// The serving scheduler's semantics, named by the cost layer so that an efficiency preset (fitted under one
// scheduler) can say which without depending on the simulator (docs/architecture.md: cost < sim).

namespace ridgeline::model {

/**
 * How a paged scheduler holds KV for a prompt it admits (vLLM's two engines; docs/cost-model.md, "Serving-step costs").
 * Under V0 and V1, decodes come first and every step's token budget (Chunked) is shared by decodes and prefill chunks
 * (V0 as with chunked prefill on); TrtllmInflight and V0PromptFirst say how whole prompts are scheduled instead.
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
    TrtllmInflight,
    /// vLLM V0 without chunked prefill (vLLM 0.5.x's default engine, `Scheduler._schedule_default` in
    /// vllm/core/scheduler.py): each step first admits waiting prompts, whole, in arrival order, while their tokens fit
    /// token_budget (max_num_batched_tokens; the step's first prompt is taken even when larger, where vLLM would have
    /// refused it at arrival), a slot is free (max_num_seqs, running ones included) and blocks for the whole prompt plus
    /// the watermark are free (V0's reservation; the head that does not fit stops admission, FIFO); when any prompt was
    /// admitted the step holds those prompts only, and every running sequence skips it ("Don't schedule decodes if
    /// prefills are scheduled"); otherwise the step decodes every running sequence (1 token each; a decode finding no
    /// free block preempts the latest-admitted sequence by recompute). Prompts are never chunked. Under any
    /// BatchingPolicy but Static (docs/cost-model.md, "Serving-step costs", "vLLM V0 without chunked prefill").
    V0PromptFirst
};

/** The spelling of @p v on the command line (--scheduler) and in files (serving.scheduler): "v1", "v0",
 *  "v0-prompt-first", "trtllm". */
constexpr std::string_view schedulerName(SchedulerVersion v)
{
    switch (v) {
    case SchedulerVersion::V1: return "v1";
    case SchedulerVersion::V0: return "v0";
    case SchedulerVersion::TrtllmInflight: return "trtllm";
    case SchedulerVersion::V0PromptFirst: return "v0-prompt-first";
    }
    return "v1";
}

/** The scheduler spelt @p name (lower case, as schedulerName() writes it); nullopt for any other text. */
constexpr std::optional<SchedulerVersion> parseSchedulerName(std::string_view name)
{
    for (const SchedulerVersion v : {SchedulerVersion::V1, SchedulerVersion::V0, SchedulerVersion::V0PromptFirst,
                                     SchedulerVersion::TrtllmInflight})
        if (schedulerName(v) == name)
            return v;
    return std::nullopt;
}

} // namespace ridgeline::model
