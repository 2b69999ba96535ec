// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/sloplot.h"

#include <algorithm>
#include <cmath>

#include <QStringList>

#include <qcustomplot.h>

#include "views/format.h"
#include "views/palette.h"
#include "views/plotkit.h"

namespace ridgeline::views {

using namespace plotkit;

namespace {

/** Dark-to-light reds so neighbouring SLO lines stay distinguishable. */
QColor sloColor(size_t index, size_t count)
{
    QColor color = palette::slo();
    if (count <= 1)
        return color;
    const double t = double(index) / double(count - 1);
    return QColor::fromHsvF(color.hsvHueF(), color.hsvSaturationF() * (1.0 - 0.45 * t),
                            color.valueF() * (1.0 - 0.25 * t));
}

} // namespace

SloPlot::SloPlot(QWidget* parent)
    : PlotPanel(tr("t_step(B) against ITL SLO lines"), QStringLiteral("slo"),
                tr("Time per decode step t_step(B) = max(t_mem, t_comp) at the current context S.\n"
                   "Memory-bound it is affine: t_step(B) = a + b\u00b7B with a = W / (BW\u00b7\u03b7_bw) and\n"
                   "b = S\u00b7kv_tok / (BW\u00b7\u03b7_bw).\n"
                   "For each ITL SLO s: the largest B with t_step(B) \u2264 s (none when t_step(1) > s).\n"
                   "Right axis: aggregate throughput B / t_step."),
                parent)
{
    QCustomPlot* p = plot();
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    QCPAxis* y2 = p->yAxis2;
    setupAxis(x, tr("batch B (sequences)"), true);
    setupAxis(y, tr("t_step = ITL (ms)"), true);
    setupAxis(y2, tr("aggregate tokens/s"), true);
    y2->setVisible(true);
    y2->grid()->setVisible(false);
    y2->setTickLabelColor(palette::throughput());
    y2->setLabelColor(palette::throughput());
    x->setRange(1, model::Sweeps::kBatchMax);

    m_currentLine = addStraightLine(p, x, y, pen(palette::reference(), 1, Qt::DotLine));
    m_throughput = addCurve(p, x, y2, pen(palette::throughput(), 1.6, Qt::DashDotLine), tr("tok/s (right axis)"));
    m_step = addCurve(p, x, y, pen(palette::ruling(), 2.4), tr("t_step"));
    m_sloBatches = addMarker(p, x, y, QCPScatterStyle(QCPScatterStyle::ssDiamond, palette::slo(), palette::card(), 10));
    m_sloBatches->setName(tr("max B per SLO"));
    m_sloBatches->addToLegend();
    m_current = addMarker(p, x, y, QCPScatterStyle(QCPScatterStyle::ssCircle, palette::ruling(), palette::ruling(), 8));
    m_current->setName(tr("current B"));
    m_current->addToLegend();
    placeLegendBelow(p, 4);
}

void SloPlot::ensureSloItems(size_t count)
{
    QCustomPlot* p = plot();
    while (m_sloLines.size() < count) {
        m_sloLines.push_back(addStraightLine(p, p->xAxis, p->yAxis, pen(palette::slo(), 1.3, Qt::DashLine)));
        m_sloLabels.push_back(addLabel(p, p->xAxis, p->yAxis, palette::slo()));
    }
    for (size_t i = 0; i < m_sloLines.size(); ++i) {
        const bool used = i < count;
        m_sloLines[i]->setVisible(used);
        m_sloLabels[i]->setVisible(used);
        if (used) {
            const QColor color = sloColor(i, count);
            m_sloLines[i]->setPen(pen(color, 1.3, Qt::DashLine));
            m_sloLabels[i]->setColor(color);
        }
    }
}

void SloPlot::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const model::Sweeps& sweeps = evaluation.sweeps;
    const model::DecodeResult& decode = evaluation.decode;
    QCustomPlot* p = plot();

    assignCurve(m_step, sweeps.batch, sweeps.stepMs);
    assignCurve(m_throughput, sweeps.batch, sweeps.tokensPerSecondTotal);
    const double batch = scenario.workload.batch;
    const double stepMs = decode.stepSeconds * 1e3;
    assignPoint(m_current, batch, stepMs);
    placeVertical(m_currentLine, batch);

    const std::vector<model::SloBatch>& slos = decode.maxBatchForItlSlo;
    ensureSloItems(slos.size());

    Extent time;
    time.include(sweeps.stepMs);
    for (const model::SloBatch& slo : slos)
        time.include(slo.sloMs);
    applyRange(p->yAxis, time, 1.5, QCPRange(1, 1000));
    Extent rate;
    rate.include(sweeps.tokensPerSecondTotal);
    applyRange(p->yAxis2, rate, 1.5, QCPRange(1, 1e5));

    // SLO lines, labels and the largest-batch markers (in place when the count is unchanged).
    QVector<QCPGraphData> points;
    QStringList parts;
    for (size_t i = 0; i < slos.size(); ++i) {
        const model::SloBatch& slo = slos[i];
        placeHorizontal(m_sloLines[i], slo.sloMs);
        QCPItemText* label = m_sloLabels[i];
        QString text;
        if (slo.batch) {
            const double b = double(*slo.batch);
            points.append(QCPGraphData(b, slo.sloMs));
            text = tr("%1: B \u2264 %2").arg(format::plain(slo.sloMs) + QStringLiteral(" ms"), format::integer(b));
            parts.append(tr("%1 ms: B \u2264 %2").arg(format::plain(slo.sloMs), format::integer(b)));
            placeLabelAt(label, std::clamp(b, 1.0, model::Sweeps::kBatchMax), slo.sloMs);
            setPlacement(label, Qt::AlignLeft | Qt::AlignBottom, QMargins(8, 0, 2, 3));
        } else {
            text = tr("%1: none").arg(format::plain(slo.sloMs) + QStringLiteral(" ms"));
            parts.append(tr("%1 ms: none").arg(format::plain(slo.sloMs)));
            placeLabelAt(label, 1.0, slo.sloMs);
            setPlacement(label, Qt::AlignLeft | Qt::AlignBottom, QMargins(4, 0, 2, 3));
        }
        label->setText(text);
    }
    QSharedPointer<QCPGraphDataContainer> markers = m_sloBatches->data();
    if (markers->size() == points.size()) {
        std::sort(points.begin(), points.end(), qcpLessThanSortKey<QCPGraphData>);
        auto it = markers->begin();
        for (const QCPGraphData& point : points)
            *it++ = point;
    } else {
        markers->set(points, false);
    }

    const double aMs = decode.interceptSeconds * 1e3;
    const double bMs = decode.slopeSecondsPerSequence * 1e3;
    QString affine = tr("t_step(B) = %1 + %2\u00b7B ms").arg(format::number(aMs), format::number(bMs));
    const std::optional<double>& boundBatch = evaluation.roofline.computeBoundBatch;
    if (boundBatch && *boundBatch <= 1.0)
        affine = tr("compute-bound at every batch");
    else if (boundBatch && *boundBatch <= model::Sweeps::kBatchMax)
        affine += tr(" while memory-bound (to B \u2248 %1)").arg(format::approximate(*boundBatch));
    setTakeaway(tr("%1. ITL %2. Now B = %3: %4 per token.")
                    .arg(affine, parts.isEmpty() ? tr("no SLO lines set") : parts.join(QStringLiteral("; ")),
                         format::integer(batch), format::milliseconds(stepMs)));
    p->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ridgeline::views
