// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/gridlayer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <QTransform>

namespace ridgeline::views {

namespace {

const QString kGridLinesLayer = QStringLiteral("gridLines");
const QString kGridCacheName = QStringLiteral("gridLayerCache");

/** The sub-tick positions QCPGrid::drawSubGridLines() reads (protected in QCPAxis, no getter). */
struct GridAxisAccess : QCPAxis {
    static const QVector<double>& subTicks(const QCPAxis* axis) { return axis->*(&GridAxisAccess::mSubTickVector); }
};

bool g_filledLines = true;
bool g_firstGridKept = true;
bool g_drawnInPlace = true;
bool g_firstGridRedrawnInPlace = true;
bool g_firstGridRowCopied = true;

/** A pen the raster engine strokes with its cosmetic stroker, one pixel wide, as a run of whole pixels from the
 *  line's first point up to (not including) its last: aliased, width 0 or 1, solid, flat cap. */
bool onePixelFlat(const QPen& pen)
{
    return pen.style() == Qt::SolidLine && pen.widthF() <= 1.0 && pen.capStyle() == Qt::FlatCap
        && pen.brush().style() == Qt::SolidPattern && pen.brush().transform().isIdentity();
}

/** The antialiasing QCPLayerable::applyAntialiasingHint() gives an element @p element whose own setting is @p local. */
bool antialiasedIn(const QCustomPlot* plot, bool local, QCP::AntialiasedElement element)
{
    if (plot->notAntialiasedElements().testFlag(element))
        return false;
    if (plot->antialiasedElements().testFlag(element))
        return true;
    return local;
}

/**
 * Fills the pixels QPainter::drawLine(@p line) covers with a onePixelFlat() pen of colour @p color (aliased): from the
 * first point to the last, the last excluded (checked against the stroker: tst_floorplot::gridLinesFilledAsStroked). A line of no
 * length is stroked (the stroker draws a point). Translucent vertical runs go in pieces of 64 rows: the raster engine
 * hands a fill of 96 spans or more to its thread pool, and a vertical rectangle is one span a row.
 */
void fillLine(QCPPainter* painter, const QLine& line, const QColor& color)
{
    if (line.x1() == line.x2() && line.y1() != line.y2()) {
        const int top = std::min(line.y1(), line.y2());
        const int bottom = std::max(line.y1(), line.y2()); // excluded
        const int piece = color.alpha() == 255 ? bottom - top : 64;
        for (int y = top; y < bottom; y += piece)
            painter->fillRect(QRect(line.x1(), y, 1, std::min(piece, bottom - y)), color);
    } else if (line.y1() == line.y2() && line.x1() != line.x2()) {
        const int left = std::min(line.x1(), line.x2());
        painter->fillRect(QRect(left, line.y1(), std::max(line.x1(), line.x2()) - left, 1), color);
    } else {
        painter->QPainter::drawLine(line);
    }
}

} // namespace

void GridLayerCache::setFilledLines(bool on)
{
    g_filledLines = on;
}

void GridLayerCache::setFirstGridKept(bool on)
{
    g_firstGridKept = on;
}

void GridLayerCache::setDrawnInPlace(bool on)
{
    g_drawnInPlace = on;
}

void GridLayerCache::setFirstGridRedrawnInPlace(bool on)
{
    g_firstGridRedrawnInPlace = on;
}

void GridLayerCache::setFirstGridRowCopied(bool on)
{
    g_firstGridRowCopied = on;
}

void GridLayerCache::writeFirstKey(LayerKey& key, const QCPGrid* grid, const QSize& pixels, double ratio,
                                   const QTransform& t, bool filled, int modes) const
{
    key.clear();
    key.put(grid);
    key.put(pixels);
    key.put(ratio);
    key.put(ground().rgba()); // the picture starts from it (clearImage())
    for (double m : {t.m11(), t.m12(), t.m13(), t.m21(), t.m22(), t.m23(), t.m31(), t.m32(), t.m33()})
        key.put(m);
    key.put(filled);
    key.put(modes);
    key.put(int(mParentPlot->antialiasedElements()));
    key.put(int(mParentPlot->notAntialiasedElements()));
    key.put(int(mParentPlot->plottingHints()));
    describeGrid(key, grid);
}

bool GridLayerCache::drawsInPlace(bool keyChanged, const QCPPainter* painter)
{
    const bool followsTheDrag = keyChanged && m_lastChanged;
    m_lastChanged = keyChanged;
    m_firstToRedraw = nullptr;
    if (!followsTheDrag || !g_drawnInPlace || !g_firstGridKept || m_first.isNull() || !painter->device()
        || painter->device()->devicePixelRatioF() != 1.0 || !painter->worldTransform().isIdentity() || !fillsOn(painter)
        || !mayCopy())
        return false;
    // Where the image would lie (LayerImageCache::draw()), within the clip QCPLayer::draw() gave this cache (the image
    // is copied under that clip; the grids, filled in place, set their own).
    const QRect clip = drawClipOf(this);
    const QCPGrid* first = nullptr;
    QRect area;
    for (QCPLayerable* child : hiddenLayer()->children()) {
        if (!drawn(child))
            continue;
        auto* grid = qobject_cast<QCPGrid*>(child);
        if (!grid || !fillableGrid(grid) || !clip.contains(drawClipOf(grid)))
            return false;
        if (!first)
            first = grid;
        area |= drawClipOf(grid);
    }
    area &= mParentPlot->viewport();
    if (!first || area.isEmpty())
        return false;
    // The kept picture is the image's after its first grid, drawn through a fresh painter translated to the image's
    // origin (modes pmDefault, the lines filled): its key as drawPicture() would write it now.
    writeFirstKey(m_pictureKey, first, area.size(), 1.0, QTransform::fromTranslate(-area.left(), -area.top()), true,
                  QCPPainter::PainterModes(QCPPainter::pmDefault).toInt());
    // A first grid that moved too (the key axis' range changed on this step) is drawn again into the kept picture, as
    // drawPicture() would draw it, and the picture copied in place: no image drawn and copied (issue 16, thirty-first
    // stop, h16bc: one of the dearest tenth of the model-size steps).
    const bool moved = m_pictureKey != m_firstKey;
    if (moved && !g_firstGridRedrawnInPlace)
        return false;
    m_firstToRedraw = moved ? first : nullptr;
    m_inPlaceOrigin = area.topLeft();
    m_inPlaceSize = area.size();
    return true;
}

void GridLayerCache::redrawFirstInPlace(const QCPGrid* grid)
{
    // The picture as drawPicture() leaves it in m_first: an image of the area's size (pixel ratio 1) in the format
    // LayerImageCache::draw() gives the image for this ground, cleared, the first grid drawn through a painter
    // translated to the area's origin, pmDefault (the key written by drawsInPlace()). Held memory is reused, as
    // drawPicture() does.
    const QImage::Format format =
        ground().alpha() == 255 ? QImage::Format_RGB32 : QImage::Format_ARGB32_Premultiplied;
    if (m_first.isNull() || m_first.size() != m_inPlaceSize || m_first.format() != format || !m_first.isDetached()) {
        m_first = QImage(m_inPlaceSize, format);
        ++m_firstAllocations;
    }
    m_first.setDevicePixelRatio(1.0);
    clearImage(m_first);
    {
        QCPPainter picture(&m_first);
        picture.translate(-m_inPlaceOrigin);
        drawFirstGrid(const_cast<QCPGrid*>(grid), &picture, m_first);
    }
    m_firstKey = m_pictureKey; // (copied into its own memory)
    ++m_firstRedrawsInPlace;
}

void GridLayerCache::drawInPlace(QCPPainter* painter)
{
    ++m_inPlaceDraws;
    if (m_firstToRedraw) {
        redrawFirstInPlace(m_firstToRedraw);
        m_firstToRedraw = nullptr;
    }
    // The copy writes every pixel of the picture's rect within the clip QCPLayer::draw() set (the buffer's next clear
    // may leave them: writeUncleared()).
    const QRect copied = QRect(m_inPlaceOrigin, m_first.size()) & drawClipOf(this);
    writeUncleared(painter, copied, copied);
    painter->save();
    painter->setCompositionMode(QPainter::CompositionMode_Source); // the buffer holds ground() there (mayCopy())
    painter->drawImage(m_inPlaceOrigin, m_first);
    painter->restore();
    bool first = true;
    for (QCPLayerable* child : hiddenLayer()->children()) {
        if (!drawn(child))
            continue;
        if (!first)
            drawChild(child, painter);
        first = false;
    }
}

void GridLayerCache::drawPicture(QCPPainter* picture, QImage& image) const
{
    const QList<QCPLayerable*> children = hiddenLayer()->children();
    const auto first = std::find_if(children.cbegin(), children.cend(), [this](const QCPLayerable* c) { return drawn(c); });
    auto* grid = first == children.cend() ? nullptr : qobject_cast<QCPGrid*>(*first);
    if (!grid || !g_firstGridKept) {
        clearImage(image);
        drawChildren(picture);
        return;
    }
    // The first grid's picture depends on the image (size, ratio, where it lies in the plot), on how its lines are
    // drawn (filled or stroked, the painter's state) and on what the grid draws from.
    LayerKey& key = m_pictureKey; // (its memory kept from redraw to redraw)
    writeFirstKey(key, grid, image.size(), image.devicePixelRatio(), picture->worldTransform(), fillable(grid, picture),
                  picture->modes().toInt());
    if (!m_first.isNull() && key == m_firstKey) {
        // The picture has the image's size and pixel ratio (in the key) and is copied over it whole: every pixel of the
        // image is written, so it is not cleared first (issue 16, twenty-ninth stop: 0.22 M instructions a megapixel,
        // on every model-size step that moves a value axis and not the key axis).
        ++m_firstGridReuses;
        picture->save();
        picture->resetTransform();
        picture->setCompositionMode(QPainter::CompositionMode_Source);
        picture->drawImage(QPointF(0, 0), m_first);
        picture->restore();
    } else {
        clearImage(image);
        drawFirstGrid(grid, picture, image);
        // The image holds the first grid alone. Copied into the picture kept from before when that has the same
        // geometry and format (the rows are contiguous, QImage's alignment the same), not into a new image: a copy
        // allocated on every redraw of a new first grid freed the old one, and the allocator handed back memory the
        // kernel mapped again, a page fault every 4 KB (issue 16, eighteenth stop: 784 of the 1,106 faults of a
        // model-size sweep, most of them in its first two steps).
        if (m_first.size() == image.size() && m_first.format() == image.format()
            && m_first.bytesPerLine() == image.bytesPerLine() && !m_first.isNull() && m_first.isDetached()) {
            std::memcpy(m_first.bits(), image.constBits(), size_t(image.sizeInBytes()));
            m_first.setDevicePixelRatio(image.devicePixelRatio());
        } else {
            m_first = image.copy();
            ++m_firstAllocations;
        }
        m_firstKey = key; // (copied into its own memory)
    }
    for (auto it = first + 1; it != children.cend(); ++it)
        if (drawn(*it))
            drawChild(*it, picture);
}

bool GridLayerCache::fillable(const QCPGrid* grid, const QCPPainter* painter)
{
    return fillsOn(painter) && fillableGrid(grid);
}

bool GridLayerCache::fillsOn(const QCPPainter* painter)
{
    if (!g_filledLines || painter->modes().testFlag(QCPPainter::pmVectorized)
        || painter->modes().testFlag(QCPPainter::pmNoCaching) || painter->opacity() != 1.0
        || painter->compositionMode() != QPainter::CompositionMode_SourceOver)
        return false;
    const QTransform& t = painter->worldTransform();
    return t.type() <= QTransform::TxTranslate && t.dx() == std::floor(t.dx()) && t.dy() == std::floor(t.dy());
}

bool GridLayerCache::fillableGrid(const QCPGrid* grid)
{
    if (!g_filledLines)
        return false;
    const auto* axis = qobject_cast<const QCPAxis*>(grid->parentLayerable());
    const QCustomPlot* plot = grid->parentPlot();
    if (!axis || !axis->axisRect() || !plot)
        return false;
    // QCPGrid::drawGridLines() draws a zero line where the range spans 0 and its pen is set: not done here.
    if (grid->zeroLinePen().style() != Qt::NoPen)
        return false;
    if (!onePixelFlat(grid->pen()) || antialiasedIn(plot, grid->antialiased(), QCP::aeGrid))
        return false;
    const bool sub = axis->subTicks() && grid->subGridVisible();
    return !sub || (onePixelFlat(grid->subGridPen()) && !antialiasedIn(plot, grid->antialiasedSubGrid(), QCP::aeSubGrid));
}

void GridLayerCache::drawChild(QCPLayerable* child, QCPPainter* painter) const
{
    auto* grid = qobject_cast<QCPGrid*>(child);
    if (!grid || !fillable(grid, painter)) {
        LayerImageCache::drawChild(child, painter);
        return;
    }
    fillGrid(grid, painter, drawClipOf(grid));
}

void GridLayerCache::fillGrid(const QCPGrid* grid, QCPPainter* painter, const QRect& clip) const
{
    ++m_filledGrids;
    auto* axis = qobject_cast<QCPAxis*>(grid->parentLayerable());
    const QRect rect = axis->axisRect()->rect();
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    // QCPGrid::draw(): sub-grid lines first, then the grid lines; each line as QCPPainter::drawLine() draws it aliased
    // (QLineF::toLine(): the pixel coordinate rounded), from the axis rect's bottom to its top or left to right.
    auto fill = [&](const QVector<double>& ticks, const QColor& color) {
        for (double tick : ticks) {
            const double t = axis->coordToPixel(tick);
            const QLineF line = horizontal ? QLineF(t, rect.bottom(), t, rect.top()) : QLineF(rect.left(), t, rect.right(), t);
            fillLine(painter, line.toLine(), color);
        }
    };
    painter->save();
    painter->setClipRect(clip);
    painter->setAntialiasing(false);
    if (axis->subTicks() && grid->subGridVisible()) {
        painter->setPen(grid->subGridPen()); // drawLine() of a line of no length strokes with it
        fill(GridAxisAccess::subTicks(axis), grid->subGridPen().color());
    }
    painter->setPen(grid->pen());
    fill(axis->tickVector(), grid->pen().color());
    painter->restore();
}

void GridLayerCache::drawFirstGrid(QCPGrid* grid, QCPPainter* picture, QImage& image) const
{
    const auto* axis = qobject_cast<const QCPAxis*>(grid->parentLayerable());
    const QTransform& t = picture->worldTransform();
    if (!g_firstGridRowCopied || !axis || !axis->axisRect() || axis->orientation() != Qt::Horizontal
        || !fillable(grid, picture) || image.devicePixelRatio() != 1.0 || image.depth() != 32 || image.isNull()) {
        drawChild(grid, picture);
        return;
    }
    // The key axis' lines are vertical: each a column from the axis rect's top row to the row above its bottom
    // (fillLine()), every one of those rows the same, a row of the cleared image with the same spans blended over the
    // same ground pixels. One row is filled; its pixels that changed are copied down the others.
    const QPoint origin(-int(t.dx()), -int(t.dy())); // (fillable(): a whole-pixel translation)
    const QRect rect = axis->axisRect()->rect();
    const QRect within = drawClipOf(grid) & QRect(origin, image.size());
    const int top = std::max(within.top(), rect.top());
    const int bottom = std::min(within.bottom() + 1, rect.bottom()); // excluded
    if (within.isEmpty() || rect.bottom() - rect.top() < 2 || bottom - top < 2) {
        drawChild(grid, picture);
        return;
    }
    const int left = within.left() - origin.x(), width = within.width();
    const int firstRow = top - origin.y();
    const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(firstRow));
    m_groundRow.assign(row + left, row + left + width);
    fillGrid(grid, picture, within & QRect(within.left(), top, width, 1));
    row = reinterpret_cast<const QRgb*>(image.constScanLine(firstRow));
    m_lineColumns.clear();
    for (int x = 0; x < width; ++x)
        if (row[left + x] != m_groundRow[size_t(x)])
            m_lineColumns.push_back(left + x);
    for (int y = firstRow + 1; y < bottom - origin.y(); ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x : m_lineColumns)
            line[x] = row[x];
    }
    ++m_firstGridRowCopies;
}

void GridLayerCache::install(QCustomPlot* plot)
{
    if (plot->layer(kGridLinesLayer))
        return;
    QCPLayer* grid = plot->layer(QStringLiteral("grid"));
    if (!grid)
        return;
    plot->addLayer(kGridLinesLayer, grid, QCustomPlot::limBelow);
    QCPLayer* lines = plot->layer(kGridLinesLayer);
    lines->setMode(QCPLayer::lmLogical); // no paint buffer of its own
    lines->setVisible(false);            // drawn by the cache, on "grid"
    for (QCPLayerable* child : grid->children())
        if (qobject_cast<QCPGrid*>(child))
            child->setLayer(lines);
    // First on "grid" (the grids were its only children): under a pinned scenarios' cache added later.
    new GridLayerCache(plot, lines);
}

GridLayerCache* GridLayerCache::find(const QCustomPlot* plot)
{
    for (QCPLayerable* child : plot->findChildren<QCPLayerable*>(kGridCacheName, Qt::FindDirectChildrenOnly))
        if (auto* cache = dynamic_cast<GridLayerCache*>(child))
            return cache;
    return nullptr;
}

GridLayerCache::GridLayerCache(QCustomPlot* plot, QCPLayer* lines)
    : LayerImageCache(plot, QStringLiteral("grid"), lines)
{
    setObjectName(kGridCacheName);
}

bool GridLayerCache::shown(const QCPLayerable* grid)
{
    // QCPLayerable::realVisibility() but for the (hidden) layer: the grid and its axis, as drawn on "grid".
    const QCPLayerable* parent = grid->parentLayerable();
    return grid->visible() && (!parent || parent->realVisibility());
}

bool GridLayerCache::writeKey(LayerKey& key, double devicePixelRatio) const
{
    describePlot(key, devicePixelRatio);
    for (QCPLayerable* child : hiddenLayer()->children()) {
        auto* grid = qobject_cast<QCPGrid*>(child);
        if (!grid)
            return false; // something the key cannot describe: redraw every time
        key.put(grid);
        const bool isShown = shown(grid);
        key.put(isShown);
        if (!isShown)
            continue;
        if (!qobject_cast<const QCPAxis*>(grid->parentLayerable()))
            return false;
        describeGrid(key, grid);
    }
    return true;
}

void GridLayerCache::describeGrid(LayerKey& key, const QCPGrid* grid)
{
    const auto* axis = qobject_cast<const QCPAxis*>(grid->parentLayerable());
    key.putPen(grid->pen());
    key.putPen(grid->subGridPen());
    key.putPen(grid->zeroLinePen());
    key.put(grid->subGridVisible());
    key.put(grid->antialiased());
    key.put(grid->antialiasedSubGrid());
    key.put(grid->antialiasedZeroLine());
    key.put(drawClipOf(grid));
    key.putAxis(axis);
    if (!axis)
        return;
    key.put(axis->subTicks());
    key.putDoubles(axis->tickVector());
    key.putDoubles(GridAxisAccess::subTicks(axis));
}

bool GridLayerCache::mayCopy() const
{
    // QCustomPlot clears the paint buffer before each replot (to transparent, or to the card colour: CardBuffer), then
    // draws the layers in order: the image, started from that colour (ground()), may replace what is under it when
    // nothing before "grid" draws, i.e. the layers below hold axis rects without a background (the default) and
    // nothing else, and "grid" starts with this cache.
    QCPLayer* grid = layer();
    if (!grid || grid->children().isEmpty() || grid->children().constFirst() != this)
        return false;
    for (int i = 0; i < grid->index(); ++i) {
        const QCPLayer* below = mParentPlot->layer(i);
        if (!below->visible())
            continue;
        for (QCPLayerable* child : below->children()) {
            auto* rect = qobject_cast<QCPAxisRect*>(child);
            if (!rect || !rect->background().isNull() || rect->backgroundBrush().style() != Qt::NoBrush)
                return false;
        }
    }
    return true;
}

} // namespace ridgeline::views
