// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>

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
};

} // namespace ridgeline::views
