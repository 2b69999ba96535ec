// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/floors/sloplot.h"

#include <algorithm>
#include <cmath>

#include <QStringList>

#include <qcustomplot.h>

#include "model/cost/formulatext.h"
#include "document/format.h"
#include "views/kit/curvelayer.h"
#include "views/kit/palette.h"
#include "views/kit/plotdamage.h"
#include "views/kit/plotinteraction.h"
#include "views/kit/plotkit.h"

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
    // Later lines paler: less saturated, and on a light card darker too. On a dark card darker would
    // fall under 4.5:1 for the labels written in these colours (tst_tabplots), so only desaturate.
    const double darken = currentTheme().isDark() ? 0.0 : 0.25;
    return QColor::fromHsvF(color.hsvHueF(), color.hsvSaturationF() * (1.0 - 0.45 * t),
                            color.valueF() * (1.0 - darken * t));
}

} // namespace

SloPlot::SloPlot(QWidget* parent)
    : FloorPlot(FloorPlotId::Slo,
                tr("Time per decode step at the current context S: ") + model::formula(model::Quantity::StepTime)
                    + tr(".\nMemory-bound it is affine: ") + model::formula(model::Quantity::StepLine)
                    + tr(" with a = W / (BW\u00b7\u03b7_bw) and\nb = S\u00b7kv_tok / (BW\u00b7\u03b7_bw).\n"
                   "For each ITL SLO s: the largest B with t_step(B) \u2264 s (none when t_step(1) > s), capped by the\n"
                   "largest B whose KV cache at S fits the memory budget (the dotted line); the label says which binds.\n"
                   "Right axis: aggregate throughput B / t_step."),
                parent)
{
    QCustomPlot* p = plot();
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    QCPAxis* y2 = p->yAxis2;
    setupAxis(x, titleWithShortForms(tr("batch B (sequences)"), {tr("batch B")}), true);
    setupAxis(y, titleWithShortForms(tr("t_step = ITL (ms)"), {tr("ITL (ms)")}), true);
    setupAxis(y2, titleWithShortForms(tr("aggregate tokens/s"), {tr("tokens/s")}), true);
    y2->setVisible(true);
    y2->grid()->setVisible(false);
    y2->setTickLabelColor(palette::throughput());
    y2->setLabelColor(palette::throughput());
    x->setRange(1, model::Sweeps::kBatchMax);

    m_currentLine = addStraightLine(p, x, y, pen(palette::reference(), 1, Qt::DotLine));
    m_memoryLine = addStraightLine(p, x, y, pen(palette::error(), 1.3, Qt::DotLine));
    m_memoryLabel = addLabel(p, x, y, palette::error());
    m_throughput = addCurve(p, x, y2, pen(palette::throughput(), 1.6, Qt::DashDotLine), tr("tok/s (right axis)"));
    m_step = addCurve(p, x, y, pen(palette::ruling(), 2.4), tr("t_step"));
    CurveLayerCache::install(p, {m_throughput, m_step}); // from an image: a batch step leaves them as they were
    m_sloBatches = addMarker(p, x, y, QCPScatterStyle(QCPScatterStyle::ssDiamond, palette::slo(), palette::card(), 10));
    m_sloBatches->setName(tr("max B per SLO"));
    m_sloBatches->addToLegend();
    m_current = addMarker(p, x, y, QCPScatterStyle(QCPScatterStyle::ssCircle, palette::ruling(), palette::ruling(), 8));
    m_current->setName(tr("current B"));
    m_current->addToLegend();
    watchCurrentPoint(m_current, [](double batch, double) { return tr("B = %1").arg(format::integer(batch)); });
    placeLegendBelow(p, 4);
    // A batch step moves these alone: the plot is repainted in their old and new rects (issue 16, twenty-fifth stop).
    PlotDamage::install(p)->setMoving({m_currentLine, m_current});
    // After PlotPanel's plotkit::fitLabels (connected first), before drawing: SLO lines close on a long log axis
    // (B = 1e9: t_step spans ten decades) would write their labels over each other.
    connect(p, &QCustomPlot::afterLayout, this, &SloPlot::separateSloLabels);

    interaction()->setFormulaNumbers([this] {
        const model::Scenario* s = readoutScenario();
        if (!s)
            return QString();
        const model::Evaluation e = model::evaluate(*s);
        return model::stepTimeFormula(*s, e).line() + QLatin1Char('\n') + model::stepLineFormula(*s, e).line();
    });
    // Read-out: the model at the whole batch under the cursor.
    interaction()->setReadout([this](double key) {
        const model::Scenario* s = readoutScenario();
        if (!s)
            return interaction()->interpolatedReadout(key);
        const double batch = std::clamp(std::round(key), 1.0, std::max(1.0, plot()->xAxis->range().upper));
        const double stepMs = model::stepSecondsAt(*s, batch) * 1e3;
        const double rate = batch / stepMs * 1e3;
        Readout r;
        r.key = batch;
        r.keyText = tr("B = %1").arg(format::integer(batch));
        r.values = {{tr("t_step"), stepMs, format::milliseconds(stepMs), m_step},
                    {QString(), rate, format::tokensPerSecond(rate), m_throughput}};
        return r;
    });
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
    const model::CapacityResult& capacity = evaluation.capacity;
    QCustomPlot* p = plot();
    keepForReadout(scenario);

    const double batch = scenario.workload.batch;
    const double stepMs = decode.stepSeconds * 1e3;
    const std::vector<model::SloBatch>& slos = decode.maxBatchForItlSlo;
    ensureSloItems(slos.size());
    m_sloMs.clear();
    for (const model::SloBatch& slo : slos)
        m_sloMs.push_back(slo.sloMs);

    // The x-axis reaches every batch this plot marks: the answers, the memory limit when it binds, the current B.
    const long long fitting = capacity.weightsFit ? capacity.maxSequencesContiguous : 0;
    bool memoryBinds = false;
    double reach = std::max(model::Sweeps::kBatchMax, batch * 1.5);
    for (const model::SloBatch& slo : slos) {
        if (slo.servableBatch)
            reach = std::max(reach, double(*slo.servableBatch) * 1.5);
        memoryBinds = memoryBinds || (slo.limit == model::BatchLimit::Memory && fitting > 0);
    }
    if (memoryBinds)
        reach = std::max(reach, double(fitting) * 1.5);
    reach = niceCeiling(reach);
    Eigen::ArrayXd keys = sweeps.batch, steps = sweeps.stepMs;
    if (reach > model::Sweeps::kBatchMax) {
        // Past the fixed grid: the same t_step(B) from the model, log-spaced to the axis end.
        constexpr int kExtra = 60;
        const Eigen::ArrayXd extra = Eigen::pow(10.0, Eigen::ArrayXd::LinSpaced(kExtra + 1, std::log10(model::Sweeps::kBatchMax),
                                                                                std::log10(reach)))
                                         .tail(kExtra);
        keys.conservativeResize(sweeps.batch.size() + kExtra);
        steps.conservativeResize(sweeps.batch.size() + kExtra);
        for (int i = 0; i < kExtra; ++i) {
            keys(sweeps.batch.size() + i) = extra(i);
            steps(sweeps.batch.size() + i) = model::stepSecondsAt(scenario, extra(i)) * 1e3;
        }
    }
    const Eigen::ArrayXd throughput = keys / steps * 1000.0;
    assignCurve(m_step, keys, steps);
    assignCurve(m_throughput, keys, throughput);
    p->xAxis->setRange(1, reach);
    assignPoint(m_current, batch, stepMs);
    placeVertical(m_currentLine, batch);

    Extent time;
    time.include(steps);
    for (const model::SloBatch& slo : slos)
        time.include(slo.sloMs);
    applyRange(p->yAxis, time, 1.5, QCPRange(1, 1000));
    Extent rate;
    rate.include(throughput);
    applyRange(p->yAxis2, rate, 1.5, QCPRange(1, 1e5));

    m_memoryLine->setVisible(memoryBinds);
    m_memoryLabel->setVisible(memoryBinds);
    if (memoryBinds) {
        placeVertical(m_memoryLine, double(fitting));
        m_memoryLabel->setText(tr("KV fits B \u2264 %1").arg(format::integer(double(fitting))));
        placeLabelAtKey(m_memoryLabel, double(fitting), 0.02);
        setPlacement(m_memoryLabel, Qt::AlignRight | Qt::AlignTop, QMargins(2, 0, 4, 0));
    }

    // SLO lines, labels and the largest-batch markers (in place when the count is unchanged).
    QVector<QCPGraphData> points;
    QStringList parts;
    for (size_t i = 0; i < slos.size(); ++i) {
        const model::SloBatch& slo = slos[i];
        placeHorizontal(m_sloLines[i], slo.sloMs);
        QCPItemText* label = m_sloLabels[i];
        const QString ms = format::plain(slo.sloMs) + QStringLiteral(" ms");
        QString text;
        if (slo.servableBatch) {
            const double b = double(*slo.servableBatch);
            const double y = model::stepSecondsAt(scenario, b) * 1e3;
            points.append(QCPGraphData(b, y));
            const QString limit = slo.limit == model::BatchLimit::Memory ? tr(" (memory)") : QString();
            text = tr("%1: B \u2264 %2%3").arg(ms, format::integer(b), limit);
            parts.append(slo.limit == model::BatchLimit::Memory
                             ? tr("%1: B \u2264 %2, memory binds (the SLO alone allows %3)")
                                   .arg(ms, format::integer(b), format::integer(double(*slo.batch)))
                             : tr("%1: B \u2264 %2").arg(ms, format::integer(b)));
            // At the left edge, above the line: t_step(1) is below the SLO there, so the label's halo
            // covers no part of the curve (right of the marker the curve climbs through the line), and
            // on a small plot the label is not pushed off either edge by the marker's position.
            label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
            label->position->setTypeY(QCPItemPosition::ptPlotCoords);
            label->position->setCoords(0.0, slo.sloMs);
            setPlacement(label, Qt::AlignLeft | Qt::AlignBottom, QMargins(4, 0, 2, 3));
        } else {
            const bool noMemory = slo.limit == model::BatchLimit::Memory;
            text = noMemory ? tr("%1: none (memory)").arg(ms) : tr("%1: none").arg(ms);
            parts.append(noMemory ? (capacity.weightsFit ? tr("%1: none, not one sequence's cache fits").arg(ms)
                                                         : tr("%1: none, the weights do not fit").arg(ms))
                                  : tr("%1: none, t_step(1) is above it").arg(ms));
            // At B = 1, on the side of the line the curve's start is not on.
            const bool curveAbove = model::stepSecondsAt(scenario, 1.0) * 1e3 > slo.sloMs;
            placeLabelAt(label, 1.0, slo.sloMs);
            if (curveAbove)
                setPlacement(label, Qt::AlignLeft | Qt::AlignTop, QMargins(4, 3, 2, 0));
            else
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

    const model::FormulaText line = model::stepLineFormula(scenario, evaluation);
    setTakeaway(tr("%1 = %2 = %3. ITL %4.")
                    .arg(line.symbols, line.numbers, line.valueText,
                         parts.isEmpty() ? tr("no SLO lines set") : parts.join(QStringLiteral("; "))));
    p->replot(QCustomPlot::rpQueuedReplot);
}

void SloPlot::separateSloLabels()
{
    const size_t count = std::min(m_sloMs.size(), m_sloLabels.size());
    std::vector<size_t> order(count);
    for (size_t i = 0; i < count; ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [this](size_t a, size_t b) { return m_sloMs[a] < m_sloMs[b]; });
    auto box = [](const QCPItemText* label) {
        return QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
    };
    std::vector<QRectF> kept;
    auto collides = [&kept](const QRectF& r) {
        return std::any_of(kept.begin(), kept.end(), [&r](const QRectF& k) { return k.intersects(r); });
    };
    // The other SLO lines cross a label as much as a label covers it (issue 14: at B = 1e9 the 40 ms dashed line ran
    // through the "20 ms" label): each line is horizontal across the whole axis rect, so a line at pixel height y
    // crosses a label whose box spans y.
    std::vector<double> lineY(count);
    for (size_t i = 0; i < count; ++i)
        lineY[i] = m_sloLines[i]->point1->pixelPosition().y();
    auto crossed = [&](size_t own, const QRectF& r) {
        for (size_t j = 0; j < count; ++j)
            if (j != own && m_sloLines[j]->visible() && lineY[j] > r.top() && lineY[j] < r.bottom())
                return true;
        return false;
    };
    // The other side of its line (above <-> below), and back: a flip is undone on the next layout, so that a label
    // moved at an extreme returns to its side once the collision is gone (before-stop review).
    auto flip = [](QCPItemText* label) {
        const Qt::Alignment a = label->positionAlignment();
        const QMargins m = label->padding();
        label->setPositionAlignment((a & ~Qt::AlignVertical_Mask) | ((a & Qt::AlignBottom) ? Qt::AlignTop : Qt::AlignBottom));
        label->setPadding(QMargins(m.left(), m.bottom(), m.right(), m.top()));
        label->setProperty("sloLabelFlipped", !label->property("sloLabelFlipped").toBool());
    };
    for (size_t i : order) {
        QCPItemText* label = m_sloLabels[i];
        label->setVisible(true); // hidden on an earlier replot, perhaps
        if (label->property("sloLabelFlipped").toBool())
            flip(label);
        QRectF r = box(label);
        if (collides(r) || crossed(i, r)) {
            flip(label);
            const QRectF other = box(label);
            if (collides(other) || crossed(i, other) || !plot()->axisRect()->rect().contains(other.toRect())) {
                flip(label);
                // The tightest SLO's label stays (on its own side) even when a line crosses it on both: the one label
                // the plot always shows. Any other goes; its figure stays in the takeaway.
                if (!kept.empty()) {
                    label->setVisible(false);
                    continue;
                }
            } else {
                r = other;
            }
        }
        kept.push_back(r);
    }
}

QList<SweepColumn> SloPlot::columns()
{
    return {{"batch", &model::Sweeps::batch},
            {"t_step_ms", &model::Sweeps::stepMs},
            {"tokens_per_s_total", &model::Sweeps::tokensPerSecondTotal},
            {"tokens_per_s_per_user", &model::Sweeps::tokensPerSecondPerUser}};
}

Explanation SloPlot::explain(const model::Scenario& s, const model::Evaluation& e)
{
    using namespace format;
    const model::DecodeResult& d = e.decode;
    Explanation x;
    x.title = floorPlotTitle(FloorPlotId::Slo);
    x.summary = tr("While memory-bound, every extra sequence adds its cache read to the step: t_step grows in a "
                   "straight line from the weight floor. An ITL SLO is met up to the batch where the line crosses it.");
    x.steps << model::stepLineFormula(s, e).line();
    const model::CapacityResult& c = e.capacity;
    x.steps << (c.weightsFit ? tr("memory: the KV cache of B sequences at S fits up to B = %1 (budget %2 / %3 per sequence)")
                                   .arg(integer(double(c.maxSequencesContiguous)), gigabytes(c.kvBudgetBytes),
                                        gigabytes(d.kvBytesPerSequence))
                             : tr("memory: the weights do not fit (KV budget %1), so no batch can be served")
                                   .arg(gigabytes(c.kvBudgetBytes)));
    for (const model::SloBatch& slo : d.maxBatchForItlSlo) {
        const QString ms = plain(slo.sloMs);
        if (slo.servableBatch)
            x.steps << (slo.limit == model::BatchLimit::Memory
                            ? tr("ITL \u2264 %1 ms: B_max = min(SLO %2, memory %3) = %3, memory binds")
                                  .arg(ms, integer(double(*slo.batch)), integer(double(slo.fittingBatch)))
                            : tr("ITL \u2264 %1 ms: B_max = min(SLO %2, memory %3) = %2, the SLO binds")
                                  .arg(ms, integer(double(*slo.batch)), integer(double(slo.fittingBatch))));
        else if (slo.limit == model::BatchLimit::Memory)
            x.steps << tr("ITL \u2264 %1 ms: none, memory holds no sequence").arg(ms);
        else
            x.steps << tr("ITL \u2264 %1 ms: none, t_step(1) = %2 is already above it")
                           .arg(ms, milliseconds(model::stepSecondsAt(s, 1.0) * 1e3));
    }
    x.steps << tr("now B = %1: t_step = %2 per token").arg(integer(s.workload.batch), milliseconds(d.stepSeconds * 1e3));
    return x;
}

void SloPlot::drawBaseline(const document::Baseline& a, const QString& label, BaselineLayer& layer)
{
    // A's t_step(B) against the SLO lines, and A's operating point.
    const model::Sweeps& sweeps = a.evaluation().sweeps;
    assignCurve(layer.addCurve(label), sweeps.batch, sweeps.stepMs);
    assignPoint(layer.addMarker(), a.scenario().workload.batch, a.evaluation().decode.stepSeconds * 1e3);
    Extent extent;
    extent.include(sweeps.stepMs);
    layer.setExtent(extent.low, extent.high, 1.5, 1.5);
}

} // namespace ridgeline::views
