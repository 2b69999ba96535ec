// SPDX-License-Identifier: GPL-3.0-or-later
// The plots of the bench references (issue 16): what each of Ridgeline's five floors creates in its plot, built with
// plain QCustomPlot calls, for bench/dashboard_bench.cpp (--content) and bench/window_startup.cpp. No Ridgeline code.
#pragma once

#include <array>
#include <cmath>
#include <vector>

#include <QColor>
#include <QPen>
#include <QString>
#include <QVector>

#include <qcustomplot.h>

namespace ridgeline::bench {

/** What one of Ridgeline's floors creates in its plot (the files in views/floors/ at f93422d), for --content. */
struct FloorContent {
    const char* title;
    const char* xLabel;
    const char* yLabel;
    double xMin, xMax;   ///< the key range, log scale
    int curves;          ///< kit::addCurve: 200-point curves (the first is the bare plot's curve)
    int markers;         ///< kit::addMarker: one-point graphs with a scatter style
    int straightLines;   ///< kit::addStraightLine (and the prefill floor's addVerticalLine)
    int labels;          ///< kit::addLabel: text items
    bool rightAxis;      ///< a second value axis on the right (tok/s)
};

// Counted with grep in views/floors/{decode,roofline,kvshare,prefill,slo}plot.cpp; some are hidden at the default
// scenario (baseline and MoE items), so --content draws somewhat more than Ridgeline shows. The KV-share floor's bar
// plot (a second QCustomPlot) is left out.
inline constexpr std::array<FloorContent, 5> kFloors{{
    {"decode step", "batch B (sequences)", "time per decode step (ms)", 1, 4096, 7, 3, 3, 4, true},
    {"peak roof", "arithmetic intensity (FLOP/byte)", "attainable TFLOP/s", 0.1, 1e5, 3, 5, 1, 3, false},
    {"KV share", "context S (tokens per sequence)", "KV share (%)", 128, 1e6, 2, 2, 2, 1, false},
    {"total", "prompt length P (tokens)", "prefill work (TFLOP)", 16, 1e6, 4, 1, 5, 3, false},
    {"t_step", "batch B (sequences)", "t_step = ITL (ms)", 1, 4096, 3, 3, 3, 2, true},
}};

inline constexpr int kPoints = 200;

inline QSharedPointer<QCPAxisTickerLog> logTicker()
{
    return QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog);
}

inline void setLog(QCPAxis* axis, const QString& label)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(logTicker());
    axis->setLabel(label);
}

/** One plot of the dashboard and what a step updates in it. */
struct DashboardPlot {
    QCustomPlot* plot = nullptr;
    int index = 0;
    std::vector<QCPGraph*> curves;
    std::vector<QCPGraph*> markers;
    std::vector<QCPItemStraightLine*> lines;
    std::vector<QCPItemText*> labels;
    QVector<double> keys;
    QVector<double> values;

    /** Recomputes every curve and item for @p billions (model size, B params), rescales the axes, queues a replot. */
    void update(double billions)
    {
        const FloorContent& floor = kFloors[size_t(index)];
        for (size_t c = 0; c < curves.size(); ++c) {
            // A decode-time-like line: weights read once (b) plus a per-sequence cost (a), different for each curve.
            const double a = 1e-3 * std::pow(billions, 0.5 + 0.1 * double(c)) * (1.0 + 0.3 * double(index));
            const double b = 0.25 * billions / (1.0 + double(c));
            for (int i = 0; i < kPoints; ++i)
                values[i] = a * keys[i] + b;
            curves[c]->setData(keys, values, true);
        }
        const double mid = std::sqrt(floor.xMin * floor.xMax) * std::pow(billions / 100.0, 0.1);
        for (size_t m = 0; m < markers.size(); ++m) {
            const double key = mid * std::pow(2.0, double(m));
            const QCPGraphDataContainer::const_iterator it = curves[0]->data()->findBegin(key);
            const double value = it != curves[0]->data()->constEnd() ? it->value : 1.0;
            markers[m]->setData(QVector<double>{key}, QVector<double>{value}, true);
        }
        plot->rescaleAxes();
        const double yMid = std::sqrt(plot->yAxis->range().lower * plot->yAxis->range().upper);
        for (size_t l = 0; l < lines.size(); ++l) {
            const double shift = std::pow(1.5, double(l));
            if (l % 2 == 0) { // vertical
                lines[l]->point1->setCoords(mid * shift, 1);
                lines[l]->point2->setCoords(mid * shift, 2);
            } else { // horizontal
                lines[l]->point1->setCoords(1, yMid * shift);
                lines[l]->point2->setCoords(2, yMid * shift);
            }
        }
        for (size_t t = 0; t < labels.size(); ++t) {
            labels[t]->position->setCoords(mid * std::pow(1.5, double(t)), yMid * std::pow(1.3, double(t)));
            labels[t]->setText(QStringLiteral("N = %1 B, item %2").arg(billions, 0, 'f', 2).arg(t + 1));
        }
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
};

/** The plot of floor @p index (0 to 4, kFloors order) in @p parent: its curves, and with @p content its markers, lines,
 * texts and second axis; @p penWidth in px (0: cosmetic), @p antialiased as QCustomPlot's default. Call update() to
 * fill it. */
inline DashboardPlot makePlot(QWidget* parent, int index, bool content, double penWidth, bool antialiased)
{
    const FloorContent& floor = kFloors[size_t(index)];
    DashboardPlot d;
    d.index = index;
    d.plot = new QCustomPlot(parent);
    if (!antialiased)
        d.plot->setNotAntialiasedElements(QCP::aeAll);
    d.keys.resize(kPoints);
    d.values.resize(kPoints);
    for (int i = 0; i < kPoints; ++i)
        d.keys[i] = floor.xMin * std::pow(floor.xMax / floor.xMin, double(i) / (kPoints - 1));
    setLog(d.plot->xAxis, QString::fromLatin1(floor.xLabel));
    setLog(d.plot->yAxis, QString::fromLatin1(floor.yLabel));
    static const QColor colors[] = {QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44),
                                    QColor(214, 39, 40),
                                    QColor(148, 103, 189), QColor(140, 86, 75), QColor(127, 127, 127)};
    const int curves = content ? floor.curves : 1;
    for (int c = 0; c < curves; ++c) {
        QCPAxis* valueAxis = content && floor.rightAxis && c == 1 ? d.plot->yAxis2 : d.plot->yAxis;
        QCPGraph* graph = d.plot->addGraph(d.plot->xAxis, valueAxis);
        graph->setName(c == 0 ? QString::fromLatin1(floor.title) : QStringLiteral("curve %1").arg(c + 1));
        graph->setPen(QPen(colors[c % 7], penWidth, c == 0 ? Qt::SolidLine : Qt::DashLine));
        d.curves.push_back(graph);
    }
    d.plot->legend->setVisible(true);
    if (content) {
        if (floor.rightAxis) {
            d.plot->yAxis2->setVisible(true);
            setLog(d.plot->yAxis2, QStringLiteral("aggregate tokens/s"));
        }
        for (int m = 0; m < floor.markers; ++m) {
            QCPGraph* marker = d.plot->addGraph();
            marker->setLineStyle(QCPGraph::lsNone);
            marker->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(40, 40, 50), 8));
            marker->removeFromLegend();
            d.markers.push_back(marker);
        }
        for (int l = 0; l < floor.straightLines; ++l) {
            auto* line = new QCPItemStraightLine(d.plot);
            line->setPen(QPen(QColor(120, 120, 120), 1, Qt::DotLine));
            d.lines.push_back(line);
        }
        for (int t = 0; t < floor.labels; ++t) {
            auto* label = new QCPItemText(d.plot);
            label->setColor(QColor(180, 30, 30));
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
            d.labels.push_back(label);
        }
        // The legend below the axes, in columns, as views/kit/plotkit.h placeLegendBelow.
        auto* below = new QCPLayoutGrid;
        d.plot->plotLayout()->addElement(1, 0, below);
        d.plot->plotLayout()->setRowStretchFactor(1, 0.001);
        below->setMargins(QMargins(5, 0, 5, 5));
        below->addElement(0, 0, d.plot->legend);
        d.plot->legend->setWrap(3);
        d.plot->legend->setFillOrder(QCPLegend::foColumnsFirst); // rearranges the entries: three to a row
    }
    return d;
}

} // namespace ridgeline::bench
