// SPDX-License-Identifier: GPL-3.0-or-later
// The floor plots' shared identity (views/floors/floorplot.h, issue 16): one ordered list of the five
// ids in window order, each plot's id, title, CSV columns and explanation read through the base class,
// and baseline A drawn by the plot itself into graphs of its own.

#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include <QFontMetricsF>
#include <QGraphicsView>
#include <QPaintEvent>
#include <QPainter>
#include <QGridLayout>
#include <QFontMetrics>
#include <QLabel>
#include <QRegularExpression>
#include <QScreen>
#include <QScopeGuard>
#include <QSet>
#include <QStandardPaths>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTextLayout>
#include <QGlyphRun>
#include <QRawFont>
#include <QVBoxLayout>
#include <QTest>

#include <qcustomplot.h>

#include "app/export.h"
#include "app/mainwindow.h"
#include "document/baseline.h"
#include "document/format.h"
#include "document/scenariodocument.h"
#include "model/cost/costmodel.h"
#include "views/floors/decodeplot.h"
#include "views/floors/headlinefigures.h"
#include "views/floors/numberspanel.h"
#include "views/floors/floorplot.h"
#include "views/floors/kvshareplot.h"
#include "views/floors/prefillplot.h"
#include "views/floors/rooflineplot.h"
#include "views/floors/sloplot.h"
#include "views/kit/cardbuffer.h"
#include "views/kit/axistitle.h"
#include "views/kit/card.h"
#include "views/kit/palette.h"
#include "views/kit/boundtext.h"
#include "views/kit/curvelayer.h"
#include "views/kit/explainpanel.h"
#include "views/kit/gridlayer.h"
#include "views/kit/inlineblend.h"
#include "views/kit/laidouttext.h"
#include "views/kit/legendlayer.h"
#include "views/kit/pinnedlayer.h"
#include "views/kit/curvepixels.h"
#include "views/kit/plotkit.h"
#include "views/kit/plotpanel.h"
#include "views/kit/textimage.h"
#include "views/kit/wordlayout.h"
#include "views/whatifs/baseline.h"

using ridgeline::app::MainWindow;
namespace app = ridgeline::app;
namespace document = ridgeline::document;
namespace model = ridgeline::model;
namespace views = ridgeline::views;
using views::FloorPlotId;

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

/** The values A's main curve on plot @p id must hold: the sweep each plot draws for A, in its units. */
QVector<double> mainCurveOf(FloorPlotId id, const model::Evaluation& e)
{
    switch (id) {
    case FloorPlotId::Decode:
    case FloorPlotId::Slo:
        return expected(e.sweeps.stepMs);
    case FloorPlotId::Roofline:
        return expected(e.sweeps.attainableFlopsPerSecond, 1e-12);
    case FloorPlotId::KvShare:
        return expected(e.sweeps.kvShare, 100.0);
    case FloorPlotId::Prefill:
        return expected(e.sweeps.prefillFlop, 1e-12);
    }
    return {};
}

QByteArrayList headers(const QList<views::SweepColumn>& columns)
{
    QByteArrayList out;
    for (const views::SweepColumn& c : columns)
        out << QByteArray(c.header);
    return out;
}

int countBaselineGraphs(QCustomPlot* plot)
{
    int n = 0;
    for (int i = 0; i < plot->graphCount(); ++i)
        n += plot->graph(i)->objectName() == QLatin1String("baselineGraph") ? 1 : 0;
    return n;
}

} // namespace

class TestFloorPlot final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void listHasTheFiveInWindowOrder();
    void namesAreTheExportStems();
    void cardPaintsAsItsStyleSheetDid();
    void plotsReportThroughTheBaseClass();
    void baselineIsDrawnByThePlot_data();
    void baselineIsDrawnByThePlot();
    void overlayHandsABaselineToEachPlot();
    void severalPinnedScenarios_data() { baselineIsDrawnByThePlot_data(); }
    void severalPinnedScenarios();
    void documentLabelMeasuresAsQLabelWithoutItsDocument();
    void documentLabelLaysANewTextOutOnce();
    void documentLabelNewTextPaintsAsAFreshLabel();
    void documentLabelKeepsItsShapedGlyphs();
    void documentLabelLaysOutEachWidthOnce();
    void documentLabelRepaintsOnlyWhatANewTextChanges();
    void cardFilledLabelRepaintsWithoutItsBox();
    void documentLabelEditsANewTextInPlace();
    void documentLabelRepaintsBetweenTheChanges();
    void titleHeadingBlockDrawsAsALineBreak();
    void wordLayoutSetsTextAsQTextLayout();
    void titleTakeawayComposedAsTheDocumentDrawsIt();
    void kvChartRepaintsNothingUnderIt();
    void axisTitlesFromImages();
    void gridLinesFilledAsStroked();
    void legendFromAnImage();
    void boundByNamesTheLargestTerm();
    void sloLabelsStayApart_data();
    void sloLabelsStayApart();
    void tickLabelsStayShortAtExtremes_data();
    void tickLabelsStayShortAtExtremes();
    void kvBytesAxisRelabelsInPlace();
    void kvBarIsAQCustomPlot();
    void decodeDrawsCommWithTensorParallelism();
    void currentPointOffScaleIsSaid();
    void steadyCurvesFromAPicture();
    void curveKeyPixelsFromTheLastReplot();
    void axisTitlesFitTheirAxesAt1280x720();
    void laidOutLabelsDrawAsQCustomPlot();
    void uprightLabelBoxesBlendInStrips();
    void cardBufferCopiesARegionRectByRect();
    void laidOutLabelsMeasureFromTheirLayout();
    void gridKeepsItsFirstGridsPicture();
    void firstGridFilledAsOneRowCopied();
    void layerImagesRedrawnForEveryInput();
    void layerImagesKeepTheirMemory();
    void logTickerRepeatsUnchangedTicks();
    void tickLabelKeyFromAMemo();
    void axisTitleSizeMeasuredOncePerTextFontAndResolution();
    void shortAxesKeepTickLabelsApart();
    void axisLinesFromAStripImage();
    void kvShareCurveFromAPictureOnContextSteps();
};

void TestFloorPlot::listHasTheFiveInWindowOrder()
{
    const std::array<FloorPlotId, 5> order{FloorPlotId::Decode, FloorPlotId::Roofline, FloorPlotId::KvShare,
                                           FloorPlotId::Prefill, FloorPlotId::Slo};
    QVERIFY(views::floorPlotIds() == order);
    for (int i = 0; i < 5; ++i)
        QCOMPARE(views::floorPlotIndex(order[size_t(i)]), i);

    MainWindow window(model::defaultScenario());
    const QList<views::FloorPlot*> plots = window.floorPlots();
    QCOMPARE(plots.size(), 5);
    // The window's typed plots are the list's, and the grid holds them row by row, three to a row.
    const QList<views::PlotPanel*> typed{window.decodePanel(), window.rooflinePanel(), window.kvSharePanel(),
                                         window.prefillPanel(), window.sloPanel()};
    auto* grid = qobject_cast<QGridLayout*>(plots.first()->parentWidget()->layout());
    QVERIFY(grid);
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(plots[i]->id(), order[size_t(i)]);
        QCOMPARE(static_cast<views::PlotPanel*>(plots[i]), typed[i]);
        int row = -1, column = -1, rowSpan = 0, columnSpan = 0;
        const int at = grid->indexOf(plots[i]);
        QVERIFY(at >= 0);
        grid->getItemPosition(at, &row, &column, &rowSpan, &columnSpan);
        QCOMPARE(row, i / 3);
        QCOMPARE(column, i % 3);
    }
    // The Explain panel's tool tips follow the same order.
    for (int i = 0; i < 5; ++i)
        QVERIFY(window.explainPanel()->toolTipText(i).startsWith(plots[i]->title() + QLatin1Char('\n')));
}

void TestFloorPlot::namesAreTheExportStems()
{
    // The string ids are the export's file stems, a contract (README, app/export.h).
    const QStringList stems{QStringLiteral("decode_floor"), QStringLiteral("roofline"), QStringLiteral("kv_share"),
                            QStringLiteral("prefill_crossover"), QStringLiteral("slo")};
    QStringList names;
    for (FloorPlotId id : views::floorPlotIds()) {
        names << views::floorPlotName(id);
        QVERIFY(views::floorPlotFromName(views::floorPlotName(id)) == std::optional<FloorPlotId>(id));
    }
    QCOMPARE(names, stems);
    QCOMPARE(app::plotStems(), stems);
    QVERIFY(!views::floorPlotFromName(QStringLiteral("decode")));
    QVERIFY(!views::floorPlotFromName(QString()));
    QVERIFY(app::plotCsv(QStringLiteral("nonsense"), model::evaluate(model::defaultScenario())).isEmpty());
}

void TestFloorPlot::plotsReportThroughTheBaseClass()
{
    MainWindow window(model::defaultScenario());
    window.document()->evaluateNow();
    const model::Scenario& s = window.document()->evaluatedScenario();
    const model::Evaluation& e = window.document()->evaluation();
    // The CSV columns, as app/export.h documents them (a contract).
    const QList<QByteArrayList> columns{
        {"batch", "t_step_ms", "t_mem_ms", "t_comp_ms", "tokens_per_s_total", "weight_floor_ms", "t_comm_ms"},
        {"intensity_flop_per_byte", "attainable_flop_per_s", "attainable_derated_flop_per_s"},
        {"context_tokens", "kv_share_fraction"},
        {"prompt_tokens", "linear_flop", "attention_flop", "total_flop", "prefill_ms"},
        {"batch", "t_step_ms", "tokens_per_s_total", "tokens_per_s_per_user"}};
    const QStringList titles{QStringLiteral("Decode floor"), QStringLiteral("Roofline"), QStringLiteral("KV share of the decode read"),
                             QStringLiteral("Prefill crossover"), QStringLiteral("t_step(B) against ITL SLO lines")};
    const QStringList objectNames{QStringLiteral("decodePanel"), QStringLiteral("rooflinePanel"), QStringLiteral("kvSharePanel"),
                                  QStringLiteral("prefillPanel"), QStringLiteral("sloPanel")};
    const QList<views::FloorPlot*> plots = window.floorPlots();
    for (int i = 0; i < plots.size(); ++i) {
        const views::FloorPlot* plot = plots[i];
        QCOMPARE(plot->name(), app::plotStems()[i]);
        QCOMPARE(plot->title(), titles[i]);
        QCOMPARE(plot->titleLabel()->accessibleName(), titles[i]); // the heading on screen
        QCOMPARE(plot->objectName(), objectNames[i]);
        QCOMPARE(headers(plot->csvColumns()), columns[i]);
        QCOMPARE(headers(views::floorPlotCsvColumns(plot->id())), columns[i]);
        const QByteArray csv = plot->csv(e);
        QCOMPARE(csv, app::plotCsv(plot->name(), e));
        QVERIFY(csv.startsWith(columns[i].join(',') + '\n'));
        QVERIFY(csv.count('\n') > 10);
        const views::Explanation x = plot->explanation(s, e);
        QCOMPARE(x.title, titles[i]);
        QVERIFY(!x.summary.isEmpty());
        QVERIFY(!x.steps.isEmpty());
        QCOMPARE(x.steps, views::explainPlot(plot->id(), s, e).steps);
        QCOMPARE(x.steps, views::explainPlot(i, s, e).steps);
        // Only the KV share card shows a chart above its plot (the export draws it).
        QCOMPARE(plot->barPlot() != nullptr, plot->id() == FloorPlotId::KvShare);
    }
}

void TestFloorPlot::baselineIsDrawnByThePlot_data()
{
    QTest::addColumn<int>("index");
    for (FloorPlotId id : views::floorPlotIds())
        QTest::newRow(qPrintable(views::floorPlotName(id))) << views::floorPlotIndex(id);
}

void TestFloorPlot::baselineIsDrawnByThePlot()
{
    QFETCH(int, index);
    const FloorPlotId id = views::floorPlotIds()[size_t(index)];
    QWidget host;
    views::FloorPlot* plot = views::createFloorPlot(id, &host);
    QCOMPARE(plot->id(), id);
    host.resize(640, 480);
    plot->resize(640, 480);
    const model::Scenario b = model::defaultScenario();
    plot->refresh(b, model::evaluate(b));
    QCustomPlot* p = plot->plot();
    const int graphs = p->graphCount();
    const int items = p->itemCount();
    QVERIFY(!plot->hasBaseline());
    QVERIFY(plot->baselineGraphs().isEmpty());

    // A: half the bandwidth and another batch, so that every curve and point differs from B's.
    model::Scenario aScenario = b;
    aScenario.hardware.bandwidthBytesPerSecond *= 0.5;
    aScenario.workload.batch = b.workload.batch * 2;
    document::Baseline a;
    a.pin(aScenario);
    plot->setBaseline(a, QStringLiteral("A: test baseline"));

    QVERIFY(plot->hasBaseline());
    const QList<QCPGraph*> drawn = plot->baselineGraphs();
    QVERIFY(!drawn.isEmpty()); // A's main curve first (prefill: A's P* is a line item, not a graph)
    QCOMPARE(p->graphCount(), graphs + drawn.size());
    QCOMPARE(countBaselineGraphs(p), drawn.size());
    for (QCPGraph* graph : drawn)
        QCOMPARE(graph->parentPlot(), p);
    QCOMPARE(values(drawn.first()), mainCurveOf(id, a.evaluation()));
    if (id != FloorPlotId::Prefill) // prefill FLOP depend on neither bandwidth nor batch
        QVERIFY(values(drawn.first()) != mainCurveOf(id, model::evaluate(b)));
    // A's curve is named inside the plot.
    bool named = false;
    for (int i = 0; i < p->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(p->item(i)))
            named = named || text->text().endsWith(QStringLiteral("A: test baseline"));
    QVERIFY(named);
    if (id == FloorPlotId::KvShare) { // A's bytes as a second bar
        auto* kv = qobject_cast<views::KvSharePlot*>(plot);
        QCOMPARE(kv->barCount(), 2);
        QCOMPARE(kv->kvGb(1), a.evaluation().decode.kvBytes / 1e9);
    }

    // A again replaces the first A rather than adding to it.
    plot->setBaseline(a, QStringLiteral("A: test baseline"));
    QCOMPARE(p->graphCount(), graphs + drawn.size());

    plot->clearBaseline();
    QVERIFY(!plot->hasBaseline());
    QVERIFY(plot->baselineGraphs().isEmpty());
    QCOMPARE(p->graphCount(), graphs);
    QCOMPARE(p->itemCount(), items);
    QCOMPARE(countBaselineGraphs(p), 0);
    if (id == FloorPlotId::KvShare)
        QCOMPARE(qobject_cast<views::KvSharePlot*>(plot)->barCount(), 1);
    plot->clearBaseline(); // twice: nothing more to take off
    QCOMPARE(p->graphCount(), graphs);
}

void TestFloorPlot::severalPinnedScenarios()
{
    QFETCH(int, index);
    const FloorPlotId id = views::floorPlotIds()[size_t(index)];
    QWidget host;
    views::FloorPlot* plot = views::createFloorPlot(id, &host);
    host.resize(640, 480);
    plot->resize(640, 480);
    const model::Scenario b = model::defaultScenario();
    plot->refresh(b, model::evaluate(b));
    QCustomPlot* p = plot->plot();
    const int graphs = p->graphCount();
    const int items = p->itemCount();

    // Slots A, C and E (B and D unpinned): three lists of graphs in slot order, each in its slot's pen.
    document::PinnedScenarios pinned;
    std::vector<model::Scenario> scenarios;
    for (int i = 0; i < 5; ++i) {
        model::Scenario s = b;
        s.hardware.bandwidthBytesPerSecond *= 1.0 + 0.5 * i;
        s.workload.batch = b.workload.batch + 3 * i;
        QCOMPARE(pinned.pinNext(s), i);
        scenarios.push_back(s);
    }
    QVERIFY(pinned.unpin(1));
    QVERIFY(pinned.unpin(3));
    QVERIFY(!pinned.unpin(3));
    plot->setBaselines(pinned, {QStringLiteral("A: one"), QStringLiteral("C: two"), QStringLiteral("E: three")});
    QCOMPARE(plot->baselineCount(), 3);
    const int perPinned = int(plot->baselineGraphs(0).size());
    QVERIFY(perPinned > 0);
    QCOMPARE(p->graphCount(), graphs + 3 * perPinned);
    QCOMPARE(countBaselineGraphs(p), 3 * perPinned);
    const int slotOf[] = {0, 2, 4};
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(plot->baselineSlot(i), slotOf[i]);
        const QList<QCPGraph*> drawn = plot->baselineGraphs(i);
        QCOMPARE(values(drawn.first()), mainCurveOf(id, model::evaluate(scenarios[size_t(slotOf[i])])));
        QCOMPARE(drawn.first()->pen(), views::pinnedPen(slotOf[i]));
    }
    QCOMPARE(plot->baselineGraphs().size(), 3 * perPinned);
    // The names stack at the top left, one under the other.
    QList<QCPItemText*> labels;
    for (int i = 0; i < p->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(p->item(i)); text && text->objectName() == QLatin1String("baselineLabel"))
            labels << text;
    QCOMPARE(labels.size(), 3);
    QVERIFY(labels[1]->text().endsWith(QStringLiteral("C: two")));
    QCOMPARE(labels[1]->position->parentAnchor(), labels[0]->bottomLeft);
    QCOMPARE(labels[2]->position->parentAnchor(), labels[1]->bottomLeft);
    if (id == FloorPlotId::KvShare)
        QCOMPARE(qobject_cast<views::KvSharePlot*>(plot)->barCount(), 4);

    // setBaseline() is the one-item case: A alone, in place of the three.
    document::Baseline a;
    a.pin(scenarios[0]);
    plot->setBaseline(a, QStringLiteral("A: one"));
    QCOMPARE(plot->baselineCount(), 1);
    QCOMPARE(p->graphCount(), graphs + perPinned);
    plot->setBaselines(document::PinnedScenarios(), {});
    QVERIFY(!plot->hasBaseline());
    QCOMPARE(p->graphCount(), graphs);
    QCOMPARE(p->itemCount(), items);
}

void TestFloorPlot::overlayHandsABaselineToEachPlot()
{
    MainWindow window(model::defaultScenario());
    window.pinBaseline();
    for (views::FloorPlot* plot : window.floorPlots()) {
        QVERIFY(plot->hasBaseline());
        // The overlay's graphs of a floor plot are the plot's own.
        QVERIFY(window.baseline()->graphs(plot) == plot->baselineGraphs());
        QCOMPARE(values(plot->baselineGraphs().first()), mainCurveOf(plot->id(), window.baseline()->evaluation()));
    }
    window.baseline()->clear();
    for (views::FloorPlot* plot : window.floorPlots()) {
        QVERIFY(!plot->hasBaseline());
        QCOMPARE(countBaselineGraphs(plot->plot()), 0);
    }
}

// DocumentLabel's size hints (issue 16, sixth stop): as QLabel's for the numbers' values and the plots'
// titles, measured on the label's own document; QLabel's text control is never filled to measure.
void TestFloorPlot::documentLabelMeasuresAsQLabelWithoutItsDocument()
{
    const QStringList texts{
        QStringLiteral("4.56 ms (memory-bound)"),
        QStringLiteral("20 ms: B \u2264 193\n40 ms: B \u2264 208, memory binds (SLO alone 443)"),
        QStringLiteral("t_step(B) = a + b\u00b7B = 4.481 + 0.08013\u00b71 = 4.56 ms at B = 1"),
        QStringLiteral("<span style=\"font-size:10.5pt; font-weight:600;\">Decode floor</span><br><span style=\"font-size:9.0pt;\">"
                       "Floor W_read/BW = 4.48 ms/token at B = 1 (223 tok/s; the input table's unread rows left out)</span>"),
        QString()};
    for (const QString& text : texts) {
        QWidget holder;
        auto configure = [&](QLabel* label) {
            label->setWordWrap(true);
            label->setTextInteractionFlags(Qt::TextSelectableByMouse);
            QFont font = label->font();
            font.setWeight(QFont::DemiBold);
            label->setFont(font);
            label->setText(text);
        };
        auto* reference = new QLabel(&holder);
        configure(reference);
        auto* label = new views::DocumentLabel(&holder);
        configure(label);
        QCOMPARE(label->sizeHint(), reference->sizeHint());
        QCOMPARE(label->minimumSizeHint(), reference->minimumSizeHint());
        for (int width : {0, 40, 180, 333, 2000})
            if (!text.isEmpty()) // QLabel has no height for an empty text (-1); the document's line height here
                QCOMPARE(label->heightForWidth(width), reference->heightForWidth(width));
        label->setContentsMargins(2, 3, 4, 5);
        reference->setContentsMargins(2, 3, 4, 5);
        QCOMPARE(label->sizeHint(), reference->sizeHint());
        QCOMPARE(label->minimumSizeHint(), reference->minimumSizeHint());
        // QLabel fills the document of its text control when it measures or paints itself; the label
        // measured and laid out here without it.
        for (const QTextDocument* document : label->findChildren<QTextDocument*>())
            QVERIFY2(document->isEmpty(), qPrintable(text));
    }
}

// DocumentLabel (issue 16, seventh stop): a new text is laid out for its size hints (QTextDocument::adjustSize()'s
// widths and the widest word) and not again for the heights for width the layout asks for or the paint, when it
// fits on its lines at the label's width; the pixels are a QLabel's. QLabel-like measuring laid a numbers
// value out 11 times at start-up (-1, 80 x's, the shape's two widths, one line, 0, then each width asked for).
void TestFloorPlot::documentLabelLaysANewTextOutOnce()
{
    const struct {
        QString text;
        int maxPasses;
    } cases[]{
        {QStringLiteral("4.48 ms · 223 tok/s"), 4}, // a numbers value: 80 x's, 0, the shape's width, its own width
        {QStringLiteral("20 ms: B ≤ 193\n40 ms: B ≤ 208"), 5},
        {QStringLiteral("<span style=\"font-size:10.5pt; font-weight:600;\">Decode floor</span><br><span style=\"font-size:9.0pt;\">"
                        "Floor W_read/BW = 4.48 ms/token at B = 1 (223 tok/s)</span>"),
         6}, // a plot title: its <br> line counts as wrapped here, so also laid out on one line and at its width

    };
    for (const auto& c : cases) {
        auto configure = [&](QLabel* label) {
            label->setWordWrap(true);
            label->setTextInteractionFlags(Qt::TextSelectableByMouse);
            QFont font = label->font();
            font.setWeight(QFont::DemiBold);
            label->setFont(font);
        };
        QWidget holder;
        auto* layout = new QVBoxLayout(&holder);
        layout->setContentsMargins(0, 0, 0, 0);
        auto* label = new views::DocumentLabel;
        configure(label);
        label->setText(QStringLiteral("—"));
        layout->addWidget(new views::LabelBox(label, false));
        layout->addStretch(1);
        holder.resize(380, 200);
        holder.show();
        QVERIFY(QTest::qWaitForWindowExposed(&holder));

        const int before = label->documentLayoutPasses();
        label->setText(c.text);
        QCoreApplication::sendPostedEvents(); // the box's LayoutRequest, then the holder's
        QCoreApplication::sendPostedEvents();
        layout->activate();
        const QImage shown = label->grab().toImage();
        const int passes = label->documentLayoutPasses() - before;
        QVERIFY2(passes >= 1 && passes <= c.maxPasses, qPrintable(QStringLiteral("%1 passes: %2").arg(passes).arg(c.text)));
        // Painting again and the height at its width cost no layout.
        label->grab();
        QCOMPARE(label->heightForWidth(label->width()), label->height());
        QCOMPARE(label->documentLayoutPasses() - before, passes);

        // What it paints is what a QLabel of the same text and size paints.
        QLabel reference;
        configure(&reference);
        reference.setText(c.text);
        reference.resize(label->size());
        QCOMPARE(shown.convertToFormat(QImage::Format_RGB32), reference.grab().toImage().convertToFormat(QImage::Format_RGB32));
    }
}

// DocumentLabel (issue 16, eighteenth stop, h16w): a width heightForWidth() was asked before, for the same text, font and
// alignment, is answered from the height its layout had, without laying the text out (and shaping it) again; the height
// is the one a fresh label lays out at that width. At the window's first show the layouts asked a floor card's title at
// 467, 403, 377, 467, 377, 410 and 377 px.
void TestFloorPlot::documentLabelLaysOutEachWidthOnce()
{
    const QString text = QStringLiteral("<span style=\"font-size:10.5pt; font-weight:600;\">Decode floor</span> "
                                        "Floor W_read/BW = 4.48 ms/token at B = 1 (223 tok/s; the input table\u2019s unread rows "
                                        "left out); never compute-bound at S = 2,048. At B = 1: t_step 4.56 ms (memory-bound).");
    auto configure = [&](views::DocumentLabel* label) {
        label->setTextFormat(Qt::RichText);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setText(text);
    };
    views::DocumentLabel label;
    configure(&label);
    const std::vector<int> widths{467, 403, 377, 467, 377, 410, 377, 403};
    std::vector<int> heights;
    const int before = label.documentLayoutPasses();
    for (int width : widths)
        heights.push_back(label.heightForWidth(width));
    // One layout per distinct width (the first fills the document at its width).
    QCOMPARE(label.documentLayoutPasses() - before, 4);
    for (std::size_t i = 0; i < widths.size(); ++i) {
        views::DocumentLabel fresh;
        configure(&fresh);
        QCOMPARE(heights[i], fresh.heightForWidth(widths[i]));
    }
    QVERIFY(heights[2] > heights[0]); // the widths do wrap the text differently
    // A new text, font or alignment is laid out again.
    label.setText(text + QStringLiteral(" More."));
    const int afterText = label.documentLayoutPasses();
    label.heightForWidth(377);
    QCOMPARE(label.documentLayoutPasses() - afterText, 1);
    QFont font = label.font();
    font.setPointSizeF(font.pointSizeF() * 1.5);
    label.setFont(font);
    const int afterFont = label.documentLayoutPasses();
    const int larger = label.heightForWidth(377);
    QVERIFY(label.documentLayoutPasses() > afterFont);
    QVERIFY(larger > heights[2]);
}

// DocumentLabel (issue 16, twelfth stop, h16h): each new text is shaped once. Its blocks keep their shaped glyphs
// (QTextLayout's cache), so the paint that follows the layout, and a layout at another width, do not run HarfBuzz
// over the text again (by default QTextLayout::endLayout() frees them). Plain, multi-line and rich texts, after a
// new font too; the pixels and the passes stay those of the tests above.
void TestFloorPlot::documentLabelKeepsItsShapedGlyphs()
{
    const QStringList texts{QStringLiteral("4.48 ms \u00b7 223 tok/s"), QStringLiteral("20 ms: B \u2264 193\n40 ms: B \u2264 208"),
                            QStringLiteral("<span style=\"font-size:10.5pt; font-weight:600;\">Decode floor</span><br>"
                                           "<span style=\"font-size:9.0pt;\">Floor W_read/BW = 4.48 ms/token at B = 1</span>"),
                            QStringLiteral("first paragraph\n\nsecond paragraph")};
    views::DocumentLabel label;
    label.setWordWrap(true);
    label.setTextInteractionFlags(Qt::TextSelectableByMouse);
    label.resize(150, 60);
    QVERIFY(!label.keepsShapedGlyphs()); // nothing laid out yet
    for (const QString& text : texts) {
        label.setText(text);
        QVERIFY(label.heightForWidth(150) > 0); // laid out at its width
        QVERIFY2(label.keepsShapedGlyphs(), qPrintable(text));
        label.grab();
        (void)label.sizeHint(); // the hints' passes at other widths
        QVERIFY2(label.keepsShapedGlyphs(), qPrintable(text));
    }
    QFont larger = label.font();
    larger.setPointSizeF(larger.pointSizeF() * 1.5);
    label.setFont(larger);
    label.setText(texts.first());
    label.grab();
    QVERIFY(label.keepsShapedGlyphs());
}

// DocumentLabel (issue 16, ninth stop, h16y): a new text of the same font and alignment replaces the old one in the
// document without emptying it and re-applying the settings first (one layout pass less, about 0.06 M instructions
// a new text); what it paints, its size hints and its heights are those of a label given that text first.
void TestFloorPlot::documentLabelNewTextPaintsAsAFreshLabel()
{
    const QString title = QStringLiteral("<span style=\"font-size:10.5pt; font-weight:600;\">Decode floor</span><br>"
                                         "<span style=\"font-size:9.0pt;\">Floor W_read/BW = %1 ms/token at B = 1</span>");
    const QStringList texts{QStringLiteral("4.48 ms \u00b7 223 tok/s"), QStringLiteral("12.9 ms \u00b7 8,143 tok/s"),
                            title.arg(QStringLiteral("4.48")), title.arg(QStringLiteral("12.9")),
                            QStringLiteral("20 ms: B \u2264 193\n40 ms: B \u2264 208")};
    auto configure = [](QLabel* label, Qt::Alignment alignment) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setAlignment(alignment);
        QFont font = label->font();
        font.setWeight(QFont::DemiBold);
        label->setFont(font);
    };
    for (const Qt::Alignment alignment : {Qt::AlignLeft | Qt::AlignTop, Qt::AlignRight | Qt::AlignVCenter}) {
        views::DocumentLabel label;
        configure(&label, alignment);
        label.resize(150, 60);
        QString previous;
        for (const QString& text : texts) {
            label.setText(text);
            views::DocumentLabel fresh;
            configure(&fresh, alignment);
            fresh.setText(text);
            fresh.resize(label.size());
            const QString what = previous + QStringLiteral(" -> ") + text;
            QCOMPARE(label.heightForWidth(150), fresh.heightForWidth(150));
            QVERIFY2(label.grab().toImage() == fresh.grab().toImage(), qPrintable(what));
            QCOMPARE(label.sizeHint(), fresh.sizeHint());
            QCOMPARE(label.minimumSizeHint(), fresh.minimumSizeHint());
            QCOMPARE(label.heightForWidth(90), fresh.heightForWidth(90));
            QVERIFY2(label.grab().toImage() == fresh.grab().toImage(), qPrintable(what)); // after the hints' widths
            previous = text;
        }
        // A new font then applies to the next text.
        QFont larger = label.font();
        larger.setPointSizeF(larger.pointSizeF() * 1.5);
        label.setFont(larger);
        views::DocumentLabel fresh;
        configure(&fresh, alignment);
        fresh.setFont(larger);
        fresh.setText(texts.back());
        fresh.resize(label.size());
        QCOMPARE(label.heightForWidth(150), fresh.heightForWidth(150));
        QVERIFY(label.grab().toImage() == fresh.grab().toImage());
    }
}

namespace {

/** Collects the region of every Paint event @p widget receives. */
class PaintRecorder final : public QObject {
public:
    explicit PaintRecorder(QWidget* widget) { widget->installEventFilter(this); }
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint) {
            region += static_cast<QPaintEvent*>(event)->region();
            ++paints;
        }
        return QObject::eventFilter(watched, event);
    }
    QRegion region;
    int paints = 0;
};

/** The pixels of @p widget as the window's backing store holds them (not painted again, as grab() would). */
QImage shown(QWidget* widget)
{
    QWidget* window = widget->window();
    const QPoint at = widget->mapTo(window, QPoint(0, 0));
    return window->screen()->grabWindow(window->winId(), at.x(), at.y(), widget->width(), widget->height()).toImage();
}

/** Paints the posted updates and delivers the posted layout requests. */
void settle()
{
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
}

} // namespace

/** Issue 16, fourteenth stop: a new text repaints only the lines (and in a line, the characters from the first that
 *  differs) it changes, and the window then shows, pixel for pixel, what a repaint of the whole label shows. */
void TestFloorPlot::documentLabelRepaintsOnlyWhatANewTextChanges()
{
    QWidget window;
    window.resize(420, 170);
    auto* title = new views::DocumentLabel;
    title->setTextFormat(Qt::RichText);
    title->setWordWrap(true);
    title->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* titleBox = new views::LabelBox(title, true, &window);
    titleBox->setCardFill(true);
    titleBox->setGeometry(10, 10, 380, 90);
    auto* value = new views::DocumentLabel; // as the numbers panel's: plain, selectable, vertically centred
    value->setWordWrap(true);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = value->font();
    bold.setWeight(QFont::DemiBold);
    value->setFont(bold);
    auto* valueBox = new views::LabelBox(value, false, &window);
    valueBox->setCardFill(true);
    valueBox->setGeometry(10, 110, 220, 40);
    const QString html = QStringLiteral("<span style=\"font-size:10.5pt; font-weight:600;\">Decode floor</span><br>"
                                        "<span style=\"font-size:9.0pt;\">Floor W_read/BW = %1 ms/token at B = %2 (223 tok/s; "
                                        "the input table's unread rows left out); never compute-bound at S = 2,048. At B = %2: "
                                        "t_step %1 ms (memory-bound), 219 tok/s total.</span>");
    title->setText(html.arg(QStringLiteral("4.48"), QStringLiteral("1")));
    value->setText(QStringLiteral("4.56 ms (memory-bound)"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    settle();
    PaintRecorder titlePaints(title), valuePaints(value);
    const std::vector<std::pair<QString, QString>> steps{
        {html.arg(QStringLiteral("4.48"), QStringLiteral("13")), QStringLiteral("4.61 ms (memory-bound)")},
        {html.arg(QStringLiteral("4.61"), QStringLiteral("13")), QStringLiteral("4.61 ms (compute-bound)")},
        {html.arg(QStringLiteral("4.61"), QStringLiteral("1,313")), QStringLiteral("14.61 ms \u00b7 2 tok/s")},
        {html.arg(QStringLiteral("12.9"), QStringLiteral("2")), QStringLiteral("14.61 ms \u00b7 2 tok/s and more words to wrap")},
        {html.arg(QStringLiteral("12.9"), QStringLiteral("2")).replace(QStringLiteral("Decode floor"), QStringLiteral("Floor")),
         QStringLiteral("4.56 ms (memory-bound)")},
    };
    const int partialBefore = title->partialRepaints() + value->partialRepaints();
    for (std::size_t i = 0; i < steps.size(); ++i) {
        titlePaints.region = valuePaints.region = QRegion();
        title->setTextRepaintingChanges(steps[i].first);
        value->setTextRepaintingChanges(steps[i].second);
        settle();
        const QImage titleShown = shown(title);
        const QImage valueShown = shown(value);
        if (i < 3) { // the heading, and the first characters of the value, are not painted again
            QVERIFY2(!titlePaints.region.contains(QPoint(2, 2)), qPrintable(QStringLiteral("step %1").arg(i)));
            if (i < 2) // "4.56 ms" -> "4.61 ms" -> "4.61 ms (compute": the value's first characters stay
                QVERIFY2(!valuePaints.region.contains(QPoint(2, value->height() / 2)), qPrintable(QStringLiteral("step %1").arg(i)));
            QVERIFY2(!titlePaints.region.isEmpty() && !valuePaints.region.isEmpty(), qPrintable(QStringLiteral("step %1").arg(i)));
        }
        title->update();
        value->update();
        settle();
        QVERIFY2(shown(title) == titleShown, qPrintable(QStringLiteral("title, step %1").arg(i)));
        QVERIFY2(shown(value) == valueShown, qPrintable(QStringLiteral("value, step %1").arg(i)));
    }
    QCOMPARE(title->partialRepaints() + value->partialRepaints() - partialBefore, int(2 * steps.size()));
}

/** Issue 16, twenty-fourth stop (h16an): a DocumentLabel in a card-filled LabelBox fills under its own text and is
 *  opaque, so a new text repaints the label and not the box under it (one widget painted instead of two, on every
 *  title and value a slider step changes); the window shows, pixel for pixel, what the box filled under the label
 *  showed (the same label with DocumentLabel::setCardFill(false): the box paints first, as before). */
void TestFloorPlot::cardFilledLabelRepaintsWithoutItsBox()
{
    struct Shown {
        QWidget window;
        views::DocumentLabel* title = nullptr;
        views::DocumentLabel* value = nullptr;
        views::LabelBox* titleBox = nullptr;
        views::LabelBox* valueBox = nullptr;
    };
    auto make = [](Shown& s, bool labelFills) {
        s.window.resize(420, 170);
        s.title = new views::DocumentLabel;
        s.title->setTextFormat(Qt::RichText);
        s.title->setWordWrap(true);
        s.title->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        s.title->setTextInteractionFlags(Qt::TextSelectableByMouse);
        s.titleBox = new views::LabelBox(s.title, true, &s.window);
        s.titleBox->setCardFill(true);
        s.titleBox->setGeometry(10, 10, 380, 90);
        s.value = new views::DocumentLabel;
        s.value->setWordWrap(true);
        s.value->setTextSelectableByMouseOnFirstUse();
        s.valueBox = new views::LabelBox(s.value, true, &s.window);
        s.valueBox->setCardFill(true);
        s.valueBox->setGeometry(10, 110, 220, 40);
        if (!labelFills) { // the box fills under a label that is not opaque
            s.title->setCardFill(false);
            s.value->setCardFill(false);
        }
    };
    Shown now, before;
    make(now, true);
    make(before, false);
    QVERIFY(now.title->fillsCard() && now.value->fillsCard() && !before.title->fillsCard());
    const QString html = QStringLiteral("<span style=\"font-size:10.5pt; font-weight:600;\">Decode floor</span><br>"
                                        "<span style=\"font-size:9.0pt;\">Floor W_read/BW = %1 ms/token at B = %2; never "
                                        "compute-bound at S = 2,048. At B = %2: t_step %1 ms (memory-bound).</span>");
    for (Shown* s : {&now, &before}) {
        s->title->setText(html.arg(QStringLiteral("4.48"), QStringLiteral("1")));
        s->value->setText(QStringLiteral("4.56 ms (memory-bound)"));
        s->window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&s->window));
    }
    settle();
    PaintRecorder titleBoxPaints(now.titleBox), valueBoxPaints(now.valueBox), beforeBoxPaints(before.titleBox);
    PaintRecorder titlePaints(now.title), valuePaints(now.value);
    const std::vector<std::pair<QString, QString>> steps{
        {html.arg(QStringLiteral("4.61"), QStringLiteral("13")), QStringLiteral("4.61 ms (memory-bound)")},
        {html.arg(QStringLiteral("12.9"), QStringLiteral("1,313")), QStringLiteral("14.61 ms \u00b7 2 tok/s and words to wrap")},
        {html.arg(QStringLiteral("4.5"), QStringLiteral("2")), QStringLiteral("4.5 ms")},
    };
    for (std::size_t i = 0; i < steps.size(); ++i) {
        for (Shown* s : {&now, &before}) {
            s->title->setTextRepaintingChanges(steps[i].first);
            s->value->setTextRepaintingChanges(steps[i].second);
        }
        settle();
        const QString step = QStringLiteral("step %1").arg(i);
        QVERIFY2(shown(now.titleBox) == shown(before.titleBox), qPrintable(QStringLiteral("title, ") + step));
        QVERIFY2(shown(now.valueBox) == shown(before.valueBox), qPrintable(QStringLiteral("value, ") + step));
    }
    QVERIFY(titlePaints.paints > 0 && valuePaints.paints > 0);
    QVERIFY(beforeBoxPaints.paints > 0); // the reference does paint its box (else the comparison proves nothing)
    QCOMPARE(titleBoxPaints.paints, 0);
    QCOMPARE(valueBoxPaints.paints, 0);
    // A whole repaint of the window shows the same pixels too.
    now.window.update();
    settle();
    QVERIFY(shown(now.titleBox) == shown(before.titleBox));
    QVERIFY(shown(now.valueBox) == shown(before.valueBox));
}

/** Issue 16, nineteenth stop (h16z): a new text whose markup is that of the text shown (a plot title's new takeaway, a
 *  numbers value) is edited into the label's document in place: no HTML parse, no refill, one layout pass at the label's
 *  width; the label then measures and paints as a label built fresh with that text, and a text of other markup (a
 *  warning added, entities, white space the HTML parser collapses, a new line in a plain value) is filled as before. */
void TestFloorPlot::documentLabelEditsANewTextInPlace()
{
    const QString title = QStringLiteral("<span style=\"font-size:10.5pt; font-weight:600;\">Decode floor</span><br>"
                                         "<span style=\"font-size:9.0pt;\">Floor W_read/BW = %1 ms/token at B = %2 (%3 tok/s); "
                                         "never compute-bound at S = 2,048.</span>");
    const QString warned = QStringLiteral("<span style=\"font-size:10.5pt; font-weight:600;\">Decode floor</span><br>"
                                          "<span style=\"font-size:9.0pt; font-weight:600; color:#c0392b;\">Does not fit: "
                                          "%1 GB</span><br><span style=\"font-size:9.0pt;\">Floor = %2 ms</span>");
    const struct {
        bool rich;
        QString text;
        bool inPlace; // expected: edited in place (else filled)
    } steps[]{
        {true, title.arg(QStringLiteral("4.48"), QStringLiteral("1"), QStringLiteral("223")), false}, // the first: filled
        {true, title.arg(QStringLiteral("4.61"), QStringLiteral("13"), QStringLiteral("2,819")), true},
        {true, title.arg(QStringLiteral("12.9"), QStringLiteral("1,313"), QStringLiteral("101,781")), true},
        {true, title.arg(QStringLiteral("4.5"), QStringLiteral("2"), QStringLiteral("444")), true}, // shorter, rewraps
        {true, warned.arg(QStringLiteral("140.1"), QStringLiteral("9.1")), false},                  // other markup
        {true, warned.arg(QStringLiteral("16.1"), QStringLiteral("19.25")), true},
        {true, title.arg(QStringLiteral("4.48 &amp; 5"), QStringLiteral("&lt;1"), QStringLiteral("2")), false},
        {true, title.arg(QStringLiteral("4.48 &amp; 6"), QStringLiteral("&lt;2"), QStringLiteral("2")), true},
        {true, title.arg(QStringLiteral("4.48  7"), QStringLiteral("1"), QStringLiteral("2")), false}, // collapsed spaces
        {true, title.arg(QStringLiteral("4.48&nbsp;7"), QStringLiteral("1"), QStringLiteral("2")), false},
        {true, title.arg(QStringLiteral("4.49"), QStringLiteral("1"), QStringLiteral("2")), false}, // the text shown had no runs
        {false, QStringLiteral("4.56 ms (memory-bound)"), false},
        {false, QStringLiteral("14.61 ms \u00b7 2 tok/s and more words to wrap"), true},
        {false, QStringLiteral("20 ms: B \u2264 193\n40 ms: B \u2264 208"), false}, // a new line: another block
        {false, QStringLiteral("20 ms: B \u2264 193\n40 ms: B \u2264 2,119"), true},
        {false, QStringLiteral("20 ms: B \u2264 1\n40 ms: B \u2264 2,119"), true},
        {false, QStringLiteral("20 ms: B \u2264 17\n40 ms: B \u2264 9"), true}, // both lines: each edited
        {false, QStringLiteral("20 ms: B \u2264 17\n\n40 ms: B \u2264 9"), false}, // an empty line
        {false, QStringLiteral("20 ms: B \u2264 1"), false},
    };
    auto configure = [](QLabel* label, bool rich) {
        label->setTextFormat(rich ? Qt::RichText : Qt::AutoText);
        label->setWordWrap(true);
        label->setAlignment(rich ? Qt::AlignLeft | Qt::AlignTop : Qt::AlignLeft | Qt::AlignVCenter);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        if (!rich) {
            QFont bold = label->font();
            bold.setWeight(QFont::DemiBold);
            label->setFont(bold);
        }
    };
    for (const bool rich : {true, false}) {
        QWidget window;
        window.resize(300, 140);
        auto* label = new views::DocumentLabel;
        configure(label, rich);
        auto* box = new views::LabelBox(label, false, &window);
        box->setCardFill(true);
        box->setGeometry(10, 10, 260, 110);
        bool first = true;
        for (const auto& step : steps) {
            if (step.rich != rich)
                continue;
            const int fills = label->documentFills();
            const int edits = label->textEditsInPlace();
            const int passes = label->documentLayoutPasses();
            if (first) {
                label->setText(step.text);
                window.show();
                QVERIFY(QTest::qWaitForWindowExposed(&window));
                first = false;
            } else {
                label->setTextRepaintingChanges(step.text);
            }
            settle();
            const QString what = step.text;
            if (step.inPlace) {
                QVERIFY2(label->documentFills() == fills, qPrintable(QStringLiteral("filled: ") + what));
                QVERIFY2(label->textEditsInPlace() == edits + 1, qPrintable(QStringLiteral("not edited: ") + what));
                QVERIFY2(label->documentLayoutPasses() - passes == 1,
                         qPrintable(QStringLiteral("%1 passes: %2").arg(label->documentLayoutPasses() - passes).arg(what)));
            } else {
                QVERIFY2(label->documentFills() == fills + 1, qPrintable(QStringLiteral("not filled: ") + what));
            }
            QVERIFY2(label->keepsShapedGlyphs(), qPrintable(what));
            // What the window shows is what a repaint of the whole label shows, and that is a fresh label's picture.
            const QImage shownNow = shown(label);
            label->update();
            settle();
            QVERIFY2(shown(label) == shownNow, qPrintable(QStringLiteral("repainted in part: ") + what));
            views::DocumentLabel fresh;
            configure(&fresh, rich);
            fresh.setCardFill(label->fillsCard()); // as the box gives the label (h16an): the same background
            fresh.setText(step.text);
            fresh.resize(label->size());
            auto picture = [](QWidget* widget) { return widget->grab().toImage().convertToFormat(QImage::Format_RGB32); };
            QVERIFY2(picture(label) == picture(&fresh), qPrintable(QStringLiteral("pixels: ") + what));
            QCOMPARE(label->heightForWidth(label->width()), fresh.heightForWidth(label->width()));
            QCOMPARE(label->heightForWidth(120), fresh.heightForWidth(120));
            QCOMPARE(label->sizeHint(), fresh.sizeHint());
            QCOMPARE(label->minimumSizeHint(), fresh.minimumSizeHint());
            QVERIFY2(picture(label) == picture(&fresh), qPrintable(QStringLiteral("after the hints: ") + what));
        }
    }
}

/** Issue 16, twentieth stop (h16ab): where a new text's line keeps its width (digits of one advance), the characters after
 *  the last change sit where they did and are not painted again; the window then shows what a repaint of the whole label
 *  shows, and that is what a fresh label draws. */
void TestFloorPlot::documentLabelRepaintsBetweenTheChanges()
{
    QWidget window;
    window.resize(420, 130);
    auto* title = new views::DocumentLabel;
    title->setTextFormat(Qt::RichText);
    title->setWordWrap(true);
    title->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* titleBox = new views::LabelBox(title, true, &window);
    titleBox->setCardFill(true);
    titleBox->setGeometry(10, 10, 380, 60);
    auto* value = new views::DocumentLabel;
    value->setWordWrap(true);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* valueBox = new views::LabelBox(value, false, &window);
    valueBox->setCardFill(true);
    valueBox->setGeometry(10, 80, 300, 30);
    const QString html = QStringLiteral("<div><span style=\"font-size:10.5pt; font-weight:600;\">Decode floor</span></div>"
                                        "<span style=\"font-size:9.0pt;\">W/BW = %1 ms at B = %2, memory-bound</span>");
    const QString plain = QStringLiteral("%1 ms (memory-bound), 219 tok/s");
    title->setText(html.arg(QStringLiteral("4.48"), QStringLiteral("16")));
    value->setText(plain.arg(QStringLiteral("4.56")));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    settle();
    PaintRecorder titlePaints(title), valuePaints(value);
    const struct {
        QString title, value;
        bool tailKept; // the same advance: the line's end not painted again
    } steps[]{
        {html.arg(QStringLiteral("4.61"), QStringLiteral("16")), plain.arg(QStringLiteral("4.61")), true},
        {html.arg(QStringLiteral("4.61"), QStringLiteral("32")), plain.arg(QStringLiteral("7.29")), true},
        {html.arg(QStringLiteral("14.61"), QStringLiteral("32")), plain.arg(QStringLiteral("14.61")), false}, // wider
        {html.arg(QStringLiteral("14.61"), QStringLiteral("1")), plain.arg(QStringLiteral("1.1")), false},   // narrower
        {html.arg(QStringLiteral("14.62"), QStringLiteral("1")), plain.arg(QStringLiteral("1.2")), true},
    };
    for (const auto& step : steps) {
        titlePaints.region = valuePaints.region = QRegion();
        const int titleEdits = title->textEditsInPlace();
        title->setTextRepaintingChanges(step.title);
        value->setTextRepaintingChanges(step.value);
        settle();
        const QString what = step.title + QLatin1Char(' ') + step.value;
        QVERIFY2(title->textEditsInPlace() == titleEdits + 1, qPrintable(QStringLiteral("not edited: ") + what));
        // The heading, a block of its own, is not edited (nor laid out and shaped again); nor painted.
        QVERIFY2(std::find(title->blocksEditedLast().begin(), title->blocksEditedLast().end(), 0) == title->blocksEditedLast().end(),
                 qPrintable(what));
        QVERIFY2(!titlePaints.region.contains(QPoint(2, 4)), qPrintable(what));
        QVERIFY2(!titlePaints.region.isEmpty() && !valuePaints.region.isEmpty(), qPrintable(what));
        // The last characters of each line: painted again only where the line's advance changed.
        QFont headingFont = title->font(), takeawayFont = title->font();
        headingFont.setPointSizeF(10.5);
        headingFont.setWeight(QFont::DemiBold);
        takeawayFont.setPointSizeF(9.0);
        const QString takeawayText = QTextDocumentFragment::fromHtml(step.title).toPlainText().section(QLatin1Char('\n'), 1);
        const QPoint titleEnd(QFontMetrics(takeawayFont).horizontalAdvance(takeawayText) - 4,
                              QFontMetrics(headingFont).height() + QFontMetrics(takeawayFont).height() / 2);
        const QPoint valueEnd(QFontMetrics(value->font()).horizontalAdvance(step.value) - 4, value->height() / 2);
        if (step.tailKept) {
            QVERIFY2(!titlePaints.region.contains(titleEnd), qPrintable(QStringLiteral("title's end painted: ") + what));
            QVERIFY2(!valuePaints.region.contains(valueEnd), qPrintable(QStringLiteral("value's end painted: ") + what));
        }
        const QImage titleShown = shown(title);
        const QImage valueShown = shown(value);
        title->update();
        value->update();
        settle();
        QVERIFY2(shown(title) == titleShown, qPrintable(QStringLiteral("title repainted in part: ") + what));
        QVERIFY2(shown(value) == valueShown, qPrintable(QStringLiteral("value repainted in part: ") + what));
        for (views::DocumentLabel* label : {title, value}) {
            views::DocumentLabel fresh;
            fresh.setTextFormat(label->textFormat());
            fresh.setWordWrap(true);
            fresh.setAlignment(label->alignment());
            fresh.setTextInteractionFlags(label->textInteractionFlags());
            fresh.setCardFill(label->fillsCard()); // as the box gives the label (h16an): the same background
            fresh.setText(label->text());
            fresh.resize(label->size());
            QVERIFY2(label->grab().toImage().convertToFormat(QImage::Format_RGB32)
                         == fresh.grab().toImage().convertToFormat(QImage::Format_RGB32),
                     qPrintable(QStringLiteral("not as a fresh label: ") + what));
        }
    }
}

/** Issue 16, twentieth stop (h16ab): a plot title's heading as a block of its own ("<div>heading</div>takeaway", as
 *  PlotPanel::renderTitle() writes it when a line follows the heading) draws, measures and reads as the heading and a
 *  line break did, in DocumentLabel and in QLabel (its paint while text is selected); and a new takeaway is edited
 *  into the blocks after the heading. */
// Issue 16, thirtieth stop (h16ax): views::WordLayout breaks lines and places glyphs as QTextLayout does, from words
// shaped once: the five titles' takeaways, texts with ligatures ("fi", "ffi", "fl") and kerned pairs ("To", "AV", "Ty",
// "F."), in the titles' fonts, at every width from 20 to 700 px: the same lines, natural widths, glyphs and places
// (1/64 px), and for every ninth width the same pixels. New figures compose without shaping; a repeated text shapes
// nothing.
void TestFloorPlot::wordLayoutSetsTextAsQTextLayout()
{
    QStringList texts;
    {
        MainWindow window(model::defaultScenario());
        window.resize(1600, 1000);
        for (views::PlotPanel* panel : window.findChildren<views::PlotPanel*>())
            if (!panel->takeaway().isEmpty())
                texts << panel->takeaway();
    }
    QVERIFY2(texts.size() >= 5, qPrintable(QString::number(texts.size())));
    texts << QStringLiteral("Official finite fields: To AV Ty F. WA Yo ffi fl efficiency offline affine (fi) "
                            "\"quoted\" x*y_z 1,000,000 tokens at 8.03 ms/token (125 tok/s); memory-bound up to "
                            "B = 157.")
          << QStringLiteral("Floor W/(T\u00b7BW) = 2.01 ms/token at B = 1 (497 tok/s; weights split over T = 4 GPUs); "
                            "compute-bound from B = 312. At B = 64: t_step 14.7 ms (memory-bound), 4,353 tok/s total.")
          << QStringLiteral("Ridge I* = 295 FLOP/byte. Decode (B = 16, S = 4,096) at 15.2 FLOP/byte reaches 102 "
                            "TFLOP/s (10.3% of peak), memory-bound; prefill (P = 2,048) at 1,903 FLOP/byte is "
                            "compute-bound.");
    for (const QString& text : texts)
        QVERIFY2(views::WordLayout::qualifies(text), qPrintable(text));
    QVERIFY(!views::WordLayout::qualifies(QStringLiteral("tab\there")));
    QVERIFY(!views::WordLayout::qualifies(QStringLiteral("no\u00a0break")));
    QVERIFY(!views::WordLayout::qualifies(QStringLiteral("\u0627\u0644")));

    auto fx = [](qreal px) { return int(px * 64); };
    std::vector<QFont> fonts;
    for (const auto& [points, weight] : {std::pair{9.0, QFont::Normal}, std::pair{9.0, QFont::DemiBold},
                                         std::pair{10.5, QFont::DemiBold}, std::pair{13.5, QFont::Normal}}) {
        QFont font = QApplication::font();
        font.setPointSizeF(points);
        font.setWeight(weight);
        fonts.push_back(font);
    }
    int cases = 0;
    int pictures = 0;
    for (const QFont& font : fonts) {
        views::WordLayout words(font);
        const quint32 space = QRawFont::fromFont(font).glyphIndexesForString(QStringLiteral(" ")).value(0);
        for (const QString& text : texts) {
            for (int width = 20; width <= 700; width += 1) {
                QTextLayout qt(text, font);
                QTextOption option;
                option.setWrapMode(QTextOption::WordWrap);
                qt.setTextOption(option);
                qt.beginLayout();
                qreal y = 0;
                for (QTextLine line = qt.createLine(); line.isValid(); line = qt.createLine()) {
                    line.setLineWidth(width);
                    line.setPosition(QPointF(0, y));
                    y += line.height();
                }
                qt.endLayout();
                const std::vector<views::WordLayout::Line>& lines = words.layout(text, width);
                const QString where = QStringLiteral("%1 at %2 px in %3").arg(text).arg(width).arg(font.toString());
                QCOMPARE(int(lines.size()), qt.lineCount());
                for (int i = 0; i < qt.lineCount(); ++i) {
                    const QTextLine line = qt.lineAt(i);
                    const views::WordLayout::Line& ours = lines[std::size_t(i)];
                    QVERIFY2(ours.start == line.textStart() && ours.length == line.textLength(),
                             qPrintable(QStringLiteral("line %1 of %2").arg(i).arg(where)));
                    QVERIFY2(fx(ours.naturalWidthPx) == fx(line.naturalTextWidth()),
                             qPrintable(QStringLiteral("width of line %1 of %2").arg(i).arg(where)));
                }
                ++cases;
                if (width % 9 != 0)
                    continue;
                // The glyphs (spaces aside) and their places, and the pixels, line by line.
                QImage expected(width + 40, int(y) + 20, QImage::Format_ARGB32_Premultiplied);
                expected.fill(Qt::white);
                QImage composed = expected;
                QPainter qtPainter(&expected);
                QPainter wordPainter(&composed);
                qtPainter.setPen(QColor(30, 30, 40));
                wordPainter.setPen(QColor(30, 30, 40));
                for (int i = 0; i < qt.lineCount(); ++i) {
                    const QTextLine line = qt.lineAt(i);
                    line.draw(&qtPainter, QPointF(5, 5));
                    words.drawLine(&wordPainter, i, QPointF(5 + line.x(), 5 + line.y() + line.ascent()));
                    std::vector<std::pair<quint32, int>> glyphs;
                    for (const QGlyphRun& run : line.glyphRuns())
                        for (qsizetype g = 0; g < run.glyphIndexes().size(); ++g)
                            if (run.glyphIndexes()[g] != space)
                                glyphs.emplace_back(run.glyphIndexes()[g], fx(run.positions()[g].x()));
                    QVERIFY2(!glyphs.empty() && glyphs == words.glyphPlaces(i),
                             qPrintable(QStringLiteral("glyphs of line %1 of %2").arg(i).arg(where)));
                }
                qtPainter.end();
                wordPainter.end();
                QVERIFY2(expected == composed, qPrintable(QStringLiteral("pixels of ") + where));
                ++pictures;
            }
        }
        // A repeated text shapes nothing. New figures are composed from their characters without a layout once their
        // neighbouring pairs were seen to shape apart: the first takeaway with its digits shifted nine times, each laid
        // out as QTextLayout does; by the last shift its figures are composed.
        const int shaped = words.unitsShaped();
        const int composedBefore = words.unitsComposed();
        words.layout(texts.front(), 400);
        QCOMPARE(words.unitsShaped(), shaped);
        int composedInLastShift = 0;
        for (int shift = 1; shift <= 9; ++shift) {
            const int composedNow = words.unitsComposed();
            QString figures = texts.front();
            for (QChar& c : figures)
                if (c.isDigit())
                    c = QChar(u'0' + (c.digitValue() + shift) % 10);
            const std::vector<views::WordLayout::Line>& lines = words.layout(figures, 400);
            composedInLastShift = words.unitsComposed() - composedNow;
            QTextLayout qt(figures, font);
            QTextOption option;
            option.setWrapMode(QTextOption::WordWrap);
            qt.setTextOption(option);
            qt.beginLayout();
            for (QTextLine line = qt.createLine(); line.isValid(); line = qt.createLine())
                line.setLineWidth(400);
            qt.endLayout();
            QCOMPARE(int(lines.size()), qt.lineCount());
            for (int i = 0; i < qt.lineCount(); ++i) {
                std::vector<std::pair<quint32, int>> glyphs;
                for (const QGlyphRun& run : qt.lineAt(i).glyphRuns())
                    for (qsizetype g = 0; g < run.glyphIndexes().size(); ++g)
                        if (run.glyphIndexes()[g] != space)
                            glyphs.emplace_back(run.glyphIndexes()[g], fx(run.positions()[g].x()));
                QVERIFY2(lines[std::size_t(i)].start == qt.lineAt(i).textStart() && glyphs == words.glyphPlaces(i),
                         qPrintable(figures));
            }
        }
        QVERIFY2(words.unitsComposed() > composedBefore, qPrintable(QString::number(words.unitsComposed())));
        QVERIFY2(composedInLastShift > 0, qPrintable(QString::number(composedInLastShift)));
    }
    QCOMPARE(cases, int(fonts.size() * texts.size()) * 681);
    QCOMPARE(pictures, int(fonts.size() * texts.size()) * 75);
}

// Issue 16, thirtieth stop (h16ax): a title whose takeaway block is composed from words shaped once
// (DocumentLabel::setComposesLastBlock()) measures and shows, after each new takeaway's partial repaint, exactly what
// the same title laid out by its document shows: at eight widths, through takeaways with ligatures, kerned pairs and
// figures that change width, a warning above the takeaway (not composed) and a warning in its place (composed, in red).
void TestFloorPlot::titleTakeawayComposedAsTheDocumentDrawsIt()
{
    QWidget window;
    window.resize(1300, 260);
    views::DocumentLabel* titles[2];
    views::LabelBox* boxes[2];
    for (int i = 0; i < 2; ++i) {
        titles[i] = new views::DocumentLabel;
        titles[i]->setTextFormat(Qt::RichText);
        titles[i]->setWordWrap(true);
        titles[i]->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        titles[i]->setTextInteractionFlags(Qt::TextSelectableByMouse);
        boxes[i] = new views::LabelBox(titles[i], true, &window);
        boxes[i]->setCardFill(true);
    }
    titles[1]->setComposesLastBlock(true);
    const QString heading =
        QStringLiteral("<div><span style=\"font-size:10.5pt; font-weight:600;\">Decode floor</span></div>");
    const QString takeaway = QStringLiteral("<span style=\"font-size:9.0pt;\">%1</span>");
    const QString warning = QStringLiteral("<span style=\"font-size:9.0pt; font-weight:600; color:#c0392b;\">Does not "
                                           "fit: %1 GB of weights per GPU &gt; 72.0 GB usable.</span><br>");
    const QStringList texts{
        QStringLiteral("Floor W/BW = 8.03 ms/token at B = 1 (125 tok/s); memory-bound up to B = 157. At B = 16: t_step "
                       "9.12 ms (memory-bound), 1,754 tok/s total."),
        QStringLiteral("Floor W/BW = 8.11 ms/token at B = 1 (123 tok/s); memory-bound up to B = 157. At B = 16: t_step "
                       "9.20 ms (memory-bound), 1,739 tok/s total."),
        QStringLiteral("Floor W/BW = 18.11 ms/token at B = 1 (55.2 tok/s); memory-bound up to B = 1,157. At B = 16: "
                       "t_step 19.20 ms (memory-bound), 833 tok/s total. To AV Ty F. offline affine efficiency."),
        QStringLiteral("Floor W/BW = 1.11 ms/token at B = 1 (901 tok/s); compute-bound from B = 7. At B = 16: t_step "
                       "1.20 ms (compute-bound), 13,333 tok/s total."),
        // A user's model name in the takeaway (the prefill plot's "as NAME"): other scripts, an emoji, a combining
        // mark, a no-break space, a word wider than the narrowest width, hyphens and slashes, a ligature character,
        // escaped markup. What WordLayout::qualifies() refuses (right to left, the no-break space) goes through the
        // document; the rest is composed; both must draw as the document does.
        QStringLiteral("P* = 30,633 tokens (as \u901A\u4E49\u5343\u95EE Qwen2.5-72B-Instruct/v2 \U0001F680 "
                       "cafe\u0301 \uFB01t). Supercalifragilisticexpialidociousmodelnamewithoutanybreak = 1.2 ms; "
                       "&lt;b&gt; a &amp; b."),
        QStringLiteral("P* = 30,633 tokens (as \u901A\u4E49\u5343\u95EE\u6A21\u578B Qwen2.5-72B-Instruct/v2 "
                       "\uFB01t). Supercalifragilisticexpialidociousmodelnamewithoutanybreak = 1.2 ms; &lt;b&gt;."),
        QStringLiteral("P* = 31,002 tokens (as Llama\u00A03.1 8B); compute-bound from P \u2248 274."),
        QStringLiteral("P* = 31,002 tokens (as \u0644\u0627\u0645\u0627 8B); compute-bound from P \u2248 274."),
    };
    QVERIFY(!views::WordLayout::qualifies(texts.at(4))); // an emoji and a combining mark: the document's
    QVERIFY(views::WordLayout::qualifies(texts.at(5)));  // Chinese, a long word, hyphens, a ligature: composed
    QVERIFY(!views::WordLayout::qualifies(texts.at(6))); // a no-break space
    QVERIFY(!views::WordLayout::qualifies(texts.at(7))); // Arabic
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    int composedBefore = 0;
    for (const int width : {170, 233, 301, 377, 410, 467, 520, 610}) {
        for (int i = 0; i < 2; ++i)
            boxes[i]->setGeometry(10 + i * (width + 20), 10, width, 200);
        for (qsizetype t = 0; t <= texts.size() + 1; ++t) {
            // The warning above the takeaway (two formats and a line break: the document lays that out), then the
            // warning in the takeaway's place (PlotPanel::setWarningReplacesTakeaway(): composed, in its colour).
            QString html = heading + takeaway.arg(texts.at(std::min(t, texts.size() - 1)));
            if (t == texts.size())
                html = heading + warning.arg(width) + takeaway.arg(texts.front());
            else if (t == texts.size() + 1)
                html = heading + warning.arg(width + 1).chopped(4);
            for (views::DocumentLabel* title : titles)
                title->setTextRepaintingChanges(html);
            settle();
            const QString what = QStringLiteral("%1 px: %2").arg(width).arg(html);
            QCOMPARE(titles[1]->heightForWidth(width), titles[0]->heightForWidth(width));
            QCOMPARE(titles[1]->height(), titles[0]->height());
            QVERIFY2(shown(titles[1]) == shown(titles[0]), qPrintable(QStringLiteral("shown differs at ") + what));
            QVERIFY2(titles[1]->grab().toImage() == titles[0]->grab().toImage(), qPrintable(what));
        }
        QVERIFY2(titles[1]->composedLayouts() > composedBefore, qPrintable(QString::number(width)));
        composedBefore = titles[1]->composedLayouts();
    }
    QCOMPARE(titles[0]->composedLayouts(), 0);
}

void TestFloorPlot::titleHeadingBlockDrawsAsALineBreak()
{
    const QString heading = QStringLiteral("<span style=\"font-size:10.5pt; font-weight:600;\">Decode floor</span>");
    const QString warning = QStringLiteral("<span style=\"font-size:9.0pt; font-weight:600; color:#c0392b;\">Does not fit: "
                                           "%1 GB</span>");
    const QString takeaway = QStringLiteral("<span style=\"font-size:9.0pt;\">%1</span>");
    const QStringList tails{
        takeaway.arg(QStringLiteral("Floor W_read/BW = 4.48 ms/token at B = 1 (223 tok/s); never compute-bound at S = 2,048.")),
        takeaway.arg(QStringLiteral("Short.")),
        takeaway.arg(QStringLiteral("Floor W_read/BW = 12.9 ms/token at B = 1,313 (101,781 tok/s); never compute-bound at S = "
                                    "2,048, and more words to wrap onto a third line of the title.")),
        warning.arg(QStringLiteral("140.1")) + QStringLiteral("<br>") + takeaway.arg(QStringLiteral("Floor = 9.1 ms")),
        warning.arg(QStringLiteral("140.1")) + takeaway.arg(QString()),
    };
    for (const double scale : {1.0, 1.3}) {
        for (const QString& tail : tails) {
            const QString scaled = scale == 1.0 ? tail : QString(tail).replace(QStringLiteral("9.0pt"), QStringLiteral("11.7pt"));
            const QString withBreak = heading + QStringLiteral("<br>") + scaled;
            const QString withBlock = QStringLiteral("<div>") + heading + QStringLiteral("</div>") + scaled;
            for (const int width : {380, 250, 160}) {
                auto configure = [&](QLabel* label, const QString& text) {
                    label->setTextFormat(Qt::RichText);
                    label->setWordWrap(true);
                    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
                    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
                    label->setText(text);
                    label->resize(width, label->heightForWidth(width));
                };
                views::DocumentLabel a, b;
                QLabel qa, qb;
                configure(&a, withBreak);
                configure(&b, withBlock);
                configure(&qa, withBreak);
                configure(&qb, withBlock);
                const QString what = QStringLiteral("%1 px: ").arg(width) + withBlock;
                QCOMPARE(b.heightForWidth(width), a.heightForWidth(width));
                QCOMPARE(b.sizeHint(), a.sizeHint());
                QCOMPARE(b.minimumSizeHint(), a.minimumSizeHint());
                QCOMPARE(qb.heightForWidth(width), qa.heightForWidth(width));
                QCOMPARE(qb.sizeHint(), qa.sizeHint());
                auto picture = [](QWidget* widget) { return widget->grab().toImage().convertToFormat(QImage::Format_RGB32); };
                QVERIFY2(picture(&b) == picture(&a), qPrintable(QStringLiteral("DocumentLabel: ") + what));
                QVERIFY2(picture(&qb) == picture(&qa), qPrintable(QStringLiteral("QLabel: ") + what));
                // What a reader (or a screen reader) is given: the same plain text.
                QTextDocument da, db;
                da.setHtml(withBreak);
                db.setHtml(withBlock);
                QCOMPARE(db.toPlainText(), da.toPlainText());
                // Selected all and copied: the same text. (The selection holds a paragraph separator, U+2029, where
                // it held a line separator, U+2028; a copy, QTextDocumentFragment::toPlainText(), writes each as "\n".)
                qa.setSelection(0, int(da.toPlainText().size()));
                qb.setSelection(0, int(db.toPlainText().size()));
                auto copied = [](QString text) {
                    return text.replace(QChar::ParagraphSeparator, QLatin1Char('\n')).replace(QChar::LineSeparator, QLatin1Char('\n'));
                };
                QVERIFY(!qa.selectedText().isEmpty());
                QCOMPARE(copied(qb.selectedText()), copied(qa.selectedText()));
            }
        }
    }
    // A new takeaway is edited in place, in the blocks after the heading.
    views::DocumentLabel label;
    label.setTextFormat(Qt::RichText);
    label.setWordWrap(true);
    label.setText(QStringLiteral("<div>") + heading + QStringLiteral("</div>") + tails[0]);
    label.resize(300, label.heightForWidth(300));
    QVERIFY(!label.grab().isNull());
    const int edits = label.textEditsInPlace();
    label.setText(QStringLiteral("<div>") + heading + QStringLiteral("</div>") + QString(tails[0]).replace(QStringLiteral("4.48"), QStringLiteral("4.61")));
    QVERIFY(!label.grab().isNull());
    QCOMPARE(label.textEditsInPlace(), edits + 1);
    QCOMPARE(label.blocksEditedLast(), std::vector<int>{1});
}

/** Issue 16, fourteenth stop: the KV chart covers its view with opaque pixels, so a new bar repaints the view alone:
 *  not the card's style-sheet background or the page under it. */
void TestFloorPlot::kvChartRepaintsNothingUnderIt()
{
    views::KvSharePlot plot;
    plot.resize(460, 420);
    model::Scenario s = model::defaultScenario();
    plot.refresh(s, model::evaluate(s));
    plot.show();
    settle();
    QWidget* viewport = plot.barPlot();
    QImage alone(viewport->size(), QImage::Format_ARGB32_Premultiplied);
    alone.fill(Qt::transparent);
    viewport->render(&alone, QPoint(), QRegion(), QWidget::DrawChildren); // no background: the chart's pixels only
    for (int y = 0; y < alone.height(); ++y)
        for (int x = 0; x < alone.width(); ++x)
            QVERIFY2(qAlpha(alone.pixel(x, y)) == 255, qPrintable(QStringLiteral("(%1, %2) not opaque").arg(x).arg(y)));
    PaintRecorder card(&plot), view(viewport);
    s.workload.batch = 64;
    plot.refresh(s, model::evaluate(s));
    settle();
    QVERIFY(view.paints > 0);
    QCOMPARE(card.paints, 0);
    QVERIFY(viewport->testAttribute(Qt::WA_OpaquePaintEvent));
}

/** h14f: the prefill and roofline takeaways and the explanation said "compute-bound" (t_comp against t_mem alone) for a
 *  prefill at TP16 across nodes whose largest term is the all-reduces; every "bound" text names model::largestTimeTerm(). */
void TestFloorPlot::axisTitlesFromImages()
{
    // Issue 16, eleventh stop: axis titles (all four sides) are drawn from images, rendered once
    // per text, and a replot gives the pixels QCustomPlot's own text drawing gives.
    // On QCustomPlot's transparent buffer (CardBuffer off): on the card buffer a title's image is blended onto pixels
    // already on the card, the text drawn in place as well, and the two round differently where the text's edges
    // overlap a curve's (2 pixels by 1 level here; issue 16, twenty-ninth stop).
    auto draw = [](bool images, const std::function<void(QCustomPlot&)>& change) {
        views::TextImage::setEnabled(images);
        views::CardBuffer::setEnabled(false);
        QCustomPlot plot;
        views::plotkit::setupPlot(&plot);
        views::plotkit::setupAxis(plot.xAxis, QStringLiteral("batch B (sequences)"), true);
        views::plotkit::setupAxis(plot.yAxis, QStringLiteral("time per decode step (ms)"), true);
        views::plotkit::setupAxis(plot.xAxis2, QStringLiteral("top title, gjpq"), false);
        views::plotkit::setupAxis(plot.yAxis2, QStringLiteral("aggregate tokens/s"), true);
        plot.xAxis2->setVisible(true);
        plot.yAxis2->setVisible(true);
        plot.xAxis->setRange(1, 512);
        plot.yAxis->setRange(2, 90);
        plot.xAxis2->setRange(0, 10);
        plot.yAxis2->setRange(10, 1e5);
        QCPGraph* curve = views::plotkit::addCurve(&plot, plot.xAxis, plot.yAxis, views::plotkit::pen(Qt::blue, 1.5),
                                                   QStringLiteral("t_step"));
        curve->setData({1, 8, 64, 512}, {3, 4, 12, 80});
        views::plotkit::addCurve(&plot, plot.xAxis, plot.yAxis2, views::plotkit::pen(Qt::red, 1.5), QStringLiteral("tok/s"))
            ->setData({1, 512}, {100, 5e4});
        views::plotkit::placeLegendBelow(&plot, 2);
        plot.resize(420, 320);
        plot.show(); // the viewport is set on the first resize event
        plot.replot();
        for (int step = 1; step <= 3; ++step) { // new ranges, the same titles
            plot.yAxis->setRange(2 + step, 90 - 5 * step); // two-digit tick labels: the same margins
            plot.xAxis2->setRange(0, 10 * step);
            plot.replot();
        }
        change(plot);
        plot.replot();
        QImage picture = plot.grab().toImage();
        views::TextImage::setEnabled(true);
        views::CardBuffer::setEnabled(true);
        return std::make_pair(picture, std::array<std::pair<long long, long long>, 4>{
            std::make_pair(views::axisTitleImage(plot.xAxis) ? views::axisTitleImage(plot.xAxis)->renders() : -1,
                           views::axisTitleImage(plot.xAxis) ? views::axisTitleImage(plot.xAxis)->blends() : -1),
            std::make_pair(views::axisTitleImage(plot.yAxis) ? views::axisTitleImage(plot.yAxis)->renders() : -1,
                           views::axisTitleImage(plot.yAxis) ? views::axisTitleImage(plot.yAxis)->blends() : -1),
            std::make_pair(views::axisTitleImage(plot.xAxis2) ? views::axisTitleImage(plot.xAxis2)->renders() : -1,
                           views::axisTitleImage(plot.xAxis2) ? views::axisTitleImage(plot.xAxis2)->blends() : -1),
            std::make_pair(views::axisTitleImage(plot.yAxis2) ? views::axisTitleImage(plot.yAxis2)->renders() : -1,
                           views::axisTitleImage(plot.yAxis2) ? views::axisTitleImage(plot.yAxis2)->blends() : -1)});
    };
    const auto nothing = [](QCustomPlot&) {};
    const auto [images, counts] = draw(true, nothing);
    const auto [text, unused] = draw(false, nothing);
    Q_UNUSED(unused);
    for (const auto& [renders, blends] : counts) {
        QCOMPARE(renders, 1LL); // five replots or more, one title picture each
        QVERIFY(blends >= 5);
    }
    QCOMPARE(images.size(), text.size());
    QVERIFY(images == text);

    // A new title, and a new axis length, render again; still QCustomPlot's pixels.
    const auto retitle = [](QCustomPlot& plot) {
        plot.yAxis->setLabel(QStringLiteral("another title (ms)"));
        plot.resize(380, 300);
    };
    const auto [images2, counts2] = draw(true, retitle);
    const auto [text2, unused2] = draw(false, retitle);
    Q_UNUSED(unused2);
    QCOMPARE(counts2[1].first, 2LL); // the left axis: new text and length
    QCOMPARE(counts2[0].first, 2LL); // the bottom axis: new length
    QVERIFY(images2 == text2);
    QVERIFY(images2 != images);
}

void TestFloorPlot::gridLinesFilledAsStroked()
{
    // Issue 16, twelfth stop: the grid picture's one-pixel lines are filled as rectangles (GridLayerCache::drawChild()),
    // not stroked; the same pixels as QCPGrid::draw() strokes, bit for bit, for opaque and translucent pens, log axes
    // with sub-grids and linear ones, every replot of a range change.
    auto draw = [](bool filled, const QColor& subGrid) {
        views::GridLayerCache::setFilledLines(filled);
        QCustomPlot plot;
        views::plotkit::setupPlot(&plot);
        views::plotkit::setupAxis(plot.xAxis, QStringLiteral("batch B"), true);
        views::plotkit::setupAxis(plot.yAxis, QStringLiteral("ms"), true);
        views::plotkit::setupAxis(plot.yAxis2, QStringLiteral("linear"), false);
        plot.yAxis2->setVisible(true);
        plot.yAxis2->grid()->setVisible(true);
        plot.yAxis->grid()->setSubGridPen(views::plotkit::pen(subGrid, 1));
        plot.xAxis->grid()->setSubGridPen(views::plotkit::pen(subGrid, 0));
        views::plotkit::addCurve(&plot, plot.xAxis, plot.yAxis, views::plotkit::pen(Qt::blue, 1.5), QStringLiteral("t"))
            ->setData({1, 512}, {3, 80});
        plot.resize(420, 320);
        plot.show();
        QList<QImage> pictures;
        for (int step = 0; step < 4; ++step) {
            plot.xAxis->setRange(1 + step, 512 - 37 * step);
            plot.yAxis->setRange(0.7 + 0.3 * step, 90 + 400 * step);
            plot.yAxis2->setRange(-3.3 * step, 17 + step);
            plot.replot();
            pictures.append(plot.grab().toImage());
        }
        views::GridLayerCache::setFilledLines(true);
        return std::make_pair(pictures, views::GridLayerCache::find(&plot)->filledGrids());
    };
    for (const QColor& subGrid : {QColor(0xf1, 0xf3, 0xf6), QColor(20, 40, 160, 90)}) {
        const auto [filled, filledGrids] = draw(true, subGrid);
        const auto [stroked, strokedGrids] = draw(false, subGrid);
        QVERIFY(filledGrids >= 4 * 3); // three visible grids, four replots that move them
        QCOMPARE(strokedGrids, 0LL);
        QCOMPARE(filled.size(), stroked.size());
        for (qsizetype i = 0; i < filled.size(); ++i)
            QVERIFY2(filled[i] == stroked[i], qPrintable(QStringLiteral("replot %1 differs").arg(i)));
    }
}

void TestFloorPlot::legendFromAnImage()
{
    // Issue 16, twelfth stop: the legend's entries are drawn from an image (LegendLayerCache), drawn again only when an
    // entry changes; what is shown equals, bit for bit, the entries drawn by QCustomPlot on each replot.
    QCustomPlot plot;
    views::plotkit::setupPlot(&plot);
    views::plotkit::setupAxis(plot.xAxis, QStringLiteral("batch B"), true);
    views::plotkit::setupAxis(plot.yAxis, QStringLiteral("ms"), true);
    QCPGraph* step = views::plotkit::addCurve(&plot, plot.xAxis, plot.yAxis, views::plotkit::pen(Qt::blue, 2.4), QStringLiteral("t_step"));
    step->setData({1, 512}, {3, 80});
    views::plotkit::addCurve(&plot, plot.xAxis, plot.yAxis, views::plotkit::pen(Qt::red, 1.6, Qt::DashLine), QStringLiteral("t_mem"))
        ->setData({1, 512}, {2, 40});
    views::plotkit::placeLegendBelow(&plot, 2);
    views::LegendLayerCache* cache = views::LegendLayerCache::find(&plot);
    QVERIFY(cache);
    plot.resize(420, 320);
    plot.show();
    auto replot = [&plot] {
        views::plotkit::fitLegend(&plot); // as PlotPanel does before each replot
        plot.replot();
    };
    // The picture as QCustomPlot draws it: the entries' layer shown, the cache hidden.
    auto direct = [&plot, cache, &replot] {
        cache->setVisible(false);
        plot.layer(QStringLiteral("legendEntries"))->setVisible(true);
        replot();
        const QImage picture = plot.grab().toImage();
        cache->setVisible(true);
        plot.layer(QStringLiteral("legendEntries"))->setVisible(false);
        return picture;
    };
    replot();
    const long long renders = cache->renders();
    const long long draws = cache->draws();
    for (int i = 1; i <= 4; ++i) { // new ranges, the same entries
        plot.yAxis->setRange(2 + i, 90 - 5 * i);
        replot();
    }
    QCOMPARE(cache->renders(), renders);
    QCOMPARE(cache->draws(), draws + 4);
    QImage shown = plot.grab().toImage();
    QVERIFY(shown == direct());

    // A renamed curve, and a curve added (its entry moved to the image's layer), draw the image again.
    step->setName(QStringLiteral("t_step (ms)"));
    replot();
    QCOMPARE(cache->renders(), renders + 1);
    shown = plot.grab().toImage();
    QVERIFY(shown == direct());
    views::plotkit::addCurve(&plot, plot.xAxis, plot.yAxis, views::plotkit::pen(Qt::darkGreen, 1.6, Qt::DotLine),
                             QStringLiteral("t_comp"))->setData({1, 512}, {1, 30});
    replot();
    QCOMPARE(cache->renders(), renders + 2);
    QCOMPARE(plot.layer(QStringLiteral("legend"))->children().count(cache), 1);
    for (QCPLayerable* child : plot.layer(QStringLiteral("legend"))->children())
        QVERIFY(!qobject_cast<QCPAbstractLegendItem*>(child)); // every entry drawn from the image
    shown = plot.grab().toImage();
    QVERIFY(shown == direct());
}

void TestFloorPlot::boundByNamesTheLargestTerm()
{
    model::Scenario s = model::defaultScenario(); // Llama-3.1-70B-like, TP16: wider than the 8-GPU scale-up domain
    s.model.params = 70.6e9;
    s.model.layers = 80;
    s.model.hidden = 8192;
    s.model.heads = 64;
    s.model.kvHeads = 8;
    s.hardware.gpus = 16;
    QVERIFY(model::validate(s).empty());
    MainWindow window(s);
    window.document()->evaluateNow();
    const model::Evaluation& e = window.document()->evaluation();
    QCOMPARE(e.prefill.bound, model::Bound::Compute); // t_comp > t_mem ...
    QCOMPARE(model::largestTimeTerm(e.prefill), model::TimeTerm::Communication); // ... but t_comm is the largest
    const QString comm = QStringLiteral("communication-bound");
    QCOMPARE(views::boundByText(model::TimeTerm::Communication), comm);

    const QString prefill = window.prefillPanel()->takeaway();
    QVERIFY2(prefill.contains(comm + QLatin1Char(';')), qPrintable(prefill));
    // The crossover stays t_comp vs t_mem, worded so beside "communication-bound" (h14g: "compute-bound from P ~ 116"
    // beside it read as a contradiction).
    QVERIFY2(prefill.contains(QStringLiteral("; compute exceeds memory from P \u2248 ")), qPrintable(prefill));
    QVERIFY2(!prefill.contains(QStringLiteral("compute-bound from P")), qPrintable(prefill));
    if (model::largestTimeTerm(e.decode) == model::TimeTerm::Communication)
        QVERIFY2(!window.decodePanel()->takeaway().contains(QStringLiteral("memory-bound until")), qPrintable(window.decodePanel()->takeaway()));
    const QString roofline = window.rooflinePanel()->takeaway();
    QVERIFY2(roofline.contains(QStringLiteral("is ") + comm), qPrintable(roofline));
    const QString time = window.numbersPanel()->valueLabel(QStringLiteral("prefillTime"))->text();
    QVERIFY2(time.contains(comm), qPrintable(time));
    const views::Explanation x = views::explainPlot(FloorPlotId::Prefill, window.document()->evaluatedScenario(), e);
    QVERIFY2(x.steps.last().contains(comm), qPrintable(x.steps.last()));

    // The decode step names its own largest term, wherever the plot and the headline figures say it.
    const QString decodeTerm = views::boundByText(model::largestTimeTerm(e.decode));
    const QString decode = window.decodePanel()->takeaway();
    QVERIFY2(decode.contains(QStringLiteral("(%1").arg(decodeTerm)), qPrintable(decode));
    for (const views::HeadlineFigure& f : views::headlineFigures(window.document()->evaluatedScenario(), e))
        if (f.key == QLatin1String("decode_bound"))
            QCOMPARE(f.text, views::timeTermText(model::largestTimeTerm(e.decode)));
}

void TestFloorPlot::sloLabelsStayApart_data()
{
    QTest::addColumn<int>("batch");
    QTest::newRow("default batch") << model::defaultScenario().workload.batch;
    QTest::newRow("B = 1e9 (issue 14: 20, 40 and 100 ms labels on one another)") << 1000000000;
}

void TestFloorPlot::sloLabelsStayApart()
{
    QFETCH(int, batch);
    model::Scenario s = model::defaultScenario();
    s.workload.batch = batch;
    s.workload.itlSloMs = {20, 40, 100};
    QVERIFY(model::validate(s).empty());
    views::SloPlot plot;
    plot.resize(460, 400);
    plot.show();
    plot.refresh(s, model::evaluate(s));
    plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
    std::vector<QRectF> shown;
    for (size_t i = 0; i < s.workload.itlSloMs.size(); ++i) {
        const QCPItemText* label = plot.sloLabels().at(i);
        if (label->visible())
            shown.emplace_back(QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized());
    }
    QVERIFY(plot.sloLabels().front()->visible()); // the tightest SLO's label is always kept
    if (batch == model::defaultScenario().workload.batch)
        QCOMPARE(shown.size(), s.workload.itlSloMs.size()); // room for all: none hidden
    for (size_t i = 0; i < shown.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            QVERIFY2(!shown[i].intersects(shown[j]), qPrintable(QStringLiteral("labels %1 and %2 overlap").arg(i).arg(j)));
    // Nor is a label crossed by another SLO line (issue 14: at B = 1e9 the 40 ms dashed line ran through "20 ms").
    for (size_t i = 0; i < s.workload.itlSloMs.size(); ++i) {
        const QCPItemText* label = plot.sloLabels().at(i);
        if (!label->visible())
            continue;
        const QRectF box = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
        for (size_t j = 0; j < s.workload.itlSloMs.size(); ++j) {
            const double y = plot.sloLines().at(j)->point1->pixelPosition().y();
            QVERIFY2(j == i || !(y > box.top() && y < box.bottom()),
                     qPrintable(QStringLiteral("the %1 ms line (y = %2 px) crosses the label \"%3\" (y %4 to %5 px)")
                                    .arg(s.workload.itlSloMs[j]).arg(y).arg(label->text()).arg(box.top()).arg(box.bottom())));
        }
    }
    // Back at the default batch, the labels return to where a fresh plot puts them: a label moved to the other side of
    // its line at an extreme stayed there (before-stop review).
    model::Scenario back = s;
    back.workload.batch = model::defaultScenario().workload.batch;
    plot.refresh(back, model::evaluate(back));
    plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
    views::SloPlot fresh;
    fresh.resize(460, 400);
    fresh.show();
    QVERIFY(QTest::qWaitForWindowExposed(&fresh));
    fresh.refresh(back, model::evaluate(back));
    fresh.plot()->replot(QCustomPlot::rpImmediateRefresh);
    for (size_t i = 0; i < back.workload.itlSloMs.size(); ++i) {
        QCOMPARE(plot.sloLabels().at(i)->visible(), fresh.sloLabels().at(i)->visible());
        QCOMPARE(plot.sloLabels().at(i)->positionAlignment(), fresh.sloLabels().at(i)->positionAlignment());
    }
}

void TestFloorPlot::tickLabelsStayShortAtExtremes_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("value");
    QTest::newRow("B = 1e9 (issue 14: the KV bar axis read 150000000 GB)") << QStringLiteral("batch") << 1e9;
    QTest::newRow("S = 1e9 tokens") << QStringLiteral("context") << 1e9;
    QTest::newRow("BW = 1e6 B/s") << QStringLiteral("bandwidth") << 1e6;
    QTest::newRow("B = 2e9, S = 1e9 (the largest read)") << QStringLiteral("batch+context") << 1e9;
}

void TestFloorPlot::tickLabelsStayShortAtExtremes()
{
    QFETCH(QString, key);
    QFETCH(double, value);
    model::Scenario s = model::defaultScenario();
    if (key.contains(QLatin1String("batch")))
        s.workload.batch = key == QLatin1String("batch") ? int(value) : 2000000000;
    if (key.contains(QLatin1String("context")))
        s.workload.contextTokens = value;
    if (key == QLatin1String("bandwidth"))
        s.hardware.bandwidthBytesPerSecond = value;
    QVERIFY(model::validate(s).empty());
    const model::Evaluation e = model::evaluate(s);
    QCOMPARE(views::format::gigabytes(16.06e9), QStringLiteral("16.1 GB"));
    QCOMPARE(views::format::gigabytes(9999e9), QStringLiteral("9,999 GB"));
    QCOMPARE(views::format::gigabytes(15.3e12), QStringLiteral("15.3 TB"));
    QCOMPARE(views::format::gigabytes(268435456e9), QStringLiteral("268 PB"));
    constexpr qsizetype kMaxChars = 8;
    for (FloorPlotId id : views::kFloorPlotIds) {
        std::unique_ptr<views::FloorPlot> plot(views::createFloorPlot(id));
        plot->resize(460, 420);
        plot->show();
        QVERIFY(QTest::qWaitForWindowExposed(plot.get()));
        plot->refresh(s, e);
        plot->plot()->replot(QCustomPlot::rpImmediateRefresh);
        for (QCPAxis* axis : plot->plot()->axisRect()->axes()) {
            if (!axis->visible() || !axis->tickLabels())
                continue;
            for (const QString& label : axis->tickVectorLabels())
                QVERIFY2(label.size() <= kMaxChars, qPrintable(plot->name() + QStringLiteral(": '") + axis->label()
                                                               + QStringLiteral("' tick '") + label + QLatin1Char('\'')));
        }
        if (id == FloorPlotId::KvShare) {
            QCPAxis* bytes = static_cast<views::KvSharePlot*>(plot.get())->bytesAxis();
            const QMap<double, QString> ticks = views::KvSharePlot::bytesAxisTicks(bytes);
            QCOMPARE(ticks.size(), 3);
            for (const QString& label : ticks)
                QVERIFY2(label.size() <= kMaxChars, qPrintable(QStringLiteral("KV bar axis '") + label + QLatin1Char('\'')));
            // The axis still ends at the total read in GB (the bars' unit): only the labels change unit.
            QVERIFY(bytes->range().upper >= e.decode.readBytes / 1e9);
            QCOMPARE(ticks.lastKey(), bytes->range().upper);
            // The takeaway's, the numbers panel's and the KV-fit plot's bytes (format::gigabytes) keep to 4 digits past
            // 10,000 GB: "268 PB", not "268,435,456 GB" (trials, stop 31).
            const QString read = views::format::gigabytes(e.decode.readBytes);
            QVERIFY2(!read.contains(QRegularExpression(QStringLiteral("\\d{2},\\d{3}"))), qPrintable(read));
        }
    }
}

/** Issue 16 (h16j): a new end of the KV bar chart's byte axis relabels the axis in place: the same ticker (since the
 *  nineteenth stop a QCPAxisTickerText of the bar's QCustomPlot; before, Qt Charts' label items, which a relabel had
 *  deleted and made again) with the new three ticks, and the chart looks as one given that range from the start. */
void TestFloorPlot::kvBytesAxisRelabelsInPlace()
{
    views::KvSharePlot plot, fresh;
    for (views::KvSharePlot* p : {&plot, &fresh}) {
        p->resize(460, 420);
        p->show();
        QVERIFY(QTest::qWaitForWindowExposed(p));
    }
    views::KvSharePlot::setBytesAxisRange(plot.bytesAxis(), 40.0);
    plot.barPlot()->replot(QCustomPlot::rpImmediateRefresh);
    const QSharedPointer<QCPAxisTicker> before = plot.bytesAxis()->ticker();
    QCOMPARE(views::KvSharePlot::bytesAxisTicks(plot.bytesAxis()).size(), 3);
    views::KvSharePlot::setBytesAxisRange(plot.bytesAxis(), 400.0);
    views::KvSharePlot::setBytesAxisRange(fresh.bytesAxis(), 400.0);
    QCOMPARE(plot.bytesAxis()->ticker(), before);
    const QMap<double, QString> ticks = views::KvSharePlot::bytesAxisTicks(plot.bytesAxis());
    QCOMPARE(ticks, (QMap<double, QString>{{0.0, QStringLiteral("0")}, {200.0, QStringLiteral("200 GB")}, {400.0, QStringLiteral("400 GB")}}));
    QCOMPARE(plot.bytesAxis()->range(), QCPRange(0.0, 400.0));
    for (views::KvSharePlot* p : {&plot, &fresh})
        p->barPlot()->replot(QCustomPlot::rpImmediateRefresh);
    QCOMPARE(plot.barPlot()->grab().toImage(), fresh.barPlot()->grab().toImage());
}

/** Issue 16, nineteenth stop (h16y): the KV bar is drawn by a QCustomPlot, not a Qt Charts scene. The card holds no
 *  QGraphicsView (a step used to lay out and repaint one: about 3 M instructions a model-size step), and a model-size
 *  step sets the bar's parts, its byte axis (to the unit the total needs) and repaints the bar; pinned scenarios add
 *  their bars, letters and axis end, and the bar's pixels are the palette's colours where the parts are. */
void TestFloorPlot::kvBarIsAQCustomPlot()
{
    views::KvSharePlot plot;
    plot.resize(460, 420);
    model::Scenario s = model::defaultScenario();
    plot.refresh(s, model::evaluate(s));
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    settle();
    QVERIFY(plot.findChildren<QGraphicsView*>().isEmpty());
    QCustomPlot* bar = plot.barPlot();
    QVERIFY(bar && bar->isVisible());
    QCOMPARE(bar->objectName(), QStringLiteral("kvShareChart"));
    QVERIFY(!bar->accessibleName().isEmpty());
    auto check = [&](const model::Evaluation& e, const QStringList& labels) {
        QCOMPARE(plot.weightsGb(0), e.decode.weightBytes / 1e9);
        QCOMPARE(plot.kvGb(0), e.decode.kvBytes / 1e9);
        const double end = views::plotkit::niceCeiling((e.decode.weightBytes + e.decode.kvBytes) / 1e9);
        QCOMPARE(plot.bytesAxis()->range(), QCPRange(0.0, end));
        QCOMPARE(views::KvSharePlot::bytesAxisTicks(plot.bytesAxis()).values(), labels);
    };
    check(model::evaluate(s), {QStringLiteral("0"), QStringLiteral("10 GB"), QStringLiteral("20 GB")});

    // A model-size step: 8 B to 405 B parameters, past 1,000 GB read.
    bar->replot(QCustomPlot::rpImmediateRefresh);
    const views::LegendLayerCache* legend = views::LegendLayerCache::find(bar);
    QVERIFY(legend);
    const long long legendRenders = legend->renders(), legendDraws = legend->draws();
    PaintRecorder painted(bar);
    s.model.params = 405e9;
    const model::Evaluation e405 = model::evaluate(s);
    plot.refresh(s, e405);
    settle();
    QVERIFY(painted.paints > 0);
    // The legend (Weights, KV cache) from its image: a bar's entry is described by the cache's key.
    QVERIFY(legend->draws() > legendDraws);
    QCOMPARE(legend->renders(), legendRenders);
    check(e405, {QStringLiteral("0"), QStringLiteral("0.5 TB"), QStringLiteral("1 TB")});
    // Where the parts are drawn: weights from the axis start, the cache after them.
    const QImage image = bar->grab().toImage();
    const double dpr = image.devicePixelRatio();
    const int y = int(bar->yAxis->coordToPixel(0.0) * dpr);
    const int xWeights = int(bar->xAxis->coordToPixel(plot.weightsGb(0) / 2) * dpr);
    QCOMPARE(QColor(image.pixel(xWeights, y)), views::palette::memory());
    int index = -1;
    QCOMPARE(plot.barAt(QPointF(bar->xAxis->coordToPixel(plot.weightsGb(0) / 2), bar->yAxis->coordToPixel(0.0)), &index), plot.weightsBars());
    QCOMPARE(index, 0);
    QVERIFY(plot.barToolTip(plot.weightsBars(), 0).startsWith(QStringLiteral("Weights: ")));
    QVERIFY(!plot.barAxis()->visible());

    // Three pinned scenarios: their bars above the live one, lettered; the axis reaches the largest.
    document::PinnedScenarios pinned;
    std::vector<model::Evaluation> evaluations;
    for (double params : {8e9, 70e9, 1000e9}) {
        model::Scenario p = s;
        p.model.params = params;
        pinned.pinNext(p);
        evaluations.push_back(model::evaluate(p));
    }
    plot.setBaselines(pinned, {QStringLiteral("A: 8B"), QStringLiteral("B: 70B"), QStringLiteral("C: 1T")});
    plot.refresh(s, e405);
    plot.keepBaselineInView();
    QCOMPARE(plot.barCount(), 4);
    QCOMPARE(plot.barLabels(), QStringList({QStringLiteral("live"), QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")}));
    QVERIFY(plot.barAxis()->visible());
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(plot.weightsGb(1 + i), evaluations[size_t(i)].decode.weightBytes / 1e9);
        QCOMPARE(plot.kvGb(1 + i), evaluations[size_t(i)].decode.kvBytes / 1e9);
    }
    QVERIFY(plot.bytesAxis()->range().upper >= evaluations[2].decode.readBytes / 1e9);
    QVERIFY(bar->minimumHeight() > 84);
    plot.clearBaseline();
    plot.refresh(s, model::evaluate(s));
    QCOMPARE(plot.barCount(), 1);
    QCOMPARE(plot.barLabels(), QStringList({QStringLiteral("read")}));
    QVERIFY(!plot.barAxis()->visible());
    QCOMPARE(bar->minimumHeight(), 84);
}

/** Issue 14: the decode plot had no t_comm curve, even where the all-reduce was the largest term. TP 8 across a slow
 *  link: the curve holds the model's t_comm at B = 1 and B = 4096 (the grid's ends), is in the legend and the CSV's
 *  last column; at TP 1 there is none. */
void TestFloorPlot::decodeDrawsCommWithTensorParallelism()
{
    model::Scenario s = model::defaultScenario();
    s.hardware.gpus = 8;
    s.hardware.linkBandwidthBytesPerSecond = 1e9; // a slow link (1 GB/s): t_comm the largest term
    QVERIFY(model::validate(s).empty());
    const model::Evaluation e = model::evaluate(s);
    QCOMPARE(model::largestTimeTerm(e.decode), model::TimeTerm::Communication);
    views::DecodePlot plot;
    plot.refresh(s, e);
    const QCPGraph* comm = plot.commGraph();
    QVERIFY(comm->visible());
    QVERIFY(plot.plot()->legend->hasItemWithPlottable(comm));
    QCOMPARE(comm->data()->size(), int(e.sweeps.batch.size()));
    for (int batch : {1, 4096}) {
        model::Scenario at = s;
        at.workload.batch = batch;
        const double modelMs = model::evaluate(at).decode.commSeconds * 1e3; // the model at that batch, not the sweep
        const auto point = comm->data()->findBegin(double(batch) * (1 - 1e-9), false);
        QVERIFY(point != comm->data()->constEnd());
        QVERIFY2(std::abs(point->key - batch) < 1e-6 * batch, qPrintable(QString::number(point->key)));
        QVERIFY2(std::abs(point->value - modelMs) <= 1e-9 * modelMs,
                 qPrintable(QStringLiteral("B = %1: curve %2 ms, model %3 ms").arg(batch).arg(point->value).arg(modelMs)));
    }
    QVERIFY(plot.csv(e).startsWith("batch,t_step_ms,t_mem_ms,t_comp_ms,tokens_per_s_total,weight_floor_ms,t_comm_ms\n"));
    QVERIFY(views::DecodePlot::explain(s, e).steps.join(QLatin1Char('\n')).contains(QStringLiteral("t_comm(B)")));

    // TP 1: no curve, no legend entry; the CSV column stays (zeros) so that the columns do not move.
    model::Scenario one = s;
    one.hardware.gpus = 1;
    const model::Evaluation e1 = model::evaluate(one);
    plot.refresh(one, e1);
    QVERIFY(!comm->visible());
    QVERIFY(comm->data()->isEmpty());
    QVERIFY(!plot.plot()->legend->hasItemWithPlottable(comm));
    QVERIFY((e1.sweeps.commMs == 0.0).all());
}

/** Issue 14: at B = 1e9 the decode plot's batch axis ends at 4,096 and the scenario's own point was not drawn, with no
 *  word of it. A note in the plot says so while the point is off its axes, and goes when it is back. */
void TestFloorPlot::currentPointOffScaleIsSaid()
{
    model::Scenario s = model::defaultScenario();
    views::DecodePlot plot;
    plot.resize(460, 400);
    plot.show();
    plot.refresh(s, model::evaluate(s));
    plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(plot.offScaleNote());
    QVERIFY(!plot.offScaleNote()->visible()); // the default batch is on the axis
    s.workload.batch = 1000000000;
    QVERIFY(model::validate(s).empty());
    plot.refresh(s, model::evaluate(s));
    plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(!plot.plot()->xAxis->range().contains(s.workload.batch)); // off the axis indeed
    QVERIFY(plot.offScaleNote()->visible());
    QCOMPARE(plot.offScaleNote()->text(), QStringLiteral("current point off scale:\nB = ") + views::format::integer(1e9));
    // Inside the axis rect, where it is drawn.
    const QRectF note(plot.offScaleNote()->topLeft->pixelPosition(), plot.offScaleNote()->bottomRight->pixelPosition());
    QVERIFY(QRectF(plot.plot()->axisRect()->rect()).contains(note.normalized()));
    s.workload.batch = model::defaultScenario().workload.batch;
    plot.refresh(s, model::evaluate(s));
    plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(!plot.offScaleNote()->visible());
}

/**
 * Issue 16, eleventh stop: the floor plots' curves are an image (views/kit/curvelayer.h), stroked again only when a curve
 * would draw other pixels. Batch steps leave the decode plot's curves (they span the batch axis): the image is drawn, not
 * redrawn, and what is shown equals the curves stroked by QCustomPlot in the same place of the drawing order; a context
 * step moves them and redraws it.
 */
/** QCPGraph::getLines() (protected) of any graph, as QCPGraph::draw() asks it for unselected data. */
struct GraphLines : QCPGraph {
    static QVector<QPointF> of(const QCPGraph* graph)
    {
        QVector<QPointF> lines;
        (graph->*(&GraphLines::getLines))(&lines, QCPDataRange(0, graph->dataCount()).adjusted(-1, 1));
        return lines;
    }
};

// Point for point the same, a gap (NaN) matching a gap.
static bool samePolyline(const QVector<QPointF>& a, const QVector<QPointF>& b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        const bool gapA = !std::isfinite(a[i].x()) || !std::isfinite(a[i].y());
        const bool gapB = !std::isfinite(b[i].x()) || !std::isfinite(b[i].y());
        if (gapA != gapB || (!gapA && a[i] != b[i]))
            return false;
    }
    return true;
}

// The sleeve fitting as plotkit drew it until the twenty-eighth stop (issue 16): the wedge of directions kept as angles
// (atan2 a vertex, asin a kept vertex). plotkit::simplifiedCurve() keeps it as unit vectors tested by cross products and
// must keep the same vertices.
static QVector<QPointF> sleeveByAngles(const QVector<QPointF>& points)
{
    const double tolerance = 0.02;
    auto finite = [](const QPointF& p) { return std::isfinite(p.x()) && std::isfinite(p.y()); };
    const int n = int(points.size());
    QVector<QPointF> out;
    int i = 0;
    while (i < n) {
        if (!finite(points[i])) {
            out.append(points[i++]);
            continue;
        }
        int end = i;
        while (end < n && finite(points[end]))
            ++end;
        out.append(points[i]);
        int anchor = i, k = i + 1;
        while (k < end) {
            const QPointF a = points[anchor];
            double reference = 0, low = -M_PI, high = M_PI, farthest = 0;
            bool haveReference = false;
            int last = anchor;
            for (; k < end; ++k) {
                const QPointF v = points[k] - a;
                const double r = std::hypot(v.x(), v.y());
                if (r <= tolerance) {
                    last = k;
                    continue;
                }
                const double direction = std::atan2(v.y(), v.x());
                if (!haveReference) {
                    reference = direction;
                    haveReference = true;
                }
                const double angle = std::remainder(direction - reference, 2 * M_PI);
                if (angle < low || angle > high || r < farthest - tolerance)
                    break;
                last = k;
                farthest = std::max(farthest, r);
                const double spread = std::asin(std::min(1.0, tolerance / r));
                low = std::max(low, angle - spread);
                high = std::min(high, angle + spread);
            }
            if (last == anchor)
                last = anchor + 1;
            out.append(points[last]);
            anchor = last;
            k = last + 1;
        }
        i = end;
    }
    return out;
}

void TestFloorPlot::steadyCurvesFromAPicture()
{
    model::Scenario s = model::defaultScenario();
    views::DecodePlot panel;
    panel.resize(600, 450);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCustomPlot* plot = panel.plot();
    auto step = [&] {
        panel.refresh(s, model::evaluate(s));
        plot->replot();
    };
    step();
    const views::CurveLayerCache* cache = views::CurveLayerCache::find(plot);
    QVERIFY(cache);
    QCPLayer* curves = plot->layer(QStringLiteral("curves"));
    QVERIFY(curves && !curves->visible());
    QCOMPARE(curves->children().size(), 7); // six curves and the all-experts line among them
    // In the curves' place: the markers and lines left on "main" are drawn over it.
    const QList<QCPLayerable*> main = plot->layer(QStringLiteral("main"))->children();
    QVERIFY(main.contains(const_cast<views::CurveLayerCache*>(cache)));
    for (qsizetype i = 0; i < main.indexOf(const_cast<views::CurveLayerCache*>(cache)); ++i)
        QVERIFY(!qobject_cast<QCPAbstractPlottable*>(main[i]) && !qobject_cast<QCPAbstractItem*>(main[i]));
    const long long renders = cache->renders(), draws = cache->draws();
    const QCPRange y = plot->yAxis->range();
    for (int i = 0; i < 3; ++i) {
        s.workload.batch += 7;
        step();
    }
    QCOMPARE(plot->yAxis->range(), y);
    QCOMPARE(cache->draws(), draws + 3);
    QCOMPARE(cache->renders(), renders); // the image of the step before each

    // What is shown: the curves stroked on the replot ("curves" layer shown, just under "main", the cache hidden).
    auto directDifference = [&] {
        const QImage shown = plot->grab().toImage();
        const_cast<views::CurveLayerCache*>(cache)->setVisible(false);
        curves->setVisible(true);
        plot->replot();
        const QImage direct = plot->grab().toImage();
        const_cast<views::CurveLayerCache*>(cache)->setVisible(true);
        curves->setVisible(false);
        plot->replot();
        int largest = 0, pixels = 0;
        const QImage a = shown.convertToFormat(QImage::Format_ARGB32), b = direct.convertToFormat(QImage::Format_ARGB32);
        for (int row = 0; row < a.height(); ++row)
            for (int col = 0; col < a.width(); ++col) {
                const QRgb p = a.pixel(col, row), q = b.pixel(col, row);
                const int d = std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)), std::abs(qBlue(p) - qBlue(q))});
                largest = std::max(largest, d);
                pixels += d > 0 ? 1 : 0;
            }
        return std::make_pair(largest, pixels);
    };
    const auto steady = directDifference();
    QVERIFY2(steady.first <= 2, qPrintable(QStringLiteral("%1 levels in %2 pixels").arg(steady.first).arg(steady.second)));

    // A context step moves t_mem, t_comp, t_step and tok/s: the image is redrawn, and still what the curves draw.
    s.workload.contextTokens *= 2;
    step();
    QCOMPARE(cache->renders(), renders + 1);
    const auto moved = directDifference();
    QVERIFY2(moved.first <= 2, qPrintable(QStringLiteral("%1 levels in %2 pixels").arg(moved.first).arg(moved.second)));
    qInfo("curves from the image against stroked: %d and %d pixels differ, by at most %d and %d levels", steady.second,
          moved.second, steady.first, moved.first);

    // The curves' pixel positions from plotkit's own mapping of the log axes (the logarithm of the range taken once):
    // the doubles QCPGraph::getLines() gives, bit for bit, and the picture QCPGraph::draw() strokes, byte for byte.
    QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
    int compared = 0;
    for (QCPLayerable* child : curves->children()) {
        const auto* graph = qobject_cast<const QCPGraph*>(child);
        const QVector<QPointF> mapped = views::plotkit::curvePixelLines(graph);
        if (!graph || mapped.isEmpty())
            continue;
        const QVector<QPointF> reference = GraphLines::of(graph);
        QCOMPARE(mapped.size(), reference.size());
        QVERIFY2(std::memcmp(mapped.constData(), reference.constData(), size_t(mapped.size()) * sizeof(QPointF)) == 0,
                 qPrintable(graph->name()));
        ++compared;
    }
    QVERIFY2(compared >= 4, qPrintable(QString::number(compared)));
    // The simplification keeps the vertices the angles kept: on this plot's curves, on curves with gaps, and on random
    // walks of steps near the tolerance (turns of every size, vertices at the wedge's edges).
    int kept = 0;
    for (QCPLayerable* child : curves->children()) {
        QVector<QPointF> line = views::plotkit::curvePixelLines(qobject_cast<const QCPGraph*>(child));
        for (int pass = 0; pass < 2 && !line.isEmpty(); ++pass) {
            const QVector<QPointF> simplifiedLine = views::plotkit::simplifiedCurve(line);
            QVERIFY(samePolyline(simplifiedLine, sleeveByAngles(line)));
            kept += pass == 0 ? int(simplifiedLine.size()) : 0;
            line[line.size() / 2] = QPointF(std::numeric_limits<double>::quiet_NaN(), 0); // a gap
        }
    }
    QVERIFY2(kept >= 8, qPrintable(QString::number(kept)));
    std::mt19937 walk(16);
    std::uniform_real_distribution<double> stepPx(-0.05, 0.05);
    for (int trial = 0; trial < 200; ++trial) {
        QVector<QPointF> line{QPointF(0, 0)};
        for (int i = 1; i < 300; ++i)
            line.append(line.back() + QPointF(stepPx(walk) + (trial % 2 ? 0.03 : 0.0), stepPx(walk)));
        QVERIFY2(samePolyline(views::plotkit::simplifiedCurve(line), sleeveByAngles(line)), qPrintable(QString::number(trial)));
    }
    views::CurveLayerCache::setImageUsed(false); // the curves stroked on every replot
    const long long maps = views::plotkit::curvePixelMaps();
    plot->replot();
    QVERIFY(views::plotkit::curvePixelMaps() >= maps + compared);
    const QImage mapped = plot->grab().toImage();
    views::plotkit::setCurvePixelsMapped(false); // QCPGraph::draw(): QCPAxis::coordToPixel() for every coordinate
    const long long mapsBefore = views::plotkit::curvePixelMaps();
    plot->replot();
    QCOMPARE(views::plotkit::curvePixelMaps(), mapsBefore);
    const QImage drawn = plot->grab().toImage();
    views::plotkit::setCurvePixelsMapped(true);
    views::CurveLayerCache::setImageUsed(true);
    plot->replot();
    QVERIFY(mapped == drawn);

    // Issue 16, twenty-eighth stop: at rest the curves are stroked as separate line pieces through the raster engine's
    // line rasteriser (plotkit::setCurvesStrokedAsLinePieces), the dashes cut by plotkit. Against QPainter's stroke of
    // the same polylines (QStroker, QDashStroker and the gray rasteriser) the picture differs at the edges only: no
    // pixel by half the range (a dash moved, restarted at a vertex or of another length would differ by nearly all of
    // it), hardly any by a quarter, and the differing pixels hold the same ink within 1.5 % (pieces meeting flat at a
    // vertex leave a lighter seam across the stroke: 2.2 % less; lengthened by half the pen width, 1.6 % more).
    views::CurveLayerCache::setImageUsed(false);
    const long long pieceStrokes = views::plotkit::curveLinePieceStrokes();
    plot->replot();
    QVERIFY(views::plotkit::curveLinePieceStrokes() >= pieceStrokes + compared);
    const QImage pieces = plot->grab().toImage().convertToFormat(QImage::Format_ARGB32);
    views::plotkit::setCurvesStrokedAsLinePieces(false);
    const long long outlineStrokes = views::plotkit::curveLinePieceStrokes();
    plot->replot();
    QCOMPARE(views::plotkit::curveLinePieceStrokes(), outlineStrokes);
    const QImage outlined = plot->grab().toImage().convertToFormat(QImage::Format_ARGB32);
    views::plotkit::setCurvesStrokedAsLinePieces(true);
    views::CurveLayerCache::setImageUsed(true);
    plot->replot();
    QCOMPARE(pieces.size(), outlined.size());
    int largest = 0;
    long long differing = 0, farOff = 0;
    double inkPieces = 0, inkOutlined = 0;
    for (int row = 0; row < pieces.height(); ++row)
        for (int col = 0; col < pieces.width(); ++col) {
            const QRgb p = pieces.pixel(col, row), q = outlined.pixel(col, row);
            const int d = std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)), std::abs(qBlue(p) - qBlue(q))});
            if (d == 0)
                continue;
            largest = std::max(largest, d);
            ++differing;
            farOff += d > 64 ? 1 : 0;
            inkPieces += 765 - qRed(p) - qGreen(p) - qBlue(p);
            inkOutlined += 765 - qRed(q) - qGreen(q) - qBlue(q);
        }
    qInfo("line pieces against outlines: %lld pixels differ, %lld by more than 64 levels, at most %d; ink %.3f", differing,
          farOff, largest, inkPieces / inkOutlined);
    QVERIFY(differing > 0); // stroked the other way
    QVERIFY2(largest < 128, qPrintable(QString::number(largest)));
    QVERIFY2(farOff * 50 <= differing, qPrintable(QString::number(farOff)));
    QVERIFY2(std::abs(inkPieces / inkOutlined - 1.0) < 0.015, qPrintable(QString::number(inkPieces / inkOutlined)));

    // A dashed curve through a point far off its plot (a value nine orders of magnitude past the axis range) would be cut
    // into millions of dashes along its unseen length: it goes to QCustomPlot's polyline (whose dash stroker clips to the
    // device) and draws what that draws; on the range, the same curve is stroked as pieces.
    QCustomPlot far;
    far.resize(300, 200);
    far.setAntialiasedElements(QCP::aeAll);
    QCPGraph* dashed = views::plotkit::addCurve(&far, far.xAxis, far.yAxis, views::plotkit::pen(Qt::darkGreen, 1.6, Qt::DashLine), QString());
    far.xAxis->setRange(0, 1);
    far.yAxis->setRange(0, 1);
    dashed->setData({0.0, 0.5, 1.0}, {0.2, 1e9, 0.2});
    const long long farBefore = views::plotkit::curveLinePieceStrokes();
    far.replot();
    QCOMPARE(views::plotkit::curveLinePieceStrokes(), farBefore);
    const QImage farPieces = far.grab().toImage();
    views::plotkit::setCurvesStrokedAsLinePieces(false);
    far.replot();
    const QImage farOutlined = far.grab().toImage();
    views::plotkit::setCurvesStrokedAsLinePieces(true);
    QVERIFY(farPieces == farOutlined);
    dashed->setData({0.0, 0.5, 1.0}, {0.2, 0.8, 0.2});
    far.replot();
    QCOMPARE(views::plotkit::curveLinePieceStrokes(), farBefore + 1);
}

/**
 * Issue 16, thirty-second stop: a curve keeps the key pixels of its last replot and uses them again while its keys and
 * its key axis' mapping are the same. On model-size steps (the decode plot's curves over the fixed batch grid) they are
 * used again, every curve's pixels are still QCPGraph::getLines()' doubles bit for bit, and the picture is the one
 * drawn with every key mapped anew, byte for byte; new keys or a wider axis rect are mapped anew.
 */
void TestFloorPlot::curveKeyPixelsFromTheLastReplot()
{
    model::Scenario s = model::defaultScenario();
    views::DecodePlot panel;
    panel.resize(600, 450);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCustomPlot* plot = panel.plot();
    views::CurveLayerCache::setImageUsed(false); // the curves stroked on every replot
    const auto restore = qScopeGuard([] {
        views::CurveLayerCache::setImageUsed(true);
        views::plotkit::setCurveKeyPixelsReused(true);
    });
    QCPLayer* curves = plot->layer(QStringLiteral("curves"));
    QVERIFY(curves);
    auto graphs = [&] {
        QList<QCPGraph*> list;
        for (QCPLayerable* child : curves->children())
            if (auto* graph = qobject_cast<QCPGraph*>(child); graph && !views::plotkit::curvePixelLines(graph).isEmpty())
                list.append(graph);
        return list;
    };
    auto sameAsGetLines = [&] {
        int compared = 0;
        for (const QCPGraph* graph : graphs()) {
            const QVector<QPointF> mapped = views::plotkit::curvePixelLines(graph);
            const QVector<QPointF> reference = GraphLines::of(graph);
            if (mapped.size() != reference.size()
                || std::memcmp(mapped.constData(), reference.constData(), size_t(mapped.size()) * sizeof(QPointF)) != 0)
                return -1;
            ++compared;
        }
        return compared;
    };
    panel.refresh(s, model::evaluate(s));
    plot->replot();
    const int count = int(graphs().size());
    QVERIFY(count >= 4);
    // The batch grid and the batch axis' range stay; the axis rect moves when the value axis' labels change width
    // (1.5 B: every key mapped anew).
    int stepsReused = 0;
    for (double params : {13e9, 70.6e9, 405e9, 1.5e9, 3e9}) {
        s.model.params = params;
        panel.refresh(s, model::evaluate(s));
        const long long reuses = views::plotkit::curveKeyPixelReuses();
        const QRect rect = plot->xAxis->axisRect()->rect();
        plot->replot();
        const long long reused = views::plotkit::curveKeyPixelReuses() - reuses;
        const bool sameRect = plot->xAxis->axisRect()->rect() == rect;
        QVERIFY2(reused == (sameRect ? count : 0), qPrintable(QStringLiteral("%1: %2").arg(params).arg(reused)));
        stepsReused += sameRect ? 1 : 0;
        QCOMPARE(sameAsGetLines(), count);
        const QImage fromReuse = plot->grab().toImage();
        views::plotkit::setCurveKeyPixelsReused(false);
        plot->replot();
        const QImage mapped = plot->grab().toImage();
        views::plotkit::setCurveKeyPixelsReused(true);
        QVERIFY2(fromReuse == mapped, qPrintable(QString::number(params)));
    }
    QVERIFY(stepsReused >= 3);
    // New keys (each 1 % larger) and then a wider axis rect: mapped anew, still getLines()' doubles.
    for (QCPGraph* graph : graphs()) {
        QVector<QCPGraphData> data(graph->data()->constBegin(), graph->data()->constEnd());
        for (QCPGraphData& point : data)
            point.key *= 1.01;
        graph->data()->set(data, true);
    }
    plot->replot();
    QCOMPARE(sameAsGetLines(), count);
    const int width = plot->xAxis->axisRect()->width();
    panel.resize(700, 450);
    QTest::qWait(20);
    plot->replot();
    QVERIFY(plot->xAxis->axisRect()->width() > width);
    QCOMPARE(sameAsGetLines(), count);
}

// A projector's 1,280 x 720: each floor plot's axis titles fit along their axis (QPainter picks the longest of the
// title's forms that fits, plotkit::titleWithShortForms()); the full title was cut at the plot's edge on three axes.
// Read-outs and CSV headers keep the full form (plotkit::axisTitle()).
void TestFloorPlot::axisTitlesFitTheirAxesAt1280x720()
{
    MainWindow window(model::defaultScenario());
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
    int shortened = 0;
    for (views::FloorPlot* panel : window.floorPlots()) {
        QCustomPlot* plot = panel->plot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        for (QCPAxis* axis : plot->axisRect()->axes()) {
            if (!axis->visible() || axis->label().isEmpty())
                continue;
            const QString full = views::plotkit::axisTitle(axis);
            QVERIFY(!full.contains(QChar(0x9C)));
            QVERIFY(axis->label().startsWith(full));
            const int length = axis->orientation() == Qt::Horizontal ? axis->axisRect()->width() : axis->axisRect()->height();
            const QFontMetrics metrics(axis->labelFont(), plot);
            const QRect drawn = metrics.boundingRect(QRect(0, 0, length, 1000), Qt::TextDontClip | Qt::AlignCenter, axis->label());
            QVERIFY2(drawn.width() <= length, qPrintable(QStringLiteral("%1: '%2' is %3 px on an axis %4 px long")
                                                             .arg(panel->name(), full).arg(drawn.width()).arg(length)));
            if (metrics.horizontalAdvance(full) > length)
                ++shortened;
        }
    }
    QVERIFY(shortened > 0); // the window is small enough that some title needs a shorter form
}

void TestFloorPlot::laidOutLabelsDrawAsQCustomPlot()
{
    // Issue 16, thirteenth stop: the plots' labels (plotkit::addLabel) are measured and laid out once per text; moved
    // to fractional positions, turned, with a halo, they draw QCustomPlot's pixels and anchor where it anchors them.
    struct Run {
        QImage picture;
        std::vector<QPointF> anchors;
        std::vector<std::pair<long long, long long>> counts; // per label: layouts, layout draws
    };
    auto draw = [](bool laidOut, bool retext) {
        views::LaidOutText::setEnabled(laidOut);
        QCustomPlot plot;
        views::plotkit::setupPlot(&plot);
        plot.xAxis->setRange(0, 100);
        plot.yAxis->setRange(0, 100);
        const QStringList texts{QStringLiteral("B = 64"), QStringLiteral("B \u2265 1.2k: compute-bound"),
                                QStringLiteral("all 64 experts: 3.2 ms"), QStringLiteral("gjpq 20 ms"),
                                QStringLiteral("two\nlines")};
        const QList<Qt::Alignment> placements{Qt::AlignLeft | Qt::AlignBottom, Qt::AlignRight | Qt::AlignBottom,
                                              Qt::AlignLeft | Qt::AlignTop, Qt::AlignCenter, Qt::AlignRight | Qt::AlignTop};
        std::vector<QCPItemText*> labels;
        for (int i = 0; i < texts.size(); ++i) {
            QCPItemText* label = views::plotkit::addLabel(&plot, plot.xAxis, plot.yAxis, QColor(30 * i, 80, 160));
            label->setText(texts[i]);
            label->setPositionAlignment(placements[i]);
            label->setPadding(QMargins(2, 1, 4, 2));
            if (i == 1)
                label->setRotation(-90);
            labels.push_back(label);
        }
        plot.resize(360, 280);
        plot.show();
        for (int step = 0; step < 4; ++step) { // fractional pixel positions, the same texts
            for (size_t i = 0; i < labels.size(); ++i)
                views::plotkit::placeLabelAt(labels[i], 13.37 + 17.3 * double(i) + 0.61 * step, 21.7 + 14.9 * double(i) - 0.43 * step);
            plot.replot();
        }
        if (retext) {
            labels[0]->setText(QStringLiteral("B = 128"));
            plot.replot();
        }
        Run run;
        run.picture = plot.grab().toImage();
        for (QCPItemText* label : labels) {
            run.anchors.push_back(label->topLeft->pixelPosition());
            run.anchors.push_back(label->bottom->pixelPosition());
            auto* laid = dynamic_cast<views::LaidOutText*>(label);
            run.counts.emplace_back(laid ? laid->layouts() : -1, laid ? laid->layoutDraws() : -1);
        }
        views::LaidOutText::setEnabled(true);
        return run;
    };
    for (bool retext : {false, true}) {
        const Run laid = draw(true, retext);
        const Run plain = draw(false, retext);
        QCOMPARE(laid.picture.size(), plain.picture.size());
        QVERIFY(laid.picture == plain.picture);
        QCOMPARE(laid.anchors.size(), plain.anchors.size());
        for (size_t i = 0; i < laid.anchors.size(); ++i)
            QCOMPARE(laid.anchors[i], plain.anchors[i]);
        for (size_t i = 0; i + 1 < laid.counts.size(); ++i) { // one-line texts: laid out once, drawn from the layout
            QCOMPARE(laid.counts[i].first, (retext && i == 0) ? 2LL : 1LL);
            QVERIFY(laid.counts[i].second >= 4);
        }
        QCOMPARE(laid.counts.back().second, 0LL); // two lines: QCPItemText::draw()
    }
}

void TestFloorPlot::laidOutLabelsMeasureFromTheirLayout()
{
    // Issue 16, twenty-second stop: a label's box is read from the layout it draws (one shaping per text and font),
    // not measured again with QFontMetrics::boundingRect(): the same box, so the same picture and the same anchors,
    // for texts of several fonts, sizes, kerning pairs, ligatures, accents and another script; a text ending in white
    // space is measured.
    struct Run {
        QImage picture;
        std::vector<QPointF> anchors;
        long long measurements = 0;
        long long layoutDraws = 0;
        long long layouts = 0;
        QImage secondPicture;
    };
    const QStringList texts{QStringLiteral("B = 64"), QStringLiteral("AVAWAY Tj fi ffl"), QStringLiteral("ms/token \u00e9\u0301"),
                            QStringLiteral("\u03bb = 0.7 \u00b7 \u0394t"), QStringLiteral("1.2k"), QStringLiteral("gjpq \u2265 20 ms"),
                            QStringLiteral("trailing\u00a0")};
    auto draw = [&texts](bool fromLayout) {
        views::LaidOutText::setBoundsFromLayout(fromLayout);
        QCustomPlot plot;
        views::plotkit::setupPlot(&plot);
        plot.xAxis->setRange(0, 100);
        plot.yAxis->setRange(0, 100);
        std::vector<views::LaidOutText*> labels;
        for (int i = 0; i < texts.size() * 3; ++i) {
            QCPItemText* item = views::plotkit::addLabel(&plot, plot.xAxis, plot.yAxis, QColor(20 * (i % 7), 80, 160));
            auto* label = dynamic_cast<views::LaidOutText*>(item);
            if (!label)
                return Run{}; // (addLabel makes a LaidOutText; the counts below then fail)
            label->setText(texts[i % texts.size()]);
            QFont font = label->font();
            font.setPointSizeF(7.5 + 1.5 * (i / texts.size()));
            font.setBold(i % 2 == 1);
            font.setItalic(i % 3 == 2);
            label->setFont(font);
            label->setPositionAlignment(i % 2 ? Qt::AlignLeft | Qt::AlignBottom : Qt::AlignCenter);
            views::plotkit::placeLabelAt(label, 4 + 4.3 * i, 8 + 4.1 * i);
            labels.push_back(label);
        }
        plot.resize(420, 320);
        plot.show();
        plot.replot();
        Run run;
        for (views::LaidOutText* label : labels) {
            run.anchors.push_back(label->topLeft->pixelPosition());
            run.anchors.push_back(label->bottomRight->pixelPosition());
        }
        plot.replot();
        run.picture = plot.grab().toImage();
        // Each label given another text, its anchors read before the replot draws it (as the SLO plot separates its
        // labels): the text is laid out once there, and the replot draws that layout (twenty-third stop).
        for (size_t i = 0; i < labels.size(); ++i)
            labels[i]->setText(texts[int(i + 1) % texts.size()]);
        for (views::LaidOutText* label : labels) {
            run.anchors.push_back(label->topLeft->pixelPosition());
            run.anchors.push_back(label->bottomRight->pixelPosition());
        }
        plot.replot();
        run.secondPicture = plot.grab().toImage();
        for (views::LaidOutText* label : labels) {
            run.measurements += label->measurements();
            run.layoutDraws += label->layoutDraws();
            run.layouts += label->layouts();
        }
        views::LaidOutText::setBoundsFromLayout(true);
        return run;
    };
    const Run laid = draw(true);
    const Run measured = draw(false);
    QVERIFY(laid.picture == measured.picture);
    QCOMPARE(laid.anchors.size(), measured.anchors.size());
    for (size_t i = 0; i < laid.anchors.size(); ++i)
        QCOMPARE(laid.anchors[i], measured.anchors[i]);
    QVERIFY(laid.secondPicture == measured.secondPicture);
    QVERIFY(laid.layoutDraws >= 3 * 3 * (texts.size() - 1));
    // Measured only for the texts ending in white space (three labels before and three after the new texts, once each:
    // the draw and the anchors share the layout).
    QVERIFY2(laid.measurements == 3 * 2, qPrintable(QString::number(laid.measurements) + QStringLiteral(" measurements, layouts ") + QString::number(laid.layouts)));
    // Each label laid out once per text: the first at the first draw, the second when its anchors were read.
    QVERIFY2(laid.layouts == 2 * 3 * texts.size(), qPrintable(QString::number(laid.layouts)));
    QVERIFY(measured.measurements >= 2 * 3 * texts.size());
}

void TestFloorPlot::uprightLabelBoxesBlendInStrips()
{
    // Issue 16, thirty-first stop: a label turned upright (the prefill and decode plots' labels at -90 degrees) has a
    // translucent box as tall as its text is long; filled in one draw, the raster engine blends its 100-odd rows at
    // once and hands that blend to its thread pool (96 spans or more). Drawn in strips of at most
    // InlineBlend::kStripRows device rows, clipped, each blend stays on the painting thread, and the pixels are the
    // same, bit for bit, at fractional positions, with and without antialiasing, turned and not.
    auto draw = [](bool strips, bool antialiased, long long* stripsDrawn, int* tallest) {
        views::InlineBlend::setEnabled(strips);
        views::InlineBlend::resetTallest();
        const long long before = views::InlineBlend::strips();
        QCustomPlot plot;
        views::plotkit::setupPlot(&plot);
        plot.xAxis->setRange(0, 100);
        plot.yAxis->setRange(0, 100);
        const QStringList texts{QStringLiteral("compute-bound above B = 1.2k: 3.2 ms a step"),
                                QStringLiteral("memory-bound: weights and KV read once a step"),
                                QStringLiteral("B = 64"), QStringLiteral("a short upright one")};
        std::vector<QCPItemText*> labels;
        for (int i = 0; i < texts.size(); ++i) {
            QCPItemText* label = views::plotkit::addLabel(&plot, plot.xAxis, plot.yAxis, QColor(40 * i, 90, 150));
            label->setText(texts[i]);
            label->setAntialiased(antialiased);
            label->setPositionAlignment(i % 2 ? Qt::AlignLeft | Qt::AlignBottom : Qt::AlignCenter);
            if (i != 2)
                label->setRotation(-90);
            labels.push_back(label);
        }
        labels[1]->setPen(QPen(QColor(200, 30, 30, 140), 1.5)); // an outline too: clipped with the fill
        plot.resize(420, 360);
        plot.show();
        QList<QImage> pictures;
        for (int step = 0; step < 3; ++step) {
            for (size_t i = 0; i < labels.size(); ++i)
                views::plotkit::placeLabelAt(labels[i], 11.37 + 23.3 * double(i) + 0.61 * step, 47.7 - 0.43 * step);
            plot.replot();
            pictures.append(plot.grab().toImage());
        }
        views::InlineBlend::setEnabled(true);
        *stripsDrawn = views::InlineBlend::strips() - before;
        *tallest = views::InlineBlend::tallestStripRows();
        // The long labels' boxes are taller than the engine's inline blends (the test's premise).
        const QTransform turned = QTransform().rotate(-90);
        const QFontMetrics metrics(labels[0]->font());
        if (turned.mapRect(QRectF(metrics.boundingRect(texts[0]))).height() < 96)
            pictures.clear();
        return pictures;
    };
    for (bool antialiased : {true, false}) {
        long long stripsDrawn = 0, plainStrips = 0;
        int tallest = 0, plainTallest = 0;
        const QList<QImage> inStrips = draw(true, antialiased, &stripsDrawn, &tallest);
        const QList<QImage> whole = draw(false, antialiased, &plainStrips, &plainTallest);
        QVERIFY2(!inStrips.isEmpty(), "the long labels' boxes should be at least 96 rows tall");
        QCOMPARE(inStrips.size(), whole.size());
        for (qsizetype i = 0; i < inStrips.size(); ++i)
            QVERIFY2(inStrips[i] == whole[i], qPrintable(QStringLiteral("replot %1 differs").arg(i)));
        // Three upright labels (two long, one short but over 31 rows) drawn in strips on each of the three replots and
        // the draw on show, none taller than kStripRows; the unrotated one in one draw.
        QVERIFY2(stripsDrawn >= 3 * 3 * 4, qPrintable(QString::number(stripsDrawn)));
        QVERIFY(tallest > 0 && tallest <= views::InlineBlend::kStripRows);
        QCOMPARE(plainStrips, 0LL);
    }
}

void TestFloorPlot::cardBufferCopiesARegionRectByRect()
{
    // Issue 16, thirty-first stop: a paint whose region has several rects (a replot that damaged two places) copies the
    // card buffer rect by rect, each copy clipped to a rect (the raster engine's plain copy), not once clipped to the
    // region (its span blend, which hands a copy of 96 rows or more to its thread pool): the same pixels.
    QCustomPlot plot;
    views::plotkit::setupPlot(&plot);
    views::plotkit::setupAxis(plot.xAxis, QStringLiteral("batch B"), true);
    views::plotkit::setupAxis(plot.yAxis, QStringLiteral("ms"), false);
    plot.xAxis->setRange(1, 4096);
    plot.yAxis->setRange(0, 90);
    QCPGraph* graph = plot.addGraph();
    graph->setPen(QPen(QColor(30, 90, 200), 1.7));
    QVector<double> keys, values;
    for (int i = 0; i <= 64; ++i) {
        keys.push_back(std::pow(2.0, 12.0 * i / 64.0));
        values.push_back(80.0 * (1.0 - std::exp(-0.07 * i)));
    }
    graph->setData(keys, values);
    plot.resize(420, 320);
    plot.show();
    plot.replot();
    QRegion region(QRect(10, 10, 150, 120)); // two rects, each over 96 rows
    region += QRect(220, 150, 120, 140);
    QCOMPARE(region.rectCount(), 2);
    auto render = [&](bool byRect) {
        views::CardBuffer::setCopyByRect(byRect);
        QImage image(plot.size(), QImage::Format_RGB32);
        image.fill(Qt::magenta);
        plot.render(&image, QPoint(), region, QWidget::RenderFlags());
        views::CardBuffer::setCopyByRect(true);
        return image;
    };
    const long long copiesBefore = views::CardBuffer::copies();
    const long long rectsBefore = views::CardBuffer::rectCopies();
    const QImage byRect = render(true);
    const long long rects = views::CardBuffer::rectCopies() - rectsBefore;
    const QImage byRegion = render(false);
    QCOMPARE(views::CardBuffer::copies() - copiesBefore, 2LL); // both paints copied the card buffer
    QCOMPARE(rects, 2LL);
    QVERIFY(byRect == byRegion);
    QVERIFY(byRect.pixel(100, 100) != QColor(Qt::magenta).rgb());
}

void TestFloorPlot::gridKeepsItsFirstGridsPicture()
{
    // Issue 16, thirteenth stop: when only the value axes' grid lines move (a model-size step), the grid picture is
    // redrawn from a kept picture of its first grid (the key axis' translucent vertical sub-grid), then the moved
    // lines over it: the same pixels, bit for bit, as drawing every grid again; a moved key axis draws it again.
    auto draw = [](bool kept, bool inPlace, bool card = true, bool firstRedrawnInPlace = true) {
        views::GridLayerCache::setFirstGridKept(kept);
        views::GridLayerCache::setDrawnInPlace(inPlace);
        views::GridLayerCache::setFirstGridRedrawnInPlace(firstRedrawnInPlace);
        views::CardBuffer::setEnabled(card);
        const long long copiesBefore = views::CardBuffer::copies();
        QCustomPlot plot;
        views::plotkit::setupPlot(&plot);
        views::plotkit::setupAxis(plot.xAxis, QStringLiteral("batch B"), true);
        views::plotkit::setupAxis(plot.yAxis, QStringLiteral("ms"), true);
        plot.xAxis->grid()->setSubGridPen(views::plotkit::pen(QColor(20, 40, 160, 90), 0));
        plot.yAxis->grid()->setSubGridPen(views::plotkit::pen(QColor(160, 40, 20, 120), 1));
        plot.xAxis->setRange(1, 4096);
        plot.axisRect()->setAutoMargins(QCP::msNone); // as the floor plots' steady margins: the key axis stays put
        plot.axisRect()->setMargins(QMargins(60, 20, 20, 50));
        plot.resize(420, 320);
        plot.show();
        QList<QImage> pictures;
        for (int step = 0; step < 6; ++step) {
            if (step == 3)
                plot.xAxis->setRange(1, 512); // the key axis moves: its grid is drawn again
            if (step < 5) // the sixth replot moves nothing (the drag stopped)
                plot.yAxis->setRange(0.7 + 0.3 * step, 90 + 400 * step);
            plot.replot();
            pictures.append(plot.grab().toImage());
        }
        views::GridLayerCache::setFirstGridKept(true);
        views::GridLayerCache::setDrawnInPlace(true);
        views::GridLayerCache::setFirstGridRedrawnInPlace(true);
        views::CardBuffer::setEnabled(true);
        const views::GridLayerCache* cache = views::GridLayerCache::find(&plot);
        return std::make_tuple(pictures, std::make_pair(cache->renders(), cache->firstGridReuses()), cache->clears(),
                               cache->inPlaceDraws(), views::CardBuffer::copies() - copiesBefore,
                               cache->firstGridRedrawsInPlace());
    };
    const auto [kept, keptCounts, keptClears, keptInPlace, keptCopies, keptRedrawn] = draw(true, false);
    const auto [drawn, drawnCounts, drawnClears, drawnInPlace, drawnCopies, drawnRedrawn] = draw(false, true);
    const auto [placed, placedCounts, placedClears, placedInPlace, placedCopies, placedRedrawn] = draw(true, true);
    const auto [blended, blendedCounts, blendedClears, blendedInPlace, blendedCopies, blendedRedrawn] =
        draw(true, true, false);
    const auto [placedBefore, placedBeforeCounts, placedBeforeClears, placedBeforeInPlace, placedBeforeCopies,
                placedBeforeRedrawn] = draw(true, true, true, false);
    QCOMPARE(keptRedrawn, 0LL);
    QCOMPARE(drawnRedrawn, 0LL);
    QCOMPARE(keptInPlace, 0LL);
    QCOMPARE(drawnInPlace, 0LL); // no kept picture: never in place
    // The first draw (on show) and five replots each moved a grid; all but the first draw and the replot that moved the
    // key axis kept its picture.
    QCOMPARE(keptCounts.first, 6LL);
    QCOMPARE(keptCounts.second, 4LL);
    QCOMPARE(drawnCounts.second, 0LL);
    // Issue 16, twenty-ninth stop: a redraw from the kept picture writes every pixel of the image with it, so the image
    // is not cleared first; a redraw that draws the first grid again clears it (the pixels compared below).
    QCOMPARE(keptClears, keptCounts.first - keptCounts.second);
    QCOMPARE(drawnClears, drawnCounts.first);
    QCOMPARE(kept.size(), drawn.size());
    for (qsizetype i = 0; i < kept.size(); ++i)
        QVERIFY2(kept[i] == drawn[i], qPrintable(QStringLiteral("replot %1 differs").arg(i)));
    // Issue 16, twenty-ninth stop: a replot that moves a value axis after one that moved the grid too (a drag) copies
    // the kept picture and fills the later grids straight into the paint buffer, no image: replots 1-3 and 5 (the first
    // follows the draw on show; the fourth moved the key axis, whose grid is drawn into the image again). The sixth
    // (nothing moved) redraws the image, which the in-place replots left as it was. Every replot the same pixels.
    QCOMPARE(placedBeforeInPlace, 4LL);
    QCOMPARE(placedBeforeCounts.first, 3LL);
    QCOMPARE(placedBeforeRedrawn, 0LL);
    // Issue 16, thirty-first stop (h16bc): the fourth replot, which moved the key axis within the drag, is in place
    // too: the kept picture of the first grid drawn again, then copied in; no image drawn and copied into the picture
    // and the buffer. Five in place, two images drawn (on show, and the sixth replot), one picture redrawn in place.
    QCOMPARE(placedInPlace, 5LL);
    QCOMPARE(placedCounts.first, 2LL);
    QCOMPARE(placedRedrawn, 1LL);
    QCOMPARE(placed.size(), drawn.size());
    QCOMPARE(placedBefore.size(), drawn.size());
    for (qsizetype i = 0; i < placed.size(); ++i) {
        QVERIFY2(placed[i] == drawn[i], qPrintable(QStringLiteral("replot %1 drawn in place differs").arg(i)));
        QVERIFY2(placedBefore[i] == drawn[i], qPrintable(QStringLiteral("replot %1 (picture kept) differs").arg(i)));
    }
    // Issue 16, twenty-ninth stop: the paint buffer is cleared in the card colour and copied onto the window (CardBuffer),
    // the grid image starts from that colour and is copied into the buffer (or the kept picture, in place): every grab
    // is a copy, and within 2 levels of QCustomPlot's own clear and paint (the buffer transparent, blended over the
    // card), which differ only where translucent lines cross (each blended onto the card in turn here).
    QVERIFY(placedCopies >= placed.size());
    QCOMPARE(blendedCopies, 0LL);
    QCOMPARE(blendedInPlace, placedInPlace);
    QCOMPARE(blended.size(), placed.size());
    for (qsizetype i = 0; i < placed.size(); ++i) {
        const QImage a = placed[i].convertToFormat(QImage::Format_ARGB32);
        const QImage b = blended[i].convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(a.size(), b.size());
        int largest = 0;
        for (int y = 0; y < a.height(); ++y)
            for (int x = 0; x < a.width(); ++x) {
                const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
                largest = std::max(largest, std::abs(qAlpha(p) - qAlpha(q)));
                largest = std::max({largest, std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                                    std::abs(qBlue(p) - qBlue(q))});
            }
        QVERIFY2(largest <= 2, qPrintable(QStringLiteral("replot %1 differs by %2 levels").arg(i).arg(largest)));
    }
}

void TestFloorPlot::firstGridFilledAsOneRowCopied()
{
    // Issue 16, thirty-first stop (h16bc): the key axis' grid, drawn first into the grid image or the kept picture, is
    // one row filled and its line pixels copied down the others: the same pixels, bit for bit, as filling every row,
    // on a drag that moves the key axis on every replot (the picture redrawn in place) and at rest.
    auto makePlot = [](QCustomPlot& plot) {
        views::plotkit::setupPlot(&plot);
        views::plotkit::setupAxis(plot.xAxis, QStringLiteral("batch B"), true);
        views::plotkit::setupAxis(plot.yAxis, QStringLiteral("ms"), true);
        plot.xAxis->grid()->setSubGridPen(views::plotkit::pen(QColor(20, 40, 160, 90), 0));
        plot.axisRect()->setAutoMargins(QCP::msNone);
        plot.axisRect()->setMargins(QMargins(60, 20, 20, 50));
        plot.resize(420, 320);
        plot.show();
    };
    QCustomPlot copied, filled;
    makePlot(copied);
    makePlot(filled);
    const views::GridLayerCache* copiedCache = views::GridLayerCache::find(&copied);
    const views::GridLayerCache* filledCache = views::GridLayerCache::find(&filled);
    QVERIFY(copiedCache && filledCache);
    auto replot = [](QCustomPlot& plot, int step, bool rowCopied) {
        views::GridLayerCache::setFirstGridRowCopied(rowCopied);
        if (step < 5) // the sixth replot moves nothing (the drag stopped)
            plot.xAxis->setRange(1 + step, 300 << step);
        plot.yAxis->setRange(0.7, 90 + 400 * std::min(step, 4));
        plot.replot();
        QImage picture = plot.grab().toImage();
        views::GridLayerCache::setFirstGridRowCopied(true);
        return picture;
    };
    const long long copies = copiedCache->firstGridRowCopies(), redrawn = copiedCache->firstGridRedrawsInPlace();
    const long long filledCopies = filledCache->firstGridRowCopies();
    for (int step = 0; step < 6; ++step) {
        const QImage a = replot(copied, step, true);
        const QImage b = replot(filled, step, false);
        QVERIFY2(a == b, qPrintable(QStringLiteral("replot %1 differs").arg(step)));
    }
    QCOMPARE(filledCache->firstGridRowCopies(), filledCopies);
    QVERIFY2(copiedCache->firstGridRowCopies() >= copies + 5,
             qPrintable(QString::number(copiedCache->firstGridRowCopies() - copies)));
    QVERIFY(copiedCache->firstGridRedrawsInPlace() > redrawn);
}

void TestFloorPlot::layerImagesKeepTheirMemory()
{
    // Issue 16, eighteenth stop: a layer image redrawn at a size it held before, or at a smaller one, is drawn into the
    // memory it had (a new image each time was a fresh mapping, a page fault each 4 KB: 1,000 faults on the first two
    // model-size steps of a process), and shows the same pixels as a fresh image of that size.
    // The grid's picture of its first grid: the key axis moved on every replot, one picture allocated in all.
    {
        QCustomPlot plot;
        views::plotkit::setupPlot(&plot);
        views::plotkit::setupAxis(plot.xAxis, QStringLiteral("batch B"), true);
        views::plotkit::setupAxis(plot.yAxis, QStringLiteral("ms"), true);
        plot.axisRect()->setAutoMargins(QCP::msNone);
        plot.axisRect()->setMargins(QMargins(60, 20, 20, 50));
        plot.resize(420, 320);
        plot.show();
        const views::GridLayerCache* cache = views::GridLayerCache::find(&plot);
        QVERIFY(cache);
        for (int step = 0; step < 5; ++step) {
            plot.xAxis->setRange(1, 256 << step);
            plot.replot();
        }
        // (A drag: from the second replot on, the picture is drawn again in place, into the same memory.)
        QVERIFY(cache->renders() + cache->firstGridRedrawsInPlace() >= 5);
        QCOMPARE(cache->firstGridAllocations(), 1LL);
    }
    // A curve image whose area changes with a label drawn outside the axis rect (its clip the whole viewport): grown once
    // to the larger area, the smaller laid over the same memory; every replot the pixels of a fresh plot's image.
    auto makePlot = [](QCustomPlot& plot) {
        views::plotkit::setupPlot(&plot);
        views::plotkit::setupAxis(plot.xAxis, QStringLiteral("batch B"), true);
        views::plotkit::setupAxis(plot.yAxis, QStringLiteral("ms"), true);
        QCPGraph* a = plot.addGraph();
        QCPGraph* b = plot.addGraph();
        a->setPen(views::plotkit::pen(QColor(20, 40, 160), 2));
        b->setPen(views::plotkit::pen(QColor(160, 40, 20), 1.5));
        auto* label = new QCPItemText(&plot);
        label->setClipToAxisRect(false);
        label->position->setType(QCPItemPosition::ptAbsolute);
        label->position->setCoords(30, 12);
        label->setText(QStringLiteral("t_step"));
        QVERIFY(views::CurveLayerCache::install(&plot, {a, b, label}));
        plot.xAxis->setRange(1, 1024);
        plot.yAxis->setRange(0.5, 200);
        plot.resize(420, 320);
    };
    auto setStep = [](QCustomPlot& plot, int step) {
        for (int g = 0; g < 2; ++g) {
            QVector<double> keys, values;
            for (int i = 0; i <= 40; ++i) {
                keys << std::pow(2.0, i / 4.0);
                values << (1 + g) * (2.0 + step) * std::pow(2.0, i / 6.0);
            }
            plot.graph(g)->setData(keys, values, true);
        }
        plot.findChild<QCPItemText*>()->setVisible(step % 2 == 1);
        plot.replot();
    };
    QCustomPlot plot;
    makePlot(plot);
    plot.show();
    const views::CurveLayerCache* cache = views::CurveLayerCache::find(&plot);
    QVERIFY(cache);
    for (int step = 0; step < 6; ++step) {
        setStep(plot, step);
        QCustomPlot fresh;
        makePlot(fresh);
        fresh.show();
        setStep(fresh, step);
        QVERIFY2(plot.grab().toImage() == fresh.grab().toImage(), qPrintable(QStringLiteral("step %1 differs").arg(step)));
    }
    QVERIFY(cache->renders() >= 6);
    QCOMPARE(cache->inPlaceDraws(), 0LL);
    QVERIFY2(cache->allocations() <= 2, qPrintable(QStringLiteral("%1 allocations").arg(cache->allocations())));
}

void TestFloorPlot::logTickerRepeatsUnchangedTicks()
{
    // Issue 16, thirteenth stop: a log axis whose range did not move gives QCustomPlot its last ticks, sub-ticks and
    // labels without computing them again; they are what a fresh ticker computes, before and after a new range.
    QCustomPlot plot;
    views::plotkit::setupPlot(&plot);
    views::plotkit::setupAxis(plot.xAxis, QStringLiteral("batch B"), true);
    auto ticker = plot.xAxis->ticker().dynamicCast<views::plotkit::CompactLogTicker>();
    QVERIFY(ticker);
    plot.resize(360, 240);
    plot.show();
    auto same = [&plot](const QCPRange& range) {
        views::plotkit::CompactLogTicker fresh;
        QVector<double> ticks, subTicks;
        QVector<QString> labels;
        fresh.generate(range, plot.locale(), plot.xAxis->numberFormat().at(0), plot.xAxis->numberPrecision(), ticks,
                       &subTicks, &labels);
        return ticks == plot.xAxis->tickVector() && labels == plot.xAxis->tickVectorLabels();
    };
    for (const QCPRange& range : {QCPRange(1, 4096), QCPRange(3, 40)}) { // many decades, then 1-2-5 ticks
        plot.xAxis->setRange(range);
        plot.replot();
        const long long generated = ticker->generated();
        for (int i = 0; i < 4; ++i) {
            plot.yAxis->setRange(0, 10 + i); // another axis moves: this one repeats its ticks
            plot.replot();
        }
        QCOMPARE(ticker->generated(), generated);
        QVERIFY(same(range));
    }
}

void TestFloorPlot::shortAxesKeepTickLabelsApart()
{
    // At 1,280 x 720 the prefill crossover's value axis held nine labels, 0.01 to 100k, in 115 px (13 px apart for
    // 13 px-high text), at 900 x 600 the decode floor's on top of each other. setupPlot()'s fit keeps labels 1.25 text
    // heights apart on a value axis: a log axis then ticks every 2, 5... decades, its sub-ticks at the decades between,
    // and a linear axis gets a lower tick count; both come back when the plot grows.
    QCustomPlot plot;
    views::plotkit::setupPlot(&plot);
    plot.setMinimumSize(0, 0); // (setupPlot()'s 150 px would stop the short sizes below)
    views::plotkit::setupAxis(plot.yAxis, QStringLiteral("prefill work (TFLOP)"), true);
    views::plotkit::setupAxis(plot.xAxis, QStringLiteral("share (%)"), false);
    plot.yAxis->setRange(0.005, 3e5);
    plot.xAxis->setRange(0, 100);
    plot.yAxis2->setVisible(true);
    plot.yAxis2->setTickLabels(true);
    views::plotkit::setupAxis(plot.yAxis2, QStringLiteral("share (%)"), false);
    plot.yAxis2->setRange(0, 100);
    const double spacingPx = 1.25 * QFontMetricsF(plot.yAxis->tickLabelFont()).height();
    auto visibleTicks = [](const QCPAxis* axis) {
        QVector<double> ticks;
        for (double v : axis->tickVector()) {
            if (axis->range().contains(v))
                ticks.append(v);
        }
        return ticks;
    };
    auto closestPx = [](const QCPAxis* axis, const QVector<double>& ticks) {
        double closest = std::numeric_limits<double>::infinity();
        for (int i = 1; i < ticks.size(); ++i)
            closest = std::min(closest, std::abs(axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1])));
        return closest;
    };
    plot.resize(420, 600);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.replot();
    QVERIFY(plot.axisRect()->height() > 500);
    QCOMPARE(visibleTicks(plot.yAxis),
             QVector<double>({0.01, 0.1, 1.0, 10.0, 100.0, 1e3, 1e4, 1e5})); // tall: every decade, as ever
    const int tallCount = plot.yAxis2->ticker()->tickCount();
    const int tallLinearLabels = int(visibleTicks(plot.yAxis2).size());
    for (int heightPx : {190, 150, 110, 80, 60}) {
        plot.resize(420, heightPx);
        plot.replot();
        QVERIFY(plot.axisRect()->height() < heightPx);
        const QVector<double> ticks = visibleTicks(plot.yAxis);
        QVERIFY2(ticks.size() >= 1, qPrintable(QStringLiteral("no label at %1 px").arg(heightPx)));
        QVERIFY2(closestPx(plot.yAxis, ticks) >= spacingPx - 0.5,
                 qPrintable(QStringLiteral("log labels %1 px apart at %2 px, %3 needed")
                                .arg(closestPx(plot.yAxis, ticks))
                                .arg(heightPx)
                                .arg(spacingPx)));
        if (plot.axisRect()->height() >= 2 * spacingPx) // (a linear ticker always gives two ticks or more)
            QVERIFY2(closestPx(plot.yAxis2, visibleTicks(plot.yAxis2)) >= spacingPx - 0.5,
                     qPrintable(QStringLiteral("linear labels too close at %1 px").arg(heightPx)));
        // Sub-ticks at powers of ten only where the ticks step several decades.
        if (ticks.size() >= 2 && ticks[1] / ticks[0] > 10.5) {
            QVector<double> major, subTicks;
            QVector<QString> labels;
            plot.yAxis->ticker()->generate(plot.yAxis->range(), plot.locale(), plot.yAxis->numberFormat().at(0),
                                           plot.yAxis->numberPrecision(), major, &subTicks, &labels);
            QCOMPARE(major, plot.yAxis->tickVector());
            QVERIFY(!subTicks.isEmpty());
            for (double v : subTicks) {
                const double exponent = std::log10(v);
                QVERIFY2(std::abs(exponent - std::round(exponent)) < 1e-9, qPrintable(QString::number(v)));
            }
        }
    }
    QVERIFY(plot.yAxis2->ticker()->tickCount() < tallCount);
    plot.resize(420, 600);
    plot.replot();
    plot.replot(); // a count raised back settles in one replot, and stays
    QCOMPARE(visibleTicks(plot.yAxis), QVector<double>({0.01, 0.1, 1.0, 10.0, 100.0, 1e3, 1e4, 1e5}));
    QCOMPARE(plot.yAxis2->ticker()->tickCount(), tallCount);
    QCOMPARE(int(visibleTicks(plot.yAxis2).size()), tallLinearLabels);
}

namespace {
/** The 420 x 320 plot, set up as Ridgeline's, with a batch axis and a ms axis, that the axis painter's tests replot. */
void showAxisTestPlot(QCustomPlot& plot)
{
    views::plotkit::setupPlot(&plot);
    views::plotkit::setupAxis(plot.xAxis, QStringLiteral("batch B"), true);
    views::plotkit::setupAxis(plot.yAxis, QStringLiteral("ms"), false);
    plot.resize(420, 320);
    plot.show();
}
} // namespace

void TestFloorPlot::tickLabelKeyFromAMemo()
{
    // Issue 16, fifteenth stop: QCustomPlot builds its tick labels' parameter key (the font as a string) on every draw
    // and size of an axis; the axis painter gives it from a memo while the inputs stay. Replots with moving ranges, then
    // a new tick label font, colour and rotation: every grab equals, bit for bit, the same replots with the key built
    // each time (views::setAxisLabelKeyKept(false)), so QCustomPlot's label pictures are still dropped on each change.
    auto draw = [](bool kept) {
        views::setAxisLabelKeyKept(kept);
        QCustomPlot plot;
        showAxisTestPlot(plot);
        QList<QImage> pictures;
        for (int step = 0; step < 7; ++step) {
            plot.xAxis->setRange(1, 64 << step);
            plot.yAxis->setRange(0, 10 + 7 * step);
            if (step == 3) {
                QFont font = plot.xAxis->tickLabelFont();
                font.setPointSizeF(font.pointSizeF() + 2);
                plot.xAxis->setTickLabelFont(font);
            }
            if (step == 4)
                plot.yAxis->setTickLabelColor(QColor(200, 30, 30));
            if (step == 5)
                plot.xAxis->setTickLabelRotation(30);
            plot.replot();
            pictures.append(plot.grab().toImage());
        }
        views::setAxisLabelKeyKept(true);
        return std::make_pair(pictures, views::axisLabelKeyReuses(plot.xAxis) + views::axisLabelKeyReuses(plot.yAxis));
    };
    const auto [kept, keptReuses] = draw(true);
    const auto [built, builtReuses] = draw(false);
    QCOMPARE(builtReuses, 0LL);
    QVERIFY2(keptReuses >= 10, qPrintable(QStringLiteral("key from the memo %1 times").arg(keptReuses)));
    QCOMPARE(kept.size(), built.size());
    for (qsizetype i = 0; i < kept.size(); ++i)
        QVERIFY2(kept[i] == built[i], qPrintable(QStringLiteral("replot %1 differs").arg(i)));
    QVERIFY(kept[2] != kept[3]); // the new font is drawn
}

void TestFloorPlot::axisTitleSizeMeasuredOncePerTextFontAndResolution()
{
    // Issue 16, twenty-fourth stop: QCustomPlot measures an axis title (QFontMetrics::boundingRect(), a text layout) for
    // the axis' margin in every layout pass whose axis moved; the axis painter keeps its height per title text, font and
    // the font's resolution. Replots that move both ranges, then a title of two lines, a larger title font, the first font
    // again, the first font at twice the resolution (equal to it by QFont::operator==, which does not compare resolutions,
    // so set through another font), and the first title and font again: every replot's axis rect and grab equal, bit for
    // bit, the same replots with the title measured each time (views::setAxisTitleSizeKept(false)), so each change is
    // measured anew; and the titles are measured once per different text, font and resolution, not once per replot.
    QImage twiceTheDpi(8, 8, QImage::Format_ARGB32_Premultiplied);
    twiceTheDpi.setDotsPerMeterX(2 * twiceTheDpi.dotsPerMeterX());
    twiceTheDpi.setDotsPerMeterY(2 * twiceTheDpi.dotsPerMeterY());
    auto draw = [&twiceTheDpi](bool kept) {
        views::setAxisTitleSizeKept(kept);
        QCustomPlot plot;
        showAxisTestPlot(plot);
        const QFont first = plot.yAxis->labelFont();
        QFont larger = first;
        larger.setPointSizeF(first.pointSizeF() * 1.6);
        QList<QImage> pictures;
        QList<QRect> rects;
        for (int step = 0; step < 12; ++step) {
            plot.xAxis->setRange(1, 64 << step);
            plot.yAxis->setRange(0, 10 + 7 * step);
            if (step == 3)
                plot.yAxis->setLabel(QStringLiteral("ms\nper step"));
            if (step == 5)
                plot.yAxis->setLabelFont(larger);
            if (step == 7)
                plot.yAxis->setLabelFont(first);
            if (step == 9) {
                plot.yAxis->setLabelFont(larger); // (QCPAxis::setLabelFont() ignores a font equal to its own)
                plot.yAxis->setLabelFont(QFont(first, &twiceTheDpi));
            }
            if (step == 10) {
                plot.yAxis->setLabelFont(larger);
                plot.yAxis->setLabelFont(first);
                plot.yAxis->setLabel(QStringLiteral("ms"));
            }
            plot.replot();
            pictures.append(plot.grab().toImage());
            rects.append(plot.axisRect()->rect());
        }
        views::setAxisTitleSizeKept(true);
        return std::make_tuple(pictures, rects,
                               views::axisTitleSizeMeasurements(plot.xAxis) + views::axisTitleSizeMeasurements(plot.yAxis));
    };
    const auto [kept, keptRects, keptMeasurements] = draw(true);
    const auto [measured, measuredRects, measuredMeasurements] = draw(false);
    QCOMPARE(measuredMeasurements, 0LL);
    QCOMPARE(kept.size(), measured.size());
    for (qsizetype i = 0; i < kept.size(); ++i) {
        QVERIFY2(keptRects[i] == measuredRects[i], qPrintable(QStringLiteral("replot %1: axis rect differs").arg(i)));
        QVERIFY2(kept[i] == measured[i], qPrintable(QStringLiteral("replot %1 differs").arg(i)));
    }
    // x: "batch B" once; y: "ms", two lines, larger, first again, twice the resolution, "ms" in the first font again.
    QCOMPARE(keptMeasurements, 7LL);
    // Each change moved the axis rect (so a height kept too long would show).
    QVERIFY(keptRects[2] != keptRects[3]);
    QVERIFY(keptRects[4] != keptRects[5]);
    QVERIFY(keptRects[6] != keptRects[7]);
    QVERIFY(keptRects[8] != keptRects[9]);
    QVERIFY(keptRects[9] != keptRects[10]);
}

void TestFloorPlot::axisLinesFromAStripImage()
{
    // Issue 16, nineteenth stop: an axis whose lines are those of the replot before draws its base line and tick marks
    // from a strip image of them. Replots that move only the value axes, then the key axis, then a new tick pen, then a
    // translucent one (drawn by QCustomPlot, as the image would blend differently), on all four sides: every grab equals,
    // bit for bit, the same replots with every axis drawing its lines itself (views::setAxisLinesKept(false)), and the
    // key axis' strip is made once per change that stays, not once per replot.
    auto draw = [](bool kept) {
        views::setAxisLinesKept(kept);
        QCustomPlot plot;
        views::plotkit::setupPlot(&plot);
        views::plotkit::setupAxis(plot.xAxis, QStringLiteral("batch B"), true);
        views::plotkit::setupAxis(plot.yAxis, QStringLiteral("ms"), false);
        views::plotkit::setupAxis(plot.xAxis2, QStringLiteral("top"), false);
        views::plotkit::setupAxis(plot.yAxis2, QStringLiteral("tok/s"), true);
        plot.xAxis2->setVisible(true);
        plot.yAxis2->setVisible(true);
        plot.xAxis2->setTickLengthIn(3); // ticks on both sides of the line
        plot.yAxis2->setSubTickLengthIn(2);
        plot.resize(420, 320);
        plot.show();
        QList<QImage> pictures;
        std::pair<long long, long long> keyAxisAtStart{};
        for (int step = 0; step < 9; ++step) {
            plot.xAxis->setRange(1, step < 3 ? 64 : 512); // a new range on step 3
            // The value axes move on every step, their tick labels as wide as before (the axis rect stays).
            plot.yAxis->setRange(0, 100 + 7 * step);
            plot.yAxis2->setRange(1, 1000 + 100 * step);
            plot.xAxis2->setRange(0, 5);
            if (step == 5)
                plot.xAxis->setTickPen(views::plotkit::pen(QColor(200, 30, 30), 1));
            if (step == 7)
                plot.xAxis->setTickPen(views::plotkit::pen(QColor(200, 30, 30, 128), 1)); // translucent: QCustomPlot's drawing
            plot.replot();
            pictures.append(plot.grab().toImage());
            if (step == 0)
                keyAxisAtStart = views::axisLineImageUse(plot.xAxis);
        }
        views::setAxisLinesKept(true);
        const auto [renders, draws] = views::axisLineImageUse(plot.xAxis);
        const auto [topRenders, topDraws] = views::axisLineImageUse(plot.xAxis2);
        return std::make_tuple(pictures, renders - keyAxisAtStart.first, draws - keyAxisAtStart.second, topRenders, topDraws);
    };
    const auto [kept, renders, draws, topRenders, topDraws] = draw(true);
    const auto [direct, directRenders, directDraws, directTopRenders, directTopDraws] = draw(false);
    QCOMPARE(directDraws, 0LL);
    QCOMPARE(directTopDraws, 0LL);
    // Steps 1 to 8 after the first: the key axis' lines are drawn from the strip on the steps that repeat the replot
    // before (1, 2, 4, 6), the strip made on the first of each (1, 4, 6); drawn by QCustomPlot on the steps that change
    // them (3: range, 5: pen, 7: a translucent pen) and while the pen is translucent (8).
    QVERIFY2(renders == 3 && draws == 4, qPrintable(QStringLiteral("key axis: %1 strips made, %2 draws from one (expected 3, 4)")
                                                       .arg(renders).arg(draws)));
    QVERIFY2(topRenders >= 1 && topDraws >= 8 && topDraws > topRenders,
             qPrintable(QStringLiteral("top axis: %1 redraws, %2 draws").arg(topRenders).arg(topDraws)));
    QCOMPARE(kept.size(), direct.size());
    for (qsizetype i = 0; i < kept.size(); ++i)
        QVERIFY2(kept[i] == direct[i], qPrintable(QStringLiteral("replot %1 differs").arg(i)));
    QVERIFY(kept[4] != kept[5]); // the new tick pen is drawn
    QVERIFY(kept[6] != kept[7]); // and the translucent one
}

void TestFloorPlot::cardPaintsAsItsStyleSheetDid()
{
    // Issue 16, fifteenth stop: the cards are painted (makeCard()) instead of styled by the style sheet
    // "QFrame#x { background: card; border: 1px solid cardBorder; border-radius: 6px; }"; the picture is the
    // same, pixel for pixel, at sizes with rounded and (below two radii) square corners, on the window colour.
    using namespace ridgeline::views;
    for (const QSize size : {QSize(517, 333), QSize(300, 84), QSize(40, 13), QSize(11, 30)}) {
        QWidget host;
        host.setAutoFillBackground(true);
        QPalette hostPalette = host.palette();
        hostPalette.setColor(QPalette::Window, palette::window());
        host.setPalette(hostPalette);
        host.resize(size + QSize(20, 20));
        auto* styled = new QFrame(&host);
        styled->setObjectName(QStringLiteral("styledCard"));
        styled->setStyleSheet(QStringLiteral("QFrame#styledCard { background: %1; border: 1px solid %2; border-radius: 6px; }")
                                  .arg(palette::css(palette::card()), palette::css(palette::cardBorder())));
        styled->setGeometry(QRect(QPoint(10, 10), size));
        auto* styledChild = new QLabel(QStringLiteral("Ag"), styled);
        styledChild->move(3, 2);
        const QImage expected = host.grab().toImage();
        const QRect styledContents = styled->contentsRect();
        delete styled;

        auto* painted = new QFrame(&host);
        makeCard(painted);
        painted->setGeometry(QRect(QPoint(10, 10), size));
        auto* paintedChild = new QLabel(QStringLiteral("Ag"), painted);
        paintedChild->move(3, 2);
        QVERIFY(isPaintedCard(painted));
        QVERIFY(painted->styleSheet().isEmpty());
        QCOMPARE(painted->contentsRect(), styledContents);
        const QImage actual = host.grab().toImage();
        int differing = 0;
        for (int y = 0; y < expected.height(); ++y)
            for (int x = 0; x < expected.width(); ++x)
                differing += expected.pixel(x, y) != actual.pixel(x, y);
        QVERIFY2(differing == 0, qPrintable(QStringLiteral("%1 x %2: %3 pixels differ").arg(size.width()).arg(size.height()).arg(differing)));
    }
}


// The KV share curve is drawn at the current B across the context axis: a context step leaves it as it was, and it is
// blended from its image instead of stroked (issue 16, sixteenth stop, h16r). One curve in the image: the pixels are
// those of the curve stroked over the plot, within 2 levels where its line pieces overlap at the vertices (blended
// over transparent, then over the plot, rounds otherwise than blended over the plot; twenty-eighth stop); bit for bit
// with the curve stroked as one outline (plotkit::setCurvesStrokedAsLinePieces(false)).
void TestFloorPlot::kvShareCurveFromAPictureOnContextSteps()
{
    model::Scenario s = model::defaultScenario();
    views::KvSharePlot panel;
    panel.resize(600, 450);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCustomPlot* plot = panel.plot();
    auto step = [&] {
        panel.refresh(s, model::evaluate(s));
        plot->replot();
    };
    step();
    const views::CurveLayerCache* cache = views::CurveLayerCache::find(plot);
    QVERIFY(cache);
    QCPLayer* curves = plot->layer(QStringLiteral("curves"));
    QVERIFY(curves && !curves->visible());
    QCOMPARE(curves->children().size(), 1);
    // What the plot showed before the cache: the curve stroked in its place, over the half and current lines.
    auto largestDifference = [&] {
        const QImage shown = plot->grab().toImage().convertToFormat(QImage::Format_ARGB32);
        views::CurveLayerCache::setImageUsed(false);
        plot->replot();
        const QImage direct = plot->grab().toImage().convertToFormat(QImage::Format_ARGB32);
        views::CurveLayerCache::setImageUsed(true);
        plot->replot();
        int largest = shown.size() == direct.size() ? 0 : 255;
        for (int row = 0; row < shown.height() && largest < 255; ++row)
            for (int col = 0; col < shown.width(); ++col) {
                const QRgb p = shown.pixel(col, row), q = direct.pixel(col, row);
                largest = std::max({largest, std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                                    std::abs(qBlue(p) - qBlue(q)), std::abs(qAlpha(p) - qAlpha(q))});
            }
        return largest;
    };
    auto sameAsStroked = [&] { return largestDifference() <= 2; };
    QVERIFY(sameAsStroked());
    views::plotkit::setCurvesStrokedAsLinePieces(false); // a key of its own: the image drawn again, as an outline
    plot->replot();
    QCOMPARE(largestDifference(), 0);
    views::plotkit::setCurvesStrokedAsLinePieces(true);
    plot->replot();
    const long long renders = cache->renders(), draws = cache->draws(), inPlace = cache->inPlaceDraws();
    for (int i = 0; i < 3; ++i) {
        s.workload.contextTokens += 3000;
        step();
        QVERIFY2(sameAsStroked(), qPrintable(QStringLiteral("context step %1").arg(i)));
    }
    QCOMPARE(cache->renders(), renders); // the curve of the step before each
    QVERIFY(cache->draws() >= draws + 3);
    // A batch step moves the curve: the image is drawn again, still the stroked pixels.
    s.workload.batch *= 3;
    step();
    QCOMPARE(cache->renders(), renders + 1);
    QCOMPARE(cache->inPlaceDraws(), inPlace);
    QVERIFY(sameAsStroked());
    // Batch steps in a row: from the second on the curve is stroked in place (no image cleared and blended on top).
    for (int i = 0; i < 3; ++i) {
        s.workload.batch += 9;
        step();
    }
    QCOMPARE(cache->renders(), renders + 2);
    QCOMPARE(cache->inPlaceDraws(), inPlace + 2);
    // Back to context steps: the image is drawn again once, then blended.
    for (int i = 0; i < 3; ++i) {
        s.workload.contextTokens += 3000;
        step();
        QVERIFY2(sameAsStroked(), qPrintable(QStringLiteral("context step %1 after batch steps").arg(i)));
    }
    QCOMPARE(cache->renders(), renders + 3);
    QCOMPARE(cache->inPlaceDraws(), inPlace + 2);
}

namespace {

/** The caches of a CachedPlot, as bits: which of them an input is drawn by. */
enum CacheBit { kCurves = 1, kGrid = 2, kLegend = 4, kPinned = 8, kAllCaches = 15 };

/**
 * One plot with the four layer-image caches (views/kit/layerimagecache.h): two curves, an SLO-like straight line and its
 * label in a curve cache, the grid's cache, the legend's and a pinned curve's, shown at 420 x 320 and replotted.
 */
struct CachedPlot {
    QCustomPlot plot;
    QCPGraph* step = nullptr;
    QCPGraph* memory = nullptr;
    QCPGraph* pinned = nullptr;
    QCPItemStraightLine* line = nullptr;
    QCPItemText* label = nullptr;
    /** The curve, grid, legend and pinned caches, in CacheBit order. */
    std::array<const views::LayerImageCache*, 4> caches{};

    CachedPlot()
    {
        views::plotkit::setupPlot(&plot);
        views::plotkit::setupAxis(plot.xAxis, QStringLiteral("batch B"), true);
        views::plotkit::setupAxis(plot.yAxis, QStringLiteral("ms"), false);
        plot.xAxis->setRange(1, 512);
        plot.yAxis->setRange(0, 100);
        step = views::plotkit::addCurve(&plot, plot.xAxis, plot.yAxis, views::plotkit::pen(Qt::blue, 2.4), QStringLiteral("t_step"));
        step->setData({1, 8, 64, 512}, {3, 10, 40, 80});
        memory = views::plotkit::addCurve(&plot, plot.xAxis, plot.yAxis, views::plotkit::pen(Qt::red, 1.6, Qt::DashLine),
                                          QStringLiteral("t_mem"));
        memory->setData({1, 8, 64, 512}, {2, 6, 20, 40});
        line = views::plotkit::addStraightLine(&plot, plot.xAxis, plot.yAxis, views::plotkit::pen(Qt::darkGreen, 1.3));
        views::plotkit::placeHorizontal(line, 50);
        label = views::plotkit::addLabel(&plot, plot.xAxis, plot.yAxis, Qt::darkGreen);
        label->setText(QStringLiteral("SLO 50 ms"));
        views::plotkit::placeLabelAtKey(label, 16, 0.3);
        caches[0] = views::CurveLayerCache::install(&plot, {step, memory, line, label});
        pinned = views::plotkit::addCurve(&plot, plot.xAxis, plot.yAxis, views::plotkit::pen(Qt::gray, 1.6, Qt::DotLine),
                                          QStringLiteral("A: t_step"));
        pinned->setData({1, 8, 64, 512}, {4, 12, 44, 90});
        pinned->removeFromLegend();
        pinned->setLayer(views::PinnedLayerCache::pinnedLayer(&plot));
        views::plotkit::placeLegendBelow(&plot, 2);
        caches[1] = views::GridLayerCache::find(&plot);
        caches[2] = views::LegendLayerCache::find(&plot);
        caches[3] = views::PinnedLayerCache::find(&plot);
        plot.resize(420, 320);
        plot.show();
        plot.replot();
        plot.replot();
    }
    /** Each cache's renders(). */
    std::array<long long, 4> renders() const
    {
        std::array<long long, 4> out{};
        for (size_t i = 0; i < caches.size(); ++i)
            out[i] = caches[i]->renders();
        return out;
    }
    /** The plot as the window shows it. */
    QImage picture() { return plot.grab().toImage().convertToFormat(QImage::Format_ARGB32); }
};

/** Pixels that differ between @p a and @p b (all of them when their sizes differ). */
qsizetype pixelsDiffering(const QImage& a, const QImage& b)
{
    if (a.size() != b.size())
        return qsizetype(std::max(a.width() * a.height(), b.width() * b.height()));
    qsizetype n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            n += a.pixel(x, y) != b.pixel(x, y);
    return n;
}

} // namespace

void TestFloorPlot::layerImagesRedrawnForEveryInput()
{
    // Issue 16, twenty-second and twenty-third stops: the layer images' keys (LayerImageCache::writeKey()) are compared
    // field by field. Each input below is changed alone on one plot, then replotted: the caches drawn from it must have
    // drawn their image again, the others not (an image drawn with nothing of its own changed is a cost), and the plot
    // must show, pixel for pixel, what a plot made afresh with the same inputs shows (its images drawn for the first
    // time, so of what their layers now draw: a key that misses an input leaves the old picture on screen, as
    // h16ah's pen colour read into an int did for a blue change). A replot with nothing changed redraws no image and
    // shows the same picture.
    CachedPlot cached;
    for (const views::LayerImageCache* cache : cached.caches)
        QVERIFY(cache);
    std::array<long long, 4> before = cached.renders();
    cached.plot.replot();
    cached.plot.replot();
    QCOMPARE(cached.renders(), before);

    struct Input {
        const char* what;
        std::function<void(CachedPlot&)> change;
        int redrawn; ///< CacheBit of the caches drawn from it
    };
    using P = CachedPlot;
    auto firstPoint = [](QCPGraph* graph) { return graph->data()->begin(); };
    auto gradientPen = [](const QPen& pen, const QColor& to) {
        QLinearGradient g(0, 0, 100, 0);
        g.setColorAt(0, Qt::red);
        g.setColorAt(1, to);
        QPen p = pen;
        p.setBrush(g);
        return p;
    };
    const std::vector<Input> inputs = {
        {"a curve's pen colour", [](P& p) { p.step->setPen(views::plotkit::pen(Qt::magenta, 2.4)); }, kCurves | kLegend},
        {"a curve's pen, blue only", [](P& p) { p.step->setPen(views::plotkit::pen(QColor(255, 0, 200), 2.4)); }, kCurves | kLegend},
        {"a curve's pen, alpha only", [](P& p) { p.step->setPen(views::plotkit::pen(QColor(255, 0, 200, 160), 2.4)); }, kCurves | kLegend},
        {"a curve's pen width", [](P& p) { p.step->setPen(views::plotkit::pen(Qt::magenta, 3.0)); }, kCurves | kLegend},
        {"a curve's pen style", [](P& p) { p.step->setPen(views::plotkit::pen(Qt::magenta, 3.0, Qt::DashDotLine)); }, kCurves | kLegend},
        {"a curve's pen cap", [](P& p) { QPen q = p.step->pen(); q.setCapStyle(Qt::RoundCap); p.step->setPen(q); }, kCurves | kLegend},
        {"a curve's custom dashes", [](P& p) { QPen q = p.memory->pen(); q.setDashPattern({3, 2}); p.memory->setPen(q); }, kCurves | kLegend},
        {"the custom dashes' lengths", [](P& p) { QPen q = p.memory->pen(); q.setDashPattern({5, 2}); p.memory->setPen(q); }, kCurves | kLegend},
        {"a curve's gradient pen", [=](P& p) { p.memory->setPen(gradientPen(p.memory->pen(), Qt::blue)); }, kCurves | kLegend},
        {"its gradient's colours", [=](P& p) { p.memory->setPen(gradientPen(p.memory->pen(), Qt::green)); }, kCurves | kLegend},
        {"a curve's fill", [](P& p) { p.step->setBrush(QColor(0, 0, 255, 40)); }, kCurves | kLegend},
        {"its fill, blue only", [](P& p) { p.step->setBrush(QColor(0, 0, 120, 40)); }, kCurves | kLegend},
        {"a curve's line style", [](P& p) { p.step->setLineStyle(QCPGraph::lsStepLeft); }, kCurves | kLegend},
        {"a curve's scatter shape", [](P& p) { p.step->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5)); }, kCurves | kLegend},
        {"its scatter size", [](P& p) { p.step->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 8)); }, kCurves | kLegend},
        {"its scatter skip", [](P& p) { p.step->setScatterSkip(1); }, kCurves},
        {"a curve's antialiasing", [](P& p) { p.memory->setAntialiased(!p.memory->antialiased()); }, kCurves | kLegend},
        {"a curve's adaptive sampling", [](P& p) { p.memory->setAdaptiveSampling(!p.memory->adaptiveSampling()); }, kCurves},
        {"a point of a curve, in place", [=](P& p) { firstPoint(p.memory)->value *= 1.5; }, kCurves},
        {"a point's key, in place", [=](P& p) { firstPoint(p.memory)->key = 1.5; }, kCurves},
        {"a channel fill", [](P& p) { p.memory->setBrush(QColor(255, 0, 0, 40)); p.memory->setChannelFillGraph(p.pinned); }, kCurves | kLegend},
        {"the data of the curve filled to", [=](P& p) { firstPoint(p.pinned)->value *= 1.5; }, kCurves | kPinned},
        {"a curve hidden", [](P& p) { p.step->setVisible(false); }, kCurves},
        {"a pinned curve's pen", [](P& p) { p.pinned->setPen(views::plotkit::pen(Qt::darkGray, 2.0, Qt::DotLine)); }, kPinned},
        {"a pinned curve's data", [=](P& p) { firstPoint(p.pinned)->value *= 2; }, kCurves | kPinned}, // the fill's too
        {"the key axis' range", [](P& p) { p.plot.xAxis->setRange(1, 1024); }, kCurves | kGrid | kPinned},
        {"the value axis' range", [](P& p) { p.plot.yAxis->setRange(1, 120); }, kCurves | kGrid | kPinned},
        {"the value axis reversed", [](P& p) { p.plot.yAxis->setRangeReversed(true); }, kCurves | kGrid | kPinned},
        {"the value axis' scale", [](P& p) { p.plot.yAxis->setScaleType(QCPAxis::stLogarithmic); }, kCurves | kGrid | kPinned},
        {"the value axis' tick count", [](P& p) { p.plot.yAxis->ticker()->setTickCount(p.plot.yAxis->ticker()->tickCount() + 3); }, kGrid},
        {"a grid's pen", [](P& p) { p.plot.yAxis->grid()->setPen(views::plotkit::pen(QColor(200, 100, 100), 1)); }, kGrid},
        {"a grid's pen, blue only", [](P& p) { p.plot.yAxis->grid()->setPen(views::plotkit::pen(QColor(200, 100, 160), 1)); }, kGrid},
        {"a sub-grid's pen", [](P& p) { p.plot.xAxis->grid()->setSubGridPen(views::plotkit::pen(QColor(100, 100, 200, 90), 1)); }, kGrid},
        {"a sub-grid's pen, alpha only", [](P& p) { p.plot.xAxis->grid()->setSubGridPen(views::plotkit::pen(QColor(100, 100, 200, 200), 1)); }, kGrid},
        {"a sub-grid hidden", [](P& p) { p.plot.xAxis->grid()->setSubGridVisible(false); }, kGrid},
        {"a zero line's pen", [](P& p) { p.plot.yAxis->grid()->setZeroLinePen(views::plotkit::pen(Qt::black, 1)); }, kGrid},
        {"a grid's antialiasing", [](P& p) { p.plot.yAxis->grid()->setAntialiased(!p.plot.yAxis->grid()->antialiased()); }, kGrid},
        {"a grid hidden", [](P& p) { p.plot.yAxis->grid()->setVisible(false); }, kGrid},
        {"a straight line's pen", [](P& p) { p.line->setPen(views::plotkit::pen(Qt::darkCyan, 1.3)); }, kCurves},
        {"a straight line moved", [](P& p) { views::plotkit::placeHorizontal(p.line, 30); }, kCurves},
        {"a label's text", [](P& p) { p.label->setText(QStringLiteral("SLO 30 ms")); }, kCurves},
        {"a label's font", [](P& p) { QFont f = p.label->font(); f.setPointSizeF(9.5); p.label->setFont(f); }, kCurves},
        {"a label's font weight", [](P& p) { QFont f = p.label->font(); f.setBold(true); p.label->setFont(f); }, kCurves},
        {"a label's colour", [](P& p) { p.label->setColor(Qt::darkRed); }, kCurves},
        {"a label's colour, blue only", [](P& p) { p.label->setColor(QColor(128, 0, 90)); }, kCurves},
        {"a label's background", [](P& p) { p.label->setBrush(QColor(255, 255, 200)); }, kCurves},
        {"a label's padding", [](P& p) { p.label->setPadding(QMargins(4, 1, 4, 1)); }, kCurves},
        {"a label's alignment", [](P& p) { p.label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom); }, kCurves},
        {"a label's rotation", [](P& p) { p.label->setRotation(90); }, kCurves},
        {"a label moved", [](P& p) { views::plotkit::placeLabelAtKey(p.label, 32, 0.5); }, kCurves},
        {"a curve renamed", [](P& p) { p.memory->setName(QStringLiteral("t_memory")); }, kLegend},
        {"a legend entry's font", [](P& p) { QFont f = p.plot.legend->item(0)->font(); f.setItalic(true); p.plot.legend->item(0)->setFont(f); }, kLegend},
        {"a legend entry's colour", [](P& p) { p.plot.legend->item(0)->setTextColor(Qt::darkBlue); }, kLegend},
        {"the legend's icon size", [](P& p) { p.plot.legend->setIconSize(24, 8); }, kLegend},
        {"the legend's icon padding", [](P& p) { p.plot.legend->setIconTextPadding(7); }, kLegend},
        // The plot's antialiasing flags are in every cache's key (LayerImageCache::describePlot()): all redraw.
        {"antialiased elements", [](P& p) { p.plot.setNotAntialiasedElements(QCP::aePlottables | QCP::aeItems | QCP::aeLegendItems); },
         kAllCaches},
        {"antialiased elements back", [](P& p) { p.plot.setNotAntialiasedElements(QCP::aeNone); p.plot.setAntialiasedElements(QCP::aeGrid); },
         kAllCaches},
        {"a plotting hint", [](P& p) { p.plot.setPlottingHint(QCP::phFastPolylines, !p.plot.plottingHints().testFlag(QCP::phFastPolylines)); },
         kAllCaches},
        {"the plot's size", [](P& p) { p.plot.resize(460, 340); }, kAllCaches},
        {"the device pixel ratio", [](P& p) { p.plot.setBufferDevicePixelRatio(2.0); }, kAllCaches},
    };
    const std::array<const char*, 4> names = {"curves", "grid", "legend", "pinned"};
    QSet<QString> seen;
    for (size_t i = 0; i < inputs.size(); ++i) {
        const QString what = QString::fromUtf8(inputs[i].what);
        QVERIFY2(!seen.contains(what), qPrintable(what));
        seen.insert(what);
        before = cached.renders();
        inputs[i].change(cached);
        cached.plot.replot();
        const std::array<long long, 4> after = cached.renders();
        for (size_t c = 0; c < names.size(); ++c) {
            const bool expected = inputs[i].redrawn & (1 << c);
            QVERIFY2((after[c] > before[c]) == expected,
                     qPrintable(what + (expected ? QStringLiteral(": the %1 image not redrawn") : QStringLiteral(": the %1 image redrawn"))
                                           .arg(QLatin1String(names[c]))));
        }
        // What a plot made afresh with the same inputs shows.
        CachedPlot fresh;
        for (size_t j = 0; j <= i; ++j)
            inputs[j].change(fresh);
        fresh.plot.replot();
        const QImage shown = cached.picture();
        const QImage expectedPicture = fresh.picture();
        QVERIFY2(shown == expectedPicture, qPrintable(what + QStringLiteral(": %1 pixels differ from a fresh plot's")
                                                                 .arg(pixelsDiffering(shown, expectedPicture))));
        // The next replot, nothing changed: the images are those of this one.
        before = cached.renders();
        cached.plot.replot();
        QVERIFY2(cached.renders() == before, qPrintable(what + QStringLiteral(": an image redrawn with nothing changed")));
        QVERIFY2(cached.picture() == shown, qPrintable(what + QStringLiteral(": the picture changed with nothing changed")));
    }
}


QTEST_MAIN(TestFloorPlot)
#include "tst_floorplot.moc"
