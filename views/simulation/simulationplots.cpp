// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/simulation/simulationplots.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "document/format.h"
#include "views/kit/palette.h"
#include "views/kit/plotkit.h"
#include "views/kit/resulttable.h"
#include "views/kit/seriesdata.h"
#include "document/simulationrunner.h"

namespace ridgeline::views {

using namespace plotkit;

namespace {

/** Most prefill markers drawn; beyond it they are thinned, keeping every long prompt. */
constexpr int kMaxPrefillMarkers = 6000;

/** Includes every drawable value of a vector. */
void includeAll(Extent& extent, const std::vector<double>& values)
{
    for (double v : values)
        extent.include(v);
}

} // namespace

QString policyLabel(model::BatchingPolicy policy)
{
    switch (policy) {
    case model::BatchingPolicy::Static: return QObject::tr("static batching");
    case model::BatchingPolicy::Continuous: return QObject::tr("continuous batching");
    case model::BatchingPolicy::Chunked: return QObject::tr("chunked prefill");
    }
    return {};
}

QString runLabel(const model::SimulationConfig& config)
{
    if (config.prefillReplicas <= 0)
        return policyLabel(config.policy);
    return QObject::tr("disaggregated (%1 prefill + %2 decode), %3")
        .arg(config.prefillReplicas)
        .arg(config.replicas)
        .arg(policyLabel(config.policy));
}

// ---------------------------------------------------------------------------------------------
// ITL timeline

ItlTimelinePlot::ItlTimelinePlot(QWidget* parent)
    : SimulationPlotPanel(tr("ITL timeline"), QStringLiteral("itlTimeline"),
                          tr("20 s of the run around its worst inter-token gap: every interval of up to 48 sequences decoding\n"
                             "then, at the time its token appeared (an interval is the time between two of a request's tokens,\n"
                             "a preemption's wait included). Triangles: the end of each request's prefill, at its prompt\n"
                             "length (right axis). Stalls that line up with long prompts are prefill interference\n"
                             "(seed 001, 3.4): chunked prefill bounds them by one chunk of the token budget."),
                          parent)
{
    QCustomPlot* p = plot();
    setupAxis(p->xAxis, tr("time (s)"), false);
    setupAxis(p->yAxis, tr("ITL (ms)"), true);
    setupAxis(p->yAxis2, tr("prompt tokens"), true);
    p->yAxis2->setVisible(true);
    p->yAxis2->grid()->setVisible(false);
    p->yAxis2->grid()->setSubGridVisible(false);

    // Prefills first, so the intervals draw over them. Alphas of 210 keep dense clouds readable while
    // each dot and outline stays at 3:1 or more against the card (WCAG 1.4.11; tst_tabplots).
    m_prefills = addMarker(p, p->xAxis, p->yAxis2,
                           QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(palette::withAlpha(palette::compute(), 210), 1.0),
                                           palette::withAlpha(palette::compute(), 50), 6.0));
    m_prefills->setName(tr("prefill end (right)"));
    m_prefills->addToLegend();
    m_intervals = addMarker(p, p->xAxis, p->yAxis,
                            QCPScatterStyle(QCPScatterStyle::ssDisc, palette::withAlpha(palette::memory(), 210), 3.0));
    m_intervals->setName(tr("ITL"));
    m_intervals->addToLegend();
    m_slo = addStraightLine(p, p->xAxis, p->yAxis, pen(palette::slo(), 1.3, Qt::DashLine));
    m_sloLabel = addLabel(p, p->xAxis, p->yAxis, palette::slo());
    setPlacement(m_sloLabel, Qt::AlignLeft | Qt::AlignBottom);
    placeLegendBelow(p, 2);
    clearOutcome();
}

void ItlTimelinePlot::clearOutcome()
{
    seriesdata::clear(m_intervals);
    seriesdata::clear(m_prefills);
    m_slo->setVisible(false);
    m_sloLabel->setVisible(false);
    plot()->xAxis->setLabel(tr("time (s)"));
    plot()->xAxis->setRange(0, 60);
    plot()->yAxis->setRange(1, 1000);
    plot()->yAxis2->setRange(10, 1e5);
    setTakeaway(tr("No run yet: press Run."));
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void ItlTimelinePlot::showOutcome(const SimulationOutcome& outcome)
{
    const SimulationDigest& d = outcome.digest;
    const model::SimulationResult& r = outcome.result;
    QCustomPlot* p = plot();

    const int intervals = seriesdata::assign(m_intervals, int(d.timeline.size()), [&](int i) { return d.timeline[size_t(i)]; },
                                             false, true);
    // Prefill markers, thinned evenly when there are very many (long prompts always kept).
    std::vector<std::pair<double, double>> prefills;
    const std::vector<std::pair<double, double>>* shown = &d.prefills;
    if (d.prefills.size() > size_t(kMaxPrefillMarkers)) {
        std::vector<double> prompts;
        prompts.reserve(d.prefills.size());
        for (const auto& e : d.prefills)
            prompts.push_back(e.second);
        const size_t top = prompts.size() - prompts.size() / 50; // the longest 2 %
        std::nth_element(prompts.begin(), prompts.begin() + std::ptrdiff_t(top), prompts.end());
        const double longPrompt = prompts[top];
        const size_t stride = (d.prefills.size() + kMaxPrefillMarkers - 1) / kMaxPrefillMarkers;
        for (size_t i = 0; i < d.prefills.size(); ++i) {
            if (i % stride == 0 || d.prefills[i].second >= longPrompt)
                prefills.push_back(d.prefills[i]);
        }
        shown = &prefills;
    }
    seriesdata::assign(m_prefills, int(shown->size()), [&](int i) { return (*shown)[size_t(i)]; }, false, true);
    m_intervals->setName(tr("ITL (%1 seq.)").arg(d.timelineSequences));

    const double slo = outcome.config.itlSloMs;
    placeHorizontal(m_slo, slo);
    m_sloLabel->setVisible(true);
    m_sloLabel->setText(outcome.config.itlSloStatistic == model::ItlSloStatistic::Mean
                            ? tr("ITL SLO %1 (on TPOT)").arg(format::milliseconds(slo))
                            : tr("ITL SLO %1 (on the worst gap)").arg(format::milliseconds(slo)));
    placeLabelAt(m_sloLabel, 0, slo);

    Extent time;
    time.log = false;
    time.include(d.windowStart);
    time.include(d.windowEnd);
    applyRange(p->xAxis, time, 0.01, QCPRange(0, 60));
    Extent gap;
    for (const auto& e : d.timeline)
        gap.include(e.second);
    gap.include(slo);
    gap.include(r.all.latency.itl.max * 1e3);
    applyRange(p->yAxis, gap, 1.4, QCPRange(1, 1000));
    Extent prompt;
    for (const auto& e : *shown)
        prompt.include(e.second);
    applyRange(p->yAxis2, prompt, 1.4, QCPRange(10, 1e5));
    placeLabelAt(m_sloLabel, p->xAxis->range().lower, slo);

    const model::LatencySummary& l = r.all.latency;
    const QString policy = runLabel(outcome.config);
    QString text = tr("%1: max ITL %2, p99 %3, TPOT %4")
                       .arg(policy, format::duration(l.itl.max), format::duration(l.itl.p99), format::duration(l.tpot.mean));
    if (intervals == 0 && !outcome.config.recordTokenTimes) {
        text += tr("; token times not recorded (over %1 output tokens), so no intervals to show")
                    .arg(format::approximate(SimulationRunner::kMaxRecordedTokens));
    } else {
        if (l.tpot.mean > 0 && l.itl.max > 3.0 * l.tpot.mean && outcome.config.policy != model::BatchingPolicy::Chunked)
            text += tr(": stalls where whole prompts prefill");
    }
    const bool windowed = d.worstGapSeconds >= 0 && d.windowEnd - d.windowStart < r.spanSeconds * 0.999;
    p->xAxis->setLabel(windowed ? tr("time (s), worst gap \u00b1 %1").arg(format::duration((d.windowEnd - d.windowStart) / 2))
                                : tr("time (s)"));
    setTakeaway(text + QStringLiteral("."));
    p->replot(QCustomPlot::rpQueuedReplot);
}

// ---------------------------------------------------------------------------------------------
// Latency CDFs

LatencyCdfPlot::LatencyCdfPlot(QWidget* parent)
    : SimulationPlotPanel(tr("Latency CDFs"), QStringLiteral("latencyCdf"),
                          tr("Fraction at or below each latency (nearest-rank quantiles on a grid of 201 probabilities):\n"
                             "  TTFT = first token - arrival, per request;\n"
                             "  TPOT = (last token - first token) / (output - 1), per request;\n"
                             "  ITL = every interval between two tokens of a request.\n"
                             "A TPOT curve far left of the ITL tail is a mean hiding stalls (seed 001, 3.4)."),
                          parent)
{
    QCustomPlot* p = plot();
    setupAxis(p->xAxis, tr("latency (ms)"), true);
    setupAxis(p->yAxis, tr("fraction \u2264 x"), false);
    m_ttft = addCurve(p, p->xAxis, p->yAxis, pen(palette::compute(), 2.2), tr("TTFT"));
    m_tpot = addCurve(p, p->xAxis, p->yAxis, pen(palette::memory(), 2.0, Qt::DashLine), tr("TPOT"));
    m_itl = addCurve(p, p->xAxis, p->yAxis, pen(palette::memory(), 2.2), tr("ITL (all gaps)"));
    m_ttftSlo = addStraightLine(p, p->xAxis, p->yAxis, pen(palette::slo(), 1.2, Qt::DotLine));
    m_itlSlo = addStraightLine(p, p->xAxis, p->yAxis, pen(palette::slo(), 1.2, Qt::DashLine));
    m_ttftSloLabel = addLabel(p, p->xAxis, p->yAxis, palette::slo());
    m_itlSloLabel = addLabel(p, p->xAxis, p->yAxis, palette::slo());
    setPlacement(m_ttftSloLabel, Qt::AlignRight | Qt::AlignTop);
    setPlacement(m_itlSloLabel, Qt::AlignRight | Qt::AlignTop);
    placeLegendBelow(p, 3);
    clearOutcome();
}

void LatencyCdfPlot::clearOutcome()
{
    for (QCPGraph* g : {m_ttft, m_tpot, m_itl})
        seriesdata::clear(g);
    for (QCPAbstractItem* item : std::initializer_list<QCPAbstractItem*>{m_ttftSlo, m_itlSlo, m_ttftSloLabel, m_itlSloLabel})
        item->setVisible(false);
    plot()->xAxis->setRange(1, 10000);
    plot()->yAxis->setRange(0, 1.02);
    setTakeaway(tr("No run yet."));
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void LatencyCdfPlot::showOutcome(const SimulationOutcome& outcome)
{
    const SimulationDigest& d = outcome.digest;
    QCustomPlot* p = plot();
    auto assign = [&](QCPGraph* graph, const std::vector<double>& quantiles) {
        const int n = int(std::min(quantiles.size(), d.cdfProbability.size()));
        seriesdata::assign(graph, n, [&](int i) { return std::make_pair(quantiles[size_t(i)], d.cdfProbability[size_t(i)]); },
                           true, false);
    };
    assign(m_ttft, d.ttftCdfMs);
    assign(m_tpot, d.tpotCdfMs);
    assign(m_itl, d.itlCdfMs);

    const double ttftSlo = outcome.config.ttftSloMs, itlSlo = outcome.config.itlSloMs;
    placeVertical(m_ttftSlo, ttftSlo);
    placeVertical(m_itlSlo, itlSlo);
    m_ttftSloLabel->setVisible(true);
    m_itlSloLabel->setVisible(true);
    m_ttftSloLabel->setText(tr("TTFT SLO"));
    m_itlSloLabel->setText(tr("ITL SLO"));
    placeLabelAtKey(m_ttftSloLabel, ttftSlo, 0.30);
    placeLabelAtKey(m_itlSloLabel, itlSlo, 0.08);

    Extent x;
    includeAll(x, d.ttftCdfMs);
    includeAll(x, d.tpotCdfMs);
    includeAll(x, d.itlCdfMs);
    x.include(ttftSlo);
    x.include(itlSlo);
    applyRange(p->xAxis, x, 1.3, QCPRange(1, 10000));
    p->yAxis->setRange(0, 1.02);

    const model::TrafficSummary& all = outcome.result.all;
    setTakeaway(tr("p99 TTFT %1 (SLO %2), p99 ITL %3 (SLO %4); %5 of requests meet both.")
                    .arg(format::duration(all.latency.ttft.p99), format::milliseconds(ttftSlo), format::duration(all.latency.itl.p99),
                         format::milliseconds(itlSlo), format::percent(all.goodputFraction)));
    p->replot(QCustomPlot::rpQueuedReplot);
}

// ---------------------------------------------------------------------------------------------
// Cap sweep

CapSweepPlot::CapSweepPlot(QWidget* parent)
    : SimulationPlotPanel(tr("Goodput against the cap"), QStringLiteral("capSweep"),
                          tr("The same requests simulated once per cap on sequences holding a slot (model::sweepMaxSequences):\n"
                             "  throughput = output tokens / span;  goodput = requests meeting both SLOs / requests.\n"
                             "Raising the cap past the goodput peak buys little throughput and costs SLO-conforming\n"
                             "traffic (seed 001, 3.1): cap at the goodput peak, not the throughput one."),
                          parent)
{
    QCustomPlot* p = plot();
    setupAxis(p->xAxis, tr("max sequences (cap)"), true);
    setupAxis(p->yAxis, tr("throughput (tok/s)"), false);
    setupAxis(p->yAxis2, tr("goodput (%)"), false);
    p->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    p->yAxis2->setVisible(true);
    p->yAxis2->grid()->setVisible(false);
    m_throughput = addCurve(p, p->xAxis, p->yAxis, pen(palette::throughput(), 2.2), tr("throughput (left)"));
    m_throughput->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, palette::throughput(), 6));
    m_goodput = addCurve(p, p->xAxis, p->yAxis2, pen(palette::ruling(), 2.2), tr("goodput (right)"));
    m_goodput->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, pen(palette::ruling(), 1.5), palette::card(), 6));
    m_cap = addStraightLine(p, p->xAxis, p->yAxis, pen(palette::reference(), 1.2, Qt::DotLine));
    placeLegendBelow(p, 2);
    clearOutcome();
}

void CapSweepPlot::clearOutcome()
{
    seriesdata::clear(m_throughput);
    seriesdata::clear(m_goodput);
    m_cap->setVisible(false);
    plot()->xAxis->setRange(4, 512);
    plot()->yAxis->setRange(0, 1000);
    plot()->yAxis2->setRange(0, 105);
    setTakeaway(tr("No run yet."));
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void CapSweepPlot::showOutcome(const SimulationOutcome& outcome)
{
    QCustomPlot* p = plot();
    std::vector<model::SweepPoint> points = outcome.sweep;
    const bool swept = !points.empty();
    if (!swept) {
        // No caps listed (the chat + batch example): the run itself is the one point there is, at its cap.
        model::SweepPoint run;
        run.maxSequences = outcome.config.maxSequences;
        run.throughputTokensPerSecond = outcome.result.all.throughputTokensPerSecond;
        run.goodputRequestsPerSecond = outcome.result.all.goodputRequestsPerSecond;
        run.goodputFraction = outcome.result.all.goodputFraction;
        points.push_back(run);
    }
    std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.maxSequences < b.maxSequences; });
    seriesdata::assign(m_throughput, int(points.size()),
                       [&](int i) { return std::make_pair(double(points[size_t(i)].maxSequences), points[size_t(i)].throughputTokensPerSecond); },
                       true, false);
    seriesdata::assign(m_goodput, int(points.size()),
                       [&](int i) { return std::make_pair(double(points[size_t(i)].maxSequences), points[size_t(i)].goodputFraction * 100.0); },
                       true, false);
    const int cap = outcome.config.maxSequences;
    placeVertical(m_cap, cap);

    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(p->xAxis->ticker());
    if (ticker) {
        ticker->clear();
        for (const model::SweepPoint& s : points)
            ticker->addTick(s.maxSequences, format::integer(s.maxSequences));
    }
    Extent x;
    for (const model::SweepPoint& s : points)
        x.include(double(s.maxSequences));
    x.include(double(cap));
    applyRange(p->xAxis, x, 1.35, QCPRange(4, 512));
    double top = 0;
    for (const model::SweepPoint& s : points)
        top = std::max(top, std::isfinite(s.throughputTokensPerSecond) ? s.throughputTokensPerSecond : 0.0);
    p->yAxis->setRange(0, top > 0 ? top * 1.12 : 1000);
    p->yAxis2->setRange(0, 105);

    if (!swept) {
        setTakeaway(tr("This run only, at cap %1: %2, goodput %3 (list caps under Sweep caps to compare).")
                        .arg(format::integer(points.front().maxSequences),
                             format::tokensPerSecond(points.front().throughputTokensPerSecond),
                             format::percent(points.front().goodputFraction)));
    } else {
        // Ties go to the smaller cap: the same goodput for fewer sequences in flight.
        const model::SweepPoint* good = &points.front();
        const model::SweepPoint* fast = &points.front();
        for (const model::SweepPoint& s : points) {
            if (s.goodputRequestsPerSecond > good->goodputRequestsPerSecond * (1 + 1e-9))
                good = &s;
            if (s.throughputTokensPerSecond > fast->throughputTokensPerSecond * (1 + 1e-9))
                fast = &s;
        }
        const double gain = good->throughputTokensPerSecond > 0
            ? fast->throughputTokensPerSecond / good->throughputTokensPerSecond - 1.0 : 0.0;
        const QString peak = tr("Goodput peaks at cap %1 (%2, %3)")
                                 .arg(format::integer(good->maxSequences), format::percent(good->goodputFraction),
                                      format::tokensPerSecond(good->throughputTokensPerSecond));
        if (fast->maxSequences > good->maxSequences && gain >= 0.001)
            setTakeaway(tr("%1; cap %2 buys only %3 more throughput at goodput %4.")
                            .arg(peak, format::integer(fast->maxSequences), format::percent(gain), format::percent(fast->goodputFraction)));
        else
            setTakeaway(tr("%1; no cap gives 0.1 % more throughput.").arg(peak));
    }
    p->replot(QCustomPlot::rpQueuedReplot);
}

// ---------------------------------------------------------------------------------------------
// KV blocks in use

KvUsagePlot::KvUsagePlot(QWidget* parent)
    : SimulationPlotPanel(tr("KV blocks in use"), QStringLiteral("kvUsage"),
                          tr("Whole-model KV blocks in use over time (the peak of each sampled interval), against the\n"
                             "blocks the KV budget holds; sequences holding a slot on the right. Paged admission\n"
                             "allocates blocks as sequences grow and preempts by recompute when none is free;\n"
                             "contiguous admission reserves max context per sequence (seed 001, 3.3)."),
                          parent)
{
    QCustomPlot* p = plot();
    setupAxis(p->xAxis, tr("time (s)"), false);
    setupAxis(p->yAxis, tr("KV blocks in use"), false);
    setupAxis(p->yAxis2, tr("sequences"), false);
    p->yAxis2->setVisible(true);
    p->yAxis2->grid()->setVisible(false);
    m_blocks = addCurve(p, p->xAxis, p->yAxis, pen(palette::kv(), 1.8), tr("blocks in use"));
    m_blocks->setLineStyle(QCPGraph::lsStepLeft);
    m_blocks->setBrush(QBrush(palette::withAlpha(palette::kv(), 40)));
    m_sequences = addCurve(p, p->xAxis, p->yAxis2, QPen(palette::withAlpha(palette::reference(), 210), 1.0), tr("sequences (right)"));
    m_sequences->setLineStyle(QCPGraph::lsStepLeft);
    m_total = addStraightLine(p, p->xAxis, p->yAxis, pen(palette::kv(), 1.2, Qt::DashLine));
    m_totalLabel = addLabel(p, p->xAxis, p->yAxis, palette::kv());
    setPlacement(m_totalLabel, Qt::AlignLeft | Qt::AlignTop);
    placeLegendBelow(p, 2);
    clearOutcome();
}

void KvUsagePlot::clearOutcome()
{
    seriesdata::clear(m_blocks);
    seriesdata::clear(m_sequences);
    m_total->setVisible(false);
    m_totalLabel->setVisible(false);
    plot()->xAxis->setRange(0, 60);
    plot()->yAxis->setRange(0, 1000);
    plot()->yAxis2->setRange(0, 64);
    setTakeaway(tr("No run yet."));
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void KvUsagePlot::showOutcome(const SimulationOutcome& outcome)
{
    const model::SimulationResult& r = outcome.result;
    QCustomPlot* p = plot();
    const std::vector<model::KvSample>& series = r.kvSeries;
    seriesdata::assign(m_blocks, int(series.size()),
                       [&](int i) { return std::make_pair(series[size_t(i)].seconds, series[size_t(i)].blocks); }, false, false);
    seriesdata::assign(m_sequences, int(series.size()),
                       [&](int i) { return std::make_pair(series[size_t(i)].seconds, double(series[size_t(i)].sequences)); }, false,
                       false);
    placeHorizontal(m_total, r.kvBlocksTotal);
    m_totalLabel->setVisible(std::isfinite(r.kvBlocksTotal));
    m_totalLabel->setText(tr("KV budget: %1 blocks").arg(format::integer(r.kvBlocksTotal)));

    Extent time;
    time.log = false;
    time.include(0.0);
    for (const model::KvSample& s : series)
        time.include(s.seconds);
    time.include(r.spanSeconds);
    applyRange(p->xAxis, time, 0.01, QCPRange(0, 60));
    const double top = std::max(std::isfinite(r.kvBlocksTotal) ? r.kvBlocksTotal : 0.0, std::isfinite(r.kvBlocksPeak) ? r.kvBlocksPeak : 0.0);
    p->yAxis->setRange(0, top > 0 ? top * 1.1 : 1000);
    p->yAxis2->setRange(0, std::max({1.0, double(r.peakSequences), double(outcome.config.maxSequences)}) * 1.1);
    placeLabelAt(m_totalLabel, p->xAxis->range().lower, r.kvBlocksTotal);

    const double share = r.kvBlocksTotal > 0 ? r.kvBlocksPeak / r.kvBlocksTotal : 0.0;
    setTakeaway(tr("Peak %1 of %2 blocks (%3), %4 sequences at most; %5.")
                    .arg(format::integer(r.kvBlocksPeak), format::integer(r.kvBlocksTotal), format::percent(share),
                         format::integer(r.peakSequences),
                         counted(double(r.preemptions), tr("1 preemption"), tr("%1 preemptions"))));
    p->replot(QCustomPlot::rpQueuedReplot);
}

// ---------------------------------------------------------------------------------------------
// Arrival-rate sweep

namespace {

/** The sweep's points with every value drawable (a rate that is not finite and positive is left out). */
/**
 * A linear ticker with no tick above @p ceiling: the attainment axis keeps a few pixels over 100 % so that the points
 * at 100 % are drawn whole, but it has no "100.5 %" label (issue 14, J: the axis ran to 100.5).
 */
class CeilingTicker final : public QCPAxisTicker {
public:
    explicit CeilingTicker(double ceiling) : m_ceiling(ceiling) {}

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override
    {
        QVector<double> ticks = QCPAxisTicker::createTickVector(tickStep, range);
        const double slack = 1e-9 * std::max(1.0, std::abs(m_ceiling));
        ticks.erase(std::remove_if(ticks.begin(), ticks.end(), [this, slack](double t) { return t > m_ceiling + slack; }), ticks.end());
        return ticks;
    }

private:
    double m_ceiling;
};

std::vector<model::RatePoint> drawablePoints(const SimulationOutcome& outcome)
{
    std::vector<model::RatePoint> out;
    for (const model::RatePoint& p : outcome.rateSweepResult.points)
        if (std::isfinite(p.ratePerSecond) && p.ratePerSecond > 0)
            out.push_back(p);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.ratePerSecond < b.ratePerSecond; });
    return out;
}

double finiteOr(double v, double fallback)
{
    return std::isfinite(v) ? v : fallback;
}

QString rateText(double perSecond)
{
    return QObject::tr("%1 req/s").arg(format::number(perSecond, 4));
}

QString targetText(double fraction)
{
    return QObject::tr("%1 %").arg(format::plain(fraction * 100.0));
}

} // namespace

QString rateSweepTakeaway(const SimulationOutcome& outcome)
{
    const model::RateSweepResult& r = outcome.rateSweepResult;
    if (outcome.rateSweep.steps <= 0 || r.points.empty())
        return {};
    const QString target = targetText(outcome.rateSweep.attainmentTarget);
    if (!r.maxRatePerSecond) {
        const model::RatePoint& first = r.points.front();
        return QObject::tr("Misses %1 of requests within SLO already at %2 (%3 attainment).")
            .arg(target, rateText(first.ratePerSecond), format::percent(first.attainment));
    }
    if (!r.firstMissPerSecond)
        return QObject::tr("Holds %1 of requests within SLO at every rate swept, up to %2.").arg(target, rateText(*r.maxRatePerSecond));
    return QObject::tr("Holds %1 of requests within SLO up to %2 (%3 misses it).")
        .arg(target, rateText(*r.maxRatePerSecond), rateText(*r.firstMissPerSecond));
}

RateSweepPlot::RateSweepPlot(QWidget* parent)
    : SimulationPlotPanel(tr("Goodput against arrival rate"), QStringLiteral("rateSweep"),
                          tr("The workload simulated at each arrival rate of the sweep (model::sweepArrivalRate: every class's\n"
                             "rate scaled, the same seed), then bisected where SLO attainment crosses the target:\n"
                             "  goodput = requests meeting both SLOs / span;  throughput = output tokens / span.\n"
                             "Dotted: the offered rate. Goodput follows it while the fleet keeps up and falls away past it."),
                          parent)
{
    QCustomPlot* p = plot();
    setupAxis(p->xAxis, tr("arrival rate (req/s)"), false);
    setupAxis(p->yAxis, tr("goodput (req/s)"), false);
    setupAxis(p->yAxis2, tr("throughput (tok/s)"), false);
    p->yAxis2->setVisible(true);
    p->yAxis2->grid()->setVisible(false);
    m_offered = addCurve(p, p->xAxis, p->yAxis, pen(palette::reference(), 1.2, Qt::DotLine), tr("offered rate"));
    m_goodput = addCurve(p, p->xAxis, p->yAxis, pen(palette::ruling(), 2.2), tr("goodput (left)"));
    m_goodput->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, pen(palette::ruling(), 1.5), palette::card(), 6));
    m_throughput = addCurve(p, p->xAxis, p->yAxis2, pen(palette::throughput(), 2.0), tr("throughput (right)"));
    m_throughput->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, palette::throughput(), 5));
    placeLegendBelow(p, 3);
    clearOutcome();
}

void RateSweepPlot::clearOutcome()
{
    seriesdata::clear(m_goodput);
    seriesdata::clear(m_throughput);
    seriesdata::clear(m_offered);
    plot()->xAxis->setRange(0, 10);
    plot()->yAxis->setRange(0, 10);
    plot()->yAxis2->setRange(0, 1000);
    setTakeaway(tr("No rate sweep: tick Rate sweep and press Run."));
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void RateSweepPlot::showOutcome(const SimulationOutcome& outcome)
{
    const std::vector<model::RatePoint> points = drawablePoints(outcome);
    if (points.empty()) {
        clearOutcome();
        return;
    }
    QCustomPlot* p = plot();
    const int n = int(points.size());
    seriesdata::assign(m_goodput, n, [&](int i) {
        return std::make_pair(points[size_t(i)].ratePerSecond, finiteOr(points[size_t(i)].goodputRequestsPerSecond, 0.0));
    }, false, false);
    seriesdata::assign(m_throughput, n, [&](int i) {
        return std::make_pair(points[size_t(i)].ratePerSecond, finiteOr(points[size_t(i)].throughputTokensPerSecond, 0.0));
    }, false, false);
    const double lo = points.front().ratePerSecond, hi = points.back().ratePerSecond;
    seriesdata::assign(m_offered, 2, [&](int i) { return i == 0 ? std::make_pair(lo, lo) : std::make_pair(hi, hi); }, false, false);
    const double pad = hi > lo ? 0.04 * (hi - lo) : 0.1 * hi;
    p->xAxis->setRange(std::max(0.0, lo - pad), hi + pad);
    double top = hi, topTokens = 0;
    const model::RatePoint* best = &points.front();
    for (const model::RatePoint& q : points) {
        top = std::max(top, finiteOr(q.goodputRequestsPerSecond, 0.0));
        topTokens = std::max(topTokens, finiteOr(q.throughputTokensPerSecond, 0.0));
        if (finiteOr(q.goodputRequestsPerSecond, 0.0) > finiteOr(best->goodputRequestsPerSecond, 0.0) * (1 + 1e-9))
            best = &q;
    }
    p->yAxis->setRange(0, top * 1.12);
    p->yAxis2->setRange(0, topTokens > 0 ? topTokens * 1.12 : 1000);
    setTakeaway(tr("Goodput peaks at %1 at an arrival rate of %2 (%3); %4 rates simulated.")
                    .arg(rateText(best->goodputRequestsPerSecond), rateText(best->ratePerSecond),
                         format::tokensPerSecond(best->throughputTokensPerSecond), format::integer(double(n))));
    p->replot(QCustomPlot::rpQueuedReplot);
}

AttainmentPlot::AttainmentPlot(QWidget* parent)
    : SimulationPlotPanel(tr("SLO attainment against arrival rate"), QStringLiteral("attainment"),
                          tr("At each simulated arrival rate, the fraction of requests meeting both SLOs (TTFT and the ITL\n"
                             "statistic; rejected requests miss). Dashed: the attainment target. Dotted: the highest rate\n"
                             "holding it with every lower swept rate holding it too (model::sweepArrivalRate)."),
                          parent)
{
    QCustomPlot* p = plot();
    setupAxis(p->xAxis, tr("arrival rate (req/s)"), false);
    setupAxis(p->yAxis, tr("attainment (%)"), false);
    p->yAxis->setTicker(QSharedPointer<CeilingTicker>::create(100.0)); // no tick label above 100 %
    m_attainment = addCurve(p, p->xAxis, p->yAxis, pen(palette::memory(), 2.2), tr("attainment"));
    m_attainment->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, palette::memory(), 6));
    m_target = addStraightLine(p, p->xAxis, p->yAxis, pen(palette::slo(), 1.3, Qt::DashLine));
    m_targetLabel = addLabel(p, p->xAxis, p->yAxis, palette::slo());
    setPlacement(m_targetLabel, Qt::AlignLeft | Qt::AlignBottom);
    m_maxRate = addStraightLine(p, p->xAxis, p->yAxis, pen(palette::ruling(), 1.3, Qt::DotLine));
    m_maxRateLabel = addLabel(p, p->xAxis, p->yAxis, palette::ruling());
    setPlacement(m_maxRateLabel, Qt::AlignRight | Qt::AlignBottom);
    placeLegendBelow(p, 1);
    clearOutcome();
}

void AttainmentPlot::clearOutcome()
{
    seriesdata::clear(m_attainment);
    for (QCPAbstractItem* item : std::initializer_list<QCPAbstractItem*>{m_target, m_targetLabel, m_maxRate, m_maxRateLabel})
        item->setVisible(false);
    plot()->xAxis->setRange(0, 10);
    plot()->yAxis->setRange(0, 102);
    setTakeaway(tr("No rate sweep: tick Rate sweep and press Run."));
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void AttainmentPlot::showOutcome(const SimulationOutcome& outcome)
{
    const std::vector<model::RatePoint> points = drawablePoints(outcome);
    if (points.empty()) {
        clearOutcome();
        return;
    }
    QCustomPlot* p = plot();
    seriesdata::assign(m_attainment, int(points.size()), [&](int i) {
        return std::make_pair(points[size_t(i)].ratePerSecond, 100.0 * std::clamp(finiteOr(points[size_t(i)].attainment, 0.0), 0.0, 1.0));
    }, false, false);
    const double lo = points.front().ratePerSecond, hi = points.back().ratePerSecond;
    const double pad = hi > lo ? 0.04 * (hi - lo) : 0.1 * hi;
    p->xAxis->setRange(std::max(0.0, lo - pad), hi + pad);
    double bottom = 100;
    for (const model::RatePoint& q : points)
        bottom = std::min(bottom, 100.0 * std::clamp(finiteOr(q.attainment, 0.0), 0.0, 1.0));
    const double target = 100.0 * outcome.rateSweep.attainmentTarget;
    bottom = std::min(bottom, target);
    // The axis ends at 100 %: above it only a margin of 3.5 % of the span (8 px of a 230 px plot: a marker's radius
    // and the curve's width), unlabelled (CeilingTicker), so that the points at 100 % are drawn whole.
    const double low = std::max(0.0, bottom - 0.08 * (100.0 - bottom) - 1.0);
    p->yAxis->setRange(low, 100.0 + 0.035 * (100.0 - low));
    placeHorizontal(m_target, target);
    m_target->setVisible(true);
    m_targetLabel->setText(tr("target %1").arg(targetText(outcome.rateSweep.attainmentTarget)));
    placeLabelAt(m_targetLabel, p->xAxis->range().lower, target);
    m_targetLabel->setVisible(true);
    const std::optional<double> best = outcome.rateSweepResult.maxRatePerSecond;
    m_maxRate->setVisible(best.has_value());
    m_maxRateLabel->setVisible(best.has_value());
    if (best) {
        placeVertical(m_maxRate, *best);
        m_maxRateLabel->setText(rateText(*best));
        placeLabelAt(m_maxRateLabel, *best, p->yAxis->range().lower);
    }
    setTakeaway(rateSweepTakeaway(outcome));
    p->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ridgeline::views
