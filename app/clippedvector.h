// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QPaintDevice>

namespace ridgeline::app {

class ClippingEngine;

/**
 * A paint device that draws onto another vector device (a QSvgGenerator) with the painter's clip
 * applied to the geometry itself.
 *
 * Qt 6.4's SVG generator writes no clip paths: every clip rectangle QCustomPlot and Qt Charts set
 * (a curve inside its axis rect, a fill up to an off-scale ceiling) is dropped, and the curves run
 * through the axes into titles and legends in every SVG viewer. Painting through this device
 * instead keeps what lies inside the clip: a path entirely inside it is passed on unchanged (text
 * as text, lines as lines); one that crosses it is cut, its fill intersected with the clip and its
 * stroke turned into the stroke's outline intersected with the clip (QPainterPathStroker), so the
 * result looks as on screen, in PNG and in PDF. Text and images are passed on when they touch the
 * clip and dropped when wholly outside it.
 *
 * Metrics (size, resolution) are those of @p target. One QPainter at a time; @p target must outlive
 * this device.
 */
class ClippedVectorDevice final : public QPaintDevice {
public:
    explicit ClippedVectorDevice(QPaintDevice* target);
    ~ClippedVectorDevice() override;

    QPaintEngine* paintEngine() const override;

protected:
    int metric(PaintDeviceMetric metric) const override;

private:
    QPaintDevice* m_target;
    std::unique_ptr<ClippingEngine> m_engine;
};

} // namespace ridgeline::app
