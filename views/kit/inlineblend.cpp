// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/inlineblend.h"

#include <algorithm>
#include <cmath>

#include <QPaintDevice>
#include <QPainter>
#include <QTransform>

namespace ridgeline::views {

namespace {

bool g_inlineBlendOn = true;
long long g_inlineBlendStrips = 0;
int g_inlineBlendTallest = 0;

} // namespace

void InlineBlend::draw(QPainter* painter, const QRectF& bounds, const std::function<void()>& draw)
{
    if (!g_inlineBlendOn || painter->viewTransformEnabled()) {
        draw();
        return;
    }
    // Device rows: the world transform's rows scaled by the device's pixel ratio (the engine's own scale).
    const double ratio = std::max(1.0, painter->device() ? painter->device()->devicePixelRatio() : 1.0);
    const QRect logical = painter->worldTransform().mapRect(bounds).toAlignedRect().adjusted(-1, -1, 1, 1);
    const int stripRows = std::max(1, int(std::floor(kStripRows / ratio))); // logical rows of a strip
    if (logical.height() <= stripRows) {
        draw();
        return;
    }
    const QTransform world = painter->worldTransform();
    for (int top = logical.top(); top <= logical.bottom(); top += stripRows) {
        painter->save();
        painter->setWorldTransform(QTransform());
        painter->setClipRect(QRect(logical.left(), top, logical.width(), stripRows), Qt::IntersectClip);
        painter->setWorldTransform(world);
        draw();
        painter->restore();
        ++g_inlineBlendStrips;
        g_inlineBlendTallest = std::max(g_inlineBlendTallest, int(std::ceil(stripRows * ratio)));
    }
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
