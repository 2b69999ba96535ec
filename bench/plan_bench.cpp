// SPDX-License-Identifier: GPL-3.0-or-later
// Times the fleet-plan search (model/analysis/plan.h) over the whole hardware catalogue x 1-8 GPUs per instance x every
// valid TP / PP / EP layout x batch caps 1..1024 x colocated and disaggregated serving, for Llama 3.1 70B (bf16)
// and DeepSeek-V3 (fp8 weights, as released) at a stated load. Not a test: run it by hand on a quiet machine.
// Target (issue 14): under 2 s per search with the analytic model and under 60 s with the simulator. Prints the best
// of five runs per model (wall and CPU), the takeaway and the three cheapest plans with the figures a hand cross-check
// needs; then runs the serving simulator's check (simulatePlan()) on every ranked plan, every kind (colocated and
// disaggregated, any TP / PP / EP), and prints its CPU time and how the plans fared at P90.
// Usage: plan_bench [simulate_requests (default 500; 0: no simulator pass)] [top (default: every ranked plan)]
// With top, only the best top plans are simulated, as a plan file's "simulate_top" does (the work budget's case:
// kMaxPlanSimulatedRequests, kMaxPlanSimulatedOutputTokens), and the time per request and per output token is printed.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "model/analysis/plan.h"
#include "model/cost/presets.h"

using namespace ridgeline::model;

namespace {

struct BenchCase {
    const char* modelId;
    DType weights;
    PlanLoad load;
    PlanSlo slo;
};

} // namespace

int main(int argc, char** argv)
{
    const long long simulateRequests = argc > 1 ? std::atoll(argv[1]) : 500;
    const size_t top = argc > 2 ? size_t(std::max(0LL, std::atoll(argv[2]))) : size_t(-1);
    const BenchCase cases[] = {
        {"llama-3.1-70b", DType::BF16, {20, 2048, 256}, {1000, 50}},
        {"deepseek-v3", DType::FP8, {10, 2048, 512}, {2000, 50}},
    };
    for (const BenchCase& c : cases) {
        PlanRequest req;
        req.scenario = defaultScenario();
        for (const ModelPreset& p : modelPresets())
            if (p.id == c.modelId)
                req.scenario.model = p.shape;
        req.scenario.model.weightDtype = c.weights;
        req.scenario.efficiency.bandwidth = 0.8;
        req.scenario.efficiency.mfuPrefill = 0.5;
        req.scenario.efficiency.mfuDecode = 0.5;
        req.load = c.load;
        req.slo = c.slo;
        for (const HardwarePreset& h : hardwarePresets()) {
            PlanDevice d;
            d.id = h.id;
            d.hardware = h.hardware;
            d.economics.pricePerGpuHour = examplePricePerGpuHour(h.id);
            if (h.hardware.boardPowerWatts > 0)
                d.economics.boardPowerWatts = h.hardware.boardPowerWatts;
            req.candidates.devices.push_back(d);
        }
        // All of the defaults: GPU counts 1..8, every layout, batch caps 1..1024, both serving modes.
        double best = 1e30;
        PlanResult result;
        double bestCpu = 1e30;
        for (int run = 0; run < 5; ++run) {
            const auto t0 = std::chrono::steady_clock::now();
            const std::clock_t c0 = std::clock();
            result = searchPlans(req);
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            best = std::min(best, s);
            bestCpu = std::min(bestCpu, double(std::clock() - c0) / CLOCKS_PER_SEC);
        }
        std::printf("%s (%s weights), %g req/s, prompt %g, output %g, SLO ITL %g ms TTFT %g ms; eta_bw 0.8, MFU 0.5:\n",
                    req.scenario.model.name.c_str(), c.weights == DType::FP8 ? "fp8" : "bf16", c.load.requestsPerSecond,
                    c.load.promptTokens, c.load.outputTokens, c.slo.itlMs, c.slo.ttftMs);
        std::printf("  %zu devices, %d operating points, %zu plans meet the SLOs; search %.1f ms wall, %.1f ms CPU (best of 5)\n",
                    req.candidates.devices.size(), result.evaluated, result.plans.size(), best * 1e3, bestCpu * 1e3);
        // The work budget's estimate (checkPlanWork()): an upper bound on the points, and how far inside the bound it is.
        const PlanWork work = estimatePlanWork(req);
        std::printf("  work estimate: %d layouts x %d batch caps x %d modes = %.0f operating points (%.1f %% of the bound %.0f)\n",
                    work.layouts, work.batchCaps, work.modes, work.operatingPoints, 100.0 * work.operatingPoints / kMaxPlanOperatingPoints,
                    kMaxPlanOperatingPoints);
        std::printf("  %s\n", result.takeaway.c_str());
        for (size_t i = 0; i < result.plans.size() && i < 3; ++i) {
            const PlanPoint& p = result.points[size_t(result.plans[i])];
            std::printf("  #%zu %s x%d %s %s batch %d: fleet %d (P %d D %d), weights %.2f GB/GPU, KV budget %.2f GB/GPU, "
                        "max seq %lld, step %.3f ms, prefill %.1f ms, ITL %.2f ms, TTFT %.0f ms, %.1f tok/s/GPU, $%.4f/1M out all-in, "
                        "%.3f J/tok\n",
                        i + 1, req.candidates.devices[size_t(p.device)].id.c_str(), p.gpusPerInstance, layoutText(p.layout).c_str(),
                        p.disaggregated ? "disagg" : "coloc", p.batchCap, p.totalGpus, p.prefillInstances, p.decodeInstances,
                        p.weightBytesPerGpu / 1e9, p.kvBudgetBytesPerGpu / 1e9, p.maxSequences, p.stepSeconds * 1e3,
                        p.prefillSeconds * 1e3, p.itlMs, p.ttftMs, p.outputTokensPerSecondPerGpu,
                        p.cost.costPerMillionOutputTokensAllIn.value_or(-1), p.cost.joulesPerOutputToken.value_or(-1));
        }
        // For a hand cross-check (issue 14): the cheapest plan with PP > 1 and the cheapest disaggregated plan, with
        // the layout's figures and the simulator's.
        for (const char* kind : {"PP > 1", "disaggregated"}) {
            for (int i : result.plans) {
                const PlanPoint& p = result.points[size_t(i)];
                if (std::string(kind) == "PP > 1" ? p.layout.pp <= 1 : !p.disaggregated)
                    continue;
                const double P = c.load.promptTokens, O = c.load.outputTokens;
                const LayoutResult lr = evaluateLayout([&] {
                    Scenario s = req.scenario;
                    s.hardware = req.candidates.devices[size_t(p.device)].hardware;
                    return s;
                }(), p.layout, p.batchCap, P + O / 2, P, P + O);
                std::printf("  cross-check, cheapest %s plan: %s x%d %s %s batch %d (m %d): replicas %d, P %d D %d; weights %.4g B/GPU, "
                            "KV budget %.4g B/GPU, stage %.4f ms, send %.3g B, bubble %.3f, step %.4f ms, prefill %.3f ms, "
                            "KV transfer %.4g B %.4f ms; ITL %.3f ms, TTFT %.2f ms, %.2f tok/s/GPU, $%.4f/1M out all-in\n",
                            kind, req.candidates.devices[size_t(p.device)].id.c_str(), p.gpusPerInstance, layoutText(p.layout).c_str(),
                            p.disaggregated ? "disagg" : "coloc", p.batchCap, lr.microbatches, p.replicas, p.prefillInstances,
                            p.decodeInstances, lr.weightBytesPerGpu, lr.kvBudgetBytesPerGpu, lr.stageSeconds * 1e3,
                            lr.pipelineSendBytesPerStep, lr.pipelineBubble, lr.stepSeconds * 1e3, lr.prefillSeconds * 1e3,
                            lr.kvTransferBytesPerRequest, lr.kvTransferSeconds * 1e3, p.itlMs, p.ttftMs, p.outputTokensPerSecondPerGpu,
                            p.cost.costPerMillionOutputTokensAllIn.value_or(-1));
                const SimulatedCheck sim = simulatePlan(req, p, 2000);
                std::printf("    simulated (2000 requests): TTFT mean %.1f P90 %.1f P99 %.1f ms, TPOT mean %.3f P90 %.3f ms, goodput %.3f, %s\n",
                            sim.ttftMeanMs, sim.ttftP90Ms, sim.ttftP99Ms, sim.tpotMeanMs, sim.tpotP90Ms, sim.goodputFraction,
                            sim.meetsSloAtP90 ? "meets both SLOs at P90" : "misses an SLO at P90");
                break;
            }
        }
        int excluded = 0;
        for (const DeviceSummary& d : result.devices)
            if (d.reason != ExclusionReason::None) {
                ++excluded;
                std::printf("  excluded %s: %s: %s\n", req.candidates.devices[size_t(d.device)].id.c_str(),
                            exclusionText(d.reason).c_str(), d.detail.c_str());
            }
        std::printf("  %d device(s) excluded\n", excluded);
        if (simulateRequests > 0) {
            // The simulator's check of every ranked plan: colocated, pipeline, expert parallel and disaggregated alike.
            const auto t0 = std::chrono::steady_clock::now();
            const std::clock_t c0 = std::clock();
            int simulated = 0, skipped = 0, meets = 0, pipeline = 0, expert = 0, disaggregated = 0;
            for (size_t rank = 0; rank < result.plans.size() && rank < top; ++rank) {
                const PlanPoint& p = result.points[size_t(result.plans[rank])];
                const SimulatedCheck c = simulatePlan(req, p, simulateRequests);
                if (!c.simulated) {
                    ++skipped;
                    std::printf("  not simulated: %s\n", c.skipped.c_str());
                    continue;
                }
                ++simulated;
                meets += c.meetsSloAtP90 ? 1 : 0;
                pipeline += p.layout.pp > 1 ? 1 : 0;
                expert += p.layout.ep > 1 ? 1 : 0;
                disaggregated += p.disaggregated ? 1 : 0;
            }
            const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::printf("  simulator check of %zu of %zu plans, %lld requests each: %d simulated (%d PP > 1, %d EP > 1, %d "
                        "disaggregated), %d skipped, %d meet both SLOs at P90; %.1f s CPU, %.1f s wall; per request %.2f us CPU, "
                        "per output token %.1f ns CPU\n",
                        std::min(top, result.plans.size()), result.plans.size(), simulateRequests, simulated, pipeline, expert,
                        disaggregated, skipped, meets, cpu, wall, simulated ? cpu / (double(simulated) * simulateRequests) * 1e6 : 0.0,
                        simulated ? cpu / (double(simulated) * simulateRequests * c.load.outputTokens) * 1e9 : 0.0);
        }
        std::printf("\n");
    }
    return 0;
}
