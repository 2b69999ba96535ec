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

/**
 * How often the painter of @p axis (cacheAxisTitle()) gave QCustomPlot its tick labels' parameter key from its memo
 * rather than building it again; -1 when cacheAxisTitle() was not called for @p axis. QCustomPlot compares that key
 * (QCPAxisPainterPrivate::generateLabelParameterHash(): pixel ratio, tick label rotation, side, exponent and
 * multiplication-sign style, colour, and the font as QFont::toString()) with the last one on every draw() and size()
 * of an axis, to clear its tick-label pictures when one changed; building it cost about 15 k instructions (the font's
 * string) each time, 15 times a model-size step (issue 16, fifteenth stop in docs/performance.md). The memo gives the
 * same bytes while those inputs compare equal, and builds it again when one differs.
 */
long long axisLabelKeyReuses(const QCPAxis* axis);

/** With @p on false the tick labels' parameter key is built again on every call (the memo off): for a test's reference. */
void setAxisLabelKeyKept(bool on);

} // namespace ridgeline::views
