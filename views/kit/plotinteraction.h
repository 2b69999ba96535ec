// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>

#include <QHash>
#include <QList>
#include <QObject>
#include <QPoint>
#include <QPointer>
#include <QString>

#include <qcustomplot.h>

class QMenu;
class QToolButton;

namespace ridgeline::views {

/** One curve's value at a read-out's key. */
struct ReadoutValue {
    QString name;              ///< the curve, as in the legend: "t_step"
    double value = 0;          ///< in the units the curve is drawn in (its value axis), e.g. ms
    QString text;              ///< the value in the curve's units: "9.12 ms"
    QCPGraph* graph = nullptr; ///< the curve drawn (its axes place the marker); null: no marker
};

/** What the read-out shows at one key of a plot. */
struct Readout {
    double key = 0;            ///< where the read-out sits, in key-axis coordinates (e.g. B = 48)
    QString keyText;           ///< "B = 48"
    QList<ReadoutValue> values;
    bool interpolated = false; ///< values interpolated between the curves' data points, not evaluated

    /** "B = 48: t_step 9.12 ms, 5,263 tok/s" (with " (interpolated between points)" when interpolated). */
    QString text() const;
    bool isEmpty() const { return values.isEmpty(); }
};

/**
 * Hover read-out, zoom and pan, "Reset view" and a context menu for one QCustomPlot (issue 18).
 * Installed once per plot (PlotPanel does it for every card; other plots call install()); a plot
 * opts into exact values with setReadout().
 *
 * - Read-out: moving the mouse over the axis rect, or the arrow keys once the plot has focus (click
 *   or Tab), show a vertical line at the key under the cursor, a marker on each curve and a box with
 *   the values (Readout::text()). Escape or leaving the plot hides it. By default the values are
 *   interpolated between the data points of each named line graph (linear in the axes' scale) and
 *   say so; setReadout() replaces that with the model's evaluation at the key. The read-out lives
 *   on a buffered layer of its own ("readout"): moving it repaints that layer, not the plot.
 * - Zoom and pan: Ctrl+wheel zooms around the cursor (QCP::iRangeZoom); the plain wheel scrolls the
 *   page as if the plot were not there. Dragging with the left button (Shift too) zooms into the box
 *   (QCP::srmZoom); Alt+left drag or middle drag pans. Once zoomed a "Reset view" button shows in
 *   the plot's corner; ranges the plot's own code sets while zoomed are remembered, not shown, and
 *   Reset view returns to the latest of them (the axes follow the data again).
 * - Context menu (right click): Copy values at cursor, Copy plot as image, Export this plot…,
 *   Reset view, Show formula.
 */
class PlotInteraction final : public QObject {
    Q_OBJECT

public:
    /** Values at a key in the plot's key coordinates; may snap the key (e.g. to a whole batch). */
    using ReadoutFunction = std::function<Readout(double key)>;

    /**
     * Installs on @p plot (owned by it; again on the same plot returns the existing one).
     * @param formula the formulas the plot draws, for "Show formula" (plain text)
     */
    static PlotInteraction* install(QCustomPlot* plot, const QString& formula);
    /** The interaction installed on @p plot, or null. */
    static PlotInteraction* of(const QCustomPlot* plot);

    QCustomPlot* plot() const { return m_plot; }

    /** Replaces the interpolated read-out with @p function (evaluations of the model at the key). */
    void setReadout(ReadoutFunction function);
    /** Sets the text "Show formula" shows. */
    void setFormula(const QString& formula) { m_formula = formula; }
    /** Adds the formulas with the current scenario's numbers in (model/cost/formulatext.h), built when
     *  "Show formula" is chosen, below the formula text. */
    void setFormulaNumbers(std::function<QString()> numbers) { m_formulaNumbers = std::move(numbers); }
    /** What "Show formula" shows: the formula text, then its numbers when setFormulaNumbers() was given. */
    QString formula() const;

    /** The read-out at @p key: setReadout()'s function, else interpolatedReadout(). */
    Readout readoutAt(double key) const;
    /** Each named, visible line graph interpolated at @p key (skipping those without data there). */
    Readout interpolatedReadout(double key) const;

    /** Shows the read-out at @p key (key coordinates) and repaints the read-out layer only. */
    void showReadoutAt(double key);
    /** Hides the read-out. */
    void hideReadout();
    bool isReadoutVisible() const { return m_visible; }
    /** The read-out last shown (or hidden since). */
    const Readout& readout() const { return m_readout; }

    /** True once the user zoomed or panned, until resetView(). */
    bool isZoomed() const { return m_zoomed; }
    /** Returns every axis to the range the plot last set itself and lets it follow the data again. */
    void resetView();

    /** The context menu (built once, object name "plotContextMenu"): the five actions in order. */
    QMenu* contextMenu();
    /** Copies readout().text() to the clipboard (the read-out at the middle of the key range if none is shown). */
    void copyValues();
    /** Copies the plot, without the read-out, as an image to the clipboard. */
    void copyImage();
    /** Shows formula() in a message box. */
    void showFormula();

    /**
     * Writes the plot to @p path, format from the suffix: png, pdf, svg (the plot as drawn, without
     * the read-out) or csv (each named line graph's points: curve, key, value, units from the axis
     * labels). Returns "" or the reason it failed.
     */
    QString exportPlot(const QString& path) const;
    /** The CSV exportPlot() writes. */
    QByteArray csv() const;

signals:
    /**
     * "Export this plot…" was chosen. When something is connected (the main window, to write it as
     * File > Export does) that receiver handles it; otherwise the interaction asks for a file name
     * and calls exportPlot().
     */
    void exportRequested(QCustomPlot* plot);
    /** Zoomed (true) or back to the plot's own ranges (false). */
    void zoomChanged(bool zoomed);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    PlotInteraction(QCustomPlot* plot, const QString& formula);

    void ensureItems();
    void placeItems();
    void placeResetButton();
    void onRangeChanged(QCPAxis* axis, const QCPRange& range);
    /** Lets the plot handle @p event with its range changes counted as the user's. */
    void dispatchAsUser(QEvent* event);
    /** Moves the read-out by about @p steps hundredths of the axis rect width (at least to the next key). */
    void stepReadout(int steps);
    /** Scrolls the nearest scroll area above the plot with @p event (the plain wheel). */
    void scrollPage(QEvent* event);
    QList<QCPAxis*> axes() const;
    void exportWithDialog();

    QCustomPlot* m_plot;
    QString m_formula;
    std::function<QString()> m_formulaNumbers;
    ReadoutFunction m_function;
    Readout m_readout;
    bool m_visible = false;

    QCPLayer* m_layer = nullptr;
    QCPItemStraightLine* m_line = nullptr;
    QCPItemText* m_box = nullptr;
    QList<QCPItemTracer*> m_markers;

    bool m_zoomed = false;
    bool m_userInput = false;   ///< range changes now come from the user's events
    bool m_redispatching = false;
    bool m_restoring = false;
    QHash<QCPAxis*, QCPRange> m_autoRanges; ///< the ranges the plot's code set last
    QHash<QCPAxis*, QCPRange> m_userRanges; ///< the ranges the user zoomed or panned to
    QToolButton* m_resetButton = nullptr;
    QMenu* m_menu = nullptr;

    bool m_panning = false;
    QPoint m_panStart;
    QHash<QCPAxis*, QCPRange> m_panRanges;
};

} // namespace ridgeline::views
