// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/layerimagecache.h"

#include <QHashFunctions>

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

void writeAxis(QDataStream& out, const QCPAxis* axis)
{
    if (!axis) {
        out << false;
        return;
    }
    out << true << axis->range().lower << axis->range().upper << int(axis->scaleType()) << axis->rangeReversed()
        << axis->axisRect()->rect();
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

void LayerImageCache::writePen(QDataStream& out, const QPen& pen)
{
    const Qt::BrushStyle fill = pen.brush().style();
    if (fill != Qt::SolidPattern && fill != Qt::NoBrush) {
        out << pen; // a gradient or texture: QDataStream's full description
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
    raw.color = pen.color().rgba64();
    raw.width = pen.widthF();
    raw.miterLimit = pen.miterLimit();
    raw.dashOffset = pen.dashOffset();
    raw.style = pen.style();
    raw.cap = pen.capStyle();
    raw.join = pen.joinStyle();
    raw.fill = fill;
    raw.cosmetic = pen.isCosmetic();
    out.writeRawData(reinterpret_cast<const char*>(&raw), int(sizeof raw));
    if (pen.style() == Qt::CustomDashLine)
        out << pen.dashPattern();
}

void LayerImageCache::writeBrush(QDataStream& out, const QBrush& brush)
{
    if (brush.style() != Qt::SolidPattern && brush.style() != Qt::NoBrush) {
        out << brush;
        return;
    }
    const quint64 raw[2] = {quint64(brush.style()), brush.style() == Qt::NoBrush ? 0 : quint64(brush.color().rgba64())};
    out.writeRawData(reinterpret_cast<const char*>(raw), int(sizeof raw));
}

bool LayerImageCache::describedHere(const QCPItemAnchor* anchor) const
{
    // An anchor of an item on the hidden layer: the key holds that item.
    for (QCPLayerable* child : m_hidden->children())
        if (auto* item = qobject_cast<QCPAbstractItem*>(child); item && item->anchors().contains(const_cast<QCPItemAnchor*>(anchor)))
            return true;
    return false;
}

void LayerImageCache::writePosition(QDataStream& out, const QCPItemPosition* position) const
{
    // A label hung under the pinned label before it (BaselineLayer: ptAbsolute from that label's bottom left) is where
    // its own coordinates put it from that anchor, whose item the key describes (text, font, padding, alignment and
    // its own position): written as such. Its pixelPosition() would place every label above it again, each through
    // its X and its Y anchor, 2^n text measurements for the n-th label (issue 16, tenth stop: 17 M instructions a
    // batch step with five pinned, of 66 M).
    const QCPItemAnchor* anchorX = position->parentAnchorX();
    const QCPItemAnchor* anchorY = position->parentAnchorY();
    if (anchorX && anchorY && describedHere(anchorX) && describedHere(anchorY)) {
        out << true << quintptr(anchorX) << quintptr(anchorY) << int(position->typeX()) << int(position->typeY())
            << position->coords();
        return;
    }
    out << false << position->pixelPosition();
}

bool LayerImageCache::describe(QDataStream& out, const QCPLayerable* child) const
{
    out << quintptr(child) << child->visible() << clipOf(child);
    if (auto* graph = qobject_cast<const QCPGraph*>(child)) {
        writeAxis(out, graph->keyAxis());
        writeAxis(out, graph->valueAxis());
        const QCPScatterStyle scatter = graph->scatterStyle();
        writePen(out, graph->pen());
        writeBrush(out, graph->brush());
        out << int(graph->lineStyle()) << int(scatter.shape()) << scatter.size();
        writePen(out, scatter.pen());
        writeBrush(out, scatter.brush());
        out << graph->antialiased() << graph->antialiasedScatters()
            << graph->antialiasedFill() << quintptr(graph->channelFillGraph());
        const QSharedPointer<QCPGraphDataContainer> data = graph->data();
        out << qint64(data->size());
        if (!data->isEmpty())
            out << quint64(qHashBits(&*data->constBegin(), size_t(data->size()) * sizeof(QCPGraphData)));
    } else if (auto* line = qobject_cast<const QCPItemStraightLine*>(child)) {
        writePen(out, line->pen());
        out << line->antialiased() << line->clipToAxisRect();
        for (const QCPItemPosition* position : line->positions())
            out << position->pixelPosition();
    } else if (auto* text = qobject_cast<const QCPItemText*>(child)) {
        out << text->text() << text->font() << text->color() << text->pen() << text->brush() << text->padding()
            << int(text->positionAlignment()) << int(text->textAlignment()) << text->rotation() << text->antialiased()
            << text->clipToAxisRect();
        for (const QCPItemPosition* position : text->positions())
            writePosition(out, position);
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

void LayerImageCache::drawPicture(QCPPainter* picture, QImage& /*image*/) const
{
    drawChildren(picture);
}

void LayerImageCache::shapeImage(const QSize& pixels, double ratio)
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
    m_image = QImage(m_pixels.get(), pixels.width(), pixels.height(), bytesPerLine, QImage::Format_ARGB32_Premultiplied);
    m_image.setDevicePixelRatio(ratio);
}

void LayerImageCache::draw(QCPPainter* painter)
{
    if (m_hidden->children().isEmpty())
        return;
    ++m_draws;
    if (painter->modes().testFlag(QCPPainter::pmVectorized) || painter->modes().testFlag(QCPPainter::pmNoCaching)) {
        drawChildren(painter); // an export: every vertex, at the export's scale
        return;
    }
    const double ratio = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    const QByteArray now = key(ratio);
    if (drawsInPlace(now)) {
        drawChildren(painter); // the image stays that of m_key
        return;
    }
    if (now.isEmpty() || now != m_key) {
        ++m_renders;
        m_key = now;
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
            if (m_image.size() != area.size() * ratio || m_image.devicePixelRatio() != ratio)
                shapeImage(area.size() * ratio, ratio);
            m_image.fill(Qt::transparent);
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
    if (m_image.isNull())
        return;
    if (mayCopy()) {
        // Nothing under it: a copy of the image is what blending it would give, at a tenth of the cost.
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
