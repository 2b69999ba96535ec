// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/layerimagecache.h"

namespace ridgeline::views {

namespace {

/**
 * QCPLayer::draw() for one layerable, from outside QCustomPlot's friends: the members it calls are
 * protected in QCPLayerable, and a pointer to them taken through a derived class may be called on
 * any layerable.
 */
struct LayerableAccess : QCPLayerable {
    static QRect clipOf(const QCPLayerable* child) { return (child->*(&LayerableAccess::clipRect))(); }
    /** Draws @p child clipped to @p clip (LayerImageCache::drawClipOf()), as QCPLayer::draw() does. */
    static void drawOne(QCPLayerable* child, const QRect& clip, QCPPainter* painter)
    {
        painter->save();
        painter->setClipRect(clip);
        (child->*(&LayerableAccess::applyDefaultAntialiasingHint))(painter);
        (child->*(&LayerableAccess::draw))(painter);
        painter->restore();
    }
};

} // namespace

LayerImageCache::LayerImageCache(QCustomPlot* plot, const QString& host, QCPLayer* hidden)
    : QCPLayerable(plot, host)
    , m_hidden(hidden)
{
}

QRect LayerImageCache::clipOf(const QCPLayerable* child)
{
    return LayerableAccess::clipOf(child);
}

void LayerImageCache::applyDefaultAntialiasingHint(QCPPainter* /*painter*/) const
{
    // Each child sets its own hints when the image is drawn; the image is drawn 1:1.
}

void LayerImageCache::drawChildren(QCPPainter* painter) const
{
    for (QCPLayerable* child : m_hidden->children())
        if (drawn(child))
            LayerableAccess::drawOne(child, drawClipOf(child), painter);
}

void LayerImageCache::draw(QCPPainter* painter)
{
    if (m_hidden->children().isEmpty())
        return;
    ++m_draws;
    if (painter->modes().testFlag(QCPPainter::pmVectorized) || painter->modes().testFlag(QCPPainter::pmNoCaching)) {
        drawChildren(painter); // an export: every vertex, at the export's scale
        return;
    }
    const double ratio = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    const QByteArray now = key(ratio);
    if (now.isEmpty() || now != m_key) {
        ++m_renders;
        m_key = now;
        // The image covers what the children may draw in: their clip rects as QCPLayer::draw() sets them
        // (clipRect() one pixel up: the axis rect's top edge and the row above it).
        QRect area;
        for (QCPLayerable* child : m_hidden->children())
            if (drawn(child))
                area |= drawClipOf(child);
        area &= mParentPlot->viewport();
        m_origin = area.topLeft();
        if (area.isEmpty()) {
            m_image = QImage();
        } else {
            m_image = QImage(area.size() * ratio, QImage::Format_ARGB32_Premultiplied);
            m_image.setDevicePixelRatio(ratio);
            m_image.fill(Qt::transparent);
            QCPPainter picture(&m_image);
            picture.translate(-m_origin);
            drawChildren(&picture);
        }
    }
    if (m_image.isNull())
        return;
    if (mayCopy()) {
        // Nothing under it: a copy of the image is what blending it would give, at a tenth of the cost.
        painter->save();
        painter->setCompositionMode(QPainter::CompositionMode_Source);
        painter->drawImage(m_origin, m_image);
        painter->restore();
    } else {
        painter->drawImage(m_origin, m_image);
    }
}

} // namespace ridgeline::views
