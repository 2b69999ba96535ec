// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/simulationrunner.h"

#include <algorithm>
#include <cmath>

#include <QElapsedTimer>
#include <QMetaObject>
#include <QThread>

#include "document/format.h"

namespace ridgeline::views {

namespace {

/** Nearest-rank quantiles of @p values (sorted here) at @p probabilities, scaled by @p scale. */
std::vector<double> quantiles(std::vector<double>& values, const std::vector<double>& probabilities, double scale)
{
    std::vector<double> out;
    if (values.empty())
        return out;
    std::sort(values.begin(), values.end());
    const double n = double(values.size());
    out.reserve(probabilities.size());
    for (double p : probabilities) {
        const double rank = std::ceil(p * n) - 1.0;
        const size_t index = size_t(std::clamp(rank, 0.0, n - 1.0));
        out.push_back(values[index] * scale);
    }
    return out;
}

bool positive(double value)
{
    return std::isfinite(value) && value > 0;
}

} // namespace

SimulationRunner::SimulationRunner(QObject* parent)
    : QObject(parent)
{
}

SimulationRunner::~SimulationRunner()
{
    if (m_current)
        m_current->cancelled = true;
    m_current.reset();
    waitForWorkers();
}

int SimulationRunner::simulationCount(const model::SimulationConfig& config, const model::RateSweep& rateSweep)
{
    return 1 + int(config.sweepMaxSequences.size()) + (rateSweep.steps > 0 ? rateSweep.steps + rateSweep.bisections : 0);
}

void SimulationRunner::start(const model::Scenario& scenario, const model::SimulationConfig& config, const std::string& title,
                             const model::RateSweep& rateSweep)
{
    if (m_current)
        m_current->cancelled = true; // abandoned: its worker stops at the next check, its result is dropped
    auto job = std::make_shared<Job>();
    m_current = job;

    QThread* worker = QThread::create([this, job, scenario, config, title, rateSweep] {
        QElapsedTimer clock;
        clock.start();
        const int total = simulationCount(config, rateSweep);
        auto post = [this, job, total](int done, const QString& stage) {
            QMetaObject::invokeMethod(this, [this, job, done, total, stage] { deliverProgress(job, done, total, stage); },
                                      Qt::QueuedConnection);
        };

        // The engine calls this every fraction of a millisecond of work: it stops the run at once when
        // cancelled, and reports progress when the percentage moves.
        int stageIndex = 0;
        QString stageText;
        int shownPercent = -1;
        auto keepGoing = [&](long long doneCount, long long all) {
            if (job->cancelled)
                return false;
            const int percent = all > 0 ? int(std::clamp(100.0 * double(doneCount) / double(all), 0.0, 100.0)) : 0;
            if (percent != shownPercent) {
                shownPercent = percent;
                post(stageIndex, tr("%1: %2%").arg(stageText).arg(percent));
            }
            return true;
        };
        const model::SimulationProgress progress = keepGoing;

        auto outcome = std::make_shared<SimulationOutcome>();
        outcome->scenario = scenario;
        outcome->config = config;
        outcome->title = title;
        stageText = tr("Generating requests");
        const std::vector<model::Request> requests = model::generateRequests(config, progress);
        if (job->cancelled)
            return;
        double outputTokens = 0;
        for (const model::Request& r : requests)
            outputTokens += r.outputTokens;
        outcome->config.recordTokenTimes = outputTokens <= kMaxRecordedTokens;
        stageText = tr("Simulating %1").arg(counted(double(requests.size()), tr("1 request"), tr("%1 requests")));
        shownPercent = -1;
        post(0, stageText);
        outcome->result = model::simulate(scenario, outcome->config, requests, progress);
        if (job->cancelled || outcome->result.cancelled)
            return;

        model::SimulationConfig one = outcome->config;
        one.recordTokenTimes = false;
        for (size_t i = 0; i < config.sweepMaxSequences.size(); ++i) {
            const int cap = config.sweepMaxSequences[i];
            stageIndex = int(i) + 1;
            stageText = tr("Sweep: max sequences %1").arg(cap);
            shownPercent = -1;
            post(stageIndex, stageText);
            one.sweepMaxSequences = {cap};
            const std::vector<model::SweepPoint> points = model::sweepMaxSequences(scenario, one, requests, progress);
            if (job->cancelled || points.empty())
                return;
            outcome->sweep.insert(outcome->sweep.end(), points.begin(), points.end());
        }
        if (rateSweep.steps > 0) {
            // The arrival-rate sweep: one run per rate, then the bisections (model::sweepArrivalRate), summaries only.
            // Its progress callback does not say which run it is in: a count of requests done that falls back is the
            // next run.
            model::SimulationConfig swept = config;
            swept.recordTokenTimes = false;
            swept.requestRecords = 0;
            swept.sweepMaxSequences.clear();
            const int first = 1 + int(config.sweepMaxSequences.size());
            const int runs = rateSweep.steps + rateSweep.bisections;
            int run = 0;
            long long lastDone = -1;
            stageIndex = first;
            stageText = tr("Rate sweep: run 1 of up to %1").arg(runs);
            shownPercent = -1;
            post(stageIndex, stageText);
            const model::SimulationProgress sweepProgress = [&](long long doneCount, long long all) {
                if (doneCount < lastDone && run + 1 < runs) {
                    ++run;
                    stageIndex = first + run;
                    stageText = tr("Rate sweep: run %1 of up to %2").arg(run + 1).arg(runs);
                    shownPercent = -1;
                }
                lastDone = doneCount;
                return keepGoing(doneCount, all);
            };
            outcome->rateSweep = rateSweep;
            outcome->rateSweepResult = model::sweepArrivalRate(scenario, swept, rateSweep, sweepProgress);
            if (job->cancelled || outcome->rateSweepResult.cancelled)
                return;
        }
        outcome->digest = digest(outcome->result, outcome->config);
        outcome->elapsedSeconds = double(clock.nsecsElapsed()) * 1e-9;
        std::shared_ptr<const SimulationOutcome> done = std::move(outcome);
        QMetaObject::invokeMethod(this, [this, job, done] { deliverResult(job, done); }, Qt::QueuedConnection);
    });
    worker->setObjectName(QStringLiteral("simulationWorker"));
    worker->setParent(this);
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    m_workers.removeAll(QPointer<QThread>());
    m_workers.append(worker);
    worker->start(QThread::LowPriority);
    emit progressChanged(0, simulationCount(config, rateSweep), tr("Generating requests"));
}

void SimulationRunner::cancel()
{
    if (!m_current)
        return;
    m_current->cancelled = true;
    m_current.reset();
    emit cancelled();
}

int SimulationRunner::activeWorkers() const
{
    int count = 0;
    for (const QPointer<QThread>& worker : m_workers) {
        if (worker && worker->isRunning())
            ++count;
    }
    return count;
}

void SimulationRunner::waitForWorkers()
{
    for (const QPointer<QThread>& worker : m_workers) {
        if (worker)
            worker->wait();
    }
    m_workers.removeAll(QPointer<QThread>());
}

void SimulationRunner::deliverProgress(const std::shared_ptr<Job>& job, int done, int total, const QString& stage)
{
    if (job == m_current)
        emit progressChanged(done, total, stage);
}

void SimulationRunner::deliverResult(const std::shared_ptr<Job>& job, std::shared_ptr<const SimulationOutcome> outcome)
{
    if (job != m_current)
        return; // abandoned
    m_current.reset();
    const int total = simulationCount(outcome->config, outcome->rateSweep);
    emit progressChanged(total, total, tr("Done"));
    emit finished(std::move(outcome));
}

SimulationDigest SimulationRunner::digest(const model::SimulationResult& result, const model::SimulationConfig& config)
{
    SimulationDigest d;
    d.cdfProbability.resize(SimulationDigest::kCdfPoints);
    for (int i = 0; i < SimulationDigest::kCdfPoints; ++i)
        d.cdfProbability[size_t(i)] = double(i) / double(SimulationDigest::kCdfPoints - 1);

    std::vector<double> ttft, tpot;
    ttft.reserve(result.requests.size());
    tpot.reserve(result.requests.size());
    for (const model::RequestResult& r : result.requests) {
        if (r.rejected)
            continue;
        if (positive(r.ttftSeconds()))
            ttft.push_back(r.ttftSeconds());
        if (positive(r.tpotSeconds))
            tpot.push_back(r.tpotSeconds);
    }
    d.ttftCdfMs = quantiles(ttft, d.cdfProbability, 1e3);
    d.tpotCdfMs = quantiles(tpot, d.cdfProbability, 1e3);
    const double span = std::isfinite(result.spanSeconds) ? std::max(0.0, result.spanSeconds) : 0.0;
    auto collectPrefills = [&] {
        for (const model::RequestResult& r : result.requests) {
            const double t = r.firstTokenSeconds;
            if (!r.rejected && std::isfinite(t) && t >= d.windowStart && t <= d.windowEnd)
                d.prefills.emplace_back(t, double(r.promptTokens));
        }
        std::sort(d.prefills.begin(), d.prefills.end());
    };

    const size_t n = result.requests.size();
    const bool recorded = config.recordTokenTimes && result.tokenOffsets.size() == n + 1
                          && result.tokenTimes.size() >= size_t(std::max(0LL, result.tokenOffsets.back()));
    if (!recorded) {
        d.windowStart = 0;
        d.windowEnd = span;
        collectPrefills();
        return d;
    }

    // Every inter-token interval, and the requests that have at least one.
    std::vector<double> itl;
    std::vector<size_t> candidates;
    size_t worst = n;
    double worstGap = -1, worstTime = 0;
    for (size_t i = 0; i < n; ++i) {
        const long long begin = result.tokenOffsets[i], end = result.tokenOffsets[i + 1];
        bool any = false;
        for (long long k = begin + 1; k < end; ++k) {
            const double gap = result.tokenTimes[size_t(k)] - result.tokenTimes[size_t(k - 1)];
            if (!positive(gap))
                continue;
            itl.push_back(gap);
            any = true;
            if (gap > worstGap) {
                worstGap = gap;
                worst = i;
                worstTime = result.tokenTimes[size_t(k)];
            }
        }
        if (any)
            candidates.push_back(i);
    }
    d.itlCdfMs = quantiles(itl, d.cdfProbability, 1e3);

    // The window: kTimelineWindowSeconds around the worst gap, moved inside [0, span].
    const double window = SimulationDigest::kTimelineWindowSeconds;
    d.worstGapSeconds = worst < n ? worstTime : -1.0;
    if (span <= window || worst >= n) {
        d.windowStart = 0;
        d.windowEnd = std::max(span, worst < n ? worstTime : 0.0);
    } else {
        d.windowStart = std::clamp(worstTime - window / 2, 0.0, span - window);
        d.windowEnd = d.windowStart + window;
    }
    collectPrefills();
    const double a = d.windowStart, b = d.windowEnd;

    // The sequences decoding in the window, sampled evenly (arrival order), plus the worst gap's.
    const std::vector<size_t> all = std::move(candidates);
    candidates.clear();
    for (size_t i : all) {
        const long long begin = result.tokenOffsets[i], end = result.tokenOffsets[i + 1];
        if (result.tokenTimes[size_t(begin)] <= b && result.tokenTimes[size_t(end - 1)] >= a)
            candidates.push_back(i);
    }
    std::vector<size_t> sample;
    const size_t want = std::min<size_t>(candidates.size(), SimulationDigest::kTimelineSequences);
    for (size_t j = 0; j < want; ++j)
        sample.push_back(candidates[j * candidates.size() / want]);
    if (worst < n && std::find(sample.begin(), sample.end(), worst) == sample.end())
        sample.push_back(worst);
    long long intervals = 0;
    for (size_t i : sample)
        intervals += result.tokenOffsets[i + 1] - result.tokenOffsets[i] - 1;
    const long long stride = std::max(1LL, (intervals + SimulationDigest::kMaxTimelinePoints - 1) / SimulationDigest::kMaxTimelinePoints);
    for (size_t i : sample) {
        const long long begin = result.tokenOffsets[i], end = result.tokenOffsets[i + 1];
        const double tpotSeconds = result.requests[i].tpotSeconds;
        for (long long k = begin + 1; k < end; ++k) {
            const double t = result.tokenTimes[size_t(k)];
            const double gap = t - result.tokenTimes[size_t(k - 1)];
            if (!positive(gap) || !std::isfinite(t) || t < a || t > b)
                continue;
            // Thinned evenly when there are too many points, but a stall (over twice the request's mean) is always kept.
            const bool stall = std::isfinite(tpotSeconds) && gap > 2.0 * tpotSeconds;
            if ((k - begin) % stride == 0 || stall)
                d.timeline.emplace_back(t, gap * 1e3);
        }
    }
    std::sort(d.timeline.begin(), d.timeline.end());
    d.timelineSequences = int(sample.size());
    return d;
}

} // namespace ridgeline::views
