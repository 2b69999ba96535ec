// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QRect>
#include <QRegion>

class QCustomPlot;
class QCPPainter;

namespace ridgeline::views {

/**
 * A plot's paint buffer cleared in the plot's background colour, and copied onto the window (issue 16, twenty-ninth stop
 * in docs/performance.md).
 *
 * QCustomPlot clears its paint buffer to transparent before each replot (setupPaintBuffers()) and, on each paint, fills
 * the window with its background brush and blends the buffer over it: about 0.25 M instructions a floor plot, six a
 * model-size step. With a CardBuffer the plot's first paint buffer is cleared in the background brush's colour instead
 * (when that brush is solid and opaque, the plot has no background pixmap and its viewport is its whole rect), so the
 * buffer is opaque, and the paint copies it onto the window (QPainter::CompositionMode_Source, no fill first): every
 * pixel of the plot is written once. Buffers above the first (a layer with a buffer of its own) are blended as before.
 * Otherwise the plot is cleared and painted as QCustomPlot does.
 *
 * The pixels differ from QCustomPlot's where partly transparent inks overlap: each is blended onto the card colour in
 * turn, rather than all onto transparent and the result onto the card (1 or 2 levels, measured in
 * docs/performance.md). Exports (toPixmap(), toPainter(), PDF, SVG) draw through
 * their own painters and are unchanged.
 */
class CardBuffer {
public:
    /** Gives @p plot a paint buffer cleared in its background colour and its paint by copy (an event filter owned by
     *  the plot). Call once, before the plot's first replot. */
    static void install(QCustomPlot* plot);
    /** The colour the device @p painter draws into was cleared to when it is @p plot's CardBuffer, cleared opaque on
     *  its last replot; otherwise transparent (any other device, an export). */
    static QColor groundUnder(const QCPPainter* painter, const QCustomPlot* plot);

    /** Test hook: false clears every CardBuffer to transparent and paints as QCustomPlot does (default true). */
    static void setEnabled(bool on);
    static bool isEnabled();
    /** Paints that copied a plot's opaque buffer onto the window, since the program started. */
    static long long copies();

    /** With @p on false a paint whose region has several rects copies the buffers once, clipped to the region (the
     *  raster engine's span blend, which hands tall copies to its thread pool), rather than rect by rect: for a
     *  test's reference. On by default. */
    static void setCopyByRect(bool on);
    /** Rects copied one by one, clipped to the rect, since start-up (a paint of one rect counts none). For tests. */
    static long long rectCopies();

    /**
     * Issue 16, thirty-second stop (docs/performance.md): the next opaque clear of @p plot's CardBuffer may leave
     * @p rect (buffer pixels, at pixel ratio 1) as it is, because the first thing drawn into the buffer on the next
     * replot copies an opaque picture over it whole (GridLayerCache, views/kit/gridlayer.h). @p painter must be the
     * one drawing into that buffer; otherwise, or with a pixel ratio other than 1, nothing is spared. The clear then
     * fills the rest of the buffer, and the rect stays unwritten until takeUncleared() hands it to the layerable that
     * writes it; a layer that would draw into the buffer before it gets it filled first (CardPaintBuffer's
     * startPainting()). Once a replot: a replot that does not ask again is cleared whole.
     */
    static void spareNextClear(const QCPPainter* painter, const QCustomPlot* plot, const QRect& rect);
    /** The rect the last clear of @p plot's CardBuffer left unwritten (spareNextClear()), handed once to the caller,
     *  who must write every pixel of it (a copy, or fillUncleared()); empty when none or @p painter draws elsewhere. */
    static QRect takeUncleared(const QCPPainter* painter, const QCustomPlot* plot);
    /** Fills @p region (buffer pixels) of the buffer @p painter draws into with the colour the buffer was cleared to,
     *  as the clear would have, whatever the painter's clip and composition mode (restored after). */
    static void fillUncleared(QCPPainter* painter, const QCustomPlot* plot, const QRegion& region);
    /** Test hook: false clears every buffer whole (default true). */
    static void setClearSpared(bool on);
    /** Test hook: a valid @p colour fills each rect a clear leaves (instead of leaving what the buffer held), so that
     *  a pixel the copy failed to write shows (default invalid: nothing filled). */
    static void setSparedPoison(const QColor& colour);
    /** Pixels that clears left for a copy to write (spareNextClear()), and pixels of such rects filled after all
     *  (a layer drew first, or the copy covered less), since start-up. For tests. */
    static long long sparedPixels();
    static long long unsparedPixels();
};

} // namespace ridgeline::views
