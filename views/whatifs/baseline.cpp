// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/whatifs/baseline.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "views/floors/floorplot.h"
#include "views/floors/headlinefigures.h"
#include "views/kit/plotkit.h"
#include "views/whatifs/capacityplot.h"
#include "views/whatifs/kvfitplot.h"
#include "views/whatifs/speculativeplot.h"

namespace ridgeline::views {

using namespace plotkit;

BaselineOverlay::BaselineOverlay(const QList<FloorPlot*>& floors, QObject* parent)
    : QObject(parent)
    , m_floors(floors)
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

BaselineLayer& BaselineOverlay::layer(PlotPanel* panel)
{
    m_layers.push_back(Layer{panel, BaselineLayer(panel->plot())});
    return m_layers.back().layer;
}

void BaselineOverlay::pin(const model::Scenario& scenario)
{
    removeLayers();
    m_a.pin(scenario);
    for (FloorPlot* plot : m_floors) // each floor plot draws A itself
        plot->setBaseline(m_a, label());
    const model::Sweeps& sweeps = m_a.evaluation().sweeps;
    const double batch = m_a.scenario().workload.batch;
    if (m_capacity) { // Concurrent sequences over S_max: A's paged and contiguous curves and points.
        BaselineLayer& l = layer(m_capacity);
        const model::CapacityResult& capacity = m_a.evaluation().capacity;
        const double maxContext = m_a.scenario().serving.maxContextTokens;
        assignCurve(l.addCurve(label()), sweeps.maxContext, sweeps.sequencesPaged, 1.0, false);
        assignCurve(l.addCurve(), sweeps.maxContext, sweeps.sequencesContiguous, 1.0, false);
        assignPoint(l.addMarker(), maxContext, double(capacity.maxSequencesPaged));
        assignPoint(l.addMarker(), maxContext, double(capacity.maxSequencesContiguousAtMaxContext));
        Extent e;
        e.log = false;
        e.include(sweeps.sequencesPaged);
        e.include(sweeps.sequencesContiguous);
        e.include(double(capacity.maxSequencesPaged));
        l.setUpperExtent(e.high, 1.08); // as the panel
    }
    if (m_kvFit) { // Largest batch that fits over S, and A's (S, B).
        BaselineLayer& l = layer(m_kvFit);
        const Eigen::Index n = std::min(sweeps.context.size(), sweeps.maxBatchFitting.size());
        const Eigen::ArrayXd drawn = sweeps.maxBatchFitting.head(n).max(KvFitPlot::kNoBatch);
        assignCurve(l.addCurve(label()), sweeps.context.head(n), drawn);
        assignPoint(l.addMarker(), m_a.scenario().workload.contextTokens, batch);
        Extent e;
        e.include(sweeps.maxBatchFitting);
        e.include(batch);
        l.setUpperExtent(std::min(e.high, 1e9 / 2.0), 2.0); // as the panel
    }
    if (m_speculative) { // Speedup over c_v at A's alpha, k and c_d, and A's point.
        BaselineLayer& l = layer(m_speculative);
        assignCurve(l.addCurve(label()), sweeps.verifyCost, sweeps.speculativeSpeedup, 1.0, false);
        const double verifyCost = m_a.scenario().speculative.verifyCost;
        const double speedup = m_a.evaluation().speculative.speedup;
        assignPoint(l.addMarker(), verifyCost, speedup);
        Extent e;
        e.log = false;
        e.include(sweeps.speculativeSpeedup);
        if (verifyCost <= 1.0)
            e.include(speedup);
        l.setUpperExtent(e.high, 1.12); // as the panel
    }
    afterRefresh();
    for (const Layer& l : m_layers)
        l.panel->plot()->replot(QCustomPlot::rpQueuedReplot);
    emit pinnedChanged(true);
}

void BaselineOverlay::removeLayers()
{
    for (FloorPlot* plot : m_floors)
        plot->clearBaseline();
    for (Layer& l : m_layers) {
        l.panel->redrawOnNextRefresh(); // the next refresh narrows the axes A widened
        l.layer.remove();
        l.panel->plot()->replot(QCustomPlot::rpQueuedReplot);
    }
    m_layers.clear();
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
    for (const FloorPlot* plot : m_floors)
        if (plot == panel)
            return plot->baselineGraphs();
    for (const Layer& l : m_layers)
        if (l.panel == panel)
            return l.layer.graphs();
    return {};
}

void BaselineOverlay::afterRefresh()
{
    if (!m_a.isPinned())
        return;
    for (FloorPlot* plot : m_floors)
        plot->keepBaselineInView();
    for (const Layer& l : m_layers)
        l.layer.keepInView();
}

} // namespace ridgeline::views
