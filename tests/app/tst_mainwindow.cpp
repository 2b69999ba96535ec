// SPDX-License-Identifier: GPL-3.0-or-later
// Widget test of the main window: real key events on real widgets, assertions on document
// signals, plot data and label text (compared with model::evaluate, not hard-coded answers).

#include <algorithm>
#include <cmath>
#include <memory>
#include <typeinfo>
#include <vector>

#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFontInfo>
#include <QGlyphRun>
#include <QTextLayout>
#include <QHash>
#include <QLabel>
#include <QLocale>
#include <QPaintEvent>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QPointer>
#include <QScreen>
#include <QSet>
#include <QSignalSpy>
#include <QSlider>
#include <QGroupBox>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
#include <QToolButton>
#include <QAction>

#include <qcustomplot.h>

#include "app/mainwindow.h"
#include "app/presentation.h"
#include "model/analysis/operatingeconomics.h"
#include "model/cost/costmodel.h"
#include "model/cost/efficiencypresets.h"
#include "model/cost/family.h"
#include "model/cost/scenario.h"
#include "views/controls/controlspanel.h"
#include "views/floors/decodeplot.h"
#include "views/floors/headlinefigures.h"
#include "document/format.h"
#include "views/whatifs/kvfitplot.h"
#include "views/floors/kvshareplot.h"
#include "views/floors/numberspanel.h"
#include "views/kit/accessibility.h"
#include "views/kit/card.h"
#include "views/kit/groundfill.h"
#include "views/kit/inlineblend.h"
#include "views/kit/plainlabel.h"
#include "views/kit/plotdamage.h"
#include "views/kit/plotpanel.h"
#include "views/kit/theme.h"
#include "views/kit/valueslider.h"
#include "views/floors/prefillplot.h"
#include "document/scenariodocument.h"
#include "document/scenariohistory.h"
#include <QUndoStack>
#include "views/simulation/simulationtab.h"
#include "views/floors/sloplot.h"
#include "views/whatifs/comparisontable.h"
#include "views/whatifs/whatifstabs.h"

using ridgeline::app::MainWindow;
using ridgeline::views::ScenarioDocument;
namespace model = ridgeline::model;
namespace format = ridgeline::views::format;

namespace {

/** Resizes @p window to @p size, shows it, waits until it is exposed and lets three passes of events settle its
 *  first paint (the set-up most tests here start from). False: the window was never exposed. */
bool showSettled(QWidget& window, QSize size)
{
    window.resize(size);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    for (int pass = 0; pass < 3; ++pass)
        QCoreApplication::processEvents();
    return true;
}

/** Every (key, value) of every graph of every plot, for before/after comparisons. */
QList<QList<QPair<double, double>>> plotData(const MainWindow& window)
{
    QList<QList<QPair<double, double>>> out;
    for (QCustomPlot* plot : window.plots()) {
        for (int g = 0; g < plot->graphCount(); ++g) {
            QList<QPair<double, double>> points;
            const QSharedPointer<QCPGraphDataContainer> data = plot->graph(g)->data();
            for (auto it = data->constBegin(); it != data->constEnd(); ++it)
                points.append({it->key, it->value});
            out.append(points);
        }
    }
    return out;
}

/** True when no graph holds a non-finite key, and values are finite or deliberate gaps (none expected here). */
bool allFinite(const QList<QList<QPair<double, double>>>& data)
{
    for (const auto& graph : data) {
        for (const auto& point : graph) {
            if (!std::isfinite(point.first) || !std::isfinite(point.second))
                return false;
        }
    }
    return true;
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

} // namespace

class TestMainWindow final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void scrollBarsAreDrawnInStrips();
    void batchKeysMoveEveryView();
    void invalidArchitectureShowsBanner();
    void burstOfEditsEvaluatesOnce();
    void timedBurstIsThrottledToFrames();
    void presetsAndCustomMarker();
    void efficiencyPresetSetsEveryEfficiency();
    void renderWindowPng();
    void prefillSkipsStepsThatLeaveItsInputs();
    void floorPlotsSkipStepsThatLeaveTheirInputs();
    void whatIfPlotsSkipStepsThatLeaveTheirInputs();
    void hiddenTabsAreBuiltOnFirstShow();
    void collapsedFieldsAreBuiltOnFirstOpen();
    void firstFrameHasNoStyleSheet();
    void rowNamesMeasuredOnceAsQLabel();
    void plainLabelDrawsAsQLabel();
    void numbersMakeTheirTextControlOnFirstUse();
    void startUpClearsNoNewDocumentAndMeasuresEachFontOnce();
    void presetCombosBuildTheirPopupOnFirstUse();
    void startUpPaintsTheWindowInOnePass();
    void everyTabLooksAsUnderThePaneStyleSheet_data();
    void everyTabLooksAsUnderThePaneStyleSheet();
    void startUpReplotsEachFloorPlotOnce();
    void hiddenWindowSendsNoLayoutRequestAndBuildsNoComparison();
    void accessibleNamesFollowTheFirstPaint();
    void batchStepRepaintsTheSummaryAlone();
    void sliderStepsFillTheControlsGroundExactly();
    void plainLabelRepaintsOnlyItsChangedGlyphs();
    void sliderStepsRepaintWhatTheirItemsMoved();
    void modelSizeStepReplotsOnceAndLaysOutNoControls();
    void numbersRewrapRepaintsNoRowAbove();
    void sliderStepsLayOutNothing();
    void sliderStepsParseNoText();
    void sliderStepsShapeNoTitleHeading();
    void peakFlopsSweepLeavesTheControlsAsAFreshWindow();
    void tabBuiltInPresentationLooksAsOneBuiltBefore();
    void comparisonBuiltInPresentationLooksAsOneBuiltBefore();
    void economicsFollowThePriceBox();
    void costPerOutputTokenSaysWhichShare();
    void longCurrencyKeepsTheDockWidth();
};

void TestMainWindow::initTestCase()
{
    // The window reads the user's catalogue from AppDataLocation: use the test location.
    QStandardPaths::setTestModeEnabled(true);
}

void TestMainWindow::batchKeysMoveEveryView()
{
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    ScenarioDocument* document = window.document();
    QCOMPARE(document->scenario().workload.batch, 1);

    auto* slider = window.findChild<QSlider*>(QStringLiteral("batchSlider"));
    QVERIFY(slider);
    auto* stepTitle = window.findChild<QLabel*>(QStringLiteral("sloTitle"));
    auto* decodeTitle = window.findChild<QLabel*>(QStringLiteral("decodeTitle"));
    auto* stepNumber = window.numbersPanel()->valueLabel(QStringLiteral("step"));
    QVERIFY(stepTitle && decodeTitle && stepNumber);
    const QString sloTitleBefore = stepTitle->text();
    const QString decodeTitleBefore = decodeTitle->text();
    const QString stepNumberBefore = stepNumber->text();

    QSignalSpy evaluated(document, &ScenarioDocument::evaluated);
    QSignalSpy changed(document, &ScenarioDocument::scenarioChanged);

    // Page Up: one decade on the log slider, 1 -> 10.
    slider->setFocus();
    QTest::keyClick(slider, Qt::Key_PageUp);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(evaluated.count(), 0); // coalesced: evaluated on the next event-loop pass
    QTRY_COMPARE(evaluated.count(), 1);
    QCOMPARE(document->scenario().workload.batch, 10);

    const model::Evaluation expected = model::evaluate(document->scenario());
    const double expectedStepMs = expected.decode.stepSeconds * 1e3;
    QCPGraph* marker = window.sloPanel()->currentMarker();
    QCOMPARE(marker->data()->size(), 1);
    QCOMPARE(marker->data()->constBegin()->key, 10.0);
    QVERIFY(near(marker->data()->constBegin()->value, expectedStepMs));
    QCPGraph* decodeMarker = window.decodePanel()->currentMarker();
    QCOMPARE(decodeMarker->data()->constBegin()->key, 10.0);

    const QString stepText = format::milliseconds(expectedStepMs);
    QVERIFY(stepTitle->text() != sloTitleBefore);
    QVERIFY2(stepTitle->text().contains(QStringLiteral("B = 10")), qPrintable(stepTitle->text()));
    QVERIFY2(stepTitle->text().contains(stepText), qPrintable(stepTitle->text() + QStringLiteral(" / ") + stepText));
    QVERIFY(decodeTitle->text() != decodeTitleBefore);
    QVERIFY2(decodeTitle->text().contains(stepText), qPrintable(decodeTitle->text()));
    QVERIFY(stepNumber->text() != stepNumberBefore);
    QVERIFY2(stepNumber->text().contains(stepText), qPrintable(stepNumber->text()));
    QVERIFY(window.numbersPanel()->valueLabel(QStringLiteral("total"))->text()
                .contains(format::tokensPerSecond(expected.decode.tokensPerSecondTotal)));

    // The bar of the read, updated in place (still one value per part).
    QCOMPARE(window.kvSharePanel()->barCount(), 1);
    QCOMPARE(window.kvSharePanel()->kvBars()->data()->size(), 1);
    QVERIFY(near(window.kvSharePanel()->kvGb(0), expected.decode.kvBytes / 1e9));
    QVERIFY(near(window.kvSharePanel()->weightsGb(0), expected.decode.weightBytes / 1e9));

    // Arrow right: a nudge of at least one whole sequence, 10 -> 11.
    QTest::keyClick(slider, Qt::Key_Right);
    QTRY_COMPARE(evaluated.count(), 2);
    QCOMPARE(document->scenario().workload.batch, 11);
    QCOMPARE(window.sloPanel()->currentMarker()->data()->constBegin()->key, 11.0);
    const model::Evaluation expected11 = model::evaluate(document->scenario());
    QVERIFY(stepNumber->text().contains(format::milliseconds(expected11.decode.stepSeconds * 1e3)));

    // The spin box beside the slider follows.
    auto* spin = window.findChild<QDoubleSpinBox*>(QStringLiteral("batchSpinBox"));
    QVERIFY(spin);
    QCOMPARE(spin->value(), 11.0);

    // Page Down from 11 goes back one decade to about 1.
    QTest::keyClick(slider, Qt::Key_PageDown);
    QTRY_COMPARE(evaluated.count(), 3);
    QCOMPARE(document->scenario().workload.batch, 1);

    // The spin box's up arrow also moves by at least one whole sequence: 1 -> 2.
    spin->setFocus();
    QTest::keyClick(spin, Qt::Key_Up);
    QTRY_COMPARE(evaluated.count(), 4);
    QCOMPARE(document->scenario().workload.batch, 2);
    QCOMPARE(slider->value(), 15); // round(50 * log10(2)) on the 50-positions-per-decade scale
}

void TestMainWindow::invalidArchitectureShowsBanner()
{
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    QLabel* banner = window.errorBanner();
    QVERIFY(banner);
    QVERIFY(!banner->isVisible());

    auto* toggle = window.findChild<QToolButton*>(QStringLiteral("architectureToggle"));
    QVERIFY(toggle);
    toggle->click();
    auto* heads = window.findChild<QSpinBox*>(QStringLiteral("headsSpinBox"));
    QVERIFY(heads);
    QVERIFY(heads->isVisible());
    QCOMPARE(heads->value(), 32);

    const auto before = plotData(window);
    QVERIFY(allFinite(before));
    const int evaluationsBefore = document->evaluationCount();
    const QString titleBefore = window.sloPanel()->titleLabel()->text();
    QSignalSpy invalid(document, &ScenarioDocument::invalidChanged);
    QSignalSpy evaluated(document, &ScenarioDocument::evaluated);

    // H = 33 with H_kv = 8: 8 does not divide 33. Typed, then committed with Enter.
    heads->setFocus();
    QTest::keyClick(heads, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(heads, QStringLiteral("33"));
    QTest::keyClick(heads, Qt::Key_Return);
    QCOMPARE(document->scenario().model.heads, 33);
    QTRY_COMPARE(invalid.count(), 1);
    QVERIFY(!invalid.first().first().toString().isEmpty());
    QCOMPARE(evaluated.count(), 0);
    QCOMPARE(document->evaluationCount(), evaluationsBefore);
    QVERIFY(!document->errorText().isEmpty());
    QVERIFY(banner->isVisible());
    QVERIFY2(banner->text().contains(QStringLiteral("33")), qPrintable(banner->text()));

    // The plots keep the last valid evaluation: data unchanged and finite.
    const auto after = plotData(window);
    QVERIFY(after == before);
    QVERIFY(allFinite(after));
    QCOMPARE(window.sloPanel()->titleLabel()->text(), titleBefore);
    QCOMPARE(document->evaluatedScenario().model.heads, 32);

    // Back to 32: valid again, banner gone, evaluated once more.
    QTest::keyClick(heads, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(heads, QStringLiteral("32"));
    QTest::keyClick(heads, Qt::Key_Return);
    QTRY_COMPARE(evaluated.count(), 1);
    QCOMPARE(invalid.count(), 2);
    QVERIFY(invalid.last().first().toString().isEmpty());
    QVERIFY(!banner->isVisible());
    QVERIFY(document->errorText().isEmpty());

    // A zero efficiency, which validate() rejects, never gets into the scenario: the box's range is
    // (0, 1] (issue 17), so the typed 0 is refused and the value stays; no banner, data unchanged.
    auto* eta = window.findChild<QDoubleSpinBox*>(QStringLiteral("bandwidthEfficiencySpinBox"));
    QVERIFY(eta);
    const double etaBefore = document->scenario().efficiency.bandwidth;
    const auto beforeEta = plotData(window);
    eta->setFocus();
    QTest::keyClick(eta, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(eta, QStringLiteral("0"));
    QTest::keyClick(eta, Qt::Key_Return);
    eta->clearFocus();
    QCOMPARE(document->scenario().efficiency.bandwidth, etaBefore);
    QVERIFY(document->errorText().isEmpty());
    QVERIFY(!banner->isVisible());
    QVERIFY(plotData(window) == beforeEta);
    QVERIFY(allFinite(plotData(window)));
}

void TestMainWindow::burstOfEditsEvaluatesOnce()
{
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    auto* slider = window.findChild<QSlider*>(QStringLiteral("batchSlider"));
    QVERIFY(slider);
    QTRY_VERIFY(!document->isEvaluationPending());
    const int before = document->evaluationCount();
    QSignalSpy evaluated(document, &ScenarioDocument::evaluated);
    QSignalSpy changed(document, &ScenarioDocument::scenarioChanged);

    // 100 slider moves inside one event-loop pass.
    int lastPosition = 0;
    for (int i = 1; i <= 100; ++i) {
        lastPosition = 1 + (i * 7) % slider->maximum();
        slider->setValue(lastPosition);
    }
    QVERIFY(changed.count() >= 90); // consecutive positions can map to the same whole batch
    QCOMPARE(document->evaluationCount(), before);
    QTRY_COMPARE(evaluated.count(), 1);
    QTest::qWait(50);
    QCOMPARE(evaluated.count(), 1);
    QCOMPARE(document->evaluationCount(), before + 1);

    // The one evaluation is of the final scenario.
    const int batch = document->scenario().workload.batch;
    QCOMPARE(document->evaluatedScenario().workload.batch, batch);
    QCOMPARE(window.sloPanel()->currentMarker()->data()->constBegin()->key, double(batch));
}

void TestMainWindow::timedBurstIsThrottledToFrames()
{
    // Edits arriving faster than the screen refreshes (a 1 kHz mouse) are evaluated at most once
    // per ScenarioDocument::minimumInterval(): leading edge at once, then the latest value on the
    // trailing edge, so the window ends on the last value without a backlog. Structural: the bound
    // is the elapsed time divided by the interval, whatever the machine's speed.
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ScenarioDocument* document = window.document();
    QCOMPARE(document->minimumInterval(), ScenarioDocument::kDefaultMinimumIntervalMs);
    auto* slider = window.findChild<QSlider*>(QStringLiteral("batchSlider"));
    QVERIFY(slider);
    QTRY_VERIFY(!document->isEvaluationPending());
    QElapsedTimer clock;
    clock.start();
    const int before = document->evaluationCount();
    const int edits = 200;
    for (int i = 0; i < edits; ++i) {
        slider->setSliderPosition(slider->minimum() + (i * 7) % (slider->maximum() - slider->minimum() + 1));
        QTest::qWait(1);
    }
    const int lastPosition = slider->value();
    QTRY_VERIFY(!document->isEvaluationPending());
    const qint64 elapsedMs = clock.elapsed();
    const int evaluations = document->evaluationCount() - before;
    QVERIFY2(evaluations >= 2, qPrintable(QString::number(evaluations)));
    QVERIFY2(evaluations <= elapsedMs / ScenarioDocument::kDefaultMinimumIntervalMs + 2,
             qPrintable(QStringLiteral("%1 evaluations in %2 ms").arg(evaluations).arg(elapsedMs)));
    QCOMPARE(slider->value(), lastPosition);
    QCOMPARE(document->evaluatedScenario().workload.batch, document->scenario().workload.batch);
    QCOMPARE(window.sloPanel()->currentMarker()->data()->constBegin()->key, double(document->scenario().workload.batch));
}

void TestMainWindow::efficiencyPresetSetsEveryEfficiency()
{
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    QComboBox* combo = window.controlsPanel()->efficiencyPresetCombo();
    QVERIFY(combo);
    QCOMPARE(combo->count(), int(model::efficiencyPresets().size()) + 1);
    const model::EfficiencyPreset& preset = model::efficiencyPresets().front();
    QVERIFY(combo->itemData(1, Qt::ToolTipRole).toString().contains(QString::fromStdString(preset.source)));

    // The keyboard picks the first preset, as a user would: every coefficient lands in the scenario.
    combo->setFocus();
    QTest::keyClick(combo, Qt::Key_Down);
    const model::Efficiency& e = document->scenario().efficiency;
    QCOMPARE(e.bandwidth, preset.efficiency.bandwidth);
    QCOMPARE(e.mfuPrefill, preset.efficiency.mfuPrefill);
    QCOMPARE(e.mfuDecode, preset.efficiency.mfuDecode);
    QCOMPARE(e.stepOverheadSeconds, preset.efficiency.stepOverheadSeconds);
    QCOMPARE(e.prefillOverheadSeconds, preset.efficiency.prefillOverheadSeconds);
    QCOMPARE(e.kvBandwidth, preset.efficiency.kvBandwidth);
    QCOMPARE(e.perSequenceOverheadSeconds, preset.efficiency.perSequenceOverheadSeconds);
    QCOMPARE(combo->currentIndex(), 0); // a command: the spin boxes, not the combo, show the state
    auto* mfu = window.findChild<QDoubleSpinBox*>(QStringLiteral("mfuPrefillSpinBox"));
    QVERIFY(mfu);
    QTRY_COMPARE(mfu->value(), std::round(preset.efficiency.mfuPrefill * std::pow(10, mfu->decimals())) / std::pow(10, mfu->decimals()));
    QTRY_VERIFY(!document->isEvaluationPending());
    QVERIFY(document->errorText().isEmpty());
}

void TestMainWindow::presetsAndCustomMarker()
{
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    QComboBox* modelCombo = window.controlsPanel()->modelPresetCombo();
    QVERIFY(modelCombo->currentText().contains(QStringLiteral("8B")));

    // Moving N away from the preset shows the custom entry and applies the family rule.
    auto* sizeSlider = window.findChild<QSlider*>(QStringLiteral("modelSizeSlider"));
    QVERIFY(sizeSlider);
    QTest::keyClick(sizeSlider, Qt::Key_PageUp);
    QCOMPARE(modelCombo->currentIndex(), modelCombo->count() - 1);
    QVERIFY(document->scenario().model.params > 50e9);
    QCOMPARE(document->scenario().model.heads % document->scenario().model.kvHeads, 0);
    QTRY_VERIFY(!document->isEvaluationPending());
    QVERIFY(document->errorText().isEmpty());

    // GQA slider steps through divisors of H only.
    auto* kvSlider = window.findChild<QSlider*>(QStringLiteral("kvHeadsSlider"));
    QVERIFY(kvSlider);
    for (int i = 0; i < 3; ++i) {
        QTest::keyClick(kvSlider, Qt::Key_Right);
        const model::ModelShape& shape = document->scenario().model;
        QCOMPARE(shape.heads % shape.kvHeads, 0);
    }
}

void TestMainWindow::renderWindowPng()
{
    for (const QSize size : {QSize(1600, 1000), QSize(1280, 800)}) {
        MainWindow window(model::defaultScenario());
        window.resize(size);
        window.show();
        window.flushForScreenshot();
        const QImage image = window.grab().toImage();
        QVERIFY(!image.isNull());
        const QString path = size.width() == 1600 ? QStringLiteral("/tmp/ridgeline-window.png")
                                                  : QStringLiteral("/tmp/ridgeline-window-1280.png");
        QVERIFY(image.save(path, "PNG"));
        for (QCustomPlot* plot : window.plots()) {
            for (QCPAxis* axis : plot->axisRect()->axes()) {
                QVERIFY(std::isfinite(axis->range().lower));
                QVERIFY(std::isfinite(axis->range().upper));
                QVERIFY(axis->range().upper > axis->range().lower);
            }
        }
    }
}

/** Issue 16: the prefill plot does not depend on the batch or the context; a step of either must not
 *  redraw it, and what it shows must still be what a fresh window shows for the same scenario. */
void TestMainWindow::prefillSkipsStepsThatLeaveItsInputs()
{
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    QTRY_VERIFY(!document->isEvaluationPending());
    ridgeline::views::PrefillPlot* prefill = window.prefillPanel();
    QSignalSpy prefillReplots(prefill->plot(), &QCustomPlot::afterReplot);
    QSignalSpy decodeReplots(window.decodePanel()->plot(), &QCustomPlot::afterReplot);
    const long long redraws = prefill->redrawCount();

    auto step = [&](auto change) {
        document->edit(change);
        document->evaluateNow();
        QCoreApplication::processEvents();
    };
    step([](model::Scenario& s) { s.workload.batch *= 4; });
    step([](model::Scenario& s) { s.workload.contextTokens *= 2; });
    QVERIFY(decodeReplots.count() >= 2); // the others follow every step
    QCOMPARE(prefill->redrawCount(), redraws);
    QCOMPARE(prefillReplots.count(), 0);

    // A prompt step redraws it, and it shows what a fresh window shows.
    step([](model::Scenario& s) { s.workload.promptTokens = 4096; });
    QCOMPARE(prefill->redrawCount(), redraws + 1);
    QCOMPARE(prefillReplots.count(), 1);
    MainWindow fresh(document->scenario());
    QCOMPARE(prefill->takeaway(), fresh.prefillPanel()->takeaway());
    QCOMPARE(prefill->plot()->yAxis->range().lower, fresh.prefillPanel()->plot()->yAxis->range().lower);
    QCOMPARE(prefill->plot()->yAxis->range().upper, fresh.prefillPanel()->plot()->yAxis->range().upper);

    // Baseline A (eight times the layers: eight times the prefill work) widened the axis; once
    // cleared, the next step narrows it again, batch step or not.
    model::Scenario large = document->scenario();
    large.model.layers *= 8;
    const model::Scenario current = document->scenario();
    document->setScenario(large);
    document->evaluateNow();
    window.pinBaseline();
    document->setScenario(current);
    document->evaluateNow();
    QCoreApplication::processEvents();
    const QCPRange widened = prefill->plot()->yAxis->range();
    QCOMPARE(document->evaluatedScenario().model.layers, current.model.layers);
    window.clearBaseline();
    step([](model::Scenario& s) { s.workload.batch += 1; });
    MainWindow fresh2(document->scenario());
    QVERIFY(widened != fresh2.prefillPanel()->plot()->yAxis->range());
    QCOMPARE(prefill->plot()->yAxis->range().lower, fresh2.prefillPanel()->plot()->yAxis->range().lower);
    QCOMPARE(prefill->plot()->yAxis->range().upper, fresh2.prefillPanel()->plot()->yAxis->range().upper);

    // A theme refresh (refreshAll) redraws whatever the inputs.
    const long long beforeAll = prefill->redrawCount();
    window.refreshAll();
    QCOMPARE(prefill->redrawCount(), beforeAll + 1);
}

namespace {

/** Every point of every graph of @p plot, and its axes' ranges: what a redraw leaves drawn. */
QList<double> drawnData(QCustomPlot* plot)
{
    QList<double> out;
    for (int g = 0; g < plot->graphCount(); ++g)
        for (auto it = plot->graph(g)->data()->constBegin(); it != plot->graph(g)->data()->constEnd(); ++it)
            out << it->key << it->value;
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis, plot->xAxis2, plot->yAxis2})
        out << axis->range().lower << axis->range().upper;
    return out;
}

} // namespace

void TestMainWindow::floorPlotsSkipStepsThatLeaveTheirInputs()
{
    // Issue 16: the KV share plot does not read the bandwidth or the peak, the decode floor does
    // not read the prompt; steps of those leave them undrawn, and a step of what they read redraws
    // them as a fresh window draws them.
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    QTRY_VERIFY(!document->isEvaluationPending());
    ridgeline::views::KvSharePlot* kvShare = window.kvSharePanel();
    ridgeline::views::DecodePlot* decode = window.decodePanel();
    QSignalSpy kvShareReplots(kvShare->plot(), &QCustomPlot::afterReplot);
    QSignalSpy decodeReplots(decode->plot(), &QCustomPlot::afterReplot);
    QSignalSpy sloReplots(window.sloPanel()->plot(), &QCustomPlot::afterReplot);
    const long long kvShareRedraws = kvShare->redrawCount();
    const long long decodeRedraws = decode->redrawCount();
    auto step = [&](auto change) {
        document->edit(change);
        document->evaluateNow();
        QCoreApplication::processEvents();
    };

    step([](model::Scenario& s) { s.hardware.bandwidthBytesPerSecond *= 1.5; });
    step([](model::Scenario& s) { s.hardware.peakFlopsPerSecond *= 0.5; });
    QVERIFY(sloReplots.count() >= 2); // the plots that read them follow every step
    QCOMPARE(kvShare->redrawCount(), kvShareRedraws);
    QCOMPARE(kvShareReplots.count(), 0);
    const long long decodeAfterHardware = decode->redrawCount();
    QCOMPARE(decodeAfterHardware, decodeRedraws + 2);

    step([](model::Scenario& s) { s.workload.promptTokens = 3000; });
    QCOMPARE(decode->redrawCount(), decodeAfterHardware);
    QCOMPARE(decodeReplots.count(), 2);

    // A context step redraws the KV share, a batch step the decode floor: as a fresh window draws them.
    step([](model::Scenario& s) { s.workload.contextTokens *= 2; });
    step([](model::Scenario& s) { s.workload.batch = 48; });
    QCOMPARE(kvShare->redrawCount(), kvShareRedraws + 2); // both read S and B
    QCOMPARE(decode->redrawCount(), decodeAfterHardware + 2);
    MainWindow fresh(document->scenario());
    fresh.show();
    QTRY_VERIFY(!fresh.document()->isEvaluationPending());
    QCOMPARE(kvShare->takeaway(), fresh.kvSharePanel()->takeaway());
    QCOMPARE(drawnData(kvShare->plot()), drawnData(fresh.kvSharePanel()->plot()));
    QCOMPARE(kvShare->kvGb(0), fresh.kvSharePanel()->kvGb(0));
    QCOMPARE(decode->takeaway(), fresh.decodePanel()->takeaway());
    QCOMPARE(drawnData(decode->plot()), drawnData(fresh.decodePanel()->plot()));

    // A theme refresh (refreshAll) redraws whatever the inputs.
    window.refreshAll();
    QCOMPARE(kvShare->redrawCount(), kvShareRedraws + 3);
    QCOMPARE(decode->redrawCount(), decodeAfterHardware + 3);
}

void TestMainWindow::whatIfPlotsSkipStepsThatLeaveTheirInputs()
{
    // Issue 16: where the KV cache fits does not depend on the bandwidth or the peak.
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    ridgeline::views::WhatIfTabs* tabs = window.whatIfTabs();
    tabs->setCurrentIndex(ridgeline::views::WhatIfTabs::CapacityTab);
    QTRY_VERIFY(!document->isEvaluationPending());
    ridgeline::views::KvFitPlot* kvFit = tabs->kvFitPlot();
    QTest::qWait(50); // the new page's first layout and resize replots
    QSignalSpy replots(kvFit->plot(), &QCustomPlot::afterReplot);
    const long long redraws = kvFit->redrawCount();
    auto step = [&](auto change) {
        document->edit(change);
        document->evaluateNow();
        QCoreApplication::processEvents();
    };
    step([](model::Scenario& s) { s.hardware.bandwidthBytesPerSecond *= 1.5; });
    step([](model::Scenario& s) { s.hardware.peakFlopsPerSecond *= 0.5; });
    QCOMPARE(kvFit->redrawCount(), redraws);
    QCOMPARE(replots.count(), 0);

    step([](model::Scenario& s) { s.workload.contextTokens *= 4; });
    QCOMPARE(kvFit->redrawCount(), redraws + 1);
    MainWindow fresh(document->scenario());
    fresh.show();
    ridgeline::views::KvFitPlot* freshFit = fresh.whatIfTabs()->kvFitPlot();
    QTRY_VERIFY(!fresh.document()->isEvaluationPending());
    QCOMPARE(kvFit->takeaway(), freshFit->takeaway());
    QCOMPARE(drawnData(kvFit->plot()), drawnData(freshFit->plot()));

    window.refreshAll();
    QCOMPARE(kvFit->redrawCount(), redraws + 2);
}

void TestMainWindow::startUpReplotsEachFloorPlotOnce()
{
    // Issue 16, start-up: no floor plot is drawn before it is laid out (the constructor's refresh drew each at
    // 100 x 30 px), and each is drawn once, at the size it is shown at (the what-if tabs showed their pages at a
    // stale size and laid them out again after: two replots each).
    MainWindow window(model::defaultScenario());
    std::vector<std::unique_ptr<QSignalSpy>> replots;
    for (ridgeline::views::PlotPanel* panel : window.plotPanels()) {
        QVERIFY2(panel->plot()->axisRect()->outerRect().isEmpty(), qPrintable(panel->objectName()));
        replots.push_back(std::make_unique<QSignalSpy>(panel->plot(), &QCustomPlot::afterReplot));
    }
    // Every other QCustomPlot of the window too (issue 16, twenty-first stop, h16ae): the KV share card's bar was
    // replotted at its first resize and again by the replot its refresh() had queued, the same picture twice.
    std::vector<std::pair<QCustomPlot*, std::unique_ptr<QSignalSpy>>> allReplots;
    for (QCustomPlot* plot : window.findChildren<QCustomPlot*>())
        allReplots.emplace_back(plot, std::make_unique<QSignalSpy>(plot, &QCustomPlot::afterReplot));
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
    QTRY_VERIFY(window.isStartUpFinished());
    QCoreApplication::processEvents();
    for (int i = 0; i < int(replots.size()); ++i) {
        QCustomPlot* plot = window.plotPanels()[i]->plot();
        QCOMPARE(replots[size_t(i)]->count(), 1);
        QCOMPARE(plot->viewport(), plot->rect());
        QVERIFY(plot->axisRect()->outerRect().width() > 200); // laid out at its size in the 1600 px window
    }
    int shownPlots = 0;
    for (const auto& [plot, spy] : allReplots) {
        if (!plot->isVisible())
            continue;
        ++shownPlots;
        QVERIFY2(spy->count() == 1, qPrintable(QStringLiteral("%1 replotted %2 times").arg(plot->objectName()).arg(spy->count())));
    }
    QCOMPARE(shownPlots, 6); // the five floor plots and the KV bar
    // A step then replots each plot it changes once, as before.
    window.document()->edit([](model::Scenario& s) { s.workload.batch *= 2; });
    window.document()->evaluateNow();
    QCoreApplication::processEvents();
    const auto decode = window.plotPanels().indexOf(window.decodePanel());
    QVERIFY(decode >= 0);
    QCOMPARE(replots[size_t(decode)]->count(), 2);
}

void TestMainWindow::modelSizeStepReplotsOnceAndLaysOutNoControls()
{
    // Issue 16, tenth stop: a model-size step replots each floor plot once, even the step where the weights stop fitting
    // (the plots were then resized in the next event-loop pass, after the step's replot, and replotted a second time at
    // their new size); and it lays out none of the controls (the KV-heads slider's tick position and unit text laid the
    // whole controls panel out again on every step). h16m: nor does the note under the slider ("H_kv 8 does not divide
    // H ..."), now a line that is always there (sliderStepsLayOutNothing), and the warning takes the takeaway's place in
    // the floors' titles, which keep their height: no plot is resized at all.
    struct LayoutCounter final : QObject {
        QWidget* controls = nullptr;
        int controlLayouts = 0; ///< LayoutRequests delivered to widgets with a layout inside the controls panel
        QList<QObject*> plots;
        int plotResizes = 0;
        bool eventFilter(QObject* watched, QEvent* event) override
        {
            if (event->type() == QEvent::LayoutRequest && watched->isWidgetType()) {
                auto* widget = static_cast<QWidget*>(watched);
                if (widget->layout() && (widget == controls || controls->isAncestorOf(widget)))
                    ++controlLayouts;
            } else if (event->type() == QEvent::Resize && plots.contains(watched)) {
                ++plotResizes;
            }
            return QObject::eventFilter(watched, event);
        }
    } counter;
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
    counter.controls = window.controlsPanel();
    std::vector<std::unique_ptr<QSignalSpy>> replots;
    for (ridgeline::views::PlotPanel* panel : window.plotPanels()) {
        replots.push_back(std::make_unique<QSignalSpy>(panel->plot(), &QCustomPlot::afterReplot));
        counter.plots.append(panel->plot());
    }
    qApp->installEventFilter(&counter);
    QSlider* slider = window.controlsPanel()->modelSizeSlider()->slider();
    ScenarioDocument* document = window.document();
    const int lo = slider->minimum(), hi = slider->maximum();
    bool warned = false;
    int quietSteps = 0; // steps that do not change the preset entry shown (the first leaves the preset for the last entry)
    auto* note = window.findChild<QLabel*>(QStringLiteral("modelSizeNoteLabel"));
    auto* presetCombo = window.findChild<QComboBox*>(QStringLiteral("modelPresetCombo"));
    auto* kvUnit = window.findChild<QLabel*>(QStringLiteral("kvHeadsUnit"));
    QVERIFY(note && presetCombo && kvUnit);
    for (int step = 1; step <= 16; ++step) {
        const int position = lo + (hi - lo) * step / 16;
        std::vector<qsizetype> before;
        for (const auto& spy : replots)
            before.push_back(spy->count());
        counter.controlLayouts = 0;
        const int preset = presetCombo->currentIndex();
        const QSize unitHint = kvUnit->sizeHint();
        slider->setSliderPosition(position);
        document->evaluateNow();
        for (int pass = 0; pass < 3; ++pass)
            QCoreApplication::processEvents();
        for (size_t i = 0; i < replots.size(); ++i)
            QVERIFY2(replots[i]->count() - before[i] == 1, qPrintable(QStringLiteral("%1 replotted %2 times at position %3")
                                                                         .arg(window.plotPanels()[qsizetype(i)]->objectName())
                                                                         .arg(replots[i]->count() - before[i])
                                                                         .arg(position)));
        // Unless the preset combo left the preset's name (the first step). The KV-heads unit ("of 96: GQA", "of 13:
        // MQA") keeps its size, as wide as its widest form (h16k): it used to lay the controls out on half the steps.
        QCOMPARE(kvUnit->sizeHint(), unitHint);
        // The last entry's text follows the model's name ("Dense 13 B (Llama 3 family rule)") on every step: its size
        // hint does not (AdjustToMinimumContentsLengthWithIcon), so it lays nothing out.
        if (presetCombo->currentIndex() == preset) {
            ++quietSteps;
            QVERIFY2(counter.controlLayouts == 0, qPrintable(QStringLiteral("%1 control layouts at position %2")
                                                                 .arg(counter.controlLayouts)
                                                                 .arg(position)));
        }
        warned = warned || !document->evaluation().capacity.weightsFit;
    }
    qApp->removeEventFilter(&counter);
    QVERIFY(warned); // the sweep reached the step where the weights stop fitting (every title grew there, the plots resized)
    QCOMPARE(counter.plotResizes, 0);
    QVERIFY2(quietSteps >= 14, qPrintable(QString::number(quietSteps)));
}

void TestMainWindow::numbersRewrapRepaintsNoRowAbove()
{
    // Issue 16, twelfth stop (h16h): where a numbers value wraps to another line count on a model-size step ("t_step(B)
    // as a line", the ITL SLO batches), the numbers grid is laid out again and its content resized; the rows above the
    // value neither move nor change, and are not repainted (the content was repainted whole, about 30 labels).
    struct PaintCounter final : QObject {
        QObject* top = nullptr;     ///< the "Parameters" name, the first row
        QObject* content = nullptr; ///< the numbers grid's widget
        int topPaints = 0;
        int contentResizes = 0;
        bool eventFilter(QObject* watched, QEvent* event) override
        {
            if (watched == top && event->type() == QEvent::Paint)
                ++topPaints;
            else if (watched == content && event->type() == QEvent::Resize)
                ++contentResizes;
            return QObject::eventFilter(watched, event);
        }
    } counter;
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
    auto* content = window.findChild<QWidget*>(QStringLiteral("numbersContent"));
    auto* numbers = window.findChild<ridgeline::views::NumbersPanel*>();
    QVERIFY(content && numbers);
    for (QLabel* label : content->findChildren<QLabel*>())
        if (label->text() == QStringLiteral("Parameters"))
            counter.top = label;
    QVERIFY(counter.top);
    counter.content = content;
    qApp->installEventFilter(&counter);
    QSlider* slider = window.controlsPanel()->modelSizeSlider()->slider();
    ScenarioDocument* document = window.document();
    const int lo = slider->minimum(), hi = slider->maximum();
    int resizedSteps = 0;
    for (int step = 1; step <= 12; ++step) {
        counter.topPaints = 0;
        counter.contentResizes = 0;
        slider->setSliderPosition(lo + (hi - lo) * step / 12);
        document->evaluateNow();
        for (int pass = 0; pass < 3; ++pass)
            QCoreApplication::processEvents();
        // The values keep their height during a run of edits (h16k); each step here stands for one after a pause, when
        // a value that wraps to fewer lines gives its height back.
        numbers->relaxHeights();
        for (int pass = 0; pass < 3; ++pass)
            QCoreApplication::processEvents();
        if (counter.contentResizes > 0) {
            ++resizedSteps;
            QVERIFY2(counter.topPaints == 0, qPrintable(QStringLiteral("first row painted %1 times at step %2")
                                                            .arg(counter.topPaints)
                                                            .arg(step)));
        }
    }
    qApp->removeEventFilter(&counter);
    QVERIFY(resizedSteps > 0); // the sweep reached a value that rewraps
}

namespace {

/** The five floor plots' titles in @p window (decode, prefill, roofline, KV share, SLO), or fewer if one is missing. */
QList<ridgeline::views::DocumentLabel*> floorTitles(const MainWindow& window)
{
    QList<ridgeline::views::DocumentLabel*> titles;
    for (const char* name : {"decodeTitle", "prefillTitle", "rooflineTitle", "kvShareTitle", "sloTitle"})
        if (auto* title = window.findChild<ridgeline::views::DocumentLabel*>(QLatin1String(name)))
            titles.append(title);
    return titles;
}

} // namespace

void TestMainWindow::sliderStepsParseNoText()
{
    // Issue 16, nineteenth stop (h16z): on batch, context and model-size steps the five plot titles and the numbers'
    // values take their new figures by an edit of their documents in place: no HTML parse, no refill; and each label
    // then shows what the window shows after a repaint of the whole label, and draws what a label built fresh with its
    // text draws.
    MainWindow window(model::defaultScenario());
    QVERIFY(showSettled(window, QSize(1600, 1000)));
    QList<ridgeline::views::DocumentLabel*> labels = floorTitles(window);
    QCOMPARE(labels.size(), 5);
    const QStringList values{QStringLiteral("step"), QStringLiteral("perUser"), QStringLiteral("total")};
    for (const QString& key : values) {
        auto* value = dynamic_cast<ridgeline::views::DocumentLabel*>(window.numbersPanel()->valueLabel(key));
        if (value)
            labels.append(value);
    }
    QVERIFY(labels.size() > 5);
    ScenarioDocument* document = window.document();
    ridgeline::views::ControlsPanel* controls = window.controlsPanel();
    for (QSlider* slider : {controls->findChild<QSlider*>(QStringLiteral("batchSlider")),
                            controls->findChild<QSlider*>(QStringLiteral("contextSlider")),
                            controls->modelSizeSlider()->slider()}) {
        QVERIFY(slider);
        std::vector<int> fills, edits;
        for (ridgeline::views::DocumentLabel* label : labels) {
            fills.push_back(label->documentFills());
            edits.push_back(label->textEditsInPlace());
        }
        const int lo = slider->minimum(), hi = slider->maximum();
        for (int step = 1; step <= 8; ++step) {
            slider->setSliderPosition(lo + (hi - lo) * step / 8);
            document->evaluateNow();
            for (int pass = 0; pass < 3; ++pass)
                QCoreApplication::processEvents();
        }
        int edited = 0;
        for (int i = 0; i < labels.size(); ++i) {
            ridgeline::views::DocumentLabel* label = labels[i];
            const QString what = slider->objectName() + QLatin1Char(' ') + label->objectName() + QLatin1Char(' ') + label->text();
            // The titles carry the warning where the weights stop fitting (model size): other markup, filled.
            if (slider != controls->modelSizeSlider()->slider())
                QVERIFY2(label->documentFills() == fills[std::size_t(i)], qPrintable(QStringLiteral("filled: ") + what));
            edited += label->textEditsInPlace() - edits[std::size_t(i)];
            // The window's pixels (its backing store, not painted again) before and after a repaint of the whole label.
            auto shown = [&] {
                const QPoint at = label->mapTo(&window, QPoint(0, 0));
                return window.screen()->grabWindow(window.winId(), at.x(), at.y(), label->width(), label->height()).toImage();
            };
            const QImage shownNow = shown();
            label->update();
            for (int pass = 0; pass < 3; ++pass)
                QCoreApplication::processEvents();
            QVERIFY2(shown() == shownNow, qPrintable(QStringLiteral("repainted in part: ") + what));
            ridgeline::views::DocumentLabel fresh;
            fresh.setTextFormat(label->textFormat());
            fresh.setWordWrap(label->wordWrap());
            fresh.setAlignment(label->alignment());
            fresh.setTextInteractionFlags(label->textInteractionFlags());
            fresh.setFont(label->font());
            fresh.setPalette(label->palette());
            fresh.setCardFill(label->fillsCard()); // as its box gives the label (h16an): the same background
            fresh.setText(label->text());
            fresh.resize(label->size());
            QVERIFY2(label->grab().toImage().convertToFormat(QImage::Format_RGB32)
                         == fresh.grab().toImage().convertToFormat(QImage::Format_RGB32),
                     qPrintable(QStringLiteral("not as a fresh label: ") + what));
        }
        QVERIFY2(edited >= 8, qPrintable(slider->objectName() + QStringLiteral(": %1 edits in place").arg(edited)));
    }

    // Issue 16, twenty-seventh stop (h16as): a numbers value scrolled out of view takes its new text whole, its lines
    // neither noted nor compared with the new text's (no paint event can reach it), yet is edited in place and laid out
    // at its width; scrolled into view it shows what a whole repaint and a fresh label show, at a fresh label's height.
    auto* scroll = window.numbersPanel()->findChild<QScrollArea*>(QStringLiteral("numbersScroll"));
    QVERIFY(scroll);
    scroll->verticalScrollBar()->setValue(0);
    for (int pass = 0; pass < 3; ++pass)
        QCoreApplication::processEvents();
    QList<ridgeline::views::DocumentLabel*> outOfView;
    const QRect viewport(scroll->viewport()->mapTo(&window, QPoint(0, 0)), scroll->viewport()->size());
    // (DocumentLabel has no Q_OBJECT of its own: findChildren<DocumentLabel*> would return every QLabel.)
    for (QLabel* label : window.numbersPanel()->findChildren<QLabel*>()) {
        auto* value = dynamic_cast<ridgeline::views::DocumentLabel*>(label);
        if (value && value->isVisible() && !QRect(value->mapTo(&window, QPoint(0, 0)), value->size()).intersects(viewport))
            outOfView.append(value);
    }
    QVERIFY2(outOfView.size() >= 4, qPrintable(QStringLiteral("%1 values out of view").arg(outOfView.size())));
    std::vector<int> partial, edits;
    QStringList textsBefore;
    for (ridgeline::views::DocumentLabel* value : outOfView) {
        partial.push_back(value->partialRepaints());
        edits.push_back(value->textEditsInPlace());
        textsBefore.append(value->text());
    }
    QSlider* modelSize = controls->modelSizeSlider()->slider();
    for (int step = 1; step <= 8; ++step) {
        modelSize->setSliderPosition(modelSize->maximum() - (modelSize->maximum() - modelSize->minimum()) * step / 8);
        document->evaluateNow();
        for (int pass = 0; pass < 3; ++pass)
            QCoreApplication::processEvents();
    }
    int changed = 0;
    for (int i = 0; i < outOfView.size(); ++i) {
        ridgeline::views::DocumentLabel* value = outOfView[i];
        const QString what = value->objectName() + QLatin1Char(' ') + value->text();
        if (value->text() == textsBefore[i])
            continue;
        ++changed;
        QVERIFY2(value->textEditsInPlace() > edits[std::size_t(i)], qPrintable(QStringLiteral("not edited: ") + what));
        QVERIFY2(value->partialRepaints() == partial[std::size_t(i)],
                 qPrintable(QStringLiteral("compared out of view: ") + what));
        scroll->ensureWidgetVisible(value);
        for (int pass = 0; pass < 3; ++pass)
            QCoreApplication::processEvents();
        const QPoint at = value->mapTo(&window, QPoint(0, 0));
        auto shown = [&] {
            return window.screen()->grabWindow(window.winId(), at.x(), at.y(), value->width(), value->height()).toImage();
        };
        const QImage shownNow = shown();
        value->update();
        for (int pass = 0; pass < 3; ++pass)
            QCoreApplication::processEvents();
        QVERIFY2(shown() == shownNow, qPrintable(QStringLiteral("scrolled into view, not as a whole repaint: ") + what));
        ridgeline::views::DocumentLabel fresh;
        fresh.setWordWrap(value->wordWrap());
        fresh.setAlignment(value->alignment());
        fresh.setTextInteractionFlags(value->textInteractionFlags());
        fresh.setFont(value->font());
        fresh.setPalette(value->palette());
        fresh.setCardFill(value->fillsCard());
        fresh.setText(value->text());
        fresh.resize(value->size());
        QVERIFY2(value->heightForWidth(value->width()) == fresh.heightForWidth(value->width()),
                 qPrintable(QStringLiteral("height not a fresh label's: ") + what));
        QVERIFY2(value->grab().toImage().convertToFormat(QImage::Format_RGB32)
                     == fresh.grab().toImage().convertToFormat(QImage::Format_RGB32),
                 qPrintable(QStringLiteral("scrolled into view, not as a fresh label: ") + what));
    }
    QVERIFY2(changed >= 4, qPrintable(QStringLiteral("%1 values out of view changed").arg(changed)));
}

void TestMainWindow::sliderStepsShapeNoTitleHeading()
{
    // Issue 16, twentieth stop (h16ab): each plot title's heading is a block of its own, so a batch or context step edits
    // (and QTextEngine lays out and shapes again) only the blocks after it; the heading's block is never edited.
    MainWindow window(model::defaultScenario());
    QVERIFY(showSettled(window, QSize(1600, 1000)));
    QList<ridgeline::views::DocumentLabel*> titles = floorTitles(window);
    QCOMPARE(titles.size(), 5);
    ScenarioDocument* document = window.document();
    ridgeline::views::ControlsPanel* controls = window.controlsPanel();
    int edited = 0;
    for (QSlider* slider : {controls->findChild<QSlider*>(QStringLiteral("batchSlider")),
                            controls->findChild<QSlider*>(QStringLiteral("contextSlider"))}) {
        QVERIFY(slider);
        const int lo = slider->minimum(), hi = slider->maximum();
        for (int step = 1; step <= 8; ++step) {
            std::vector<int> edits, composed;
            for (ridgeline::views::DocumentLabel* title : titles) {
                edits.push_back(title->textEditsInPlace());
                composed.push_back(title->composedLayouts());
            }
            slider->setSliderPosition(lo + (hi - lo) * step / 8);
            document->evaluateNow();
            for (int pass = 0; pass < 3; ++pass)
                QCoreApplication::processEvents();
            for (int i = 0; i < titles.size(); ++i) {
                // Thirtieth stop (h16ax): a takeaway composed from words shaped once (setComposesLastBlock()) edits
                // nothing in the document: neither the heading nor the takeaway is laid out and shaped again there.
                if (titles[i]->composedLayouts() != composed[std::size_t(i)]) {
                    QVERIFY2(titles[i]->textEditsInPlace() == edits[std::size_t(i)],
                             qPrintable(QStringLiteral("composed and edited: ") + titles[i]->objectName()));
                    ++edited;
                    continue;
                }
                if (titles[i]->textEditsInPlace() == edits[std::size_t(i)])
                    continue;
                ++edited;
                const std::vector<int>& blocks = titles[i]->blocksEditedLast();
                QVERIFY2(!blocks.empty() && std::find(blocks.begin(), blocks.end(), 0) == blocks.end(),
                         qPrintable(slider->objectName() + QLatin1Char(' ') + titles[i]->objectName() + QLatin1Char(' ')
                                    + titles[i]->text()));
            }
        }
    }
    QVERIFY2(edited >= 16, qPrintable(QStringLiteral("%1 titles edited").arg(edited)));
    // Thirtieth stop (h16ax): the takeaways are composed from words shaped once (every title whose takeaway these
    // steps change: all but the prefill plot's), none edited into its document on these steps.
    int composedTitles = 0;
    for (ridgeline::views::DocumentLabel* title : titles)
        composedTitles += title->composedLayouts() > 0 ? 1 : 0;
    QVERIFY2(composedTitles >= 4, qPrintable(QStringLiteral("%1 titles composed").arg(composedTitles)));
}

void TestMainWindow::sliderStepsLayOutNothing()
{
    // Issue 16, h16k: a slider step that changes no widget's size runs no layout pass (no QLayout::activate()
    // anywhere in the window: a LayoutRequest delivered to a widget with a layout). The KV-heads unit ("of 32: MQA",
    // "of 32: GQA", "of 32: MHA") is as wide as its widest form, so the spin box beside it stays put; the numbers' values
    // keep their height during a run of edits, so a value that wraps to fewer lines leaves the rows below in place.
    // The batch, context, KV-heads and model-size sliders go up and down twice over the same positions: the first run
    // may grow a value (a size change), the second shows only values already shown and must lay nothing out. h16m: the
    // model-size slider too, over sizes where the note under it ("H_kv 8 does not divide H ...") appears and goes and
    // where the weights stop fitting (the note and the warning each laid out the controls or the floors tab). h16u: the
    // peak-flops and bandwidth sliders too; the line under the hardware's figures ("matmuls in bf16: 989.5 TFLOP/s")
    // changes its text on every peak-flops step and laid out the Hardware group and the controls panel each time.
    struct LayoutCounter final : QObject {
        QWidget* window = nullptr;
        QStringList activated;
        bool eventFilter(QObject* watched, QEvent* event) override
        {
            if (event->type() == QEvent::LayoutRequest && watched->isWidgetType()) {
                auto* widget = static_cast<QWidget*>(watched);
                if (widget->layout() && (widget == window || window->isAncestorOf(widget)))
                    activated << (widget->objectName().isEmpty() ? QString::fromLatin1(widget->metaObject()->className())
                                                                 : widget->objectName());
            }
            return QObject::eventFilter(watched, event);
        }
    } counter;
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
    counter.window = &window;
    ScenarioDocument* document = window.document();
    auto* kvUnit = window.findChild<QLabel*>(QStringLiteral("kvHeadsUnit"));
    QVERIFY(kvUnit);
    const QSize kvUnitHint = kvUnit->sizeHint();
    ridgeline::views::ControlsPanel* controls = window.controlsPanel();
    qApp->installEventFilter(&counter);
    QElapsedTimer sinceLastStep;
    sinceLastStep.start();
    auto* note = window.findChild<QLabel*>(QStringLiteral("modelSizeNoteLabel"));
    QVERIFY(note);
    bool noted = false, warned = false;
    auto* computeDtype = window.findChild<QLabel*>(QStringLiteral("computeDtypeLabel"));
    QVERIFY(computeDtype);
    QSet<QString> computeDtypeTexts;
    for (ridgeline::views::ValueSlider* control :
         {controls->batchSlider(), controls->contextSlider(), controls->kvHeadsSlider(), controls->modelSizeSlider(),
          controls->peakFlopsSlider(), controls->bandwidthSlider()}) {
        QSlider* slider = control->slider();
        const int lo = slider->minimum(), hi = slider->maximum();
        const int steps = std::min(6, hi - lo);
        std::vector<int> positions;
        for (int i = 1; i <= 2 * steps; ++i) { // up, then back down to the start
            const int k = i <= steps ? i : 2 * steps - i;
            positions.push_back(lo + (hi - lo) * k / steps);
        }
        if (control == controls->modelSizeSlider()) {
            // From the starting model (the KV-heads sweep ended on H_kv = 1), whose position restores it exactly: the
            // note under the slider goes there and comes back a step away (8 divides H = 32 only), then on to the
            // largest model, whose weights do not fit, and back to the start.
            document->setScenario(model::defaultScenario());
            document->evaluateNow();
            for (int pass = 0; pass < 3; ++pass)
                QCoreApplication::processEvents();
            const int start = slider->value();
            positions = {start + 1, start, start - 1, start, start + 3, start};
            for (int k = 1; k <= 8; ++k)
                positions.push_back(lo + (hi - lo) * k / 8);
            positions.push_back(start);
        }
        for (int run = 0; run < 2; ++run) {
            for (const int position : positions) {
                counter.activated.clear();
                slider->setSliderPosition(position);
                document->evaluateNow();
                for (int pass = 0; pass < 3; ++pass)
                    QCoreApplication::processEvents();
                // On a machine so busy that 600 ms passed since the last step, the numbers gave their heights back (a
                // paused drag) and may grow again: that step is not counted.
                const bool paused = sinceLastStep.restart() > 500;
                if (control == controls->peakFlopsSlider())
                    computeDtypeTexts.insert(computeDtype->text());
                if (control == controls->modelSizeSlider()) {
                    noted = noted || note->text().contains(QStringLiteral("does not divide"));
                    warned = warned || !document->evaluation().capacity.weightsFit;
                }
                if (run == 1 && !paused)
                    QVERIFY2(counter.activated.isEmpty(), qPrintable(QStringLiteral("%1 at position %2 laid out [%3]")
                                                                         .arg(slider->objectName())
                                                                         .arg(slider->value())
                                                                         .arg(counter.activated.join(QStringLiteral(", ")))));
            }
        }
    }
    qApp->removeEventFilter(&counter);
    QCOMPARE(kvUnit->sizeHint(), kvUnitHint);
    QVERIFY(noted && warned); // the model-size sweep reached the note and the warning
    QVERIFY(computeDtypeTexts.size() > 2); // the peak-flops sweep changed the compute-dtype line
}

void TestMainWindow::peakFlopsSweepLeavesTheControlsAsAFreshWindow()
{
    // Issue 16, h16u: the compute-dtype line ("matmuls in bf16: 989.5 TFLOP/s") sits in a LabelBox, which asks its
    // layout again only when the text needs another number of lines. After a peak-flops sweep the controls must still be
    // drawn as a window that opened on the sweep's last scenario draws them (the line's geometry not left behind).
    MainWindow swept(model::defaultScenario());
    swept.resize(1600, 1000);
    swept.show();
    QVERIFY(QTest::qWaitForWindowExposed(&swept));
    QSlider* slider = swept.controlsPanel()->peakFlopsSlider()->slider();
    const int lo = slider->minimum(), hi = slider->maximum();
    for (const int position : {hi, lo, lo + (hi - lo) / 3, lo + 1}) {
        slider->setSliderPosition(position);
        swept.document()->evaluateNow();
        for (int pass = 0; pass < 3; ++pass)
            QCoreApplication::processEvents();
    }
    MainWindow fresh(swept.document()->scenario());
    QVERIFY(showSettled(fresh, QSize(1600, 1000)));
    const QString text = swept.findChild<QLabel*>(QStringLiteral("computeDtypeLabel"))->text();
    QCOMPARE(fresh.findChild<QLabel*>(QStringLiteral("computeDtypeLabel"))->text(), text);
    QVERIFY(!text.contains(QStringLiteral("989"))); // the sweep moved the peak away from the start
    // Every widget of the controls where the fresh window has it (the pictures differ only by the window's active
    // state: the slider ticks of the active window are drawn in the highlight colour), and the line drawn the same.
    const QList<QWidget*> sweptWidgets = swept.controlsPanel()->findChildren<QWidget*>();
    const QList<QWidget*> freshWidgets = fresh.controlsPanel()->findChildren<QWidget*>();
    QCOMPARE(sweptWidgets.size(), freshWidgets.size());
    for (qsizetype i = 0; i < sweptWidgets.size(); ++i) {
        QCOMPARE(sweptWidgets[i]->objectName(), freshWidgets[i]->objectName());
        QVERIFY2(sweptWidgets[i]->geometry() == freshWidgets[i]->geometry() && sweptWidgets[i]->isVisible() == freshWidgets[i]->isVisible(),
                 qPrintable(QStringLiteral("%1 (%2) is not where the fresh window has it")
                                .arg(sweptWidgets[i]->objectName(), QString::fromLatin1(sweptWidgets[i]->metaObject()->className()))));
    }
    auto* sweptLine = swept.findChild<QWidget*>(QStringLiteral("computeDtypeBox"));
    auto* freshLine = fresh.findChild<QWidget*>(QStringLiteral("computeDtypeBox"));
    QVERIFY(sweptLine && freshLine);
    // The sweep's steps filled the line's box with the Hardware box's inside (views/kit/groundfill.h: an opaque widget,
    // whose grab() shows its fill): both windows' boxes measured, so that both are filled alike.
    for (MainWindow* window : {&swept, &fresh})
        for (auto* fill : window->controlsPanel()->findChildren<ridgeline::views::GroundFill*>())
            fill->measure();
    QVERIFY(sweptLine->testAttribute(Qt::WA_OpaquePaintEvent) && freshLine->testAttribute(Qt::WA_OpaquePaintEvent));
    QCOMPARE(sweptLine->grab().toImage(), freshLine->grab().toImage());
}

void TestMainWindow::hiddenWindowSendsNoLayoutRequestAndBuildsNoComparison()
{
    // Issue 16, ninth stop: the constructor's refresh sends no layout requests while the window is hidden (each
    // layout was activated then, measuring its widgets, and again once shown), and the comparison
    // table, hidden until a baseline is compared, is built on first use.
    using ridgeline::views::ComparisonTable;
    struct LayoutRequestCounter final : QObject {
        int delivered = 0;
        bool eventFilter(QObject* watched, QEvent* event) override
        {
            if (event->type() == QEvent::LayoutRequest && watched->isWidgetType())
                ++delivered;
            return false;
        }
    } counter;
    qApp->installEventFilter(&counter);
    auto window = std::make_unique<MainWindow>(model::defaultScenario());
    qApp->removeEventFilter(&counter);
    QCOMPARE(counter.delivered, 0);
    auto* step = dynamic_cast<ridgeline::views::DocumentLabel*>(window->numbersPanel()->valueLabel(QStringLiteral("step")));
    QVERIFY(step);
    QVERIFY(!step->text().isEmpty());
    QVERIFY(window->findChildren<ComparisonTable*>().isEmpty());
    window->resize(1600, 1000);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QCoreApplication::processEvents();
    QVERIFY(step->documentLayoutPasses() > 0); // laid out once shown
    QVERIFY(step->height() > 0);
    QVERIFY(window->findChildren<ComparisonTable*>().isEmpty());
    ComparisonTable* table = window->comparisonTable();
    QVERIFY(table);
    QVERIFY(!table->isVisible());
    QCOMPARE(window->comparisonTable(), table);
    QCOMPARE(window->findChildren<ComparisonTable*>().size(), 1);
    QCOMPARE(table->parentWidget(), window->numbersPanel()->parentWidget());
}

void TestMainWindow::accessibleNamesFollowTheFirstPaint()
{
    // Issue 16, eleventh stop: the accessible names of the controls are not part of the first frame; they are given in
    // the event-loop pass after the window's first paint, and then every control has one.
    MainWindow window(model::defaultScenario());
    QVERIFY(!window.isStartUpFinished());
    const QList<QWidget*> unnamed = ridgeline::views::unnamedFocusableWidgets(&window);
    QVERIFY(!unnamed.isEmpty()); // e.g. the controls' combo boxes and spin boxes, named from their form rows
    const QPointer<QWidget> first = unnamed.first();
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(window.isStartUpFinished());
    QVERIFY(first && !first->accessibleName().isEmpty());
    QVERIFY(ridgeline::views::unnamedFocusableWidgets(&window).isEmpty());
}

void TestMainWindow::collapsedFieldsAreBuiltOnFirstOpen()
{
    // Issue 16, twentieth stop (h16ad): the controls' collapsed architecture and MoE / MLA / sliding-window fields are no
    // part of the first frame; only their toggles are built at start-up. Opened, each group is built, shows the
    // document's current scenario (changed after start-up here), follows it, edits it, and its controls are named.
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(window.isStartUpFinished());
    const QStringList collapsed = {QStringLiteral("architectureGroup"), QStringLiteral("layersSpinBox"),
                                   QStringLiteral("hiddenSpinBox"), QStringLiteral("headsSpinBox"),
                                   QStringLiteral("headDimSpinBox"), QStringLiteral("attentionWidthLabel"),
                                   QStringLiteral("moeGroup"), QStringLiteral("expertsSpinBox"),
                                   QStringLiteral("expertsPerTokenSpinBox"), QStringLiteral("expertParamsSpinBox"),
                                   QStringLiteral("activeParamsLabel"), QStringLiteral("kvLoraRankSpinBox"),
                                   QStringLiteral("ropeHeadDimSpinBox"), QStringLiteral("slidingWindowSpinBox"),
                                   QStringLiteral("slidingLayersSpinBox")};
    QStringList built;
    for (const QString& name : collapsed)
        if (window.findChild<QWidget*>(name))
            built << name;
    QVERIFY2(built.isEmpty(), qPrintable(QStringLiteral("built at start-up: ") + built.join(QStringLiteral(", "))));
    ridgeline::views::ControlsPanel* controls = window.controlsPanel();
    QVERIFY(controls->architectureToggle()->isVisible());
    QVERIFY(controls->moeToggle()->isVisible());

    // A scenario unlike the one at start-up: another shape, MoE, MLA and a sliding window.
    ScenarioDocument* document = window.document();
    document->edit([](model::Scenario& s) {
        s.model.layers = 48;
        s.model.hidden = 6144;
        s.model.heads = 48;
        s.model.headDim = 128;
        s.model.kvHeads = 8;
        model::setMoeExperts(s.model, 16, 2, 1.5e9);
        s.model.kvLoraRank = 512;
        s.model.ropeHeadDim = 64;
        s.model.slidingWindow = 4096;
        s.model.slidingLayers = 24;
    });
    document->evaluateNow();
    QVERIFY2(document->errorText().isEmpty(), qPrintable(document->errorText()));
    const model::Scenario& s = document->scenario();

    controls->architectureToggle()->click();
    auto* group = window.findChild<QWidget*>(QStringLiteral("architectureGroup"));
    QVERIFY(group);
    QVERIFY(group->isVisible());
    auto spin = [&](const char* name) { return window.findChild<QSpinBox*>(QLatin1String(name)); };
    QVERIFY(spin("layersSpinBox") && spin("hiddenSpinBox") && spin("headsSpinBox") && spin("headDimSpinBox"));
    QCOMPARE(spin("layersSpinBox")->value(), 48);
    QCOMPARE(spin("hiddenSpinBox")->value(), 6144);
    QCOMPARE(spin("headsSpinBox")->value(), 48);
    QCOMPARE(spin("headDimSpinBox")->value(), 128);
    QCOMPARE(controls->headsSpinBox(), spin("headsSpinBox"));
    QCOMPARE(window.findChild<QLabel*>(QStringLiteral("attentionWidthLabel"))->text(), format::integer(s.model.attentionWidth()));
    QVERIFY(!spin("layersSpinBox")->accessibleName().isEmpty());
    QVERIFY(ridgeline::views::unnamedFocusableWidgets(group).isEmpty());

    controls->moeToggle()->click();
    auto* moe = window.findChild<QWidget*>(QStringLiteral("moeGroup"));
    QVERIFY(moe);
    QVERIFY(moe->isVisible());
    QCOMPARE(spin("expertsSpinBox")->value(), 16);
    QCOMPARE(spin("expertsPerTokenSpinBox")->value(), 2);
    QVERIFY(spin("expertsPerTokenSpinBox")->isEnabled());
    QCOMPARE(window.findChild<QDoubleSpinBox*>(QStringLiteral("expertParamsSpinBox"))->value(), 1.5);
    QCOMPARE(spin("kvLoraRankSpinBox")->value(), 512);
    QVERIFY(spin("ropeHeadDimSpinBox")->isEnabled());
    QCOMPARE(spin("ropeHeadDimSpinBox")->value(), 64);
    QCOMPARE(spin("slidingWindowSpinBox")->value(), 4096);
    QCOMPARE(spin("slidingLayersSpinBox")->value(), 24);
    QVERIFY(window.findChild<QLabel*>(QStringLiteral("activeParamsLabel"))->text().contains(format::billionParams(s.model.params)));
    QVERIFY(ridgeline::views::unnamedFocusableWidgets(moe).isEmpty());

    // Closed and opened again: the same widgets (built once); they follow the document and edit it.
    controls->moeToggle()->click();
    QVERIFY(!moe->isVisible());
    controls->moeToggle()->click();
    QCOMPARE(window.findChild<QWidget*>(QStringLiteral("moeGroup")), moe);
    QCOMPARE(window.findChildren<QSpinBox*>(QStringLiteral("expertsSpinBox")).size(), 1);
    document->edit([](model::Scenario& sc) { sc.model.layers = 40; });
    QCOMPARE(spin("layersSpinBox")->value(), 40);
    spin("slidingWindowSpinBox")->setValue(8192);
    QCOMPARE(document->scenario().model.slidingWindow, 8192);

    // First opened in presentation mode, the fields look as fields built before presentation mode was entered: the
    // projector theme's fonts and colours, each scaled once.
    MainWindow early(model::defaultScenario());
    early.resize(1600, 1000);
    QVERIFY(early.controlsPanel()->keyBindings().size() >= 25); // every control built, the collapsed ones too
    early.show();
    QVERIFY(QTest::qWaitForWindowExposed(&early));
    early.presentation()->setActive(true);
    early.controlsPanel()->architectureToggle()->click();
    early.controlsPanel()->moeToggle()->click();
    MainWindow late(model::defaultScenario());
    late.resize(1600, 1000);
    late.show();
    QVERIFY(QTest::qWaitForWindowExposed(&late));
    late.presentation()->setActive(true);
    late.controlsPanel()->architectureToggle()->click();
    late.controlsPanel()->moeToggle()->click();
    QCoreApplication::processEvents();
    for (const char* name : {"architectureGroup", "moeGroup"}) {
        QWidget* a = early.findChild<QWidget*>(QLatin1String(name));
        QWidget* b = late.findChild<QWidget*>(QLatin1String(name));
        QVERIFY(a && b);
        QCOMPARE(b->size(), a->size());
        for (QWidget* widget : b->findChildren<QWidget*>()) {
            QWidget* twin = widget->objectName().isEmpty() ? nullptr : a->findChild<QWidget*>(widget->objectName());
            if (twin)
                QCOMPARE(widget->font().pointSizeF(), twin->font().pointSizeF());
        }
        QVERIFY2(b->grab().toImage() == a->grab().toImage(), name);
    }
    late.presentation()->setActive(false);
    early.presentation()->setActive(false);
}

void TestMainWindow::hiddenTabsAreBuiltOnFirstShow()
{
    // Issue 16 (start-up): the what-if tabs are placeholders until first shown or asked for.
    using ridgeline::views::WhatIfTabs;
    MainWindow window(model::defaultScenario());
    window.show();
    WhatIfTabs* tabs = window.whatIfTabs();
    QCOMPARE(tabs->count(), 7);
    for (int tab = WhatIfTabs::CapacityTab; tab <= WhatIfTabs::PlanTab; ++tab)
        QVERIFY2(!tabs->isBuilt(tab), qPrintable(tabs->tabText(tab)));
    QVERIFY(!window.findChild<QWidget*>(QStringLiteral("capacityTab")));
    QVERIFY(!window.findChild<QWidget*>(QStringLiteral("simulationTab")));
    QCOMPARE(tabs->tabText(WhatIfTabs::CapacityTab), QStringLiteral("Capacity && SLOs"));

    // Alt+2 shows the capacity tab, built and drawn from the document at once.
    QSignalSpy changed(tabs, &QTabWidget::currentChanged);
    auto* action = window.findChild<QAction*>(QStringLiteral("whatIfTabAction1"));
    QVERIFY(action);
    action->trigger();
    QCOMPARE(changed.count(), 1); // the swap of the page is no change of tab
    QCOMPARE(tabs->currentIndex(), int(WhatIfTabs::CapacityTab));
    QVERIFY(tabs->isBuilt(WhatIfTabs::CapacityTab));
    QCOMPARE(tabs->widget(WhatIfTabs::CapacityTab)->objectName(), QStringLiteral("capacityTab"));
    QVERIFY(tabs->currentWidget()->isVisible());
    QVERIFY(tabs->currentWidget()->isAncestorOf(tabs->kvFitPlot()));
    QCOMPARE(tabs->tabText(WhatIfTabs::CapacityTab), QStringLiteral("Capacity && SLOs"));
    QVERIFY(!tabs->tabToolTip(WhatIfTabs::CapacityTab).isEmpty());
    QVERIFY(!tabs->kvFitPlot()->takeaway().isEmpty());
    QVERIFY(tabs->kvFitPlot()->plot()->graph(0)->data()->size() > 0);
    // Its sliders joined the undo history's gestures and carry accessible names, as at start.
    for (QSlider* slider : tabs->currentWidget()->findChildren<QSlider*>()) {
        QVERIFY(slider->property("ridgelineHistoryTracked").toBool());
        QVERIFY(!slider->accessibleName().isEmpty());
    }

    // An accessor builds its tab without showing it; the page is the tab's widget from then on.
    QVERIFY(!tabs->isBuilt(WhatIfTabs::SimulationTab));
    QWidget* simulation = tabs->simulationTab();
    QVERIFY(tabs->isBuilt(WhatIfTabs::SimulationTab));
    QCOMPARE(tabs->widget(WhatIfTabs::SimulationTab), simulation);
    QCOMPARE(tabs->currentIndex(), int(WhatIfTabs::CapacityTab));
    QCOMPARE(changed.count(), 1);
    QVERIFY(!tabs->isBuilt(WhatIfTabs::PlanTab));
}

void TestMainWindow::firstFrameHasNoStyleSheet()
{
    // Issue 16, sixteenth stop (h16q): up to its first painted frame no widget of the window has a style sheet of its own;
    // the cards are painted and the texts coloured through palettes, so the style-sheet engine parses, matches and draws
    // none of theirs. Seventeenth stop (h16s): the tab widget's "::pane { border: none; }" is gone too, so no widget of the
    // first frame gets Qt's style-sheet style (everyTabLooksAsUnderThePaneStyleSheet() checks that nothing looks different).
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(window.isStartUpFinished());
    QList<QWidget*> widgets = window.findChildren<QWidget*>();
    widgets.prepend(&window);
    QStringList styled;
    for (QWidget* widget : widgets) {
        if (!widget->styleSheet().isEmpty() || widget->testAttribute(Qt::WA_StyleSheet))
            styled << (widget->objectName().isEmpty() ? QString::fromLatin1(widget->metaObject()->className()) : widget->objectName());
    }
    QVERIFY2(styled.isEmpty(), qPrintable(styled.mid(0, 20).join(QStringLiteral(", "))));
    QVERIFY(ridgeline::views::isPaintedCard(window.numbersPanel()));
    for (ridgeline::views::PlotPanel* panel : window.plotPanels())
        QVERIFY2(ridgeline::views::isPaintedCard(panel), qPrintable(panel->objectName()));
}

void TestMainWindow::numbersMakeTheirTextControlOnFirstUse()
{
    // Issue 16, twenty-second stop (h16aj): a numbers value is selectable by mouse, and QLabel made its text control (a
    // QWidgetTextControl and a second document, which DocumentLabel neither measures nor paints with) at its first
    // setText(): 36 of them before the first paint, about 4 M instructions. Now made on first use: none up to the first
    // paint; a value then selects as a QLabel selectable by mouse does, and looks as one until it is used.
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(window.isStartUpFinished());
    QList<ridgeline::views::DocumentLabel*> values;
    for (QLabel* widget : window.numbersPanel()->findChildren<QLabel*>()) // (no Q_OBJECT in DocumentLabel: cast, not findChildren)
        if (auto* label = dynamic_cast<ridgeline::views::DocumentLabel*>(widget);
            label && label->objectName().endsWith(QLatin1String("Number")) && label->isVisible() && !label->text().isEmpty())
            values.append(label);
    QVERIFY(values.size() >= 20);
    QStringList withControl;
    for (ridgeline::views::DocumentLabel* value : values) {
        if (value->hasTextControl())
            withControl.append(value->objectName());
        QCOMPARE(value->textInteractionFlags(), Qt::TextInteractionFlags(Qt::TextSelectableByMouse));
        QCOMPARE(value->focusPolicy(), Qt::NoFocus); // Qt::ClickFocus would make QLabel's control
        // As a label given QLabel's flags at once: the same hints and pixels.
        ridgeline::views::DocumentLabel fresh;
        fresh.setWordWrap(value->wordWrap());
        fresh.setAlignment(value->alignment());
        fresh.setTextInteractionFlags(Qt::TextSelectableByMouse);
        fresh.setFont(value->font());
        fresh.setPalette(value->palette());
        fresh.setCardFill(value->fillsCard()); // as its box gives the label (h16an): the same background
        fresh.setText(value->text());
        fresh.resize(value->size());
        QVERIFY(fresh.hasTextControl());
        QCOMPARE(value->sizeHint(), fresh.sizeHint());
        QCOMPARE(value->minimumSizeHint(), fresh.minimumSizeHint());
        QCOMPARE(value->heightForWidth(value->width()), fresh.heightForWidth(value->width()));
        QVERIFY2(value->grab().toImage().convertToFormat(QImage::Format_RGB32)
                     == fresh.grab().toImage().convertToFormat(QImage::Format_RGB32),
                 qPrintable(value->objectName()));
    }
    QVERIFY2(withControl.isEmpty(), qPrintable(QStringLiteral("text control before use: ") + withControl.join(QLatin1String(", "))));

    // Used: a double click on a value's first word selects that word, as in a QLabel selectable by mouse.
    ridgeline::views::DocumentLabel* value = values.first();
    QLabel reference;
    reference.setWordWrap(value->wordWrap());
    reference.setAlignment(value->alignment());
    reference.setTextInteractionFlags(Qt::TextSelectableByMouse);
    reference.setFont(value->font());
    reference.setText(value->text());
    reference.resize(value->size());
    reference.show();
    QVERIFY(QTest::qWaitForWindowExposed(&reference));
    const QPoint firstWord(3, value->height() / 2);
    QTest::mouseDClick(&reference, Qt::LeftButton, Qt::NoModifier, firstWord);
    QVERIFY(reference.hasSelectedText());
    QTest::mouseDClick(value, Qt::LeftButton, Qt::NoModifier, firstWord);
    QVERIFY(value->hasTextControl());
    QCOMPARE(value->selectedText(), reference.selectedText());
    QCOMPARE(value->textInteractionFlags(), Qt::TextInteractionFlags(Qt::TextSelectableByMouse));
    QCOMPARE(value->focusPolicy(), Qt::ClickFocus);
    QCOMPARE(window.focusWidget(), static_cast<QWidget*>(value)); // as the click gives a label selectable by mouse
    // The others still have none.
    for (ridgeline::views::DocumentLabel* other : values)
        if (other != value)
            QVERIFY2(!other->hasTextControl(), qPrintable(other->objectName()));
}

void TestMainWindow::startUpClearsNoNewDocumentAndMeasuresEachFontOnce()
{
    // Issue 16, thirtieth stop (h16ay): each DocumentLabel shown at start-up (the five titles, the numbers' values)
    // emptied its new, still empty document with QTextDocument::clear() before its first text (1.4 M instructions
    // over 41 labels), and measured QTextDocument::adjustSize()'s first width (80 x's of its font) on every hint asked,
    // sizeHint() and minimumSizeHint() alike. Up to the first paint now: no clear, and one measurement a label.
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(window.isStartUpFinished());
    QList<ridgeline::views::DocumentLabel*> labels;
    for (QLabel* widget : window.findChildren<QLabel*>()) // (no Q_OBJECT in DocumentLabel: cast, not findChildren)
        if (auto* label = dynamic_cast<ridgeline::views::DocumentLabel*>(widget);
            label && label->isVisible() && !label->text().isEmpty() && label->documentFills() > 0)
            labels.append(label);
    QVERIFY2(labels.size() >= 40, qPrintable(QString::number(labels.size())));
    QStringList cleared;
    QStringList remeasured;
    for (ridgeline::views::DocumentLabel* label : labels) {
        if (label->documentClears() > 0)
            cleared.append(QStringLiteral("%1 (%2)").arg(label->objectName()).arg(label->documentClears()));
        if (label->adjustWidthMeasurements() != 1)
            remeasured.append(QStringLiteral("%1 (%2)").arg(label->objectName()).arg(label->adjustWidthMeasurements()));
    }
    QVERIFY2(cleared.isEmpty(), qPrintable(QStringLiteral("cleared: ") + cleared.join(QLatin1String(", "))));
    QVERIFY2(remeasured.isEmpty(),
             qPrintable(QStringLiteral("first width measured: ") + remeasured.join(QLatin1String(", "))));

    // The hints are still QLabel's for the label's font: a value given a larger font and then its own again measures
    // the width for each font once, and has the hints of a fresh label given that font and text.
    auto* value =
        dynamic_cast<ridgeline::views::DocumentLabel*>(window.numbersPanel()->valueLabel(QStringLiteral("step")));
    QVERIFY(value);
    const QFont own = value->font();
    const int clearsBefore = value->documentClears();
    QFont larger = own;
    larger.setPointSizeF(own.pointSizeF() * 1.5);
    for (const QFont& font : {larger, own}) {
        value->setFont(font);
        ridgeline::views::DocumentLabel fresh;
        fresh.setWordWrap(value->wordWrap());
        fresh.setAlignment(value->alignment());
        fresh.setTextInteractionFlags(Qt::TextSelectableByMouse);
        fresh.setFont(font);
        fresh.setText(value->text());
        QCOMPARE(value->sizeHint(), fresh.sizeHint());
        QCOMPARE(value->minimumSizeHint(), fresh.minimumSizeHint());
        QCOMPARE(value->heightForWidth(value->width()), fresh.heightForWidth(value->width()));
    }
    QCOMPARE(value->adjustWidthMeasurements(), 3);
    QVERIFY(value->documentClears() > clearsBefore); // a document holding text is emptied before a new font, as before
    // A new text in the same font: the width is not measured again.
    value->setText(QStringLiteral("1.23 ms (a new text)"));
    QCOMPARE(value->sizeHint(), [&] {
        ridgeline::views::DocumentLabel fresh;
        fresh.setWordWrap(value->wordWrap());
        fresh.setAlignment(value->alignment());
        fresh.setTextInteractionFlags(Qt::TextSelectableByMouse);
        fresh.setFont(own);
        fresh.setText(value->text());
        return fresh.sizeHint();
    }());
    QCOMPARE(value->adjustWidthMeasurements(), 3);
}

void TestMainWindow::presetCombosBuildTheirPopupOnFirstUse()
{
    // Issue 16, thirtieth stop (h16ay): QComboBox::setSizeAdjustPolicy(AdjustToMinimumContentsLengthWithIcon) builds
    // the combo's popup (container, list view, delegate) at once in Qt 6.4; the model and hardware preset combos did so
    // before the first frame. They now keep the default policy and give that policy's size hints themselves: no popup
    // up to the first paint, the hints of a QComboBox given the policy (in two fonts), and a popup listing every item
    // when opened.
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(window.isStartUpFinished());
    ridgeline::views::ControlsPanel* controls = window.controlsPanel();
    for (QComboBox* combo : {controls->modelPresetCombo(), controls->hardwarePresetCombo()}) {
        QVERIFY(combo && combo->isVisible());
        QVERIFY2(combo->findChildren<QAbstractItemView*>().isEmpty(), qPrintable(combo->objectName()));
        QComboBox reference;
        reference.setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        reference.setMinimumContentsLength(combo->minimumContentsLength());
        for (int i = 0; i < combo->count(); ++i)
            reference.addItem(combo->itemIcon(i), combo->itemText(i));
        const QFont own = combo->font();
        QFont larger = own;
        larger.setPointSizeF(own.pointSizeF() * 1.6);
        // In the font it was first measured in and in a larger one (QComboBox keeps its minimum hint across font
        // changes, until a style change).
        for (const QFont& font : {own, larger}) {
            combo->setFont(font);
            reference.setFont(font);
            QCOMPARE(combo->sizeHint(), reference.sizeHint());
            QCOMPARE(combo->minimumSizeHint(), reference.minimumSizeHint());
        }
        combo->setFont(own); // (a font change builds QComboBox's popup: QComboBox::changeEvent())
        combo->showPopup();
        QAbstractItemView* view = combo->view();
        QVERIFY(view && view->isVisible());
        QCOMPARE(view->model()->rowCount(view->rootIndex()), combo->count());
        combo->hidePopup();
    }
}

void TestMainWindow::startUpPaintsTheWindowInOnePass()
{
    // Issue 16, thirtieth stop (h16ay): right after the window's first frame a second paint pass repainted the numbers
    // card's heading and the card under it (QLabel laid its text control's document out in its first paint after a
    // resize, and that layout's update request marked it dirty again), the dock's separator, the numbers scroll bar and
    // the tab bar (layout requests left posted by show() and delivered after the first expose): 2.8 M instructions.
    // Now each widget is painted once up to the end of start-up.
    struct PaintCounter final : QObject {
        QHash<QObject*, int> paints;
        bool eventFilter(QObject* watched, QEvent* event) override
        {
            if (event->type() == QEvent::Paint)
                ++paints[watched];
            return QObject::eventFilter(watched, event);
        }
    } counter;
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    qApp->installEventFilter(&counter);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(window.isStartUpFinished());
    QTest::qWait(200); // any later pass of the start-up has been painted by now
    qApp->removeEventFilter(&counter);
    QStringList repainted;
    for (auto it = counter.paints.cbegin(); it != counter.paints.cend(); ++it)
        if (it.value() > 1)
            repainted.append(QStringLiteral("%1 %2 (%3)")
                                 .arg(QString::fromLatin1(it.key()->metaObject()->className()), it.key()->objectName())
                                 .arg(it.value()));
    repainted.sort();
    QVERIFY(counter.paints.value(&window) == 1);
    QVERIFY2(repainted.isEmpty(),
             qPrintable(QStringLiteral("painted more than once: ") + repainted.join(QLatin1String(", "))));
    // The heading shows its text as a QLabel laid out at paint time would.
    auto* heading = window.findChild<QLabel*>(QStringLiteral("numbersTitle"));
    QVERIFY(heading && heading->isVisible());
    QLabel reference(heading->text());
    reference.setFont(heading->font());
    reference.setPalette(heading->palette());
    reference.setAlignment(heading->alignment());
    reference.resize(heading->size());
    QCOMPARE(heading->grab().toImage().convertToFormat(QImage::Format_RGB32),
             reference.grab().toImage().convertToFormat(QImage::Format_RGB32));
}

void TestMainWindow::rowNamesMeasuredOnceAsQLabel()
{
    // Issue 16, eighteenth stop (h16w): the numbers' row names and section titles and the controls' form labels are
    // PlainLabels, whose hints are one text layout where QLabel's are three (the golden-ratio shape, the one-line
    // height and the widest word: for a text on one line the same rect). Their hints must be QLabel's, and each must
    // have been measured once up to the first paint.
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(window.isStartUpFinished());
    QStringList plainQLabels;
    int plainLabels = 0;
    for (QWidget* container : {static_cast<QWidget*>(window.numbersPanel()), static_cast<QWidget*>(window.findChild<ridgeline::views::ControlsPanel*>())}) {
        QVERIFY(container);
        for (QLabel* label : container->findChildren<QLabel*>()) {
            if (auto* plain = dynamic_cast<ridgeline::views::PlainLabel*>(label)) {
                ++plainLabels;
                QVERIFY2(plain->measuresOnce(), qPrintable(plain->text()));
                const QString what = plain->text();
                // Measured at most once up to here (a label never laid out, in a collapsed group, not at all).
                QVERIFY2(plain->measurements() <= 1, qPrintable(QStringLiteral("%1: %2").arg(what).arg(plain->measurements())));
                QCOMPARE(plain->sizeHint(), plain->QLabel::sizeHint());
                QCOMPARE(plain->minimumSizeHint(), plain->QLabel::minimumSizeHint());
                continue;
            }
            // A plain QLabel of one line left to QLabel's three measurements (the values and texts that change are
            // DocumentLabels or OneLineLabels; QLabel subclasses are not counted).
            const bool plainText = label->textFormat() == Qt::PlainText
                || (label->textFormat() == Qt::AutoText && !Qt::mightBeRichText(label->text()));
            if (typeid(*label) == typeid(QLabel) && plainText && !label->wordWrap() && !label->text().isEmpty()
                && label->pixmap().isNull() && label->isVisibleTo(&window))
                plainQLabels << label->text();
        }
    }
    QVERIFY2(plainQLabels.isEmpty(), qPrintable(plainQLabels.mid(0, 20).join(QStringLiteral(" | "))));
    QVERIFY(plainLabels > 60);
    // QLabel's hints for a few settings QLabel adds to: an indent (a section title's), contents margins, right alignment,
    // a minimum size, and after a new text and font.
    ridgeline::views::PlainLabel label(QStringLiteral("Compute-bound from"));
    QCOMPARE(label.sizeHint(), label.QLabel::sizeHint());
    label.setIndent(3);
    label.setContentsMargins(0, 6, 2, 1);
    QCOMPARE(label.sizeHint(), label.QLabel::sizeHint());
    QCOMPARE(label.minimumSizeHint(), label.QLabel::minimumSizeHint());
    label.setAlignment(Qt::AlignRight | Qt::AlignTop);
    QCOMPARE(label.sizeHint(), label.QLabel::sizeHint());
    ridgeline::views::PlainLabel wide(QStringLiteral("tokens"));
    wide.setMinimumSize(200, 40); // before the first measurement: QLabel keeps its hints until the text or font changes
    QCOMPARE(wide.sizeHint(), wide.QLabel::sizeHint());
    QCOMPARE(wide.minimumSizeHint(), wide.QLabel::minimumSizeHint());
    QCOMPARE(wide.sizeHint(), QSize(200, 40));
    label.setText(QStringLiteral("\u03b7_bw (bandwidth) \u2264 \u00b7 \u2192"));
    QFont bold = label.font();
    bold.setBold(true);
    label.setFont(bold);
    QCOMPARE(label.sizeHint(), label.QLabel::sizeHint());
    QCOMPARE(label.minimumSizeHint(), label.QLabel::minimumSizeHint());
    const int measured = label.measurements();
    label.sizeHint();
    label.minimumSizeHint();
    QCOMPARE(label.measurements(), measured); // remembered
}

void TestMainWindow::plainLabelDrawsAsQLabel()
{
    // Issue 16, twenty-fourth stop: a PlainLabel reads its hint from one kept text layout and paints from the same layout
    // where QLabel::paintEvent() laid the text out and shaped it again on every paint. Five texts (kerning pairs,
    // ligatures, accents, Greek and symbols, one letter), three fonts, five alignments, two indents, five sizes (the hint,
    // wider and taller, and narrower or lower than the text, which clips it): the hint is QLabel's, and grab() equals,
    // byte for byte, the picture QLabel::paintEvent() paints (PlainLabel::setDrawsItself(false)), drawn from the kept
    // layout; the text is laid out once per text and font, however often it is measured or painted.
    QWidget window;
    auto* label = new ridgeline::views::PlainLabel(QString(), &window);
    auto picture = [label](bool own) {
        ridgeline::views::PlainLabel::setDrawsItself(own);
        const QImage image = label->grab().toImage();
        ridgeline::views::PlainLabel::setDrawsItself(true);
        return image;
    };
    const QStringList texts{
        QStringLiteral("Dense 8.0 B (Llama 3 family rule) on NVIDIA H100 SXM \u00b7 B = 8 \u00b7 S = 4,096 \u00b7 P = 1,024"),
        QStringLiteral("of 32: GQA"), QStringLiteral("AVAWAY Tj fi ffl \u00e9"),
        QStringLiteral("\u03b7_bw (bandwidth) \u2264 \u00b7 \u2192"), QStringLiteral("x")};
    const std::vector<Qt::Alignment> alignments{Qt::AlignLeft | Qt::AlignVCenter, Qt::AlignRight | Qt::AlignVCenter,
                                                Qt::AlignHCenter | Qt::AlignTop, Qt::AlignLeft | Qt::AlignBottom,
                                                Qt::AlignRight | Qt::AlignBottom};
    QFont bold = label->font();
    bold.setBold(true);
    QFont larger = label->font();
    larger.setPointSizeF(larger.pointSizeF() * 1.7);
    const std::vector<QFont> fonts{label->font(), bold, larger};
    long long draws = 0;
    int compared = 0;
    for (const QFont& font : fonts) {
        label->setFont(font);
        for (const QString& text : texts) {
            label->setText(text);
            for (const Qt::Alignment alignment : alignments) {
                label->setAlignment(alignment);
                for (const int indentPx : {0, 4}) {
                    label->setIndent(indentPx);
                    const QSize hint = label->sizeHint();
                    QCOMPARE(hint, label->QLabel::sizeHint());
                    QCOMPARE(label->minimumSizeHint(), label->QLabel::minimumSizeHint());
                    const std::vector<QSize> sizes{hint, hint + QSize(30, 9), QSize(std::max(1, hint.width() - 7), hint.height()),
                                                   QSize(hint.width(), std::max(1, hint.height() - 4)),
                                                   hint + QSize(13, 1)};
                    for (const QSize size : sizes) {
                        label->resize(size);
                        const QImage own = picture(true);
                        QVERIFY2(label->layoutDraws() > draws,
                                 qPrintable(QStringLiteral("not drawn from its layout: %1").arg(text)));
                        draws = label->layoutDraws();
                        const QImage reference = picture(false);
                        QVERIFY2(own == reference, qPrintable(QStringLiteral("%1, alignment %2, indent %3, %4 x %5 px")
                                                                  .arg(text)
                                                                  .arg(int(alignment))
                                                                  .arg(indentPx)
                                                                  .arg(size.width())
                                                                  .arg(size.height())));
                        ++compared;
                    }
                }
            }
        }
    }
    QCOMPARE(compared, 750);
    // One layout per text and font: the hint's, which every paint drew.
    QCOMPARE(label->layouts(), (long long)(texts.size() * fonts.size()));
    // The same text painted again lays nothing out.
    const long long layouts = label->layouts();
    label->grab();
    label->grab();
    QCOMPARE(label->layouts(), layouts);
    // The window's status summary is one.
    MainWindow main(model::defaultScenario());
    auto* summary = dynamic_cast<ridgeline::views::PlainLabel*>(main.findChild<QLabel*>(QStringLiteral("statusSummary")));
    QVERIFY(summary);
    QVERIFY(summary->measuresOnce());
}

void TestMainWindow::everyTabLooksAsUnderThePaneStyleSheet_data()
{
    QTest::addColumn<QString>("look");
    QTest::addColumn<QSize>("size");
    // RIDGELINE_TAB_LOOK_ROWS=N keeps the first N rows: scripts/ci-sanitizers.sh runs one there, where the four took a
    // half of this suite's time (docs/performance.md, "CI time, twenty-sixth stop"); ./test.sh runs all four.
    const int rows = qEnvironmentVariableIntValue("RIDGELINE_TAB_LOOK_ROWS") > 0 ? qEnvironmentVariableIntValue("RIDGELINE_TAB_LOOK_ROWS") : 4;
    const struct {
        const char* tag;
        QString look;
        QSize size;
    } all[] = {{"light 1600x1000", QStringLiteral("light"), QSize(1600, 1000)},
               {"dark 1280x800", QStringLiteral("dark"), QSize(1280, 800)},
               {"light 900x600", QStringLiteral("light"), QSize(900, 600)},
               {"presentation 1600x1000", QStringLiteral("presentation"), QSize(1600, 1000)}};
    for (int row = 0; row < std::min(rows, int(std::size(all))); ++row)
        QTest::newRow(all[row].tag) << all[row].look << all[row].size;
}

void TestMainWindow::everyTabLooksAsUnderThePaneStyleSheet()
{
    // Issue 16, seventeenth stop (h16s): the tab widget's style sheet "::pane { border: none; }" put the
    // style-sheet style on every widget of the tabs, under which no widget inherits its parent's palette or font.
    // Without it, palettes set on containers (the window's background, the cards, the numbers' scroll area) would
    // reach the widgets inside them. Each tab, grabbed as it is, must look as it does with that style sheet set
    // again: pixel for pixel, in the light theme at two sizes, in presentation mode and on a dark system palette.
    // With RIDGELINE_TAB_GRABS set to a directory the first grabs are saved there (to compare two builds).
    QFETCH(QString, look);
    QFETCH(QSize, size);
    const QPalette original = QApplication::palette();
    if (look == QLatin1String("dark")) {
        QPalette dark = original;
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
        dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
        dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
        dark.setColor(QPalette::ButtonText, QColor(0xee, 0xee, 0xee));
        QApplication::setPalette(dark);
    }
    {
        MainWindow window(model::defaultScenario());
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY(window.isStartUpFinished());
        // Presentation mode entered for each round of grabs, after the style sheet is set, as it is entered after start-up.
        const bool presentation = look == QLatin1String("presentation");
        ridgeline::views::WhatIfTabs* tabs = window.whatIfTabs();
        auto* centralScroll = window.findChild<QScrollArea*>(QStringLiteral("centralScroll"));
        QVERIFY(centralScroll);
        bool floorsScrolled = false; // in any round of grabs
        const auto grabTabs = [&] {
            if (presentation)
                window.presentation()->setActive(true);
            QList<QImage> grabs;
            for (int tab = 0; tab < tabs->count(); ++tab) {
                tabs->setCurrentIndex(tab);
                window.flushForScreenshot();
                QTest::qWait(50); // what a tab shown starts (the plan's search, a relayout) done
                window.flushForScreenshot();
                grabs.append(window.grab().toImage());
                if (tab == ridgeline::views::WhatIfTabs::FloorsTab)
                    floorsScrolled = floorsScrolled || centralScroll->verticalScrollBar()->maximum() > 0;
            }
            tabs->setCurrentIndex(0);
            if (presentation)
                window.presentation()->setActive(false);
            return grabs;
        };
        grabTabs(); // every tab built and shown once: what a first show leaves to do is done
        const QList<QImage> shown = grabTabs();

        const QString dir = qEnvironmentVariable("RIDGELINE_TAB_GRABS");
        for (int tab = 0; !dir.isEmpty() && tab < shown.size(); ++tab)
            shown[tab].save(QStringLiteral("%1/%2-%3x%4-tab%5.png").arg(dir, look).arg(size.width()).arg(size.height()).arg(tab));
        const QString sheet = tabs->styleSheet();
        tabs->setStyleSheet(QStringLiteral("QTabWidget#whatIfTabs::pane { border: none; }"));
        const QList<QImage> styled = grabTabs();
        tabs->setStyleSheet(sheet);
        QCOMPARE(styled.size(), shown.size());
        for (int tab = 0; !dir.isEmpty() && tab < styled.size(); ++tab)
            styled[tab].save(QStringLiteral("%1/%2-%3x%4-tab%5-styled.png").arg(dir, look).arg(size.width()).arg(size.height()).arg(tab));
        QStringList differing;
        for (int tab = 0; tab < shown.size(); ++tab) {
            // The one difference kept: the spin boxes of the Workload tab's speculative card and of the Plan tab's
            // inputs, outside any style sheet of their own, are Fusion's 23 px high (as the controls' are), not the
            // style-sheet style's 22 px, and what is below them moves down 1 px (docs/performance.md, seventeenth stop).
            if (tab == ridgeline::views::WhatIfTabs::WorkloadTab || tab == ridgeline::views::WhatIfTabs::PlanTab)
                continue;
            // Where the floors scroll (shorter than their minimum: 900 x 600), the view is exactly their minimum high and
            // QGridLayout splits it between the two rows by the cards' size hints, which QCustomPlot takes from each
            // legend's last layout; the restyle lays the legends out again at other sizes, so the split may move by a
            // few pixels. What the floors must keep there is checked by tst_windowtrust::floorsScrollRatherThanSqueezeThePlots
            // (issue 16, twentieth stop).
            if (tab == ridgeline::views::WhatIfTabs::FloorsTab && floorsScrolled)
                continue;
            const QImage& a = shown[tab];
            const QImage b = styled[tab].convertToFormat(a.format());
            if (a.size() != b.size()) {
                differing << QStringLiteral("tab %1: size").arg(tab);
                continue;
            }
            int count = 0;
            QRect box;
            for (int y = 0; y < a.height(); ++y)
                for (int x = 0; x < a.width(); ++x)
                    if (a.pixel(x, y) != b.pixel(x, y)) {
                        ++count;
                        box |= QRect(x, y, 1, 1);
                    }
            if (count > 0)
                differing << QStringLiteral("tab %1 (%2): %3 pixels in x %4-%5, y %6-%7")
                                 .arg(tab).arg(tabs->tabText(tab)).arg(count)
                                 .arg(box.left()).arg(box.right()).arg(box.top()).arg(box.bottom());
        }
        QVERIFY2(differing.isEmpty(), qPrintable(differing.join(QStringLiteral("; "))));
    }
    QApplication::setPalette(original);
    ridgeline::views::setCurrentTheme(ridgeline::views::Theme::light());
}

void TestMainWindow::tabBuiltInPresentationLooksAsOneBuiltBefore()
{
    // A tab first shown in presentation mode gets the projector theme's pens, colours and fonts, as
    // a tab built before presentation mode was entered.
    using ridgeline::views::WhatIfTabs;
    MainWindow early(model::defaultScenario());
    early.whatIfTabs()->ensureBuilt(WhatIfTabs::CapacityTab);
    early.presentation()->setActive(true);
    MainWindow late(model::defaultScenario());
    late.presentation()->setActive(true);
    late.whatIfTabs()->ensureBuilt(WhatIfTabs::CapacityTab);
    ridgeline::views::KvFitPlot* a = early.whatIfTabs()->kvFitPlot();
    ridgeline::views::KvFitPlot* b = late.whatIfTabs()->kvFitPlot();
    QCOMPARE(b->plot()->graph(0)->pen().widthF(), a->plot()->graph(0)->pen().widthF());
    QCOMPARE(b->plot()->graph(0)->pen().color(), a->plot()->graph(0)->pen().color());
    QCOMPARE(b->plot()->xAxis->tickLabelFont().pointSizeF(), a->plot()->xAxis->tickLabelFont().pointSizeF());
    QCOMPARE(b->plot()->xAxis->basePen().color(), a->plot()->xAxis->basePen().color());
    QCOMPARE(b->titleLabel()->font().pointSizeF(), a->titleLabel()->font().pointSizeF());
    late.presentation()->setActive(false);
    early.presentation()->setActive(false);
}

void TestMainWindow::comparisonBuiltInPresentationLooksAsOneBuiltBefore()
{
    // The comparison table is built on first use (issue 16, ninth stop): first used in presentation mode it
    // gets the projector theme's fonts and style sheet, as a table built before presentation mode was entered.
    using ridgeline::views::ComparisonTable;
    MainWindow early(model::defaultScenario());
    ComparisonTable* a = early.comparisonTable();
    early.presentation()->setActive(true);
    MainWindow late(model::defaultScenario());
    late.presentation()->setActive(true);
    QVERIFY(late.findChildren<ComparisonTable*>().isEmpty());
    ComparisonTable* b = late.comparisonTable();
    QCOMPARE(b->styleSheet(), a->styleSheet());
    QCOMPARE(b->font().pointSizeF(), a->font().pointSizeF());
    auto* titleA = a->findChild<QLabel*>(QStringLiteral("comparisonTitle"));
    auto* titleB = b->findChild<QLabel*>(QStringLiteral("comparisonTitle"));
    QVERIFY(titleA && titleB);
    QCOMPARE(titleB->font().pointSizeF(), titleA->font().pointSizeF());
    late.presentation()->setActive(false); // the theme is one for the process: system again from here
    MainWindow fresh(model::defaultScenario());
    QCOMPARE(b->font().pointSizeF(), fresh.comparisonTable()->font().pointSizeF());
    QCOMPARE(b->styleSheet(), fresh.comparisonTable()->styleSheet());
    early.presentation()->setActive(false);
}

/** Issue 14: the numbers show $ / 1M tokens, J / token and tokens/s per MW at the operating point, with their sources; the
 *  Price/GPU-hour box edits the price through the document (one undo step) and the figures follow. */
void TestMainWindow::economicsFollowThePriceBox()
{
    model::Scenario start = model::defaultScenario(); // Llama 3.1 8B on H100 SXM: example price 2.50 USD, TDP 700 W
    start.workload.batch = 16;
    MainWindow window(start);
    window.resize(1600, 1000);
    window.show();
    ScenarioDocument* document = window.document();
    document->evaluateNow();
    QLabel* cost = window.numbersPanel()->valueLabel(QStringLiteral("costOutput"));
    QLabel* costIn = window.numbersPanel()->valueLabel(QStringLiteral("costInput"));
    QLabel* joules = window.numbersPanel()->valueLabel(QStringLiteral("joulesPerToken"));
    QLabel* perMegawatt = window.numbersPanel()->valueLabel(QStringLiteral("tokensPerMegawatt"));
    QLabel* price = window.numbersPanel()->valueLabel(QStringLiteral("price"));
    QVERIFY(cost && costIn && joules && perMegawatt && price);
    const model::OperatingEconomics example = model::operatingEconomics(document->scenario(), document->evaluation());
    QCOMPARE(cost->text(), format::number(*example.cost.costPerMillionOutputTokens) + QStringLiteral(" USD"));
    QCOMPARE(costIn->text(), format::number(*example.cost.costPerMillionInputTokens) + QStringLiteral(" USD"));
    QCOMPARE(joules->text(), format::number(*example.cost.joulesPerOutputToken) + QStringLiteral(" J"));
    QCOMPARE(perMegawatt->text(), format::approximate(*example.cost.outputTokensPerSecondPerMegawatt));
    QVERIFY2(price->text().contains(QStringLiteral("example")), qPrintable(price->text()));
    QVERIFY2(cost->toolTip().contains(QStringLiteral("EXAMPLE price for H100 SXM")), qPrintable(cost->toolTip()));
    QVERIFY2(joules->toolTip().contains(QStringLiteral("datasheet TDP of H100 SXM")), qPrintable(joules->toolTip()));
    QVERIFY(joules->toolTip().contains(QStringLiteral("upper bound")));

    // Type a price into the Hardware group's box: one edit, the $ figures scale with it, the source says "your price".
    auto* box = window.controlsPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("priceSpinBox"));
    QVERIFY(box);
    QCOMPARE(box->text(), QStringLiteral("example"));
    const int undoBefore = window.history()->stack()->count();
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, QStringLiteral("5"));
    QTest::keyClick(box, Qt::Key_Return);
    QCOMPARE(document->scenario().economics.pricePerGpuHour, 5.0);
    QCOMPARE(window.history()->stack()->count(), undoBefore + 1);
    QTRY_COMPARE(cost->text(), format::number(*example.cost.costPerMillionOutputTokens * 2.0) + QStringLiteral(" USD"));
    QCOMPARE(costIn->text(), format::number(*example.cost.costPerMillionInputTokens * 2.0) + QStringLiteral(" USD"));
    QCOMPARE(joules->text(), format::number(*example.cost.joulesPerOutputToken) + QStringLiteral(" J")); // the energy does not move
    QVERIFY2(cost->toolTip().contains(QStringLiteral("your price")), qPrintable(cost->toolTip()));
    // Undo: the example price again.
    window.history()->stack()->undo();
    QTRY_COMPARE(cost->text(), format::number(*example.cost.costPerMillionOutputTokens) + QStringLiteral(" USD"));
    QCOMPARE(box->text(), QStringLiteral("example"));

    // A device the catalogue does not know: no price, no power: a dash, and the tool tip says what to set.
    document->edit([](model::Scenario& s) { s.hardware.name = "Prototype X"; });
    document->evaluateNow();
    QCOMPARE(cost->text(), format::number(std::nan("")));
    QVERIFY(!cost->text().contains(QStringLiteral("nan"), Qt::CaseInsensitive));
    QVERIFY2(cost->toolTip().contains(QStringLiteral("enter one in the Hardware group")), qPrintable(cost->toolTip()));
    QCOMPARE(joules->text(), format::number(std::nan("")));
    QVERIFY2(joules->toolTip().contains(QStringLiteral("set hardware.board_power_watts")), qPrintable(joules->toolTip()));

    // Pinned: the comparison table carries the same figures and their ratio (H100 at 2.50 against 5.00: 2x).
    document->edit([](model::Scenario& s) { s.hardware.name = "H100 SXM"; });
    document->evaluateNow();
    window.pinBaseline();
    document->edit([](model::Scenario& s) { s.economics.pricePerGpuHour = 5.0; });
    document->evaluateNow();
    ridgeline::views::ComparisonTable* table = window.comparisonTable();
    QCOMPARE(table->cell(QStringLiteral("cost_per_million_output_tokens"), QStringLiteral("A"))->text(),
             format::number(*example.cost.costPerMillionOutputTokens) + QStringLiteral(" USD"));
    QCOMPARE(table->cell(QStringLiteral("cost_per_million_output_tokens"), QStringLiteral("B"))->text(),
             format::number(*example.cost.costPerMillionOutputTokens * 2.0) + QStringLiteral(" USD"));
    const QString ratio = table->cell(QStringLiteral("cost_per_million_output_tokens"), QStringLiteral("Ratio"))->text();
    QVERIFY2(ratio.contains(QStringLiteral("2\u00d7")), qPrintable(ratio));
    QVERIFY(table->cell(QStringLiteral("joules_per_output_token"), QStringLiteral("Ratio"))->text().contains(QLatin1Char('=')));
}

/** Issue 14 trial: "Per 1M output tok" was the decode share alone, unlabelled. It says so, and the all-in figure (every
 *  GPU-second charged to output, as --report's cost_per_million_output_tokens_all_in) is beside it; the keys stay. */
void TestMainWindow::costPerOutputTokenSaysWhichShare()
{
    model::Scenario start = model::defaultScenario();
    start.workload.batch = 16;
    MainWindow window(start);
    window.resize(1600, 1000);
    window.show();
    ScenarioDocument* document = window.document();
    document->evaluateNow();
    const model::OperatingEconomics x = model::operatingEconomics(document->scenario(), document->evaluation());
    QVERIFY(x.cost.costPerMillionOutputTokens && x.cost.costPerMillionOutputTokensAllIn);
    QVERIFY(*x.cost.costPerMillionOutputTokensAllIn > *x.cost.costPerMillionOutputTokens); // prefill is part of the all-in
    QLabel* decodeShare = window.numbersPanel()->valueLabel(QStringLiteral("costOutput"));
    QLabel* allIn = window.numbersPanel()->valueLabel(QStringLiteral("costOutputAllIn"));
    QVERIFY(decodeShare && allIn);
    QVERIFY2(decodeShare->accessibleName().contains(QStringLiteral("decode")), qPrintable(decodeShare->accessibleName()));
    QVERIFY2(allIn->accessibleName().contains(QStringLiteral("all-in")), qPrintable(allIn->accessibleName()));
    QCOMPARE(decodeShare->text(), format::number(*x.cost.costPerMillionOutputTokens) + QStringLiteral(" USD"));
    QCOMPARE(allIn->text(), format::number(*x.cost.costPerMillionOutputTokensAllIn) + QStringLiteral(" USD"));
    QVERIFY2(allIn->toolTip().contains(QStringLiteral("cost_per_million_output_tokens_all_in")), qPrintable(allIn->toolTip()));
    // The comparison and the export carry both, under the JSON report's keys, each labelled for what it is.
    QString decodeLabel, allInLabel;
    for (const ridgeline::views::HeadlineFigure& f : ridgeline::views::headlineFigures(document->evaluatedScenario(), document->evaluation())) {
        if (f.key == QStringLiteral("cost_per_million_output_tokens"))
            decodeLabel = f.label;
        if (f.key == QStringLiteral("cost_per_million_output_tokens_all_in")) {
            allInLabel = f.label;
            QCOMPARE(f.value, *x.cost.costPerMillionOutputTokensAllIn);
        }
    }
    QVERIFY2(decodeLabel.contains(QStringLiteral("decode share")), qPrintable(decodeLabel));
    QVERIFY2(allInLabel.contains(QStringLiteral("all-in")), qPrintable(allInLabel));

    // Issue 14 trial: the section says "at (B, S)": its figures follow S (as t_step), and a point that does not fit shows
    // "does not fit", no number; the per-request rows stay per request.
    QLabel* atPoint = window.numbersPanel()->valueLabel(QStringLiteral("costOutputAtPoint"));
    QLabel* joulesAtPoint = window.numbersPanel()->valueLabel(QStringLiteral("joulesPerTokenAtPoint"));
    QVERIFY(atPoint && joulesAtPoint);
    QCOMPARE(atPoint->text(), format::number(*x.atBatchContext.costPerMillionOutputTokens) + QStringLiteral(" USD"));
    document->edit([](model::Scenario& s) { s.workload.contextTokens = 8192; }); // 16 x 8,192 x 128 KiB = 17.2 GB: fits
    document->evaluateNow();
    const model::OperatingEconomics longer = model::operatingEconomics(document->scenario(), document->evaluation());
    QVERIFY(longer.fitsAtBatchContext && longer.atBatchContext.costPerMillionOutputTokens);
    QVERIFY(*longer.atBatchContext.costPerMillionOutputTokens > *x.atBatchContext.costPerMillionOutputTokens);
    QCOMPARE(atPoint->text(), format::number(*longer.atBatchContext.costPerMillionOutputTokens) + QStringLiteral(" USD"));
    QCOMPARE(decodeShare->text(), format::number(*x.cost.costPerMillionOutputTokens) + QStringLiteral(" USD"));
    document->edit([](model::Scenario& s) { s.workload.batch = 1024; s.workload.contextTokens = 131072; });
    document->evaluateNow();
    QVERIFY(!document->evaluation().capacity.fits);
    QCOMPARE(atPoint->text(), QStringLiteral("does not fit"));
    QCOMPARE(joulesAtPoint->text(), QStringLiteral("does not fit"));
}

/** Issue 14 trial: a long economics.currency (the price box's suffix) widened the Controls dock. The dock keeps its width;
 *  the box shows the currency elided and the whole of it in its tool tip. */
void TestMainWindow::longCurrencyKeepsTheDockWidth()
{
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ScenarioDocument* document = window.document();
    document->evaluateNow();
    auto* box = window.controlsPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("priceSpinBox"));
    QVERIFY(box);
    QTRY_COMPARE(box->suffix(), QStringLiteral(" USD"));
    QApplication::processEvents();
    const int dockBefore = window.controlsDock()->width();
    const int boxBefore = box->sizeHint().width();
    // The longest currency label one may give (8 characters, currencyProblem(): a scenario took 256 before issue 14's
    // one rule), of wide letters.
    const QString currency = QStringLiteral("WWWWWWWW");
    document->edit([&](model::Scenario& s) { s.economics.currency = currency.toStdString(); });
    document->evaluateNow();
    QTRY_VERIFY(box->suffix() != QStringLiteral(" USD"));
    QTest::qWait(50); // the layouts settle
    QApplication::processEvents();
    QCOMPARE(window.controlsDock()->width(), dockBefore);
    QVERIFY2(box->sizeHint().width() <= boxBefore + box->fontMetrics().horizontalAdvance(QStringLiteral("MMM")),
             qPrintable(QStringLiteral("price box %1 px wide, was %2").arg(box->sizeHint().width()).arg(boxBefore)));
    QVERIFY2(box->suffix().startsWith(QStringLiteral(" WW")) && box->suffix().endsWith(QChar(0x2026)), qPrintable(box->suffix()));
    QVERIFY2(box->toolTip().contains(currency), qPrintable(box->toolTip()));

    // Issue 16, twenty-ninth stop: the numbers' values are set without OpenType shaping (QFont::PreferNoShaping) while
    // their texts need none (Latin, Greek, common characters); a value whose text needs shaping, here a currency in
    // Arabic script, gets a shaped font before its text: under that strategy Qt 6.4 would draw lam and alef as two
    // isolated letters, shaped they join into one ligature glyph.
    auto* numbers = window.findChild<ridgeline::views::NumbersPanel*>();
    QVERIFY(numbers);
    const auto unshaped = [](const QFont& font) { return (font.styleStrategy() & QFont::PreferNoShaping) != 0; };
    QList<QLabel*> values;
    for (QLabel* label : numbers->findChildren<QLabel*>())
        if (label->objectName().endsWith(QLatin1String("Number")))
            values.push_back(label);
    QVERIFY(values.size() >= 20);
    for (QLabel* value : values)
        QVERIFY2(unshaped(value->font()), qPrintable(value->objectName() + QLatin1Char(' ') + value->text()));
    const QString arabic = QStringLiteral(u"\u0644\u0627"); // lam, alef
    document->edit([&](model::Scenario& s) {
        s.economics.currency = arabic.toStdString();
        s.economics.pricePerGpuHour = 2.5; // a price of its own: the example prices are in USD
    });
    document->evaluateNow();
    const auto showsArabic = [&values, &arabic] {
        return std::any_of(values.begin(), values.end(),
                           [&arabic](const QLabel* v) { return v->text().contains(arabic); });
    };
    QTRY_VERIFY2(showsArabic(), qPrintable(values.front()->text()));
    int inArabic = 0;
    for (QLabel* value : values) {
        if (!value->text().contains(arabic)) {
            QVERIFY2(unshaped(value->font()), qPrintable(value->objectName() + QLatin1Char(' ') + value->text()));
            continue;
        }
        ++inArabic;
        QVERIFY2(!unshaped(value->font()), qPrintable(value->objectName() + QLatin1Char(' ') + value->text()));
        QTextLayout layout(arabic, value->font());
        layout.beginLayout();
        layout.createLine();
        layout.endLayout();
        int glyphs = 0;
        for (const QGlyphRun& run : layout.glyphRuns())
            glyphs += int(run.glyphIndexes().size());
        if (QFontInfo(value->font()).family() == QLatin1String("DejaVu Sans")) // it has the ligature
            QCOMPARE(glyphs, 1);
    }
    QVERIFY2(inArabic >= 1, "no value shows the currency");
}

void TestMainWindow::batchStepRepaintsTheSummaryAlone()
{
    // Issue 16, nineteenth stop: the status bar's summary ("Llama 3.1 8B on H100 SXM · B = 1 · ...") has a new text on
    // every batch step. It fills its own background (the window colour, all that the window and the status bar paint
    // under it), so the step repaints the label alone: no Paint event reaches the window, the status bar or the label's
    // holder there. The window's backing store after the steps equals, bit for bit, a repaint of the whole status bar.
    MainWindow window(model::defaultScenario());
    QVERIFY(showSettled(window, QSize(1600, 1000)));
    auto* summary = window.findChild<QLabel*>(QStringLiteral("statusSummary"));
    QVERIFY(summary && summary->parentWidget());
    QStatusBar* bar = window.statusBar();
    struct PaintRegions final : QObject {
        QHash<QObject*, QRegion> painted;
        bool eventFilter(QObject* watched, QEvent* event) override
        {
            if (event->type() == QEvent::Paint)
                painted[watched] += static_cast<QPaintEvent*>(event)->region();
            return QObject::eventFilter(watched, event);
        }
    } regions;
    for (QObject* watched : {static_cast<QObject*>(&window), static_cast<QObject*>(bar),
                             static_cast<QObject*>(summary->parentWidget()), static_cast<QObject*>(summary)})
        watched->installEventFilter(&regions);
    QSlider* slider = window.controlsPanel()->batchSlider()->slider();
    const QRect inWindow(summary->mapTo(&window, QPoint(0, 0)), summary->size());
    auto shown = [&] {
        return window.screen()->grabWindow(window.winId(), inWindow.x(), inWindow.y(), inWindow.width(), inWindow.height()).toImage();
    };
    const QString before = summary->text();
    for (int step = 1; step <= 4; ++step) {
        regions.painted.clear();
        slider->setSliderPosition(slider->minimum() + step * (slider->maximum() - slider->minimum()) / 5); // a new B each time
        window.document()->evaluateNow();
        for (int pass = 0; pass < 3; ++pass)
            QCoreApplication::processEvents();
        QVERIFY2(!regions.painted.value(summary).isEmpty(), qPrintable(QStringLiteral("step %1: the summary not painted").arg(step)));
        // Twenty-fifth stop: the new B repaints the glyphs it changes (and, right-aligned, those it moves), not the
        // whole summary (PlainLabel::setTextRepaintingChanges()).
        QVERIFY2(regions.painted.value(summary).boundingRect().width() < summary->width(),
                 qPrintable(QStringLiteral("step %1: the whole summary repainted").arg(step)));
        QVERIFY2(!regions.painted.value(&window).intersects(inWindow),
                 qPrintable(QStringLiteral("step %1: the window painted under the summary").arg(step)));
        QVERIFY2(regions.painted.value(bar).isEmpty(), qPrintable(QStringLiteral("step %1: the status bar painted").arg(step)));
        QVERIFY2(regions.painted.value(summary->parentWidget()).isEmpty(),
                 qPrintable(QStringLiteral("step %1: the summary's holder painted").arg(step)));
        const QImage afterStep = shown();
        bar->repaint(); // the status bar and everything on it, the window's background under them first
        QVERIFY2(shown() == afterStep, qPrintable(QStringLiteral("step %1").arg(step)));
    }
    QVERIFY(summary->text() != before);
}

void TestMainWindow::sliderStepsFillTheControlsGroundExactly()
{
    // Issue 16, thirty-second stop: the controls panel's group boxes' children fill their repaints with the box's
    // inside (views/kit/groundfill.h), so a model-size or batch step no longer paints the Model or Workload box under
    // them.
    // In the window (the panel in its scroll area, not a window of its own), after each step the panel's pixels in the
    // backing store equal, bit for bit, a whole repaint of the panel without the fills.
    MainWindow window(model::defaultScenario());
    QVERIFY(showSettled(window, QSize(1600, 1000)));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    ridgeline::views::ControlsPanel* controls = window.controlsPanel();
    QHash<QString, QGroupBox*> boxes;
    for (QGroupBox* box : controls->findChildren<QGroupBox*>())
        boxes.insert(box->title(), box);
    QVERIFY(boxes.value(QStringLiteral("Model")) && boxes.value(QStringLiteral("Workload")));
    struct PaintCount final : QObject {
        int paints = 0;
        bool eventFilter(QObject*, QEvent* event) override
        {
            paints += event->type() == QEvent::Paint;
            return false;
        }
    };
    const QRect inWindow(controls->mapTo(&window, QPoint(0, 0)), controls->size());
    auto shown = [&] {
        return window.screen()
            ->grabWindow(window.winId(), inWindow.x(), inWindow.y(), inWindow.width(), inWindow.height())
            .toImage();
    };
    auto settle = [&] {
        window.document()->evaluateNow();
        for (int pass = 0; pass < 3; ++pass)
            QCoreApplication::processEvents();
    };
    const std::pair<QSlider*, QString> sliders[] = {{controls->modelSizeSlider()->slider(), QStringLiteral("Model")},
                                                    {controls->batchSlider()->slider(), QStringLiteral("Workload")}};
    // The sliders' tick marks change colour with the window's state; a step repaints the span its handle moved across
    // (fourteenth stop): the panel repainted whole in the settled state first.
    settle();
    controls->repaint();
    for (const auto& [slider, title] : sliders) {
        QGroupBox* box = boxes.value(title);
        PaintCount boxPaints;
        box->installEventFilter(&boxPaints);
        for (int step = 1; step <= 5; ++step) {
            boxPaints.paints = 0;
            slider->setSliderPosition(slider->minimum() + step * (slider->maximum() - slider->minimum()) / 7);
            settle();
            // The first step paints the box under its changed children and measures it; the next ones leave it.
            if (step > 1)
                QVERIFY2(boxPaints.paints == 0, qPrintable(QStringLiteral("%1 step %2").arg(title).arg(step)));
            const QImage afterStep = shown();
            ridgeline::views::GroundFill::setEnabled(false);
            // The panel and everything under and on it (not window.repaint(): Qt leaves out the window's opaque
            // descendants, the central widget among them).
            controls->repaint();
            const QImage whole = shown();
            ridgeline::views::GroundFill::setEnabled(true);
            for (ridgeline::views::GroundFill* fill : controls->findChildren<ridgeline::views::GroundFill*>())
                fill->measure();
            QVERIFY2(afterStep == whole, qPrintable(QStringLiteral("%1 step %2").arg(title).arg(step)));
        }
        box->removeEventFilter(&boxPaints);
    }
}

void TestMainWindow::plainLabelRepaintsOnlyItsChangedGlyphs()
{
    // Issue 16, twenty-fifth stop: PlainLabel::setTextRepaintingChanges() repaints only the glyphs a new text changes
    // (the status summary's figure on a slider step) instead of the whole label. Many summaries (figures growing and
    // shrinking, so the line's width changes and, right-aligned, everything before the change moves; names changing;
    // kerning pairs next to the change), in three alignments and two fonts, in a window's label filling its background:
    // after each new text the window's backing store over the label equals, bit for bit, what a whole repaint of the
    // label then paints; most new texts repaint a part of the label only.
    QWidget window;
    window.resize(720, 60);
    auto* label = new ridgeline::views::PlainLabel(QString(), &window);
    label->setGeometry(7, 9, 640, 22);
    label->setAutoFillBackground(true);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    struct PaintRegions final : QObject {
        QRegion painted;
        bool eventFilter(QObject* watched, QEvent* event) override
        {
            if (event->type() == QEvent::Paint)
                painted += static_cast<QPaintEvent*>(event)->region();
            return QObject::eventFilter(watched, event);
        }
    } regions;
    label->installEventFilter(&regions);
    auto shown = [&] {
        const QPoint at = label->mapTo(&window, QPoint(0, 0));
        return window.screen()->grabWindow(window.winId(), at.x(), at.y(), label->width(), label->height()).toImage();
    };
    auto settle = [] {
        for (int pass = 0; pass < 3; ++pass)
            QCoreApplication::processEvents();
    };
    const QStringList models{QStringLiteral("Llama 3.1 8B"), QStringLiteral("Llama 3.1 70B"),
                             QStringLiteral("Dense 88.8 B (Llama 3 family rule)"), QStringLiteral("AVA Tj fi WAY")};
    QFont bold = label->font();
    bold.setBold(true);
    int steps = 0;
    int partial = 0;
    int small = 0;
    for (const QFont& font : {label->font(), bold}) {
        label->setFont(font);
        for (const Qt::Alignment alignment : {Qt::AlignRight | Qt::AlignVCenter, Qt::AlignLeft | Qt::AlignVCenter,
                                              Qt::AlignHCenter | Qt::AlignVCenter}) {
            label->setAlignment(alignment);
            label->setText(QStringLiteral("start"));
            settle();
            unsigned batch = 1;
            for (int i = 0; i < 40; ++i) {
                // Figures as the sliders move them: B doubling then falling back, S and P by odd steps, now and then
                // another model name.
                batch = (i % 13 == 12) ? 1 : batch * 2 + unsigned(i % 3);
                const QString text = QStringLiteral("%1 on NVIDIA H100 SXM \u00b7 B = %2 \u00b7 S = %3 \u00b7 P = %4")
                                         .arg(models[(i / 7) % models.size()], QLocale(QLocale::English).toString(batch),
                                              QLocale(QLocale::English).toString(4096 + 977 * (i % 5)),
                                              QLocale(QLocale::English).toString(1024 + 7 * (i % 2)));
                const int before = label->partialRepaints();
                regions.painted = QRegion();
                label->setTextRepaintingChanges(text);
                settle();
                QCOMPARE(label->text(), text);
                ++steps;
                if (label->partialRepaints() > before)
                    ++partial;
                const QRect whole = label->rect();
                if (!regions.painted.isEmpty() && regions.painted.boundingRect().width() * 3 < whole.width())
                    ++small;
                const QImage afterStep = shown();
                label->repaint();
                QVERIFY2(shown() == afterStep,
                         qPrintable(QStringLiteral("font %1, alignment %2, step %3: \"%4\" differs from a whole repaint")
                                        .arg(font.bold() ? 1 : 0)
                                        .arg(int(alignment))
                                        .arg(i)
                                        .arg(text)));
            }
        }
    }
    QCOMPARE(partial, steps); // every new text was compared (it is shown from the kept layout)
    QVERIFY2(small * 2 > steps, qPrintable(QStringLiteral("%1 of %2 repaints a third of the label or less").arg(small).arg(steps)));
    // Hidden, the label sets its text as QLabel does.
    label->hide();
    const int before = label->partialRepaints();
    label->setTextRepaintingChanges(QStringLiteral("hidden"));
    QCOMPARE(label->partialRepaints(), before);
    QCOMPARE(label->text(), QStringLiteral("hidden"));
}

void TestMainWindow::sliderStepsRepaintWhatTheirItemsMoved()
{
    // Issue 16, twenty-fifth stop (views/kit/plotdamage.h): a replot that moved only the decode floor's or the SLO
    // plot's current-B line, marker and label repaints their old and new rects, not the whole plot. After every step of
    // four sliders (batch steps between the others, so that the rule is left and taken again), each plot's pixels in the
    // window's backing store must equal, bit for bit, a repaint of the whole plot; and the same check must fail when the
    // rects are made too small (the margin for antialiasing taken away), so that it can see a rect that misses pixels.
    using ridgeline::views::PlotDamage;
    MainWindow window(model::defaultScenario());
    QVERIFY(showSettled(window, QSize(1600, 1000)));
    QList<QCustomPlot*> plots = window.plots();
    plots << window.kvSharePanel()->barPlot();
    QCustomPlot* decode = window.decodePanel()->plot();
    QCustomPlot* slo = window.sloPanel()->plot();
    PlotDamage* decodeDamage = PlotDamage::of(decode);
    PlotDamage* sloDamage = PlotDamage::of(slo);
    QVERIFY(decodeDamage && sloDamage);
    auto shown = [&](QCustomPlot* plot) {
        const QRect r(plot->mapTo(&window, QPoint(0, 0)), plot->size());
        return window.screen()->grabWindow(window.winId(), r.x(), r.y(), r.width(), r.height()).toImage();
    };
    ridgeline::views::ControlsPanel* controls = window.controlsPanel();
    QSlider* batch = controls->batchSlider()->slider();
    const std::vector<std::pair<QSlider*, int>> runs = {{batch, 10},
                                                        {controls->contextSlider()->slider(), 3},
                                                        {batch, 6},
                                                        {controls->modelSizeSlider()->slider(), 3},
                                                        {batch, 6},
                                                        {controls->kvHeadsSlider()->slider(), 2},
                                                        {batch, 6}};
    // Steps whose backing store differs from a whole repaint in some plot; partial repaints of the two plots.
    auto sweep = [&](const std::vector<std::pair<QSlider*, int>>& sliders, QStringList* differing) {
        long long partial = 0;
        for (const auto& [slider, steps] : sliders) {
            const int from = slider->sliderPosition();
            for (int step = 1; step <= steps; ++step) {
                const long long before = decodeDamage->partialUpdates() + sloDamage->partialUpdates();
                const int span = slider->maximum() - slider->minimum();
                // Up and down the range in uneven steps: each position new, the line moving both ways.
                const int position = slider->minimum() + (from - slider->minimum() + step * (span / 7 + 1) * (step % 2 ? 1 : -1)
                                                           + 3 * span) % (span + 1);
                slider->setSliderPosition(position);
                window.document()->evaluateNow();
                for (int pass = 0; pass < 3; ++pass)
                    QCoreApplication::processEvents();
                partial += decodeDamage->partialUpdates() + sloDamage->partialUpdates() - before;
                for (QCustomPlot* plot : plots) {
                    const QImage afterStep = shown(plot);
                    plot->repaint();
                    if (shown(plot) != afterStep)
                        differing->append(QStringLiteral("%1 step %2 (position %3) %4")
                                              .arg(slider->objectName()).arg(step).arg(position).arg(plot->objectName()));
                }
            }
        }
        return partial;
    };
    QStringList differing;
    const long long partial = sweep(runs, &differing);
    QVERIFY2(differing.isEmpty(), qPrintable(differing.join(QStringLiteral("; "))));
    // 28 batch steps, each replotting both plots; the first replots after another slider's step repaint whole.
    QVERIFY2(partial >= 40, qPrintable(QStringLiteral("partial repaints of the decode and SLO plots: %1").arg(partial)));

    // The check sees a rect that is too small: without the margin around each moving item's box (and one pixel less),
    // some batch step leaves pixels of the old line, marker or label on screen.
    const int margin = PlotDamage::marginPx();
    PlotDamage::setMarginPx(-1);
    QStringList missed;
    sweep({{batch, 8}}, &missed);
    PlotDamage::setMarginPx(margin);
    QVERIFY2(!missed.isEmpty(), "rects one pixel inside the moving items' boxes: no step differed");

    // What paintEvent() draws besides the buffer: a new background brush repaints the whole plot.
    for (const QColor& colour : {QColor(Qt::red), QColor(Qt::white)}) {
        decode->setBackground(QBrush(colour));
        decode->replot();
        for (int pass = 0; pass < 3; ++pass)
            QCoreApplication::processEvents();
        const QImage afterBrush = shown(decode);
        decode->repaint();
        QVERIFY2(shown(decode) == afterBrush, qPrintable(colour.name()));
        QCOMPARE(afterBrush.pixelColor(afterBrush.width() - 2, afterBrush.height() - 2), colour);
    }
}

/** The window's scroll bars (the controls' dock, the what-ifs' area, the numbers panel) draw through
 *  InlineBlend::scrollBarStyle(), in strip images of at most kScrollBarStripRows rows: start-up's first paint hands
 *  none of their blends to the raster engine's thread pool (112 hand-offs before; issue 16, thirty-third stop,
 *  docs/performance.md). Each visible bar taller than a strip is drawn in strips when the window is painted. */
void TestMainWindow::scrollBarsAreDrawnInStrips()
{
    using ridgeline::views::InlineBlend;
    MainWindow window(model::defaultScenario());
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    long long expected = 0;
    int tall = 0;
    for (QScrollBar* bar : window.findChildren<QScrollBar*>()) {
        if (!bar->isVisible() || bar->height() <= InlineBlend::kScrollBarStripRows)
            continue;
        QVERIFY2(bar->style() == InlineBlend::scrollBarStyle(), qPrintable(bar->parentWidget()->objectName()));
        expected += (bar->height() + InlineBlend::kScrollBarStripRows - 1) / InlineBlend::kScrollBarStripRows;
        ++tall;
    }
    QVERIFY(tall >= 1); // the controls' dock scrolls at 1280 x 720
    const long long before = InlineBlend::scrollBarStrips();
    QVERIFY(!window.grab().isNull());
    const long long strips = InlineBlend::scrollBarStrips() - before;
    QVERIFY2(strips >= expected, qPrintable(QStringLiteral("%1 strips, %2 expected").arg(strips).arg(expected)));
    // (Each strip's height: tst_controlspanel's scrollBarsInStripsAreFusionsPixels.)
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
