// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "views/kit/layerimagecache.h"

namespace ridgeline::views {

/**
 * The pinned scenarios' curves of one QCustomPlot, drawn from an image of them (LayerImageCache) redrawn only
 * when they or the axes they are drawn on change (issue 16, docs/performance.md).
 *
 * BaselineLayer (views/kit/baselinelayer.h) puts the pinned graphs and lines on layer "pinned", which
 * this class creates above "grid" and keeps hidden: QCustomPlot's replot does not stroke them. The
 * cache itself sits on "grid", where the pinned curves were drawn before (over the grid, under the
 * live scenario's curves), and on every replot draws the picture, redrawn first when the key of what
 * the pinned layer shows changed: the plot's size and pixel ratio, each graph's axes (ranges, scales,
 * axis rect), pen, brush, scatter style and data, each line's pixel positions and pen, each label's
 * text, font, colours and pixel positions. The name labels have a layer and cache of their own on
 * "legend" (pinnedLabelLayer()), above the live curves as before. A slider step
 * that leaves the axes where they were (a batch step: the pinned curves span the batch axis) then
 * costs the pinned scenarios one image blend instead of stroking five times ten dashed curves.
 *
 * Exports (QCPPainter::pmVectorized or pmNoCaching: PDF, SVG, PNG through QCustomPlot) draw the
 * pinned graphs directly, every vertex in a vector file as before.
 */
class PinnedLayerCache final : public LayerImageCache {
public:
    /** The layer pinned graphs and lines go on in @p plot ("pinned", hidden), created with its cache
     *  (on "grid") on first use. */
    static QCPLayer* pinnedLayer(QCustomPlot* plot);
    /** The layer the pinned scenarios' name labels go on ("pinnedLabels", hidden), created with its
     *  cache on "legend" (where the labels were drawn before: above the live curves) on first use. */
    static QCPLayer* pinnedLabelLayer(QCustomPlot* plot);
    /** The cache of @p plot's pinned curves (@p labels: of its name labels), or nullptr before
     *  pinnedLayer() (pinnedLabelLayer()) was first called for it. */
    static PinnedLayerCache* find(const QCustomPlot* plot, bool labels = false);

protected:
    /** What the pinned layer draws from (describePlot(), describe() of each child); false when it holds something the
     *  key cannot describe. */
    bool writeKey(LayerKey& key, double devicePixelRatio) const override;

private:
    PinnedLayerCache(QCustomPlot* plot, QCPLayer* pinned, const QString& host);
    /** Layer @p name of @p plot, created hidden above @p host with its cache on @p host on first use. */
    static QCPLayer* cachedLayer(QCustomPlot* plot, const QString& name, const QString& host);
};

} // namespace ridgeline::views
