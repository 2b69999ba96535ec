// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/cardbuffer.h"

#include <QEvent>
#include <QObject>
#include <QPaintEvent>
#include <QPainter>
#include <QRegion>

#include <utility>

#include <qcustomplot.h>

#include "views/kit/gridlayer.h"

namespace ridgeline::views {

namespace {

bool g_cardBufferOn = true;
long long g_cardBufferCopies = 0;
bool g_cardBufferByRect = true;
long long g_cardBufferRectCopies = 0;
bool g_cardClearSpared = true;
long long g_cardSparedPixels = 0;
long long g_cardUnsparedPixels = 0;
QColor g_cardSparedPoison; ///< CardBuffer::setSparedPoison() (invalid: none)

// QCustomPlot keeps these protected, with no reader (as PlotDamage reads them, views/kit/plotdamage.cpp).
struct CardBufferPlotMembers : QCustomPlot {
    static auto buffers() { return &CardBufferPlotMembers::mPaintBuffers; }
    static auto backgroundBrush() { return &CardBufferPlotMembers::mBackgroundBrush; }
};

struct CardBufferLayerMembers : QCPLayer {
    static auto paintBuffer() { return &CardBufferLayerMembers::mPaintBuffer; }
};

/** Whether the layer @p layer draws nothing into its buffer before its first child takes an uncleared rect
 *  (CardBuffer::takeUncleared()): hidden, or holding axis rects without a background only (they draw nothing), or
 *  starting with a shown GridLayerCache, whose draw() takes the rect before anything else is drawn. */
bool drawsNothingBeforeTaking(const QCPLayer* layer)
{
    if (!layer->visible())
        return true;
    const QList<QCPLayerable*> children = layer->children();
    if (!children.isEmpty() && dynamic_cast<const GridLayerCache*>(children.constFirst())
        && children.constFirst()->realVisibility())
        return true;
    for (const QCPLayerable* child : children) {
        if (!child->realVisibility())
            continue;
        const auto* rect = qobject_cast<const QCPAxisRect*>(child);
        if (!rect || !rect->background().isNull() || rect->backgroundBrush().style() != Qt::NoBrush)
            return false;
    }
    return true;
}

/** The colour @p plot's paint fills its viewport with when that covers the whole widget opaquely (a solid, opaque
 *  brush, no background pixmap, the viewport the widget's rect); invalid otherwise. */
QColor opaqueBackground(const QCustomPlot* plot)
{
    const QBrush& brush = plot->*CardBufferPlotMembers::backgroundBrush();
    if (brush.style() != Qt::SolidPattern || brush.color().alpha() != 255 || !plot->background().isNull()
        || plot->viewport() != plot->rect())
        return {};
    return brush.color();
}

/** QCustomPlot's pixmap buffer, cleared in the plot's background colour when that is opaque (opaqueBackground()). */
class CardPaintBuffer final : public QCPPaintBufferPixmap {
public:
    CardPaintBuffer(const QCustomPlot* plot, const QSize& size, double ratio)
        : QCPPaintBufferPixmap(size, ratio), m_plot(plot)
    {
    }

    void clear(const QColor& color) override
    {
        m_ground = color;
        if (g_cardBufferOn && color.alpha() == 0)
            if (const QColor card = opaqueBackground(m_plot); card.isValid())
                m_ground = card;
        m_layerCursor = 0;
        m_uncleared = QRect();
        const QRect spare = std::exchange(m_spare, QRect()) & QRect(QPoint(0, 0), mBuffer.size());
        if (!g_cardClearSpared || !opaque() || spare.isEmpty() || mBuffer.devicePixelRatio() != 1.0) {
            mBuffer.fill(m_ground);
            return;
        }
        // The rest of the buffer filled as QPixmap::fill() fills it (the same opaque pixel), the spared rect left.
        {
            QPainter painter(&mBuffer);
            painter.setCompositionMode(QPainter::CompositionMode_Source);
            for (const QRect& rect : QRegion(QRect(QPoint(0, 0), mBuffer.size())) - spare)
                painter.fillRect(rect, m_ground);
            if (g_cardSparedPoison.isValid())
                painter.fillRect(spare, g_cardSparedPoison);
        }
        m_uncleared = spare;
        g_cardSparedPixels += qint64(spare.width()) * spare.height();
    }

    QCPPainter* startPainting() override
    {
        QCPPainter* painter = QCPPaintBufferPixmap::startPainting();
        if (m_uncleared.isEmpty() || !painter || !painter->isActive())
            return painter;
        // The layer about to draw: QCustomPlot::replot() draws its layers in order, each through its buffer.
        const QCPLayer* layer = nullptr;
        while (!layer && m_layerCursor < m_plot->layerCount()) {
            const QCPLayer* next = m_plot->layer(m_layerCursor++);
            if ((next->*CardBufferLayerMembers::paintBuffer()).toStrongRef().data() == this)
                layer = next;
        }
        m_layerTakes = layer && layer->visible() && !layer->children().isEmpty()
            && dynamic_cast<const GridLayerCache*>(layer->children().constFirst());
        if (!layer || !drawsNothingBeforeTaking(layer))
            fillUncleared(painter, QRegion(std::exchange(m_uncleared, QRect())));
        return painter;
    }

    void donePainting() override
    {
        QCPPaintBufferPixmap::donePainting();
        // A last resort: the layer whose first child was to take the rect drew without taking it.
        if (std::exchange(m_layerTakes, false))
            fillPendingNow();
    }

    /** Fills the rect still unwritten, if any, through a painter of its own (before the buffer is shown). */
    void fillPendingNow()
    {
        if (m_uncleared.isEmpty())
            return;
        QPainter painter(&mBuffer);
        fillUncleared(&painter, QRegion(std::exchange(m_uncleared, QRect())));
    }

    QRect takeUncleared() { return std::exchange(m_uncleared, QRect()); }
    void spareNextClear(const QRect& rect) { m_spare = rect; }

    /** Fills @p region with the colour of the last clear through @p painter (the buffer's), whatever its clip. */
    void fillUncleared(QPainter* painter, const QRegion& region) const
    {
        if (region.isEmpty())
            return;
        painter->save();
        painter->setClipping(false);
        painter->resetTransform();
        painter->setRenderHint(QPainter::Antialiasing, false);
        painter->setCompositionMode(QPainter::CompositionMode_Source);
        for (const QRect& rect : region) {
            painter->fillRect(rect, m_ground);
            g_cardUnsparedPixels += qint64(rect.width()) * rect.height();
        }
        painter->restore();
    }

    /** True when the last clear was opaque (a resize reallocates the buffer, not cleared yet). */
    bool opaque() const { return m_ground.isValid() && m_ground.alpha() == 255; }
    const QColor& ground() const { return m_ground; }
    const QPaintDevice* device() const { return &mBuffer; }

private:
    void reallocateBuffer() override
    {
        QCPPaintBufferPixmap::reallocateBuffer();
        m_ground = QColor(); // not cleared yet
        m_spare = QRect();
        m_uncleared = QRect();
    }

    const QCustomPlot* m_plot;
    QColor m_ground; ///< what the last clear() filled the buffer with (invalid before the first)
    QRect m_spare;     ///< what the next clear may leave (CardBuffer::spareNextClear())
    QRect m_uncleared; ///< what the last clear left and no one has written yet
    int m_layerCursor = 0; ///< the plot's layers before it have started painting since the last clear
    bool m_layerTakes = false; ///< the layer painting now starts with a GridLayerCache (it takes the rect)
};

const CardPaintBuffer* cardBufferOf(const QCustomPlot* plot)
{
    const auto& buffers = plot->*CardBufferPlotMembers::buffers();
    return buffers.isEmpty() ? nullptr : dynamic_cast<const CardPaintBuffer*>(buffers.constFirst().data());
}

/** @p plot's CardBuffer when @p painter draws into it, cleared opaque; else nullptr. */
CardPaintBuffer* cardBufferUnder(const QCPPainter* painter, const QCustomPlot* plot)
{
    const CardPaintBuffer* buffer = g_cardBufferOn ? cardBufferOf(plot) : nullptr;
    if (!buffer || !buffer->opaque() || !painter || painter->device() != buffer->device())
        return nullptr;
    return const_cast<CardPaintBuffer*>(buffer);
}

/** Paints the plot by copying its opaque first buffer (CardBuffer's class comment), else leaves the paint to it. */
class CardBufferPainter final : public QObject {
public:
    explicit CardBufferPainter(QCustomPlot* plot) : QObject(plot), m_plot(plot) {}

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched != m_plot || event->type() != QEvent::Paint || !g_cardBufferOn)
            return false;
        const CardPaintBuffer* first = cardBufferOf(m_plot);
        if (first)
            const_cast<CardPaintBuffer*>(first)->fillPendingNow(); // a replot that drew no layer after its clear
        if (!first || !first->opaque() || !opaqueBackground(m_plot).isValid())
            return false; // QCustomPlot::paintEvent(): the background filled, the buffers blended
        // As QCustomPlot::paintEvent() without its background fill: the first buffer covers the whole widget opaquely.
        QCPPainter painter(m_plot);
        if (!painter.isActive())
            return true;
        const auto& buffers = m_plot->*CardBufferPlotMembers::buffers();
        // A region of several rects (a replot that damaged more than one place, views/kit/plotdamage.h) clips the
        // painter to a region, and the raster engine then copies the buffer through its span blend, which hands a
        // copy of 96 rows or more to its thread pool (views/kit/inlineblend.h). Copied rect by rect, each copy is
        // clipped to a rect and goes through the engine's plain image copy (a copy of the same pixels).
        auto copyBuffers = [&] {
            painter.setCompositionMode(QPainter::CompositionMode_Source);
            buffers.constFirst()->draw(&painter);
            painter.setCompositionMode(QPainter::CompositionMode_SourceOver);
            for (qsizetype i = 1; i < buffers.size(); ++i)
                buffers.at(i)->draw(&painter);
        };
        const QRegion region = static_cast<const QPaintEvent*>(event)->region();
        if (g_cardBufferByRect && region.rectCount() > 1) {
            for (const QRect& rect : region) {
                painter.setClipRect(rect);
                copyBuffers();
                ++g_cardBufferRectCopies;
            }
        } else {
            copyBuffers();
        }
        ++g_cardBufferCopies;
        return true;
    }

private:
    QCustomPlot* m_plot;
};

} // namespace

void CardBuffer::install(QCustomPlot* plot)
{
    auto& buffers = plot->*CardBufferPlotMembers::buffers();
    QSharedPointer<QCPAbstractPaintBuffer> buffer(
        new CardPaintBuffer(plot, plot->viewport().size(), plot->bufferDevicePixelRatio()));
    // setupPaintBuffers() keeps the buffers it finds and points the layers at them on every replot.
    if (buffers.isEmpty())
        buffers.append(buffer);
    else
        buffers.first() = buffer;
    plot->installEventFilter(new CardBufferPainter(plot));
}

QColor CardBuffer::groundUnder(const QCPPainter* painter, const QCustomPlot* plot)
{
    const CardPaintBuffer* buffer = cardBufferOf(plot);
    if (g_cardBufferOn && buffer && buffer->opaque() && painter->device() == buffer->device())
        return buffer->ground();
    return QColor(Qt::transparent);
}

void CardBuffer::setEnabled(bool on)
{
    g_cardBufferOn = on;
}

bool CardBuffer::isEnabled()
{
    return g_cardBufferOn;
}

long long CardBuffer::copies()
{
    return g_cardBufferCopies;
}

void CardBuffer::setCopyByRect(bool on)
{
    g_cardBufferByRect = on;
}

long long CardBuffer::rectCopies()
{
    return g_cardBufferRectCopies;
}

void CardBuffer::spareNextClear(const QCPPainter* painter, const QCustomPlot* plot, const QRect& rect)
{
    CardPaintBuffer* buffer = cardBufferUnder(painter, plot);
    if (buffer && painter->device()->devicePixelRatioF() == 1.0)
        buffer->spareNextClear(rect);
}

QRect CardBuffer::takeUncleared(const QCPPainter* painter, const QCustomPlot* plot)
{
    CardPaintBuffer* buffer = cardBufferUnder(painter, plot);
    return buffer ? buffer->takeUncleared() : QRect();
}

void CardBuffer::fillUncleared(QCPPainter* painter, const QCustomPlot* plot, const QRegion& region)
{
    if (const CardPaintBuffer* buffer = cardBufferUnder(painter, plot))
        buffer->fillUncleared(painter, region);
}

void CardBuffer::setClearSpared(bool on)
{
    g_cardClearSpared = on;
}

void CardBuffer::setSparedPoison(const QColor& colour)
{
    g_cardSparedPoison = colour;
}

long long CardBuffer::sparedPixels()
{
    return g_cardSparedPixels;
}

long long CardBuffer::unsparedPixels()
{
    return g_cardUnsparedPixels;
}

} // namespace ridgeline::views
