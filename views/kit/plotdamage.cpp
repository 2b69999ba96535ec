// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/plotdamage.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <QtGlobal>

#include <qcustomplot.h>

namespace ridgeline::views {

namespace {

bool s_enabled = true;
int s_marginPx = 3;

/** RL_DEBUG_PLOTDAMAGE=1: each replot's rule on stderr (whole or partial, and why). */
bool debugging()
{
    static const bool on = qEnvironmentVariableIsSet("RL_DEBUG_PLOTDAMAGE");
    return on;
}

// QCustomPlot keeps these protected, with no reader. A class derived from each names them, which yields pointers to the
// base's members that read any object of the base (the access check is on the name; the pointer's class is the base).
struct PlotMembers : QCustomPlot {
    static auto buffers() { return &PlotMembers::mPaintBuffers; }
    static auto backgroundBrush() { return &PlotMembers::mBackgroundBrush; }
};
struct AxisMembers : QCPAxis {
    static auto painter() { return &AxisMembers::mAxisPainter; }
};

/** What QCPAxisPainterPrivate::draw() drew @p axis from at the last replot (QCPAxis::draw() sets every field first). */
void writeAxis(LayerKey& key, const QCPAxis* axis)
{
    const QCPAxisPainterPrivate* p = axis->*AxisMembers::painter();
    key.put(int(p->type));
    key.putPen(p->basePen);
    for (const QCPLineEnding* ending : {&p->lowerEnding, &p->upperEnding}) {
        key.put(int(ending->style()));
        key.put(ending->width());
        key.put(ending->length());
        key.put(ending->inverted());
    }
    key.put(p->labelPadding);
    key.putFont(p->labelFont);
    key.put(p->labelColor.rgba64());
    key.putText(p->label);
    key.put(p->tickLabelPadding);
    key.put(p->tickLabelRotation);
    key.put(int(p->tickLabelSide));
    key.put(p->substituteExponent);
    key.put(p->numberMultiplyCross);
    key.put(p->tickLengthIn);
    key.put(p->tickLengthOut);
    key.put(p->subTickLengthIn);
    key.put(p->subTickLengthOut);
    key.putPen(p->tickPen);
    key.putPen(p->subTickPen);
    key.putFont(p->tickLabelFont);
    key.put(p->tickLabelColor.rgba64());
    key.put(p->axisRect);
    key.put(p->viewportRect);
    key.put(p->offset);
    key.put(p->abbreviateDecimalPowers);
    key.put(p->reversedEndings);
    key.putDoubles(p->subTickPositions);
    key.putDoubles(p->tickPositions);
    key.put(qint64(p->tickLabels.size()));
    for (const QString& label : p->tickLabels)
        key.putText(label);
}

QRect padded(const QRectF& r, double pad)
{
    return r.adjusted(-pad, -pad, pad, pad).toAlignedRect();
}

} // namespace

PlotDamage* PlotDamage::install(QCustomPlot* plot)
{
    if (PlotDamage* existing = of(plot))
        return existing;
    return new PlotDamage(plot);
}

PlotDamage* PlotDamage::of(const QCustomPlot* plot)
{
    if (!plot)
        return nullptr;
    for (QObject* child : plot->children()) // no Q_OBJECT here, so no qobject_cast (findChild) either
        if (auto* damage = dynamic_cast<PlotDamage*>(child))
            return damage;
    return nullptr;
}

void PlotDamage::setEnabled(bool on)
{
    s_enabled = on;
}

bool PlotDamage::isEnabled()
{
    return s_enabled;
}

void PlotDamage::setMarginPx(int px)
{
    s_marginPx = px;
}

int PlotDamage::marginPx()
{
    return s_marginPx;
}

PlotDamage::PlotDamage(QCustomPlot* plot)
    : QObject(plot)
    , m_plot(plot)
{
    connect(plot, &QCustomPlot::beforeReplot, this, &PlotDamage::beforeReplot);
    connect(plot, &QCustomPlot::afterReplot, this, &PlotDamage::afterReplot);
}

void PlotDamage::setMoving(const QList<QCPLayerable*>& items)
{
    m_moving.clear();
    for (QCPLayerable* item : items)
        m_moving.append(item);
    m_lastValid = false;
}

void PlotDamage::beforeReplot()
{
    // Held only when updates are on: with them off the replot's update is dropped anyway, and turning them on repaints
    // the whole plot.
    m_held = s_enabled && m_plot->updatesEnabled();
    if (m_held)
        m_plot->setAttribute(Qt::WA_UpdatesDisabled, true);
}

void PlotDamage::afterReplot()
{
    const bool held = m_held;
    m_held = false;
    if (held)
        m_plot->setAttribute(Qt::WA_UpdatesDisabled, false);
    if (!s_enabled) {
        m_lastValid = false;
        return;
    }
    // A layer image that drew other pixels (the curves on a model-size step): the whole plot, no key written.
    for (SeenCache& seen : m_caches) {
        const long long now = seen.alive ? seen.cache->keyChanges() : -1;
        if (now == seen.keyChanges)
            continue;
        for (SeenCache& each : m_caches)
            each.keyChanges = each.alive ? each.cache->keyChanges() : -1;
        m_lastValid = false;
        if (debugging())
            qInfo("plotdamage %s: whole (a layer image changed)", qPrintable(m_plot->objectName()));
        if (held) {
            ++m_whole;
            m_lastDamage = QRegion(m_plot->rect());
            m_plot->update();
        }
        return;
    }
    QRegion moving;
    m_nextKey.clear();
    m_nextCaches.clear();
    const bool described = writeKey(&moving);
    std::swap(m_caches, m_nextCaches); // (a key not written to its end: the layer images met before it stopped)
    const bool partial = described && m_lastValid && m_nextKey == m_lastKey;
    if (debugging())
        qInfo("plotdamage %s: %s (described %d, last valid %d, key %zu bytes%s)", qPrintable(m_plot->objectName()),
              partial ? "partial" : "whole", int(described), int(m_lastValid), m_nextKey.size(),
              described && m_lastValid && !partial ? ", changed" : "");
    const QRegion damage = partial ? (moving | m_lastMoving) & m_plot->rect() : QRegion(m_plot->rect());
    std::swap(m_nextKey, m_lastKey);
    m_lastValid = described;
    m_lastMoving = moving;
    if (!held)
        return;
    m_lastDamage = damage;
    if (partial) {
        ++m_partial;
        if (!damage.isEmpty())
            m_plot->update(damage);
    } else {
        ++m_whole;
        m_plot->update();
    }
}

QRect PlotDamage::footprint(const QCPLayerable* item) const
{
    if (!item->realVisibility())
        return {};
    const QRect clip = LayerImageCache::drawClipOf(item); // as QCPLayer::draw() clips it
    const double margin = s_marginPx;
    if (auto* line = qobject_cast<const QCPItemStraightLine*>(item)) {
        const QPointF a = line->point1->pixelPosition();
        const QPointF b = line->point2->pixelPosition();
        const double half = line->pen().widthF() / 2.0 + margin;
        if (a.x() == b.x() && std::isfinite(a.x()))
            return padded(QRectF(a.x(), clip.top(), 0, clip.height()), half) & clip;
        if (a.y() == b.y() && std::isfinite(a.y()))
            return padded(QRectF(clip.left(), a.y(), clip.width(), 0), half) & clip;
        return clip;
    }
    if (auto* graph = qobject_cast<const QCPGraph*>(item)) {
        const QCPScatterStyle scatter = graph->scatterStyle();
        if (graph->lineStyle() != QCPGraph::lsNone || graph->data()->size() > 16 || scatter.isNone()
            || scatter.shape() == QCPScatterStyle::ssPixmap || scatter.shape() == QCPScatterStyle::ssCustom)
            return clip;
        const double reach = scatter.size() / 2.0 + scatter.pen().widthF() + margin;
        QRect r;
        for (const QCPGraphData& point : *graph->data()) {
            double x = 0;
            double y = 0;
            graph->coordsToPixels(point.key, point.value, x, y);
            if (std::isfinite(x) && std::isfinite(y))
                r |= padded(QRectF(x, y, 0, 0), reach);
        }
        return r & clip;
    }
    if (auto* text = qobject_cast<const QCPItemText*>(item)) {
        // The box's corners, turned with the text (QRectF::united() would drop the empty rect of a point).
        double left = qInf(), top = qInf(), right = -qInf(), bottom = -qInf();
        for (const QCPItemAnchor* corner : {text->topLeft, text->topRight, text->bottomRight, text->bottomLeft}) {
            const QPointF at = corner->pixelPosition();
            left = std::min(left, at.x());
            right = std::max(right, at.x());
            top = std::min(top, at.y());
            bottom = std::max(bottom, at.y());
        }
        if (!(left <= right && top <= bottom) || !std::isfinite(right - left) || !std::isfinite(bottom - top))
            return clip;
        return padded(QRectF(QPointF(left, top), QPointF(right, bottom)), text->pen().widthF() + margin) & clip;
    }
    return clip;
}

bool PlotDamage::writeKey(QRegion* moving)
{
    LayerKey& key = m_nextKey;
    const auto& buffers = m_plot->*PlotMembers::buffers();
    if (buffers.size() != 1 || m_plot->bufferDevicePixelRatio() != 1.0 || !m_plot->background().isNull())
        return false; // only one buffer: a layer with a buffer of its own may be replotted alone, outside this
    key.put(m_plot->size());
    key.put(m_plot->viewport());
    key.putBrush(m_plot->*PlotMembers::backgroundBrush());
    key.put(int(m_plot->antialiasedElements()));
    key.put(int(m_plot->notAntialiasedElements()));
    key.put(int(m_plot->plottingHints()));
    key.put(qint64(m_moving.size()));
    for (const QPointer<QCPLayerable>& item : m_moving)
        key.put(item.data());
    for (int i = 0; i < m_plot->layerCount(); ++i) {
        const QCPLayer* layer = m_plot->layer(i);
        key.put(layer);
        key.put(layer->visible());
        if (!layer->visible())
            continue; // hidden: drawn by a layer image, if at all
        for (const QCPLayerable* child : layer->children()) {
            if (std::any_of(m_moving.cbegin(), m_moving.cend(), [child](const QPointer<QCPLayerable>& m) { return m == child; })) {
                key.put(child);
                *moving += footprint(child);
                continue;
            }
            if (auto* cache = dynamic_cast<const LayerImageCache*>(child)) {
                key.put(child);
                key.put(cache->keyChanges());
                m_nextCaches.push_back({const_cast<QCPLayerable*>(child), cache, cache->keyChanges()});
                continue;
            }
            const bool visible = child->realVisibility();
            if (!visible) {
                key.put(child);
                key.put(false);
                continue;
            }
            if (auto* axis = qobject_cast<const QCPAxis*>(child)) {
                key.put(child);
                writeAxis(key, axis);
            } else if (auto* rect = qobject_cast<const QCPAxisRect*>(child)) {
                key.put(child);
                key.put(rect->rect());
                key.putBrush(rect->backgroundBrush());
                if (!rect->background().isNull())
                    return false;
            } else if (auto* legend = qobject_cast<const QCPLegend*>(child)) {
                const bool selected = legend->selectedParts().testFlag(QCPLegend::spLegendBox);
                key.put(child);
                key.put(legend->outerRect());
                key.putPen(selected ? legend->selectedBorderPen() : legend->borderPen());
                key.putBrush(selected ? legend->selectedBrush() : legend->brush());
            } else if (child->metaObject() == &QCPLayoutGrid::staticMetaObject
                       || child->metaObject() == &QCPLayoutInset::staticMetaObject) {
                key.put(child); // draws nothing itself
            } else if (auto* selection = qobject_cast<const QCPSelectionRect*>(child)) {
                key.put(child);
                if (selection->isActive())
                    return false; // draws only while a selection is dragged (no interactions here)
            } else if (!LayerImageCache::describeAlone(key, child)) {
                if (debugging())
                    qInfo("plotdamage %s: %s not described", qPrintable(m_plot->objectName()), child->metaObject()->className());
                return false;
            }
        }
    }
    return true;
}

} // namespace ridgeline::views
