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
    const document::PinnedScenario* first = m_pinned.first();
    return first ? label(first->slot) : tr("A: %1").arg(scenarioName(scenario()));
}

QString BaselineOverlay::label(int slot) const
{
    const document::PinnedScenario* p = m_pinned.at(slot);
    if (!p)
        return {};
    const QString name = scenarioName(p->baseline.scenario());
    // Two pins that read the same (files keeping the preset's name) are told apart by the file's name, else by their
    // order among those of that name: "B: Llama 3.1 8B on H100 SXM (fast.json)", "... (pin 2)" (issue 14 trial).
    // Two files of one name (a/s.json and b/s.json, or one file twice) are told apart by the order too (adversarial
    // trial, stop 31).
    int sameName = 0, order = 0, sameSource = 0;
    for (const document::PinnedScenario& other : m_pinned.items())
        if (scenarioName(other.baseline.scenario()) == name) {
            ++sameName;
            if (other.slot <= slot)
                ++order;
            if (other.source == p->source)
                ++sameSource;
        }
    if (sameName < 2)
        return tr("%1: %2").arg(pinnedLetter(slot), name);
    const QString source = QString::fromStdString(p->source);
    if (source.isEmpty())
        return tr("%1: %2 (pin %3)").arg(pinnedLetter(slot), name).arg(order);
    if (sameSource < 2)
        return tr("%1: %2 (%3)").arg(pinnedLetter(slot), name, source);
    return tr("%1: %2 (%3, pin %4)").arg(pinnedLetter(slot), name, source).arg(order);
}

const model::Scenario& BaselineOverlay::scenario() const
{
    static const document::Baseline none;
    const document::PinnedScenario* first = m_pinned.first();
    return first ? first->baseline.scenario() : none.scenario();
}

const model::Evaluation& BaselineOverlay::evaluation() const
{
    static const document::Baseline none;
    const document::PinnedScenario* first = m_pinned.first();
    return first ? first->baseline.evaluation() : none.evaluation();
}

BaselineLayer& BaselineOverlay::layer(PlotPanel* panel, int slot)
{
    QCPItemText* above = nullptr; // the name of the pinned scenario drawn before on this panel
    for (const Layer& l : m_layers)
        if (l.panel == panel && l.layer.label())
            above = l.layer.label();
    m_layers.push_back(Layer{panel, BaselineLayer(panel->plot(), slot, above)});
    return m_layers.back().layer;
}

void BaselineOverlay::pin(const model::Scenario& scenario)
{
    m_pinned.pinAt(0, scenario);
    redraw();
}

int BaselineOverlay::pinNext(const model::Scenario& scenario, const QString& source)
{
    const int slot = m_pinned.pinNext(scenario, source.toStdString());
    if (slot >= 0)
        redraw();
    return slot;
}

bool BaselineOverlay::unpin(int slot)
{
    if (!m_pinned.unpin(slot))
        return false;
    redraw();
    return true;
}

void BaselineOverlay::redraw()
{
    removeLayers();
    if (m_pinned.isEmpty()) {
        emit pinnedChanged(false);
        return;
    }
    QStringList labels;
    for (const document::PinnedScenario& p : m_pinned.items())
        labels << label(p.slot);
    for (FloorPlot* plot : m_floors) // each floor plot draws the pinned scenarios itself
        plot->setBaselines(m_pinned, labels);
    m_layers.reserve(size_t(3 * m_pinned.size()));
    for (const document::PinnedScenario& pinned : m_pinned.items()) {
        const document::Baseline& a = pinned.baseline;
        const QString name = label(pinned.slot);
        const model::Sweeps& sweeps = a.evaluation().sweeps;
        const double batch = a.scenario().workload.batch;
        if (m_capacity) { // Concurrent sequences over S_max: the paged and contiguous curves and points.
            BaselineLayer& l = layer(m_capacity, pinned.slot);
            const model::CapacityResult& capacity = a.evaluation().capacity;
            const double maxContext = a.scenario().serving.maxContextTokens;
            assignCurve(l.addCurve(name), sweeps.maxContext, sweeps.sequencesPaged, 1.0, false);
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
        if (m_kvFit) { // Largest batch that fits over S, and the pinned (S, B).
            BaselineLayer& l = layer(m_kvFit, pinned.slot);
            const Eigen::Index n = std::min(sweeps.context.size(), sweeps.maxBatchFitting.size());
            const Eigen::ArrayXd drawn = sweeps.maxBatchFitting.head(n).max(KvFitPlot::kNoBatch);
            assignCurve(l.addCurve(name), sweeps.context.head(n), drawn);
            assignPoint(l.addMarker(), a.scenario().workload.contextTokens, batch);
            Extent e;
            e.include(sweeps.maxBatchFitting);
            e.include(batch);
            l.setUpperExtent(std::min(e.high, 1e9 / 2.0), 2.0); // as the panel
        }
        if (m_speculative) { // Speedup over c_v at the pinned alpha, k and c_d, and its point.
            BaselineLayer& l = layer(m_speculative, pinned.slot);
            assignCurve(l.addCurve(name), sweeps.verifyCost, sweeps.speculativeSpeedup, 1.0, false);
            const double verifyCost = a.scenario().speculative.verifyCost;
            const double speedup = a.evaluation().speculative.speedup;
            assignPoint(l.addMarker(), verifyCost, speedup);
            Extent e;
            e.log = false;
            e.include(sweeps.speculativeSpeedup);
            if (verifyCost <= 1.0)
                e.include(speedup);
            l.setUpperExtent(e.high, 1.12); // as the panel
        }
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
    for (auto it = m_layers.rbegin(); it != m_layers.rend(); ++it) { // later names hang under earlier ones
        it->panel->redrawOnNextRefresh(); // the next refresh narrows the axes the pinned scenarios widened
        it->layer.remove();
        it->panel->plot()->replot(QCustomPlot::rpQueuedReplot);
    }
    m_layers.clear();
}

void BaselineOverlay::clear()
{
    if (m_pinned.isEmpty())
        return;
    m_pinned.clear();
    redraw();
}

QList<QCPGraph*> BaselineOverlay::graphs(const PlotPanel* panel) const
{
    for (const FloorPlot* plot : m_floors)
        if (plot == panel)
            return plot->baselineGraphs();
    QList<QCPGraph*> out;
    for (const Layer& l : m_layers)
        if (l.panel == panel)
            out += l.layer.graphs();
    return out;
}

QList<QCPGraph*> BaselineOverlay::graphs(const PlotPanel* panel, int slot) const
{
    for (const FloorPlot* plot : m_floors)
        if (plot == panel) {
            for (int i = 0; i < plot->baselineCount(); ++i)
                if (plot->baselineSlot(i) == slot)
                    return plot->baselineGraphs(i);
            return {};
        }
    for (const Layer& l : m_layers)
        if (l.panel == panel && l.layer.slot() == slot)
            return l.layer.graphs();
    return {};
}

void BaselineOverlay::afterRefresh()
{
    if (m_pinned.isEmpty())
        return;
    for (FloorPlot* plot : m_floors)
        plot->keepBaselineInView();
    for (const Layer& l : m_layers)
        l.layer.keepInView();
}

} // namespace ridgeline::views
