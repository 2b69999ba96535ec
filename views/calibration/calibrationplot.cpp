// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/calibration/calibrationplot.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <QVBoxLayout>

#include <qcustomplot.h>

#include "document/readouts.h"
#include "document/format.h"
#include "views/kit/palette.h"
#include "views/kit/plotinteraction.h"
#include "views/kit/plotkit.h"
#include "views/kit/resulttable.h"
#include "views/kit/seriesdata.h"

namespace ridgeline::views {

using namespace plotkit;

namespace {

QColor groupColor(CalibrationPlot::Kind kind, int group)
{
    if (kind == CalibrationPlot::Kind::Ttft)
        return palette::compute();
    switch (group % CalibrationPlot::kMaxGroups) {
    case 0: return palette::memory();
    case 1: return palette::kv();
    case 2: return palette::throughput();
    case 3: return palette::compute();
    default: return palette::ruling();
    }
}

/** The scenario with the fitted coefficients of @p r applied over @p scenario's efficiencies. */
model::Scenario calibratedOver(const model::Scenario& scenario, const model::CalibrationResult& r)
{
    model::Scenario s = scenario;
    if (r.bandwidthEfficiency.fitted) {
        s.efficiency.bandwidth = r.calibrated.efficiency.bandwidth;
        s.efficiency.stepOverheadSeconds = r.calibrated.efficiency.stepOverheadSeconds;
    }
    if (r.mfuPrefill.fitted) {
        s.efficiency.mfuPrefill = r.calibrated.efficiency.mfuPrefill;
        s.efficiency.prefillOverheadSeconds = r.calibrated.efficiency.prefillOverheadSeconds;
    }
    return s;
}

/** Rounded as calibrate() rounds an operating point. */
double wholeTokens(double v)
{
    return std::max(0.0, std::round(v));
}

} // namespace

CalibrationPlot::CalibrationPlot(Kind kind, QWidget* parent)
    : PlotPanel(kind == Kind::Itl ? tr("ITL against batch") : tr("TTFT against prompt length"),
                kind == Kind::Itl ? QStringLiteral("calibrationItl") : QStringLiteral("calibrationTtft"),
                kind == Kind::Itl
                    ? tr("Decode step at each measured context S (log-log):\n"
                         "  t_step(B, S) = max(bytes(B, S) / (BW \u00b7 \u03b7_bw), FLOP(B, S) / (F_peak \u00b7 MFU_decode)) + step overhead.\n"
                         "Dashed: the floor (\u03b7 = 1, no overhead). Solid: the fitted \u03b7_bw and overhead, in a band from\n"
                         "\u03b7_bw \u2212 s.e. to \u03b7_bw + s.e. Dots: the measurements.")
                    : tr("Prefill of a P-token prompt (log-log):\n"
                         "  t_pre(P) = max(FLOP_pre(P) / (F_peak \u00b7 MFU_prefill), bytes_pre(P) / (BW \u00b7 \u03b7_bw)) + prefill overhead.\n"
                         "Dashed: the floor (MFU = 1, no overhead). Solid: the fitted MFU and overhead, in a band from\n"
                         "MFU \u2212 s.e. to MFU + s.e. Dots: the measurements (TTFT includes any queue wait)."),
                parent)
    , m_kind(kind)
{
    QCustomPlot* p = plot();
    setupAxis(p->xAxis, kind == Kind::Itl ? tr("batch B (sequences)") : tr("prompt P (tokens)"), true);
    setupAxis(p->yAxis, kind == Kind::Itl ? tr("ITL (ms)") : tr("TTFT (ms)"), true);

    // Legend keys for the three layers, in neutral grey (the colours name the contexts).
    const QColor key = palette::reference();
    QCPGraph* floorKey = addCurve(p, p->xAxis, p->yAxis, pen(key, 1.6, Qt::DashLine), tr("floor (efficiencies 1)"));
    QCPGraph* bandKey = addCurve(p, p->xAxis, p->yAxis, QPen(palette::withAlpha(key, 70), 8), tr("\u00b1 1 s.e."));
    QCPGraph* pointKey = addMarker(p, p->xAxis, p->yAxis, QCPScatterStyle(QCPScatterStyle::ssCircle, pen(palette::card(), 1.2), key, 9));
    pointKey->setName(tr("measured"));
    pointKey->addToLegend();
    Q_UNUSED(floorKey);
    Q_UNUSED(bandKey);
    placeLegendBelow(p, 4);

    m_residualPlot = new QCustomPlot(this);
    m_residualPlot->setObjectName(objectName().replace(QStringLiteral("Panel"), QStringLiteral("ResidualPlot")));
    m_residualPlot->setAccessibleName(tr("relative residuals"));
    setupPlot(m_residualPlot);
    setupAxis(m_residualPlot->xAxis, p->xAxis->label(), true);
    setupAxis(m_residualPlot->yAxis, tr("residual (%)"), false);
    m_residualPlot->setMinimumHeight(100);
    m_residualPlot->setMaximumHeight(150);
    // Read-out, zoom and context menu as on every plot; the explanation under "Show formula".
    PlotInteraction::install(m_residualPlot,
                             tr("Relative residual of each point: measured / model \u2212 1, against the calibrated scenario\n"
                                "(against the current scenario before a fit). A trend left means a term is missing."));
    m_zero = addStraightLine(m_residualPlot, m_residualPlot->xAxis, m_residualPlot->yAxis, pen(palette::axis(), 1));
    placeHorizontal(m_zero, 0.0);
    m_residualPlot->setVisible(false);
    cardLayout()->addWidget(m_residualPlot);

    m_scenario = model::defaultScenario();
    redraw();
}

void CalibrationPlot::refresh(const model::Scenario& scenario, const model::Evaluation&)
{
    m_scenario = scenario;
    redraw();
}

void CalibrationPlot::setData(const model::Scenario& scenario, const std::vector<model::Measurement>& points,
                              const std::optional<model::CalibrationResult>& result)
{
    m_scenario = scenario;
    m_points = points;
    m_result = result;
    redraw();
}

void CalibrationPlot::setResidualsVisible(bool visible)
{
    m_residualPlot->setVisible(visible);
    if (visible)
        m_residualPlot->replot(QCustomPlot::rpQueuedReplot);
}

bool CalibrationPlot::residualsVisible() const
{
    return !m_residualPlot->isHidden();
}

double CalibrationPlot::modelMs(const model::Scenario& scenario, double x, double context) const
{
    return document::latencyMs(scenario, m_kind == Kind::Itl ? document::LatencyKind::Itl : document::LatencyKind::Ttft, x,
                               context);
}

void CalibrationPlot::ensureGroups(int count)
{
    QCustomPlot* p = plot();
    while (int(m_groups.size()) > count) {
        const Group g = m_groups.back();
        m_groups.pop_back();
        for (QCPGraph* graph : {g.floor, g.calibrated, g.lower, g.upper, g.points})
            p->removeGraph(graph);
        m_residualPlot->removeGraph(g.residuals);
    }
    while (int(m_groups.size()) < count) {
        const int index = int(m_groups.size());
        const QColor color = groupColor(m_kind, index);
        Group g;
        g.lower = addCurve(p, p->xAxis, p->yAxis, Qt::NoPen, QString());
        g.upper = addCurve(p, p->xAxis, p->yAxis, Qt::NoPen, QString());
        g.upper->setBrush(QBrush(palette::withAlpha(color, 45)));
        g.upper->setChannelFillGraph(g.lower);
        g.floor = addCurve(p, p->xAxis, p->yAxis, pen(color, 1.6, Qt::DashLine), QString());
        g.calibrated = addCurve(p, p->xAxis, p->yAxis, pen(color, 2.2), m_kind == Kind::Itl ? QStringLiteral("S") : tr("calibrated"));
        g.points = addMarker(p, p->xAxis, p->yAxis, QCPScatterStyle(QCPScatterStyle::ssCircle, pen(palette::card(), 1.2), color, 9));
        g.residuals = addMarker(m_residualPlot, m_residualPlot->xAxis, m_residualPlot->yAxis,
                                QCPScatterStyle(QCPScatterStyle::ssCircle, pen(palette::card(), 1.0), color, 7));
        m_groups.push_back(g);
    }
}

void CalibrationPlot::redraw()
{
    QCustomPlot* p = plot();
    const bool itl = m_kind == Kind::Itl;

    // The measured points this plot uses: (x, y, context).
    struct Point {
        double x, y, context;
        int group = 0;
    };
    std::vector<Point> points;
    for (const model::Measurement& m : m_points) {
        if (itl && m.itlMs && m.batch >= 1)
            points.push_back({m.batch, *m.itlMs, m.contextTokens});
        else if (!itl && m.ttftMs && m.promptTokens > 0)
            points.push_back({m.promptTokens, *m.ttftMs, 0.0});
    }

    // Groups: contexts within 10 % of the first of a run share one (ITL); one group (TTFT).
    m_groupKeys.clear();
    int hiddenContexts = 0;
    if (itl && !points.empty()) {
        std::vector<double> contexts;
        for (const Point& pt : points)
            contexts.push_back(pt.context);
        std::sort(contexts.begin(), contexts.end());
        std::vector<std::pair<double, int>> clusters; // (mean context, members)
        double start = -1, sum = 0;
        int members = 0;
        for (double c : contexts) {
            if (members > 0 && c > start * 1.1 + 0.5) {
                clusters.push_back({sum / members, members});
                members = 0;
                sum = 0;
            }
            if (members == 0)
                start = c;
            sum += c;
            ++members;
        }
        clusters.push_back({sum / members, members});
        if (int(clusters.size()) > kMaxGroups) {
            hiddenContexts = int(clusters.size()) - kMaxGroups;
            std::stable_sort(clusters.begin(), clusters.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
            clusters.resize(size_t(kMaxGroups));
            std::sort(clusters.begin(), clusters.end());
        }
        for (const auto& c : clusters)
            m_groupKeys.push_back(std::round(c.first));
        for (Point& pt : points) { // nearest group in log distance
            double best = 1e300;
            for (size_t g = 0; g < m_groupKeys.size(); ++g) {
                const double d = std::abs(std::log((pt.context + 1.0) / (m_groupKeys[g] + 1.0)));
                if (d < best) {
                    best = d;
                    pt.group = int(g);
                }
            }
        }
    } else if (!itl) {
        m_groupKeys.push_back(0.0);
    }
    if (itl && m_groupKeys.empty())
        m_groupKeys.push_back(double(m_scenario.workload.contextTokens)); // the floor at the scenario's context
    ensureGroups(int(m_groupKeys.size()));

    // The x grid: log-spaced, covering the points with room on both sides.
    double lowX = itl ? 1.0 : 16.0, highX = itl ? 256.0 : 32768.0;
    for (const Point& pt : points) {
        lowX = std::min(lowX, std::max(itl ? 1.0 : 1.0, pt.x / 2.0));
        highX = std::max(highX, pt.x * 2.0);
    }
    m_grid.resize(size_t(kCurvePoints));
    for (int i = 0; i < kCurvePoints; ++i)
        m_grid[size_t(i)] = lowX * std::pow(highX / lowX, double(i) / double(kCurvePoints - 1));

    // The scenarios of the three layers.
    model::Scenario floor = m_scenario;
    floor.efficiency = model::Efficiency{};
    const bool fitted = m_result && (itl ? m_result->bandwidthEfficiency.fitted : m_result->mfuPrefill.fitted);
    const model::Scenario reference = m_result ? calibratedOver(m_scenario, *m_result) : m_scenario;
    std::optional<model::Scenario> lower, upper;
    if (fitted) {
        const model::Coefficient& eta = itl ? m_result->bandwidthEfficiency : m_result->mfuPrefill;
        if (eta.standardError && std::isfinite(*eta.standardError)) {
            auto at = [&](double value) {
                model::Scenario s = reference;
                (itl ? s.efficiency.bandwidth : s.efficiency.mfuPrefill) = std::clamp(value, 1e-3, 1.0);
                return s;
            };
            lower = at(eta.value + *eta.standardError); // faster: the lower latency
            upper = at(eta.value - *eta.standardError);
        }
    }

    Extent yRange;
    Extent residualRange;
    residualRange.log = false;
    residualRange.include(-2.0);
    residualRange.include(2.0);
    double aboveFloor = 0;
    int aboveCount = 0;
    for (size_t g = 0; g < m_groups.size(); ++g) {
        const Group& group = m_groups[g];
        const double context = m_groupKeys[g];
        auto curve = [&](QCPGraph* graph, const std::optional<model::Scenario>& s) {
            if (!s) {
                seriesdata::clear(graph);
                return;
            }
            const std::vector<double> ms =
                document::latencyMs(*s, itl ? document::LatencyKind::Itl : document::LatencyKind::Ttft, m_grid, context);
            seriesdata::assign(graph, kCurvePoints, [&](int i) { return std::make_pair(m_grid[size_t(i)], ms[size_t(i)]); },
                               true, true);
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
                yRange.include(it->value);
        };
        curve(group.floor, floor);
        curve(group.calibrated, fitted ? std::optional<model::Scenario>(reference) : std::nullopt);
        curve(group.lower, lower);
        curve(group.upper, upper);
        if (itl)
            group.calibrated->setName(tr("S = %1").arg(format::integer(context)));
        // Names for the exported CSV (these graphs stay out of the legend, which keys them by style).
        const QString suffix = itl ? tr(", S = %1").arg(format::integer(context)) : QString();
        group.floor->setName(tr("floor%1").arg(suffix));
        group.lower->setName(tr("calibrated \u2212 1 s.e.%1").arg(suffix));
        group.upper->setName(tr("calibrated + 1 s.e.%1").arg(suffix));
        group.points->setName(tr("measured%1").arg(suffix));
        group.residuals->setName(tr("residual%1").arg(suffix));

        std::vector<std::pair<double, double>> mine, residuals;
        for (const Point& pt : points) {
            if (pt.group != int(g))
                continue;
            mine.emplace_back(pt.x, pt.y);
            yRange.include(pt.y);
            const double x = itl ? std::max(1.0, std::round(pt.x)) : wholeTokens(pt.x);
            const double model = modelMs(reference, x, wholeTokens(pt.context));
            const double residual = (pt.y / model - 1.0) * 100.0;
            residuals.emplace_back(pt.x, residual);
            residualRange.include(residual);
            const double atFloor = modelMs(floor, x, wholeTokens(pt.context));
            if (atFloor > 0 && std::isfinite(atFloor)) {
                aboveFloor += pt.y / atFloor - 1.0;
                ++aboveCount;
            }
        }
        std::sort(mine.begin(), mine.end());
        std::sort(residuals.begin(), residuals.end());
        seriesdata::assign(group.points, int(mine.size()), [&](int i) { return mine[size_t(i)]; }, true, true);
        seriesdata::assign(group.residuals, int(residuals.size()), [&](int i) { return residuals[size_t(i)]; }, true, false);
    }

    p->xAxis->setRange(m_grid.front() / 1.25, m_grid.back()); // room for points at the smallest batch or prompt
    // Range on what matters: the points and the curves over the points' span, not the far ends of the grid.
    Extent focus;
    for (const Point& pt : points)
        focus.include(pt.y);
    if (focus.valid()) {
        for (const Group& group : m_groups) {
            for (QCPGraph* graph : {group.floor, group.calibrated}) {
                for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
                    bool inSpan = false;
                    for (const Point& pt : points)
                        inSpan = inSpan || (it->key >= pt.x / 1.5 && it->key <= pt.x * 1.5);
                    if (inSpan)
                        focus.include(it->value);
                }
            }
        }
        applyRange(p->yAxis, focus, 1.3, QCPRange(1, 1000));
    } else {
        applyRange(p->yAxis, yRange, 1.3, QCPRange(1, 1000));
    }
    m_residualPlot->xAxis->setRange(p->xAxis->range());
    const double span = std::max(std::abs(residualRange.low), std::abs(residualRange.high)) * 1.25;
    m_residualPlot->yAxis->setRange(-span, span);

    // The takeaway.
    QString text;
    const QString what = itl ? tr("ITL") : tr("TTFT");
    if (points.empty()) {
        text = tr("No %1 measurements yet: import a CSV or a vLLM benchmark JSON; dashed is the floor.").arg(what);
    } else if (!fitted) {
        const double mean = aboveCount > 0 ? aboveFloor / aboveCount : 0.0;
        const QString count = counted(double(points.size()), tr("1 point"), tr("%1 points"));
        text = itl ? tr("%1 at %2; measured ITL averages %3 above the floor. Fit to calibrate.")
                         .arg(count, counted(double(m_groupKeys.size()), tr("1 context"), tr("%1 contexts")), format::percent(mean))
                   : tr("%1; measured TTFT averages %2 above the floor. Fit to calibrate.").arg(count, format::percent(mean));
        if (m_result)
            text = tr("%1 could not be fitted (see the notes); the points against the floor.").arg(what);
    } else {
        const model::Coefficient& eta = itl ? m_result->bandwidthEfficiency : m_result->mfuPrefill;
        const model::Coefficient& overhead = itl ? m_result->stepOverheadMs : m_result->prefillOverheadMs;
        const model::FitError& error = itl ? m_result->itl : m_result->ttft;
        auto withError = [](const model::Coefficient& c, int digits, const QString& unit) {
            QString s = format::number(c.value, digits) + unit;
            if (c.standardError)
                s = format::number(c.value, digits) + QStringLiteral(" \u00b1 ") + format::number(*c.standardError, 2) + unit;
            return s;
        };
        text = tr("%1 %2, overhead %3: MAPE %4 \u2192 %5 over %6.")
                   .arg(itl ? tr("\u03b7_bw") : tr("MFU"), withError(eta, 3, QString()),
                        overhead.fitted ? withError(overhead, 3, tr(" ms")) : tr("0 (not fitted)"),
                        format::percent(error.mapeBefore), format::percent(error.mapeAfter),
                        counted(error.points, tr("1 point"), tr("%1 points")));
    }
    if (hiddenContexts > 0)
        text += tr(" %1 drawn with the nearest curve.").arg(counted(hiddenContexts, tr("1 more context"), tr("%1 more contexts")));
    setTakeaway(text);
    p->replot(QCustomPlot::rpQueuedReplot);
    if (m_residualPlot->isVisible())
        m_residualPlot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ridgeline::views
