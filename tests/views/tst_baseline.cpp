// SPDX-License-Identifier: GPL-3.0-or-later
// A/B comparison: the pinned baseline's curves are model::evaluate of A and stay so while B moves;
// the numbers show A, B and B ÷ A; the typical comparisons take one pin and one change.

#include <QScrollBar>
#include <QScrollArea>
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QFile>
#include <QMenu>
#include <QTest>

#include <functional>

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
#include "views/kit/baselinelayer.h"
#include "views/kit/cardbuffer.h"
#include "views/kit/palette.h"
#include "views/kit/curvelayer.h"
#include "views/kit/gridlayer.h"
#include "views/kit/pinnedlayer.h"
#include "views/floors/floorplot.h"
#include "views/whatifs/whatifstabs.h"
#include "views/whatifs/capacityplot.h"
#include "views/whatifs/kvfitplot.h"
#include "views/whatifs/speculativeplot.h"

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

/** The graphs of each pinned scenario on a floor plot: how many each pins (main curve + markers). */
int graphsPerPinned(const views::FloorPlot* plot)
{
    switch (plot->id()) {
    case views::FloorPlotId::Decode: return 2;
    case views::FloorPlotId::Roofline: return 3;
    case views::FloorPlotId::KvShare: return 2;
    case views::FloorPlotId::Prefill: return 1;
    case views::FloorPlotId::Slo: return 2;
    }
    return 0;
}

int countBaselineGraphs(QCustomPlot* plot)
{
    int n = 0;
    for (int i = 0; i < plot->graphCount(); ++i)
        n += plot->graph(i)->objectName() == QLatin1String("baselineGraph") ? 1 : 0;
    return n;
}

/** The names written at the plot's top left, in drawing order, with their colours. */
QList<QPair<QString, QColor>> pinnedLabels(QCustomPlot* plot)
{
    QList<QPair<QString, QColor>> out;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)); text && text->objectName() == QLatin1String("baselineLabel"))
            out.append({text->text(), text->color()});
    return out;
}

/** Pins the window's scenario after @p edit as the next scenario; returns the scenario pinned. */
model::Scenario pinAfter(MainWindow& window, const std::function<void(model::Scenario&)>& edit)
{
    window.document()->edit(edit);
    window.document()->evaluateNow();
    const model::Scenario s = window.document()->evaluatedScenario();
    window.pinNext();
    return s;
}

/** The largest difference of one colour channel between @p a and @p b (same size), and how many pixels differ. */
QPair<int, int> imageDifference(const QImage& a, const QImage& b)
{
    const QImage x = a.convertToFormat(QImage::Format_ARGB32), y = b.convertToFormat(QImage::Format_ARGB32);
    int largest = 0, pixels = 0;
    for (int row = 0; row < x.height(); ++row) {
        const QRgb* p = reinterpret_cast<const QRgb*>(x.constScanLine(row));
        const QRgb* q = reinterpret_cast<const QRgb*>(y.constScanLine(row));
        for (int col = 0; col < x.width(); ++col) {
            const int d = std::max({std::abs(qRed(p[col]) - qRed(q[col])), std::abs(qGreen(p[col]) - qGreen(q[col])),
                                    std::abs(qBlue(p[col]) - qBlue(q[col]))});
            largest = std::max(largest, d);
            pixels += d > 0 ? 1 : 0;
        }
    }
    return {largest, pixels};
}

} // namespace

class TestBaseline final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void pinnedCurvesAreAsEvaluatedWhileBMoves();
    void clearsLeaveWhatTheGridCopyWrites();
    void numbersShowAAndB();
    void kvPrecisionAndGqaComparisons();
    void clearRemovesEverything();
    void summaryHasBothColumns();
    void renderPng();
    void nWayThreePinnedOnEveryPlot();
    void nWayTableColumnsAndRatios();
    void nWayExportAndLimit();
    void pinnedCurvesDrawnFromAPictureRedrawnOnChange();
    void gridFromAPictureSameAsStrokedAndHungLabelsFollow();
    void nWayLiveColumnNeverClips();
    void tableFitsAt1280And1600();
    void pinsThatReadTheSameAreToldApart();
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
    QCOMPARE(window.kvSharePanel()->barCount(), 2);
    QCOMPARE(window.kvSharePanel()->kvGb(1), ea.decode.kvBytes / 1e9);
    QCOMPARE(window.kvSharePanel()->barLabels(), QStringList({QStringLiteral("B"), QStringLiteral("A")}));
    QVERIFY(window.kvSharePanel()->barAxis()->visible());
    QVERIFY(window.kvSharePanel()->barAxis()->tickLabels());
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
    QCOMPARE(window.kvSharePanel()->barCount(), 1);
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

void TestBaseline::nWayThreePinnedOnEveryPlot()
{
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QList<int> before;
    for (QCustomPlot* plot : window.plots())
        before << plot->graphCount();
    // A: the default (8B on H100); B: more bandwidth; C: a larger batch and fp8 KV.
    window.document()->evaluateNow();
    const model::Scenario a = window.document()->evaluatedScenario();
    QCOMPARE(window.pinNext(), 0);
    const model::Scenario b = pinAfter(window, [](model::Scenario& s) {
        s.hardware.bandwidthBytesPerSecond = 4.8e12;
        s.hardware.name = "H200";
    });
    const model::Scenario c = pinAfter(window, [](model::Scenario& s) {
        s.workload.batch = 32;
        s.model.kvDtype = model::DType::FP8;
    });
    views::BaselineOverlay* overlay = window.baseline();
    QCOMPARE(overlay->count(), 3);
    const std::vector<model::Scenario> pinned{a, b, c};
    const QStringList letters{QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")};
    // Colours: three different ones, A's the baseline colour as in the A/B comparison.
    QCOMPARE(views::palette::pinned(0), views::palette::baseline());
    QVERIFY(views::palette::pinned(0) != views::palette::pinned(1) && views::palette::pinned(1) != views::palette::pinned(2)
            && views::palette::pinned(0) != views::palette::pinned(2));

    const QList<views::FloorPlot*> floors = window.floorPlots();
    for (int p = 0; p < floors.size(); ++p) {
        views::FloorPlot* plot = floors[p];
        const QString id = plot->name();
        QCOMPARE(plot->baselineCount(), 3);
        QCOMPARE(plot->plot()->graphCount() - before[p], 3 * graphsPerPinned(plot));
        QCOMPARE(countBaselineGraphs(plot->plot()), 3 * graphsPerPinned(plot));
        const QList<QPair<QString, QColor>> labels = pinnedLabels(plot->plot());
        QCOMPARE(labels.size(), 3);
        for (int i = 0; i < 3; ++i) {
            // B and C read the same (8B on H200): told apart by their order among those of that name (h14g).
            const QString suffix = i == 1 ? QStringLiteral(" (pin 1)") : i == 2 ? QStringLiteral(" (pin 2)") : QString();
            const QString name = letters[i] + QStringLiteral(": ") + views::scenarioName(pinned[size_t(i)]) + suffix;
            QCOMPARE(overlay->label(i), name);
            const QList<QCPGraph*> graphs = plot->baselineGraphs(i);
            QCOMPARE(graphs.size(), graphsPerPinned(plot));
            QCOMPARE(graphs[0]->name(), name);
            QCOMPARE(graphs[0]->pen().color(), views::palette::pinned(i));
            QVERIFY2(labels[i].first.endsWith(name), qPrintable(id + QStringLiteral(": ") + labels[i].first));
            QCOMPARE(labels[i].second, views::palette::pinned(i));
            QCOMPARE(overlay->graphs(plot, i), graphs);
        }
        // Three different dash patterns.
        QVERIFY(plot->baselineGraphs(0)[0]->pen().dashPattern() != plot->baselineGraphs(1)[0]->pen().dashPattern());
        QVERIFY(plot->baselineGraphs(1)[0]->pen().dashPattern() != plot->baselineGraphs(2)[0]->pen().dashPattern());
    }
    // Each pinned curve is model::evaluate of its scenario.
    for (int i = 0; i < 3; ++i) {
        const model::Evaluation e = model::evaluate(pinned[size_t(i)]);
        QCOMPARE(values(window.decodePanel()->baselineGraphs(i)[0]), expected(e.sweeps.stepMs));
        QCOMPARE(values(window.kvSharePanel()->baselineGraphs(i)[0]), expected(e.sweeps.kvShare, 100.0));
        QCOMPARE(window.kvSharePanel()->kvGb(1 + i), e.decode.kvBytes / 1e9);
    }
    // The what-if plots that drew A draw all three.
    views::WhatIfTabs* tabs = window.whatIfTabs();
    for (views::PlotPanel* panel : QList<views::PlotPanel*>{tabs->capacityPlot(), tabs->kvFitPlot(), tabs->speculativePlot()})
        for (int i = 0; i < 3; ++i)
            QVERIFY2(!overlay->graphs(panel, i).isEmpty(), qPrintable(panel->objectName()));
    QCOMPARE(pinnedLabels(tabs->speculativePlot()->plot()).size(), 3);
    // The KV bars: live, then A, B, C.
    QCOMPARE(window.kvSharePanel()->barLabels(), QStringList({QStringLiteral("live"), QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")}));
    QVERIFY(window.kvSharePanel()->barAxis()->visible());

    window.flushForScreenshot();
    QVERIFY(window.grab().toImage().save(QStringLiteral("/tmp/ridgeline-nway.png")));

    // Unpin B from the Edit menu: A and C stay, in their colours.
    auto* unpinB = window.findChild<QAction*>(QStringLiteral("unpinActionB"));
    QVERIFY(unpinB);
    unpinB->trigger();
    QCOMPARE(overlay->count(), 2);
    QVERIFY(!window.findChild<QAction*>(QStringLiteral("unpinActionB")));
    for (int p = 0; p < floors.size(); ++p) {
        QCOMPARE(floors[p]->plot()->graphCount() - before[p], 2 * graphsPerPinned(floors[p]));
        QCOMPARE(floors[p]->baselineSlot(1), 2);
        QCOMPARE(floors[p]->baselineGraphs(1)[0]->pen().color(), views::palette::pinned(2));
        QCOMPARE(pinnedLabels(floors[p]->plot()).size(), 2);
    }
    QCOMPARE(window.kvSharePanel()->barCount(), 3);
    // The next pin takes the free letter B again.
    QCOMPARE(window.pinNext(), 1);
    QCOMPARE(overlay->count(), 3);

    // Clear all: every plot as before.
    window.findChild<QAction*>(QStringLiteral("clearBaselineAction"))->trigger();
    QVERIFY(!overlay->isPinned());
    for (int p = 0; p < floors.size(); ++p) {
        QCOMPARE(floors[p]->plot()->graphCount(), before[p]);
        QVERIFY(pinnedLabels(floors[p]->plot()).isEmpty());
    }
    QCOMPARE(window.kvSharePanel()->barCount(), 1);
    QVERIFY(!window.comparisonTable()->isVisible());
}

void TestBaseline::nWayTableColumnsAndRatios()
{
    MainWindow window(model::defaultScenario());
    window.show();
    window.document()->evaluateNow();
    const model::Scenario a = window.document()->evaluatedScenario();
    window.findChild<QAction*>(QStringLiteral("pinBaselineAction"))->trigger(); // A, as in the A/B comparison
    views::ComparisonTable* table = window.comparisonTable();
    QCOMPARE(table->headings(), QStringList({QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("B \u00f7 A")}));
    const model::Scenario b = pinAfter(window, [](model::Scenario& s) { s.hardware.bandwidthBytesPerSecond = 4.8e12; });
    const model::Scenario c = pinAfter(window, [](model::Scenario& s) { s.workload.batch = 64; });
    window.document()->edit([](model::Scenario& s) { s.hardware.bandwidthBytesPerSecond = 2.0e12; });
    window.document()->evaluateNow();
    const model::Scenario live = window.document()->evaluatedScenario();
    QVERIFY(table->isVisible());
    // N + 1 value columns: A, B, C and the live one.
    QCOMPARE(table->headings(), QStringList({QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C"), QStringLiteral("live")}));
    QCOMPARE(table->liveColumn(), QStringLiteral("Live"));
    const std::vector<model::Scenario> scenarios{a, b, c, live};
    const QStringList columns{QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C"), QStringLiteral("Live")};
    std::vector<std::vector<views::HeadlineFigure>> figures;
    for (const model::Scenario& s : scenarios)
        figures.push_back(views::headlineFigures(s, model::evaluate(s)));
    auto figure = [&](size_t i, const QString& key) {
        for (const views::HeadlineFigure& f : figures[i])
            if (f.key == key)
                return f;
        return views::HeadlineFigure{};
    };
    for (const QString& key : {QStringLiteral("floor_ms"), QStringLiteral("step_ms"), QStringLiteral("tokens_per_s_total")}) {
        for (size_t i = 0; i < 4; ++i) {
            QLabel* cell = table->cell(key, columns[qsizetype(i)]);
            QVERIFY2(cell, qPrintable(key + columns[qsizetype(i)]));
            QCOMPARE(cell->text(), figure(i, key).text);
        }
        // Ratios to A, the first pinned.
        const double va = figure(0, key).value;
        for (size_t i = 1; i < 3; ++i) {
            QLabel* ratio = table->cell(key, QStringLiteral("Ratio") + columns[qsizetype(i)]);
            QVERIFY2(ratio, qPrintable(key));
            QVERIFY2(ratio->text().contains(views::ratioText(va, figure(i, key).value)), qPrintable(ratio->text()));
        }
        QLabel* liveRatio = table->cell(key, QStringLiteral("Ratio"));
        QVERIFY2(liveRatio->text().contains(views::ratioText(va, figure(3, key).value)), qPrintable(liveRatio->text()));
    }
    // Colour-coded: B's floor is lower (better) than A's: green; the live one's higher (worse): red.
    QVERIFY(table->cell(QStringLiteral("floor_ms"), QStringLiteral("RatioB"))->text().contains(views::palette::css(views::palette::throughput())));
    QVERIFY(table->cell(QStringLiteral("floor_ms"), QStringLiteral("Ratio"))->text().contains(views::palette::css(views::palette::slo())));
    // Unpin A: B is the reference now.
    window.unpin(0);
    QCOMPARE(table->headings(), QStringList({QStringLiteral("B"), QStringLiteral("C"), QStringLiteral("live")}));
    QLabel* cRatio = table->cell(QStringLiteral("floor_ms"), QStringLiteral("RatioC"));
    QVERIFY(cRatio);
    QVERIFY(cRatio->text().contains(views::ratioText(figure(1, QStringLiteral("floor_ms")).value, figure(2, QStringLiteral("floor_ms")).value)));
    // The summary has one column per pinned scenario and the live one.
    const QString md = window.copySummary();
    QVERIFY2(md.contains(QStringLiteral("| Figure | B | C | live | C \u00f7 B | live \u00f7 B |")), qPrintable(md));
}

void TestBaseline::nWayExportAndLimit()
{
    MainWindow window(model::defaultScenario());
    window.show();
    window.document()->evaluateNow();
    std::vector<model::Scenario> pinned{window.document()->evaluatedScenario()};
    window.pinNext();
    pinned.push_back(pinAfter(window, [](model::Scenario& s) { s.workload.batch = 8; }));
    pinned.push_back(pinAfter(window, [](model::Scenario& s) { s.workload.contextTokens = 16384; }));
    QTemporaryDir dir;
    ridgeline::app::ExportOptions options;
    options.folder = dir.path();
    options.formats = ridgeline::app::ExportFormat::Csv;
    QString message;
    QVERIFY2(window.exportTo(options, &message), qPrintable(message));
    const QStringList suffixes{QStringLiteral("_a"), QStringLiteral("_b"), QStringLiteral("_c")};
    for (views::FloorPlot* plot : window.floorPlots())
        for (int i = 0; i < 3; ++i) {
            QFile f(dir.filePath(plot->name() + suffixes[i] + QStringLiteral(".csv")));
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
            QCOMPARE(f.readAll(), plot->csv(model::evaluate(pinned[size_t(i)])));
        }
    // Six at most: the seventh is refused with a notice, nothing lost.
    for (int i = 3; i < 6; ++i)
        QCOMPARE(window.pinNext(), i);
    QVERIFY(!window.findChild<QAction*>(QStringLiteral("pinNextAction"))->isEnabled());
    QCOMPARE(window.pinNext(), -1);
    QCOMPARE(window.baseline()->count(), 6);
    QCOMPARE(window.decodePanel()->baselineCount(), 6);
    QVERIFY(window.noticeLabel()->text().contains(QStringLiteral("Six scenarios are pinned")));
    QCOMPARE(window.comparisonTable()->headings().size(), 7);
}

// Issue 16: the pinned curves are stroked into a picture once and blended on each replot; the picture is
// redrawn when what it shows changes (axes, size), and the plot looks as when every curve is stroked.
void TestBaseline::pinnedCurvesDrawnFromAPictureRedrawnOnChange()
{
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    window.document()->evaluateNow();
    const model::Scenario a = window.document()->evaluatedScenario();
    QCOMPARE(window.pinNext(), 0);
    const model::Scenario b = pinAfter(window, [](model::Scenario& s) { s.hardware.bandwidthBytesPerSecond *= 1.5; });
    const model::Scenario c = pinAfter(window, [](model::Scenario& s) { s.workload.batch = 64; });
    window.document()->setScenario(model::defaultScenario());
    window.document()->evaluateNow();
    window.flushForScreenshot();

    views::DecodePlot* decode = window.decodePanel();
    const views::PinnedLayerCache* cache = views::PinnedLayerCache::find(decode->plot());
    const views::PinnedLayerCache* labelCache = views::PinnedLayerCache::find(decode->plot(), true);
    QVERIFY(cache && labelCache);
    QCOMPARE(pinnedLabels(decode->plot()).size(), 3);
    for (int i = 0; i < decode->plot()->itemCount(); ++i)
        if (decode->plot()->item(i)->objectName() == QLatin1String("baselineLabel"))
            QCOMPARE(decode->plot()->item(i)->layer(), decode->plot()->layer(QStringLiteral("pinnedLabels")));
    // The pinned graphs are on the hidden "pinned" layer: QCustomPlot's own pass does not stroke them.
    QCPLayer* pinnedLayer = decode->plot()->layer(QStringLiteral("pinned"));
    QVERIFY(pinnedLayer && !pinnedLayer->visible());
    QCOMPARE(countBaselineGraphs(decode->plot()), 3 * graphsPerPinned(decode));
    for (int i = 0; i < decode->plot()->graphCount(); ++i)
        if (decode->plot()->graph(i)->objectName() == QLatin1String("baselineGraph"))
            QCOMPARE(decode->plot()->graph(i)->layer(), pinnedLayer);

    // Batch steps move the live marker, not the axes: the picture is blended, not redrawn.
    QSlider* batch = window.controlsPanel()->batchSlider()->slider();
    const QCPRange y = decode->plot()->yAxis->range(), x = decode->plot()->xAxis->range();
    const long long renders = cache->renders(), draws = cache->draws(), labelRenders = labelCache->renders();
    for (int step = 1; step <= 4; ++step) {
        batch->setSliderPosition(batch->value() + 3);
        window.document()->evaluateNow();
        window.flushForScreenshot();
    }
    QVERIFY(window.document()->evaluatedScenario().workload.batch != 1);
    QCOMPARE(decode->plot()->yAxis->range(), y);
    QCOMPARE(decode->plot()->xAxis->range(), x);
    QVERIFY(cache->draws() >= draws + 4);
    QCOMPARE(cache->renders(), renders);
    QCOMPARE(labelCache->renders(), labelRenders);

    // The pinned curves are still each pinned scenario's evaluation.
    const std::vector<model::Scenario> pinned{a, b, c};
    for (int i = 0; i < 3; ++i)
        QCOMPARE(values(window.baseline()->graphs(decode, i)[0]), expected(model::evaluate(pinned[size_t(i)]).sweeps.stepMs));

    // What a user sees equals the pinned layers drawn by QCustomPlot itself, every curve and label
    // stroked on each replot (the layers shown, the pictures hidden), within rounding.
    auto compareWithDirect = [](QCustomPlot* plot) {
        plot->replot();
        const QImage shown = plot->grab().toImage();
        views::PinnedLayerCache* curves = views::PinnedLayerCache::find(plot);
        views::PinnedLayerCache* labels = views::PinnedLayerCache::find(plot, true);
        QVERIFY(curves && labels);
        for (views::PinnedLayerCache* cache : {curves, labels})
            cache->setVisible(false);
        plot->layer(QStringLiteral("pinned"))->setVisible(true);
        plot->layer(QStringLiteral("pinnedLabels"))->setVisible(true);
        plot->replot();
        const QImage direct = plot->grab().toImage();
        for (views::PinnedLayerCache* cache : {curves, labels})
            cache->setVisible(true);
        plot->layer(QStringLiteral("pinned"))->setVisible(false);
        plot->layer(QStringLiteral("pinnedLabels"))->setVisible(false);
        plot->replot();
        QCOMPARE(shown.size(), direct.size());
        const QPair<int, int> difference = imageDifference(shown, direct);
        // At most 3 levels of 255 in any channel: the picture is antialiased over a transparent
        // background and then blended, so an edge pixel may round differently (1 to 2 levels in a few
        // hundred pixels; 3 where a curve's line pieces overlap at a vertex and blend twice, issue 16,
        // twenty-eighth stop). A row left out of the picture (the prefill plot's pinned P* lines above the
        // axis rect, up to 149 levels) or a curve moved by a pixel is far above that.
        QVERIFY2(difference.first <= 3, qPrintable(QStringLiteral("%1: %2 levels in %3 pixels")
                                                       .arg(plot->objectName()).arg(difference.first).arg(difference.second)));
    };
    for (QCustomPlot* plot : window.plots())
        compareWithDirect(plot);

    // A new size moves every curve: the picture is redrawn, and still equals the direct drawing.
    window.resize(1400, 900);
    window.flushForScreenshot();
    QVERIFY(cache->renders() > renders);
    for (QCustomPlot* plot : window.plots())
        compareWithDirect(plot);
}

/**
 * Issue 14 trial: at some window widths the N-way table clipped its live column. At several widths, with one (A/B) to
 * five scenarios pinned, every cell is at least as wide as its text needs, a table wider than its view scrolls (the
 * horizontal scroll bar shows), and the live column is in view: nothing is cut off silently.
 */
void TestBaseline::gridFromAPictureSameAsStrokedAndHungLabelsFollow()
{
    // Issue 16, tenth stop: each plot's grid and sub-grid lines are a picture (views/kit/gridlayer.h), stroked again
    // only when they move; the pinned names hang one under the other, and their picture's key describes them through
    // the label above instead of placing every label again.
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    window.document()->evaluateNow();
    QCOMPARE(window.pinNext(), 0);
    pinAfter(window, [](model::Scenario& s) { s.hardware.bandwidthBytesPerSecond *= 1.5; });
    pinAfter(window, [](model::Scenario& s) { s.workload.batch = 64; });
    window.document()->setScenario(model::defaultScenario());
    window.document()->evaluateNow();
    window.flushForScreenshot();

    // Batch steps leave the decode plot's axes: its grid is copied from the picture, not stroked.
    QCustomPlot* decode = window.decodePanel()->plot();
    const views::GridLayerCache* grid = views::GridLayerCache::find(decode);
    QVERIFY(grid);
    QVERIFY(decode->layer(QStringLiteral("gridLines")) && !decode->layer(QStringLiteral("gridLines"))->visible());
    QCOMPARE(decode->xAxis->grid()->layer(), decode->layer(QStringLiteral("gridLines")));
    QSlider* batch = window.controlsPanel()->batchSlider()->slider();
    const QCPRange y = decode->yAxis->range(), x = decode->xAxis->range();
    const long long renders = grid->renders(), draws = grid->draws();
    for (int step = 1; step <= 3; ++step) {
        batch->setSliderPosition(batch->value() + 3);
        window.document()->evaluateNow();
        window.flushForScreenshot();
    }
    QCOMPARE(decode->yAxis->range(), y);
    QCOMPARE(decode->xAxis->range(), x);
    QVERIFY(grid->draws() >= draws + 3);
    QCOMPARE(grid->renders(), renders);

    // Every floor plot: what a user sees is, bit for bit, the grids stroked by QCustomPlot on each replot (the
    // "gridLines" layer shown, the picture hidden), after steps that moved the axes too (the model size).
    // Two model-size steps, a drag: the second draws the grids that moved again straight into the paint buffers
    // (GridLayerCache::drawsInPlace(), issue 16, twenty-ninth stop), what a user sees then is checked too.
    // The KV share curve is stroked in place on a drag and blended from its image at rest, which may differ by a level
    // (CurveLayerCache::holdsOneSingleFillCurve()): stroked in place throughout here, so that the grids are compared.
    views::CurveLayerCache::setImageUsed(false);
    // Issue 16, thirty-first stop (h16bc): the drag goes on to a step that moves a key axis too (the bench's model-size
    // positions, 60 steps: 43 -> 49), whose first grid's picture is drawn again in place, and that step is compared.
    QSlider* size = window.controlsPanel()->modelSizeSlider()->slider();
    auto redrawnInPlace = [&window] {
        long long redrawn = 0;
        for (views::PlotPanel* panel : window.plotPanels())
            redrawn += views::GridLayerCache::find(panel->plot())->firstGridRedrawsInPlace();
        return redrawn;
    };
    long long inPlace = 0;
    for (views::PlotPanel* panel : window.plotPanels())
        inPlace -= views::GridLayerCache::find(panel->plot())->inPlaceDraws();
    long long redrawnBeforeLast = 0;
    for (int position : {0, 6, 12, 18, 25, 31, 37, 43, 49}) {
        redrawnBeforeLast = redrawnInPlace();
        size->setSliderPosition(position);
        window.document()->evaluateNow();
        QCoreApplication::sendPostedEvents(); // the queued replots, one a plot (flushForScreenshot() replots again)
    }
    for (views::PlotPanel* panel : window.plotPanels())
        inPlace += views::GridLayerCache::find(panel->plot())->inPlaceDraws();
    QVERIFY2(inPlace > 0, qPrintable(QString::number(inPlace)));
    const QString redrawnOnLast = QStringLiteral("%1 first grids redrawn in place on the last step");
    QVERIFY2(redrawnInPlace() > redrawnBeforeLast, qPrintable(redrawnOnLast.arg(redrawnInPlace() - redrawnBeforeLast)));
    for (views::PlotPanel* panel : window.plotPanels()) {
        QCustomPlot* plot = panel->plot();
        views::GridLayerCache* cache = views::GridLayerCache::find(plot);
        QVERIFY(cache);
        const QImage dragged = plot->grab().toImage(); // the buffer of the second step's replot
        plot->replot();
        const QImage shown = plot->grab().toImage();
        cache->setVisible(false);
        plot->layer(QStringLiteral("gridLines"))->setVisible(true);
        plot->replot();
        const QImage direct = plot->grab().toImage();
        cache->setVisible(true);
        plot->layer(QStringLiteral("gridLines"))->setVisible(false);
        plot->replot();
        QCOMPARE(shown.size(), direct.size());
        const QPair<int, int> difference = imageDifference(shown, direct);
        QVERIFY2(difference.second == 0,
                 qPrintable(QStringLiteral("%1: %2 pixels differ, by up to %3").arg(plot->objectName()).arg(difference.second).arg(difference.first)));
        const QPair<int, int> draggedDifference = imageDifference(dragged, direct);
        QVERIFY2(draggedDifference.second == 0,
                 qPrintable(QStringLiteral("%1 after the drag: %2 pixels differ, by up to %3").arg(plot->objectName()).arg(draggedDifference.second).arg(draggedDifference.first)));
    }
    views::CurveLayerCache::setImageUsed(true);

    // The second name hangs under the first: a first name on two lines moves it, and the names' picture is redrawn.
    views::PinnedLayerCache* labels = views::PinnedLayerCache::find(decode, true);
    QVERIFY(labels);
    QList<QCPItemText*> names;
    for (int i = 0; i < decode->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(decode->item(i)); text && text->objectName() == QLatin1String("baselineLabel"))
            names.append(text);
    QCOMPARE(names.size(), 3);
    QVERIFY(names[1]->position->parentAnchor());
    decode->replot();
    const long long labelRenders = labels->renders();
    const double below = names[1]->position->pixelPosition().y();
    decode->replot();
    QCOMPARE(labels->renders(), labelRenders);
    names[0]->setText(names[0]->text() + QStringLiteral("\nsecond line"));
    decode->replot();
    QVERIFY(names[1]->position->pixelPosition().y() > below);
    QCOMPARE(labels->renders(), labelRenders + 1);
}

/**
 * Issue 16, thirty-second stop: a plot's paint buffer is cleared around the rect its grid picture is copied over on
 * the replot before (CardBuffer::spareNextClear()), not whole. On a model-size drag, each step's picture of every plot
 * is, byte for byte, the one a whole clear gives, with the rects the clears left filled magenta (a pixel the copy
 * failed to write would show); and the rects left are most of each plot.
 */
void TestBaseline::clearsLeaveWhatTheGridCopyWrites()
{
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    window.document()->evaluateNow();
    window.flushForScreenshot();
    views::CardBuffer::setSparedPoison(QColor(255, 0, 255));
    const auto restore = qScopeGuard([] {
        views::CardBuffer::setSparedPoison(QColor());
        views::CardBuffer::setClearSpared(true);
    });
    QSlider* size = window.controlsPanel()->modelSizeSlider()->slider();
    long long wholePixels = 0, left = 0;
    const long long unspared = views::CardBuffer::unsparedPixels();
    for (int position : {60, 61, 63, 66, 70, 43, 49, 120, 181, 0}) {
        size->setSliderPosition(position);
        const long long spared = views::CardBuffer::sparedPixels();
        window.document()->evaluateNow();
        QCoreApplication::sendPostedEvents(); // the queued replots, one a plot
        left += views::CardBuffer::sparedPixels() - spared;
        for (views::PlotPanel* panel : window.plotPanels()) {
            QCustomPlot* plot = panel->plot();
            const QImage shown = plot->grab().toImage(); // the buffer of the step's replot
            views::CardBuffer::setClearSpared(false);
            plot->replot();
            const QImage whole = plot->grab().toImage();
            views::CardBuffer::setClearSpared(true);
            plot->replot(); // asks the next clear to leave the rect again
            QVERIFY2(shown == whole, qPrintable(QStringLiteral("%1 at %2").arg(plot->objectName()).arg(position)));
            wholePixels += qint64(shown.width()) * shown.height();
        }
    }
    QVERIFY2(left > wholePixels / 2, qPrintable(QStringLiteral("%1 of %2 pixels").arg(left).arg(wholePixels)));
    qInfo("clears left %lld pixels of %lld (%lld filled after all)", left, wholePixels,
          views::CardBuffer::unsparedPixels() - unspared);
}

void TestBaseline::nWayLiveColumnNeverClips()
{
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.document()->evaluateNow();
    window.pinNext(); // A alone: the A/B table first
    views::ComparisonTable* table = window.comparisonTable();
    auto* scroll = table->findChild<QScrollArea*>();
    QVERIFY(scroll);
    int checked = 0;
    for (int extra = 0; extra < 5; ++extra) {
        if (extra > 0)
            pinAfter(window, [extra](model::Scenario& s) {
                s.workload.contextTokens = 4096 * (extra + 1);
                s.workload.batch = 8 * extra;
            });
        for (const QSize& size : {QSize(1024, 768), QSize(1280, 800), QSize(1440, 900), QSize(1920, 1080)}) {
            // Short figures first, then at the same window size a live scenario whose figures are long (a large model
            // on one GPU: "weights do not fit", long numbers): the cells grow without the window moving.
            window.document()->edit([](model::Scenario& s) { s.workload.batch = 1; });
            window.document()->evaluateNow();
            window.resize(size);
            QTest::qWait(20);
            QApplication::processEvents();
            window.document()->edit([extra](model::Scenario& s) {
                s.workload.batch = 4096 + extra;
                s.workload.contextTokens = 131072;
                s.model.params = 405e9;
                s.economics.currency = "GCredits"; // the longest currency label (8 characters, currencyProblem())
            });
            window.document()->evaluateNow();
            QTest::qWait(20);
            QApplication::processEvents();
            QVERIFY(table->isVisible());
            const QString where = QStringLiteral("%1 pinned, window %2 x %3").arg(extra + 1).arg(size.width()).arg(size.height());
            QWidget* content = scroll->widget();
            int liveCells = 0;
            for (QLabel* label : content->findChildren<QLabel*>()) {
                if (!label->isVisibleTo(content) || label->text().isEmpty())
                    continue;
                liveCells += label->objectName().endsWith(table->liveColumn()) ? 1 : 0;
                QVERIFY2(label->width() >= label->minimumSizeHint().width(),
                         qPrintable(QStringLiteral("%1: cell %2 \"%3\" is %4 px of the %5 it needs")
                                        .arg(where, label->objectName(), label->text())
                                        .arg(label->width())
                                        .arg(label->minimumSizeHint().width())));
                QVERIFY2(label->geometry().right() <= content->width(), qPrintable(where + QStringLiteral(": ") + label->objectName()));
            }
            QVERIFY2(liveCells > 0, qPrintable(where));
            // Wider than the view: it scrolls, and the bar says so.
            if (content->width() > scroll->viewport()->width())
                QVERIFY2(scroll->horizontalScrollBar()->isVisible() && scroll->horizontalScrollBar()->maximum() > 0, qPrintable(where));
            // The live column (the one the controls move) is in view, not cut off at the right edge.
            const int liveIndex = table->headings().indexOf(table->liveColumn() == QStringLiteral("B") ? QStringLiteral("B") : QStringLiteral("live"));
            QVERIFY(liveIndex >= 0);
            QLabel* liveHeader = nullptr;
            for (QLabel* label : content->findChildren<QLabel*>())
                if (label->property("heading").toString() == table->headings().at(liveIndex))
                    liveHeader = label;
            QVERIFY(liveHeader);
            const QRect inView(liveHeader->mapTo(scroll->viewport(), QPoint(0, 0)), liveHeader->size());
            QVERIFY2(inView.left() >= 0 && inView.right() <= scroll->viewport()->width(),
                     qPrintable(where + QStringLiteral(": the live column spans x %1 to %2 of a %3 px view")
                                            .arg(inView.left()).arg(inView.right()).arg(scroll->viewport()->width())));
            ++checked;
        }
    }
    QCOMPARE(checked, 20);
}

/**
 * h14d (issue 14, G): at a 1280 x 800 window the A/B table scrolled sideways (its figure names cut at the left, "B ÷ A"
 * out of view) and the N-way one lost its names and column A. At 1280 x 800 and 1600 x 1000, with A alone and with three
 * pinned, nothing scrolls sideways and every cell is whole inside the view (stacked where the columns do not fit).
 */
void TestBaseline::tableFitsAt1280And1600()
{
    MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.document()->evaluateNow();
    views::ComparisonTable* table = window.comparisonTable();
    auto* scroll = table->findChild<QScrollArea*>();
    QVERIFY(scroll);
    window.pinNext(); // A alone: the A/B table
    for (int pinned = 1; pinned <= 3; pinned += 2) {
        if (pinned == 3) {
            pinAfter(window, [](model::Scenario& s) { s.model.params = 70e9; });
            pinAfter(window, [](model::Scenario& s) { s.workload.contextTokens = 32768; });
        }
        for (const QSize& size : {QSize(1280, 800), QSize(1600, 1000)}) {
            window.resize(size);
            window.document()->edit([](model::Scenario& s) { s.workload.batch = 3; });
            window.flushForScreenshot();
            QApplication::processEvents();
            const QString where = QStringLiteral("%1 pinned, %2 x %3").arg(pinned).arg(size.width()).arg(size.height());
            QVERIFY2(scroll->horizontalScrollBar()->maximum() == 0, qPrintable(where + QStringLiteral(": scrolls sideways")));
            int cells = 0;
            for (QLabel* label : scroll->widget()->findChildren<QLabel*>()) {
                if (!label->isVisibleTo(scroll->widget()) || label->text().isEmpty())
                    continue;
                ++cells;
                const QRect inView(label->mapTo(scroll->viewport(), QPoint(0, 0)), label->size());
                QVERIFY2(inView.left() >= 0 && inView.right() < scroll->viewport()->width()
                             && label->width() >= label->minimumSizeHint().width(),
                         qPrintable(QStringLiteral("%1: %2 \"%3\" at x %4 to %5 of %6 px")
                                        .arg(where, label->objectName(), label->text())
                                        .arg(inView.left())
                                        .arg(inView.right())
                                        .arg(scroll->viewport()->width())));
            }
            QVERIFY(cells > 20);
            if (size.width() == 1280)
                window.grab().save(QStringLiteral("/tmp/ridgeline-comparison-%1-pinned-1280.png").arg(pinned));
        }
    }
}

/** Issue 14, h14g: pins from different files keeping the preset's name all read "Llama 3.1 8B on H100 SXM". */
void TestBaseline::pinsThatReadTheSameAreToldApart()
{
    MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    window.document()->evaluateNow();
    QCOMPARE(window.pinNext(QStringLiteral("fast.json")), 0);
    window.document()->edit([](model::Scenario& s) { s.workload.batch = 32; });
    window.document()->evaluateNow();
    QCOMPARE(window.pinNext(QStringLiteral("slow.json")), 1);
    window.document()->edit([](model::Scenario& s) { s.hardware.name = "H200"; });
    window.document()->evaluateNow();
    QCOMPARE(window.pinNext(QStringLiteral("other.json")), 2);
    views::BaselineOverlay* overlay = window.baseline();
    const QString name = views::scenarioName(model::defaultScenario());
    QCOMPARE(overlay->label(0), QStringLiteral("A: %1 (fast.json)").arg(name));
    QCOMPARE(overlay->label(1), QStringLiteral("B: %1 (slow.json)").arg(name));
    QCOMPARE(overlay->label(2), QStringLiteral("C: Llama 3.1 8B on H200")); // reads apart already: no file name
    // The curves' names (legend and tool tips) say the same; the stack of names on the plot starts with the letter.
    views::FloorPlot* plot = window.floorPlots().front();
    QCOMPARE(plot->baselineGraphs(0).front()->name(), overlay->label(0));
    QCOMPARE(plot->baselineGraphs(1).front()->name(), overlay->label(1));
    const QList<QPair<QString, QColor>> labels = pinnedLabels(plot->plot());
    QCOMPARE(labels.size(), 3);
    QVERIFY2(labels[1].first.contains(QLatin1String("B: Llama")), qPrintable(labels[1].first));
    // Pinned from the window (no file): "pin 1", "pin 2" among those of that name.
    QVERIFY(window.unpin(0));
    QVERIFY(window.unpin(1));
    window.document()->edit([](model::Scenario& s) { s = model::defaultScenario(); });
    window.document()->evaluateNow();
    QCOMPARE(window.pinNext(), 0);
    QCOMPARE(window.pinNext(), 1);
    QCOMPARE(overlay->label(0), QStringLiteral("A: %1 (pin 1)").arg(name));
    QCOMPARE(overlay->label(1), QStringLiteral("B: %1 (pin 2)").arg(name));
    // Two files of one name (a/s.json, b/s.json) read apart by their order too (adversarial trial, stop 31).
    QVERIFY(window.unpin(0));
    QVERIFY(window.unpin(1));
    QCOMPARE(window.pinNext(QStringLiteral("s.json")), 0);
    QCOMPARE(window.pinNext(QStringLiteral("s.json")), 1);
    QCOMPARE(overlay->label(0), QStringLiteral("A: %1 (s.json, pin 1)").arg(name));
    QCOMPARE(overlay->label(1), QStringLiteral("B: %1 (s.json, pin 2)").arg(name));
}

QTEST_MAIN(TestBaseline)
#include "tst_baseline.moc"
