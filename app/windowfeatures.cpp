// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: scenario files and the session, undo / redo, baseline A, export, the Markdown summary,
// presentation mode and the explanations (issue 5). The rest of the window is in mainwindow.cpp.
#include "app/mainwindow.h"

#include <QAction>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLayout>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSlider>
#include <QTimer>
#include <QUndoStack>

#include "app/exportdialog.h"
#include "app/presentation.h"
#include "app/scenariofiles.h"
#include "views/kit/accessibility.h"
#include "views/whatifs/baseline.h"
#include "views/whatifs/comparisontable.h"
#include "views/kit/explainpanel.h"
#include "views/kit/plotpanel.h"
#include "views/floors/headlinefigures.h"
#include "views/floors/floorplot.h"
#include "views/floors/numberspanel.h"
#include "document/scenariodocument.h"
#include "document/scenariohistory.h"
#include "views/whatifs/whatifstabs.h"
#include "views/kit/theme.h"
#include "views/kit/wheelguard.h"

namespace ridgeline::app {

namespace {

/** Merges the changes made while any QSlider under @p root is pressed into one step of @p history (a drag is
 *  one undo step). May be called again for panels added later: each slider is tracked once. */
void trackSliders(views::ScenarioHistory* history, QWidget* root)
{
    for (QSlider* slider : root->findChildren<QSlider*>()) {
        if (slider->property("ridgelineHistoryTracked").toBool())
            continue;
        slider->setProperty("ridgelineHistoryTracked", true);
        QObject::connect(slider, &QSlider::sliderPressed, history, &views::ScenarioHistory::beginGesture);
        QObject::connect(slider, &QSlider::sliderReleased, history, &views::ScenarioHistory::endGesture);
    }
}

} // namespace

using namespace ridgeline::views;

void MainWindow::setupFeatures()
{
    m_history = new ScenarioHistory(m_document, this);
    m_files = new ScenarioFiles(this, m_history);
    m_baseline = new BaselineOverlay(floorPlots(), this);
    connect(m_whatIfs, &WhatIfTabs::tabRefreshed, m_baseline, &BaselineOverlay::afterRefresh);
    // A tab built after start (on first show) gets what finishFeatures() gave every widget then.
    connect(m_whatIfs, &WhatIfTabs::tabBuilt, this, [this](int, QWidget* page) {
        trackSliders(m_history, page);
        fillAccessibleNames(page);
    });
    // The notice about a pinned baseline belongs to the document it was pinned in.
    connect(m_files, &ScenarioFiles::startedAgain, this, [this] {
        m_notice->hide();
        m_noticeText->clear();
    });
    m_presentation = new Presentation(this);

    m_explain = new ExplainPanel(m_document, floorPlots());
    m_explainDock = new QDockWidget(tr("What the plots show"), this);
    m_explainDock->setObjectName(QStringLiteral("explainDock"));
    m_explainDock->setWidget(m_explain);
    m_explainDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable
                               | QDockWidget::DockWidgetFloatable);
    // Starts as a tab beside the controls, where it never widens the window (1280 px has no width to
    // spare); View > Explain the plots moves it beside the plots when the window is wide.
    addDockWidget(Qt::LeftDockWidgetArea, m_explainDock);
    tabifyDockWidget(m_controlsDock, m_explainDock);
    m_explainDock->hide();

    m_exportOptions.folder = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                                 .absoluteFilePath(QStringLiteral("Ridgeline exports"));
    m_exportOptions.dpi = 192;
}

void MainWindow::finishFeatures()
{
    trackSliders(m_history, this);
    // The accessible names wait for the first painted frame (finishStartUp()).
    installSliderFocusFrame(this);
    WheelGuard::install(this); // the wheel edits only a focused control; elsewhere it scrolls the panel
}

bool MainWindow::event(QEvent* event)
{
    if (event->type() == QEvent::Show && !m_firstPaintSeen) {
        // The layout requests the first show() left posted (labels' boxes fitted to their texts, the numbers' scroll
        // area) are delivered now, before the first frame: delivered after the window's first expose, they moved the
        // dock's separator, the numbers scroll bar and the tab bar, and a second paint pass repainted them right after
        // the first (issue 16, thirtieth stop in docs/performance.md).
        const bool handled = QMainWindow::event(event);
        views::deliverLayoutRequests();
        return handled;
    }
    if (event->type() == QEvent::Paint && !m_firstPaintSeen) {
        m_firstPaintSeen = true;
        // A zero timer runs in a later event-loop pass than this paint: the frame is on screen first.
        QTimer::singleShot(0, this, &MainWindow::finishStartUp);
    }
    return QMainWindow::event(event);
}

void MainWindow::finishStartUp()
{
    if (m_startUpFinished)
        return;
    m_startUpFinished = true;
    // The names a screen reader reads for each control (2.8 M instructions, issue 16 eleventh stop): a what-if tab
    // built before this got its names when built (tabBuilt), and names already set are kept.
    fillAccessibleNames(this);
}

void MainWindow::addFileActions(QMenu* file)
{
    m_files->addActions(file);
    file->addSeparator();
}

void MainWindow::addExportActions(QMenu* file)
{
    QAction* exportAction = file->addAction(tr("&Export plots, data and summary\u2026"), this, &MainWindow::exportFromDialog);
    exportAction->setObjectName(QStringLiteral("exportAction"));
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportAction->setStatusTip(tr("Every plot and the dashboard to PNG, PDF and SVG, the curves to CSV, a Markdown summary"));
}

void MainWindow::addEditMenu()
{
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_history->stack()->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("undoAction"));
    undo->setShortcut(QKeySequence::Undo);
    edit->addAction(undo);
    QAction* redo = m_history->stack()->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("redoAction"));
    QList<QKeySequence> redoKeys{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)};
    for (const QKeySequence& key : QKeySequence::keyBindings(QKeySequence::Redo))
        if (!redoKeys.contains(key))
            redoKeys.append(key);
    redo->setShortcuts(redoKeys);
    edit->addAction(redo);
    edit->addSeparator();

    QAction* copy = edit->addAction(tr("Copy &summary (Markdown)"), this, [this] { copySummary(); });
    copy->setObjectName(QStringLiteral("copySummaryAction"));
    copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copy->setStatusTip(tr("Copy the scenario, the takeaways and the headline figures as Markdown, to paste into a document"));
    edit->addSeparator();

    m_pinAction = edit->addAction(tr("&Pin as baseline A"), this, &MainWindow::pinBaseline);
    m_pinAction->setObjectName(QStringLiteral("pinBaselineAction"));
    m_pinAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    m_pinAction->setStatusTip(tr("Keep the current scenario as A, dashed in the Floors plots and the capacity, KV-fit and speculative plots, and compare the live scenario B with it"));
    // N-way comparison (issue 14): pin again and again (A to F), unpin one, clear all.
    m_pinNextAction = edit->addAction(tr("Pin as &next scenario (B, C, …)"), this, [this] { pinNext(); });
    m_pinNextAction->setObjectName(QStringLiteral("pinNextAction"));
    m_pinNextAction->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_B));
    m_pinNextAction->setStatusTip(tr("Keep the current scenario too, beside those already pinned (up to six, A to F), each in a "
                                     "colour and dash of its own, and compare them all in the plots and the numbers"));
    m_unpinMenu = edit->addMenu(tr("&Unpin"));
    m_unpinMenu->setObjectName(QStringLiteral("unpinMenu"));
    m_unpinMenu->setEnabled(false);
    m_clearAction = edit->addAction(tr("C&lear baseline"), this, &MainWindow::clearBaseline);
    m_clearAction->setObjectName(QStringLiteral("clearBaselineAction"));
    m_clearAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    m_clearAction->setStatusTip(tr("Unpin every pinned scenario"));
    m_clearAction->setEnabled(false);
}

void MainWindow::syncPinned()
{
    // After every pin, unpin and clear: the table's columns, the actions, the Unpin menu.
    const bool pinned = m_baseline->isPinned();
    if (m_comparison) // else given the pinned scenarios when built
        m_comparison->setPinned(m_baseline->pinned());
    m_clearAction->setEnabled(pinned);
    m_clearAction->setText(m_baseline->count() > 1 ? tr("C&lear all pinned") : tr("C&lear baseline"));
    m_compareAction->setEnabled(pinned);
    m_compareAction->setText(m_baseline->count() > 1 ? tr("Numbers as &comparison") : tr("Numbers as &A / B"));
    m_pinAction->setText(m_baseline->pinned().at(0) ? tr("Re&pin as baseline A") : tr("&Pin as baseline A"));
    m_pinNextAction->setEnabled(!m_baseline->pinned().isFull());
    m_unpinMenu->clear();
    for (const document::PinnedScenario& p : m_baseline->pinned().items()) {
        const int slot = p.slot;
        QAction* unpinAction = m_unpinMenu->addAction(m_baseline->label(slot), this, [this, slot] { unpin(slot); });
        unpinAction->setObjectName(QStringLiteral("unpinAction") + pinnedLetter(slot));
    }
    m_unpinMenu->setEnabled(pinned);
    if (!pinned) {
        updateNumbersCell();
        return;
    }
    if (m_compareAction->isChecked())
        updateNumbersCell();
    else
        m_compareAction->setChecked(true);
}

int MainWindow::pinNext(const QString& source)
{
    m_document->evaluateNow();
    const bool invalid = !m_document->errorText().isEmpty();
    if (m_baseline->pinned().isFull()) {
        showNotice(tr("Six scenarios are pinned already (A to F): Edit > Unpin one first."), true);
        return -1;
    }
    m_baseline->setWhatIfPanels(m_whatIfs->capacityPlot(), m_whatIfs->kvFitPlot(), m_whatIfs->speculativePlot());
    const int slot = m_baseline->pinNext(m_document->evaluatedScenario(), source);
    syncPinned();
    showNotice(tr("Pinned %1%2: %3 scenarios in %4, with every one's figures and ratios to %5 in the numbers; "
                  "Edit > Unpin takes one off.")
                   .arg(m_baseline->label(slot),
                        invalid ? tr(" (the last valid scenario: the current one is invalid)") : QString(),
                        QString::number(m_baseline->count()), m_baseline->plotNames(),
                        pinnedLetter(m_baseline->pinned().first()->slot)),
               false, tr("Pinned %1").arg(m_baseline->label(slot)));
    m_notice->setProperty("baselineNotice", true);
    return slot;
}

void MainWindow::restorePinned(const std::vector<model::Scenario>& scenarios)
{
    m_baseline->setWhatIfPanels(m_whatIfs->capacityPlot(), m_whatIfs->kvFitPlot(), m_whatIfs->speculativePlot());
    for (const model::Scenario& s : scenarios)
        if (!m_baseline->pinned().isFull() && model::validate(s).empty())
            m_baseline->pinNext(s);
    syncPinned();
}

bool MainWindow::unpin(int slot)
{
    const QString label = m_baseline->label(slot);
    if (!m_baseline->unpin(slot))
        return false;
    syncPinned();
    if (!m_baseline->isPinned() && m_notice->property("baselineNotice").toBool()) {
        m_notice->hide();
        m_noticeText->clear();
    }
    statusBar()->showMessage(tr("Unpinned %1.").arg(label), 5000);
    return true;
}

void MainWindow::addFeatureViewActions(QMenu* view)
{
    view->addSeparator();
    view->addAction(m_presentation->action());
    QAction* explain = m_explainDock->toggleViewAction();
    explain->setText(tr("&Explain the plots"));
    explain->setObjectName(QStringLiteral("explainAction"));
    explain->setShortcut(QKeySequence(Qt::Key_F1));
    explain->setStatusTip(tr("What each plot shows, its formulas with the live values (also on hover over a plot's title)"));
    view->addAction(explain);
    // Beside the plots in a wide window; in a narrow one (1280 px has no width to spare) a tab beside
    // the controls. A floating dock stays where the user put it.
    connect(explain, &QAction::triggered, this, [this](bool checked) {
        if (!checked || m_explainDock->isFloating())
            return;
        if (width() >= 1600) {
            if (dockWidgetArea(m_explainDock) != Qt::RightDockWidgetArea || !tabifiedDockWidgets(m_explainDock).isEmpty())
                addDockWidget(Qt::RightDockWidgetArea, m_explainDock);
        } else if (!tabifiedDockWidgets(m_controlsDock).contains(m_explainDock)) {
            tabifyDockWidget(m_controlsDock, m_explainDock);
        }
        m_explainDock->show();
        m_explainDock->raise();
    });
    m_compareAction = view->addAction(tr("Numbers as &A / B"));
    m_compareAction->setObjectName(QStringLiteral("compareNumbersAction"));
    m_compareAction->setCheckable(true);
    m_compareAction->setEnabled(false);
    m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_3));
    m_compareAction->setStatusTip(tr("While a baseline is pinned: the numbers panel shows A, B and B \u00f7 A"));
    connect(m_compareAction, &QAction::toggled, this, &MainWindow::updateNumbersCell);
}

void MainWindow::updateNumbersCell()
{
    const bool compare = m_baseline && m_baseline->isPinned() && m_compareAction && m_compareAction->isChecked();
    m_numbers->setVisible(!compare);
    if (compare || m_comparison)
        comparisonTable()->setVisible(compare);
    if (compare)
        m_comparison->refresh(m_document->evaluatedScenario(), m_document->evaluation());
}

ComparisonTable* MainWindow::comparisonTable() const
{
    if (!m_comparison)
        const_cast<MainWindow*>(this)->buildComparisonTable(); // logically const: the table existed all along
    return m_comparison;
}

void MainWindow::buildComparisonTable()
{
    // Built as at start, in the system's theme, then taken into the theme shown (presentation mode), as
    // Presentation took the rest of the window.
    const Theme shown = currentTheme();
    const Theme base = Theme::system();
    const bool themed = shown.kind != base.kind || shown.fontScale != base.fontScale;
    if (themed)
        setCurrentTheme(base);
    // Themed before it joins the numbers cell: inside it, it would inherit the cell's scaled font and be scaled a second
    // time (fonts propagate from parents since the tab widget lost its style sheet, docs/performance.md, h16s).
    m_comparison = new ComparisonTable;
    m_comparison->setVisible(false);
    if (themed) {
        scaleFonts(m_comparison, shown.fontScale / base.fontScale);
        applyTheme(m_comparison, shown); // makes it current again
    }
    m_numbersCell->layout()->addWidget(m_comparison);
    if (m_baseline)
        m_comparison->setPinned(m_baseline->pinned());
}

void MainWindow::refreshFeatures()
{
    if (!m_baseline)
        return;
    m_baseline->afterRefresh();
    if (m_comparison && m_comparison->isVisible())
        m_comparison->refresh(m_document->evaluatedScenario(), m_document->evaluation());
}

void MainWindow::refreshAll()
{
    for (PlotPanel* panel : plotPanels())
        panel->redrawOnNextRefresh(); // e.g. the theme's font scale: not an input refresh() compares
    refreshViews();
    if (m_floorsStale)
        refreshFloors(); // behind another tab too: everything current after a theme or presentation change
    m_whatIfs->redrawOnNextRefresh();
    m_whatIfs->refresh();
    m_explain->refresh();
}

void MainWindow::pinBaseline()
{
    m_document->evaluateNow();
    const bool invalid = !m_document->errorText().isEmpty();
    // A is drawn on these what-if plots too: their tabs are built now if they were not yet.
    m_baseline->setWhatIfPanels(m_whatIfs->capacityPlot(), m_whatIfs->kvFitPlot(), m_whatIfs->speculativePlot());
    m_baseline->pin(m_document->evaluatedScenario());
    syncPinned();
    showNotice(tr("Pinned %1 as baseline A%2: dashed in %3, with A, B and B \u00f7 A in the numbers. Change the "
                  "hardware, precision or model to see B against it; Edit > Clear baseline removes it.")
                   .arg(scenarioName(m_baseline->pinned().at(0)->baseline.scenario()),
                        invalid ? tr(" (the last valid scenario: the current one is invalid)") : QString(),
                        m_baseline->plotNames()),
               false, tr("Baseline A: %1").arg(scenarioName(m_baseline->pinned().at(0)->baseline.scenario())));
    m_notice->setProperty("baselineNotice", true);
}

void MainWindow::clearBaseline()
{
    m_baseline->clear();
    syncPinned();
    if (m_notice->property("baselineNotice").toBool()) { // "Pinned ... as baseline A" is no longer true
        m_notice->hide();
        m_noticeText->clear();
    }
    statusBar()->showMessage(tr("Baseline cleared."), 5000);
}

QString MainWindow::copySummary()
{
    m_document->evaluateNow();
    const QString markdown = summaryMarkdown(*this);
    auto* mime = new QMimeData;
    mime->setText(markdown);
    mime->setData(QStringLiteral("text/markdown"), markdown.toUtf8());
    QGuiApplication::clipboard()->setMimeData(mime);
    statusBar()->showMessage(tr("Summary copied as Markdown: paste it into a document."), 8000);
    return markdown;
}

bool MainWindow::exportTo(const ExportOptions& options, QString* message)
{
    QStringList written;
    const QString error = exportAll(*this, options, &written);
    const QString folder = QDir::toNativeSeparators(QDir(options.folder).absolutePath());
    const QString text = error.isEmpty()     ? tr("Exported %n file(s) to %1.", nullptr, int(written.size())).arg(folder)
                         : written.isEmpty() ? tr("Export refused: %1.").arg(error)
                                             : tr("Export stopped: %1 (%2 file(s) written before it).").arg(error).arg(written.size());
    showNotice(text, !error.isEmpty());
    if (message)
        *message = text;
    return error.isEmpty();
}

void MainWindow::exportFromDialog()
{
    ExportDialog dialog(m_exportOptions, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ExportOptions options = dialog.options();
    m_exportOptions = options;
    const QStringList targets = exportTargets(*this, options);
    if (!exportPreflight(options.folder, targets).isEmpty()) {
        exportTo(options); // says why, writing nothing: no question about replacing files that will not be written
        return;
    }
    QStringList existing;
    for (const QString& path : targets)
        if (QFileInfo::exists(path))
            existing << QFileInfo(path).fileName();
    if (!existing.isEmpty()) {
        QStringList shown = existing.mid(0, 8);
        if (existing.size() > 8)
            shown << tr("and %1 more").arg(existing.size() - 8);
        const auto answer = QMessageBox::question(
            this, tr("Replace files?"),
            tr("%n file(s) already exist in %1:\n%2\n\nReplace them?", nullptr, int(existing.size()))
                .arg(QDir::toNativeSeparators(options.folder), shown.join(QStringLiteral(", "))),
            QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
        if (answer != QMessageBox::Yes)
            return;
    }
    exportTo(options);
}

void MainWindow::startInteractiveSession(const QString& scenarioFile, bool restoreScenario)
{
    m_files->enableSession(restoreScenario);
    if (!scenarioFile.isEmpty()) {
        m_history->reset();
        m_files->setCurrentPath(scenarioFile);
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_files->maybeSave()) {
        event->ignore();
        return;
    }
    if (m_presentation->isActive())
        m_presentation->setActive(false);
    m_files->saveSession();
    event->accept();
}

} // namespace ridgeline::app
