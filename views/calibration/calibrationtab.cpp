// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/calibration/calibrationtab.h"

#include <QCheckBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "model/files/inputfile.h"
#include "model/cost/scenariokeys.h"

#include "views/calibration/benchmarkpredictview.h"
#include "views/calibration/calibrationplot.h"
#include "document/format.h"
#include "views/kit/card.h"
#include "views/kit/palette.h"
#include "views/kit/resulttable.h"
#include "document/scenariodocument.h"
#include "views/whatifs/whatifkit.h"

namespace ridgeline::views {

using namespace whatifkit;

namespace {

QString dash()
{
    return QStringLiteral("\u2013");
}

} // namespace

QString CalibrationTab::examplePath()
{
    return QStringLiteral(":/calibration/example-h100-llama-8b.csv");
}

QString CalibrationTab::exampleScenarioPath()
{
    return QStringLiteral(":/scenarios/llama-3.1-8b-h100.json");
}

CalibrationTab::CalibrationTab(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    setObjectName(QStringLiteral("calibrationTab"));

    // Measurements.
    m_import = new QPushButton(tr("Import\u2026"));
    m_import->setObjectName(QStringLiteral("calibrationImportButton"));
    m_import->setToolTip(tr("Read measured points: a CSV whose header names each column and its unit\n"
                            "(batch or concurrency; context_tokens, or input_tokens and output_tokens, or prompt_tokens;\n"
                            "itl_ms / itl_s / tpot_ms / tpot_s; ttft_ms / ttft_s; \"ITL (ms)\" and \"itl [ms]\" read as itl_ms),\n"
                            "or the JSON result of vLLM's benchmark_serving.py run with --max-concurrency."));
    m_example = new QPushButton(tr("Example"));
    m_example->setObjectName(QStringLiteral("calibrationExampleButton"));
    m_example->setToolTip(tr("Load the shipped example: Llama 3.1 8B on H100 SXM, synthetic, made from \u03b7_bw 0.72, 1.5 ms step\n"
                             "overhead, prefill MFU 0.45 and 8 ms prefill overhead with 1 % noise. Its scenario (that\n"
                             "model on that hardware) replaces the open one, so the fit compares like with like;\n"
                             "Edit > Undo brings yours back."));
    m_source = valueLabel(QStringLiteral("calibrationSourceLabel"), tr("Where the points came from."));
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("calibrationErrorLabel"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: %1; background: %2; border: 1px solid %1; border-radius: 4px; padding: 3px; }")
                               .arg(palette::css(palette::error()), palette::css(palette::errorBackground())));
    m_error->setVisible(false);
    m_fit = new QPushButton(tr("Fit"));
    m_fit->setObjectName(QStringLiteral("calibrationFitButton"));
    m_fit->setDefault(true);
    m_fit->setToolTip(tr("Weighted least squares (weights 1/t: relative errors count) against the window's scenario:\n"
                         "  ITL = overhead + (1/\u03b7_bw) \u00b7 t_mem at peak bandwidth, over the memory-bound points;\n"
                         "  TTFT = overhead + (1/MFU) \u00b7 prefill FLOP / peak FLOP/s.\n"
                         "Standard errors from the residual variance; \u03b7 = 1/slope by the delta method."));

    // Results.
    m_coefficients = resultTable(QStringLiteral("calibrationCoefficientTable"), CoefficientRowCount, CoefficientColumnCount);
    m_coefficients->setHorizontalHeaderLabels({tr("fitted"), tr("\u00b1 s.e."), tr("scenario")});
    m_coefficients->setVerticalHeaderLabels({tr("\u03b7_bw"), tr("Step overhead"), tr("Prefill MFU"), tr("Prefill overhead")});
    m_coefficients->setToolTip(tr("Each coefficient with its standard error; \"kept\" when the data cannot tell it (the\n"
                                  "scenario's value stays). The last column is the window's scenario now."));
    m_errors = resultTable(QStringLiteral("calibrationErrorTable"), ErrorRowCount, ErrorColumnCount);
    m_errors->setHorizontalHeaderLabels({tr("ITL"), tr("TTFT")});
    m_errors->setVerticalHeaderLabels({tr("Points"), tr("MAPE before"), tr("MAPE after"), tr("Max error before"), tr("Max error after")});
    m_errors->setToolTip(tr("Mean absolute percentage error and largest relative error of the cost model against the points,\n"
                            "with the scenario as it was when fitted (before) and with the fitted coefficients (after)."));
    m_notes = valueLabel(QStringLiteral("calibrationNotesLabel"), tr("What the fit could not tell, and why."));
    m_apply = new QPushButton(tr("Apply to scenario"));
    m_apply->setObjectName(QStringLiteral("calibrationApplyButton"));
    m_apply->setToolTip(tr("Write the fitted coefficients into the scenario: efficiency.bandwidth, efficiency.step_overhead_ms,\n"
                           "efficiency.mfu_prefill and efficiency.prefill_overhead_ms (only those the data could fit).\n"
                           "They are scenario keys, so they are saved with the scenario; and since they describe the\n"
                           "hardware and serving stack, not the model, they carry over to other scenarios on the same\n"
                           "hardware (another model, batch or context) as long as you keep the efficiencies.\n"
                           "Refit for other hardware or another engine."));
    m_residuals = new QCheckBox(tr("Show residuals"));
    m_residuals->setObjectName(QStringLiteral("calibrationResidualsCheckBox"));
    m_residuals->setToolTip(tr("Relative residuals (measured / model \u2212 1) under each plot."));

    QFrame* card = whatifkit::card(QStringLiteral("calibrationInputs"));
    auto* importRow = new QHBoxLayout;
    importRow->setSpacing(6);
    importRow->addWidget(m_import, 1);
    importRow->addWidget(m_example, 1);
    auto* fitRow = new QHBoxLayout;
    fitRow->setSpacing(6);
    fitRow->addWidget(m_fit, 1);
    fitRow->addWidget(m_apply, 2);
    auto* cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(10, 8, 10, 8);
    cardLayout->setSpacing(6);
    cardLayout->addWidget(titleLabel(QStringLiteral("calibrationInputsTitle"), tr("Calibration"),
                                     tr("Fit the cost model's efficiencies and fixed overheads to measured latencies.")));
    cardLayout->addLayout(importRow);
    cardLayout->addWidget(m_source);
    cardLayout->addWidget(m_error);
    cardLayout->addLayout(fitRow);
    cardLayout->addWidget(m_coefficients);
    cardLayout->addWidget(m_errors);
    cardLayout->addWidget(m_notes);
    cardLayout->addWidget(m_residuals);

    auto* side = new QWidget;
    side->setObjectName(QStringLiteral("calibrationSide"));
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(card);
    sideLayout->addStretch(1);
    auto* sideScroll = new QScrollArea;
    sideScroll->setObjectName(QStringLiteral("calibrationScroll"));
    sideScroll->setWidget(side);
    sideScroll->setWidgetResizable(true);
    sideScroll->setFrameShape(QFrame::NoFrame);
    sideScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    sideScroll->setStyleSheet(QStringLiteral("QScrollArea { background: transparent; } QWidget#calibrationSide { background: %1; }")
                                  .arg(palette::css(palette::window())));
    sideScroll->setMinimumWidth(330);
    sideScroll->setMaximumWidth(380);

    m_itlPlot = new CalibrationPlot(CalibrationPlot::Kind::Itl);
    m_ttftPlot = new CalibrationPlot(CalibrationPlot::Kind::Ttft);
    auto* plotsLayout = new QVBoxLayout;
    plotsLayout->setSpacing(8);
    plotsLayout->addWidget(m_itlPlot, 1);
    plotsLayout->addWidget(m_ttftPlot, 1);

    m_fitPage = new QWidget;
    m_fitPage->setObjectName(QStringLiteral("calibrationFitPage"));
    auto* fitLayout = new QHBoxLayout(m_fitPage);
    fitLayout->setContentsMargins(0, 8, 0, 0);
    fitLayout->setSpacing(8);
    fitLayout->addWidget(sideScroll);
    fitLayout->addLayout(plotsLayout, 1);

    // Two pages: the fit, and the prediction of a benchmark run on the same scenario (issue 13).
    m_predict = new BenchmarkPredictView(document);
    m_pages = new QTabWidget;
    m_pages->setObjectName(QStringLiteral("calibrationPages"));
    m_pages->setDocumentMode(true);
    for (QWidget* page : {m_fitPage, static_cast<QWidget*>(m_predict)})
        paintThemeBackground(page, Theme::Window); // no palette: the pages' tab bar and controls keep the system's
    m_pages->addTab(m_fitPage, tr("Fit to measurements"));
    m_pages->setTabToolTip(FitPage, tr("Fit the cost model's efficiencies and overheads to measured ITL and TTFT."));
    m_pages->addTab(m_predict, tr("Predict a benchmark"));
    m_pages->setTabToolTip(PredictPage, tr("Open a serving benchmark's output and compare every point with the serving "
                                           "simulator's prediction on this scenario."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_pages);

    connect(m_import, &QPushButton::clicked, this, &CalibrationTab::importFromDialog);
    connect(m_example, &QPushButton::clicked, this, [this] { loadExample(); });
    connect(m_fit, &QPushButton::clicked, this, [this] { fit(); });
    connect(m_apply, &QPushButton::clicked, this, [this] { applyToScenario(); });
    connect(m_residuals, &QCheckBox::toggled, this, [this](bool on) {
        m_itlPlot->setResidualsVisible(on);
        m_ttftPlot->setResidualsVisible(on);
    });
    connect(m_document, &ScenarioDocument::evaluated, this, [this] {
        if (m_fitPage->isVisible())
            refresh();
        else
            m_stale = true;
    });
    connect(m_pages, &QTabWidget::currentChanged, this, [this](int page) {
        if (page == FitPage && m_stale)
            refresh();
    });
    setText(m_source, tr("No measurements: import a CSV or a vLLM benchmark JSON, or load the example."));
    showResult();
    refresh();
}

QList<QCustomPlot*> CalibrationTab::plots() const
{
    return QList<QCustomPlot*>{m_itlPlot->plot(), m_ttftPlot->plot(), m_itlPlot->residualPlot(), m_ttftPlot->residualPlot()}
           + m_predict->plots();
}

void CalibrationTab::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale && m_pages->currentIndex() == FitPage)
        refresh();
}

void CalibrationTab::refresh()
{
    m_stale = false;
    const model::Scenario& s = m_document->evaluatedScenario();
    m_itlPlot->setData(s, m_points, m_result);
    m_ttftPlot->setData(s, m_points, m_result);
    const double values[CoefficientRowCount] = {s.efficiency.bandwidth, s.efficiency.stepOverheadSeconds * 1e3, s.efficiency.mfuPrefill,
                                                s.efficiency.prefillOverheadSeconds * 1e3};
    const QString units[CoefficientRowCount] = {QString(), tr(" ms"), QString(), tr(" ms")};
    for (int row = 0; row < CoefficientRowCount; ++row)
        m_coefficients->item(row, ScenarioColumn)->setText(format::number(values[row]) + units[row]);
    updateEnabled();
}

void CalibrationTab::importFromDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import measurements"), QString(),
                                                      tr("Measurements (*.csv *.json *.jsonl *.txt);;All files (*)"));
    if (!path.isEmpty())
        loadMeasurements(path);
}

QString CalibrationTab::loadMeasurements(const QString& path)
{
    const QString name = QFileInfo(path).fileName();
    QByteArray text;
    if (const std::string e = model::readInputFile(path, text); !e.empty()) {
        const QString message = tr("%1: %2.").arg(name, QString::fromStdString(e));
        showError(message + QLatin1Char(' ') + tr("The previous points are kept."));
        return message; // the command line prints it too: no word of the window's state
    }
    const QByteArray start = text.trimmed().left(1);
    const bool json = path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)
                      || path.endsWith(QStringLiteral(".jsonl"), Qt::CaseInsensitive) || start == "{" || start == "[";
    return setMeasurementsText(text, json, name);
}

QString CalibrationTab::setMeasurementsText(const QByteArray& text, bool json, const QString& source)
{
    std::vector<model::Measurement> points;
    const std::string error = json ? model::parseVllmBenchmarkJson(text, points) : model::parseMeasurementsCsv(text, points);
    if (!error.empty()) {
        const QString message = tr("%1: %2.").arg(source, QString::fromStdString(error));
        showError(message + QLatin1Char(' ') + tr("The previous points are kept."));
        return message; // the command line prints it too: no word of the window's state
    }
    showError(QString());
    m_points = std::move(points);
    m_sourceName = source;
    m_result.reset();
    int itl = 0, ttft = 0;
    for (const model::Measurement& m : m_points) {
        itl += m.itlMs ? 1 : 0;
        ttft += (m.ttftMs && m.promptTokens > 0) ? 1 : 0;
    }
    setText(m_source, tr("%1: %2 (%3 with ITL, %4 with TTFT and a prompt length).")
                          .arg(source, counted(double(m_points.size()), tr("1 point"), tr("%1 points")))
                          .arg(itl)
                          .arg(ttft));
    showResult();
    refresh();
    return QString();
}

QString CalibrationTab::loadExample()
{
    QFile file(exampleScenarioPath());
    model::Scenario scenario = model::defaultScenario();
    std::string error = file.open(QIODevice::ReadOnly) ? model::applyJsonText(scenario, file.readAll())
                                                       : file.errorString().toStdString();
    if (!error.empty()) {
        const QString message = tr("The example's scenario could not be read: %1.").arg(QString::fromStdString(error));
        showError(message);
        return message;
    }
    if (const QString message = loadMeasurements(examplePath()); !message.isEmpty())
        return message;
    m_document->setScenario(scenario);
    setText(m_source, m_source->text() + QLatin1Char(' ')
                          + tr("Measured on %1 on %2: that scenario is now open (Edit > Undo brings yours back).")
                                .arg(QString::fromStdString(scenario.model.name), QString::fromStdString(scenario.hardware.name)));
    return QString();
}

QString CalibrationTab::fit()
{
    if (m_points.empty()) {
        const QString message = tr("Nothing to fit: import measurements first.");
        showError(message);
        return message;
    }
    m_document->evaluateNow(); // against the scenario the window shows, not one still pending
    model::CalibrationResult result;
    const std::string error = model::calibrate(m_document->evaluatedScenario(), m_points, result);
    if (!error.empty()) {
        const QString message = tr("No fit: %1.").arg(QString::fromStdString(error));
        showError(message);
        return message;
    }
    showError(QString());
    m_result = std::move(result);
    showResult();
    refresh();
    showError(applyRefusal()); // a fit faster than the floor is shown, and why it cannot be applied
    return QString();
}

QString CalibrationTab::applyRefusal() const
{
    if (!m_result)
        return QString();
    const model::CalibrationResult& r = *m_result;
    QStringList above;
    if (r.bandwidthEfficiency.fitted && r.bandwidthEfficiency.value > 1)
        above << tr("\u03b7_bw %1").arg(format::number(r.bandwidthEfficiency.value, 3));
    if (r.mfuPrefill.fitted && r.mfuPrefill.value > 1)
        above << tr("prefill MFU %1").arg(format::number(r.mfuPrefill.value, 3));
    if (above.isEmpty())
        return QString();
    return tr("Not applied: the fit gives %1, above 1, so the points are faster than %2 on %3 can run at peak. "
              "They were not measured on this model and hardware: open the scenario they were measured on "
              "(or correct its bandwidth and peak FLOP/s) and fit again.")
        .arg(above.join(tr(" and ")), QString::fromStdString(r.calibrated.model.name),
             QString::fromStdString(r.calibrated.hardware.name));
}

bool CalibrationTab::applyToScenario()
{
    if (!m_result)
        return false;
    const model::CalibrationResult& r = *m_result;
    const model::Efficiency fitted = r.calibrated.efficiency;
    const bool bandwidth = r.bandwidthEfficiency.fitted;
    const bool prefill = r.mfuPrefill.fitted;
    if (!bandwidth && !prefill)
        return false;
    if (const QString refusal = applyRefusal(); !refusal.isEmpty()) {
        showError(refusal);
        return false;
    }
    m_document->edit([fitted, bandwidth, prefill](model::Scenario& s) {
        if (bandwidth) {
            s.efficiency.bandwidth = fitted.bandwidth;
            s.efficiency.stepOverheadSeconds = fitted.stepOverheadSeconds;
        }
        if (prefill) {
            s.efficiency.mfuPrefill = fitted.mfuPrefill;
            s.efficiency.prefillOverheadSeconds = fitted.prefillOverheadSeconds;
        }
    });
    return true;
}

void CalibrationTab::showError(const QString& message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

void CalibrationTab::showResult()
{
    auto setRow = [this](int row, const std::optional<model::Coefficient>& c, int digits, const QString& unit) {
        if (!c) {
            m_coefficients->item(row, ValueColumn)->setText(dash());
            m_coefficients->item(row, StandardErrorColumn)->setText(dash());
            return;
        }
        m_coefficients->item(row, ValueColumn)->setText(format::number(c->value, digits) + unit + (c->fitted ? QString() : tr(" (kept)")));
        m_coefficients->item(row, StandardErrorColumn)
            ->setText(c->fitted && c->standardError ? format::number(*c->standardError, 2) + unit : dash());
    };
    const model::CalibrationResult* r = m_result ? &*m_result : nullptr;
    setRow(BandwidthRow, r ? std::optional(r->bandwidthEfficiency) : std::nullopt, 3, QString());
    setRow(StepOverheadRow, r ? std::optional(r->stepOverheadMs) : std::nullopt, 3, tr(" ms"));
    setRow(MfuPrefillRow, r ? std::optional(r->mfuPrefill) : std::nullopt, 3, QString());
    setRow(PrefillOverheadRow, r ? std::optional(r->prefillOverheadMs) : std::nullopt, 3, tr(" ms"));

    auto setErrors = [this](int column, const model::FitError* e) {
        const bool any = e && e->points > 0;
        m_errors->item(PointsRow, column)->setText(e ? format::integer(e->points) : dash());
        m_errors->item(MapeBeforeRow, column)->setText(any ? format::percent(e->mapeBefore) : dash());
        m_errors->item(MapeAfterRow, column)->setText(any ? format::percent(e->mapeAfter) : dash());
        m_errors->item(MaxBeforeRow, column)->setText(any ? format::percent(e->maxErrorBefore) : dash());
        m_errors->item(MaxAfterRow, column)->setText(any ? format::percent(e->maxErrorAfter) : dash());
    };
    setErrors(ItlColumn, r ? &r->itl : nullptr);
    setErrors(TtftColumn, r ? &r->ttft : nullptr);

    QStringList notes;
    if (r) {
        for (const std::string& note : r->notes)
            notes << QStringLiteral("\u2022 ") + QString::fromStdString(note);
    }
    setText(m_notes, notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!notes.isEmpty());
    updateEnabled();
}

void CalibrationTab::updateEnabled()
{
    m_fit->setEnabled(!m_points.empty());
    m_apply->setEnabled(m_result && (m_result->bandwidthEfficiency.fitted || m_result->mfuPrefill.fitted)
                        && applyRefusal().isEmpty());
}

} // namespace ridgeline::views
