// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <utility>

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

/**
 * How the painter of @p axis (cacheAxisTitle()) drew its base line and tick marks (issue 16, nineteenth stop in
 * docs/performance.md): {strip images made, times the lines were drawn from one}; {-1, -1} when cacheAxisTitle() was
 * not called for @p axis. An axis whose lines are drawn from what the replot before drew them from (type, rect, viewport,
 * offset, tick lengths, pens, tick and sub-tick positions) draws them from a strip of the viewport along it, over
 * transparent, made on the first such replot; one that changed is drawn by QCustomPlot. Only where the strip gives the
 * pixels QCustomPlot's drawing gives: aliased one-pixel solid pens of opaque colours, no line endings, pixel ratio 1,
 * not for exports.
 */
std::pair<long long, long long> axisLineImageUse(const QCPAxis* axis);

/** With @p on false every axis draws its lines itself, as QCustomPlot does (for a test's reference); true by default. */
void setAxisLinesKept(bool on);

/**
 * How many times the painter of @p axis (cacheAxisTitle()) measured its title for the axis' margin
 * (QCPAxisPainterPrivate::size()) since it was made; -1 when cacheAxisTitle() was not called for @p axis. QCustomPlot
 * measures the title (QFontMetrics::boundingRect(), a text layout) in every layout pass whose axis moved; the painter
 * keeps its height per title text, font and the font's resolution (QFontMetricsF::fontDpi()), so this counts the
 * different ones it was asked with (issue 16, twenty-fourth stop in docs/performance.md). For tests.
 */
long long axisTitleSizeMeasurements(const QCPAxis* axis);

/** With @p on false the title's height is measured on every size() as QCustomPlot does (for a test's reference); true by
 *  default. */
void setAxisTitleSizeKept(bool on);

} // namespace ridgeline::views
