// SPDX-License-Identifier: GPL-3.0-or-later
// Presentation mode and the keyboard path a teacher uses: F11 toggles full screen and the projector
// theme, Tab reaches the batch slider with focus, Page Up moves it a decade; every control has an
// accessible name; each plot explains itself with the live values.

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QSlider>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>

#include <qcustomplot.h>

#include "app/mainwindow.h"
#include "app/presentation.h"
#include "model/cost/costmodel.h"
#include "views/kit/accessibility.h"
#include "views/controls/controlspanel.h"
#include "views/floors/decodeplot.h"
#include "views/kit/explainpanel.h"
#include "document/format.h"
#include "views/floors/numberspanel.h"
#include "document/scenariodocument.h"
#include "views/floors/sloplot.h"
#include "views/kit/theme.h"
#include "views/kit/valueslider.h"

using ridgeline::app::MainWindow;
namespace model = ridgeline::model;
namespace views = ridgeline::views;

class TestPresentation final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void f11TogglesPresentation();
    void keyboardReachesAndMovesTheBatchSlider();
    void everyControlHasAnAccessibleName();
    void plotsExplainWithLiveValues();
    void darkSystemPaletteGivesDarkPanels();
};

void TestPresentation::f11TogglesPresentation()
{
    MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QCustomPlot* plot = window.decodePanel()->plot();
    const QColor before = plot->xAxis->basePen().color();
    const double stepWidth = window.decodePanel()->stepGraph()->pen().widthF();
    const QFont tickFont = plot->xAxis->tickLabelFont();
    QLabel* stepNumber = window.numbersPanel()->valueLabel(QStringLiteral("step"));
    const double numberSize = stepNumber->font().pointSizeF();

    QTest::keyClick(&window, Qt::Key_F11);
    QVERIFY(window.presentation()->isActive());
    QVERIFY(window.windowState() & Qt::WindowFullScreen);
    QCOMPARE(views::currentTheme().kind, views::Theme::Kind::Presentation);
    // High contrast: black axes, thicker lines, larger fonts; titles scaled too.
    QCOMPARE(plot->xAxis->basePen().color(), views::Theme::presentation().color(views::Theme::Axis));
    QVERIFY(window.decodePanel()->stepGraph()->pen().widthF() > stepWidth * 1.5);
    QVERIFY(plot->xAxis->tickLabelFont().pointSizeF() > tickFont.pointSizeF() * 1.25);
    QVERIFY(stepNumber->font().pointSizeF() > numberSize * 1.25); // the numbers too
    QVERIFY2(window.decodePanel()->titleLabel()->text().contains(QStringLiteral("font-size:13.7pt")),
             qPrintable(window.decodePanel()->titleLabel()->text()));
    // The controls can be collapsed and brought back (Ctrl+1).
    QVERIFY(window.controlsDock()->isVisible());
    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
    QVERIFY(!window.controlsDock()->isVisible());
    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
    QVERIFY(window.controlsDock()->isVisible());
    // For a person to look at: the offscreen screen is small, so draw it at a projector's 1920 x 1080.
    window.setWindowState(Qt::WindowNoState);
    window.resize(1920, 1080);
    window.flushForScreenshot();
    QVERIFY(window.grab().toImage().save(QStringLiteral("/tmp/ridgeline-presentation.png")));
    window.setWindowState(Qt::WindowFullScreen);

    QTest::keyClick(&window, Qt::Key_F11);
    QVERIFY(!window.presentation()->isActive());
    QVERIFY(!(window.windowState() & Qt::WindowFullScreen));
    QCOMPARE(plot->xAxis->basePen().color(), before);
    QCOMPARE(window.decodePanel()->stepGraph()->pen().widthF(), stepWidth);
    QCOMPARE(plot->xAxis->tickLabelFont().pointSizeF(), tickFont.pointSizeF());
    QCOMPARE(stepNumber->font().pointSizeF(), numberSize);

    // Esc leaves too.
    window.presentation()->setActive(true);
    QTest::keyClick(&window, Qt::Key_Escape);
    QVERIFY(!window.presentation()->isActive());
}

void TestPresentation::keyboardReachesAndMovesTheBatchSlider()
{
    MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTRY_VERIFY(window.isStartUpFinished()); // the accessible names come after the first paint
    window.presentation()->setActive(true);
    QSlider* batch = window.controlsPanel()->batchSlider()->slider();
    window.controlsPanel()->modelPresetCombo()->setFocus(Qt::TabFocusReason);
    int presses = 0;
    while (QApplication::focusWidget() != batch && presses < 200) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        ++presses;
    }
    QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(batch));
    QVERIFY(batch->hasFocus());
    QVERIFY(window.controlsDock()->grab().toImage().save(QStringLiteral("/tmp/ridgeline-slider-focus.png")));
    QVERIFY(!batch->accessibleName().isEmpty());
    QCOMPARE(window.document()->scenario().workload.batch, 1);
    QTest::keyClick(batch, Qt::Key_PageUp);
    QCOMPARE(window.document()->scenario().workload.batch, 10);
    QTest::keyClick(batch, Qt::Key_PageUp);
    QCOMPARE(window.document()->scenario().workload.batch, 100);
    QTest::keyClick(batch, Qt::Key_Right);
    QVERIFY(window.document()->scenario().workload.batch > 100);
    QTest::keyClick(batch, Qt::Key_PageDown);
    QVERIFY(window.document()->scenario().workload.batch < 20);
    window.presentation()->setActive(false);
}

void TestPresentation::everyControlHasAnAccessibleName()
{
    MainWindow window(model::defaultScenario());
    window.show();
    QTRY_VERIFY(window.isStartUpFinished()); // the names are given after the first paint (issue 16, eleventh stop)
    // The collapsed architecture and MoE fields, built after start-up when first opened, are named when built.
    window.controlsPanel()->architectureToggle()->click();
    window.controlsPanel()->moeToggle()->click();
    QVERIFY(window.findChild<QWidget*>(QStringLiteral("expertsSpinBox")));
    QStringList unnamed;
    for (QWidget* widget : views::unnamedFocusableWidgets(&window))
        unnamed << QStringLiteral("%1 (%2 in %3 %4)")
                       .arg(widget->objectName(), QString::fromLatin1(widget->metaObject()->className()),
                            widget->parentWidget() ? widget->parentWidget()->objectName() : QString(),
                            widget->parentWidget() ? QString::fromLatin1(widget->parentWidget()->metaObject()->className()) : QString());
    QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QStringLiteral(", "))));
    // Sliders carry their scale in the description.
    QVERIFY(window.controlsPanel()->batchSlider()->slider()->accessibleDescription().contains(QStringLiteral("Page Up")));
}

void TestPresentation::plotsExplainWithLiveValues()
{
    MainWindow window(model::defaultScenario());
    window.show();
    window.document()->edit([](model::Scenario& s) { s.workload.batch = 32; });
    window.document()->evaluateNow();
    const model::Evaluation e = model::evaluate(window.document()->scenario());
    const QString stepMs = views::format::milliseconds(e.decode.stepSeconds * 1e3);
    const QString tip = window.explainPanel()->toolTipText(0);
    QVERIFY2(tip.contains(QStringLiteral("t_mem = R / (BW\u00b7\u03b7_bw)")), qPrintable(tip));
    QVERIFY2(tip.contains(stepMs), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("32")), qPrintable(tip));
    // The side panel (View > Explain the plots, F1) shows all five, refreshed while visible.
    QAction* explain = window.findChild<QAction*>(QStringLiteral("explainAction"));
    QVERIFY(explain);
    // In a 1280 px window the explanations open as a tab beside the controls: the window still fits.
    window.resize(1280, 800);
    explain->trigger();
    QVERIFY(window.explainDock()->isVisible());
    QVERIFY(window.tabifiedDockWidgets(window.controlsDock()).contains(window.explainDock()));
    window.flushForScreenshot();
    QVERIFY2(window.minimumSizeHint().width() <= 1280, qPrintable(QString::number(window.minimumSizeHint().width())));
    QCOMPARE(window.width(), 1280);
    QVERIFY(window.grab().toImage().save(QStringLiteral("/tmp/ridgeline-explain.png")));
    const QString text = window.explainPanel()->explainBrowser()->toPlainText();
    for (const char* title : {"Decode floor", "Roofline", "KV share", "Prefill crossover", "ITL SLO"})
        QVERIFY2(text.contains(QString::fromLatin1(title)), title);
    QVERIFY(text.contains(stepMs));
    window.document()->edit([](model::Scenario& s) { s.workload.batch = 64; });
    window.document()->evaluateNow();
    const QString step64 = views::format::milliseconds(model::evaluate(window.document()->scenario()).decode.stepSeconds * 1e3);
    QVERIFY(window.explainPanel()->explainBrowser()->toPlainText().contains(step64));
    // In a wide window they open beside the plots.
    explain->trigger();
    QVERIFY(!window.explainDock()->isVisible());
    window.resize(1920, 1080);
    explain->trigger();
    QCOMPARE(window.dockWidgetArea(window.explainDock()), Qt::RightDockWidgetArea);
    QVERIFY(window.tabifiedDockWidgets(window.explainDock()).isEmpty());
    // Every plot's explanation names its formula.
    QVERIFY(window.explainPanel()->toolTipText(1).contains(QStringLiteral("I* = F_peak / BW")));
    QVERIFY(window.explainPanel()->toolTipText(3).contains(QStringLiteral("P* = 2\u00b7N_active")));
    QVERIFY(window.explainPanel()->toolTipText(4).contains(QStringLiteral("B_max")));
}

void TestPresentation::darkSystemPaletteGivesDarkPanels()
{
    const QPalette original = QApplication::palette();
    QPalette dark = original;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    dark.setColor(QPalette::ButtonText, QColor(0xee, 0xee, 0xee));
    QApplication::setPalette(dark);
    {
        MainWindow window(model::defaultScenario());
        window.resize(1280, 800);
        window.show();
        QCOMPARE(views::currentTheme().kind, views::Theme::Kind::Dark);
        const QColor axis = views::Theme::dark().color(views::Theme::Axis);
        QCOMPARE(window.decodePanel()->plot()->xAxis->basePen().color(), axis);
        // The card is painted in the theme's card colour (issue 16, sixteenth stop (h16q): no style sheet; seventeenth
        // (h16s): no palette of its own either, which the widgets on it would inherit).
        const QColor darkCard = views::Theme::dark().color(views::Theme::Card);
        QCOMPARE(window.decodePanel()->grab().toImage().pixelColor(3, window.decodePanel()->height() / 2), darkCard);
        window.flushForScreenshot();
        QVERIFY(window.grab().toImage().save(QStringLiteral("/tmp/ridgeline-dark.png")));
        // Labels coloured through their palette, not a style sheet of their own (start-up, issue 16), follow
        // the theme as the style sheets do: dark, projector, and dark again.
        const QLabel* stepNumber = window.numbersPanel()->valueLabel(QStringLiteral("step"));
        const QLabel* title = window.decodePanel()->titleLabel();
        const QColor darkText = views::Theme::dark().color(views::Theme::Text);
        QCOMPARE(stepNumber->palette().color(QPalette::WindowText), darkText);
        QCOMPARE(title->palette().color(QPalette::WindowText), darkText);
        // Presentation and back: dark again, not light.
        window.presentation()->setActive(true);
        QCOMPARE(title->palette().color(QPalette::WindowText), views::Theme::presentation().color(views::Theme::Text));
        QCOMPARE(stepNumber->palette().color(QPalette::WindowText), views::Theme::presentation().color(views::Theme::Text));
        window.presentation()->setActive(false);
        QCOMPARE(views::currentTheme().kind, views::Theme::Kind::Dark);
        QCOMPARE(window.decodePanel()->plot()->xAxis->basePen().color(), axis);
        QCOMPARE(window.decodePanel()->grab().toImage().pixelColor(3, window.decodePanel()->height() / 2), darkCard);
        QCOMPARE(stepNumber->palette().color(QPalette::WindowText), darkText);
        QCOMPARE(title->palette().color(QPalette::WindowText), darkText);
    }
    QApplication::setPalette(original);
    views::setCurrentTheme(views::Theme::light());
}

QTEST_MAIN(TestPresentation)
#include "tst_presentation.moc"
