// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/clippedvector.h"

#include <optional>

#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPainterPathStroker>
#include <QPixmap>
#include <QTextItem>

namespace ridgeline::app {

/**
 * Forwards every call to a QPainter on the target device, cutting the geometry to the current clip
 * (kept in device coordinates, as QPdfEngine keeps it) where the target would ignore the clip.
 */
class ClippingEngine final : public QPaintEngine {
public:
    explicit ClippingEngine(QPaintDevice* target)
        : QPaintEngine(QPaintEngine::AllFeatures)
        , m_target(target)
    {
    }

    bool begin(QPaintDevice*) override
    {
        m_clip.reset();
        m_clipEnabled = false;
        m_matrix = QTransform();
        return m_painter.begin(m_target);
    }

    bool end() override { return m_painter.end(); }

    Type type() const override { return QPaintEngine::User; }

    void updateState(const QPaintEngineState& state) override
    {
        const DirtyFlags flags = state.state();
        if (flags & DirtyTransform) {
            m_matrix = state.transform();
            m_painter.setTransform(m_matrix);
        }
        if (flags & DirtyPen) {
            m_pen = state.pen();
            m_painter.setPen(m_pen);
        }
        if (flags & DirtyBrush) {
            m_brush = state.brush();
            m_painter.setBrush(m_brush);
        }
        if (flags & DirtyBrushOrigin)
            m_painter.setBrushOrigin(state.brushOrigin());
        if (flags & DirtyFont)
            m_painter.setFont(state.font());
        if (flags & DirtyBackground)
            m_painter.setBackground(state.backgroundBrush());
        if (flags & DirtyBackgroundMode)
            m_painter.setBackgroundMode(state.backgroundMode());
        if (flags & DirtyHints)
            m_painter.setRenderHints(state.renderHints());
        if (flags & DirtyCompositionMode)
            m_painter.setCompositionMode(state.compositionMode());
        if (flags & DirtyOpacity)
            m_painter.setOpacity(state.opacity());
        // The clip arrives in the coordinates current when it was set: keep it in device coordinates.
        if (flags & DirtyClipPath)
            updateClip(m_matrix.map(state.clipPath()), state.clipOperation());
        else if (flags & DirtyClipRegion) {
            QPainterPath path;
            path.addRegion(state.clipRegion());
            updateClip(m_matrix.map(path), state.clipOperation());
        }
        if (flags & DirtyClipEnabled)
            m_clipEnabled = state.isClipEnabled();
    }

    void drawPath(const QPainterPath& path) override { drawClipped(path, true); }

    void drawPolygon(const QPointF* points, int count, PolygonDrawMode mode) override
    {
        if (count <= 0)
            return;
        QPainterPath path(points[0]);
        for (int i = 1; i < count; ++i)
            path.lineTo(points[i]);
        if (mode != PolylineMode)
            path.closeSubpath();
        path.setFillRule(mode == WindingMode ? Qt::WindingFill : Qt::OddEvenFill);
        drawClipped(path, mode != PolylineMode);
    }

    void drawPixmap(const QRectF& r, const QPixmap& pm, const QRectF& sr) override
    {
        if (touchesClip(r))
            m_painter.drawPixmap(r, pm, sr);
    }

    void drawImage(const QRectF& r, const QImage& image, const QRectF& sr, Qt::ImageConversionFlags flags) override
    {
        if (touchesClip(r))
            m_painter.drawImage(r, image, sr, flags);
    }

    void drawTiledPixmap(const QRectF& r, const QPixmap& pixmap, const QPointF& s) override
    {
        if (touchesClip(r))
            m_painter.drawTiledPixmap(r, pixmap, s);
    }

    void drawTextItem(const QPointF& p, const QTextItem& textItem) override
    {
        // As text, so that the SVG keeps editable, searchable labels.
        const QFontMetricsF metrics(textItem.font());
        const QRectF box(p.x(), p.y() - metrics.ascent(), metrics.horizontalAdvance(textItem.text()), metrics.height());
        if (!touchesClip(box))
            return;
        m_painter.save();
        m_painter.setFont(textItem.font());
        m_painter.drawText(p, textItem.text());
        m_painter.restore();
    }

private:
    void updateClip(const QPainterPath& devicePath, Qt::ClipOperation operation)
    {
        m_clipEnabled = true;
        switch (operation) {
        case Qt::NoClip:
            m_clip.reset();
            m_clipEnabled = false;
            break;
        case Qt::ReplaceClip:
            m_clip = devicePath;
            break;
        case Qt::IntersectClip:
            m_clip = m_clip ? m_clip->intersected(devicePath) : devicePath;
            break;
        }
    }

    bool clipping() const { return m_clipEnabled && m_clip.has_value(); }

    /** Whether @p logical (in the current coordinates) shows at all through the clip. */
    bool touchesClip(const QRectF& logical) const
    {
        return !clipping() || m_clip->intersects(m_matrix.mapRect(logical));
    }

    void drawClipped(const QPainterPath& path, bool fill)
    {
        const bool stroke = m_pen.style() != Qt::NoPen;
        const bool filled = fill && m_brush.style() != Qt::NoBrush;
        if (!clipping()) {
            forward(path, fill);
            return;
        }
        const QPainterPath devicePath = m_matrix.map(path);
        const qreal reach = stroke ? std::max<qreal>(1.0, m_pen.widthF()) * (m_pen.isCosmetic() ? 1.0 : std::max(1.0, std::abs(m_matrix.m11())))
                                   : 0.0;
        const QRectF extent = devicePath.controlPointRect().adjusted(-reach, -reach, reach, reach);
        if (m_clip->contains(extent)) { // wholly inside: as it is
            forward(path, fill);
            return;
        }
        if (!m_clip->intersects(extent))
            return; // wholly outside: nothing shows
        m_painter.save();
        m_painter.setTransform(QTransform()); // device coordinates from here
        m_painter.setPen(Qt::NoPen);
        if (filled) {
            QPainterPath area = devicePath;
            area.closeSubpath();
            m_painter.setBrush(m_brush);
            m_painter.drawPath(area.intersected(*m_clip));
        }
        if (stroke) {
            QPainterPathStroker stroker(m_pen);
            QPainterPath outline;
            if (m_pen.isCosmetic()) {
                outline = stroker.createStroke(devicePath);
            } else {
                outline = m_matrix.map(stroker.createStroke(path));
            }
            outline.setFillRule(Qt::WindingFill);
            m_painter.setBrush(m_pen.brush());
            m_painter.drawPath(outline.intersected(*m_clip));
        }
        m_painter.restore();
    }

    void forward(const QPainterPath& path, bool fill)
    {
        if (fill) {
            m_painter.drawPath(path);
            return;
        }
        m_painter.save();
        m_painter.setBrush(Qt::NoBrush);
        m_painter.drawPath(path);
        m_painter.restore();
    }

    QPaintDevice* m_target;
    QPainter m_painter;
    QTransform m_matrix;
    QPen m_pen;
    QBrush m_brush;
    std::optional<QPainterPath> m_clip; ///< device coordinates
    bool m_clipEnabled = false;
};

ClippedVectorDevice::ClippedVectorDevice(QPaintDevice* target)
    : m_target(target)
    , m_engine(std::make_unique<ClippingEngine>(target))
{
}

ClippedVectorDevice::~ClippedVectorDevice() = default;

QPaintEngine* ClippedVectorDevice::paintEngine() const
{
    return m_engine.get();
}

int ClippedVectorDevice::metric(PaintDeviceMetric metric) const
{
    switch (metric) {
    case PdmWidth: return m_target->width();
    case PdmHeight: return m_target->height();
    case PdmWidthMM: return m_target->widthMM();
    case PdmHeightMM: return m_target->heightMM();
    case PdmNumColors: return m_target->colorCount();
    case PdmDepth: return m_target->depth();
    case PdmDpiX: return m_target->logicalDpiX();
    case PdmDpiY: return m_target->logicalDpiY();
    case PdmPhysicalDpiX: return m_target->physicalDpiX();
    case PdmPhysicalDpiY: return m_target->physicalDpiY();
    case PdmDevicePixelRatio: return int(m_target->devicePixelRatio());
    case PdmDevicePixelRatioScaled: return int(m_target->devicePixelRatioF() * QPaintDevice::devicePixelRatioFScale());
    }
    return 0;
}

} // namespace ridgeline::app
