// SPDX-License-Identifier: GPL-3.0-or-later
// Widget test of the Plan tab (issue 14): the rate spin box drives a search whose plans are ranked by
// cost, the takeaway names the cheapest, the Pareto plot holds one finite, non-dominated frontier per
// drawn device, the plot follows the document's model, bursts coalesce, a rate of 0 keeps the result.

#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QTableWidget>
#include <QTest>

#include <qcustomplot.h>

#include "app/mainwindow.h"
#include "model/analysis/plan.h"
#include "model/cost/scenario.h"
#include "views/controls/controlspanel.h"
#include "views/plan/plantab.h"
#include "document/scenariodocument.h"
#include "views/whatifs/whatifstabs.h"

using ridgeline::views::PlanPlot;
using ridgeline::views::PlanTab;
using ridgeline::views::WhatIfTabs;
namespace model = ridgeline::model;
namespace app = ridgeline::app;

namespace {

/** The points of @p graph. */
std::vector<std::pair<double, double>> pointsOf(const QCPGraph* graph)
{
    std::vector<std::pair<double, double>> out;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        out.emplace_back(it->key, it->value);
    return out;
}

} // namespace

class TestPlanTab final : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void rateDrivesRankedPlansAndTakeaway();
    void frontiersAreFiniteAndNonDominated();
    void followsTheDocumentsModel();
    void burstsCoalesceAndHiddenWaits();
    void zeroRateKeepsThePreviousResult();
    void examplePricesOffShowUnknownCosts();
    void renderForALook();

private:
    PlanTab* tab() const { return m_window->whatIfTabs()->planTab(); }
    app::MainWindow* m_window = nullptr;
};

void TestPlanTab::init()
{
    m_window = new app::MainWindow(model::defaultScenario());
    m_window->resize(1600, 1000);
    m_window->show();
    m_window->whatIfTabs()->setCurrentIndex(WhatIfTabs::PlanTab);
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    QTRY_VERIFY(tab()->result().has_value());
}

void TestPlanTab::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

void TestPlanTab::rateDrivesRankedPlansAndTakeaway()
{
    PlanTab* t = tab();
    // The SLOs start from the document's workload.
    const model::Scenario& s = m_window->document()->evaluatedScenario();
    QCOMPARE(t->ttftSpinBox()->value(), s.workload.ttftSloMs);
    QCOMPARE(t->itlSpinBox()->value(), s.workload.itlSloMs.front());

    // Type a new rate into the spin box, as a person does.
    QDoubleSpinBox* rate = t->rateSpinBox();
    rate->setFocus();
    rate->selectAll();
    QTest::keyClicks(rate, QStringLiteral("37"));
    QTest::keyClick(rate, Qt::Key_Return);
    QCOMPARE(rate->value(), 37.0);
    QTRY_COMPARE(t->request()->load.requestsPerSecond, 37.0);

    const model::PlanResult& r = *t->result();
    QVERIFY(!r.plans.empty());
    QCOMPARE(t->table()->rowCount(), int(r.plans.size()));
    // Rows ranked by cost (all-in $ per 1M output tokens), known before unknown.
    double previous = -1;
    bool unknownSeen = false;
    for (int row = 0; row < t->table()->rowCount(); ++row) {
        const QString text = t->table()->item(row, PlanTab::CostColumn)->text();
        if (text == QStringLiteral("-")) {
            unknownSeen = true;
            continue;
        }
        QVERIFY2(!unknownSeen, "a known cost after an unknown one");
        const model::PlanPoint& p = r.points[size_t(r.plans[size_t(row)])];
        QVERIFY(p.cost.costPerMillionOutputTokensAllIn.has_value());
        QVERIFY2(*p.cost.costPerMillionOutputTokensAllIn >= previous, qPrintable(QStringLiteral("row %1").arg(row)));
        previous = *p.cost.costPerMillionOutputTokensAllIn;
        QCOMPARE(t->table()->item(row, PlanTab::DeviceColumn)->text(),
                 QString::fromStdString(t->request()->candidates.devices[size_t(p.device)].hardware.name));
    }
    // The takeaway names the cheapest plan's device, and that is row 1.
    QVERIFY(r.cheapest.has_value());
    const QString cheapestName = QString::fromStdString(t->request()->candidates.devices[size_t(r.points[size_t(*r.cheapest)].device)].hardware.name);
    QVERIFY2(t->plot()->takeaway().contains(cheapestName), qPrintable(t->plot()->takeaway()));
    QCOMPARE(t->table()->item(0, PlanTab::DeviceColumn)->text(), cheapestName);
    QVERIFY(t->plot()->cheapestLabel()->visible());
    QVERIFY(t->plot()->cheapestLabel()->text().contains(cheapestName));

    // Sorting by a header click orders the rows by that column's numbers.
    QHeaderView* header = t->table()->horizontalHeader();
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(header->sectionViewportPosition(PlanTab::GpusColumn) + 5, 5));
    QCOMPARE(header->sortIndicatorSection(), int(PlanTab::GpusColumn));
    const Qt::SortOrder order = header->sortIndicatorOrder();
    for (int row = 1; row < t->table()->rowCount(); ++row) {
        const int a = t->table()->item(row - 1, PlanTab::GpusColumn)->text().toInt();
        const int b = t->table()->item(row, PlanTab::GpusColumn)->text().toInt();
        QVERIFY(order == Qt::AscendingOrder ? a <= b : a >= b);
    }
}

void TestPlanTab::frontiersAreFiniteAndNonDominated()
{
    PlanTab* t = tab();
    PlanPlot* plot = t->plot();
    const model::PlanResult& r = *t->result();
    int withPlans = 0;
    for (const model::DeviceSummary& d : r.devices)
        withPlans += d.bestPlan ? 1 : 0;
    const int drawn = int(plot->drawnDevices().size());
    QCOMPARE(drawn, std::min(withPlans, PlanPlot::kMaxDevices));
    QVERIFY(drawn > 0);
    // The devices with plans not drawn, and every excluded device, are listed.
    int excluded = 0;
    for (const model::DeviceSummary& d : r.devices)
        excluded += d.reason != model::ExclusionReason::None ? 1 : 0;
    QCOMPARE(t->excludedList()->count(), excluded + (withPlans - drawn));
    for (int i = 0; i < t->excludedList()->count() && i < excluded; ++i)
        QVERIFY(!t->excludedList()->item(i)->text().isEmpty());

    int visibleFrontiers = 0;
    for (int i = 0; i < PlanPlot::kMaxDevices; ++i) {
        QCPGraph* graph = plot->frontierGraph(i);
        if (!graph->visible()) {
            QVERIFY(i >= drawn);
            continue;
        }
        ++visibleFrontiers;
        const auto points = pointsOf(graph);
        QVERIFY2(!points.empty(), qPrintable(graph->name()));
        for (const auto& [x, y] : points)
            QVERIFY(std::isfinite(x) && std::isfinite(y) && x > 0 && y > 0);
        for (const auto& a : points) {
            for (const auto& b : points) {
                const bool dominates = b.first >= a.first && b.second >= a.second && (b.first > a.first || b.second > a.second);
                QVERIFY2(!dominates, qPrintable(QStringLiteral("%1: (%2, %3) dominated").arg(graph->name()).arg(a.first).arg(a.second)));
            }
        }
    }
    QCOMPARE(visibleFrontiers, drawn);
    // Axes finite, and the ITL SLO line at 1000 / ITL.
    for (QCPAxis* axis : plot->plot()->axisRect()->axes())
        QVERIFY(std::isfinite(axis->range().lower) && std::isfinite(axis->range().upper) && axis->range().upper > axis->range().lower);
    QVERIFY(plot->itlLine()->visible());
    QCOMPARE(plot->itlLine()->point1->coords().x(), 1000.0 / t->itlSpinBox()->value());
}

void TestPlanTab::followsTheDocumentsModel()
{
    PlanTab* t = tab();
    const auto before = pointsOf(t->plot()->frontierGraph(0));
    const std::string modelBefore = t->request()->scenario.model.name;
    QComboBox* combo = m_window->controlsPanel()->modelPresetCombo();
    const int target = combo->findText(QStringLiteral("Llama 3.1 70B"), Qt::MatchStartsWith);
    QVERIFY2(target >= 1, "the Llama 3.1 70B preset is in the combo");
    QVERIFY(combo->currentIndex() != target);
    // The combo applies a preset on activated(): step onto it with the keyboard, as a person does.
    {
        const QSignalBlocker quiet(combo);
        combo->setCurrentIndex(target - 1);
    }
    combo->setFocus();
    QTest::keyClick(combo, Qt::Key_Down);
    QCOMPARE(combo->currentIndex(), target);
    QTRY_VERIFY(t->request()->scenario.model.name != modelBefore);
    QCOMPARE(t->request()->scenario.model.name, m_window->document()->evaluatedScenario().model.name);
    QVERIFY(pointsOf(t->plot()->frontierGraph(0)) != before);

    // A document edit of the prompt length reaches the plan's load.
    const auto again = pointsOf(t->plot()->frontierGraph(0));
    m_window->document()->edit([](model::Scenario& s) { s.workload.promptTokens = 8192; });
    QTRY_COMPARE(t->request()->load.promptTokens, 8192.0);
    QVERIFY(pointsOf(t->plot()->frontierGraph(0)) != again);
}

void TestPlanTab::burstsCoalesceAndHiddenWaits()
{
    PlanTab* t = tab();
    QTest::qWait(20);
    const int before = t->searchCount();
    for (int batch : {2, 4, 8, 16}) {
        m_window->document()->edit([batch](model::Scenario& s) { s.workload.batch = batch; });
        m_window->document()->evaluateNow();
    }
    QCOMPARE(t->searchCount(), before); // nothing searched synchronously
    QTRY_COMPARE(t->searchCount(), before + 1);
    QTest::qWait(20);
    QCOMPARE(t->searchCount(), before + 1); // one search for the burst

    // Hidden: no search until shown again.
    m_window->whatIfTabs()->setCurrentIndex(WhatIfTabs::FloorsTab);
    m_window->document()->edit([](model::Scenario& s) { s.workload.outputTokens = 1024; });
    m_window->document()->evaluateNow();
    QTest::qWait(20);
    QCOMPARE(t->searchCount(), before + 1);
    m_window->whatIfTabs()->setCurrentIndex(WhatIfTabs::PlanTab);
    QTRY_COMPARE(t->request()->load.outputTokens, 1024.0);
}

void TestPlanTab::zeroRateKeepsThePreviousResult()
{
    PlanTab* t = tab();
    t->rateSpinBox()->setValue(12);
    QTRY_COMPARE(t->request()->load.requestsPerSecond, 12.0);
    const int rows = t->table()->rowCount();
    const QString firstRow = t->table()->item(0, PlanTab::DeviceColumn)->text();
    const auto frontier = pointsOf(t->plot()->frontierGraph(0));
    for (double bad : {0.0, -5.0}) {
        t->rateSpinBox()->setValue(bad); // the spin box stops at 0
        QTRY_VERIFY(t->messageLabel()->isVisible());
        QVERIFY2(t->messageLabel()->text().contains(QStringLiteral("Request rate")), qPrintable(t->messageLabel()->text()));
        QVERIFY(t->messageLabel()->text().contains(QStringLiteral("0")));
        QCOMPARE(t->request()->load.requestsPerSecond, 12.0);
        QCOMPARE(t->table()->rowCount(), rows);
        QCOMPARE(t->table()->item(0, PlanTab::DeviceColumn)->text(), firstRow);
        QCOMPARE(pointsOf(t->plot()->frontierGraph(0)), frontier);
        t->rateSpinBox()->setValue(12.5);
        QTRY_VERIFY(!t->messageLabel()->isVisible());
        QCOMPARE(t->request()->load.requestsPerSecond, 12.5);
        t->rateSpinBox()->setValue(12);
        QTRY_COMPARE(t->request()->load.requestsPerSecond, 12.0);
    }
}

void TestPlanTab::examplePricesOffShowUnknownCosts()
{
    PlanTab* t = tab();
    QTest::mouseClick(t->examplePricesCheckBox(), Qt::LeftButton);
    QVERIFY(!t->examplePricesCheckBox()->isChecked());
    QTRY_VERIFY(!t->request()->candidates.devices.front().economics.pricePerGpuHour.has_value());
    QVERIFY(t->table()->rowCount() > 0);
    for (int row = 0; row < t->table()->rowCount(); ++row)
        QCOMPARE(t->table()->item(row, PlanTab::CostColumn)->text(), QStringLiteral("-"));
    QVERIFY(!t->plot()->cheapestLabel()->visible());
    for (int i = 0; i < PlanPlot::kMaxDevices; ++i)
        for (const auto& [x, y] : pointsOf(t->plot()->frontierGraph(i)))
            QVERIFY(std::isfinite(x) && std::isfinite(y));
}

void TestPlanTab::renderForALook()
{
    // Not an assertion on pixels: a picture for a person (issue 14's window view).
    m_window->whatIfTabs()->flush();
    tab()->plot()->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const QString path = QDir(QDir::tempPath()).filePath(QStringLiteral("ridgeline-plan-tab.png"));
    QVERIFY(m_window->grab().save(path));
    qInfo("window with the Plan tab: %s", qPrintable(path));
}

QTEST_MAIN(TestPlanTab)
#include "tst_plantab.moc"
