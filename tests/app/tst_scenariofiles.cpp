// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files and undo in the window: every key survives a save and an open; malformed, truncated,
// wrong-type and future-version files are refused or migrated with a message while the open scenario
// stays; a failed save says so and leaves the previous file intact; a slider drag is one undo step.

#include <sys/stat.h>
#include <unistd.h>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "tests/fulldisk.h"
#include "app/mainwindow.h"
#include "app/scenariofiles.h"
#include "model/cost/scenariokeys.h"
#include "model/cost/scenariomigration.h"
#include "views/calibration/calibrationtab.h"
#include "views/controls/controlspanel.h"
#include "document/scenariodocument.h"
#include "document/scenariohistory.h"
#include "views/triage/triagepanel.h"
#include "document/usercatalogue.h"
#include "views/kit/valueslider.h"
#include "views/whatifs/whatifstabs.h"
#include "views/whatifs/baseline.h"
#include "model/cost/costmodel.h"

using ridgeline::app::MainWindow;
using ridgeline::app::ScenarioFiles;
namespace model = ridgeline::model;

namespace {

/** Every key's value as text, for whole-scenario comparisons. */
QStringList keyValues(const model::Scenario& s)
{
    QStringList out;
    for (const model::KeyInfo& k : model::scenarioKeys())
        out << QString::fromUtf8(k.key.data(), qsizetype(k.key.size())) + QLatin1Char('=')
                   + QString::fromStdString(model::getKey(s, k.key));
    return out;
}

/** The default scenario with every key moved off its default to a distinct valid value. */
model::Scenario everyKeyChanged()
{
    model::Scenario s = model::defaultScenario();
    int i = 0;
    for (const model::KeyInfo& k : model::scenarioKeys()) {
        ++i;
        const std::string before = model::getKey(s, k.key);
        std::string value;
        switch (k.kind) {
        case model::KeyKind::Number: {
            const double v = before.empty() ? 1e9 : std::stod(before);
            value = model::formatNumber(v == 0 ? 0.25 * i : v * (v <= 1 ? 0.5 : 1.5) + 0.125);
            break;
        }
        case model::KeyKind::Integer: {
            const int v = before.empty() ? 64 : std::stoi(before);
            value = std::to_string(v + 2 + i % 3);
            break;
        }
        case model::KeyKind::DType:
            value = before == "fp8" ? "int4" : "fp8";
            break;
        case model::KeyKind::NumberList:
            value = "15,35.5,120";
            break;
        case model::KeyKind::Text:
            value = "changed " + std::to_string(i);
            break;
        case model::KeyKind::Choice: {
            // The first spelling of any choice key that this key accepts and that differs from its value.
            model::Scenario probe = s;
            for (const char* candidate : {"causal", "full", "true", "false", "rows", "table", "lognormal", "v0-prompt-first"})
                if (candidate != before && model::setKey(probe, k.key, candidate).empty()) {
                    value = candidate;
                    break;
                }
            break;
        }
        }
        const std::string error = model::setKey(s, k.key, value);
        if (!error.empty())
            qWarning("%s", error.c_str());
    }
    return s;
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/** A new interactive window's session after a save of batch 40 at @p path and edits discarded at close: the saved scenario
 *  (batch 40, the default context), not marked unsaved, on @p path. Failures are the test's (QTest::currentTestFailed()). */
void nextStartHasTheSavedScenario(const QString& path)
{
    MainWindow window(model::defaultScenario());
    window.startInteractiveSession(QString(), true);
    QCOMPARE(window.document()->scenario().workload.batch, 40);
    QCOMPARE(window.document()->scenario().workload.contextTokens, model::defaultScenario().workload.contextTokens);
    QVERIFY(!window.isWindowModified());
    QCOMPARE(window.files()->currentPath(), QFileInfo(path).absoluteFilePath());
}

} // namespace

class TestScenarioFiles final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void roundTripOfEveryKey();
    void badFilesAreRefused_data();
    void badFilesAreRefused();
    void futureVersionLoadsKnownKeys();
    void olderFileIsMigrated();
    void failedSaveKeepsThePreviousFile();
    void fullDiskSaveKeepsThePreviousFile();
    void saveAsksWhenTheFileChangedOnDisk();
    void titleAndUnsavedMark();
    void closeAsksWhenUnsaved();
    void sliderDragIsOneUndoStep();
    void typedCommitsAreOneStepEach();
    void sessionOnlyWhenEnabled();
    void discardGoesBackPastTheUndoLimit();
    void sessionKeepsPinnedScenarios();
    void devicesAndPipesAreRefused();

private:
    QTemporaryDir m_dir;
};

void TestScenarioFiles::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // never the user's settings or catalogue
    QVERIFY(m_dir.isValid());
}

void TestScenarioFiles::roundTripOfEveryKey()
{
    const model::Scenario changed = everyKeyChanged();
    // Every key differs from the default, so a key lost on the way would show.
    const QStringList defaults = keyValues(model::defaultScenario());
    const QStringList wanted = keyValues(changed);
    for (qsizetype i = 0; i < wanted.size(); ++i)
        QVERIFY2(wanted[i] != defaults[i], qPrintable(wanted[i]));

    MainWindow window(model::defaultScenario());
    window.document()->setScenario(changed);
    const QString path = m_dir.filePath(QStringLiteral("every-key.json"));
    QString message;
    QVERIFY2(window.files()->saveAs(path, &message), qPrintable(message));
    QVERIFY(!window.isWindowModified());

    MainWindow other(model::defaultScenario());
    QVERIFY2(other.files()->open(path, &message), qPrintable(message));
    QCOMPARE(keyValues(other.document()->scenario()), wanted);
    QCOMPARE(other.files()->currentPath(), QFileInfo(path).absoluteFilePath());
    QVERIFY(!other.isWindowModified());
    QVERIFY(other.files()->recentFiles().contains(QFileInfo(path).absoluteFilePath()));
    // The file carries the format version.
    QCOMPARE(QJsonDocument::fromJson(readFile(path)).object().value(QStringLiteral("format_version")).toInt(),
             model::kScenarioFormatVersion);
}

void TestScenarioFiles::badFilesAreRefused_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("mentions");
    const QByteArray good = QJsonDocument(model::toJson(model::defaultScenario())).toJson();
    QTest::newRow("malformed") << QByteArray("{ \"model\": { params: 8e9 } }") << QStringLiteral("not valid JSON");
    QTest::newRow("truncated") << good.left(good.size() / 2) << QStringLiteral("not valid JSON at byte");
    QTest::newRow("empty") << QByteArray() << QStringLiteral("empty");
    QTest::newRow("wrong type") << QByteArray(R"({"format_version": 1, "workload": {"batch": "ten"}})")
                                << QStringLiteral("workload.batch: expected a number");
    QTest::newRow("bad value") << QByteArray(R"({"format_version": 1, "model": {"kv_dtype": "fp5"}})")
                               << QStringLiteral("model.kv_dtype");
    QTest::newRow("unknown key, this version") << QByteArray(R"({"format_version": 1, "workload": {"bach": 8}})")
                                               << QStringLiteral("workload.bach");
    QTest::newRow("group not an object") << QByteArray(R"({"format_version": 1, "hardware": 5})") << QStringLiteral("hardware");
    QTest::newRow("version not a number") << QByteArray(R"({"format_version": "one"})") << QStringLiteral("format_version");
    QTest::newRow("not an object") << QByteArray("[1, 2]") << QStringLiteral("JSON object");
    QTest::newRow("future version, wrong type") << QByteArray(R"({"format_version": 7, "workload": {"batch": [8]}})")
                                                << QStringLiteral("workload.batch");
}

void TestScenarioFiles::badFilesAreRefused()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, mentions);
    const QString path = m_dir.filePath(QStringLiteral("bad.json"));
    QVERIFY(writeFile(path, bytes));

    MainWindow window(model::defaultScenario());
    window.document()->edit([](model::Scenario& s) { s.workload.batch = 42; });
    const QStringList before = keyValues(window.document()->scenario());
    const int steps = window.history()->stack()->count();
    QString message;
    QVERIFY(!window.files()->open(path, &message));
    QVERIFY2(message.contains(mentions), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("bad.json")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("Nothing was changed")), qPrintable(message));
    QCOMPARE(keyValues(window.document()->scenario()), before);
    QCOMPARE(window.history()->stack()->count(), steps);
    QVERIFY(window.files()->currentPath().isEmpty());
    QCOMPARE(window.noticeLabel()->text(), message);
}

void TestScenarioFiles::futureVersionLoadsKnownKeys()
{
    const QString path = m_dir.filePath(QStringLiteral("future.json"));
    QVERIFY(writeFile(path, R"({"format_version": 3,
        "workload": {"batch": 64, "arrival_rate": 12},
        "hardware": {"name": "H200", "bandwidth": 4.8e12},
        "cluster": {"nodes": 4},
        "title": "next year"})"));
    MainWindow window(model::defaultScenario());
    QString message;
    QVERIFY2(window.files()->open(path, &message), qPrintable(message));
    QCOMPARE(window.document()->scenario().workload.batch, 64);
    QCOMPARE(window.document()->scenario().hardware.bandwidthBytesPerSecond, 4.8e12);
    QVERIFY2(message.contains(QStringLiteral("newer")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("format 3")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("workload.arrival_rate")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("cluster")), qPrintable(message));
    QVERIFY(window.noticeLabel()->text().contains(QStringLiteral("Ignored")));

    // The model helper on its own: the ignored keys are listed, the known ones applied.
    model::Scenario s = model::defaultScenario();
    std::vector<std::string> ignored;
    const QJsonObject o = QJsonDocument::fromJson(readFile(path)).object();
    QCOMPARE(model::applyJsonLenient(s, o, ignored), std::string());
    QCOMPARE(ignored.size(), size_t(2));
    // The strict reader still refuses it, as the command line does.
    model::Scenario strict = model::defaultScenario();
    QVERIFY(!model::applyJson(strict, o).empty());
}

void TestScenarioFiles::olderFileIsMigrated()
{
    const QString path = m_dir.filePath(QStringLiteral("unversioned.json"));
    QVERIFY(writeFile(path, R"({"model": {"name": "old 13B", "params": 13e9}, "workload": {"batch": 4}})"));
    MainWindow window(model::defaultScenario());
    QString message;
    QVERIFY2(window.files()->open(path, &message), qPrintable(message));
    QCOMPARE(window.document()->scenario().model.params, 13e9);
    QCOMPARE(window.document()->scenario().workload.batch, 4);
    // Keys the file lacks take their defaults (the file is opened over the default scenario).
    QCOMPARE(window.document()->scenario().workload.contextTokens, model::defaultScenario().workload.contextTokens);
    QVERIFY2(message.contains(QStringLiteral("no format_version")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("defaults")), qPrintable(message));
}

void TestScenarioFiles::failedSaveKeepsThePreviousFile()
{
    // A folder the save cannot write into. As root permissions do not stop a write, so there the
    // name is one a temporary file beside it cannot have (longer than NAME_MAX with QSaveFile's suffix).
    QString path;
    QString folder;
    if (geteuid() != 0) {
        folder = m_dir.filePath(QStringLiteral("read-only"));
        QVERIFY(QDir().mkpath(folder));
        path = QDir(folder).filePath(QStringLiteral("q3.json"));
    } else {
        folder = m_dir.path();
        path = QDir(folder).filePath(QString(250, QLatin1Char('q')) + QStringLiteral(".json"));
    }
    const QByteArray previous = QJsonDocument(model::toJson(model::defaultScenario())).toJson();
    QVERIFY(writeFile(path, previous));
    if (geteuid() != 0)
        QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner));

    MainWindow window(model::defaultScenario());
    window.document()->edit([](model::Scenario& s) { s.workload.batch = 99; });
    QVERIFY(window.isWindowModified());
    QString message;
    const bool saved = window.files()->saveAs(path, &message);
    if (geteuid() != 0)
        QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QVERIFY2(!saved, qPrintable(message));
    QVERIFY2(message.startsWith(QStringLiteral("Could not save ")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("intact")), qPrintable(message));
    QCOMPARE(readFile(path), previous);
    QVERIFY(window.isWindowModified()); // still unsaved
    QVERIFY(window.files()->currentPath().isEmpty());
    QVERIFY(window.noticeLabel()->text().startsWith(QStringLiteral("Could not save")));
    // No temporary file is left behind.
    QCOMPARE(QDir(folder).entryList(QDir::Files).filter(QStringLiteral(".json.")).size(), 0);
}

void TestScenarioFiles::fullDiskSaveKeepsThePreviousFile()
{
    // File > Save on a full disk: the scenario (a few KiB) stays in QSaveFile's buffer until the
    // final flush, which fails; the previous file must stay as it was and the window must not say
    // "Saved".
    const QString path = m_dir.filePath(QStringLiteral("full-disk.json"));
    MainWindow window(model::defaultScenario());
    QString message;
    QVERIFY2(window.files()->saveAs(path, &message), qPrintable(message));
    const QByteArray previous = readFile(path);
    QVERIFY(previous.size() > 1000);

    window.document()->edit([](model::Scenario& s) { s.workload.batch = 77; });
    QVERIFY(window.isWindowModified());
    bool saved = true;
    {
        SimulatedFullDisk full(512);
        QVERIFY(full.active());
        saved = window.files()->saveAs(path, &message);
    }
    QVERIFY2(!saved, qPrintable(message));
    QVERIFY2(message.startsWith(QStringLiteral("Could not save ")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("File too large")) || message.contains(QStringLiteral("space")),
             qPrintable(message));
    QCOMPARE(readFile(path), previous);
    QCOMPARE(QDir(m_dir.path()).entryList({QStringLiteral("full-disk.json*")}, QDir::Files | QDir::Hidden).size(), 1);
    QVERIFY(window.isWindowModified()); // still unsaved: nothing was lost
    QCOMPARE(window.document()->scenario().workload.batch, 77);
    QVERIFY(!window.statusBar()->currentMessage().startsWith(QStringLiteral("Saved")));

    // Space again: the same Save now works.
    QVERIFY2(window.files()->saveAs(path, &message), qPrintable(message));
    QVERIFY(!window.isWindowModified());
    model::Scenario reread;
    QCOMPARE(ridgeline::app::readScenarioFile(path, reread), QString());
    QCOMPARE(reread.workload.batch, 77);
}

void TestScenarioFiles::saveAsksWhenTheFileChangedOnDisk()
{
    const QString path = m_dir.filePath(QStringLiteral("shared.json"));
    MainWindow window(model::defaultScenario());
    QString message;
    QVERIFY2(window.files()->saveAs(path, &message), qPrintable(message));
    QVERIFY(!window.files()->changedOnDisk());

    // Another program writes the file while it is open here.
    model::Scenario theirs = model::defaultScenario();
    theirs.workload.batch = 5;
    const QByteArray theirBytes = QJsonDocument(model::toJson(theirs)).toJson();
    QVERIFY(writeFile(path, theirBytes));
    QVERIFY(window.files()->changedOnDisk());
    // The watcher tells the user at once.
    QTRY_VERIFY(window.noticeLabel()->text().contains(QStringLiteral("changed on disk")));

    window.document()->edit([](model::Scenario& s) { s.workload.batch = 64; });
    QStringList asked;
    window.files()->setChangedOnDiskQuestion([&asked](const QString& text) {
        asked << text;
        return QMessageBox::Cancel;
    });
    // Ctrl+S, as a person presses it.
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTest::keySequence(&window, QKeySequence::Save);
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked.first().contains(QStringLiteral("changed on disk")), qPrintable(asked.first()));
    QCOMPARE(readFile(path), theirBytes); // Cancel: their version stays
    QVERIFY(window.isWindowModified());

    // Overwrite: ours replaces theirs, and the next Save asks nothing.
    window.files()->setChangedOnDiskQuestion([&asked](const QString& text) {
        asked << text;
        return QMessageBox::Save;
    });
    QVERIFY(window.files()->save());
    QCOMPARE(asked.size(), 2);
    model::Scenario reread;
    QCOMPARE(ridgeline::app::readScenarioFile(path, reread), QString());
    QCOMPARE(reread.workload.batch, 64);
    window.document()->edit([](model::Scenario& s) { s.workload.batch = 65; });
    QVERIFY(window.files()->save());
    QCOMPARE(asked.size(), 2);

    // A file that was deleted is simply written again.
    QVERIFY(QFile::remove(path));
    window.document()->edit([](model::Scenario& s) { s.workload.batch = 66; });
    QVERIFY(window.files()->save());
    QCOMPARE(asked.size(), 2);
    QVERIFY(QFile::exists(path));
}

void TestScenarioFiles::titleAndUnsavedMark()
{
    MainWindow window(model::defaultScenario());
    QVERIFY(window.windowTitle().startsWith(QStringLiteral("Untitled[*]")));
    QVERIFY(!window.isWindowModified());
    window.document()->edit([](model::Scenario& s) { s.workload.batch = 3; });
    QVERIFY(window.isWindowModified());
    const QString path = m_dir.filePath(QStringLiteral("titled.json"));
    QVERIFY(window.files()->saveAs(path));
    QVERIFY(window.windowTitle().startsWith(QStringLiteral("titled.json[*]")));
    QVERIFY(!window.isWindowModified());
    // Undo back past the save: modified again; redo: clean again.
    window.history()->stack()->undo();
    QVERIFY(window.isWindowModified());
    QCOMPARE(window.document()->scenario().workload.batch, 1);
    window.history()->stack()->redo();
    QVERIFY(!window.isWindowModified());
    QCOMPARE(window.document()->scenario().workload.batch, 3);
}

void TestScenarioFiles::closeAsksWhenUnsaved()
{
    MainWindow window(model::defaultScenario());
    window.show();
    int asked = 0;
    QMessageBox::StandardButton answer = QMessageBox::Cancel;
    window.files()->setSaveQuestion([&] {
        ++asked;
        return answer;
    });
    QVERIFY(window.close()); // clean: no question
    QCOMPARE(asked, 0);
    window.show();
    window.document()->edit([](model::Scenario& s) { s.workload.batch = 5; });
    QVERIFY(!window.close()); // Cancel keeps the window open
    QCOMPARE(asked, 1);
    QVERIFY(window.isVisible());
    answer = QMessageBox::Discard;
    QVERIFY(window.close());
    QCOMPARE(asked, 2);
    // New asks too, and Cancel keeps the scenario.
    window.document()->edit([](model::Scenario& s) { s.workload.batch = 6; });
    answer = QMessageBox::Cancel;
    window.files()->newScenario();
    QCOMPARE(window.document()->scenario().workload.batch, 6);
    answer = QMessageBox::Discard;
    window.files()->newScenario();
    QCOMPARE(window.document()->scenario().workload.batch, 1);
    QVERIFY(!window.isWindowModified());
}

void TestScenarioFiles::sliderDragIsOneUndoStep()
{
    MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSlider* slider = window.controlsPanel()->batchSlider()->slider();
    QUndoStack* stack = window.history()->stack();
    QCOMPARE(stack->count(), 0);

    QStyleOptionSlider option;
    option.initFrom(slider);
    option.orientation = slider->orientation();
    option.minimum = slider->minimum();
    option.maximum = slider->maximum();
    option.sliderPosition = slider->sliderPosition();
    option.sliderValue = slider->value();
    const QRect handle = slider->style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, slider);
    QPoint at = handle.center();
    QSignalSpy changed(window.document(), &ridgeline::views::ScenarioDocument::scenarioChanged);
    QTest::mousePress(slider, Qt::LeftButton, Qt::NoModifier, at);
    QVERIFY(slider->isSliderDown());
    for (int i = 0; i < 12; ++i) {
        at += QPoint(8, 0);
        QMouseEvent move(QEvent::MouseMove, at, slider->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(slider, &move);
    }
    QTest::mouseRelease(slider, Qt::LeftButton, Qt::NoModifier, at);
    QVERIFY(!slider->isSliderDown());
    QVERIFY2(changed.count() >= 5, qPrintable(QString::number(changed.count())));
    const int dragged = window.document()->scenario().workload.batch;
    QVERIFY(dragged > 1);
    QCOMPARE(stack->count(), 1); // the whole drag
    QVERIFY(stack->undoText().contains(QStringLiteral("workload.batch")));

    stack->undo();
    QCOMPARE(window.document()->scenario().workload.batch, 1);
    QCOMPARE(window.controlsPanel()->batchSlider()->value(), 1.0); // the control follows
    stack->redo();
    QCOMPARE(window.document()->scenario().workload.batch, dragged);

    // A drag that ends where it started leaves no step.
    stack->undo();
    const int count = stack->count();
    stack->setIndex(0);
    QTest::mousePress(slider, Qt::LeftButton, Qt::NoModifier, handle.center());
    for (int dx : {8, 16, 8, 0}) {
        const QPoint p = handle.center() + QPoint(dx, 0);
        QMouseEvent move(QEvent::MouseMove, p, slider->mapToGlobal(p), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(slider, &move);
    }
    QTest::mouseRelease(slider, Qt::LeftButton, Qt::NoModifier, handle.center());
    QCOMPARE(window.document()->scenario().workload.batch, 1);
    QCOMPARE(stack->index(), 0);
    QVERIFY(stack->count() <= count);
}

void TestScenarioFiles::typedCommitsAreOneStepEach()
{
    MainWindow window(model::defaultScenario());
    window.show();
    QUndoStack* stack = window.history()->stack();
    QDoubleSpinBox* spin = window.controlsPanel()->batchSlider()->spinBox();
    spin->setFocus();
    for (const char* text : {"8", "16", "32"}) {
        QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(spin, QString::fromLatin1(text));
        QTest::keyClick(spin, Qt::Key_Return);
        QTest::qWait(1); // the next pass of the event loop: a new gesture
    }
    QCOMPARE(window.document()->scenario().workload.batch, 32);
    QCOMPARE(stack->count(), 3);
    stack->undo();
    QCOMPARE(window.document()->scenario().workload.batch, 16);
    stack->undo();
    QCOMPARE(window.document()->scenario().workload.batch, 8);
    // Ctrl+Z from the window (focus on a slider, which has no undo of its own).
    window.controlsPanel()->batchSlider()->slider()->setFocus();
    QTest::keyClick(window.controlsPanel()->batchSlider()->slider(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(window.document()->scenario().workload.batch, 1);
    QTest::keyClick(window.controlsPanel()->batchSlider()->slider(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(window.document()->scenario().workload.batch, 8);
}

void TestScenarioFiles::sessionOnlyWhenEnabled()
{
    QSettings().clear();
    {
        MainWindow window(model::defaultScenario());
        window.document()->edit([](model::Scenario& s) { s.workload.batch = 77; });
        window.files()->setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        window.close(); // session not enabled: nothing written
    }
    QVERIFY(QSettings().allKeys().isEmpty());
    {
        MainWindow window(model::defaultScenario());
        window.startInteractiveSession(QString(), true);
        window.document()->edit([](model::Scenario& s) { s.workload.batch = 77; });
        window.files()->setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        window.close();
    }
    QVERIFY(QSettings().contains(QStringLiteral("session/scenario")));
    {
        MainWindow window(model::defaultScenario());
        window.startInteractiveSession(QString(), true);
        // Discard at close means discard (a tester found it restored): the session holds the
        // scenario as it started, not the discarded edit.
        QCOMPARE(window.document()->scenario().workload.batch, model::defaultScenario().workload.batch);
        QVERIFY(!window.isWindowModified());
    }
    {
        // Saved, then edited and discarded at close: the next start has the saved version.
        const QString path = m_dir.filePath(QStringLiteral("session.json"));
        MainWindow window(model::defaultScenario());
        window.startInteractiveSession(QString(), true);
        window.document()->edit([](model::Scenario& s) { s.workload.batch = 40; });
        QVERIFY(window.files()->saveAs(path));
        window.document()->edit([](model::Scenario& s) { s.workload.batch = 41; });
        window.files()->setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        window.close();
    }
    nextStartHasTheSavedScenario(m_dir.filePath(QStringLiteral("session.json")));
    if (QTest::currentTestFailed())
        return;
    {
        // A scenario from the command line wins over the restored one.
        const QString path = m_dir.filePath(QStringLiteral("cli.json"));
        QVERIFY(writeFile(path, R"({"format_version": 1, "workload": {"batch": 3}})"));
        model::Scenario s = model::defaultScenario();
        s.workload.batch = 3;
        MainWindow window(s);
        window.startInteractiveSession(path, false);
        QCOMPARE(window.document()->scenario().workload.batch, 3);
        QCOMPARE(window.files()->currentPath(), QFileInfo(path).absoluteFilePath());
        QVERIFY(!window.isWindowModified());
    }
    QSettings().clear();
}

/** Issue 16, twenty-first stop: the undo stack keeps ScenarioHistory::kUndoLimitSteps steps. Saved, then edited one step
 *  more than that and discarded at close, the next start still has the saved version (the saved step has left the
 *  stack; the history's copy of the saved scenario stands for it), not the discarded edits, and is not marked unsaved. */
void TestScenarioFiles::discardGoesBackPastTheUndoLimit()
{
    QSettings().clear();
    const QString path = m_dir.filePath(QStringLiteral("bounded.json"));
    {
        MainWindow window(model::defaultScenario());
        window.startInteractiveSession(QString(), true);
        window.document()->edit([](model::Scenario& s) { s.workload.batch = 40; });
        QVERIFY(window.files()->saveAs(path));
        const int steps = ridgeline::views::ScenarioHistory::kUndoLimitSteps + 1;
        for (int i = 1; i <= steps; ++i) {
            window.document()->edit([i](model::Scenario& s) { s.workload.contextTokens = 1024 + i; });
            QCoreApplication::sendPostedEvents();
            QCoreApplication::processEvents(); // the pass ends: the next change is its own step
        }
        QUndoStack* stack = window.findChild<QUndoStack*>(QStringLiteral("undoStack"));
        QVERIFY(stack);
        QCOMPARE(stack->count(), ridgeline::views::ScenarioHistory::kUndoLimitSteps);
        QCOMPARE(stack->cleanIndex(), -1); // the saved step is gone from the stack
        QVERIFY(window.isWindowModified());
        window.files()->setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        window.close();
    }
    nextStartHasTheSavedScenario(path);
    QSettings().clear();
}

/** The pinned scenarios of an N-way comparison come back with the session (a trial user lost them at every start). */
void TestScenarioFiles::sessionKeepsPinnedScenarios()
{
    QSettings().clear();
    {
        MainWindow window(model::defaultScenario());
        window.startInteractiveSession(QString(), true);
        window.document()->edit([](model::Scenario& s) { s.workload.batch = 16; });
        QCOMPARE(window.pinNext(), 0);
        window.document()->edit([](model::Scenario& s) { s.workload.batch = 48; });
        QCOMPARE(window.pinNext(), 1);
        window.document()->edit([](model::Scenario& s) { s.workload.batch = 5; });
        window.files()->setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        window.close();
    }
    {
        MainWindow window(model::defaultScenario());
        window.startInteractiveSession(QString(), true);
        const auto& pinned = window.baseline()->pinned().items();
        QCOMPARE(int(pinned.size()), 2);
        QCOMPARE(pinned[0].baseline.scenario().workload.batch, 16);
        QCOMPARE(pinned[1].baseline.scenario().workload.batch, 48);
        QCOMPARE(pinned[1].slot, 1);
        // Each restored pin is evaluated, as a pin made by hand is.
        QCOMPARE(pinned[1].baseline.evaluation().decode.stepSeconds, model::evaluate(pinned[1].baseline.scenario()).decode.stepSeconds);
        QVERIFY(window.findChild<QAction*>(QStringLiteral("unpinActionB")));
        window.clearBaseline();
        window.files()->setSaveQuestion([] { return QMessageBox::Discard; });
        window.show();
        window.close();
    }
    {
        MainWindow window(model::defaultScenario());
        window.startInteractiveSession(QString(), true);
        QVERIFY(window.baseline()->pinned().isEmpty()); // cleared, and the session says so
    }
    QSettings().clear();
}

QTEST_MAIN(TestScenarioFiles)

/**
 * Every window read goes through the one bounded reader: a FIFO (which blocked start-up as the user
 * catalogue) and /dev/zero (which grew memory without end) are refused at once, naming the problem.
 */
void TestScenarioFiles::devicesAndPipesAreRefused()
{
    const QString fifo = m_dir.filePath(QStringLiteral("pipe.json"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    const QString zero = QStringLiteral("/dev/zero");

    // The user catalogue as a FIFO: the window still starts, and says why the file was ignored.
    QVERIFY(QDir().mkpath(ridgeline::views::UserCatalogue::directory()));
    const QString catalogue = ridgeline::views::UserCatalogue::hardwarePath();
    QFile::remove(catalogue);
    QVERIFY(::mkfifo(QFile::encodeName(catalogue).constData(), 0600) == 0);
    {
        MainWindow window(model::defaultScenario());
        QVERIFY2(window.noticeLabel()->text().contains(QStringLiteral("not a regular file")), qPrintable(window.noticeLabel()->text()));
        QVERIFY(window.userCatalogue()->devices().empty());
    }
    QFile::remove(catalogue);

    MainWindow window(model::defaultScenario());
    const QStringList before = keyValues(window.document()->scenario());
    for (const QString& path : {fifo, zero}) {
        QString message;
        QVERIFY(!window.files()->open(path, &message));
        QVERIFY2(message.contains(QStringLiteral("not a regular file")), qPrintable(message));
        QVERIFY(!window.importModelConfig(path, &message));
        QVERIFY2(message.contains(QStringLiteral("not a regular file")), qPrintable(message));
        QVERIFY(!window.openJsonFile(path, &message)); // a dropped file
        QVERIFY2(message.contains(QStringLiteral("not a regular file")), qPrintable(message));
        const QString ticket = window.whatIfTabs()->triagePanel()->loadTicket(path);
        QVERIFY2(ticket.contains(QStringLiteral("not a regular file")), qPrintable(ticket));
        const QString measurements = window.whatIfTabs()->calibrationTab()->loadMeasurements(path);
        QVERIFY2(measurements.contains(QStringLiteral("not a regular file")), qPrintable(measurements));
    }
    QCOMPARE(keyValues(window.document()->scenario()), before);
}

#include "tst_scenariofiles.moc"
