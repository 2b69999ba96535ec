// SPDX-License-Identifier: GPL-3.0-or-later
// Widget test of the Simulation tab (issue 9): real widgets, runs on the worker thread, aggregates
// compared with model::simulate on the same configuration, cancellation, bad example files.

#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include "app/mainwindow.h"
#include "model/cost/scenario.h"
#include "model/files/simulationfile.h"
#include "model/sim/simulator.h"
#include "document/format.h"
#include "document/scenariodocument.h"
#include "views/simulation/simulationplots.h"
#include "document/simulationrunner.h"
#include "views/simulation/simulationtab.h"
#include "views/whatifs/whatifstabs.h"

using ridgeline::views::ScenarioDocument;
using ridgeline::views::SimulationTab;
namespace model = ridgeline::model;
namespace format = ridgeline::views::format;

namespace {

/** Every graph point finite, every axis range finite and non-empty. */
bool plotsFinite(const QList<QCustomPlot*>& plots)
{
    for (QCustomPlot* plot : plots) {
        for (int g = 0; g < plot->graphCount(); ++g) {
            const QSharedPointer<QCPGraphDataContainer> data = plot->graph(g)->data();
            for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
                if (!std::isfinite(it->key) || !std::isfinite(it->value))
                    return false;
            }
        }
        for (QCPAxis* axis : plot->axisRect()->axes()) {
            if (!std::isfinite(axis->range().lower) || !std::isfinite(axis->range().upper) || !(axis->range().upper > axis->range().lower))
                return false;
        }
    }
    return true;
}

void comparePercentiles(const model::Percentiles& got, const model::Percentiles& want)
{
    QCOMPARE(got.count, want.count);
    QCOMPARE(got.p50, want.p50);
    QCOMPARE(got.p95, want.p95);
    QCOMPARE(got.p99, want.p99);
    QCOMPARE(got.max, want.max);
}

/** Loads the chat example with a small request count and a two-cap sweep. */
void prepareSmallChatRun(SimulationTab& tab, int requests)
{
    QCOMPARE(tab.loadExample(SimulationTab::examplePaths().at(0)), QString());
    QCOMPARE(tab.exampleCombo()->currentIndex(), 1);
    tab.requestsCheckBox()->setChecked(true);
    tab.requestsSpinBox()->setValue(requests);
    tab.sweepEdit()->setText(QStringLiteral("16, 32"));
}

} // namespace

class TestSimulationTab final : public QObject {
    Q_OBJECT

private slots:
    void chatExampleRunsAndMatchesTheModel();
    void cancelKeepsPreviousResults();
    void badExampleNamesTheField();
    void badInputsDoNotRun();
    void perClassResults();
    void batchOnlyFileRunsAsWritten();
    void layoutIsShownWhereTpIs();
    void decodePoolWaitIsNotCalledTtft();
    void hookedIntoWhatIfTabsAndRendersPng();
    void fleetTableAndRateSweep();
    void maxPrefillsPerStepReachesTheRun();
};

void TestSimulationTab::chatExampleRunsAndMatchesTheModel()
{
    ScenarioDocument document(model::defaultScenario());
    SimulationTab tab(&document);
    tab.resize(1100, 760);
    tab.show();
    prepareSmallChatRun(tab, 150);

    // The example's scenario (eta_bw 0.75) is used, not the window's floor.
    QCOMPARE(tab.scenario().efficiency.bandwidth, 0.75);
    QCOMPARE(tab.config().maxSequences, 32);
    QCOMPARE(tab.config().policy, model::BatchingPolicy::Chunked);

    QSignalSpy shown(&tab, &SimulationTab::outcomeShown);
    QTest::mouseClick(tab.runButton(), Qt::LeftButton);
    QVERIFY(!tab.runButton()->isEnabled());
    QVERIFY(tab.cancelButton()->isEnabled());
    QVERIFY(shown.wait(60000));
    QVERIFY(tab.runButton()->isEnabled());
    QVERIFY(!tab.cancelButton()->isEnabled());
    QCOMPARE(tab.progressBar()->value(), tab.progressBar()->maximum());
    QCOMPARE(tab.progressBar()->maximum(), 3); // the run plus two caps

    // The same configuration through the model directly.
    const model::SimulationConfig config = tab.config();
    const model::Scenario scenario = tab.scenario();
    QCOMPARE(model::checkSimulationConfig(config), std::string());
    const std::vector<model::Request> requests = model::generateRequests(config);
    QCOMPARE(int(requests.size()), 150);
    const model::SimulationResult want = model::simulate(scenario, config, requests);
    const auto outcome = tab.outcome();
    QVERIFY(outcome);
    const model::SimulationResult& got = outcome->result;
    QCOMPARE(got.all.requests, want.all.requests);
    QCOMPARE(got.all.completed, want.all.completed);
    QCOMPARE(got.all.throughputTokensPerSecond, want.all.throughputTokensPerSecond);
    QCOMPARE(got.all.goodputFraction, want.all.goodputFraction);
    QCOMPARE(got.preemptions, want.preemptions);
    QCOMPARE(got.finishedSlotFraction, want.finishedSlotFraction);
    comparePercentiles(got.all.latency.queueWait, want.all.latency.queueWait);
    comparePercentiles(got.all.latency.prefill, want.all.latency.prefill);
    comparePercentiles(got.all.latency.ttft, want.all.latency.ttft);
    comparePercentiles(got.all.latency.itl, want.all.latency.itl);
    comparePercentiles(got.all.latency.tpot, want.all.latency.tpot);
    comparePercentiles(got.all.latency.endToEnd, want.all.latency.endToEnd);

    // The tables show those numbers.
    const model::LatencySummary& l = want.all.latency;
    const model::Percentiles* rows[] = {&l.queueWait, &l.prefill, &l.ttft, &l.itl, &l.tpot, &l.endToEnd};
    for (int row = 0; row < SimulationTab::LatencyRowCount; ++row) {
        QCOMPARE(tab.latencyTable()->item(row, SimulationTab::P50Column)->text(), format::duration(rows[row]->p50));
        QCOMPARE(tab.latencyTable()->item(row, SimulationTab::P95Column)->text(), format::duration(rows[row]->p95));
        QCOMPARE(tab.latencyTable()->item(row, SimulationTab::P99Column)->text(), format::duration(rows[row]->p99));
        QCOMPARE(tab.latencyTable()->item(row, SimulationTab::MaxColumn)->text(), format::duration(rows[row]->max));
    }
    QCOMPARE(tab.totalsTable()->item(SimulationTab::ThroughputRow, 0)->text(), format::tokensPerSecond(want.all.throughputTokensPerSecond));
    QVERIFY(tab.totalsTable()->item(SimulationTab::GoodputRow, 0)->text().contains(format::percent(want.all.goodputFraction)));
    QCOMPARE(tab.totalsTable()->item(SimulationTab::PreemptionsRow, 0)->text(), format::integer(double(want.preemptions)));
    QCOMPARE(tab.totalsTable()->item(SimulationTab::StaticWasteRow, 0)->text(), format::percent(want.finishedSlotFraction));

    // The sweep is model::sweepMaxSequences on the same requests.
    const std::vector<model::SweepPoint> sweep = model::sweepMaxSequences(scenario, config, requests);
    QCOMPARE(outcome->sweep.size(), sweep.size());
    for (size_t i = 0; i < sweep.size(); ++i) {
        QCOMPARE(outcome->sweep[i].maxSequences, sweep[i].maxSequences);
        QCOMPARE(outcome->sweep[i].goodputFraction, sweep[i].goodputFraction);
        QCOMPARE(outcome->sweep[i].throughputTokensPerSecond, sweep[i].throughputTokensPerSecond);
    }
    QCOMPARE(tab.capSweepPlot()->throughputGraph()->data()->size(), 2);
    QCOMPARE(tab.capSweepPlot()->throughputGraph()->data()->at(0)->key, 16.0);

    // The plots carry data and takeaways, and nothing on them is NaN or infinite.
    QVERIFY(outcome->config.recordTokenTimes);
    QVERIFY(tab.itlTimelinePlot()->intervalGraph()->data()->size() > 100);
    QVERIFY(tab.itlTimelinePlot()->prefillGraph()->data()->size() > 20);
    // The timeline shows the window around the worst gap, and that gap is in it.
    const ridgeline::views::SimulationDigest& digest = outcome->digest;
    QCOMPARE(digest.windowEnd - digest.windowStart, ridgeline::views::SimulationDigest::kTimelineWindowSeconds);
    QVERIFY(digest.worstGapSeconds >= digest.windowStart && digest.worstGapSeconds <= digest.windowEnd);
    double worstShown = 0;
    for (const auto& point : digest.timeline) {
        QVERIFY(point.first >= digest.windowStart && point.first <= digest.windowEnd);
        worstShown = std::max(worstShown, point.second);
    }
    QCOMPARE(worstShown, want.all.latency.itl.max * 1e3);
    QCOMPARE(tab.latencyCdfPlot()->ttftGraph()->data()->size(), ridgeline::views::SimulationDigest::kCdfPoints);
    QCOMPARE(tab.latencyCdfPlot()->itlGraph()->data()->size(), ridgeline::views::SimulationDigest::kCdfPoints);
    QCOMPARE(tab.kvUsagePlot()->blocksGraph()->data()->size(), int(want.kvSeries.size()));
    QVERIFY(tab.itlTimelinePlot()->takeaway().startsWith(QStringLiteral("chunked prefill: max ITL ") + format::duration(l.itl.max)));
    QVERIFY(tab.summaryLabel()->accessibleDescription().contains(QStringLiteral("goodput %1 at cap 32").arg(format::percent(want.all.goodputFraction))));
    QVERIFY(plotsFinite(tab.plots()));

    // A second run with the same inputs overwrites the graphs in place (same sizes) and agrees.
    const QCPGraphData* before = &*tab.latencyCdfPlot()->ttftGraph()->data()->constBegin();
    QTest::mouseClick(tab.runButton(), Qt::LeftButton);
    QVERIFY(shown.wait(60000));
    QCOMPARE(&*tab.latencyCdfPlot()->ttftGraph()->data()->constBegin(), before);
    QCOMPARE(tab.outcome()->result.all.latency.itl.max, want.all.latency.itl.max);
}

void TestSimulationTab::cancelKeepsPreviousResults()
{
    ScenarioDocument document(model::defaultScenario());
    SimulationTab tab(&document);
    tab.show();
    prepareSmallChatRun(tab, 100);
    QSignalSpy shown(&tab, &SimulationTab::outcomeShown);
    QTest::mouseClick(tab.runButton(), Qt::LeftButton);
    QVERIFY(shown.wait(60000));
    const auto previous = tab.outcome();
    QVERIFY(previous);
    const QString p99 = tab.latencyTable()->item(SimulationTab::TtftRow, SimulationTab::P99Column)->text();
    const QString takeaway = tab.itlTimelinePlot()->takeaway();

    // A long run: 300,000 s of chat (about 1.8 million requests, many seconds of work).
    tab.requestsCheckBox()->setChecked(false);
    tab.durationSpinBox()->setValue(300000);
    tab.sweepEdit()->clear(); // within the 2,000,000-request bound
    QCOMPARE(tab.inputError(), QString());
    QSignalSpy cancelled(tab.runner(), &ridgeline::views::SimulationRunner::cancelled);
    QTest::mouseClick(tab.runButton(), Qt::LeftButton);
    QVERIFY(tab.runner()->isRunning());
    QVERIFY(!tab.runButton()->isEnabled());
    QTest::qWait(50);
    QTest::mouseClick(tab.cancelButton(), Qt::LeftButton);
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(!tab.runner()->isRunning());
    QVERIFY(tab.runButton()->isEnabled());
    QVERIFY(!tab.cancelButton()->isEnabled());
    QVERIFY(tab.statusLabel()->text().contains(QStringLiteral("Cancelled")));

    // The engine's progress callback stops the worker within milliseconds (it used to finish the run:
    // memory kept growing, a second run added a worker, Quit waited). A generous timeout, not a speed check.
    QTRY_COMPARE_WITH_TIMEOUT(tab.runner()->activeWorkers(), 0, 2000);
    tab.runner()->waitForWorkers();
    QCoreApplication::processEvents();
    QTest::qWait(20);
    QCOMPARE(shown.count(), 1);
    QCOMPARE(tab.outcome(), previous);
    QCOMPARE(tab.latencyTable()->item(SimulationTab::TtftRow, SimulationTab::P99Column)->text(), p99);
    QCOMPARE(tab.itlTimelinePlot()->takeaway(), takeaway);
    QCOMPARE(tab.runner()->activeWorkers(), 0);

    // Run works again afterwards.
    tab.requestsCheckBox()->setChecked(true);
    QTest::mouseClick(tab.runButton(), Qt::LeftButton);
    QVERIFY(shown.wait(60000));
    QVERIFY(tab.outcome() != previous);
}

/** Chat and a batch job: the tables show one class at a time on request, the summary each class's tail. */
void TestSimulationTab::perClassResults()
{
    ScenarioDocument document(model::defaultScenario());
    SimulationTab tab(&document);
    tab.show();
    QCOMPARE(tab.loadExample(SimulationTab::examplePaths().at(1)), QString());
    tab.requestsCheckBox()->setChecked(true);
    tab.requestsSpinBox()->setValue(400);
    tab.sweepEdit()->clear();
    QSignalSpy shown(&tab, &SimulationTab::outcomeShown);
    QTest::mouseClick(tab.runButton(), Qt::LeftButton);
    QVERIFY(shown.wait(60000));
    const auto& o = *tab.outcome();
    QCOMPARE(o.config.classes.size(), size_t(2));
    QCOMPARE(tab.classCombo()->count(), 3);
    QVERIFY(tab.classCombo()->isEnabled());
    auto shownTtft = [&] { return tab.latencyTable()->item(SimulationTab::TtftRow, SimulationTab::P99Column)->text(); };
    QCOMPARE(shownTtft(), format::duration(o.result.all.latency.ttft.p99));
    for (int c = 0; c < 2; ++c) {
        tab.classCombo()->setCurrentIndex(c + 1);
        const model::TrafficSummary& k = o.result.classes[size_t(c)];
        QCOMPARE(shownTtft(), format::duration(k.latency.ttft.p99));
        QCOMPARE(tab.totalsTable()->item(SimulationTab::RequestsRow, 0)->text().section(QLatin1Char('/'), 1).trimmed().section(QLatin1Char(','), 0, 0),
                 format::integer(double(k.requests)));
    }
    // The chat class's own tail differs from the mix (the batch job's queueing is not the chat users').
    QVERIFY(o.result.classes[0].latency.ttft.p99 != o.result.all.latency.ttft.p99);
    const QString summary = tab.summaryLabel()->text();
    for (size_t c = 0; c < 2; ++c)
        QVERIFY2(summary.contains(QStringLiteral("%1: p99 TTFT %2").arg(QString::fromStdString(o.config.classes[c].name),
                                                                            format::duration(o.result.classes[c].latency.ttft.p99))),
                 qPrintable(summary));
}

/** A file with only a batch class gets no chat class and no sweep caps it does not hold. */
void TestSimulationTab::batchOnlyFileRunsAsWritten()
{
    ScenarioDocument document(model::defaultScenario());
    SimulationTab tab(&document);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("batch-only.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"simulation": {"policy": "chunked", "max_sequences": 16, "duration_s": 100,
                  "classes": [{"name": "nightly", "priority": "batch", "count": 20, "start_s": 0,
                               "prompt": {"dist": "fixed", "value": 2000}, "output": {"dist": "fixed", "value": 100}}]}})");
    file.close();
    QCOMPARE(tab.loadExample(path), QString());
    const model::SimulationConfig c = tab.config();
    QCOMPARE(c.classes.size(), size_t(1));
    QCOMPARE(c.classes[0].name, std::string("nightly"));
    QCOMPARE(c.classes[0].count, 20LL);
    QVERIFY(c.sweepMaxSequences.empty());
    QCOMPARE(tab.inputError(), QString());
    // Typing a chat rate adds a chat class, as the inputs say.
    tab.chatRateSpinBox()->setValue(2);
    QCOMPARE(tab.config().classes.size(), size_t(2));
}

/** h14b: the scenario line showed TP alone ("H100 SXM ×2"); a file's pipeline_stages and expert_parallel ran unseen. */
void TestSimulationTab::layoutIsShownWhereTpIs()
{
    ScenarioDocument document(model::defaultScenario());
    SimulationTab tab(&document);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("pipeline.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"scenario": {"hardware": {"gpus": 2}},
                  "simulation": {"max_sequences": 16, "requests": 50, "pipeline_stages": 2, "microbatches": 2,
                  "classes": [{"name": "chat", "rate_per_s": 1, "prompt": {"dist": "fixed", "value": 100},
                               "output": {"dist": "fixed", "value": 10}}]}})");
    file.close();
    QCOMPARE(tab.loadExample(path), QString());
    QCOMPARE(tab.config().pipelineStages, 2);
    const auto* label = tab.findChild<QLabel*>(QStringLiteral("simulationScenarioLabel"));
    QVERIFY(label);
    QVERIFY2(label->text().contains(QStringLiteral("×4 GPUs per replica (TP 2, PP 2, EP 1, 2 microbatches)")), qPrintable(label->text()));
    // One GPU without PP or EP: no layout to name.
    tab.clearExample();
    QVERIFY2(!label->text().contains(QStringLiteral("GPUs per replica")), qPrintable(label->text()));
}

/**
 * h14b: a disaggregated run with one decode replica showed TTFT p99 953 ms in the tables beside a decode row of
 * "TTFT p99 3.66e6 ms" and no word that the decode pool had fallen an hour behind.
 */
void TestSimulationTab::decodePoolWaitIsNotCalledTtft()
{
    ScenarioDocument document(model::defaultScenario());
    SimulationTab tab(&document);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("pools.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"simulation": {"max_sequences": 8, "requests": 400, "replicas": 1, "prefill_replicas": 2,
                  "ttft_slo_ms": 1000, "itl_slo_ms": 50,
                  "classes": [{"name": "chat", "rate_per_s": 20, "prompt": {"dist": "fixed", "value": 500},
                               "output": {"dist": "fixed", "value": 400}}]}})");
    file.close();
    QCOMPARE(tab.loadExample(path), QString());
    tab.sweepEdit()->clear();
    QSignalSpy shown(&tab, &SimulationTab::outcomeShown);
    tab.run();
    QVERIFY(shown.wait(120000));
    const model::SimulationResult& r = tab.outcome()->result;
    QCOMPARE(int(r.replicas.size()), 3);
    QTableWidget* table = tab.replicaTable();
    QCOMPARE(table->verticalHeaderItem(2)->text(), QStringLiteral("Decode 0"));
    QCOMPARE(table->item(2, SimulationTab::ReplicaTtftP99Column)->text(),
             QStringLiteral("wait ") + format::duration(r.replicas[2].p99TtftSeconds));
    QVERIFY(table->item(2, SimulationTab::ReplicaTtftP99Column)->toolTip().contains(QStringLiteral("not of their TTFT")));
    QCOMPARE(table->item(0, SimulationTab::ReplicaTtftP99Column)->text(), format::duration(r.replicas[0].p99TtftSeconds));
    // The title's TTFT range is the prefill pool's; the decode wait is given apart.
    const QString title = tab.replicaTitle()->text();
    QVERIFY2(title.contains(QStringLiteral("p99 wait for a decode slot")), qPrintable(title));
    QVERIFY2(!title.contains(QStringLiteral("to ") + format::duration(r.replicas[2].p99TtftSeconds) + QStringLiteral(", p99 wait")),
             qPrintable(title));
    // The headline says the run fell behind, which pool, and the decode wait.
    const QString summary = tab.summaryLabel()->text();
    QVERIFY2(summary.contains(QStringLiteral("fell behind the offered load")) && summary.contains(QStringLiteral("the decode pool")),
             qPrintable(summary));
}

void TestSimulationTab::badExampleNamesTheField()
{
    ScenarioDocument document(model::defaultScenario());
    SimulationTab tab(&document);
    tab.show();
    const int policy = tab.policyCombo()->currentIndex();
    const int cap = tab.maxSequencesSpinBox()->value();

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"simulation": {"policy": "fast", "max_sequences": 7, "duration_s": 10,
                  "classes": [{"name": "chat", "rate_per_s": 1, "prompt": {"dist": "fixed", "value": 100},
                               "output": {"dist": "fixed", "value": 10}}]}})");
    file.close();

    const QString message = tab.loadExample(path);
    QVERIFY2(message.contains(QStringLiteral("simulation.policy")), qPrintable(message));
    QVERIFY(message.contains(QStringLiteral("bad.json")));
    QVERIFY(tab.errorLabel()->isVisibleTo(&tab));
    QCOMPARE(tab.errorLabel()->text(), message);
    // Nothing changed.
    QCOMPARE(tab.policyCombo()->currentIndex(), policy);
    QCOMPARE(tab.maxSequencesSpinBox()->value(), cap);
    QCOMPARE(tab.exampleCombo()->currentIndex(), 0);
    QCOMPARE(tab.scenario().efficiency.bandwidth, document.evaluatedScenario().efficiency.bandwidth);

    // A good file clears the message.
    QCOMPARE(tab.loadExample(SimulationTab::examplePaths().at(1)), QString());
    QVERIFY(!tab.errorLabel()->isVisibleTo(&tab));
    QVERIFY(tab.batchJobCheckBox()->isChecked());
    QCOMPARE(tab.config().classes.size(), size_t(2));
    QCOMPARE(tab.config().admissionRule, model::AdmissionRule::SeparateQueues);
}

void TestSimulationTab::badInputsDoNotRun()
{
    ScenarioDocument document(model::defaultScenario());
    SimulationTab tab(&document);
    tab.show();
    // Without an example: the window's scenario and its SLOs.
    QCOMPARE(tab.scenario().efficiency.bandwidth, 1.0);
    QCOMPARE(tab.config().ttftSloMs, document.evaluatedScenario().workload.ttftSloMs);
    QCOMPARE(tab.config().itlSloMs, document.evaluatedScenario().workload.itlSloMs.front());

    QSignalSpy progress(tab.runner(), &ridgeline::views::SimulationRunner::progressChanged);
    tab.sweepEdit()->setText(QStringLiteral("8, lots"));
    QTest::mouseClick(tab.runButton(), Qt::LeftButton);
    QVERIFY(!tab.runner()->isRunning());
    QVERIFY(tab.errorLabel()->text().contains(QStringLiteral("lots")));
    QCOMPARE(progress.count(), 0);

    tab.sweepEdit()->setText(QStringLiteral("8"));
    tab.durationCheckBox()->setChecked(false);
    tab.requestsCheckBox()->setChecked(false);
    QTest::mouseClick(tab.runButton(), Qt::LeftButton);
    QVERIFY(!tab.runner()->isRunning());
    QVERIFY(tab.errorLabel()->isVisibleTo(&tab));
    QCOMPARE(progress.count(), 0);
}

void TestSimulationTab::hookedIntoWhatIfTabsAndRendersPng()
{
    ridgeline::app::MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    ridgeline::views::WhatIfTabs* tabs = window.whatIfTabs();
    QCOMPARE(tabs->tabText(ridgeline::views::WhatIfTabs::SimulationTab), QStringLiteral("Simulation"));
    SimulationTab* tab = tabs->simulationTab();
    QVERIFY(tab);
    QCOMPARE(tabs->widget(ridgeline::views::WhatIfTabs::SimulationTab), tab);
    tabs->setCurrentIndex(ridgeline::views::WhatIfTabs::SimulationTab);
    tab->exampleCombo()->setCurrentIndex(1);
    emit tab->exampleCombo()->activated(1); // as a user's pick
    tab->durationSpinBox()->setValue(120);
    QSignalSpy shown(tab, &SimulationTab::outcomeShown);
    tab->run();
    QVERIFY(shown.wait(60000));
    window.flushForScreenshot();
    const QImage image = window.grab().toImage();
    QCOMPARE(image.size(), QSize(1280, 800)); // the tab does not force the window wider
    QVERIFY(image.save(QStringLiteral("/tmp/ridgeline-simulation-1280.png"), "PNG"));
    QVERIFY(plotsFinite(tab->plots()));

    // The batch-job example too, at 1600 x 1000.
    window.resize(1600, 1000);
    QCOMPARE(tab->loadExample(SimulationTab::examplePaths().at(1)), QString());
    tab->run();
    QVERIFY(shown.wait(60000));
    window.flushForScreenshot();
    QVERIFY(window.grab().toImage().save(QStringLiteral("/tmp/ridgeline-simulation-batch-1600.png"), "PNG"));
    QVERIFY(plotsFinite(tab->plots()));

    // Continuous batching on the chat example: whole prompts prefill in one step, the ITL tail shows it (seed 001, 3.4).
    QCOMPARE(tab->loadExample(SimulationTab::examplePaths().at(0)), QString());
    tab->policyCombo()->setCurrentIndex(int(model::BatchingPolicy::Continuous));
    tab->run();
    QVERIFY(shown.wait(60000));
    const model::LatencySummary& l = tab->outcome()->result.all.latency;
    QVERIFY(l.itl.max > 5 * l.tpot.mean);
    QVERIFY(tab->itlTimelinePlot()->takeaway().contains(QStringLiteral("stalls where whole prompts prefill")));
    window.flushForScreenshot();
    QVERIFY(window.grab().toImage().save(QStringLiteral("/tmp/ridgeline-simulation-continuous-1600.png"), "PNG"));
    QVERIFY(plotsFinite(tab->plots()));
}

void TestSimulationTab::fleetTableAndRateSweep()
{
    // Four replicas behind a least-loaded router at four times the chat example's rate, and a rate sweep: the replica
    // table shows the model's per-replica results row by row, the sweep plots one point per simulated rate and mark
    // the rate model::sweepArrivalRate returns.
    ridgeline::app::MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    ridgeline::views::WhatIfTabs* tabs = window.whatIfTabs();
    tabs->setCurrentIndex(ridgeline::views::WhatIfTabs::SimulationTab);
    SimulationTab* tab = tabs->simulationTab();
    QCOMPARE(tab->loadExample(SimulationTab::examplePaths().at(0)), QString());
    tab->requestsCheckBox()->setChecked(true);
    tab->requestsSpinBox()->setValue(1200);
    tab->sweepEdit()->clear();
    tab->chatRateSpinBox()->setValue(24);
    QVERIFY(!tab->routerCombo()->isEnabled()); // one replica: no router
    tab->replicasSpinBox()->setValue(4);
    QCOMPARE(tab->replicasSpinBox()->value(), 4);
    QVERIFY(tab->routerCombo()->isEnabled());
    tab->routerCombo()->setCurrentIndex(int(model::RouterPolicy::LeastLoaded));
    QVERIFY(!tab->rateFromSpinBox()->isEnabled());
    tab->rateSweepCheckBox()->setChecked(true); // (in the scrolled inputs column: a click may land outside the view)
    QVERIFY(tab->rateSweepCheckBox()->isChecked());
    QVERIFY(tab->rateFromSpinBox()->isEnabled());
    tab->rateFromSpinBox()->setValue(8);
    tab->rateToSpinBox()->setValue(48);
    tab->rateStepsSpinBox()->setValue(5);
    tab->attainmentSpinBox()->setValue(95);
    const model::SimulationConfig config = tab->config();
    QCOMPARE(config.replicas, 4);
    QCOMPARE(config.router, model::RouterPolicy::LeastLoaded);
    const model::RateSweep sweep = tab->rateSweep();
    QCOMPARE(sweep.steps, 5);
    QCOMPARE(sweep.attainmentTarget, 0.95);
    QCOMPARE(tab->inputError(), QString());

    QSignalSpy shown(tab, &SimulationTab::outcomeShown);
    QTest::mouseClick(tab->runButton(), Qt::LeftButton);
    QVERIFY(tab->cancelButton()->isEnabled());
    QCOMPARE(tab->progressBar()->maximum(), 1 + sweep.steps + sweep.bisections);
    QVERIFY(shown.wait(120000));

    // The replica table: the model's own per-replica results, one row per replica, under a line naming the router.
    const model::Scenario scenario = tab->scenario();
    const model::SimulationResult want = model::simulate(scenario, config, model::generateRequests(config));
    QCOMPARE(int(want.replicas.size()), 4);
    QTableWidget* table = tab->replicaTable();
    QVERIFY(tab->resultPages()->isTabVisible(1));
    QCOMPARE(tab->resultPages()->tabText(1), QStringLiteral("Replicas (4)"));
    tab->resultPages()->setCurrentIndex(1);
    QVERIFY(table->isVisible());
    QCOMPARE(table->rowCount(), 4);
    for (int i = 0; i < 4; ++i) {
        const model::ReplicaLoad& l = want.replicas[size_t(i)];
        QVERIFY(l.requests > 0);
        QCOMPARE(table->verticalHeaderItem(i)->text(), QStringLiteral("Replica %1").arg(i));
        QCOMPARE(table->item(i, SimulationTab::ReplicaRequestsColumn)->text(),
                 QStringLiteral("%1 / %2").arg(format::integer(double(l.completed)), format::integer(double(l.requests))));
        QCOMPARE(table->item(i, SimulationTab::ReplicaThroughputColumn)->text(), format::tokensPerSecond(l.throughputTokensPerSecond));
        QCOMPARE(table->item(i, SimulationTab::ReplicaGoodputColumn)->text(), format::percent(l.goodputFraction));
        QCOMPARE(table->item(i, SimulationTab::ReplicaTtftP50Column)->text(), format::duration(l.p50TtftSeconds));
        QCOMPARE(table->item(i, SimulationTab::ReplicaTtftP99Column)->text(), format::duration(l.p99TtftSeconds));
        QCOMPARE(table->item(i, SimulationTab::ReplicaBusyColumn)->text(), format::percent(l.busyFraction));
        QCOMPARE(table->item(i, SimulationTab::ReplicaPreemptionsColumn)->text(), format::integer(double(l.preemptions)));
    }
    QVERIFY2(tab->replicaTitle()->text().contains(QStringLiteral("least-loaded router")), qPrintable(tab->replicaTitle()->text()));
    QVERIFY(tab->replicaTitle()->text().contains(QStringLiteral("open loop")));

    // The sweep: one point per rate the model simulates, the target line, and the highest rate holding it marked.
    const model::RateSweepResult rates = model::sweepArrivalRate(scenario, config, sweep);
    QVERIFY(rates.points.size() > size_t(sweep.steps)); // the bisections added points
    QVERIFY(rates.maxRatePerSecond.has_value());
    ridgeline::views::AttainmentPlot* attainment = tab->attainmentPlot();
    ridgeline::views::RateSweepPlot* goodput = tab->rateSweepPlot();
    QVERIFY(attainment->isVisible());
    QCOMPARE(attainment->attainmentGraph()->data()->size(), int(rates.points.size()));
    QCOMPARE(goodput->goodputGraph()->data()->size(), int(rates.points.size()));
    QCOMPARE(goodput->throughputGraph()->data()->size(), int(rates.points.size()));
    for (size_t i = 0; i < rates.points.size(); ++i) {
        const auto point = attainment->attainmentGraph()->data()->at(int(i));
        QCOMPARE(point->key, rates.points[i].ratePerSecond);
        QCOMPARE(point->value, 100.0 * rates.points[i].attainment);
        QCOMPARE(goodput->goodputGraph()->data()->at(int(i))->value, rates.points[i].goodputRequestsPerSecond);
    }
    QVERIFY(attainment->maxRateLine()->visible());
    QCOMPARE(attainment->maxRateLine()->point1->coords().x(), *rates.maxRatePerSecond);
    QCOMPARE(attainment->targetLine()->point1->coords().y(), 95.0);
    const QString rateText = QStringLiteral("%1 req/s").arg(format::number(*rates.maxRatePerSecond, 4));
    QVERIFY2(attainment->takeaway().startsWith(QStringLiteral("Holds 95 % of requests within SLO up to %1").arg(rateText)),
             qPrintable(attainment->takeaway()));
    QVERIFY(tab->summaryLabel()->text().contains(rateText));
    QVERIFY(plotsFinite(tab->plots() << goodput->plot() << attainment->plot()));

    window.flushForScreenshot();
    QVERIFY(window.grab().toImage().save(QStringLiteral("/tmp/ridgeline-simulation-fleet-1600.png"), "PNG"));

    // Closed-loop clients across the fleet: the title says so, and the run keeps its clients' requests in flight.
    tab->rateSweepCheckBox()->setChecked(false);
    tab->clientsSpinBox()->setValue(48);
    tab->run();
    QVERIFY(shown.wait(120000));
    QCOMPARE(tab->outcome()->config.closedLoopClients, 48);
    QVERIFY2(tab->replicaTitle()->text().contains(QStringLiteral("closed loop, 48 clients in all")), qPrintable(tab->replicaTitle()->text()));
    QVERIFY(!tab->attainmentPlot()->isVisible()); // no sweep this time
    window.flushForScreenshot();
    QVERIFY(window.grab().toImage().save(QStringLiteral("/tmp/ridgeline-simulation-closed-fleet-1600.png"), "PNG"));
}

/** h14f: the simulator's max_prefills_per_step had no input in the tab (a file's value ran unseen, the window
 *  scenario's serving.max_prefills_per_step not at all); "Prefills / step" sets it, off under static batching. */
void TestSimulationTab::maxPrefillsPerStepReachesTheRun()
{
    model::Scenario scenario = model::defaultScenario();
    scenario.serving.maxPrefillsPerStep = 2;
    ScenarioDocument document(scenario);
    SimulationTab tab(&document);
    tab.show();
    QSpinBox* box = tab.maxPrefillsSpinBox();
    QVERIFY(box);
    QCOMPARE(box->objectName(), QStringLiteral("simulationMaxPrefillsSpinBox"));
    QCOMPARE(box->value(), 2); // the window scenario's, as a file's scenario seeds its simulation
    QCOMPARE(tab.config().maxPrefillsPerStep, 2);

    // A file's max_prefills_per_step fills the box.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("limited.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"simulation": {"policy": "continuous", "max_sequences": 32, "requests": 80, "max_prefills_per_step": 3,
                  "classes": [{"name": "chat", "rate_per_s": 40, "prompt": {"dist": "lognormal", "median": 1500, "p99": 6000},
                               "output": {"dist": "lognormal", "median": 100, "p99": 400}}]}})");
    file.close();
    QCOMPARE(tab.loadExample(path), QString());
    QCOMPARE(box->value(), 3);
    QVERIFY(box->isEnabled());
    QVERIFY2(box->toolTip().contains(QStringLiteral("At most 3 prompts prefilled per step")), qPrintable(box->toolTip()));

    // Typed: one prompt per step reaches the run.
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, QStringLiteral("1"));
    QTest::keyClick(box, Qt::Key_Return); // the box takes a typed value on Enter (no keyboard tracking)
    QCOMPARE(box->value(), 1);
    QCOMPARE(tab.config().maxPrefillsPerStep, 1);
    QCOMPARE(tab.inputError(), QString());
    QSignalSpy shown(&tab, &SimulationTab::outcomeShown);
    QTest::mouseClick(tab.runButton(), Qt::LeftButton);
    QVERIFY(shown.wait(60000));
    const auto outcome = tab.outcome();
    QVERIFY(outcome);
    QCOMPARE(outcome->config.maxPrefillsPerStep, 1);
    // The run is the model's at one prompt per step, and not the unlimited one (40 req/s: prompts arrive together).
    model::SimulationConfig config = outcome->config;
    const std::vector<model::Request> requests = model::generateRequests(config);
    const model::SimulationResult limited = model::simulate(outcome->scenario, config, requests);
    config.maxPrefillsPerStep = 0;
    const model::SimulationResult unlimited = model::simulate(outcome->scenario, config, requests);
    QCOMPARE(outcome->result.all.latency.ttft.p99, limited.all.latency.ttft.p99);
    QCOMPARE(outcome->result.all.latency.ttft.max, limited.all.latency.ttft.max);
    QVERIFY2(limited.all.latency.ttft.max != unlimited.all.latency.ttft.max,
             qPrintable(QStringLiteral("TTFT max %1 ms either way").arg(limited.all.latency.ttft.max)));

    // Static batching does not use it: the box is off and its tool tip says why; Continuous turns it back on.
    QComboBox* policy = tab.policyCombo();
    policy->setCurrentIndex(int(model::BatchingPolicy::Static));
    QVERIFY(!box->isEnabled());
    QVERIFY2(box->toolTip().contains(QStringLiteral("is ignored under the static policy")), qPrintable(box->toolTip()));
    QVERIFY(!model::maxPrefillsPerStepApplies(tab.config()));
    policy->setCurrentIndex(int(model::BatchingPolicy::Continuous));
    QVERIFY(box->isEnabled());
    QVERIFY(model::maxPrefillsPerStepApplies(tab.config()));
    // 0 reads "no limit".
    box->setValue(0);
    QCOMPARE(box->text(), QStringLiteral("no limit"));
    QCOMPARE(tab.config().maxPrefillsPerStep, 0);
}

QTEST_MAIN(TestSimulationTab)
#include "tst_simulationtab.moc"
