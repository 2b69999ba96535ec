// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "views/kit/layerimagecache.h"

namespace ridgeline::views {

/**
 * A plot's legend drawn from an image of it (LayerImageCache), drawn again only when an entry would draw other pixels
 * (issue 16, twelfth stop in docs/performance.md).
 *
 * A slider step renames no curve, yet QCustomPlot draws every legend entry again on each replot: its name laid out,
 * shaped and drawn as text, and its icon stroked (about 0.25 M instructions a floor plot a step). install() moves the
 * plot's QCPLegend and its entries to a hidden layer "legendEntries" and puts this cache in the legend's place on its
 * layer; on every replot the cache blends the image of the entries, drawn again first when the key changed: viewport,
 * pixel ratio, antialiasing and plotting hints; the legend's rect, font, colours, icon size and padding, pens and brush; and per entry
 * its rects, font, colour, selection and its plottable's name, pen, brush, line and scatter style (the icon).
 * adopt() moves entries added since (QCustomPlot puts them on "legend") to the hidden layer.
 *
 * The same pixels: the entries are drawn over the transparent paint buffer in a cell of the plot's layout of their
 * own, and an image of them over transparent blended onto transparent is the image, bit for bit. Exports
 * (QCPPainter::pmVectorized or pmNoCaching) draw the entries themselves. On the hidden layer the entries are not found
 * by QCustomPlot's hit test (legendClick, legend selection): no plot of the app uses either.
 */
class LegendLayerCache final : public LayerImageCache {
public:
    /** Moves @p plot's legend and its entries to the hidden layer "legendEntries" and puts a cache in the legend's place
     *  on its layer; returns it. Once per plot (later calls return the cache, nullptr when the legend has no layer). */
    static LegendLayerCache* install(QCustomPlot* plot);
    /** The cache of @p plot, or nullptr before install(). */
    static LegendLayerCache* find(const QCustomPlot* plot);
    /** Moves legend entries of @p plot that QCustomPlot put on the legend's visible layer since install() (new
     *  plottables) to the hidden layer. No-op without a cache. */
    static void adopt(QCustomPlot* plot);

protected:
    /** What the legend draws from (see the class comment); false when an entry is not a graph's or a bar's, or its icon
     *  is a custom scatter. */
    bool writeKey(LayerKey& key, double devicePixelRatio) const override;
    /** Entries drawn where QCPLayer::draw() would draw them were the hidden layer visible; the QCPLegend itself only
     *  when it draws a frame or a background (else its clip, the viewport, would size the image). */
    bool drawn(const QCPLayerable* child) const override;
    /** True: the entries' ink is a small part of the legend's cells. */
    bool trimsToInk() const override { return true; }

private:
    LegendLayerCache(QCustomPlot* plot, QCPLayer* host, QCPLayer* entries);
};

} // namespace ridgeline::views
