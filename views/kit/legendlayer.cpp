// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/legendlayer.h"

#include <algorithm>

#include <QHashFunctions>

namespace ridgeline::views {

namespace {

const QString kEntriesLayer = QStringLiteral("legendEntries");
const QString kCacheName = QStringLiteral("legendLayerCache");

/** A layer's drawing order (QCPLayer::mChildren, protected; children() is a copy): the cache goes in the legend's
 *  place, which QCPLayerable::setLayer() (appends) cannot. */
struct LayerAccess : QCPLayer {
    static QList<QCPLayerable*>& order(QCPLayer* layer) { return layer->*(&LayerAccess::mChildren); }
};

/** True for the legend of @p plot and the entries in it. */
bool ofLegend(const QCustomPlot* plot, const QCPLayerable* layerable)
{
    if (!plot->legend)
        return false;
    if (layerable == plot->legend)
        return true;
    auto* entry = qobject_cast<const QCPAbstractLegendItem*>(layerable);
    return entry && entry->parentLegend() == plot->legend;
}

/** QCPLayerable::realVisibility() with the hidden layer counted as visible: @p layerable and its parents visible, a
 *  parent on another layer as QCustomPlot sees it. */
bool shownOn(const QCPLayerable* layerable, const QCPLayer* hidden)
{
    for (const QCPLayerable* l = layerable; l; l = l->parentLayerable()) {
        if (l->layer() != hidden)
            return l->realVisibility();
        if (!l->visible())
            return false;
    }
    return true;
}

} // namespace

LegendLayerCache* LegendLayerCache::install(QCustomPlot* plot)
{
    if (LegendLayerCache* cache = find(plot))
        return cache;
    QCPLegend* legend = plot->legend;
    QCPLayer* host = legend ? legend->layer() : nullptr;
    if (!host)
        return nullptr;
    const qsizetype at = host->children().indexOf(legend);
    plot->addLayer(kEntriesLayer, host, QCustomPlot::limBelow);
    QCPLayer* entries = plot->layer(kEntriesLayer);
    entries->setMode(QCPLayer::lmLogical); // no paint buffer of its own
    entries->setVisible(false);            // drawn by the cache, in the legend's place
    auto* cache = new LegendLayerCache(plot, host, entries);
    for (QCPLayerable* child : host->children())
        if (ofLegend(plot, child))
            child->setLayer(entries);
    // The cache was appended to the host layer: into the legend's place.
    QList<QCPLayerable*>& drawn = LayerAccess::order(host);
    drawn.removeOne(cache);
    drawn.insert(std::clamp<qsizetype>(at, 0, drawn.size()), cache);
    return cache;
}

LegendLayerCache* LegendLayerCache::find(const QCustomPlot* plot)
{
    for (QCPLayerable* child : plot->findChildren<QCPLayerable*>(kCacheName, Qt::FindDirectChildrenOnly))
        if (auto* cache = dynamic_cast<LegendLayerCache*>(child))
            return cache;
    return nullptr;
}

void LegendLayerCache::adopt(QCustomPlot* plot)
{
    LegendLayerCache* cache = find(plot);
    if (!cache || !cache->layer())
        return;
    for (QCPLayerable* child : cache->layer()->children())
        if (ofLegend(plot, child))
            child->setLayer(cache->hiddenLayer()); // after the entries there: drawn after them, as before
}

LegendLayerCache::LegendLayerCache(QCustomPlot* plot, QCPLayer* host, QCPLayer* entries)
    : LayerImageCache(plot, host->name(), entries)
{
    setObjectName(kCacheName);
}

bool LegendLayerCache::drawn(const QCPLayerable* child) const
{
    if (!shownOn(child, hiddenLayer()))
        return false;
    if (auto* legend = qobject_cast<const QCPLegend*>(child))
        return legend->borderPen().style() != Qt::NoPen || legend->brush().style() != Qt::NoBrush
            || legend->selectedBorderPen().style() != Qt::NoPen || legend->selectedBrush().style() != Qt::NoBrush;
    return true;
}

QByteArray LegendLayerCache::key(double devicePixelRatio) const
{
    // Raw bytes and hashes, not QDataStream: streaming the entries' fonts and pens cost 0.16 M instructions a replot, as
    // much as drawing the legend.
    QByteArray key;
    key.reserve(1024);
    auto put = [&key](const auto& value) { key.append(reinterpret_cast<const char*>(&value), sizeof value); };
    auto putRect = [&put](const QRect& r) {
        put(r.x());
        put(r.y());
        put(r.width());
        put(r.height());
    };
    bool describable = true;
    auto putPen = [&](const QPen& pen) {
        const QBrush brush = pen.brush();
        describable = describable && (brush.style() == Qt::SolidPattern || brush.style() == Qt::NoBrush)
            && brush.transform().isIdentity() && (pen.style() != Qt::CustomDashLine);
        put(int(pen.style()));
        put(pen.widthF());
        put(int(pen.capStyle()));
        put(int(pen.joinStyle()));
        put(pen.miterLimit());
        put(pen.dashOffset());
        put(pen.isCosmetic());
        put(brush.color().rgba64());
        put(int(brush.style()));
    };
    auto putBrush = [&](const QBrush& brush) {
        describable = describable && (brush.style() == Qt::SolidPattern || brush.style() == Qt::NoBrush)
            && brush.transform().isIdentity();
        put(int(brush.style()));
        put(brush.color().rgba64());
    };
    auto putFont = [&put](const QFont& font) { put(size_t(qHash(font))); };
    auto putText = [&put](const QString& text) {
        put(text.size());
        put(size_t(qHash(text)));
    };
    putRect(mParentPlot->viewport());
    put(devicePixelRatio);
    put(int(mParentPlot->antialiasedElements()));
    put(int(mParentPlot->notAntialiasedElements()));
    for (QCPLayerable* child : hiddenLayer()->children()) {
        put(quintptr(child));
        const bool shown = drawn(child);
        put(shown);
        if (!shown)
            continue;
        putRect(clipOf(child));
        if (auto* legend = qobject_cast<const QCPLegend*>(child)) {
            putRect(legend->outerRect());
            putPen(legend->borderPen());
            putBrush(legend->brush());
            putPen(legend->selectedBorderPen());
            putBrush(legend->selectedBrush());
            put(int(legend->selectedParts()));
            put(legend->antialiased());
            continue;
        }
        auto* entry = qobject_cast<QCPPlottableLegendItem*>(child);
        const auto* graph = entry ? qobject_cast<const QCPGraph*>(entry->plottable()) : nullptr;
        // A bar's icon (QCPBars::drawLegendIcon) is a rect in the bars' pen and brush: the KV share's stacked bar.
        const auto* bars = entry && !graph ? qobject_cast<const QCPBars*>(entry->plottable()) : nullptr;
        if (!graph && !bars)
            return QByteArray(); // an entry of another kind, or an icon this key does not describe: drawn every time
        const QCPLegend* legend = entry->parentLegend();
        putRect(entry->outerRect());
        putRect(entry->rect());
        putFont(entry->font());
        put(entry->textColor().rgba64());
        putFont(entry->selectedFont());
        put(entry->selectedTextColor().rgba64());
        put(entry->selected());
        put(entry->antialiased());
        put(legend->iconSize().width());
        put(legend->iconSize().height());
        put(legend->iconTextPadding());
        putPen(legend->iconBorderPen());
        putPen(legend->selectedIconBorderPen());
        if (bars) {
            putText(bars->name());
            putPen(bars->pen());
            putBrush(bars->brush());
            put(bars->antialiased());
            put(bars->antialiasedFill());
            continue;
        }
        putText(graph->name());
        putPen(graph->pen());
        putBrush(graph->brush());
        put(graph->antialiased());
        put(graph->antialiasedFill());
        put(graph->antialiasedScatters());
        put(int(graph->lineStyle()));
        const QCPScatterStyle scatter = graph->scatterStyle();
        if (scatter.shape() == QCPScatterStyle::ssPixmap || scatter.shape() == QCPScatterStyle::ssCustom)
            return QByteArray();
        put(int(scatter.shape()));
        put(scatter.size());
        putPen(scatter.pen());
        putBrush(scatter.brush());
    }
    return describable ? key : QByteArray();
}

} // namespace ridgeline::views
