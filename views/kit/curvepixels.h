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

/** The polyline (pixels) an addCurve() curve strokes from that mapping before it is simplified: what QCPGraph's
 *  getLines() gives for its unselected data, double for double. Empty for other graphs. */
QVector<QPointF> curvePixelLines(const QCPGraph* graph);

} // namespace ridgeline::views::plotkit
