// SPDX-License-Identifier: GPL-3.0-or-later
// Times the simulator at fleet scale (docs/fleet-simulation.md): replicas behind each router, and an open-loop
// arrival-rate sweep. Not a test: run it by hand. Peak memory is the process's, so give one mode per run:
//   fleet_bench fleet ROUTER [replicas] [requests]   (default 8 replicas, 100,000 requests)
//   fleet_bench sweep [replicas] [requests]          (8 steps + 6 bisections, least loaded)
//   fleet_bench closed ROUTER [replicas] [requests] [clients]   (closed loop: default 64 clients per replica)
//   fleet_bench disagg PREFILL [replicas] [requests]  (disaggregated: PREFILL prefill replicas and [replicas] decode
//                                                      replicas behind least-loaded routers; prints the work estimate)
// ROUTER: round_robin, least_loaded or prefix_aware. Prints user CPU time, wall time and peak resident memory. The
// workload is drawn as the run goes and no per-request record is kept (as --simulate), so peak memory should not grow
// with the request count (docs/fleet-simulation.md, "Memory"); requests may exceed the files' 2,000,000 cap here.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <sys/resource.h>

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

void report(const char* what, std::chrono::steady_clock::time_point start)
{
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const double cpu = double(u.ru_utime.tv_sec) + double(u.ru_utime.tv_usec) * 1e-6;
    std::printf("%s: user CPU %.2f s, wall %.2f s, peak RSS %.0f MB\n", what, cpu, wall, double(u.ru_maxrss) / 1024.0);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2
        || (std::strcmp(argv[1], "fleet") != 0 && std::strcmp(argv[1], "sweep") != 0 && std::strcmp(argv[1], "closed") != 0
            && std::strcmp(argv[1], "disagg") != 0)) {
        std::fprintf(stderr, "usage: fleet_bench fleet ROUTER [replicas] [requests] | fleet_bench sweep [replicas] [requests]"
                             " | fleet_bench closed ROUTER [replicas] [requests] [clients] | fleet_bench disagg PREFILL [replicas] [requests]\n");
        return 2;
    }
    const bool closed = std::strcmp(argv[1], "closed") == 0;
    const bool sweep = std::strcmp(argv[1], "sweep") == 0;
    const bool disagg = std::strcmp(argv[1], "disagg") == 0;
    const int first = sweep ? 2 : 3;
    const std::string router = sweep || disagg ? "least_loaded" : (argc > 2 ? argv[2] : "round_robin");
    const int replicas = argc > first ? std::atoi(argv[first]) : 8;
    const long long requests = argc > first + 1 ? std::atoll(argv[first + 1]) : 100000;

    Scenario scenario = defaultScenario(); // Llama 3.1 8B bf16 on one H100 SXM per replica
    scenario.efficiency.bandwidth = 0.75;
    scenario.efficiency.mfuPrefill = 0.40;
    scenario.efficiency.mfuDecode = 0.40;
    SimulationConfig config;
    config.policy = BatchingPolicy::Chunked;
    config.maxSequences = 256;
    config.tokenBudget = 2048;
    config.requests = requests;
    config.replicas = replicas;
    config.router = router == "least_loaded" ? RouterPolicy::LeastLoaded
                    : router == "prefix_aware" ? RouterPolicy::PrefixAware
                                               : RouterPolicy::RoundRobin;
    config.ttftSloMs = 1000;
    config.itlSloMs = 50;
    RequestClass chat;
    chat.name = "chat";
    chat.ratePerSecond = 6.0 * replicas; // near one replica's capacity for these lengths, each
    if (closed)
        chat.ratePerSecond = 1000.0 * replicas; // every request ready long before a client is free: the clients set the pace
    chat.prompt = logNormal(1000, 4000);
    chat.output = logNormal(200, 1000);
    chat.prefixGroups = 1000;
    config.classes = {chat};
    if (closed) // N clients in all, each sending its next request when its last one leaves (arrivals far faster)
        config.closedLoopClients = argc > first + 2 ? std::atoi(argv[first + 2]) : 64 * replicas;
    if (disagg)
        config.prefillReplicas = argc > 2 ? std::atoi(argv[2]) : 8;
    config.requestRecords = 0; // as --simulate: summaries only, the workload drawn as the run goes
    // Past the simulation files' request cap (2,000,000) the bench still runs, to show memory flat in the run's length.
    SimulationConfig checked = config;
    checked.requests = std::min<long long>(requests, kMaxSimulationRequests);
    if (const std::string e = checkSimulationConfig(checked); !e.empty()) {
        std::fprintf(stderr, "%s\n", e.c_str());
        return 2;
    }
    const SimulationCost cost = estimateSimulationCost(checked);
    std::printf("estimate: %.3g work units (%.3g output tokens, %.3g routing checks), about %.2f s of CPU\n", cost.workUnits,
                cost.outputTokens, cost.routingChecks, cost.seconds);
    const auto start = std::chrono::steady_clock::now();
    if (!sweep) {
        const SimulationResult r = simulateWorkload(scenario, config);
        double least = r.spanSeconds > 0 ? r.busySeconds / r.spanSeconds : 0.0, most = least; // one replica
        for (const ReplicaLoad& l : r.replicas) {
            least = l.busyFraction < least || &l == &r.replicas.front() ? l.busyFraction : least;
            most = l.busyFraction > most || &l == &r.replicas.front() ? l.busyFraction : most;
        }
        if (closed)
            std::printf("closed loop, %d clients, %.0f tok/s: ", config.closedLoopClients, r.all.throughputTokensPerSecond);
        std::printf("%d replicas, %s, %lld requests (%.0f output tokens): p99 TTFT %.0f ms, p99 ITL %.1f ms, attainment %.3f, "
                    "busy %.0f%% to %.0f%% per replica\n",
                    replicas, router.c_str(), r.all.requests, r.all.outputTokens, r.all.latency.ttft.p99 * 1e3,
                    r.all.latency.itl.p99 * 1e3, r.all.goodputFraction, 100 * least, 100 * most);
        report("fleet run", start);
        return 0;
    }
    RateSweep s;
    s.fromPerSecond = 4.0 * replicas;
    s.toPerSecond = 32.0 * replicas;
    s.steps = 8;
    s.attainmentTarget = 0.99;
    s.bisections = 6;
    if (const std::string e = checkRateSweep(config, s, "sweep"); !e.empty()) {
        std::fprintf(stderr, "%s\n", e.c_str());
        return 2;
    }
    const RateSweepResult r = sweepArrivalRate(scenario, config, s);
    for (const RatePoint& p : r.points)
        std::printf("  %8.2f req/s: attainment %.4f, goodput %.2f req/s, p99 TTFT %.0f ms%s\n", p.ratePerSecond, p.attainment,
                    p.goodputRequestsPerSecond, p.p99TtftSeconds * 1e3, p.bisection ? " (bisection)" : "");
    std::printf("highest rate holding 99%% attainment: %.2f req/s (%.2f misses it)\n", r.maxRatePerSecond.value_or(0),
                r.firstMissPerSecond.value_or(0));
    report("rate sweep (14 runs)", start);
    return 0;
}
