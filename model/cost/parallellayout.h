// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace ridgeline::model {

struct ModelShape;

/**
 * How one serving instance (one replica) splits the model. The instance has pp * max(tp, ep) GPUs:
 * pp pipeline stages of L / pp layers; in each stage, attention and the dense layers split over tp GPUs,
 * routed experts split over ep GPUs (experts whole, E / ep per GPU; a slice of each when ep < tp). When
 * ep > tp the stage runs ep / tp attention groups side by side (data-parallel attention, each holding its
 * own sequences) around one expert-parallel group. Replicas (data parallel) are counted by the plan
 * (model/analysis/plan.h); the step time of an instance is StepCost's (model/cost/steptime.h), which the
 * analytic plan and the serving simulator share (docs/cost-model.md section 5).
 */
struct ParallelLayout {
    int tp = 1;           ///< tensor-parallel GPUs (attention heads split over them)
    int pp = 1;           ///< pipeline stages (layers split over them)
    int ep = 1;           ///< expert-parallel GPUs (routed experts split over them); 1 for dense models
    int microbatches = 0; ///< decode microbatches in flight through the pipeline; 0: min(pp, batch)

    int stageWidth() const { return tp > ep ? tp : ep; }                  ///< w = max(tp, ep), GPUs per stage
    int gpus() const { return pp * stageWidth(); }                         ///< GPUs per instance, pp * w
    int attentionGroups() const { return stageWidth() / (tp > 0 ? tp : 1); } ///< w / tp
};

/**
 * Why @p layout cannot run @p model: empty when it can. Names the count that does not divide (TP and the
 * attention or KV heads, PP and the layers, EP and the routed experts; EP on a dense model). Used by the plan's
 * search (model/analysis/plan.h) and by the simulator's check of a simulation file's layout.
 */
std::string layoutRefusal(const ModelShape& model, const ParallelLayout& layout);

} // namespace ridgeline::model
