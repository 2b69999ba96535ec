// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include "document/simulationrunner.h" // the simulator's config and result types, through the document layer
#include "views/kit/plotpanel.h"

class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace ridgeline::views {

struct SimulationOutcome;

/**
 * Base of the Simulation tab's plots: they draw a finished run (showOutcome()), not the document's
 * evaluation, so refresh() does nothing. clearOutcome() empties every graph (before the first run).
 */
class SimulationPlotPanel : public PlotPanel {
    Q_OBJECT

public:
    using PlotPanel::PlotPanel;

    /** Draws @p outcome: data overwritten in place where sizes allow, replot queued. */
    virtual void showOutcome(const SimulationOutcome& outcome) = 0;
    /** Empties the plot and says there is no run yet. */
    virtual void clearOutcome() = 0;
    /** Does nothing: these plots follow runs, not evaluations. */
    void refresh(const model::Scenario&, const model::Evaluation&) final {}
};

/** Display name of a batching policy: "static batching", "continuous batching", "chunked prefill". */
QString policyLabel(model::BatchingPolicy policy);
/** The run's kind for a headline: policyLabel(), or "disaggregated (3 prefill + 2 decode), chunked prefill" for pools. */
QString runLabel(const model::SimulationConfig& config);

/**
 * "ITL timeline": token time (s) against the interval before it (ms, log) for a sample of sequences
 * (SimulationDigest::timeline), the ITL SLO as a red line, and each prefill's end marked by an
 * orange triangle at its prompt length on the right axis (tokens, log), so stalls line up with
 * long prompts (seed 001, 3.4). Object names itlTimelinePanel / itlTimelineTitle / itlTimelinePlot.
 */
class ItlTimelinePlot final : public SimulationPlotPanel {
    Q_OBJECT

public:
    explicit ItlTimelinePlot(QWidget* parent = nullptr);
    void showOutcome(const SimulationOutcome& outcome) override;
    void clearOutcome() override;

    QCPGraph* intervalGraph() const { return m_intervals; }
    QCPGraph* prefillGraph() const { return m_prefills; }

private:
    QCPGraph* m_intervals = nullptr;
    QCPGraph* m_prefills = nullptr;
    QCPItemStraightLine* m_slo = nullptr;
    QCPItemText* m_sloLabel = nullptr;
};

/**
 * "Latency CDFs": fraction of requests (intervals, for ITL) at or below a latency, log ms: TTFT per
 * request, TPOT per request and every inter-token interval, with the TTFT and ITL SLOs.
 * Object names latencyCdfPanel / latencyCdfTitle / latencyCdfPlot.
 */
class LatencyCdfPlot final : public SimulationPlotPanel {
    Q_OBJECT

public:
    explicit LatencyCdfPlot(QWidget* parent = nullptr);
    void showOutcome(const SimulationOutcome& outcome) override;
    void clearOutcome() override;

    QCPGraph* ttftGraph() const { return m_ttft; }
    QCPGraph* tpotGraph() const { return m_tpot; }
    QCPGraph* itlGraph() const { return m_itl; }

private:
    QCPGraph* m_ttft = nullptr;
    QCPGraph* m_tpot = nullptr;
    QCPGraph* m_itl = nullptr;
    QCPItemStraightLine* m_ttftSlo = nullptr;
    QCPItemStraightLine* m_itlSlo = nullptr;
    QCPItemText* m_ttftSloLabel = nullptr;
    QCPItemText* m_itlSloLabel = nullptr;
};

/**
 * "Goodput against the max-sequences cap" (model::sweepMaxSequences, seed 001, 3.1): throughput
 * (tok/s, left) and goodput (% of requests meeting both SLOs, right) at each swept cap, log x with
 * the caps as ticks; the run's own cap marked. Without caps to sweep the run itself is drawn as the
 * one point (at its cap), so the plot is never empty after a run. Object names capSweepPanel /
 * capSweepTitle / capSweepPlot.
 */
class CapSweepPlot final : public SimulationPlotPanel {
    Q_OBJECT

public:
    explicit CapSweepPlot(QWidget* parent = nullptr);
    void showOutcome(const SimulationOutcome& outcome) override;
    void clearOutcome() override;

    QCPGraph* throughputGraph() const { return m_throughput; }
    QCPGraph* goodputGraph() const { return m_goodput; }

private:
    QCPGraph* m_throughput = nullptr;
    QCPGraph* m_goodput = nullptr;
    QCPItemStraightLine* m_cap = nullptr;
};

/**
 * "KV blocks in use": whole-model KV blocks in use over time (the peak of each interval of
 * SimulationResult::kvSeries), the KV budget in blocks as a dashed line, and sequences holding a
 * slot on the right axis. Object names kvUsagePanel / kvUsageTitle / kvUsagePlot.
 */
class KvUsagePlot final : public SimulationPlotPanel {
    Q_OBJECT

public:
    explicit KvUsagePlot(QWidget* parent = nullptr);
    void showOutcome(const SimulationOutcome& outcome) override;
    void clearOutcome() override;

    QCPGraph* blocksGraph() const { return m_blocks; }
    QCPGraph* sequencesGraph() const { return m_sequences; }

private:
    QCPGraph* m_blocks = nullptr;
    QCPGraph* m_sequences = nullptr;
    QCPItemStraightLine* m_total = nullptr;
    QCPItemText* m_totalLabel = nullptr;
};

/** The rate the attainment target holds to, as one line: "Holds 99 % of requests within SLO up to 111.5 req/s
 *  (112.9 req/s misses it)." (SimulationOutcome::rateSweepResult; "" when no sweep ran). */
QString rateSweepTakeaway(const SimulationOutcome& outcome);

/**
 * "Goodput against arrival rate" (model::sweepArrivalRate, the open-loop rate sweep): at each simulated rate
 * (the even steps and the bisections, one point each), goodput (requests meeting both SLOs per second, left) and
 * throughput (output tok/s, right), with the offered rate as a dotted diagonal on the left axis (goodput can only
 * fall below it). Object names rateSweepPanel / rateSweepTitle / rateSweepPlot.
 */
class RateSweepPlot final : public SimulationPlotPanel {
    Q_OBJECT

public:
    explicit RateSweepPlot(QWidget* parent = nullptr);
    void showOutcome(const SimulationOutcome& outcome) override;
    void clearOutcome() override;

    QCPGraph* goodputGraph() const { return m_goodput; }
    QCPGraph* throughputGraph() const { return m_throughput; }
    QCPGraph* offeredGraph() const { return m_offered; }

private:
    QCPGraph* m_goodput = nullptr;
    QCPGraph* m_throughput = nullptr;
    QCPGraph* m_offered = nullptr;
};

/**
 * "SLO attainment against arrival rate": the fraction of requests meeting both SLOs at each simulated rate, the
 * attainment target as a dashed line, and the highest rate that holds it (RateSweepResult::maxRatePerSecond) as a
 * vertical line, named in the takeaway (rateSweepTakeaway()). Object names attainmentPanel / attainmentTitle /
 * attainmentPlot.
 */
class AttainmentPlot final : public SimulationPlotPanel {
    Q_OBJECT

public:
    explicit AttainmentPlot(QWidget* parent = nullptr);
    void showOutcome(const SimulationOutcome& outcome) override;
    void clearOutcome() override;

    QCPGraph* attainmentGraph() const { return m_attainment; }
    QCPItemStraightLine* targetLine() const { return m_target; }
    /** Vertical at the highest rate holding the target; hidden when none does. */
    QCPItemStraightLine* maxRateLine() const { return m_maxRate; }

private:
    QCPGraph* m_attainment = nullptr;
    QCPItemStraightLine* m_target = nullptr;
    QCPItemText* m_targetLabel = nullptr;
    QCPItemStraightLine* m_maxRate = nullptr;
    QCPItemText* m_maxRateLabel = nullptr;
};

} // namespace ridgeline::views
