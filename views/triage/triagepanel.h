// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>
#include <QString>

#include "document/triagerun.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTextBrowser;

namespace ridgeline::views {

class ScenarioDocument;

/**
 * Incident triage (seed 000's drill): what the on-call engineer measured — P95 TTFT and ITL (ms),
 * queue wait (ms), concurrency, prompt length (tokens), KV memory in use (GB), GPU utilisation (%),
 * OOM errors, a batch job running, the symptom in words — classified by model::triage against the
 * floors of the document's last valid scenario. Shows the class, the reasoning in numbers, the
 * metric to plot, a plausible cause, fixes that can and cannot work, and the six-line standup with
 * a "Copy standup" button.
 *
 * The ticket is local to the panel (it is not part of the scenario); 0 in a numeric box means "not
 * measured". An examples combo loads the shipped drill tickets B1-B5 (the ticket resources). Triage
 * runs on every input change and whenever the owner calls runTriage() after an evaluation (it is an
 * on-demand classification; document::TriageRun runs it).
 *
 * Object names: triageExampleCombo, triageSymptomEdit, triageTtftSpinBox, triageItlSpinBox,
 * triageQueueSpinBox, triageConcurrencySpinBox, triagePromptSpinBox, triageKvSpinBox,
 * triageGpuSpinBox, triageOomCheckBox, triageBatchJobCheckBox, triageDrillButton,
 * triageScenarioLabel, triageClassLabel, triageResult, triageStandupEdit, triageCopyButton.
 */
class TriagePanel final : public QFrame {
    Q_OBJECT

public:
    explicit TriagePanel(ScenarioDocument* document, QWidget* parent = nullptr);

    /** Loads the ticket JSON at @p path (a resource or file) into the inputs and triages it.
     *  Returns "" on success, else the error (the inputs are then unchanged). */
    QString loadTicket(const QString& path);

    /** The ticket as currently entered. */
    const model::TriageInput& input() const { return m_run.input(); }
    /** The last classification. */
    const model::TriageResult& result() const { return m_run.result(); }
    /** The standup as shown and copied: six lines, no trailing newline. */
    QString standupText() const;

    QComboBox* examplesCombo() const { return m_examples; }
    QSpinBox* concurrencySpinBox() const { return m_concurrency; }
    QLabel* classLabel() const { return m_class; }
    QTextBrowser* resultBrowser() const { return m_details; }
    QPlainTextEdit* standupEdit() const { return m_standup; }
    QPushButton* copyButton() const { return m_copy; }

public slots:
    /** Re-runs the triage (document::TriageRun) on the current input against the document's evaluated scenario. */
    void runTriage();
    /** Puts the six-line standup on the clipboard. */
    void copyStandup();

private:
    void readInputs();
    void showInput(const model::TriageInput& input);

    ScenarioDocument* m_document = nullptr;
    document::TriageRun m_run; ///< the ticket and its classification

    QComboBox* m_examples = nullptr;
    QLineEdit* m_symptom = nullptr;
    QDoubleSpinBox* m_ttft = nullptr;
    QDoubleSpinBox* m_itl = nullptr;
    QDoubleSpinBox* m_queue = nullptr;
    QSpinBox* m_concurrency = nullptr;
    QSpinBox* m_prompt = nullptr;
    QDoubleSpinBox* m_kv = nullptr;
    QDoubleSpinBox* m_gpu = nullptr;
    QCheckBox* m_oom = nullptr;
    QCheckBox* m_batchJob = nullptr;
    QLabel* m_scenario = nullptr;
    QPushButton* m_drill = nullptr;
    QLabel* m_loadError = nullptr;

    QLabel* m_class = nullptr;
    QTextBrowser* m_details = nullptr;
    QPlainTextEdit* m_standup = nullptr;
    QPushButton* m_copy = nullptr;
    QString m_html; ///< what m_details shows, to skip identical rewrites
};

} // namespace ridgeline::views
