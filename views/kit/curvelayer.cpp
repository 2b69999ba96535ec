// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/curvelayer.h"

#include <algorithm>
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

int CurveLayerCache::curveInkPad(const QPen& pen)
{
    const double width = std::max(pen.widthF(), 1.0); // a cosmetic or zero-width pen: one pixel
    const double reach = width * std::max({pen.miterLimit(), 1.0}); // miter joins; caps reach less (sqrt(2)/2 widths)
    return int(std::ceil(reach)) + 2; // antialiasing: the pixel the outline's edge falls in, and one more for rounding
}

void CurveLayerCache::addInk(const QCPLayerable* child, InkBands& bands) const
{
    const QRect whole = drawClipOf(child);
    if (const auto* line = qobject_cast<const QCPItemStraightLine*>(child)) {
        // A level or upright line through two points: the strip along it (QCPItemStraightLine extends it across).
        const QPointF a = line->point1->pixelPosition(), b = line->point2->pixelPosition();
        const double pad = curveInkPad(line->selected() ? line->selectedPen() : line->pen());
        if (a.y() == b.y() && a.x() != b.x() && std::isfinite(a.y()))
            bands.add(QRectF(whole.left(), std::clamp(a.y(), whole.top() - 2 * pad, whole.bottom() + 2 * pad) - pad,
                             whole.width(), 2 * pad).toAlignedRect());
        else if (a.x() == b.x() && a.y() != b.y() && std::isfinite(a.x()))
            bands.add(QRectF(std::clamp(a.x(), whole.left() - 2 * pad, whole.right() + 2 * pad) - pad, whole.top(),
                             2 * pad, whole.height()).toAlignedRect());
        else
            bands.add(whole);
        return;
    }
    const auto* graph = qobject_cast<const QCPGraph*>(child);
    const QVector<QPointF>* stroked = graph ? plotkit::lastStrokedCurve(graph) : nullptr;
    if (!stroked) {
        bands.add(whole);
        return;
    }
    const double pad = curveInkPad(graph->pen());
    // Pixel positions far outside the clip are held just outside it (the clip bounds what is drawn), in int range:
    // the box of a piece so held is the piece's box within `hold`.
    const QRectF hold = QRectF(whole).adjusted(-2 * pad, -2 * pad, 2 * pad, 2 * pad);
    bool open = false; // a point before this one, in `last`
    bool lastInside = false; // `last` is that point as stroked, not held
    QPointF last;
    for (const QPointF& at : *stroked) {
        if (!std::isfinite(at.x()) || !std::isfinite(at.y())) {
            open = false; // a gap
            continue;
        }
        const QPointF held(std::clamp(at.x(), hold.left(), hold.right()), std::clamp(at.y(), hold.top(), hold.bottom()));
        const QPointF from = open ? last : held;
        if (held == at && (!open || lastInside)) // both ends as stroked: the piece band by band
            bands.addPiece(from, held, pad);
        else // an end held: its box within the clip
            bands.add(QRectF(from, held).normalized().adjusted(-pad, -pad, pad, pad).toAlignedRect());
        lastInside = held == at;
        last = held;
        open = true;
    }
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
