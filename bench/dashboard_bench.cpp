// SPDX-License-Identifier: GPL-3.0-or-later
// Step reference for ridgeline_bench (issue 16: "CPU per step is 6.7 ms against 2.0 ms for a bare five-plot
// QCustomPlot dashboard"): a bare five-plot QCustomPlot dashboard, stepped and timed as ridgeline_bench steps and times
// the real window (bench/stepclock.h holds the protocol both use). A 1600 x 1000 QMainWindow holds a slider (181
// positions over 0.5 to 2,000 B on a log scale, as Ridgeline's model-size slider, starting at 8.03 B) and five
// QCustomPlot widgets of 377 x 357 px in a 3 x 2 grid, where Ridgeline's floors sit. "Bare": each plot is one QCPGraph
// of 200 points (y = a x + b over log-spaced x, a and b functions of the slider's value, so every step changes every
// curve), QCustomPlot's default antialiasing, a 2 px pen, two labelled log axes with QCPAxisTickerLog and a legend, as
// bench/oneplot_startup.cpp; nothing else: no titles or texts outside the plots, no other controls, no numbers panel,
// no caches. A step moves the slider one position or more (setSliderPosition, tracking: valueChanged as a drag emits
// it); the slot recomputes the five curves, rescales the axes and calls replot(rpQueuedReplot) on each plot, as
// Ridgeline's floors do (QCustomPlot's default, rpRefreshHint, would draw inside the slot, before the step's CPU is
// read: see docs/performance.md, h16bd). --content gives each plot the curves, markers, straight lines, text items and
// second axis its Ridgeline floor creates (views/floors/), and puts the legend below the axes, as Ridgeline does.
// Built with the project, never run by CTest. Usage:
//   QT_QPA_PLATFORM=offscreen build/bench/dashboard_bench [--steps 500] [--spacing 17] [--load N] [--content]
//       [--pen 2] [--no-antialias]
// --pen W sets the curves' pen width in px (0: a cosmetic 1 px pen, QCustomPlot's default; Qt's raster engine strokes
// it with its own line rasteriser, a 2 px antialiased pen through QStroker and a polygon fill); --no-antialias turns
// antialiasing off for everything in the plots.
// Prints p50 / p95 / p99 / max in ms and CPU per step in ridgeline_bench's format. Under callgrind the second dump
// (OUT.2, "slider dashboard N steps") holds the sweep's steps alone, as ridgeline_bench's per-slider dumps.
// RL_DEBUG_STEPS=1 prints each step's time, CPU and page faults on stderr; RL_DEBUG_GRAB=FILE.png saves the window.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QSlider>
#include <QVBoxLayout>
#include <QWidget>

#include <qcustomplot.h>

#include "floorplots.h" // bench/floorplots.h: the five plots and their content
#include "processage.h" // bench/processage.h
#include "stepclock.h"  // bench/stepclock.h

using namespace ridgeline::bench;

namespace {

constexpr int kPositionsPerDecade = 50;     // as views/kit/valueslider.h
constexpr double kMinimumBillions = 0.5;    // Ridgeline's model-size slider: 0.5 to 2,000 B
constexpr double kMaximumBillions = 2000.0;
constexpr double kStartBillions = 8.03;     // the default scenario's Llama 3.1 8B

int positionOf(double billions)
{
    return int(std::lround(std::log10(billions / kMinimumBillions) * kPositionsPerDecade));
}

double billionsAt(int position)
{
    return kMinimumBillions * std::pow(10.0, double(position) / kPositionsPerDecade);
}

} // namespace

int main(int argc, char** argv)
{
    QElapsedTimer clock;
    clock.start();
    const double ageAtMain = processAgeSeconds();
    const int loadProcesses = loadArgument(argc, argv); // forked before Qt starts, as ridgeline_bench
    CompetingLoad load(loadProcesses);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int steps = 500;   // ridgeline_bench's default
    int spacingMs = 17; // ridgeline_bench's default: the document's 16 ms throttle and a bit
    bool content = false;
    bool antialiased = true; // --no-antialias: nothing antialiased (QCP::aeAll not antialiased)
    double penWidth = 2; // --pen W: the curves' pen width in px; 0 is a cosmetic 1 px pen, QCustomPlot's default
    const QStringList args = QCoreApplication::arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--steps") && i + 1 < args.size())
            steps = std::max(2, args[++i].toInt());
        else if (args[i] == QLatin1String("--spacing") && i + 1 < args.size())
            spacingMs = std::max(0, args[++i].toInt());
        else if (args[i] == QLatin1String("--load") && i + 1 < args.size())
            ++i; // read above, before Qt started
        else if (args[i] == QLatin1String("--pen") && i + 1 < args.size())
            penWidth = std::max(0.0, args[++i].toDouble());
        else if (args[i] == QLatin1String("--no-antialias"))
            antialiased = false;
        else if (args[i] == QLatin1String("--content"))
            content = true;
        else if (args[i] == QLatin1String("--sweep-only"))
            ; // accepted for ridgeline_bench's command lines: this program only sweeps
        else {
            std::fprintf(stderr, "usage: dashboard_bench [--steps N] [--spacing MS] [--load N] [--content] [--pen W] "
                                 "[--no-antialias] [--sweep-only]\n");
            return 2;
        }
    }

    // The window: a slider in a left column (where Ridgeline's controls dock is), five plots in a 3 x 2 grid.
    QMainWindow window;
    auto* central = new QWidget(&window);
    auto* columns = new QHBoxLayout(central);
    auto* left = new QWidget(central);
    left->setFixedWidth(340);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->addWidget(new QLabel(QStringLiteral("Model size N (B params)"), left));
    auto* slider = new QSlider(Qt::Horizontal, left);
    slider->setRange(0, int(std::ceil(std::log10(kMaximumBillions / kMinimumBillions) * kPositionsPerDecade - 1e-9)));
    slider->setValue(positionOf(kStartBillions));
    leftLayout->addWidget(slider);
    leftLayout->addStretch(1);
    columns->addWidget(left);
    auto* grid = new QGridLayout;
    columns->addLayout(grid, 1);
    std::vector<DashboardPlot> plots;
    PaintCounter counter;
    for (int i = 0; i < 5; ++i) {
        plots.push_back(makePlot(central, i, content, penWidth, antialiased));
        grid->addWidget(plots.back().plot, i / 3, i % 3);
        plots.back().plot->setFixedSize(377, 357);
        plots.back().plot->installEventFilter(&counter);
        plots.back().update(billionsAt(slider->value()));
    }
    window.setCentralWidget(central);
    window.resize(1600, 1000);
    QObject::connect(slider, &QSlider::valueChanged, &window, [&](int position) {
        for (DashboardPlot& d : plots)
            d.update(billionsAt(position));
    });
    const auto nothingPending = [] { return false; };
    window.show();
    settlePaints(counter.paints, counter.lastPaintNs, clock, 0, nothingPending);
    const double startupMs = ageAtMain * 1e3 + double(counter.lastPaintNs) / 1e6;
    RL_CALLGRIND_DUMP("start-up"); // OUT.1, as ridgeline_bench's

    // The sweep, as ridgeline_bench's per slider: up then back down over the slider's range in --steps positions, a
    // step at least --spacing ms after the previous one, timed to the end of its paint; CPU from the change to settled.
    const bool debugSteps = qEnvironmentVariableIsSet("RL_DEBUG_STEPS");
    idleUntil(clock, clock.nsecsElapsed(), 100'000'000);
    qint64 previousStepNs = clock.nsecsElapsed();
    std::vector<double> ms;
    double sweepCpuSeconds = 0;
    int unchanged = 0;
    RL_CALLGRIND_ZERO();
    const int lo = slider->minimum(), hi = slider->maximum();
    for (int step = 0; step < steps; ++step) {
        const int position = sweepPosition(step, steps, lo, hi);
        if (position == slider->value())
            continue;
        idleUntil(clock, previousStepNs, qint64(spacingMs) * 1'000'000);
        const qint64 start = clock.nsecsElapsed();
        previousStepNs = start;
        slider->setSliderPosition(position); // tracking: emits valueChanged as a drag does
        const double cpuBefore = processCpuSeconds();
        rusage usageBefore{};
        getrusage(RUSAGE_SELF, &usageBefore);
        const std::optional<double> painted =
            settlePaints(counter.paints, counter.lastPaintNs, clock, start, nothingPending);
        if (painted) {
            const double cpuSeconds = processCpuSeconds() - cpuBefore;
            sweepCpuSeconds += cpuSeconds;
            ms.push_back(*painted);
            if (debugSteps) {
                rusage usage{};
                getrusage(RUSAGE_SELF, &usage);
                std::fprintf(stderr, "dashboard %d %.2f ms; cpu %.2f ms, %ld page faults\n", position, *painted,
                             cpuSeconds * 1e3, usage.ru_minflt - usageBefore.ru_minflt);
            }
        } else {
            ++unchanged;
        }
    }
    const QByteArray dumpName = QStringLiteral("slider dashboard %1 steps").arg(ms.size() + size_t(unchanged)).toUtf8();
    RL_CALLGRIND_DUMP(dumpName.constData());
    load.stop();
    // RL_DEBUG_GRAB=FILE.png: the window as the sweep left it, to see what was drawn.
    if (const QString grabPath = qEnvironmentVariable("RL_DEBUG_GRAB"); !grabPath.isEmpty())
        window.grab().save(grabPath);

    printStats("dashboard", ms, unchanged);
    printStats("overall", ms);
    const double cpuPerStepMs = ms.empty() ? 0.0 : sweepCpuSeconds / double(ms.size()) * 1e3;
    std::printf("CPU per step: %.2f ms (process, change to settled, %zu steps, less 2 ms of waiting each)\n",
                cpuPerStepMs, ms.size());
    std::printf("steps spaced %d ms apart; competing load: %d spinning process(es); plots: %s, %g px pens%s; "
                "replot queued\n",
                spacingMs, loadProcesses, content ? "with Ridgeline's floor content (--content)" : "bare", penWidth,
                antialiased ? "" : ", not antialiased");
    std::printf("start-up to first painted window: %.0f ms (%.0f ms before main)\n", startupMs, ageAtMain * 1e3);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("peak resident memory: %.1f MB\n", double(usage.ru_maxrss) / 1024.0);
    return ms.empty() ? 1 : 0;
}
