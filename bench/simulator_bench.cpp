// SPDX-License-Identifier: GPL-3.0-or-later
// Times the serving simulator (model/sim/simulator.h) on 100,000-request workloads. Not a test: run it
// by hand on a quiet machine. Target (issue 9): 100,000 requests in under 2 s.
// Usage: simulator_bench [requests]   (default 100000); prints one line per workload, best of three runs.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "model/sim/simulator.h"

using namespace ridgeline::model;

namespace {

LengthDistribution logNormal(double median, double p99)
{
    LengthDistribution d;
    d.kind = LengthDistribution::Kind::LogNormal;
    d.median = median;
    d.p99 = p99;
    return d;
}

struct BenchCase {
    const char* name;
    BatchingPolicy policy;
    int maxSequences;
    double ratePerSecond;
};

} // namespace

int main(int argc, char** argv)
{
    const long long requests = argc > 1 ? std::max(1LL, std::atoll(argv[1])) : 100000;
    Scenario scenario = defaultScenario(); // Llama 3.1 8B bf16 on one H100 SXM
    scenario.efficiency.bandwidth = 0.75;
    scenario.efficiency.mfuPrefill = 0.40;
    scenario.efficiency.mfuDecode = 0.40;

    const BenchCase cases[] = {
        {"chunked, cap 256, overloaded (20 req/s)", BatchingPolicy::Chunked, 256, 20.0},
        {"chunked, cap 64, near capacity (8 req/s)", BatchingPolicy::Chunked, 64, 8.0},
        {"continuous, cap 256, overloaded (20 req/s)", BatchingPolicy::Continuous, 256, 20.0},
        {"static, cap 32 (8 req/s)", BatchingPolicy::Static, 32, 8.0},
    };
    std::printf("%lld requests; chat prompts log-normal median 1000 p99 4000, outputs median 200 p99 1000\n", requests);
    for (const BenchCase& w : cases) {
        SimulationConfig config;
        config.policy = w.policy;
        config.maxSequences = w.maxSequences;
        config.tokenBudget = 2048;
        config.requests = requests;
        RequestClass chat;
        chat.name = "chat";
        chat.ratePerSecond = w.ratePerSecond;
        chat.prompt = logNormal(1000, 4000);
        chat.output = logNormal(200, 1000);
        config.classes.push_back(chat);

        double best = 1e300, generate = 0;
        SimulationResult result;
        for (int run = 0; run < 3; ++run) {
            const auto t0 = std::chrono::steady_clock::now();
            const std::vector<Request> trace = generateRequests(config);
            const auto t1 = std::chrono::steady_clock::now();
            result = simulate(scenario, config, trace);
            const auto t2 = std::chrono::steady_clock::now();
            const double total = std::chrono::duration<double>(t2 - t0).count();
            if (total < best) {
                best = total;
                generate = std::chrono::duration<double>(t1 - t0).count();
            }
        }
        std::printf("%-44s %7.3f s (workload %.3f s)  %lld steps, %.0f output tokens, %.1f ns/token, %.0f s simulated, "
                    "%.0f tok/s\n",
                    w.name, best, generate, result.steps, result.all.outputTokens, best / result.all.outputTokens * 1e9,
                    result.spanSeconds, result.all.throughputTokensPerSecond);
    }
    return 0;
}
