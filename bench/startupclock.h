// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdio>

#include <QAbstractEventDispatcher>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <QWidget>

#include "stepclock.h" // bench/stepclock.h: PaintCounter

namespace ridgeline::bench {

/**
 * Shows @p window and times it to its first painted window, for the start-up references bench/oneplot_startup.cpp and
 * bench/window_startup.cpp, which must time alike (scripts/startup-ratio.sh compares them with ridgeline_bench; issue
 * 16, docs/performance.md). @p clock started at main(); @p ageAtMainSeconds is processAgeSeconds() read there;
 * @p applicationMs the clock's ms once QApplication was made; @p counter counts the Paint events of the window and its
 * plots. Event-driven settle, as ridgeline_bench: the end of each event-loop pass that painted is taken when the loop
 * is about to sleep, and 2 ms without a paint ends the wait (5 s at most). Prints "start-up to first painted window: N
 * ms (M ms before main)" on stdout, and with RL_DEBUG_STARTUP=1 the checkpoints (ms from process start) on stderr, as
 * ridgeline_bench does. Returns whether anything painted.
 */
inline bool showAndTimeFirstPaint(QWidget& window, const PaintCounter& counter, QElapsedTimer& clock,
                                  double ageAtMainSeconds, double applicationMs)
{
    QEventLoop loop;
    QTimer quiet;
    quiet.setSingleShot(true);
    quiet.setTimerType(Qt::PreciseTimer);
    quiet.setInterval(2);
    long long seen = 0;
    qint64 lastPaintNs = 0;
    QObject::connect(QAbstractEventDispatcher::instance(), &QAbstractEventDispatcher::aboutToBlock, &loop, [&] {
        if (counter.paints != seen) {
            seen = counter.paints;
            lastPaintNs = clock.nsecsElapsed();
            quiet.start();
        }
    });
    QObject::connect(&quiet, &QTimer::timeout, &loop, [&] {
        if (counter.paints == seen)
            loop.quit();
    });
    QTimer::singleShot(5000, &loop, &QEventLoop::quit);
    const double builtMs = double(clock.nsecsElapsed()) / 1e6;
    window.show();
    const double shownMs = double(clock.nsecsElapsed()) / 1e6;
    loop.exec();
    const double atMainMs = ageAtMainSeconds * 1e3;
    if (qEnvironmentVariableIsSet("RL_DEBUG_STARTUP"))
        std::fprintf(stderr,
                     "start-up checkpoints (ms from process start): main %.1f, QApplication %.1f, window built %.1f, "
                     "shown %.1f, first paint done %.1f\n",
                     atMainMs, atMainMs + applicationMs, atMainMs + builtMs, atMainMs + shownMs,
                     atMainMs + double(lastPaintNs) / 1e6);
    std::printf("start-up to first painted window: %.0f ms (%.0f ms before main)\n",
                atMainMs + double(lastPaintNs) / 1e6, atMainMs);
    return counter.paints > 0;
}

} // namespace ridgeline::bench
