// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/curvelayer.h"

#include <cmath>

#include "views/kit/curvepixels.h"

namespace ridgeline::views {

namespace {

bool g_imageUsed = true;

const QString kCurvesLayer = QStringLiteral("curves");
const QString kCurveCacheName = QStringLiteral("curveLayerCache");

/** A layer's drawing order (QCPLayer::mChildren, protected; its children() is a copy): the cache is put in the place
 *  of the run it draws, which QCPLayerable::setLayer() (appends) and moveToLayer() (appends or prepends) cannot. */
struct LayerAccess : QCPLayer {
    static QList<QCPLayerable*>& order(QCPLayer* layer) { return layer->*(&LayerAccess::mChildren); }
};

} // namespace

CurveLayerCache* CurveLayerCache::install(QCustomPlot* plot, const QList<QCPLayerable*>& layerables)
{
    if (layerables.isEmpty() || plot->layer(kCurvesLayer))
        return nullptr;
    QCPLayer* host = layerables.constFirst()->layer();
    if (!host)
        return nullptr;
    const QList<QCPLayerable*> order = host->children();
    const qsizetype first = order.indexOf(layerables.constFirst());
    if (first < 0 || first + layerables.size() > order.size() || order.mid(first, layerables.size()) != layerables)
        return nullptr; // not a run in drawing order: the image would change what is drawn over what
    plot->addLayer(kCurvesLayer, host, QCustomPlot::limBelow);
    QCPLayer* curves = plot->layer(kCurvesLayer);
    curves->setMode(QCPLayer::lmLogical); // no paint buffer of its own
    curves->setVisible(false);            // drawn by the cache, in their place on the host layer
    auto* cache = new CurveLayerCache(plot, host, curves);
    for (QCPLayerable* layerable : layerables)
        layerable->setLayer(curves);
    // The cache was appended to the host layer: into the run's place.
    QList<QCPLayerable*>& drawn = LayerAccess::order(host);
    drawn.removeOne(cache);
    drawn.insert(first, cache);
    return cache;
}

CurveLayerCache* CurveLayerCache::find(const QCustomPlot* plot)
{
    for (QCPLayerable* child : plot->findChildren<QCPLayerable*>(kCurveCacheName, Qt::FindDirectChildrenOnly))
        if (auto* cache = dynamic_cast<CurveLayerCache*>(child))
            return cache;
    return nullptr;
}

CurveLayerCache::CurveLayerCache(QCustomPlot* plot, QCPLayer* host, QCPLayer* curves)
    : LayerImageCache(plot, host->name(), curves)
{
    setObjectName(kCurveCacheName);
}

void CurveLayerCache::setImageUsed(bool on)
{
    g_imageUsed = on;
}

bool CurveLayerCache::drawsInPlace(bool keyChanged, const QCPPainter* /*painter*/)
{
    const bool followsTheDrag = keyChanged && m_lastChanged;
    m_lastChanged = keyChanged;
    if (!g_imageUsed)
        return true;
    if (!followsTheDrag || !holdsOneSingleFillCurve(mParentPlot->bufferDevicePixelRatio()))
        return false;
    ++m_inPlaceDraws;
    return true;
}

bool CurveLayerCache::holdsOneSingleFillCurve(double devicePixelRatio) const
{
    const QCPGraph* graph = nullptr;
    for (QCPLayerable* child : hiddenLayer()->children()) {
        if (!drawn(child))
            continue;
        if (graph)
            return false; // a second curve
        graph = qobject_cast<const QCPGraph*>(child);
        if (!graph)
            return false;
    }
    if (!graph || graph->lineStyle() != QCPGraph::lsLine || !graph->scatterStyle().isNone()
        || graph->brush().style() != Qt::NoBrush || graph->channelFillGraph() || graph->selected() || !graph->antialiased()
        || mParentPlot->plottingHints().testFlag(QCP::phFastPolylines))
        return false;
    const QPen pen = graph->pen();
    if (pen.style() == Qt::NoPen || pen.isCosmetic() || pen.brush().style() != Qt::SolidPattern
        || !(pen.widthF() * devicePixelRatio > 1.0))
        return false;
    for (const QCPGraphData& point : *graph->data())
        if (!std::isfinite(point.key) || !std::isfinite(point.value))
            return false;
    return true;
}

bool CurveLayerCache::writeKey(LayerKey& key, double devicePixelRatio) const
{
    describePlot(key, devicePixelRatio);
    key.put(plotkit::curvesStrokedAsLinePieces()); // line pieces or outlines draw other pixels
    for (QCPLayerable* child : hiddenLayer()->children())
        if (!describe(key, child))
            return false; // something the key cannot describe: redraw the image every time
    return true;
}

} // namespace ridgeline::views
