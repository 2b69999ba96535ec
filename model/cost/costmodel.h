// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <vector>

#include <Eigen/Core>

#include "model/cost/scenario.h"

namespace ridgeline::model {

/** Which resource sets a step's time. */
enum class Bound { Memory, Compute };

/** Which limit sets the largest batch a scenario can serve under an ITL SLO. */
enum class BatchLimit {
    Slo,    ///< the step time: t_step(B) <= SLO stops first (or t_step(1) > SLO)
    Memory, ///< the KV budget: the cache of more sequences at S does not fit (or the weights do not)
};

/**
 * Largest batch meeting one ITL SLO (docs/cost-model.md section 3), and what memory allows.
 * The answer to show is servableBatch: the smaller of the SLO batch and the batch whose KV cache fits.
 */
struct SloBatch {
    double sloMs = 0;                ///< the ITL SLO line, milliseconds
    std::optional<long long> batch;  ///< SLO alone: largest B with t_step(B) <= SLO; nullopt when t_step(1) > SLO
                                     ///< (ignores memory; report key "batch")
    long long fittingBatch = 0;      ///< largest B whose KV cache at S fits the budget, = capacity.maxSequencesContiguous
                                     ///< (0 when the weights do not fit or not one sequence does)
    std::optional<long long> servableBatch; ///< min(batch, fittingBatch); nullopt when either allows no batch
    BatchLimit limit = BatchLimit::Slo;     ///< which of the two binds: Slo when t_step(1) > SLO (no memory helps),
                                            ///< else Memory when fittingBatch < batch or is 0
};

/**
 * Decode step of B sequences each holding S tokens. Seconds, bytes, FLOP.
 * Bytes, FLOP and times are per GPU: with tensor parallelism over T GPUs each GPU reads its share
 * (T = 1: the whole model).
 */
struct DecodeResult {
    double weightBytes = 0;           ///< weights read per step per GPU: W / T (MoE: shared + touched experts)
    double residentWeightBytes = 0;   ///< all weights held in HBM, all GPUs together: N * b_w
    double kvBytesPerToken = 0;       ///< kv_tok = 2 * L * H_kv * h * b_kv (MLA: L * (r + d_r) * b_kv), every layer
                                      ///< holding the token, all GPUs together
    double kvBytesPerTokenPerGpu = 0; ///< the same per GPU: whole KV heads, ceil(H_kv / T) each; MLA latent replicated
    double kvBytesPerSequence = 0;    ///< cache one sequence of S tokens holds per GPU (sliding layers hold min(S, window))
    double expertsTouched = 0;        ///< MoE: expected distinct experts per layer for B tokens, E (1 - (1 - k/E)^B)
    double commSeconds = 0;           ///< tensor-parallel all-reduces per step (0 at T = 1)
    double kvBytes = 0;               ///< B * S * kv_tok, the cache read per step
    double readBytes = 0;             ///< R = W + B * S * kv_tok
    double flop = 0;                  ///< F_dec = 2 * N_active * B + 4 * L * B * S * d_attn
    double memorySeconds = 0;         ///< t_mem = R / (BW * eta_bw)
    double computeSeconds = 0;        ///< t_comp = F_dec / (F_peak * MFU_decode)
    double stepSeconds = 0;           ///< t_step = max(t_mem, t_comp) + t_comm
    Bound bound = Bound::Memory;      ///< which of the two is larger
    double floorSecondsBatch1 = 0;    ///< W(B = 1) / T / BW, the batch-1 decode floor at peak bandwidth
    double totalWeightFloorSeconds = 0; ///< N * b_w / T / BW: the floor once every expert is read (= floor when dense)
    double kvShare = 0;               ///< B*S*kv_tok / R, in [0, 1]
    double tokensPerSecondPerUser = 0; ///< 1 / t_step
    double tokensPerSecondTotal = 0;  ///< B / t_step
    double intensityFlopPerByte = 0;  ///< I_dec = F_dec / R
    double interceptSeconds = 0;      ///< a = W / (BW * eta_bw) (+ link latency), memory-bound t_step(B) = a + b*B
                                      ///< (MoE: W at B = 1; the curve bends up as more experts are read)
    double slopeSecondsPerSequence = 0; ///< b = S * kv_tok / (BW * eta_bw) (+ all-reduce bytes per sequence)
    std::vector<SloBatch> maxBatchForItlSlo; ///< one per workload.itlSloMs entry, same order
};

/** Roofline of the accelerator and where decode and prefill sit on it. */
struct RooflineResult {
    DType computeDtype = DType::BF16;       ///< dtype the matmuls run in (fp8 weights: fp8; int8: int8; else bf16)
    bool computePeakFallback = false;       ///< the device has no peak for computeDtype: F_peak is the bf16 peak
    double peakFlopsPerSecond = 0;          ///< F_peak for computeDtype (per GPU)
    double ridgeFlopPerByte = 0;            ///< I* = F_peak / BW (peak figures)
    double effectiveRidgeFlopPerByte = 0;   ///< (F_peak * MFU_decode) / (BW * eta_bw)
    std::optional<double> computeBoundBatch; ///< real B where t_comp(B) = t_mem(B); nullopt when the
                                             ///< cache read grows as fast as the FLOPs (never crosses)
    double decodeIntensityFlopPerByte = 0;  ///< I_dec at (B, S)
    double decodeAchievedFlopsPerSecond = 0; ///< F_dec / t_step
    double prefillIntensityFlopPerByte = 0; ///< F_pre / (W + P * kv_tok)
    double prefillAchievedFlopsPerSecond = 0; ///< F_pre / t_pre
};

/** Prefill of P prompt tokens (the seeds' convention: full P x P score matrix). */
struct PrefillResult {
    double linearFlop = 0;         ///< 2 * N_active * P
    double attentionFlop = 0;      ///< 4 * L * P^2 * d_attn
    double flop = 0;               ///< F_pre = linear + attention
    double computeSeconds = 0;     ///< F_pre / (F_peak * MFU_prefill)
    double memorySeconds = 0;      ///< (W + P * kv_tok) / (BW * eta_bw)
    double seconds = 0;            ///< t_pre = max(compute, memory)
    Bound bound = Bound::Compute;
    double crossoverTokens = 0;    ///< P* = N_active / (2 * L * d_attn): quadratic term = linear term
                                   ///< (causal: twice that; sliding layers stop growing past the window)
    bool crossoverExists = true;   ///< false when every layer slides and attention never catches up (then P* = 0)
    double commSeconds = 0;        ///< tensor-parallel all-reduces of P x d activations
    double computeBoundTokens = 0; ///< P where compute time = memory time (positive root)
    bool computeBoundExists = true; ///< false when prefill stays memory-bound up to 1e12 tokens (then computeBoundTokens = 0)
    double attentionShare = 0;     ///< attention / (linear + attention) = P / (P + P*) for global full attention
    double kvWrittenBytes = 0;     ///< P * kv_tok
    double scoreMatrixElements = 0; ///< P^2 per head per layer
    double scoreMatrixBytesPerHead = 0; ///< P^2 * 2 B: one head's bf16 score matrix if it were materialised
                                        ///< (eager attention does; FlashAttention never holds it, docs/cost-model.md)
    double logitsBytesAllPositions = 0; ///< P * V * 4 B: fp32 full-vocabulary logits for every prompt position
                                        ///< (only when prompt logprobs are asked; else the last position's only)
};

/** Memory capacity per GPU (docs/cost-model.md section 3, "Capacity"). */
struct CapacityResult {
    double utilization = 0.90;            ///< serving.memory_utilization, fraction of HBM usable
    double kvBudgetBytes = 0;             ///< memory * utilization - N * b_w / T - activation reserve
                                          ///< (negative: the weights do not fit)
    bool weightsFit = true;               ///< kvBudgetBytes >= 0: the weights (and reserve) fit the usable HBM
    double kvNeededBytes = 0;             ///< B * (cache of one sequence at S) per GPU
    bool fits = false;                    ///< kvBudgetBytes >= kvNeededBytes and >= 0
    long long maxSequencesContiguous = 0; ///< floor(budget / (S * kv_tok)): sequences that fit holding S tokens
                                          ///< (the largest batch whose cache fits at the current S)
    long long maxSequencesContiguousAtMaxContext = 0; ///< floor(budget / (S_max * kv_tok)): reserving the advertised max
    long long maxSequencesPaged = 0;      ///< floor(budget / (ceil(S / block) * block * kv_tok)): paged, by tokens held
    std::optional<long long> maxContextAtBatch; ///< largest S whose cache fits at the current B; nullopt: unbounded
                                                ///< (every layer slides) ; 0 when not even S = 0 fits
    double requestKvBytes = 0;            ///< KV one request of P prompt tokens writes (all GPUs), = prefill.kvWrittenBytes
};

/**
 * SLO headroom (issue 4): each ITL SLO against t_step at the current batch and against the batch-1
 * floor, and TTFT = queue wait + prefill.
 */
struct SloResult {
    std::vector<double> itlHeadroom; ///< SLO / batch-1 decode floor, same order as workload.itlSloMs
                                     ///< (below 1: no batch can meet it; not whether the current batch does)
    std::vector<double> itlHeadroomAtBatch; ///< SLO / t_step(B) at the current batch (below 1: missed now)
    double ttftMs = 0;               ///< queue wait + t_pre(P), milliseconds
    double ttftHeadroom = 0;         ///< TTFT SLO / ttftMs (> 1: room to spare)
    bool ttftMet = false;
};

/** GPU time one request costs in each phase at the current batch (issue 4, "Workload shape"). */
struct WorkloadResult {
    double prefillSecondsPerRequest = 0; ///< t_pre(P): prefill holds the whole GPU
    double decodeSecondsPerRequest = 0;  ///< O * t_step(B, S = P + O/2) / B: the request's share of each step
    double prefillShare = 0;             ///< prefill / (prefill + decode)
    double decodeContextTokens = 0;      ///< P + O/2, the mean context while decoding
    double gpuSecondsPerOutputToken = 0; ///< (prefill + decode) / O
};

/** Prefix caching (seed 001, section 3.5). */
struct PrefixCacheResult {
    double sharedTokens = 0;             ///< min(prefix tokens, P)
    double prefillSecondsPerToken = 0;   ///< t_pre(P) / P at the current prompt
    double savedSecondsPerRequest = 0;   ///< hit rate * (t_pre(P) - t_pre of the uncached suffix)
    double savedFlopPerRequest = 0;      ///< hit rate * (F_pre(P) - F of the suffix attending to all P)
    double costPerOutputTokenChange = 0; ///< relative change of GPU seconds per output token (negative: cheaper)
};

/** Speculative decoding at the scenario's inputs, plus the verification cost the cost model implies. */
struct SpeculativeEvaluation {
    double expectedTokensPerStep = 0;
    double speedup = 0;
    double discardedFraction = 0;
    double breakEvenVerifyCost = 0;      ///< c_v where the speedup falls to 1 (negative: never a win)
    double modelVerifyCost = 0;          ///< c_v the cost model implies at (B, S): verifying k more positions per
                                         ///< sequence multiplies the FLOP by k + 1 and reads nothing new
};

/**
 * The curves the plots draw, on fixed grids (the grids never change, so views overwrite values
 * in place). Milliseconds and tokens/s where named, FLOP and FLOP/s otherwise.
 */
struct Sweeps {
    // Over batch B: kBatchPoints log-spaced points from 1 to kBatchMax (real-valued B).
    Eigen::ArrayXd batch;
    Eigen::ArrayXd stepMs, memoryMs, computeMs, tokensPerSecondTotal, tokensPerSecondPerUser;
    Eigen::ArrayXd weightFloorMs; ///< weights read / T / BW: flat when dense, rising with B for MoE
    Eigen::ArrayXd commMs;        ///< t_comm(B), ms: the step's tensor-parallel all-reduces (CostTerms::step); 0 at T = 1
    // Over context S at the current batch: log-spaced from kContextMin to kContextMax tokens.
    Eigen::ArrayXd context;
    Eigen::ArrayXd kvShare;
    // Over prompt length P: log-spaced from kPromptMin to kPromptMax tokens.
    Eigen::ArrayXd prompt;
    Eigen::ArrayXd prefillLinearFlop, prefillAttentionFlop, prefillFlop, prefillMs;
    // Capacity over advertised max context (log-spaced kCapacityMin..kContextMax): sequences that fit.
    Eigen::ArrayXd maxContext;
    Eigen::ArrayXd sequencesContiguous, sequencesPaged;
    // Over the context grid: the largest batch whose cache fits (0 where none).
    Eigen::ArrayXd maxBatchFitting;
    // Speculative speedup over verification cost c_v in [0, 1] (linear grid).
    Eigen::ArrayXd verifyCost, speculativeSpeedup;
    // Roofline: log-spaced arithmetic intensity (FLOP/byte) and attainable FLOP/s = min(F_peak, I * BW).
    Eigen::ArrayXd intensity;
    Eigen::ArrayXd attainableFlopsPerSecond, attainableDeratedFlopsPerSecond;

    static constexpr int kBatchPoints = 241;
    static constexpr double kBatchMax = 4096;
    static constexpr int kContextPoints = 201;
    static constexpr double kContextMin = 128, kContextMax = 1048576;
    static constexpr int kPromptPoints = 201;
    static constexpr double kPromptMin = 16, kPromptMax = 1048576;
    static constexpr int kCapacityPoints = 161;
    static constexpr double kCapacityMin = 2048;
    static constexpr int kVerifyPoints = 101;
    static constexpr int kIntensityPoints = 161;
    static constexpr double kIntensityMin = 0.1, kIntensityMax = 1e5;
};

/** Everything derived from one Scenario (docs/cost-model.md section 3). */
struct Evaluation {
    DecodeResult decode;
    RooflineResult roofline;
    PrefillResult prefill;
    CapacityResult capacity;
    SloResult slo;
    WorkloadResult workload;
    PrefixCacheResult prefixCache;
    SpeculativeEvaluation speculative;
    Sweeps sweeps;
};

/**
 * Evaluates @p scenario into @p out, reusing out's storage (no allocation after the first call
 * except the SLO list). Precondition: validate(scenario) is empty; results are then finite.
 * Source: docs/cost-model.md section 3; seeds 000-002.
 */
void evaluate(const Scenario& scenario, Evaluation& out);

/** Convenience: evaluate into a fresh Evaluation. */
Evaluation evaluate(const Scenario& scenario);

/** t_step(B) in seconds for a real-valued batch at the scenario's context. */
double stepSecondsAt(const Scenario& scenario, double batch);

/** KV bytes per token with every attention layer holding it: 2 * L_attn * H_kv * h * b_kv, or L_attn * (r + d_r) * b_kv
 *  for MLA; L_attn = model.attention_layers (default L). */
double kvBytesPerToken(const ModelShape& model);

/** Bytes per parameter of the weights a quantization config leaves at 16 bits (model.unquantized_params). */
inline constexpr double kUnquantizedBytesPerParameter = 2.0;

/** Resident weight bytes, (N - U) * b_w + U * 2 with U = model.unquantized_params (int4 with its group scales;
 *  U = 0 gives the N * b_w convention). */
double weightBytes(const ModelShape& model);

/** MoE: expected distinct experts per layer that @p tokens uniformly routed tokens touch, E (1 - (1 - k/E)^tokens). */
double expectedExpertsTouched(const ModelShape& model, double tokens);

/** The dtype the matmuls run in for @p weights: fp8 -> fp8, int8 -> int8 (W8A8), nvfp4 / mxfp4 -> themselves (the
 *  fp4 peak), others bf16 (int4 is W4A16; q8_0 and q4_0 are dequantized into 16-bit matmuls). */
DType matmulDtype(DType weights);

/**
 * The hardware field holding the peak the matmuls of @p weights run at: peakFlopsFp8 for fp8 weights
 * and peakOpsInt8 for int8 weights when the device has that peak (> 0), else peakFlopsPerSecond
 * (bf16; also the fallback). FLOP/s (OP/s for int8), per GPU. What costTerms() uses as F_peak; the
 * "peak" slider and the hardware.compute_peak key write through it.
 */
double& matmulPeakField(Hardware& hardware, DType weights);
/** The value of matmulPeakField(): F_peak for @p weights, per GPU. */
double matmulPeak(const Hardware& hardware, DType weights);
/** The dtype whose peak matmulPeakField() holds: matmulDtype(weights), or bf16 on a fallback. */
DType matmulPeakDtype(const Hardware& hardware, DType weights);

/**
 * The term a decode step's or a prefill's time is mostly spent on: compute, memory or the tensor-parallel
 * communication (largestTimeTerm()). Unlike Bound (t_comp against t_mem alone, kept for the JSON key "bound"), it
 * counts t_comm, which dominates a wide TP group across nodes (issue 14 trial: prefill at TP16 across nodes was
 * called "compute-bound" while most of its time was the all-reduces).
 */
enum class TimeTerm { Compute, Memory, Communication };

/**
 * The largest of @p computeSeconds, @p memorySeconds and @p commSeconds: Communication when t_comm exceeds both,
 * else Compute when t_comp > t_mem (@p computeOnTie: or equal), else Memory. The one rule the text report (and its
 * JSON key "largest_term") and the numbers panel label a step or a prefill by.
 */
TimeTerm largestTimeTerm(double computeSeconds, double memorySeconds, double commSeconds, bool computeOnTie = false);
/** largestTimeTerm() of a decode step at (B, S): t_comp, t_mem, t_comm (ties of t_comp and t_mem: memory, as Bound). */
TimeTerm largestTimeTerm(const DecodeResult& decode);
/** largestTimeTerm() of a prefill of P tokens (ties of t_comp and t_mem: compute, as Bound). */
TimeTerm largestTimeTerm(const PrefillResult& prefill);
/** "compute", "memory" or "communication" (the JSON value; "-bound" appended in the text). */
const char* timeTermName(TimeTerm term);

} // namespace ridgeline::model
