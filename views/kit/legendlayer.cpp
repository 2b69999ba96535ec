// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/legendlayer.h"

#include <algorithm>

#include <QDataStream>
#include <QIODevice>

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
    QByteArray key;
    QDataStream out(&key, QIODevice::WriteOnly);
    out << mParentPlot->viewport() << devicePixelRatio << int(mParentPlot->antialiasedElements())
        << int(mParentPlot->notAntialiasedElements());
    for (QCPLayerable* child : hiddenLayer()->children()) {
        out << quintptr(child) << drawn(child) << clipOf(child);
        if (!drawn(child))
            continue;
        if (auto* legend = qobject_cast<const QCPLegend*>(child)) {
            out << legend->outerRect() << legend->borderPen() << legend->brush() << legend->selectedBorderPen()
                << legend->selectedBrush() << int(legend->selectedParts()) << legend->antialiased();
            continue;
        }
        auto* entry = qobject_cast<QCPPlottableLegendItem*>(child);
        const QCPAbstractPlottable* plottable = entry ? entry->plottable() : nullptr;
        if (!plottable)
            return QByteArray(); // an entry of another kind: drawn again on every replot
        const QCPLegend* legend = entry->parentLegend();
        out << entry->outerRect() << entry->rect() << entry->font() << entry->textColor() << entry->selectedFont()
            << entry->selectedTextColor() << entry->selected() << entry->antialiased() << legend->iconSize()
            << legend->iconTextPadding() << legend->iconBorderPen() << legend->selectedIconBorderPen()
            << plottable->name() << plottable->pen() << plottable->brush() << plottable->antialiased()
            << plottable->antialiasedFill() << plottable->antialiasedScatters();
        if (auto* graph = qobject_cast<const QCPGraph*>(plottable)) {
            const QCPScatterStyle scatter = graph->scatterStyle();
            out << int(graph->lineStyle()) << int(scatter.shape()) << scatter.size() << scatter.pen() << scatter.brush();
        } else {
            return QByteArray(); // its icon draws from what this key does not describe
        }
    }
    return key;
}

} // namespace ridgeline::views
