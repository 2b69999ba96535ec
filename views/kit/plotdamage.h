// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QBrush>
#include <QImage>
#include <QObject>
#include <QRect>

class QCustomPlot;

namespace ridgeline::views {

/**
 * A QCustomPlot's replot repaints only the pixels of its paint buffer that the replot changed (issue 16,
 * twenty-first stop in docs/performance.md).
 *
 * QCustomPlot marks its whole rect dirty at the end of every replot (QWidget::update()), and its paintEvent()
 * fills the card colour and blends the whole paint buffer (ARGB32 premultiplied) over it: about 0.27 M
 * instructions for a 377 x 357 floor plot, on every slider step, though on a batch step the decode, KV share
 * and SLO plots change in a marker, a line and a label. install() holds that update back
 * (Qt::WA_UpdatesDisabled around the replot, as QWidget::setUpdatesEnabled() sets it) and compares the new
 * buffer with a copy of the last one, row by row: the plot is then repainted in the bounding rect of the
 * pixels that differ (nothing when none does). The copy takes the changed span of each changed row.
 *
 * The same pixels: a pixel outside that rect has the value it had at the last replot, and the window's
 * backing store holds, for every pixel of the plot, what the paintEvent() of some replot drew there from the
 * buffer of that time; paintEvent() draws each pixel from its own buffer pixel and the background brush
 * alone. So the whole plot is repainted instead when anything else paintEvent() draws from changes: the
 * widget or viewport size, the background brush or pixmap, the buffers (their number, sizes, kind: only
 * QCustomPlot's raster QPixmap buffer is read), or a device pixel ratio other than 1 (the rect is in buffer
 * pixels); and on the first replot. A replot while the plot's updates are off (a parent's
 * setUpdatesEnabled(false)) only refreshes the copy: turning updates on repaints the whole plot.
 *
 * Exports and grab() draw the widget whole and are not affected. A replot with rpImmediateRefresh is painted
 * in the next paint pass, not at once (QCustomPlot's repaint() is held back with the update; the app's
 * callers, before a screenshot or an export, then grab() the window).
 */
class PlotDamage final : public QObject {
public:
    /** Installs the damage repaint on @p plot (once; a second call returns the first object). Owned by the plot. */
    static PlotDamage* install(QCustomPlot* plot);

    /** The damage repaint of @p plot, or nullptr when none is installed. */
    static PlotDamage* of(const QCustomPlot* plot);

    /** Test hook: false makes every plot's replot mark its whole rect dirty, as QCustomPlot does (default true). */
    static void setEnabled(bool on);
    static bool isEnabled();

    /** The rect (widget pixels) the last replot marked dirty; empty when it changed no pixel. Test hook. */
    QRect lastDamage() const { return m_lastDamage; }
    /** Replots that marked only part of the plot dirty (or nothing), and replots that marked all of it. Test hook. */
    int partialUpdates() const { return m_partial; }
    int wholeUpdates() const { return m_whole; }

private:
    explicit PlotDamage(QCustomPlot* plot);
    void beforeReplot();
    void afterReplot();
    /** Compares the plot's buffer with m_previous and copies what changed; false when the whole plot must repaint. */
    bool compareAndKeep(QRect* damage);

    QCustomPlot* m_plot;
    bool m_held = false;
    QImage m_previous; // the pixels of the last replot's buffer
    QBrush m_background;
    qint64 m_backgroundPixmapKey = 0;
    QRect m_viewport;
    QRect m_lastDamage;
    int m_partial = 0;
    int m_whole = 0;
};

} // namespace ridgeline::views
