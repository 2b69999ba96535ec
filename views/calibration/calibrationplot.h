// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <vector>

#include <QString>

#include "model/analysis/calibration.h"
#include "views/kit/plotpanel.h"

class QCPGraph;
class QCPItemStraightLine;
class QCustomPlot;

namespace ridgeline::views {

/**
 * One calibration plot, in three layers: the floor (the scenario with every efficiency 1 and no
 * overheads, dashed), the calibrated curve (the scenario with the fitted efficiency and overhead)
 * inside a band from the efficiency at value - s.e. to value + s.e., and the measured points.
 *
 * - Kind::Itl, "ITL against batch": inter-token latency (ms) against batch B (sequences), log-log,
 *   one curve set per measured context S (points within 10 % share a context; at most kMaxGroups,
 *   the most populated), from the cost model's decode step t_step(B, S) (model::costTerms).
 * - Kind::Ttft, "TTFT against prompt length": time to first token (ms) against prompt P (tokens),
 *   log-log, from the prefill-only step (model::StepCost), i.e. evaluate().prefill.seconds.
 *
 * Residuals on demand (setResidualsVisible()): a second plot under the first, relative residuals
 * (measured / model - 1, %) of every point against the calibrated scenario (against the current
 * scenario before a fit). Every value drawn is finite.
 * Object names: "<stem>Panel", "<stem>Title", "<stem>Plot", "<stem>ResidualPlot" with stem
 * calibrationItl or calibrationTtft.
 */
class CalibrationPlot final : public PlotPanel {
    Q_OBJECT

public:
    enum class Kind { Itl, Ttft };
    /** Most contexts drawn as separate curves on the ITL plot. */
    static constexpr int kMaxGroups = 5;
    /** Points of each curve. */
    static constexpr int kCurvePoints = 97;

    explicit CalibrationPlot(Kind kind, QWidget* parent = nullptr);

    /** Redraws the floor and calibrated curves for @p scenario (the document's), keeping the points and fit. */
    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation) override;

    /**
     * Draws @p points and, when given, @p result on @p scenario (the document's evaluated scenario;
     * the calibrated curve is it with the fitted efficiency and overhead). Data in place, replot queued.
     */
    void setData(const model::Scenario& scenario, const std::vector<model::Measurement>& points,
                 const std::optional<model::CalibrationResult>& result);

    /** Shows or hides the residual plot. */
    void setResidualsVisible(bool visible);
    bool residualsVisible() const;

    Kind kind() const { return m_kind; }
    QCustomPlot* residualPlot() const { return m_residualPlot; }
    /** Curve sets drawn (contexts on the ITL plot; 0 or 1 on the TTFT plot). */
    int groupCount() const { return int(m_groupKeys.size()); }
    /** The context S (tokens) of ITL group @p group; 0 on the TTFT plot. */
    double groupContext(int group) const { return m_groupKeys.at(size_t(group)); }
    QCPGraph* floorGraph(int group) const { return m_groups.at(size_t(group)).floor; }
    QCPGraph* calibratedGraph(int group) const { return m_groups.at(size_t(group)).calibrated; }
    QCPGraph* bandLowerGraph(int group) const { return m_groups.at(size_t(group)).lower; }
    QCPGraph* bandUpperGraph(int group) const { return m_groups.at(size_t(group)).upper; }
    QCPGraph* pointsGraph(int group) const { return m_groups.at(size_t(group)).points; }
    QCPGraph* residualGraph(int group) const { return m_groups.at(size_t(group)).residuals; }

private:
    struct Group {
        QCPGraph* floor = nullptr;
        QCPGraph* calibrated = nullptr;
        QCPGraph* lower = nullptr;
        QCPGraph* upper = nullptr;
        QCPGraph* points = nullptr;
        QCPGraph* residuals = nullptr;
    };

    /** Latency in ms on @p scenario at x (batch or prompt) and context @p context (ITL only). */
    double modelMs(const model::Scenario& scenario, double x, double context) const;
    void ensureGroups(int count);
    void redraw();

    Kind m_kind;
    QCustomPlot* m_residualPlot = nullptr;
    QCPItemStraightLine* m_zero = nullptr;
    std::vector<Group> m_groups;
    std::vector<double> m_groupKeys; ///< context per group (ITL), 0 (TTFT)
    model::Scenario m_scenario;
    std::vector<model::Measurement> m_points;
    std::optional<model::CalibrationResult> m_result;
    std::vector<double> m_grid; ///< x grid of the curves, reused
};

} // namespace ridgeline::views
