// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <memory>

#include <QByteArray>
#include <QFlags>
#include <QList>
#include <QPair>
#include <QSize>
#include <QString>
#include <QStringList>

#include "model/analysis/benchmarkpredict.h"
#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"

class QCPPainter;
class QCustomPlot;
class QImage;
class QRect;

namespace ridgeline::views {
class PlotPanel;
}

namespace ridgeline::app {

class ExportSource;

/** What File > Export… and `ridgeline --export` write. */
enum class ExportFormat {
    Png = 0x1,       ///< each plot and the dashboard, raster at the chosen DPI
    Pdf = 0x2,       ///< vector
    Svg = 0x4,       ///< vector
    Csv = 0x8,       ///< every curve's data, one file per plot, units in the header
    Markdown = 0x10, ///< summary.md: the scenario, the takeaways and the headline figures
};
Q_DECLARE_FLAGS(ExportFormats, ExportFormat)
Q_DECLARE_OPERATORS_FOR_FLAGS(ExportFormats)

/** Every format. */
inline constexpr ExportFormats kAllExportFormats = ExportFormats(0x1f);

/** Options of one export. */
struct ExportOptions {
    QString folder;                        ///< written into; created when missing
    ExportFormats formats = kAllExportFormats;
    QSize size{720, 480};                  ///< each plot in logical pixels (1/96 in); the dashboard is 3 x 2 of them
    int dpi = 96;                          ///< PNG pixel density: a plot is size * dpi / 96 pixels; PDF and SVG are vector
    QString simulationFile;                ///< runExport() only: a simulation file to run first (`--simulate FILE`), or ""
    QString calibrationFile;               ///< runExport() only: measurements to load and fit first (`--calibrate DATA`), or ""
    QString predictFile;                   ///< runExport() only: a benchmark's output to predict first (`--predict FILE`), or ""
    model::BenchmarkOptions benchmarkOptions; ///< runExport() only: the engine for predictFile (--scheduler, --token-budget, --max-sequences)
};

/**
 * Writes @p image to @p path as PNG through QSaveFile, so that a failed write (a full disk, a
 * read-only folder) leaves any previous file intact and no partial one. Returns "" or the reason
 * (the system's, e.g. "No space left on device").
 */
QString savePng(const QImage& image, const QString& path);

/**
 * Parses "png,pdf,svg,csv,md" (any subset, any order; "markdown" = "md", "all" = every one).
 * @return "" on success, else one sentence naming the bad entry.
 */
QString parseExportFormats(const QString& text, ExportFormats& out);

/** The file stems of the five plots, in plot order (views::floorPlotIds(), each views::floorPlotName()):
 *  decode_floor, roofline, kv_share, prefill_crossover, slo. */
QStringList plotStems();

/**
 * The file stems of the other tabs' plots, in tab order (a contract, like plotStems()):
 * capacity_sequences, capacity_kv_fit (Capacity & SLOs), workload_request_time, speculative_speedup
 * (Workload, prefix cache, speculative), simulation_itl_timeline, simulation_latency_cdf,
 * simulation_cap_sweep, simulation_kv_usage (Simulation: written once a run is on screen),
 * calibration_itl, calibration_ttft (Calibration: written once measurements are loaded), predict_itl,
 * predict_ttft (Calibration, "Predict a benchmark": written once a benchmark's prediction is on screen; each with
 * its residual strip), plan_pareto (Plan: the fleet plan's Pareto frontiers, searched for the export: the window
 * scenario's live plan, or the plan file the tab shows).
 */
QStringList tabPlotStems();

/**
 * The Simulation tab's rate-sweep plots' file stems, exported after simulation_kv_usage when the run on screen swept
 * the arrival rate (its "rate_sweep", or the tab's "Rate sweep"): simulation_rate_goodput (goodput and throughput
 * against the arrival rate), simulation_rate_attainment (SLO attainment against it, the target and the highest rate
 * holding it). Not in tabPlotStems(): a run without a sweep has neither.
 */
QStringList rateSweepPlotStems();

/**
 * The CSV of a QCustomPlot's curves in long form, "\n" line ends: a "series" column (the curve's
 * legend name), then one column per axis the curves use, named by the axis label with its unit
 * (e.g. "context S (tokens per sequence)"); each row is one point of one curve and fills the two
 * columns of that curve's key and value axes. Hidden and unnamed curves (drawing aids such as a
 * fill's far edge) and non-finite points are left out.
 * @p plots: the plot and any plots stacked under it (the calibration residuals).
 */
QByteArray curvesCsv(const QList<QCustomPlot*>& plots);

/**
 * The CSV of one plot's curves from @p evaluation's sweeps, "\n" line ends, values in the shortest
 * form that reads back to the same double (model::formatNumber): views::FloorPlot::csv() of the plot
 * named @p stem (its columns: views::FloorPlot::csvColumns()). Columns (units in the names):
 * - decode_floor: batch,t_step_ms,t_mem_ms,t_comp_ms,tokens_per_s_total,weight_floor_ms
 * - roofline: intensity_flop_per_byte,attainable_flop_per_s,attainable_derated_flop_per_s
 * - kv_share: context_tokens,kv_share_fraction
 * - prefill_crossover: prompt_tokens,linear_flop,attention_flop,total_flop,prefill_ms
 * - slo: batch,t_step_ms,tokens_per_s_total,tokens_per_s_per_user
 * Unknown stem: empty.
 */
QByteArray plotCsv(const QString& stem, const model::Evaluation& evaluation);

/**
 * A Markdown summary: the scenario's inputs, each plot's takeaway (@p takeaways: heading and text,
 * may be empty) and a table of the headline figures; with a baseline (@p baseline not null) the
 * table has A, B and B ÷ A columns.
 */
QString summaryMarkdown(const model::Scenario& scenario, const model::Evaluation& evaluation,
                        const QList<QPair<QString, QString>>& takeaways, const model::Scenario* baseline = nullptr,
                        const model::Evaluation* baselineEvaluation = nullptr, const QStringList& notExported = {});

/** One pinned scenario of an N-way summary: its letter ("A", "C") and its scenario and evaluation (not owned). */
struct ComparedScenario {
    QString letter;
    const model::Scenario* scenario = nullptr;
    const model::Evaluation* evaluation = nullptr;
};

/**
 * The N-way summary: as above, with one column per pinned scenario of @p pinned (slot order; the first is
 * the reference) and the live one, then each one's ratio to the reference. With A alone it is the A/B
 * summary above, word for word; beside several (or another letter alone) the live column is "live".
 */
QString summaryMarkdown(const model::Scenario& scenario, const model::Evaluation& evaluation,
                        const QList<QPair<QString, QString>>& takeaways, const QList<ComparedScenario>& pinned,
                        const QStringList& notExported = {});

/**
 * The summary of @p window's live scenario (and pinned scenarios, if any): the takeaways of every
 * tab (floors, capacity and SLOs, workload, prefix cache, speculative, triage, simulation,
 * calibration), and under "Not exported" the tabs whose plots need a run that is not there, with
 * the reason (e.g. "Simulation: no simulation has been run").
 */
QString summaryMarkdown(const ExportSource& window);

/**
 * Draws @p panel (its title with the takeaway, the bar chart of the KV panel, the plot) into
 * @p rect of @p painter at that size, the plot as vectors where the device allows.
 */
void renderPanel(QCPPainter& painter, views::PlotPanel* panel, const QRect& rect);

/** The size of the dashboard for plots of @p plotSize. */
QSize dashboardSize(const QSize& plotSize);

/** Every file export() would write (absolute paths), for the question before overwriting: the
 *  five plots and the dashboard, then the other tabs' plots that have something to show (tabPlotStems()). */
QStringList exportTargets(const ExportSource& window, const ExportOptions& options);

/**
 * Writes the plots, the dashboard, the CSVs and the summary of @p window into options.folder (the
 * other tabs' plots too: tabPlotStems(), as images and curvesCsv()),
 * overwriting (each file through QSaveFile: never half-written). With pinned scenarios each one's CSVs
 * are written as well, as "<stem>_<letter>.csv" ("decode_floor_a.csv" for A, "decode_floor_c.csv" for C).
 * Never writes through a symbolic link: a link at a file's name is refused ("is a symbolic link (to TARGET) ...")
 * (QSaveFile would replace the file the link points at). Every target (exportTargets()) is checked first
 * (exportPreflight()): when one check fails nothing is written and the message names the file.
 * @param written receives every path written (may be nullptr)
 * @return "" on success, else one line naming the file and the reason (after the pre-flight only a failed write,
 *         e.g. a full disk, leaves the files before it written)
 */
QString exportAll(ExportSource& window, const ExportOptions& options, QStringList* written = nullptr);

/**
 * The pre-flight of an export, before anything is written or created: "" when every file of @p targets (absolute
 * paths in @p folder) can be written, else one line naming the first problem and ending "nothing was exported":
 * the folder is not one (exportFolderProblem()), the folder (or, when it is missing, the nearest existing folder it
 * would be created in) is not writable, or a target name is a symbolic link (dangling or not), a folder, or not a
 * regular file (a device, pipe or socket), or an existing file its user may not write (read-only).
 */
QString exportPreflight(const QString& folder, const QStringList& targets);

/** The files exportPlanPlot() writes for @p options (absolute paths): plan_pareto.png, .pdf, .svg, .csv of options.formats. */
QStringList planPlotTargets(const ExportOptions& options);

/**
 * Writes the Plan tab's Pareto plot of @p window alone, whatever plan the tab shows (with `ridgeline --plan FILE
 * --export DIR`, the file's: views::PlanTab::showPlanFile()), into options.folder: plan_pareto.png, .pdf and .svg
 * and plan_pareto.csv, those of options.formats (Markdown has no file here), the same files, drawing and columns
 * (views::PlanTab::paretoCsv()) as exportAll() writes for plan_pareto; each through QSaveFile, after the same
 * pre-flight (exportPreflight() of planPlotTargets(): nothing written when a check fails).
 * @param written receives every path written (may be nullptr)
 * @return "" on success, else one line naming the file and the reason
 */
QString exportPlanPlot(ExportSource& window, const ExportOptions& options, QStringList* written = nullptr);

/**
 * Loads the benchmark output at @p path into @p window's "Predict a benchmark" page with the engine @p options and
 * waits (running the event loop, the window stays live) until its prediction is on screen. Returns "" or the
 * reader's message naming the file (--export and --screenshot with --predict).
 */
QString predictInWindow(ExportSource& window, const QString& path, const model::BenchmarkOptions& options);

/**
 * Loads the simulation file @p path into @p window's Simulation tab (its own scenario) and runs it, waiting
 * (the event loop runs; the window stays live) until the outcome is on screen. Returns "" or the reader's or
 * the run's message (--export and --screenshot with --simulate).
 */
QString simulateInWindow(ExportSource& window, const QString& path);

/**
 * Why @p folder cannot be exported into before any work: "" when it can be created or written into, else the reason,
 * e.g. "/tmp/x is a file, not a folder; give a folder to write into" (a file where the folder or one of its parents
 * should be: a wrong option value, exit 2), or "/tmp/x is a symbolic link to a missing target (/gone), not a folder;
 * give a folder to write into" (a dangling link there).
 */
QString exportFolderProblem(const QString& folder);

/**
 * `ridgeline --export DIR`: builds the window offscreen on @p scenario (@p openWindow: a main window, sized and
 * shown; the caller knows its type, this file does not); with options.simulationFile
 * loads it into the Simulation tab (its own scenario) and runs it, with options.calibrationFile loads
 * the measurements into the Calibration tab and fits them against @p scenario, with options.predictFile predicts
 * the benchmark in the Calibration tab's "Predict a benchmark" page (predictInWindow()); then exports and prints
 * each file written on stdout. Without them summary.md says the simulation and calibration plots were
 * not exported and why. Returns 0; 2 with "ridgeline: FILE: …" on stderr when the simulation or
 * measurement file is refused; 1 with "ridgeline: --export DIR: …" when a file cannot be written.
 */
int runExport(const model::Scenario& scenario, const ExportOptions& options,
              const std::function<std::unique_ptr<ExportSource>(const model::Scenario&)>& openWindow);

} // namespace ridgeline::app
