// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include "model/cost/scenario.h"

namespace ridgeline::document {

/**
 * The cost model at one point, for the plots' cursor read-outs and the curves a view draws from a scenario
 * it holds (baseline A, calibrated scenarios). Views ask here instead of building the cost terms
 * (model/cost/costterms.h) or the step time (model/cost/steptime.h) themselves (scripts/check-layers.sh).
 * Each function builds the cost terms once per call; all are pure. Formulas: docs/cost-model.md.
 */

/** The decode floor at batch B and context S (docs/cost-model.md, decode step time). Seconds. */
struct DecodeAt {
    double stepSeconds = 0;        ///< t_step(B), as model::stepSecondsAt (with the fixed overheads)
    double memorySeconds = 0;      ///< t_mem: weights and KV read at the effective bandwidth
    double computeSeconds = 0;     ///< t_comp: the step's FLOP at the decode MFU
    double weightFloorSeconds = 0; ///< the weights read at the raw bandwidth alone (no KV, no efficiency)
};
DecodeAt decodeAt(const model::Scenario& scenario, double batch, double contextTokens);

/** The roofline at arithmetic intensity I (FLOP/byte): min(F_peak, I * BW) and min(F_peak * MFU, I * BW * eta_bw). */
struct RoofAt {
    double roofFlopsPerSecond = 0;
    double deratedFlopsPerSecond = 0;
};
RoofAt roofAt(const model::Scenario& scenario, double intensityFlopPerByte);

/** The KV cache's share of the bytes one decode step reads, per GPU, at batch B and context S. */
struct KvShareAt {
    double kvBytes = 0; ///< B * KV bytes per layer-token per GPU * layer-tokens(S)
    double share = 0;   ///< kvBytes / (weights read + kvBytes), 0-1
};
KvShareAt kvShareAt(const model::Scenario& scenario, double batch, double contextTokens);

/** Prefill FLOP of a P-token prompt, per GPU: the linear layers and the attention (docs/cost-model.md, prefill). */
struct PrefillFlopAt {
    double linearFlop = 0;
    double attentionFlop = 0;
};
PrefillFlopAt prefillFlopAt(const model::Scenario& scenario, double promptTokens);

/** The link a tensor-parallel group of hardware.gpus GPUs runs its all-reduce over (docs/cost-model.md section 3,
 *  "Tensor parallelism"): per-GPU bytes/s as model::collectiveBandwidth() prices it, and whether the group is wider than
 *  hardware.scale_up_domain (then the all-reduce crosses nodes, at min(link, inter_node_bandwidth)). */
struct TensorParallelLink {
    double bandwidthBytesPerSecond = 0;
    bool acrossNodes = false;
    int scaleUpDomainGpus = 0; ///< hardware.scale_up_domain (0 = unbounded)
};
TensorParallelLink tensorParallelLink(const model::Scenario& scenario);

/** Which latency a calibration curve draws. */
enum class LatencyKind {
    Itl, ///< one decode step at batch x and context S (ms)
    Ttft ///< the prefill of an x-token prompt alone (ms), as the simulator prices it
};

/** The model's latency in ms at each x of @p xs (batch for ITL, prompt tokens for TTFT), context S = @p contextTokens
 *  (ITL only). Same size as @p xs. */
std::vector<double> latencyMs(const model::Scenario& scenario, LatencyKind kind, const std::vector<double>& xs,
                              double contextTokens);

/** latencyMs() at one x. */
double latencyMs(const model::Scenario& scenario, LatencyKind kind, double x, double contextTokens);

} // namespace ridgeline::document
