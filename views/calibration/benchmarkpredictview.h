// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QWidget>

#include "model/files/benchmarkfile.h"
#include "model/analysis/benchmarkpredict.h"

class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QThread;

namespace ridgeline::views {

class BenchmarkPredictPlot;
class ScenarioDocument;

/**
 * "Predict a benchmark" (issue 13, "Measured truth"), a page of the Calibration tab: what `ridgeline --predict FILE`
 * prints, on screen. Open reads a serving benchmark's output as the tool wrote it (model::readBenchmarkFile: vLLM,
 * SGLang, GenAI-Perf / AIPerf, llmperf, or a CSV of points); every point is then predicted by the serving simulator
 * (model::predictBenchmarks) against the document's evaluated scenario, with the engine set here (scheduler, token
 * budget, max sequences; vLLM V1, 8,192 and 256 by default, as --predict).
 *
 * The prediction runs on a worker thread, never on the GUI thread: one run at a time; a request made while one runs
 * (a new file, another engine setting, a scenario edit) supersedes it: the running one's result is dropped and the
 * newest request runs as soon as it returns. predictionFinished() says when a result is on screen. The view predicts
 * again when the scenario changes, debounced (kDebounceMs after the last evaluation) and only while it is visible
 * (else when it is next shown); loading a file or changing an engine setting predicts at once, visible or not.
 *
 * It shows two BenchmarkPredictPlots (decode latency: ITL, else TPOT, as model::compareItl picks; TTFT) with their
 * residual strips; a sortable table of the points (table(): label, load, ISL, OSL, measured and predicted decode
 * latency and residual, the same for TTFT, preemptions; each number cell holds its exact value in Qt::UserRole, the
 * label cell its point's index in the file); a summary with the MAPE of both and the worst point.
 *
 * A file the reader refuses is reported in the error label with the reader's message, naming the file, and the
 * points and predictions shown stay.
 *
 * A file with a scenario kept beside it (model::companionScenarioPath(): "set.csv" and "set.scenario.json", as
 * tests/data/measured keeps its sets) shows a button (companionButton(); hidden while the document's scenario is that
 * one) that makes that scenario the window's, as
 * `--scenario` makes it the command line's: useCompanionScenario(). The prediction is never made against it silently:
 * a set predicted against another model or machine reads as a bad prediction.
 *
 * Object names: benchmarkPredictView, predictOpenButton, predictCompanionButton, predictSourceLabel,
 * predictErrorLabel, predictSchedulerCombo, predictTokenBudgetSpin, predictMaxSequencesSpin, predictStatusLabel,
 * predictSummaryLabel, predictNotesLabel, predictTable; the plots' stems predictItl and predictTtft.
 */
class BenchmarkPredictView final : public QWidget {
    Q_OBJECT

public:
    /** Columns of table(). */
    enum Column {
        LabelColumn,
        LoadColumn,
        InputColumn,
        OutputColumn,
        MeasuredDecodeColumn,
        PredictedDecodeColumn,
        DecodeResidualColumn,
        MeasuredTtftColumn,
        PredictedTtftColumn,
        TtftResidualColumn,
        PreemptionsColumn,
        ColumnCount
    };
    /** Quiet time after the last scenario evaluation before predicting again, ms. */
    static constexpr int kDebounceMs = 300;

    explicit BenchmarkPredictView(ScenarioDocument* document, QWidget* parent = nullptr);
    /** Waits for a prediction under way (its result is dropped). */
    ~BenchmarkPredictView() override;

    /**
     * Reads the benchmark file at @p path (a file or a resource) and predicts its points. Returns "" on success; else
     * the message (also shown: the file's name and the reader's message, naming the line or result, key and value),
     * and the points and predictions shown before stay.
     */
    QString loadBenchmark(const QString& path);

    /** Starts a prediction of the loaded points against the document's evaluated scenario now (none loaded: no-op). */
    void predict();

    /** The engine the prediction assumes (from the three controls; where the scenario's serving.scheduler or
     *  serving.max_num_tokens replaces an input, the input shows, and this returns, the scenario's value). */
    model::BenchmarkOptions options() const;

    /** Sets the three inputs to @p options, as the user would (`--scheduler`, `--token-budget`, `--max-sequences`): an
     *  input the scenario's serving keys replace keeps showing the scenario's value and takes the user's when the key is
     *  cleared. Predicts again when a shown input changed. */
    void setOptions(const model::BenchmarkOptions& options);

    /**
     * Makes the scenario kept beside the loaded file (companionPath()) the document's scenario: read as File > Open
     * reads a scenario (model::loadScenarioJson over the defaults), then ScenarioDocument::setScenario(), one step the
     * window's history can undo; the view predicts again as on any scenario change. Returns "" on success, else the
     * message (also shown in the error label: the file's name and the field) and nothing changes. No file beside it:
     * a message, nothing changes.
     */
    QString useCompanionScenario();
    /** The scenario file beside the loaded benchmark file (absolute), empty when there is none. */
    QString companionPath() const { return m_companionPath; }

    /** True from a request until its result is on screen. */
    bool isPredicting() const { return m_worker != nullptr || m_requested; }
    /** True once a prediction of the loaded points is on screen. */
    bool hasPrediction() const { return !m_results.empty(); }
    /** The loaded file (points empty before the first load). */
    const model::BenchmarkFile& benchmark() const { return m_file; }
    /** The prediction of each loaded point, in the file's order (empty until one is on screen). */
    const std::vector<model::PointPrediction>& results() const { return m_results; }
    /** The decode-latency comparison of point @p index (nullopt: nothing to compare, or not predicted). */
    std::optional<model::ComparedLatency> decodeComparison(int index) const;
    /** The TTFT comparison of point @p index. */
    std::optional<model::ComparedLatency> ttftComparison(int index) const;

    QPushButton* openButton() const { return m_open; }
    /** "Use its scenario" (its file's name on the tool tip): shown while the loaded file has a scenario beside it and the
     *  document's scenario is not that one (as model::toJson() writes both). */
    QPushButton* companionButton() const { return m_companion; }
    QComboBox* schedulerCombo() const { return m_scheduler; }
    QSpinBox* tokenBudgetSpin() const { return m_tokenBudget; }
    QSpinBox* maxSequencesSpin() const { return m_maxSequences; }
    QLabel* sourceLabel() const { return m_source; }
    QLabel* errorLabel() const { return m_error; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* summaryLabel() const { return m_summary; }
    QTableWidget* table() const { return m_table; }
    BenchmarkPredictPlot* decodePlot() const { return m_decodePlot; }
    BenchmarkPredictPlot* ttftPlot() const { return m_ttftPlot; }
    /** The main and residual QCustomPlots of both plots. */
    QList<QCustomPlot*> plots() const;

signals:
    /** A prediction's result is on screen (table, plots, summary). */
    void predictionFinished();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void openFromDialog();
    /** The companion button shown while a scenario lies beside the file and is not the document's. */
    void showCompanion();
    /** Reads companionPath() as File > Open reads a scenario (over the defaults): "" or the reader's message. */
    std::string readCompanion(model::Scenario& out) const;
    void showError(const QString& message);
    void startWorker();
    void deliver(quint64 generation, const std::vector<model::PointPrediction>& results, double seconds);
    /** Fills the table and the plots from m_file and m_results (predicted cells empty while none). */
    void showPoints();
    void showSummary();
    /** Disables the scheduler and token-budget inputs that the scenario's serving.scheduler / serving.max_num_tokens
     *  replace (their values kept), and says so in their tool tips. */
    void showScenarioEngine();

    ScenarioDocument* m_document = nullptr;
    model::BenchmarkFile m_file;
    QString m_sourceName;
    std::vector<model::PointPrediction> m_results;
    model::Scenario m_predictedScenario;    ///< the scenario m_results were predicted on
    QByteArray m_predictedKey;              ///< scenario JSON and options of the last prediction started
    quint64 m_generation = 0;               ///< of the latest request; a result of another is dropped
    bool m_requested = false;               ///< a request waits for the running worker to return
    bool m_stale = false;                   ///< the scenario changed while hidden
    QPointer<QThread> m_worker;
    QTimer m_debounce;

    QPushButton* m_open = nullptr;
    QPushButton* m_companion = nullptr;
    QString m_companionPath;
    std::optional<QJsonObject> m_companionScenario; ///< the companion as model::toJson() gives it (nullopt: unreadable)
    QLabel* m_source = nullptr;
    QLabel* m_error = nullptr;
    QComboBox* m_scheduler = nullptr;
    QSpinBox* m_tokenBudget = nullptr;
    QSpinBox* m_maxSequences = nullptr;
    QString m_schedulerTip;   ///< the scheduler input's own tool tip
    QString m_tokenBudgetTip; ///< the token-budget input's own tool tip
    std::pair<int, int> m_shownEngine{-2, -2}; ///< (serving.scheduler or -1, serving.max_num_tokens) showScenarioEngine() showed
    /// The user's own scheduler (item data) and token budget while the scenario's keys replace them in the inputs (which
    /// then show the scenario's values, disabled); put back when the keys are cleared. -1: none held.
    int m_userScheduler = -1;
    int m_userTokenBudget = -1;
    QLabel* m_status = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_notes = nullptr;
    QTableWidget* m_table = nullptr;
    BenchmarkPredictPlot* m_decodePlot = nullptr;
    BenchmarkPredictPlot* m_ttftPlot = nullptr;
};

} // namespace ridgeline::views
