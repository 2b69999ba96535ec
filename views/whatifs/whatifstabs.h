// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QTabWidget>

class QCustomPlot;
class QMenu;
class QScrollArea;

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
 *
 * Built on first show (issue 16, start-up): every tab but the floors starts as an empty placeholder
 * page; its real page is built and swapped in when the tab is first made current, or when one of its
 * widgets is first asked for through an accessor below (export, the command line, tests), and then
 * drawn from the document at once. tabBuilt() tells the window.
 */
class WhatIfTabs final : public QTabWidget {
    Q_OBJECT

public:
    /** Tab indices. */
    enum Tab { FloorsTab, CapacityTab, WorkloadTab, TriageTab, SimulationTab, CalibrationTab, PlanTab };

    /** Takes ownership of @p floors as the first tab. */
    WhatIfTabs(ScenarioDocument* document, QWidget* floors, QWidget* parent = nullptr);

    // Each accessor builds its tab first when it was not built yet (see the class comment).
    CapacityControls* capacityControls() const;
    SloHeadroomPanel* sloHeadroomPanel() const;
    CapacityPlot* capacityPlot() const;
    KvFitPlot* kvFitPlot() const;
    WorkloadPanel* workloadPanel() const;
    PrefixCachePanel* prefixCachePanel() const;
    SpeculativePlot* speculativePlot() const;
    TriagePanel* triagePanel() const;
    views::SimulationTab* simulationTab() const;
    views::CalibrationTab* calibrationTab() const;
    views::PlanTab* planTab() const;

    /** True once @p tab's page was built (on first show or first request); the floors tab always. */
    bool isBuilt(int tab) const;
    /** Builds @p tab's page now if it was not built yet (no effect on the floors tab or a bad index). */
    void ensureBuilt(int tab) const;

    /** The QCustomPlots of the what-if tabs (not the floors tab's); builds every tab first. */
    QList<QCustomPlot*> plots() const;

    /** Adds "Floors", "Capacity & SLOs", ... actions (Alt+1..Alt+7) that switch tabs to @p menu. */
    void addViewActions(QMenu* menu);

    /**
     * Keeps the tab bar in the visible part of @p scroll, the scroll area these tabs sit in (issue 14: at 900 x 600 the
     * tabs were wider than the window's view and "Plan" lay past its right edge): the bar moves with the horizontal
     * scroll and is at most the viewport's width, its scroll buttons reaching the tabs that do not fit.
     */
    void keepTabBarInView(QScrollArea* scroll);

    /**
     * The height (px) the tabs need at their current width, for the scroll area they sit in (keepTabBarInView()):
     * with the Floors tab current, the tab bar plus the floors' grid at its cards' MINIMUM heights for their current
     * widths (each card's wrapped title at its width over its plot's minimum height); -1 (no height for width: the
     * scroll area uses the minimum size, as before) for the other tabs or before the first layout. @p width is not
     * used: the scroll area asks at the viewport's width, the cards have the widths the last layout gave them, and a
     * new width lays them out and asks again (issue 16, twentieth stop: at 900 x 600 the titles, wrapped to six or
     * eight lines, squeezed the plots to about 40 px instead of the tab scrolling). QTabWidget's own answer counts
     * each card's preferred height, which would scroll at 1,280 x 720 where everything fits.
     */
    int heightForWidth(int width) const override;

public slots:
    /** Redraws the visible what-if tab from the document's evaluated pair; marks the others stale. */
    void refresh();
    /** Redraws every built what-if tab now, visible or not (a tab built later draws then). */
    void refreshAll();
    /** Makes the next refresh of every built what-if plot redraw even when its inputs did not change
     *  (PlotPanel::redrawOnNextRefresh(): a theme's font scale, say). */
    void redrawOnNextRefresh();
    /** For screenshots: refreshAll(), then replot every built what-if plot immediately and repaint the charts. */
    void flush();

signals:
    /** The panels of @p tab were redrawn from the document (their axes reset: overlays re-widen). */
    void tabRefreshed(int tab);
    /** @p tab's page was built and put in place (@p page is widget(tab) from now on): the window
     *  applies what it applied to every widget at start (accessible names, slider history). */
    void tabBuilt(int tab, QWidget* page);

protected:
    void showEvent(QShowEvent* event) override;
    /** While hidden (the resize Qt sends as the tabs are shown, before their pages are), places the pages
     *  where QTabWidget's showEvent() would, so that the current page is first laid out, and its plots
     *  first replotted, at the size they keep (issue 16, start-up: each floor plot was replotted twice). */
    void resizeEvent(QResizeEvent* event) override;
    /** The tab bar's and the scroll area's viewport's moves and resizes: keepTabBarInView(). */
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /** Places the tab bar at the scroll area's visible left edge, at most the viewport's width (keepTabBarInView()). */
    void placeTabBar();
    /** Sizes the tabs by the current page: the others' size policies are Ignored (restored when they are current), so
     *  that a page's minimum size (the floors' 1,024 x 700 px) does not widen the other pages past the view. */
    void sizeByCurrentPage();
    QWidget* page(const QString& objectName);
    void refreshTab(int tab);
    /** Builds @p tab's page and swaps it in for its placeholder (issue 16: start-up builds none). */
    void buildTab(int tab);
    QWidget* buildCapacityPage();
    QWidget* buildWorkloadPage();
    QWidget* buildTriagePage();

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
    bool m_built[PlanTab + 1] = {};   ///< per tab: its page was built (the floors tab is given)
    bool m_swapping = false;          ///< buildTab() is swapping a page in: tab changes are not the user's
    QScrollArea* m_scroll = nullptr;  ///< the scroll area holding these tabs (keepTabBarInView())
    bool m_placingTabBar = false;     ///< placeTabBar() is moving the bar: its own move and resize are not news
};

} // namespace ridgeline::views
