// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 18: every plot reads out, zooms, pans and has a context menu, driven by real events.
#include <cmath>

#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

#include <qcustomplot.h>

#include "app/mainwindow.h"
#include "model/cost/costmodel.h"
#include "model/cost/formulas.h"
#include "model/cost/formulatext.h"
#include "views/whatifs/capacityplot.h"
#include "views/floors/decodeplot.h"
#include "views/whatifs/kvfitplot.h"
#include "document/format.h"
#include "views/floors/kvshareplot.h"
#include "views/kit/plotinteraction.h"
#include "views/floors/prefillplot.h"
#include "views/floors/rooflineplot.h"
#include "document/scenariodocument.h"
#include "views/simulation/simulationplots.h"
#include "views/simulation/simulationtab.h"
#include "views/floors/sloplot.h"
#include "views/whatifs/speculativeplot.h"
#include "views/kit/theme.h"
#include "views/whatifs/whatifstabs.h"

namespace app = ridgeline::app;
namespace model = ridgeline::model;
namespace views = ridgeline::views;

namespace {

/** Relative difference, for values that should be the same evaluation. */
double relative(double a, double b)
{
    return std::abs(a - b) / std::max(std::abs(b), 1e-300);
}

/** Makes the tab holding @p widget current (every enclosing QTabWidget) and lays the plot out. */
void bringToFront(QWidget* widget)
{
    for (QWidget* child = widget; child && child->parentWidget(); child = child->parentWidget()) {
        QWidget* parent = child->parentWidget();
        // A QTabWidget's pages sit in its QStackedWidget.
        if (auto* tabs = qobject_cast<QTabWidget*>(parent ? parent->parentWidget() : nullptr)) {
            const int index = tabs->indexOf(child);
            if (index >= 0)
                tabs->setCurrentIndex(index);
        }
    }
    QApplication::processEvents();
    if (auto* plot = qobject_cast<QCustomPlot*>(widget))
        plot->replot(QCustomPlot::rpImmediateRefresh);
}

/** A point inside @p plot's axis rect at fraction (@p fx, @p fy) of its width and height. */
QPoint inside(QCustomPlot* plot, double fx, double fy = 0.5)
{
    const QRect rect = plot->axisRect()->rect();
    return QPoint(rect.left() + int(fx * rect.width()), rect.top() + int(fy * rect.height()));
}

void ctrlWheel(QCustomPlot* plot, const QPoint& pos, int steps, Qt::KeyboardModifiers modifiers = Qt::ControlModifier)
{
    QWheelEvent wheel(QPointF(pos), QPointF(plot->mapToGlobal(pos)), QPoint(), QPoint(0, 120 * steps), Qt::NoButton,
                      modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(plot, &wheel);
}

/** The x range of @p plot as a pair, for QCOMPARE. */
QPair<double, double> xRange(const QCustomPlot* plot)
{
    return {plot->xAxis->range().lower, plot->xAxis->range().upper};
}

/** The read-out value named @p name (empty: the unnamed one, tokens/s). */
double valueNamed(const views::Readout& readout, const QString& name)
{
    for (const views::ReadoutValue& value : readout.values)
        if (value.name == name)
            return value.value;
    qWarning("no value named %s in %s", qPrintable(name), qPrintable(readout.text()));
    return qQNaN();
}

} // namespace

class TestPlotInteraction final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
    }

    /** Hovering the decode floor reads t_step, t_mem, t_comp and tok/s at the whole B under the cursor
     *  from the model, not from the drawn sweep. */
    void decodeReadoutIsTheModelAtTheCursor()
    {
        app::MainWindow window(model::defaultScenario());
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCustomPlot* plot = window.decodePanel()->plot();
        bringToFront(plot);
        auto* interaction = views::PlotInteraction::of(plot);
        QVERIFY(interaction);

        const QPoint pos = inside(plot, 0.55);
        QTest::mouseMove(plot, pos);
        QTRY_VERIFY(interaction->isReadoutVisible());
        const views::Readout& r = interaction->readout();
        const double batch = r.key;
        QCOMPARE(batch, std::round(plot->xAxis->pixelToCoord(pos.x())));
        QVERIFY2(batch > 1, qPrintable(r.text()));
        QVERIFY(!r.interpolated);

        model::Scenario at = window.document()->evaluatedScenario();
        at.workload.batch = static_cast<int>(batch);
        const model::Evaluation e = model::evaluate(at);
        QVERIFY(relative(valueNamed(r, QStringLiteral("t_step")), model::stepSecondsAt(at, batch) * 1e3) < 1e-9);
        QVERIFY(relative(valueNamed(r, QStringLiteral("t_step")), e.decode.stepSeconds * 1e3) < 1e-9);
        QVERIFY(relative(valueNamed(r, QStringLiteral("t_mem")), e.decode.memorySeconds * 1e3) < 1e-9);
        QVERIFY(relative(valueNamed(r, QStringLiteral("t_comp")), e.decode.computeSeconds * 1e3) < 1e-9);
        QVERIFY(relative(valueNamed(r, QString()), e.decode.tokensPerSecondTotal) < 1e-9);
        QVERIFY2(r.text().startsWith(QStringLiteral("B = %1: t_step %2, %3")
                                         .arg(views::format::integer(batch), views::format::milliseconds(e.decode.stepSeconds * 1e3),
                                              views::format::tokensPerSecond(e.decode.tokensPerSecondTotal))),
                 qPrintable(r.text()));

        // Moving the mouse moves the read-out; leaving the plot hides it.
        QTest::mouseMove(plot, inside(plot, 0.8));
        QTRY_VERIFY(interaction->readout().key > batch);
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(plot, &leave);
        QVERIFY(!interaction->isReadoutVisible());
    }

    /** The other floors and the speculative plot read the model at the cursor too. */
    void floorReadoutsAreTheModel()
    {
        app::MainWindow window(model::defaultScenario());
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const model::Scenario scenario = window.document()->evaluatedScenario();

        { // SLO: t_step and tok/s at B.
            QCustomPlot* plot = window.sloPanel()->plot();
            bringToFront(plot);
            QTest::mouseMove(plot, inside(plot, 0.4));
            auto* interaction = views::PlotInteraction::of(plot);
            QTRY_VERIFY(interaction->isReadoutVisible());
            const views::Readout r = interaction->readout();
            model::Scenario at = scenario;
            at.workload.batch = static_cast<int>(r.key);
            const model::Evaluation e = model::evaluate(at);
            QVERIFY(relative(valueNamed(r, QStringLiteral("t_step")), e.decode.stepSeconds * 1e3) < 1e-9);
            QVERIFY(relative(valueNamed(r, QString()), e.decode.tokensPerSecondTotal) < 1e-9);
        }
        { // Prefill: the three FLOP curves at P.
            views::PrefillPlot* panel = window.prefillPanel();
            QCustomPlot* plot = panel->plot();
            bringToFront(plot);
            QTest::mouseMove(plot, inside(plot, 0.6));
            auto* interaction = views::PlotInteraction::of(plot);
            QTRY_VERIFY(interaction->isReadoutVisible());
            const views::Readout r = interaction->readout();
            model::Scenario at = scenario;
            at.workload.promptTokens = static_cast<int>(r.key);
            const model::Evaluation e = model::evaluate(at);
            QVERIFY(relative(valueNamed(r, QStringLiteral("total")), e.prefill.flop / 1e12) < 1e-9);
            QVERIFY(relative(valueNamed(r, QStringLiteral("linear 2NP")), e.prefill.linearFlop / 1e12) < 1e-9);
            QVERIFY(r.text().startsWith(QStringLiteral("P = ")));
        }
        { // KV share at S for the current B.
            QCustomPlot* plot = window.kvSharePanel()->plot();
            bringToFront(plot);
            QTest::mouseMove(plot, inside(plot, 0.5));
            auto* interaction = views::PlotInteraction::of(plot);
            QTRY_VERIFY(interaction->isReadoutVisible());
            const views::Readout r = interaction->readout();
            model::Scenario at = scenario;
            at.workload.contextTokens = static_cast<int>(r.key);
            const model::Evaluation e = model::evaluate(at);
            QVERIFY(relative(valueNamed(r, QStringLiteral("KV share")), e.decode.kvShare * 100.0) < 1e-9);
        }
        { // Roofline: min(F_peak, I * BW) at the intensity under the cursor.
            QCustomPlot* plot = window.rooflinePanel()->plot();
            bringToFront(plot);
            const QPoint pos = inside(plot, 0.3);
            QTest::mouseMove(plot, pos);
            auto* interaction = views::PlotInteraction::of(plot);
            QTRY_VERIFY(interaction->isReadoutVisible());
            const views::Readout r = interaction->readout();
            QVERIFY(relative(r.key, plot->xAxis->pixelToCoord(pos.x())) < 1e-12);
            const model::Evaluation e = model::evaluate(scenario);
            const double bandwidth = e.roofline.peakFlopsPerSecond / e.roofline.ridgeFlopPerByte;
            const double roof = std::min(e.roofline.peakFlopsPerSecond, r.key * bandwidth) / 1e12;
            QVERIFY(relative(valueNamed(r, QStringLiteral("peak roof")), roof) < 1e-9);
        }
        { // Capacity: sequences that fit with the advertised max context under the cursor.
            auto* panel = window.whatIfTabs()->capacityPlot(); // builds the tab
            QVERIFY(panel);
            QCustomPlot* plot = panel->plot();
            bringToFront(plot);
            QTest::mouseMove(plot, inside(plot, 0.5));
            auto* interaction = views::PlotInteraction::of(plot);
            QTRY_VERIFY(interaction->isReadoutVisible());
            const views::Readout r = interaction->readout();
            model::Scenario at = scenario;
            at.serving.maxContextTokens = static_cast<int>(r.key);
            const model::Evaluation e = model::evaluate(at);
            QCOMPARE(valueNamed(r, QStringLiteral("contiguous")), double(e.capacity.maxSequencesContiguousAtMaxContext));
            QCOMPARE(valueNamed(r, QStringLiteral("paged")), double(e.capacity.maxSequencesPaged));
        }
        { // Where the KV cache fits: the largest batch at S.
            auto* panel = window.whatIfTabs()->kvFitPlot();
            QVERIFY(panel);
            QCustomPlot* plot = panel->plot();
            bringToFront(plot);
            QTest::mouseMove(plot, inside(plot, 0.5));
            auto* interaction = views::PlotInteraction::of(plot);
            QTRY_VERIFY(interaction->isReadoutVisible());
            const views::Readout r = interaction->readout();
            model::Scenario at = scenario;
            at.workload.contextTokens = static_cast<int>(r.key);
            const model::Evaluation e = model::evaluate(at);
            QCOMPARE(valueNamed(r, QStringLiteral("largest batch that fits")), double(e.capacity.maxSequencesContiguous));
        }
        { // Speculative: the speedup formula at c_v.
            auto* panel = window.whatIfTabs()->speculativePlot(); // builds the tab
            QVERIFY(panel);
            QCustomPlot* plot = panel->plot();
            bringToFront(plot);
            QTest::mouseMove(plot, inside(plot, 0.5));
            auto* interaction = views::PlotInteraction::of(plot);
            QTRY_VERIFY(interaction->isReadoutVisible());
            const views::Readout r = interaction->readout();
            const model::Speculative& spec = scenario.speculative;
            const double speedup = model::speculativeDecoding(spec.acceptance, spec.draftTokens, spec.draftCost, r.key).speedup;
            QVERIFY(relative(valueNamed(r, QStringLiteral("speedup")), speedup) < 1e-9);
        }
    }

    /** Every plot of every tab: hover shows a read-out, Ctrl+wheel zooms, Reset view restores, the
     *  plain wheel does not zoom, and right-click opens the five actions; Copy values copies the numbers. */
    void everyPlotHoversZoomsAndRightClicks()
    {
        app::MainWindow window(model::defaultScenario());
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        int tested = 0;
        for (int tab = views::WhatIfTabs::CapacityTab; tab <= views::WhatIfTabs::PlanTab; ++tab)
            window.whatIfTabs()->ensureBuilt(tab); // built on first show otherwise
        const QList<QCustomPlot*> plots = window.findChildren<QCustomPlot*>();
        for (QCustomPlot* plot : plots) {
            bringToFront(plot);
            if (!plot->isVisible())
                continue; // e.g. the residual plots before a fit
            if (plot->objectName() == QStringLiteral("kvShareChart"))
                continue; // the KV share card's bar (Qt Charts before issue 16's nineteenth stop): tool tips, kvBarsSayTheirValues()
            auto* interaction = views::PlotInteraction::of(plot);
            QVERIFY2(interaction, qPrintable(plot->objectName()));
            ++tested;

            // Hover.
            QTest::mouseMove(plot, inside(plot, 0.5));
            QTRY_VERIFY2(interaction->isReadoutVisible(), qPrintable(plot->objectName()));
            QVERIFY2(!interaction->readout().keyText.isEmpty(), qPrintable(plot->objectName()));

            // The plain wheel leaves the view alone.
            const QPair<double, double> before = xRange(plot);
            ctrlWheel(plot, inside(plot, 0.5), 1, Qt::NoModifier);
            QCOMPARE(xRange(plot), before);
            QVERIFY(!interaction->isZoomed());

            // Ctrl+wheel zooms in: a narrower x range; Reset view appears.
            ctrlWheel(plot, inside(plot, 0.5), 2);
            const QCPRange zoomed = plot->xAxis->range();
            QVERIFY2(zoomed.size() < (before.second - before.first) * 0.999
                         || (plot->xAxis->scaleType() == QCPAxis::stLogarithmic
                             && zoomed.upper / zoomed.lower < before.second / before.first * 0.999),
                     qPrintable(plot->objectName()));
            QVERIFY(interaction->isZoomed());
            auto* reset = plot->findChild<QToolButton*>(QStringLiteral("resetViewButton"));
            QVERIFY(reset);
            QVERIFY(reset->isVisible());

            // Right click: the menu with the five actions.
            const QPoint at = inside(plot, 0.4);
            QContextMenuEvent menuEvent(QContextMenuEvent::Mouse, at, plot->mapToGlobal(at));
            QApplication::sendEvent(plot, &menuEvent);
            auto* menu = plot->findChild<QMenu*>(QStringLiteral("plotContextMenu"));
            QVERIFY(menu);
            QTRY_VERIFY(menu->isVisible());
            QStringList names;
            for (QAction* action : menu->actions())
                if (!action->isSeparator())
                    names << action->objectName();
            QCOMPARE(names, (QStringList{QStringLiteral("copyValuesAction"), QStringLiteral("copyImageAction"),
                                         QStringLiteral("exportPlotAction"), QStringLiteral("resetViewAction"),
                                         QStringLiteral("showFormulaAction")}));
            QVERIFY(menu->findChild<QAction*>(QStringLiteral("resetViewAction"))->isEnabled());
            QApplication::clipboard()->clear();
            menu->findChild<QAction*>(QStringLiteral("copyValuesAction"))->trigger();
            menu->hide();
            const QString copied = QApplication::clipboard()->text();
            QCOMPARE(copied, interaction->readout().text());
            QVERIFY2(copied.contains(QRegularExpression(QStringLiteral("\\d"))), qPrintable(copied));

            // Reset view: the range the plot set, and the button goes.
            QTest::mouseClick(reset, Qt::LeftButton);
            QCOMPARE(xRange(plot), before);
            QVERIFY(!interaction->isZoomed());
            QVERIFY(!reset->isVisible());
        }
        QVERIFY2(tested >= 12, qPrintable(QString::number(tested)));
    }

    /** The read-out's figures on the clipboard are the decode floor's exact ones. */
    void copyValuesCopiesTheNumbers()
    {
        app::MainWindow window(model::defaultScenario());
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCustomPlot* plot = window.decodePanel()->plot();
        bringToFront(plot);
        const QPoint at = inside(plot, 0.5);
        QContextMenuEvent menuEvent(QContextMenuEvent::Mouse, at, plot->mapToGlobal(at));
        QApplication::sendEvent(plot, &menuEvent);
        auto* menu = plot->findChild<QMenu*>(QStringLiteral("plotContextMenu"));
        QTRY_VERIFY(menu && menu->isVisible());
        menu->findChild<QAction*>(QStringLiteral("copyValuesAction"))->trigger();
        menu->hide();
        const double batch = std::round(plot->xAxis->pixelToCoord(at.x()));
        model::Scenario s = window.document()->evaluatedScenario();
        const QString copied = QApplication::clipboard()->text();
        const QString expected = QStringLiteral("B = %1: t_step %2")
                                     .arg(views::format::integer(batch), views::format::milliseconds(model::stepSecondsAt(s, batch) * 1e3));
        QVERIFY2(copied.startsWith(expected), qPrintable(copied + QStringLiteral(" / ") + expected));

        // Copy plot as image: an image of the plot's size.
        menu->findChild<QAction*>(QStringLiteral("copyImageAction"))->trigger();
        const QImage image = QApplication::clipboard()->image();
        QCOMPARE(image.size() / image.devicePixelRatio(), plot->size());

        // Show formula: the formulas and, for the floors, this scenario's numbers (model/cost/formulatext.h).
        menu->findChild<QAction*>(QStringLiteral("showFormulaAction"))->trigger();
        auto* box = plot->findChild<QMessageBox*>(QStringLiteral("plotFormulaBox"));
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QVERIFY2(box->text().contains(QStringLiteral("t_step = max(t_mem, t_comp)")), qPrintable(box->text()));
        const model::Evaluation& e = window.document()->evaluation();
        QVERIFY2(box->text().contains(model::stepTimeFormula(s, e).line()), qPrintable(box->text()));
        box->close();
    }

    /** Arrow keys move the read-out along B when the plot has focus; Escape hides it. */
    void keyboardMovesTheReadout()
    {
        app::MainWindow window(model::defaultScenario());
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCustomPlot* plot = window.decodePanel()->plot();
        bringToFront(plot);
        auto* interaction = views::PlotInteraction::of(plot);
        QCOMPARE(plot->focusPolicy(), Qt::StrongFocus);
        plot->setFocus();
        QTest::keyClick(plot, Qt::Key_Right); // shows it in the middle
        QVERIFY(interaction->isReadoutVisible());
        const double first = interaction->readout().key;
        QTest::keyClick(plot, Qt::Key_Right);
        QVERIFY(interaction->readout().key > first);
        QTest::keyClick(plot, Qt::Key_Left);
        QTest::keyClick(plot, Qt::Key_Left);
        QVERIFY(interaction->readout().key < first);
        // Values still the model's at the new B.
        const double batch = interaction->readout().key;
        QVERIFY(relative(valueNamed(interaction->readout(), QStringLiteral("t_step")),
                         model::stepSecondsAt(window.document()->evaluatedScenario(), batch) * 1e3) < 1e-9);
        QTest::keyClick(plot, Qt::Key_Escape);
        QVERIFY(!interaction->isReadoutVisible());
    }

    /** Zoomed axes stay put while the scenario changes; Reset view returns to the data's range, which
     *  then follows again (the same as an unzoomed window's). */
    void zoomHoldsUntilResetThenAxesFollowTheData()
    {
        app::MainWindow window(model::defaultScenario());
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCustomPlot* plot = window.decodePanel()->plot();
        bringToFront(plot);
        auto* interaction = views::PlotInteraction::of(plot);
        ctrlWheel(plot, inside(plot, 0.3, 0.3), 3);
        QVERIFY(interaction->isZoomed());
        const QCPRange zoomedY = plot->yAxis->range();

        auto longer = [](model::Scenario& s) { s.workload.contextTokens *= 8; };
        window.document()->edit(longer);
        window.document()->evaluateNow();
        QApplication::processEvents();
        QCOMPARE(plot->yAxis->range().lower, zoomedY.lower);
        QCOMPARE(plot->yAxis->range().upper, zoomedY.upper);

        app::MainWindow other(window.document()->evaluatedScenario());
        other.resize(1400, 900);
        other.show();
        QVERIFY(QTest::qWaitForWindowExposed(&other));
        QApplication::processEvents();
        const QCPRange expected = other.decodePanel()->plot()->yAxis->range();
        interaction->resetView();
        QCOMPARE(plot->yAxis->range().lower, expected.lower);
        QCOMPARE(plot->yAxis->range().upper, expected.upper);
        QVERIFY(!interaction->isZoomed());

        // Following again: the next edit moves the axis.
        window.document()->edit(longer);
        window.document()->evaluateNow();
        QApplication::processEvents();
        QVERIFY(plot->yAxis->range().upper != expected.upper);
    }

    /** A box dragged with the left button zooms to it; a middle-button drag pans. */
    void boxZoomAndPan()
    {
        app::MainWindow window(model::defaultScenario());
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCustomPlot* plot = window.sloPanel()->plot();
        bringToFront(plot);
        auto* interaction = views::PlotInteraction::of(plot);
        const QPoint from = inside(plot, 0.25, 0.25), to = inside(plot, 0.5, 0.6);
        // QRect to QRectF: the box ends a pixel past the release point.
        const double keyFrom = plot->xAxis->pixelToCoord(from.x()), keyTo = plot->xAxis->pixelToCoord(to.x() + 1);
        QTest::mousePress(plot, Qt::LeftButton, Qt::NoModifier, from);
        QTest::mouseMove(plot, inside(plot, 0.4, 0.4));
        QTest::mouseMove(plot, to);
        QTest::mouseRelease(plot, Qt::LeftButton, Qt::NoModifier, to);
        QVERIFY(interaction->isZoomed());
        QVERIFY(relative(plot->xAxis->range().lower, keyFrom) < 1e-6);
        QVERIFY2(relative(plot->xAxis->range().upper, keyTo) < 1e-6,
                 qPrintable(QStringLiteral("%1 vs %2").arg(plot->xAxis->range().upper).arg(keyTo)));

        // Middle drag to the right: the range moves left (earlier batches come into view).
        const QCPRange box = plot->xAxis->range();
        QTest::mousePress(plot, Qt::MiddleButton, Qt::NoModifier, inside(plot, 0.3));
        QTest::mouseMove(plot, inside(plot, 0.6));
        QTest::mouseRelease(plot, Qt::MiddleButton, Qt::NoModifier, inside(plot, 0.6));
        QVERIFY(plot->xAxis->range().lower < box.lower);
        QVERIFY(relative(plot->xAxis->range().upper / plot->xAxis->range().lower, box.upper / box.lower) < 1e-9);
    }

    /** The plain wheel over a plot scrolls the page around it. */
    void plainWheelScrollsThePage()
    {
        app::MainWindow window(model::defaultScenario());
        window.resize(1000, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (int tab = views::WhatIfTabs::CapacityTab; tab <= views::WhatIfTabs::PlanTab; ++tab)
            window.whatIfTabs()->ensureBuilt(tab); // built on first show otherwise
        for (QCustomPlot* plot : window.findChildren<QCustomPlot*>()) {
            bringToFront(plot);
            QScrollBar* bar = nullptr;
            for (QWidget* parent = plot->parentWidget(); parent && !bar; parent = parent->parentWidget())
                if (auto* area = qobject_cast<QAbstractScrollArea*>(parent); area && area->verticalScrollBar()->isVisible())
                    bar = area->verticalScrollBar();
            if (!plot->isVisible() || !bar || bar->value() == bar->maximum())
                continue;
            const int before = bar->value();
            ctrlWheel(plot, inside(plot, 0.5), -1, Qt::NoModifier);
            QVERIFY2(bar->value() > before, qPrintable(plot->objectName()));
            QVERIFY(!views::PlotInteraction::of(plot)->isZoomed());
            return;
        }
        QSKIP("no plot sits in a scrolled area at 1000 x 600");
    }

    /** Hovering repaints the read-out layer only: no replot of the plot's curves. */
    void hoverDoesNotReplotThePlot()
    {
        app::MainWindow window(model::defaultScenario());
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCustomPlot* plot = window.decodePanel()->plot();
        bringToFront(plot);
        QTest::mouseMove(plot, inside(plot, 0.2)); // the first one sets up the layer's paint buffer
        QApplication::processEvents();
        QSignalSpy replots(plot, &QCustomPlot::beforeReplot);
        for (int i = 0; i < 20; ++i)
            QTest::mouseMove(plot, inside(plot, 0.2 + 0.03 * i));
        QApplication::processEvents();
        QCOMPARE(replots.count(), 0);
        QVERIFY(plot->layer(QStringLiteral("readout")));
        QCOMPARE(plot->layer(QStringLiteral("readout"))->mode(), QCPLayer::lmBuffered);
    }

    /** Export this plot writes PNG, PDF, SVG and CSV files; the CSV holds the drawn points. */
    void exportThisPlot()
    {
        app::MainWindow window(model::defaultScenario());
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCustomPlot* plot = window.decodePanel()->plot();
        bringToFront(plot);
        auto* interaction = views::PlotInteraction::of(plot);
        QTemporaryDir dir;
        for (const QString& suffix : {QStringLiteral("png"), QStringLiteral("pdf"), QStringLiteral("svg"), QStringLiteral("csv")}) {
            const QString path = dir.filePath(QStringLiteral("decode.") + suffix);
            QCOMPARE(interaction->exportPlot(path), QString());
            QVERIFY2(QFileInfo(path).size() > 100, qPrintable(path));
        }
        QVERIFY(!interaction->exportPlot(dir.filePath(QStringLiteral("decode.bmpx"))).isEmpty());
        const QByteArray csv = interaction->csv();
        QVERIFY(csv.startsWith("curve,batch B (sequences),value,value axis\n"));
        const model::Evaluation& e = window.document()->evaluation();
        QVERIFY(csv.contains("t_step,1," + QByteArray::number(e.sweeps.stepMs(0), 'g', 17).left(8)));
    }

    /** With RIDGELINE_PLOT_SHOTS=<folder>: PNGs of plots with the read-out, zoomed, in the light and
     *  dark themes, for a person to look at. Skipped otherwise (asserts nothing about pixels). */
    void screenshotsForAPerson()
    {
        const QString folder = qEnvironmentVariable("RIDGELINE_PLOT_SHOTS");
        if (folder.isEmpty())
            QSKIP("set RIDGELINE_PLOT_SHOTS to a folder to render the pictures");
        for (const bool dark : {false, true}) {
            app::MainWindow window(model::defaultScenario());
            window.resize(1920, 1200);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            views::applyTheme(&window, dark ? views::Theme::dark() : views::Theme::light());
            window.refreshAll();
            QApplication::processEvents();
            const QString theme = dark ? QStringLiteral("dark") : QStringLiteral("light");
            for (int tab = views::WhatIfTabs::CapacityTab; tab <= views::WhatIfTabs::PlanTab; ++tab)
                window.whatIfTabs()->ensureBuilt(tab); // built on first show otherwise
            for (QCustomPlot* plot : window.findChildren<QCustomPlot*>()) {
                bringToFront(plot);
                if (!plot->isVisible())
                    continue;
                QTest::mouseMove(plot, inside(plot, 0.45));
                QApplication::processEvents();
                QVERIFY(plot->grab().save(QStringLiteral("%1/%2-%3-readout.png").arg(folder, theme, plot->objectName())));
                if (plot == window.decodePanel()->plot() || plot == window.sloPanel()->plot()) {
                    ctrlWheel(plot, inside(plot, 0.45, 0.4), 3);
                    QTest::mouseMove(plot, inside(plot, 0.6));
                    plot->replot(QCustomPlot::rpImmediateRefresh);
                    QVERIFY(plot->grab().save(QStringLiteral("%1/%2-%3-zoomed.png").arg(folder, theme, plot->objectName())));
                }
            }
        }
        views::setCurrentTheme(views::Theme::light());
    }

    /** Plots of data points (the simulation's) interpolate between them and say so. */
    void simulationPlotsInterpolateAndSaySo()
    {
        views::ScenarioDocument document(model::defaultScenario());
        views::SimulationTab tab(&document);
        tab.resize(1100, 760);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QCOMPARE(tab.loadExample(views::SimulationTab::examplePaths().at(0)), QString());
        tab.requestsCheckBox()->setChecked(true);
        tab.requestsSpinBox()->setValue(150);
        tab.sweepEdit()->setText(QStringLiteral("16, 32"));
        QSignalSpy shown(&tab, &views::SimulationTab::outcomeShown);
        QTest::mouseClick(tab.runButton(), Qt::LeftButton);
        QVERIFY(shown.wait(60000));
        QApplication::processEvents();

        QCustomPlot* plot = tab.latencyCdfPlot()->plot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QCPGraph* ttft = nullptr;
        for (int i = 0; i < plot->graphCount(); ++i)
            if (plot->graph(i)->name() == QStringLiteral("TTFT"))
                ttft = plot->graph(i);
        QVERIFY(ttft && ttft->data()->size() >= 2);
        // Half way between two of the curve's points (in pixels): the value lies between theirs.
        // Two neighbouring points at least 6 px apart, so the pixel between them is strictly inside.
        QCPGraphData a, b;
        bool found = false;
        for (auto it = ttft->data()->constBegin(); it + 1 != ttft->data()->constEnd() && !found; ++it) {
            const double gap = plot->xAxis->coordToPixel((it + 1)->key) - plot->xAxis->coordToPixel(it->key);
            if (gap >= 6 && it->value != (it + 1)->value) {
                a = *it;
                b = *(it + 1);
                found = true;
            }
        }
        QVERIFY(found);
        const int pixel = int(std::round((plot->xAxis->coordToPixel(a.key) + plot->xAxis->coordToPixel(b.key)) / 2));
        QTest::mouseMove(plot, QPoint(pixel, inside(plot, 0, 0.5).y()));
        auto* interaction = views::PlotInteraction::of(plot);
        QTRY_VERIFY(interaction->isReadoutVisible());
        const views::Readout r = interaction->readout();
        QVERIFY(r.interpolated);
        QVERIFY2(r.text().endsWith(QStringLiteral("(interpolated between points)")), qPrintable(r.text()));
        const double value = valueNamed(r, QStringLiteral("TTFT"));
        QVERIFY2(value >= std::min(a.value, b.value) && value <= std::max(a.value, b.value),
                 qPrintable(QStringLiteral("%1 not within [%2, %3]").arg(value).arg(a.value).arg(b.value)));
    }

    /** The KV share's bars say their values on hover. */
    void kvBarsSayTheirValues()
    {
        app::MainWindow window(model::defaultScenario());
        const model::Evaluation& e = window.document()->evaluation();
        views::KvSharePlot* panel = window.kvSharePanel();
        const QString tip = panel->barToolTip(panel->kvBars(), 0);
        QVERIFY2(tip.startsWith(QStringLiteral("KV cache: ")), qPrintable(tip));
        QVERIFY2(tip.startsWith(QStringLiteral("KV cache: %1 GB").arg(views::format::number(e.decode.kvBytes / 1e9))), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("weights %1 GB").arg(views::format::number(e.decode.weightBytes / 1e9))), qPrintable(tip));
    }
};

QTEST_MAIN(TestPlotInteraction)
#include "tst_plotinteraction.moc"
