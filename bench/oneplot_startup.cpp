// SPDX-License-Identifier: GPL-3.0-or-later
// Start-up reference for ridgeline_bench (issue 16): a bare one-plot QCustomPlot window (one curve of
// 200 points, two labelled log axes, a legend), timed as ridgeline_bench times the real window: from
// process start (/proc) to the end of the event-loop pass that painted the window, once nothing more
// has painted for 2 ms. Built with the project, never run by CTest. Usage:
//   QT_QPA_PLATFORM=offscreen build/bench/oneplot_startup      (or under xvfb-run with QT_QPA_PLATFORM=xcb)
// Prints "start-up to first painted window: N ms".

#include <cmath>
#include <cstdio>

#include <QAbstractEventDispatcher>
#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QEventLoop>
#include <QMainWindow>
#include <QTimer>

#include <qcustomplot.h>

#include "processage.h" // bench/processage.h
#include "stepclock.h"  // bench/stepclock.h: PaintCounter

using ridgeline::bench::PaintCounter;

int main(int argc, char** argv)
{
    QElapsedTimer clock;
    clock.start();
    const double ageAtMain = ridgeline::bench::processAgeSeconds();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const double appMs = double(clock.nsecsElapsed()) / 1e6;

    QMainWindow window;
    auto* plot = new QCustomPlot(&window);
    QVector<double> x(200), y(200);
    for (int i = 0; i < 200; ++i) {
        x[i] = std::pow(10.0, 4.0 * i / 199.0);
        y[i] = 1e-3 * x[i] + 5e-3;
    }
    QCPGraph* graph = plot->addGraph();
    graph->setData(x, y, true);
    graph->setName(QStringLiteral("decode step"));
    graph->setPen(QPen(QColor(31, 119, 180), 2));
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    }
    plot->xAxis->setLabel(QStringLiteral("batch B"));
    plot->yAxis->setLabel(QStringLiteral("step time (s)"));
    plot->legend->setVisible(true);
    plot->rescaleAxes();
    window.setCentralWidget(plot);
    window.resize(1600, 1000);

    PaintCounter counter;
    window.installEventFilter(&counter);
    plot->installEventFilter(&counter);

    // Event-driven settle, as ridgeline_bench: the end of each pass that painted is taken when the
    // event loop is about to sleep; 2 ms without a paint ends the wait.
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
    // RL_DEBUG_STARTUP=1: the checkpoints ridgeline_bench prints with it (ms from process start, on stderr).
    if (qEnvironmentVariableIsSet("RL_DEBUG_STARTUP"))
        std::fprintf(stderr,
                     "start-up checkpoints (ms from process start): main %.1f, QApplication %.1f, window built %.1f, "
                     "shown %.1f, first paint done %.1f\n",
                     ageAtMain * 1e3, ageAtMain * 1e3 + appMs, ageAtMain * 1e3 + builtMs, ageAtMain * 1e3 + shownMs,
                     ageAtMain * 1e3 + double(lastPaintNs) / 1e6);
    std::printf("start-up to first painted window: %.0f ms (%.0f ms before main)\n",
                ageAtMain * 1e3 + double(lastPaintNs) / 1e6, ageAtMain * 1e3);
    return counter.paints > 0 ? 0 : 1;
}
