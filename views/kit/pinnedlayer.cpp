// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/pinnedlayer.h"

#include <QDataStream>
#include <QHashFunctions>
#include <QIODevice>

namespace ridgeline::views {

namespace {

const QString kPinnedLayer = QStringLiteral("pinned");
const QString kPinnedLabelLayer = QStringLiteral("pinnedLabels");
const QString kCacheName = QStringLiteral("pinnedLayerCache");
const QString kLabelCacheName = QStringLiteral("pinnedLabelCache");

/**
 * QCPLayer::draw() for one layerable, from outside QCustomPlot's friends: the members it calls are
 * protected in QCPLayerable, and a pointer to them taken through a derived class may be called on
 * any layerable.
 */
struct LayerableAccess : QCPLayerable {
    static QRect clipOf(const QCPLayerable* child) { return (child->*(&LayerableAccess::clipRect))(); }
    /** The clip QCPLayer::draw() gives @p child: its clipRect() moved one pixel up. */
    static QRect drawClipOf(const QCPLayerable* child) { return clipOf(child).translated(0, -1); }
    static void drawOne(QCPLayerable* child, QCPPainter* painter)
    {
        painter->save();
        painter->setClipRect(drawClipOf(child));
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

} // namespace

bool PinnedLayerCache::describedHere(const QCPItemAnchor* anchor) const
{
    // An anchor of an item on the pinned layer that comes before the one asking: the key holds that item.
    for (QCPLayerable* child : m_pinned->children())
        if (auto* item = qobject_cast<QCPAbstractItem*>(child); item && item->anchors().contains(const_cast<QCPItemAnchor*>(anchor)))
            return true;
    return false;
}

void PinnedLayerCache::writePosition(QDataStream& out, const QCPItemPosition* position) const
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

QCPLayer* PinnedLayerCache::hiddenLayer(QCustomPlot* plot, const QString& name, const QString& host)
{
    if (QCPLayer* layer = plot->layer(name))
        return layer;
    plot->addLayer(name, plot->layer(host), QCustomPlot::limAbove);
    QCPLayer* pinned = plot->layer(name);
    pinned->setMode(QCPLayer::lmLogical); // no paint buffer of its own
    pinned->setVisible(false);            // drawn by the cache, on the host layer
    new PinnedLayerCache(plot, pinned, host);
    return pinned;
}

QCPLayer* PinnedLayerCache::pinnedLayer(QCustomPlot* plot)
{
    return hiddenLayer(plot, kPinnedLayer, QStringLiteral("grid"));
}

QCPLayer* PinnedLayerCache::pinnedLabelLayer(QCustomPlot* plot)
{
    return hiddenLayer(plot, kPinnedLabelLayer, QStringLiteral("legend"));
}

PinnedLayerCache* PinnedLayerCache::find(const QCustomPlot* plot, bool labels)
{
    for (QCPLayerable* child : plot->findChildren<QCPLayerable*>(labels ? kLabelCacheName : kCacheName, Qt::FindDirectChildrenOnly))
        if (auto* cache = dynamic_cast<PinnedLayerCache*>(child))
            return cache;
    return nullptr;
}

PinnedLayerCache::PinnedLayerCache(QCustomPlot* plot, QCPLayer* pinned, const QString& host)
    : QCPLayerable(plot, host)
    , m_pinned(pinned)
{
    setObjectName(pinned->name() == kPinnedLayer ? kCacheName : kLabelCacheName);
}

void PinnedLayerCache::applyDefaultAntialiasingHint(QCPPainter* /*painter*/) const
{
    // Each pinned graph sets its own hint when the picture is drawn; the picture is blended 1:1.
}

QByteArray PinnedLayerCache::key(double devicePixelRatio) const
{
    QByteArray key;
    QDataStream out(&key, QIODevice::WriteOnly);
    out << mParentPlot->viewport() << devicePixelRatio;
    for (QCPLayerable* child : m_pinned->children()) {
        out << quintptr(child) << child->visible() << LayerableAccess::clipOf(child);
        if (auto* graph = qobject_cast<QCPGraph*>(child)) {
            writeAxis(out, graph->keyAxis());
            writeAxis(out, graph->valueAxis());
            const QCPScatterStyle scatter = graph->scatterStyle();
            out << graph->pen() << graph->brush() << int(graph->lineStyle()) << int(scatter.shape()) << scatter.size()
                << scatter.pen() << scatter.brush() << graph->antialiased() << graph->antialiasedScatters();
            const QSharedPointer<QCPGraphDataContainer> data = graph->data();
            out << qint64(data->size());
            if (!data->isEmpty())
                out << quint64(qHashBits(&*data->constBegin(), size_t(data->size()) * sizeof(QCPGraphData)));
        } else if (auto* line = qobject_cast<QCPItemStraightLine*>(child)) {
            out << line->pen() << line->antialiased() << line->clipToAxisRect();
            for (const QCPItemPosition* position : line->positions())
                out << position->pixelPosition();
        } else if (auto* text = qobject_cast<QCPItemText*>(child)) {
            out << text->text() << text->font() << text->color() << text->pen() << text->brush() << text->padding()
                << int(text->positionAlignment()) << int(text->textAlignment()) << text->rotation() << text->antialiased()
                << text->clipToAxisRect();
            for (const QCPItemPosition* position : text->positions())
                writePosition(out, position);
        } else {
            return QByteArray(); // something the key cannot describe: redraw the picture every time
        }
    }
    return key;
}

void PinnedLayerCache::drawChildren(QCPPainter* painter) const
{
    for (QCPLayerable* child : m_pinned->children())
        if (child->visible()) // the layer itself is hidden: each child's own visibility
            LayerableAccess::drawOne(child, painter);
}

void PinnedLayerCache::draw(QCPPainter* painter)
{
    if (m_pinned->children().isEmpty())
        return;
    ++m_draws;
    if (painter->modes().testFlag(QCPPainter::pmVectorized) || painter->modes().testFlag(QCPPainter::pmNoCaching)) {
        drawChildren(painter); // an export: every vertex, at the export's scale
        return;
    }
    const double ratio = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    const QByteArray now = key(ratio);
    if (now.isEmpty() || now != m_key) {
        ++m_renders;
        m_key = now;
        // The picture covers what the children may draw in: their clip rects as QCPLayer::draw() sets
        // them (clipRect() one pixel up: the axis rect's top edge and the row above it). The rect
        // untranslated lost that top row: the pinned P* lines' ends and curves along the top edge.
        QRect area;
        for (QCPLayerable* child : m_pinned->children())
            if (child->visible())
                area |= LayerableAccess::drawClipOf(child);
        area &= mParentPlot->viewport();
        m_origin = area.topLeft();
        if (area.isEmpty()) {
            m_image = QImage();
        } else {
            m_image = QImage(area.size() * ratio, QImage::Format_ARGB32_Premultiplied);
            m_image.setDevicePixelRatio(ratio);
            m_image.fill(Qt::transparent);
            QCPPainter picture(&m_image);
            picture.translate(-m_origin);
            drawChildren(&picture);
        }
    }
    if (!m_image.isNull())
        painter->drawImage(m_origin, m_image);
}

} // namespace ridgeline::views
