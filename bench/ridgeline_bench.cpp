// SPDX-License-Identifier: GPL-3.0-or-later
// Slider-to-painted latency of the real main window (issue 6). Built with the project, not run by
// CTest (timings on shared machines are noisy). Usage:
//   QT_QPA_PLATFORM=offscreen build/bench/ridgeline_bench [--steps 500] [--spacing 17] [--load N] [--pinned N] [--json FILE]
// --pinned N pins N scenarios first (N-way comparison, issue 14: each a different bandwidth and batch), so that
// every step also keeps them in view and refreshes the comparison table in place of the numbers panel.
// --startup-only prints the start-up line and exits (for `perf stat` of start-up alone, as oneplot_startup's whole run).
// --rounds N sweeps N times over (a long run: the window's memory in run length, issue 16); --sweep-only then prints the
// peak resident memory and the undo steps kept.
// --plan-tab shows the Plan tab instead and times each step to its new Pareto frontier painted (issue 14: "the frontier
// updates within one frame"), with the search and the showing of its result apart; no bursts.
// Prints per-slider and overall p50 / p95 / p99 / max in ms, CPU per step, the benchmark's own CPU
// while it waits, model evaluation time per scenario,
// start-up time to the first painted window, peak resident memory, the same-pass burst (1,000
// changes before the event loop runs) and two timed bursts (1,000 changes from a 1 ms and a 2 ms
// timer, as a fast drag on a 1 kHz mouse delivers them). --load N runs N spinning processes beside it
// (a busy machine: N = 2 on two cores). docs/performance.md explains the method.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <csignal>
#include <ctime>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <QAbstractEventDispatcher>
#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QEventLoop>
#include <QPaintEvent>
#include <QImage>
#include <QPixmap>
#include <QRegion>
#include <QScreen>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLayout>
#include <QMap>
#include <QStringList>
#include <QSlider>
#include <QThread>
#include <QTimer>
#include <QUndoStack>
#include <QWidget>

#include <qcustomplot.h>

#include "app/mainwindow.h"
#include "processage.h" // bench/processage.h
#include "stepclock.h"  // bench/stepclock.h: settle, percentiles, CPU, --load (shared with dashboard_bench)
#include "model/cost/costmodel.h"
#include "views/controls/controlspanel.h"
#include "views/floors/numberspanel.h"
#include "views/kit/gridlayer.h"
#include "views/kit/plotpanel.h"
#include "document/scenariodocument.h"
#include "document/scenariohistory.h"
#include "views/kit/valueslider.h"
#include "views/plan/plantab.h"
#include "views/whatifs/whatifstabs.h"

using namespace ridgeline;
using bench::CompetingLoad;
using bench::idleUntil;
using bench::maximum;
using bench::percentile;
using bench::printStats;
using bench::processCpuSeconds;

namespace {

/** Counts Paint events on the watched widgets and remembers when the last one was seen. A frame is
 *  one Paint event of the frame widget (the decode plot: every step repaints it once). */
class PaintWatch final : public QObject {
public:
    explicit PaintWatch(QElapsedTimer& clock) : m_clock(clock) {}
    void watch(QWidget* w)
    {
        w->installEventFilter(this);
        for (QWidget* child : w->findChildren<QWidget*>())
            child->installEventFilter(this);
    }
    void setFrameWidget(QObject* widget) { m_frameWidget = widget; }
    bool eventFilter(QObject* object, QEvent* event) override
    {
        if (event->type() == QEvent::Paint) {
            if (firstPaintNs < 0)
                firstPaintNs = m_clock.nsecsElapsed();
            ++paints;
            if (qEnvironmentVariableIsSet("RL_DEBUG_PAINTS")) {
                const QRect r = static_cast<QPaintEvent*>(event)->rect();
                std::fprintf(stderr, "paint %s %s %dx%d+%d+%d\n", object->metaObject()->className(), qPrintable(object->objectName()),
                             r.width(), r.height(), r.x(), r.y());
            }
            if (object == m_frameWidget)
                ++frames;
            if (recordDamage && object->isWidgetType()) {
                auto* widget = static_cast<QWidget*>(object);
                painted.push_back({widget, static_cast<QPaintEvent*>(event)->region().translated(widget->mapTo(widget->window(), QPoint(0, 0)))});
            }
            lastPaintNs = m_clock.nsecsElapsed(); // start of the paint; settle() takes the end
        }
        return QObject::eventFilter(object, event);
    }
    long long paints = 0;
    long long frames = 0;
    qint64 lastPaintNs = 0;
    qint64 firstPaintNs = -1; ///< debug: first Paint since reset
    /** RL_DEBUG_DAMAGE: each Paint event's widget and region (window coordinates) since cleared. */
    struct Painted {
        QWidget* widget;
        QRegion region;
    };
    bool recordDamage = false;
    std::vector<Painted> painted;

private:
    QElapsedTimer& m_clock;
    QObject* m_frameWidget = nullptr;
};

/**
 * RL_DEBUG_DAMAGE (issue 16, twenty-fourth stop): for each Paint event of a step, the widget, the region painted
 * (window coordinates, its bounding rect and pixel count) and how many of those pixels the step changed in the window's
 * backing store (QScreen::grabWindow() before and after the step): a paint that changed none repainted the same pixels.
 */
void reportDamage(const QImage& before, const QImage& after, const std::vector<PaintWatch::Painted>& painted)
{
    long long paintedPx = 0, changedPx = 0;
    for (const PaintWatch::Painted& p : painted) {
        long long area = 0, changed = 0;
        QRect changedBox;
        for (const QRect& r : p.region) {
            const QRect in = r & before.rect() & after.rect();
            area += qint64(in.width()) * in.height();
            for (int y = in.top(); y <= in.bottom(); ++y) {
                const auto* a = reinterpret_cast<const QRgb*>(before.constScanLine(y));
                const auto* b = reinterpret_cast<const QRgb*>(after.constScanLine(y));
                for (int x = in.left(); x <= in.right(); ++x)
                    if (a[x] != b[x]) {
                        ++changed;
                        changedBox |= QRect(x, y, 1, 1);
                    }
            }
        }
        paintedPx += area;
        changedPx += changed;
        const QRect box = p.region.boundingRect();
        std::fprintf(stderr, "  damage %s %s painted %dx%d+%d+%d (%lld px in %lld rects) changed %lld px in %dx%d+%d+%d\n",
                     p.widget->metaObject()->className(), qPrintable(p.widget->objectName()), box.width(), box.height(), box.x(),
                     box.y(), area, qint64(p.region.rectCount()), changed, changedBox.width(), changedBox.height(),
                     changedBox.x(), changedBox.y());
    }
    std::fprintf(stderr, "  damage total: %zu paints, %lld px painted, %lld px changed (counted per paint)\n", painted.size(),
                 paintedPx, changedPx);
}

/**
 * RL_DEBUG_STEPS (issue 16, tenth stop): per step, the replots of each QCustomPlot in the window (afterReplot), the
 * Resize events of plots (a resized plot replots in full a second time), and the LayoutRequest events delivered, with
 * the widgets whose layout they activated (a LabelBox has none: it only compares heights). Installed on the application only when asked for.
 */
class LayoutWatch final : public QObject {
public:
    void watchPlots(QWidget* window)
    {
        for (QCustomPlot* plot : window->findChildren<QCustomPlot*>()) {
            if (m_watched.contains(plot))
                continue;
            m_watched.append(plot);
            QObject::connect(plot, &QCustomPlot::afterReplot, this, [this, plot] { m_replots[plot->objectName()] += 1; });
        }
    }
    bool eventFilter(QObject* object, QEvent* event) override
    {
        if (event->type() == QEvent::LayoutRequest) {
            ++layoutRequests;
            // A widget with a layout activates it (QLayout::widgetEvent): the layouts laid out again.
            if (object->isWidgetType() && static_cast<QWidget*>(object)->layout()) {
                const QString name = object->objectName();
                m_activated << (name.isEmpty() ? QString::fromLatin1(object->metaObject()->className()) : name);
            }
        }
        else if (event->type() == QEvent::Resize && qobject_cast<QCustomPlot*>(object) && object->isWidgetType()
                 && static_cast<QWidget*>(object)->isVisible())
            m_resized.append(object->objectName());
        return QObject::eventFilter(object, event);
    }
    void reset()
    {
        m_replots.clear();
        m_resized.clear();
        m_activated.clear();
        layoutRequests = 0;
    }
    /** "replots decodePlot 1 ...; resized ...; layout requests N". */
    QString summary() const
    {
        QStringList replots;
        for (auto it = m_replots.cbegin(); it != m_replots.cend(); ++it)
            replots << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
        return QStringLiteral("replots [%1] resized [%2] layout requests %3, to layouts [%4]")
            .arg(replots.join(QStringLiteral(", ")), m_resized.join(QStringLiteral(", ")))
            .arg(layoutRequests)
            .arg(m_activated.join(QStringLiteral(", ")));
    }
    int layoutRequests = 0;

    /**
     * The layer image caches (views/kit/layerimagecache.h) that allocated a new image since the last call, as
     * "plot/cache xN" (a grid cache's picture of its first grid as "plot/gridLayerCache first xN"): what a step's page
     * faults were spent on (issue 16, eighteenth stop).
     */
    QString imageAllocations(QWidget* window)
    {
        QStringList allocated;
        for (QCustomPlot* plot : window->findChildren<QCustomPlot*>()) {
            for (QCPLayerable* child : plot->findChildren<QCPLayerable*>()) {
                auto* cache = dynamic_cast<views::LayerImageCache*>(child);
                if (!cache)
                    continue;
                const QString name = plot->objectName() + QLatin1Char('/')
                                     + (cache->objectName().isEmpty() ? QString::number(quintptr(cache), 16) : cache->objectName());
                long long& seen = m_allocations[cache];
                if (cache->allocations() != seen)
                    allocated << QStringLiteral("%1 x%2").arg(name).arg(cache->allocations() - seen);
                seen = cache->allocations();
                if (auto* grid = dynamic_cast<views::GridLayerCache*>(cache)) {
                    long long& first = m_firstAllocations[grid];
                    if (grid->firstGridAllocations() != first)
                        allocated << QStringLiteral("%1 first x%2").arg(name).arg(grid->firstGridAllocations() - first);
                    first = grid->firstGridAllocations();
                }
            }
        }
        return allocated.join(QStringLiteral(", "));
    }

    /**
     * RL_DEBUG_HINTS (issue 16, h16k): the widgets in a layout whose size hints, minimum or maximum size or visibility
     * differ from the last call ("name: hint 80x20 -> 96x20"): what asked for the layout pass of a step. Reads every
     * widget's hints, so only for debugging.
     */
    QString hintChanges(QWidget* window)
    {
        QStringList changes;
        QHash<QWidget*, QString> now;
        for (QWidget* w : window->findChildren<QWidget*>()) {
            QWidget* parent = w->parentWidget();
            if (!parent || !parent->layout() || parent->layout()->indexOf(w) < 0 || !parent->isVisible())
                continue;
            const QSize hint = w->sizeHint(), minimumHint = w->minimumSizeHint();
            const QString state = QStringLiteral("%1hint %2x%3 min %4x%5 size %6x%7..%8x%9 hfw %10")
                                      .arg(w->isHidden() ? QStringLiteral("hidden ") : QString())
                                      .arg(hint.width()).arg(hint.height()).arg(minimumHint.width()).arg(minimumHint.height())
                                      .arg(w->minimumWidth()).arg(w->minimumHeight()).arg(w->maximumWidth()).arg(w->maximumHeight())
                                      .arg(w->hasHeightForWidth() ? w->heightForWidth(w->width()) : -1);
            now.insert(w, state);
            const auto it = m_hints.constFind(w);
            if (it != m_hints.cend() && *it != state) {
                const QString name = w->objectName().isEmpty() ? QString::fromLatin1(w->metaObject()->className()) : w->objectName();
                const QString parentName = parent->objectName().isEmpty() ? QString::fromLatin1(parent->metaObject()->className())
                                                                          : parent->objectName();
                changes << QStringLiteral("%1 in %2: %3 -> %4").arg(name, parentName, *it, state);
            }
        }
        m_hints = now;
        return changes.join(QStringLiteral("; "));
    }

private:
    QHash<QWidget*, QString> m_hints;
    QHash<const void*, long long> m_allocations;
    QHash<const void*, long long> m_firstAllocations;
    QList<QObject*> m_watched;
    QMap<QString, int> m_replots;
    QStringList m_resized;
    QStringList m_activated;
};

QJsonObject stats(const std::vector<double>& ms)
{
    return QJsonObject{{QStringLiteral("p50_ms"), percentile(ms, 0.50)},
                       {QStringLiteral("p95_ms"), percentile(ms, 0.95)},
                       {QStringLiteral("p99_ms"), percentile(ms, 0.99)},
                       {QStringLiteral("max_ms"), maximum(ms)},
                       {QStringLiteral("steps"), int(ms.size())}};
}

/**
 * Runs the event loop until the window has repainted after a change and gone idle: no evaluation
 * pending and no Paint event for 2 ms. Returns the ms from @p startNs to the end of the last event
 * loop pass that painted, or nothing when nothing painted within 2 s (bench::settlePaints in bench/stepclock.h, which
 * bench/dashboard_bench.cpp shares).
 */
std::optional<double> settle(views::ScenarioDocument* document, PaintWatch& watch, QElapsedTimer& clock, qint64 startNs,
                             const std::function<bool()>& busy = {})
{
    // Also waited for: @p busy (--plan-tab: the Plan tab's search queued or under way, or its result not yet painted).
    return bench::settlePaints(watch.paints, watch.lastPaintNs, clock, startNs,
                               [&] { return document->isEvaluationPending() || (busy && busy()); });
}

/** What a timed burst did. */
struct TimedBurst {
    int intervalMs = 0;
    int changes = 0;
    double durationMs = 0;        ///< first change to last change
    int evaluations = 0;
    long long frames = 0;         ///< repaints of the decode plot, from the first change until settled
    long long paintEvents = 0;    ///< Paint events of every watched widget
    double lastToPaintedMs = 0;   ///< last change to the end of the pass that painted it
    bool showsLast = false;
};

/**
 * Delivers @p changes slider positions from a @p intervalMs timer (a drag sweeping the slider end to
 * end and back), then settles. Each timeout moves the slider one position, however late it fires.
 */
TimedBurst timedBurst(app::MainWindow& window, QSlider* slider, int intervalMs, int changes, PaintWatch& watch,
                      QElapsedTimer& clock)
{
    views::ScenarioDocument* document = window.document();
    TimedBurst result;
    result.intervalMs = intervalMs;
    result.changes = changes;
    const int lo = slider->minimum(), hi = slider->maximum();
    auto position = [&](int i) {
        const int span = hi - lo;
        const int phase = (i * 3) % (2 * span); // 3 positions per change, to the end and back
        return lo + (phase <= span ? phase : 2 * span - phase);
    };
    if (slider->value() == position(0))
        slider->setSliderPosition(position(1));
    settle(document, watch, clock, clock.nsecsElapsed());
    idleUntil(clock, clock.nsecsElapsed(), 20'000'000);

    const int evaluationsBefore = document->evaluationCount();
    const long long framesBefore = watch.frames;
    const long long paintsBefore = watch.paints;
    int sent = 0;
    qint64 firstNs = 0, lastNs = 0;
    QTimer source;
    source.setTimerType(Qt::PreciseTimer);
    source.setInterval(intervalMs);
    QObject::connect(&source, &QTimer::timeout, &source, [&] {
        slider->setSliderPosition(position(sent));
        const qint64 now = clock.nsecsElapsed();
        if (sent == 0)
            firstNs = now;
        lastNs = now;
        if (++sent == changes)
            source.stop();
    });
    source.start();
    while (sent < changes)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    const std::optional<double> painted = settle(document, watch, clock, lastNs);
    result.durationMs = double(lastNs - firstNs) / 1e6;
    result.evaluations = document->evaluationCount() - evaluationsBefore;
    result.frames = watch.frames - framesBefore;
    result.paintEvents = watch.paints - paintsBefore;
    result.lastToPaintedMs = painted.value_or(-1.0);
    result.showsLast = !document->isEvaluationPending()
        && document->evaluatedScenario().workload.contextTokens == document->scenario().workload.contextTokens
        && painted.has_value();
    return result;
}

} // namespace

int main(int argc, char** argv)
{
    QElapsedTimer clock;
    clock.start();
    const double ageAtMain = ridgeline::bench::processAgeSeconds();
    // The competing load starts before Qt (fork() of a process without threads), so start-up too is
    // measured under it.
    const int loadProcesses = bench::loadArgument(argc, argv);
    CompetingLoad load(loadProcesses);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    // RL_DEBUG_STARTUP=1: where start-up's wall time goes (ms from process start at each checkpoint, on stderr;
    // oneplot_startup prints the same checkpoints).
    const bool debugStartup = qEnvironmentVariableIsSet("RL_DEBUG_STARTUP");
    const double appMs = double(clock.nsecsElapsed()) / 1e6;
    int steps = 500;
    int spacingMs = views::ScenarioDocument::kDefaultMinimumIntervalMs + 1;
    QString jsonPath;
    bool sweepOnly = false; // skip the bursts (for profilers: --sweep-only under callgrind)
    QStringList only;       // --slider NAME: sweep only these sliders
    int pinned = 0;         // --pinned N: scenarios pinned before the sweep (0 to 6)
    bool planTab = false;   // --plan-tab: the Plan tab shown, each step timed to its new frontier painted (issue 14)
    bool startupOnly = false; // --startup-only: print the start-up line and exit (perf stat of start-up alone, issue 16)
    // --dump-steps (issue 16, h16u): under callgrind, one dump per timed step ("step <slider> <position> <value>") instead of
    // one per slider, to find the steps that cost more than their slider's median; each dump holds the wait before the
    // step (next to no instructions), the step and its settle. A step that showed nothing is dumped too ("... unchanged").
    bool dumpSteps = false;
    // --rounds N (issue 16, h16af): the whole sweep N times over (default 1), for a long run whose memory can be watched;
    // the per-slider lines are printed once a round, the JSON's per-slider figures are the last round's.
    int rounds = 1;
    const QStringList args = QCoreApplication::arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--steps") && i + 1 < args.size())
            steps = std::max(2, args[++i].toInt());
        else if (args[i] == QLatin1String("--spacing") && i + 1 < args.size())
            spacingMs = std::max(0, args[++i].toInt());
        else if (args[i] == QLatin1String("--json") && i + 1 < args.size())
            jsonPath = args[++i];
        else if (args[i] == QLatin1String("--sweep-only"))
            sweepOnly = true;
        else if (args[i] == QLatin1String("--slider") && i + 1 < args.size())
            only.append(args[++i]);
        else if (args[i] == QLatin1String("--load") && i + 1 < args.size())
            ++i; // read above, before Qt started
        else if (args[i] == QLatin1String("--pinned") && i + 1 < args.size())
            pinned = std::clamp(args[++i].toInt(), 0, 6);
        else if (args[i] == QLatin1String("--plan-tab"))
            planTab = true;
        else if (args[i] == QLatin1String("--startup-only"))
            startupOnly = true;
        else if (args[i] == QLatin1String("--dump-steps"))
            dumpSteps = true;
        else if (args[i] == QLatin1String("--rounds") && i + 1 < args.size())
            rounds = std::max(1, args[++i].toInt());
        else {
            std::fprintf(stderr, "usage: ridgeline_bench [--steps N] [--spacing MS] [--slider NAME]... [--load N] [--pinned N] "
                                 "[--plan-tab] [--sweep-only] [--startup-only] [--dump-steps] [--rounds N] [--json FILE]\n");
            return 2;
        }
    }

    // Start-up: process start to the first painted window.
    const double beforeWindowMs = double(clock.nsecsElapsed()) / 1e6;
    app::MainWindow window(model::defaultScenario());
    const double windowMs = double(clock.nsecsElapsed()) / 1e6;
    PaintWatch watch(clock);
    window.resize(1600, 1000);
    for (views::PlotPanel* panel : window.plotPanels())
        watch.watch(panel);
    watch.watch(window.numbersPanel());
    if (qEnvironmentVariableIsSet("RL_DEBUG_PAINTS"))
        watch.watch(&window); // every widget of the window, to see what a step repaints
    watch.setFrameWidget(window.plotPanels().first()->plot());
    // The numbers' 600 ms relax (issue 16, h16k) runs once after a drag pauses; a sweep measures the drag. Stretched to
    // 60 s: a step that shows nothing waits up to settle()'s 2 s, and the relax's repaint 600 ms after the step before
    // was then credited to it (two batch steps of 400-620 ms at p99, 2026-12-04); under valgrind a step takes one to
    // two seconds of wall time, so the relax would run between every two steps, as in a drag paused after each.
    if (auto* numbers = window.findChild<views::NumbersPanel*>())
        numbers->setRelaxDelay(60'000);
    window.show();
    const double shownMs = double(clock.nsecsElapsed()) / 1e6;
    settle(window.document(), watch, clock, 0);
    const double startupMs = ageAtMain * 1e3 + double(watch.lastPaintNs) / 1e6;
    if (debugStartup)
        std::fprintf(stderr,
                     "start-up checkpoints (ms from process start): main %.1f, QApplication %.1f, window built %.1f "
                     "(constructor %.1f), shown %.1f, first paint done %.1f\n",
                     ageAtMain * 1e3, ageAtMain * 1e3 + appMs, ageAtMain * 1e3 + windowMs, windowMs - beforeWindowMs,
                     ageAtMain * 1e3 + shownMs, startupMs);
    // Under callgrind: the first dump holds start-up (process start to the first painted window, and
    // the 2 ms quiet wait), comparable with oneplot_startup's whole run.
    RL_CALLGRIND_DUMP("start-up");
    if (startupOnly) { // as oneplot_startup: the process ends after its first painted window (CPU time and page faults
                       // of start-up alone under `perf stat`, comparable with the one-plot app's whole run)
        std::printf("start-up to first painted window: %.0f ms (%.0f ms before main)\n", startupMs, ageAtMain * 1e3);
        std::fflush(stdout);
        std::_Exit(watch.paints > 0 ? 0 : 1); // without the window's teardown, which the one-plot app hardly has
    }

    // --pinned N: N scenarios pinned (each evaluated once here, never on the steps).
    for (int i = 0; i < pinned; ++i) {
        window.document()->edit([i](model::Scenario& sc) {
            sc.hardware.bandwidthBytesPerSecond *= 1.0 + 0.25 * i;
            sc.workload.batch = 1 + 8 * i;
        });
        window.document()->evaluateNow();
        window.pinNext();
    }

    // --plan-tab: the Plan tab in front; a step is done when the frontier searched for it is painted. Only the Plan tab
    // is watched (the floors are hidden behind it), its plot is the frame widget.
    views::PlanTab* plan = window.whatIfTabs()->planTab();
    long long planFramesAtResult = -1; // the plot's frames when the last result was shown; -1: none since the step began
    std::vector<double> planSearchMs, planShowMs;
    std::function<bool()> planBusy;
    if (planTab) {
        window.whatIfTabs()->setCurrentIndex(views::WhatIfTabs::PlanTab);
        PaintWatch* planWatch = &watch;
        planWatch->watch(plan);
        planWatch->setFrameWidget(plan->plot()->plot());
        QObject::connect(plan, &views::PlanTab::resultShown, &app, [&] {
            planFramesAtResult = watch.frames;
            planSearchMs.push_back(plan->lastSearchMs());
            planShowMs.push_back(plan->lastShowMs());
        });
        planBusy = [&] { return plan->isRecomputePending() || (planFramesAtResult >= 0 && watch.frames == planFramesAtResult); };
        settle(window.document(), watch, clock, clock.nsecsElapsed(), planBusy);
    }

    // Model evaluation per scenario (every quantity and sweep), into reused storage.
    model::Evaluation evaluation;
    model::Scenario scenario = model::defaultScenario();
    const int evaluations = 20000;
    QElapsedTimer evalClock;
    evalClock.start();
    for (int i = 0; i < evaluations; ++i) {
        scenario.workload.batch = 1 + (i % 1024);
        model::evaluate(scenario, evaluation);
    }
    const double evaluateUs = double(evalClock.nsecsElapsed()) / 1e3 / evaluations;

    // Each slider across its whole range, one position per frame as a drag delivers them: a step
    // starts at least --spacing ms after the previous one (by default one frame and a bit, so the
    // document's frame throttle never holds a step back), and is timed to the end of its paint.
    views::ControlsPanel* controls = window.controlsPanel();
    const QList<QPair<QString, views::ValueSlider*>> sliders = {
        {QStringLiteral("model_size"), controls->modelSizeSlider()}, {QStringLiteral("kv_heads"), controls->kvHeadsSlider()},
        {QStringLiteral("batch"), controls->batchSlider()},          {QStringLiteral("context"), controls->contextSlider()},
        {QStringLiteral("bandwidth"), controls->bandwidthSlider()},  {QStringLiteral("peak_flops"), controls->peakFlopsSlider()}};
    // The benchmark's own cost: CPU while it waits 500 ms with nothing for the window to do.
    idleUntil(clock, clock.nsecsElapsed(), 100'000'000);
    const double idleCpu0 = processCpuSeconds();
    const qint64 idle0 = clock.nsecsElapsed();
    idleUntil(clock, idle0, 500'000'000);
    const double idleCpuPercent = 100.0 * (processCpuSeconds() - idleCpu0) / (double(clock.nsecsElapsed() - idle0) / 1e9);

    QJsonObject perSlider;
    std::vector<double> all;
    std::vector<double> allPlanSearchMs, allPlanShowMs; // --plan-tab
    double sweepCpuSeconds = 0; // process CPU over the timed steps (from each change to its settle)
    int sweepSteps = 0;
    qint64 refreshedNs = -1; // debug: when the window's refresh after an evaluation returned
    QObject::connect(window.document(), &views::ScenarioDocument::evaluated, &app, [&] { refreshedNs = clock.nsecsElapsed(); });
    qint64 previousStepNs = clock.nsecsElapsed();
    const bool debugSteps = qEnvironmentVariableIsSet("RL_DEBUG_STEPS");
    const bool debugDamage = qEnvironmentVariableIsSet("RL_DEBUG_DAMAGE");
    if (debugDamage) {
        watch.recordDamage = true;
        watch.watch(&window); // every widget of the window
    }
    LayoutWatch layoutWatch;
    if (debugSteps) {
        layoutWatch.watchPlots(&window);
        app.installEventFilter(&layoutWatch);
        layoutWatch.imageAllocations(&window);
    }
    for (int round = 0; round < rounds; ++round)
    for (const auto& [name, control] : sliders) {
        if (!only.isEmpty() && !only.contains(name))
            continue;
        // Each slider sweeps from the starting scenario (the model-size sweep ends on a small model
        // whose head count leaves the KV-heads slider only two positions).
        window.document()->setScenario(model::defaultScenario());
        window.document()->evaluateNow();
        idleUntil(clock, clock.nsecsElapsed(), 100'000'000);
        if (planTab)
            settle(window.document(), watch, clock, clock.nsecsElapsed(), planBusy);
        previousStepNs = clock.nsecsElapsed();
        planSearchMs.clear();
        planShowMs.clear();
        QSlider* slider = control->slider();
        std::vector<double> ms;
        // Under callgrind: one dump per slider ("slider <name> <steps>"), its steps and nothing else
        // (the waits between steps sleep in the event loop and cost next to no instructions).
        if (qEnvironmentVariableIsSet("RL_DEBUG_HINTS"))
            layoutWatch.hintChanges(&window);
        RL_CALLGRIND_ZERO();
        int unchanged = 0; // positions that map to the value already shown: nothing to paint
        const int lo = slider->minimum(), hi = slider->maximum();
        for (int step = 0; step < steps; ++step) {
            // Sweep up then back down, so every step changes the position.
            const int position = bench::sweepPosition(step, steps, lo, hi);
            if (position == slider->value())
                continue;
            idleUntil(clock, previousStepNs, qint64(spacingMs) * 1'000'000);
            const qint64 start = clock.nsecsElapsed();
            previousStepNs = start;
            timespec monotonicStart{}; // RL_DEBUG_STEPS: the step's start on CLOCK_MONOTONIC (perf record -k CLOCK_MONOTONIC)
            if (debugSteps)
                clock_gettime(CLOCK_MONOTONIC, &monotonicStart);
            QImage damageBefore;
            if (debugDamage) {
                damageBefore = window.screen()->grabWindow(window.winId()).toImage().convertToFormat(QImage::Format_RGB32);
                watch.painted.clear();
            }
            slider->setSliderPosition(position); // tracking: emits valueChanged as a drag does
            const long long paintsBefore = watch.paints;
            layoutWatch.reset();
            watch.firstPaintNs = -1;
            refreshedNs = -1;
            planFramesAtResult = -1;
            const double cpuBefore = processCpuSeconds();
            long faultsBefore = 0;
            if (debugSteps) {
                rusage usage{};
                getrusage(RUSAGE_SELF, &usage);
                faultsBefore = usage.ru_minflt;
            }
            std::optional<double> painted = settle(window.document(), watch, clock, start, planBusy);
            if (debugDamage) {
                std::fprintf(stderr, "damage of step %s %d\n", qPrintable(name), position);
                reportDamage(damageBefore,
                             window.screen()->grabWindow(window.winId()).toImage().convertToFormat(QImage::Format_RGB32),
                             watch.painted);
            }
            // --plan-tab: a step whose value left the scenario as it was searched nothing (no resultShown); whatever
            // painted in it (a deferred table, say) is not a frontier: counted with the unchanged positions, not timed.
            if (planTab && planFramesAtResult < 0)
                painted.reset();
            if (painted) { // the figures, CPU per step included, are over the timed steps only
                sweepCpuSeconds += processCpuSeconds() - cpuBefore;
                ++sweepSteps;
                ms.push_back(*painted);
                if (debugSteps) {
                    // CPU and minor page faults of the step (issue 16, h16u): what a wall-clock tail that callgrind's
                    // instruction counts do not show spent (the kernel's page faults, the CPU taken by other processes).
                    rusage usage{};
                    getrusage(RUSAGE_SELF, &usage);
                    std::fprintf(stderr, "%s %d %.2f ms %lld paints refreshed %.2f first paint %.2f; cpu %.2f ms, %ld page faults; %s; "
                                 "monotonic start %.6f s; images allocated [%s]\n",
                                 qPrintable(name), position, *painted, watch.paints - paintsBefore, (refreshedNs - start) / 1e6,
                                 (watch.firstPaintNs - start) / 1e6, (processCpuSeconds() - cpuBefore) * 1e3,
                                 usage.ru_minflt - faultsBefore, qPrintable(layoutWatch.summary()),
                                 double(monotonicStart.tv_sec) + double(monotonicStart.tv_nsec) / 1e9,
                                 qPrintable(layoutWatch.imageAllocations(&window)));
                }
                if (qEnvironmentVariableIsSet("RL_DEBUG_HINTS"))
                    std::fprintf(stderr, "  hints changed: %s\n", qPrintable(layoutWatch.hintChanges(&window)));
            } else {
                ++unchanged;
            }
            if (dumpSteps) {
                const QByteArray dumpName = QStringLiteral("step %1 %2 %3%4")
                                                .arg(name)
                                                .arg(position)
                                                .arg(control->value(), 0, 'g', 6)
                                                .arg(painted ? QString() : QStringLiteral(" unchanged"))
                                                .toUtf8();
                RL_CALLGRIND_DUMP(dumpName.constData());
            }
        }
        if (!dumpSteps) {
            const QByteArray dumpName = QStringLiteral("slider %1 %2 steps").arg(name).arg(ms.size() + unchanged).toUtf8();
            RL_CALLGRIND_DUMP(dumpName.constData());
        }
        QJsonObject sliderStats = stats(ms);
        sliderStats.insert(QStringLiteral("unchanged_positions"), unchanged);
        perSlider.insert(name, sliderStats);
        all.insert(all.end(), ms.begin(), ms.end());
        printStats(qPrintable(name), ms, unchanged);
        if (planTab) {
            std::printf("%-11s   plan search p50 %6.2f  p99 %6.2f ms; showing it (plot, tables) p50 %6.2f  p99 %6.2f ms; "
                        "%zu searches\n",
                        "", percentile(planSearchMs, 0.5), percentile(planSearchMs, 0.99), percentile(planShowMs, 0.5),
                        percentile(planShowMs, 0.99), planSearchMs.size());
            allPlanSearchMs.insert(allPlanSearchMs.end(), planSearchMs.begin(), planSearchMs.end());
            allPlanShowMs.insert(allPlanShowMs.end(), planShowMs.begin(), planShowMs.end());
        }
    }

    if (qEnvironmentVariableIsSet("RL_DEBUG_EVENTS")) {
        struct Tracer : QObject {
            bool eventFilter(QObject* o, QEvent* e) override {
                const auto t = e->type();
                if (t == QEvent::Paint || t == QEvent::UpdateRequest || t == QEvent::LayoutRequest || t == QEvent::MetaCall || t == QEvent::Timer || t == QEvent::Resize)
                    std::fprintf(stderr, "  ev %d %s %s\n", int(t), o->metaObject()->className(), qPrintable(o->objectName()));
                return false;
            }
        } tracer;
        qApp->installEventFilter(&tracer);
        QSlider* s = controls->contextSlider()->slider();
        idleUntil(clock, clock.nsecsElapsed(), 50'000'000);
        std::fprintf(stderr, "=== step\n");
        s->setSliderPosition(s->value() + 3);
        for (int i = 0; i < 10; ++i) { std::fprintf(stderr, "-- pass %d\n", i); QCoreApplication::processEvents(); }
        qApp->removeEventFilter(&tracer);
    }
    // Same-pass burst: 1,000 value changes before the event loop runs.
    const double cpuPerStepMs = sweepSteps > 0 ? sweepCpuSeconds / sweepSteps * 1e3 : 0.0;
    if (planTab) { // the Plan tab's figures (docs/performance.md, "Plan tab: frontier per slider step")
        printStats("overall", all);
        std::printf("Plan tab: slider change to the new frontier painted, p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu steps); "
                    "one 60 Hz frame is 16.7 ms\n",
                    percentile(all, 0.5), percentile(all, 0.99), maximum(all), all.size());
        std::printf("plan search (model::searchPlans) p50 %.2f ms, p99 %.2f ms; showing the result p50 %.2f ms, p99 %.2f ms; "
                    "Pareto plot replot (QCustomPlot::replotTime, average) %.2f ms\n",
                    percentile(allPlanSearchMs, 0.5), percentile(allPlanSearchMs, 0.99), percentile(allPlanShowMs, 0.5),
                    percentile(allPlanShowMs, 0.99), plan->plot()->plot()->replotTime(true));
        std::printf("CPU per step: %.2f ms (process, change to settled, %d steps, less 2 ms of waiting each)\n", cpuPerStepMs, sweepSteps);
        std::printf("steps spaced %d ms apart; competing load: %d spinning process(es)\n", spacingMs, loadProcesses);
        return 0;
    }
    if (sweepOnly) {
        printStats("overall", all);
        std::printf("CPU per step: %.2f ms (process, change to settled, %d steps, less 2 ms of waiting each)\n", cpuPerStepMs, sweepSteps);
        rusage sweepUsage{};
        getrusage(RUSAGE_SELF, &sweepUsage);
        std::printf("peak resident memory: %.1f MB; undo steps kept: %d\n", double(sweepUsage.ru_maxrss) / 1024.0,
                    window.history()->stack()->count());
        return 0;
    }
    QSlider* batch = controls->batchSlider()->slider();
    idleUntil(clock, previousStepNs, qint64(spacingMs) * 1'000'000);
    const int evaluationsBefore = window.document()->evaluationCount();
    const long long paintsBefore = watch.paints;
    const qint64 burstStart = clock.nsecsElapsed();
    for (int i = 0; i < 1000; ++i)
        batch->setSliderPosition(batch->minimum() + (i * 7) % (batch->maximum() - batch->minimum() + 1));
    const double burstMs = settle(window.document(), watch, clock, burstStart).value_or(-1.0);
    const int burstEvaluations = window.document()->evaluationCount() - evaluationsBefore;
    const long long burstPaints = watch.paints - paintsBefore;
    const bool showsLast = window.document()->evaluatedScenario().workload.batch
                           == int(std::lround(controls->batchSlider()->value()));

    // Timed bursts: 1,000 changes of the context slider from a 1 ms and a 2 ms timer.
    QSlider* context = controls->contextSlider()->slider();
    std::vector<TimedBurst> timed;
    for (int intervalMs : {1, 2})
        timed.push_back(timedBurst(window, context, intervalMs, 1000, watch, clock));

    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const double peakRssMb = double(usage.ru_maxrss) / 1024.0;

    load.stop();
    printStats("overall", all);
    std::printf("steps spaced %d ms apart; document throttle %d ms; competing load: %d spinning process(es)\n", spacingMs,
                window.document()->minimumInterval(), loadProcesses);
    std::printf("CPU per step: %.2f ms (process CPU from each change to its settle, %d steps)\n", cpuPerStepMs, sweepSteps);
    std::printf("benchmark's own CPU while waiting: %.1f %% of a core\n", idleCpuPercent);
    std::printf("model evaluation (all quantities and sweeps): %.2f us per scenario\n", evaluateUs);
    std::printf("start-up to first painted window: %.0f ms (%.0f ms before main)\n", startupMs, ageAtMain * 1e3);
    std::printf("peak resident memory: %.1f MB\n", peakRssMb);
    std::printf("burst of 1,000 changes in one pass: %d evaluation(s), %lld paint event(s), settled in %.2f ms, "
                "shows the last value: %s\n",
                burstEvaluations, burstPaints, burstMs, showsLast ? "yes" : "NO");
    QJsonArray timedJson;
    for (const TimedBurst& b : timed) {
        std::printf("timed burst, 1,000 changes every %d ms: delivered in %.0f ms, %d evaluation(s), %lld frame(s), "
                    "%lld paint event(s); last change painted after %.2f ms, shows the last value: %s\n",
                    b.intervalMs, b.durationMs, b.evaluations, b.frames, b.paintEvents, b.lastToPaintedMs,
                    b.showsLast ? "yes" : "NO");
        timedJson.append(QJsonObject{{QStringLiteral("interval_ms"), b.intervalMs},
                                     {QStringLiteral("changes"), b.changes},
                                     {QStringLiteral("duration_ms"), b.durationMs},
                                     {QStringLiteral("evaluations"), b.evaluations},
                                     {QStringLiteral("frames"), double(b.frames)},
                                     {QStringLiteral("paint_events"), double(b.paintEvents)},
                                     {QStringLiteral("last_change_to_painted_ms"), b.lastToPaintedMs},
                                     {QStringLiteral("shows_last_value"), b.showsLast}});
    }

    if (!jsonPath.isEmpty()) {
        const QJsonObject o{{QStringLiteral("per_slider"), perSlider},
                            {QStringLiteral("overall"), stats(all)},
                            {QStringLiteral("spacing_ms"), spacingMs},
                            {QStringLiteral("throttle_ms"), window.document()->minimumInterval()},
                            {QStringLiteral("model_evaluation_us"), evaluateUs},
                            {QStringLiteral("cpu_per_step_ms"), cpuPerStepMs},
                            {QStringLiteral("bench_idle_cpu_percent"), idleCpuPercent},
                            {QStringLiteral("load_processes"), loadProcesses},
                            {QStringLiteral("startup_ms"), startupMs},
                            {QStringLiteral("peak_rss_mb"), peakRssMb},
                            {QStringLiteral("burst"), QJsonObject{{QStringLiteral("changes"), 1000},
                                                                  {QStringLiteral("evaluations"), burstEvaluations},
                                                                  {QStringLiteral("paint_events"), double(burstPaints)},
                                                                  {QStringLiteral("settle_ms"), burstMs},
                                                                  {QStringLiteral("shows_last_value"), showsLast}}},
                            {QStringLiteral("timed_bursts"), timedJson}};
        QFile f(jsonPath);
        if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(o).toJson()) < 0) {
            std::fprintf(stderr, "ridgeline_bench: cannot write %s\n", qPrintable(jsonPath));
            return 1;
        }
    }
    return 0;
}
