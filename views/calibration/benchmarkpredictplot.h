// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QString>
#include <QStringList>

#include "views/kit/plotpanel.h"

class QCPGraph;
class QCPItemStraightLine;
class QCustomPlot;

namespace ridgeline::views {

/**
 * One plot of the benchmark prediction (issue 13, "Measured truth"): a latency the benchmark measured at each of
 * its points, against the load (concurrency, static batch or request rate), with the serving simulator's
 * prediction of the same point (model::predictBenchmark), one colour per (input, output length) group:
 * measured as markers, predicted as a line through the predicted points (dots on the points). Under it a strip
 * of the relative residual of every point, predicted / measured - 1 in %, around a 0 line.
 *
 * - Kind::Decode: ITL, or TPOT, or E2E / output token: what the file measures (model::compareItl).
 * - Kind::Ttft: TTFT (model::compareTtft).
 *
 * Both axes of the main plot are logarithmic; the strip's value axis is linear. Points without a drawable
 * value (missing, not predicted, non-finite, or a load of 0) are left out, never drawn as NaN.
 * Object names: "<stem>Panel", "<stem>Title", "<stem>Plot", "<stem>ResidualPlot" with stem predictItl or
 * predictTtft.
 */
class BenchmarkPredictPlot final : public PlotPanel {
    Q_OBJECT

public:
    enum class Kind { Decode, Ttft };

    /** One benchmark point as drawn; NaN where a value is missing. */
    struct Point {
        int group = 0;          ///< index into the groups given to setData()
        double x = 0;           ///< the load: clients, sequences or requests per second
        double measuredMs = 0;  ///< the benchmark's value, ms
        double predictedMs = 0; ///< the simulator's value at the same statistic, ms
    };

    explicit BenchmarkPredictPlot(Kind kind, QWidget* parent = nullptr);

    /** Nothing to do: the view calls setData() when a prediction arrives (the simulator runs off the GUI thread). */
    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation) override;

    /**
     * Draws @p points in @p groups (names such as "ISL/OSL 128/2048", in colour order) against the load axis
     * labelled @p xLabel (with its unit), the latency named @p metric ("mean ITL", "median TPOT": the value
     * axis reads "<metric> (ms)"). @p takeaway is the line under the heading. Data in place, replot queued.
     */
    void setData(const QStringList& groups, const std::vector<Point>& points, const QString& xLabel, const QString& metric,
                 const QString& takeaway);

    Kind kind() const { return m_kind; }
    QCustomPlot* residualPlot() const { return m_residualPlot; }
    /** Groups drawn. */
    int groupCount() const { return int(m_groups.size()); }
    QCPGraph* measuredGraph(int group) const { return m_groups.at(size_t(group)).measured; }
    QCPGraph* predictedGraph(int group) const { return m_groups.at(size_t(group)).predicted; }
    QCPGraph* residualGraph(int group) const { return m_groups.at(size_t(group)).residuals; }

private:
    struct Group {
        QCPGraph* key = nullptr;       ///< legend entry of the group (no data)
        QCPGraph* predicted = nullptr; ///< line through the predicted points
        QCPGraph* measured = nullptr;  ///< markers
        QCPGraph* residuals = nullptr; ///< on the residual strip
    };

    void ensureGroups(int count);

    Kind m_kind;
    QCustomPlot* m_residualPlot = nullptr;
    QCPItemStraightLine* m_zero = nullptr;
    std::vector<Group> m_groups;
};

} // namespace ridgeline::views
