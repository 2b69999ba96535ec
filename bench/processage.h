// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <unistd.h>

namespace ridgeline::bench {

/**
 * Seconds since this process started, for the start-up line of bench/ridgeline_bench.cpp and bench/oneplot_startup.cpp
 * (the two must time start-up the same way: scripts/startup-ratio.sh compares them). With RL_LAUNCH_REALTIME (seconds
 * since the epoch, as bash's $EPOCHREALTIME, taken by the launcher just before it exec()s this program:
 * scripts/startup-ratio.sh), the time since then, to the microsecond; else from /proc (Linux), whose start time and
 * uptime are in clock ticks of 10 ms, so a run's figure carries up to 10 ms of rounding (issue 16, thirty-first stop
 * in docs/performance.md). Call it before QApplication sets the locale (strtod reads a decimal point).
 */
inline double processAgeSeconds()
{
    if (const char* launched = std::getenv("RL_LAUNCH_REALTIME"); launched && *launched) {
        char* end = nullptr;
        const double launchedS = std::strtod(launched, &end);
        timespec now{};
        if (end != launched && *end == '\0' && clock_gettime(CLOCK_REALTIME, &now) == 0)
            return double(now.tv_sec) + double(now.tv_nsec) * 1e-9 - launchedS;
    }
    std::ifstream stat("/proc/self/stat");
    std::string field;
    unsigned long long start = 0;
    for (int i = 1; i <= 22 && stat >> field; ++i)
        if (i == 22)
            start = std::stoull(field);
    std::ifstream uptimeFile("/proc/uptime");
    double uptime = 0;
    uptimeFile >> uptime;
    return uptime - double(start) / double(sysconf(_SC_CLK_TCK));
}

} // namespace ridgeline::bench
