// SPDX-License-Identifier: GPL-3.0-or-later
// A/B comparison: the pinned baseline's curves are model::evaluate of A and stay so while B moves;
// the numbers show A, B and B ÷ A; the typical comparisons take one pin and one change.

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <QStandardPaths>
#include <QTest>

#include <qcustomplot.h>

#include "app/export.h"
#include "app/mainwindow.h"
#include "model/cost/costmodel.h"
#include "views/whatifs/baseline.h"
#include "views/whatifs/comparisontable.h"
#include "views/controls/controlspanel.h"
#include "views/floors/decodeplot.h"
#include "document/format.h"
#include "views/floors/headlinefigures.h"
#include "views/floors/kvshareplot.h"
#include "views/floors/numberspanel.h"
#include "views/kit/plotpanel.h"
#include "views/floors/prefillplot.h"
#include "views/floors/rooflineplot.h"
#include "document/scenariodocument.h"
#include "views/floors/sloplot.h"
#include "views/kit/valueslider.h"

using ridgeline::app::MainWindow;
namespace model = ridgeline::model;
namespace views = ridgeline::views;

namespace {

QVector<double> values(const QCPGraph* graph)
{
    QVector<double> out;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        out.append(it->value);
    return out;
}

QVector<double> expected(const Eigen::ArrayXd& a, double scale = 1.0)
{
    QVector<double> out;
    for (Eigen::Index i = 0; i < a.size(); ++i)
        out.append(a[i] * scale);
    return out;
}

int comboIndexContaining(QComboBox* combo, const QString& text)
{
    for (int i = 0; i < combo->count(); ++i)
        if (combo->itemText(i).contains(text))
            return i;
    return -1;
}

/** Picks the first item containing @p text as a user does (the controls act on activated()). */
bool choose(QComboBox* combo, const QString& text)
{
    const int index = comboIndexContaining(combo, text);
    if (index < 0)
        return false;
    combo->setCurrentIndex(index);
    emit combo->activated(index);
    return true;
}

} // namespace

class TestBaseline final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void pinnedCurvesAreAsEvaluatedWhileBMoves();
    void numbersShowAAndB();
    void kvPrecisionAndGqaComparisons();
    void clearRemovesEverything();
    void summaryHasBothColumns();
    void renderPng();
};

void TestBaseline::pinnedCurvesAreAsEvaluatedWhileBMoves()
{
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    const model::Scenario a = window.document()->scenario();
    window.pinBaseline();
    views::BaselineOverlay* baseline = window.baseline();
    QVERIFY(baseline->isPinned());
    QVERIFY(baseline->label().contains(QStringLiteral("H100")));
    const model::Evaluation ea = model::evaluate(a);

    // Same model on H200: pick it in the hardware combo; and move B's batch a decade.
    QComboBox* hardware = window.controlsPanel()->hardwarePresetCombo();
    QVERIFY(choose(hardware, QStringLiteral("H200")));
    QSlider* batch = window.controlsPanel()->batchSlider()->slider();
    batch->setFocus();
    QTest::keyClick(batch, Qt::Key_PageUp);
    window.document()->evaluateNow();
    QCOMPARE(window.document()->scenario().workload.batch, 10);
    QVERIFY(window.document()->scenario().hardware.name.find("H200") != std::string::npos);

    // A's graphs: exactly model::evaluate(A), untouched by B's edits.
    const QList<QCPGraph*> decode = baseline->graphs(window.decodePanel());
    QCOMPARE(decode.size(), 2);
    QCOMPARE(values(decode[0]), expected(ea.sweeps.stepMs));
    QCOMPARE(decode[0]->name(), baseline->label());
    QCOMPARE(decode[1]->data()->constBegin()->key, 1.0);
    QCOMPARE(decode[1]->data()->constBegin()->value, ea.decode.stepSeconds * 1e3);
    QCOMPARE(values(baseline->graphs(window.sloPanel())[0]), expected(ea.sweeps.stepMs));
    QCOMPARE(values(baseline->graphs(window.rooflinePanel())[0]), expected(ea.sweeps.attainableFlopsPerSecond, 1e-12));
    QCOMPARE(values(baseline->graphs(window.kvSharePanel())[0]), expected(ea.sweeps.kvShare, 100.0));
    QCOMPARE(values(baseline->graphs(window.prefillPanel())[0]), expected(ea.sweeps.prefillFlop, 1e-12));
    // B's curves follow B.
    const model::Evaluation eb = model::evaluate(window.document()->scenario());
    QCOMPARE(values(window.decodePanel()->stepGraph()), expected(eb.sweeps.stepMs));
    QVERIFY(values(window.decodePanel()->stepGraph()) != values(decode[0]));
    // A stays inside the axes.
    const QCPRange y = window.decodePanel()->plot()->yAxis->range();
    QVERIFY(y.lower <= ea.sweeps.stepMs.minCoeff() && y.upper >= ea.sweeps.stepMs.maxCoeff());
    // A second bar in the KV chart.
    QCOMPARE(window.kvSharePanel()->kvBarSet()->count(), 2);
    QCOMPARE(window.kvSharePanel()->kvBarSet()->at(1), ea.decode.kvBytes / 1e9);
    QBarCategoryAxis* categories = nullptr;
    for (QAbstractAxis* axis : window.kvSharePanel()->chartView()->chart()->axes())
        if (auto* c = qobject_cast<QBarCategoryAxis*>(axis))
            categories = c;
    QVERIFY(categories);
    QCOMPARE(categories->categories(), QStringList({QStringLiteral("B"), QStringLiteral("A")}));
    QVERIFY(categories->isVisible());
    QVERIFY(categories->labelsVisible());
    window.flushForScreenshot();
    QVERIFY(window.kvSharePanel()->grab().toImage().save(QStringLiteral("/tmp/ridgeline-kv-ab.png")));
}

void TestBaseline::numbersShowAAndB()
{
    MainWindow window(model::defaultScenario());
    window.show();
    window.pinBaseline();
    views::ComparisonTable* table = window.comparisonTable();
    QVERIFY(table->isVisible());
    QVERIFY(!window.numbersPanel()->isVisible());
    window.document()->edit([](model::Scenario& s) { s.hardware.bandwidthBytesPerSecond = 4.8e12; });
    window.document()->evaluateNow();
    const model::Evaluation ea = model::evaluate(model::defaultScenario());
    const model::Evaluation eb = window.document()->evaluation();
    QCOMPARE(table->cell(QStringLiteral("floor_ms"), QStringLiteral("A"))->text(),
             views::format::milliseconds(ea.decode.floorSecondsBatch1 * 1e3));
    QCOMPARE(table->cell(QStringLiteral("floor_ms"), QStringLiteral("B"))->text(),
             views::format::milliseconds(eb.decode.floorSecondsBatch1 * 1e3));
    const QString ratio = table->cell(QStringLiteral("floor_ms"), QStringLiteral("Ratio"))->text();
    QVERIFY2(ratio.contains(views::ratioText(ea.decode.floorSecondsBatch1, eb.decode.floorSecondsBatch1)), qPrintable(ratio));
    QVERIFY2(ratio.contains(QStringLiteral("0.698")), qPrintable(ratio)); // 3.35 / 4.8
    // The View action flips back to the single numbers panel.
    QAction* compare = window.findChild<QAction*>(QStringLiteral("compareNumbersAction"));
    QVERIFY(compare && compare->isEnabled());
    compare->setChecked(false);
    QVERIFY(window.numbersPanel()->isVisible());
    QVERIFY(!table->isVisible());
}

void TestBaseline::kvPrecisionAndGqaComparisons()
{
    MainWindow window(model::defaultScenario());
    window.show();
    window.document()->edit([](model::Scenario& s) {
        s.workload.batch = 64;
        s.workload.contextTokens = 32768;
    });
    window.pinBaseline(); // bf16 KV, GQA-8
    QComboBox* kv = window.findChild<QComboBox*>(QStringLiteral("kvDtypeCombo"));
    QVERIFY(kv);
    QVERIFY(choose(kv, QStringLiteral("fp8")));
    window.document()->evaluateNow();
    QCOMPARE(window.document()->scenario().model.kvDtype, model::DType::FP8);
    const QString ratio = window.comparisonTable()->cell(QStringLiteral("kv_kib_per_token"), QStringLiteral("Ratio"))->text();
    QVERIFY2(ratio.contains(QStringLiteral("0.5")), qPrintable(ratio));

    // GQA-8 against MHA: repin at fp8? No: back to bf16, then all 32 KV heads.
    QVERIFY(choose(kv, QStringLiteral("bf16")));
    window.document()->edit([](model::Scenario& s) { s.model.kvHeads = 32; });
    window.document()->evaluateNow();
    const QString mha = window.comparisonTable()->cell(QStringLiteral("kv_kib_per_token"), QStringLiteral("Ratio"))->text();
    QVERIFY2(mha.contains(QStringLiteral("4\u00d7")), qPrintable(mha));
}

void TestBaseline::clearRemovesEverything()
{
    MainWindow window(model::defaultScenario());
    window.show();
    QList<int> graphCounts;
    for (QCustomPlot* plot : window.plots())
        graphCounts << plot->graphCount();
    const int items = window.prefillPanel()->plot()->itemCount();
    window.pinBaseline();
    window.pinBaseline(); // repin replaces, never stacks
    int total = 0;
    for (int i = 0; i < window.plots().size(); ++i)
        total += window.plots()[i]->graphCount() - graphCounts[i];
    QCOMPARE(total, 2 + 3 + 2 + 1 + 2);
    window.clearBaseline();
    for (int i = 0; i < window.plots().size(); ++i)
        QCOMPARE(window.plots()[i]->graphCount(), graphCounts[i]);
    QCOMPARE(window.prefillPanel()->plot()->itemCount(), items);
    QCOMPARE(window.kvSharePanel()->kvBarSet()->count(), 1);
    QVERIFY(!window.comparisonTable()->isVisible());
    QVERIFY(window.numbersPanel()->isVisible());
}

void TestBaseline::summaryHasBothColumns()
{
    MainWindow window(model::defaultScenario());
    window.show();
    const QString single = window.copySummary();
    QVERIFY(single.contains(QStringLiteral("| Figure | Value |")));
    QVERIFY(single.contains(QStringLiteral("## Takeaways")));
    QVERIFY(single.contains(window.decodePanel()->takeaway()));
    window.pinBaseline();
    window.document()->edit([](model::Scenario& s) { s.workload.batch = 32; });
    const QString ab = window.copySummary();
    QVERIFY2(ab.contains(QStringLiteral("| Figure | A | B | B \u00f7 A |")), qPrintable(ab));
    QVERIFY(ab.contains(QStringLiteral("A (baseline): Llama 3.1 8B on H100 SXM")));
    QVERIFY(ab.contains(QStringLiteral("B = 32")));
}

void TestBaseline::renderPng()
{
    MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    window.pinBaseline();
    QComboBox* hardware = window.controlsPanel()->hardwarePresetCombo();
    QVERIFY(choose(hardware, QStringLiteral("H200")));
    window.document()->edit([](model::Scenario& s) { s.workload.batch = 16; });
    window.flushForScreenshot();
    QVERIFY(window.grab().toImage().save(QStringLiteral("/tmp/ridgeline-baseline.png")));
}

QTEST_MAIN(TestBaseline)
#include "tst_baseline.moc"
