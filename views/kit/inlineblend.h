// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>

#include <QRectF>

class QPainter;
class QStyle;

namespace ridgeline::views {

/**
 * Drawing a tall shape so that Qt's raster engine blends it on the painting thread, not on its thread pool
 * (issue 16, thirty-first stop in docs/performance.md).
 *
 * Qt 6.4's raster engine hands a blend of 96 spans or more (a span: a run of pixels in one row with one coverage) to
 * QThreadPool::globalInstance() in pieces of about 64 spans and waits for them on a semaphore. On a machine whose
 * cores are busy every such wait needs a pool thread to be scheduled and then the GUI thread again: a few
 * milliseconds of a slider step's latency, for a blend of 100 to 200 rows that costs microseconds. A shape the
 * engine fills row by row through its span buffer (a rect drawn under a rotation, a rect with antialiasing) reaches
 * the blend with every row of a flush at once; clipped to a strip of rows, the engine passes the blend only the
 * strip's spans, so each blend runs inline. The clip drops spans after the shape is rasterised: each pixel keeps the
 * coverage it had, and a strip blends each pixel of it once, so the pixels are the same as one draw's.
 */
class InlineBlend {
public:
    /** The most spans a blend holds and still runs on the painting thread: the engine splits a blend of `count` spans
     *  into (count + 32) / 64 pieces and hands them to the pool when that is two or more. */
    static constexpr int kInlineSpans = 95;
    /** The most device rows a strip of a shape with three spans a row holds (a rasterised fill row: a partly covered
     *  pixel at each end and the run between them): 31 rows x 3 = 93 spans. */
    static constexpr int kStripRows = kInlineSpans / 3;
    /** The most device rows a scroll bar's strip image holds (scrollBarStyle()): Fusion's bar blends one span a row
     *  (its fills and gradients, its outlines' edges, each a one-pixel column, and a row's few more at a rect's top
     *  and bottom edge), so two a row leave a margin: 47 rows x 2 = 94 spans. */
    static constexpr int kScrollBarStripRows = kInlineSpans / 2;

    /**
     * Calls @p draw, which paints with @p painter's current state within @p bounds (logical coordinates of its current
     * transform, pen width included), once if @p bounds covers at most kInlineSpans / @p spansPerRow device rows, else
     * once per strip of at most that many device rows of the rows the paint can reach (the painter's clip and the
     * paint engine's system clip: a widget's repainted region), each with the painter's clip intersected with the
     * strip. @p spansPerRow: the most spans a row of the shape's blends has (3 for a rasterised fill, 1 for a pixmap
     * or an unrotated rect drawn without antialiasing). A painter with a window / viewport transform, or with
     * setEnabled(false), draws once.
     */
    static void draw(QPainter* painter, const QRectF& bounds, const std::function<void()>& draw, int spansPerRow = 3);

    /**
     * The application's style with a group box's frame (Fusion's PE_FrameGroupBox: a small pixmap stretched over the
     * box, a blend as tall as the part of the box repainted) drawn in strips by draw(), for a QGroupBox's setStyle()
     * (a widget's style does not reach its children). One instance, a child of the application, made on first use.
     */
    static QStyle* groupBoxStyle();

    /**
     * The same style as groupBoxStyle(), for a QScrollBar's setStyle(): Fusion's scroll bar (CC_ScrollBar: the groove's
     * gradient, its outline and lines, the slider, each a blend as tall as the bar) drawn in strips of at most
     * kScrollBarStripRows device rows, each painted into an image of its own and copied, so that no blend is handed to
     * the raster engine's thread pool (112 hand-offs in start-up's first paint before; issue 16, thirty-third stop,
     * docs/performance.md). The pixels are one draw's: the bar's groove covers it with an opaque gradient before
     * anything else, so a strip image drawn from nothing holds the same pixels. Where that cannot be shown (a transient
     * bar, a painter with an opacity, a transform other than whole-pixel translations, a device pixel ratio other than
     * 1, a repaint of part of a row) the bar is drawn once, as Fusion draws it.
     */
    static QStyle* scrollBarStyle();

    /** With @p on false draw() draws once, as before the strips: for a test's reference. On by default. */
    static void setEnabled(bool on);

    /** Strips drawn since start-up (a shape drawn once counts none). For tests. */
    static long long strips();
    /** Of them, the scroll bars' strip images (scrollBarStyle()). For tests. */
    static long long scrollBarStrips();
    /** The tallest strip drawn since start-up or resetTallest(), in device rows. For tests. */
    static int tallestStripRows();
    static void resetTallest();
};

} // namespace ridgeline::views
