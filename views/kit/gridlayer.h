// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "views/kit/layerimagecache.h"

#include <vector>

namespace ridgeline::views {

/**
 * The grid and sub-grid lines of one QCustomPlot, drawn from an image of them (LayerImageCache) redrawn only
 * when the lines would move or change (issue 16, tenth stop in docs/performance.md).
 *
 * A log axis has dozens of sub-grid lines, each a one-pixel line of a translucent colour blended pixel
 * by pixel: about 0.8 M instructions a replot of a floor plot, on every slider step, though a step that
 * leaves the axes where they were (a batch step) draws the same lines again. install() moves the plot's
 * QCPGrid objects to a hidden layer "gridLines" and puts this cache first on "grid", where they were
 * drawn: on every replot it blends the image of those lines, stroked again only when a key of what
 * they draw from changes (viewport and pixel ratio; each grid's visibility, pens, antialiasing and its
 * axis' range, scale, direction, axis rect, ticks and sub-ticks).
 *
 * The same pixels: the grid is the first thing drawn into the plot's paint buffer, which QCustomPlot
 * clears to transparent, and an image drawn over a transparent background and then blended
 * (source over) onto a transparent background is the image itself, bit for bit; so it is copied
 * (QPainter::CompositionMode_Source) when nothing below "grid" draws (mayCopy()), else blended.
 *
 * Exports (QCPPainter::pmVectorized or pmNoCaching: PDF, SVG, PNG through QCustomPlot) draw the grid
 * lines directly.
 */
class GridLayerCache final : public LayerImageCache {
public:
    /** Moves the grids of @p plot's axes to the hidden layer "gridLines" and puts the cache on "grid"
     *  (once per plot; a second call does nothing). Axes added later keep their grid on "grid". */
    static void install(QCustomPlot* plot);
    /** The cache of @p plot, or nullptr before install(). */
    static GridLayerCache* find(const QCustomPlot* plot);

    /** With @p on false the image's grids are drawn by QCPGrid::draw() (the lines stroked), as before the filled lines
     *  (drawChild()): for a test's reference picture. On by default. */
    static void setFilledLines(bool on);
    /** Grids whose lines were filled as rectangles (drawChild()) rather than stroked, since the cache was made. */
    long long filledGrids() const { return m_filledGrids; }
    /** Times the image was redrawn from the picture of its first grid kept from before (drawPicture()). */
    long long firstGridReuses() const { return m_firstGridReuses; }
    /** Times the picture of the first grid was allocated (a new image), rather than copied into the one held because
     *  that had the same size and format (drawPicture()). */
    long long firstGridAllocations() const { return m_firstAllocations; }
    /** With @p on false the first grid is drawn again on every redraw (drawPicture()): for a test's reference. */
    static void setFirstGridKept(bool on);
    /** With @p on false the grids are always drawn into the image and the image into the paint buffer (no
     *  drawsInPlace()): for a test's reference. On by default. */
    static void setDrawnInPlace(bool on);
    /** Replots that drew the grids into the paint buffer in the cache's place (drawsInPlace()). */
    long long inPlaceDraws() const { return m_inPlaceDraws; }
    /** With @p on false a replot in place needs the kept picture's first grid unchanged; a step that moves the key
     *  axis draws the image (drawPicture()), as before the thirty-first stop: for a test's reference. On by default. */
    static void setFirstGridRedrawnInPlace(bool on);
    /** In-place replots whose first grid had moved, drawn again into the kept picture (drawsInPlace()). */
    long long firstGridRedrawsInPlace() const { return m_firstRedrawsInPlace; }
    /** With @p on false the first grid is filled line by line over all its rows (drawFirstGrid()): for a test's
     *  reference. On by default. */
    static void setFirstGridRowCopied(bool on);
    /** First grids drawn as one row filled and its line pixels copied down the others (drawFirstGrid()). */
    long long firstGridRowCopies() const { return m_firstGridRowCopies; }

protected:
    /** What the grid lines draw from: viewport, pixel ratio, antialiasing and plotting hints; each grid's visibility,
     *  pens, antialiasing, clip and its axis' type, range, scale, direction, axis rect, ticks and sub-ticks. */
    bool writeKey(LayerKey& key, double devicePixelRatio) const override;
    /** True when @p grid would be drawn by QCPLayer::draw() were its layer the visible "grid". */
    bool drawn(const QCPLayerable* grid) const override { return shown(grid); }
    /** True when nothing is drawn into the paint buffer before this cache (the same pixels over the transparent
     *  buffer). */
    bool mayCopy() const override;
    /**
     * Draws @p grid into the image, or into an export by QCPGrid::draw(). Into the image, a grid whose lines are
     * aliased, one pixel wide (pen width 0 or 1), solid and flat-capped, drawn through a whole-pixel translation with
     * source-over at full opacity and no zero line, gets each line filled as the one-pixel rectangle the raster
     * engine's cosmetic stroker covers: the same pixels, bit for bit (the same colour blended over the same pixels),
     * where the stroker blends every pixel of a vertical line as a span of its own (issue 16, twelfth stop: 0.1 M
     * instructions a sub-grid line, 3.8 M a model-size step). Anything else: QCPGrid::draw().
     */
    void drawChild(QCPLayerable* grid, QCPPainter* painter) const override;
    /**
     * Draws the grids into the image. The first grid drawn (the bottom axis': the batch, prompt or context axis) is
     * kept as a picture of the image after it; when the image is redrawn because a later grid moved (a model-size
     * step moves the value axes' lines, not the key axis') and the first grid's own key is the same, that picture is
     * copied in (QPainter::CompositionMode_Source) in place of its lines: the same pixels, the later grids then
     * drawn over it as before (issue 16, thirteenth stop: a log key axis' vertical sub-grid lines are translucent
     * one-pixel columns, blended a row at a time).
     */
    void drawPicture(QCPPainter* picture, QImage& image) const override;
    /**
     * True when the key differs from the last replot's (@p keyChanged) as that one's differed from the one before (a
     * slider dragged that moves a value axis: every model-size step), the image may be copied (mayCopy(): the paint
     * buffer is transparent under it), @p painter draws 1:1 (pixel ratio 1, no transform, opacity 1, source-over),
     * every drawn grid is filled (drawChild()) within the cache's own clip, and a picture of the first grid was kept.
     * When the kept picture is not that of an image drawn now (the key axis moved too, as on some model-size steps),
     * drawInPlace() draws it again first, as drawPicture() would (issue 16, thirty-first stop: the image's copy into
     * the kept picture spared as well). Then drawInPlace() writes, into the paint buffer, the pixels the image would
     * hold and then be copied as: the picture copied where the image would lie, the later grids filled over it with
     * the same clips and colours over the same pixels. That spares the image's copy into the buffer (0.42 M
     * instructions a megapixel; issue 16, twenty-ninth stop). The image stays that of the last key it was drawn for,
     * and is redrawn when a replot's key equals the one before (the drag stopped).
     */
    bool drawsInPlace(bool keyChanged, const QCPPainter* painter) override;
    /** The first grid's picture copied into the paint buffer where the image would lie, the later grids filled; the
     *  picture drawn again first when the first grid moved (redrawFirstInPlace()). */
    void drawInPlace(QCPPainter* painter) override;

private:
    GridLayerCache(QCustomPlot* plot, QCPLayer* lines);
    static bool shown(const QCPLayerable* grid);
    /** True when @p grid may be filled (drawChild()) on @p painter. */
    static bool fillable(const QCPGrid* grid, const QCPPainter* painter);
    /** fillable() but for the painter: @p painter draws through a whole-pixel translation, source-over, opaque. */
    static bool fillsOn(const QCPPainter* painter);
    /** fillable() but for the painter: @p grid's lines are aliased, one pixel wide, solid, flat-capped, no zero line. */
    static bool fillableGrid(const QCPGrid* grid);
    /** Writes the key of the picture of @p grid drawn first into an image of @p pixels at @p ratio through a painter of
     *  world transform @p transform and modes @p modes, its lines filled or not (@p filled). */
    void writeFirstKey(LayerKey& key, const QCPGrid* grid, const QSize& pixels, double ratio, const QTransform& transform,
                       bool filled, int modes) const;

    /** drawChild() of a fillable @p grid: its lines filled within @p clip (the grid's clip rect, or a part of it). */
    void fillGrid(const QCPGrid* grid, QCPPainter* painter, const QRect& clip) const;
    /**
     * Draws @p grid, the first drawn, through @p picture into @p image, which holds the ground alone: as drawChild(),
     * but for a fillable grid of a horizontal axis (vertical lines, every row between the axis rect's top and bottom
     * the same) at pixel ratio 1, one row filled and its changed pixels copied into the other rows (issue 16,
     * thirty-first stop: the lines are translucent columns, filled a row at a time).
     */
    void drawFirstGrid(QCPGrid* grid, QCPPainter* picture, QImage& image) const;
    /** Draws @p grid, the first drawn, into m_first as drawPicture() would for an image of the in-place area. */
    void redrawFirstInPlace(const QCPGrid* grid);
    /** What @p grid draws from (its part of key()). */
    static void describeGrid(LayerKey& key, const QCPGrid* grid);

    mutable long long m_filledGrids = 0;
    mutable LayerKey m_firstKey;   ///< what m_first shows: the image's geometry and the first grid's description
    mutable LayerKey m_pictureKey; ///< the key of the first grid of the image being drawn (drawPicture())
    mutable QImage m_first;        ///< the image after its first grid was drawn
    mutable long long m_firstGridReuses = 0;
    mutable long long m_firstAllocations = 0;
    bool m_lastChanged = false;   ///< whether the last replot's key differed from the one before
    QPoint m_inPlaceOrigin;       ///< where the image would lie, for drawInPlace()
    QSize m_inPlaceSize;          ///< the size the image would have (pixel ratio 1), for drawInPlace()
    /// the first drawn grid, when drawInPlace() draws its picture again (it moved); null otherwise. Set by
    /// drawsInPlace() of the same replot, which found it among the hidden layer's children.
    const QCPGrid* m_firstToRedraw = nullptr;
    long long m_firstRedrawsInPlace = 0;
    mutable long long m_firstGridRowCopies = 0;
    mutable std::vector<QRgb> m_groundRow;  ///< drawFirstGrid(): the filled row before it was filled
    mutable std::vector<int> m_lineColumns; ///< drawFirstGrid(): the columns its lines changed
    long long m_inPlaceDraws = 0;
};

} // namespace ridgeline::views
