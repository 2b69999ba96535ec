// SPDX-License-Identifier: GPL-3.0-or-later
// Start-up reference for ridgeline_bench (issue 16): a bare one-plot QCustomPlot window (one curve of
// 200 points, two labelled log axes, a legend), timed as ridgeline_bench times the real window: from
// process start (/proc) to the end of the event-loop pass that painted the window, once nothing more
// has painted for 2 ms. Built with the project, never run by CTest. Usage:
//   QT_QPA_PLATFORM=offscreen build/bench/oneplot_startup      (or under xvfb-run with QT_QPA_PLATFORM=xcb)
// Prints "start-up to first painted window: N ms".

#include <cmath>

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QMainWindow>

#include <qcustomplot.h>

#include "processage.h"   // bench/processage.h
#include "startupclock.h" // bench/startupclock.h: showAndTimeFirstPaint
#include "stepclock.h"    // bench/stepclock.h: PaintCounter

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

    // Shown and timed as window_startup and ridgeline_bench time theirs (bench/startupclock.h).
    return ridgeline::bench::showAndTimeFirstPaint(window, counter, clock, ageAtMain, appMs) ? 0 : 1;
}
