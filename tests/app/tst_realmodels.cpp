// SPDX-License-Identifier: GPL-3.0-or-later
// Widget test of real models and devices in the window: config.json import (menu function and
// drop), the MoE / MLA / sliding-window and tensor-parallel figures the views show, and the user's
// hardware catalogue. Expected figures come from model::evaluate of the same scenario; the only
// literals are published counts (Mixtral 8x7B's 46,702,792,704 parameters) and the KV-head split
// the brief states for Qwen2.5-3B at T = 8.

#include <cmath>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUrl>

#include <qcustomplot.h>

#include "app/mainwindow.h"
#include "model/cost/costmodel.h"
#include "model/cost/presets.h"
#include "model/cost/scenario.h"
#include "model/cost/scenariokeys.h"
#include "views/controls/controlspanel.h"
#include "views/floors/decodeplot.h"
#include "views/controls/devicedialog.h"
#include "document/format.h"
#include "views/floors/numberspanel.h"
#include "views/kit/plotpanel.h"
#include "views/floors/prefillplot.h"
#include "views/floors/rooflineplot.h"
#include "document/scenariodocument.h"
#include "document/usercatalogue.h"
#include "tests/fulldisk.h"

using ridgeline::app::MainWindow;
using ridgeline::views::ScenarioDocument;
using ridgeline::views::UserCatalogue;
namespace model = ridgeline::model;
namespace format = ridgeline::views::format;

namespace {

constexpr double kMixtralParams = 46702792704.0; // published count, also tests/model/tst_hfconfig.cpp

QString configPath(const char* name)
{
    return QFINDTESTDATA(QStringLiteral("data/configs/") + QLatin1String(name));
}

/** Waits for the coalesced evaluation of the last edit. */
void settle(ScenarioDocument* document)
{
    QTRY_VERIFY(!document->isEvaluationPending());
}

/** Every key and value of every graph, every item position and every axis range of every plot is finite. */
bool plotsFinite(const MainWindow& window, QString* where)
{
    for (QCustomPlot* plot : window.plots()) {
        for (int g = 0; g < plot->graphCount(); ++g) {
            const QSharedPointer<QCPGraphDataContainer> data = plot->graph(g)->data();
            for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
                if (!std::isfinite(it->key) || !std::isfinite(it->value)) {
                    *where = plot->objectName() + QStringLiteral(" graph ") + plot->graph(g)->name();
                    return false;
                }
            }
        }
        for (int i = 0; i < plot->itemCount(); ++i) {
            for (const QCPItemPosition* position : plot->item(i)->positions()) {
                if (!std::isfinite(position->coords().x()) || !std::isfinite(position->coords().y())) {
                    *where = plot->objectName() + QStringLiteral(" item ") + QString::number(i);
                    return false;
                }
            }
        }
        for (QCPAxis* axis : plot->axisRect()->axes()) {
            if (!std::isfinite(axis->range().lower) || !std::isfinite(axis->range().upper)) {
                *where = plot->objectName() + QStringLiteral(" axis");
                return false;
            }
        }
    }
    return true;
}

void typeInto(QAbstractSpinBox* spin, const QString& text)
{
    spin->setFocus();
    QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(spin, text);
    QTest::keyClick(spin, Qt::Key_Return);
}

void clearUserCatalogue()
{
    QDir(UserCatalogue::directory()).removeRecursively();
}

model::HardwarePreset testDevice()
{
    model::HardwarePreset device;
    device.source = "test figures";
    device.hardware.name = "Test Accelerator X";
    device.hardware.bandwidthBytesPerSecond = 5.3e12;
    device.hardware.peakFlopsPerSecond = 1307.4e12;
    device.hardware.memoryBytes = 192e9;
    device.hardware.peakFlopsFp8 = 2614.9e12;
    device.hardware.peakOpsInt8 = 2614.9e12;
    device.hardware.linkBandwidthBytesPerSecond = 448e9;
    return device;
}

int userEntry(const QComboBox* combo, const QString& name)
{
    return combo->findText(name + QStringLiteral(" (yours)"));
}

} // namespace

class TestRealModels final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void importMixtralThroughWindow();
    void malformedConfigKeepsModel_data();
    void malformedConfigKeepsModel();
    void dropScenarioAndConfig();
    void moeFloorRisesWithBatch();
    void moeControlsHoldSharedWeights();
    void kvPerGpuWithTensorParallel();
    void everyLayerSlidingHasNoCrossover();
    void realModelsDrawOnlyFiniteData_data();
    void realModelsDrawOnlyFiniteData();
    void userDeviceAddedSelectedAndReloaded();
    void deviceDialogRefusesBadValues();
    void corruptUserCatalogueIsIgnored();
    void userModelSavedAndListed();
    void userCatalogueFullDiskKeepsFile();
    void renderExpandedControlsPng();
};

void TestRealModels::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(!configPath("mixtral-8x7b.json").isEmpty());
}

void TestRealModels::init()
{
    clearUserCatalogue();
}

void TestRealModels::importMixtralThroughWindow()
{
    // As a HuggingFace download: <model folder>/config.json names the model after the folder.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("Mixtral-8x7B-v0.1")));
    const QString path = dir.filePath(QStringLiteral("Mixtral-8x7B-v0.1/config.json"));
    QVERIFY(QFile::copy(configPath("mixtral-8x7b.json"), path));

    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    QString message;
    QVERIFY2(window.importModelConfig(path, &message), qPrintable(message));
    settle(document);

    const model::Scenario& s = document->scenario();
    QCOMPARE(s.model.params, kMixtralParams);
    QCOMPARE(s.model.name, std::string("Mixtral-8x7B-v0.1"));
    QVERIFY(s.model.isMoe());
    QVERIFY(document->errorText().isEmpty());
    QCOMPARE(document->evaluatedScenario().model.params, kMixtralParams);

    // The message lists the counts and the notes; the notice bar shows it.
    QVERIFY2(message.contains(QStringLiteral("46,702,792,704")), qPrintable(message));
    QVERIFY2(message.contains(format::integer(s.model.activeParamsOrTotal())), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("MoE")), qPrintable(message));
    QVERIFY(window.noticeLabel()->isVisible());
    QCOMPARE(window.noticeLabel()->text(), message);

    // The numbers panel shows total and active parameters, as evaluated.
    const model::Evaluation expected = model::evaluate(s);
    const QString params = window.numbersPanel()->valueLabel(QStringLiteral("params"))->text();
    QVERIFY2(params.contains(format::billionParams(kMixtralParams)), qPrintable(params));
    QVERIFY2(params.contains(format::billionParams(s.model.activeParamsOrTotal())), qPrintable(params));
    const QString resident = window.numbersPanel()->valueLabel(QStringLiteral("residentWeights"))->text();
    QVERIFY2(resident.contains(format::gigabytes(expected.decode.residentWeightBytes)), qPrintable(resident));
    QVERIFY(window.numbersPanel()->rowVisible(QStringLiteral("experts")));
}

void TestRealModels::malformedConfigKeepsModel_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("field");
    QTest::newRow("negative layers") << QByteArray(R"({"model_type":"llama","hidden_size":64,"num_hidden_layers":-2,)"
                                                   R"("num_attention_heads":2,"intermediate_size":8,"vocab_size":10})")
                                     << QStringLiteral("num_hidden_layers");
    QTest::newRow("missing hidden size") << QByteArray(R"({"num_hidden_layers":2,"num_attention_heads":2,"vocab_size":10})")
                                         << QStringLiteral("hidden_size");
    QTest::newRow("not JSON") << QByteArray("{ \"hidden_size\": 4096,") << QStringLiteral("JSON");
}

void TestRealModels::malformedConfigKeepsModel()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, field);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(json);
    file.close();

    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    const model::ModelShape before = document->scenario().model;
    QSignalSpy changed(document, &ScenarioDocument::scenarioChanged);
    QString message;
    QVERIFY(!window.importModelConfig(path, &message));
    QCOMPARE(changed.count(), 0);
    QCOMPARE(document->scenario().model.params, before.params);
    QCOMPARE(document->scenario().model.name, before.name);
    QVERIFY2(message.contains(QStringLiteral("broken.json")), qPrintable(message));
    QVERIFY2(message.contains(field, Qt::CaseInsensitive), qPrintable(message));
    QVERIFY2(message.contains(QString::fromStdString(before.name)), qPrintable(message));
    QVERIFY(window.noticeLabel()->isVisible());
    QVERIFY(window.errorBanner()->isHidden());
}

void TestRealModels::dropScenarioAndConfig()
{
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();

    // A scenario file given to the config import is refused; dropped, it opens over the scenario.
    const QString scenarioFile = QFINDTESTDATA("../resources/scenarios/incident-drill-13b-a100.json");
    QVERIFY(!scenarioFile.isEmpty());
    QString message;
    QVERIFY(!window.importModelConfig(scenarioFile, &message));
    QVERIFY2(message.contains(QStringLiteral("scenario file")), qPrintable(message));

    auto drop = [&window](const QString& path) {
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(400, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent event(QPointF(400, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &event);
        QVERIFY(event.isAccepted());
    };
    drop(scenarioFile);
    settle(document);
    model::Scenario drill = model::defaultScenario();
    QFile file(scenarioFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(model::applyJsonText(drill, file.readAll()).empty());
    QCOMPARE(document->scenario().model.params, drill.model.params);
    QCOMPARE(document->scenario().hardware.bandwidthBytesPerSecond, drill.hardware.bandwidthBytesPerSecond);

    // A dropped config.json replaces the model only.
    drop(configPath("qwen2.5-3b.json"));
    settle(document);
    QCOMPARE(document->scenario().model.name, std::string("qwen2.5-3b"));
    QCOMPARE(document->scenario().hardware.bandwidthBytesPerSecond, drill.hardware.bandwidthBytesPerSecond);
}

void TestRealModels::moeFloorRisesWithBatch()
{
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    QVERIFY(window.importModelConfig(configPath("mixtral-8x7b.json")));
    settle(document);

    const model::Evaluation expected = model::evaluate(document->scenario());
    QCPGraph* floor = window.decodePanel()->weightFloorGraph();
    const QSharedPointer<QCPGraphDataContainer> data = floor->data();
    QCOMPARE(data->size(), model::Sweeps::kBatchPoints);
    const double first = data->constBegin()->value;
    const double last = (data->constEnd() - 1)->value;
    QCOMPARE(data->constBegin()->key, 1.0);
    // First point: the active-weight floor; last: close to every expert read.
    QVERIFY(std::abs(first / (expected.decode.floorSecondsBatch1 * 1e3) - 1.0) < 1e-9);
    // Every expert is read at the last point, but (embedding_read = rows, the default) only B rows of the
    // untied input table: the curve ends below W / BW by at most that table's share of W.
    const model::ModelShape& mixtral = document->scenario().model;
    const double tableShare = double(mixtral.vocab) * mixtral.hidden * model::weightBytesPerParameter(mixtral.weightDtype)
        / expected.decode.residentWeightBytes;
    QVERIFY(tableShare > 1e-3); // large enough that the two conventions differ here
    const double lastOverTotal = last / (expected.decode.totalWeightFloorSeconds * 1e3);
    QVERIFY2(lastOverTotal <= 1.0 + 1e-9 && lastOverTotal >= 1.0 - tableShare - 1e-3, qPrintable(QString::number(lastOverTotal)));
    QVERIFY(last > 2.0 * first);
    double previous = 0;
    for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
        QVERIFY(it->value >= previous * (1.0 - 1e-12));
        previous = it->value;
    }
    // Both floors are labelled with their values.
    QVERIFY(window.decodePanel()->activeFloorLabel()->visible());
    QVERIFY(window.decodePanel()->totalFloorLabel()->visible());
    QVERIFY(window.decodePanel()->activeFloorLabel()->text().contains(
        format::milliseconds(expected.decode.floorSecondsBatch1 * 1e3)));
    QVERIFY(window.decodePanel()->totalFloorLabel()->text().contains(
        format::milliseconds(expected.decode.totalWeightFloorSeconds * 1e3)));

    // A dense model: flat floor, no MoE labels.
    QComboBox* models = window.controlsPanel()->modelPresetCombo();
    const int llama = models->findText(QStringLiteral("Llama 3.1 8B"), Qt::MatchStartsWith);
    QVERIFY(llama >= 0);
    models->setCurrentIndex(llama);
    emit models->activated(llama);
    settle(document);
    QVERIFY(!document->scenario().model.isMoe());
    const QSharedPointer<QCPGraphDataContainer> dense = window.decodePanel()->weightFloorGraph()->data();
    // Nearly flat: with embedding_read = rows each sequence adds one input-table row (d * b_w bytes).
    const double rise = (dense->constEnd() - 1)->value / dense->constBegin()->value - 1.0;
    QVERIFY2(rise >= 0 && rise < 0.01, qPrintable(QString::number(rise)));
    QVERIFY(!window.decodePanel()->totalFloorLabel()->visible());
    QVERIFY(!window.numbersPanel()->rowVisible(QStringLiteral("experts")));
}

void TestRealModels::moeControlsHoldSharedWeights()
{
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    QVERIFY(window.importModelConfig(configPath("mixtral-8x7b.json")));
    settle(document);
    const model::ModelShape before = document->scenario().model;

    window.controlsPanel()->moeToggle()->click();
    auto* perToken = window.findChild<QSpinBox*>(QStringLiteral("expertsPerTokenSpinBox"));
    auto* experts = window.findChild<QSpinBox*>(QStringLiteral("expertsSpinBox"));
    QVERIFY(perToken && experts);
    QVERIFY(perToken->isVisible());
    QCOMPARE(perToken->value(), 2);
    QCOMPARE(experts->value(), 8);

    // k 2 -> 4: N stays, N_active grows by two experts.
    typeInto(perToken, QStringLiteral("4"));
    settle(document);
    const model::ModelShape& k4 = document->scenario().model;
    QCOMPARE(k4.params, before.params);
    QVERIFY(std::abs(k4.activeParamsOrTotal() - (before.activeParamsOrTotal() + 2 * before.expertParams)) < 1.0);
    QVERIFY(document->errorText().isEmpty());
    const model::Evaluation expected = model::evaluate(document->scenario());
    QVERIFY(window.numbersPanel()->valueLabel(QStringLiteral("params"))->text().contains(
        format::billionParams(k4.activeParamsOrTotal())));
    QVERIFY(window.numbersPanel()->valueLabel(QStringLiteral("floor"))->text().contains(
        format::milliseconds(expected.decode.floorSecondsBatch1 * 1e3)));

    // E 8 -> 16: N grows by eight experts, the shared part stays.
    typeInto(experts, QStringLiteral("16"));
    settle(document);
    const model::ModelShape& e16 = document->scenario().model;
    QVERIFY(std::abs(e16.params - (before.params + 8 * before.expertParams)) < 1.0);
    QVERIFY(std::abs(e16.activeParamsOrTotal() - k4.activeParamsOrTotal()) < 1.0);
    QCOMPARE(window.controlsPanel()->modelPresetCombo()->currentIndex(),
             window.controlsPanel()->modelPresetCombo()->count() - 1);
}

void TestRealModels::kvPerGpuWithTensorParallel()
{
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    QVERIFY(window.importModelConfig(configPath("qwen2.5-3b.json")));
    settle(document);
    QVERIFY(!window.numbersPanel()->rowVisible(QStringLiteral("kvPerTokenPerGpu")));
    QVERIFY(!window.numbersPanel()->rowVisible(QStringLiteral("comm")));

    auto* gpus = window.findChild<QSpinBox*>(QStringLiteral("gpusSpinBox"));
    QVERIFY(gpus);
    typeInto(gpus, QStringLiteral("8"));
    settle(document);
    QCOMPARE(document->scenario().hardware.gpus, 8);

    // Qwen2.5-3B has 2 KV heads: at T = 8 each GPU still holds one, half of the whole cache.
    const model::Evaluation expected = model::evaluate(document->scenario());
    QCOMPARE(expected.decode.kvBytesPerTokenPerGpu, 18432.0);
    QCOMPARE(expected.decode.kvBytesPerTokenPerGpu, expected.decode.kvBytesPerToken / 2);
    QVERIFY(window.numbersPanel()->rowVisible(QStringLiteral("kvPerTokenPerGpu")));
    const QString kv = window.numbersPanel()->valueLabel(QStringLiteral("kvPerTokenPerGpu"))->text();
    QVERIFY2(kv.contains(format::kibibytesPerToken(expected.decode.kvBytesPerTokenPerGpu)), qPrintable(kv));
    QVERIFY2(kv.contains(QStringLiteral("18.0 KiB")), qPrintable(kv));
    QVERIFY2(kv.contains(QStringLiteral("replicated")), qPrintable(kv));

    // All-reduce time and per-GPU wording.
    QVERIFY(window.numbersPanel()->rowVisible(QStringLiteral("comm")));
    QVERIFY(window.numbersPanel()->valueLabel(QStringLiteral("comm"))->text().contains(
        format::milliseconds(expected.decode.commSeconds * 1e3)));
    QVERIFY(window.numbersPanel()->valueLabel(QStringLiteral("weights"))->text().contains(QStringLiteral("per GPU")));
    QVERIFY(window.decodePanel()->takeaway().contains(QStringLiteral("T = 8")));
    QVERIFY(window.decodePanel()->takeaway().contains(format::milliseconds(expected.decode.stepSeconds * 1e3)));
    QVERIFY(window.rooflinePanel()->plot()->yAxis->label().contains(QStringLiteral("per GPU")));
}

void TestRealModels::everyLayerSlidingHasNoCrossover()
{
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    QVERIFY(window.importModelConfig(configPath("gemma-2-9b.json")));
    settle(document);
    QVERIFY(window.prefillPanel()->takeaway().startsWith(QStringLiteral("P* = ")));

    window.controlsPanel()->moeToggle()->click();
    auto* sliding = window.findChild<QSpinBox*>(QStringLiteral("slidingLayersSpinBox"));
    QVERIFY(sliding && sliding->isEnabled());
    typeInto(sliding, QString::number(document->scenario().model.layers));
    settle(document);
    QVERIFY(document->errorText().isEmpty());
    const model::Evaluation expected = model::evaluate(document->scenario());
    QVERIFY(!expected.prefill.crossoverExists);
    QVERIFY2(window.prefillPanel()->takeaway().contains(
                 QStringLiteral("attention never overtakes the linear term (every layer slides)")),
             qPrintable(window.prefillPanel()->takeaway()));
    QString where;
    QVERIFY2(plotsFinite(window, &where), qPrintable(where));
}

void TestRealModels::realModelsDrawOnlyFiniteData_data()
{
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::newRow("mixtral B = 32") << QStringLiteral("mixtral-8x7b.json") << QStringLiteral("workload.batch") << QStringLiteral("32");
    QTest::newRow("deepseek-v3 T = 8") << QStringLiteral("deepseek-v3.json") << QStringLiteral("hardware.gpus") << QStringLiteral("8");
    QTest::newRow("gemma-2-9b S = 32768") << QStringLiteral("gemma-2-9b.json") << QStringLiteral("workload.context_tokens")
                                          << QStringLiteral("32768");
}

void TestRealModels::realModelsDrawOnlyFiniteData()
{
    QFETCH(QString, config);
    QFETCH(QString, key);
    QFETCH(QString, value);
    MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    ScenarioDocument* document = window.document();
    QVERIFY(window.importModelConfig(configPath(config.toLatin1().constData())));
    document->edit([&](model::Scenario& s) { QVERIFY(model::setKey(s, key.toStdString(), value.toStdString()).empty()); });
    window.flushForScreenshot();
    QVERIFY2(document->errorText().isEmpty(), qPrintable(document->errorText()));
    QString where;
    QVERIFY2(plotsFinite(window, &where), qPrintable(where));
    for (const QString& text : {window.decodePanel()->takeaway(), window.prefillPanel()->takeaway()}) {
        QVERIFY2(!text.contains(QStringLiteral("nan"), Qt::CaseInsensitive) && !text.contains(QStringLiteral("inf")),
                 qPrintable(text));
    }
}

void TestRealModels::userDeviceAddedSelectedAndReloaded()
{
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    document->edit([](model::Scenario& s) { s.hardware.gpus = 2; });
    settle(document);
    QComboBox* combo = window.controlsPanel()->hardwarePresetCombo();
    const model::HardwarePreset device = testDevice();
    const QString name = QString::fromStdString(device.hardware.name);
    QCOMPARE(userEntry(combo, name), -1);

    QString message;
    QVERIFY2(window.addUserDevice(device, &message), qPrintable(message));
    QVERIFY(QFile::exists(UserCatalogue::hardwarePath()));
    const int index = userEntry(combo, name);
    QVERIFY(index >= int(model::hardwarePresets().size())); // after the built-in ones
    QCOMPARE(index, combo->count() - 2);                     // before "Custom (edited)"

    // Choosing it takes the device's figures and keeps T.
    combo->setCurrentIndex(index);
    emit combo->activated(index);
    settle(document);
    const model::Hardware& h = document->scenario().hardware;
    QCOMPARE(h.bandwidthBytesPerSecond, device.hardware.bandwidthBytesPerSecond);
    QCOMPARE(h.peakFlopsPerSecond, device.hardware.peakFlopsPerSecond);
    QCOMPARE(h.memoryBytes, device.hardware.memoryBytes);
    QCOMPARE(h.linkBandwidthBytesPerSecond, device.hardware.linkBandwidthBytesPerSecond);
    QCOMPARE(h.gpus, 2);
    QCOMPARE(window.controlsPanel()->selectedUserDevice(), 0);
    QCOMPARE(combo->currentIndex(), index);
    const model::Evaluation expected = model::evaluate(document->scenario());
    QVERIFY(window.numbersPanel()->valueLabel(QStringLiteral("ridge"))->text().contains(
        format::flopPerByte(expected.roofline.ridgeFlopPerByte)));

    // A bad value is refused with the field named; nothing is written.
    model::HardwarePreset bad = testDevice();
    bad.hardware.name = "Broken";
    bad.hardware.memoryBytes = 0;
    QVERIFY(!window.addUserDevice(bad, &message));
    QVERIFY2(message.contains(QStringLiteral("Memory")), qPrintable(message));
    QCOMPARE(userEntry(combo, QStringLiteral("Broken")), -1);

    // A new window reads the file back.
    MainWindow second(model::defaultScenario());
    QVERIFY(userEntry(second.controlsPanel()->hardwarePresetCombo(), name) >= 0);
    QCOMPARE(second.userCatalogue()->devices().size(), size_t(1));
    QVERIFY(second.noticeLabel()->text().isEmpty());
}

void TestRealModels::deviceDialogRefusesBadValues()
{
    ridgeline::views::DeviceDialog dialog;
    dialog.setDevice(model::hardwarePresets().front());
    dialog.show();
    auto* memory = dialog.findChild<QDoubleSpinBox*>(QStringLiteral("deviceMemorySpinBox"));
    auto* error = dialog.findChild<QLabel*>(QStringLiteral("deviceError"));
    auto* buttons = dialog.findChild<QDialogButtonBox*>(QStringLiteral("deviceButtons"));
    QVERIFY(memory && error && buttons);
    typeInto(memory, QStringLiteral("0"));
    QTest::mouseClick(buttons->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(dialog.isVisible());
    QVERIFY(error->isVisible());
    QVERIFY2(error->text().startsWith(QStringLiteral("Memory")), qPrintable(error->text()));

    typeInto(memory, QStringLiteral("141"));
    QTest::mouseClick(buttons->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.device().hardware.memoryBytes, 141e9);
}

void TestRealModels::corruptUserCatalogueIsIgnored()
{
    QVERIFY(QDir().mkpath(UserCatalogue::directory()));
    auto write = [](const QByteArray& bytes) {
        QFile file(UserCatalogue::hardwarePath());
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(bytes);
    };

    // Not JSON at all.
    write("{ \"devices\": [ {");
    {
        MainWindow window(model::defaultScenario());
        window.show();
        QVERIFY(window.noticeLabel()->isVisible());
        QVERIFY2(window.noticeLabel()->text().contains(QStringLiteral("hardware.json")), qPrintable(window.noticeLabel()->text()));
        QVERIFY(window.userCatalogue()->devices().empty());
        QCOMPARE(window.controlsPanel()->hardwarePresetCombo()->count(), int(model::hardwarePresets().size()) + 1);
        QVERIFY(window.document()->errorText().isEmpty());
    }

    // Valid JSON, one bad figure: named, the whole file ignored, kept aside before it is replaced.
    write(R"({"format_version": 1, "devices": [
        {"id": "good", "hardware": {"name": "Good", "bandwidth": 1e12, "peak_flops": 1e14, "memory_bytes": 1e10,
                                    "link_bandwidth": 1e11}},
        {"id": "bad", "hardware": {"name": "Bad", "bandwidth": -5, "peak_flops": 1e14, "memory_bytes": 1e10,
                                   "link_bandwidth": 1e11}}]})");
    MainWindow window(model::defaultScenario());
    const QString text = window.noticeLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("device 2")) && text.contains(QStringLiteral("bandwidth"), Qt::CaseInsensitive),
             qPrintable(text));
    QVERIFY(window.userCatalogue()->devices().empty());
    QVERIFY(window.addUserDevice(testDevice()));
    QVERIFY(QFile::exists(UserCatalogue::hardwarePath() + QStringLiteral(".malformed")));
    QCOMPARE(window.userCatalogue()->reload().size(), 0);
    QCOMPARE(window.userCatalogue()->devices().size(), size_t(1));
}

void TestRealModels::userModelSavedAndListed()
{
    MainWindow window(model::defaultScenario());
    window.show();
    ScenarioDocument* document = window.document();
    QVERIFY(window.importModelConfig(configPath("qwen2.5-3b.json")));
    settle(document);
    model::ModelPreset preset;
    preset.shape = document->scenario().model;
    preset.shape.name = "Our Qwen";
    QVERIFY(window.userCatalogue()->saveModel(preset).isEmpty());
    QComboBox* combo = window.controlsPanel()->modelPresetCombo();
    const int index = userEntry(combo, QStringLiteral("Our Qwen"));
    QVERIFY(index >= int(model::modelPresets().size()));

    // Switch away and back through the combo: the shape comes back.
    combo->setCurrentIndex(0);
    emit combo->activated(0);
    settle(document);
    combo->setCurrentIndex(index);
    emit combo->activated(index);
    settle(document);
    QCOMPARE(document->scenario().model.params, preset.shape.params);
    QCOMPARE(document->scenario().model.kvHeads, preset.shape.kvHeads);
    QCOMPARE(window.controlsPanel()->selectedUserModel(), 0);

    // Persisted: a fresh catalogue reads it.
    UserCatalogue fresh;
    QCOMPARE(fresh.models().size(), size_t(1));
    QCOMPARE(fresh.models().front().shape.params, preset.shape.params);
}

void TestRealModels::userCatalogueFullDiskKeepsFile()
{
    UserCatalogue catalogue;
    model::ModelPreset first;
    first.shape = model::defaultScenario().model;
    first.shape.name = "First";
    QCOMPARE(catalogue.saveModel(first), QString());
    QFile file(UserCatalogue::modelsPath());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray before = file.readAll();
    file.close();

    model::ModelPreset second = first;
    second.shape.name = "Second";
    QString error;
    {
        SimulatedFullDisk full(before.size() + 16); // the second entry does not fit
        QVERIFY(full.active());
        error = catalogue.saveModel(second);
    }
    QVERIFY2(error.startsWith(QStringLiteral("Cannot write")), qPrintable(error));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), before);
    QCOMPARE(catalogue.models().size(), size_t(1)); // nothing changed in memory either
    QCOMPARE(UserCatalogue().models().size(), size_t(1));
}

void TestRealModels::renderExpandedControlsPng()
{
    // For a person to look at: Mixtral at T = 2 with the MoE group open, at the smallest size.
    MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    QVERIFY(window.importModelConfig(configPath("mixtral-8x7b.json")));
    window.document()->edit([](model::Scenario& s) { s.hardware.gpus = 2; });
    window.controlsPanel()->moeToggle()->click();
    window.flushForScreenshot();
    QCOMPARE(window.size(), QSize(1280, 800));
    auto* scroll = window.findChild<QScrollArea*>(QStringLiteral("controlsScroll"));
    QVERIFY(scroll);
    scroll->ensureWidgetVisible(window.findChild<QWidget*>(QStringLiteral("moeGroup")));
    QVERIFY(window.grab().toImage().save(QStringLiteral("/tmp/ridgeline-realmodels-1280.png"), "PNG"));

    // The device dialog as Hardware > Edit device opens it, refusing a zero link bandwidth.
    ridgeline::views::DeviceDialog dialog(&window);
    dialog.setDevice(model::hardwarePresets().front());
    dialog.show();
    typeInto(dialog.findChild<QDoubleSpinBox*>(QStringLiteral("deviceLinkSpinBox")), QStringLiteral("0"));
    dialog.accept();
    QVERIFY(dialog.isVisible());
    QVERIFY(dialog.grab().toImage().save(QStringLiteral("/tmp/ridgeline-device-dialog.png"), "PNG"));
}

QTEST_MAIN(TestRealModels)
#include "tst_realmodels.moc"
