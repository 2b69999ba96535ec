// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/cardbuffer.h"

#include <QEvent>
#include <QObject>
#include <QPaintEvent>
#include <QRegion>

#include <qcustomplot.h>

namespace ridgeline::views {

namespace {

bool g_cardBufferOn = true;
long long g_cardBufferCopies = 0;
bool g_cardBufferByRect = true;
long long g_cardBufferRectCopies = 0;

// QCustomPlot keeps these protected, with no reader (as PlotDamage reads them, views/kit/plotdamage.cpp).
struct CardBufferPlotMembers : QCustomPlot {
    static auto buffers() { return &CardBufferPlotMembers::mPaintBuffers; }
    static auto backgroundBrush() { return &CardBufferPlotMembers::mBackgroundBrush; }
};

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
        mBuffer.fill(m_ground);
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
    }

    const QCustomPlot* m_plot;
    QColor m_ground; ///< what the last clear() filled the buffer with (invalid before the first)
};

const CardPaintBuffer* cardBufferOf(const QCustomPlot* plot)
{
    const auto& buffers = plot->*CardBufferPlotMembers::buffers();
    return buffers.isEmpty() ? nullptr : dynamic_cast<const CardPaintBuffer*>(buffers.constFirst().data());
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

} // namespace ridgeline::views
