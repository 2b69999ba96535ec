// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QCPAxis;

namespace ridgeline::views {

class TextImage;

/**
 * Makes @p axis draw its title (QCPAxis::label()) from an image (TextImage) instead of laying it out and drawing it
 * as text on every replot (issue 16, eleventh stop in docs/performance.md): QCustomPlot's tick-label cache
 * (QCP::phCacheLabels) keeps the tick labels as pictures but measures and draws the title again each time, though
 * it does not change during a drag. Everything else of the axis (line, ticks, tick labels, selection boxes) is
 * QCustomPlot's own drawing; the title lands where QCustomPlot puts it, in the same pixels. Exports (PDF, SVG, PNG
 * through QCustomPlot) draw the title as text. Idempotent; plotkit::setupAxis() calls it for every axis it styles.
 */
void cacheAxisTitle(QCPAxis* axis);

/** The image @p axis draws its title from, or nullptr when cacheAxisTitle() was not called for it. */
const TextImage* axisTitleImage(const QCPAxis* axis);

} // namespace ridgeline::views
