// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>

#include <QFileSystemWatcher>
#include <QMessageBox>
#include <QObject>
#include <QString>
#include <QStringList>

#include "model/cost/scenario.h"

class QAction;
class QMenu;

namespace ridgeline::views {
class ScenarioHistory;
}

namespace ridgeline::app {

class MainWindow;

/**
 * Reads @p path as a scenario file over model::defaultScenario() (model::loadScenarioJson: newer
 * versions load the keys this version knows). On success @p out is set and @p notes says what was
 * migrated or ignored (empty when nothing was); on failure @p out is untouched and the message
 * names the file, the key and the reason.
 * @return "" on success, else the message
 */
QString readScenarioFile(const QString& path, model::Scenario& out, QString* notes = nullptr);

/** Writes @p scenario (model::toJson, indented) to @p path whole or not at all
 *  (model::writeFileAtomically): a failed write, a full disk included, leaves the previous file as it
 *  was. @return "" on success, else the reason. */
QString writeScenarioFile(const QString& path, const model::Scenario& scenario);

/**
 * File handling of the window: File > New, Open, Open Recent, Open Example, Save, Save As; the window
 * title ("name.json[*] — Ridgeline") with the unsaved-changes mark from the undo stack's clean state;
 * the Save / Discard / Cancel question before the scenario is replaced or the window closes; and the
 * session (QSettings: the scenario, the file, window geometry and dock state, recent files).
 *
 * The session is read and written only after enableSession(), which the interactive GUI path calls:
 * screenshots, exports, reports and tests never touch the user's settings.
 */
class ScenarioFiles final : public QObject {
    Q_OBJECT

public:
    ScenarioFiles(MainWindow* window, views::ScenarioHistory* history);

    /** Adds New, Open, Open Recent, Open Example, Save and Save As to @p menu. */
    void addActions(QMenu* menu);

    /** The file the scenario was opened from or saved to; empty when untitled. */
    QString currentPath() const { return m_path; }
    /** Takes @p path as the current file (no reading), e.g. the file given on the command line. */
    void setCurrentPath(const QString& path);

    /** Most recent first, at most kMaxRecent. */
    QStringList recentFiles() const { return m_recent; }
    static constexpr int kMaxRecent = 8;

    /** Opens @p path: the scenario is replaced, the history starts again. A bad file is refused and
     *  the open scenario is untouched. Reports in the notice bar. No questions asked. */
    bool open(const QString& path, QString* message = nullptr);
    /** Saves to @p path (and makes it current). Reports failure in the notice bar. */
    bool saveAs(const QString& path, QString* message = nullptr);
    /** Saves to the current file, or asks for one. */
    bool save();
    /** The default scenario, untitled, history cleared (asks to save first). */
    void newScenario();

    /** When there are unsaved changes: asks Save / Discard / Cancel. True when it is fine to go on. */
    bool maybeSave();

    /** Replaces the question maybeSave() asks (tests); the default shows a QMessageBox. */
    void setSaveQuestion(std::function<QMessageBox::StandardButton()> question) { m_question = std::move(question); }
    /**
     * Replaces the question that Save asks when the current file was changed on disk by another
     * program since it was opened or saved here (for tests). It gets the question's text and answers
     * Save (overwrite), SaveAll (Save As instead) or Cancel (nothing is written).
     */
    void setChangedOnDiskQuestion(std::function<QMessageBox::StandardButton(const QString&)> question)
    {
        m_overwriteQuestion = std::move(question);
    }
    /** True when the current file's bytes differ from those last read or written here. */
    bool changedOnDisk() const;

    /** Reads and from now on writes the user's settings (QSettings). @p restoreScenario: also put
     *  back the last scenario and file (false when the command line gave one). */
    void enableSession(bool restoreScenario);
    bool sessionEnabled() const { return m_session; }
    /** Writes the session (scenario, file, geometry, dock state, recent files) when enabled. */
    void saveSession();

signals:
    /** newScenario() replaced the scenario with the default one (after any save question). */
    void startedAgain();

private:
    void updateTitle();
    void rememberDiskState();
    void onFileChanged(const QString& path);
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void openFromDialog();
    bool saveAsFromDialog();
    QString dialogFolder() const;

    MainWindow* m_window;
    views::ScenarioHistory* m_history;
    QString m_path;
    QStringList m_recent;
    QMenu* m_recentMenu = nullptr;
    bool m_session = false;
    std::function<QMessageBox::StandardButton()> m_question;
    std::function<QMessageBox::StandardButton(const QString&)> m_overwriteQuestion;
    QFileSystemWatcher* m_watcher;
    QByteArray m_diskFingerprint; ///< SHA-256 of the current file as last read or written here
    bool m_changedOnDiskNoticed = false;
};

} // namespace ridgeline::app
