// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/inlineblend.h"

#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QPointer>
#include <QProxyStyle>
#include <QStyleOption>
#include <QTransform>

namespace ridgeline::views {

namespace {

bool g_inlineBlendOn = true;
long long g_inlineBlendStrips = 0;
int g_inlineBlendTallest = 0;

/** The application's style, a group box's frame drawn in strips (InlineBlend::groupBoxStyle()). */
class InlineBlendFrameStyle final : public QProxyStyle {
public:
    InlineBlendFrameStyle()
        : QProxyStyle(QApplication::style()->name())
    {
    }

    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                       const QWidget* widget) const override
    {
        if (element != PE_FrameGroupBox || !option) {
            QProxyStyle::drawPrimitive(element, option, painter, widget);
            return;
        }
        // A pixmap's nine pieces, unrotated: one span a row in each piece's blend.
        InlineBlend::draw(
            painter, QRectF(option->rect), [&] { QProxyStyle::drawPrimitive(element, option, painter, widget); }, 1);
    }
};

QPointer<QStyle> g_inlineBlendFrameStyle;

} // namespace

void InlineBlend::draw(QPainter* painter, const QRectF& bounds, const std::function<void()>& draw, int spansPerRow)
{
    if (!g_inlineBlendOn || painter->viewTransformEnabled()) {
        draw();
        return;
    }
    // Device rows: the world transform's rows scaled by the device's pixel ratio (the engine's own scale).
    const double ratio = std::max(1.0, painter->device() ? painter->device()->devicePixelRatio() : 1.0);
    QRect logical = painter->worldTransform().mapRect(bounds).toAlignedRect().adjusted(-1, -1, 1, 1);
    const int deviceRows = kInlineSpans / std::max(1, spansPerRow);
    const int stripRows = std::max(1, int(std::floor(deviceRows / ratio))); // logical rows of a strip
    if (logical.height() <= stripRows) {
        draw();
        return;
    }
    // Only the rows the paint can reach: the painter's clip and the paint's region (a widget's repainted part, the
    // engine's system clip, in device pixels), so a tall shape of which a few rows are repainted is drawn once or
    // twice.
    const QTransform world = painter->worldTransform();
    QRect reach = logical;
    if (painter->hasClipping())
        reach &= world.mapRect(painter->clipBoundingRect()).toAlignedRect().adjusted(-1, -1, 1, 1);
    if (const QPaintEngine* engine = painter->paintEngine(); engine && !engine->systemClip().isEmpty()) {
        bool invertible = false;
        const QTransform deviceToPainter = (world.inverted() * painter->deviceTransform()).inverted(&invertible);
        if (invertible)
            reach &= deviceToPainter.mapRect(QRectF(engine->systemClip().boundingRect())).toAlignedRect().adjusted(
                -1, -1, 1, 1);
    }
    if (reach.isEmpty()) { // nothing of the shape is repainted: drawn once, the clip drops it all
        draw();
        return;
    }
    // The reach in strips (the rows outside it are clipped away: tst_controlspanel::groupBoxFramesBlendInStrips
    // repaints part of a group box inside a window and compares the window's pixels).
    auto drawRows = [&](int top, int rows) {
        if (rows <= 0)
            return;
        painter->save();
        painter->setWorldTransform(QTransform());
        painter->setClipRect(QRect(logical.left(), top, logical.width(), rows), Qt::IntersectClip);
        painter->setWorldTransform(world);
        draw();
        painter->restore();
    };
    for (int top = reach.top(); top <= reach.bottom(); top += stripRows) {
        const int rows = std::min(stripRows, reach.bottom() + 1 - top);
        drawRows(top, rows);
        ++g_inlineBlendStrips;
        g_inlineBlendTallest = std::max(g_inlineBlendTallest, int(std::ceil(rows * ratio)));
    }
}

QStyle* InlineBlend::groupBoxStyle()
{
    if (!g_inlineBlendFrameStyle) {
        g_inlineBlendFrameStyle = new InlineBlendFrameStyle;
        g_inlineBlendFrameStyle->setParent(qApp);
    }
    return g_inlineBlendFrameStyle;
}

void InlineBlend::setEnabled(bool on)
{
    g_inlineBlendOn = on;
}

long long InlineBlend::strips()
{
    return g_inlineBlendStrips;
}

int InlineBlend::tallestStripRows()
{
    return g_inlineBlendTallest;
}

void InlineBlend::resetTallest()
{
    g_inlineBlendTallest = 0;
}

} // namespace ridgeline::views
