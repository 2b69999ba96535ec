// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/whatifs/whatifstabs.h"

#include <QAction>
#include <QChartView>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QMenu>
#include <QScrollArea>
#include <QTabBar>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "views/calibration/calibrationtab.h"
#include "views/plan/plantab.h"
#include "views/whatifs/capacityplot.h"
#include "views/whatifs/kvfitplot.h"
#include "views/kit/palette.h"
#include "views/whatifs/prefixcachepanel.h"
#include "document/scenariodocument.h"
#include "views/controls/servingcontrols.h"
#include "views/simulation/simulationtab.h"
#include "views/whatifs/sloheadroom.h"
#include "views/whatifs/speculativeplot.h"
#include "views/triage/triagepanel.h"
#include "views/controls/workloadpanel.h"

namespace ridgeline::views {

WhatIfTabs::WhatIfTabs(ScenarioDocument* document, QWidget* floors, QWidget* parent)
    : QTabWidget(parent)
    , m_document(document)
{
    setObjectName(QStringLiteral("whatIfTabs"));
    setDocumentMode(true);
    tabBar()->setExpanding(false);
    setStyleSheet(QStringLiteral("QTabWidget#whatIfTabs::pane { border: none; }"));

    floors->setObjectName(QStringLiteral("floorsTab"));
    floors->setAutoFillBackground(true);
    QPalette floorsPalette = floors->palette();
    floorsPalette.setColor(QPalette::Window, palette::window());
    floors->setPalette(floorsPalette);
    if (QLayout* grid = floors->layout())
        grid->setContentsMargins(0, 8, 0, 0); // the same gap below the tab bar as the other pages
    addTab(floors, tr("Floors"));
    setTabToolTip(FloorsTab, tr("Decode floor, roofline, KV share, prefill crossover, ITL SLOs and the numbers."));

    // Capacity & SLOs: inputs and figures on the left (scrolling when short), two plots stacked on the right.
    QWidget* capacity = page(QStringLiteral("capacityTab"));
    m_capacityControls = new CapacityControls(document);
    m_sloHeadroom = new SloHeadroomPanel(document);
    m_capacityPlot = new CapacityPlot;
    m_kvFitPlot = new KvFitPlot;
    auto* side = new QWidget;
    side->setObjectName(QStringLiteral("capacitySide"));
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->setSpacing(8);
    sideLayout->addWidget(m_capacityControls);
    sideLayout->addWidget(m_sloHeadroom);
    sideLayout->addStretch(1);
    auto* sideScroll = new QScrollArea;
    sideScroll->setObjectName(QStringLiteral("capacityScroll"));
    sideScroll->setWidget(side);
    sideScroll->setWidgetResizable(true);
    sideScroll->setFrameShape(QFrame::NoFrame);
    sideScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    sideScroll->setStyleSheet(QStringLiteral("QScrollArea { background: transparent; } QWidget#capacitySide { background: %1; }")
                                  .arg(palette::css(palette::window())));
    sideScroll->setMinimumWidth(330);
    sideScroll->setMaximumWidth(400);
    auto* capacityGrid = new QGridLayout(capacity);
    capacityGrid->setContentsMargins(0, 8, 0, 0);
    capacityGrid->setSpacing(8);
    capacityGrid->addWidget(sideScroll, 0, 0, 2, 1);
    capacityGrid->addWidget(m_capacityPlot, 0, 1);
    capacityGrid->addWidget(m_kvFitPlot, 1, 1);
    capacityGrid->setColumnStretch(1, 1);
    capacityGrid->setRowStretch(0, 1);
    capacityGrid->setRowStretch(1, 1);
    addTab(capacity, tr("Capacity && SLOs"));
    setTabToolTip(CapacityTab, tr("KV budget, contiguous vs paged concurrency, where the cache fits, SLO headroom."));

    // Workload, prefix cache, speculative: workload and prefix caching on the left, speculative on the right.
    QWidget* workload = page(QStringLiteral("workloadTab"));
    m_workload = new WorkloadPanel(document);
    m_prefixCache = new PrefixCachePanel(document);
    m_speculative = new SpeculativePlot(document);
    auto* workloadGrid = new QGridLayout(workload);
    workloadGrid->setContentsMargins(0, 8, 0, 0);
    workloadGrid->setSpacing(8);
    workloadGrid->addWidget(m_workload, 0, 0);
    workloadGrid->addWidget(m_prefixCache, 1, 0);
    workloadGrid->addWidget(m_speculative, 0, 1, 2, 1);
    workloadGrid->setColumnStretch(0, 1);
    workloadGrid->setColumnStretch(1, 1);
    workloadGrid->setRowStretch(0, 3);
    workloadGrid->setRowStretch(1, 1);
    addTab(workload, tr("Workload, prefix cache, speculative"));
    setTabToolTip(WorkloadTab, tr("Which phase owns a request's GPU time, what a prefix cache saves, when speculation pays."));

    // Incident triage.
    QWidget* triage = page(QStringLiteral("triageTab"));
    m_triage = new TriagePanel(document);
    auto* triageLayout = new QVBoxLayout(triage);
    triageLayout->setContentsMargins(0, 8, 0, 0);
    triageLayout->addWidget(m_triage);
    addTab(triage, tr("Incident triage"));
    setTabToolTip(TriageTab, tr("Classify a serving ticket against the floors: prefill, decode, admission, noisy neighbour, KV capacity."));

    // Simulation (issue 9) and Calibration (issue 10): self-contained pages.
    m_simulation = new views::SimulationTab(document);
    m_simulation->setAutoFillBackground(true);
    m_simulation->setPalette(triage->palette());
    addTab(m_simulation, tr("Simulation"));
    setTabToolTip(SimulationTab, tr("Simulate a replica serving a request stream: ITL tail, TTFT, goodput against the cap, KV in use."));
    m_calibration = new views::CalibrationTab(document);
    m_calibration->setAutoFillBackground(true);
    m_calibration->setPalette(triage->palette());
    addTab(m_calibration, tr("Calibration"));
    setTabToolTip(CalibrationTab, tr("Fit the efficiencies and overheads to measured ITL and TTFT, and apply them to the scenario."));
    m_plan = new views::PlanTab(document); // issue 14: follows the document itself
    m_plan->setAutoFillBackground(true);
    m_plan->setPalette(triage->palette());
    addTab(m_plan, tr("Plan"));
    setTabToolTip(PlanTab, tr("Which accelerator, how many, in which layout, at what cost: the fleet that meets the SLOs at a request rate."));

    connect(m_document, &ScenarioDocument::evaluated, this, &WhatIfTabs::refresh);
    connect(this, &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab >= 0 && tab <= TriageTab && m_stale[tab])
            refreshTab(tab);
    });
    refreshAll();
}

QWidget* WhatIfTabs::page(const QString& objectName)
{
    auto* widget = new QWidget;
    widget->setObjectName(objectName);
    widget->setAutoFillBackground(true);
    QPalette pal = widget->palette();
    pal.setColor(QPalette::Window, palette::window());
    widget->setPalette(pal);
    return widget;
}

QList<QCustomPlot*> WhatIfTabs::plots() const
{
    return QList<QCustomPlot*>{m_capacityPlot->plot(), m_kvFitPlot->plot(), m_speculative->plot()} + m_simulation->plots()
           + m_calibration->plots() + QList<QCustomPlot*>{m_plan->plot()->plot()};
}

void WhatIfTabs::refreshTab(int tab)
{
    const model::Scenario& scenario = m_document->evaluatedScenario();
    const model::Evaluation& evaluation = m_document->evaluation();
    const QString fitWarning = weightsFitWarning(scenario, evaluation);
    for (PlotPanel* panel : std::initializer_list<PlotPanel*>{m_capacityPlot, m_kvFitPlot, m_speculative})
        panel->setWarning(fitWarning);
    switch (tab) {
    case CapacityTab:
        m_capacityControls->refresh(scenario, evaluation);
        m_sloHeadroom->refresh(scenario, evaluation);
        m_capacityPlot->refresh(scenario, evaluation);
        m_kvFitPlot->refresh(scenario, evaluation);
        break;
    case WorkloadTab:
        m_workload->refresh(scenario, evaluation);
        m_prefixCache->refresh(scenario, evaluation);
        m_speculative->refresh(scenario, evaluation);
        break;
    case TriageTab:
        m_triage->runTriage();
        break;
    default:
        break; // the floors tab belongs to the main window
    }
    if (tab >= 0 && tab <= TriageTab) {
        m_stale[tab] = false;
        emit tabRefreshed(tab);
    }
}

void WhatIfTabs::refresh()
{
    for (int tab = CapacityTab; tab <= TriageTab; ++tab) {
        if (tab == currentIndex() && isVisible())
            refreshTab(tab);
        else
            m_stale[tab] = true;
    }
}

void WhatIfTabs::showEvent(QShowEvent* event)
{
    QTabWidget::showEvent(event);
    const int tab = currentIndex();
    if (tab >= 0 && tab <= TriageTab && m_stale[tab])
        refreshTab(tab);
}

void WhatIfTabs::refreshAll()
{
    for (int tab = CapacityTab; tab <= TriageTab; ++tab)
        refreshTab(tab);
}

void WhatIfTabs::flush()
{
    refreshAll();
    for (QCustomPlot* plot : plots())
        plot->replot(QCustomPlot::rpImmediateRefresh);
    m_workload->chartView()->viewport()->update();
}

void WhatIfTabs::addViewActions(QMenu* menu)
{
    QMenu* tabs = menu->addMenu(tr("&What-ifs"));
    tabs->setObjectName(QStringLiteral("whatIfsMenu"));
    const QStringList names{tr("&Floors"), tr("&Capacity && SLOs"), tr("&Workload, prefix cache, speculative"),
                            tr("&Incident triage"), tr("&Simulation"), tr("Ca&libration"), tr("&Plan")};
    const Qt::Key keys[] = {Qt::Key_1, Qt::Key_2, Qt::Key_3, Qt::Key_4, Qt::Key_5, Qt::Key_6, Qt::Key_7};
    for (int i = 0; i < names.size(); ++i) {
        QAction* action = tabs->addAction(names[i]);
        action->setObjectName(QStringLiteral("whatIfTabAction%1").arg(i));
        action->setShortcut(QKeySequence(Qt::ALT | keys[i]));
        connect(action, &QAction::triggered, this, [this, i] { setCurrentIndex(i); });
    }
}

} // namespace ridgeline::views
