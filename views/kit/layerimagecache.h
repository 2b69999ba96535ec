// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QByteArray>
#include <QDataStream>
#include <QImage>
#include <QPoint>
#include <QRect>

#include <qcustomplot.h>

namespace ridgeline::views {

/**
 * A hidden QCustomPlot layer drawn from an image of it, redrawn only when a key of what it shows changes
 * (issue 16, docs/performance.md: the pinned scenarios' curves and the grid lines).
 *
 * The layerables to cache go on a hidden, logical layer (hiddenLayer()), which QCustomPlot's replot never
 * draws; this cache sits on a visible host layer where they were drawn before, and on every replot draws
 * the image of the hidden layer's children, stroked again first when key() differs from the image's (or is
 * empty: something the key cannot describe). The image is at the paint device's pixel ratio and covers
 * the children's clip rects (as QCPLayer::draw() sets them, one pixel up), over a transparent background.
 *
 * Exports (QCPPainter::pmVectorized or pmNoCaching: PDF, SVG, PNG through QCustomPlot) draw the children
 * themselves, every vertex at the export's scale. A subclass says what its layer draws from (key()), which
 * children are drawn (drawn()) and whether the image may replace what is under it (mayCopy()).
 */
class LayerImageCache : public QCPLayerable {
public:
    /** Times the image was redrawn (the hidden layer's children stroked) since the cache was made. */
    long long renders() const { return m_renders; }
    /** Times the image was drawn into the plot's paint buffer, redrawn or not. */
    long long draws() const { return m_draws; }
    /** Times the pixel buffer under the image was allocated (a redraw needed more pixels than it held); a redraw at a
     *  size or pixel ratio that fits in it clears and reuses its memory (see draw()). */
    long long allocations() const { return m_allocations; }

protected:
    /** A cache on layer @p host of @p plot for the children of @p hidden (a hidden, logical layer). */
    LayerImageCache(QCustomPlot* plot, const QString& host, QCPLayer* hidden);

    /** The layer whose children are cached. */
    QCPLayer* hiddenLayer() const { return m_hidden; }
    /** What the hidden layer draws from at @p devicePixelRatio; empty: redraw the image on every replot. */
    virtual QByteArray key(double devicePixelRatio) const = 0;
    /** True when @p child is drawn (the layer itself is hidden: by default the child's own visibility). */
    virtual bool drawn(const QCPLayerable* child) const { return child->visible(); }
    /** True when the image may be copied over what is under it (QPainter::CompositionMode_Source), which gives
     *  the same pixels as blending only when nothing is under it; false (default): blended. */
    virtual bool mayCopy() const { return false; }
    /** True when the image is drawn as the bounding boxes of its ink (non-transparent pixels) within each drawn child's
     *  clip, found when it is redrawn: the same pixels (blending a transparent pixel changes nothing), less to blend
     *  where the children draw little in large clips (a legend's entries). False (default): the whole image. */
    virtual bool trimsToInk() const { return false; }
    /** Asked on every replot with the key of what the children now draw from: true when they are to be drawn in the
     *  cache's place directly, as into an export, leaving the image as it is (default: false). */
    virtual bool drawsInPlace(const QByteArray& key)
    {
        Q_UNUSED(key);
        return false;
    }

    /** @p child's clipRect() (protected in QCPLayerable). */
    static QRect clipOf(const QCPLayerable* child);
    /** The clip QCPLayer::draw() gives @p child: its clipRect() moved one pixel up. */
    static QRect drawClipOf(const QCPLayerable* child) { return clipOf(child).translated(0, -1); }

    /**
     * Writes to @p out what @p child of the hidden layer draws from; false when it is of a kind this cannot describe
     * (the key should then be empty). A QCPGraph: visibility, clip rect, its axes' ranges, scales, directions and axis
     * rect, pen, brush, line and scatter style, antialiasing and a hash of its data; a QCPItemStraightLine: its pen and
     * pixel positions; a QCPItemText: text, font, colours, padding, alignment, rotation and position (see
     * writePosition()).
     */
    bool describe(QDataStream& out, const QCPLayerable* child) const;
    /** Writes what @p pen draws with to @p out, as raw bytes for a solid or empty brush (QDataStream's QPen operator
     *  costs about 5 k instructions a pen, a fifth of a key). */
    static void writePen(QDataStream& out, const QPen& pen);
    /** Writes what @p brush fills with to @p out, as raw bytes for a solid or empty brush. */
    static void writeBrush(QDataStream& out, const QBrush& brush);
    /** Writes where @p position puts its item: its pixel position, or, hung from an anchor of an item on the hidden
     *  layer (which the key describes), that anchor and its own coordinates (no pixelPosition(): see the .cpp). */
    void writePosition(QDataStream& out, const QCPItemPosition* position) const;
    /** True when @p anchor belongs to an item on the hidden layer. */
    bool describedHere(const QCPItemAnchor* anchor) const;

    /** Draws @p child of the hidden layer with @p painter as QCPLayer::draw() does (clipped to drawClipOf(@p child),
     *  its antialiasing hint applied, its draw()); also for exports. A subclass may draw the same pixels cheaper. */
    virtual void drawChild(QCPLayerable* child, QCPPainter* painter) const;

    void applyDefaultAntialiasingHint(QCPPainter* painter) const override;
    void draw(QCPPainter* painter) final;

    /** Draws every drawn() child of the hidden layer with @p painter (drawChild()), in the layer's order. */
    void drawChildren(QCPPainter* painter) const;
    /**
     * Draws the hidden layer into the image @p image (transparent, the plot's pixels from its top left) through
     * @p picture (translated to the image's origin): by default drawChildren(). A subclass may reuse part of an
     * earlier image, where that gives the same pixels.
     */
    virtual void drawPicture(QCPPainter* picture, QImage& image) const;

private:

    QCPLayer* m_hidden;
    QByteArray m_key; ///< key() of the image held
    /** Makes m_image @p pixels (device pixels) at @p ratio, ARGB32 premultiplied, its rows in m_pixels (grown when too
     *  small, never shrunk); its pixels are left as they were. */
    void shapeImage(const QSize& pixels, double ratio);

    std::unique_ptr<uchar[]> m_pixels; ///< the memory m_image's pixels live in (grow-only)
    qsizetype m_pixelBytes = 0;        ///< the size of m_pixels in bytes
    QImage m_image;   ///< the hidden layer over a transparent background, m_origin at its top left (rows in m_pixels)
    QPoint m_origin;
    QList<QRect> m_ink; ///< trimsToInk(): disjoint parts of m_image (its pixels) that hold all of its ink
    long long m_renders = 0;
    long long m_draws = 0;
    long long m_allocations = 0;
};

} // namespace ridgeline::views
