// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointF>
#include <QVector>

class QCPGraph;

namespace ridgeline::views::plotkit {

/**
 * Whether curves of addCurve() (views/kit/plotkit.h) take their pixel positions from their own mapping of the axes
 * (true, the default: the doubles QCPAxis::coordToPixel() gives, with the logarithm of a log axis's range taken once
 * a draw instead of once a coordinate) or draw through QCPGraph::draw() (false: for tests that compare the two).
 * Issue 16, twenty-sixth stop in docs/performance.md.
 */
void setCurvePixelsMapped(bool on);

/** Draws of addCurve() curves, in this process, that took their pixel positions from that mapping. */
long long curvePixelMaps();

/**
 * Whether an addCurve() curve keeps the key pixels of its last mapping and uses them again when its keys (compared as
 * doubles, element by element) and its key axis' mapping (log scale, range, axis rect edge and length) are the same
 * (true, the default: the same doubles without their logarithms) or maps every key on every draw (false: for tests
 * and measurements). Issue 16, thirty-second stop in docs/performance.md.
 */
void setCurveKeyPixelsReused(bool on);

/** Mappings of addCurve() curves, in this process, that used their last key pixels again. */
long long curveKeyPixelReuses();

/**
 * Whether addCurve() curves drawn on a raster paint device at rest (antialiased, a flat-capped miter-joined pen wider
 * than a pixel, not an export) are stroked as separate line pieces through QPainter::drawLines() (true, the default:
 * the raster engine's own line rasteriser, the dashes cut by Ridgeline with their phase carried along the curve) or
 * as QCustomPlot's polyline (false: QStroker / QDashStroker and the gray rasteriser; for tests and measurements).
 * Issue 16, twenty-eighth stop in docs/performance.md.
 */
void setCurvesStrokedAsLinePieces(bool on);

/** Whether they are (setCurvesStrokedAsLinePieces()); part of CurveLayerCache's key (views/kit/curvelayer.h). */
bool curvesStrokedAsLinePieces();

/** Strokes of addCurve() curves, in this process, drawn as line pieces. */
long long curveLinePieceStrokes();

/** The polyline @p points (pixels; non-finite points are gaps, kept) as an addCurve() curve strokes it: without the
 *  vertices within 0.02 px of the line through their kept neighbours (the sleeve fitting of Zhao and Saalfeld 1997). */
QVector<QPointF> simplifiedCurve(const QVector<QPointF>& points);

/** The polyline (pixels) an addCurve() curve strokes from that mapping before it is simplified: what QCPGraph's
 *  getLines() gives for its unselected data, double for double. Empty for other graphs. */
QVector<QPointF> curvePixelLines(const QCPGraph* graph);

} // namespace ridgeline::views::plotkit
