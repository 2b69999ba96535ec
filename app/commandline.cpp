// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/commandline.h"

#include <cstdio>
#include <memory>
#include <tuple>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QIcon>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QRegularExpression>
#include <QScreen>
#include <QTabWidget>

#include "app/export.h"
#include "app/exportsource.h"
#include "app/mainwindow.h"
#include "app/options.h"
#include "app/report.h"
#include "app/plancommand.h"
#include "app/predictcommand.h"
#include "app/simulatecommand.h"
#include "model/cost/costmodel.h"
#include "model/cost/efficiencypresets.h"
#include "model/analysis/calibration.h"
#include "model/cost/hardwarecatalogue.h"
#include "model/files/hfconfig.h"
#include "model/files/inputfile.h"
#include "model/cost/presets.h"
#include "model/analysis/triage.h"
#include "model/cost/scenariokeys.h"
#include "views/calibration/calibrationtab.h"
#include "views/plan/plantab.h"
#include "document/baseline.h"
#include "document/scenariodocument.h"
#include "views/whatifs/whatifstabs.h"

namespace ridgeline::app {

namespace {

constexpr int kExitFailure = 1;


int fail(int code, const QString& message)
{
    printLine(stderr, QStringLiteral("ridgeline: ") + message);
    return code;
}

/**
 * --screenshot at a --size below the window's minimum: the window keeps its minimum (a smaller one would overlap
 * its widgets), so the PNG is larger than asked; one line on stderr says so, with the size rendered (@p rendered,
 * pixels) and the window's minimum. Nothing when the size was honoured.
 */
void noteClampedSize(const QWidget& window, QSize requested, QSize rendered)
{
    if (rendered.width() <= requested.width() && rendered.height() <= requested.height())
        return;
    const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
    printLine(stderr, QStringLiteral("ridgeline: --size %1x%2 is below the window's minimum (%3x%4); rendered at %5x%6")
                          .arg(requested.width())
                          .arg(requested.height())
                          .arg(minimum.width())
                          .arg(minimum.height())
                          .arg(rendered.width())
                          .arg(rendered.height()));
}

bool hasAny(int argc, char** argv, std::initializer_list<const char*> names)
{
    for (int i = 1; i < argc; ++i) {
        QByteArray arg(argv[i]);
        if (arg.size() > 2 && arg[0] == '-' && arg[1] != '-')
            arg.prepend('-'); // "-report" is read as "--report" (single-dash long options)
        for (const char* n : names)
            if (arg == n || arg.startsWith(QByteArray(n) + '=') || (qstrlen(n) == 2 && qstrcmp(argv[i], n) == 0))
                return true;
    }
    return false;
}

QString helpText()
{
    QString keys;
    for (const model::KeyInfo& k : model::scenarioKeys()) {
        const QString name = QString::fromUtf8(k.key.data(), qsizetype(k.key.size()));
        QString unit = QString::fromUtf8(k.unit.data(), qsizetype(k.unit.size()));
        if (!unit.isEmpty())
            unit = QStringLiteral(" [") + unit + QLatin1Char(']');
        keys += QStringLiteral("  %1 %2%3\n").arg(name.leftJustified(26), QString::fromUtf8(k.help.data(), qsizetype(k.help.size())), unit);
    }
    return QStringLiteral(
               "Usage: ridgeline [FILE] [options]\n"
               "Ridgeline: what-if explorer for the cost of serving large language models.\n"
               "Opens the window on FILE (a scenario JSON) or on the default scenario\n"
               "(Llama 3.1 8B bf16 on H100 SXM, batch 1, context 2,048, efficiencies 1.0: the floor).\n\n"
               "Options:\n"
               "  --report               print the evaluation without a display, then exit\n"
               "  --triage FILE          classify an incident ticket (JSON) against the scenario's floors\n"
               "                         and print the reasoning and the six-line standup\n"
               "  --simulate FILE        run the serving simulator on a simulation file (JSON) and print\n"
               "                         the aggregates (and the max-sequences sweep when asked);\n"
               "                         --format text|json|csv (CSV: one row per rate of a rate sweep)\n"
               "  --rate-sweep FROM:TO:STEPS  with --simulate: simulate the workload open loop at STEPS rates\n"
               "                         from FROM to TO requests/s in all (the file's rates scaled, a trace\n"
               "                         time-compressed), report goodput and SLO attainment per rate and\n"
               "                         the highest rate holding the attainment target (bisected, in\n"
               "                         log space while the bracket spans more than a decade); FROM at\n"
               "                         least min(10, requests) / duration_s, or requests / 1e7 without\n"
               "                         a duration_s (the run must see requests at that rate)\n"
               "  --attainment X         with a rate sweep: the target fraction of requests meeting both\n"
               "                         SLOs (default 0.99)\n"
               "  --calibrate DATA       fit eta_bw, MFU and overheads to measurements (CSV with units in\n"
               "                         the header, or vLLM serving-benchmark JSON); prints JSON\n"
               "  --predict FILE         predict a serving benchmark's output (vLLM / SGLang JSON, GenAI-Perf /\n"
               "                         AIPerf JSON or CSV, llmperf summary, CSV) with the serving simulator:\n"
               "                         measured vs predicted ITL and TTFT per point, residuals and MAPE\n"
               "                         (--format text|json|csv; with --scenario and --set); with\n"
               "                         --screenshot or --export: the Calibration tab's \"Predict a\n"
               "                         benchmark\" page on FILE (its plots predict_itl, predict_ttft)\n"
               "  --scheduler v1|v0|trtllm  with --predict: vLLM V1 (default; no whole-prompt KV reservation), V0,\n"
               "                         or TensorRT-LLM in-flight batching (whole prompts within the token\n"
               "                         budget, no chunked context; prompt + output KV reserved at admission);\n"
               "                         also v0-prompt-first: vLLM V0 without chunked prefill (a step of whole\n"
               "                         prompts first, decodes waiting). The scenario's serving.scheduler\n"
               "                         replaces it when set\n"
               "  --token-budget N       with --predict: tokens per step shared by decodes and prefill chunks (8192;\n"
               "                         the scenario's serving.max_num_tokens replaces it when set)\n"
               "  --max-sequences N      with --predict: sequences holding a slot (256)\n"
               "  --format text|json|csv output format (default text): text or json for --report and --triage;\n"
               "                         csv too with --plan, --simulate, --predict, --list-hardware, --compare\n"
               "  --plan FILE            fleet plan: search devices x GPU counts x parallel layouts x batch caps\n"
               "                         (colocated and disaggregated) for the load and SLOs in FILE (JSON; see\n"
               "                         resources/plans/) and print the ranked plans, $ per 1M tokens, J per token,\n"
               "                         why each excluded device fails; --format text|json|csv (default text).\n"
               "                         With --export DIR also writes the plan's Pareto plot into DIR\n"
               "                         (plan_pareto.png, .pdf, .svg and plan_pareto.csv, as --export names\n"
               "                         them; --size, --dpi); with --screenshot FILE.png renders the window\n"
               "                         with the Plan tab showing the plan (--size); the plans still print.\n"
               "                         A search or simulator checks over the work budget are refused\n"
               "                         before they run, naming the fields (see docs/performance.md)\n"
               "  --list-hardware        print the hardware catalogue (memory, bandwidth, dense peaks per\n"
               "                         dtype, ridge point, board power, link, scale-up domain, sources),\n"
               "                         then exit;\n"
               "                         --format text|json|csv (default text)\n"
               "  --scenario FILE        start from this scenario JSON file\n"
               "  --compare FILE         with --report: print the scenario (A) and FILE (B) side by side\n"
               "                         with B / A for every figure (--set applies to both); repeatable:\n"
               "                         each further FILE is C, D, ... (N-way, with C / A, ...);\n"
               "                         --format text|json|csv; scenarios of one name are told apart by\n"
               "                         their file names. With --screenshot instead: the same letters\n"
               "                         pinned in the window (the scenario A, each FILE B to F, five at\n"
               "                         most), the scenario live beside them\n"
               "  --model-config FILE    import the model from a HuggingFace config.json (after --scenario)\n"
               "  --set KEY=VALUE        set one scenario field after the file (repeatable)\n"
               "  --efficiency PRESET    every efficiency from a preset calibrated on a measured benchmark,\n"
               "                         before --set: h100-trtllm-inflight, h100-trtllm-static, a100-trtllm-static\n"
               "  --set hardware.preset=NAME\n"
               "                         load every catalogue figure of one device (id or name from\n"
               "                         --list-hardware, e.g. h200 or \"H100 SXM\"), keeping hardware.gpus;\n"
               "                         in order with the other --set (later ones override its figures)\n"
               "  --screenshot FILE.png  render the whole window offscreen to a PNG, then exit; with\n"
               "                         --simulate FILE, the Simulation tab with that file run\n"
               "  --size WxH             window size for --screenshot (default 1600x1000; below the window's\n"
               "                         minimum, about 430 px wide, it renders at the minimum and says so\n"
               "                         on stderr); with --export the size of each plot (default 720x480,\n"
               "                         the dashboard is 3 x 2)\n"
               "  --export DIR           write every plot of every tab and the dashboard (PNG, PDF, SVG), each\n"
               "                         plot's curves (CSV) and summary.md into DIR without a display, then\n"
               "                         exit; with --simulate FILE, --calibrate DATA and/or --predict FILE\n"
               "                         their plots too\n"
               "                         (else summary.md says why they are missing);\n"
               "                         --format png,pdf,svg,csv,md picks some (default all); overwrites\n"
               "  --dpi N                PNG resolution for --export (default 96: one pixel per pixel)\n"
               "  -h, --help             show this help\n"
               "  -v, --version          show the version\n\n"
               "Scenario keys (scenario files nest the same names: {\"model\": {\"params\": 8.03e9}}):\n")
        + keys
        + QStringLiteral("\nExit status, in every mode: 0 success; 1 an output not written (a file, an export's files, a\n"
                         "screenshot, standard output: full disk, permissions, a link at its name) or no display;\n"
                         "2 a bad option, key, value or input file (an --export folder that is a file or a dangling\n"
                         "link included: it is refused before anything runs).\n");
}

/** Drops two benign notices of headless runs (the offscreen plugin, a missing XDG runtime dir) so
 *  that stderr carries only what concerns the user; everything else goes to Qt's handler. */
QtMessageHandler g_defaultHandler = nullptr;
void headlessMessageHandler(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type == QtWarningMsg
        && (message.contains(QLatin1String("propagateSizeHints")) || message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR"))))
        return;
    if (g_defaultHandler)
        g_defaultHandler(type, context, message);
}

/** --size WxH: the window's size with --screenshot, each plot's with --export; 320x240 to 10000x10000 pixels, else an
 *  empty size (sizeOptionMessage() says why). */
QSize sizeOption(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"));
    const QRegularExpressionMatch m = re.match(text);
    const int w = m.hasMatch() ? m.captured(1).toInt() : 0;
    const int h = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (w < 320 || h < 240 || w > 10000 || h > 10000)
        return {};
    return QSize(w, h);
}

QString sizeOptionMessage(const QString& text)
{
    return QStringLiteral("--size %1: expected WxH between 320x240 and 10000x10000, e.g. 1600x1000").arg(text);
}

} // namespace

QString buildScenario(const QString& scenarioFile, const QStringList& assignments, model::Scenario& out)
{
    QStringList notes;
    return buildScenario(scenarioFile, QString(), assignments, out, notes);
}

QString buildScenario(const QString& scenarioFile, const QString& modelConfigFile, const QStringList& assignments,
                      model::Scenario& out, QStringList& notes)
{
    return buildScenario(scenarioFile, modelConfigFile, QByteArray(), assignments, out, notes);
}

QString buildScenario(const QString& scenarioFile, const QString& modelConfigFile, const QByteArray& overlay,
                      const QStringList& assignments, model::Scenario& out, QStringList& notes)
{
    model::Scenario s = model::defaultScenario();
    if (!scenarioFile.isEmpty()) {
        QByteArray bytes;
        if (const std::string err = model::readInputFile(scenarioFile, bytes); !err.empty())
            return scenarioFile + QStringLiteral(": ") + QString::fromStdString(err);
        if (const std::string err = model::applyJsonText(s, bytes); !err.empty())
            return scenarioFile + QStringLiteral(": ") + QString::fromStdString(err);
    }
    if (!modelConfigFile.isEmpty()) {
        QByteArray bytes;
        if (const std::string err = model::readInputFile(modelConfigFile, bytes); !err.empty())
            return modelConfigFile + QStringLiteral(": ") + QString::fromStdString(err);
        model::ImportedModel imported;
        if (const std::string err = model::importHfConfig(bytes, imported); !err.empty())
            return modelConfigFile + QStringLiteral(": ") + QString::fromStdString(err);
        const QFileInfo info(modelConfigFile);
        imported.shape.name = model::oneLineText(
            info.dir().dirName() != QLatin1String(".") && info.fileName() == QLatin1String("config.json")
                ? info.dir().dirName().toStdString()
                : info.completeBaseName().toStdString());
        s.model = imported.shape;
        for (const std::string& n : imported.notes)
            notes << QString::fromStdString(n);
    }
    if (!overlay.isEmpty())
        if (const std::string err = model::applyJsonText(s, overlay); !err.empty())
            return QStringLiteral("the ticket's \"scenario\": ") + QString::fromStdString(err);
    for (const QString& a : assignments) {
        const qsizetype eq = a.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return QStringLiteral("--set ") + a + QStringLiteral(": expected KEY=VALUE, e.g. --set workload.batch=64");
        const std::string key = a.left(eq).trimmed().toStdString();
        const std::string value = a.mid(eq + 1).toStdString();
        if (key == "hardware.preset") { // every catalogue figure of one device (not a scenario key: nothing to save)
            if (const std::string err = model::applyHardwarePreset(s, a.mid(eq + 1).trimmed().toStdString()); !err.empty())
                return QStringLiteral("--set ") + a + QStringLiteral(": ") + QString::fromStdString(err);
            continue;
        }
        if (const std::string err = model::setKey(s, key, value); !err.empty())
            return QStringLiteral("--set ") + a + QStringLiteral(": ") + QString::fromStdString(err);
    }
    // hardware.peak_flops is the bf16 peak (docs/cost-model.md, "Peak FLOP/s"): with fp8 or int8 weights on a
    // device that has that peak, the matmuls keep running at it. Say so rather than let the change look ignored.
    for (const QString& a : assignments) {
        if (a.left(a.indexOf(QLatin1Char('='))).trimmed() != QLatin1String("hardware.peak_flops"))
            continue;
        const std::string_view inUse = model::matmulPeakKey(s.hardware, s.model.weightDtype);
        if (inUse != "hardware.peak_flops") {
            const QString dtype = QString::fromUtf8(model::dtypeName(s.model.weightDtype));
            notes << QStringLiteral("--set hardware.peak_flops sets the bf16 peak; the %1 weights' matmuls run at %2 = %3, "
                                    "which it leaves unchanged (set %2 to change the peak in use)")
                         .arg(dtype, QString::fromUtf8(inUse.data(), qsizetype(inUse.size())),
                              QString::fromStdString(model::getKey(s, inUse)));
        }
        break;
    }
    if (const int trained = s.model.maxPositionEmbeddings; trained > 0) {
        const int longest = std::max(s.workload.contextTokens, s.serving.maxContextTokens);
        if (longest > trained)
            notes << QStringLiteral("the context (workload.context_tokens %1, serving.max_context_tokens %2) is longer than the "
                                    "model was trained for (model.max_position_embeddings %3); the cost is computed all the same")
                         .arg(s.workload.contextTokens).arg(s.serving.maxContextTokens).arg(trained);
    }
    const std::vector<model::ScenarioError> errors = model::validate(s);
    if (!errors.empty()) {
        QStringList messages;
        for (const auto& e : errors)
            messages << QString::fromStdString(e.message);
        QStringList sources;
        if (!scenarioFile.isEmpty())
            sources << scenarioFile;
        if (!modelConfigFile.isEmpty())
            sources << modelConfigFile;
        if (!assignments.isEmpty())
            sources << QStringLiteral("--set");
        return (sources.isEmpty() ? QString() : sources.join(QStringLiteral(" + ")) + QStringLiteral(": "))
               + QStringLiteral("invalid scenario: ") + messages.join(QStringLiteral("; "));
    }
    out = std::move(s);
    return {};
}

QString triageText(const model::Scenario& scenario, const QByteArray& ticketJson, bool json, QString* error)
{
    model::TriageInput input;
    QByteArray ignoredScenario; // applied by the caller through buildScenario
    if (const std::string err = model::parseTriageInput(ticketJson, input, &ignoredScenario); !err.empty()) {
        *error = QString::fromStdString(err);
        return {};
    }
    const model::TriageResult r = model::triage(scenario, input);
    auto list = [](const std::vector<std::string>& items) {
        QStringList out;
        for (const std::string& i : items)
            out << QString::fromStdString(i);
        return out;
    };
    if (json) {
        const model::Standup& st = r.standup;
        QJsonObject o{
            {QStringLiteral("class"), QString::fromStdString(model::ticketClassId(r.ticketClass))},
            {QStringLiteral("class_name"), QString::fromStdString(model::ticketClassName(r.ticketClass))},
            {QStringLiteral("reasoning"), QJsonArray::fromStringList(list(r.reasoning))},
            {QStringLiteral("metric_to_plot"), QString::fromStdString(r.metricToPlot)},
            {QStringLiteral("plausible_cause"), QString::fromStdString(r.plausibleCause)},
            {QStringLiteral("fixes_that_can_work"), QJsonArray::fromStringList(list(r.fixesThatCanWork))},
            {QStringLiteral("fixes_that_cannot"), QJsonArray::fromStringList(list(r.fixesThatCannot))},
            {QStringLiteral("floors"), QJsonObject{{QStringLiteral("decode_floor_ms"), r.decodeFloorMs},
                                                   {QStringLiteral("expected_itl_ms"), r.expectedItlMs},
                                                   {QStringLiteral("prefill_floor_ms"), r.prefillFloorMs},
                                                   {QStringLiteral("kv_budget_bytes"), r.kvBudgetBytes}}},
            {QStringLiteral("standup"),
             QJsonObject{{QStringLiteral("symptom"), QString::fromStdString(st.symptom)},
                         {QStringLiteral("phase"), QString::fromStdString(st.phase)},
                         {QStringLiteral("floor"), QString::fromStdString(st.floor)},
                         {QStringLiteral("happening"), QString::fromStdString(st.happening)},
                         {QStringLiteral("change"), QString::fromStdString(st.change)},
                         {QStringLiteral("verify"), QString::fromStdString(st.verify)},
                         {QStringLiteral("text"), QString::fromStdString(st.text())}}},
        };
        return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)).trimmed();
    }
    QString text = QStringLiteral("Phase: ") + QString::fromStdString(model::ticketClassName(r.ticketClass)) + QStringLiteral("\n\nReasoning\n");
    for (const QString& line : list(r.reasoning))
        text += QStringLiteral("  - ") + line + QLatin1Char('\n');
    text += QStringLiteral("\nMetric to plot: ") + QString::fromStdString(r.metricToPlot);
    text += QStringLiteral("\nPlausible cause: ") + QString::fromStdString(r.plausibleCause);
    text += QStringLiteral("\nFixes that can work:\n  - ") + list(r.fixesThatCanWork).join(QStringLiteral("\n  - "));
    text += QStringLiteral("\nFixes that cannot:\n  - ") + list(r.fixesThatCannot).join(QStringLiteral("\n  - "));
    text += QStringLiteral("\n\nStandup\n") + QString::fromStdString(r.standup.text());
    return text.trimmed();
}

QString calibrationJson(const model::Scenario& scenario, const QByteArray& data, const QString& path, QString* error)
{
    std::vector<model::Measurement> rows;
    const QByteArray head = data.trimmed().left(1);
    const bool json = path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) || path.endsWith(QLatin1String(".jsonl"), Qt::CaseInsensitive)
                      || head == "{" || head == "[";
    std::string err = json ? model::parseVllmBenchmarkJson(data, rows) : model::parseMeasurementsCsv(data, rows);
    model::CalibrationResult result;
    if (err.empty())
        err = model::calibrate(scenario, rows, result);
    if (!err.empty()) {
        *error = QString::fromStdString(err);
        return {};
    }
    auto coefficient = [](const model::Coefficient& c) {
        return QJsonObject{{QStringLiteral("value"), c.value},
                           {QStringLiteral("standard_error"), c.standardError ? QJsonValue(*c.standardError) : QJsonValue(QJsonValue::Null)},
                           {QStringLiteral("fitted"), c.fitted}};
    };
    auto fitError = [](const model::FitError& e) {
        return QJsonObject{{QStringLiteral("points"), e.points},
                           {QStringLiteral("mape_before"), e.mapeBefore},
                           {QStringLiteral("mape_after"), e.mapeAfter},
                           {QStringLiteral("max_error_before"), e.maxErrorBefore},
                           {QStringLiteral("max_error_after"), e.maxErrorAfter}};
    };
    QStringList notes;
    for (const std::string& n : result.notes)
        notes << QString::fromStdString(n);
    const QJsonObject o{
        {QStringLiteral("points"), int(rows.size())},
        {QStringLiteral("coefficients"),
         QJsonObject{{QStringLiteral("bandwidth_efficiency"), coefficient(result.bandwidthEfficiency)},
                     {QStringLiteral("step_overhead_ms"), coefficient(result.stepOverheadMs)},
                     {QStringLiteral("mfu_prefill"), coefficient(result.mfuPrefill)},
                     {QStringLiteral("prefill_overhead_ms"), coefficient(result.prefillOverheadMs)}}},
        {QStringLiteral("itl"), fitError(result.itl)},
        {QStringLiteral("ttft"), fitError(result.ttft)},
        {QStringLiteral("notes"), QJsonArray::fromStringList(notes)},
        {QStringLiteral("scenario"), model::toJson(result.calibrated)},
    };
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)).trimmed();
}

void printLine(FILE* stream, const QString& line)
{
    QString shown = line;
    if (stream == stderr) {
        shown.clear();
        for (const QChar c : line) {
            if (c.unicode() < 0x20 || c.unicode() == 0x7f)
                shown += QStringLiteral("\\x") + QString::number(c.unicode(), 16).rightJustified(2, QLatin1Char('0')).toUpper();
            else
                shown += c;
        }
    }
    const QByteArray bytes = shown.toLocal8Bit();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    std::fputc('\n', stream);
    std::fflush(stream);
}

namespace {

constexpr int kParsed = -1; ///< parseCommandLine(): go on to the mode

/**
 * Parses and checks the command line of the running application into @p o. Returns kParsed, or the exit code
 * after printing one line on stderr (2: a bad option, value, key or file; 1: no display for the window).
 * @p noDisplay: the window was asked for but cannot open (checked after every option, so bad options still exit 2).
 */
int parseCommandLine(Options& o, bool noDisplay)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption reportOpt(QStringLiteral("report"));
    const QCommandLineOption formatOpt(QStringLiteral("format"), QString(), QStringLiteral("text|json"), QStringLiteral("text"));
    const QCommandLineOption scenarioOpt(QStringLiteral("scenario"), QString(), QStringLiteral("FILE"));
    const QCommandLineOption simulateOpt(QStringLiteral("simulate"), QString(), QStringLiteral("FILE"));
    const QCommandLineOption compareOpt(QStringLiteral("compare"), QString(), QStringLiteral("FILE"));
    const QCommandLineOption calibrateOpt(QStringLiteral("calibrate"), QString(), QStringLiteral("DATA"));
    const QCommandLineOption triageOpt(QStringLiteral("triage"), QString(), QStringLiteral("FILE"));
    const QCommandLineOption predictOpt(QStringLiteral("predict"), QString(), QStringLiteral("FILE"));
    const QCommandLineOption schedulerOpt(QStringLiteral("scheduler"), QString(), QStringLiteral("v1|v0|v0-prompt-first|trtllm"));
    const QCommandLineOption tokenBudgetOpt(QStringLiteral("token-budget"), QString(), QStringLiteral("N"));
    const QCommandLineOption maxSequencesOpt(QStringLiteral("max-sequences"), QString(), QStringLiteral("N"));
    const QCommandLineOption modelConfigOpt(QStringLiteral("model-config"), QString(), QStringLiteral("FILE"));
    const QCommandLineOption setOpt(QStringLiteral("set"), QString(), QStringLiteral("KEY=VALUE"));
    const QCommandLineOption efficiencyOpt(QStringLiteral("efficiency"), QString(), QStringLiteral("PRESET"));
    const QCommandLineOption screenshotOpt(QStringLiteral("screenshot"), QString(), QStringLiteral("FILE.png"));
    const QCommandLineOption sizeOpt(QStringLiteral("size"), QString(), QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption exportOpt(QStringLiteral("export"), QString(), QStringLiteral("DIR"));
    const QCommandLineOption dpiOpt(QStringLiteral("dpi"), QString(), QStringLiteral("N"), QStringLiteral("96"));
    const QCommandLineOption helpOpt(QStringList{QStringLiteral("h"), QStringLiteral("help")});
    const QCommandLineOption versionOpt(QStringList{QStringLiteral("v"), QStringLiteral("version")});
    const QCommandLineOption listHardwareOpt(QStringLiteral("list-hardware"));
    const QCommandLineOption planOpt(QStringLiteral("plan"), QString(), QStringLiteral("FILE"));
    const QCommandLineOption rateSweepOpt(QStringLiteral("rate-sweep"), QString(), QStringLiteral("FROM:TO:STEPS"));
    const QCommandLineOption attainmentOpt(QStringLiteral("attainment"), QString(), QStringLiteral("X"));
    parser.addOptions({reportOpt, simulateOpt, compareOpt, calibrateOpt, triageOpt, formatOpt, scenarioOpt, modelConfigOpt, setOpt, screenshotOpt, sizeOpt, exportOpt, dpiOpt, helpOpt, versionOpt,
                       predictOpt, schedulerOpt, tokenBudgetOpt, maxSequencesOpt, listHardwareOpt, efficiencyOpt, planOpt,
                       rateSweepOpt, attainmentOpt});
    parser.addPositionalArgument(QStringLiteral("file"), QString(), QStringLiteral("[FILE]"));

    if (!parser.parse(QCoreApplication::arguments()))
        return fail(kExitBadInput, parser.errorText() + QStringLiteral(" (see ridgeline --help)"));
    if (parser.isSet(helpOpt)) {
        o.help = true;
        return kParsed;
    }
    if (parser.isSet(versionOpt)) {
        o.version = true;
        return kParsed;
    }

    // Options that take one value: given twice, or with an empty value, is a mistake, not a choice.
    for (const QCommandLineOption* o : {&formatOpt, &scenarioOpt, &simulateOpt, &calibrateOpt, &triageOpt,
                                        &modelConfigOpt, &screenshotOpt, &sizeOpt, &exportOpt, &dpiOpt, &predictOpt, &schedulerOpt,
                                        &tokenBudgetOpt, &maxSequencesOpt, &efficiencyOpt, &planOpt, &rateSweepOpt, &attainmentOpt}) {
        const QStringList values = parser.values(*o);
        const QString name = QStringLiteral("--") + o->names().constFirst();
        if (values.size() > 1)
            return fail(kExitBadInput, name + QStringLiteral(" is given %1 times; give it once").arg(values.size()));
        if (values.size() == 1 && values.constFirst().trimmed().isEmpty())
            return fail(kExitBadInput, name + QStringLiteral(": empty value"));
    }
    // --compare is repeatable (an N-way comparison), each value a file.
    for (const QString& value : parser.values(compareOpt))
        if (value.trimmed().isEmpty())
            return fail(kExitBadInput, QStringLiteral("--compare: empty value"));
    if (parser.values(compareOpt).size() > 25)
        return fail(kExitBadInput, QStringLiteral("--compare is given %1 times; 25 at most (B to Z)").arg(parser.values(compareOpt).size()));
    if (parser.isSet(planOpt)) {
        // The plan file holds model, load, SLOs, candidates and prices: every other option but --format, and the
        // Pareto plot's --export DIR or --screenshot FILE.png (with --size, --dpi), is a mistake.
        static const QStringList withPlan{QStringLiteral("plan"), QStringLiteral("format"), QStringLiteral("export"),
                                          QStringLiteral("screenshot"), QStringLiteral("size"), QStringLiteral("dpi")};
        for (const QString& name : parser.optionNames())
            if (!withPlan.contains(name))
                return fail(kExitBadInput, QStringLiteral("--plan goes alone (with --format text|json|csv, and --export DIR or "
                                                          "--screenshot FILE.png with --size, --dpi), not with %1%2")
                                               .arg(name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--"), name));
        if (!parser.positionalArguments().isEmpty())
            return fail(kExitBadInput, QStringLiteral("--plan takes no FILE besides its own (\"%1\")").arg(parser.positionalArguments().constFirst()));
        const QString planFormat = parser.value(formatOpt);
        if (planFormat != QLatin1String("text") && planFormat != QLatin1String("json") && planFormat != QLatin1String("csv"))
            return fail(kExitBadInput, QStringLiteral("--format %1: expected text, json or csv with --plan (the ranked plans; "
                                                      "--export writes the Pareto plot as PNG, PDF, SVG and CSV)").arg(planFormat));
        if (parser.isSet(exportOpt) && parser.isSet(screenshotOpt))
            return fail(kExitBadInput, QStringLiteral("--plan with --export and --screenshot: give one of them"));
        if (parser.isSet(dpiOpt) && !parser.isSet(exportOpt))
            return fail(kExitBadInput, QStringLiteral("--dpi goes with --export"));
        if (parser.isSet(sizeOpt) && !parser.isSet(exportOpt) && !parser.isSet(screenshotOpt))
            return fail(kExitBadInput, QStringLiteral("--size goes with --screenshot or --export"));
        o.planFile = parser.value(planOpt);
        o.format = planFormat;
        o.screenshotFile = parser.value(screenshotOpt);
        o.exportMode = parser.isSet(exportOpt);
        o.exportOptions.folder = parser.value(exportOpt);
        if (parser.isSet(sizeOpt)) { // as below: the window's size with --screenshot, each plot's with --export
            o.size = sizeOption(parser.value(sizeOpt));
            if (o.size.isEmpty())
                return fail(kExitBadInput, sizeOptionMessage(parser.value(sizeOpt)));
            o.exportOptions.size = o.size;
        }
        if (parser.isSet(dpiOpt)) {
            bool ok = false;
            o.exportOptions.dpi = parser.value(dpiOpt).toInt(&ok);
            if (!ok || o.exportOptions.dpi < 48 || o.exportOptions.dpi > 600)
                return fail(kExitBadInput, QStringLiteral("--dpi %1: expected a whole number from 48 to 600").arg(parser.value(dpiOpt)));
        }
        return kParsed;
    }
    if (parser.isSet(listHardwareOpt)) {
        // The built-in catalogue only: no scenario, so every other option is a mistake.
        for (const QString& name : parser.optionNames())
            if (name != QLatin1String("list-hardware") && name != QLatin1String("format"))
                return fail(kExitBadInput, QStringLiteral("--list-hardware goes alone (with --format text|json|csv), not with %1%2")
                                               .arg(name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--"), name));
        if (!parser.positionalArguments().isEmpty())
            return fail(kExitBadInput, QStringLiteral("--list-hardware takes no FILE (\"%1\")").arg(parser.positionalArguments().constFirst()));
        const QString listFormat = parser.value(formatOpt);
        if (listFormat != QLatin1String("text") && listFormat != QLatin1String("json") && listFormat != QLatin1String("csv"))
            return fail(kExitBadInput, QStringLiteral("--format %1: expected text, json or csv with --list-hardware").arg(listFormat));
        o.listHardware = true;
        o.format = listFormat;
        return kParsed;
    }
    {
        QStringList modes;
        for (const QCommandLineOption* o : {&reportOpt, &triageOpt, &simulateOpt, &calibrateOpt, &predictOpt}) // --export checks its own
            if (parser.isSet(*o) && !(parser.isSet(exportOpt) && (o == &simulateOpt || o == &calibrateOpt || o == &predictOpt))
                && !(parser.isSet(screenshotOpt) && o == &predictOpt)) // --screenshot --predict FILE: the window's prediction
                modes << QStringLiteral("--") + o->names().constFirst();
        if (modes.size() > 1)
            return fail(kExitBadInput, modes.join(QStringLiteral(" and ")) + QStringLiteral(": give one of --report, --triage, "
                                                                                          "--simulate, --calibrate, --predict"));
        for (const QCommandLineOption* o : {&schedulerOpt, &tokenBudgetOpt, &maxSequencesOpt})
            if (parser.isSet(*o) && !parser.isSet(predictOpt))
                return fail(kExitBadInput, QStringLiteral("--") + o->names().constFirst() + QStringLiteral(" goes with --predict"));
        if (parser.isSet(compareOpt) && !parser.isSet(reportOpt) && !parser.isSet(screenshotOpt))
            return fail(kExitBadInput, QStringLiteral("--compare goes with --report (or --screenshot: pinned in the window)"));
    }
    if (noDisplay)
        return fail(kExitFailure, QStringLiteral("no display found (DISPLAY and WAYLAND_DISPLAY are unset); "
                                                 "use --report, or --screenshot FILE.png, or run in a desktop session"));

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
        return fail(kExitBadInput, QStringLiteral("unexpected argument \"%1\" (one scenario FILE at most)").arg(positional.at(1)));
    if (!positional.isEmpty() && parser.isSet(scenarioOpt))
        return fail(kExitBadInput, QStringLiteral("give the scenario either as FILE or with --scenario, not both"));
    o.scenarioFile = parser.isSet(scenarioOpt) ? parser.value(scenarioOpt) : positional.value(0);
    o.modelConfigFile = parser.value(modelConfigOpt);
    o.restoreSession = o.scenarioFile.isEmpty() && !parser.isSet(setOpt) && !parser.isSet(modelConfigOpt) && !parser.isSet(efficiencyOpt);
    o.report = parser.isSet(reportOpt);
    o.compareFiles = parser.values(compareOpt);
    o.compareFile = o.compareFiles.value(0);
    o.calibrateFile = parser.value(calibrateOpt);
    o.predictFile = parser.value(predictOpt);
    o.screenshotFile = parser.value(screenshotOpt);
    o.exportMode = parser.isSet(exportOpt);

    ExportOptions& exportOptions = o.exportOptions;
    if (parser.isSet(exportOpt)) {
        if (parser.isSet(reportOpt) || parser.isSet(triageOpt) || parser.isSet(compareOpt) || parser.isSet(screenshotOpt))
            return fail(kExitBadInput, QStringLiteral("--export goes alone (with --scenario, --set, --model-config, --simulate, "
                                                      "--calibrate, --predict, --format, --size, --dpi)"));
        exportOptions.folder = parser.value(exportOpt);
        exportOptions.simulationFile = parser.value(simulateOpt);
        exportOptions.calibrationFile = parser.value(calibrateOpt);
        exportOptions.predictFile = parser.value(predictOpt);
        if (parser.isSet(formatOpt))
            if (const QString err = parseExportFormats(parser.value(formatOpt), exportOptions.formats); !err.isEmpty())
                return fail(kExitBadInput, QStringLiteral("--format: ") + err);
        bool ok = false;
        exportOptions.dpi = parser.value(dpiOpt).toInt(&ok);
        if (!ok || exportOptions.dpi < 48 || exportOptions.dpi > 600)
            return fail(kExitBadInput, QStringLiteral("--dpi %1: expected a whole number from 48 to 600").arg(parser.value(dpiOpt)));
    } else if (parser.isSet(dpiOpt)) {
        return fail(kExitBadInput, QStringLiteral("--dpi goes with --export"));
    }
    o.format = parser.isSet(exportOpt) ? QStringLiteral("text") : parser.value(formatOpt);
    const QString& format = o.format;
    if (parser.isSet(predictOpt) && parser.isSet(screenshotOpt) && parser.isSet(formatOpt))
        return fail(kExitBadInput, QStringLiteral("--format goes with --predict alone, not with --screenshot"));
    if (parser.isSet(simulateOpt) && parser.isSet(screenshotOpt) && !parser.isSet(exportOpt)
        && (parser.isSet(formatOpt) || parser.isSet(rateSweepOpt) || parser.isSet(attainmentOpt)))
        return fail(kExitBadInput, QStringLiteral("--format, --rate-sweep and --attainment go with --simulate alone, not with --screenshot "
                                                  "(the screenshot shows the file's own rate_sweep, when it has one)"));
    if ((parser.isSet(rateSweepOpt) || parser.isSet(attainmentOpt)) && !parser.isSet(simulateOpt))
        return fail(kExitBadInput, QStringLiteral("--rate-sweep and --attainment need --simulate FILE"));
    if ((parser.isSet(rateSweepOpt) || parser.isSet(attainmentOpt)) && parser.isSet(exportOpt)) // said even without --export (a trial)
        return fail(kExitBadInput, QStringLiteral("--rate-sweep and --attainment go with --simulate FILE, not with --export (a simulation "
                                                  "file's own \"rate_sweep\" is exported)"));
    if (parser.isSet(predictOpt) || (parser.isSet(simulateOpt) && !parser.isSet(exportOpt)) || parser.isSet(compareOpt)) {
        if (format != QLatin1String("text") && format != QLatin1String("json") && format != QLatin1String("csv"))
            return fail(kExitBadInput, QStringLiteral("--format %1: expected text, json or csv").arg(format));
    } else if (format != QLatin1String("text") && format != QLatin1String("json"))
        return fail(kExitBadInput, QStringLiteral("--format %1: expected text or json").arg(format));
    if (parser.isSet(formatOpt) && !parser.isSet(reportOpt) && !parser.isSet(triageOpt) && !parser.isSet(simulateOpt)
        && !parser.isSet(exportOpt) && !parser.isSet(predictOpt))
        return fail(kExitBadInput, QStringLiteral("--format goes with --report, --triage, --simulate, --predict or --export"));
    model::BenchmarkOptions& benchmarkOptions = o.benchmarkOptions;
    if (parser.isSet(schedulerOpt)) {
        const QString v = parser.value(schedulerOpt).toLower();
        const std::optional<model::SchedulerVersion> parsed = model::parseSchedulerName(v.toStdString());
        if (!parsed)
            return fail(kExitBadInput,
                        QStringLiteral("--scheduler %1: expected v1, v0, v0-prompt-first or trtllm").arg(parser.value(schedulerOpt)));
        benchmarkOptions.scheduler = *parsed;
    }
    for (const auto& [opt, field, max] : {std::tuple{&tokenBudgetOpt, &benchmarkOptions.tokenBudget, 1000000},
                                          std::tuple{&maxSequencesOpt, &benchmarkOptions.maxSequences, 100000}}) {
        if (!parser.isSet(*opt))
            continue;
        bool ok = false;
        const int v = parser.value(*opt).toInt(&ok);
        if (!ok || v < 1 || v > max)
            return fail(kExitBadInput, QStringLiteral("--%1 %2: expected a whole number from 1 to %3")
                                           .arg(opt->names().constFirst(), parser.value(*opt), QLocale(QLocale::English).toString(max)));
        *field = v;
    }
    QByteArray& ticket = o.ticket;
    QByteArray& ticketScenario = o.ticketScenario;
    if (parser.isSet(triageOpt)) {
        const QString path = parser.value(triageOpt);
        o.triageFile = path;
        if (const std::string err = model::readInputFile(path, ticket); !err.empty())
            return fail(kExitBadInput, path + QStringLiteral(": ") + QString::fromStdString(err));
        model::TriageInput probe;
        if (const std::string err = model::parseTriageInput(ticket, probe, &ticketScenario); !err.empty())
            return fail(kExitBadInput, path + QStringLiteral(": ") + QString::fromStdString(err));
    }

    QSize& size = o.size;
    {
        size = sizeOption(parser.value(sizeOpt));
        if (size.isEmpty())
            return fail(kExitBadInput, sizeOptionMessage(parser.value(sizeOpt)));
        if (parser.isSet(sizeOpt) && !parser.isSet(screenshotOpt) && !parser.isSet(exportOpt))
            return fail(kExitBadInput, QStringLiteral("--size goes with --screenshot or --export"));
        if (parser.isSet(sizeOpt))
            exportOptions.size = size;
    }

    // --efficiency PRESET: the preset's coefficients as --set assignments before the user's own, which win.
    QStringList& assignments = o.assignments;
    if (parser.isSet(efficiencyOpt)) {
        const model::EfficiencyPreset* preset = model::findEfficiencyPreset(parser.value(efficiencyOpt).trimmed().toStdString());
        if (!preset)
            return fail(kExitBadInput, QStringLiteral("--efficiency %1: no such preset; expected one of %2")
                                           .arg(parser.value(efficiencyOpt), QString::fromStdString(model::efficiencyPresetIds())));
        const model::Efficiency& e = preset->efficiency;
        const auto number = [](double v) { return QString::number(v, 'g', 17); };
        assignments << QStringLiteral("efficiency.bandwidth=") + number(e.bandwidth)
                    << QStringLiteral("efficiency.mfu_prefill=") + number(e.mfuPrefill)
                    << QStringLiteral("efficiency.mfu_decode=") + number(e.mfuDecode)
                    << QStringLiteral("efficiency.step_overhead_ms=") + number(e.stepOverheadSeconds * 1e3)
                    << QStringLiteral("efficiency.prefill_overhead_ms=") + number(e.prefillOverheadSeconds * 1e3)
                    << QStringLiteral("efficiency.chunk_overhead_ms=") + number(e.chunkOverheadSeconds * 1e3)
                    << QStringLiteral("efficiency.per_sequence_overhead_us=") + number(e.perSequenceOverheadSeconds * 1e6)
                    << QStringLiteral("efficiency.kv_bandwidth=") + number(e.kvBandwidth)
                    << QStringLiteral("efficiency.kv_bandwidth_one_sequence=") + number(e.kvBandwidthOneSequence)
                    << QStringLiteral("efficiency.mfu_prefill_attention=") + number(e.mfuPrefillAttention)
                    << QStringLiteral("efficiency.ttft_overhead_ms=") + number(e.ttftOverheadSeconds * 1e3)
                    << QStringLiteral("serving.max_num_tokens=") + QString::number(preset->maxNumTokens);
        if (!parser.isSet(schedulerOpt)) // the scheduler the preset was fitted with, unless named
            benchmarkOptions.scheduler = preset->scheduler;
    }
    assignments << parser.values(setOpt);

    if (parser.isSet(simulateOpt) && !parser.isSet(exportOpt)) {
        if (parser.isSet(scenarioOpt) || parser.isSet(setOpt) || parser.isSet(modelConfigOpt) || parser.isSet(efficiencyOpt))
            return fail(kExitBadInput, QStringLiteral("--simulate takes its scenario from the simulation file's \"scenario\" object"));
        SimulateOptions& simulateOptions = o.simulateOptions;
        simulateOptions.format = format;
        if (parser.isSet(rateSweepOpt)) {
            model::RateSweep sweep;
            if (const QString err = parseRateSweepOption(parser.value(rateSweepOpt), sweep); !err.isEmpty())
                return fail(kExitBadInput, err);
            simulateOptions.rateSweep = sweep;
        }
        if (parser.isSet(attainmentOpt)) {
            bool ok = false;
            const double x = parser.value(attainmentOpt).toDouble(&ok);
            if (!ok || !(x > 0 && x <= 1))
                return fail(kExitBadInput, QStringLiteral("--attainment %1: expected a fraction in (0, 1], e.g. 0.99").arg(parser.value(attainmentOpt)));
            simulateOptions.attainment = x;
        }
        o.simulateFile = parser.value(simulateOpt);
    }
    return kParsed;
}

/**
 * --plan FILE: the ranked plans (runPlan()); with --export DIR also the file's Pareto plot (plan_pareto.png, .pdf,
 * .svg, .csv: exportPlanPlot()), with --screenshot FILE.png the window (on the plan's model, efficiencies and serving)
 * with the Plan tab showing the file's plan. The plans go to stdout as without them; a bad file exits 2 before
 * anything is drawn, an export folder that is a file exits 2 before anything is printed.
 */
int runPlanMode(const Options& o)
{
    if (!o.exportMode && o.screenshotFile.isEmpty())
        return runPlan(o.planFile, o.format);
    if (o.exportMode)
        if (const QString problem = exportFolderProblem(o.exportOptions.folder); !problem.isEmpty())
            return fail(kExitBadInput, QStringLiteral("--export %1: %2").arg(QDir::toNativeSeparators(o.exportOptions.folder), problem));
    model::PlanFile plan;
    if (const int code = runPlan(o.planFile, o.format, &plan); code != 0)
        return code;
    MainWindow window(plan.request.scenario);
    window.resize(o.exportMode ? QSize(1600, 1000) : o.size);
    window.show();
    window.document()->evaluateNow();
    QCoreApplication::processEvents();
    views::PlanTab* planTab = window.whatIfTabs()->planTab();
    planTab->showPlanFile(plan, o.planFile);
    if (o.exportMode) {
        if (const QString error = exportPlanPlot(window, o.exportOptions); !error.isEmpty())
            return fail(kExitFailure, QStringLiteral("--export %1: %2").arg(QDir::toNativeSeparators(o.exportOptions.folder), error));
        return 0;
    }
    window.whatIfTabs()->setCurrentIndex(views::WhatIfTabs::PlanTab);
    window.flushForScreenshot();
    QCoreApplication::processEvents();
    const QImage image = window.grab().toImage();
    if (image.isNull())
        return fail(kExitFailure, QStringLiteral("--screenshot %1: the window could not be rendered").arg(o.screenshotFile));
    noteClampedSize(window, o.size, image.size());
    if (const QString why = savePng(image, o.screenshotFile); !why.isEmpty())
        return fail(kExitFailure, QStringLiteral("--screenshot %1: cannot write the PNG: %2").arg(o.screenshotFile, why));
    return 0;
}

/** --list-hardware: the built-in catalogue as text, JSON or CSV. */
int runListHardware(const Options& o)
{
    if (o.format == QLatin1String("json"))
        printLine(stdout, QString::fromUtf8(model::catalogueJson()).trimmed());
    else if (o.format == QLatin1String("csv"))
        printLine(stdout, model::catalogueCsv());
    else
        printLine(stdout, model::catalogueText());
    return 0;
}

/** --export DIR: the window built offscreen on @p scenario, exported (app/export.h, runExport()). */
int runExportMode(const model::Scenario& scenario, const Options& o)
{
    ExportOptions exportOptions = o.exportOptions;
    exportOptions.benchmarkOptions = o.benchmarkOptions;
    return runExport(scenario, exportOptions, [](const model::Scenario& s) {
        auto window = std::make_unique<MainWindow>(s);
        window->resize(1600, 1000);
        window->show();
        return std::unique_ptr<ExportSource>(std::move(window));
    });
}

/** --calibrate DATA: the fit of @p scenario to the measurements, as JSON. */
int runCalibrate(const model::Scenario& scenario, const Options& o)
{
    const QString& path = o.calibrateFile;
    QByteArray data;
    if (const std::string err = model::readInputFile(path, data); !err.empty())
        return fail(kExitBadInput, path + QStringLiteral(": ") + QString::fromStdString(err));
    QString error;
    const QString text = calibrationJson(scenario, data, path, &error);
    if (!error.isEmpty())
        return fail(kExitBadInput, path + QStringLiteral(": ") + error);
    printLine(stdout, text);
    return 0;
}

/** --triage FILE: the ticket's triage against @p scenario, as text or JSON. */
int runTriage(const model::Scenario& scenario, const Options& o)
{
    QString error;
    const QString text = triageText(scenario, o.ticket, o.format == QLatin1String("json"), &error);
    if (!error.isEmpty())
        return fail(kExitBadInput, o.triageFile + QStringLiteral(": ") + error);
    printLine(stdout, text);
    return 0;
}

/**
 * --report --compare FILE given several times (or with --format csv): @p scenario (A) against each FILE (B, C, ...;
 * the same model config, ticket and --set), one column each and each one's ratio to A.
 */
int runCompareMany(const model::Scenario& scenario, const Options& o)
{
    std::vector<model::Scenario> scenarios{scenario};
    for (qsizetype i = 0; i < o.compareFiles.size(); ++i) {
        model::Scenario other;
        QStringList otherNotes;
        if (const QString err = buildScenario(o.compareFiles[i], o.modelConfigFile, o.ticketScenario, o.assignments, other, otherNotes);
            !err.isEmpty())
            return fail(kExitBadInput, QStringLiteral("--compare (%1): ").arg(comparedLetter(int(i) + 1)) + err);
        scenarios.push_back(other);
    }
    std::vector<model::Evaluation> evaluations;
    for (const model::Scenario& s : scenarios)
        evaluations.push_back(model::evaluate(s));
    // Each letter's file, so that scenarios of one name are told apart by it (as the window's pins are).
    const QStringList files = QStringList{o.scenarioFile} + o.compareFiles;
    if (o.format == QLatin1String("json"))
        printLine(stdout, QString::fromUtf8(QJsonDocument(compareJson(scenarios, evaluations, files)).toJson(QJsonDocument::Indented)).trimmed());
    else if (o.format == QLatin1String("csv"))
        printLine(stdout, compareCsv(scenarios, evaluations, files).trimmed());
    else
        printLine(stdout, compareText(scenarios, evaluations, files).trimmed());
    return 0;
}

/** --report --compare FILE: @p scenario against the scenario in FILE (the same model config, ticket and --set). */
int runCompare(const model::Scenario& scenario, const Options& o)
{
    if (o.compareFiles.size() > 1 || o.format == QLatin1String("csv"))
        return runCompareMany(scenario, o);
    model::Scenario other;
    QStringList otherNotes;
    if (const QString err = buildScenario(o.compareFile, o.modelConfigFile, o.ticketScenario, o.assignments, other, otherNotes);
        !err.isEmpty())
        return fail(kExitBadInput, QStringLiteral("--compare: ") + err);
    const model::Evaluation ea = model::evaluate(scenario), eb = model::evaluate(other);
    if (o.format == QLatin1String("json"))
        printLine(stdout, QString::fromUtf8(QJsonDocument(compareJson(scenario, ea, other, eb)).toJson(QJsonDocument::Indented)).trimmed());
    else
        printLine(stdout, compareText(scenario, ea, other, eb, {o.scenarioFile, o.compareFile}).trimmed());
    return 0;
}

/** --report: @p scenario's evaluation as text or JSON, with the @p notes of the model config import. */
void runReport(const model::Scenario& scenario, const QStringList& notes, const Options& o)
{
    const model::Evaluation evaluation = model::evaluate(scenario);
    if (o.format == QLatin1String("json")) {
        QJsonObject report = reportJson(scenario, evaluation);
        if (!o.modelConfigFile.isEmpty())
            report.insert(QStringLiteral("import_notes"), QJsonArray::fromStringList(notes));
        if (!notes.isEmpty())
            report.insert(QStringLiteral("notes"), QJsonArray::fromStringList(notes));
        printLine(stdout, QString::fromUtf8(QJsonDocument(report).toJson(QJsonDocument::Indented)).trimmed());
    } else {
        QString text = reportText(scenario, evaluation).trimmed();
        if (!notes.isEmpty())
            text += (!o.modelConfigFile.isEmpty() ? QStringLiteral("\n\nImport notes\n  - ") : QStringLiteral("\n\nNotes\n  - "))
                    + notes.join(QStringLiteral("\n  - "));
        printLine(stdout, text);
    }
}

/** --screenshot FILE.png: the window on @p scenario, offscreen at --size (with --predict: the prediction page). */
int runScreenshot(const model::Scenario& scenario, const Options& o)
{
    const QString& path = o.screenshotFile;
    MainWindow window(scenario);
    window.resize(o.size);
    window.show();
    window.document()->evaluateNow();
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    if (!o.report && !o.compareFiles.isEmpty()) {
        // --screenshot --compare FILE...: the letters of --report --compare (h14k: the window's A was the first FILE, the
        // report's the scenario): the scenario pinned as A, each FILE in order as B, C, ... (five at most), and the
        // scenario live beside them, so the numbers' ratios are the report's B / A, C / A.
        if (o.compareFiles.size() > document::PinnedScenarios::kMaxPinned - 1)
            return fail(kExitBadInput, QStringLiteral("--compare with --screenshot: %1 files, %2 at most (B to F; the scenario is A)")
                                           .arg(o.compareFiles.size())
                                           .arg(document::PinnedScenarios::kMaxPinned - 1));
        window.pinNext(o.scenarioFile.isEmpty() ? QStringLiteral("defaults") : QFileInfo(o.scenarioFile).fileName());
        for (const QString& file : o.compareFiles) {
            model::Scenario other;
            QStringList otherNotes;
            if (const QString err = buildScenario(file, o.modelConfigFile, o.ticketScenario, o.assignments, other, otherNotes);
                !err.isEmpty())
                return fail(kExitBadInput, QStringLiteral("--compare: ") + err);
            window.document()->edit([&other](model::Scenario& s) { s = other; });
            window.document()->evaluateNow();
            window.pinNext(QFileInfo(file).fileName());
        }
        window.document()->edit([&scenario](model::Scenario& s) { s = scenario; });
        window.document()->evaluateNow();
        window.flushForScreenshot();
    }
    if (!o.simulateFile.isEmpty()) {
        // --screenshot --simulate FILE: the Simulation tab, once the file's run is on screen.
        window.whatIfTabs()->setCurrentIndex(views::WhatIfTabs::SimulationTab);
        if (const QString err = simulateInWindow(window, o.simulateFile); !err.isEmpty())
            return fail(kExitBadInput, QStringLiteral("--simulate %1: %2").arg(o.simulateFile, err));
        window.flushForScreenshot();
    }
    if (!o.predictFile.isEmpty()) {
        // The Calibration tab's "Predict a benchmark" page, once the prediction is on screen.
        window.whatIfTabs()->setCurrentIndex(views::WhatIfTabs::CalibrationTab);
        window.whatIfTabs()->calibrationTab()->pages()->setCurrentIndex(views::CalibrationTab::PredictPage);
        if (const QString err = predictInWindow(window, o.predictFile, o.benchmarkOptions); !err.isEmpty())
            return fail(kExitBadInput, QStringLiteral("--predict %1: %2").arg(o.predictFile, err));
        window.flushForScreenshot();
    }
    const QImage image = window.grab().toImage();
    if (image.isNull())
        return fail(kExitFailure, QStringLiteral("--screenshot %1: the window could not be rendered").arg(path));
    noteClampedSize(window, o.size, image.size());
    if (const QString why = savePng(image, path); !why.isEmpty())
        return fail(kExitFailure, QStringLiteral("--screenshot %1: cannot write the PNG: %2").arg(path, why));
    return 0;
}

/** No mode: the window, with the user's session (last scenario, geometry, recent files). */
int runGui(const model::Scenario& scenario, const Options& o)
{
    MainWindow window(scenario);
    window.resize(QSize(1600, 1000).boundedTo(QGuiApplication::primaryScreen()->availableSize()));
    // The user's session: only here, never for scripts or tests. A scenario given on the command line wins
    // over the restored one.
    window.startInteractiveSession(o.scenarioFile, o.restoreSession);
    window.show();
    return QApplication::exec();
}

} // namespace

int run(int argc, char** argv)
{
    const bool wantsScreenshot = hasAny(argc, argv, {"--screenshot", "--export"}); // both render offscreen
    const bool headless = !wantsScreenshot && hasAny(argc, argv, {"--report", "--triage", "--calibrate", "--simulate", "--predict", "--list-hardware", "--plan", "--help", "-h", "--version", "-v"});
    if (wantsScreenshot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    g_defaultHandler = qInstallMessageHandler(headlessMessageHandler);
    // Without a display the window cannot open: parse anyway (bad options still exit 2), then say so.
    const bool noDisplay = !headless && !wantsScreenshot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")
                           && qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");

    std::unique_ptr<QCoreApplication> app;
    if (headless || noDisplay)
        app = std::make_unique<QCoreApplication>(argc, argv);
    else
        app = std::make_unique<QApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("Ridgeline"));
    QCoreApplication::setOrganizationName(QStringLiteral("Ridgeline"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RIDGELINE_VERSION));
    if (!headless && !noDisplay) {
        // Lets Wayland and the menu match the window to io.github.ridgeline.Ridgeline.desktop.
        QGuiApplication::setDesktopFileName(QStringLiteral("io.github.ridgeline.Ridgeline"));
        QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/io.github.ridgeline.Ridgeline.svg")));
    }

    Options o;
    if (const int code = parseCommandLine(o, noDisplay); code != kParsed)
        return code;

    // One function per mode, in the order the modes take precedence.
    if (o.help) {
        printLine(stdout, helpText());
        return 0;
    }
    if (o.version) {
        printLine(stdout, QStringLiteral("ridgeline ") + QStringLiteral(RIDGELINE_VERSION));
        return 0;
    }
    // --screenshot never writes through a link, as --export does not: a loop or a dangling link was silently replaced
    // or its missing target created (adversarial trial, stop 31). Checked before anything runs.
    if (!o.screenshotFile.isEmpty() && QFileInfo(o.screenshotFile).isSymLink()) {
        const QString why = model::isSymlinkLoop(o.screenshotFile)
                                ? QString::fromStdString(model::brokenSymlinkText(o.screenshotFile))
                                : QStringLiteral("is a symbolic link (to %1)").arg(QDir::toNativeSeparators(QFileInfo(o.screenshotFile).symLinkTarget()));
        // An output that is not written: exit 1, as --export's link at a target's name (it was 2 here: h14k).
        return fail(kExitFailure, QStringLiteral("--screenshot %1: %2; the screenshot does not write through links: remove the link or "
                                                 "give another name; nothing was written")
                                       .arg(QDir::toNativeSeparators(o.screenshotFile), why));
    }
    if (!o.planFile.isEmpty())
        return runPlanMode(o);
    if (o.listHardware)
        return runListHardware(o);
    if (!o.simulateFile.isEmpty() && !o.exportMode && o.screenshotFile.isEmpty())
        return runSimulate(o.simulateFile, o.simulateOptions);

    model::Scenario scenario;
    QStringList notes;
    if (const QString err = buildScenario(o.scenarioFile, o.modelConfigFile, o.ticketScenario, o.assignments, scenario, notes);
        !err.isEmpty())
        return fail(kExitBadInput, err);

    if (o.exportMode)
        return runExportMode(scenario, o);
    if (!o.predictFile.isEmpty() && o.screenshotFile.isEmpty())
        return runPredict(o.predictFile, scenario, o.scenarioFile, o.benchmarkOptions, o.format);
    if (!o.calibrateFile.isEmpty())
        return runCalibrate(scenario, o);
    if (!o.triageFile.isEmpty()) { // goes on to --report and --screenshot when given with them
        if (const int code = runTriage(scenario, o); code != 0 || (!o.report && o.screenshotFile.isEmpty()))
            return code;
    }
    if (!o.compareFile.isEmpty() && o.report) {
        // The comparison, then the screenshot when one is asked for too (it was silently skipped: a trial).
        if (const int code = runCompare(scenario, o); code != 0 || o.screenshotFile.isEmpty())
            return code;
        return runScreenshot(scenario, o);
    }
    if (o.report)
        runReport(scenario, notes, o); // then the screenshot, when both are asked for
    if (!o.screenshotFile.isEmpty())
        return runScreenshot(scenario, o);
    if (o.report)
        return 0;
    return runGui(scenario, o);
}

} // namespace ridgeline::app
