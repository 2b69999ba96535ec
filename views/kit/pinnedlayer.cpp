// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/pinnedlayer.h"

#include "views/kit/curvepixels.h"

namespace ridgeline::views {

namespace {

const QString kPinnedLayer = QStringLiteral("pinned");
const QString kPinnedLabelLayer = QStringLiteral("pinnedLabels");
const QString kPinnedCacheName = QStringLiteral("pinnedLayerCache");
const QString kLabelCacheName = QStringLiteral("pinnedLabelCache");

} // namespace

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
    for (QCPLayerable* child : plot->findChildren<QCPLayerable*>(labels ? kLabelCacheName : kPinnedCacheName, Qt::FindDirectChildrenOnly))
        if (auto* cache = dynamic_cast<PinnedLayerCache*>(child))
            return cache;
    return nullptr;
}

PinnedLayerCache::PinnedLayerCache(QCustomPlot* plot, QCPLayer* pinned, const QString& host)
    : LayerImageCache(plot, host, pinned)
{
    setObjectName(pinned->name() == kPinnedLayer ? kPinnedCacheName : kLabelCacheName);
}

bool PinnedLayerCache::writeKey(LayerKey& key, double devicePixelRatio) const
{
    describePlot(key, devicePixelRatio);
    key.put(plotkit::curvesStrokedAsLinePieces()); // line pieces or outlines draw other pixels
    for (QCPLayerable* child : hiddenLayer()->children())
        if (!describe(key, child))
            return false; // something the key cannot describe: redraw the picture every time
    return true;
}

} // namespace ridgeline::views
