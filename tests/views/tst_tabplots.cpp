// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 18 (plots of every tab): the prompt-length P slider beside context S drives the prefill
// plot through real key and spin-box events; every theme's curve colours reach 3:1 and its text
// colours 4.5:1 against the plot background (WCAG 2 contrast ratio), checked on the theme tables and
// on what every plot of the window actually draws, in the light and the dark theme.

#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTest>

#include <qcustomplot.h>

#include "app/mainwindow.h"
#include "app/exportdialog.h"
#include "app/presentation.h"
#include "model/cost/costmodel.h"
#include "model/cost/presets.h"
#include "views/calibration/calibrationtab.h"
#include "views/controls/controlspanel.h"
#include "document/format.h"
#include "views/floors/prefillplot.h"
#include "document/scenariodocument.h"
#include "views/simulation/simulationplots.h"
#include "document/simulationrunner.h"
#include "views/simulation/simulationtab.h"
#include "views/floors/sloplot.h"
#include "views/kit/theme.h"
#include "views/kit/valueslider.h"
#include "views/whatifs/whatifstabs.h"

namespace model = ridgeline::model;
namespace views = ridgeline::views;
using ridgeline::app::MainWindow;
using views::Theme;

namespace {

/** WCAG 2 relative luminance of @p color (alpha ignored). */
double luminance(const QColor& color)
{
    auto channel = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    const QColor rgb = color.toRgb();
    return 0.2126 * channel(rgb.redF()) + 0.7152 * channel(rgb.greenF()) + 0.0722 * channel(rgb.blueF());
}

/** WCAG 2 contrast ratio of @p a against @p b, 1 to 21. */
double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

/** @p color drawn over @p background (its alpha blended). */
QColor over(const QColor& color, const QColor& background)
{
    const double a = color.alphaF();
    return QColor::fromRgbF(float(color.redF() * a + background.redF() * (1 - a)),
                            float(color.greenF() * a + background.greenF() * (1 - a)),
                            float(color.blueF() * a + background.blueF() * (1 - a)));
}

/** Makes the application palette dark (as a dark desktop would) for its lifetime: the window then
 *  picks Theme::dark() (Theme::system()). */
class DarkSystem {
public:
    explicit DarkSystem(bool on)
        : m_before(QApplication::palette())
    {
        if (!on)
            return;
        QPalette palette;
        palette.setColor(QPalette::Window, QColor(0x2b, 0x2e, 0x33));
        palette.setColor(QPalette::WindowText, QColor(0xe8, 0xeb, 0xf0));
        palette.setColor(QPalette::Base, QColor(0x1f, 0x23, 0x29));
        palette.setColor(QPalette::AlternateBase, QColor(0x27, 0x2b, 0x32));
        palette.setColor(QPalette::ToolTipBase, QColor(0x35, 0x3b, 0x45));
        palette.setColor(QPalette::ToolTipText, QColor(0xe8, 0xeb, 0xf0));
        palette.setColor(QPalette::PlaceholderText, QColor(0x9a, 0xa1, 0xac));
        palette.setColor(QPalette::Text, QColor(0xe8, 0xeb, 0xf0));
        palette.setColor(QPalette::Button, QColor(0x35, 0x3b, 0x45));
        palette.setColor(QPalette::ButtonText, QColor(0xe8, 0xeb, 0xf0));
        QApplication::setPalette(palette);
    }
    ~DarkSystem() { QApplication::setPalette(m_before); }

private:
    QPalette m_before;
};

constexpr double kLine = 3.0; ///< WCAG 1.4.11, graphical objects
constexpr double kText = 4.5; ///< WCAG 1.4.3, normal text

QString describe(const QColor& a, const QColor& b, double ratio)
{
    return QStringLiteral("%1 on %2: %3").arg(a.name(), b.name()).arg(ratio, 0, 'f', 2);
}

} // namespace

class TestTabPlots final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanup() { views::setCurrentTheme(Theme::light()); }
    void promptSliderDrivesThePrefillPlot();
    void themeColoursMeetContrast_data();
    void themeColoursMeetContrast();
    void everyPlotMeetsContrast_data();
    void everyPlotMeetsContrast();
    void presentationScalesControlsAndHeadings();
    void unsweptRunIsItsOwnPoint();
    void attainmentAxisEndsAt100();
    void floorLabelsFitAtSmallSize();
    void renderEveryTabForAPerson_data();
    void renderEveryTabForAPerson();
};

void TestTabPlots::promptSliderDrivesThePrefillPlot()
{
    model::Scenario scenario = model::defaultScenario();
    scenario.workload.promptTokens = 2000;
    MainWindow window(scenario);
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    views::ScenarioDocument* document = window.document();
    views::ControlsPanel* controls = window.controlsPanel();

    // Beside S: the same kind of control in the same group, right after it.
    views::ValueSlider* prompt = controls->promptSlider();
    QVERIFY(prompt);
    QCOMPARE(prompt->parentWidget(), controls->contextSlider()->parentWidget());
    auto* slider = window.findChild<QSlider*>(QStringLiteral("promptSlider"));
    auto* spin = window.findChild<QDoubleSpinBox*>(QStringLiteral("promptSpinBox"));
    QVERIFY(slider && spin);
    QCOMPARE(spin->value(), 2000.0);
    QCOMPARE(slider->value(), qRound(50 * std::log10(2000.0 / 16.0))); // log scale from 16 tokens, 50 positions a decade

    QSignalSpy evaluated(document, &views::ScenarioDocument::evaluated);
    auto checkPrefill = [&](int tokens) {
        QCOMPARE(document->scenario().workload.promptTokens, tokens);
        const model::Evaluation expected = model::evaluate(document->scenario());
        QCPGraph* marker = window.prefillPanel()->currentMarker();
        QCOMPARE(marker->data()->size(), 1);
        QCOMPARE(marker->data()->constBegin()->key, double(tokens));
        QVERIFY(std::abs(marker->data()->constBegin()->value - expected.prefill.flop / 1e12)
                <= 1e-9 * expected.prefill.flop / 1e12);
        const QString takeaway = window.prefillPanel()->takeaway();
        QVERIFY2(takeaway.contains(QStringLiteral("P = %1").arg(views::format::integer(tokens))), qPrintable(takeaway));
    };

    // Page Up: one decade up the slider's 50 positions a decade, 2,000 -> about 20,000 tokens.
    slider->setFocus();
    QTest::keyClick(slider, Qt::Key_PageUp);
    QTRY_COMPARE(evaluated.count(), 1);
    const int decadeUp = document->scenario().workload.promptTokens;
    QVERIFY2(std::abs(decadeUp / 20000.0 - 1.0) < 0.03, qPrintable(QString::number(decadeUp)));
    checkPrefill(decadeUp);
    QCOMPARE(spin->value(), double(decadeUp));

    // Arrow left: the log nudge (about 4.7 %) down, rounded to three significant digits.
    QTest::keyClick(slider, Qt::Key_Left);
    QTRY_COMPARE(evaluated.count(), 2);
    QVERIFY(document->scenario().workload.promptTokens < decadeUp);
    QVERIFY(document->scenario().workload.promptTokens > decadeUp * 0.9);
    checkPrefill(document->scenario().workload.promptTokens);

    // The exact box: 512 typed and Enter.
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, QStringLiteral("512"));
    QTest::keyClick(spin, Qt::Key_Return);
    QTRY_COMPARE(evaluated.count(), 3);
    checkPrefill(512);
    QCOMPARE(slider->value(), qRound(50 * std::log10(512.0 / 16.0)));

    // An edit elsewhere (File > Open, undo, the workload tab) moves the slider back without an edit.
    const int before = evaluated.count();
    document->edit([](model::Scenario& s) { s.workload.promptTokens = 8000; });
    QTRY_COMPARE(evaluated.count(), before + 1);
    QCOMPARE(spin->value(), 8000.0);
    QCOMPARE(slider->value(), qRound(50 * std::log10(8000.0 / 16.0)));
    checkPrefill(8000);
}

void TestTabPlots::themeColoursMeetContrast_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("light") << int(Theme::Kind::Light);
    QTest::newRow("dark") << int(Theme::Kind::Dark);
    QTest::newRow("presentation") << int(Theme::Kind::Presentation);
}

void TestTabPlots::themeColoursMeetContrast()
{
    QFETCH(int, kind);
    const Theme theme = kind == int(Theme::Kind::Light) ? Theme::light()
                      : kind == int(Theme::Kind::Dark)  ? Theme::dark()
                                                        : Theme::presentation();
    const QColor card = theme.color(Theme::Card);
    // Curves are lines (3:1), and each curve colour also writes the labels on the plot (addLabel:
    // "SLO 50 ms", "ridge point", "weights fill HBM"), so 4.5:1 as text.
    for (Theme::Role role : {Theme::Memory, Theme::Compute, Theme::Kv, Theme::Throughput, Theme::Ruling, Theme::Slo,
                             Theme::Reference, Theme::Baseline, Theme::PinnedB, Theme::PinnedC, Theme::PinnedD,
                             Theme::PinnedE, Theme::PinnedF}) {
        const double ratio = contrast(theme.color(role), card);
        QVERIFY2(ratio >= kLine, qPrintable(QStringLiteral("role %1 as a line: ").arg(role) + describe(theme.color(role), card, ratio)));
        QVERIFY2(ratio >= kText, qPrintable(QStringLiteral("role %1 as label text: ").arg(role) + describe(theme.color(role), card, ratio)));
    }
    // Text: titles, axes and tick labels, errors on the card; the window's text on the window; the
    // banner's and notice bar's text on their own backgrounds.
    const std::pair<Theme::Role, Theme::Role> texts[] = {
        {Theme::Text, Theme::Card},          {Theme::Axis, Theme::Card},   {Theme::Error, Theme::Card},
        {Theme::Text, Theme::Window},        {Theme::Axis, Theme::Window}, {Theme::Error, Theme::ErrorBackground},
        {Theme::Text, Theme::NoticeBackground}};
    for (const auto& [fore, back] : texts) {
        const double ratio = contrast(theme.color(fore), theme.color(back));
        QVERIFY2(ratio >= kText, qPrintable(QStringLiteral("text role %1 on role %2: ").arg(fore).arg(back)
                                             + describe(theme.color(fore), theme.color(back), ratio)));
    }
}

void TestTabPlots::everyPlotMeetsContrast_data()
{
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

void TestTabPlots::everyPlotMeetsContrast()
{
    QFETCH(bool, dark);
    const DarkSystem system(dark);
    MainWindow window(model::defaultScenario());
    QCOMPARE(views::currentTheme().isDark(), dark);
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // Calibration points, so that its plots draw what they would for a user.
    QCOMPARE(window.whatIfTabs()->calibrationTab()->loadExample(), QString());
    window.whatIfTabs()->calibrationTab()->refresh();
    window.flushForScreenshot();

    QList<QCustomPlot*> plots = window.plots();
    plots += window.whatIfTabs()->plots();
    QVERIFY(plots.size() >= 15);
    int lines = 0;
    int texts = 0;
    for (QCustomPlot* plot : plots) {
        // The plot's background as drawn: a corner pixel, outside the axes.
        const QColor background = plot->toPixmap(200, 120).toImage().pixelColor(1, 1);
        QCOMPARE(background, dark ? Theme::dark().color(Theme::Card) : Theme::light().color(Theme::Card));
        const QString where = plot->objectName();
        auto line = [&](const QPen& pen, const QString& what) {
            if (pen.style() == Qt::NoPen || pen.color().alpha() < 100) // fills, bands and halos are not lines
                return;
            const QColor c = over(pen.color(), background);
            const double ratio = contrast(c, background);
            QVERIFY2(ratio >= kLine, qPrintable(where + QStringLiteral(" ") + what + QStringLiteral(": ") + describe(c, background, ratio)));
            ++lines;
        };
        auto text = [&](const QColor& color, const QColor& behind, const QString& what) {
            const QColor c = over(color, behind);
            const double ratio = contrast(c, behind);
            QVERIFY2(ratio >= kText, qPrintable(where + QStringLiteral(" ") + what + QStringLiteral(": ") + describe(c, behind, ratio)));
            ++texts;
        };
        for (int i = 0; i < plot->plottableCount(); ++i) {
            QCPAbstractPlottable* p = plot->plottable(i);
            if (!p->visible())
                continue;
            // A marker graph draws no line: its scatter style's pen and fill are what shows.
            auto* asGraph = qobject_cast<QCPGraph*>(p);
            if (!asGraph || asGraph->lineStyle() != QCPGraph::lsNone || !asGraph->scatterStyle().isPenDefined())
                line(p->pen(), QStringLiteral("curve \"%1\"").arg(p->name()));
            // A marker shows by its fill when it has one (its outline may be a halo in the card's colour).
            if (auto* graph = qobject_cast<QCPGraph*>(p); graph && !graph->scatterStyle().isNone()) {
                const QCPScatterStyle style = graph->scatterStyle();
                const bool filled = style.brush().style() == Qt::SolidPattern && style.brush().color().alpha() >= 128
                    && style.brush().color() != background;
                const QPen shown = filled ? QPen(style.brush().color()) : style.pen();
                line(shown, QStringLiteral("marker \"%1\"").arg(p->name()));
            }
        }
        for (QCPAxisRect* rect : plot->axisRects()) {
            for (QCPAxis* axis : rect->axes()) {
                if (!axis->visible())
                    continue;
                if (axis->tickLabels())
                    text(axis->tickLabelColor(), background, QStringLiteral("tick labels"));
                if (!axis->label().isEmpty())
                    text(axis->labelColor(), background, QStringLiteral("axis label \"%1\"").arg(axis->label()));
            }
        }
        if (plot->legend && plot->legend->visible())
            text(plot->legend->textColor(), plot->legend->brush().style() == Qt::NoBrush ? background : over(plot->legend->brush().color(), background),
                 QStringLiteral("legend"));
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto* label = qobject_cast<QCPItemText*>(plot->item(i));
            if (!label || !label->visible() || label->text().isEmpty())
                continue;
            const QColor behind = label->brush().style() == Qt::NoBrush ? background : over(label->brush().color(), background);
            text(label->color(), behind, QStringLiteral("label \"%1\"").arg(label->text()));
        }
    }
    QVERIFY(lines > 40);
    QVERIFY(texts > 40);
}

void TestTabPlots::presentationScalesControlsAndHeadings()
{
    MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* batchLabel = window.findChild<QLabel*>(QStringLiteral("batchLabel"));
    auto* promptSpin = window.findChild<QDoubleSpinBox*>(QStringLiteral("promptSpinBox"));
    auto* numbersTitle = window.findChild<QLabel*>(QStringLiteral("numbersTitle"));
    window.whatIfTabs()->ensureBuilt(ridgeline::views::WhatIfTabs::WorkloadTab); // built on first show otherwise
    auto* prefixTitle = window.findChild<QLabel*>(QStringLiteral("prefixCacheTitle"));
    QVERIFY(batchLabel && promptSpin && numbersTitle && prefixTitle);
    const double labelPt = batchLabel->font().pointSizeF();
    const double spinPt = promptSpin->font().pointSizeF();
    QVERIFY(numbersTitle->text().contains(QStringLiteral("font-size:10.5pt")));
    QVERIFY(prefixTitle->text().contains(QStringLiteral("font-size:10.5pt")));

    QTest::keyClick(&window, Qt::Key_F11);
    QTRY_VERIFY(window.presentation()->isActive());
    QCOMPARE(batchLabel->font().pointSizeF(), labelPt * 1.3);
    QCOMPARE(promptSpin->font().pointSizeF(), spinPt * 1.3);
    QVERIFY2(numbersTitle->text().contains(QStringLiteral("font-size:13.7pt")), qPrintable(numbersTitle->text()));
    window.whatIfTabs()->refreshAll();
    QVERIFY2(prefixTitle->text().contains(QStringLiteral("font-size:13.7pt")), qPrintable(prefixTitle->text()));

    window.presentation()->setActive(false);
    QCOMPARE(batchLabel->font().pointSizeF(), labelPt);
    QVERIFY(numbersTitle->text().contains(QStringLiteral("font-size:10.5pt")));
}

void TestTabPlots::unsweptRunIsItsOwnPoint()
{
    // The shipped chat + batch example lists no caps to sweep: its goodput plot showed nothing.
    views::ScenarioDocument document(model::defaultScenario());
    views::SimulationTab tab(&document);
    QString example;
    for (const QString& path : views::SimulationTab::examplePaths())
        if (path.contains(QStringLiteral("batch")))
            example = path;
    QVERIFY(!example.isEmpty());
    QCOMPARE(tab.loadExample(example), QString());
    QVERIFY(tab.config().sweepMaxSequences.empty());
    QSignalSpy shown(&tab, &views::SimulationTab::outcomeShown);
    tab.run();
    QVERIFY(shown.wait(120000));
    const auto outcome = tab.outcome();
    QVERIFY(outcome);
    QCPGraph* throughput = tab.capSweepPlot()->throughputGraph();
    QCPGraph* goodput = tab.capSweepPlot()->goodputGraph();
    QCOMPARE(throughput->data()->size(), 1);
    QCOMPARE(throughput->data()->at(0)->key, double(outcome->config.maxSequences));
    QCOMPARE(throughput->data()->at(0)->value, outcome->result.all.throughputTokensPerSecond);
    QCOMPARE(goodput->data()->at(0)->value, outcome->result.all.goodputFraction * 100.0);
    QVERIFY(tab.capSweepPlot()->plot()->yAxis->range().contains(outcome->result.all.throughputTokensPerSecond));
    QVERIFY2(tab.capSweepPlot()->takeaway().startsWith(QStringLiteral("This run only, at cap")),
             qPrintable(tab.capSweepPlot()->takeaway()));
}

/**
 * h14d (issue 14, J): the SLO attainment plot's y axis ran to 100.5 % (a "100.5" tick label beside a fraction that cannot
 * pass 100 %). It ends at 100 %: the top tick is 100, and only a thin unlabelled margin above keeps the 100 % points whole.
 */
void TestTabPlots::attainmentAxisEndsAt100()
{
    views::AttainmentPlot plot;
    plot.resize(640, 400);
    plot.show();
    for (const double target : {1.0, 0.95, 0.5}) {
        views::SimulationOutcome outcome;
        outcome.rateSweep.steps = 3;
        outcome.rateSweep.attainmentTarget = target;
        for (const auto& [rate, attainment] : {std::pair{1.0, 1.0}, std::pair{2.0, 1.0}, std::pair{4.0, target < 1 ? 0.8 : 1.0}}) {
            model::RatePoint point;
            point.ratePerSecond = rate;
            point.attainment = attainment;
            outcome.rateSweepResult.points.push_back(point);
        }
        outcome.rateSweepResult.maxRatePerSecond = 2.0;
        plot.showOutcome(outcome);
        QCustomPlot* p = plot.plot();
        p->replot(QCustomPlot::rpImmediateRefresh);
        const QCPRange range = p->yAxis->range();
        QVERIFY(range.upper > 100.0); // the 100 % markers are not cut in half by the axis rect's edge
        QVERIFY2(range.upper - 100.0 <= 0.05 * range.size(), qPrintable(QString::number(range.upper)));
        const QVector<double> ticks = p->yAxis->tickVector();
        QVERIFY(!ticks.isEmpty());
        QVERIFY2(*std::max_element(ticks.begin(), ticks.end()) <= 100.0 + 1e-9,
                 qPrintable(QStringLiteral("target %1: top tick %2").arg(target).arg(*std::max_element(ticks.begin(), ticks.end()))));
        QVERIFY(std::find_if(ticks.begin(), ticks.end(), [](double t) { return std::abs(t - 100.0) < 1e-9; }) != ticks.end());
        // The 100 % points whole inside the axis rect: their centre at least a marker's radius (3 px) below its top.
        QVERIFY(p->yAxis->coordToPixel(100.0) - p->axisRect()->top() >= 3.0);
    }
    QVERIFY(plot.grab().save(QStringLiteral("/tmp/ridgeline-attainment-axis.png")));
}

/**
 * At 1280 x 720 (a projector, a laptop) the SLO labels stay whole inside the t_step plot and cover
 * no point of the t_step curve, and the prefill plot's rotated reference labels ("70B P*") do not
 * print over the P* or compute-bound labels. Before: the labels hung off the markers at B = 208 and
 * ran out of the plot's left edge, and "70B P*" sat on "P* = 30,633".
 */
void TestTabPlots::floorLabelsFitAtSmallSize()
{
    MainWindow window(model::defaultScenario()); // ITL SLOs 20, 40, 100 ms; memory binds two of them
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.flushForScreenshot();

    QCustomPlot* slo = window.sloPanel()->plot();
    const QRect axes = slo->axisRect()->rect();
    QCPGraph* step = window.sloPanel()->stepGraph();
    int labels = 0;
    for (int i = 0; i < slo->itemCount(); ++i) {
        auto* label = qobject_cast<QCPItemText*>(slo->item(i));
        if (!label || !label->visible() || !label->text().contains(QStringLiteral(" ms")))
            continue;
        ++labels;
        const QRectF box = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
        QVERIFY2(QRectF(axes).adjusted(-0.5, -0.5, 0.5, 0.5).contains(box),
                 qPrintable(QStringLiteral("\"%1\" at %2,%3 %4x%5 leaves the axes %6,%7 %8x%9")
                                .arg(label->text()).arg(box.x()).arg(box.y()).arg(box.width()).arg(box.height())
                                .arg(axes.x()).arg(axes.y()).arg(axes.width()).arg(axes.height())));
        // The start of t_step (B = 1) is never under a label; further right, at this size a long label
        // can still reach the rising curve (left for later).
        const QPointF start(slo->xAxis->coordToPixel(step->data()->constBegin()->key),
                            slo->yAxis->coordToPixel(step->data()->constBegin()->value));
        QVERIFY2(!box.adjusted(1, 1, -1, -1).contains(start), qPrintable(label->text() + QStringLiteral(" covers t_step(1)")));
    }
    // Three SLO lines; at this size one label would overlap another and is hidden (h14h: tighter SLOs kept first).
    QVERIFY2(labels >= 2, qPrintable(QString::number(labels)));

    views::PrefillPlot* prefill = window.prefillPanel();
    QCPAxis* x = prefill->plot()->xAxis;
    std::vector<double> shown;
    for (int i = 0; i < prefill->plot()->itemCount(); ++i) {
        auto* label = qobject_cast<QCPItemText*>(prefill->plot()->item(i));
        if (label && label->visible() && label->rotation() != 0)
            shown.push_back(x->coordToPixel(label->position->key()));
    }
    QVERIFY(shown.size() >= 2); // P* and the compute-bound P at least
    // Every rotated label shown reads whole inside the axis rect: here "P ≥ 274: compute-bound" is longer than the plot is
    // high, and was cut at the top ("P ≥ 274: compute-"); it now shows its short form.
    const QRect prefillAxes = prefill->plot()->axisRect()->rect();
    bool shortBound = false;
    for (int i = 0; i < prefill->plot()->itemCount(); ++i) {
        auto* label = qobject_cast<QCPItemText*>(prefill->plot()->item(i));
        if (!label || !label->visible() || label->rotation() == 0)
            continue;
        const QRectF box = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
        QVERIFY2(QRectF(prefillAxes).adjusted(-0.5, -0.5, 0.5, 0.5).contains(box),
                 qPrintable(QStringLiteral("\"%1\" at %2,%3 %4x%5 leaves the axes %6,%7 %8x%9")
                                .arg(label->text()).arg(box.x()).arg(box.y()).arg(box.width()).arg(box.height())
                                .arg(prefillAxes.x()).arg(prefillAxes.y()).arg(prefillAxes.width()).arg(prefillAxes.height())));
        shortBound = shortBound || (label->text().startsWith(QStringLiteral("P \u2265")) && !label->text().contains(QLatin1Char(':')));
    }
    QVERIFY(shortBound);
    const double height = QFontMetricsF(prefill->referenceLabels().front()->font()).height();
    for (size_t a = 0; a < shown.size(); ++a)
        for (size_t b = a + 1; b < shown.size(); ++b)
            QVERIFY2(std::abs(shown[a] - shown[b]) >= height, qPrintable(QStringLiteral("%1 and %2 px").arg(shown[a]).arg(shown[b])));

    // Smaller still (900 x 600), the rotated labels shown stay whole inside (the compute-bound one hidden, "P*" alone);
    // back at 1600 x 1000 both read whole again (plotkit::fitLabels() tries a label it hid again).
    auto rotatedLabels = [prefill] {
        QStringList texts;
        const QRectF axes = QRectF(prefill->plot()->axisRect()->rect()).adjusted(-0.5, -0.5, 0.5, 0.5);
        for (int i = 0; i < prefill->plot()->itemCount(); ++i) {
            auto* label = qobject_cast<QCPItemText*>(prefill->plot()->item(i));
            if (!label || !label->visible() || label->rotation() == 0)
                continue;
            const QRectF box = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
            texts << (axes.contains(box) ? label->text() : label->text() + QStringLiteral(" (leaves the axes)"));
        }
        return texts;
    };
    window.resize(900, 600);
    window.flushForScreenshot();
    const QStringList small = rotatedLabels();
    QVERIFY2(!small.join(QLatin1Char('|')).contains(QStringLiteral("leaves")), qPrintable(small.join(QLatin1Char('|'))));
    window.resize(1600, 1000);
    window.flushForScreenshot();
    const QStringList large = rotatedLabels().filter(QStringLiteral("P"));
    QVERIFY2(large.join(QLatin1Char('|')).contains(QStringLiteral(": compute-bound")) && large.join(QLatin1Char('|')).contains(QStringLiteral("P* = ")),
             qPrintable(large.join(QLatin1Char('|'))));
}

void TestTabPlots::renderEveryTabForAPerson_data()
{
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

/**
 * For a person to look at, in the light and the dark theme (the window follows the system palette):
 * every tab of the window at 1280 x 720 as /tmp/ridgeline-tab-<theme>-<n>.png, every tab's exported
 * plots in /tmp/ridgeline-export-<theme>/, and the export dialog. Asserts only that each was drawn.
 */
void TestTabPlots::renderEveryTabForAPerson()
{
    QFETCH(bool, dark);
    const DarkSystem system(dark);
    const QString theme = dark ? QStringLiteral("dark") : QStringLiteral("light");
    {
        MainWindow window(model::defaultScenario());
        QCOMPARE(views::currentTheme().isDark(), dark);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        views::WhatIfTabs* tabs = window.whatIfTabs();
        QCOMPARE(tabs->calibrationTab()->loadExample(), QString());
        QCOMPARE(tabs->calibrationTab()->fit(), QString());
        views::SimulationTab* simulation = tabs->simulationTab();
        QCOMPARE(simulation->loadExample(views::SimulationTab::examplePaths().first()), QString());
        QSignalSpy shown(simulation, &views::SimulationTab::outcomeShown);
        simulation->run();
        QVERIFY(shown.wait(120000));
        for (int tab = 0; tab < tabs->count(); ++tab) {
            tabs->setCurrentIndex(tab);
            if (tab == views::WhatIfTabs::CalibrationTab)
                tabs->calibrationTab()->refresh();
            window.flushForScreenshot();
            const QImage image = window.grab().toImage();
            QCOMPARE(image.size(), QSize(1280, 720) * window.devicePixelRatio());
            QVERIFY(image.save(QStringLiteral("/tmp/ridgeline-tab-%1-%2.png").arg(theme).arg(tab)));
        }
        ridgeline::app::ExportOptions options;
        options.folder = QStringLiteral("/tmp/ridgeline-export-") + theme;
        options.formats = ridgeline::app::ExportFormat::Png | ridgeline::app::ExportFormat::Markdown;
        QString message;
        QVERIFY2(window.exportTo(options, &message), qPrintable(message));
        ridgeline::app::ExportDialog dialog(options, &window);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(dialog.grab().toImage().save(QStringLiteral("/tmp/ridgeline-exportdialog-%1.png").arg(theme)));
    }
}

QTEST_MAIN(TestTabPlots)
#include "tst_tabplots.moc"
