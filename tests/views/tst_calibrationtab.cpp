// SPDX-License-Identifier: GPL-3.0-or-later
// Widget test of the Calibration tab (issue 10): the example CSV fitted through the real buttons,
// Apply into the document, a refused CSV keeping the previous points, residuals, vLLM JSON.

#include <cmath>

#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include "app/mainwindow.h"
#include "model/analysis/calibration.h"
#include "model/cost/costterms.h"
#include "model/cost/scenario.h"
#include "views/calibration/calibrationplot.h"
#include "views/calibration/calibrationtab.h"
#include "document/format.h"
#include "document/scenariodocument.h"
#include "views/whatifs/whatifstabs.h"

using ridgeline::views::CalibrationPlot;
using ridgeline::views::CalibrationTab;
using ridgeline::views::ScenarioDocument;
namespace model = ridgeline::model;
namespace format = ridgeline::views::format;

namespace {

bool plotsFinite(const QList<QCustomPlot*>& plots)
{
    for (QCustomPlot* plot : plots) {
        for (int g = 0; g < plot->graphCount(); ++g) {
            const QSharedPointer<QCPGraphDataContainer> data = plot->graph(g)->data();
            for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
                if (!std::isfinite(it->key) || !std::isfinite(it->value))
                    return false;
            }
        }
        for (QCPAxis* axis : plot->axisRect()->axes()) {
            if (!std::isfinite(axis->range().lower) || !std::isfinite(axis->range().upper) || !(axis->range().upper > axis->range().lower))
                return false;
        }
    }
    return true;
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

class TestCalibrationTab final : public QObject {
    Q_OBJECT

private slots:
    void exampleFitFindsTheBandwidthEfficiency();
    void applySetsTheDocument();
    void unknownColumnKeepsThePreviousPoints();
    void residualsOnDemand();
    void vllmJsonImports();
    void hookedIntoWhatIfTabsAndRendersPng();
};

void TestCalibrationTab::exampleFitFindsTheBandwidthEfficiency()
{
    ScenarioDocument document(model::defaultScenario());
    CalibrationTab tab(&document);
    tab.resize(1100, 760);
    tab.show();
    QVERIFY(!tab.fitButton()->isEnabled());
    QVERIFY(!tab.applyButton()->isEnabled());

    QTest::mouseClick(tab.exampleButton(), Qt::LeftButton);
    QCOMPARE(tab.measurements().size(), size_t(10));
    QVERIFY(tab.errorLabel()->isHidden());
    QVERIFY(tab.sourceLabel()->text().contains(QStringLiteral("10 points")));
    // Before a fit: the floor and the points, two contexts on the ITL plot.
    CalibrationPlot* itl = tab.itlPlot();
    QCOMPARE(itl->groupCount(), 2);
    QCOMPARE(itl->groupContext(0), 1024.0);
    QCOMPARE(itl->groupContext(1), 4096.0);
    QCOMPARE(itl->floorGraph(0)->data()->size(), CalibrationPlot::kCurvePoints);
    QCOMPARE(itl->calibratedGraph(0)->data()->size(), 0);
    QCOMPARE(itl->pointsGraph(0)->data()->size(), 5);
    QCOMPARE(tab.ttftPlot()->pointsGraph(0)->data()->size(), 10);

    QTest::mouseClick(tab.fitButton(), Qt::LeftButton);
    QVERIFY(tab.result().has_value());
    const model::CalibrationResult& r = *tab.result();
    QVERIFY(r.bandwidthEfficiency.fitted);
    QVERIFY(r.bandwidthEfficiency.standardError.has_value());
    const double se = *r.bandwidthEfficiency.standardError;
    QVERIFY2(se > 0 && std::abs(r.bandwidthEfficiency.value - 0.72) <= 3 * se,
             qPrintable(QStringLiteral("eta_bw %1 +- %2").arg(r.bandwidthEfficiency.value).arg(se)));
    QVERIFY(r.mfuPrefill.fitted);
    QVERIFY(r.itl.mapeAfter < r.itl.mapeBefore);
    QVERIFY(r.ttft.mapeAfter < 0.05);

    // The tables show it.
    QCOMPARE(tab.coefficientTable()->item(CalibrationTab::BandwidthRow, CalibrationTab::ValueColumn)->text(),
             format::number(r.bandwidthEfficiency.value, 3));
    QCOMPARE(tab.coefficientTable()->item(CalibrationTab::BandwidthRow, CalibrationTab::StandardErrorColumn)->text(),
             format::number(se, 2));
    QCOMPARE(tab.errorTable()->item(CalibrationTab::MapeAfterRow, CalibrationTab::ItlColumn)->text(), format::percent(r.itl.mapeAfter));
    QCOMPARE(tab.errorTable()->item(CalibrationTab::MapeBeforeRow, CalibrationTab::TtftColumn)->text(), format::percent(r.ttft.mapeBefore));
    QCOMPARE(tab.errorTable()->item(CalibrationTab::PointsRow, CalibrationTab::ItlColumn)->text(), format::integer(r.itl.points));
    QVERIFY(!tab.notesLabel()->text().isEmpty());
    QVERIFY(tab.applyButton()->isEnabled());

    // Three layers: the calibrated curve sits inside its band, above the floor, and is the cost model's step.
    QCOMPARE(itl->calibratedGraph(1)->data()->size(), CalibrationPlot::kCurvePoints);
    QCOMPARE(itl->bandLowerGraph(1)->data()->size(), CalibrationPlot::kCurvePoints);
    QCOMPARE(itl->bandUpperGraph(1)->data()->size(), CalibrationPlot::kCurvePoints);
    model::Scenario calibrated = document.evaluatedScenario();
    calibrated.efficiency.bandwidth = r.calibrated.efficiency.bandwidth;
    calibrated.efficiency.stepOverheadSeconds = r.calibrated.efficiency.stepOverheadSeconds;
    calibrated.efficiency.mfuPrefill = r.calibrated.efficiency.mfuPrefill;
    calibrated.efficiency.prefillOverheadSeconds = r.calibrated.efficiency.prefillOverheadSeconds;
    const model::CostTerms terms = model::costTerms(calibrated);
    for (int i = 0; i < CalibrationPlot::kCurvePoints; i += 12) {
        const double batch = itl->calibratedGraph(1)->data()->at(i)->key;
        const double curve = itl->calibratedGraph(1)->data()->at(i)->value;
        QVERIFY(std::abs(curve - terms.stepSeconds(batch, 4096) * 1e3) <= 1e-9 * curve);
        QVERIFY(itl->bandLowerGraph(1)->data()->at(i)->value <= curve + 1e-12);
        QVERIFY(itl->bandUpperGraph(1)->data()->at(i)->value >= curve - 1e-12);
        QVERIFY(itl->floorGraph(1)->data()->at(i)->value < curve);
    }
    QVERIFY(itl->takeaway().contains(format::number(r.bandwidthEfficiency.value, 3)));
    QVERIFY(plotsFinite(tab.plots()));
}

void TestCalibrationTab::applySetsTheDocument()
{
    ScenarioDocument document(model::defaultScenario());
    CalibrationTab tab(&document);
    tab.show();
    QCOMPARE(tab.loadMeasurements(CalibrationTab::examplePath()), QString());
    QCOMPARE(tab.fit(), QString());
    const model::CalibrationResult r = *tab.result();

    QSignalSpy changed(&document, &ScenarioDocument::scenarioChanged);
    QSignalSpy evaluated(&document, &ScenarioDocument::evaluated);
    QTest::mouseClick(tab.applyButton(), Qt::LeftButton);
    QCOMPARE(changed.count(), 1); // one edit
    const model::Efficiency& e = document.scenario().efficiency;
    QCOMPARE(e.bandwidth, r.calibrated.efficiency.bandwidth);
    QCOMPARE(e.bandwidth, std::min(1.0, r.bandwidthEfficiency.value));
    QCOMPARE(e.stepOverheadSeconds, r.stepOverheadMs.value / 1e3);
    QCOMPARE(e.mfuPrefill, r.calibrated.efficiency.mfuPrefill);
    QCOMPARE(e.prefillOverheadSeconds, r.prefillOverheadMs.value / 1e3);
    QCOMPARE(e.mfuDecode, 1.0); // not a calibrated key: untouched
    QVERIFY(evaluated.wait(2000));
    QCOMPARE(tab.coefficientTable()->item(CalibrationTab::BandwidthRow, CalibrationTab::ScenarioColumn)->text(),
             format::number(e.bandwidth));
    QVERIFY(tab.applyButton()->toolTip().contains(QStringLiteral("same\nhardware")));
}

void TestCalibrationTab::unknownColumnKeepsThePreviousPoints()
{
    ScenarioDocument document(model::defaultScenario());
    CalibrationTab tab(&document);
    tab.show();
    QCOMPARE(tab.loadMeasurements(CalibrationTab::examplePath()), QString());
    QCOMPARE(tab.fit(), QString());
    const double eta = tab.result()->bandwidthEfficiency.value;

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = writeFile(dir, QStringLiteral("odd.csv"), "batch,context_tokens,power_w,itl_ms\n1,1024,300,8.3\n");
    const QString message = tab.loadMeasurements(path);
    QVERIFY2(message.contains(QStringLiteral("power_w")), qPrintable(message));
    QVERIFY(message.contains(QStringLiteral("odd.csv")));
    QVERIFY(!tab.errorLabel()->isHidden());
    // The window says the previous points stay; the returned message, which the command line prints, speaks of no
    // window state (found by the adversarial trial: --export --calibrate printed "The previous points are kept.").
    QCOMPARE(tab.errorLabel()->text(), message + QStringLiteral(" The previous points are kept."));
    QVERIFY2(!message.contains(QStringLiteral("kept")), qPrintable(message));
    QCOMPARE(tab.measurements().size(), size_t(10));
    QVERIFY(tab.result().has_value());
    QCOMPARE(tab.result()->bandwidthEfficiency.value, eta);
    QCOMPARE(tab.itlPlot()->pointsGraph(0)->data()->size(), 5);

    // An unknown unit too.
    const QString furlongs = writeFile(dir, QStringLiteral("units.csv"), "batch,context_tokens,itl (fortnights)\n1,1024,8.3\n");
    QVERIFY(tab.loadMeasurements(furlongs).contains(QStringLiteral("itl_fortnights")));
    QCOMPARE(tab.measurements().size(), size_t(10));
}

void TestCalibrationTab::residualsOnDemand()
{
    ScenarioDocument document(model::defaultScenario());
    CalibrationTab tab(&document);
    tab.resize(1100, 760);
    tab.show();
    QVERIFY(!tab.itlPlot()->residualsVisible());
    QCOMPARE(tab.loadMeasurements(CalibrationTab::examplePath()), QString());
    QCOMPARE(tab.fit(), QString());
    QTest::mouseClick(tab.residualsCheckBox(), Qt::LeftButton, {}, QPoint(8, tab.residualsCheckBox()->height() / 2));
    QVERIFY(tab.residualsCheckBox()->isChecked());
    QVERIFY(tab.itlPlot()->residualsVisible());
    QVERIFY(tab.ttftPlot()->residualPlot()->isVisible());
    // Relative residuals of the example (1 % noise) against the fit: small, one per point.
    int count = 0;
    for (int g = 0; g < tab.itlPlot()->groupCount(); ++g) {
        const auto data = tab.itlPlot()->residualGraph(g)->data();
        count += data->size();
        for (auto it = data->constBegin(); it != data->constEnd(); ++it)
            QVERIFY2(std::abs(it->value) < 5.0, qPrintable(QString::number(it->value)));
    }
    QCOMPARE(count, 10);
    QTest::mouseClick(tab.residualsCheckBox(), Qt::LeftButton, {}, QPoint(8, tab.residualsCheckBox()->height() / 2));
    QVERIFY(!tab.itlPlot()->residualsVisible());
    QVERIFY(plotsFinite(tab.plots()));
}

void TestCalibrationTab::vllmJsonImports()
{
    ScenarioDocument document(model::defaultScenario());
    CalibrationTab tab(&document);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = writeFile(dir, QStringLiteral("bench.json"),
                                   R"([{"completed": 100, "total_input_tokens": 102400, "total_output_tokens": 12800,
                                        "max_concurrency": 8, "mean_tpot_ms": 9.1, "median_ttft_ms": 60.0},
                                       {"completed": 100, "total_input_tokens": 102400, "total_output_tokens": 12800,
                                        "max_concurrency": 64, "mean_tpot_ms": 14.2, "median_ttft_ms": 75.0}])");
    QCOMPARE(tab.loadMeasurements(path), QString());
    QCOMPARE(tab.measurements().size(), size_t(2));
    QCOMPARE(tab.measurements()[1].batch, 64.0);
    QCOMPARE(tab.itlPlot()->groupCount(), 1);
    QCOMPARE(tab.fit(), QString());

    // A benchmark without max_concurrency is refused with the parser's message.
    const QString bad = writeFile(dir, QStringLiteral("nobatch.json"),
                                  R"({"completed": 10, "total_input_tokens": 100, "total_output_tokens": 100, "mean_tpot_ms": 9})");
    QVERIFY(tab.loadMeasurements(bad).contains(QStringLiteral("max_concurrency")));
    QCOMPARE(tab.measurements().size(), size_t(2));
}

void TestCalibrationTab::hookedIntoWhatIfTabsAndRendersPng()
{
    ridgeline::app::MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    ridgeline::views::WhatIfTabs* tabs = window.whatIfTabs();
    QCOMPARE(tabs->tabText(ridgeline::views::WhatIfTabs::CalibrationTab), QStringLiteral("Calibration"));
    CalibrationTab* tab = tabs->calibrationTab();
    QVERIFY(tab);
    tabs->setCurrentIndex(ridgeline::views::WhatIfTabs::CalibrationTab);
    QCOMPARE(tab->loadMeasurements(CalibrationTab::examplePath()), QString());
    QCOMPARE(tab->fit(), QString());
    tab->residualsCheckBox()->setChecked(true);
    window.flushForScreenshot();
    const QImage image = window.grab().toImage();
    QCOMPARE(image.size(), QSize(1280, 800));
    QVERIFY(image.save(QStringLiteral("/tmp/ridgeline-calibration-1280.png"), "PNG"));

    // Apply through the window's document: the scenario the other tabs see changes.
    QVERIFY(tab->applyToScenario());
    window.document()->evaluateNow();
    QCOMPARE(window.document()->evaluatedScenario().efficiency.bandwidth, tab->result()->calibrated.efficiency.bandwidth);
    window.resize(1600, 1000);
    window.flushForScreenshot();
    QVERIFY(window.grab().toImage().save(QStringLiteral("/tmp/ridgeline-calibration-1600.png"), "PNG"));
    QVERIFY(plotsFinite(tab->plots()));
}

QTEST_MAIN(TestCalibrationTab)
#include "tst_calibrationtab.moc"
