// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The step protocol shared by bench/ridgeline_bench.cpp and bench/dashboard_bench.cpp (issue 16, h16bd in
// docs/performance.md): a step is settled at the end of the event-loop pass that painted, once nothing has painted
// for 2 ms; CPU per step is the process's getrusage() CPU from the change to the settle; p50 / p95 / p99 / max are
// interpolated percentiles over the timed steps; --load N forks N spinning processes. The two programs must measure
// the same way for their ratio to mean anything, so the code is one.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <cstdlib>
#include <csignal>
#include <functional>
#include <optional>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <QAbstractEventDispatcher>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QEventLoop>
#include <QTimer>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h> // per-slider instruction counts under callgrind (docs/performance.md)
#define RL_CALLGRIND_ZERO() CALLGRIND_ZERO_STATS
#define RL_CALLGRIND_DUMP(name) CALLGRIND_DUMP_STATS_AT(name)
#define RL_UNDER_VALGRIND() (RUNNING_ON_VALGRIND != 0)
#else
#define RL_CALLGRIND_ZERO() ((void)0)
#define RL_CALLGRIND_DUMP(name) ((void)(name))
#define RL_UNDER_VALGRIND() false
#endif

namespace ridgeline::bench {

/** The @p p quantile (0 to 1) of @p v in ms, interpolated between the two nearest ranks; 0 for no values. */
inline double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double rank = p * double(v.size() - 1);
    const size_t lo = size_t(rank);
    const size_t hi = std::min(v.size() - 1, lo + 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - double(lo));
}

/** The largest of @p v (ms); 0 for no values. */
inline double maximum(const std::vector<double>& v)
{
    return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}

/** Prints "NAME p50 .. p95 .. p99 .. max .. ms (N steps[; M more positions showed the same value])" on stdout. */
inline void printStats(const char* name, const std::vector<double>& ms, int unchanged = 0)
{
    std::printf("%-11s p50 %6.2f  p95 %6.2f  p99 %6.2f  max %6.2f ms  (%zu steps", name, percentile(ms, 0.5),
                percentile(ms, 0.95), percentile(ms, 0.99), maximum(ms), ms.size());
    if (unchanged > 0)
        std::printf("; %d more positions showed the same value", unchanged);
    std::printf(")\n");
}

/**
 * Runs the event loop until a change has painted and gone idle: @p pending false and no Paint event for 2 ms.
 * @p paints is the caller's count of Paint events (read, never written); @p lastPaintNs is set to the end of the last
 * pass that painted, on @p clock. Returns the ms from @p startNs to that end, or nothing when nothing painted within
 * 2 s (120 s under valgrind).
 *
 * Event-driven (issue 16): the loop sleeps in QEventLoop::exec() between events. The end of a pass
 * is the event dispatcher's aboutToBlock() (every posted event, timer and paint of the pass
 * delivered); a 2 ms precise timer, restarted by every pass that painted, ends the wait. The
 * benchmark's own work is then a few timer wake-ups per step instead of a polling loop that kept
 * one core busy (91 % of a core, 87 % of the profile) and competed with the app it measured.
 */
inline std::optional<double> settlePaints(const long long& paints, qint64& lastPaintNs, QElapsedTimer& clock,
                                          qint64 startNs, const std::function<bool()>& pending)
{
    const long long before = paints;
    long long seen = before; // paints already credited to a pass
    QEventLoop loop;
    QTimer quiet;
    quiet.setSingleShot(true);
    quiet.setTimerType(Qt::PreciseTimer);
    quiet.setInterval(2);
    QTimer giveUp;
    giveUp.setSingleShot(true);
    // Under valgrind a step runs 50 to 100 times slower: 2 s gave up on --plan-tab steps before their first paint, so
    // every step counted as "showed the same value" and spilled its work into the next.
    giveUp.setInterval(RL_UNDER_VALGRIND() ? 120'000 : 2000);
    const QMetaObject::Connection passEnd = QObject::connect(
        QAbstractEventDispatcher::instance(), &QAbstractEventDispatcher::aboutToBlock, &loop, [&] {
            if (paints != seen) {
                seen = paints;
                lastPaintNs = clock.nsecsElapsed(); // end of the pass, which includes the paint
                quiet.start();
            } else if (seen != before && !quiet.isActive() && !pending()) {
                quiet.start(); // a held-back edit was evaluated without painting: wait out the quiet time
            }
        });
    QObject::connect(&quiet, &QTimer::timeout, &loop, [&] {
        if (paints == seen && !pending())
            loop.quit();
        else if (paints == seen)
            quiet.start(); // still busy (a search under way): look again
    });
    QObject::connect(&giveUp, &QTimer::timeout, &loop, [&] {
        if (seen == before)
            loop.quit();
    });
    giveUp.start();
    loop.exec();
    QObject::disconnect(passEnd);
    if (seen == before)
        return std::nullopt;
    return double(lastPaintNs - startNs) / 1e6;
}

/** Runs the event loop, asleep between events, until @p ns of the clock have passed since @p sinceNs. */
inline void idleUntil(QElapsedTimer& clock, qint64 sinceNs, qint64 ns)
{
    const qint64 remainingNs = ns - (clock.nsecsElapsed() - sinceNs);
    if (remainingNs <= 0) {
        QCoreApplication::processEvents(QEventLoop::AllEvents);
        return;
    }
    QEventLoop loop;
    QTimer::singleShot(int((remainingNs + 999'999) / 1'000'000), Qt::PreciseTimer, &loop, &QEventLoop::quit);
    loop.exec();
}

/** CPU seconds (user + system) this process used so far; forked load processes are not counted. */
inline double processCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
           + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/**
 * A competing load (--load N): N child processes at normal priority, each spinning on arithmetic,
 * forked before Qt starts (the children never touch Qt) and killed at the end, or with the benchmark
 * (PR_SET_PDEATHSIG). With N = the number of cores every step competes for a core, as on a busy machine.
 */
class CompetingLoad {
public:
    explicit CompetingLoad(int processes)
    {
        for (int i = 0; i < processes; ++i) {
            const pid_t pid = fork();
            if (pid == 0) {
                prctl(PR_SET_PDEATHSIG, SIGKILL);
                volatile unsigned long long x = 0;
                for (;;)
                    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            }
            if (pid > 0)
                m_children.push_back(pid);
        }
    }
    ~CompetingLoad() { stop(); }
    CompetingLoad(const CompetingLoad&) = delete;
    CompetingLoad& operator=(const CompetingLoad&) = delete;
    /** Kills and reaps the children (idempotent). */
    void stop()
    {
        for (pid_t pid : m_children) {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
        }
        m_children.clear();
    }
    /** The number of load processes running. */
    int processes() const { return int(m_children.size()); }

private:
    std::vector<pid_t> m_children;
};

/** Counts Paint events of the widgets it is installed on as an event filter (a window and its children). */
class PaintCounter final : public QObject {
public:
    bool eventFilter(QObject* object, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            ++paints;
        return QObject::eventFilter(object, event);
    }
    long long paints = 0;
    qint64 lastPaintNs = 0; ///< end of the last pass that painted (written by settlePaints(), when used)
};

/**
 * The slider position of step @p step of @p steps in a sweep from @p lo up to @p hi and back down, so that every step
 * changes the position (callers skip a position equal to the slider's value).
 */
inline int sweepPosition(int step, int steps, int lo, int hi)
{
    const double t = double(step) / double(steps - 1);
    return lo + int(std::lround((hi - lo) * (t <= 0.5 ? 2 * t : 2 - 2 * t)));
}

/**
 * The N of "--load N" in @p argv (0 without it, clamped to 0..64), read before QApplication exists so that the
 * competing load can be forked by a process without threads.
 */
inline int loadArgument(int argc, char** argv)
{
    int processes = 0;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--load")
            processes = std::clamp(std::atoi(argv[i + 1]), 0, 64);
    return processes;
}

} // namespace ridgeline::bench
