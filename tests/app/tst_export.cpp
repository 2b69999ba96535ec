// SPDX-License-Identifier: GPL-3.0-or-later
// Export: the real binary writes every format headless (PNG, PDF, SVG, CSV, Markdown), non-empty,
// the CSV values equal to the model's; bad paths and formats fail with one line; the window's
// export writes the same files.

#include <QAbstractButton>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "app/commandline.h"
#include "app/export.h"
#include "app/exportdialog.h"
#include "app/mainwindow.h"
#include "model/cost/costmodel.h"
#include "views/calibration/benchmarkpredictview.h"
#include "views/calibration/calibrationtab.h"
#include "views/whatifs/capacityplot.h"
#include "document/scenariodocument.h"
#include "views/simulation/simulationplots.h"
#include "views/simulation/simulationtab.h"
#include "views/whatifs/speculativeplot.h"
#include "views/whatifs/whatifstabs.h"

namespace model = ridgeline::model;
namespace app = ridgeline::app;
namespace views = ridgeline::views;

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Result runRidgeline(const QStringList& args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), QDir::tempPath() + QStringLiteral("/ridgeline-export-test-config"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(RIDGELINE_BINARY), args);
    if (!p.waitForFinished(120000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/** Parses a CSV written by plotCsv: header and rows of doubles (empty cells are NaN). */
QList<QList<double>> rows(const QByteArray& csv, QByteArray* header)
{
    QList<QByteArray> lines = csv.split('\n');
    *header = lines.takeFirst();
    QList<QList<double>> out;
    for (const QByteArray& line : lines) {
        if (line.isEmpty())
            continue;
        QList<double> row;
        for (const QByteArray& cell : line.split(','))
            row << (cell.isEmpty() ? qQNaN() : cell.toDouble());
        out << row;
    }
    return out;
}

} // namespace

class TestExport final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void headlessExportWritesEveryFormat();
    void csvValuesAreTheModels();
    void unwritableFolderFails();
    void linkAtATargetIsRefused();
    void preflightWritesNothing();
    void danglingFolderLinkIsNamed();
    void rateSweepPlotsAreExported();
    void badOptionsAreRefused();
    void windowExportListsAndWrites();
    void everyTabIsExported();
    void hiddenPlanPlotExportsItsLegend();
    void headlessExportRunsSimulationAndCalibration();
    void dialogKeepsTheOptions();

private:
    QTemporaryDir m_dir;
};

void TestExport::headlessExportWritesEveryFormat()
{
    const QString out = m_dir.filePath(QStringLiteral("all"));
    const Result r = runRidgeline({QStringLiteral("--export"), out, QStringLiteral("--set"), QStringLiteral("workload.batch=8"),
                                   QStringLiteral("--size"), QStringLiteral("640x400"), QStringLiteral("--dpi"), QStringLiteral("192")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    const QDir dir(out);
    QStringList expectedFiles;
    // The floors, the dashboard and the tabs that need no run (capacity, workload, speculative, plan).
    const QStringList tabStems = app::tabPlotStems().mid(0, 4) << QStringLiteral("plan_pareto");
    const QStringList imageStems = app::plotStems() << QStringLiteral("dashboard") << tabStems;
    for (const QString& stem : imageStems)
        for (const char* suffix : {".png", ".pdf", ".svg"})
            expectedFiles << stem + QString::fromLatin1(suffix);
    for (const QString& stem : app::plotStems() + tabStems)
        expectedFiles << stem + QStringLiteral(".csv");
    expectedFiles << QStringLiteral("summary.md");
    for (const QString& name : expectedFiles) {
        const QString path = dir.filePath(name);
        QVERIFY2(QFileInfo(path).size() > (name.startsWith(QStringLiteral("workload_")) && name.endsWith(QStringLiteral(".csv")) ? 60 : 200),
                 qPrintable(name)); // the workload CSV is two bars
        QVERIFY2(r.out.contains(QDir::toNativeSeparators(path).toLocal8Bit()), qPrintable(name)); // listed on stdout
    }
    QCOMPARE(dir.entryList(QDir::Files).size(), expectedFiles.size());
    // PNG at the size and DPI asked for; the dashboard is 3 x 2 plots.
    const QImage plot(dir.filePath(QStringLiteral("decode_floor.png")));
    QCOMPARE(plot.size(), QSize(1280, 800));
    QCOMPARE(qRound(plot.dotsPerMeterX() * 0.0254), 192);
    const QImage dashboard(dir.filePath(QStringLiteral("dashboard.png")));
    QCOMPARE(dashboard.size(), app::dashboardSize(QSize(640, 400)) * 2);
    QVERIFY(readFile(dir.filePath(QStringLiteral("slo.pdf"))).startsWith("%PDF"));
    const QByteArray svg = readFile(dir.filePath(QStringLiteral("roofline.svg")));
    QVERIFY(svg.contains("<svg") && svg.contains("viewBox=\"0 0 640 400\"") && svg.contains("Roofline"));
    const QString md = QString::fromUtf8(readFile(dir.filePath(QStringLiteral("summary.md"))));
    QVERIFY(md.startsWith(QStringLiteral("# Ridgeline summary: Llama 3.1 8B on H100 SXM")));
    QVERIFY(md.contains(QStringLiteral("B = 8")));
    // Without a run the simulation and calibration plots are not written, and the summary says why.
    QVERIFY2(md.contains(QStringLiteral("## Not exported")), qPrintable(md));
    QVERIFY(md.contains(QStringLiteral("Simulation: no simulation has been run")));
    QVERIFY(md.contains(QStringLiteral("Calibration: no measurements are loaded")));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("simulation_itl_timeline.png"))));
    const QImage capacity(dir.filePath(QStringLiteral("capacity_sequences.png")));
    QCOMPARE(capacity.size(), QSize(1280, 800));

    // A subset, overwriting what is there (scripts).
    const Result again = runRidgeline({QStringLiteral("--export"), out, QStringLiteral("--format"), QStringLiteral("csv,md")});
    QVERIFY2(again.exitCode == 0, again.err.constData());
    QCOMPARE(again.out.count('\n'), 5 + 5 + 1); // floors, tabs (with plan_pareto), summary
}

void TestExport::csvValuesAreTheModels()
{
    const QString out = m_dir.filePath(QStringLiteral("csv"));
    const Result r = runRidgeline({QStringLiteral("--export"), out, QStringLiteral("--format"), QStringLiteral("csv"),
                                   QStringLiteral("--set"), QStringLiteral("workload.context_tokens=8192"),
                                   QStringLiteral("--set"), QStringLiteral("model.kv_dtype=fp8")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    model::Scenario s;
    QVERIFY(app::buildScenario(QString(), {QStringLiteral("workload.context_tokens=8192"), QStringLiteral("model.kv_dtype=fp8")}, s).isEmpty());
    const model::Evaluation e = model::evaluate(s);

    QByteArray header;
    const QList<QList<double>> decode = rows(readFile(QDir(out).filePath(QStringLiteral("decode_floor.csv"))), &header);
    QCOMPARE(header, QByteArray("batch,t_step_ms,t_mem_ms,t_comp_ms,tokens_per_s_total,weight_floor_ms,t_comm_ms"));
    QCOMPARE(decode.size(), model::Sweeps::kBatchPoints);
    for (int i = 0; i < decode.size(); ++i) {
        QCOMPARE(decode[i][0], e.sweeps.batch[i]);
        QCOMPARE(decode[i][1], e.sweeps.stepMs[i]); // exact: shortest round-trip text
        QCOMPARE(decode[i][2], e.sweeps.memoryMs[i]);
        QCOMPARE(decode[i][3], e.sweeps.computeMs[i]);
        QCOMPARE(decode[i][4], e.sweeps.tokensPerSecondTotal[i]);
    }
    const QList<QList<double>> kv = rows(readFile(QDir(out).filePath(QStringLiteral("kv_share.csv"))), &header);
    QCOMPARE(header, QByteArray("context_tokens,kv_share_fraction"));
    for (int i = 0; i < kv.size(); ++i)
        QCOMPARE(kv[i][1], e.sweeps.kvShare[i]);
    const QList<QList<double>> prefill = rows(readFile(QDir(out).filePath(QStringLiteral("prefill_crossover.csv"))), &header);
    QCOMPARE(header, QByteArray("prompt_tokens,linear_flop,attention_flop,total_flop,prefill_ms"));
    QCOMPARE(prefill.last()[3], e.sweeps.prefillFlop[e.sweeps.prefillFlop.size() - 1]);
    const QList<QList<double>> roof = rows(readFile(QDir(out).filePath(QStringLiteral("roofline.csv"))), &header);
    QCOMPARE(header, QByteArray("intensity_flop_per_byte,attainable_flop_per_s,attainable_derated_flop_per_s"));
    QCOMPARE(roof.size(), model::Sweeps::kIntensityPoints);
    const QList<QList<double>> slo = rows(readFile(QDir(out).filePath(QStringLiteral("slo.csv"))), &header);
    QCOMPARE(header, QByteArray("batch,t_step_ms,tokens_per_s_total,tokens_per_s_per_user"));
    QCOMPARE(slo[10][3], e.sweeps.tokensPerSecondPerUser[10]);
    // The same text as the in-process writer.
    QCOMPARE(readFile(QDir(out).filePath(QStringLiteral("slo.csv"))), app::plotCsv(QStringLiteral("slo"), e));
}

void TestExport::unwritableFolderFails()
{
    // A regular file where the folder should be: nobody (not even root) can create the folder.
    const QString blocker = m_dir.filePath(QStringLiteral("blocker"));
    QFile f(blocker);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    // Found by an adversarial trial: that exited 1 (a failure to write); it is a wrong option value, exit 2 as every other
    // bad option (the --help convention), whether the file is the folder itself or one of its parents.
    for (const QString& out : {blocker + QStringLiteral("/plots"), blocker}) {
        const Result r = runRidgeline({QStringLiteral("--export"), out});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.startsWith("ridgeline: --export "), r.err.constData());
        QVERIFY2(r.err.contains("blocker is a file, not a folder"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
}

void TestExport::linkAtATargetIsRefused()
{
    // h14b: a symbolic link at a target's name was written through (QSaveFile replaced the file it points at).
    const QString out = m_dir.filePath(QStringLiteral("linked"));
    QVERIFY(QDir().mkpath(out));
    const QString outside = m_dir.filePath(QStringLiteral("outside.txt"));
    QFile f(outside);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write("keep") == 4);
    f.close();
    const QString link = QDir(out).filePath(QStringLiteral("decode_floor.csv"));
    QVERIFY(QFile::link(outside, link));
    const Result r = runRidgeline({QStringLiteral("--export"), out, QStringLiteral("--format"), QStringLiteral("csv")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("decode_floor.csv: is a symbolic link") && r.err.contains("outside.txt"), r.err.constData());
    QCOMPARE(readFile(outside), QByteArray("keep"));
    QVERIFY(QFileInfo(link).isSymLink());
}

void TestExport::preflightWritesNothing()
{
    // h14d (issue 14, E): a symbolic link at summary.md, the last name written, was refused only after 42 files had
    // been written. Every target is checked first; one bad name and nothing is written, the message naming it.
    app::MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    const QString out = m_dir.filePath(QStringLiteral("preflight"));
    QVERIFY(QDir().mkpath(out));
    const QDir dir(out);
    const QString outside = m_dir.filePath(QStringLiteral("preflight-outside.txt"));
    QFile f(outside);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write("keep") == 4);
    f.close();
    app::ExportOptions options;
    options.folder = out;
    options.formats = app::ExportFormat::Csv | app::ExportFormat::Markdown;
    auto onlyThere = [&dir](const QString& name) { return dir.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System) == QStringList{name}; };
    // A link (to a file outside), a dangling link, a folder: each at a target's name.
    QVERIFY(QFile::link(outside, dir.filePath(QStringLiteral("summary.md"))));
    QString message;
    QVERIFY(!window.exportTo(options, &message));
    QVERIFY2(message.contains(QStringLiteral("summary.md: is a symbolic link")) && message.contains(QStringLiteral("nothing was exported")),
             qPrintable(message));
    QVERIFY2(onlyThere(QStringLiteral("summary.md")), qPrintable(dir.entryList().join(QLatin1Char(' '))));
    QCOMPARE(readFile(outside), QByteArray("keep"));
    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("summary.md"))));
    QVERIFY(QFile::link(m_dir.filePath(QStringLiteral("no-such-file")), dir.filePath(QStringLiteral("kv_share.csv"))));
    QVERIFY(!window.exportTo(options, &message));
    QVERIFY2(message.contains(QStringLiteral("kv_share.csv: is a symbolic link")), qPrintable(message));
    QVERIFY(onlyThere(QStringLiteral("kv_share.csv")));
    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("kv_share.csv"))));
    QVERIFY(dir.mkdir(QStringLiteral("plan_pareto.csv")));
    QVERIFY(!window.exportTo(options, &message));
    QVERIFY2(message.contains(QStringLiteral("plan_pareto.csv: is a folder")), qPrintable(message));
    QVERIFY(onlyThere(QStringLiteral("plan_pareto.csv")));
    // The plan plot alone (ridgeline --plan FILE --export DIR) checks its four names first as well.
    options.formats = app::kAllExportFormats;
    QVERIFY(QDir(dir.filePath(QStringLiteral("plan_pareto.csv"))).removeRecursively());
    QVERIFY(QFile::link(outside, dir.filePath(QStringLiteral("plan_pareto.svg"))));
    message = app::exportPlanPlot(window, options);
    QVERIFY2(message.contains(QStringLiteral("plan_pareto.svg: is a symbolic link")), qPrintable(message));
    QVERIFY(onlyThere(QStringLiteral("plan_pareto.svg")));
    QCOMPARE(readFile(outside), QByteArray("keep"));
    // An existing read-only file at a target's name (adversarial trial, stop 30: 10 CSVs were written before QSaveFile
    // refused summary.md). As a user it is refused first; root may replace it, and then the export succeeds.
    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("plan_pareto.svg"))));
    const QString readOnly = dir.filePath(QStringLiteral("summary.md"));
    QFile ro(readOnly);
    QVERIFY(ro.open(QIODevice::WriteOnly) && ro.write("old") == 3);
    ro.close();
    QVERIFY(QFile::setPermissions(readOnly, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
    options.formats = app::ExportFormat::Csv | app::ExportFormat::Markdown;
    const bool mayWrite = QFileInfo(readOnly).isWritable();
    QCOMPARE(window.exportTo(options, &message), mayWrite);
    if (!mayWrite) {
        QVERIFY2(message.contains(QStringLiteral("summary.md: the file exists and is read-only")) && message.contains(QStringLiteral("nothing was exported")),
                 qPrintable(message));
        QVERIFY(onlyThere(QStringLiteral("summary.md")));
        QCOMPARE(readFile(readOnly), QByteArray("old"));
    } else {
        QVERIFY(readFile(readOnly) != QByteArray("old")); // replaced
    }
}

void TestExport::danglingFolderLinkIsNamed()
{
    // h14d (issue 14, E): --export DIR where DIR is a dangling symbolic link said "DIR is a file"; it says what it is,
    // for --export and for --plan FILE --export DIR alike, before anything runs (exit 2).
    const QString link = m_dir.filePath(QStringLiteral("dangling"));
    QVERIFY(QFile::link(m_dir.filePath(QStringLiteral("gone")), link));
    QCOMPARE(app::exportFolderProblem(link + QStringLiteral("/sub")),
             QStringLiteral("%1 is a symbolic link to a missing target (%2), not a folder; give a folder to write into")
                 .arg(link, m_dir.filePath(QStringLiteral("gone"))));
    const QString plan = QStringLiteral(RIDGELINE_SOURCE_DIR "/resources/plans/llama-3.1-70b-chat.json");
    for (const QStringList& args : {QStringList{QStringLiteral("--export"), link},
                                    QStringList{QStringLiteral("--plan"), plan, QStringLiteral("--export"), link}}) {
        const Result r = runRidgeline(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("dangling is a symbolic link to a missing target") && !r.err.contains("is a file"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("gone"))));
}

void TestExport::rateSweepPlotsAreExported()
{
    // h14b: --export left out the Simulation tab's rate-sweep plots without a word; a run that swept the rate
    // exports them (images and CSVs) after simulation_kv_usage.
    const QString sim = m_dir.filePath(QStringLiteral("sweep.json"));
    QFile f(sim);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format_version": 1, "simulation": {"requests": 200, "max_sequences": 16, "sweep_max_sequences": [8, 16],
        "classes": [{"name": "chat", "rate_per_s": 2, "prompt": {"dist": "fixed", "value": 200},
                     "output": {"dist": "fixed", "value": 20}}],
        "rate_sweep": {"from": 1, "to": 8, "steps": 2, "attainment": 0.9, "bisections": 1}}})");
    f.close();
    const QString out = m_dir.filePath(QStringLiteral("swept"));
    const Result r = runRidgeline({QStringLiteral("--export"), out, QStringLiteral("--simulate"), sim, QStringLiteral("--format"),
                                   QStringLiteral("png,csv"), QStringLiteral("--size"), QStringLiteral("640x400")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    for (const QString& stem : app::rateSweepPlotStems()) {
        QCOMPARE(QImage(QDir(out).filePath(stem + QStringLiteral(".png"))).size(), QSize(640, 400));
        const QList<QByteArray> lines = readFile(QDir(out).filePath(stem + QStringLiteral(".csv"))).split('\n');
        QVERIFY2(lines.size() > 2 && lines.first().contains("rate"), qPrintable(stem));
        QVERIFY2(r.out.contains(QFile::encodeName(stem + QStringLiteral(".png"))), r.out.constData());
    }
}

void TestExport::badOptionsAreRefused()
{
    const QString out = m_dir.filePath(QStringLiteral("bad"));
    const QList<QPair<QStringList, QByteArray>> cases{
        {{QStringLiteral("--export"), out, QStringLiteral("--format"), QStringLiteral("png,gif")}, "gif"},
        {{QStringLiteral("--export"), out, QStringLiteral("--dpi"), QStringLiteral("9000")}, "--dpi"},
        {{QStringLiteral("--export"), out, QStringLiteral("--report")}, "--export"},
        {{QStringLiteral("--dpi"), QStringLiteral("96"), QStringLiteral("--report")}, "--dpi goes with --export"},
        {{QStringLiteral("--export"), out, QStringLiteral("--size"), QStringLiteral("10x10")}, "--size"},
    };
    for (const auto& [args, mention] : cases) {
        const Result r = runRidgeline(args);
        QVERIFY2(r.exitCode == 2, qPrintable(args.join(QLatin1Char(' '))));
        QVERIFY2(r.err.contains(mention), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
    }
    QVERIFY(!QFileInfo::exists(out));
}

void TestExport::windowExportListsAndWrites()
{
    app::MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    window.pinBaseline();
    window.document()->edit([](model::Scenario& s) { s.hardware.bandwidthBytesPerSecond = 4.8e12; });
    app::ExportOptions options;
    options.folder = m_dir.filePath(QStringLiteral("window"));
    options.formats = app::ExportFormat::Png | app::ExportFormat::Csv | app::ExportFormat::Markdown;
    const QStringList targets = app::exportTargets(window, options);
    QCOMPARE(targets.size(), 6 + 5 + 10 + 5 + 1); // PNGs (floors, dashboard, tabs), CSVs of B and of A and of the tabs, the summary
    QString message;
    QVERIFY2(window.exportTo(options, &message), qPrintable(message));
    for (const QString& path : targets)
        QVERIFY2(QFileInfo(path).size() > 0, qPrintable(path));
    // A's CSV is A's model, B's is B's.
    model::Scenario b = model::defaultScenario();
    b.hardware.bandwidthBytesPerSecond = 4.8e12;
    QCOMPARE(readFile(QDir(options.folder).filePath(QStringLiteral("decode_floor_a.csv"))),
             app::plotCsv(QStringLiteral("decode_floor"), model::evaluate(model::defaultScenario())));
    QCOMPARE(readFile(QDir(options.folder).filePath(QStringLiteral("decode_floor.csv"))),
             app::plotCsv(QStringLiteral("decode_floor"), model::evaluate(b)));
    QVERIFY(readFile(QDir(options.folder).filePath(QStringLiteral("summary.md"))).contains("| Figure | A | B |"));
    QVERIFY(message.contains(QStringLiteral("27"))); // the files written, plan_pareto PNG and CSV included
    // For a person to look at: the dashboard with baseline A.
    QFile::remove(QStringLiteral("/tmp/ridgeline-export-ab.png"));
    QVERIFY(QFile::copy(QDir(options.folder).filePath(QStringLiteral("dashboard.png")), QStringLiteral("/tmp/ridgeline-export-ab.png")));
}

void TestExport::everyTabIsExported()
{
    app::MainWindow window(model::defaultScenario());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    views::WhatIfTabs* tabs = window.whatIfTabs();
    // A calibration with its points and a simulation run, as a user would have them on screen.
    QCOMPARE(tabs->calibrationTab()->loadExample(), QString());
    QCOMPARE(tabs->calibrationTab()->fit(), QString());
    tabs->calibrationTab()->residualsCheckBox()->setChecked(true);
    views::SimulationTab* simulation = tabs->simulationTab();
    QCOMPARE(simulation->loadExample(views::SimulationTab::examplePaths().first()), QString());
    QSignalSpy shown(simulation, &views::SimulationTab::outcomeShown);
    simulation->run();
    QVERIFY(shown.wait(120000));
    // A benchmark predicted on the Calibration tab's second page.
    views::BenchmarkPredictView* predict = tabs->calibrationTab()->predictView();
    QCOMPARE(predict->loadBenchmark(QStringLiteral(RIDGELINE_TEST_DATA "/measured/trt09-llama2-7b-h100-tp1-fp16.csv")), QString());
    QVERIFY(QTest::qWaitFor([predict] { return !predict->isPredicting(); }, 120000));
    QVERIFY(predict->hasPrediction());

    app::ExportOptions options;
    options.folder = m_dir.filePath(QStringLiteral("tabs"));
    options.size = QSize(600, 400);
    const QStringList targets = app::exportTargets(window, options);
    QCOMPARE(targets.size(), (5 + 1 + 13) * 3 + 5 + 13 + 1); // every plot in 3 image formats, the CSVs, the summary
    QString message;
    QVERIFY2(window.exportTo(options, &message), qPrintable(message));
    const QDir dir(options.folder);
    for (const QString& stem : app::tabPlotStems()) {
        for (const char* suffix : {".png", ".pdf", ".svg", ".csv"}) {
            const QString path = dir.filePath(stem + QString::fromLatin1(suffix));
            QVERIFY2(targets.contains(path), qPrintable(path));
            QVERIFY2(QFileInfo(path).size() > 100, qPrintable(path));
        }
        const QImage png(dir.filePath(stem + QStringLiteral(".png")));
        QVERIFY2(!png.isNull(), qPrintable(stem));
        QCOMPARE(png.size(), QSize(600, 400));
        QVERIFY(readFile(dir.filePath(stem + QStringLiteral(".pdf"))).startsWith("%PDF"));
        QVERIFY(readFile(dir.filePath(stem + QStringLiteral(".svg"))).contains("<svg"));
        // A header naming each column with its unit, then data rows.
        const QList<QByteArray> lines = readFile(dir.filePath(stem + QStringLiteral(".csv"))).split('\n');
        QVERIFY2(lines.size() > 2, qPrintable(stem));
        const QByteArray& header = lines.first();
        const bool units = header.contains('(') || header.contains("_ms") || header.contains("tokens") || header.contains("sequences");
        QVERIFY2(units, header.constData());
        QVERIFY2(!lines[1].isEmpty(), qPrintable(stem));
    }
    // The curves' values are the plot's: the first capacity point is the first of its first graph.
    const QList<QByteArray> capacity = readFile(dir.filePath(QStringLiteral("capacity_sequences.csv"))).split('\n');
    QVERIFY2(capacity.first().startsWith("series,advertised max context S_max (tokens),max concurrent sequences (per GPU)"),
             capacity.first().constData());
    // The calibration CSV carries the residual plot's column too.
    QVERIFY(readFile(dir.filePath(QStringLiteral("calibration_itl.csv"))).split('\n').first().contains("residual (%)"));
    // So do the prediction's: measured and predicted per (ISL, OSL) group, and the residual strip.
    const QByteArray predictCsv = readFile(dir.filePath(QStringLiteral("predict_itl.csv")));
    QVERIFY2(predictCsv.split('\n').first().contains("residual (%)"), predictCsv.left(200).constData());
    QVERIFY(predictCsv.contains("\n\"measured, ISL/OSL 128/128\","));  // quoted: the name holds a comma
    QVERIFY(predictCsv.contains("\n\"predicted, ISL/OSL 128/128\","));
    // The workload bars: as is, with the prefix cache, in ms.
    const QList<QByteArray> workload = readFile(dir.filePath(QStringLiteral("workload_request_time.csv"))).split('\n');
    QCOMPARE(workload.first(), QByteArray("request,prefill_ms,decode_ms"));
    QVERIFY(workload[1].startsWith("as_is,"));

    // summary.md names every tab and carries its takeaway.
    const QString md = QString::fromUtf8(readFile(dir.filePath(QStringLiteral("summary.md"))));
    for (const QString& tab : {QStringLiteral("Capacity & SLOs"), QStringLiteral("Workload, prefix cache, speculative"),
                               QStringLiteral("Incident triage"), QStringLiteral("Simulation"), QStringLiteral("Calibration")})
        QVERIFY2(md.contains(QStringLiteral("- **") + tab), qPrintable(tab + QStringLiteral("\n") + md));
    QVERIFY(md.contains(tabs->speculativePlot()->takeaway()));
    QVERIFY(md.contains(tabs->capacityPlot()->takeaway()));
    QVERIFY(md.contains(simulation->capSweepPlot()->takeaway()));
    QVERIFY(!md.contains(QStringLiteral("## Not exported")));
}

/** Twenty-first stop of issue 16: `ridgeline --plan FILE --export DIR` drew an empty band where the Pareto plot's legend
 *  belongs: the legend's entries, made when the plan was computed, reach the legend's image cache only in a replot, and
 *  the export drew the plot (its tab hidden) before any. Every device drawn (each series of plan_pareto.csv with a point
 *  on its frontier: at most 8 are drawn, this plan file has 7) and the "misses SLO" key are texts of the exported SVG. */
void TestExport::hiddenPlanPlotExportsItsLegend()
{
    const QString out = m_dir.filePath(QStringLiteral("plan-legend"));
    const Result r = runRidgeline({QStringLiteral("--plan"), QStringLiteral(RIDGELINE_SOURCE_DIR "/resources/plans/llama-3.1-70b-chat.json"),
                                   QStringLiteral("--export"), out}); // --format is the plans' printout's here
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString svg = QString::fromUtf8(readFile(QDir(out).filePath(QStringLiteral("plan_pareto.svg"))));
    QVERIFY(svg.contains(QStringLiteral("<svg")));
    QList<QByteArray> lines = readFile(QDir(out).filePath(QStringLiteral("plan_pareto.csv"))).split('\n');
    const QList<QByteArray> header = lines.takeFirst().split(',');
    const qsizetype onFrontier = header.indexOf("on_frontier"), meetsSlo = header.indexOf("meets_slo");
    QVERIFY(onFrontier > 0 && meetsSlo > 0);
    QStringList devices;
    bool anyMissed = false;
    for (const QByteArray& line : lines) {
        const QList<QByteArray> cells = line.split(','); // device names hold no comma
        if (cells.size() != header.size() || cells[onFrontier] != "true")
            continue;
        const QString device = QString::fromUtf8(cells.first());
        if (!devices.contains(device))
            devices << device;
        anyMissed = anyMissed || cells[meetsSlo] == "false";
    }
    QVERIFY2(devices.size() >= 3 && devices.size() <= 8, qPrintable(devices.join(QStringLiteral(", "))));
    QStringList entries = devices;
    if (anyMissed)
        entries << QStringLiteral("misses SLO");
    for (const QString& name : entries)
        QVERIFY2(svg.contains(QLatin1Char('>') + name.toHtmlEscaped() + QStringLiteral("</text>")),
                 qPrintable(QStringLiteral("the legend entry \"%1\" is not in plan_pareto.svg").arg(name)));
}

void TestExport::headlessExportRunsSimulationAndCalibration()
{
    const QString out = m_dir.filePath(QStringLiteral("runs"));
    const QString simulation = views::SimulationTab::examplePaths().first(); // a resource of the binary
    const QString benchmark = QStringLiteral(RIDGELINE_TEST_DATA "/measured/trt09-llama2-7b-h100-tp1-fp16.csv");
    const Result r = runRidgeline({QStringLiteral("--export"), out, QStringLiteral("--simulate"), simulation, QStringLiteral("--calibrate"),
                                   views::CalibrationTab::examplePath(), QStringLiteral("--predict"), benchmark,
                                   QStringLiteral("--scheduler"), QStringLiteral("v0"), QStringLiteral("--format"), QStringLiteral("png,csv,md"),
                                   QStringLiteral("--size"), QStringLiteral("640x400")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QDir dir(out);
    for (const QString& stem : app::tabPlotStems()) {
        QCOMPARE(QImage(dir.filePath(stem + QStringLiteral(".png"))).size(), QSize(640, 400));
        QVERIFY2(QFileInfo(dir.filePath(stem + QStringLiteral(".csv"))).size() > 30, qPrintable(stem));
    }
    const QString md = QString::fromUtf8(readFile(dir.filePath(QStringLiteral("summary.md"))));
    QVERIFY2(!md.contains(QStringLiteral("## Not exported")), qPrintable(md));
    QVERIFY(md.contains(QStringLiteral("- **Simulation \u00b7 Goodput against the cap**")));
    QVERIFY(md.contains(QStringLiteral("- **Calibration \u00b7 ITL against batch**")));
    QVERIFY2(md.contains(QStringLiteral("- **Calibration \u00b7 Benchmark: decode latency**")), qPrintable(md));

    // A benchmark file the reader refuses: status 2, one line naming it.
    const Result badBenchmark = runRidgeline({QStringLiteral("--export"), m_dir.filePath(QStringLiteral("refused-predict")),
                                              QStringLiteral("--predict"), m_dir.filePath(QStringLiteral("missing-benchmark.csv"))});
    QCOMPARE(badBenchmark.exitCode, 2);
    QCOMPARE(badBenchmark.err.count('\n'), 1);
    QVERIFY2(badBenchmark.err.startsWith("ridgeline: --predict "), badBenchmark.err.constData());

    // A simulation file that cannot be read: status 2, one line naming it, nothing written.
    const QString bad = m_dir.filePath(QStringLiteral("missing-simulation.json"));
    const Result refused = runRidgeline({QStringLiteral("--export"), m_dir.filePath(QStringLiteral("refused")), QStringLiteral("--simulate"), bad});
    QCOMPARE(refused.exitCode, 2);
    QCOMPARE(refused.err.count('\n'), 1);
    QVERIFY2(refused.err.startsWith("ridgeline: --simulate "), refused.err.constData());
    QVERIFY(refused.out.isEmpty());
}

void TestExport::dialogKeepsTheOptions()
{
    app::ExportOptions options;
    options.folder = m_dir.filePath(QStringLiteral("dialog"));
    options.formats = app::ExportFormat::Pdf | app::ExportFormat::Markdown;
    options.size = QSize(800, 500);
    options.dpi = 144;
    app::ExportDialog dialog(options);
    const app::ExportOptions back = dialog.options();
    QCOMPARE(back.folder, options.folder);
    QCOMPARE(back.formats, options.formats);
    QCOMPARE(back.size, options.size);
    QCOMPARE(back.dpi, options.dpi);
    auto* png = dialog.findChild<QCheckBox*>(QStringLiteral("exportPngCheck"));
    QVERIFY(png && !png->isChecked());
    png->setChecked(true);
    QVERIFY(dialog.options().formats & app::ExportFormat::Png);
    // Every control of the dialog has an accessible name.
    for (QWidget* w : dialog.findChildren<QWidget*>())
        if ((w->focusPolicy() & Qt::TabFocus) && !w->parentWidget()->inherits("QAbstractSpinBox"))
            QVERIFY2(!w->accessibleName().isEmpty() || !qobject_cast<QAbstractButton*>(w) || !static_cast<QAbstractButton*>(w)->text().isEmpty(),
                     qPrintable(w->objectName()));
}

QTEST_MAIN(TestExport)
#include "tst_export.moc"
