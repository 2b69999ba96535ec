// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/gridlayer.h"

#include <QDataStream>
#include <QIODevice>

namespace ridgeline::views {

namespace {

const QString kGridLinesLayer = QStringLiteral("gridLines");
const QString kCacheName = QStringLiteral("gridLayerCache");

/** The sub-tick positions QCPGrid::drawSubGridLines() reads (protected in QCPAxis, no getter). */
struct AxisAccess : QCPAxis {
    static const QVector<double>& subTicks(const QCPAxis* axis) { return axis->*(&AxisAccess::mSubTickVector); }
};

} // namespace

void GridLayerCache::install(QCustomPlot* plot)
{
    if (plot->layer(kGridLinesLayer))
        return;
    QCPLayer* grid = plot->layer(QStringLiteral("grid"));
    if (!grid)
        return;
    plot->addLayer(kGridLinesLayer, grid, QCustomPlot::limBelow);
    QCPLayer* lines = plot->layer(kGridLinesLayer);
    lines->setMode(QCPLayer::lmLogical); // no paint buffer of its own
    lines->setVisible(false);            // drawn by the cache, on "grid"
    for (QCPLayerable* child : grid->children())
        if (qobject_cast<QCPGrid*>(child))
            child->setLayer(lines);
    // First on "grid" (the grids were its only children): under a pinned scenarios' cache added later.
    new GridLayerCache(plot, lines);
}

GridLayerCache* GridLayerCache::find(const QCustomPlot* plot)
{
    for (QCPLayerable* child : plot->findChildren<QCPLayerable*>(kCacheName, Qt::FindDirectChildrenOnly))
        if (auto* cache = dynamic_cast<GridLayerCache*>(child))
            return cache;
    return nullptr;
}

GridLayerCache::GridLayerCache(QCustomPlot* plot, QCPLayer* lines)
    : LayerImageCache(plot, QStringLiteral("grid"), lines)
{
    setObjectName(kCacheName);
}

bool GridLayerCache::shown(const QCPLayerable* grid)
{
    // QCPLayerable::realVisibility() but for the (hidden) layer: the grid and its axis, as drawn on "grid".
    const QCPLayerable* parent = grid->parentLayerable();
    return grid->visible() && (!parent || parent->realVisibility());
}

QByteArray GridLayerCache::key(double devicePixelRatio) const
{
    QByteArray key;
    QDataStream out(&key, QIODevice::WriteOnly);
    out << mParentPlot->viewport() << devicePixelRatio << int(mParentPlot->antialiasedElements())
        << int(mParentPlot->notAntialiasedElements());
    for (QCPLayerable* child : hiddenLayer()->children()) {
        auto* grid = qobject_cast<QCPGrid*>(child);
        if (!grid)
            return QByteArray(); // something the key cannot describe: redraw every time
        out << quintptr(grid) << shown(grid);
        if (!shown(grid))
            continue;
        const QCPAxis* axis = qobject_cast<const QCPAxis*>(grid->parentLayerable());
        if (!axis)
            return QByteArray();
        out << grid->pen() << grid->subGridPen() << grid->zeroLinePen() << grid->subGridVisible() << grid->antialiased()
            << grid->antialiasedSubGrid() << grid->antialiasedZeroLine() << drawClipOf(grid)
            << int(axis->axisType()) << axis->range().lower << axis->range().upper << int(axis->scaleType())
            << axis->rangeReversed() << axis->axisRect()->rect() << axis->subTicks() << axis->tickVector()
            << AxisAccess::subTicks(axis);
    }
    return key;
}

bool GridLayerCache::mayCopy() const
{
    // QCustomPlot clears the paint buffer to transparent before each replot, then draws the layers in order: the
    // image may replace what is under it when nothing before "grid" draws, i.e. the layers below hold axis rects
    // without a background (the default) and nothing else, and "grid" starts with this cache.
    QCPLayer* grid = layer();
    if (!grid || grid->children().isEmpty() || grid->children().constFirst() != this)
        return false;
    for (int i = 0; i < grid->index(); ++i) {
        const QCPLayer* below = mParentPlot->layer(i);
        if (!below->visible())
            continue;
        for (QCPLayerable* child : below->children()) {
            auto* rect = qobject_cast<QCPAxisRect*>(child);
            if (!rect || !rect->background().isNull() || rect->backgroundBrush().style() != Qt::NoBrush)
                return false;
        }
    }
    return true;
}

} // namespace ridgeline::views
