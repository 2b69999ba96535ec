// SPDX-License-Identifier: GPL-3.0-or-later
// Widget test of the Calibration tab's "Predict a benchmark" page (issue 13, "Measured truth"): a measured set
// predicted off the GUI thread, its table, plots and summary checked against the model's own prediction, a
// malformed file keeping the previous points, re-prediction on a scenario edit only while visible, the newest
// request superseding an older one, sorting, and a window render for a person to look at.

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include "app/mainwindow.h"
#include "model/files/benchmarkfile.h"
#include "model/analysis/benchmarkpredict.h"
#include "model/files/inputfile.h"
#include "model/cost/scenario.h"
#include "model/cost/scenariokeys.h"
#include "views/calibration/benchmarkpredictplot.h"
#include "views/calibration/benchmarkpredictview.h"
#include "views/calibration/calibrationtab.h"
#include "document/format.h"
#include "document/scenariodocument.h"
#include "views/whatifs/whatifstabs.h"

using ridgeline::views::BenchmarkPredictPlot;
using ridgeline::views::BenchmarkPredictView;
using ridgeline::views::CalibrationTab;
using ridgeline::views::ScenarioDocument;
namespace model = ridgeline::model;
namespace format = ridgeline::views::format;

namespace {

constexpr int kTimeoutMs = 120000; // a generous bound for a slow machine, not a speed assertion

QString measured(const char* name)
{
    return QStringLiteral(RIDGELINE_TEST_DATA "/measured/") + QLatin1String(name);
}

/** The scenario a measured set was measured on (its .scenario.json over the default). */
model::Scenario scenarioOf(const char* stem)
{
    model::Scenario s = model::defaultScenario();
    QByteArray text;
    if (!model::readInputFile(measured(stem) + QStringLiteral(".scenario.json"), text).empty())
        return s;
    const std::string error = model::applyJsonText(s, text);
    if (!error.empty())
        qWarning("%s", error.c_str());
    return s;
}

bool plotsFinite(const QList<QCustomPlot*>& plots)
{
    for (QCustomPlot* plot : plots) {
        for (int g = 0; g < plot->graphCount(); ++g) {
            const QSharedPointer<QCPGraphDataContainer> data = plot->graph(g)->data();
            for (auto it = data->constBegin(); it != data->constEnd(); ++it)
                if (!std::isfinite(it->key) || !std::isfinite(it->value))
                    return false;
        }
        for (QCPAxis* axis : plot->axisRect()->axes())
            if (!std::isfinite(axis->range().lower) || !std::isfinite(axis->range().upper) || !(axis->range().upper > axis->range().lower))
                return false;
    }
    return true;
}

double cell(const QTableWidget* table, int row, int column)
{
    const QVariant v = table->item(row, column)->data(Qt::UserRole);
    return v.isValid() ? v.toDouble() : std::nan("");
}

/** Waits until @p view has no prediction under way; true unless it timed out. */
bool settle(const BenchmarkPredictView* view)
{
    return QTest::qWaitFor([view] { return !view->isPredicting(); }, kTimeoutMs);
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(text);
    return path;
}

} // namespace

class TestPredictView final : public QObject {
    Q_OBJECT

private slots:
    void measuredSetIsPredictedOffTheGuiThread();
    void malformedFileKeepsThePreviousPoints();
    void scenarioEditPredictsAgainOnlyWhenVisible();
    void newerRequestSupersedesAnOlderOne();
    void tableSortsByResidual();
    void trtllmSchedulerIsSelectable();
    void scenarioEngineKeysShowAsTheEngineRun();
    void burstsArePlacedAtTheirRequestCount();
    void windowRendersThePage();
};

void TestPredictView::measuredSetIsPredictedOffTheGuiThread()
{
    const model::Scenario scenario = scenarioOf("trt09-llama2-7b-h100-tp1-fp16");
    QCOMPARE(QString::fromStdString(scenario.model.name), QStringLiteral("Llama 2 7B"));
    ScenarioDocument document(scenario);
    CalibrationTab tab(&document);
    tab.resize(1500, 900);
    tab.show();
    tab.pages()->setCurrentIndex(CalibrationTab::PredictPage);
    BenchmarkPredictView* view = tab.predictView();
    QVERIFY(view->isVisible());
    QVERIFY(view->errorLabel()->isHidden());

    QSignalSpy finished(view, &BenchmarkPredictView::predictionFinished);
    const QString path = measured("trt09-llama2-7b-h100-tp1-fp16.csv");
    QCOMPARE(view->loadBenchmark(path), QString());
    // Loading returns at once: the points are on screen, their prediction is under way on a worker thread.
    QVERIFY(view->isPredicting());
    QCOMPARE(finished.count(), 0);
    QCOMPARE(view->table()->rowCount(), 31);
    QVERIFY(view->sourceLabel()->text().contains(QStringLiteral("31 points")));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    QVERIFY(!view->isPredicting());
    QVERIFY(view->hasPrediction());

    // The same prediction as --predict: the model's, point by point, with the same engine defaults.
    QByteArray bytes;
    QVERIFY(model::readInputFile(path, bytes).empty());
    model::BenchmarkFile file;
    QVERIFY(model::readBenchmarkFile(bytes, path.toStdString(), file).empty());
    const std::vector<model::PointPrediction> expected = model::predictBenchmarks(scenario, file.points, model::BenchmarkOptions{});
    QCOMPARE(expected.size(), size_t(31));

    const QTableWidget* table = view->table();
    QCOMPARE(table->rowCount(), 31);
    double decodeSum = 0, ttftSum = 0, worst = 0;
    int worstRow = -1;
    for (int row = 0; row < 31; ++row) {
        const int index = int(cell(table, row, BenchmarkPredictView::LabelColumn));
        QCOMPARE(table->item(row, BenchmarkPredictView::LabelColumn)->text(), QString::fromStdString(file.points[size_t(index)].label));
        QVERIFY2(expected[size_t(index)].error.empty(), expected[size_t(index)].error.c_str());
        const auto itl = model::compareItl(file.points[size_t(index)], expected[size_t(index)].prediction);
        const auto ttft = model::compareTtft(file.points[size_t(index)], expected[size_t(index)].prediction);
        QVERIFY(itl && ttft);
        // Residuals are predicted / measured - 1 of the table's own cells, shown as signed percentages.
        for (const auto& [measuredColumn, reference] : {std::pair{int(BenchmarkPredictView::MeasuredDecodeColumn), *itl},
                                                        std::pair{int(BenchmarkPredictView::MeasuredTtftColumn), *ttft}}) {
            const double m = cell(table, row, measuredColumn);
            const double p = cell(table, row, measuredColumn + 1);
            const double r = cell(table, row, measuredColumn + 2);
            QCOMPARE(m, reference.measuredMs);
            QCOMPARE(p, reference.predictedMs);
            QVERIFY(std::isfinite(p) && p > 0);
            QVERIFY2(std::abs(r - (p / m - 1.0)) <= 1e-12, qPrintable(QStringLiteral("row %1: %2 vs %3").arg(row).arg(r).arg(p / m - 1.0)));
            QCOMPARE(table->item(row, measuredColumn + 2)->text(), QString::asprintf("%+.1f %%", r * 100.0));
            QCOMPARE(table->item(row, measuredColumn + 1)->text(), format::number(p, 3));
            if (measuredColumn == BenchmarkPredictView::MeasuredDecodeColumn)
                decodeSum += std::abs(r);
            else
                ttftSum += std::abs(r);
            if (std::abs(r) > worst) {
                worst = std::abs(r);
                worstRow = row;
            }
        }
        QCOMPARE(cell(table, row, BenchmarkPredictView::PreemptionsColumn), double(expected[size_t(index)].prediction.preemptions));
        QCOMPARE(cell(table, row, BenchmarkPredictView::InputColumn), file.points[size_t(index)].inputTokens);
        QCOMPARE(cell(table, row, BenchmarkPredictView::OutputColumn), file.points[size_t(index)].outputTokens);
    }
    // The file measures ITL (mean): the headers say so.
    QCOMPARE(table->horizontalHeaderItem(BenchmarkPredictView::MeasuredDecodeColumn)->text(), QStringLiteral("ITL (ms)\nmeasured"));

    // The summary: both MAPEs from the table's cells, and the worst point by name.
    const QString summary = view->summaryLabel()->text();
    QVERIFY2(summary.contains(QStringLiteral("Decode latency MAPE %1 over 31 points").arg(format::percent(decodeSum / 31))), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("TTFT MAPE %1 over 31 points").arg(format::percent(ttftSum / 31))), qPrintable(summary));
    QVERIFY(worstRow >= 0);
    QVERIFY2(summary.contains(QStringLiteral("Worst: %1 (").arg(table->item(worstRow, BenchmarkPredictView::LabelColumn)->text())),
             qPrintable(summary));

    // The plots: every measured point as a marker in its (ISL, OSL) group, the predicted line through finite
    // predictions at the same loads, one residual per point.
    for (BenchmarkPredictPlot* plot : {view->decodePlot(), view->ttftPlot()}) {
        const bool decode = plot == view->decodePlot();
        QCOMPARE(plot->groupCount(), 5);
        int measuredCount = 0, residualCount = 0;
        std::vector<double> plotted, tabled;
        for (int g = 0; g < plot->groupCount(); ++g) {
            const auto m = plot->measuredGraph(g)->data();
            const auto p = plot->predictedGraph(g)->data();
            const auto r = plot->residualGraph(g)->data();
            QCOMPARE(p->size(), m->size());
            QCOMPARE(r->size(), m->size());
            measuredCount += m->size();
            residualCount += r->size();
            for (int i = 0; i < m->size(); ++i) {
                QCOMPARE(p->at(i)->key, m->at(i)->key);
                QVERIFY(std::isfinite(p->at(i)->value) && p->at(i)->value > 0);
                QVERIFY(std::abs(r->at(i)->value - (p->at(i)->value / m->at(i)->value - 1.0) * 100.0) < 1e-9);
                plotted.push_back(m->at(i)->value);
            }
        }
        QCOMPARE(measuredCount, 31);
        QCOMPARE(residualCount, 31);
        for (int row = 0; row < 31; ++row)
            tabled.push_back(cell(table, row, decode ? BenchmarkPredictView::MeasuredDecodeColumn : BenchmarkPredictView::MeasuredTtftColumn));
        std::sort(plotted.begin(), plotted.end());
        std::sort(tabled.begin(), tabled.end());
        QVERIFY(plotted == tabled);
        QVERIFY(plot->plot()->xAxis->label().contains(QStringLiteral("static batch")));
        QVERIFY(plot->takeaway().contains(QStringLiteral("MAPE")));
    }
    QVERIFY(plotsFinite(view->plots()));
    QCOMPARE(finished.count(), 1);
}

void TestPredictView::malformedFileKeepsThePreviousPoints()
{
    ScenarioDocument document(scenarioOf("trt09-llama2-7b-h100-tp1-fp16"));
    BenchmarkPredictView view(&document);
    view.resize(1300, 800);
    view.show();
    QSignalSpy finished(&view, &BenchmarkPredictView::predictionFinished);
    QCOMPARE(view.loadBenchmark(measured("trt09-llama2-7b-h100-tp1-fp16.csv")), QString());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    const std::vector<model::PointPrediction> before = view.results();
    const double firstPredicted = cell(view.table(), 0, BenchmarkPredictView::PredictedDecodeColumn);
    const QString summary = view.summaryLabel()->text();
    // The set's scenario lies beside it (the prediction never uses it silently): said, and its button hidden while the
    // document's scenario is that one, as here.
    QCOMPARE(view.companionPath(), QFileInfo(measured("trt09-llama2-7b-h100-tp1-fp16.scenario.json")).absoluteFilePath());
    QVERIFY(view.sourceLabel()->text().contains(QStringLiteral("Its scenario lies beside it")));
    QVERIFY2(view.companionButton()->toolTip().contains(QStringLiteral("trt09-llama2-7b-h100-tp1-fp16.scenario.json")),
             qPrintable(view.companionButton()->toolTip()));
    QVERIFY(view.companionButton()->isHidden());

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString bad = writeFile(dir, QStringLiteral("broken.csv"), "concurrency,isl,osl,itl_ms\n8,128,128,fast\n");
    const QString message = view.loadBenchmark(bad);
    QVERIFY(!message.isEmpty());
    QVERIFY2(message.contains(QStringLiteral("broken.csv")) && message.contains(QStringLiteral("itl_ms")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("fast")), qPrintable(message)); // the value the reader refused
    QVERIFY(message.contains(QStringLiteral("previous points are kept")));
    QVERIFY(!view.errorLabel()->isHidden());
    QCOMPARE(view.errorLabel()->text(), message);
    // Nothing the user had is lost, and nothing is predicted again.
    QVERIFY(!view.isPredicting());
    QCOMPARE(view.benchmark().points.size(), size_t(31));
    QCOMPARE(view.results().size(), before.size());
    QCOMPARE(view.table()->rowCount(), 31);
    QCOMPARE(cell(view.table(), 0, BenchmarkPredictView::PredictedDecodeColumn), firstPredicted);
    QCOMPARE(view.summaryLabel()->text(), summary);
    int points = 0;
    for (int g = 0; g < view.decodePlot()->groupCount(); ++g)
        points += view.decodePlot()->measuredGraph(g)->data()->size();
    QCOMPARE(points, 31);

    // A file that is not there, and one with no points, the same way.
    QVERIFY(view.loadBenchmark(dir.filePath(QStringLiteral("missing.json"))).contains(QStringLiteral("missing.json")));
    const QString empty = writeFile(dir, QStringLiteral("empty.csv"), "concurrency,isl,osl,itl_ms\n");
    QVERIFY(!view.loadBenchmark(empty).isEmpty());
    QCOMPARE(view.table()->rowCount(), 31);
    QVERIFY(plotsFinite(view.plots()));

    // A good file clears the message.
    QCOMPARE(view.loadBenchmark(measured("trt09-llama2-7b-h100-tp1-fp16.csv")), QString());
    QVERIFY(view.errorLabel()->isHidden());
    QVERIFY(settle(&view));

    // The button makes the scenario beside the file the document's, in one change (one step of the window's history),
    // read over the defaults as File > Open reads it; the points are then predicted against it again, as at the start.
    const QJsonObject setScenario = model::toJson(scenarioOf("trt09-llama2-7b-h100-tp1-fp16"));
    document.setScenario(model::defaultScenario());
    const int finishedBefore = int(finished.count());
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() > finishedBefore && !view.isPredicting(), kTimeoutMs); // predicted against the defaults
    QVERIFY(cell(view.table(), 0, BenchmarkPredictView::PredictedDecodeColumn) != firstPredicted);
    QVERIFY(!view.companionButton()->isHidden()); // offered now
    // The card keeps the page's width: nothing on it (the button's text) widens it past its scroll area's view.
    const auto* side = view.findChild<QScrollArea*>(QStringLiteral("predictScroll"));
    QVERIFY(side);
    QCoreApplication::processEvents();
    QVERIFY2(side->widget()->minimumSizeHint().width() <= side->viewport()->width(),
             qPrintable(QStringLiteral("%1 > %2").arg(side->widget()->minimumSizeHint().width()).arg(side->viewport()->width())));
    QSignalSpy changed(&document, &ScenarioDocument::scenarioChanged);
    const int finishedDefaults = int(finished.count());
    QTest::mouseClick(view.companionButton(), Qt::LeftButton);
    QCOMPARE(changed.count(), 1);
    QVERIFY(model::toJson(document.scenario()) == setScenario);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() > finishedDefaults && !view.isPredicting(), kTimeoutMs);
    QCOMPARE(cell(view.table(), 0, BenchmarkPredictView::PredictedDecodeColumn), firstPredicted);
    QVERIFY(view.errorLabel()->isHidden());
    QVERIFY(view.companionButton()->isHidden()); // in use

    // A scenario beside the file that does not read: named, and the document's scenario and the points stay.
    QFile csv(measured("trt09-llama2-7b-h100-tp1-fp16.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QByteArray setBytes = csv.readAll();
    writeFile(dir, QStringLiteral("set.v2.scenario.json"), "{\"model\": {\"params\": \"many\"}}");
    QCOMPARE(view.loadBenchmark(writeFile(dir, QStringLiteral("set.v2.csv"), setBytes)), QString());
    QVERIFY(!view.companionButton()->isHidden());
    const QString refused = view.useCompanionScenario();
    QVERIFY2(refused.contains(QStringLiteral("set.v2.scenario.json")) && refused.contains(QStringLiteral("params"))
                 && refused.contains(QStringLiteral("unchanged")),
             qPrintable(refused));
    QCOMPARE(view.errorLabel()->text(), refused);
    QCOMPARE(changed.count(), 1);
    QVERIFY(model::toJson(document.scenario()) == setScenario);
    QCOMPARE(view.table()->rowCount(), 31);
    // A file with none beside it: no button, and asking says so.
    QCOMPARE(view.loadBenchmark(writeFile(dir, QStringLiteral("alone.csv"), setBytes)), QString());
    QVERIFY(view.companionButton()->isHidden());
    QVERIFY(!view.useCompanionScenario().isEmpty());
    QCOMPARE(changed.count(), 1);
    QVERIFY(settle(&view));
}

void TestPredictView::scenarioEditPredictsAgainOnlyWhenVisible()
{
    ScenarioDocument document(scenarioOf("trt09-llama2-7b-h100-tp1-fp16"));
    CalibrationTab tab(&document);
    tab.resize(1500, 900);
    tab.show();
    tab.pages()->setCurrentIndex(CalibrationTab::PredictPage);
    BenchmarkPredictView* view = tab.predictView();
    QSignalSpy finished(view, &BenchmarkPredictView::predictionFinished);
    QCOMPARE(view->loadBenchmark(measured("trt09-llama2-7b-h100-tp1-fp16.csv")), QString());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    const double before = cell(view->table(), 0, BenchmarkPredictView::PredictedDecodeColumn);

    // Visible: an edit of the scenario predicts again after the debounce, on the new scenario.
    const double eta = document.scenario().efficiency.bandwidth;
    document.edit([eta](model::Scenario& s) { s.efficiency.bandwidth = eta / 2; });
    document.evaluateNow();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kTimeoutMs);
    const double after = cell(view->table(), 0, BenchmarkPredictView::PredictedDecodeColumn);
    QVERIFY2(after > before * 1.3, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after))); // half the bandwidth: slower decode

    // Hidden (the fit page in front): an edit starts nothing, not even after the debounce...
    tab.pages()->setCurrentIndex(CalibrationTab::FitPage);
    QVERIFY(!view->isVisible());
    document.edit([eta](model::Scenario& s) { s.efficiency.bandwidth = eta; });
    document.evaluateNow();
    QTest::qWait(3 * BenchmarkPredictView::kDebounceMs);
    QVERIFY(!view->isPredicting());
    QCOMPARE(finished.count(), 2);
    // ...until the page is shown again.
    tab.pages()->setCurrentIndex(CalibrationTab::PredictPage);
    QVERIFY(view->isPredicting());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, kTimeoutMs);
    QCOMPARE(cell(view->table(), 0, BenchmarkPredictView::PredictedDecodeColumn), before); // deterministic

    // Shown again with nothing changed: no new run.
    tab.pages()->setCurrentIndex(CalibrationTab::FitPage);
    tab.pages()->setCurrentIndex(CalibrationTab::PredictPage);
    QVERIFY(!view->isPredicting());
}

void TestPredictView::newerRequestSupersedesAnOlderOne()
{
    ScenarioDocument document(scenarioOf("nim-llama3-8b-h100-tp1-fp16"));
    BenchmarkPredictView view(&document);
    view.resize(1300, 800);
    view.show();
    QSignalSpy finished(&view, &BenchmarkPredictView::predictionFinished);
    QCOMPARE(view.loadBenchmark(measured("nim-llama3-8b-h100-tp1-fp16.csv")), QString());
    QCOMPARE(view.table()->rowCount(), 60);
    // Two more requests while the first runs: only the newest one's result is shown, once.
    view.tokenBudgetSpin()->setValue(2048);
    view.maxSequencesSpin()->setValue(64);
    QVERIFY(view.isPredicting());
    QVERIFY(settle(&view));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(view.options().tokenBudget, 2048);
    QCOMPARE(view.options().maxSequences, 64);
    QVERIFY2(view.statusLabel()->text().contains(QStringLiteral("token budget 2,048, max sequences 64")), qPrintable(view.statusLabel()->text()));

    // What is shown is the prediction with that engine.
    QByteArray bytes;
    QVERIFY(model::readInputFile(measured("nim-llama3-8b-h100-tp1-fp16.csv"), bytes).empty());
    model::BenchmarkFile file;
    QVERIFY(model::readBenchmarkFile(bytes, "nim-llama3-8b-h100-tp1-fp16.csv", file).empty());
    model::BenchmarkOptions options;
    options.tokenBudget = 2048;
    options.maxSequences = 64;
    const std::vector<model::PointPrediction> expected = model::predictBenchmarks(document.evaluatedScenario(), file.points, options);
    for (int row = 0; row < 60; ++row) {
        const int index = int(cell(view.table(), row, BenchmarkPredictView::LabelColumn));
        const auto ttft = model::compareTtft(file.points[size_t(index)], expected[size_t(index)].prediction);
        QVERIFY(ttft);
        QCOMPARE(cell(view.table(), row, BenchmarkPredictView::PredictedTtftColumn), ttft->predictedMs);
    }
    QVERIFY(view.decodePlot()->plot()->xAxis->label().contains(QStringLiteral("concurrency")));
    QCOMPARE(view.decodePlot()->groupCount(), 6);
    QVERIFY(plotsFinite(view.plots()));
}

void TestPredictView::tableSortsByResidual()
{
    ScenarioDocument document(scenarioOf("trt09-llama2-7b-h100-tp1-fp16"));
    BenchmarkPredictView view(&document);
    view.resize(1300, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.loadBenchmark(measured("trt09-llama2-7b-h100-tp1-fp16.csv")), QString());
    QVERIFY(settle(&view));
    QTableWidget* table = view.table();
    // Opened in the file's order.
    for (int row = 0; row < table->rowCount(); ++row)
        QCOMPARE(cell(table, row, BenchmarkPredictView::LabelColumn), double(row));
    // A click on the TTFT residual header sorts by it.
    QHeaderView* header = table->horizontalHeader();
    const int column = BenchmarkPredictView::TtftResidualColumn;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                      QPoint(header->sectionViewportPosition(column) + header->sectionSize(column) / 2, header->height() / 2));
    QCOMPARE(header->sortIndicatorSection(), column);
    std::vector<double> residuals;
    for (int row = 0; row < table->rowCount(); ++row)
        residuals.push_back(cell(table, row, column));
    QCOMPARE(residuals.size(), size_t(31));
    QVERIFY(std::is_sorted(residuals.begin(), residuals.end()) || std::is_sorted(residuals.rbegin(), residuals.rend()));
    QVERIFY(residuals.front() != residuals.back());
}

void TestPredictView::trtllmSchedulerIsSelectable()
{
    // The scheduler list offers what --scheduler does; picking TensorRT-LLM in-flight re-predicts with it.
    const model::Scenario scenario = scenarioOf("nim-llama3-8b-h100-tp1-fp16");
    ScenarioDocument document(scenario);
    CalibrationTab tab(&document);
    tab.resize(1500, 900);
    tab.show();
    tab.pages()->setCurrentIndex(CalibrationTab::PredictPage);
    BenchmarkPredictView* view = tab.predictView();
    QSignalSpy finished(view, &BenchmarkPredictView::predictionFinished);
    const QString path = measured("nim-llama3-8b-h100-tp1-fp16.csv");
    QCOMPARE(view->loadBenchmark(path), QString());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);

    auto* combo = view->findChild<QComboBox*>(QStringLiteral("predictSchedulerCombo"));
    QVERIFY(combo);
    const int trtllm = combo->findData(int(model::SchedulerVersion::TrtllmInflight));
    QVERIFY(trtllm >= 0);
    combo->setFocus();
    while (combo->currentIndex() < trtllm)
        QTest::keyClick(combo, Qt::Key_Down);
    QCOMPARE(combo->currentIndex(), trtllm);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 2 && !view->isPredicting(), kTimeoutMs);

    QByteArray bytes;
    QVERIFY(model::readInputFile(path, bytes).empty());
    model::BenchmarkFile file;
    QVERIFY(model::readBenchmarkFile(bytes, path.toStdString(), file).empty());
    model::BenchmarkOptions options;
    options.scheduler = model::SchedulerVersion::TrtllmInflight;
    const std::vector<model::PointPrediction> expected = model::predictBenchmarks(scenario, file.points, options);
    const QTableWidget* table = view->table();
    QCOMPARE(table->rowCount(), int(expected.size()));
    for (int row = 0; row < table->rowCount(); ++row) {
        const int index = int(cell(table, row, BenchmarkPredictView::LabelColumn));
        const auto ttft = model::compareTtft(file.points[size_t(index)], expected[size_t(index)].prediction);
        QVERIFY(ttft);
        QCOMPARE(cell(table, row, BenchmarkPredictView::MeasuredTtftColumn + 1), ttft->predictedMs);
    }
}

void TestPredictView::scenarioEngineKeysShowAsTheEngineRun()
{
    // serving.scheduler and serving.max_num_tokens replace the page's inputs in model::predictBenchmarks: the status says
    // the budget that ran, and the inputs they replace show the scenario's values, disabled; the user's own values come
    // back when the keys are cleared.
    ScenarioDocument document(scenarioOf("nim-llama3-8b-h100-tp1-fp16"));
    BenchmarkPredictView view(&document);
    view.resize(1300, 800);
    view.show();
    QVERIFY(view.tokenBudgetSpin()->isEnabled());
    QVERIFY(view.schedulerCombo()->isEnabled());
    view.tokenBudgetSpin()->setValue(2048);
    view.schedulerCombo()->setCurrentIndex(view.schedulerCombo()->findData(int(model::SchedulerVersion::V0)));
    QSignalSpy finished(&view, &BenchmarkPredictView::predictionFinished);
    QCOMPARE(view.loadBenchmark(measured("nim-llama3-8b-h100-tp1-fp16.csv")), QString());
    QVERIFY(settle(&view));
    QCOMPARE(finished.count(), 1);
    QVERIFY2(view.statusLabel()->text().contains(QStringLiteral("vLLM V0 scheduler, token budget 2,048,")),
             qPrintable(view.statusLabel()->text()));

    document.edit([](model::Scenario& s) {
        s.serving.maxNumTokens = 4096;
        s.serving.scheduler = model::SchedulerVersion::TrtllmInflight;
    });
    document.evaluateNow();
    QVERIFY(!view.tokenBudgetSpin()->isEnabled());
    QVERIFY(!view.schedulerCombo()->isEnabled());
    QCOMPARE(view.tokenBudgetSpin()->value(), 4096);
    QCOMPARE(view.schedulerCombo()->currentText(), QStringLiteral("TensorRT-LLM in-flight"));
    QVERIFY2(view.tokenBudgetSpin()->toolTip().contains(QStringLiteral("serving.max_num_tokens: 4,096")),
             qPrintable(view.tokenBudgetSpin()->toolTip()));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 2 && !view.isPredicting(), kTimeoutMs);
    const QString status = view.statusLabel()->text();
    QVERIFY2(status.contains(QStringLiteral("TensorRT-LLM in-flight scheduler, token budget 4,096 (the scenario's serving.max_num_tokens)")),
             qPrintable(status));

    // The keys cleared: the inputs are the engine again, with the user's values, and the status names them.
    const int predictions = int(finished.count());
    document.edit([](model::Scenario& s) {
        s.serving.maxNumTokens = 0;
        s.serving.scheduler.reset();
    });
    document.evaluateNow();
    QVERIFY(view.tokenBudgetSpin()->isEnabled());
    QVERIFY(view.schedulerCombo()->isEnabled());
    QCOMPARE(view.tokenBudgetSpin()->value(), 2048);
    QCOMPARE(view.schedulerCombo()->currentText(), QStringLiteral("vLLM V0"));
    QVERIFY(!view.tokenBudgetSpin()->toolTip().contains(QStringLiteral("replaces")));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() > predictions && !view.isPredicting(), kTimeoutMs);
    QVERIFY2(view.statusLabel()->text().contains(QStringLiteral("vLLM V0 scheduler, token budget 2,048,")),
             qPrintable(view.statusLabel()->text()));
}

void TestPredictView::burstsArePlacedAtTheirRequestCount()
{
    // vLLM bench serve at its default request rate (inf) without --max-concurrency sends all N requests at once: each
    // point sits at N on the load axis (it had no place there and the plots were empty), and the points, whose requests
    // sample ShareGPT (per-request lengths that vary), are one series, not one group per sample mean.
    const char* stem = "vllm054-llama3-8b-h100-tp1-bf16";
    const QString path = measured(stem) + QStringLiteral(".json");
    QByteArray bytes;
    QVERIFY(model::readInputFile(path, bytes).empty());
    model::BenchmarkFile file;
    QVERIFY(model::readBenchmarkFile(bytes, path.toStdString(), file).empty());
    QCOMPARE(file.points.size(), size_t(8));
    std::vector<double> requests;
    for (const model::BenchmarkPoint& p : file.points) {
        QVERIFY(p.load == model::BenchmarkLoad::RequestRate && std::isinf(p.requestRatePerSecond) && p.concurrency == 0);
        requests.push_back(double(p.requests));
    }
    std::sort(requests.begin(), requests.end());

    ScenarioDocument document(scenarioOf(stem));
    BenchmarkPredictView view(&document);
    view.resize(1300, 800);
    view.show();
    QCOMPARE(view.loadBenchmark(path), QString());
    QVERIFY(settle(&view));
    QVERIFY(view.hasPrediction());
    for (BenchmarkPredictPlot* plot : {view.decodePlot(), view.ttftPlot()}) {
        QCOMPARE(plot->groupCount(), 1);
        QVERIFY2(plot->measuredGraph(0)->name().startsWith(QStringLiteral("measured, sampled lengths, mean ISL/OSL ")),
                 qPrintable(plot->measuredGraph(0)->name()));
        const auto m = plot->measuredGraph(0)->data();
        const auto p = plot->predictedGraph(0)->data();
        QCOMPARE(m->size(), 8);
        QCOMPARE(p->size(), 8);
        QCOMPARE(plot->residualGraph(0)->data()->size(), 8);
        for (int i = 0; i < 8; ++i)
            QCOMPARE(m->at(i)->key, requests[size_t(i)]);
        QCOMPARE(plot->plot()->xAxis->label(), QStringLiteral("requests sent at once N"));
        QVERIFY(plot->plot()->xAxis->range().contains(requests.front()) && plot->plot()->xAxis->range().contains(requests.back()));
    }
    const QTableWidget* table = view.table();
    QStringList loads;
    for (int row = 0; row < table->rowCount(); ++row)
        loads << table->item(row, BenchmarkPredictView::LoadColumn)->text();
    QVERIFY2(loads.contains(QStringLiteral("N = 1,280")), qPrintable(loads.join(QStringLiteral("; "))));
    for (int row = 0; row < table->rowCount(); ++row)
        QVERIFY(table->item(row, BenchmarkPredictView::LoadColumn)->toolTip().contains(QStringLiteral("sent at once")));
    QVERIFY(plotsFinite(view.plots()));
}

void TestPredictView::windowRendersThePage()
{
    ridgeline::app::MainWindow window(scenarioOf("trt09-llama2-7b-h100-tp1-fp16"));
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ridgeline::views::WhatIfTabs* tabs = window.whatIfTabs();
    tabs->setCurrentIndex(ridgeline::views::WhatIfTabs::CalibrationTab);
    CalibrationTab* tab = tabs->calibrationTab();
    QCOMPARE(tab->pages()->tabText(CalibrationTab::PredictPage), QStringLiteral("Predict a benchmark"));
    tab->pages()->setCurrentIndex(CalibrationTab::PredictPage);
    BenchmarkPredictView* view = tab->predictView();
    QCOMPARE(view->loadBenchmark(measured("trt09-llama2-7b-h100-tp1-fp16.csv")), QString());
    QVERIFY(settle(view));
    QVERIFY(view->hasPrediction());
    window.flushForScreenshot();
    const QImage image = window.grab().toImage();
    QCOMPARE(image.size(), QSize(1600, 1000) * window.devicePixelRatio());
    QVERIFY(image.save(QStringLiteral("/tmp/ridgeline-predict-1600.png"), "PNG"));
    // The predict plots are among the window's what-if plots (themes, contrast checks).
    QVERIFY(tabs->plots().contains(view->decodePlot()->plot()));
    QVERIFY(plotsFinite(view->plots()));
}

QTEST_MAIN(TestPredictView)
#include "tst_predictview.moc"
