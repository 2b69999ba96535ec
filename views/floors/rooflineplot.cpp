// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/floors/rooflineplot.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "document/readouts.h"
#include "model/cost/dtype.h"
#include "document/format.h"
#include "views/kit/boundtext.h"
#include "views/kit/palette.h"
#include "views/kit/plotinteraction.h"
#include "views/kit/plotkit.h"
#include "views/kit/units.h"

namespace ridgeline::views {

using namespace plotkit;

namespace {


/** Places @p label at a point: to its @p horizontal side (Qt::AlignLeft puts the text on the right),
 *  above or below it; fitLabels() mirrors it when it would leave the plot. */
void placeBeside(QCPItemText* label, double x, double y, Qt::Alignment horizontal, bool above)
{
    placeLabelAt(label, x, y);
    const bool textRight = horizontal & Qt::AlignLeft;
    setPlacement(label, horizontal | (above ? Qt::AlignBottom : Qt::AlignTop),
                 QMargins(textRight ? 8 : 2, above ? 0 : 4, textRight ? 2 : 8, above ? 4 : 0));
}

} // namespace

RooflinePlot::RooflinePlot(QWidget* parent)
    : FloorPlot(FloorPlotId::Roofline,
                tr("Attainable FLOP/s = min(F_peak, I \u00b7 BW) at arithmetic intensity I (FLOP per byte moved).\n"
                   "Ridge point I* = F_peak / BW: below it a kernel is bandwidth-bound, above it compute-bound.\n"
                   "Decode point: I_dec = F_dec / R at (B, S), achieved F_dec / t_step.\n"
                   "Prefill point: F_pre / (W + P\u00b7kv_tok), achieved F_pre / t_pre.\n"
                   "Dashed: the roof derated by \u03b7_bw and MFU_decode."),
                parent)
{
    QCustomPlot* p = plot();
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    setupAxis(x, titleWithShortForms(tr("arithmetic intensity (FLOP/byte)"), {tr("intensity (FLOP/byte)"), tr("FLOP/byte")}), true);
    setupAxis(y, tr("attainable TFLOP/s"), true);
    x->setRange(model::Sweeps::kIntensityMin, model::Sweeps::kIntensityMax);

    m_roof = addCurve(p, x, y, pen(palette::ruling(), 2.4), tr("peak roof"));
    m_derated = addCurve(p, x, y, pen(palette::ruling(), 1.4, Qt::DashLine), tr("derated"));
    // No CurveLayerCache: the value axis follows the decode and prefill points, so nearly every step moves the roofs.
    m_ridgeLine = addStraightLine(p, x, y, pen(palette::reference(), 1, Qt::DotLine));
    m_ridgeLabel = addLabel(p, x, y, palette::ruling());
    m_decodeLabel = addLabel(p, x, y, palette::memory());
    m_prefillLabel = addLabel(p, x, y, palette::compute());

    m_ridge = addMarker(p, x, y, QCPScatterStyle(QCPScatterStyle::ssDiamond, palette::ruling(), palette::card(), 9));
    m_decode = addMarker(p, x, y, QCPScatterStyle(QCPScatterStyle::ssCircle, palette::memory(), palette::memory(), 9));
    m_prefill = addMarker(p, x, y, QCPScatterStyle(QCPScatterStyle::ssSquare, palette::compute(), palette::compute(), 8));
    // Outside the fixed intensity axis (0.1 to 1e5 FLOP/byte) an operating point is not drawn (issue 14).
    watchCurrentPoint(m_decode, [](double intensity, double) { return tr("decode at %1").arg(format::flopPerByte(intensity)); });
    watchCurrentPoint(m_prefill, [](double intensity, double) { return tr("prefill at %1").arg(format::flopPerByte(intensity)); });

    placeLegendBelow(p, 4);

    // Read-out: min(F_peak, I·BW) and its derated roof at the intensity under the cursor.
    interaction()->setReadout([this](double key) {
        const model::Scenario* s = readoutScenario();
        if (!s)
            return interaction()->interpolatedReadout(key);
        const document::RoofAt at = document::roofAt(*s, key);
        const double roof = at.roofFlopsPerSecond / units::kTera;
        const double derated = at.deratedFlopsPerSecond / units::kTera;
        Readout r;
        r.key = key;
        r.keyText = tr("I = %1").arg(format::flopPerByte(key));
        r.values = {{m_roof->name(), roof, format::number(roof, 4) + tr(" TFLOP/s"), m_roof},
                    {m_derated->name(), derated, format::number(derated, 4) + tr(" TFLOP/s"), m_derated}};
        return r;
    });
}

void RooflinePlot::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const model::Sweeps& sweeps = evaluation.sweeps;
    const model::RooflineResult& roof = evaluation.roofline;
    QCustomPlot* p = plot();
    keepForReadout(scenario);

    assignCurve(m_roof, sweeps.intensity, sweeps.attainableFlopsPerSecond, 1.0 / units::kTera);
    assignCurve(m_derated, sweeps.intensity, sweeps.attainableDeratedFlopsPerSecond, 1.0 / units::kTera);
    const model::Efficiency& eff = scenario.efficiency;
    const bool derated = eff.bandwidth < 1.0 || eff.mfuDecode < 1.0;
    m_derated->setVisible(derated);
    if (derated)
        m_derated->addToLegend();
    else
        m_derated->removeFromLegend();

    const double peakTera = roof.peakFlopsPerSecond / units::kTera;
    assignPoint(m_ridge, roof.ridgeFlopPerByte, peakTera);
    placeVertical(m_ridgeLine, roof.ridgeFlopPerByte);
    const double decodeTera = roof.decodeAchievedFlopsPerSecond / units::kTera;
    const double prefillTera = roof.prefillAchievedFlopsPerSecond / units::kTera;
    assignPoint(m_decode, roof.decodeIntensityFlopPerByte, decodeTera);
    assignPoint(m_prefill, roof.prefillIntensityFlopPerByte, prefillTera);

    Extent flops;
    flops.include(sweeps.attainableFlopsPerSecond, 1.0 / units::kTera);
    if (derated)
        flops.include(sweeps.attainableDeratedFlopsPerSecond, 1.0 / units::kTera);
    flops.include(decodeTera);
    flops.include(prefillTera);
    // The roof at I = 0.1 can sit far below anything interesting: start one decade under the
    // lowest operating point at most.
    const double lowest = std::min(decodeTera, prefillTera);
    if (std::isfinite(lowest) && lowest > 0)
        flops.low = std::max(flops.low, lowest / 10.0);
    applyRange(p->yAxis, flops, 1.0, QCPRange(0.1, 1e4));
    p->yAxis->setRange(p->yAxis->range().lower, p->yAxis->range().upper * 4.0); // headroom for labels

    m_ridgeLabel->setText(tr("ridge I* = %1").arg(format::number(roof.ridgeFlopPerByte)));
    placeBeside(m_ridgeLabel, roof.ridgeFlopPerByte, peakTera, Qt::AlignRight, true);
    m_decodeLabel->setText(tr("decode"));
    placeBeside(m_decodeLabel, roof.decodeIntensityFlopPerByte, decodeTera, Qt::AlignLeft, true);
    m_prefillLabel->setText(tr("prefill"));
    placeBeside(m_prefillLabel, roof.prefillIntensityFlopPerByte, prefillTera, Qt::AlignLeft, false);

    // The roof is the peak of the dtype the matmuls run in, per GPU under tensor parallelism.
    const int gpus = std::max(1, scenario.hardware.gpus);
    const auto dtype = model::dtypeName(roof.computeDtype);
    const QString dtypeName = roof.computePeakFallback ? QStringLiteral("bf16")
                                                       : QString::fromUtf8(dtype.data(), qsizetype(dtype.size()));
    const QString rate = roof.computeDtype == model::DType::INT8 && !roof.computePeakFallback ? tr("TOP/s") : tr("TFLOP/s");
    const QString yLabel = titleWithShortForms(gpus > 1 ? tr("%2 per GPU (%1)").arg(dtypeName, rate)
                                                        : tr("attainable %2 (%1)").arg(dtypeName, rate),
                                               {tr("%2 (%1)").arg(dtypeName, rate), rate});
    if (p->yAxis->label() != yLabel)
        p->yAxis->setLabel(yLabel);

    const double peak = roof.peakFlopsPerSecond;
    // What bounds the step and the prefill: the largest of t_comp, t_mem and t_comm (the explanation's arrows place the
    // points against the ridge, t_comp against t_mem, as the roofline does).
    const QString decodeBound = boundByText(model::largestTimeTerm(evaluation.decode));
    const QString prefillBound = boundByText(model::largestTimeTerm(evaluation.prefill));
    setTakeaway(tr("Ridge I* = %1. Decode (B = %8, S = %9) at %2 reaches %3%11 (%4 of peak), %5; "
                   "prefill (P = %10) at %6 FLOP/byte is %7.")
                    .arg(format::flopPerByte(roof.ridgeFlopPerByte),
                         format::flopPerByte(roof.decodeIntensityFlopPerByte),
                         format::teraflopsPerSecond(roof.decodeAchievedFlopsPerSecond),
                         format::percent(peak > 0 ? roof.decodeAchievedFlopsPerSecond / peak : qQNaN()), decodeBound,
                         format::number(roof.prefillIntensityFlopPerByte), prefillBound,
                         format::integer(scenario.workload.batch), format::integer(scenario.workload.contextTokens),
                         format::integer(scenario.workload.promptTokens), gpus > 1 ? tr(" per GPU") : QString()));
    if (roof.computePeakFallback) {
        const auto name = model::dtypeName(roof.computeDtype);
        setTakeaway(takeaway() + tr(" No %1 peak is published for this device: the bf16 peak is used.")
                                     .arg(QString::fromUtf8(name.data(), qsizetype(name.size()))));
    }
    p->replot(QCustomPlot::rpQueuedReplot);
}

QList<SweepColumn> RooflinePlot::columns()
{
    return {{"intensity_flop_per_byte", &model::Sweeps::intensity},
            {"attainable_flop_per_s", &model::Sweeps::attainableFlopsPerSecond},
            {"attainable_derated_flop_per_s", &model::Sweeps::attainableDeratedFlopsPerSecond}};
}

Explanation RooflinePlot::explain(const model::Scenario& s, const model::Evaluation& e)
{
    using namespace format;
    const model::DecodeResult& d = e.decode;
    const model::PrefillResult& p = e.prefill;
    const model::RooflineResult& r = e.roofline;
    const double bw = s.hardware.bandwidthBytesPerSecond;
    Explanation x;
    x.title = floorPlotTitle(FloorPlotId::Roofline);
    x.summary = tr("A kernel can go no faster than the peak FLOP/s, nor than the bytes it moves allow: attainable = "
                   "min(F_peak, I\u00b7BW). Left of the ridge it waits on memory, right of it on arithmetic.");
    x.steps << tr("I* = F_peak / BW = %1 / %2 = %3").arg(teraflopsPerSecond(r.peakFlopsPerSecond), terabytesPerSecond(bw),
                                                          flopPerByte(r.ridgeFlopPerByte))
            << tr("I_dec = F_dec / R = %1 / %2 = %3 \u2192 %4")
                   .arg(teraflop(d.flop), gigabytes(d.readBytes), flopPerByte(r.decodeIntensityFlopPerByte), boundName(d.bound))
            << tr("decode achieves F_dec / t_step = %1 (%2 of peak)")
                   .arg(teraflopsPerSecond(r.decodeAchievedFlopsPerSecond),
                        percent(r.peakFlopsPerSecond > 0 ? r.decodeAchievedFlopsPerSecond / r.peakFlopsPerSecond : 0.0))
            << tr("I_pre = F_pre / (W + P\u00b7kv_tok) = %1 at P = %2 \u2192 %3")
                   .arg(flopPerByte(r.prefillIntensityFlopPerByte), integer(s.workload.promptTokens), boundName(p.bound));
    return x;
}

void RooflinePlot::drawBaseline(const document::Baseline& a, const QString& label, BaselineLayer& layer)
{
    // A's roof and A's decode and prefill points.
    const model::Sweeps& sweeps = a.evaluation().sweeps;
    const model::RooflineResult& roof = a.evaluation().roofline;
    assignCurve(layer.addCurve(label), sweeps.intensity, sweeps.attainableFlopsPerSecond, 1.0 / units::kTera);
    const double decodeTera = roof.decodeAchievedFlopsPerSecond / units::kTera;
    const double prefillTera = roof.prefillAchievedFlopsPerSecond / units::kTera;
    assignPoint(layer.addMarker(), roof.decodeIntensityFlopPerByte, decodeTera);
    assignPoint(layer.addMarker(), roof.prefillIntensityFlopPerByte, prefillTera);
    // As the plot: one decade under the lowest operating point, and headroom for the labels.
    layer.setExtent(std::min(decodeTera, prefillTera), roof.peakFlopsPerSecond / units::kTera, 10.0, 4.0);
}

} // namespace ridgeline::views
