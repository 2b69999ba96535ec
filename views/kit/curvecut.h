// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

/**
 * The curves of plotkit::addCurve() cut to their axis rect before they are stroked (issue 16, docs/performance.md,
 * "twentieth stop"). QCustomPlot hands Qt every segment of a curve within its key range, wherever its values lie, and
 * Qt's raster engine builds the whole stroke's outline and rasterises it over the whole paint device before the spans
 * are clipped to the axis rect: a curve that leaves the value axis (t_comp below the decode floor's range, the roof's
 * slope below the roofline's) costs as much outside the plot as inside. On screen each curve is now stroked without the
 * parts of it farther outside its clip rect than its pen reaches there (pen width x (miter limit + 1), plus 2 px of
 * antialiasing): the vertices inside are kept as they were, a segment that leaves ends at its crossing of that border,
 * and a dashed pen's pattern continues where it was (the dash offset of each kept run is the length cut before it), so
 * the pixels inside the clip are the same. Vector exports (PDF, SVG) get every vertex.
 */
namespace ridgeline::views::plotkit {

/** Turns the cut on (the default) or off, for every plot; for tests and measurements. */
void setCurvesCut(bool on);

/** What the curves of addCurve() have stroked on screen since the last resetCurveStrokeStats(). */
struct CurveStrokeStats {
    long long strokes = 0;        ///< polylines stroked (each drawLinePlot() on screen)
    long long cut = 0;            ///< of them, cut to their axis rect (some vertex lay beyond the pen's reach)
    double farthestOutsidePx = 0; ///< how far outside its clip rect the farthest vertex stroked lay, px
};

/** The statistics since the last reset. */
CurveStrokeStats curveStrokeStats();

/** Resets curveStrokeStats(). */
void resetCurveStrokeStats();

} // namespace ridgeline::views::plotkit
