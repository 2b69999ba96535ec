// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/family.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ridgeline::model {

namespace {

struct Member {
    double params;
    int layers;
    int hidden;
};

// Llama 3 family, from the publishers' config.json files (parameter counts computed from them):
// Llama 3.2 1B and 3B, Llama 3.1 8B, 70B, 405B.
constexpr std::array<Member, 5> kLlama3 = {{
    {1235814400.0, 16, 2048},
    {3212749824.0, 28, 3072},
    {8030261248.0, 32, 4096},
    {70553706496.0, 80, 8192},
    {405853388800.0, 126, 16384},
}};

constexpr int kHeadDim = 128;

} // namespace

FamilyShape denseFamilyShape(double params)
{
    const double x = std::log(std::max(params, 1.0));
    // Segment: the pair of members bracketing x, or the end segment for extrapolation.
    size_t i = 0;
    while (i + 2 < kLlama3.size() && x > std::log(kLlama3[i + 1].params))
        ++i;
    const Member& a = kLlama3[i];
    const Member& b = kLlama3[i + 1];
    const double t = (x - std::log(a.params)) / (std::log(b.params) - std::log(a.params));
    const double logL = std::log(double(a.layers)) + t * (std::log(double(b.layers)) - std::log(double(a.layers)));
    const double logD = std::log(double(a.hidden)) + t * (std::log(double(b.hidden)) - std::log(double(a.hidden)));
    const int layers = std::max(1, int(std::lround(std::exp(logL))));
    const int hidden = std::max(kHeadDim, int(std::lround(std::exp(logD) / kHeadDim)) * kHeadDim);
    return {layers, hidden};
}

ModelShape applyDenseFamily(ModelShape model, double params)
{
    const FamilyShape shape = denseFamilyShape(params);
    model.params = params;
    model.activeParams.reset();
    model.layers = shape.layers;
    model.hidden = shape.hidden;
    model.heads = shape.hidden / kHeadDim;
    model.headDim = kHeadDim;
    int kv = std::clamp(model.kvHeads, 1, model.heads);
    while (model.heads % kv != 0)
        --kv;
    model.kvHeads = kv;
    return model;
}

ModelShape denseFamilyMember(const ModelShape& anchor, double params)
{
    ModelShape next = applyDenseFamily(anchor, params);
    next.experts = 0;
    next.expertsPerToken = 0;
    next.expertParams = 0;
    next.kvLoraRank = 0;
    next.ropeHeadDim = 0;
    next.slidingWindow = 0;
    next.slidingLayers = 0;
    return next;
}

void setMoeExperts(ModelShape& m, int experts, int perToken, double expertParams)
{
    const double sharedTotal = m.params - double(m.experts) * m.expertParams;
    const double sharedActive = m.activeParamsOrTotal() - double(m.expertsPerToken) * m.expertParams;
    if (experts <= 0) {
        experts = 0;
        perToken = 0;
        expertParams = 0;
    } else if (m.experts <= 0 && perToken <= 0) {
        perToken = std::min(2, experts); // a starting k; the expert size still has to be entered
    }
    m.experts = experts;
    m.expertsPerToken = perToken;
    m.expertParams = expertParams;
    m.params = sharedTotal + double(experts) * expertParams;
    if (m.activeParams)
        m.activeParams = sharedActive + double(perToken) * expertParams;
}

} // namespace ridgeline::model
