// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/scenariofiles.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QMenu>
#include <QCryptographicHash>
#include <QFileSystemWatcher>
#include <QMessageBox>
#include <QPushButton>
#include <QJsonArray>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QUndoStack>

#include "app/mainwindow.h"
#include "model/files/inputfile.h"
#include "model/files/outputfile.h"
#include "model/cost/scenariokeys.h"
#include "model/cost/scenariomigration.h"
#include "document/scenariodocument.h"
#include "document/scenariohistory.h"
#include "views/whatifs/baseline.h"

namespace ridgeline::app {

namespace {

const QString kScenarioKey = QStringLiteral("session/scenario");
const QString kFileKey = QStringLiteral("session/file");
const QString kModifiedKey = QStringLiteral("session/modified");
const QString kPinnedKey = QStringLiteral("session/pinned"); // a JSON array of the pinned scenarios, slot order
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
const QString kRecentKey = QStringLiteral("files/recent");

QString shown(const QString& path)
{
    return QDir::toNativeSeparators(QDir::cleanPath(QFileInfo(path).absoluteFilePath()));
}

QString sentence(QString text)
{
    text = text.trimmed();
    if (!text.isEmpty() && !text.endsWith(QLatin1Char('.')))
        text += QLatin1Char('.');
    return text;
}

/**
 * What @p path holds now, as a SHA-256 of its bytes; empty when it cannot be read (missing,
 * not a regular file, too large). Compared before Save to notice another program's changes.
 */
QByteArray diskFingerprint(const QString& path)
{
    QByteArray bytes;
    if (path.isEmpty() || path.startsWith(QLatin1Char(':')) || !model::readInputFile(path, bytes).empty())
        return {};
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
}

QString joinKeys(const std::vector<std::string>& keys, int max = 8)
{
    QStringList out;
    for (size_t i = 0; i < keys.size() && int(i) < max; ++i)
        out << QString::fromStdString(keys[i]);
    if (int(keys.size()) > max)
        out << ScenarioFiles::tr("and %1 more").arg(int(keys.size()) - max);
    return out.join(QStringLiteral(", "));
}

} // namespace

QString readScenarioFile(const QString& path, model::Scenario& out, QString* notes)
{
    QByteArray bytes;
    if (const std::string error = model::readInputFile(path, bytes); !error.empty())
        return ScenarioFiles::tr("%1: %2").arg(shown(path), QString::fromStdString(error));
    model::Scenario scenario;
    model::ScenarioLoadReport report;
    if (const std::string error = model::loadScenarioJson(bytes, model::defaultScenario(), scenario, report); !error.empty())
        return ScenarioFiles::tr("%1: %2").arg(shown(path), QString::fromStdString(error));
    QStringList lines;
    if (report.fileVersion > model::kScenarioFormatVersion) {
        lines << ScenarioFiles::tr("The file is from a newer Ridgeline (format %1; this one reads format %2): the inputs "
                                   "this version knows were loaded.")
                     .arg(report.fileVersion)
                     .arg(model::kScenarioFormatVersion);
        if (!report.ignored.empty())
            lines << ScenarioFiles::tr("Ignored (unknown here): %1.").arg(joinKeys(report.ignored));
    } else if (report.fileVersion < model::kScenarioFormatVersion) {
        lines << (report.fileVersion == 0
                      ? ScenarioFiles::tr("The file has no format_version: read as format %1.").arg(model::kScenarioFormatVersion)
                      : ScenarioFiles::tr("Migrated from format %1 to format %2.").arg(report.fileVersion).arg(model::kScenarioFormatVersion));
    }
    if (!report.defaulted.empty() && (report.migrated() || !report.ignored.empty()))
        lines << ScenarioFiles::tr("Not in the file, so at their defaults: %1.").arg(joinKeys(report.defaulted));
    else if (!report.defaulted.empty())
        lines << ScenarioFiles::tr("%n input(s) not in the file are at their defaults.", nullptr, int(report.defaulted.size()));
    if (notes)
        *notes = lines.join(QLatin1Char('\n'));
    out = std::move(scenario);
    return {};
}

QString writeScenarioFile(const QString& path, const model::Scenario& scenario)
{
    return model::writeFileAtomically(path, QJsonDocument(model::toJson(scenario)).toJson(QJsonDocument::Indented));
}

ScenarioFiles::ScenarioFiles(MainWindow* window, views::ScenarioHistory* history)
    : QObject(window)
    , m_window(window)
    , m_history(history)
    , m_watcher(new QFileSystemWatcher(this))
{
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &ScenarioFiles::onFileChanged);
    connect(m_history->stack(), &QUndoStack::cleanChanged, this, &ScenarioFiles::updateTitle);
    updateTitle();
}

void ScenarioFiles::addActions(QMenu* menu)
{
    QAction* newAction = menu->addAction(tr("&New"), this, &ScenarioFiles::newScenario);
    newAction->setObjectName(QStringLiteral("newAction"));
    newAction->setShortcut(QKeySequence::New);
    newAction->setStatusTip(tr("Start again from the default scenario"));
    QAction* openAction = menu->addAction(tr("&Open\u2026"), this, &ScenarioFiles::openFromDialog);
    openAction->setObjectName(QStringLiteral("openAction"));
    openAction->setShortcut(QKeySequence::Open);
    openAction->setStatusTip(tr("Open a scenario file (JSON)"));
    m_recentMenu = menu->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &ScenarioFiles::rebuildRecentMenu);
    rebuildRecentMenu();
    QMenu* examples = menu->addMenu(tr("Open &Example"));
    examples->setObjectName(QStringLiteral("examplesMenu"));
    const QList<QPair<QString, QString>> seeds{
        {tr("Llama 3.1 8B on H100"), QStringLiteral(":/scenarios/llama-3.1-8b-h100.json")},
        {tr("Incident drill: 13B on A100"), QStringLiteral(":/scenarios/incident-drill-13b-a100.json")},
        {tr("Crossover reference: 70B on H100"), QStringLiteral(":/scenarios/crossover-70b-h100.json")},
        {tr("Crossover reference: 405B on H100"), QStringLiteral(":/scenarios/crossover-405b-h100.json")},
    };
    for (const auto& [name, resource] : seeds) {
        examples->addAction(name, this, [this, resource = resource] {
            if (!maybeSave())
                return;
            if (open(resource))
                setCurrentPath(QString()); // a template: Save asks where
        });
    }
    menu->addSeparator();
    QAction* saveAction = menu->addAction(tr("&Save"), this, &ScenarioFiles::save);
    saveAction->setObjectName(QStringLiteral("saveAction"));
    saveAction->setShortcut(QKeySequence::Save);
    saveAction->setStatusTip(tr("Save the scenario to its file"));
    QAction* saveAsAction = menu->addAction(tr("Save &As\u2026"), this, &ScenarioFiles::saveAsFromDialog);
    saveAsAction->setObjectName(QStringLiteral("saveAsAction"));
    saveAsAction->setShortcut(QKeySequence::SaveAs);
    saveAsAction->setStatusTip(tr("Save the scenario to a new file"));
}

void ScenarioFiles::setCurrentPath(const QString& path)
{
    m_path = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    if (!m_path.isEmpty() && !m_path.startsWith(QLatin1Char(':')))
        addRecent(m_path);
    rememberDiskState();
    updateTitle();
}

void ScenarioFiles::rememberDiskState()
{
    m_diskFingerprint = diskFingerprint(m_path);
    m_changedOnDiskNoticed = false;
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    if (!m_diskFingerprint.isEmpty())
        m_watcher->addPath(m_path);
}

bool ScenarioFiles::changedOnDisk() const
{
    // A file that is gone, or was never read, is not "changed": saving recreates it.
    if (m_diskFingerprint.isEmpty() || !QFileInfo::exists(m_path))
        return false;
    return diskFingerprint(m_path) != m_diskFingerprint;
}

void ScenarioFiles::onFileChanged(const QString& path)
{
    if (path != m_path)
        return;
    // Editors that save by renaming replace the file: watch the new one.
    if (QFileInfo::exists(m_path) && !m_watcher->files().contains(m_path))
        m_watcher->addPath(m_path);
    if (m_changedOnDiskNoticed || !changedOnDisk())
        return;
    m_changedOnDiskNoticed = true;
    m_window->showNotice(tr("%1 was changed on disk by another program. The scenario in this window is as it was; "
                            "File > Save will ask before overwriting the file, File > Open reads the new version.")
                             .arg(shown(m_path)),
                         true, tr("%1 changed on disk").arg(QFileInfo(m_path).fileName()));
}

void ScenarioFiles::updateTitle()
{
    const QString name = m_path.isEmpty() ? tr("Untitled") : QFileInfo(m_path).fileName();
    m_window->setWindowTitle(tr("%1[*] \u2014 Ridgeline").arg(name));
    m_window->setWindowModified(!m_history->stack()->isClean());
}

void ScenarioFiles::addRecent(const QString& path)
{
    m_recent.removeAll(path);
    m_recent.prepend(path);
    while (m_recent.size() > kMaxRecent)
        m_recent.removeLast();
    if (m_session)
        QSettings().setValue(kRecentKey, m_recent);
}

void ScenarioFiles::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    for (int i = 0; i < m_recent.size(); ++i) {
        const QString path = m_recent[i];
        QAction* action = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()), this,
                                                  [this, path] {
                                                      if (maybeSave())
                                                          open(path);
                                                  });
        action->setToolTip(shown(path));
        action->setStatusTip(shown(path));
    }
    if (m_recent.isEmpty()) {
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("&Clear list"), this, [this] {
        m_recent.clear();
        if (m_session)
            QSettings().setValue(kRecentKey, m_recent);
    });
}

bool ScenarioFiles::open(const QString& path, QString* message)
{
    model::Scenario scenario;
    QString notes;
    if (const QString error = readScenarioFile(path, scenario, &notes); !error.isEmpty()) {
        const QString text = tr("Could not open the scenario %1 Nothing was changed.").arg(sentence(error));
        m_window->showNotice(text, true, tr("Open failed: see the message above the plots."));
        if (message)
            *message = text;
        return false;
    }
    m_window->document()->setScenario(scenario);
    m_history->reset();
    setCurrentPath(path);
    QString text = tr("Opened %1.").arg(path.startsWith(QLatin1Char(':')) ? QFileInfo(path).fileName() : shown(path));
    if (!notes.isEmpty())
        text += QLatin1Char('\n') + notes;
    m_window->showNotice(text, false, tr("Opened %1").arg(QFileInfo(path).fileName()));
    if (message)
        *message = text;
    return true;
}

bool ScenarioFiles::saveAs(const QString& path, QString* message)
{
    if (const QString error = writeScenarioFile(path, m_window->document()->scenario()); !error.isEmpty()) {
        const QString text = tr("Could not save %1: %2 The scenario is still open and unsaved; any earlier version of "
                                "the file is intact.")
                                 .arg(shown(path), sentence(error));
        m_window->showNotice(text, true, tr("Save failed: see the message above the plots."));
        if (message)
            *message = text;
        return false;
    }
    m_history->setClean();
    setCurrentPath(path);
    const QString text = tr("Saved %1").arg(shown(path));
    m_window->statusBar()->showMessage(text, 8000);
    if (message)
        *message = text;
    return true;
}

bool ScenarioFiles::save()
{
    if (m_path.isEmpty() || m_path.startsWith(QLatin1Char(':')))
        return saveAsFromDialog();
    if (changedOnDisk()) {
        const QString text = tr("%1 has been changed on disk by another program since it was opened or saved here.\n\n"
                                "Overwrite it with the scenario in this window? Its other version is then lost.")
                                 .arg(shown(m_path));
        QMessageBox::StandardButton answer = QMessageBox::Cancel;
        if (m_overwriteQuestion) {
            answer = m_overwriteQuestion(text);
        } else {
            QMessageBox box(QMessageBox::Warning, tr("File changed on disk"), text, QMessageBox::NoButton, m_window);
            box.addButton(tr("&Overwrite"), QMessageBox::AcceptRole)->setObjectName(QStringLiteral("overwriteButton"));
            QPushButton* saveAsButton = box.addButton(tr("Save &As\u2026"), QMessageBox::ActionRole);
            box.setDefaultButton(box.addButton(QMessageBox::Cancel));
            box.exec();
            if (box.clickedButton() == saveAsButton)
                answer = QMessageBox::SaveAll; // "Save As"
            else if (box.buttonRole(box.clickedButton()) == QMessageBox::AcceptRole)
                answer = QMessageBox::Save;
        }
        if (answer == QMessageBox::SaveAll)
            return saveAsFromDialog();
        if (answer != QMessageBox::Save) {
            m_window->statusBar()->showMessage(tr("Not saved: %1 was changed on disk").arg(QFileInfo(m_path).fileName()), 8000);
            return false;
        }
    }
    return saveAs(m_path);
}

void ScenarioFiles::newScenario()
{
    if (!maybeSave())
        return;
    m_window->document()->setScenario(model::defaultScenario());
    m_history->reset();
    setCurrentPath(QString());
    emit startedAgain();
}

bool ScenarioFiles::maybeSave()
{
    if (m_history->stack()->isClean())
        return true;
    QMessageBox::StandardButton answer = QMessageBox::Cancel;
    if (m_question) {
        answer = m_question();
    } else {
        const QString name = m_path.isEmpty() ? tr("the untitled scenario") : QFileInfo(m_path).fileName();
        answer = QMessageBox::warning(m_window, tr("Unsaved changes"),
                                      tr("Save the changes to %1 first?").arg(name),
                                      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    }
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

QString ScenarioFiles::dialogFolder() const
{
    if (!m_path.isEmpty() && !m_path.startsWith(QLatin1Char(':')))
        return QFileInfo(m_path).absolutePath();
    if (!m_recent.isEmpty())
        return QFileInfo(m_recent.first()).absolutePath();
    return QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
}

void ScenarioFiles::openFromDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open scenario"), dialogFolder(),
                                                      tr("Ridgeline scenarios (*.json);;All files (*)"));
    if (!path.isEmpty())
        open(path);
}

bool ScenarioFiles::saveAsFromDialog()
{
    QString start = dialogFolder();
    if (!m_path.isEmpty() && !m_path.startsWith(QLatin1Char(':')))
        start = m_path;
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save scenario"), start, tr("Ridgeline scenarios (*.json)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    return saveAs(path);
}

void ScenarioFiles::enableSession(bool restoreScenario)
{
    m_session = true;
    QSettings settings;
    m_recent = settings.value(kRecentKey).toStringList();
    while (m_recent.size() > kMaxRecent)
        m_recent.removeLast();
    m_window->restoreGeometry(settings.value(kGeometryKey).toByteArray());
    m_window->restoreState(settings.value(kStateKey).toByteArray());
    if (!restoreScenario)
        return;
    const QByteArray json = settings.value(kScenarioKey).toByteArray();
    if (json.isEmpty())
        return;
    model::Scenario scenario;
    model::ScenarioLoadReport report;
    if (!model::loadScenarioJson(json, model::defaultScenario(), scenario, report).empty())
        return; // a broken session is no reason to refuse to start: keep the default
    m_window->document()->setScenario(scenario);
    m_history->reset();
    // The pinned scenarios of the last session, in slot order (decision: restored into A, B, ... without gaps).
    const QJsonArray pinned = QJsonDocument::fromJson(settings.value(kPinnedKey).toByteArray()).array();
    std::vector<model::Scenario> pins;
    for (const QJsonValue& v : pinned) {
        model::Scenario pin;
        model::ScenarioLoadReport pinReport;
        if (v.isObject()
            && model::loadScenarioJson(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact), model::defaultScenario(), pin, pinReport).empty())
            pins.push_back(pin); // a broken entry is skipped, as a broken session scenario is
    }
    if (!pins.empty())
        m_window->restorePinned(pins);
    const QString file = settings.value(kFileKey).toString();
    m_path = file.isEmpty() ? QString() : file;
    rememberDiskState();
    if (settings.value(kModifiedKey).toBool()) {
        // Unsaved when the window closed: still unsaved now (the clean state is one step back).
        m_history->resetClean();
    }
    updateTitle();
}

void ScenarioFiles::saveSession()
{
    if (!m_session)
        return;
    // The window closes only after maybeSave(): changes still unsaved here were discarded by the
    // person (Discard), so the session keeps the scenario as last saved (or as it started), not them.
    // When the saved step has left the bounded stack (ScenarioHistory::kUndoLimitSteps steps since), the history's copy
    // of the saved scenario stands for it; only a session restored as unsaved has neither, and keeps the unsaved one.
    QUndoStack* stack = m_history->stack();
    if (!stack->isClean() && stack->cleanIndex() >= 0)
        stack->setIndex(stack->cleanIndex());
    const bool gone = !stack->isClean() && m_history->cleanScenario().has_value();
    const model::Scenario& kept = gone ? *m_history->cleanScenario() : m_window->document()->scenario();
    QSettings settings;
    settings.setValue(kScenarioKey, QJsonDocument(model::toJson(kept)).toJson(QJsonDocument::Compact));
    settings.setValue(kFileKey, m_path.startsWith(QLatin1Char(':')) ? QString() : m_path);
    settings.setValue(kModifiedKey, !stack->isClean() && !gone);
    QJsonArray pinned;
    for (const document::PinnedScenario& p : m_window->baseline()->pinned().items())
        pinned.append(model::toJson(p.baseline.scenario()));
    settings.setValue(kPinnedKey, QJsonDocument(pinned).toJson(QJsonDocument::Compact));
    settings.setValue(kGeometryKey, m_window->saveGeometry());
    settings.setValue(kStateKey, m_window->saveState());
    settings.setValue(kRecentKey, m_recent);
}

} // namespace ridgeline::app
