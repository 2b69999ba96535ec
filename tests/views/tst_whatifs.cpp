// SPDX-License-Identifier: GPL-3.0-or-later
// Widget test of the what-if tabs (issue 4): real widgets in the real window, key and mouse events,
// document signals, plot and bar data compared with the document's evaluation and the model.

#include <cmath>

#include <QBarSet>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGuiApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <qcustomplot.h>

#include "app/mainwindow.h"
#include "model/cost/costmodel.h"
#include "model/cost/formulas.h"
#include "model/cost/presets.h"
#include "model/cost/scenario.h"
#include "model/analysis/triage.h"
#include "views/whatifs/capacityplot.h"
#include "views/kit/fitregion.h"
#include "document/format.h"
#include "views/whatifs/kvfitplot.h"
#include "views/whatifs/prefixcachepanel.h"
#include "document/scenariodocument.h"
#include "views/whatifs/sloheadroom.h"
#include "views/whatifs/speculativeplot.h"
#include "views/triage/triagepanel.h"
#include "views/whatifs/whatifstabs.h"
#include "views/controls/workloadpanel.h"

using ridgeline::app::MainWindow;
using ridgeline::views::ScenarioDocument;
using ridgeline::views::WhatIfTabs;
namespace model = ridgeline::model;
namespace format = ridgeline::views::format;

namespace {

bool near(double a, double b, double tolerance = 1e-12)
{
    return std::abs(a - b) <= tolerance * std::max({1.0, std::abs(a), std::abs(b)});
}

model::Scenario drillScenario()
{
    for (const model::ScenarioPreset& preset : model::scenarioPresets()) {
        if (preset.id == "incident-drill-13b-a100")
            return preset.scenario;
    }
    return model::defaultScenario();
}

/** Types @p text into @p widget (select all first) and commits with Enter. */
void typeInto(QWidget* widget, const QString& text)
{
    widget->setFocus();
    QTest::keyClick(widget, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(widget, text);
    QTest::keyClick(widget, Qt::Key_Return);
}

/** Every graph point of every what-if plot is finite, and every axis range is finite and non-empty. */
bool plotsFinite(const WhatIfTabs* tabs)
{
    for (QCustomPlot* plot : tabs->plots()) {
        for (int g = 0; g < plot->graphCount(); ++g) {
            const QSharedPointer<QCPGraphDataContainer> data = plot->graph(g)->data();
            for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
                if (!std::isfinite(it->key) || !std::isfinite(it->value))
                    return false;
            }
        }
        for (QCPAxis* axis : plot->axisRect()->axes()) {
            if (!std::isfinite(axis->range().lower) || !std::isfinite(axis->range().upper)
                || !(axis->range().upper > axis->range().lower))
                return false;
        }
    }
    return true;
}

} // namespace

class TestWhatIfs final : public QObject {
    Q_OBJECT

private slots:
    void workloadPresetSetsDocumentAndBar();
    void capacityCurvesFollowTheSweeps();
    void sloHeadroomLines();
    void verifyCostMovesSpeedup();
    void triageB3IsAdmissionAndCopiesStandup();
    void triageB2ThenConcurrency48LeavesDecode();
    void invalidInputKeepsPlotsFinite();
    void renderTabsPng();
};

void TestWhatIfs::workloadPresetSetsDocumentAndBar()
{
    MainWindow window(model::defaultScenario());
    window.show();
    WhatIfTabs* tabs = window.whatIfTabs();
    tabs->setCurrentIndex(WhatIfTabs::WorkloadTab);
    ScenarioDocument* document = window.document();
    ridgeline::views::WorkloadPanel* panel = tabs->workloadPanel();
    QComboBox* combo = panel->presetCombo();
    QCOMPARE(combo->currentIndex(), int(ridgeline::views::WorkloadPanel::Custom)); // 2,048 / 256 is no preset

    QSignalSpy evaluated(document, &ScenarioDocument::evaluated);
    combo->setFocus();
    QTest::keyClick(combo, Qt::Key_Home); // chat
    QCOMPARE(document->scenario().workload.promptTokens, 2000);
    QCOMPARE(document->scenario().workload.outputTokens, 300);
    QTest::keyClick(combo, Qt::Key_Down); // classification
    QCOMPARE(document->scenario().workload.promptTokens, 1000);
    QCOMPARE(document->scenario().workload.outputTokens, 20);
    QTRY_COMPARE(evaluated.count(), 1); // two edits, one evaluation

    using ridgeline::views::WorkloadPanel;
    const model::WorkloadResult& w = document->evaluation().workload;
    QCOMPARE(panel->prefillBarSet()->count(), 2);
    QCOMPARE(panel->decodeBarSet()->count(), 2);
    QVERIFY(near(panel->prefillBarSet()->at(WorkloadPanel::kAsIs), w.prefillSecondsPerRequest * 1e3));
    QVERIFY(near(panel->decodeBarSet()->at(WorkloadPanel::kAsIs), w.decodeSecondsPerRequest * 1e3));
    // No prefix set: the cached bar is the same request.
    QVERIFY(near(panel->prefillBarSet()->at(WorkloadPanel::kWithPrefixCache), w.prefillSecondsPerRequest * 1e3));
    QCOMPARE(panel->promptSpinBox()->value(), 1000);
    QCOMPARE(panel->outputSpinBox()->value(), 20);
    QVERIFY2(panel->takeaway().contains(QStringLiteral("classification request")), qPrintable(panel->takeaway()));
    const bool decodeOwns = w.prefillShare < 0.5;
    QVERIFY2(panel->takeaway().startsWith(decodeOwns ? QStringLiteral("Decode owns") : QStringLiteral("Prefill owns")),
             qPrintable(panel->takeaway()));

    // A custom output length: the combo shows Custom, the bar follows.
    typeInto(panel->outputSpinBox(), QStringLiteral("500"));
    QCOMPARE(document->scenario().workload.outputTokens, 500);
    QCOMPARE(combo->currentIndex(), int(ridgeline::views::WorkloadPanel::Custom));
    QTRY_COMPARE(evaluated.count(), 2);
    QVERIFY(near(panel->decodeBarSet()->at(WorkloadPanel::kAsIs), document->evaluation().workload.decodeSecondsPerRequest * 1e3));
    // Seed 002's chat shape at batch 1 is decode-owned ("95 % decode").
    QTest::keyClick(combo, Qt::Key_Home);
    QTRY_COMPARE(evaluated.count(), 3);
    QVERIFY2(panel->takeaway().startsWith(QStringLiteral("Decode owns")), qPrintable(panel->takeaway()));
    QVERIFY(panel->takeaway().contains(QStringLiteral("chat request's GPU time at B = 1")));

    // Seed 001's shared system prompt: 1,800 tokens. The prefix-cache bar drops by the saving.
    auto* prefix = window.findChild<QSpinBox*>(QStringLiteral("prefixTokensSpinBox"));
    QVERIFY(prefix);
    typeInto(prefix, QStringLiteral("1800"));
    QCOMPARE(document->scenario().serving.prefixTokens, 1800);
    QTRY_COMPARE(evaluated.count(), 4);
    const model::Evaluation& e = document->evaluation();
    QVERIFY(e.prefixCache.savedSecondsPerRequest > 0);
    QVERIFY(near(panel->prefillBarSet()->at(WorkloadPanel::kWithPrefixCache),
                 (e.workload.prefillSecondsPerRequest - e.prefixCache.savedSecondsPerRequest) * 1e3));
    auto* ttftSaved = window.findChild<QLabel*>(QStringLiteral("prefixTtftValue"));
    QVERIFY(ttftSaved);
    QVERIFY2(ttftSaved->text().startsWith(format::duration(e.prefixCache.savedSecondsPerRequest)), qPrintable(ttftSaved->text()));
    QVERIFY(ttftSaved->toolTip().contains(QStringLiteral("84.6 ms")));
}

void TestWhatIfs::capacityCurvesFollowTheSweeps()
{
    MainWindow window(model::defaultScenario());
    window.show();
    WhatIfTabs* tabs = window.whatIfTabs();
    tabs->setCurrentIndex(WhatIfTabs::CapacityTab);
    ScenarioDocument* document = window.document();
    ridgeline::views::CapacityPlot* capacity = tabs->capacityPlot();

    auto checkCurves = [&] {
        const model::Sweeps& sweeps = document->evaluation().sweeps;
        const QSharedPointer<QCPGraphDataContainer> contiguous = capacity->contiguousGraph()->data();
        const QSharedPointer<QCPGraphDataContainer> paged = capacity->pagedGraph()->data();
        QCOMPARE(contiguous->size(), int(sweeps.maxContext.size()));
        QCOMPARE(paged->size(), int(sweeps.maxContext.size()));
        auto c = contiguous->constBegin();
        auto p = paged->constBegin();
        for (Eigen::Index i = 0; i < sweeps.maxContext.size(); ++i, ++c, ++p) {
            QCOMPARE(c->key, sweeps.maxContext[i]);
            QCOMPARE(c->value, sweeps.sequencesContiguous[i]);
            QCOMPARE(p->value, sweeps.sequencesPaged[i]);
        }
        // The fit boundary: maxBatchFitting on the context grid (0 drawn below the axis).
        const QSharedPointer<QCPGraphDataContainer> boundary = tabs->kvFitPlot()->boundaryGraph()->data();
        QCOMPARE(boundary->size(), int(sweeps.context.size()));
        auto b = boundary->constBegin();
        for (Eigen::Index i = 0; i < sweeps.context.size(); ++i, ++b)
            QCOMPARE(b->value, std::max(sweeps.maxBatchFitting[i], ridgeline::views::KvFitPlot::kNoBatch));
    };
    checkCurves();
    const QCPGraphDataContainer* before = capacity->contiguousGraph()->data().data();

    // Advertised max context 8,192 typed into the slider's spin box.
    QSignalSpy evaluated(document, &ScenarioDocument::evaluated);
    auto* maxContext = window.findChild<QDoubleSpinBox*>(QStringLiteral("maxContextSpinBox"));
    QVERIFY(maxContext);
    typeInto(maxContext, QStringLiteral("8192"));
    QCOMPARE(document->scenario().serving.maxContextTokens, 8192);
    QTRY_COMPARE(evaluated.count(), 1);
    checkCurves();
    QCOMPARE(capacity->contiguousGraph()->data().data(), before); // same container, overwritten in place
    const model::CapacityResult& c = document->evaluation().capacity;
    QCOMPARE(capacity->contiguousMarker()->data()->constBegin()->key, 8192.0);
    QCOMPARE(capacity->contiguousMarker()->data()->constBegin()->value, double(c.maxSequencesContiguousAtMaxContext));
    QVERIFY2(capacity->takeaway().startsWith(QStringLiteral("At 8k max context, contiguous reservation fits %1")
                                                 .arg(format::integer(double(c.maxSequencesContiguousAtMaxContext)))),
             qPrintable(capacity->takeaway()));
    QVERIFY(capacity->takeaway().contains(QStringLiteral("fits %1.").arg(format::integer(double(c.maxSequencesPaged)))));

    // HBM capacity is edited here (the controls dock has no field for it): 40 GB halves the budget and more.
    auto* hbm = window.findChild<QDoubleSpinBox*>(QStringLiteral("hbmSpinBox"));
    QVERIFY(hbm);
    QCOMPARE(hbm->value(), 80.0);
    typeInto(hbm, QStringLiteral("40"));
    QCOMPARE(document->scenario().hardware.memoryBytes, 40e9);
    QTRY_COMPARE(evaluated.count(), 2);
    checkCurves();
    auto* requestKv = window.findChild<QLabel*>(QStringLiteral("requestKvValue"));
    QVERIFY(requestKv);
    QVERIFY2(requestKv->text().contains(format::gibibytes(document->evaluation().capacity.requestKvBytes)),
             qPrintable(requestKv->text()));

    // A batch the cache cannot hold: the current point says so.
    document->edit([](model::Scenario& s) {
        s.workload.batch = 4000;
        s.workload.contextTokens = 32768;
    });
    QTRY_COMPARE(evaluated.count(), 3);
    QVERIFY(!document->evaluation().capacity.fits);
    QVERIFY2(tabs->kvFitPlot()->takeaway().contains(QStringLiteral("does not fit")), qPrintable(tabs->kvFitPlot()->takeaway()));
    QVERIFY(plotsFinite(tabs));

    // A hidden tab is not redrawn per evaluation, but is current again the moment it is shown.
    tabs->setCurrentIndex(WhatIfTabs::TriageTab);
    const QString hiddenTitle = capacity->takeaway();
    typeInto(hbm, QStringLiteral("141"));
    QTRY_COMPARE(evaluated.count(), 4);
    QCOMPARE(capacity->takeaway(), hiddenTitle);
    tabs->setCurrentIndex(WhatIfTabs::CapacityTab);
    QVERIFY(capacity->takeaway() != hiddenTitle);
    checkCurves();
}

void TestWhatIfs::sloHeadroomLines()
{
    MainWindow window(drillScenario());
    window.show();
    WhatIfTabs* tabs = window.whatIfTabs();
    tabs->setCurrentIndex(WhatIfTabs::CapacityTab);
    ScenarioDocument* document = window.document();
    ridgeline::views::SloHeadroomPanel* slo = tabs->sloHeadroomPanel();
    const std::vector<QLabel*> lines = slo->itlLabels();
    QCOMPARE(lines.size(), document->scenario().workload.itlSloMs.size());
    // Seed 000: 40 ms against the 13.0 ms floor; first against t_step at the current batch (issue 17).
    bool found = false;
    const QString atBatch = QStringLiteral("40 ms ITL SLO = %1x t_step at B = 1 (%2)")
                                .arg(format::number(40.0 / (document->evaluation().decode.stepSeconds * 1e3), 2),
                                     format::milliseconds(document->evaluation().decode.stepSeconds * 1e3));
    for (QLabel* label : lines)
        found = found || (label->text().startsWith(atBatch) && label->text().contains(QStringLiteral("3.1x the 13.0 ms floor")));
    QVERIFY(found);

    // Queue wait is an input; TTFT = queue wait + prefill.
    QSignalSpy evaluated(document, &ScenarioDocument::evaluated);
    typeInto(slo->queueWaitSpinBox(), QStringLiteral("1100"));
    QCOMPARE(document->scenario().workload.queueWaitMs, 1100.0);
    QTRY_COMPARE(evaluated.count(), 1);
    const model::SloResult& r = document->evaluation().slo;
    QVERIFY2(slo->ttftLabel()->text().contains(format::duration(r.ttftMs / 1e3)), qPrintable(slo->ttftLabel()->text()));
    QVERIFY(slo->ttftLabel()->text().contains(QStringLiteral("1,100 ms queue")));
    QVERIFY(slo->ttftLabel()->toolTip().contains(QStringLiteral("queue wait + t_pre(P)")));
}

void TestWhatIfs::verifyCostMovesSpeedup()
{
    MainWindow window(model::defaultScenario());
    window.show();
    WhatIfTabs* tabs = window.whatIfTabs();
    tabs->setCurrentIndex(WhatIfTabs::WorkloadTab);
    ScenarioDocument* document = window.document();
    ridgeline::views::SpeculativePlot* spec = tabs->speculativePlot();
    const model::Speculative s = document->scenario().speculative;

    // Seed 001: alpha 0.7, k 4, c_d 0.05 gives 2.31x at c_v = 0.
    QCOMPARE(s.acceptance, 0.7);
    QCOMPARE(s.draftTokens, 4);
    QVERIFY2(spec->speedupLabel()->text().contains(QStringLiteral("2.31x")), qPrintable(spec->speedupLabel()->text()));
    QVERIFY2(spec->takeaway().contains(QStringLiteral("slowdown beyond c_v = 0.39")), qPrintable(spec->takeaway()));
    QVERIFY(spec->breakEvenLine()->visible());
    QVERIFY(near(spec->breakEvenLine()->point1->key(), document->evaluation().speculative.breakEvenVerifyCost));

    QSignalSpy evaluated(document, &ScenarioDocument::evaluated);
    auto* verify = window.findChild<QDoubleSpinBox*>(QStringLiteral("verifyCostSpinBox"));
    QVERIFY(verify);
    double previous = document->evaluation().speculative.speedup;
    int evaluations = 0;
    for (const char* text : {"0.25", "0.5", "0.8"}) {
        typeInto(verify, QString::fromLatin1(text));
        const double cv = QString::fromLatin1(text).toDouble();
        QCOMPARE(document->scenario().speculative.verifyCost, cv);
        ++evaluations;
        QTRY_COMPARE(evaluated.count(), evaluations);
        const model::SpeculativeResult expected = model::speculativeDecoding(s.acceptance, s.draftTokens, s.draftCost, cv);
        QVERIFY2(spec->speedupLabel()->text().contains(format::number(expected.speedup) + QStringLiteral("x")),
                 qPrintable(spec->speedupLabel()->text()));
        QCOMPARE(spec->currentMarker()->data()->constBegin()->key, cv);
        QVERIFY(near(spec->currentMarker()->data()->constBegin()->value, expected.speedup));
        QVERIFY(expected.speedup < previous); // more verification cost, less speedup
        previous = expected.speedup;
    }
    QVERIFY(spec->speedupLabel()->text().contains(QStringLiteral("0.")));
    // The curve is the sweep.
    const model::Sweeps& sweeps = document->evaluation().sweeps;
    auto it = spec->speedupGraph()->data()->constBegin();
    for (Eigen::Index i = 0; i < sweeps.verifyCost.size(); ++i, ++it)
        QCOMPARE(it->value, sweeps.speculativeSpeedup[i]);
}

void TestWhatIfs::triageB3IsAdmissionAndCopiesStandup()
{
    MainWindow window(model::defaultScenario());
    window.show();
    WhatIfTabs* tabs = window.whatIfTabs();
    tabs->setCurrentIndex(WhatIfTabs::TriageTab);
    ridgeline::views::TriagePanel* triage = tabs->triagePanel();
    QComboBox* examples = triage->examplesCombo();
    QCOMPARE(examples->count(), 6);

    // Down three times from the prompt entry: B1, B2, B3.
    examples->setFocus();
    for (int i = 0; i < 3; ++i)
        QTest::keyClick(examples, Qt::Key_Down);
    QVERIFY2(examples->currentText().startsWith(QStringLiteral("B3")), qPrintable(examples->currentText()));
    QCOMPARE(triage->result().ticketClass, model::TicketClass::Admission);
    QVERIFY2(triage->classLabel()->text().contains(QStringLiteral("admission / concurrency")), qPrintable(triage->classLabel()->text()));
    QCOMPARE(triage->input().concurrency.value_or(0), 48.0);
    QCOMPARE(triage->concurrencySpinBox()->value(), 48);
    QVERIFY(triage->standupEdit()->toPlainText().contains(QStringLiteral("Phase: admission / concurrency")));

    QGuiApplication::clipboard()->clear();
    QTest::mouseClick(triage->copyButton(), Qt::LeftButton);
    const QString copied = QGuiApplication::clipboard()->text();
    const QStringList lines = copied.split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 6);
    QVERIFY(lines[0].startsWith(QStringLiteral("Symptom: ")));
    QVERIFY(lines[1].startsWith(QStringLiteral("Phase: ")));
    QVERIFY(lines[2].startsWith(QStringLiteral("Floor we compared against: ")));
    QVERIFY(lines[3].startsWith(QStringLiteral("What is actually happening: ")));
    QVERIFY(lines[4].startsWith(QStringLiteral("Change we will try: ")));
    QVERIFY(lines[5].startsWith(QStringLiteral("How we will know in 30 minutes: ")));
    // Seed 000, acceptance 4: the B3 standup names queue wait and live-token limits, not FlashAttention.
    QVERIFY(copied.contains(QStringLiteral("queue")));
    QVERIFY(!copied.contains(QStringLiteral("FlashAttention")));

    // The drill's own scenario (13B on A100): the floor compared against becomes seed 000's 13.0 ms.
    ScenarioDocument* document = window.document();
    QSignalSpy evaluated(document, &ScenarioDocument::evaluated);
    auto* drill = window.findChild<QPushButton*>(QStringLiteral("triageDrillButton"));
    QVERIFY(drill);
    QTest::mouseClick(drill, Qt::LeftButton);
    QTRY_COMPARE(evaluated.count(), 1);
    QVERIFY(near(triage->result().decodeFloorMs, 13.0, 1e-3));
    QCOMPARE(triage->result().ticketClass, model::TicketClass::Admission);
    QVERIFY(triage->standupText().contains(QStringLiteral("13.0 ms/token")));
}

void TestWhatIfs::triageB2ThenConcurrency48LeavesDecode()
{
    MainWindow window(model::defaultScenario());
    window.show();
    WhatIfTabs* tabs = window.whatIfTabs();
    tabs->setCurrentIndex(WhatIfTabs::TriageTab);
    ridgeline::views::TriagePanel* triage = tabs->triagePanel();
    QVERIFY(triage->loadTicket(QStringLiteral(":/tickets/b2-itl.json")).isEmpty());
    QCOMPARE(triage->result().ticketClass, model::TicketClass::Decode);
    QVERIFY(triage->classLabel()->text().contains(QStringLiteral(">decode<")));

    typeInto(triage->concurrencySpinBox(), QStringLiteral("48"));
    QCOMPARE(triage->input().concurrency.value_or(0), 48.0);
    QVERIFY(triage->result().ticketClass != model::TicketClass::Decode);
    QVERIFY2(!triage->classLabel()->text().contains(QStringLiteral(">decode<")), qPrintable(triage->classLabel()->text()));
    // The panel's result is model::triage on the document's scenario, nothing else.
    const model::TriageResult expected = model::triage(window.document()->evaluatedScenario(), triage->input());
    QCOMPARE(triage->result().ticketClass, expected.ticketClass);
    QCOMPARE(triage->standupText() + QStringLiteral("\n"), QString::fromStdString(expected.standup.text()));

    // A bad path reports instead of changing the inputs.
    QVERIFY(!triage->loadTicket(QStringLiteral(":/tickets/missing.json")).isEmpty());
    QCOMPARE(triage->input().concurrency.value_or(0), 48.0);
}

void TestWhatIfs::invalidInputKeepsPlotsFinite()
{
    MainWindow window(model::defaultScenario());
    window.show();
    WhatIfTabs* tabs = window.whatIfTabs();
    tabs->setCurrentIndex(WhatIfTabs::CapacityTab);
    ScenarioDocument* document = window.document();
    QVERIFY(plotsFinite(tabs));
    const QString titleBefore = tabs->capacityPlot()->takeaway();

    QSignalSpy invalid(document, &ScenarioDocument::invalidChanged);
    auto* utilization = window.findChild<QDoubleSpinBox*>(QStringLiteral("memoryUtilizationSpinBox"));
    QVERIFY(utilization);
    QCOMPARE(utilization->value(), 0.9);
    typeInto(utilization, QStringLiteral("0"));
    QCOMPARE(document->scenario().serving.memoryUtilization, 0.0);
    QTRY_COMPARE(invalid.count(), 1);
    QVERIFY(window.errorBanner()->isVisible());
    QVERIFY(window.errorBanner()->text().contains(QStringLiteral("serving.memory_utilization")));
    QCOMPARE(tabs->capacityPlot()->takeaway(), titleBefore);
    QVERIFY(plotsFinite(tabs));

    // Weights that overfill the GPU are valid but leave no KV budget: everything still finite, said in words.
    typeInto(utilization, QStringLiteral("0.9"));
    QTRY_VERIFY(!window.errorBanner()->isVisible());
    typeInto(window.findChild<QDoubleSpinBox*>(QStringLiteral("hbmSpinBox")), QStringLiteral("10"));
    QTRY_COMPARE(document->evaluatedScenario().hardware.memoryBytes, 10e9);
    QVERIFY(document->evaluation().capacity.kvBudgetBytes < 0);
    QVERIFY(plotsFinite(tabs));
    // Every plot leads with the window's "Does not fit" warning (issue 17); these two then name the missing budget.
    for (const ridgeline::views::PlotPanel* panel : std::initializer_list<const ridgeline::views::PlotPanel*>{tabs->capacityPlot(), tabs->kvFitPlot()}) {
        QVERIFY2(panel->takeaway().startsWith(QStringLiteral("Does not fit")), qPrintable(panel->takeaway()));
        QVERIFY2(panel->takeaway().contains(QStringLiteral("No KV budget")), qPrintable(panel->takeaway()));
    }
    QCOMPARE(tabs->capacityPlot()->noFitRegion()->boundary().value_or(-1), 0.0);
}

void TestWhatIfs::renderTabsPng()
{
    for (const QSize size : {QSize(1600, 1000), QSize(1280, 800)}) {
        MainWindow window(model::defaultScenario());
        window.resize(size);
        window.show();
        WhatIfTabs* tabs = window.whatIfTabs();
        tabs->triagePanel()->loadTicket(QStringLiteral(":/tickets/b3-concurrency.json"));
        const char* const names[] = {"floors", "capacity", "workload", "triage"};
        for (int tab = WhatIfTabs::CapacityTab; tab <= WhatIfTabs::TriageTab; ++tab) {
            tabs->setCurrentIndex(tab);
            window.flushForScreenshot();
            const QImage image = window.grab().toImage();
            QVERIFY(!image.isNull());
            QCOMPARE(image.size(), size); // no tab forces the window wider than 1280 px
            const QString path = QStringLiteral("/tmp/ridgeline-whatifs-%1-%2.png").arg(QLatin1String(names[tab])).arg(size.width());
            QVERIFY(image.save(path, "PNG"));
        }
        QVERIFY(plotsFinite(tabs));
    }

    // The drill's 13B on A100 under load, with a prefix cache and a costly verifier.
    model::Scenario busy = drillScenario();
    busy.workload.batch = 64;
    busy.workload.contextTokens = 8192;
    busy.workload.queueWaitMs = 1100;
    busy.serving.maxContextTokens = 32768;
    busy.serving.prefixTokens = 1800;
    busy.serving.prefixHitRate = 0.9;
    busy.speculative.verifyCost = 0.3;
    MainWindow window(busy);
    window.resize(1600, 1000);
    window.show();
    WhatIfTabs* tabs = window.whatIfTabs();
    tabs->triagePanel()->loadTicket(QStringLiteral(":/tickets/b5-oom.json"));
    const char* const names[] = {"floors", "capacity", "workload", "triage"};
    for (int tab = WhatIfTabs::CapacityTab; tab <= WhatIfTabs::TriageTab; ++tab) {
        tabs->setCurrentIndex(tab);
        window.flushForScreenshot();
        const QString path = QStringLiteral("/tmp/ridgeline-whatifs-%1-busy.png").arg(QLatin1String(names[tab]));
        QVERIFY(window.grab().toImage().save(path, "PNG"));
    }
    QVERIFY(plotsFinite(tabs));
}

QTEST_MAIN(TestWhatIfs)
#include "tst_whatifs.moc"
