// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>

namespace ridgeline::views {
class BaselineOverlay;
class FloorPlot;
class ScenarioDocument;
class WhatIfTabs;
} // namespace ridgeline::views

namespace ridgeline::app {

/**
 * What the export (app/export.h) reads from a window: the document, the five floor plots, the what-if tabs and
 * baseline A. MainWindow implements it, so export.cpp needs no main window header and the main window and the
 * export depend on this interface, not on each other. Pointers are owned by the window and live as long as it.
 */
class ExportSource {
public:
    virtual ~ExportSource() = default;

    /** The scenario document (its evaluated scenario and evaluation are what the export writes). */
    virtual views::ScenarioDocument* document() const = 0;
    /** The five floor plots, in views::floorPlotIds() order (the window's and the dashboard's). */
    virtual QList<views::FloorPlot*> floorPlots() const = 0;
    /** The what-if tabs (their plots, the Simulation, Calibration and Plan tabs). */
    virtual views::WhatIfTabs* whatIfTabs() const = 0;
    /** Baseline A's overlay (may be nullptr; isPinned() says whether A is drawn). */
    virtual views::BaselineOverlay* baseline() const = 0;
    /** Brings every plot and panel up to date with the document before it is drawn (no pending refresh). */
    virtual void flushForScreenshot() = 0;
};

} // namespace ridgeline::app
