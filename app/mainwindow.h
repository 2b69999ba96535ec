// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QMainWindow>

#include "model/scenario.h"

class QCustomPlot;
class QDockWidget;
class QLabel;

namespace ridgeline::views {
class ControlsPanel;
class DecodePlot;
class KvSharePlot;
class NumbersPanel;
class PlotPanel;
class PrefillPlot;
class RooflinePlot;
class ScenarioDocument;
class SloPlot;
} // namespace ridgeline::views

namespace ridgeline::app {

/**
 * The main window: the controls dock on the left, an error banner above a 3 x 2 grid of the five
 * plot panels and the numbers panel, a status bar and the File / View / Help menus.
 *
 * Owns the one views::ScenarioDocument. On every evaluated() it refreshes each panel from the
 * document's evaluatedScenario() and evaluation(); on invalidChanged() it shows or hides the
 * banner (the plots keep the last valid evaluation).
 *
 * For a headless screenshot: resize(), show(), then flushForScreenshot(), then grab().
 */
class MainWindow final : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(const model::Scenario& initial, QWidget* parent = nullptr);

    /** The document every control edits and every view reads. */
    views::ScenarioDocument* document() const { return m_document; }

    /**
     * Makes the window fully drawn now: evaluates any pending edit, delivers posted events
     * (layouts, Qt Charts), refreshes every panel and replots every QCustomPlot with
     * rpImmediateRefresh. Call after show() and before grab().
     */
    void flushForScreenshot();

    views::ControlsPanel* controlsPanel() const { return m_controls; }
    QDockWidget* controlsDock() const { return m_controlsDock; }
    views::DecodePlot* decodePanel() const { return m_decode; }
    views::RooflinePlot* rooflinePanel() const { return m_roofline; }
    views::KvSharePlot* kvSharePanel() const { return m_kvShare; }
    views::PrefillPlot* prefillPanel() const { return m_prefill; }
    views::SloPlot* sloPanel() const { return m_slo; }
    views::NumbersPanel* numbersPanel() const { return m_numbers; }
    /** The five plot panels, in plot order. */
    QList<views::PlotPanel*> plotPanels() const;
    /** Every QCustomPlot of the window, in plot order. */
    QList<QCustomPlot*> plots() const;
    /** The red banner above the plots ("errorBanner"); hidden while the scenario is valid. */
    QLabel* errorBanner() const { return m_banner; }

private:
    void refreshViews();
    void showValidity(const QString& message);
    void createMenus();
    void showAbout();

    views::ScenarioDocument* m_document = nullptr;
    views::ControlsPanel* m_controls = nullptr;
    QDockWidget* m_controlsDock = nullptr;
    views::DecodePlot* m_decode = nullptr;
    views::RooflinePlot* m_roofline = nullptr;
    views::KvSharePlot* m_kvShare = nullptr;
    views::PrefillPlot* m_prefill = nullptr;
    views::SloPlot* m_slo = nullptr;
    views::NumbersPanel* m_numbers = nullptr;
    QLabel* m_banner = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace ridgeline::app
