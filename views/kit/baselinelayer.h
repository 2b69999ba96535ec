// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPen>
#include <QString>

class QCPAbstractItem;
class QCPGraph;
class QCPItemText;
class QCustomPlot;

namespace ridgeline::views {

/** The pen of baseline A's curves: the baseline colour, dashed, 2.2 px times the theme's line scale. */
QPen baselinePen();
/**
 * The pen of pinned scenario @p slot (0 = A to 5 = F) in an N-way comparison: palette::pinned(slot),
 * 2.2 px times the line scale, and a dash pattern of its own (A dashed as baselinePen(), B dotted,
 * C long dashes, D dash-dot, E dash-dot-dot, F short dashes), so the curves differ without colour.
 */
QPen pinnedPen(int slot);
/** The letter of pinned scenario @p slot: "A" for 0, "B" for 1, ... */
QString pinnedLetter(int slot);

/**
 * Baseline A's layer in one QCustomPlot: the dashed graphs, markers and items A adds on the plot's
 * xAxis and yAxis (under the live scenario's curves, above the grid), and A's extent on the yAxis,
 * which keepInView() widens the axis to after each redraw of the live scenario. The plot that owns
 * the layer fills it (views/floors/floorplot.h: FloorPlot::setBaseline; the what-if plots through
 * views/whatifs/baseline.h) and remove() takes it all off again.
 */
class BaselineLayer {
public:
    /**
     * @p slot: which pinned scenario the layer draws (0 = A to 5 = F; views::pinnedPen(), palette::pinned()
     * and a marker shape of its own). @p labelBelow: the name label of the pinned scenario drawn before
     * on the same plot; this layer's name goes under it (one line per pinned scenario, top left).
     */
    explicit BaselineLayer(QCustomPlot* plot, int slot = 0, QCPItemText* labelBelow = nullptr)
        : m_plot(plot)
        , m_slot(slot)
        , m_labelBelow(labelBelow)
    {
    }

    /** The pinned scenario's slot (0 = A). */
    int slot() const { return m_slot; }
    /** The name written inside the plot by addCurve() (nullptr before, or for unnamed curves). */
    QCPItemText* label() const { return m_label; }

    /**
     * A dashed curve of A. A non-empty @p name is written inside the plot's top-left corner
     * ("– – A: Llama 3.1 8B on H100 SXM") in the pinned scenario's colour, under the names of the pinned
     * scenarios drawn before: that stack is the plot's key of the pinned scenarios (a legend row below
     * the plot would cost it height). The graph is named @p name too.
     */
    QCPGraph* addCurve(const QString& name = QString());
    /** One of A's operating points: a ring in the baseline colour. */
    QCPGraph* addMarker();
    /** A vertical dashed line at @p key (plot units of the xAxis), e.g. A's P*. */
    void addVerticalLine(double key);

    /**
     * A's extent on the (log) yAxis in plot units: keepInView() widens the axis down to @p low / @p lowPad
     * and up to @p high * @p highPad at least. Non-positive or non-finite ends: left alone.
     */
    void setExtent(double low, double high, double lowPad = 1.4, double highPad = 1.4);
    /** A's top on a linear yAxis from 0 (or a fixed floor): keepInView() widens the top only. */
    void setUpperExtent(double high, double highPad);

    /** Widens the yAxis to keep A's extent in view (after the plot drew the live scenario). */
    void keepInView() const;

    /** Removes A's graphs and items from the plot and forgets the extent. */
    void remove();

    bool isEmpty() const { return m_graphs.isEmpty() && m_items.isEmpty(); }
    /** A's graphs: curves and markers in the order added (main curve first). */
    const QList<QCPGraph*>& graphs() const { return m_graphs; }
    /** A's items (curve names, lines). */
    const QList<QCPAbstractItem*>& items() const { return m_items; }

private:
    QCustomPlot* m_plot;
    int m_slot = 0;
    QCPItemText* m_labelBelow = nullptr; ///< the label this layer's label goes under (not owned)
    QCPItemText* m_label = nullptr;      ///< this layer's name label (in m_items)
    QList<QCPGraph*> m_graphs;
    QList<QCPAbstractItem*> m_items;
    double m_low = 0, m_high = 0; ///< A's extent on the yAxis, plot units; 0: none
    double m_lowPad = 1.4;        ///< the axis goes down to low / lowPad at least
    double m_highPad = 1.4;       ///< and up to high * highPad at least
    bool m_upperOnly = false;     ///< a linear axis from 0 (or a fixed floor): widen the top only
};

} // namespace ridgeline::views
