// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QMainWindow>

#include "app/export.h"
#include "app/exportsource.h"
#include "model/cost/presets.h"
#include "model/cost/scenario.h"

class QAction;
class QCustomPlot;
class QDockWidget;
class QMenu;
class QFrame;
class QLabel;

namespace ridgeline::views {
class BaselineOverlay;
class ComparisonTable;
class ControlsPanel;
class DecodePlot;
class ExplainPanel;
class FloorPlot;
class KvSharePlot;
class NumbersPanel;
class PlainLabel;
class PlotPanel;
class PrefillPlot;
class RooflinePlot;
class ScenarioDocument;
class ScenarioHistory;
class SloPlot;
class UserCatalogue;
class WhatIfTabs;
} // namespace ridgeline::views

namespace ridgeline::app {

class Presentation;
class ScenarioFiles;

/**
 * The main window: the controls dock on the left, an error banner above a 3 x 2 grid of the five
 * plot panels and the numbers panel, a status bar and the File / View / Help menus.
 *
 * Owns the one views::ScenarioDocument. On every evaluated() it refreshes each panel from the
 * document's evaluatedScenario() and evaluation(); on invalidChanged() it shows or hides the
 * banner (the plots keep the last valid evaluation).
 *
 * For a headless screenshot: resize(), show(), then flushForScreenshot(), then grab().
 *
 * Real models and devices: File > Import model config (or a .json dropped on the window) reads a
 * HuggingFace config.json into the scenario's model (importModelConfig()); a dropped scenario file
 * is applied over the current scenario (openJsonFile()). Hardware > Add / Edit / Remove device and
 * File > Save model to my catalogue keep the user's own entries in a views::UserCatalogue; a
 * catalogue file that cannot be read is reported once in the notice bar and ignored.
 *
 * Issue 5 (app/windowfeatures.cpp): File > New / Open / Open Recent / Save / Save As (ScenarioFiles,
 * the title's unsaved mark, the session once startInteractiveSession() enabled it), Edit > Undo / Redo
 * (views::ScenarioHistory), Copy summary, Pin as baseline A / Clear baseline (views::BaselineOverlay,
 * the numbers as A / B in views::ComparisonTable), File > Export, View > Presentation (F11) and
 * Explain the plots (F1).
 */
class MainWindow final : public QMainWindow, public ExportSource {
    Q_OBJECT

public:
    explicit MainWindow(const model::Scenario& initial, QWidget* parent = nullptr);

    /**
     * Disconnects the undo stack before the children go: QUndoStack emits cleanChanged from its
     * own destructor, and the title update it would trigger must not reach a half-destroyed window.
     */
    ~MainWindow() override;

    /** The document every control edits and every view reads. */
    views::ScenarioDocument* document() const override { return m_document; }

    /**
     * Makes the window fully drawn now: evaluates any pending edit, delivers posted events
     * (layouts, Qt Charts), refreshes every panel and replots every QCustomPlot with
     * rpImmediateRefresh. Call after show() and before grab().
     */
    void flushForScreenshot() override;

    views::ControlsPanel* controlsPanel() const { return m_controls; }
    QDockWidget* controlsDock() const { return m_controlsDock; }
    views::DecodePlot* decodePanel() const { return m_decode; }
    views::RooflinePlot* rooflinePanel() const { return m_roofline; }
    views::KvSharePlot* kvSharePanel() const { return m_kvShare; }
    views::PrefillPlot* prefillPanel() const { return m_prefill; }
    views::SloPlot* sloPanel() const { return m_slo; }
    views::NumbersPanel* numbersPanel() const { return m_numbers; }
    /** The five floor plots, in views::floorPlotIds() order. */
    QList<views::FloorPlot*> floorPlots() const override { return m_floorPlots; }
    /** floorPlots() as their plot panels. */
    QList<views::PlotPanel*> plotPanels() const;
    /** Every QCustomPlot of the window, in plot order. */
    QList<QCustomPlot*> plots() const;
    /** The red banner above the plots ("errorBanner"); hidden while the scenario is valid. */
    QLabel* errorBanner() const { return m_banner; }
    /** The centre's tabs: "Floors" (the grid) and the what-if tabs (capacity, workload, triage). */
    views::WhatIfTabs* whatIfTabs() const override { return m_whatIfs; }

    /**
     * Imports the HuggingFace config.json at @p path: on success the scenario's model is replaced
     * by the imported shape (weights and KV bf16, as the import notes say), named after the folder
     * when the file is called config.json, else after the file's base name; the notice bar and the
     * status bar then list the total and active parameter counts and the import notes. On failure
     * (unreadable file, a scenario file, a field the import rejects) the model stays as it was and
     * the message names the file and the field. No dialog is shown either way.
     * @param message receives the text shown (may be nullptr)
     * @return true when the model was replaced
     */
    bool importModelConfig(const QString& path, QString* message = nullptr);

    /**
     * Opens a JSON file as dropped on the window: a scenario file (it has "format_version" or a
     * "model" / "hardware" / "workload" object) is applied over the current scenario with
     * model::applyJsonText (keys it lacks keep their values); anything else goes to
     * importModelConfig(). Reports like importModelConfig().
     */
    bool openJsonFile(const QString& path, QString* message = nullptr);

    /**
     * Adds @p device to the user's hardware catalogue (hardware.json in AppDataLocation) without
     * selecting it. Values UserCatalogue::checkDevice() rejects are refused with the field named.
     */
    bool addUserDevice(const model::HardwarePreset& device, QString* message = nullptr);

    /** The user's devices and models (owned by the window). */
    views::UserCatalogue* userCatalogue() const { return m_catalogue; }

    /** The text of the notice bar above the plots ("noticeLabel"): import results and catalogue
     *  problems; the bar ("noticeBar") is hidden when there is nothing to say or after its close button. */
    QLabel* noticeLabel() const { return m_noticeText; }

    /** Shows @p text in the notice bar (red when @p problem) and @p status in the status bar for
     *  15 s (empty: the first line of @p text). */
    void showNotice(const QString& text, bool problem, const QString& status = QString());

    /** Undo history of every input change (Edit > Undo / Redo). */
    views::ScenarioHistory* history() const { return m_history; }
    /** File > New / Open / Save, the title, the session. */
    ScenarioFiles* files() const { return m_files; }
    /** Baseline A drawn dashed in the plots of the cost model (Edit > Pin as baseline A; BaselineOverlay::plotNames()). */
    views::BaselineOverlay* baseline() const override { return m_baseline; }
    /** The numbers as A / B / B ÷ A, in place of the numbers panel while a baseline is pinned; built on
     *  first use (this call, or the first time it is shown): hidden until then (issue 16, ninth stop). */
    views::ComparisonTable* comparisonTable() const;
    /** "What the plots show" (View > Explain the plots) and its dock. */
    views::ExplainPanel* explainPanel() const { return m_explain; }
    QDockWidget* explainDock() const { return m_explainDock; }
    /** View > Presentation (F11). */
    Presentation* presentation() const { return m_presentation; }

    /** Makes the current (last valid) scenario baseline A: evaluated once, drawn dashed in the plots BaselineOverlay::plotNames() lists. */
    void pinBaseline();
    /** Removes every pinned scenario (baseline A and the others of an N-way comparison). */
    void clearBaseline();
    /** Pins the current (last valid) scenario too, into the next free slot (B, C, ... up to F; Edit > Pin as next
     *  scenario): drawn in its own colour and dash beside the others. Returns the slot (0 = A), or -1 when six are pinned.
     *  @p source: the file it came from ("fast.json", --compare), named in its label when another pin reads the same. */
    int pinNext(const QString& source = {});
    /** Pins @p scenarios (each valid) in order into the free slots, quietly (no notice): the session's pinned
     *  scenarios at start-up (ScenarioFiles::enableSession). Those beyond six, and invalid ones, are skipped. */
    void restorePinned(const std::vector<model::Scenario>& scenarios);
    /** Unpins the scenario in @p slot (Edit > Unpin); false when none is pinned there. */
    bool unpin(int slot);
    /** The Markdown summary of the scenario (and of A / B when pinned), also put on the clipboard. */
    QString copySummary();
    /** Exports into options.folder, overwriting; reports in the notice bar. */
    bool exportTo(const ExportOptions& options, QString* message = nullptr);
    /** The interactive GUI only: reads and writes the user's settings (ScenarioFiles::enableSession);
     *  @p scenarioFile given on the command line becomes the current file and wins over the restored one. */
    void startInteractiveSession(const QString& scenarioFile, bool restoreScenario);
    /** Redraws every panel, the what-if tabs and the explanations from the document (after a theme change). */
    void refreshAll();
    /**
     * True once the work the first frame does not show has run: the accessible names and descriptions of the
     * window's controls (views::fillAccessibleNames()). It runs in the event-loop pass after the window's first
     * Paint event, so that it is not part of the time to the first painted window (issue 16, eleventh stop in
     * docs/performance.md); a window never painted (a screenshot, an export) never needs it.
     */
    bool isStartUpFinished() const { return m_startUpFinished; }

protected:
    /** The first Paint event the window receives queues finishStartUp() (a zero timer: the next event-loop pass). */
    bool event(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    /** Asks Save / Discard / Cancel when there are unsaved changes; saves the session when enabled. */
    void closeEvent(QCloseEvent* event) override;

private:
    /** On the document's evaluated(): the status-bar summary, baseline A's layers, and the floors page (five plots and
     *  the numbers, refreshFloors()) while it is the current tab; behind another tab the floors are marked stale and
     *  refreshed when their tab is shown (or by flushForScreenshot() / refreshAll()). */
    void refreshViews();
    /** Refreshes the five floor plots and the numbers from the document and replots them now, whichever tab shows. */
    void refreshFloors();
    /** True while the floors page (tab 1 of whatIfTabs()) is the current tab. */
    bool areFloorsShown() const;
    void showValidity(const QString& message);
    void createMenus();
    void showAbout();
    void importModelConfigFromDialog();
    void addDeviceFromDialog();
    void editDeviceFromDialog();
    void removeSelectedDevice();
    void saveModelToCatalogue();
    // windowfeatures.cpp
    void setupFeatures();
    void finishFeatures();
    /** What start-up leaves until after the first painted frame (isStartUpFinished()). */
    void finishStartUp();
    void addFileActions(QMenu* file);
    void addExportActions(QMenu* file);
    void addEditMenu();
    void addFeatureViewActions(QMenu* view);
    void updateNumbersCell();
    /** Makes m_comparison, hidden, below the numbers panel, in the theme shown (as WhatIfTabs::buildTab()). */
    void buildComparisonTable();
    void syncPinned();
    void refreshFeatures();
    void exportFromDialog();

    views::ScenarioDocument* m_document = nullptr;
    views::ControlsPanel* m_controls = nullptr;
    QDockWidget* m_controlsDock = nullptr;
    views::DecodePlot* m_decode = nullptr;
    views::RooflinePlot* m_roofline = nullptr;
    views::KvSharePlot* m_kvShare = nullptr;
    views::PrefillPlot* m_prefill = nullptr;
    views::SloPlot* m_slo = nullptr;
    QList<views::FloorPlot*> m_floorPlots; ///< the five above, in views::floorPlotIds() order
    views::NumbersPanel* m_numbers = nullptr;
    QLabel* m_banner = nullptr;
    views::PlainLabel* m_summary = nullptr;
    QFrame* m_notice = nullptr;
    QLabel* m_noticeText = nullptr;
    views::UserCatalogue* m_catalogue = nullptr;
    views::WhatIfTabs* m_whatIfs = nullptr;
    QWidget* m_numbersCell = nullptr;
    views::ComparisonTable* m_comparison = nullptr;
    views::ScenarioHistory* m_history = nullptr;
    ScenarioFiles* m_files = nullptr;
    views::BaselineOverlay* m_baseline = nullptr;
    views::ExplainPanel* m_explain = nullptr;
    QDockWidget* m_explainDock = nullptr;
    Presentation* m_presentation = nullptr;
    QAction* m_pinAction = nullptr;
    QAction* m_clearAction = nullptr;
    QAction* m_pinNextAction = nullptr;
    QMenu* m_unpinMenu = nullptr;
    QAction* m_compareAction = nullptr;
    ExportOptions m_exportOptions;
    bool m_floorsStale = false; ///< an evaluation came while another tab showed: the floors page waits to be refreshed
    bool m_firstPaintSeen = false;  ///< the window received its first Paint event; finishStartUp() is queued or done
    bool m_startUpFinished = false; ///< finishStartUp() ran
};

} // namespace ridgeline::app
