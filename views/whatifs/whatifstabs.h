// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QTabWidget>

class QCustomPlot;
class QMenu;

namespace ridgeline::views {

class CalibrationTab;
class PlanTab;
class CapacityControls;
class CapacityPlot;
class KvFitPlot;
class PrefixCachePanel;
class ScenarioDocument;
class SimulationTab;
class SloHeadroomPanel;
class SpeculativePlot;
class TriagePanel;
class WorkloadPanel;

/**
 * The centre of the window as tabs: "Floors" (the five plots and the numbers, passed in), "Capacity
 * & SLOs" (capacity inputs and figures, SLO headroom, concurrent sequences against max context,
 * the batch x context region where the cache fits), "Workload, prefix cache, speculative",
 * "Incident triage", "Simulation" (views::SimulationTab, issue 9) and "Calibration"
 * (views::CalibrationTab, issue 10) and "Plan" (views::PlanTab, issue 14). The last two manage their own updates: a simulation runs on
 * demand, the calibration plots follow the document themselves.
 *
 * Subscribes to the document itself: on evaluated() the panels of the visible what-if tab redraw
 * from evaluatedScenario() / evaluation() (data in place, queued replots) and the hidden tabs are
 * marked stale, redrawn when shown (no replots of plots nobody sees during a slider drag); on
 * scenarioChanged() every input re-syncs. Object name "whatIfTabs"; pages floorsTab, capacityTab,
 * workloadTab, triageTab, simulationTab, calibrationTab, planTab.
 */
class WhatIfTabs final : public QTabWidget {
    Q_OBJECT

public:
    /** Tab indices. */
    enum Tab { FloorsTab, CapacityTab, WorkloadTab, TriageTab, SimulationTab, CalibrationTab, PlanTab };

    /** Takes ownership of @p floors as the first tab. */
    WhatIfTabs(ScenarioDocument* document, QWidget* floors, QWidget* parent = nullptr);

    CapacityControls* capacityControls() const { return m_capacityControls; }
    SloHeadroomPanel* sloHeadroomPanel() const { return m_sloHeadroom; }
    CapacityPlot* capacityPlot() const { return m_capacityPlot; }
    KvFitPlot* kvFitPlot() const { return m_kvFitPlot; }
    WorkloadPanel* workloadPanel() const { return m_workload; }
    PrefixCachePanel* prefixCachePanel() const { return m_prefixCache; }
    SpeculativePlot* speculativePlot() const { return m_speculative; }
    TriagePanel* triagePanel() const { return m_triage; }
    views::SimulationTab* simulationTab() const { return m_simulation; }
    views::CalibrationTab* calibrationTab() const { return m_calibration; }
    views::PlanTab* planTab() const { return m_plan; }

    /** The QCustomPlots of the what-if tabs (not the floors tab's). */
    QList<QCustomPlot*> plots() const;

    /** Adds "Floors", "Capacity & SLOs", ... actions (Alt+1..Alt+7) that switch tabs to @p menu. */
    void addViewActions(QMenu* menu);

public slots:
    /** Redraws the visible what-if tab from the document's evaluated pair; marks the others stale. */
    void refresh();
    /** Redraws every what-if tab now, visible or not. */
    void refreshAll();
    /** For screenshots: refreshAll(), then replot every what-if plot immediately and repaint the charts. */
    void flush();

signals:
    /** The panels of @p tab were redrawn from the document (their axes reset: overlays re-widen). */
    void tabRefreshed(int tab);

protected:
    void showEvent(QShowEvent* event) override;

private:
    QWidget* page(const QString& objectName);
    void refreshTab(int tab);

    ScenarioDocument* m_document = nullptr;
    CapacityControls* m_capacityControls = nullptr;
    SloHeadroomPanel* m_sloHeadroom = nullptr;
    CapacityPlot* m_capacityPlot = nullptr;
    KvFitPlot* m_kvFitPlot = nullptr;
    WorkloadPanel* m_workload = nullptr;
    PrefixCachePanel* m_prefixCache = nullptr;
    SpeculativePlot* m_speculative = nullptr;
    TriagePanel* m_triage = nullptr;
    views::SimulationTab* m_simulation = nullptr;
    views::CalibrationTab* m_calibration = nullptr;
    views::PlanTab* m_plan = nullptr;
    bool m_stale[TriageTab + 1] = {}; ///< per tab: an evaluation arrived while it was hidden
};

} // namespace ridgeline::views
