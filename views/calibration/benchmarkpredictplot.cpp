// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/calibration/benchmarkpredictplot.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <QVBoxLayout>

#include <qcustomplot.h>

#include "views/kit/palette.h"
#include "views/kit/plotinteraction.h"
#include "views/kit/plotkit.h"
#include "views/kit/seriesdata.h"

namespace ridgeline::views {

using namespace plotkit;

namespace {

constexpr int kColours = 6;

/** The group's colour: the palette's hues in a fixed order (the SLO red is kept for limits). */
QColor groupColour(int group)
{
    switch (group % kColours) {
    case 0: return palette::memory();
    case 1: return palette::compute();
    case 2: return palette::kv();
    case 3: return palette::throughput();
    case 4: return palette::ruling();
    default: return palette::reference();
    }
}

/** The marker shape: a new shape each time the colours come round again, so no two groups look alike. */
QCPScatterStyle::ScatterShape groupShape(int group)
{
    static const QCPScatterStyle::ScatterShape shapes[] = {QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare,
                                                           QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond,
                                                           QCPScatterStyle::ssTriangleInverted};
    return shapes[(group / kColours) % 5];
}

} // namespace

BenchmarkPredictPlot::BenchmarkPredictPlot(Kind kind, QWidget* parent)
    : PlotPanel(kind == Kind::Decode ? tr("Benchmark: decode latency") : tr("Benchmark: TTFT"),
                kind == Kind::Decode ? QStringLiteral("predictItl") : QStringLiteral("predictTtft"),
                kind == Kind::Decode
                    ? tr("Each point of the benchmark file at its load (log-log). Markers: the decode latency the file\n"
                         "measured (ITL, else TPOT, else E2E per output token, at the file's statistic). Line: the serving\n"
                         "simulator run the way the benchmark drove the server (closed loop of N clients, Poisson request\n"
                         "rate, or one static batch) on the window's scenario, at the same statistic. One colour per\n"
                         "(input, output length). Strip: predicted / measured \u2212 1.")
                    : tr("Each point of the benchmark file at its load (log-log). Markers: the TTFT the file measured\n"
                         "(at its statistic). Line: the serving simulator run the way the benchmark drove the server on\n"
                         "the window's scenario: TTFT includes queueing and the prefills of the requests ahead.\n"
                         "One colour per (input, output length). Strip: predicted / measured \u2212 1."),
                parent)
    , m_kind(kind)
{
    QCustomPlot* p = plot();
    setupAxis(p->xAxis, tr("concurrency (clients)"), true);
    setupAxis(p->yAxis, kind == Kind::Decode ? tr("ITL (ms)") : tr("TTFT (ms)"), true);

    // Legend keys for the two layers, in neutral grey (the colours name the groups).
    const QColor key = palette::reference();
    QCPGraph* measuredKey = addMarker(p, p->xAxis, p->yAxis, QCPScatterStyle(QCPScatterStyle::ssCircle, pen(palette::card(), 1.2), key, 9));
    measuredKey->setName(tr("measured"));
    measuredKey->addToLegend();
    QCPGraph* predictedKey = addCurve(p, p->xAxis, p->yAxis, pen(key, 2.0), tr("predicted"));
    predictedKey->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, key, key, 5));
    placeLegendBelow(p, 4);

    m_residualPlot = new QCustomPlot(this);
    m_residualPlot->setObjectName(objectName().replace(QStringLiteral("Panel"), QStringLiteral("ResidualPlot")));
    m_residualPlot->setAccessibleName(tr("relative residuals"));
    setupPlot(m_residualPlot);
    setupAxis(m_residualPlot->xAxis, p->xAxis->label(), true);
    setupAxis(m_residualPlot->yAxis, tr("residual (%)"), false);
    m_residualPlot->setMinimumHeight(120);
    m_residualPlot->setMaximumHeight(160);
    PlotInteraction::install(m_residualPlot, tr("Relative residual of each point: predicted / measured \u2212 1, in %.\n"
                                                "Above 0 the simulator is slower than the benchmark, below it faster."));
    m_zero = addStraightLine(m_residualPlot, m_residualPlot->xAxis, m_residualPlot->yAxis, pen(palette::axis(), 1));
    placeHorizontal(m_zero, 0.0);
    cardLayout()->addWidget(m_residualPlot);

    setData({}, {}, tr("concurrency (clients)"), kind == Kind::Decode ? tr("ITL") : tr("TTFT"),
            tr("No benchmark loaded: open a benchmark's output to see its points against the prediction."));
}

void BenchmarkPredictPlot::refresh(const model::Scenario&, const model::Evaluation&)
{
}

void BenchmarkPredictPlot::ensureGroups(int count)
{
    QCustomPlot* p = plot();
    while (int(m_groups.size()) > count) {
        const Group g = m_groups.back();
        m_groups.pop_back();
        for (QCPGraph* graph : {g.key, g.predicted, g.measured})
            p->removeGraph(graph);
        m_residualPlot->removeGraph(g.residuals);
    }
    while (int(m_groups.size()) < count) {
        const int index = int(m_groups.size());
        const QColor colour = groupColour(index);
        const QCPScatterStyle::ScatterShape shape = groupShape(index);
        Group g;
        g.key = addCurve(p, p->xAxis, p->yAxis, pen(colour, 2.0), QString());
        g.key->setScatterStyle(QCPScatterStyle(shape, pen(palette::card(), 1.0), colour, 8));
        g.key->addToLegend();
        g.predicted = addCurve(p, p->xAxis, p->yAxis, pen(colour, 2.0), QString());
        g.predicted->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 4.5));
        g.measured = addMarker(p, p->xAxis, p->yAxis, QCPScatterStyle(shape, pen(palette::card(), 1.2), colour, 9));
        g.residuals = addMarker(m_residualPlot, m_residualPlot->xAxis, m_residualPlot->yAxis,
                                QCPScatterStyle(shape, pen(palette::card(), 1.0), colour, 7));
        m_groups.push_back(g);
    }
}

void BenchmarkPredictPlot::setData(const QStringList& groups, const std::vector<Point>& points, const QString& xLabel,
                                   const QString& metric, const QString& takeaway)
{
    QCustomPlot* p = plot();
    ensureGroups(int(groups.size()));
    p->xAxis->setLabel(xLabel);
    m_residualPlot->xAxis->setLabel(xLabel);
    p->yAxis->setLabel(tr("%1 (ms)").arg(metric));

    Extent xRange, yRange;
    Extent residualRange;
    residualRange.log = false;
    residualRange.include(-5.0);
    residualRange.include(5.0);
    for (size_t g = 0; g < m_groups.size(); ++g) {
        const Group& group = m_groups[g];
        const QString& name = groups[qsizetype(g)];
        // The key carries the group's name in the legend; the data graphs are named for the CSV and the read-out.
        group.key->setName(name);
        group.predicted->setName(tr("predicted, %1").arg(name));
        group.measured->setName(tr("measured, %1").arg(name));
        group.residuals->setName(tr("residual, %1").arg(name));

        std::vector<std::pair<double, double>> measured, predicted, residuals;
        for (const Point& pt : points) {
            if (pt.group != int(g) || !seriesdata::drawable(pt.x, true))
                continue;
            const bool hasMeasured = seriesdata::drawable(pt.measuredMs, true);
            const bool hasPredicted = seriesdata::drawable(pt.predictedMs, true);
            if (hasMeasured)
                measured.emplace_back(pt.x, pt.measuredMs);
            if (hasPredicted)
                predicted.emplace_back(pt.x, pt.predictedMs);
            if (hasMeasured || hasPredicted)
                xRange.include(pt.x);
            if (hasMeasured)
                yRange.include(pt.measuredMs);
            if (hasPredicted)
                yRange.include(pt.predictedMs);
            if (hasMeasured && hasPredicted) {
                const double residual = (pt.predictedMs / pt.measuredMs - 1.0) * 100.0;
                residuals.emplace_back(pt.x, residual);
                residualRange.include(residual);
            }
        }
        std::sort(measured.begin(), measured.end());
        std::sort(predicted.begin(), predicted.end());
        std::sort(residuals.begin(), residuals.end());
        seriesdata::assign(group.measured, int(measured.size()), [&](int i) { return measured[size_t(i)]; }, true, true);
        seriesdata::assign(group.predicted, int(predicted.size()), [&](int i) { return predicted[size_t(i)]; }, true, true);
        seriesdata::assign(group.residuals, int(residuals.size()), [&](int i) { return residuals[size_t(i)]; }, true, false);
    }

    applyRange(p->xAxis, xRange, 1.5, QCPRange(1, 256));
    applyRange(p->yAxis, yRange, 1.25, QCPRange(1, 1000));
    m_residualPlot->xAxis->setRange(p->xAxis->range());
    const double span = std::max(std::abs(residualRange.low), std::abs(residualRange.high)) * 1.25;
    m_residualPlot->yAxis->setRange(-span, span);

    setTakeaway(takeaway);
    p->replot(QCustomPlot::rpQueuedReplot);
    m_residualPlot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ridgeline::views
