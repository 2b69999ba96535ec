// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/inlineblend.h"

#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QPaintDevice>
#include <QImage>
#include <QPaintEngine>
#include <QPainter>
#include <QPixmap>
#include <QPointer>
#include <QProxyStyle>
#include <QRegion>
#include <QStyleOption>
#include <QTransform>

namespace ridgeline::views {

namespace {

bool g_inlineBlendOn = true;
long long g_inlineBlendStrips = 0;
long long g_scrollBarStrips = 0;
int g_inlineBlendTallest = 0;

/**
 * Draws @p draw, a painting of @p rect (logical coordinates) that covers each of its pixels with an opaque colour
 * before anything else (Fusion's scroll bar: its groove's gradient first), in strips of at most kScrollBarStripRows
 * device rows, each painted into a strip image of its own and copied to @p painter (InlineBlend::scrollBarStyle());
 * @p draw gets the strip's painter and the strip's part of @p rect. A clip would not do: Fusion replaces the
 * painter's clip inside the groove (setClipRect() before its edge rect), so a strip's clip is lost there. In an image
 * the strip's height bounds every blend, whatever the clip. Returns false, having drawn nothing, where the strip
 * images could not give the same pixels as one draw: not the raster engine, a transform other than a translation by
 * whole pixels, a device pixel ratio other than 1, an opacity or composition mode of the painter's own, a destination
 * other than 32-bit RGB, or a repainted region that does not cover whole rows of @p rect (a gradient's first pixel in
 * a row is then another one).
 */
bool drawOpaqueInStrips(QPainter* painter, const QRect& rect,
                        const std::function<void(QPainter*, const QRect&)>& draw)
{
    if (!g_inlineBlendOn || rect.height() <= InlineBlend::kScrollBarStripRows || rect.width() <= 0)
        return false;
    const QPaintEngine* engine = painter->paintEngine();
    if (!engine || engine->type() != QPaintEngine::Raster || painter->opacity() != 1.0
        || painter->compositionMode() != QPainter::CompositionMode_SourceOver || !painter->device()
        || painter->device()->devicePixelRatio() != 1.0)
        return false;
    const QTransform toDevice = painter->deviceTransform();
    if (toDevice.type() > QTransform::TxTranslate || toDevice.dx() != std::round(toDevice.dx())
        || toDevice.dy() != std::round(toDevice.dy()))
        return false;
    const QPoint offset(int(toDevice.dx()), int(toDevice.dy()));
    const QRect deviceRect = rect.translated(offset);
    // The rows repainted: whole rows of the bar only, and no clip inside them.
    QRect reach = deviceRect;
    const QRegion systemClip = engine->systemClip();
    if (!systemClip.isEmpty())
        reach &= systemClip.boundingRect();
    QRegion painterClip;
    if (painter->hasClipping()) {
        painterClip = toDevice.map(painter->clipRegion());
        reach &= painterClip.boundingRect();
    }
    if (reach.isEmpty() || reach.left() > deviceRect.left() || reach.right() < deviceRect.right())
        return false;
    if ((!systemClip.isEmpty() && !QRegion(reach).subtracted(systemClip).isEmpty())
        || (painter->hasClipping() && !QRegion(reach).subtracted(painterClip).isEmpty()))
        return false;
    // The strip images in the destination's format, so each blend computes what it computes there.
    QImage::Format format = QImage::Format_RGB32;
    if (const QPaintDevice* target = engine->paintDevice()) {
        if (target->devType() == QInternal::Image)
            format = static_cast<const QImage*>(target)->format();
        else if (target->devType() == QInternal::Pixmap)
            format = static_cast<const QPixmap*>(target)->hasAlphaChannel() ? QImage::Format_ARGB32_Premultiplied
                                                                             : QImage::Format_RGB32;
    }
    if (format != QImage::Format_RGB32 && format != QImage::Format_ARGB32_Premultiplied)
        return false;
    QImage strip(deviceRect.width(), std::min(InlineBlend::kScrollBarStripRows, reach.height()), format);
    strip.fill(0);
    for (int top = reach.top(); top <= reach.bottom(); top += strip.height()) {
        const int rows = std::min(strip.height(), reach.bottom() + 1 - top);
        {
            QPainter stripPainter(&strip);
            stripPainter.setRenderHints(painter->renderHints());
            stripPainter.setPen(painter->pen());
            stripPainter.setBrush(painter->brush());
            stripPainter.setBrushOrigin(painter->brushOrigin());
            stripPainter.setBackground(painter->background());
            stripPainter.setBackgroundMode(painter->backgroundMode());
            stripPainter.setLayoutDirection(painter->layoutDirection());
            // Logical -> the destination's pixels -> the strip's: whole pixels, so each pixel's centre is where it was.
            stripPainter.setWorldTransform(QTransform::fromTranslate(offset.x() - deviceRect.left(), offset.y() - top));
            draw(&stripPainter, QRect(rect.left(), top - offset.y(), rect.width(), rows));
        }
        // Opaque pixels, copied (the painter's transform is a translation: top - offset.y() is the strip's row).
        painter->drawImage(QPoint(rect.left(), top - offset.y()), strip, QRect(0, 0, strip.width(), rows));
        ++g_inlineBlendStrips;
        ++g_scrollBarStrips;
        g_inlineBlendTallest = std::max(g_inlineBlendTallest, rows);
    }
    return true;
}

/** The application's style, a group box's frame and a scroll bar drawn in strips (InlineBlend::groupBoxStyle(),
 *  InlineBlend::scrollBarStyle()). */
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

    void drawComplexControl(ComplexControl control, const QStyleOptionComplex* option, QPainter* painter,
                            const QWidget* widget) const override
    {
        // Fusion's scroll bar fills its whole rect with the groove's opaque gradient first (when not transient and
        // with a groove): its pixels then do not depend on what was under it, and strip images give them.
        const bool opaqueFusionBar = control == CC_ScrollBar && option && baseStyle()
            && baseStyle()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) == 0
            && (option->subControls & SC_ScrollBarGroove) && option->palette.button().color().alpha() == 255
            && !proxy()->styleHint(SH_ScrollBar_Transient, option, widget);
        const auto* bar = qstyleoption_cast<const QStyleOptionSlider*>(option);
        if (!opaqueFusionBar || !bar) {
            QProxyStyle::drawComplexControl(control, option, painter, widget);
            return;
        }
        // A strip draws the groove (its opaque base) and only the parts near its rows: the buttons (their arrows'
        // pixmaps looked up and blended) and the slider are drawn by the strips they reach. Fusion draws each part
        // within its rect but for the slider's outline, a row beyond: two rows of margin.
        const SubControl parts[] = {SC_ScrollBarSubLine, SC_ScrollBarAddLine, SC_ScrollBarSlider};
        QRect partRects[3];
        for (int i = 0; i < 3; ++i)
            partRects[i] = proxy()->subControlRect(CC_ScrollBar, bar, parts[i], widget);
        if (!drawOpaqueInStrips(painter, bar->rect, [&](QPainter* target, const QRect& strip) {
                QStyleOptionSlider part = *bar;
                for (int i = 0; i < 3; ++i)
                    if (!partRects[i].intersects(strip.adjusted(-2, -2, 2, 2)))
                        part.subControls &= ~parts[i];
                QProxyStyle::drawComplexControl(control, &part, target, widget);
            }))
            QProxyStyle::drawComplexControl(control, option, painter, widget);
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

QStyle* InlineBlend::scrollBarStyle()
{
    return groupBoxStyle();
}

void InlineBlend::setEnabled(bool on)
{
    g_inlineBlendOn = on;
}

long long InlineBlend::strips()
{
    return g_inlineBlendStrips;
}

long long InlineBlend::scrollBarStrips()
{
    return g_scrollBarStrips;
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
