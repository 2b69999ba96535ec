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
 * the plot's viewport, pixel ratio, antialiasing and plotting hints, and for each curve LayerImageCache::describe() (visibility, clip
 * rect, axis ranges, scales and rect, pen, brush, line and scatter style, its data).
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

    /** With @p on false the curves are stroked in the cache's place with no image, as they were drawn before the cache
     *  (the same order over what is under them): for a test's reference picture. On by default. */
    static void setImageUsed(bool on);
    /** Replots that drew the curves in place (drawsInPlace()), setImageUsed(false) aside. */
    long long inPlaceDraws() const { return m_inPlaceDraws; }

protected:
    /** What the curves draw from: viewport, pixel ratio, antialiasing and plotting hints (describePlot()); describe() of
     *  each; whether the curves are stroked as line pieces (plotkit::curvesStrokedAsLinePieces()). False when one of
     *  them is of a kind describe() does not know. */
    bool writeKey(LayerKey& key, double devicePixelRatio) const override;
    /**
     * True while setImageUsed(false), and when the key differs from the last replot's (@p keyChanged) as that one's
     * differed from the one before, and the image holds one curve that holdsOneSingleFillCurve(): a curve that follows the slider being dragged
     * (the KV share curve on a batch step) is stroked in place, without clearing and blending the image on top. For one
     * such curve the two give the same pixels (see holdsOneSingleFillCurve()); the image stays that of the last key it was
     * drawn for, and is blended again when the key comes back to it.
     */
    bool drawsInPlace(bool keyChanged, const QCPPainter* painter) override;

private:
    CurveLayerCache(QCustomPlot* plot, QCPLayer* host, QCPLayer* curves);

    /**
     * True when the one drawn child is a curve whose stroke is one antialiased fill, which blends each pixel it covers
     * once: then the curve stroked over a transparent image and the image blended (QPainter::drawImage(), source-over)
     * give the same pixels, bit for bit, as the curve stroked over the plot (checked on random curves, pens and
     * backgrounds, opaque and translucent, and by tst_floorplot::kvShareCurveFromAPictureOnContextSteps). A QCPGraph
     * drawn as a line (no scatters, fill, selection or fast polylines) with finite data (a NaN splits it into several
     * polylines) and a solid, non-cosmetic pen wider than one device pixel (thinner pens take the cosmetic stroker,
     * which may blend a pixel twice). Several curves in one image are not: a later curve is blended over the earlier
     * ones in the image, then the whole over the plot, which rounds differently (the eleventh stop's 1-level pixels).
     * A curve stroked as line pieces at rest (plotkit::setCurvesStrokedAsLinePieces(), views/kit/curvepixels.h) blends
     * the pixels where its pieces overlap at a vertex twice, so there the two differ by rounding (at most 2 levels in
     * the test); its in-place draw is kept all the same, the difference being below what a user can see (issue 16,
     * twenty-eighth stop in docs/performance.md).
     */
    bool holdsOneSingleFillCurve(double devicePixelRatio) const;

    bool m_lastChanged = false;  ///< whether that key differed from the one before
    long long m_inPlaceDraws = 0;
};

} // namespace ridgeline::views
