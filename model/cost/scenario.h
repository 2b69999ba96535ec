// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/cost/dtype.h"
#include "model/cost/schedulerversion.h"

namespace ridgeline::model {

/** How attention FLOP are counted (docs/cost-model.md section 3, "Prefill"). */
enum class AttentionFlops {
    Full,   ///< the whole P x P score matrix, scored and blended: 4 L P^2 d_attn (the seeds' convention)
    Causal  ///< only the causal half, as causal kernels compute it: 2 L P^2 d_attn
};

/** How a decode step reads the input embedding table (docs/cost-model.md section 3, "Weights read"). */
enum class EmbeddingRead {
    Rows,  ///< only the rows of the step's tokens: min(B, V) x d of the V x d table (what an engine reads; the default)
    Table  ///< the whole table, as every other weight: the N * b_w convention of the seeds' reference values
};

/**
 * Shape of a transformer (docs/cost-model.md section 2, "Model").
 * Counts are plain numbers; N is in parameters, not billions.
 */
struct ModelShape {
    std::string name;                  ///< display name, informational only
    double params = 0;                 ///< N, total parameters
    std::optional<double> activeParams; ///< N_active; defaults to N when never given
    int layers = 0;                    ///< L
    int hidden = 0;                    ///< d (d_model)
    int heads = 0;                     ///< H, query heads
    int kvHeads = 0;                   ///< H_kv (GQA: H_kv < H; MQA: 1; MHA: H)
    std::optional<int> headDim;        ///< h; defaults to hidden / heads when never given
    int vocab = 0;                     ///< V
    DType weightDtype = DType::BF16;   ///< b_w
    DType kvDtype = DType::BF16;       ///< b_kv

    // Mixture of experts; experts == 0 means dense.
    int experts = 0;                   ///< E, routed experts per MoE layer
    int expertsPerToken = 0;           ///< k, routed experts each token uses
    double expertParams = 0;           ///< parameters of one routed expert, summed over all MoE layers

    // Multi-head latent attention (DeepSeek-style); kvLoraRank == 0 means a standard K/V cache.
    int kvLoraRank = 0;                ///< r, width of the cached latent
    int ropeHeadDim = 0;               ///< d_r, decoupled RoPE key width cached beside the latent

    // Sliding-window attention; slidingWindow == 0 means every layer is global.
    int slidingWindow = 0;             ///< tokens a sliding layer holds and attends over
    int slidingLayers = 0;             ///< how many of the L layers use the window (the rest are global)

    AttentionFlops attention = AttentionFlops::Full; ///< prefill attention FLOP convention

    // Embeddings and mixed precision.
    bool tiedEmbeddings = false;       ///< the input embedding table is also the LM head (read whole every step as the head)
    EmbeddingRead embeddingRead = EmbeddingRead::Rows; ///< how decode reads the input embedding table
    double unquantizedParams = 0;      ///< parameters held at 16 bits (2 B) whatever weightDtype: what a quantization
                                       ///< config leaves out (embeddings, LM head, norms, routers, listed modules);
                                       ///< the input embedding table is among them when this is at least V * d

    // Hybrid models: layers without a KV cache (linear attention, state-space) and their fixed-size state.
    std::optional<int> attentionLayers; ///< layers holding a KV cache; defaults to all L layers when never given
    double stateBytesPerSequence = 0;   ///< recurrent state per sequence over all layers, B (fixed size, not per token)

    int maxPositionEmbeddings = 0;      ///< the context the model was trained for (config max_position_embeddings);
                                        ///< 0: not known. Informational: a longer context is flagged, not refused

    bool isMoe() const { return experts > 0; }
    bool isMla() const { return kvLoraRank > 0; }
    /** Layers holding a KV cache: attentionLayers when given, else L. */
    int attentionLayersOrAll() const { return attentionLayers.value_or(layers); }
    /** Layers holding the whole context. */
    int globalLayers() const { return slidingWindow > 0 ? attentionLayersOrAll() - slidingLayers : attentionLayersOrAll(); }
    /** Layers holding min(S, window). */
    int windowLayers() const { return slidingWindow > 0 ? slidingLayers : 0; }

    /** N_active: activeParams when given; else for MoE N - (E - k) * expert params; else N. */
    double activeParamsOrTotal() const
    {
        if (activeParams)
            return *activeParams;
        return isMoe() ? params - double(experts - expertsPerToken) * expertParams : params;
    }
    /** h: headDim when given, else hidden / heads (integer division; validate() checks it is exact). */
    int headDimOrDefault() const { return headDim.value_or(heads > 0 ? hidden / heads : 0); }
    /** d_attn = H * h, the attention width (equal to d for most models, not Gemma 2 9B). */
    double attentionWidth() const { return double(heads) * headDimOrDefault(); }
};

/** One accelerator (or the per-GPU figures of one). Decimal SI units: B/s, FLOP/s, B. */
struct Hardware {
    std::string name;                    ///< display name, informational only
    double bandwidthBytesPerSecond = 0;  ///< BW, peak HBM bandwidth
    double peakFlopsPerSecond = 0;       ///< dense bf16 peak: F_peak unless fp8 / int8 weights have their own peak below
    double memoryBytes = 0;              ///< HBM capacity
    double peakFlopsFp8 = 0;             ///< dense fp8 peak FLOP/s; 0 when the device has no fp8 (falls back to peak_flops)
    double peakOpsInt8 = 0;              ///< dense int8 peak OP/s; 0 when not published (falls back to peak_flops)
    double peakFlopsFp4 = 0; ///< dense fp4 peak FLOP/s (NVFP4 / MXFP4); 0 when the device has none (fp4 matmuls fall back)
    int gpus = 1;                        ///< T, GPUs in tensor parallelism
    double linkBandwidthBytesPerSecond = 450e9; ///< per-GPU one-direction link bandwidth (NVLink 4 default)
    double linkLatencySeconds = 5e-6;    ///< per all-reduce latency
    /// GPUs one scale-up domain joins at link_bandwidth (an NVSwitch baseboard, an Infinity Fabric node, a TPU pod);
    /// a tensor- or expert-parallel group, or an instance's pipeline, wider than this crosses nodes and its traffic runs
    /// at inter_node_bandwidth (collectiveBandwidth(), model/cost/costterms.h). 0 = unbounded. Default 8: an 8-GPU
    /// HGX-class node, an example default; the catalogue sets each device's (resources/presets/hardware.json)
    int scaleUpDomainGpus = 8;
    /// per-GPU one-direction bandwidth between scale-up domains, B/s. Default 50e9: one 400 Gb/s InfiniBand / Ethernet
    /// NIC per GPU (as in DGX H100), an example default, not a fact of any one cluster
    double interNodeBandwidthBytesPerSecond = 50e9;
    double boardPowerWatts = 0;          ///< board power (TDP) per device, W; 0 = unknown: the economics then use the
                                         ///< catalogue's datasheet TDP of the device named hardware.name, if any
};

/** Most ITL SLO lines a scenario holds (plots, reports and the SLO panel show each one). */
inline constexpr int kMaxItlSloLines = 16;

/**
 * The shape of a workload's prompt or output lengths around their mean, for the serving prediction (`--predict`, the
 * benchmark calibration): each request's length drawn from it (docs/cost-model.md, "Length distributions").
 */
enum class LengthShape {
    Fixed,    ///< every request at the mean (the behaviour before the keys)
    Uniform,  ///< uniform on [mean - sd sqrt(3), mean + sd sqrt(3)] (standard deviation sd)
    Normal,   ///< N(mean, sd)
    LogNormal ///< log-normal with that mean and standard deviation: sigma^2 = ln(1 + sd^2 / mean^2), mu = ln(mean) - sigma^2 / 2
};

/** What is being served. Token counts are per sequence. */
struct Workload {
    int batch = 1;                       ///< B, sequences decoding together
    int contextTokens = 2048;            ///< S, tokens each sequence holds in the KV cache (0 allowed: weights only)
    int promptTokens = 2048;             ///< P, prompt length for prefill
    int outputTokens = 256;              ///< O, output length
    std::vector<double> itlSloMs{20, 40, 100}; ///< ITL SLO lines, milliseconds (at most kMaxItlSloLines)
    double ttftSloMs = 800;              ///< TTFT SLO, milliseconds
    double queueWaitMs = 0;              ///< queue wait before prefill, milliseconds (added to TTFT)
    /// Length distributions of the serving prediction's requests around a benchmark point's mean ISL / OSL (a point
    /// that lists its requests' own lengths uses those instead). Draws are rounded and clipped to [1, max] (max 0: no
    /// upper clip); the clipping can move the mean. sd in tokens, >= 0 (0: every request at the mean).
    LengthShape inputLengthShape = LengthShape::Fixed;  ///< workload.input_length_distribution
    double inputLengthSd = 0;                           ///< workload.input_length_sd, tokens
    int inputLengthMax = 0;                             ///< workload.input_length_max, tokens (0: none)
    LengthShape outputLengthShape = LengthShape::Fixed; ///< workload.output_length_distribution
    double outputLengthSd = 0;                          ///< workload.output_length_sd, tokens
    int outputLengthMax = 0;                            ///< workload.output_length_max, tokens (0: none)
};

/** How the server holds memory and reuses work (docs/cost-model.md section 3, "Capacity", "Prefix caching"). */
struct Serving {
    double memoryUtilization = 0.90;     ///< fraction of HBM the server may use
    double activationReserveBytes = 0;   ///< HBM kept back for activations and workspace, per GPU
    int maxContextTokens = 131072;       ///< advertised max context: what contiguous reservation sets aside per sequence
    int blockTokens = 16;                ///< paged-KV block size, tokens
    int prefixTokens = 0;                ///< shared prompt prefix (system prompt) tokens
    double prefixHitRate = 1.0;          ///< fraction of requests whose prefix is found in the cache
    /// tokens one engine step may hold (TensorRT-LLM max_num_tokens, vLLM max_num_batched_tokens) for the serving
    /// prediction (--predict); 0 = not set: the engine option's budget (--token-budget, default 8,192). Calibrated by
    /// the benchmark fit when the engine's value is unknown (docs/cost-model.md)
    int maxNumTokens = 0;
    /// prompts one engine step may give prefill tokens (whole context requests under TensorRT-LLM's in-flight batching,
    /// chunks under chunked prefill) for the serving prediction, besides maxNumTokens; 0 = no limit (the engine option,
    /// BenchmarkOptions::maxPrefillsPerStep). Calibrated by the benchmark fit when its prompts have two or more lengths
    /// (docs/cost-model.md, "Prefills per step")
    int maxPrefillsPerStep = 0;
    /// TensorRT-LLM's dynamic batch tuner for the serving prediction under the trtllm scheduler
    /// (serving.dynamic_batch_tuning, false by default): each step's token budget and batch size from the moving means
    /// of the prompt and output lengths the engine holds, the budget at most maxNumTokens (or the option's); on when
    /// this or BenchmarkOptions::dynamicBatchTuning says so (SimulationConfig::dynamicBatchTuning; docs/cost-model.md,
    /// "TensorRT-LLM's dynamic batch tuner (h13bf)")
    bool dynamicBatchTuning = false;
    /// the engine's scheduler for the serving prediction (serving.scheduler: v1, v0, v0-prompt-first or trtllm, as
    /// --scheduler spells them); not set (the default, "" in files): the engine option's (--scheduler, default V1). Set,
    /// it replaces the option, as maxNumTokens does (docs/cost-model.md, "Serving-step costs")
    std::optional<SchedulerVersion> scheduler;
    /// the API server's output path (serving.api_output_us_per_token, seconds per token here; 0, the default: none):
    /// every token the engine emits passes one FIFO server shared by the whole server (vLLM 0.5.4's OpenAI API server
    /// process: unpickling each RequestOutput, building and serialising its SSE chunk) before the client sees it, and
    /// that server accepts requests first (efficiency.frontend_serial_ms): a token waits for the acceptance of every
    /// request sent before it. The engine's steps do not wait; TTFT, ITL, TPOT, E2E and a closed-loop client's next send
    /// count from the delivery (docs/cost-model.md, "The API server's output path"; h13al)
    double apiOutputSeconds = 0;
};

/** Speculative decoding (docs/cost-model.md section 3; seed 001). */
struct Speculative {
    double acceptance = 0.7;   ///< alpha, probability each drafted token is accepted, in [0, 1)
    int draftTokens = 4;       ///< k, tokens drafted per step
    double draftCost = 0.05;   ///< c_d, draft cost per drafted token, fraction of one target step
    double verifyCost = 0.0;   ///< c_v, marginal verification cost per drafted position, fraction of one target step
};

/** Achieved / peak fractions, each in (0, 1]. The floor uses 1 for all. */
struct Efficiency {
    double bandwidth = 1.0;   ///< eta_bw
    double mfuPrefill = 1.0;  ///< MFU during prefill (seeds' planning convention 0.40)
    double mfuDecode = 1.0;   ///< MFU during decode
    double stepOverheadSeconds = 0;    ///< fixed time added to every decode step (launches, scheduling); 0 at the floor
    double prefillOverheadSeconds = 0; ///< fixed time added to every prefill; 0 at the floor
    double chunkOverheadSeconds = 0;   ///< time added per prefill chunk in a serving step (simulator; docs/cost-model.md); 0 at the floor
    /// time added per decoding sequence per step (sampling, scheduling, per-sequence attention work; docs/cost-model.md); 0 at the floor
    double perSequenceOverheadSeconds = 0;
    /// eta_kv, achieved / peak bandwidth of the KV-cache read and write; 0 = the same as eta_bw (docs/cost-model.md)
    double kvBandwidth = 0;
    /// eta_kv1, achieved / peak bandwidth of one decoding sequence's KV read by itself: a lone sequence's decode
    /// attention splits its cache over only so many thread blocks (KV heads x splits), so it does not fill the GPU,
    /// and a step's KV read takes at least the longest sequence's cache at BW * eta_kv1 (docs/cost-model.md,
    /// "Serving-step costs"); 0 = unset, no such limit (the read at BW * eta_kv only)
    double kvBandwidthOneSequence = 0;
    /// MFU of prefill attention (the Q K^T and scores x V matmuls, at the attention dtype's peak) apart from the prefill
    /// GEMMs: attention kernels reach a smaller share of the peak than the weight GEMMs (docs/cost-model.md,
    /// "Serving-step costs"); 0 = unset, the same as mfuPrefill (the attention FLOP at MFU_prefill, as before)
    double mfuPrefillAttention = 0;
    /// time added to each request's first token outside the engine's steps (HTTP, tokenization, detokenizing and
    /// streaming the first token): the serving prediction's engine sees a request this long after it was sent
    /// (simulator; docs/cost-model.md); 0 at the floor
    double ttftOverheadSeconds = 0;
    /// the first token's way back to the client (efficiency.first_token_return_ms; h13aq): detokenising the first token
    /// and starting its stream, after the engine's step that emitted it. The client sees the first token this long after
    /// the engine emits it, whatever the load; later tokens come in order behind it (each at the later of its own
    /// delivery and the token before it), so they are not delayed by it once the stream has caught up, and a closed-loop
    /// client's next send (after its last token) moves only for a one-token request (simulator; docs/cost-model.md,
    /// "Serving-step costs"); 0 at the floor
    double firstTokenReturnSeconds = 0;
    /// time each request holds the server's front end by itself before the engine sees it: the part of the request's
    /// handling (HTTP parsing, tokenization, queueing into the engine) done one request at a time, e.g. on a single
    /// CPU thread or event loop ("TTFT is queue wait plus the CPU front end plus prefill", source document 002; "tokenizer
    /// on a single CPU thread", 001). Requests sent together pass it one after another, so the engine sees them spread
    /// this far apart (simulator; docs/cost-model.md, "The serial front end"); 0 at the floor (no such limit)
    double frontendSerialSeconds = 0;
    /// the server front end's time per delivered output token, used as an admission gate (issue 13, h13z): every token
    /// the engine emits adds this much work to one front end (detokenising and streaming through one CPU thread), and a
    /// queued request is admitted into the engine only at a step that starts with that backlog drained, so delivered
    /// tokens stay at or below 1 / tokenGateSeconds per second and clients past that ceiling wait before their first
    /// token, not between tokens (simulator; docs/cost-model.md, "An admission gate on the delivered token rate");
    /// 0 = no such limit. Set only by the benchmark calibration (BenchmarkFitOptions::fitTokenGate), no scenario key.
    double tokenGateSeconds = 0;
    /** eta_kv as used: kvBandwidth, or eta_bw when it is 0 (unset). */
    double kvBandwidthOrDefault() const { return kvBandwidth > 0 ? kvBandwidth : bandwidth; }
    /** Prefill attention MFU as used: mfuPrefillAttention, or mfuPrefill when it is 0 (unset). */
    double mfuPrefillAttentionOrDefault() const { return mfuPrefillAttention > 0 ? mfuPrefillAttention : mfuPrefill; }
};

/**
 * What running the hardware costs (docs/cost-model.md section 5, "Economics"): the inputs of the $ / 1M tokens,
 * J / token and tokens/s per MW figures at the scenario's operating point (model/analysis/operatingeconomics.h).
 */
struct Economics {
    /// price per GPU-hour in @c currency; 0 = not given: the example price of the catalogue device named
    /// hardware.name (resources/plans/gpu-prices-example.json, USD only), labelled "example"
    double pricePerGpuHour = 0;
    double pue = 1.2;               ///< power usage effectiveness, facility / IT power, >= 1 (an assumption; the plan's kDefaultPue)
    std::string currency = "USD";   ///< label of the prices; example prices apply only when it is "USD" (the example file's)
};

/** Every input of the cost model. Plain value type: copy freely. */
struct Scenario {
    ModelShape model;
    Hardware hardware;
    Workload workload;
    Efficiency efficiency;
    Serving serving;
    Speculative speculative;
    Economics economics;
};

/** One problem with a scenario: the dotted key (as in `--set`), the offending value and why. */
struct ScenarioError {
    std::string key;      ///< e.g. "hardware.bandwidth"
    std::string value;    ///< the value as text, e.g. "0" or "nan"
    std::string message;  ///< full sentence naming key and value, ready to show
};

/**
 * Checks @p scenario: every number finite, positive where it must be (bandwidth, FLOP/s, sizes,
 * batch), efficiencies in (0, 1], context and prompt non-negative, and consistent
 * (H a multiple of H_kv, N_active <= N, hidden a multiple of heads when head_dim is not given).
 * Returns every problem found; empty means valid. evaluate() requires a valid scenario.
 */
std::vector<ScenarioError> validate(const Scenario& scenario);

/** The starting point: Llama 3.1 8B bf16 on H100 SXM, batch 1, context 2,048, prompt 2,048,
 *  ITL SLOs 20/40/100 ms, efficiencies 1.0 (the floor). */
Scenario defaultScenario();

} // namespace ridgeline::model
