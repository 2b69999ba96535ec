// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"

namespace ridgeline::views {

/**
 * The one document of the window: the current model::Scenario and the last valid
 * model::Evaluation. Controls edit it; plots and panels read evaluation() when evaluated() fires.
 *
 * Edits are coalesced: any number of edit() / setScenario() calls within one pass of the event
 * loop cause exactly one model::validate and one model::evaluate (into storage reused across
 * evaluations), from a single-shot timer, followed by one evaluated() signal.
 *
 * Edits are also throttled to the frame rate (leading and trailing edge): an edit arriving when the
 * last evaluation pass began at least minimumInterval() ago (16 ms by default) is evaluated on the
 * next pass of the event loop; one arriving sooner is held until that interval has passed and is
 * then evaluated with the latest scenario. A drag delivering a change every millisecond therefore
 * costs about one evaluation and one redraw per 16 ms frame, never a backlog, and the last value is
 * evaluated at most one interval after it arrived.
 *
 * evaluateNow() flushes synchronously. An invalid scenario keeps the last valid evaluation, is
 * reported through invalidChanged() and errorText(), and emits no evaluated().
 */
class ScenarioDocument final : public QObject {
    Q_OBJECT

public:
    /** Starts from @p initial and evaluates it at once, so evaluation() is ready on return.
     *  If @p initial is invalid, errorText() says why and evaluation() is that of
     *  model::defaultScenario() until the scenario becomes valid. */
    explicit ScenarioDocument(const model::Scenario& initial, QObject* parent = nullptr);

    /** The scenario as currently edited (possibly invalid: see errorText()). */
    const model::Scenario& scenario() const { return m_scenario; }

    /** The last valid evaluation: always finite and consistent with evaluatedScenario(). */
    const model::Evaluation& evaluation() const { return m_evaluation; }

    /** The scenario evaluation() was computed from (differs from scenario() while an evaluation
     *  is pending or the current scenario is invalid). Views draw markers from this one. */
    const model::Scenario& evaluatedScenario() const { return m_evaluatedScenario; }

    /** Replaces the whole scenario; emits scenarioChanged() and schedules an evaluation. */
    void setScenario(const model::Scenario& scenario);

    /** Applies @p change to the scenario; emits scenarioChanged() and schedules an evaluation. */
    void edit(const std::function<void(model::Scenario&)>& change);

    /** The messages of model::validate for the current scenario, one per line; empty when valid
     *  (as of the last evaluation pass). */
    QString errorText() const { return m_errorText; }

    /** Number of model::evaluate calls made so far (the constructor's counts as one). */
    int evaluationCount() const { return m_evaluationCount; }

    /** True while an edit waits for the coalescing timer. */
    bool isEvaluationPending() const { return m_timer.isActive(); }

    /** The default of minimumInterval(): one frame at 60 Hz, rounded down (ms). */
    static constexpr int kDefaultMinimumIntervalMs = 16;

    /** Least time between the starts of two evaluation passes caused by edits (ms). */
    int minimumInterval() const { return m_minimumIntervalMs; }

    /** Sets minimumInterval() to @p ms (clamped to >= 0); 0 evaluates every edit on the next pass
     *  of the event loop, as before throttling. Takes effect from the next edit. */
    void setMinimumInterval(int ms);

public slots:
    /** Validates and evaluates the current scenario now (cancelling any pending pass), then
     *  emits evaluated() if valid or invalidChanged() if the error text changed. */
    void evaluateNow();

signals:
    /** Emitted at once on every edit; controls re-sync from scenario(). */
    void scenarioChanged();
    /** Emitted once per evaluation pass with a valid scenario; read evaluation(). */
    void evaluated();
    /** Emitted when the error text changes: the joined model::validate messages, or an empty
     *  string when the scenario became valid again. */
    void invalidChanged(const QString& message);

private:
    void scheduleEvaluation();

    model::Scenario m_scenario;
    model::Scenario m_evaluatedScenario;
    model::Evaluation m_evaluation;
    QString m_errorText;
    QTimer m_timer;
    QElapsedTimer m_sinceLastPass; ///< started at each evaluation pass; invalid before the first edit's
    int m_minimumIntervalMs = kDefaultMinimumIntervalMs;
    int m_evaluationCount = 0;
};

} // namespace ridgeline::views
