// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/mainwindow.h"

#include <algorithm>

#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QDockWidget>
#include <QGridLayout>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "views/controlspanel.h"
#include "views/decodeplot.h"
#include "views/format.h"
#include "views/kvshareplot.h"
#include "views/numberspanel.h"
#include "views/palette.h"
#include "views/prefillplot.h"
#include "views/rooflineplot.h"
#include "views/scenariodocument.h"
#include "views/sloplot.h"

namespace ridgeline::app {

using namespace ridgeline::views;

MainWindow::MainWindow(const model::Scenario& initial, QWidget* parent)
    : QMainWindow(parent)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Ridgeline \u2014 LLM serving cost explorer"));
    m_document = new ScenarioDocument(initial, this);

    // Centre: banner above a 3 x 2 grid of cards.
    auto* central = new QWidget(this);
    central->setObjectName(QStringLiteral("centralArea"));
    central->setAutoFillBackground(true);
    QPalette centralPalette = central->palette();
    centralPalette.setColor(QPalette::Window, palette::window());
    central->setPalette(centralPalette);

    m_banner = new QLabel(central);
    m_banner->setObjectName(QStringLiteral("errorBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextFormat(Qt::PlainText);
    m_banner->setStyleSheet(QStringLiteral("QLabel { color: %1; background: %2; border: 1px solid %1;"
                                           " border-radius: 4px; padding: 6px 10px; font-weight: 600; }")
                                .arg(palette::css(palette::error()), palette::css(palette::errorBackground())));
    m_banner->setAccessibleName(tr("Scenario error"));
    m_banner->setVisible(false);

    m_decode = new DecodePlot(central);
    m_roofline = new RooflinePlot(central);
    m_kvShare = new KvSharePlot(central);
    m_prefill = new PrefillPlot(central);
    m_slo = new SloPlot(central);
    m_numbers = new NumbersPanel(central);

    auto* grid = new QGridLayout;
    grid->setSpacing(8);
    grid->addWidget(m_decode, 0, 0);
    grid->addWidget(m_roofline, 0, 1);
    grid->addWidget(m_kvShare, 0, 2);
    grid->addWidget(m_prefill, 1, 0);
    grid->addWidget(m_slo, 1, 1);
    grid->addWidget(m_numbers, 1, 2);
    for (int column = 0; column < 3; ++column)
        grid->setColumnStretch(column, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);

    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(8, 8, 8, 8);
    centralLayout->setSpacing(8);
    centralLayout->addWidget(m_banner);
    centralLayout->addLayout(grid, 1);
    setCentralWidget(central);

    // Left dock: controls in a scroll area.
    m_controls = new ControlsPanel(m_document);
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("controlsScroll"));
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    m_controlsDock = new QDockWidget(tr("Controls"), this);
    m_controlsDock->setObjectName(QStringLiteral("controlsDock"));
    m_controlsDock->setWidget(scroll);
    m_controlsDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable
                                | QDockWidget::DockWidgetFloatable);
    const int controlsWidth = m_controls->sizeHint().width() + scroll->verticalScrollBar()->sizeHint().width() + 4;
    scroll->setMinimumWidth(std::clamp(controlsWidth, 280, 340));
    addDockWidget(Qt::LeftDockWidgetArea, m_controlsDock);

    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("statusSummary"));
    statusBar()->addPermanentWidget(m_summary);
    createMenus();

    connect(m_document, &ScenarioDocument::evaluated, this, &MainWindow::refreshViews);
    connect(m_document, &ScenarioDocument::invalidChanged, this, &MainWindow::showValidity);
    refreshViews();
    showValidity(m_document->errorText());
    resize(1600, 1000);
}

QList<PlotPanel*> MainWindow::plotPanels() const
{
    return {m_decode, m_roofline, m_kvShare, m_prefill, m_slo};
}

QList<QCustomPlot*> MainWindow::plots() const
{
    QList<QCustomPlot*> out;
    for (PlotPanel* panel : plotPanels())
        out.append(panel->plot());
    return out;
}

void MainWindow::refreshViews()
{
    const model::Scenario& scenario = m_document->evaluatedScenario();
    const model::Evaluation& evaluation = m_document->evaluation();
    for (PlotPanel* panel : plotPanels())
        panel->refresh(scenario, evaluation);
    m_numbers->refresh(scenario, evaluation);
    m_summary->setText(tr("%1 on %2 \u00b7 B = %3 \u00b7 S = %4 \u00b7 P = %5")
                           .arg(QString::fromStdString(scenario.model.name), QString::fromStdString(scenario.hardware.name),
                                format::integer(scenario.workload.batch), format::integer(scenario.workload.contextTokens),
                                format::integer(scenario.workload.promptTokens)));
}

void MainWindow::showValidity(const QString& message)
{
    if (message.isEmpty()) {
        m_banner->clear();
        m_banner->setVisible(false);
        statusBar()->clearMessage();
        return;
    }
    QString lines = message;
    lines.replace(QLatin1Char('\n'), QStringLiteral("\n\u2022 "));
    m_banner->setText(tr("Not evaluated: the plots and numbers still show the last valid scenario.\n\u2022 %1").arg(lines));
    m_banner->setVisible(true);
    statusBar()->showMessage(tr("Scenario invalid: see the message above the plots."));
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setObjectName(QStringLiteral("quitAction"));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* toggleControls = m_controlsDock->toggleViewAction();
    toggleControls->setText(tr("&Controls"));
    toggleControls->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    view->addAction(toggleControls);
    QAction* toggleNumbers = view->addAction(tr("&Numbers panel"));
    toggleNumbers->setCheckable(true);
    toggleNumbers->setChecked(true);
    toggleNumbers->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    connect(toggleNumbers, &QAction::toggled, m_numbers, &QWidget::setVisible);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Ridgeline"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Ridgeline"),
                       tr("<h3>Ridgeline %1</h3>"
                          "<p>A what-if explorer for the cost of serving large language models: decode floor, "
                          "roofline, KV cache share, prefill crossover and ITL SLOs from one analytical cost model.</p>"
                          "<p>Licensed under the GNU General Public License, version 3 or later.</p>")
                           .arg(QStringLiteral(RIDGELINE_VERSION)));
}

void MainWindow::flushForScreenshot()
{
    m_document->evaluateNow();
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    refreshViews();
    for (QCustomPlot* plot : plots())
        plot->replot(QCustomPlot::rpImmediateRefresh);
    m_kvShare->chartView()->viewport()->update();
}

} // namespace ridgeline::app
