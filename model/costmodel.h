// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <vector>

#include <Eigen/Core>

#include "model/scenario.h"

namespace ridgeline::model {

/** Which resource sets a step's time. */
enum class Bound { Memory, Compute };

/** Largest batch meeting one ITL SLO (design/cost-model.md section 3). */
struct SloBatch {
    double sloMs = 0;                ///< the ITL SLO line, milliseconds
    std::optional<long long> batch;  ///< largest B with t_step(B) <= SLO; nullopt when t_step(1) > SLO
};

/** Decode step of B sequences each holding S tokens. Seconds, bytes, FLOP. */
struct DecodeResult {
    double weightBytes = 0;           ///< W = N * b_w
    double kvBytesPerToken = 0;       ///< kv_tok = 2 * L * H_kv * h * b_kv
    double kvBytes = 0;               ///< B * S * kv_tok, the cache read per step
    double readBytes = 0;             ///< R = W + B * S * kv_tok
    double flop = 0;                  ///< F_dec = 2 * N_active * B + 4 * L * B * S * d_attn
    double memorySeconds = 0;         ///< t_mem = R / (BW * eta_bw)
    double computeSeconds = 0;        ///< t_comp = F_dec / (F_peak * MFU_decode)
    double stepSeconds = 0;           ///< t_step = max(t_mem, t_comp)
    Bound bound = Bound::Memory;      ///< which of the two is larger
    double floorSecondsBatch1 = 0;    ///< W / BW, the batch-1 decode floor at peak bandwidth
    double kvShare = 0;               ///< B*S*kv_tok / R, in [0, 1]
    double tokensPerSecondPerUser = 0; ///< 1 / t_step
    double tokensPerSecondTotal = 0;  ///< B / t_step
    double intensityFlopPerByte = 0;  ///< I_dec = F_dec / R
    double interceptSeconds = 0;      ///< a = W / (BW * eta_bw), memory-bound t_step(B) = a + b*B
    double slopeSecondsPerSequence = 0; ///< b = S * kv_tok / (BW * eta_bw)
    std::vector<SloBatch> maxBatchForItlSlo; ///< one per workload.itlSloMs entry, same order
};

/** Roofline of the accelerator and where decode and prefill sit on it. */
struct RooflineResult {
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
    double computeBoundTokens = 0; ///< P where compute time = memory time (positive root)
    double attentionShare = 0;     ///< P / (P + P*)
    double kvWrittenBytes = 0;     ///< P * kv_tok
    double scoreMatrixElements = 0; ///< P^2 per head per layer
};

/** Memory capacity on one GPU at the default utilisation 0.90. */
struct CapacityResult {
    double utilization = 0.90;            ///< fraction of HBM usable
    double kvBudgetBytes = 0;             ///< memory * utilization - W (may be negative: weights do not fit)
    double kvNeededBytes = 0;             ///< B * S * kv_tok for the current point
    bool fits = false;                    ///< kvBudgetBytes >= kvNeededBytes and >= 0
    long long maxSequencesContiguous = 0; ///< floor(budget / (S * kv_tok)); 0 when S = 0 is not meaningful
};

/**
 * The curves the plots draw, on fixed grids (the grids never change, so views overwrite values
 * in place). Milliseconds and tokens/s where named, FLOP and FLOP/s otherwise.
 */
struct Sweeps {
    // Over batch B: kBatchPoints log-spaced points from 1 to kBatchMax (real-valued B).
    Eigen::ArrayXd batch;
    Eigen::ArrayXd stepMs, memoryMs, computeMs, tokensPerSecondTotal, tokensPerSecondPerUser;
    // Over context S at the current batch: log-spaced from kContextMin to kContextMax tokens.
    Eigen::ArrayXd context;
    Eigen::ArrayXd kvShare;
    // Over prompt length P: log-spaced from kPromptMin to kPromptMax tokens.
    Eigen::ArrayXd prompt;
    Eigen::ArrayXd prefillLinearFlop, prefillAttentionFlop, prefillFlop, prefillMs;
    // Roofline: log-spaced arithmetic intensity (FLOP/byte) and attainable FLOP/s = min(F_peak, I * BW).
    Eigen::ArrayXd intensity;
    Eigen::ArrayXd attainableFlopsPerSecond, attainableDeratedFlopsPerSecond;

    static constexpr int kBatchPoints = 241;
    static constexpr double kBatchMax = 4096;
    static constexpr int kContextPoints = 201;
    static constexpr double kContextMin = 128, kContextMax = 1048576;
    static constexpr int kPromptPoints = 201;
    static constexpr double kPromptMin = 16, kPromptMax = 1048576;
    static constexpr int kIntensityPoints = 161;
    static constexpr double kIntensityMin = 0.1, kIntensityMax = 1e5;
};

/** Everything derived from one Scenario (design/cost-model.md section 3). */
struct Evaluation {
    DecodeResult decode;
    RooflineResult roofline;
    PrefillResult prefill;
    CapacityResult capacity;
    Sweeps sweeps;
};

/**
 * Evaluates @p scenario into @p out, reusing out's storage (no allocation after the first call
 * except the SLO list). Precondition: validate(scenario) is empty; results are then finite.
 * Source: design/cost-model.md section 3; seeds 000-002.
 */
void evaluate(const Scenario& scenario, Evaluation& out);

/** Convenience: evaluate into a fresh Evaluation. */
Evaluation evaluate(const Scenario& scenario);

/** t_step(B) in seconds for a real-valued batch at the scenario's context (memory/compute max). */
double stepSecondsAt(const Scenario& scenario, double batch);

/** KV bytes per token, 2 * L * H_kv * h * b_kv. */
double kvBytesPerToken(const ModelShape& model);

/** Weight bytes, N * b_w. */
double weightBytes(const ModelShape& model);

} // namespace ridgeline::model
