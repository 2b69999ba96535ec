// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/parallelreplot.h"

#include <algorithm>
#include <vector>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QSemaphore>

#include <qcustomplot.h>

namespace ridgeline::views {

namespace {

/**
 * QCustomPlot::replot()'s parts, from outside QCustomPlot's friends: the members are protected, and a pointer to
 * them taken through a derived class may be used on any plot (as views/kit/gridlayer.cpp reads an axis).
 */
struct PlotAccess : QCustomPlot {
    static bool& replotting(QCustomPlot* plot) { return plot->*(&PlotAccess::mReplotting); }
    static bool& replotQueued(QCustomPlot* plot) { return plot->*(&PlotAccess::mReplotQueued); }
    static double& replotTime(QCustomPlot* plot) { return plot->*(&PlotAccess::mReplotTime); }
    static double& replotTimeAverage(QCustomPlot* plot) { return plot->*(&PlotAccess::mReplotTimeAverage); }
    static const QList<QCPLayer*>& layers(QCustomPlot* plot) { return plot->*(&PlotAccess::mLayers); }
    static const QList<QSharedPointer<QCPAbstractPaintBuffer>>& buffers(QCustomPlot* plot)
    {
        return plot->*(&PlotAccess::mPaintBuffers);
    }
    static void layOut(QCustomPlot* plot) { (plot->*(&PlotAccess::updateLayout))(); } // virtual: the plot's own
    static void setUpBuffers(QCustomPlot* plot) { (plot->*(&PlotAccess::setupPaintBuffers))(); }
};

/** QCPLayer::drawToPaintBuffer() (protected; QCustomPlot is its friend). */
struct LayerAccess : QCPLayer {
    static void drawIntoBuffer(QCPLayer* layer) { (layer->*(&LayerAccess::drawToPaintBuffer))(); }
};

/** Every layer of @p plot drawn into its paint buffer, in order: QCustomPlot::replot()'s drawing. */
void drawLayers(QCustomPlot* plot)
{
    const QList<QCPLayer*> layers = PlotAccess::layers(plot); // a copy, as QCustomPlot's foreach iterates
    for (QCPLayer* layer : layers)
        LayerAccess::drawIntoBuffer(layer);
}

/** True when the platform draws QPixmaps in memory, so that a QPainter may draw on one off the GUI thread (Qt's
 *  QPlatformIntegration::ThreadedPixmaps, which is not public API: the platforms known to report it). */
bool threadedPixmaps()
{
    const QString name = QGuiApplication::platformName();
    return name == QLatin1String("xcb") || name == QLatin1String("offscreen") || name.startsWith(QLatin1String("wayland"))
        || name == QLatin1String("windows") || name == QLatin1String("cocoa");
}

int threadsFromEnvironment()
{
    bool ok = false;
    const int threads = qEnvironmentVariableIntValue("RL_REPLOT_THREADS", &ok);
    return ok ? threads : 2;
}

/** The first phase of QCustomPlot::replot() for @p plot: beforeReplot(), layout, paint buffers. */
void prepare(QCustomPlot* plot)
{
    PlotAccess::replotting(plot) = true;
    PlotAccess::replotQueued(plot) = false;
    emit plot->beforeReplot();
    PlotAccess::layOut(plot);
    PlotAccess::setUpBuffers(plot);
}

/** The last phase of QCustomPlot::replot() for @p plot, drawn in @p ms; its posted replot call dropped. */
void finish(QCustomPlot* plot, double ms)
{
    for (const QSharedPointer<QCPAbstractPaintBuffer>& buffer : PlotAccess::buffers(plot))
        buffer->setInvalidated(false);
    if (plot->plottingHints().testFlag(QCP::phImmediateRefresh)) // replot()'s rpRefreshHint, the queued call's
        plot->repaint();
    else
        plot->update();
    PlotAccess::replotTime(plot) = ms;
    double& average = PlotAccess::replotTimeAverage(plot);
    average = qFuzzyIsNull(average) ? ms : average * 0.9 + ms * 0.1;
    emit plot->afterReplot();
    PlotAccess::replotting(plot) = false;
    // The replot queued by QCustomPlot::replot(rpQueuedReplot) is done: its posted call (a plot's only posted calls,
    // as PlotPanel::eventFilter() assumes) would draw the same again. A replot queued during this one (by a
    // beforeReplot() or afterReplot() handler) is queued again, once, as QCustomPlot would run it after this one.
    QCoreApplication::removePostedEvents(plot, QEvent::MetaCall);
    if (PlotAccess::replotQueued(plot)) {
        PlotAccess::replotQueued(plot) = false;
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

} // namespace

ParallelReplot::ParallelReplot(QObject* parent)
    : QObject(parent)
{
    m_pool.setExpiryTimeout(-1);
    m_pool.setObjectName(QStringLiteral("parallelReplotPool"));
    setDrawingThreads(threadsFromEnvironment());
}

ParallelReplot::~ParallelReplot()
{
    m_pool.waitForDone();
}

void ParallelReplot::setDrawingThreads(int threads)
{
    m_threads = std::clamp(threads, 1, 4);
    m_pool.setMaxThreadCount(std::max(1, m_threads - 1));
}

void ParallelReplot::replotQueued(const QList<QCustomPlot*>& plots)
{
    QList<QCustomPlot*> queued;
    for (QCustomPlot* plot : plots)
        if (plot && !plot->testAttribute(Qt::WA_PendingResizeEvent) && PlotAccess::replotQueued(plot)
            && !PlotAccess::replotting(plot))
            queued.append(plot);
    const bool parallel = m_threads > 1 && queued.size() > 1 && threadedPixmaps()
        && std::none_of(queued.cbegin(), queued.cend(), [](const QCustomPlot* p) { return p->openGl(); });
    if (!parallel) {
        // As before (PlotPanel::replotNow()): each queued replot delivered now, on this thread.
        for (QCustomPlot* plot : plots)
            if (plot && !plot->testAttribute(Qt::WA_PendingResizeEvent))
                QCoreApplication::sendPostedEvents(plot, QEvent::MetaCall);
        return;
    }

    QElapsedTimer clock;
    std::vector<qint64> startNs(size_t(queued.size()));
    clock.start();
    for (qsizetype i = 0; i < queued.size(); ++i) {
        startNs[size_t(i)] = clock.nsecsElapsed();
        prepare(queued[i]);
    }

    // The split: longest first to the thread with the least drawing so far (a plot not drawn yet weighs 1 ns).
    const int bins = int(std::min<qsizetype>(m_threads, queued.size()));
    std::vector<qsizetype> order(size_t(queued.size()));
    for (qsizetype i = 0; i < queued.size(); ++i)
        order[size_t(i)] = i;
    std::stable_sort(order.begin(), order.end(), [&](qsizetype a, qsizetype b) {
        return m_drawNs.value(queued[a]) > m_drawNs.value(queued[b]);
    });
    std::vector<std::vector<qsizetype>> jobs(static_cast<size_t>(bins));
    std::vector<double> load(static_cast<size_t>(bins), 0.0);
    for (qsizetype i : order) {
        const size_t bin = size_t(std::min_element(load.begin(), load.end()) - load.begin());
        jobs[bin].push_back(i);
        load[bin] += m_drawNs.value(queued[i]) + 1.0;
    }

    std::vector<qint64> drawNs(size_t(queued.size()), 0);
    const auto drawJob = [&queued, &drawNs](const std::vector<qsizetype>& job) {
        QElapsedTimer timer;
        for (qsizetype i : job) {
            timer.start();
            drawLayers(queued[i]);
            drawNs[size_t(i)] = timer.nsecsElapsed();
        }
    };
    // Done when each worker has released: not QThreadPool::waitForDone(), which also ends the pool's threads (and
    // with them their font caches: a new thread loads its fonts again).
    QSemaphore done;
    for (int bin = 1; bin < bins; ++bin) {
        const std::vector<qsizetype>* job = &jobs[size_t(bin)];
        m_pool.start([&drawJob, &done, job] {
            drawJob(*job);
            done.release();
        });
        m_workerDraws += qint64(job->size());
    }
    drawJob(jobs[0]);
    done.acquire(bins - 1);
    ++m_parallelBatches;

    const qint64 drawnAt = clock.nsecsElapsed();
    for (qsizetype i = 0; i < queued.size(); ++i) {
        double& smoothed = m_drawNs[queued[i]];
        smoothed = smoothed == 0.0 ? double(drawNs[size_t(i)]) : 0.7 * smoothed + 0.3 * double(drawNs[size_t(i)]);
        finish(queued[i], double(drawnAt - startNs[size_t(i)]) * 1e-6);
    }
}

} // namespace ridgeline::views
