// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/whatifs/baseline.h"

#include <algorithm>
#include <cmath>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QValueAxis>

#include <qcustomplot.h>

#include "views/whatifs/capacityplot.h"
#include "views/floors/decodeplot.h"
#include "views/floors/headlinefigures.h"
#include "views/whatifs/kvfitplot.h"
#include "views/floors/kvshareplot.h"
#include "views/kit/palette.h"
#include "views/kit/plotkit.h"
#include "views/floors/prefillplot.h"
#include "views/floors/rooflineplot.h"
#include "views/floors/sloplot.h"
#include "views/whatifs/speculativeplot.h"

namespace ridgeline::views {

using namespace plotkit;

namespace {

constexpr double kTera = 1e12;

QPen baselinePen()
{
    QPen p = pen(palette::baseline(), 2.2 * currentTheme().lineScale, Qt::CustomDashLine);
    p.setDashPattern({4.0, 2.5});
    return p;
}

QBarCategoryAxis* categoryAxis(QChart* chart)
{
    for (QAbstractAxis* axis : chart->axes(Qt::Vertical))
        if (auto* category = qobject_cast<QBarCategoryAxis*>(axis))
            return category;
    return nullptr;
}

QValueAxis* valueAxis(QChart* chart)
{
    for (QAbstractAxis* axis : chart->axes(Qt::Horizontal))
        if (auto* value = qobject_cast<QValueAxis*>(axis))
            return value;
    return nullptr;
}

} // namespace

BaselineOverlay::BaselineOverlay(DecodePlot* decode, RooflinePlot* roofline, KvSharePlot* kvShare, PrefillPlot* prefill,
                                 SloPlot* slo, QObject* parent)
    : QObject(parent)
    , m_decode(decode)
    , m_roofline(roofline)
    , m_kvShare(kvShare)
    , m_prefill(prefill)
    , m_slo(slo)
{
}

void BaselineOverlay::setWhatIfPanels(CapacityPlot* capacity, KvFitPlot* kvFit, SpeculativePlot* speculative)
{
    m_capacity = capacity;
    m_kvFit = kvFit;
    m_speculative = speculative;
}

QString BaselineOverlay::plotNames() const
{
    QStringList whatIfs;
    if (m_capacity)
        whatIfs << tr("concurrent sequences");
    if (m_kvFit)
        whatIfs << tr("where the KV cache fits");
    if (m_speculative)
        whatIfs << tr("speculative decoding");
    if (whatIfs.isEmpty())
        return tr("the five Floors plots");
    return tr("the five Floors plots and the %1 plots").arg(whatIfs.join(QStringLiteral(", ")));
}

QString BaselineOverlay::label() const
{
    return tr("A: %1").arg(scenarioName(m_a.scenario()));
}

BaselineOverlay::Layer& BaselineOverlay::layer(PlotPanel* panel)
{
    m_layers.append(Layer{});
    m_layers.last().panel = panel;
    return m_layers.last();
}

QCPGraph* BaselineOverlay::addGraph(Layer& layer, bool curve, const QString& name)
{
    QCustomPlot* p = layer.panel->plot();
    QCPGraph* graph = curve ? addCurve(p, p->xAxis, p->yAxis, baselinePen(), name)
                            : addMarker(p, p->xAxis, p->yAxis,
                                        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(palette::baseline(), 2.0 * currentTheme().lineScale),
                                                        QBrush(palette::card()), 9 * currentTheme().lineScale));
    graph->setObjectName(QStringLiteral("baselineGraph"));
    if (curve)
        graph->removeFromLegend();
    if (curve && !name.isEmpty()) { // named, but labelled inside the plot: a legend row would cost the plot its height
        QCPItemText* text = addLabel(p, p->xAxis, p->yAxis, palette::baseline());
        text->setText(QStringLiteral("\u2013 \u2013 ") + name);
        QFont font = text->font();
        font.setPointSizeF(font.pointSizeF() * currentTheme().fontScale);
        text->setFont(font);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(0.0, 0.0);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setPadding(QMargins(4, 2, 4, 2));
        text->setLayer(QStringLiteral("legend"));
        layer.items.append(text);
    }
    graph->setLayer(QStringLiteral("grid")); // under B's curves, above the grid
    layer.graphs.append(graph);
    return graph;
}

void BaselineOverlay::pin(const model::Scenario& scenario)
{
    removeLayers();
    m_a.pin(scenario);
    const model::Sweeps& sweeps = m_a.evaluation().sweeps;
    const model::DecodeResult& decode = m_a.evaluation().decode;
    const double batch = m_a.scenario().workload.batch;
    const double stepMs = decode.stepSeconds * 1e3;

    { // Decode floor: A's t_step and operating point.
        Layer& l = layer(m_decode);
        assignCurve(addGraph(l, true, label()), sweeps.batch, sweeps.stepMs);
        assignPoint(addGraph(l, false, QString()), batch, stepMs);
        Extent e;
        e.include(sweeps.stepMs);
        e.include(stepMs);
        l.low = e.low;
        l.high = e.high;
    }
    { // Roofline: A's roof and its decode and prefill points.
        Layer& l = layer(m_roofline);
        const model::RooflineResult& roof = m_a.evaluation().roofline;
        assignCurve(addGraph(l, true, label()), sweeps.intensity, sweeps.attainableFlopsPerSecond, 1.0 / kTera);
        const double decodeTera = roof.decodeAchievedFlopsPerSecond / kTera;
        const double prefillTera = roof.prefillAchievedFlopsPerSecond / kTera;
        assignPoint(addGraph(l, false, QString()), roof.decodeIntensityFlopPerByte, decodeTera);
        assignPoint(addGraph(l, false, QString()), roof.prefillIntensityFlopPerByte, prefillTera);
        l.low = std::min(decodeTera, prefillTera);
        l.high = roof.peakFlopsPerSecond / kTera;
        l.lowPad = 10.0;  // as the panel: one decade under the lowest operating point
        l.highPad = 4.0;  // and headroom for the labels
    }
    { // KV share over context, A's point; A's bytes as a second bar.
        Layer& l = layer(m_kvShare);
        assignCurve(addGraph(l, true, label()), sweeps.context, sweeps.kvShare, 100.0, false);
        assignPoint(addGraph(l, false, QString()), m_a.scenario().workload.contextTokens, decode.kvShare * 100.0);
        m_kvShare->weightsBarSet()->append(decode.weightBytes / 1e9);
        m_kvShare->kvBarSet()->append(decode.kvBytes / 1e9);
        m_barTotalGb = (decode.weightBytes + decode.kvBytes) / 1e9;
        if (QBarCategoryAxis* axis = categoryAxis(m_kvShare->chartView()->chart())) {
            axis->setCategories({tr("B"), tr("A")});
            axis->setVisible(true);
        }
        // Room for two labelled bars (Qt Charts drops category labels taller than their bar).
        QChartView* view = m_kvShare->chartView();
        m_barViewHeight = view->minimumHeight();
        view->setFixedHeight(m_barViewHeight + m_barViewHeight / 3);
    }
    { // Prefill: A's total work and A's P*.
        Layer& l = layer(m_prefill);
        assignCurve(addGraph(l, true, label()), sweeps.prompt, sweeps.prefillFlop, 1.0 / kTera);
        const model::PrefillResult& prefill = m_a.evaluation().prefill;
        if (prefill.crossoverExists && prefill.crossoverTokens > 0) {
            QCustomPlot* p = m_prefill->plot();
            QCPItemStraightLine* line = addStraightLine(p, p->xAxis, p->yAxis, baselinePen());
            line->setLayer(QStringLiteral("grid"));
            placeVertical(line, prefill.crossoverTokens);
            l.items.append(line);
        }
        Extent e;
        e.include(sweeps.prefillFlop, 1.0 / kTera);
        l.low = e.low;
        l.high = e.high;
        l.lowPad = l.highPad = 1.5;
    }
    { // t_step(B) against the SLO lines: A's curve and point.
        Layer& l = layer(m_slo);
        assignCurve(addGraph(l, true, label()), sweeps.batch, sweeps.stepMs);
        assignPoint(addGraph(l, false, QString()), batch, stepMs);
        Extent e;
        e.include(sweeps.stepMs);
        l.low = e.low;
        l.high = e.high;
        l.lowPad = l.highPad = 1.5;
    }
    if (m_capacity) { // Concurrent sequences over S_max: A's paged and contiguous curves and points.
        Layer& l = layer(m_capacity);
        const model::CapacityResult& capacity = m_a.evaluation().capacity;
        const double maxContext = m_a.scenario().serving.maxContextTokens;
        assignCurve(addGraph(l, true, label()), sweeps.maxContext, sweeps.sequencesPaged, 1.0, false);
        assignCurve(addGraph(l, true, QString()), sweeps.maxContext, sweeps.sequencesContiguous, 1.0, false);
        assignPoint(addGraph(l, false, QString()), maxContext, double(capacity.maxSequencesPaged));
        assignPoint(addGraph(l, false, QString()), maxContext, double(capacity.maxSequencesContiguousAtMaxContext));
        Extent e;
        e.log = false;
        e.include(sweeps.sequencesPaged);
        e.include(sweeps.sequencesContiguous);
        e.include(double(capacity.maxSequencesPaged));
        l.high = e.high;
        l.highPad = 1.08; // as the panel
        l.upperOnly = true;
    }
    if (m_kvFit) { // Largest batch that fits over S, and A's (S, B).
        Layer& l = layer(m_kvFit);
        const Eigen::Index n = std::min(sweeps.context.size(), sweeps.maxBatchFitting.size());
        const Eigen::ArrayXd drawn = sweeps.maxBatchFitting.head(n).max(KvFitPlot::kNoBatch);
        assignCurve(addGraph(l, true, label()), sweeps.context.head(n), drawn);
        assignPoint(addGraph(l, false, QString()), m_a.scenario().workload.contextTokens, batch);
        Extent e;
        e.include(sweeps.maxBatchFitting);
        e.include(batch);
        l.high = std::min(e.high, 1e9 / 2.0);
        l.highPad = 2.0; // as the panel
        l.upperOnly = true;
    }
    if (m_speculative) { // Speedup over c_v at A's alpha, k and c_d, and A's point.
        Layer& l = layer(m_speculative);
        assignCurve(addGraph(l, true, label()), sweeps.verifyCost, sweeps.speculativeSpeedup, 1.0, false);
        const double verifyCost = m_a.scenario().speculative.verifyCost;
        const double speedup = m_a.evaluation().speculative.speedup;
        assignPoint(addGraph(l, false, QString()), verifyCost, speedup);
        Extent e;
        e.log = false;
        e.include(sweeps.speculativeSpeedup);
        if (verifyCost <= 1.0)
            e.include(speedup);
        l.high = e.high;
        l.highPad = 1.12; // as the panel
        l.upperOnly = true;
    }
    afterRefresh();
    for (const Layer& l : m_layers)
        l.panel->plot()->replot(QCustomPlot::rpQueuedReplot);
    emit pinnedChanged(true);
}

void BaselineOverlay::removeLayers()
{
    for (const Layer& l : m_layers) {
        QCustomPlot* p = l.panel->plot();
        l.panel->redrawOnNextRefresh(); // the next refresh narrows the axes A widened
        for (QCPGraph* graph : l.graphs)
            p->removeGraph(graph);
        for (QCPAbstractItem* item : l.items)
            p->removeItem(item);
        p->replot(QCustomPlot::rpQueuedReplot);
    }
    m_layers.clear();
    if (m_a.isPinned()) {
        for (QBarSet* set : {m_kvShare->weightsBarSet(), m_kvShare->kvBarSet()})
            if (set->count() > 1)
                set->remove(1, set->count() - 1);
        if (QBarCategoryAxis* axis = categoryAxis(m_kvShare->chartView()->chart())) {
            axis->setCategories({tr("read")});
            axis->setVisible(false);
        }
        if (m_barViewHeight > 0)
            m_kvShare->chartView()->setFixedHeight(m_barViewHeight);
        m_barViewHeight = 0;
    }
}

void BaselineOverlay::clear()
{
    if (!m_a.isPinned())
        return;
    removeLayers();
    m_a.clear();
    emit pinnedChanged(false);
}

QList<QCPGraph*> BaselineOverlay::graphs(const PlotPanel* panel) const
{
    for (const Layer& l : m_layers)
        if (l.panel == panel)
            return l.graphs;
    return {};
}

void BaselineOverlay::afterRefresh()
{
    if (!m_a.isPinned())
        return;
    for (const Layer& l : m_layers) {
        QCPAxis* axis = l.panel->plot()->yAxis;
        const QCPRange range = axis->range();
        if (l.upperOnly) {
            if (l.high > 0 && std::isfinite(l.high) && l.high * l.highPad > range.upper)
                axis->setRange(range.lower, l.high * l.highPad);
            continue;
        }
        if (!(l.low > 0) || !(l.high > 0) || !std::isfinite(l.low) || !std::isfinite(l.high))
            continue;
        const double lower = std::min(range.lower, l.low / l.lowPad);
        const double upper = std::max(range.upper, l.high * l.highPad);
        if (lower != range.lower || upper != range.upper)
            axis->setRange(lower, upper);
    }
    if (QValueAxis* axis = valueAxis(m_kvShare->chartView()->chart()); axis && m_barTotalGb > axis->max())
        axis->setRange(0.0, plotkit::niceCeiling(m_barTotalGb));
}

} // namespace ridgeline::views
