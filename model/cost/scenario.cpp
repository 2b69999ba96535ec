// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/scenario.h"

#include <cmath>

#include "model/cost/economicsbounds.h"
#include "model/cost/messagetext.h"
#include "model/cost/scenariokeys.h"

namespace ridgeline::model {

namespace {

class Checker {
public:
    explicit Checker(std::vector<ScenarioError>& errors) : m_errors(errors) {}

    void fail(std::string_view key, const std::string& value, const std::string& why)
    {
        m_errors.push_back({std::string(key), value, std::string(key) + " = " + value + ": " + why});
    }

    /** Finite and > 0. */
    void positive(std::string_view key, double v)
    {
        if (!std::isfinite(v))
            fail(key, formatNumber(v), "must be a finite number");
        else if (v <= 0)
            fail(key, formatNumber(v), "must be greater than 0");
    }
    /** Finite and >= 0. */
    void nonNegative(std::string_view key, double v)
    {
        if (!std::isfinite(v))
            fail(key, formatNumber(v), "must be a finite number");
        else if (v < 0)
            fail(key, formatNumber(v), "must not be negative");
    }
    /** At most @p max (when finite): keeps every input inside what physics and a double can carry. */
    void atMost(std::string_view key, double v, double max, const char* shown)
    {
        if (std::isfinite(v) && v > max)
            fail(key, formatNumber(v), std::string("must be at most ") + shown);
    }
    /** At least @p min (when positive and finite). */
    void atLeast(std::string_view key, double v, double min, const char* shown)
    {
        if (std::isfinite(v) && v > 0 && v < min)
            fail(key, formatNumber(v), std::string("must be at least ") + shown);
    }
    /** Finite and in (0, 1]. */
    void fraction(std::string_view key, double v, std::string_view meaning = "achieved / peak")
    {
        if (!std::isfinite(v))
            fail(key, formatNumber(v), "must be a finite number");
        else if (v <= 0 || v > 1)
            fail(key, formatNumber(v), "must be greater than 0 and at most 1 (" + std::string(meaning) + ")");
        else if (v < 1e-6)
            fail(key, formatNumber(v), "must be at least 1e-6");
    }

private:
    std::vector<ScenarioError>& m_errors;
};

} // namespace

std::vector<ScenarioError> validate(const Scenario& s)
{
    std::vector<ScenarioError> errors;
    Checker c(errors);
    const ModelShape& m = s.model;

    c.positive("model.params", m.params);
    if (m.activeParams) {
        c.positive("model.active_params", *m.activeParams);
        if (std::isfinite(*m.activeParams) && std::isfinite(m.params) && *m.activeParams > m.params)
            c.fail("model.active_params", formatNumber(*m.activeParams),
                   "must not exceed model.params (" + formatNumber(m.params) + ")");
    }
    c.positive("model.layers", m.layers);
    c.positive("model.hidden", m.hidden);
    c.positive("model.heads", m.heads);
    c.positive("model.kv_heads", m.kvHeads);
    if (m.headDim)
        c.positive("model.head_dim", *m.headDim);
    c.positive("model.vocab", m.vocab);
    if (m.heads > 0 && m.kvHeads > 0) {
        if (m.kvHeads > m.heads)
            c.fail("model.kv_heads", std::to_string(m.kvHeads),
                   "must not exceed model.heads (" + std::to_string(m.heads) + ")");
        else if (m.heads % m.kvHeads != 0)
            c.fail("model.kv_heads", std::to_string(m.kvHeads),
                   "model.heads (" + std::to_string(m.heads) + ") must be a multiple of model.kv_heads");
    }
    if (!m.headDim && m.heads > 0 && m.hidden > 0 && m.hidden % m.heads != 0)
        c.fail("model.hidden", std::to_string(m.hidden),
               "is not a multiple of model.heads (" + std::to_string(m.heads)
                   + "), so the head dim cannot default to hidden / heads; set model.head_dim");

    if (m.experts != 0 || m.expertsPerToken != 0 || m.expertParams != 0) {
        c.positive("model.experts", m.experts);
        c.positive("model.experts_per_token", m.expertsPerToken);
        c.positive("model.expert_params", m.expertParams);
        if (m.experts > 0 && m.expertsPerToken > m.experts)
            c.fail("model.experts_per_token", std::to_string(m.expertsPerToken),
                   "must not exceed model.experts (" + std::to_string(m.experts) + ")");
        if (m.experts > 0 && std::isfinite(m.expertParams) && std::isfinite(m.params)
            && double(m.experts) * m.expertParams >= m.params)
            c.fail("model.expert_params", formatNumber(m.expertParams),
                   "times model.experts (" + std::to_string(m.experts) + ") must be less than model.params ("
                       + formatNumber(m.params) + ")");
    }
    c.nonNegative("model.kv_lora_rank", m.kvLoraRank);
    c.nonNegative("model.rope_head_dim", m.ropeHeadDim);
    c.nonNegative("model.sliding_window", m.slidingWindow);
    c.nonNegative("model.sliding_layers", m.slidingLayers);
    if (m.slidingLayers > m.layers && m.layers > 0)
        c.fail("model.sliding_layers", std::to_string(m.slidingLayers),
               "must not exceed model.layers (" + std::to_string(m.layers) + ")");

    // Ranges: far beyond any real system, yet small enough that every output stays finite.
    // Fewer than 1,000 parameters is no language model, and the floor's tokens/s overflows to inf.
    c.atLeast("model.params", m.params, 1e3, "1,000");
    c.atMost("model.params", m.params, 1e16, "1e16");
    if (m.activeParams) {
        c.atLeast("model.active_params", *m.activeParams, 1e3, "1,000");
        c.atMost("model.active_params", *m.activeParams, 1e16, "1e16");
    }
    c.atMost("model.layers", m.layers, 100000, "100,000");
    c.atMost("model.hidden", m.hidden, 1e7, "10,000,000");
    c.atMost("model.heads", m.heads, 1e6, "1,000,000");
    if (m.headDim)
        c.atMost("model.head_dim", *m.headDim, 65536, "65,536");
    c.atMost("model.vocab", m.vocab, 1e9, "1e9");
    c.atMost("model.experts", m.experts, 1e6, "1,000,000");
    c.atMost("model.kv_lora_rank", m.kvLoraRank, 1e6, "1,000,000");
    c.atMost("model.rope_head_dim", m.ropeHeadDim, 65536, "65,536");
    if (m.ropeHeadDim > 0 && m.kvLoraRank == 0)
        c.fail("model.rope_head_dim", std::to_string(m.ropeHeadDim), "needs model.kv_lora_rank > 0 (it is part of an MLA latent cache)");
    c.nonNegative("model.unquantized_params", m.unquantizedParams);
    if (std::isfinite(m.unquantizedParams) && std::isfinite(m.params) && m.unquantizedParams > m.params)
        c.fail("model.unquantized_params", formatNumber(m.unquantizedParams),
               "must not exceed model.params (" + formatNumber(m.params) + ")");
    c.nonNegative("model.state_bytes_per_sequence", m.stateBytesPerSequence);
    c.atMost("model.state_bytes_per_sequence", m.stateBytesPerSequence, 1e15, "1e15 B");
    c.nonNegative("model.max_position_embeddings", m.maxPositionEmbeddings);
    if (m.attentionLayers) {
        c.nonNegative("model.attention_layers", *m.attentionLayers);
        // Without a KV cache and without state, a sequence holds nothing: the memory would bound no batch (0 or
        // infinitely many sequences), and the model would mix no tokens. Refused rather than drawn as 0 sequences.
        if (*m.attentionLayers == 0 && !(m.stateBytesPerSequence > 0))
            c.fail("model.attention_layers", "0",
                   "a model without attention layers needs model.state_bytes_per_sequence > 0 (its linear-attention or "
                   "state-space layers' state); with neither, nothing bounds the sequences that fit in memory");
        if (*m.attentionLayers > m.layers && m.layers > 0)
            c.fail("model.attention_layers", std::to_string(*m.attentionLayers),
                   "must not exceed model.layers (" + std::to_string(m.layers) + ")");
        else if (m.slidingLayers > *m.attentionLayers && *m.attentionLayers >= 0)
            c.fail("model.sliding_layers", std::to_string(m.slidingLayers),
                   "must not exceed model.attention_layers (" + std::to_string(*m.attentionLayers) + ")");
    }
    if (m.slidingLayers > 0 && m.slidingWindow == 0)
        c.fail("model.sliding_layers", std::to_string(m.slidingLayers), "needs model.sliding_window > 0");
    c.atLeast("hardware.bandwidth", s.hardware.bandwidthBytesPerSecond, 1e6, "1e6 B/s");
    c.atMost("hardware.bandwidth", s.hardware.bandwidthBytesPerSecond, 1e16, "1e16 B/s");
    c.atLeast("hardware.peak_flops", s.hardware.peakFlopsPerSecond, 1e6, "1e6 FLOP/s");
    c.atMost("hardware.peak_flops", s.hardware.peakFlopsPerSecond, 1e21, "1e21 FLOP/s");
    c.atLeast("hardware.peak_flops_fp8", s.hardware.peakFlopsFp8, 1e6, "1e6 FLOP/s (or 0: none)");
    c.atMost("hardware.peak_flops_fp8", s.hardware.peakFlopsFp8, 1e21, "1e21 FLOP/s");
    c.atLeast("hardware.peak_ops_int8", s.hardware.peakOpsInt8, 1e6, "1e6 OP/s (or 0: none)");
    c.atMost("hardware.peak_ops_int8", s.hardware.peakOpsInt8, 1e21, "1e21 OP/s");
    c.atLeast("hardware.peak_flops_fp4", s.hardware.peakFlopsFp4, 1e6, "1e6 FLOP/s (or 0: none)");
    c.atMost("hardware.peak_flops_fp4", s.hardware.peakFlopsFp4, 1e21, "1e21 FLOP/s");
    c.atMost("hardware.board_power_watts", s.hardware.boardPowerWatts, 1e7, "1e7 W");
    c.atLeast("hardware.memory_bytes", s.hardware.memoryBytes, 1e6, "1e6 B");
    c.atMost("hardware.memory_bytes", s.hardware.memoryBytes, 1e16, "1e16 B");
    c.atMost("hardware.gpus", s.hardware.gpus, 65536, "65,536");
    if (s.hardware.gpus > 1 && m.heads > 0 && s.hardware.gpus > m.heads)
        c.fail("hardware.gpus", std::to_string(s.hardware.gpus),
               "tensor parallelism splits the " + std::to_string(m.heads) + " query heads: use at most model.heads GPUs");
    c.atLeast("hardware.link_bandwidth", s.hardware.linkBandwidthBytesPerSecond, 1e3, "1e3 B/s");
    c.atMost("hardware.link_bandwidth", s.hardware.linkBandwidthBytesPerSecond, 1e16, "1e16 B/s");
    c.atMost("hardware.link_latency_s", s.hardware.linkLatencySeconds, 1.0, "1 s");
    c.atMost("hardware.scale_up_domain", s.hardware.scaleUpDomainGpus, 65536, "65,536");
    c.atLeast("hardware.inter_node_bandwidth", s.hardware.interNodeBandwidthBytesPerSecond, 1e3, "1e3 B/s");
    c.atMost("hardware.inter_node_bandwidth", s.hardware.interNodeBandwidthBytesPerSecond, 1e16, "1e16 B/s");
    c.atMost("workload.context_tokens", s.workload.contextTokens, 1e9, "1e9 tokens");
    c.atMost("workload.prompt_tokens", s.workload.promptTokens, 1e9, "1e9 tokens");
    const bool sloListOk = s.workload.itlSloMs.size() <= size_t(kMaxItlSloLines);
    if (!sloListOk)
        c.fail("workload.itl_slo_ms", std::to_string(s.workload.itlSloMs.size()) + " values",
               "at most " + std::to_string(kMaxItlSloLines) + " ITL SLO lines");
    // SLOs below a microsecond are no SLO any engine meets, and break the plots' log axes.
    for (size_t i = 0; sloListOk && i < s.workload.itlSloMs.size(); ++i) {
        c.atLeast("workload.itl_slo_ms", s.workload.itlSloMs[i], 1e-3, "0.001 ms");
        c.atMost("workload.itl_slo_ms", s.workload.itlSloMs[i], 1e9, "1e9 ms");
    }
    c.atLeast("workload.ttft_slo_ms", s.workload.ttftSloMs, 1e-3, "0.001 ms");
    c.atMost("workload.ttft_slo_ms", s.workload.ttftSloMs, 1e9, "1e9 ms");
    c.atMost("workload.queue_wait_ms", s.workload.queueWaitMs, 1e9, "1e9 ms");
    c.atMost("workload.input_length_sd", s.workload.inputLengthSd, 1e7, "1e7 tokens");
    c.atMost("workload.output_length_sd", s.workload.outputLengthSd, 1e7, "1e7 tokens");
    c.atMost("workload.input_length_max", s.workload.inputLengthMax, 1e7, "1e7 tokens");
    c.atMost("workload.output_length_max", s.workload.outputLengthMax, 1e7, "1e7 tokens");
    c.atMost("serving.activation_reserve_bytes", s.serving.activationReserveBytes, 1e16, "1e16 B");
    c.atMost("serving.block_tokens", s.serving.blockTokens, 1e6, "1,000,000");
    c.atMost("speculative.draft_tokens", s.speculative.draftTokens, 64, "64");
    c.atMost("speculative.draft_cost", s.speculative.draftCost, 10, "10");
    c.atMost("speculative.verify_cost", s.speculative.verifyCost, 10, "10");
    c.atMost("efficiency.step_overhead_ms", s.efficiency.stepOverheadSeconds * 1e3, 1e6, "1e6 ms");
    c.atMost("efficiency.prefill_overhead_ms", s.efficiency.prefillOverheadSeconds * 1e3, 1e6, "1e6 ms");
    c.atMost("efficiency.chunk_overhead_ms", s.efficiency.chunkOverheadSeconds * 1e3, 1e6, "1e6 ms");
    c.atMost("efficiency.per_sequence_overhead_us", s.efficiency.perSequenceOverheadSeconds * 1e6, 1e6, "1e6 us");
    c.atMost("efficiency.ttft_overhead_ms", s.efficiency.ttftOverheadSeconds * 1e3, 1e6, "1e6 ms");
    c.atMost("efficiency.frontend_serial_ms", s.efficiency.frontendSerialSeconds * 1e3, 1e6, "1e6 ms");
    c.atMost("efficiency.first_token_return_ms", s.efficiency.firstTokenReturnSeconds * 1e3, 1e6, "1e6 ms");
    c.atMost("serving.max_num_tokens", s.serving.maxNumTokens, 1e7, "10,000,000");
    c.atMost("serving.max_prefills_per_step", s.serving.maxPrefillsPerStep, 1e6, "1,000,000");
    c.atMost("serving.api_output_us_per_token", s.serving.apiOutputSeconds * 1e6, 1e6, "1e6 us");

    c.positive("hardware.bandwidth", s.hardware.bandwidthBytesPerSecond);
    c.positive("hardware.peak_flops", s.hardware.peakFlopsPerSecond);
    c.positive("hardware.memory_bytes", s.hardware.memoryBytes);
    c.nonNegative("hardware.peak_flops_fp8", s.hardware.peakFlopsFp8);
    c.nonNegative("hardware.peak_ops_int8", s.hardware.peakOpsInt8);
    c.nonNegative("hardware.peak_flops_fp4", s.hardware.peakFlopsFp4);
    c.nonNegative("hardware.board_power_watts", s.hardware.boardPowerWatts);
    // 0 is "unknown"; below a watt no accelerator runs, and J/token and tokens/s per MW ran to 300 digits (a trial).
    if (s.hardware.boardPowerWatts > 0 && s.hardware.boardPowerWatts < 1)
        c.fail("hardware.board_power_watts", formatNumber(s.hardware.boardPowerWatts), "must be 0 (unknown) or at least 1 W");
    c.positive("hardware.gpus", s.hardware.gpus);
    c.positive("hardware.link_bandwidth", s.hardware.linkBandwidthBytesPerSecond);
    c.nonNegative("hardware.link_latency_s", s.hardware.linkLatencySeconds);
    c.nonNegative("hardware.scale_up_domain", s.hardware.scaleUpDomainGpus);
    c.positive("hardware.inter_node_bandwidth", s.hardware.interNodeBandwidthBytesPerSecond);

    c.positive("workload.batch", s.workload.batch);
    c.nonNegative("workload.context_tokens", s.workload.contextTokens);
    c.nonNegative("workload.prompt_tokens", s.workload.promptTokens);
    c.nonNegative("workload.output_tokens", s.workload.outputTokens);
    for (size_t i = 0; sloListOk && i < s.workload.itlSloMs.size(); ++i)
        c.positive("workload.itl_slo_ms", s.workload.itlSloMs[i]);
    c.positive("workload.ttft_slo_ms", s.workload.ttftSloMs);

    c.nonNegative("workload.queue_wait_ms", s.workload.queueWaitMs);
    c.nonNegative("workload.input_length_sd", s.workload.inputLengthSd);
    c.nonNegative("workload.output_length_sd", s.workload.outputLengthSd);
    c.nonNegative("workload.input_length_max", s.workload.inputLengthMax);
    c.nonNegative("workload.output_length_max", s.workload.outputLengthMax);

    c.fraction("serving.memory_utilization", s.serving.memoryUtilization, "the share of HBM the server may use");
    c.nonNegative("serving.activation_reserve_bytes", s.serving.activationReserveBytes);
    c.positive("serving.max_context_tokens", s.serving.maxContextTokens);
    c.positive("serving.block_tokens", s.serving.blockTokens);
    c.nonNegative("serving.prefix_tokens", s.serving.prefixTokens);
    c.nonNegative("serving.max_num_tokens", s.serving.maxNumTokens); // 0: not set
    c.nonNegative("serving.max_prefills_per_step", s.serving.maxPrefillsPerStep); // 0: no limit
    c.nonNegative("serving.api_output_us_per_token", s.serving.apiOutputSeconds * 1e6); // 0: none
    if (!std::isfinite(s.serving.prefixHitRate) || s.serving.prefixHitRate < 0 || s.serving.prefixHitRate > 1)
        c.fail("serving.prefix_hit_rate", formatNumber(s.serving.prefixHitRate), "must be between 0 and 1");

    if (!std::isfinite(s.speculative.acceptance) || s.speculative.acceptance < 0 || s.speculative.acceptance >= 1)
        c.fail("speculative.acceptance", formatNumber(s.speculative.acceptance), "must be at least 0 and below 1");
    c.positive("speculative.draft_tokens", s.speculative.draftTokens);
    c.nonNegative("speculative.draft_cost", s.speculative.draftCost);
    c.nonNegative("speculative.verify_cost", s.speculative.verifyCost);

    c.fraction("efficiency.bandwidth", s.efficiency.bandwidth);
    c.fraction("efficiency.mfu_prefill", s.efficiency.mfuPrefill);
    c.fraction("efficiency.mfu_decode", s.efficiency.mfuDecode);
    c.nonNegative("efficiency.step_overhead_ms", s.efficiency.stepOverheadSeconds * 1e3);
    c.nonNegative("efficiency.prefill_overhead_ms", s.efficiency.prefillOverheadSeconds * 1e3);
    c.nonNegative("efficiency.chunk_overhead_ms", s.efficiency.chunkOverheadSeconds * 1e3);
    c.nonNegative("efficiency.per_sequence_overhead_us", s.efficiency.perSequenceOverheadSeconds * 1e6);
    c.nonNegative("efficiency.ttft_overhead_ms", s.efficiency.ttftOverheadSeconds * 1e3);
    c.nonNegative("efficiency.frontend_serial_ms", s.efficiency.frontendSerialSeconds * 1e3);
    c.nonNegative("efficiency.first_token_return_ms", s.efficiency.firstTokenReturnSeconds * 1e3);
    // Economics (issue 14): 0 is "no price given" (the example price, or unknown); PUE is facility / IT power.
    c.nonNegative("economics.price_per_gpu_hour", s.economics.pricePerGpuHour);
    c.atMost("economics.price_per_gpu_hour", s.economics.pricePerGpuHour, 1e6, "1e6 per GPU-hour");
    // A price so small that every figure prints as 0.000 (a trial: 1e-300 shown as a cost of 0) is not a price.
    if (s.economics.pricePerGpuHour > 0 && s.economics.pricePerGpuHour < 1e-3)
        c.fail("economics.price_per_gpu_hour", formatNumber(s.economics.pricePerGpuHour),
               "must be 0 (the example price) or at least 0.001 per GPU-hour");
    if (!std::isfinite(s.economics.pue) || s.economics.pue < kMinPue)
        c.fail("economics.pue", formatNumber(s.economics.pue), "must be at least 1 (facility power / IT power; 1.2 by default)");
    c.atMost("economics.pue", s.economics.pue, kMaxPue, formatNumber(kMaxPue).c_str()); // the plan file's bound too (economicsbounds.h)
    // One rule with a plan file's "currency" (currencyProblem(), model/cost/messagetext.h): it titles table headers.
    if (const std::string why = currencyProblem(s.economics.currency); !why.empty())
        c.fail("economics.currency", "\"" + printableText(s.economics.currency, 40) + "\"", why);
    if (s.efficiency.kvBandwidth != 0) // 0: unset, the KV read runs at eta_bw
        c.fraction("efficiency.kv_bandwidth", s.efficiency.kvBandwidth, "achieved / peak; 0 means the same as efficiency.bandwidth");
    if (s.efficiency.kvBandwidthOneSequence != 0) // 0: unset, no lone-sequence limit
        c.fraction("efficiency.kv_bandwidth_one_sequence", s.efficiency.kvBandwidthOneSequence, "achieved / peak; 0 means no such limit");
    if (s.efficiency.mfuPrefillAttention != 0) // 0: unset, prefill attention at efficiency.mfu_prefill
        c.fraction("efficiency.mfu_prefill_attention", s.efficiency.mfuPrefillAttention,
                   "achieved / peak; 0 means the same as efficiency.mfu_prefill");
    return errors;
}

Scenario defaultScenario()
{
    Scenario s;
    // Llama 3.1 8B: meta-llama/Llama-3.1-8B config.json; 8,030,261,248 parameters.
    s.model.name = "Llama 3.1 8B";
    s.model.params = 8030261248.0;
    s.model.layers = 32;
    s.model.hidden = 4096;
    s.model.heads = 32;
    s.model.kvHeads = 8;
    s.model.vocab = 128256;
    // H100 SXM: NVIDIA H100 Tensor Core GPU datasheet; 3.35 TB/s HBM3, 989.4 TFLOP/s dense bf16, 80 GB.
    s.hardware.name = "H100 SXM";
    s.hardware.bandwidthBytesPerSecond = 3.35e12;
    s.hardware.peakFlopsPerSecond = 989.4e12;
    s.hardware.memoryBytes = 80e9;
    s.hardware.peakFlopsFp8 = 1978.9e12;
    s.hardware.peakOpsInt8 = 1978.9e12;
    s.hardware.gpus = 1;
    s.hardware.linkBandwidthBytesPerSecond = 450e9; // NVLink 4, one direction
    s.hardware.linkLatencySeconds = 5e-6;
    s.workload = Workload{};
    s.efficiency = Efficiency{};
    return s;
}

} // namespace ridgeline::model
