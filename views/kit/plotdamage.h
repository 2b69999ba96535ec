// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QList>
#include <QObject>
#include <QPointer>
#include <QRect>
#include <QRegion>

#include "views/kit/layerimagecache.h"

class QCustomPlot;
class QCPLayerable;

namespace ridgeline::views {

/**
 * A plot's replot repaints only what its moving items changed, when nothing else of the plot changed (issue 16,
 * twenty-fifth stop in docs/performance.md).
 *
 * QCustomPlot draws every layer into its paint buffer on each replot and then marks its whole rect dirty
 * (QWidget::update()); its paintEvent() fills the background and blends the whole buffer (about 0.27 M instructions a
 * 377 x 357 floor plot). On a batch step the decode floor and the SLO plot move only their current-B line, its
 * marker(s) and (decode) its "B = ..." label: 880 and 478 of their 134,589 pixels changed (h16an). setMoving() names
 * such items. Around each replot the plot's own update is held back (Qt::WA_UpdatesDisabled, as h16ag did); after it,
 * a key of everything else the paint draws from is written (LayerKey):
 * - the plot: size, viewport, background brush and pixmap, paint buffers (one, at pixel ratio 1), antialiasing and
 *   plotting hints;
 * - every visible layer, and on it, in drawing order, each layerable: a layer image (LayerImageCache: grid, curves,
 *   legend, pinned scenarios) by its keyChanges() count, so its own key says whether it drew the same pixels; an axis by
 *   what its painter drew (type, rect, viewport, offset, pens, fonts, colours, tick lengths and paddings, tick and
 *   sub-tick positions, tick labels, title); an axis rect by its rect and background; the legend by its rect, pen and
 *   brush; a graph, straight line or text by LayerImageCache::describeAlone(); a layout grid or inset (which draws
 *   nothing) by its identity.
 * A layer image whose count moved since the last replot makes the replot whole at once, the key not written (a
 * model-size, KV-heads or context step moves the curves: 0.1 M instructions a step for the two plots' keys, spared);
 * the next replot writes it again, and the one after may be partial.
 * When that key equals the last replot's (and the moving items are the same), every pixel outside the moving items'
 * old and new bounding rects is the one the last replot's buffer held there, so the plot is repainted in those rects
 * only (padded by marginPx() for antialiasing and glyph overhang); otherwise, or when a layerable is of a kind the key
 * does not know (a tracer, a bar chart, a legend entry on a visible layer), the whole plot, as before.
 *
 * A replot while the plot's updates are off (a parent's setUpdatesEnabled(false), a hidden window) keeps its key and
 * repaints nothing itself: turning updates on, or showing, repaints the whole plot. Exports and grab() draw the widget
 * whole and are not affected. A replot with rpImmediateRefresh is painted in the next paint pass, not at once.
 */
class PlotDamage final : public QObject {
public:
    /** The damage repaint of @p plot, installed on first use (owned by the plot). */
    static PlotDamage* install(QCustomPlot* plot);
    /** The damage repaint of @p plot, or nullptr when none is installed. */
    static PlotDamage* of(const QCustomPlot* plot);

    /**
     * Names the items whose moves alone may repaint part of the plot: straight lines (vertical or horizontal; another
     * line counts as its whole clip rect), graphs drawn as scatter points only (a graph with a line: its whole clip
     * rect) and texts (their box's four corners). The next replot repaints the whole plot.
     */
    void setMoving(const QList<QCPLayerable*>& items);

    /** Test hook: false makes every replot mark the whole plot dirty, as QCustomPlot does (default true). */
    static void setEnabled(bool on);
    static bool isEnabled();
    /** Test hook: pixels added on each side of a moving item's bounding rect (default 3: antialiased edges, glyph
     *  overhang past the text's box). */
    static void setMarginPx(int px);
    static int marginPx();

    /** The region (widget pixels) the last replot marked dirty; the whole rect for a whole repaint. Test hook. */
    QRegion lastDamage() const { return m_lastDamage; }
    /** Replots that repainted only the moving items' rects, and replots that repainted the whole plot. */
    long long partialUpdates() const { return m_partial; }
    long long wholeUpdates() const { return m_whole; }

private:
    explicit PlotDamage(QCustomPlot* plot);
    void beforeReplot();
    void afterReplot();
    /** Writes the key of everything but the moving items into m_nextKey and their rects into @p moving; false when a
     *  layerable cannot be described or the frame is not one the rule holds for. */
    bool writeKey(QRegion* moving);
    /** The pixels @p item may have drawn in at this replot, padded by marginPx(); empty when it is not drawn. */
    QRect footprint(const QCPLayerable* item) const;

    /** A layer image of the plot and its keyChanges() when last seen. */
    struct SeenCache {
        QPointer<QCPLayerable> alive;
        const LayerImageCache* cache;
        long long keyChanges;
    };

    QCustomPlot* m_plot;
    QList<QPointer<QCPLayerable>> m_moving;
    std::vector<SeenCache> m_caches;     ///< the layer images the last key write met, and their counts since
    std::vector<SeenCache> m_nextCaches; ///< those of the key being written
    bool m_held = false;
    LayerKey m_lastKey;
    LayerKey m_nextKey;
    bool m_lastValid = false;
    QRegion m_lastMoving; ///< the moving items' rects at the last replot
    QRegion m_lastDamage;
    long long m_partial = 0;
    long long m_whole = 0;
};

} // namespace ridgeline::views
