// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/readouts.h"

#include <algorithm>

#include "model/cost/costmodel.h"
#include "model/cost/costterms.h"
#include "model/cost/steptime.h"

namespace ridgeline::document {

DecodeAt decodeAt(const model::Scenario& scenario, double batch, double contextTokens)
{
    const model::CostTerms t = model::costTerms(scenario);
    DecodeAt at;
    at.stepSeconds = model::stepSecondsAt(scenario, batch);
    at.memorySeconds = t.decodeMemorySeconds(batch, contextTokens);
    at.computeSeconds = t.decodeComputeSeconds(batch, contextTokens);
    at.weightFloorSeconds = t.weightReadBytes(batch) / t.bandwidth;
    return at;
}

RoofAt roofAt(const model::Scenario& scenario, double intensityFlopPerByte)
{
    const model::CostTerms t = model::costTerms(scenario);
    return {std::min(t.peakFlops, intensityFlopPerByte * t.bandwidth),
            std::min(t.decodeFlops, intensityFlopPerByte * t.effectiveBandwidth)};
}

KvShareAt kvShareAt(const model::Scenario& scenario, double batch, double contextTokens)
{
    const model::CostTerms t = model::costTerms(scenario);
    KvShareAt at;
    at.kvBytes = batch * t.kvPerLayerTokenPerGpu * t.layerTokens(contextTokens);
    at.share = at.kvBytes / (t.weightReadBytes(batch) + at.kvBytes);
    return at;
}

PrefillFlopAt prefillFlopAt(const model::Scenario& scenario, double promptTokens)
{
    const model::CostTerms t = model::costTerms(scenario);
    return {t.prefillLinearFlop(promptTokens), t.prefillAttentionFlop(promptTokens)};
}

std::vector<double> latencyMs(const model::Scenario& scenario, LatencyKind kind, const std::vector<double>& xs,
                              double contextTokens)
{
    std::vector<double> out;
    out.reserve(xs.size());
    if (kind == LatencyKind::Itl) {
        const model::CostTerms terms = model::costTerms(scenario);
        for (double x : xs)
            out.push_back(terms.stepSeconds(x, contextTokens) * 1e3);
        return out;
    }
    const model::StepCost cost(scenario);
    for (double x : xs) {
        model::StepTotals totals;
        cost.addPrefill(totals, 0.0, x);
        out.push_back(cost.seconds(totals) * 1e3);
    }
    return out;
}

double latencyMs(const model::Scenario& scenario, LatencyKind kind, double x, double contextTokens)
{
    return latencyMs(scenario, kind, std::vector<double>{x}, contextTokens).front();
}

TensorParallelLink tensorParallelLink(const model::Scenario& scenario)
{
    const model::Hardware& hw = scenario.hardware;
    TensorParallelLink link;
    link.bandwidthBytesPerSecond = model::collectiveBandwidth(hw, hw.gpus);
    link.scaleUpDomainGpus = hw.scaleUpDomainGpus;
    link.acrossNodes = model::crossesScaleUpDomain(hw, hw.gpus);
    return link;
}

} // namespace ridgeline::document
