// SPDX-License-Identifier: GPL-3.0-or-later
// Slider-to-painted latency of the real main window (issue 6). Built with the project, not run by
// CTest (timings on shared machines are noisy). Usage:
//   QT_QPA_PLATFORM=offscreen build/bench/ridgeline_bench [--steps 500] [--json FILE]
// Prints per-slider and overall p50 / p95 / p99 / max in ms, model evaluation time per scenario,
// start-up time to the first painted window, peak resident memory, and the burst (backlog) check.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sys/resource.h>
#include <unistd.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSlider>
#include <QWidget>

#include "app/mainwindow.h"
#include "model/costmodel.h"
#include "views/controlspanel.h"
#include "views/numberspanel.h"
#include "views/plotpanel.h"
#include "views/scenariodocument.h"
#include "views/valueslider.h"

using namespace ridgeline;

namespace {

/** Counts Paint events on the watched widgets and remembers when the last one ended. */
class PaintWatch final : public QObject {
public:
    explicit PaintWatch(QElapsedTimer& clock) : m_clock(clock) {}
    void watch(QWidget* w)
    {
        w->installEventFilter(this);
        for (QWidget* child : w->findChildren<QWidget*>())
            child->installEventFilter(this);
    }
    bool eventFilter(QObject* object, QEvent* event) override
    {
        if (event->type() == QEvent::Paint) {
            ++paints;
            lastPaintNs = m_clock.nsecsElapsed(); // start of the paint; the end is taken after processEvents
        }
        return QObject::eventFilter(object, event);
    }
    long long paints = 0;
    qint64 lastPaintNs = 0;

private:
    QElapsedTimer& m_clock;
};

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double rank = p * double(v.size() - 1);
    const size_t lo = size_t(rank);
    const size_t hi = std::min(v.size() - 1, lo + 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - double(lo));
}

QJsonObject stats(const std::vector<double>& ms)
{
    return QJsonObject{{QStringLiteral("p50_ms"), percentile(ms, 0.50)},
                       {QStringLiteral("p95_ms"), percentile(ms, 0.95)},
                       {QStringLiteral("p99_ms"), percentile(ms, 0.99)},
                       {QStringLiteral("max_ms"), ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end())},
                       {QStringLiteral("steps"), int(ms.size())}};
}

/** Seconds since this process started, from /proc (Linux). */
double processAgeSeconds()
{
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

/** Processes events until the window has repainted after a change and gone idle; returns ms from @p startNs. */
double settle(views::ScenarioDocument* document, PaintWatch& watch, QElapsedTimer& clock, qint64 startNs)
{
    const long long before = watch.paints;
    int quiet = 0;
    for (int i = 0; i < 1000 && quiet < 2; ++i) {
        const long long paints = watch.paints;
        QCoreApplication::processEvents(QEventLoop::AllEvents);
        const bool painted = watch.paints != paints;
        quiet = (!painted && !document->isEvaluationPending() && watch.paints != before) ? quiet + 1 : 0;
        if (painted)
            watch.lastPaintNs = clock.nsecsElapsed(); // end of this pass, which includes the paint
    }
    return double(watch.lastPaintNs - startNs) / 1e6;
}

} // namespace

int main(int argc, char** argv)
{
    QElapsedTimer clock;
    clock.start();
    const double ageAtMain = processAgeSeconds();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int steps = 500;
    QString jsonPath;
    const QStringList args = QCoreApplication::arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--steps") && i + 1 < args.size())
            steps = std::max(2, args[++i].toInt());
        else if (args[i] == QLatin1String("--json") && i + 1 < args.size())
            jsonPath = args[++i];
        else {
            std::fprintf(stderr, "usage: ridgeline_bench [--steps N] [--json FILE]\n");
            return 2;
        }
    }

    // Start-up: process start to the first painted window.
    app::MainWindow window(model::defaultScenario());
    PaintWatch watch(clock);
    window.resize(1600, 1000);
    for (views::PlotPanel* panel : window.plotPanels())
        watch.watch(panel);
    watch.watch(window.numbersPanel());
    window.show();
    settle(window.document(), watch, clock, 0);
    const double startupMs = ageAtMain * 1e3 + double(watch.lastPaintNs) / 1e6;

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

    // Each slider across its whole range, as a drag delivers positions.
    views::ControlsPanel* controls = window.controlsPanel();
    const QList<QPair<QString, views::ValueSlider*>> sliders = {
        {QStringLiteral("model_size"), controls->modelSizeSlider()}, {QStringLiteral("kv_heads"), controls->kvHeadsSlider()},
        {QStringLiteral("batch"), controls->batchSlider()},          {QStringLiteral("context"), controls->contextSlider()},
        {QStringLiteral("bandwidth"), controls->bandwidthSlider()},  {QStringLiteral("peak_flops"), controls->peakFlopsSlider()}};
    QJsonObject perSlider;
    std::vector<double> all;
    for (const auto& [name, control] : sliders) {
        QSlider* slider = control->slider();
        std::vector<double> ms;
        const int lo = slider->minimum(), hi = slider->maximum();
        for (int step = 0; step < steps; ++step) {
            // Sweep up then back down, so every step changes the position.
            const double t = double(step) / double(steps - 1);
            const int position = lo + int(std::lround((hi - lo) * (t <= 0.5 ? 2 * t : 2 - 2 * t)));
            if (position == slider->value())
                continue;
            const qint64 start = clock.nsecsElapsed();
            slider->setSliderPosition(position); // tracking: emits valueChanged as a drag does
            ms.push_back(settle(window.document(), watch, clock, start));
        }
        perSlider.insert(name, stats(ms));
        all.insert(all.end(), ms.begin(), ms.end());
        std::printf("%-11s p50 %6.2f  p95 %6.2f  p99 %6.2f  max %6.2f ms  (%zu steps)\n", qPrintable(name), percentile(ms, 0.5),
                    percentile(ms, 0.95), percentile(ms, 0.99), ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()), ms.size());
    }

    // Burst: 1,000 value changes faster than the screen refreshes (all before the event loop runs).
    QSlider* batch = controls->batchSlider()->slider();
    const int evaluationsBefore = window.document()->evaluationCount();
    const long long paintsBefore = watch.paints;
    const qint64 burstStart = clock.nsecsElapsed();
    for (int i = 0; i < 1000; ++i)
        batch->setSliderPosition(batch->minimum() + (i * 7) % (batch->maximum() - batch->minimum() + 1));
    const double burstMs = settle(window.document(), watch, clock, burstStart);
    const int burstEvaluations = window.document()->evaluationCount() - evaluationsBefore;
    const long long burstPaints = watch.paints - paintsBefore;
    const bool showsLast = window.document()->evaluatedScenario().workload.batch
                           == int(std::lround(controls->batchSlider()->value()));

    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const double peakRssMb = double(usage.ru_maxrss) / 1024.0;

    std::printf("%-11s p50 %6.2f  p95 %6.2f  p99 %6.2f  max %6.2f ms  (%zu steps)\n", "overall", percentile(all, 0.5),
                percentile(all, 0.95), percentile(all, 0.99), all.empty() ? 0.0 : *std::max_element(all.begin(), all.end()), all.size());
    std::printf("model evaluation (all quantities and sweeps): %.2f us per scenario\n", evaluateUs);
    std::printf("start-up to first painted window: %.0f ms (%.0f ms before main)\n", startupMs, ageAtMain * 1e3);
    std::printf("peak resident memory: %.1f MB\n", peakRssMb);
    std::printf("burst of 1,000 changes: %d evaluation(s), %lld paint event(s), settled in %.2f ms, shows the last value: %s\n",
                burstEvaluations, burstPaints, burstMs, showsLast ? "yes" : "NO");

    if (!jsonPath.isEmpty()) {
        const QJsonObject o{{QStringLiteral("per_slider"), perSlider},
                            {QStringLiteral("overall"), stats(all)},
                            {QStringLiteral("model_evaluation_us"), evaluateUs},
                            {QStringLiteral("startup_ms"), startupMs},
                            {QStringLiteral("peak_rss_mb"), peakRssMb},
                            {QStringLiteral("burst"), QJsonObject{{QStringLiteral("changes"), 1000},
                                                                  {QStringLiteral("evaluations"), burstEvaluations},
                                                                  {QStringLiteral("paint_events"), double(burstPaints)},
                                                                  {QStringLiteral("settle_ms"), burstMs},
                                                                  {QStringLiteral("shows_last_value"), showsLast}}}};
        QFile f(jsonPath);
        if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(o).toJson()) < 0) {
            std::fprintf(stderr, "ridgeline_bench: cannot write %s\n", qPrintable(jsonPath));
            return 1;
        }
    }
    return 0;
}
