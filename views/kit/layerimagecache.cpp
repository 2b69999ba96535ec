// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/layerimagecache.h"

#include "views/kit/cardbuffer.h"

#include <QIODevice>

#include <utility>

namespace ridgeline::views {

namespace {

/**
 * QCPLayer::draw() for one layerable, from outside QCustomPlot's friends: the members it calls are
 * protected in QCPLayerable, and a pointer to them taken through a derived class may be called on
 * any layerable.
 */
struct LayerableAccess : QCPLayerable {
    static QRect clipOf(const QCPLayerable* child) { return (child->*(&LayerableAccess::clipRect))(); }
    /** Draws @p child clipped to @p clip (LayerImageCache::drawClipOf()), as QCPLayer::draw() does. */
    static void drawOne(QCPLayerable* child, const QRect& clip, QCPPainter* painter)
    {
        painter->save();
        painter->setClipRect(clip);
        (child->*(&LayerableAccess::applyDefaultAntialiasingHint))(painter);
        (child->*(&LayerableAccess::draw))(painter);
        painter->restore();
    }
};

/** @p data's points: their count and bytes (QCPGraphData is two doubles, no padding). */
void writeData(LayerKey& key, const QCPGraphDataContainer& data)
{
    static_assert(sizeof(QCPGraphData) == 2 * sizeof(double));
    key.put(qint64(data.size()));
    if (!data.isEmpty())
        key.putBytes(&*data.constBegin(), size_t(data.size()) * sizeof(QCPGraphData));
}

/** The bounding box of the pixels of @p image within @p part that are not transparent; empty when none. */
QRect inkIn(const QImage& image, const QRect& part)
{
    QRect ink;
    const QRect r = part & image.rect();
    for (int y = r.top(); y <= r.bottom(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        int first = -1;
        int last = -1;
        for (int x = r.left(); x <= r.right(); ++x) {
            if (qAlpha(row[x])) {
                if (first < 0)
                    first = x;
                last = x;
            }
        }
        if (first >= 0)
            ink |= QRect(first, y, last - first + 1, 1);
    }
    return ink;
}

/** @p rects with every two that overlap replaced by their bounding box, until none overlap. */
QList<QRect> disjoint(QList<QRect> rects)
{
    for (bool merged = true; merged;) {
        merged = false;
        for (qsizetype i = 0; i < rects.size() && !merged; ++i)
            for (qsizetype j = i + 1; j < rects.size() && !merged; ++j)
                if (rects[i].intersects(rects[j])) {
                    rects[i] |= rects[j];
                    rects.removeAt(j);
                    merged = true;
                }
    }
    return rects;
}

} // namespace

void LayerKey::putText(const QString& text)
{
    put(qint64(text.size()));
    putBytes(text.constData(), size_t(text.size()) * sizeof(QChar));
}

void LayerKey::putDoubles(const QList<double>& values)
{
    put(qint64(values.size()));
    putBytes(values.constData(), size_t(values.size()) * sizeof(double));
}

void LayerKey::putAxis(const QCPAxis* axis)
{
    put(axis != nullptr);
    if (!axis)
        return;
    put(int(axis->axisType()));
    put(axis->range().lower);
    put(axis->range().upper);
    put(int(axis->scaleType()));
    put(axis->rangeReversed());
    put(axis->axisRect()->rect());
}

void LayerKey::putPen(const QPen& pen)
{
    const Qt::BrushStyle fill = pen.brush().style();
    if ((fill != Qt::SolidPattern && fill != Qt::NoBrush) || !pen.brush().transform().isIdentity()) {
        // A gradient or texture: QDataStream's full description (written only for such pens).
        QByteArray bytes;
        QDataStream out(&bytes, QIODevice::WriteOnly);
        out << pen;
        put(char('G'));
        putBytes(bytes.constData(), size_t(bytes.size()));
        return;
    }
    struct Raw {
        quint64 color;
        double width;
        double miterLimit;
        double dashOffset;
        qint32 style;
        qint32 cap;
        qint32 join;
        qint32 fill;
        qint32 cosmetic;
    } raw{}; // zero-initialised, padding included: the bytes compare as the fields do
    // Both arms quint64: `cond ? 0 : rgba64()` is an int (QRgba64 converts to int through its quint64), which kept red
    // and green only; a change of blue or alpha alone left the key as it was and the old picture on screen (issue 16,
    // twenty-third stop, h16ak).
    raw.color = fill == Qt::NoBrush ? quint64(0) : quint64(pen.color().rgba64());
    raw.width = pen.widthF();
    raw.miterLimit = pen.miterLimit();
    raw.dashOffset = pen.dashOffset();
    raw.style = pen.style();
    raw.cap = pen.capStyle();
    raw.join = pen.joinStyle();
    raw.fill = fill;
    raw.cosmetic = pen.isCosmetic();
    put(char('P'));
    putBytes(&raw, sizeof raw);
    if (pen.style() == Qt::CustomDashLine)
        putDoubles(pen.dashPattern());
}

void LayerKey::putBrush(const QBrush& brush)
{
    if ((brush.style() != Qt::SolidPattern && brush.style() != Qt::NoBrush) || !brush.transform().isIdentity()) {
        QByteArray bytes;
        QDataStream out(&bytes, QIODevice::WriteOnly);
        out << brush;
        put(char('G'));
        putBytes(bytes.constData(), size_t(bytes.size()));
        return;
    }
    const quint64 raw[2] = {quint64(brush.style()), brush.style() == Qt::NoBrush ? 0 : quint64(brush.color().rgba64())};
    put(char('B'));
    putBytes(raw, sizeof raw);
}

bool LayerImageCache::describedHere(const QCPItemAnchor* anchor) const
{
    // An anchor of an item on the hidden layer: the key holds that item.
    for (QCPLayerable* child : m_hidden->children())
        if (auto* item = qobject_cast<QCPAbstractItem*>(child); item && item->anchors().contains(const_cast<QCPItemAnchor*>(anchor)))
            return true;
    return false;
}

void LayerImageCache::writePosition(LayerKey& key, const QCPItemPosition* position) const
{
    writePositionIn(key, position, this);
}

void LayerImageCache::writePositionIn(LayerKey& key, const QCPItemPosition* position, const LayerImageCache* cache)
{
    // A label hung under the pinned label before it (BaselineLayer: ptAbsolute from that label's bottom left) is where
    // its own coordinates put it from that anchor, whose item the key describes (text, font, padding, alignment and
    // its own position): written as such. Its pixelPosition() would place every label above it again, each through
    // its X and its Y anchor, 2^n text measurements for the n-th label (issue 16, tenth stop: 17 M instructions a
    // batch step with five pinned, of 66 M).
    const QCPItemAnchor* anchorX = position->parentAnchorX();
    const QCPItemAnchor* anchorY = position->parentAnchorY();
    if (cache && anchorX && anchorY && cache->describedHere(anchorX) && cache->describedHere(anchorY)) {
        key.put(true);
        key.put(anchorX);
        key.put(anchorY);
        key.put(int(position->typeX()));
        key.put(int(position->typeY()));
        key.put(position->coords());
        return;
    }
    key.put(false);
    key.put(position->pixelPosition());
}

void LayerImageCache::describePlot(LayerKey& key, double devicePixelRatio) const
{
    key.put(mParentPlot->viewport());
    key.put(devicePixelRatio);
    key.put(m_ground.rgba());
    key.put(int(mParentPlot->antialiasedElements()));
    key.put(int(mParentPlot->notAntialiasedElements()));
    key.put(int(mParentPlot->plottingHints()));
}

bool LayerImageCache::describe(LayerKey& key, const QCPLayerable* child) const
{
    return describeIn(key, child, this);
}

bool LayerImageCache::describeAlone(LayerKey& key, const QCPLayerable* child)
{
    return describeIn(key, child, nullptr);
}

bool LayerImageCache::describeIn(LayerKey& key, const QCPLayerable* child, const LayerImageCache* cache)
{
    key.put(child);
    key.put(child->visible());
    key.put(clipOf(child));
    if (auto* graph = qobject_cast<const QCPGraph*>(child)) {
        if (graph->selected())
            return false; // drawn with its selection decorator: not described here
        key.putAxis(graph->keyAxis());
        key.putAxis(graph->valueAxis());
        const QCPScatterStyle scatter = graph->scatterStyle();
        if (scatter.shape() == QCPScatterStyle::ssPixmap || scatter.shape() == QCPScatterStyle::ssCustom)
            return false;
        key.putPen(graph->pen());
        key.putBrush(graph->brush());
        key.put(int(graph->lineStyle()));
        key.put(int(scatter.shape()));
        key.put(scatter.size());
        key.putPen(scatter.pen());
        key.putBrush(scatter.brush());
        key.put(graph->scatterSkip());
        key.put(graph->adaptiveSampling());
        key.put(graph->antialiased());
        key.put(graph->antialiasedScatters());
        key.put(graph->antialiasedFill());
        writeData(key, *graph->data());
        // A channel fill is drawn between this curve and the other one: its data and value axis too.
        const QCPGraph* channel = graph->channelFillGraph();
        key.put(channel);
        if (channel) {
            key.putAxis(channel->valueAxis());
            writeData(key, *channel->data());
        }
    } else if (auto* line = qobject_cast<const QCPItemStraightLine*>(child)) {
        key.put(line->selected());
        key.putPen(line->selected() ? line->selectedPen() : line->pen());
        key.put(line->antialiased());
        key.put(line->clipToAxisRect());
        for (const QCPItemPosition* position : line->positions())
            key.put(position->pixelPosition());
    } else if (auto* text = qobject_cast<const QCPItemText*>(child)) {
        const bool selected = text->selected();
        key.put(selected);
        key.putText(text->text());
        key.putFont(selected ? text->selectedFont() : text->font());
        key.put((selected ? text->selectedColor() : text->color()).rgba64());
        key.putPen(selected ? text->selectedPen() : text->pen());
        key.putBrush(selected ? text->selectedBrush() : text->brush());
        key.put(text->padding());
        key.put(int(text->positionAlignment()));
        key.put(int(text->textAlignment()));
        key.put(text->rotation());
        key.put(text->antialiased());
        key.put(text->clipToAxisRect());
        for (const QCPItemPosition* position : text->positions())
            writePositionIn(key, position, cache);
    } else {
        return false;
    }
    return true;
}

LayerImageCache::LayerImageCache(QCustomPlot* plot, const QString& host, QCPLayer* hidden)
    : QCPLayerable(plot, host)
    , m_hidden(hidden)
{
}

QRect LayerImageCache::clipOf(const QCPLayerable* child)
{
    return LayerableAccess::clipOf(child);
}

void LayerImageCache::applyDefaultAntialiasingHint(QCPPainter* /*painter*/) const
{
    // Each child sets its own hints when the image is drawn; the image is drawn 1:1.
}

void LayerImageCache::drawChild(QCPLayerable* child, QCPPainter* painter) const
{
    LayerableAccess::drawOne(child, drawClipOf(child), painter);
}

void LayerImageCache::drawChildren(QCPPainter* painter) const
{
    for (QCPLayerable* child : m_hidden->children())
        if (drawn(child))
            drawChild(child, painter);
}

void LayerImageCache::drawPicture(QCPPainter* picture, QImage& image) const
{
    clearImage(image);
    drawChildren(picture);
}

void LayerImageCache::clearImage(QImage& image) const
{
    // The painter drawing into the image writes into the same memory as it draws: the pixels filled now are those it
    // then draws over (QRasterPaintEngine keeps no copy of the image's pixels).
    image.fill(m_ground);
    ++m_clears;
}

void LayerImageCache::shapeImage(const QSize& pixels, double ratio, QImage::Format format)
{
    // The image's pixels live in a buffer of this cache that only grows: an image whose size changes with what is
    // drawn (a curve cache's area is the union of its children's clip rects, which changes when a label outside the
    // axis rect comes or goes) was a new allocation each time, and memory of that size (half a megabyte and more) is
    // mapped afresh by the allocator, a page fault each 4 KB the first time it is cleared (issue 16, eighteenth stop:
    // the decode, prefill and SLO plots' curve images on the first model-size steps of a process). The image is of
    // the same size, format and pixel ratio as a QImage of its own, so it draws the same pixels.
    m_image = QImage(); // before m_pixels may be replaced
    const qsizetype bytesPerLine = qsizetype(pixels.width()) * 4; // ARGB32: 4-byte aligned rows, as QImage's own
    const qsizetype bytes = bytesPerLine * pixels.height();
    if (bytes > m_pixelBytes) {
        m_pixels.reset(new uchar[size_t(bytes)]);
        m_pixelBytes = bytes;
        ++m_allocations;
    }
    m_image = QImage(m_pixels.get(), pixels.width(), pixels.height(), bytesPerLine, format);
    m_image.setDevicePixelRatio(ratio);
}

void LayerImageCache::writeUncleared(QCPPainter* painter, const QRect& copied, const QRect& spare)
{
    if (!m_uncleared.isEmpty())
        CardBuffer::fillUncleared(painter, mParentPlot, QRegion(std::exchange(m_uncleared, QRect())) - copied);
    if (!spare.isEmpty())
        CardBuffer::spareNextClear(painter, mParentPlot, spare);
}

void LayerImageCache::draw(QCPPainter* painter)
{
    // What the buffer's clear left for this cache's copy (it is the first thing drawn into the buffer): written by
    // the copy below, or filled before anything else is drawn (writeUncleared()).
    m_uncleared = CardBuffer::takeUncleared(painter, mParentPlot);
    if (m_hidden->children().isEmpty()) {
        writeUncleared(painter, QRect(), QRect());
        // Nothing drawn: a change from what the last replot drew, once; children coming back are a change again.
        if (m_lastKeyValid || !m_empty)
            ++m_keyChanges;
        m_lastKeyValid = false;
        m_empty = true;
        return;
    }
    m_empty = false;
    ++m_draws;
    if (painter->modes().testFlag(QCPPainter::pmVectorized) || painter->modes().testFlag(QCPPainter::pmNoCaching)) {
        writeUncleared(painter, QRect(), QRect());
        drawChildren(painter); // an export: every vertex, at the export's scale
        return;
    }
    const double ratio = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    // An image that may be copied starts from what is under it: the colour the plot's paint buffer was cleared to (an
    // opaque card colour, CardBuffer), so that the copy is opaque too (issue 16, twenty-ninth stop).
    const bool copies = mayCopy(); // asked once a replot: it walks the layers below
    m_ground = copies ? CardBuffer::groundUnder(painter, mParentPlot) : QColor(Qt::transparent);
    // The key of this replot is written into the memory of the one before last, then kept as the last one.
    m_nextKey.clear();
    const bool describable = writeKey(m_nextKey, ratio);
    const bool changed = !describable || !m_lastKeyValid || m_nextKey != m_lastKey;
    if (changed)
        ++m_keyChanges;
    std::swap(m_nextKey, m_lastKey);
    m_lastKeyValid = describable;
    if (drawsInPlace(changed, painter)) {
        drawInPlace(painter); // the image stays that of m_imageKey
        return;
    }
    if (!describable || !m_imageKeyValid || m_lastKey != m_imageKey) {
        ++m_renders;
        m_imageKey = m_lastKey; // (copied into its own memory: no allocation once it has grown)
        m_imageKeyValid = describable;
        // The image covers what the children may draw in: their clip rects as QCPLayer::draw() sets them
        // (clipRect() one pixel up: the axis rect's top edge and the row above it).
        QRect area;
        for (QCPLayerable* child : m_hidden->children())
            if (drawn(child))
                area |= drawClipOf(child);
        area &= mParentPlot->viewport();
        m_origin = area.topLeft();
        if (area.isEmpty()) {
            m_image = QImage();
        } else {
            // The image of the same size is cleared and drawn again, not allocated again (a model-size step redraws
            // the decode plot's curves on every step: a megabyte freed and mapped again each time); an image of
            // another size is laid over the same memory when it fits (shapeImage()).
            // On an opaque ground the image is opaque and RGB32, as the paint buffer then is (QPixmap's format on the
            // raster platforms, which an opaque clear keeps): the raster engine copies it row by row (memcpy), where an
            // ARGB32 image copied into an RGB32 buffer goes through its span path (issue 16, twenty-ninth stop).
            const QImage::Format format =
                m_ground.alpha() == 255 ? QImage::Format_RGB32 : QImage::Format_ARGB32_Premultiplied;
            if (m_image.size() != area.size() * ratio || m_image.devicePixelRatio() != ratio
                || m_image.format() != format)
                shapeImage(area.size() * ratio, ratio, format);
            // Not cleared here: drawPicture() writes every pixel (clearImage(), or a picture copied in whole).
            QCPPainter picture(&m_image);
            picture.translate(-m_origin);
            drawPicture(&picture, m_image);
        }
        m_ink.clear();
        if (trimsToInk() && ratio == 1.0 && !m_image.isNull()) {
            QList<QRect> parts;
            for (QCPLayerable* child : m_hidden->children())
                if (drawn(child))
                    if (const QRect ink = inkIn(m_image, drawClipOf(child).translated(-m_origin)); !ink.isEmpty())
                        parts.append(ink);
            m_ink = disjoint(parts);
            if (m_ink.isEmpty())
                m_image = QImage(); // nothing drawn
        }
    }
    const bool copiesWhole = copies && ratio == 1.0 && painter->worldTransform().isIdentity();
    if (m_image.isNull() || !copiesWhole) {
        writeUncleared(painter, QRect(), QRect());
        if (m_image.isNull())
            return;
    }
    if (copies) {
        // Nothing under it: a copy of the image is what blending it would give, at a tenth of the cost. The copy writes
        // every pixel of the image's rect within the clip QCPLayer::draw() set: the buffer's next clear may leave them.
        if (copiesWhole) {
            const QRect copied = QRect(m_origin, m_image.size()) & drawClipOf(this);
            writeUncleared(painter, copied, copied);
        }
        painter->save();
        painter->setCompositionMode(QPainter::CompositionMode_Source);
        painter->drawImage(m_origin, m_image);
        painter->restore();
    } else if (!m_ink.isEmpty()) {
        for (const QRect& part : m_ink) // the ink only: the other pixels are transparent
            painter->drawImage(m_origin + part.topLeft(), m_image, part);
    } else {
        painter->drawImage(m_origin, m_image);
    }
}

} // namespace ridgeline::views
