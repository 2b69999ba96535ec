// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>

#include "views/kit/layerimagecache.h"

namespace ridgeline::views {

/**
 * A floor plot's curves drawn from an image of them (LayerImageCache), stroked again only when one of them would draw
 * other pixels (issue 16, eleventh stop in docs/performance.md).
 *
 * A batch step moves the decode plot's operating point along curves that span the whole batch axis: the curves' data,
 * pens and axes are those of the step before, yet QCustomPlot strokes every antialiased, dashed curve again (about 10 M
 * instructions a batch step over the floor plots). install() moves a run of a plot's layerables (its curves, and any
 * item between them) to a hidden layer "curves" and puts this cache where they were in their layer, so that what was
 * drawn under them stays under the image and what was drawn over them (markers, labels, the current line) stays over
 * it. On every replot the image is blended, stroked again first when the key of what the curves draw from changed:
 * the plot's viewport, pixel ratio and antialiasing, and for each curve LayerImageCache::describe() (visibility, clip
 * rect, axis ranges, scales and rect, pen, brush, line and scatter style, a hash of its data).
 *
 * Exports (QCPPainter::pmVectorized or pmNoCaching: PDF, SVG, PNG through QCustomPlot) stroke the curves directly.
 */
class CurveLayerCache final : public LayerImageCache {
public:
    /**
     * Moves @p layerables of @p plot (graphs, straight lines, texts; on one layer, next to each other in its drawing
     * order, given in that order) to the hidden layer "curves" and puts a cache in their place. Returns the cache;
     * nullptr, changing nothing, when the plot has one already or @p layerables are not such a run.
     */
    static CurveLayerCache* install(QCustomPlot* plot, const QList<QCPLayerable*>& layerables);
    /** The cache of @p plot, or nullptr before install(). */
    static CurveLayerCache* find(const QCustomPlot* plot);

protected:
    /** What the curves draw from: viewport, pixel ratio and antialiasing; describe() of each. Empty when one of them is
     *  of a kind describe() does not know. */
    QByteArray key(double devicePixelRatio) const override;

private:
    CurveLayerCache(QCustomPlot* plot, QCPLayer* host, QCPLayer* curves);
};

} // namespace ridgeline::views
