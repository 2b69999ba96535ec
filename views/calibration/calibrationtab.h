// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <vector>

#include <QByteArray>
#include <QList>
#include <QString>
#include <QWidget>

#include "model/analysis/calibration.h"
#include "model/cost/scenario.h"

class QCheckBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace ridgeline::views {

class BenchmarkPredictView;
class CalibrationPlot;
class ScenarioDocument;

/**
 * The Calibration tab (issue 10): measured operating points against the cost model, and the fit of
 * its few interpretable coefficients (model::calibrate).
 *
 * Import reads a CSV with units in the header (model::parseMeasurementsCsv) or a vLLM serving
 * benchmark JSON (model::parseVllmBenchmarkJson), chosen by extension (.json) or, failing that, by
 * content; a file the parsers refuse (unknown column or unit, bad cell) is reported with their
 * message and the previous points stay. Fit calibrates against the document's evaluated scenario
 * and shows each coefficient (eta_bw, step overhead ms, prefill MFU, prefill overhead ms) with its
 * standard error, MAPE and largest error before and after, and the notes. Two CalibrationPlots
 * draw the floor, the calibrated curve with its +-1 s.e. band and the points (ITL against batch,
 * TTFT against prompt length); "Show residuals" adds the relative residuals under each.
 * "Apply to scenario" writes the fitted efficiency.bandwidth, efficiency.step_overhead_ms,
 * efficiency.mfu_prefill and efficiency.prefill_overhead_ms into the document (one edit), and is
 * refused, with the reason, when a fitted efficiency is above 1 (applyRefusal()). "Example" loads
 * the example's scenario with its points (loadExample()).
 *
 * The plots follow the document: on evaluated() they redraw when visible (else when next shown).
 *
 * Two pages (pages(), object name calibrationPages): "Fit to measurements" (all of the above, calibrationFitPage)
 * and "Predict a benchmark" (predictView(), a BenchmarkPredictView: a benchmark's points against the serving
 * simulator's prediction on the same scenario, issue 13).
 * Object names: calibrationTab, calibrationImportButton, calibrationExampleButton,
 * calibrationSourceLabel, calibrationErrorLabel, calibrationFitButton, calibrationCoefficientTable,
 * calibrationErrorTable, calibrationNotesLabel, calibrationApplyButton, calibrationResidualsCheckBox.
 */
class CalibrationTab final : public QWidget {
    Q_OBJECT

public:
    /** Rows of coefficientTable(). */
    enum CoefficientRow { BandwidthRow, StepOverheadRow, MfuPrefillRow, PrefillOverheadRow, CoefficientRowCount };
    /** Columns of coefficientTable(): fitted value, standard error, the scenario's value now. */
    enum CoefficientColumn { ValueColumn, StandardErrorColumn, ScenarioColumn, CoefficientColumnCount };
    /** Rows of errorTable(): relative errors with the scenario as fitted against (before) and calibrated (after). */
    enum ErrorRow { PointsRow, MapeBeforeRow, MapeAfterRow, MaxBeforeRow, MaxAfterRow, ErrorRowCount };
    /** Columns of errorTable(). */
    enum ErrorColumn { ItlColumn, TtftColumn, ErrorColumnCount };
    /** Pages of pages(). */
    enum Page { FitPage, PredictPage };

    /** The example measurements shipped as a resource. */
    static QString examplePath();
    /** The scenario the example was measured on (Llama 3.1 8B on H100 SXM), a resource. */
    static QString exampleScenarioPath();

    explicit CalibrationTab(ScenarioDocument* document, QWidget* parent = nullptr);

    /**
     * Reads measurements from the file at @p path (a resource or file): vLLM JSON when it ends in
     * .json or its text starts with '{' or '[', else CSV. On success replaces the points, drops the
     * previous fit and returns ""; else returns the message (also shown) and keeps the points.
     */
    QString loadMeasurements(const QString& path);
    /** The same from text: @p json selects the parser; @p source names it in messages. */
    QString setMeasurementsText(const QByteArray& text, bool json, const QString& source);

    /**
     * The Example button: loads the example's points and its scenario (exampleScenarioPath()) into
     * the document, one edit that Edit > Undo takes back, so the fit compares the points with the
     * model and hardware they were measured on. Returns "" or why not (shown).
     */
    QString loadExample();

    /** Calibrates the points against the document's scenario (evaluated now); returns "" or why not (shown). */
    QString fit();
    /**
     * Writes the fitted coefficients into the document's scenario; false without a fit, or when a
     * fitted efficiency is above 1 (applyRefusal() says why, also shown).
     */
    bool applyToScenario();
    /**
     * Why the fit cannot be applied: a fitted eta_bw or prefill MFU above 1 means the points are faster
     * than the scenario's floor, so they were not measured on this model and hardware. "" when it can.
     */
    QString applyRefusal() const;

    const std::vector<model::Measurement>& measurements() const { return m_points; }
    const std::optional<model::CalibrationResult>& result() const { return m_result; }

    QPushButton* importButton() const { return m_import; }
    QPushButton* exampleButton() const { return m_example; }
    QPushButton* fitButton() const { return m_fit; }
    QPushButton* applyButton() const { return m_apply; }
    QCheckBox* residualsCheckBox() const { return m_residuals; }
    QLabel* sourceLabel() const { return m_source; }
    QLabel* errorLabel() const { return m_error; }
    QLabel* notesLabel() const { return m_notes; }
    QTableWidget* coefficientTable() const { return m_coefficients; }
    QTableWidget* errorTable() const { return m_errors; }
    CalibrationPlot* itlPlot() const { return m_itlPlot; }
    CalibrationPlot* ttftPlot() const { return m_ttftPlot; }
    /** The main and residual QCustomPlots of both plots, then those of predictView(). */
    QList<QCustomPlot*> plots() const;
    /** The two pages: fit (FitPage) and benchmark prediction (PredictPage). */
    QTabWidget* pages() const { return m_pages; }
    /** The "Predict a benchmark" page. */
    BenchmarkPredictView* predictView() const { return m_predict; }

public slots:
    /** Redraws the plots and the scenario column from the document's evaluated scenario. */
    void refresh();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void importFromDialog();
    void showError(const QString& message);
    void showResult();
    void updateEnabled();

    ScenarioDocument* m_document = nullptr;
    std::vector<model::Measurement> m_points;
    std::optional<model::CalibrationResult> m_result;
    QString m_sourceName;
    bool m_stale = false;

    QPushButton* m_import = nullptr;
    QPushButton* m_example = nullptr;
    QLabel* m_source = nullptr;
    QLabel* m_error = nullptr;
    QPushButton* m_fit = nullptr;
    QTableWidget* m_coefficients = nullptr;
    QTableWidget* m_errors = nullptr;
    QLabel* m_notes = nullptr;
    QPushButton* m_apply = nullptr;
    QCheckBox* m_residuals = nullptr;
    CalibrationPlot* m_itlPlot = nullptr;
    CalibrationPlot* m_ttftPlot = nullptr;
    QWidget* m_fitPage = nullptr;
    QTabWidget* m_pages = nullptr;
    BenchmarkPredictView* m_predict = nullptr;
};

} // namespace ridgeline::views
