// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>
#include <QString>

#include "model/costmodel.h"
#include "model/scenario.h"

class QCustomPlot;
class QLabel;
class QVBoxLayout;

namespace ridgeline::views {

/**
 * A card holding one plot: a heading with the plot's live takeaway in words and numbers above a
 * QCustomPlot. Subclasses create their graphs once and overwrite their data in refresh().
 *
 * Object names derive from the stem given to the constructor: "<stem>Panel", "<stem>Title",
 * "<stem>Plot" (e.g. "decodeTitle", "sloPlot").
 */
class PlotPanel : public QFrame {
    Q_OBJECT

public:
    /**
     * @param heading short name shown in bold, e.g. "Decode floor"
     * @param stem object-name stem, e.g. "decode"
     * @param formulaToolTip the formulas the plot draws, shown on hover over the title and plot
     */
    PlotPanel(const QString& heading, const QString& stem, const QString& formulaToolTip, QWidget* parent = nullptr);

    /** The title label (heading and takeaway, rich text). */
    QLabel* titleLabel() const { return m_title; }
    /** The plot. */
    QCustomPlot* plot() const { return m_plot; }
    /** The current takeaway as plain text, without the heading. */
    QString takeaway() const { return m_takeaway; }

    /**
     * Redraws from @p evaluation, which was computed from @p scenario (the document's
     * evaluatedScenario()). Overwrites data in place and queues a replot.
     */
    virtual void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation) = 0;

protected:
    /** Sets the takeaway text (plain text: escaped here). */
    void setTakeaway(const QString& text);
    /** The card's layout: title at index 0, plot last; subclasses may insert between. */
    QVBoxLayout* cardLayout() const { return m_layout; }

private:
    QString m_heading;
    QString m_takeaway;
    QLabel* m_title = nullptr;
    QCustomPlot* m_plot = nullptr;
    QVBoxLayout* m_layout = nullptr;
};

} // namespace ridgeline::views
