// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/mainwindow.h"

#include <algorithm>

#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QDateTime>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "model/files/hfconfig.h"
#include "model/files/inputfile.h"
#include "model/cost/scenariokeys.h"
#include "views/whatifs/comparisontable.h"
#include "views/controls/controlspanel.h"
#include "views/controls/devicedialog.h"
#include "views/floors/decodeplot.h"
#include "document/format.h"
#include "document/presetmatch.h"
#include "views/kit/glossary.h"
#include "views/kit/inlineblend.h"
#include "views/controls/hardwarecataloguedialog.h"
#include "views/floors/kvshareplot.h"
#include "views/floors/numberspanel.h"
#include "views/kit/palette.h"
#include "views/kit/plainlabel.h"
#include "views/floors/prefillplot.h"
#include "views/floors/rooflineplot.h"
#include "document/scenariodocument.h"
#include "document/scenariohistory.h"
#include "views/floors/sloplot.h"
#include "views/kit/theme.h"
#include "document/usercatalogue.h"
#include "views/whatifs/whatifstabs.h"

namespace ridgeline::app {

using namespace ridgeline::views;

namespace {

/**
 * Holds one single-line QLabel outside any layout, sized to @p sample in the label's font (again on
 * every font change, e.g. presentation mode), so that no text the label shows changes the holder's
 * size (see the status summary).
 */
class FixedLabelHolder final : public QWidget {
public:
    FixedLabelHolder(QLabel* label, const QString& sample)
        : m_label(label)
        , m_sample(sample)
    {
        label->setParent(this);
        fit();
    }

protected:
    void changeEvent(QEvent* event) override
    {
        QWidget::changeEvent(event);
        if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
            fit();
    }

    void resizeEvent(QResizeEvent* event) override
    {
        QWidget::resizeEvent(event);
        m_label->setGeometry(rect());
    }

private:
    void fit()
    {
        const QFontMetrics metrics(m_label->font());
        setFixedSize(metrics.horizontalAdvance(m_sample) + 8, std::max(metrics.height() + 4, m_label->sizeHint().height()));
    }

    QLabel* m_label;
    QString m_sample;
};

} // namespace

MainWindow::~MainWindow()
{
    // Children are destroyed after this body, in creation order; nothing they emit on the way
    // out (QUndoStack::cleanChanged, the document's signals) may reach the window's own slots.
    if (m_history)
        m_history->stack()->disconnect();
    if (m_document)
        m_document->disconnect();
}

MainWindow::MainWindow(const model::Scenario& initial, QWidget* parent)
    : QMainWindow(parent)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Ridgeline \u2014 LLM serving cost explorer"));
    setCurrentTheme(Theme::system()); // light or dark as the system; before any panel reads the palette
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
    // Its style sheet is given when it is first shown (showValidity()), not at start-up, where the style-sheet engine
    // then has none of its rules to parse and match (issue 16, sixteenth stop (h16q) in docs/performance.md).
    m_banner->setAccessibleName(tr("Scenario error"));
    m_banner->setVisible(false);

    // Notice bar: import results and catalogue problems, until closed or replaced.
    m_notice = new QFrame(central);
    m_notice->setObjectName(QStringLiteral("noticeBar"));
    m_noticeText = new QLabel(m_notice);
    m_noticeText->setObjectName(QStringLiteral("noticeLabel"));
    m_noticeText->setWordWrap(true);
    m_noticeText->setTextFormat(Qt::PlainText);
    m_noticeText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_noticeText->setAccessibleName(tr("Notice"));
    QFont noticeFont = m_noticeText->font();
    noticeFont.setPointSizeF(noticeFont.pointSizeF() * 0.92);
    m_noticeText->setFont(noticeFont);
    auto* noticeClose = new QToolButton(m_notice);
    noticeClose->setObjectName(QStringLiteral("noticeClose"));
    noticeClose->setText(QStringLiteral("\u2715"));
    noticeClose->setAutoRaise(true);
    noticeClose->setToolTip(tr("Dismiss"));
    noticeClose->setAccessibleName(tr("Dismiss the notice"));
    auto* noticeLayout = new QHBoxLayout(m_notice);
    noticeLayout->setContentsMargins(10, 4, 4, 4);
    noticeLayout->addWidget(m_noticeText, 1);
    noticeLayout->addWidget(noticeClose, 0, Qt::AlignTop);
    connect(noticeClose, &QToolButton::clicked, m_notice, &QWidget::hide);
    m_notice->setVisible(false);

    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(8, 8, 8, 8);
    centralLayout->setSpacing(8);
    centralLayout->addWidget(m_banner);
    centralLayout->addWidget(m_notice);
    // The tabs and their scroll area first, the cards then created in place: moving a widget under
    // another re-resolves its whole subtree's palette and font and sends it the changes, which re-measure
    // every label (docs/performance.md, start-up; with the style sheets the tabs and the cards had then,
    // a re-styling too). Built the other way round, the five cards and the numbers were moved three times.
    auto* floors = new QWidget;
    auto* grid = new QGridLayout(floors);
    grid->setSpacing(8);
    m_whatIfs = new WhatIfTabs(m_document, floors); // tab 1 = the grid below; issue 4's what-ifs after it
    // In a scroll area: a window narrower or shorter than the tabs' minimum (1024 x 700 beside the
    // controls) scrolls them instead of growing past the screen (issue 17).
    auto* tabsScroll = new QScrollArea(central);
    tabsScroll->setObjectName(QStringLiteral("centralScroll"));
    tabsScroll->setWidget(m_whatIfs);
    tabsScroll->setWidgetResizable(true);
    // Scroll bars drawn in strips: no raster thread-pool hand-offs in the first paint (InlineBlend::scrollBarStyle()).
    tabsScroll->verticalScrollBar()->setStyle(InlineBlend::scrollBarStyle());
    tabsScroll->horizontalScrollBar()->setStyle(InlineBlend::scrollBarStyle());
    // QScrollArea asks a widget without a layout for its height for width only when its size policy says it has one:
    // the floors' wrapped titles then count, and a short window scrolls rather than squeezing the plots
    // (WhatIfTabs::heightForWidth(); issue 16, twentieth stop).
    QSizePolicy tabsPolicy = m_whatIfs->sizePolicy();
    tabsPolicy.setHeightForWidth(true);
    m_whatIfs->setSizePolicy(tabsPolicy);
    tabsScroll->setFrameShape(QFrame::NoFrame);
    tabsScroll->setPalette(centralPalette);
    tabsScroll->viewport()->setAutoFillBackground(false);
    centralLayout->addWidget(tabsScroll, 1);
    m_whatIfs->keepTabBarInView(tabsScroll); // "Plan" reachable at 900 x 600, past the view's right edge before (issue 14)

    for (FloorPlotId id : floorPlotIds())
        m_floorPlots.append(createFloorPlot(id, floors));
    m_decode = qobject_cast<DecodePlot*>(m_floorPlots[floorPlotIndex(FloorPlotId::Decode)]);
    m_roofline = qobject_cast<RooflinePlot*>(m_floorPlots[floorPlotIndex(FloorPlotId::Roofline)]);
    m_kvShare = qobject_cast<KvSharePlot*>(m_floorPlots[floorPlotIndex(FloorPlotId::KvShare)]);
    m_prefill = qobject_cast<PrefillPlot*>(m_floorPlots[floorPlotIndex(FloorPlotId::Prefill)]);
    m_slo = qobject_cast<SloPlot*>(m_floorPlots[floorPlotIndex(FloorPlotId::Slo)]);
    for (int i = 0; i < m_floorPlots.size(); ++i) { // three to a row, in floorPlotIds() order
        grid->addWidget(m_floorPlots[i], i / 3, i % 3);
        // Where the weights do not fit, each title shows the warning instead of its takeaway (in its tool tip then):
        // the titles keep their height, so the five plots are not resized on the step that crosses the limit.
        m_floorPlots[i]->setWarningReplacesTakeaway(true);
    }
    // The numbers, or A / B / B ÷ A while a baseline is pinned.
    m_numbersCell = new QWidget(floors);
    m_numbersCell->setObjectName(QStringLiteral("numbersCell"));
    auto* numbersLayout = new QVBoxLayout(m_numbersCell);
    numbersLayout->setContentsMargins(0, 0, 0, 0);
    m_numbers = new NumbersPanel(m_numbersCell);
    numbersLayout->addWidget(m_numbers);
    // The comparison table below it is built on first use (comparisonTable()): hidden until a baseline
    // is pinned and View > Numbers as A / B checked, it was 1.9 M instructions of every start-up.
    grid->addWidget(m_numbersCell, 1, 2);
    for (int column = 0; column < 3; ++column)
        grid->setColumnStretch(column, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    setCentralWidget(central);

    // Left dock: controls in a scroll area.
    m_controls = new ControlsPanel(m_document);
    m_catalogue = new UserCatalogue(this);
    m_controls->setUserCatalogue(m_catalogue);
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("controlsScroll"));
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->verticalScrollBar()->setStyle(InlineBlend::scrollBarStyle());
    m_controlsDock = new QDockWidget(tr("Controls"), this);
    m_controlsDock->setObjectName(QStringLiteral("controlsDock"));
    m_controlsDock->setWidget(scroll);
    m_controlsDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable
                                | QDockWidget::DockWidgetFloatable);
    const int controlsWidth = m_controls->sizeHint().width() + scroll->verticalScrollBar()->sizeHint().width() + 4;
    scroll->setMinimumWidth(std::clamp(controlsWidth, 280, 340));
    addDockWidget(Qt::LeftDockWidgetArea, m_controlsDock);

    // A PlainLabel: its new text on each step is laid out once and drawn from that layout (issue 16, twenty-fourth stop).
    m_summary = new views::PlainLabel;
    m_summary->setObjectName(QStringLiteral("statusSummary"));
    m_summary->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    // Opaque (issue 16, nineteenth stop): it fills its rect with the window colour, which is all the window and the
    // status bar paint under it, so its new text on every step repaints the label alone, not the window's background,
    // the status bar and the holder under it first.
    m_summary->setAutoFillBackground(true);
    // In a holder without a layout, of a width no text changes: a new summary on every slider step
    // repaints the label, and its geometry request stops at the holder instead of re-laying out the
    // status bar and, through it, the whole window in a second paint pass.
    statusBar()->addPermanentWidget(new FixedLabelHolder(
        m_summary, QStringLiteral("Dense 88.8 B (Llama 3 family rule) on NVIDIA H100 SXM \u00b7 B = 8,888 \u00b7 S = 888,888 \u00b7 P = 888,888")));
    setupFeatures();
    createMenus();

    connect(m_document, &ScenarioDocument::evaluated, this, &MainWindow::refreshViews);
    // The floors brought up to date when their tab comes to the front (before its first paint), if a change came while
    // another tab showed.
    connect(m_whatIfs, &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab == WhatIfTabs::FloorsTab && m_floorsStale)
            refreshFloors();
    });
    connect(m_document, &ScenarioDocument::invalidChanged, this, &MainWindow::showValidity);
    refreshViews();
    showValidity(m_document->errorText());
    if (const QStringList problems = m_catalogue->loadProblems(); !problems.isEmpty())
        showNotice(problems.join(QLatin1Char('\n')), true);
    setAcceptDrops(true);
    finishFeatures();
    resize(1600, 1000);
}

QList<PlotPanel*> MainWindow::plotPanels() const
{
    return QList<PlotPanel*>(m_floorPlots.cbegin(), m_floorPlots.cend());
}

QList<QCustomPlot*> MainWindow::plots() const
{
    QList<QCustomPlot*> out;
    for (PlotPanel* panel : plotPanels())
        out.append(panel->plot());
    return out;
}

bool MainWindow::areFloorsShown() const
{
    return m_whatIfs->currentIndex() == WhatIfTabs::FloorsTab;
}

void MainWindow::refreshViews()
{
    const model::Scenario& scenario = m_document->evaluatedScenario();
    // A name a preset carries is marked "(edited)" once the model or device no longer matches it (a `--set`, a file).
    const document::ShownNames names = document::shownNames(scenario, m_catalogue);
    // Only the glyphs the new figures change are repainted (issue 16, twenty-fifth stop in docs/performance.md).
    m_summary->setTextRepaintingChanges(tr("%1 on %2 \u00b7 B = %3 \u00b7 S = %4 \u00b7 P = %5")
                           .arg(QString::fromStdString(names.model), QString::fromStdString(names.hardware),
                                format::integer(scenario.workload.batch), format::integer(scenario.workload.contextTokens),
                                format::integer(scenario.workload.promptTokens)));
    m_summary->setToolTip(m_summary->text()); // in full, should a long name not fit
    if (!areFloorsShown()) {
        // Behind another tab (the Plan tab during a drag, say) the five plots and the numbers wait: they were replotted
        // on every step unseen (docs/performance.md, "Plan tab, slider to painted"). The
        // floors tab's currentChanged() brings them up to date before its first paint; flushForScreenshot() and
        // refreshAll() (export, screenshot, theme) draw them whichever tab shows.
        m_floorsStale = true;
        refreshFeatures(); // baseline A's what-if layers and the comparison table follow as before
        return;
    }
    refreshFloors();
}

void MainWindow::refreshFloors()
{
    m_floorsStale = false;
    const model::Scenario& scenario = m_document->evaluatedScenario();
    const model::Evaluation& evaluation = m_document->evaluation();
    const QString fitWarning = weightsFitWarning(scenario, evaluation);
    for (PlotPanel* panel : plotPanels()) {
        panel->setWarning(fitWarning);
        panel->refresh(scenario, evaluation);
    }
    m_numbers->refresh(scenario, evaluation);
    refreshFeatures();
    // One paint pass per step (docs/performance.md): lay out what the new texts changed and draw
    // the queued replots now, before the Qt Charts view can dispatch the window's paint early. Not
    // while the window is hidden (the constructor's refresh): show() activates every layout at its
    // real size anyway, and these 50 requests activated them once more first (5.5 M instructions in
    // the constructor, 2.7 M of start-up in all: issue 16, ninth stop in docs/performance.md).
    // Every level of the layouts, so that a plot resized by a taller title replots once, at its new
    // size, and not once more in the next pass (issue 16, tenth stop).
    if (isVisible())
        deliverLayoutRequests();
    for (PlotPanel* panel : plotPanels())
        panel->replotNow();
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
    if (m_banner->styleSheet().isEmpty()) // the first time: in the theme in force now (applyTheme() maps it after)
        m_banner->setStyleSheet(QStringLiteral("QLabel { color: %1; background: %2; border: 1px solid %1;"
                                               " border-radius: 4px; padding: 6px 10px; font-weight: 600; }")
                                    .arg(palette::css(palette::error()), palette::css(palette::errorBackground())));
    m_banner->setText(tr("Not evaluated: the plots and numbers still show the last valid scenario.\n\u2022 %1").arg(lines));
    m_banner->setVisible(true);
    statusBar()->showMessage(tr("Scenario invalid: see the message above the plots."));
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    addFileActions(file);
    QAction* import = file->addAction(tr("&Import model config\u2026"), this, &MainWindow::importModelConfigFromDialog);
    import->setObjectName(QStringLiteral("importModelConfigAction"));
    import->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    import->setStatusTip(tr("Read a HuggingFace config.json into the model (or drop a .json file on the window)"));
    QAction* saveModel = file->addAction(tr("&Save model to my catalogue\u2026"), this, &MainWindow::saveModelToCatalogue);
    saveModel->setObjectName(QStringLiteral("saveModelAction"));
    saveModel->setStatusTip(tr("Keep the current model in your catalogue; it then appears in the model combo"));
    file->addSeparator();
    addExportActions(file);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setObjectName(QStringLiteral("quitAction"));
    addEditMenu();

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* toggleControls = m_controlsDock->toggleViewAction();
    toggleControls->setText(tr("&Controls"));
    toggleControls->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    view->addAction(toggleControls);
    QAction* toggleNumbers = view->addAction(tr("&Numbers panel"));
    toggleNumbers->setCheckable(true);
    toggleNumbers->setChecked(true);
    toggleNumbers->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    connect(toggleNumbers, &QAction::toggled, m_numbersCell, &QWidget::setVisible);
    m_whatIfs->addViewActions(view);
    addFeatureViewActions(view);

    QMenu* hardware = menuBar()->addMenu(tr("&Hardware"));
    QAction* addDevice = hardware->addAction(tr("&Add device\u2026"), this, &MainWindow::addDeviceFromDialog);
    addDevice->setObjectName(QStringLiteral("addDeviceAction"));
    addDevice->setStatusTip(tr("Add an accelerator to your catalogue, starting from the current figures"));
    QAction* editDevice = hardware->addAction(tr("&Edit device\u2026"), this, &MainWindow::editDeviceFromDialog);
    editDevice->setObjectName(QStringLiteral("editDeviceAction"));
    editDevice->setStatusTip(tr("Edit the device of yours selected in the hardware combo"));
    QAction* removeDevice = hardware->addAction(tr("&Remove device"), this, &MainWindow::removeSelectedDevice);
    removeDevice->setObjectName(QStringLiteral("removeDeviceAction"));
    removeDevice->setStatusTip(tr("Remove the device of yours selected in the hardware combo from your catalogue"));
    connect(hardware, &QMenu::aboutToShow, this, [this, editDevice, removeDevice] {
        const bool yours = m_controls->selectedUserDevice() >= 0;
        editDevice->setEnabled(yours);
        removeDevice->setEnabled(yours);
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* glossaryAction = help->addAction(tr("&Glossary: TTFT, TPOT, ITL, E2E, goodput"), this, [this] {
        QDialog* dialog = createGlossaryDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    glossaryAction->setObjectName(QStringLiteral("glossaryAction"));
    glossaryAction->setStatusTip(tr("The latency and throughput terms as vLLM's serving benchmark defines them"));
    QAction* catalogueAction = help->addAction(tr("&Hardware catalogue"), this, [this] {
        QDialog* dialog = createHardwareCatalogueDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    catalogueAction->setObjectName(QStringLiteral("hardwareCatalogueAction"));
    catalogueAction->setStatusTip(tr("Every built-in accelerator: memory, bandwidth, peaks per dtype, ridge point, power, link, source"));
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
    if (m_floorsStale)
        refreshFloors(); // behind another tab too: the export and the screenshot draw the floors
    for (QCustomPlot* plot : plots())
        plot->replot(QCustomPlot::rpImmediateRefresh);
    m_kvShare->barPlot()->replot(QCustomPlot::rpImmediateRefresh);
    m_whatIfs->flush();
}

namespace {

/** A scenario file rather than a model config: "format_version", or a "model" / "hardware" /
 *  "workload" object at the top. */
bool isScenarioJson(const QByteArray& bytes)
{
    const QJsonDocument document = QJsonDocument::fromJson(bytes);
    if (!document.isObject())
        return false;
    const QJsonObject o = document.object();
    return o.contains(QStringLiteral("format_version")) || o.value(QStringLiteral("model")).isObject()
        || o.value(QStringLiteral("hardware")).isObject() || o.value(QStringLiteral("workload")).isObject();
}

/** @p text ending in a full stop. */
QString asSentence(QString text)
{
    text = text.trimmed();
    if (!text.isEmpty() && !text.endsWith(QLatin1Char('.')))
        text += QLatin1Char('.');
    return text;
}

} // namespace

void MainWindow::showNotice(const QString& text, bool problem, const QString& status)
{
    const QColor colour = problem ? palette::error() : palette::memory();
    const QColor background = problem ? palette::errorBackground() : palette::noticeBackground();
    m_notice->setStyleSheet(QStringLiteral("QFrame#noticeBar { background: %1; border: 1px solid %2; border-radius: 4px; }"
                                           " QLabel#noticeLabel { color: %3; background: transparent; border: none; }")
                                .arg(palette::css(background), palette::css(colour), palette::css(palette::text())));
    m_noticeText->setText(text);
    m_notice->setVisible(!text.isEmpty());
    m_notice->setProperty("baselineNotice", false); // pinBaseline() marks its own
    statusBar()->showMessage(status.isEmpty() ? text.section(QLatin1Char('\n'), 0, 0) : status, 15000);
}

bool MainWindow::importModelConfig(const QString& path, QString* message)
{
    const QString shown = QDir::toNativeSeparators(QDir::cleanPath(QFileInfo(path).absoluteFilePath()));
    const QString current = QString::fromStdString(m_document->scenario().model.name);
    auto fail = [&](const QString& why) {
        const QString text = tr("Could not import %1: %2 The model stays %3.").arg(shown, asSentence(why), current);
        showNotice(text, true, tr("Import failed: see the message above the plots."));
        if (message)
            *message = text;
        return false;
    };
    QByteArray bytes;
    if (const std::string error = model::readInputFile(path, bytes); !error.empty())
        return fail(QString::fromStdString(error));
    if (isScenarioJson(bytes))
        return fail(tr("it is a Ridgeline scenario file, not a HuggingFace config.json (drop it on the window to open it)"));
    model::ImportedModel imported;
    if (const std::string error = model::importHfConfig(bytes, imported); !error.empty())
        return fail(QString::fromStdString(error));

    const QFileInfo info(path);
    const QString folder = info.absoluteDir().dirName();
    const QString name = info.fileName() == QLatin1String("config.json") && !folder.isEmpty() ? folder
                                                                                                : info.completeBaseName();
    imported.shape.name = model::oneLineText(name.toStdString());
    const model::ModelShape shape = imported.shape;
    m_document->edit([shape](model::Scenario& s) { s.model = shape; });

    // Compact: the counts on one line, the notes on the next (the bar sits above the plots).
    const QString fileShown = info.fileName() == QLatin1String("config.json") ? folder + QLatin1Char('/') + info.fileName()
                                                                          : info.fileName();
    QString text = tr("Imported \u201c%1\u201d from %2: %3 parameters in all (%4), %5 active per token (%6).")
                       .arg(name, fileShown, format::integer(imported.totalParams), format::billionParams(imported.totalParams),
                            format::integer(imported.activeParams), format::billionParams(imported.activeParams));
    QStringList notes;
    for (const std::string& note : imported.notes)
        notes.append(QString::fromStdString(note));
    if (const model::Scenario& now = m_document->scenario(); shape.maxPositionEmbeddings > 0
        && std::max(now.workload.contextTokens, now.serving.maxContextTokens) > shape.maxPositionEmbeddings)
        notes.append(tr("The context (S %1, max context %2) is longer than the model was trained for (max_position_embeddings %3); "
                        "the cost is computed all the same.")
                         .arg(format::integer(now.workload.contextTokens), format::integer(now.serving.maxContextTokens),
                              format::integer(shape.maxPositionEmbeddings)));
    if (!notes.isEmpty())
        text += QLatin1Char('\n') + tr("Notes: %1").arg(notes.join(QStringLiteral(" \u2022 ")));
    showNotice(text, false,
               tr("Imported %1: %2 parameters, %3 active per token.")
                   .arg(name, format::billionParams(imported.totalParams), format::billionParams(imported.activeParams)));
    if (message)
        *message = text;
    return true;
}

bool MainWindow::openJsonFile(const QString& path, QString* message)
{
    QByteArray bytes;
    if (!model::readInputFile(path, bytes).empty())
        return importModelConfig(path, message); // reports the unreadable file
    if (!isScenarioJson(bytes))
        return importModelConfig(path, message);
    const QString shown = QDir::toNativeSeparators(QDir::cleanPath(QFileInfo(path).absoluteFilePath()));
    model::Scenario scenario = m_document->scenario();
    QString text;
    bool ok = false;
    if (const std::string error = model::applyJsonText(scenario, bytes); !error.empty()) {
        text = tr("Could not open the scenario %1: %2 Nothing was changed.").arg(shown, asSentence(QString::fromStdString(error)));
    } else {
        m_document->setScenario(scenario);
        text = tr("Opened the scenario %1 over the current one (inputs it does not set keep their values).").arg(shown);
        ok = true;
    }
    showNotice(text, !ok);
    if (message)
        *message = text;
    return ok;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile()
        && urls.first().toLocalFile().endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    openJsonFile(urls.first().toLocalFile());
}

void MainWindow::importModelConfigFromDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import model config"), QString(),
                                                      tr("HuggingFace config (*.json);;All files (*)"));
    if (!path.isEmpty())
        importModelConfig(path);
}

bool MainWindow::addUserDevice(const model::HardwarePreset& device, QString* message)
{
    const QString error = m_catalogue->saveDevice(device);
    const QString text = error.isEmpty()
        ? tr("Added \u201c%1\u201d to your devices (%2).")
              .arg(QString::fromStdString(device.hardware.name), QDir::toNativeSeparators(UserCatalogue::hardwarePath()))
        : tr("The device was not added: %1").arg(error);
    showNotice(text, !error.isEmpty());
    if (message)
        *message = text;
    return error.isEmpty();
}

void MainWindow::addDeviceFromDialog()
{
    DeviceDialog dialog(this);
    dialog.setWindowTitle(tr("Add device"));
    model::HardwarePreset start;
    start.hardware = m_document->scenario().hardware;
    start.hardware.name.clear();
    dialog.setDevice(start);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (addUserDevice(dialog.device()))
        m_controls->selectUserDevice(int(m_catalogue->devices().size()) - 1);
}

void MainWindow::editDeviceFromDialog()
{
    const int index = m_controls->selectedUserDevice();
    if (index < 0) {
        showNotice(tr("Choose one of your devices (marked \u201c(yours)\u201d) in the hardware combo first."), true);
        return;
    }
    DeviceDialog dialog(this);
    dialog.setWindowTitle(tr("Edit device"));
    dialog.setDevice(m_catalogue->devices()[size_t(index)]);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (const QString error = m_catalogue->saveDevice(dialog.device(), index); !error.isEmpty()) {
        showNotice(tr("The device was not changed: %1").arg(error), true);
        return;
    }
    m_controls->selectUserDevice(index);
    showNotice(tr("Saved \u201c%1\u201d.").arg(QString::fromStdString(dialog.device().hardware.name)), false);
}

void MainWindow::removeSelectedDevice()
{
    const int index = m_controls->selectedUserDevice();
    if (index < 0)
        return;
    const QString name = QString::fromStdString(m_catalogue->devices()[size_t(index)].hardware.name);
    if (QMessageBox::question(this, tr("Remove device"), tr("Remove \u201c%1\u201d from your devices?").arg(name))
        != QMessageBox::Yes)
        return;
    const QString error = m_catalogue->removeDevice(index);
    showNotice(error.isEmpty() ? tr("Removed \u201c%1\u201d; the scenario keeps its figures.").arg(name)
                               : tr("The device was not removed: %1").arg(error),
               !error.isEmpty());
}

void MainWindow::saveModelToCatalogue()
{
    QString name = QString::fromStdString(m_document->scenario().model.name);
    name.remove(QStringLiteral(" (edited)"));
    bool ok = false;
    name = QInputDialog::getText(this, tr("Save model to my catalogue"), tr("Name in the model combo:"),
                                 QLineEdit::Normal, name, &ok).trimmed();
    if (!ok || name.isEmpty())
        return;
    model::ModelPreset preset;
    preset.shape = m_document->scenario().model;
    preset.shape.name = name.toStdString();
    preset.source = tr("Saved from Ridgeline on %1").arg(QDate::currentDate().toString(Qt::ISODate)).toStdString();
    if (const QString error = m_catalogue->saveModel(preset); !error.isEmpty()) {
        showNotice(tr("The model was not saved: %1").arg(error), true);
        return;
    }
    const std::string stored = preset.shape.name;
    m_document->edit([stored](model::Scenario& s) { s.model.name = stored; });
    showNotice(tr("Saved \u201c%1\u201d to your models (%2).").arg(name, QDir::toNativeSeparators(UserCatalogue::modelsPath())),
               false);
}

} // namespace ridgeline::app
