// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QThreadPool>

class QCustomPlot;

namespace ridgeline::views {

/**
 * Draws the queued replots of several QCustomPlots together, their layers on two threads (issue 16, fifteenth
 * stop, h16p, in docs/performance.md).
 *
 * QCustomPlot::replot() lays the plot out, sets up its paint buffers, draws every layer into its buffer
 * (QCPLayer::drawToPaintBuffer()) and asks for a paint (QWidget::update()); a slider step of the main window
 * replots the five floor plots so, one after another, on the GUI thread. replotQueued() does the same for each of
 * its plots that has a replot queued (QCustomPlot::replot(rpQueuedReplot)), in three phases:
 *  1. on the GUI thread, plot by plot: beforeReplot(), the layout (afterLayout() and its handlers) and the paint
 *     buffers set up, as QCustomPlot::replot() does them;
 *  2. the layers of each plot drawn into its buffers, in the plot's layer order as QCustomPlot draws them, each
 *     plot wholly on one thread: the GUI thread draws some plots and a worker of this object's own thread pool
 *     the others at the same time (the plots split by their last drawing times, longest first to the less loaded
 *     thread); the GUI thread waits for the worker before going on;
 *  3. on the GUI thread, plot by plot: the buffers marked drawn, update() (or repaint(), as QCustomPlot chooses),
 *     afterReplot(), and the plot's posted replot call removed (it would draw the same again).
 * Each plot is drawn once and into the same pixels as QCustomPlot::replot() draws it
 * (tst_mainwindow::parallelReplotDrawsWhatASerialReplotDraws).
 *
 * Phase 2 reads the plots' objects and writes only each plot's own paint buffers and caches, while the GUI thread
 * is held: no two threads draw the same plot, and what a draw keeps between replots is kept per plot (the layer
 * image caches of views/kit hold QImages; LaidOutText lays its text out again on another thread, as a laid-out text
 * holds font engines of the thread that laid it out). The paint buffers are QPixmaps, which platforms that draw
 * pixmaps in memory (xcb, Wayland, offscreen, Windows, macOS: Qt's ThreadedPixmaps) allow off the GUI thread; on any
 * other platform, for an OpenGL plot, with one plot to draw or one drawing thread, each plot is replotted as
 * before, on the GUI thread (its posted replot call delivered, PlotPanel::replotNow()).
 *
 * The number of drawing threads (the GUI thread included) is 2 by default, or the environment variable
 * RL_REPLOT_THREADS (1 to 4; 1: every plot on the GUI thread as before), read at construction.
 */
class ParallelReplot : public QObject {
    Q_OBJECT
public:
    /** A replotter with drawingThreads() from RL_REPLOT_THREADS (default 2). */
    explicit ParallelReplot(QObject* parent = nullptr);
    ~ParallelReplot() override;

    /** Threads that draw a replotQueued() (the GUI thread and drawingThreads() - 1 workers); 1 to 4. */
    int drawingThreads() const { return m_threads; }
    /** Sets drawingThreads() (clamped to 1 to 4); 1 replots each plot on the GUI thread as QCustomPlot does. */
    void setDrawingThreads(int threads);

    /**
     * Replots now each of @p plots that has a replot queued and has been laid out (a plot still waiting for its
     * first resize replots in full then, PlotPanel::replotNow()); the others are left as they are.
     */
    void replotQueued(const QList<QCustomPlot*>& plots);

    /** replotQueued() calls that drew plots on more than one thread. */
    long long parallelBatches() const { return m_parallelBatches; }
    /** Plots drawn by a worker thread rather than the GUI thread, in all. */
    long long workerDraws() const { return m_workerDraws; }

private:
    int m_threads = 2;
    QThreadPool m_pool; ///< drawingThreads() - 1 workers that never expire (their font caches stay warm)
    QHash<const QCustomPlot*, double> m_drawNs; ///< each plot's smoothed drawing time (ns): the split's weights
    long long m_parallelBatches = 0;
    long long m_workerDraws = 0;
};

} // namespace ridgeline::views
