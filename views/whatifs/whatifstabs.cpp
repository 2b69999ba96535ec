// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/whatifs/whatifstabs.h"

#include <QApplication>
#include <QProxyStyle>

#include <algorithm>

#include <QAction>
#include <QChartView>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QMenu>
#include <QEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStyle>
#include <QStyleOptionTabWidgetFrame>
#include <QTabBar>
#include <QVariant>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "views/calibration/calibrationtab.h"
#include "views/plan/plantab.h"
#include "views/whatifs/capacityplot.h"
#include "views/whatifs/kvfitplot.h"
#include "views/kit/card.h"
#include "views/kit/palette.h"
#include "views/whatifs/prefixcachepanel.h"
#include "document/scenariodocument.h"
#include "views/controls/servingcontrols.h"
#include "views/simulation/simulationtab.h"
#include "views/whatifs/sloheadroom.h"
#include "views/whatifs/speculativeplot.h"
#include "views/kit/theme.h"
#include "views/triage/triagepanel.h"
#include "views/controls/workloadpanel.h"

namespace ridgeline::views {

namespace {

/** The application's style for the tabs' bar, but no overlap of the bar's base with the pane (see WhatIfTabs()). */
class TabBarBaseOnTopStyle final : public QProxyStyle {
public:
    explicit TabBarBaseOnTopStyle(QObject* parent)
        : QProxyStyle(QApplication::style()->name())
    {
        setParent(parent);
    }

    int pixelMetric(PixelMetric metric, const QStyleOption* option, const QWidget* widget) const override
    {
        if (metric == PM_TabBarBaseOverlap)
            return 0;
        return QProxyStyle::pixelMetric(metric, option, widget);
    }
};

} // namespace

WhatIfTabs::WhatIfTabs(ScenarioDocument* document, QWidget* floors, QWidget* parent)
    : QTabWidget(parent)
    , m_document(document)
{
    setObjectName(QStringLiteral("whatIfTabs"));
    setDocumentMode(true);
    tabBar()->setExpanding(false);
    // No style sheet (it was "::pane { border: none; }", and document mode draws no pane): it put Qt's style-sheet
    // style on every widget of the tabs, whose polish asked every ancestor for its style sheet. Under it no widget
    // inherited its parent's palette; the application's palette held here keeps the window's colours out of the tabs
    // (their tab bar), and the pages paint their background instead of setting it in a palette (issue 16,
    // seventeenth stop (h16s) in docs/performance.md).
    holdApplicationPalette(this);
    // What the pane rule still did in document mode: the style-sheet style took "border: none" as a pane border of
    // its own and gave the tab bar no base overlap, so Qt drew the bar's base line (Fusion's PE_FrameTabBarBase)
    // along the top of the whole bar, under the tabs, not along its bottom edge. Kept so, by a style on the tab
    // bar alone (a widget's style does not reach its children: the scroll buttons keep the application's).
    tabBar()->setStyle(new TabBarBaseOnTopStyle(this)); // a child of this tab widget, so deleted after its tab bar

    floors->setObjectName(QStringLiteral("floorsTab"));
    paintThemeBackground(floors, Theme::Window);
    if (QLayout* grid = floors->layout())
        grid->setContentsMargins(0, 8, 0, 0); // the same gap below the tab bar as the other pages
    addTab(floors, tr("Floors"));
    setTabToolTip(FloorsTab, tr("Decode floor, roofline, KV share, prefill crossover, ITL SLOs and the numbers."));

    // The other tabs start as placeholders, built on first show or first request (buildTab()).
    const QString labels[] = {tr("Capacity && SLOs"), tr("Workload, prefix cache, speculative"), tr("Incident triage"),
                              tr("Simulation"), tr("Calibration"), tr("Plan")};
    const QString tips[] = {
        tr("KV budget, contiguous vs paged concurrency, where the cache fits, SLO headroom."),
        tr("Which phase owns a request's GPU time, what a prefix cache saves, when speculation pays."),
        tr("Classify a serving ticket against the floors: prefill, decode, admission, noisy neighbour, KV capacity."),
        tr("Simulate a replica serving a request stream: ITL tail, TTFT, goodput against the cap, KV in use."),
        tr("Fit the efficiencies and overheads to measured ITL and TTFT, and apply them to the scenario."),
        tr("Which accelerator, how many, in which layout, at what cost: the fleet that meets the SLOs at a request rate.")};
    for (int tab = CapacityTab; tab <= PlanTab; ++tab) {
        addTab(page(QString()), labels[tab - CapacityTab]);
        setTabToolTip(tab, tips[tab - CapacityTab]);
    }
    m_built[FloorsTab] = true;

    connect(m_document, &ScenarioDocument::evaluated, this, &WhatIfTabs::refresh);
    sizeByCurrentPage();
    connect(this, &QTabWidget::currentChanged, this, [this](int tab) {
        if (m_swapping)
            return;
        ensureBuilt(tab); // draws it when new
        sizeByCurrentPage();
        if (tab >= 0 && tab <= TriageTab && m_stale[tab])
            refreshTab(tab);
    });
}

bool WhatIfTabs::isBuilt(int tab) const
{
    return tab >= FloorsTab && tab <= PlanTab && m_built[tab];
}

void WhatIfTabs::ensureBuilt(int tab) const
{
    if (tab > FloorsTab && tab <= PlanTab && !m_built[tab])
        const_cast<WhatIfTabs*>(this)->buildTab(tab); // logically const: the tab existed all along
}

CapacityControls* WhatIfTabs::capacityControls() const { ensureBuilt(CapacityTab); return m_capacityControls; }
SloHeadroomPanel* WhatIfTabs::sloHeadroomPanel() const { ensureBuilt(CapacityTab); return m_sloHeadroom; }
CapacityPlot* WhatIfTabs::capacityPlot() const { ensureBuilt(CapacityTab); return m_capacityPlot; }
KvFitPlot* WhatIfTabs::kvFitPlot() const { ensureBuilt(CapacityTab); return m_kvFitPlot; }
WorkloadPanel* WhatIfTabs::workloadPanel() const { ensureBuilt(WorkloadTab); return m_workload; }
PrefixCachePanel* WhatIfTabs::prefixCachePanel() const { ensureBuilt(WorkloadTab); return m_prefixCache; }
SpeculativePlot* WhatIfTabs::speculativePlot() const { ensureBuilt(WorkloadTab); return m_speculative; }
TriagePanel* WhatIfTabs::triagePanel() const { ensureBuilt(TriageTab); return m_triage; }
SimulationTab* WhatIfTabs::simulationTab() const { ensureBuilt(SimulationTab); return m_simulation; }
CalibrationTab* WhatIfTabs::calibrationTab() const { ensureBuilt(CalibrationTab); return m_calibration; }
PlanTab* WhatIfTabs::planTab() const { ensureBuilt(PlanTab); return m_plan; }

void WhatIfTabs::buildTab(int tab)
{
    m_built[tab] = true; // first: nothing built below may come back here
    // Built as every widget was at start, in the system's theme, then taken into the theme shown
    // (presentation mode) as Presentation took the others: fonts scaled, colours, pens and plot fonts.
    const Theme shown = currentTheme();
    const Theme base = Theme::system();
    const bool themed = shown.kind != base.kind || shown.fontScale != base.fontScale;
    if (themed)
        setCurrentTheme(base);
    QWidget* built = nullptr;
    switch (tab) {
    case CapacityTab:
        built = buildCapacityPage();
        break;
    case WorkloadTab:
        built = buildWorkloadPage();
        break;
    case TriageTab:
        built = buildTriagePage();
        break;
    case SimulationTab:
        built = m_simulation = new views::SimulationTab(m_document);
        break;
    case CalibrationTab:
        built = m_calibration = new views::CalibrationTab(m_document);
        break;
    case PlanTab:
        built = m_plan = new views::PlanTab(m_document); // issue 14: follows the document itself
        break;
    default:
        if (themed)
            setCurrentTheme(shown);
        return;
    }
    if (tab >= SimulationTab) // self-contained pages, on the window's background
        paintThemeBackground(built, Theme::Window);
    if (themed) {
        scaleFonts(built, shown.fontScale / base.fontScale);
        applyTheme(built, shown); // makes it current again
    }

    // Swap the page in for the placeholder; the tab's text, tip and the current tab stay.
    QWidget* placeholder = widget(tab);
    const QString text = tabText(tab);
    const QString tip = tabToolTip(tab);
    const int current = currentIndex();
    m_swapping = true;
    {
        const QSignalBlocker quiet(this); // the swap is no change of tab
        removeTab(tab);
        insertTab(tab, built, text);
        setTabToolTip(tab, tip);
        setCurrentIndex(current);
    }
    m_swapping = false;
    sizeByCurrentPage(); // the page swapped in: Ignored unless current
    placeholder->deleteLater(); // may be the page whose currentChanged() is being delivered
    emit tabBuilt(tab, built);
    if (tab <= TriageTab)
        refreshTab(tab);
}

QWidget* WhatIfTabs::buildCapacityPage()
{
    QWidget* capacity = page(QStringLiteral("capacityTab"));
    m_capacityControls = new CapacityControls(m_document);
    m_sloHeadroom = new SloHeadroomPanel(m_document);
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
    return capacity;
}

QWidget* WhatIfTabs::buildWorkloadPage()
{
    QWidget* workload = page(QStringLiteral("workloadTab"));
    m_workload = new WorkloadPanel(m_document);
    m_prefixCache = new PrefixCachePanel(m_document);
    m_speculative = new SpeculativePlot(m_document);
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
    return workload;
}

QWidget* WhatIfTabs::buildTriagePage()
{
    QWidget* triage = page(QStringLiteral("triageTab"));
    m_triage = new TriagePanel(m_document);
    auto* triageLayout = new QVBoxLayout(triage);
    triageLayout->setContentsMargins(0, 8, 0, 0);
    triageLayout->addWidget(m_triage);
    return triage;
}

QWidget* WhatIfTabs::page(const QString& objectName)
{
    auto* widget = new QWidget;
    widget->setObjectName(objectName);
    paintThemeBackground(widget, Theme::Window);
    return widget;
}

QList<QCustomPlot*> WhatIfTabs::plots() const
{
    for (int tab = CapacityTab; tab <= PlanTab; ++tab)
        ensureBuilt(tab);
    return QList<QCustomPlot*>{m_capacityPlot->plot(), m_kvFitPlot->plot(), m_speculative->plot()} + m_simulation->plots()
           + m_calibration->plots() + QList<QCustomPlot*>{m_plan->plot()->plot()};
}

void WhatIfTabs::refreshTab(int tab)
{
    const model::Scenario& scenario = m_document->evaluatedScenario();
    const model::Evaluation& evaluation = m_document->evaluation();
    const QString fitWarning = weightsFitWarning(scenario, evaluation);
    for (PlotPanel* panel : std::initializer_list<PlotPanel*>{m_capacityPlot, m_kvFitPlot, m_speculative})
        if (panel)
            panel->setWarning(fitWarning);
    if (!isBuilt(tab))
        return; // drawn when built
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
        if (tab == currentIndex() && isVisible() && m_built[tab])
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

void WhatIfTabs::resizeEvent(QResizeEvent* event)
{
    QTabWidget::resizeEvent(event);
    if (isVisible())
        return; // QTabWidget placed the tab bar and the pages itself
    // A hidden QTabWidget defers its layout to showEvent(), which comes after its children were shown: the
    // pages were first laid out at a stale size, then again at this one (every floor plot replotted twice at
    // start-up). The rects are QTabWidget::setUpLayout()'s (Qt 6.4); should they ever differ from Qt's,
    // showEvent() moves the pages as before.
    auto* stack = findChild<QStackedWidget*>(QStringLiteral("qt_tabwidget_stackedwidget"), Qt::FindDirectChildrenOnly);
    if (!stack)
        return;
    QStyleOptionTabWidgetFrame option;
    initStyleOption(&option);
    tabBar()->setGeometry(style()->subElementRect(QStyle::SE_TabWidgetTabBar, &option, this));
    stack->setGeometry(style()->subElementRect(QStyle::SE_TabWidgetTabContents, &option, this));
}

int WhatIfTabs::heightForWidth(int /*width*/) const
{
    QWidget* page = currentIndex() == FloorsTab ? currentWidget() : nullptr;
    auto* grid = page ? qobject_cast<QGridLayout*>(page->layout()) : nullptr;
    if (!grid || page->height() <= 0 || !isVisible())
        return -1;
    // The grid's rows at their items' minimum heights for the widths the items have: QGridLayout's own heights for
    // width take each card's preferred height (its plot's size hint) as the row's minimum.
    QList<int> rowHeights(grid->rowCount(), 0);
    for (int i = 0; i < grid->count(); ++i) {
        QLayoutItem* item = grid->itemAt(i);
        int row = 0, column = 0, rowSpan = 1, columnSpan = 1;
        grid->getItemPosition(i, &row, &column, &rowSpan, &columnSpan);
        if (!item || item->isEmpty() || rowSpan != 1)
            continue;
        const int itemWidth = item->geometry().width();
        QWidget* widget = item->widget();
        int minimum = item->minimumSize().height();
        if (widget && widget->layout() && widget->layout()->hasHeightForWidth())
            minimum = widget->layout()->totalMinimumHeightForWidth(itemWidth);
        else if (item->hasHeightForWidth())
            minimum = std::max(minimum, item->heightForWidth(itemWidth));
        rowHeights[row] = std::max(rowHeights[row], minimum);
    }
    int rows = 0;
    int needed = 0;
    for (int h : rowHeights)
        if (h > 0) {
            needed += h;
            ++rows;
        }
    const QMargins margins = grid->contentsMargins();
    needed += margins.top() + margins.bottom() + std::max(0, rows - 1) * std::max(0, grid->verticalSpacing());
    // Plus what the tab widget puts above and around its pages (the tab bar): from the style, not from the page's
    // geometry, which lags behind while the scroll area resizes these tabs (asking again from inside that resize, a
    // height that moved with it never settled).
    QStyleOptionTabWidgetFrame option;
    initStyleOption(&option);
    const int contentsHeight = style()->subElementRect(QStyle::SE_TabWidgetTabContents, &option, this).height();
    return needed + std::max(0, height() - contentsHeight);
}

void WhatIfTabs::sizeByCurrentPage()
{
    // QStackedLayout's minimum and preferred sizes are the largest of every page's, unless a page's policy is Ignored
    // (qSmartMinSize): the floors' grid made the Plan tab 1,024 px wide in a 560 px view at 900 x 600, its takeaway cut
    // at the view's edge and its axis title under the scroll bar (issue 14). The pages' own policy is kept in a property.
    static const char* const kOwnPolicy = "whatIfPageSizePolicy";
    for (int i = 0; i < count(); ++i) {
        QWidget* page = widget(i);
        if (!page->property(kOwnPolicy).isValid())
            page->setProperty(kOwnPolicy, QVariant::fromValue(page->sizePolicy()));
        const QSizePolicy wanted = i == currentIndex() ? page->property(kOwnPolicy).value<QSizePolicy>()
                                                       : QSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
        if (page->sizePolicy() != wanted)
            page->setSizePolicy(wanted);
    }
}

void WhatIfTabs::keepTabBarInView(QScrollArea* scroll)
{
    m_scroll = scroll;
    tabBar()->setUsesScrollButtons(true);
    connect(scroll->horizontalScrollBar(), &QScrollBar::valueChanged, this, &WhatIfTabs::placeTabBar);
    scroll->viewport()->installEventFilter(this);
    tabBar()->installEventFilter(this);
    placeTabBar();
}

bool WhatIfTabs::eventFilter(QObject* watched, QEvent* event)
{
    const bool geometry = event->type() == QEvent::Move || event->type() == QEvent::Resize;
    if (geometry && m_scroll && (watched == tabBar() || watched == m_scroll->viewport()))
        placeTabBar(); // after QTabWidget's own placing (its resize, a tab inserted) and the view's resize
    return QTabWidget::eventFilter(watched, event);
}

void WhatIfTabs::placeTabBar()
{
    if (!m_scroll || m_placingTabBar)
        return;
    QTabBar* bar = tabBar();
    const int left = std::clamp(m_scroll->horizontalScrollBar()->value(), 0, std::max(0, width()));
    const int room = std::min(m_scroll->viewport()->width(), width() - left);
    const QRect wanted(left, bar->y(), std::max(0, std::min(bar->sizeHint().width(), room)), bar->height());
    if (bar->geometry() == wanted || wanted.width() <= 0)
        return;
    m_placingTabBar = true;
    bar->setGeometry(wanted);
    m_placingTabBar = false;
}

void WhatIfTabs::refreshAll()
{
    for (int tab = CapacityTab; tab <= TriageTab; ++tab)
        if (m_built[tab])
            refreshTab(tab);
}

void WhatIfTabs::redrawOnNextRefresh()
{
    for (PlotPanel* panel : std::initializer_list<PlotPanel*>{m_capacityPlot, m_kvFitPlot, m_speculative})
        if (panel)
            panel->redrawOnNextRefresh();
}

void WhatIfTabs::flush()
{
    refreshAll();
    QList<QCustomPlot*> built;
    if (m_built[CapacityTab])
        built << m_capacityPlot->plot() << m_kvFitPlot->plot();
    if (m_built[WorkloadTab])
        built << m_speculative->plot();
    if (m_built[SimulationTab])
        built << m_simulation->plots();
    if (m_built[CalibrationTab])
        built << m_calibration->plots();
    if (m_built[PlanTab])
        built << m_plan->plot()->plot();
    for (QCustomPlot* plot : built)
        plot->replot(QCustomPlot::rpImmediateRefresh);
    if (m_built[WorkloadTab])
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
