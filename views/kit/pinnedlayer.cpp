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
    for (QCPLayerable* child : hiddenLayer()->children())
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

QCPLayer* PinnedLayerCache::cachedLayer(QCustomPlot* plot, const QString& name, const QString& host)
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
    return cachedLayer(plot, kPinnedLayer, QStringLiteral("grid"));
}

QCPLayer* PinnedLayerCache::pinnedLabelLayer(QCustomPlot* plot)
{
    return cachedLayer(plot, kPinnedLabelLayer, QStringLiteral("legend"));
}

PinnedLayerCache* PinnedLayerCache::find(const QCustomPlot* plot, bool labels)
{
    for (QCPLayerable* child : plot->findChildren<QCPLayerable*>(labels ? kLabelCacheName : kCacheName, Qt::FindDirectChildrenOnly))
        if (auto* cache = dynamic_cast<PinnedLayerCache*>(child))
            return cache;
    return nullptr;
}

PinnedLayerCache::PinnedLayerCache(QCustomPlot* plot, QCPLayer* pinned, const QString& host)
    : LayerImageCache(plot, host, pinned)
{
    setObjectName(pinned->name() == kPinnedLayer ? kCacheName : kLabelCacheName);
}

QByteArray PinnedLayerCache::key(double devicePixelRatio) const
{
    QByteArray key;
    QDataStream out(&key, QIODevice::WriteOnly);
    out << mParentPlot->viewport() << devicePixelRatio;
    for (QCPLayerable* child : hiddenLayer()->children()) {
        out << quintptr(child) << child->visible() << clipOf(child);
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

} // namespace ridgeline::views
