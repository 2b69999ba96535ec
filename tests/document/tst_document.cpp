// SPDX-License-Identifier: GPL-3.0-or-later
// The document layer (issue 16): what moved out of the views answers as the model does. The cursor read-outs and
// the calibration curves against model::evaluate's sweeps and results, baseline A's evaluation against
// model::evaluate, and the triage run against model::triage on the same ticket.

#include <cmath>

#include <QtTest>
#include <QUndoStack>

#include "document/baseline.h"
#include "document/presetmatch.h"
#include "document/readouts.h"
#include "document/scenariodocument.h"
#include "document/scenariohistory.h"
#include "document/triagerun.h"
#include "model/analysis/triage.h"
#include "model/cost/costmodel.h"
#include "model/cost/presets.h"
#include "model/cost/scenariokeys.h"

using namespace ridgeline;

namespace {

bool near(double a, double b, double relative = 1e-12)
{
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

/** The default scenario (Llama 3.1 8B on H100) at a batch, context and prompt where no term is trivially 0. */
model::Scenario scenario()
{
    model::Scenario s = model::defaultScenario();
    s.workload.batch = 24;
    s.workload.contextTokens = 6000;
    s.workload.promptTokens = 3000;
    return s;
}

} // namespace

class TestDocument final : public QObject {
    Q_OBJECT

private slots:
    /** At the operating point (B, S, P) the read-outs give the evaluation's own numbers. */
    void readoutsAtTheOperatingPointMatchTheEvaluation()
    {
        const model::Scenario s = scenario();
        const model::Evaluation e = model::evaluate(s);
        const document::DecodeAt decode = document::decodeAt(s, s.workload.batch, s.workload.contextTokens);
        QVERIFY(near(decode.stepSeconds, e.decode.stepSeconds));
        QVERIFY(near(decode.stepSeconds, model::stepSecondsAt(s, s.workload.batch)));
        QVERIFY(decode.memorySeconds > 0 && decode.computeSeconds > 0);
        QVERIFY(decode.weightFloorSeconds > 0 && decode.weightFloorSeconds < decode.memorySeconds);
        const document::KvShareAt kv = document::kvShareAt(s, s.workload.batch, s.workload.contextTokens);
        QVERIFY2(near(kv.share, e.decode.kvShare, 1e-9), qPrintable(QStringLiteral("%1 vs %2").arg(kv.share).arg(e.decode.kvShare)));
        const document::PrefillFlopAt prefill = document::prefillFlopAt(s, s.workload.promptTokens);
        QVERIFY(near(prefill.linearFlop, e.prefill.linearFlop, 1e-9));
        QVERIFY(near(prefill.attentionFlop, e.prefill.attentionFlop, 1e-9));
    }

    /** The roofline read-out is min(F_peak, I * BW): flat right of the ridge point, I * BW left of it; derated,
     *  min(F_peak * MFU_decode, I * BW * eta_bw). */
    void roofBendsAtTheRidgePoint()
    {
        model::Scenario s = scenario();
        s.efficiency.bandwidth = 0.8; // the derated roof lies under the peak one only with efficiencies below 1
        s.efficiency.mfuDecode = 0.6;
        const model::Evaluation e = model::evaluate(s);
        const double ridge = e.roofline.ridgeFlopPerByte;
        QVERIFY(ridge > 0);
        QVERIFY(near(document::roofAt(s, ridge * 4).roofFlopsPerSecond, e.roofline.peakFlopsPerSecond));
        QVERIFY(near(document::roofAt(s, ridge / 4).roofFlopsPerSecond, e.roofline.peakFlopsPerSecond / 4));
        QVERIFY(near(document::roofAt(s, ridge * 4).deratedFlopsPerSecond, 0.6 * e.roofline.peakFlopsPerSecond));
        QVERIFY(near(document::roofAt(s, ridge / 4).deratedFlopsPerSecond, 0.8 * e.roofline.peakFlopsPerSecond / 4));
    }

    /** The calibration plot's ITL curve is t_step(B) at the context: the decode read-out's step time, without the
     *  fixed per-step overheads the serving step has (both are the cost terms' stepSeconds). TTFT grows with P. */
    void latencyCurves()
    {
        const model::Scenario s = scenario();
        const std::vector<double> batches{1, 8, 64};
        const std::vector<double> itl = document::latencyMs(s, document::LatencyKind::Itl, batches, 4000);
        QCOMPARE(itl.size(), batches.size());
        for (size_t i = 0; i < batches.size(); ++i) {
            QVERIFY(itl[i] > 0);
            QCOMPARE(document::latencyMs(s, document::LatencyKind::Itl, batches[i], 4000), itl[i]);
        }
        QVERIFY(itl[0] < itl[1] && itl[1] < itl[2]);
        const std::vector<double> ttft = document::latencyMs(s, document::LatencyKind::Ttft, {128, 1024, 8192}, 0);
        QVERIFY(ttft[0] > 0 && ttft[0] < ttft[1] && ttft[1] < ttft[2]);
    }

    /** Baseline A holds the scenario and model::evaluate's result for it; clear() unpins. */
    void baselineEvaluatesOnce()
    {
        document::Baseline a;
        QVERIFY(!a.isPinned());
        const model::Scenario s = scenario();
        a.pin(s);
        QVERIFY(a.isPinned());
        QCOMPARE(a.scenario().workload.batch, s.workload.batch);
        const model::Evaluation e = model::evaluate(s);
        QCOMPARE(a.evaluation().decode.stepSeconds, e.decode.stepSeconds);
        QCOMPARE(a.evaluation().prefill.seconds, e.prefill.seconds);
        a.clear();
        QVERIFY(!a.isPinned());
    }

    /** A shipped ticket, run against the document's evaluated scenario, classifies as model::triage does; a
     *  missing file is refused with its name and leaves the input as it was. */
    void triageRunMatchesTheModel()
    {
        views::ScenarioDocument doc(scenario());
        document::TriageRun run(&doc);
        QCOMPARE(run.loadTicket(QStringLiteral(":/tickets/b2-itl.json")), QString());
        const model::TriageInput loaded = run.input();
        const model::TriageResult& r = run.run();
        const model::TriageResult direct = model::triage(doc.evaluatedScenario(), loaded);
        QCOMPARE(int(r.ticketClass), int(direct.ticketClass));
        QVERIFY(r.reasoning == direct.reasoning);
        QCOMPARE(&run.scenario(), &doc.evaluatedScenario());

        const QString error = run.loadTicket(QStringLiteral("/nonexistent/ticket.json"));
        QVERIFY(error.startsWith(QStringLiteral("Cannot read /nonexistent/ticket.json: ")));
        QCOMPARE(run.input().p95ItlMs, loaded.p95ItlMs);
    }
    /**
     * The names the status line and the text report show: a preset's name while the scenario matches that preset, the
     * name marked "(edited)" once a `--set`-style edit moved it away (the name itself left as it was), an unknown
     * name as it is, an empty name as "custom model" / "custom hardware".
     */
    void shownNamesMarkAnEditedPreset()
    {
        model::Scenario s = model::defaultScenario();
        const std::string modelName = s.model.name, deviceName = s.hardware.name;
        QVERIFY(!modelName.empty() && !deviceName.empty());
        document::ShownNames names = document::shownNames(s, nullptr);
        QCOMPARE(names.model, modelName);
        QCOMPARE(names.hardware, deviceName);
        QVERIFY(document::matchModelPreset(model::modelPresets(), s.model) >= 0);

        s.model.weightDtype = model::DType::FP8; // a preset served at another precision is still that preset
        QCOMPARE(document::shownNames(s, nullptr).model, modelName);

        QVERIFY(model::setKey(s, "model.params", "400e9").empty());
        QVERIFY(model::setKey(s, "hardware.bandwidth", "2e12").empty());
        names = document::shownNames(s, nullptr);
        QCOMPARE(names.model, modelName + " (edited)");
        QCOMPARE(names.hardware, deviceName + " (edited)");
        QCOMPARE(s.model.name, modelName); // the scenario's own name (the JSON report's model.name) is not touched
        QCOMPARE(document::matchModelPreset(model::modelPresets(), s.model), -1);
        QCOMPARE(document::matchHardwarePreset(model::hardwarePresets(), s.hardware), -1);

        s.model.name = "my own model";
        s.hardware.name.clear();
        names = document::shownNames(s, nullptr);
        QCOMPARE(names.model, std::string("my own model"));
        QCOMPARE(names.hardware, std::string("custom hardware"));
    }

    /** The undo history is bounded (issue 16, h16af): more one-key steps than ScenarioHistory::kUndoLimitSteps,
     *  each in its own pass of the event loop, keep kUndoLimitSteps of them (the window's memory flat in run
     *  length); undoing every kept step reaches the oldest kept step's scenario before, redo the last. */
    void undoHistoryIsBounded()
    {
        views::ScenarioDocument document(model::defaultScenario());
        views::ScenarioHistory history(&document);
        QUndoStack* stack = history.stack();
        const int limit = views::ScenarioHistory::kUndoLimitSteps;
        const int steps = limit + 200;
        QCOMPARE(document.scenario().workload.batch, 1);
        for (int i = 1; i <= steps; ++i) {
            document.edit([i](model::Scenario& s) { s.workload.batch = 1 + i; });
            QCoreApplication::sendPostedEvents();
            QCoreApplication::processEvents(); // the pass ends: the next change is its own step
            QCOMPARE(stack->count(), std::min(i, limit));
        }
        QCOMPARE(stack->undoText(), QStringLiteral("workload.batch = %1").arg(1 + steps));
        stack->setIndex(0);
        QCOMPARE(document.scenario().workload.batch, 1 + steps - limit);
        stack->setIndex(stack->count());
        QCOMPARE(document.scenario().workload.batch, 1 + steps);
    }

    /** A step keeps the keys it changed (issue 16, h16af): a gesture that changes two keys and puts one back is
     *  one step named by the other; undo puts both back, redo the one; a gesture that puts everything back is
     *  no step. */
    void mergedStepNamesTheKeysItChanged()
    {
        views::ScenarioDocument document(model::defaultScenario());
        views::ScenarioHistory history(&document);
        QUndoStack* stack = history.stack();
        const int context = document.scenario().workload.contextTokens;
        history.beginGesture();
        document.edit([](model::Scenario& s) { s.workload.batch = 8; });
        document.edit([](model::Scenario& s) { s.workload.contextTokens = 4096; });
        document.edit([](model::Scenario& s) { s.workload.batch = 16; });
        QCOMPARE(stack->count(), 1);
        QCOMPARE(stack->undoText(), QStringLiteral("2 inputs (workload.batch, workload.context_tokens)"));
        document.edit([](model::Scenario& s) { s.workload.batch = 1; });
        history.endGesture();
        QCOMPARE(stack->count(), 1);
        QCOMPARE(stack->undoText(), QStringLiteral("workload.context_tokens = 4096"));
        stack->undo();
        QCOMPARE(document.scenario().workload.contextTokens, context);
        QCOMPARE(document.scenario().workload.batch, 1);
        stack->redo();
        QCOMPARE(document.scenario().workload.contextTokens, 4096);
        QCOMPARE(document.scenario().workload.batch, 1);

        QCoreApplication::processEvents();
        history.beginGesture();
        document.edit([](model::Scenario& s) { s.workload.batch = 32; });
        document.edit([](model::Scenario& s) { s.workload.batch = 1; });
        history.endGesture();
        QCOMPARE(stack->count(), 1); // the drag back to where it started left no step
        QCOMPARE(stack->index(), 1);
    }
};

QTEST_GUILESS_MAIN(TestDocument)
#include "tst_document.moc"
