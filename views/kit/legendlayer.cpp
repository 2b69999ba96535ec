// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/legendlayer.h"

#include <algorithm>


namespace ridgeline::views {

namespace {

const QString kEntriesLayer = QStringLiteral("legendEntries");
const QString kLegendCacheName = QStringLiteral("legendLayerCache");

/** A layer's drawing order (QCPLayer::mChildren, protected; children() is a copy): the cache goes in the legend's
 *  place, which QCPLayerable::setLayer() (appends) cannot. */
struct LegendLayerAccess : QCPLayer {
    static QList<QCPLayerable*>& order(QCPLayer* layer) { return layer->*(&LegendLayerAccess::mChildren); }
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
    QList<QCPLayerable*>& drawn = LegendLayerAccess::order(host);
    drawn.removeOne(cache);
    drawn.insert(std::clamp<qsizetype>(at, 0, drawn.size()), cache);
    return cache;
}

LegendLayerCache* LegendLayerCache::find(const QCustomPlot* plot)
{
    for (QCPLayerable* child : plot->findChildren<QCPLayerable*>(kLegendCacheName, Qt::FindDirectChildrenOnly))
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
    setObjectName(kLegendCacheName);
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

bool LegendLayerCache::writeKey(LayerKey& key, double devicePixelRatio) const
{
    // Pens and brushes other than solid or empty ones are described too (LayerKey::putPen()); a custom scatter is not.
    describePlot(key, devicePixelRatio);
    for (QCPLayerable* child : hiddenLayer()->children()) {
        key.put(child);
        const bool shown = drawn(child);
        key.put(shown);
        if (!shown)
            continue;
        key.put(clipOf(child));
        if (auto* legend = qobject_cast<const QCPLegend*>(child)) {
            key.put(legend->outerRect());
            key.putPen(legend->borderPen());
            key.putBrush(legend->brush());
            key.putPen(legend->selectedBorderPen());
            key.putBrush(legend->selectedBrush());
            key.put(int(legend->selectedParts()));
            key.put(legend->antialiased());
            continue;
        }
        auto* entry = qobject_cast<QCPPlottableLegendItem*>(child);
        const auto* graph = entry ? qobject_cast<const QCPGraph*>(entry->plottable()) : nullptr;
        // A bar's icon (QCPBars::drawLegendIcon) is a rect in the bars' pen and brush: the KV share's stacked bar.
        const auto* bars = entry && !graph ? qobject_cast<const QCPBars*>(entry->plottable()) : nullptr;
        if (!graph && !bars)
            return false; // an entry of another kind, or an icon this key does not describe: drawn every time
        const QCPLegend* legend = entry->parentLegend();
        key.put(entry->outerRect());
        key.put(entry->rect());
        key.putFont(entry->font());
        key.put(entry->textColor().rgba64());
        key.putFont(entry->selectedFont());
        key.put(entry->selectedTextColor().rgba64());
        key.put(entry->selected());
        key.put(entry->antialiased());
        key.put(legend->iconSize());
        key.put(legend->iconTextPadding());
        key.putPen(legend->iconBorderPen());
        key.putPen(legend->selectedIconBorderPen());
        if (bars) {
            key.putText(bars->name());
            key.putPen(bars->pen());
            key.putBrush(bars->brush());
            key.put(bars->antialiased());
            key.put(bars->antialiasedFill());
            continue;
        }
        key.putText(graph->name());
        key.putPen(graph->pen());
        key.putBrush(graph->brush());
        key.put(graph->antialiased());
        key.put(graph->antialiasedFill());
        key.put(graph->antialiasedScatters());
        key.put(int(graph->lineStyle()));
        const QCPScatterStyle scatter = graph->scatterStyle();
        if (scatter.shape() == QCPScatterStyle::ssPixmap || scatter.shape() == QCPScatterStyle::ssCustom)
            return false;
        key.put(int(scatter.shape()));
        key.put(scatter.size());
        key.putPen(scatter.pen());
        key.putBrush(scatter.brush());
    }
    return true;
}

} // namespace ridgeline::views
