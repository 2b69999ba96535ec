// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/fitregion.h"

#include <cmath>
#include <limits>

#include <qcustomplot.h>

#include "views/kit/palette.h"
#include "views/kit/plotkit.h"

namespace ridgeline::views {

NoFitRegion::NoFitRegion(QCustomPlot* plot, QCPAxis* keyAxis, QCPAxis* valueAxis, const QString& label, double labelRatio)
    : m_labelRatio(labelRatio)
{
    QColor fill = palette::slo();
    fill.setAlpha(28);
    m_band = new QCPItemRect(plot);
    m_band->setClipAxisRect(keyAxis->axisRect());
    m_band->setClipToAxisRect(true);
    m_band->topLeft->setAxes(keyAxis, valueAxis);
    m_band->topLeft->setAxisRect(keyAxis->axisRect());
    m_band->bottomRight->setAxes(keyAxis, valueAxis);
    m_band->bottomRight->setAxisRect(keyAxis->axisRect());
    m_band->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_band->bottomRight->setType(QCPItemPosition::ptAxisRectRatio);
    m_band->bottomRight->setCoords(1.0, 1.0);
    m_band->setPen(Qt::NoPen);
    m_band->setBrush(QBrush(fill));
    m_band->setSelectable(false);
    m_band->setLayer(QStringLiteral("grid")); // under the curves

    m_line = plotkit::addStraightLine(plot, keyAxis, valueAxis, plotkit::pen(palette::slo(), 1.3, Qt::DashLine));
    m_label = plotkit::addLabel(plot, keyAxis, valueAxis, palette::slo());
    m_label->setText(label);
    plotkit::setPlacement(m_label, Qt::AlignLeft | Qt::AlignTop, QMargins(4, 2, 2, 0));
    place(std::nullopt);
}

void NoFitRegion::place(std::optional<double> x)
{
    if (!x || std::isnan(*x) || *x == std::numeric_limits<double>::infinity()) {
        m_boundary.reset();
        m_band->setVisible(false);
        m_line->setVisible(false);
        m_label->setVisible(false);
        return;
    }
    m_boundary = *x;
    m_band->setVisible(true);
    m_label->setVisible(true);
    if (*x <= 0) {
        // Nothing fits: the whole rect.
        m_band->topLeft->setTypeX(QCPItemPosition::ptAxisRectRatio);
        m_band->topLeft->setCoords(0.0, 0.0);
        m_line->setVisible(false);
        m_label->position->setType(QCPItemPosition::ptAxisRectRatio);
        m_label->position->setCoords(0.0, m_labelRatio);
        return;
    }
    m_band->topLeft->setTypeX(QCPItemPosition::ptPlotCoords);
    m_band->topLeft->setCoords(*x, 0.0);
    plotkit::placeVertical(m_line, *x);
    plotkit::placeLabelAtKey(m_label, *x, m_labelRatio);
}

} // namespace ridgeline::views
