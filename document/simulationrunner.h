// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <memory>
#include <utility>
#include <vector>

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include "model/cost/scenario.h"
#include "model/sim/simulator.h" // its config and result types are the views' too (views include this header, not the simulator)

class QThread;

namespace ridgeline::views {

/**
 * What the Simulation tab draws, derived from a run off the UI thread so that showing it costs
 * only copies into the plots. Times are seconds unless a name says ms.
 */
struct SimulationDigest {
    /** Probabilities of the CDF grid: kCdfPoints values from 0 to 1. */
    static constexpr int kCdfPoints = 201;
    std::vector<double> cdfProbability;  ///< kCdfPoints values, i / (kCdfPoints - 1)
    std::vector<double> ttftCdfMs;       ///< TTFT quantile (nearest rank) of completed requests at each probability, ms (empty: none)
    std::vector<double> tpotCdfMs;       ///< per-request TPOT quantiles, ms (requests with two tokens or more; empty: none)
    std::vector<double> itlCdfMs;        ///< quantiles of every inter-token interval, ms (empty: token times not recorded)

    /** Most (time, interval) points the ITL timeline shows. */
    static constexpr int kMaxTimelinePoints = 40000;
    /** Sequences the ITL timeline samples (evenly among those decoding in the window, plus the worst gap's). */
    static constexpr int kTimelineSequences = 48;
    /** Length of the ITL timeline's window, s: centred on the worst gap, inside the run. */
    static constexpr double kTimelineWindowSeconds = 20;
    double windowStart = 0, windowEnd = 0;           ///< the timeline's window, s (the whole run without token times)
    double worstGapSeconds = -1;                     ///< time of the token after the worst interval, s (-1: none recorded)
    std::vector<std::pair<double, double>> timeline; ///< (token time s, interval before it ms) in the window, sorted by time
    int timelineSequences = 0;                       ///< sequences sampled into timeline
    std::vector<std::pair<double, double>> prefills; ///< (end of the prefill step s, prompt tokens) per request whose prefill
                                                     ///< ended in the window, sorted by time
};

/** Everything one run produced, with the inputs it ran on. */
struct SimulationOutcome {
    model::Scenario scenario;                 ///< as simulated
    model::SimulationConfig config;           ///< as simulated (recordTokenTimes as decided by the runner)
    std::string title;                        ///< the example's title, or "" for the inputs alone
    model::SimulationResult result;           ///< model::simulate on the generated requests
    std::vector<model::SweepPoint> sweep;     ///< one point per config.sweepMaxSequences cap, same requests
    model::RateSweep rateSweep;               ///< the arrival-rate sweep asked for (steps 0: none)
    /// model::sweepArrivalRate of config at rateSweep's rates (empty points: none asked for); its runs keep no records
    model::RateSweepResult rateSweepResult;
    SimulationDigest digest;
    double elapsedSeconds = 0;                ///< wall time of the whole run
};

/**
 * Runs model::generateRequests, model::simulate and the max-sequences sweep on a worker QThread
 * (QtConcurrent is not linked), one run wanted at a time.
 *
 * Progress is counted in whole simulations (the main run, then each cap of the sweep, then each run of
 * the arrival-rate sweep: total = simulationCount()), with the percentage of the current one in the stage text ("Simulating 1,000 requests: 42%"),
 * from the engine's progress callback (model::SimulationProgress). cancel() abandons the run at once:
 * the UI gets cancelled() immediately and never sees that run's result; the callback returns false at
 * its next call, a few milliseconds of work later, and the worker exits: it stops computing and frees
 * its memory well within 100 ms. A new start() abandons the run under way the same way.
 *
 * Token times (for the ITL timeline and the every-interval CDF) are recorded only when the
 * generated requests' output tokens total at most kMaxRecordedTokens (8 bytes each).
 */
class SimulationRunner final : public QObject {
    Q_OBJECT

public:
    /** Output-token total above which token times are not recorded (about 32 MB of times). */
    static constexpr double kMaxRecordedTokens = 4e6;

    explicit SimulationRunner(QObject* parent = nullptr);
    /** Abandons the run under way and waits for every worker (abandoned ones too) to return. */
    ~SimulationRunner() override;

    /**
     * Starts simulating @p config on @p scenario (preconditions of model::simulate: both checked by
     * the caller). Abandons any run under way first. @p title is copied into the outcome. @p rateSweep with steps > 0
     * (checked by the caller: model::checkRateSweep) adds an open-loop arrival-rate sweep of @p config after the run
     * and the cap sweep (SimulationOutcome::rateSweepResult).
     */
    void start(const model::Scenario& scenario, const model::SimulationConfig& config, const std::string& title = {},
               const model::RateSweep& rateSweep = {});

    /** Simulations a run counts in its progress: 1 + caps + (rate sweep: steps + bisections, an upper bound). */
    static int simulationCount(const model::SimulationConfig& config, const model::RateSweep& rateSweep);

    /** Abandons the run under way (no-op when none): emits cancelled() now; its result is dropped. */
    void cancel();

    /** True from start() until finished() or cancelled(). */
    bool isRunning() const { return m_current != nullptr; }

    /** Worker threads still executing, abandoned ones included. */
    int activeWorkers() const;

    /** Blocks until every worker has returned (tests, shutdown); queued results are then delivered
     *  by the event loop as usual. */
    void waitForWorkers();

    /** Builds the digest of @p outcome's result (exposed for tests; the worker calls it). */
    static SimulationDigest digest(const model::SimulationResult& result, const model::SimulationConfig& config);

signals:
    /** @p done of @p total simulations finished; @p stage says what runs next. */
    void progressChanged(int done, int total, const QString& stage);
    /** The run finished; @p outcome is complete. */
    void finished(std::shared_ptr<const SimulationOutcome> outcome);
    /** The run was abandoned by cancel() (start() replacing a run abandons it silently). */
    void cancelled();

private:
    struct Job {
        std::atomic<bool> cancelled{false};
    };

    void deliverProgress(const std::shared_ptr<Job>& job, int done, int total, const QString& stage);
    void deliverResult(const std::shared_ptr<Job>& job, std::shared_ptr<const SimulationOutcome> outcome);

    std::shared_ptr<Job> m_current;
    QList<QPointer<QThread>> m_workers;
};

} // namespace ridgeline::views
