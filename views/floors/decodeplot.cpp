// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/floors/decodeplot.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "document/readouts.h"
#include "model/cost/formulatext.h"
#include "document/format.h"
#include "views/kit/boundtext.h"
#include "views/kit/curvelayer.h"
#include "views/kit/palette.h"
#include "views/kit/plotdamage.h"
#include "views/kit/plotinteraction.h"
#include "views/kit/plotkit.h"

namespace ridgeline::views {

using namespace plotkit;

DecodePlot::DecodePlot(QWidget* parent)
    : FloorPlot(FloorPlotId::Decode,
                tr("Decode step of B sequences each holding S tokens:\n") + model::formula(model::Quantity::MemoryTime)
                    + tr(", R = W + B\u00b7S\u00b7kv_tok\n") + model::formula(model::Quantity::ComputeTime)
                    + tr(", F_dec = 2\u00b7N_active\u00b7B + 4\u00b7L\u00b7B\u00b7S\u00b7d_attn\n") + model::formula(model::Quantity::StepTime)
                    + tr("\n(t_comm: all-reduce with tensor parallelism over T GPUs, drawn when T > 1; t_oh, t_seq: calibrated overheads)\n")
                    + model::formula(model::Quantity::Throughput) + QLatin1Char('\n')
                    + tr("Weights-only floor = weights read per step per GPU / BW: W / (T\u00b7BW) for a dense model;\n"
                   "for MoE the shared weights plus E(1 \u2212 (1 \u2212 k/E)^B) experts per layer, rising from the\n"
                   "active-weight floor at B = 1 toward the all-experts floor N\u00b7b_w / (T\u00b7BW).\n"
                   "Batch-1 floor = W(B = 1) / (T\u00b7BW) at peak bandwidth."),
                parent)
{
    QCustomPlot* p = plot();
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    QCPAxis* y2 = p->yAxis2;
    setupAxis(x, titleWithShortForms(tr("batch B (sequences)"), {tr("batch B")}), true);
    setupAxis(y, titleWithShortForms(tr("time per decode step (ms)"), {tr("decode step (ms)"), tr("ms")}), true);
    setupAxis(y2, titleWithShortForms(tr("aggregate tokens/s"), {tr("tokens/s")}), true);
    y2->setVisible(true);
    y2->grid()->setVisible(false);
    y2->setTickLabelColor(palette::throughput());
    y2->setLabelColor(palette::throughput());
    x->setRange(1, model::Sweeps::kBatchMax);

    m_throughput = addCurve(p, x, y2, pen(palette::throughput(), 1.6, Qt::DashDotLine), tr("tok/s (right axis)"));
    m_totalFloorLine = addStraightLine(p, x, y, pen(palette::memory(), 1, Qt::DotLine));
    m_weightFloor = addCurve(p, x, y, pen(palette::memory(), 2.0, Qt::DotLine), tr("weights-only floor"));
    m_memory = addCurve(p, x, y, pen(palette::memory(), 1.6, Qt::DashLine), tr("t_mem"));
    m_compute = addCurve(p, x, y, pen(palette::compute(), 1.6, Qt::DashLine), tr("t_comp"));
    // t_comm(B): in the legend only with tensor parallelism (T > 1); at T = 1 it is 0 and not drawn.
    m_comm = addCurve(p, x, y, pen(palette::reference(), 1.6, Qt::DashDotDotLine), tr("t_comm"));
    m_comm->setVisible(false);
    m_comm->removeFromLegend();
    m_step = addCurve(p, x, y, pen(palette::ruling(), 2.4), tr("t_step"));
    // The curves (and the all-experts line among them) from an image: a batch step leaves them all as they were.
    CurveLayerCache::install(p, {m_throughput, m_totalFloorLine, m_weightFloor, m_memory, m_compute, m_comm, m_step});

    m_currentLine = addStraightLine(p, x, y, pen(palette::reference(), 1, Qt::DotLine));
    m_computeBoundLine = addStraightLine(p, x, y, pen(palette::compute(), 1.2, Qt::DashLine));
    m_computeBoundLabel = addLabel(p, x, y, palette::compute());
    m_currentLabel = addLabel(p, x, y, palette::ruling());
    m_totalFloorLabel = addLabel(p, x, y, palette::memory());
    m_activeFloorLabel = addLabel(p, x, y, palette::memory());

    m_currentThroughput = addMarker(p, x, y2, QCPScatterStyle(QCPScatterStyle::ssCircle, palette::throughput(),
                                                              palette::card(), 7));
    m_current = addMarker(p, x, y, QCPScatterStyle(QCPScatterStyle::ssCircle, palette::ruling(),
                                                   palette::ruling(), 8));
    m_current->setName(QStringLiteral("current"));
    // Past the fixed batch axis (B > 4,096) the scenario's own point is not drawn: a note says so (issue 14).
    watchCurrentPoint(m_current, [](double batch, double) { return tr("B = %1").arg(format::integer(batch)); });

    placeLegendBelow(p, 4);
    // A batch step moves these alone: the plot is repainted in their old and new rects (issue 16, twenty-fifth stop).
    PlotDamage::install(p)->setMoving({m_currentLine, m_current, m_currentThroughput, m_currentLabel});

    interaction()->setFormulaNumbers([this] {
        const model::Scenario* s = readoutScenario();
        if (!s)
            return QString();
        const model::Evaluation e = model::evaluate(*s);
        return model::stepTimeFormula(*s, e).line() + QLatin1Char('\n') + model::stepLineFormula(*s, e).line();
    });
    // Read-out: the model at the whole batch under the cursor, not the drawn sweep.
    interaction()->setReadout([this](double key) {
        const model::Scenario* s = readoutScenario();
        if (!s)
            return interaction()->interpolatedReadout(key);
        const double batch = std::clamp(std::round(key), 1.0, model::Sweeps::kBatchMax);
        const document::DecodeAt at = document::decodeAt(*s, batch, s->workload.contextTokens);
        const double stepMs = at.stepSeconds * 1e3;
        const double memoryMs = at.memorySeconds * 1e3;
        const double computeMs = at.computeSeconds * 1e3;
        const double floorMs = at.weightFloorSeconds * 1e3;
        const double rate = batch / stepMs * 1e3;
        Readout r;
        r.key = batch;
        r.keyText = tr("B = %1").arg(format::integer(batch));
        r.values = {{tr("t_step"), stepMs, format::milliseconds(stepMs), m_step},
                    {QString(), rate, format::tokensPerSecond(rate), m_throughput},
                    {tr("t_mem"), memoryMs, format::milliseconds(memoryMs), m_memory},
                    {tr("t_comp"), computeMs, format::milliseconds(computeMs), m_compute},
                    {tr("weights-only floor"), floorMs, format::milliseconds(floorMs), m_weightFloor}};
        return r;
    });
}

void DecodePlot::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const model::Sweeps& sweeps = evaluation.sweeps;
    const model::DecodeResult& decode = evaluation.decode;
    QCustomPlot* p = plot();
    keepForReadout(scenario); // the read-out at the cursor follows every change
    // Everything drawn below comes from these: a prompt step, for one, leaves them as they were.
    const std::optional<double>& boundAt = evaluation.roofline.computeBoundBatch;
    InputBytes inputs;
    for (const Eigen::ArrayXd* a : {&sweeps.batch, &sweeps.memoryMs, &sweeps.computeMs, &sweeps.stepMs,
                                    &sweeps.tokensPerSecondTotal, &sweeps.weightFloorMs, &sweeps.commMs})
        inputs.addArray(*a);
    inputs.add(decode.stepSeconds, decode.tokensPerSecondTotal, decode.floorSecondsBatch1, decode.totalWeightFloorSeconds,
               decode.commSeconds, decode.bound, model::largestTimeTerm(decode), boundAt.has_value(), boundAt.value_or(0.0), p->xAxis->range().lower,
               p->xAxis->range().upper, scenario.workload.batch, scenario.workload.contextTokens, scenario.hardware.gpus,
               scenario.model.isMoe(), scenario.model.experts, scenario.model.expertsPerToken);
    if (sameInputsAsDrawn(inputs.bytes()))
        return;

    assignCurve(m_memory, sweeps.batch, sweeps.memoryMs);
    assignCurve(m_compute, sweeps.batch, sweeps.computeMs);
    assignCurve(m_step, sweeps.batch, sweeps.stepMs);
    assignCurve(m_throughput, sweeps.batch, sweeps.tokensPerSecondTotal);
    assignCurve(m_weightFloor, sweeps.batch, sweeps.weightFloorMs);
    // t_comm(B) with tensor parallelism: the model's all-reduce term of each step (at T = 1 it is 0: no curve).
    const bool tensorParallel = scenario.hardware.gpus > 1;
    if (tensorParallel) {
        assignCurve(m_comm, sweeps.batch, sweeps.commMs);
    } else {
        m_comm->data()->clear();
    }
    if (m_comm->visible() != tensorParallel) {
        m_comm->setVisible(tensorParallel);
        if (tensorParallel)
            m_comm->addToLegend();
        else
            m_comm->removeFromLegend();
    }

    const double batch = scenario.workload.batch;
    const double stepMs = decode.stepSeconds * 1e3;
    assignPoint(m_current, batch, stepMs);
    assignPoint(m_currentThroughput, batch, decode.tokensPerSecondTotal);
    placeVertical(m_currentLine, batch);

    // Ranges: t_step and t_mem set the scale; t_comp may start decades lower, cut at 1/300 of it.
    Extent time;
    time.include(sweeps.stepMs);
    time.include(sweeps.memoryMs);
    time.include(sweeps.weightFloorMs);
    if (tensorParallel)
        time.include(sweeps.commMs); // not below t_step, but in view when it is the largest term
    const double lowestMs = time.valid() ? time.low / 300.0 : 0.0;
    Extent compute;
    compute.include(sweeps.computeMs);
    if (compute.valid())
        time.include(std::max(compute.low, lowestMs));
    applyRange(p->yAxis, time, 1.4, QCPRange(0.1, 100));
    Extent rate;
    rate.include(sweeps.tokensPerSecondTotal);
    applyRange(p->yAxis2, rate, 1.4, QCPRange(1, 1e5));

    const std::optional<double>& boundBatch = evaluation.roofline.computeBoundBatch;
    const bool showBound = boundBatch && inRange(p->xAxis, *boundBatch);
    placeVertical(m_computeBoundLine, showBound ? *boundBatch : qQNaN());
    m_computeBoundLabel->setVisible(showBound);
    if (showBound) {
        m_computeBoundLabel->setText(tr("B \u2265 %1: compute-bound").arg(format::approximate(*boundBatch)));
        // Reads upwards along the line, hanging from the top, just left of it.
        m_computeBoundLabel->setRotation(-90);
        placeLabelAtKey(m_computeBoundLabel, *boundBatch, 0.02);
        setPlacement(m_computeBoundLabel, Qt::AlignRight | Qt::AlignBottom, QMargins(2, 0, 4, 2));
    }
    // MoE: the weights-only floor climbs from the active weights toward every expert read.
    const bool moe = scenario.model.isMoe();
    const int gpus = std::max(1, scenario.hardware.gpus);
    const double floorMs = decode.floorSecondsBatch1 * 1e3;
    const double totalFloorMs = decode.totalWeightFloorSeconds * 1e3;
    m_totalFloorLine->setVisible(moe);
    m_totalFloorLabel->setVisible(moe);
    m_activeFloorLabel->setVisible(moe);
    if (moe) {
        placeHorizontal(m_totalFloorLine, totalFloorMs);
        m_totalFloorLabel->setText(tr("all %1 experts: %2").arg(format::integer(scenario.model.experts),
                                                                format::milliseconds(totalFloorMs)));
        // Above the line at the left: t_step is still below the all-experts floor at small B.
        placeLabelAt(m_totalFloorLabel, 1.0, totalFloorMs);
        setPlacement(m_totalFloorLabel, Qt::AlignLeft | Qt::AlignBottom, QMargins(6, 0, 2, 2));
        m_activeFloorLabel->setText(tr("active, k = %1: %2").arg(format::integer(scenario.model.expertsPerToken),
                                                                 format::milliseconds(floorMs)));
        placeLabelAt(m_activeFloorLabel, 1.0, floorMs);
        setPlacement(m_activeFloorLabel, Qt::AlignLeft | Qt::AlignTop, QMargins(6, 4, 2, 0));
    }

    m_currentLabel->setText(tr("B = %1").arg(format::integer(batch)));
    placeLabelAtKey(m_currentLabel, batch, 0.98);
    setPlacement(m_currentLabel, Qt::AlignLeft | Qt::AlignBottom, QMargins(4, 0, 2, 2));

    // Takeaway.
    QString bound;
    if (!boundBatch)
        bound = tr("never compute-bound at S = %1")
                    .arg(format::integer(scenario.workload.contextTokens));
    else if (*boundBatch <= 1.0)
        bound = tr("compute-bound at every batch");
    else if (model::largestTimeTerm(decode) == model::TimeTerm::Communication) // beside "communication-bound": say what it compares
        bound = tr("compute exceeds memory from B \u2248 %1").arg(format::approximate(*boundBatch));
    else
        bound = tr("memory-bound until B \u2248 %1").arg(format::approximate(*boundBatch));
    QString boundNow = boundByText(model::largestTimeTerm(decode)); // t_comm too: at TP16 across nodes it may be the largest
    if (gpus > 1)
        boundNow += tr(", incl. %1 all-reduce").arg(format::milliseconds(decode.commSeconds * 1e3));
    QString floor;
    const QString floorRate = format::tokensPerSecond(1.0 / decode.floorSecondsBatch1);
    if (moe && gpus > 1)
        floor = tr("Floor %1/token at B = 1 (active weights, T = %2, %3), %4 with all %5 experts")
                    .arg(format::milliseconds(floorMs), format::integer(gpus), floorRate,
                         format::milliseconds(totalFloorMs), format::integer(scenario.model.experts));
    else if (moe)
        floor = tr("Floor %1/token at B = 1 (active weights, %2), %3 with all %4 experts")
                    .arg(format::milliseconds(floorMs), floorRate, format::milliseconds(totalFloorMs),
                         format::integer(scenario.model.experts));
    else if (gpus > 1)
        floor = tr("Floor W/(T\u00b7BW) = %1/token at B = 1 (%2; weights split over T = %3 GPUs)")
                    .arg(format::milliseconds(floorMs), floorRate, format::integer(gpus));
    else if (floorMs < totalFloorMs * (1 - 1e-12)) // embedding_read = rows: the unread input-table rows are not read
        floor = tr("Floor W_read/BW = %1/token at B = 1 (%2; the input table's unread rows left out)")
                    .arg(format::milliseconds(floorMs), floorRate);
    else
        floor = tr("Floor W/BW = %1/token at B = 1 (%2)").arg(format::milliseconds(floorMs), floorRate);
    setTakeaway(tr("%1; %2. At B = %3: t_step %4 (%5), %6 total.")
                    .arg(floor, bound, format::integer(batch), format::milliseconds(stepMs), boundNow,
                         format::tokensPerSecond(decode.tokensPerSecondTotal)));
    countRedraw();
    p->replot(QCustomPlot::rpQueuedReplot);
}

QList<SweepColumn> DecodePlot::columns()
{
    return {{"batch", &model::Sweeps::batch},
            {"t_step_ms", &model::Sweeps::stepMs},
            {"t_mem_ms", &model::Sweeps::memoryMs},
            {"t_comp_ms", &model::Sweeps::computeMs},
            {"tokens_per_s_total", &model::Sweeps::tokensPerSecondTotal},
            {"weight_floor_ms", &model::Sweeps::weightFloorMs},
            {"t_comm_ms", &model::Sweeps::commMs}}; // last: added after the others (0 at T = 1)
}

Explanation DecodePlot::explain(const model::Scenario& s, const model::Evaluation& e)
{
    using namespace format;
    const model::DecodeResult& d = e.decode;
    const model::RooflineResult& r = e.roofline;
    const double bw = s.hardware.bandwidthBytesPerSecond;
    const double eta = s.efficiency.bandwidth;
    const QString B = integer(s.workload.batch);
    const QString S = integer(s.workload.contextTokens);
    Explanation x;
    x.title = floorPlotTitle(FloorPlotId::Decode);
    x.summary = tr("Each decode step reads every weight once, shared by the whole batch, plus each sequence's KV "
                   "cache. Small batches wait on memory; the step only gets slower per token once the cache or the "
                   "FLOPs dominate.");
    x.steps << weightsStep(s, e) << kvPerTokenStep(s, e)
            << tr("R = W + B\u00b7S\u00b7kv_tok = %1 + %2\u00b7%3\u00b7kv_tok = %4").arg(gigabytes(d.weightBytes), B, S, gigabytes(d.readBytes))
            << (s.efficiency.kvBandwidth > 0 && s.efficiency.kvBandwidth != s.efficiency.bandwidth
                    ? model::formula(model::Quantity::MemoryTimeSplit) + tr(" = %1 / (%2\u00b7%3) + %4 / (%2\u00b7%5) = %6")
                          .arg(gigabytes(d.weightBytes), terabytesPerSecond(bw), plain(eta), gigabytes(d.kvBytes),
                               plain(s.efficiency.kvBandwidth), milliseconds(d.memorySeconds * 1e3))
                    : model::formula(model::Quantity::MemoryTime) + tr(" = %1 / (%2\u00b7%3) = %4")
                          .arg(gigabytes(d.readBytes), terabytesPerSecond(bw), plain(eta), milliseconds(d.memorySeconds * 1e3)))
            << model::formula(model::Quantity::ComputeTime) + tr(" = %1 / (%2\u00b7%3) = %4")
                   .arg(teraflop(d.flop), teraflopsPerSecond(r.peakFlopsPerSecond), plain(s.efficiency.mfuDecode),
                        milliseconds(d.computeSeconds * 1e3))
            << model::stepTimeFormula(s, e).line()
            << (s.hardware.gpus > 1 ? tr("t_comm = %1 at B = %2: the tensor-parallel all-reduces over T = %3 GPUs "
                                         "(the dash-dot-dot curve, t_comm(B))")
                                          .arg(milliseconds(d.commSeconds * 1e3), B, integer(s.hardware.gpus))
                                    : tr("t_comm = 0: one GPU, no all-reduce (no t_comm curve)"))
            << model::formula(model::Quantity::Throughput) + tr(" = %1 / %2 = %3").arg(B, milliseconds(d.stepSeconds * 1e3), tokensPerSecond(d.tokensPerSecondTotal))
            << tr("batch-1 floor = W / BW = %1 per token").arg(milliseconds(d.floorSecondsBatch1 * 1e3));
    return x;
}

void DecodePlot::drawBaseline(const document::Baseline& a, const QString& label, BaselineLayer& layer)
{
    // A's t_step(B) and A's operating point.
    const model::Sweeps& sweeps = a.evaluation().sweeps;
    const double stepMs = a.evaluation().decode.stepSeconds * 1e3;
    assignCurve(layer.addCurve(label), sweeps.batch, sweeps.stepMs);
    assignPoint(layer.addMarker(), a.scenario().workload.batch, stepMs);
    Extent extent;
    extent.include(sweeps.stepMs);
    extent.include(stepMs);
    layer.setExtent(extent.low, extent.high);
}

} // namespace ridgeline::views
