// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include <QByteArray>
#include <QDataStream>
#include <QFont>
#include <QImage>
#include <QPoint>
#include <QRect>

#include <qcustomplot.h>

namespace ridgeline::views {

/**
 * What a LayerImageCache's layer draws from, written field by field on every replot (LayerImageCache::writeKey()) and
 * compared with the key of the image held: equal only when every field is, no hash (issue 16, twenty-second stop in
 * docs/performance.md; a QDataStream into a new QByteArray each replot cost 0.65 M instructions a model-size step).
 *
 * Plain values go in as their bytes (put()), texts as their UTF-16 code units, vectors of numbers as their elements'
 * bytes, fonts as QFont values compared with QFont::operator== (the request: families, size, weight, style, spacing,
 * features), solid and empty pens and brushes as their fields, others (gradients, textures) as QDataStream writes them.
 * clear() keeps the memory: a key written on every replot allocates nothing once it has grown.
 */
class LayerKey {
public:
    /** Empties the key, keeping its memory. */
    void clear()
    {
        m_bytes.clear();
        m_fonts.clear();
    }
    /** Appends the bytes of @p value (a plain value: numbers, enums, QRect, QPointF, QSize, pointers as identities). */
    template <typename T>
    void put(const T& value)
    {
        static_assert(std::is_trivially_copyable_v<T>, "a plain value: its bytes say all it holds");
        putBytes(&value, sizeof value);
    }
    /** Appends @p size bytes at @p data. */
    void putBytes(const void* data, size_t size)
    {
        const size_t at = m_bytes.size();
        m_bytes.resize(at + size);
        if (size)
            std::memcpy(m_bytes.data() + at, data, size);
    }
    /** Appends @p text: its length and its UTF-16 code units. */
    void putText(const QString& text);
    /** Appends @p values: their count and their bytes. */
    void putDoubles(const QList<double>& values);
    /** Appends what @p axis (or its absence) gives the pixel positions of what is drawn on it: its type (orientation,
     *  side), range, scale, direction and axis rect. */
    void putAxis(const QCPAxis* axis);
    /** Appends @p font (compared with QFont::operator==, which compares every field of the font's request). */
    void putFont(const QFont& font) { m_fonts.push_back(font); }
    /** Appends what @p pen draws with: colour, width, style, caps, joins, miter limit, dash offset and pattern, cosmetic
     *  flag for a solid or empty brush; QDataStream's description of the pen otherwise. */
    void putPen(const QPen& pen);
    /** Appends what @p brush fills with: style and colour for a solid or empty brush; QDataStream's description
     *  otherwise (gradients, textures, transforms). */
    void putBrush(const QBrush& brush);

    /** The bytes written so far (for tests and diagnostics). */
    size_t size() const { return m_bytes.size(); }
    friend bool operator==(const LayerKey& a, const LayerKey& b)
    {
        return a.m_bytes.size() == b.m_bytes.size()
            && (a.m_bytes.empty() || std::memcmp(a.m_bytes.data(), b.m_bytes.data(), a.m_bytes.size()) == 0)
            && a.m_fonts == b.m_fonts;
    }
    friend bool operator!=(const LayerKey& a, const LayerKey& b) { return !(a == b); }

private:
    std::vector<char> m_bytes;
    std::vector<QFont> m_fonts;
};

/**
 * A hidden QCustomPlot layer drawn from an image of it, redrawn only when a key of what it shows changes
 * (issue 16, docs/performance.md: the pinned scenarios' curves and the grid lines).
 *
 * The layerables to cache go on a hidden, logical layer (hiddenLayer()), which QCustomPlot's replot never
 * draws; this cache sits on a visible host layer where they were drawn before, and on every replot draws
 * the image of the hidden layer's children, stroked again first when writeKey() differs from the image's (or
 * cannot be written: something the key cannot describe). The image is at the paint device's pixel ratio and covers
 * the children's clip rects (as QCPLayer::draw() sets them, one pixel up), over a transparent background.
 *
 * Exports (QCPPainter::pmVectorized or pmNoCaching: PDF, SVG, PNG through QCustomPlot) draw the children
 * themselves, every vertex at the export's scale. A subclass says what its layer draws from (writeKey()), which
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
    /** Times the image was cleared to transparent before a redraw (clearImage()); a redraw that writes every pixel of
     *  the image itself (GridLayerCache: its first grid's picture copied in whole) does not clear it. */
    long long clears() const { return m_clears; }
    /**
     * Replots on screen (not exports) whose layer drew other pixels than the replot's before, as far as the key says:
     * the key changed or could not be written, or the layer went from drawing something to nothing or back. Equal
     * counts after two replots: the layer drew the same pixels both times (PlotDamage, views/kit/plotdamage.h).
     */
    long long keyChanges() const { return m_keyChanges; }

    /**
     * Writes to @p key what @p child, a layerable on a visible layer (no cache's), draws from, as describe() does, every
     * position as its pixel position; false when it is of a kind describe() does not know (PlotDamage).
     */
    static bool describeAlone(LayerKey& key, const QCPLayerable* child);
    /** @p child's clipRect() (protected in QCPLayerable); also PlotDamage's footprints. */
    static QRect clipOf(const QCPLayerable* child);
    /** The clip QCPLayer::draw() gives @p child: its clipRect() moved one pixel up. */
    static QRect drawClipOf(const QCPLayerable* child) { return clipOf(child).translated(0, -1); }

protected:
    /** A cache on layer @p host of @p plot for the children of @p hidden (a hidden, logical layer). */
    LayerImageCache(QCustomPlot* plot, const QString& host, QCPLayer* hidden);

    /** The layer whose children are cached. */
    QCPLayer* hiddenLayer() const { return m_hidden; }
    /** Writes to @p key (empty) what the hidden layer draws from at @p devicePixelRatio; false when it holds something
     *  the key cannot describe: the image is then redrawn on every replot. Anything that changes the pixels the children
     *  draw must change the key, or the image of other inputs is shown. */
    virtual bool writeKey(LayerKey& key, double devicePixelRatio) const = 0;
    /** True when @p child is drawn (the layer itself is hidden: by default the child's own visibility). */
    virtual bool drawn(const QCPLayerable* child) const { return child->visible(); }
    /** True when the image may be copied over what is under it (QPainter::CompositionMode_Source), which gives
     *  the same pixels as blending only when nothing is under it; false (default): blended. */
    virtual bool mayCopy() const { return false; }
    /** True when the image is drawn as the bounding boxes of its ink (non-transparent pixels) within each drawn child's
     *  clip, found when it is redrawn: the same pixels (blending a transparent pixel changes nothing), less to blend
     *  where the children draw little in large clips (a legend's entries). False (default): the whole image. */
    virtual bool trimsToInk() const { return false; }
    /** Asked on every replot, @p keyChanged true when the key of what the children now draw from differs from the last
     *  replot's (or either could not be written), @p painter the one drawing into the paint buffer: true when they are to
     *  be drawn in the cache's place directly (drawInPlace()), leaving the image as it is (default: false). */
    virtual bool drawsInPlace(bool keyChanged, const QCPPainter* painter)
    {
        Q_UNUSED(keyChanged);
        Q_UNUSED(painter);
        return false;
    }
    /** Draws the children in the cache's place with @p painter when drawsInPlace() said so: by default drawChildren(),
     *  as into an export. */
    virtual void drawInPlace(QCPPainter* painter) { drawChildren(painter); }


    /**
     * Writes to @p key what @p child of the hidden layer draws from; false when it is of a kind this cannot describe
     * (writeKey() should then return false). A QCPGraph: visibility, clip rect, its axes' types, ranges, scales,
     * directions and axis rect, pen, brush, line and scatter style, antialiasing, selection, channel fill, adaptive
     * sampling, scatter skip and its data; a QCPItemStraightLine: its pen, selection and pixel positions; a QCPItemText:
     * text, font, colours, pens, brushes, padding, alignment, rotation, selection and position (see writePosition()).
     */
    bool describe(LayerKey& key, const QCPLayerable* child) const;
    /** Writes what the plot itself gives every child: its viewport, @p devicePixelRatio, antialiased and not antialiased
     *  elements and plotting hints. */
    void describePlot(LayerKey& key, double devicePixelRatio) const;
    /** Writes where @p position puts its item: its pixel position, or, hung from an anchor of an item on the hidden
     *  layer (which the key describes), that anchor and its own coordinates (no pixelPosition(): see the .cpp). */
    void writePosition(LayerKey& key, const QCPItemPosition* position) const;
    /** describe() and writePosition() for @p cache (nullptr: no anchor is on a hidden layer the key describes). */
    static bool describeIn(LayerKey& key, const QCPLayerable* child, const LayerImageCache* cache);
    static void writePositionIn(LayerKey& key, const QCPItemPosition* position, const LayerImageCache* cache);
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
     * Draws the hidden layer into the image @p image (the plot's pixels from its top left) through @p picture
     * (translated to the image's origin). @p image holds what an earlier redraw left in its memory: this writes every
     * pixel of it, by default clearImage() and then drawChildren(). A subclass may reuse part of an earlier image,
     * where that gives the same pixels, and need not clear what it then overwrites whole.
     */
    virtual void drawPicture(QCPPainter* picture, QImage& image) const;
    /** Fills @p image (the image drawPicture() is given) with ground() (counted by clears()). */
    void clearImage(QImage& image) const;
    /**
     * Issue 16, thirty-second stop (docs/performance.md): before the image (or a picture in its place) is copied over
     * the buffer pixels @p copied of @p painter's device, or before anything else is drawn there (@p copied empty),
     * fills what the buffer's clear left unwritten for this cache (CardBuffer::takeUncleared(), taken by draw())
     * outside @p copied; and asks the next clear to leave @p spare (the rect this replot copies over whole; empty:
     * nothing).
     */
    void writeUncleared(QCPPainter* painter, const QRect& copied, const QRect& spare);
    /** What the image starts from on this replot: transparent, or, when it may be copied (mayCopy()) into a paint
     *  buffer cleared opaque (CardBuffer), that buffer's colour. Part of describePlot()'s key. */
    const QColor& ground() const { return m_ground; }

private:

    QCPLayer* m_hidden;
    QColor m_ground = Qt::transparent; ///< ground() of this replot (set by draw() before the key is written)
    QRect m_uncleared; ///< what the paint buffer's clear left for this replot's copy (writeUncleared())
    LayerKey m_imageKey;          ///< writeKey() of the image held
    bool m_imageKeyValid = false; ///< whether m_imageKey describes the image (false: none, or not describable)
    LayerKey m_lastKey;           ///< writeKey() of the last replot
    bool m_lastKeyValid = false;  ///< whether it could be written
    LayerKey m_nextKey;           ///< the key being written (its memory kept from replot to replot)
    /** Makes m_image @p pixels (device pixels) at @p ratio in @p format (ARGB32 premultiplied, or RGB32 on an opaque
     *  ground()), its rows in m_pixels (grown when too small, never shrunk); its pixels are left as they were. */
    void shapeImage(const QSize& pixels, double ratio, QImage::Format format);

    std::unique_ptr<uchar[]> m_pixels; ///< the memory m_image's pixels live in (grow-only)
    qsizetype m_pixelBytes = 0;        ///< the size of m_pixels in bytes
    QImage m_image;   ///< the hidden layer over ground(), m_origin at its top left (rows in m_pixels)
    QPoint m_origin;
    QList<QRect> m_ink; ///< trimsToInk(): disjoint parts of m_image (its pixels) that hold all of its ink
    long long m_renders = 0;
    long long m_draws = 0;
    long long m_allocations = 0;
    mutable long long m_clears = 0;
    long long m_keyChanges = 0;
    bool m_empty = true; ///< the last draw() had no children to draw
};

} // namespace ridgeline::views
