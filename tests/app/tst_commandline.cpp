// SPDX-License-Identifier: GPL-3.0-or-later
// The real binary's command line: the JSON report against the reference values, and one clear
// line on stderr with a non-zero exit for every kind of bad input.

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "app/commandline.h"
#include "app/plancommand.h"
#include "app/report.h"
#include "app/simulatecommand.h"
#include "document/format.h"
#include "model/files/simulationfile.h"
#include "model/cost/costmodel.h"
#include "model/cost/presets.h"
#include "views/floors/headlinefigures.h"

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
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(RIDGELINE_BINARY), args);
    if (!p.waitForFinished(60000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

QJsonObject reportFor(const QStringList& extra)
{
    const Result r = runRidgeline(QStringList{QStringLiteral("--report"), QStringLiteral("--format"), QStringLiteral("json")} + extra);
    if (r.exitCode != 0)
        qWarning("ridgeline failed: %s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

double at(const QJsonObject& o, const QString& dotted)
{
    QJsonValue v = o;
    for (const QString& part : dotted.split(QLatin1Char('.')))
        v = v.toObject().value(part);
    if (!v.isDouble())
        qWarning("missing key %s", qPrintable(dotted));
    return v.toDouble(qQNaN());
}

bool near(double actual, double expected, double relative = 0.005)
{
    return std::abs(actual - expected) <= relative * std::abs(expected);
}

QString source(const char* relative) { return QStringLiteral(RIDGELINE_SOURCE_DIR "/") + QString::fromUtf8(relative); }

} // namespace

class TestCommandLine final : public QObject {
    Q_OBJECT

private slots:
    void defaultReportHasTheContractKeys()
    {
        const QJsonObject r = reportFor({});
        for (const char* key : {"kv_bytes_per_token", "weight_bytes", "decode.floor_ms_batch1", "decode.step_ms",
                                "decode.memory_ms", "decode.compute_ms", "decode.read_bytes", "decode.kv_share",
                                "decode.tokens_per_s_per_user", "decode.tokens_per_s_total",
                                "decode.intensity_flop_per_byte", "decode.t_step_intercept_ms", "decode.t_step_slope_ms",
                                "roofline.ridge_flop_per_byte", "prefill.flop", "prefill.ms", "prefill.crossover_tokens",
                                "prefill.compute_bound_tokens", "prefill.attention_share", "prefill.kv_written_bytes"})
            QVERIFY2(std::isfinite(at(r, QString::fromUtf8(key))), key);
        QCOMPARE(r.value(QStringLiteral("decode")).toObject().value(QStringLiteral("bound")).toString(), QStringLiteral("memory"));
        QVERIFY(r.value(QStringLiteral("roofline")).toObject().contains(QStringLiteral("compute_bound_batch")));
        const QJsonArray slo = r.value(QStringLiteral("decode")).toObject().value(QStringLiteral("max_batch_for_itl_slo")).toArray();
        QCOMPARE(slo.size(), 3);
        QCOMPARE(slo.at(1).toObject().value(QStringLiteral("slo_ms")).toDouble(), 40.0);
        // Default: Llama 3.1 8B on H100 SXM (reference values 4, 6, 11 of cost-model.md).
        QVERIFY(near(at(r, QStringLiteral("kv_bytes_per_token")), 131072));
        QVERIFY(near(at(r, QStringLiteral("prefill.crossover_tokens")), 30632, 0.001));
        QVERIFY(near(at(r, QStringLiteral("roofline.ridge_flop_per_byte")), 295));
    }

    void referenceValuesThroughSet()
    {
        // Reference 9 and 10: B 64, S 8,192, eta_bw 0.75.
        const QJsonObject r = reportFor({QStringLiteral("--set"), QStringLiteral("model.embedding_read=table"), QStringLiteral("--set"), QStringLiteral("model.params=8.03e9"),
                                         QStringLiteral("--set"), QStringLiteral("workload.batch=64"),
                                         QStringLiteral("--set"), QStringLiteral("workload.context_tokens=8192"),
                                         QStringLiteral("--set"), QStringLiteral("efficiency.bandwidth=0.75")});
        QVERIFY(near(at(r, QStringLiteral("decode.read_bytes")), 84.8e9));
        QVERIFY(near(at(r, QStringLiteral("decode.kv_share")), 0.811));
        QVERIFY(near(at(r, QStringLiteral("decode.tokens_per_s_per_user")), 29.6, 0.01));
        // Reference 12: S 2,200 at the floor: a = 4.79 ms, b = 0.086 ms, 40 ms allows B = 409.
        const QJsonObject t = reportFor({QStringLiteral("--set"), QStringLiteral("model.embedding_read=table"), QStringLiteral("--set"), QStringLiteral("model.params=8.03e9"),
                                         QStringLiteral("--set"), QStringLiteral("workload.context_tokens=2200"),
                                         QStringLiteral("--set"), QStringLiteral("workload.itl_slo_ms=40")});
        QVERIFY(near(at(t, QStringLiteral("decode.t_step_intercept_ms")), 4.79));
        QVERIFY(near(at(t, QStringLiteral("decode.t_step_slope_ms")), 0.086));
        const QJsonArray slo = t.value(QStringLiteral("decode")).toObject().value(QStringLiteral("max_batch_for_itl_slo")).toArray();
        QCOMPARE(slo.at(0).toObject().value(QStringLiteral("batch")).toDouble(), 409.0);
    }

    void shippedDrillScenario()
    {
        const QJsonObject r = reportFor({QStringLiteral("--scenario"), source("resources/scenarios/incident-drill-13b-a100.json")});
        QVERIFY(near(at(r, QStringLiteral("decode.floor_ms_batch1")), 13.0));
        QVERIFY(near(at(r, QStringLiteral("kv_bytes_per_token")), 160 * 1024));
    }

    void textReportIsReadable()
    {
        const Result r = runRidgeline({QStringLiteral("--report")});
        QCOMPARE(r.exitCode, 0);
        const QString text = QString::fromUtf8(r.out);
        QVERIFY(text.contains(QStringLiteral("batch-1 decode floor")));
        // embedding_read = rows (the default): W_read(B = 1) = W minus the unread input-table rows.
        QVERIFY2(QRegularExpression(QStringLiteral("batch-1 decode floor +4\\.48 ms/token.*W_read\\(B = 1\\) / BW")).match(text).hasMatch(),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("P* = 30,633 tokens")));
        QVERIFY(!text.contains(QStringLiteral("nan"), Qt::CaseInsensitive));
    }

    /**
     * Found by a tester: under a file-size limit (ulimit -f, as on a full quota) the screenshot was
     * killed by SIGXFSZ without a word. It must say why, exit 1 and leave the previous file.
     */
    void fileSizeLimitIsReportedNotFatal()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("window.png"));
        {
            QFile old(png);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("previous picture");
        }
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("ulimit -f 8 && exec \"$0\" --screenshot \"$1\" --size 800x600"),
                                            QStringLiteral(RIDGELINE_BINARY), png});
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 1, qPrintable(QStringLiteral("exit %1: %2").arg(p.exitCode()).arg(err)));
        QVERIFY2(err.contains(QStringLiteral("File too large")), qPrintable(err));
        QFile old(png);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("previous picture"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
    }

    /** Found by a tester: for MoE the report's floor read "W / BW" with W = N * b_w (27.9 ms) beside 7.69 ms. */
    void moeReportNamesTheWeightsItReads()
    {
        const Result r = runRidgeline({QStringLiteral("--report"), QStringLiteral("--model-config"),
                                       QStringLiteral(RIDGELINE_SOURCE_DIR "/tests/data/configs/mixtral-8x7b.json"),
                                       QStringLiteral("--set"), QStringLiteral("model.embedding_read=table")});
        QCOMPARE(r.exitCode, 0);
        const QString text = QString::fromUtf8(r.out);
        const QRegularExpression floor(QStringLiteral("batch-1 decode floor +7\\.69 ms/token.*W_read\\(B = 1\\) / BW"));
        QVERIFY2(floor.match(text).hasMatch(), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("R = W_read + B * S * kv_tok")), qPrintable(text));
        // A dense model on one GPU reads all of W under the table convention.
        const QString dense = QString::fromUtf8(
            runRidgeline({QStringLiteral("--report"), QStringLiteral("--set"), QStringLiteral("model.embedding_read=table")}).out);
        QVERIFY2(QRegularExpression(QStringLiteral("batch-1 decode floor .* W / BW")).match(dense).hasMatch(), qPrintable(dense));
    }

    void efficiencyPresetComesBeforeSet()
    {
        // --efficiency sets every coefficient of the preset; a --set after it wins; an unknown name lists the choices.
        const QJsonObject o = reportFor({QStringLiteral("--efficiency"), QStringLiteral("A100-TRTLLM-STATIC"), QStringLiteral("--set"),
                                         QStringLiteral("efficiency.mfu_decode=0.3")});
        QCOMPARE(at(o, QStringLiteral("scenario.efficiency.mfu_prefill")), 0.8681);
        QCOMPARE(at(o, QStringLiteral("scenario.efficiency.kv_bandwidth")), 0.9336);
        QCOMPARE(at(o, QStringLiteral("scenario.efficiency.per_sequence_overhead_us")), 39.7);
        QCOMPARE(at(o, QStringLiteral("scenario.efficiency.step_overhead_ms")), 7.024);
        QCOMPARE(at(o, QStringLiteral("scenario.efficiency.mfu_decode")), 0.3);
        QCOMPARE(at(o, QStringLiteral("scenario.efficiency.kv_bandwidth_one_sequence")), 0.0); // unset in that preset
        // The in-flight preset (refitted 2026-12-02) sets the lone-sequence KV read and the per-request TTFT overhead.
        const QJsonObject inflight = reportFor({QStringLiteral("--efficiency"), QStringLiteral("h100-trtllm-inflight")});
        QCOMPARE(at(inflight, QStringLiteral("scenario.efficiency.kv_bandwidth_one_sequence")), 0.2491);
        QCOMPARE(at(inflight, QStringLiteral("scenario.efficiency.ttft_overhead_ms")), 4.617);
        const Result bad = runRidgeline({QStringLiteral("--report"), QStringLiteral("--efficiency"), QStringLiteral("planning")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--efficiency planning: no such preset") && bad.err.contains("h100-trtllm-inflight"), bad.err.constData());
        QVERIFY(bad.out.isEmpty());
    }
    void helpAndVersion()
    {
        const Result help = runRidgeline({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--report"));
        QVERIFY(help.out.contains("workload.itl_slo_ms"));
        const Result version = runRidgeline({QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.startsWith("ridgeline "));
    }

    void badInputExitsWithOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expectedPhrase");
        const QString report = QStringLiteral("--report");
        QTest::newRow("unknown option") << QStringList{report, QStringLiteral("--bogus")} << "bogus";
        QTest::newRow("bad format") << QStringList{report, QStringLiteral("--format"), QStringLiteral("xml")} << "xml";
        QTest::newRow("unknown key") << QStringList{report, QStringLiteral("--set"), QStringLiteral("workload.batchh=3")} << "workload.batchh";
        QTest::newRow("set without value") << QStringList{report, QStringLiteral("--set"), QStringLiteral("workload.batch")} << "KEY=VALUE";
        QTest::newRow("zero bandwidth") << QStringList{report, QStringLiteral("--set"), QStringLiteral("hardware.bandwidth=0")} << "hardware.bandwidth";
        QTest::newRow("nan FLOP/s") << QStringList{report, QStringLiteral("--set"), QStringLiteral("hardware.peak_flops=nan")} << "hardware.peak_flops";
        QTest::newRow("negative batch") << QStringList{report, QStringLiteral("--set"), QStringLiteral("workload.batch=-3")} << "workload.batch";
        QTest::newRow("text batch") << QStringList{report, QStringLiteral("--set"), QStringLiteral("workload.batch=many")} << "many";
        QTest::newRow("kv heads not dividing") << QStringList{report, QStringLiteral("--set"), QStringLiteral("model.kv_heads=5")} << "model.kv_heads";
        QTest::newRow("unknown serving key") << QStringList{report, QStringLiteral("--set"), QStringLiteral("serving.prefix=3")} << "serving.prefix";
        QTest::newRow("hit rate over 1") << QStringList{report, QStringLiteral("--set"), QStringLiteral("serving.prefix_hit_rate=2")} << "serving.prefix_hit_rate";
        QTest::newRow("missing config") << QStringList{report, QStringLiteral("--model-config"), QStringLiteral("/nonexistent/config.json")} << "/nonexistent/config.json";
        QTest::newRow("missing file") << QStringList{report, QStringLiteral("--scenario"), QStringLiteral("/nonexistent/x.json")} << "/nonexistent/x.json";
        // Control characters in a value are refused and echoed escaped: one line, no terminal codes.
        QTest::newRow("escape code in a name") << QStringList{report, QStringLiteral("--set"), QStringLiteral("model.name=a\x1b[31mb\nc")}
                                               << "model.name=a\\x1B[31mb\\x0Ac: model.name: contains a control character (0x1B)";
        QTest::newRow("name too long") << QStringList{report, QStringLiteral("--set"), QStringLiteral("model.name=") + QString(300, QLatin1Char('n'))}
                                       << "model.name: 300 bytes long; expected at most 256";
        QTest::newRow("number as a list in a file") << QStringList{report, QStringLiteral("--set"), QStringLiteral("workload.batch=[64]")} << "workload.batch";
        QTest::newRow("bad size") << QStringList{QStringLiteral("--screenshot"), QStringLiteral("/tmp/x.png"), QStringLiteral("--size"), QStringLiteral("big")} << "--size";
        // Economics keys (issue 14): the message names the key and the value.
        QTest::newRow("PUE below 1") << QStringList{report, QStringLiteral("--set"), QStringLiteral("economics.pue=0.9")}
                                     << "economics.pue = 0.9: must be at least 1";
        QTest::newRow("negative price") << QStringList{report, QStringLiteral("--set"), QStringLiteral("economics.price_per_gpu_hour=-3")}
                                        << "economics.price_per_gpu_hour = -3: must not be negative";
        QTest::newRow("text price") << QStringList{report, QStringLiteral("--set"), QStringLiteral("economics.price_per_gpu_hour=cheap")}
                                    << "economics.price_per_gpu_hour = \"cheap\": expected a number";
        // A trial (stop 30): without --simulate it said "(not with --export)", an option nobody gave.
        QTest::newRow("attainment without --simulate") << QStringList{report, QStringLiteral("--attainment"), QStringLiteral("0.9")}
                                                       << "--rate-sweep and --attainment need --simulate FILE";
    }

    void badInputExitsWithOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expectedPhrase);
        const Result r = runRidgeline(args);
        QVERIFY2(r.exitCode != 0 && r.exitCode != -1, qPrintable(QString::number(r.exitCode)));
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err.contains(expectedPhrase), qPrintable(err));
        QCOMPARE(err.count(QLatin1Char('\n')), 0);
        QVERIFY2(!r.err.contains('\x1b'), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void malformedScenarioFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"workload": {"batch": 64, "context_tokens": )");
        f.close();
        const Result r = runRidgeline({QStringLiteral("--report"), QStringLiteral("--scenario"), path});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("bad.json"));
        QVERIFY(r.err.contains("not valid JSON"));
    }

    void triageClassifiesTheDrillTickets_data()
    {
        QTest::addColumn<QString>("ticket");
        QTest::addColumn<QString>("expected");
        QTest::newRow("B1") << "b1-ttft.json" << "prefill";
        QTest::newRow("B2") << "b2-itl.json" << "decode";
        QTest::newRow("B3") << "b3-concurrency.json" << "admission";
        QTest::newRow("B4") << "b4-batch-job.json" << "noisy_neighbour_prefill";
        QTest::newRow("B5") << "b5-oom.json" << "kv_capacity";
    }
    void triageClassifiesTheDrillTickets()
    {
        QFETCH(QString, ticket);
        QFETCH(QString, expected);
        const QString drill = source("resources/scenarios/incident-drill-13b-a100.json");
        const Result json = runRidgeline({QStringLiteral("--triage"), source("resources/tickets/") + ticket, QStringLiteral("--scenario"),
                                          drill, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(o.value(QStringLiteral("class")).toString(), expected);
        QVERIFY(o.value(QStringLiteral("standup")).toObject().value(QStringLiteral("text")).toString().contains(QStringLiteral("Symptom: ")));
        const Result text = runRidgeline({QStringLiteral("--triage"), source("resources/tickets/") + ticket, QStringLiteral("--scenario"), drill});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("How we will know in 30 minutes: "));
    }

    void triageBadTicket()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ticket.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"p95_itl_ms": "slow"})");
        f.close();
        const Result r = runRidgeline({QStringLiteral("--triage"), path});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("p95_itl_ms"));
    }

    void simulationSaysWhyRequestsWereRejected()
    {
        // The shipped chat simulation with a 100-token max context: every request is rejected, and
        // stderr says how many and why while stdout still carries the (machine-readable) JSON.
        QFile shipped(source("resources/simulations/chat-llama-3.1-8b-h100.json"));
        QVERIFY(shipped.open(QIODevice::ReadOnly));
        QJsonObject file = QJsonDocument::fromJson(shipped.readAll()).object();
        QJsonObject scenario = file.value(QStringLiteral("scenario")).toObject();
        scenario.insert(QStringLiteral("serving"), QJsonObject{{QStringLiteral("max_context_tokens"), 100}});
        QJsonObject model = scenario.value(QStringLiteral("model")).toObject();
        model.insert(QStringLiteral("max_position_embeddings"), 100);
        scenario.insert(QStringLiteral("model"), model);
        file.insert(QStringLiteral("scenario"), scenario);
        QJsonObject simulation = file.value(QStringLiteral("simulation")).toObject();
        simulation.insert(QStringLiteral("duration_s"), 5);
        file.insert(QStringLiteral("simulation"), simulation);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tiny-context.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(file).toJson());
        f.close();
        const Result r = runRidgeline({QStringLiteral("--simulate"), path, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject all = QJsonDocument::fromJson(r.out).object();
        const int requests = all.value(QStringLiteral("requests")).toInt();
        QVERIFY(requests > 0);
        QCOMPARE(all.value(QStringLiteral("rejected")).toInt(), requests);
        QCOMPARE(all.value(QStringLiteral("rejected_over_max_context")).toInt(), requests);
        QVERIFY2(r.err.contains(QStringLiteral("%1 of %1 requests were rejected").arg(requests).toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("serving.max_context_tokens = 100"), r.err.constData());
        // Stop 30's trials: the simulator never compared prompts with the trained context, and with every request
        // rejected its latencies read 0 ms. A note names the class; the statistics of no sample are null.
        QVERIFY2(r.err.contains("past the model's trained context of 100 (model.max_position_embeddings)"), r.err.constData());
        const QJsonObject ttft = all.value(QStringLiteral("latency_ms")).toObject().value(QStringLiteral("ttft")).toObject();
        QCOMPARE(ttft.value(QStringLiteral("count")).toInt(-1), 0);
        QVERIFY2(ttft.value(QStringLiteral("mean")).isNull(), qPrintable(QString::fromUtf8(QJsonDocument(ttft).toJson())));
    }

    void simulatePrefixCacheKeys()
    {
        // The shipped prefix-caching example: the hit rate as new keys in JSON (top level, per replica), text and CSV,
        // and every latency object with p90; the keys before stay.
        const QString file = source("resources/simulations/agent-prefix-cache-llama-3.1-8b-h100.json");
        const Result json = runRidgeline({QStringLiteral("--simulate"), file, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        const QJsonObject cache = o.value(QStringLiteral("prefix_cache")).toObject();
        const double hit = cache.value(QStringLiteral("hit_rate")).toDouble();
        QVERIFY2(hit > 0.5 && hit < 1, qPrintable(QString::number(hit)));
        QVERIFY(cache.value(QStringLiteral("hit_tokens")).toDouble() > 0);
        QVERIFY(cache.contains(QStringLiteral("prefix_tokens")) && cache.contains(QStringLiteral("evicted_blocks")));
        QCOMPARE(o.value(QStringLiteral("simulation")).toObject().value(QStringLiteral("prefix_caching")).toBool(), true);
        QCOMPARE(o.value(QStringLiteral("simulation")).toObject().value(QStringLiteral("router")).toString(), QStringLiteral("prefix_aware"));
        const QJsonArray replicas = o.value(QStringLiteral("replicas")).toArray();
        QCOMPARE(replicas.size(), 4);
        for (const QJsonValue& v : replicas)
            QVERIFY(v.toObject().value(QStringLiteral("prefix_cache_hit_rate")).toDouble() > 0.5);
        const QJsonObject ttft = o.value(QStringLiteral("latency_ms")).toObject().value(QStringLiteral("ttft")).toObject();
        for (const char* key : {"count", "mean", "p50", "p90", "p95", "p99", "max"})
            QVERIFY2(ttft.contains(QLatin1String(key)), key);
        QVERIFY(ttft.value(QStringLiteral("p50")).toDouble() <= ttft.value(QStringLiteral("p90")).toDouble());
        QVERIFY(ttft.value(QStringLiteral("p90")).toDouble() <= ttft.value(QStringLiteral("p95")).toDouble());
        const Result text = runRidgeline({QStringLiteral("--simulate"), file});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("prefix cache: "), text.out.constData());
        const Result csv = runRidgeline({QStringLiteral("--simulate"), file, QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(csv.exitCode, 0);
        const QList<QByteArray> lines = csv.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].endsWith(",meets_target,prefix_cache_hit_rate"));
        QVERIFY(std::abs(lines[1].split(',').constLast().toDouble() - hit) < 1e-6);
    }

    void simulateRateSweepAsCsvAndJson()
    {
        // The shipped chat simulation (6 req/s) swept from 2 to 10 req/s at 3 rates with 2 bisections: a CSV header
        // and 5 rows, the highest rate holding 95 % between the last even step holding it and the first missing it.
        const QString file = source("resources/simulations/chat-llama-3.1-8b-h100.json");
        const Result csv = runRidgeline({QStringLiteral("--simulate"), file, QStringLiteral("--rate-sweep"), QStringLiteral("2:10:3"),
                                         QStringLiteral("--attainment"), QStringLiteral("0.95"), QStringLiteral("--format"),
                                         QStringLiteral("csv")});
        QCOMPARE(csv.exitCode, 0);
        const QList<QByteArray> lines = csv.out.trimmed().split('\n');
        QCOMPARE(lines.constFirst(), QByteArray("rate_per_s,requests,attainment,goodput_requests_per_s,throughput_tokens_per_s,"
                                                "ttft_p50_ms,ttft_p99_ms,itl_p50_ms,itl_p99_ms,end_to_end_p99_ms,bisection,meets_target,"
                                                "prefix_cache_hit_rate"));
        QCOMPARE(lines.size(), 1 + 3 + 6); // the file's default of 6 bisections
        QVERIFY(lines[1].startsWith("2,"));
        QVERIFY(lines.constLast().startsWith("10,"));
        const Result json = runRidgeline({QStringLiteral("--simulate"), file, QStringLiteral("--rate-sweep"), QStringLiteral("2:10:3"),
                                          QStringLiteral("--attainment"), QStringLiteral("0.95"), QStringLiteral("--format"),
                                          QStringLiteral("json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject sweep = QJsonDocument::fromJson(json.out).object().value(QStringLiteral("rate_sweep")).toObject();
        QCOMPARE(sweep.value(QStringLiteral("attainment_target")).toDouble(), 0.95);
        const double best = sweep.value(QStringLiteral("max_rate_per_s")).toDouble();
        const double miss = sweep.value(QStringLiteral("first_miss_rate_per_s")).toDouble();
        QVERIFY2(best > 2 && best < miss && miss <= 10, qPrintable(QStringLiteral("%1 %2").arg(best).arg(miss)));
        for (const QJsonValue& v : sweep.value(QStringLiteral("points")).toArray()) {
            const QJsonObject p = v.toObject();
            if (p.value(QStringLiteral("rate_per_s")).toDouble() == best)
                QVERIFY(p.value(QStringLiteral("attainment")).toDouble() >= 0.95);
            if (p.value(QStringLiteral("rate_per_s")).toDouble() == miss)
                QVERIFY(p.value(QStringLiteral("attainment")).toDouble() < 0.95);
        }
        const Result bad = runRidgeline({QStringLiteral("--simulate"), file, QStringLiteral("--rate-sweep"), QStringLiteral("10:2:3")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--rate-sweep 10:2:3: FROM must be > 0 and TO >= FROM"), bad.err.constData());
    }

    void compareSideBySide()
    {
        // 8B on H100 against the 13B drill on A100: the JSON's ratio is B / A of the two reports,
        // and every row of the text table keeps its four columns apart (19-digit FLOP/s included).
        const QString a = source("resources/scenarios/llama-3.1-8b-h100.json");
        const QString b = source("resources/scenarios/incident-drill-13b-a100.json");
        const Result json = runRidgeline({QStringLiteral("--report"), QStringLiteral("--format"), QStringLiteral("json"),
                                          QStringLiteral("--scenario"), a, QStringLiteral("--compare"), b});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        const double floorA = at(o, QStringLiteral("a.decode.floor_ms_batch1"));
        const double floorB = at(o, QStringLiteral("b.decode.floor_ms_batch1"));
        QVERIFY(near(floorB, 13.0));
        QVERIFY(near(at(o, QStringLiteral("ratio.decode.floor_ms_batch1")), floorB / floorA, 1e-9));

        const Result text = runRidgeline({QStringLiteral("--report"), QStringLiteral("--scenario"), a, QStringLiteral("--compare"), b});
        QCOMPARE(text.exitCode, 0);
        const QStringList lines = QString::fromUtf8(text.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        int rows = 0;
        bool sawPeak = false;
        for (const QString& line : lines.mid(2)) { // after the "A: ..." and "B: ..." lines
            const QStringList cells = line.split(QRegularExpression(QStringLiteral("\\s{2,}")), Qt::SkipEmptyParts);
            QVERIFY2(cells.size() == 4, qPrintable(line));
            sawPeak = sawPeak || cells[0] == QLatin1String("roofline.peak_flop_per_s");
            ++rows;
        }
        QVERIFY(rows > 50);
        QVERIFY(sawPeak);
    }

    /** One --compare FILE prints what it printed before N-way comparison: app::compareText / compareJson of the two. */
    void singleCompareUnchanged()
    {
        const QString a = source("resources/scenarios/llama-3.1-8b-h100.json");
        const QString b = source("resources/scenarios/incident-drill-13b-a100.json");
        ridgeline::model::Scenario sa, sb;
        QVERIFY(ridgeline::app::buildScenario(a, {}, sa).isEmpty());
        QVERIFY(ridgeline::app::buildScenario(b, {}, sb).isEmpty());
        const ridgeline::model::Evaluation ea = ridgeline::model::evaluate(sa), eb = ridgeline::model::evaluate(sb);
        const Result text = runRidgeline({QStringLiteral("--report"), QStringLiteral("--scenario"), a, QStringLiteral("--compare"), b});
        QCOMPARE(text.exitCode, 0);
        QCOMPARE(QString::fromUtf8(text.out).trimmed(), ridgeline::app::compareText(sa, ea, sb, eb).trimmed());
        const Result json = runRidgeline({QStringLiteral("--report"), QStringLiteral("--format"), QStringLiteral("json"),
                                          QStringLiteral("--scenario"), a, QStringLiteral("--compare"), b});
        QCOMPARE(json.exitCode, 0);
        const QByteArray expected = QJsonDocument(ridgeline::app::compareJson(sa, ea, sb, eb)).toJson(QJsonDocument::Indented).trimmed();
        QCOMPARE(json.out.trimmed(), expected);
        // Exactly the A/B keys: nothing added to the one-file output.
        QCOMPARE(QJsonDocument::fromJson(json.out).object().keys(),
                 QStringList({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("ratio")}));
        // The N-way JSON of the same two keeps "a", "b" and "ratio" as they were.
        const QJsonObject many = ridgeline::app::compareJson(std::vector<ridgeline::model::Scenario>{sa, sb},
                                                             std::vector<ridgeline::model::Evaluation>{ea, eb});
        const QJsonObject two = ridgeline::app::compareJson(sa, ea, sb, eb);
        for (const char* key : {"a", "b", "ratio"})
            QVERIFY2(many.value(QLatin1String(key)) == two.value(QLatin1String(key)), key);
    }

    /** --compare three times: A and B, C, D side by side with B / A, C / A, D / A, as text, JSON and CSV. */
    /** Trial findings: a ratio of 2.5e14 printed as 300 digits, and a figure negative in one scenario got "-25.335x". */
    void compareRatiosStayReadable()
    {
        QTemporaryDir dir;
        auto write = [&](const char* name, const char* json) {
            QFile f(dir.filePath(QString::fromLatin1(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(json);
        };
        write("cheap.json", R"({"format_version": 1, "economics": {"price_per_gpu_hour": 0.001}})");
        write("dear.json", R"({"format_version": 1, "economics": {"price_per_gpu_hour": 1000000}})");
        const Result r = runRidgeline({QStringLiteral("--report"), QStringLiteral("--scenario"), dir.filePath(QStringLiteral("cheap.json")),
                                       QStringLiteral("--compare"), dir.filePath(QStringLiteral("dear.json"))});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.split('\n');
        bool seen = false;
        for (const QByteArray& line : lines) {
            QVERIFY2(line.size() < 200, line.constData());
            if (line.trimmed().startsWith("economics.price_per_gpu_hour")) {
                seen = true;
                QVERIFY2(line.trimmed().endsWith("1e+09x"), line.constData());
            }
            QVERIFY2(!line.trimmed().endsWith("x") || !line.contains(" -"), line.constData()); // no negative ratio
        }
        QVERIFY(seen);
        // With --screenshot too: the comparison and the picture (the picture was skipped).
        const QString png = dir.filePath(QStringLiteral("both.png"));
        const Result both = runRidgeline({QStringLiteral("--report"), QStringLiteral("--scenario"), dir.filePath(QStringLiteral("cheap.json")),
                                          QStringLiteral("--compare"), dir.filePath(QStringLiteral("dear.json")), QStringLiteral("--screenshot"),
                                          png, QStringLiteral("--size"), QStringLiteral("800x600")});
        QVERIFY2(both.exitCode == 0, both.err.constData());
        QVERIFY(both.out.contains("economics.price_per_gpu_hour"));
        QCOMPARE(QImage(png).size(), QSize(800, 600));
    }

    void compareThreeFiles()
    {
        const QString a = source("resources/scenarios/llama-3.1-8b-h100.json");
        const QStringList others{source("resources/scenarios/incident-drill-13b-a100.json"),
                                 source("resources/scenarios/crossover-70b-h100.json"),
                                 source("resources/scenarios/crossover-405b-h100.json")};
        QStringList args{QStringLiteral("--report"), QStringLiteral("--scenario"), a};
        for (const QString& f : others)
            args << QStringLiteral("--compare") << f;
        // Each scenario evaluated here, independently of the command line.
        std::vector<ridgeline::model::Evaluation> evaluations;
        QStringList names;
        for (const QString& f : QStringList{a} + others) {
            ridgeline::model::Scenario s;
            QVERIFY(ridgeline::app::buildScenario(f, {}, s).isEmpty());
            evaluations.push_back(ridgeline::model::evaluate(s));
            names << QString::fromStdString(s.model.name) + QStringLiteral(" on ") + QString::fromStdString(s.hardware.name);
        }
        const double floorA = evaluations[0].decode.floorSecondsBatch1 * 1e3;

        const Result json = runRidgeline(QStringList(args) << QStringLiteral("--format") << QStringLiteral("json"));
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(o.value(QStringLiteral("labels")).toArray().size(), 4);
        QCOMPARE(o.value(QStringLiteral("names")).toArray().at(3).toString(), names[3]);
        const char* letters[] = {"a", "b", "c", "d"};
        for (int i = 0; i < 4; ++i) {
            const double floor = evaluations[size_t(i)].decode.floorSecondsBatch1 * 1e3;
            QVERIFY(near(at(o, QString::fromLatin1(letters[i]) + QStringLiteral(".decode.floor_ms_batch1")), floor, 1e-9));
            if (i > 0) {
                const QString ratioKey = i == 1 ? QStringLiteral("ratio") : QStringLiteral("ratio_") + QLatin1String(letters[i]);
                QVERIFY2(near(at(o, ratioKey + QStringLiteral(".decode.floor_ms_batch1")), floor / floorA, 1e-9), qPrintable(ratioKey));
            }
        }

        const Result text = runRidgeline(args);
        QCOMPARE(text.exitCode, 0);
        const QStringList lines = QString::fromUtf8(text.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(lines[i], QStringLiteral("%1: %2").arg(QChar(u'A' + i)).arg(names[i]));
        int rows = 0;
        bool sawFloor = false;
        for (const QString& line : lines.mid(4)) {
            const QStringList cells = line.split(QRegularExpression(QStringLiteral("\\s{2,}")), Qt::SkipEmptyParts);
            QVERIFY2(cells.size() == 8, qPrintable(line)); // figure, A, B, C, D, B / A, C / A, D / A
            if (cells[0] == QLatin1String("decode.floor_ms_batch1")) {
                sawFloor = true;
                const double ratioD = evaluations[3].decode.floorSecondsBatch1 * 1e3 / floorA;
                QCOMPARE(cells[7], QString::number(ratioD, 'f', 3) + QLatin1Char('x'));
            }
            ++rows;
        }
        QVERIFY(rows > 50);
        QVERIFY(sawFloor);

        const Result csv = runRidgeline(QStringList(args) << QStringLiteral("--format") << QStringLiteral("csv"));
        QCOMPARE(csv.exitCode, 0);
        const QStringList csvLines = QString::fromUtf8(csv.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(csvLines[0], QStringLiteral("figure,A,B,C,D,B / A,C / A,D / A"));
        QVERIFY2(csvLines[1].startsWith(QStringLiteral("name,") + names[0]), qPrintable(csvLines[1]));
        bool sawCsvFloor = false;
        for (const QString& line : csvLines.mid(2)) {
            if (!line.startsWith(QStringLiteral("decode.floor_ms_batch1,")))
                continue;
            sawCsvFloor = true;
            const QStringList cells = line.split(QLatin1Char(','));
            QCOMPARE(cells.size(), 8);
            for (int i = 0; i < 4; ++i)
                QVERIFY(near(cells[1 + i].toDouble(), evaluations[size_t(i)].decode.floorSecondsBatch1 * 1e3, 1e-12));
            QVERIFY(near(cells[6].toDouble(), evaluations[2].decode.floorSecondsBatch1 * 1e3 / floorA, 1e-12));
        }
        QVERIFY(sawCsvFloor);
    }

    /** h14k: scenarios that keep one preset name are told apart by their file names (and, for one file twice, by their
     *  order) in the text, CSV and JSON headers, as the window's pins; A is the --scenario file, B, C the --compare files. */
    void compareTellsSameNamesApart()
    {
        QTemporaryDir dir;
        auto write = [&](const char* name, const char* json) {
            QFile f(dir.filePath(QString::fromLatin1(name)));
            return f.open(QIODevice::WriteOnly) && f.write(json) > 0 ? f.fileName() : QString();
        };
        const QString slow = write("s.json", R"({"format_version": 1, "workload": {"batch": 1}})");
        const QString fast = write("fast.json", R"({"format_version": 1, "workload": {"batch": 64}})");
        QVERIFY(!slow.isEmpty() && !fast.isEmpty());
        const QString name = QStringLiteral("Llama 3.1 8B on H100 SXM");
        const QStringList args{QStringLiteral("--report"), QStringLiteral("--scenario"), slow, QStringLiteral("--compare"), fast,
                               QStringLiteral("--compare"), slow};
        const Result text = runRidgeline(args);
        QVERIFY2(text.exitCode == 0, text.err.constData());
        const QStringList lines = QString::fromUtf8(text.out).split(QLatin1Char('\n'));
        QCOMPARE(lines.mid(0, 3), (QStringList{QStringLiteral("A: %1 (s.json, #1)").arg(name), QStringLiteral("B: %1 (fast.json)").arg(name),
                                               QStringLiteral("C: %1 (s.json, #2)").arg(name)}));
        const Result csv = runRidgeline(QStringList(args) << QStringLiteral("--format") << QStringLiteral("csv"));
        QCOMPARE(csv.exitCode, 0);
        QCOMPARE(QString::fromUtf8(csv.out.split('\n').at(1)),
                 QStringLiteral("name,\"%1 (s.json, #1)\",%1 (fast.json),\"%1 (s.json, #2)\",,").arg(name)); // RFC 4180 quotes
        const Result json = runRidgeline(QStringList(args) << QStringLiteral("--format") << QStringLiteral("json"));
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(o.value(QStringLiteral("names")).toArray().at(1).toString(), name); // as before: the model and device
        QCOMPARE(o.value(QStringLiteral("files")).toArray(), (QJsonArray{slow, fast, slow}));
        QCOMPARE(o.value(QStringLiteral("titles")).toArray().at(1).toString(), QStringLiteral("%1 (fast.json)").arg(name));
        QCOMPARE(at(o, QStringLiteral("b.scenario.workload.batch")), 64.0); // B is the first --compare file
        // One --compare: the A/B text tells the two apart too; different names stay as they were.
        const Result two = runRidgeline({QStringLiteral("--report"), QStringLiteral("--compare"), fast});
        QVERIFY2(two.out.startsWith(QStringLiteral("A: %1 (defaults)\nB: %1 (fast.json)\n").arg(name).toUtf8()), two.out.constData());
    }

    /** Issue 14: the report's economics at the operating point, keys as the plan's JSON names them; null where unknown. */
    void economicsInTheReport()
    {
        // On 4 GPUs: on the file's one H100 the 70B weights do not fit, and a configuration that cannot run has no figure.
        // At B = 8: 32 sequences of the file's P + O/2 = 32,896 tokens do not fit 4 H100 (at most 14,008 tokens each),
        // so B = 32 has no per-request figure (issue 14 trial); 8 of them fit.
        const QString file = source("resources/scenarios/crossover-70b-h100.json");
        const QStringList four{QStringLiteral("--set"), QStringLiteral("hardware.gpus=4"), QStringLiteral("--set"),
                               QStringLiteral("workload.batch=8")};
        const QJsonObject r = reportFor(QStringList{QStringLiteral("--scenario"), file} + four);
        const QJsonObject x = r.value(QStringLiteral("economics")).toObject();
        for (const char* key : {"cost_per_million_output_tokens", "cost_per_million_input_tokens", "joules_per_output_token",
                                "output_tokens_per_second_per_megawatt", "price_per_gpu_hour", "board_power_watts", "pue",
                                "cost_per_hour", "cost_per_million_output_tokens_all_in", "facility_power_watts"})
            QVERIFY2(x.value(QLatin1String(key)).isDouble() && std::isfinite(x.value(QLatin1String(key)).toDouble()), key);
        QCOMPARE(x.value(QStringLiteral("price_source")).toString(), QStringLiteral("example"));
        QCOMPARE(x.value(QStringLiteral("power_source")).toString(), QStringLiteral("datasheet"));
        QCOMPARE(x.value(QStringLiteral("currency")).toString(), QStringLiteral("USD"));
        QCOMPARE(x.value(QStringLiteral("price_per_gpu_hour")).toDouble(), 2.5); // H100 SXM in gpu-prices-example.json
        QCOMPARE(x.value(QStringLiteral("pue")).toDouble(), 1.2);
        // 4 GPUs x 700 W x 1.2 = 3,360 W; J per output token = 3,360 / out/s, out/s = O / (prefill + decode per request).
        const double requestSeconds = (at(r, QStringLiteral("workload.prefill_ms_per_request"))
                                       + at(r, QStringLiteral("workload.decode_ms_per_request"))) / 1e3;
        QVERIFY(near(at(r, QStringLiteral("economics.joules_per_output_token")), 3360.0 * requestSeconds / 256.0, 1e-9));
        QVERIFY(near(at(r, QStringLiteral("economics.cost_per_million_output_tokens_all_in")),
                     4 * 2.5 / 3600.0 * requestSeconds / 256.0 * 1e6, 1e-9));
        // At (B, S) (issue 14 trial: the figures ignored S): out/s = B / t_step(B, S), decode.step_ms at the file's S.
        const double outAtPoint = 8.0 / (at(r, QStringLiteral("decode.step_ms")) / 1e3);
        QVERIFY(r.value(QStringLiteral("economics")).toObject().value(QStringLiteral("at_batch_context")).toObject()
                    .value(QStringLiteral("fits")).toBool());
        QVERIFY(near(at(r, QStringLiteral("economics.at_batch_context.output_tokens_per_second")), outAtPoint, 1e-9));
        QVERIFY(near(at(r, QStringLiteral("economics.at_batch_context.joules_per_output_token")), 3360.0 / outAtPoint, 1e-9));
        QVERIFY(near(at(r, QStringLiteral("economics.at_batch_context.cost_per_million_output_tokens")),
                     4 * 2.5 / 3600.0 / outAtPoint * 1e6, 1e-9));
        // Another S moves them and not the per-request figures; a (B, S) that does not fit has none (null).
        const QJsonObject longer = reportFor(QStringList{QStringLiteral("--scenario"), file, QStringLiteral("--set"),
                                                         QStringLiteral("workload.context_tokens=8192")} + four);
        QVERIFY(at(longer, QStringLiteral("economics.at_batch_context.joules_per_output_token"))
                > 1.05 * at(r, QStringLiteral("economics.at_batch_context.joules_per_output_token")));
        QCOMPARE(at(longer, QStringLiteral("economics.joules_per_output_token")), at(r, QStringLiteral("economics.joules_per_output_token")));
        const QJsonObject full = reportFor(QStringList{QStringLiteral("--scenario"), file} + four
                                           + QStringList{QStringLiteral("--set"), QStringLiteral("workload.batch=4096")});
        const QJsonObject fullAt = full.value(QStringLiteral("economics")).toObject().value(QStringLiteral("at_batch_context")).toObject();
        QVERIFY(!fullAt.value(QStringLiteral("fits")).toBool(true));
        QVERIFY(!full.value(QStringLiteral("economics")).toObject().value(QStringLiteral("fits")).toBool(true)); // per request too
        QVERIFY(r.value(QStringLiteral("economics")).toObject().value(QStringLiteral("fits")).toBool(false));
        for (const char* key : {"output_tokens_per_second", "cost_per_million_output_tokens", "joules_per_output_token",
                                "output_tokens_per_second_per_megawatt"})
            QVERIFY2(fullAt.value(QLatin1String(key)).isNull(), key);

        // --set economics.price_per_gpu_hour: every $ figure scales with the price, the energy does not.
        const QJsonObject twice = reportFor(QStringList{QStringLiteral("--scenario"), file, QStringLiteral("--set"),
                                                        QStringLiteral("economics.price_per_gpu_hour=5")} + four);
        QCOMPARE(twice.value(QStringLiteral("economics")).toObject().value(QStringLiteral("price_source")).toString(), QStringLiteral("user"));
        for (const char* key : {"economics.cost_per_million_output_tokens", "economics.cost_per_million_input_tokens", "economics.cost_per_hour"})
            QVERIFY2(near(at(twice, QLatin1String(key)), 2.0 * at(r, QLatin1String(key)), 1e-12), key);
        QCOMPARE(at(twice, QStringLiteral("economics.joules_per_output_token")), at(r, QStringLiteral("economics.joules_per_output_token")));
        // PUE 1.5: energy x 1.25.
        const QJsonObject pue = reportFor(QStringList{QStringLiteral("--scenario"), file, QStringLiteral("--set"), QStringLiteral("economics.pue=1.5")}
                                          + four);
        QVERIFY(near(at(pue, QStringLiteral("economics.joules_per_output_token")), 1.25 * at(r, QStringLiteral("economics.joules_per_output_token")), 1e-12));

        // A device the catalogue does not name: no example price, no TDP: null, never 0 or NaN.
        const QJsonObject unknown = reportFor({QStringLiteral("--set"), QStringLiteral("hardware.name=Prototype X")});
        const QJsonObject ux = unknown.value(QStringLiteral("economics")).toObject();
        for (const char* key : {"cost_per_million_output_tokens", "cost_per_million_input_tokens", "joules_per_output_token",
                                "output_tokens_per_second_per_megawatt", "price_per_gpu_hour", "board_power_watts"})
            QVERIFY2(ux.value(QLatin1String(key)).isNull(), key);
        QCOMPARE(ux.value(QStringLiteral("price_source")).toString(), QStringLiteral("unknown"));

        // The text report names the example price as an example, and what to set where a figure is unknown.
        const Result text = runRidgeline(QStringList{QStringLiteral("--report"), QStringLiteral("--scenario"), file} + four);
        QVERIFY2(text.out.contains("EXAMPLE price for H100 SXM"), text.out.constData());
        QVERIFY2(text.out.contains("per 1M out tokens at (B, S)"), text.out.constData());
        QVERIFY(text.out.contains("datasheet TDP of H100 SXM"));
        const Result unknownText = runRidgeline({QStringLiteral("--report"), QStringLiteral("--set"), QStringLiteral("hardware.name=Prototype X")});
        QVERIFY(unknownText.out.contains("unknown: set economics.price_per_gpu_hour"));
        QVERIFY(unknownText.out.contains("unknown: set hardware.board_power_watts"));
    }

    /** Issue 14 trial: batch 4,096 on one GPU was priced per request (0.06 USD/1M) though 4,096 sequences at P + O/2
     *  do not fit. In process (no run): the report's JSON and text, --compare's table and the numbers panel's text. */
    void perRequestEconomicsNeedTheBatchToFit()
    {
        ridgeline::model::Scenario fits = ridgeline::model::defaultScenario();
        fits.workload.batch = 8;
        ridgeline::model::Scenario full = fits;
        full.workload.batch = 4096;
        const ridgeline::model::Evaluation ef = ridgeline::model::evaluate(fits), eb = ridgeline::model::evaluate(full);
        QVERIFY(ef.capacity.weightsFit && eb.capacity.weightsFit);
        const QJsonObject a = ridgeline::app::reportJson(fits, ef).value(QStringLiteral("economics")).toObject();
        const QJsonObject b = ridgeline::app::reportJson(full, eb).value(QStringLiteral("economics")).toObject();
        QVERIFY(a.value(QStringLiteral("fits")).toBool(false));
        QVERIFY(a.value(QStringLiteral("cost_per_million_output_tokens")).isDouble());
        QVERIFY(b.contains(QStringLiteral("fits")) && !b.value(QStringLiteral("fits")).toBool(true));
        for (const char* key : {"cost_per_million_output_tokens", "cost_per_million_input_tokens", "cost_per_million_output_tokens_all_in",
                                "joules_per_output_token", "output_tokens_per_second_per_megawatt", "cost_per_hour"})
            QVERIFY2(b.contains(QLatin1String(key)) && b.value(QLatin1String(key)).isNull(), key);
        const QString text = ridgeline::app::reportText(full, eb);
        QVERIFY2(text.contains(QStringLiteral("does not fit (4,096 sequences at P + O/2 = ")), qPrintable(text));
        const QString compared = ridgeline::app::compareText(std::vector{fits, full}, std::vector{ef, eb});
        bool sawCost = false;
        for (const QString& line : compared.split(QLatin1Char('\n')))
            if (line.startsWith(QStringLiteral("economics.cost_per_million_output_tokens "))) {
                sawCost = true;
                QVERIFY2(line.contains(QStringLiteral("does not fit")), qPrintable(line));
            }
        QVERIFY(sawCost);
        for (const ridgeline::views::EconomicsText& t : ridgeline::views::economicsTexts(full, eb))
            if (t.key == QLatin1String("costOutput") || t.key == QLatin1String("joulesPerToken"))
                QCOMPARE(t.text, QStringLiteral("does not fit"));
    }

    /** The N-way comparison carries the economics rows with their ratios to A, in JSON and CSV. */
    void tensorParallelLinkIsTheOneItIsPricedAt()
    {
        // New-user trial: TP16 on H100 was labelled "(450 GB/s link)" while its all-reduce is priced at the 50 GB/s
        // inter-node link (16 GPUs > the 8-GPU scale-up domain). The label names the link the step time uses.
        const QString file = source("resources/scenarios/crossover-70b-h100.json");
        for (int gpus : {8, 16}) {
            const Result r = runRidgeline({QStringLiteral("--report"), QStringLiteral("--scenario"), file, QStringLiteral("--set"),
                                           QStringLiteral("hardware.gpus=%1").arg(gpus)});
            QCOMPARE(r.exitCode, 0);
            const QString out = QString::fromUtf8(r.out);
            if (gpus == 8)
                QVERIFY2(out.contains(QStringLiteral("8 GPUs in tensor parallelism (450 GB/s link)")), qPrintable(out));
            else
                QVERIFY2(out.contains(QStringLiteral("16 GPUs in tensor parallelism (all-reduce at 50 GB/s across nodes: "
                                                     "wider than the 8-GPU scale-up domain, whose link is 450 GB/s)")),
                         qPrintable(out));
            // Issue 14 trial: prefill at TP16 across nodes read "compute-bound"; most of its time is the all-reduces.
            // The formula's weight term is each GPU's, W / T.
            for (const QString& line : out.split(QLatin1Char('\n')))
                if (line.trimmed().startsWith(QStringLiteral("time "))) {
                    QVERIFY2(line.contains(gpus == 16 ? QStringLiteral("communication-bound") : QStringLiteral("compute-bound")), qPrintable(line));
                    QVERIFY2(line.contains(QStringLiteral("W / T")), qPrintable(line));
                }
            // The read per step is each GPU's, its cache share included (new-user trial, stop 30).
            QVERIFY2(out.contains(QStringLiteral(" + B * S * kv_tok per GPU")), qPrintable(out));
        }
    }

    void compareCarriesTheEconomics()
    {
        const QString a = source("resources/scenarios/llama-3.1-8b-h100.json");
        const QString b = source("resources/scenarios/crossover-70b-h100.json");
        const QString c = source("resources/scenarios/crossover-405b-h100.json");
        const QStringList args{QStringLiteral("--report"), QStringLiteral("--scenario"), a, QStringLiteral("--compare"), b,
                               QStringLiteral("--compare"), c};
        // B is the 70B on 4 GPUs; C the 405B on the file's one H100, where its weights do not fit (issue 14 trial: --compare
        // priced it): no figure, "does not fit" in the text and CSV tables, null in JSON.
        QTemporaryDir four;
        QFile bFile(b);
        QVERIFY(bFile.open(QIODevice::ReadOnly));
        QJsonObject onFour = QJsonDocument::fromJson(bFile.readAll()).object();
        QJsonObject hardware = onFour.value(QStringLiteral("hardware")).toObject();
        hardware.insert(QStringLiteral("gpus"), 4);
        onFour.insert(QStringLiteral("hardware"), hardware);
        QFile fourFile(four.filePath(QStringLiteral("70b-4.json")));
        QVERIFY(fourFile.open(QIODevice::WriteOnly));
        fourFile.write(QJsonDocument(onFour).toJson());
        fourFile.close();
        QStringList args4 = args;
        args4[4] = fourFile.fileName();
        const Result json = runRidgeline(QStringList(args4) << QStringLiteral("--format") << QStringLiteral("json"));
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        for (const char* key : {"cost_per_million_output_tokens", "cost_per_million_input_tokens", "joules_per_output_token",
                                "output_tokens_per_second_per_megawatt"}) {
            const QString k = QStringLiteral(".economics.") + QLatin1String(key);
            const double va = at(o, QStringLiteral("a") + k), vb = at(o, QStringLiteral("b") + k);
            QVERIFY2(va > 0 && vb > 0, key);
            QVERIFY2(near(at(o, QStringLiteral("ratio") + k), vb / va, 1e-12), key);
            QVERIFY2(o.value(QStringLiteral("c")).toObject().value(QStringLiteral("economics")).toObject().value(QLatin1String(key)).isNull(), key);
            QVERIFY2(o.value(QStringLiteral("ratio_c")).toObject().value(QStringLiteral("economics")).toObject().value(QLatin1String(key)).isNull(), key);
        }
        const Result csv = runRidgeline(QStringList(args4) << QStringLiteral("--format") << QStringLiteral("csv"));
        QCOMPARE(csv.exitCode, 0);
        QVERIFY(csv.out.contains("\neconomics.cost_per_million_output_tokens,"));
        QVERIFY2(csv.out.contains(",does not fit,"), csv.out.constData());
        QVERIFY(csv.out.contains("\neconomics.price_source,example,example,example,,"));
        const Result text = runRidgeline(args4);
        QCOMPARE(text.exitCode, 0);
        for (const QByteArray& line : text.out.split('\n'))
            if (line.startsWith("economics.cost_per_million_output_tokens ") || line.startsWith("economics.joules_per_output_token "))
                QVERIFY2(line.contains("does not fit"), line.constData());
        // Different currencies: no ratio of money figures (no exchange rate); the energy ratio stays.
        QTemporaryDir dir;
        const QString euros = dir.filePath(QStringLiteral("eur.json"));
        QFile f(euros);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format_version": 1, "economics": {"currency": "EUR", "price_per_gpu_hour": 2.3}})");
        f.close();
        const Result eur = runRidgeline({QStringLiteral("--report"), QStringLiteral("--format"), QStringLiteral("json"),
                                         QStringLiteral("--compare"), euros, QStringLiteral("--compare"), euros});
        QCOMPARE(eur.exitCode, 0);
        const QJsonObject e = QJsonDocument::fromJson(eur.out).object();
        QCOMPARE(e.value(QStringLiteral("b")).toObject().value(QStringLiteral("economics")).toObject().value(QStringLiteral("currency")).toString(),
                 QStringLiteral("EUR"));
        const QJsonObject ratio = e.value(QStringLiteral("ratio")).toObject().value(QStringLiteral("economics")).toObject();
        QVERIFY(ratio.value(QStringLiteral("cost_per_million_output_tokens")).isNull());
        QVERIFY(near(ratio.value(QStringLiteral("joules_per_output_token")).toDouble(), 1.0, 1e-12));
        // The (B, S) money figures too (adversarial trial: they were divided across the two currencies).
        const QJsonObject atPoint = ratio.value(QStringLiteral("at_batch_context")).toObject();
        QVERIFY(atPoint.contains(QStringLiteral("cost_per_million_output_tokens")));
        QVERIFY(atPoint.value(QStringLiteral("cost_per_million_output_tokens")).isNull());
        QVERIFY(atPoint.value(QStringLiteral("cost_per_hour")).isNull());
        QVERIFY(near(atPoint.value(QStringLiteral("joules_per_output_token")).toDouble(), 1.0, 1e-12));
    }

    /** A malformed --compare file: exit 2, one line naming the file, its letter and the field. */
    void compareBadFile()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model": {"params": "lots"}})");
        f.close();
        const QString good = source("resources/scenarios/crossover-70b-h100.json");
        const Result r = runRidgeline({QStringLiteral("--report"), QStringLiteral("--compare"), good, QStringLiteral("--compare"), bad});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--compare (C): " + bad.toUtf8() + ": model.params"), r.err.constData());
        QVERIFY(r.out.isEmpty());
        const Result empty = runRidgeline({QStringLiteral("--report"), QStringLiteral("--compare"), good, QStringLiteral("--compare"), QString()});
        QCOMPARE(empty.exitCode, 2);
        QVERIFY2(empty.err.contains("--compare: empty value"), empty.err.constData());
    }

    void servingWhatIfKeysInTheReport()
    {
        const QJsonObject r = reportFor({QStringLiteral("--set"), QStringLiteral("serving.prefix_tokens=1800")});
        for (const char* key : {"capacity.kv_budget_bytes", "capacity.max_sequences_paged", "capacity.max_sequences_contiguous_at_max_context",
                                "slo.ttft_ms", "workload.prefill_share", "prefix_cache.saved_ms_per_request",
                                "speculative.speedup", "speculative.discarded_fraction"})
            QVERIFY2(std::isfinite(at(r, QString::fromUtf8(key))), key);
        QVERIFY(near(at(r, QStringLiteral("speculative.speedup")), 2.31));
    }

    void calibrateFromCsv()
    {
        const Result r = runRidgeline({QStringLiteral("--calibrate"), source("resources/calibration/example-h100-llama-8b.csv")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonObject eta = o.value(QStringLiteral("coefficients")).toObject().value(QStringLiteral("bandwidth_efficiency")).toObject();
        // The example was made from eta_bw 0.72 with 1 % noise.
        QVERIFY(std::abs(eta.value(QStringLiteral("value")).toDouble() - 0.72)
                <= 3 * eta.value(QStringLiteral("standard_error")).toDouble());
        QVERIFY(o.value(QStringLiteral("itl")).toObject().value(QStringLiteral("mape_after")).toDouble()
                < o.value(QStringLiteral("itl")).toObject().value(QStringLiteral("mape_before")).toDouble());
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.csv"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("batch,itl (us)\n1,5\n");
        f.close();
        const Result refused = runRidgeline({QStringLiteral("--calibrate"), bad});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY(refused.err.contains("itl_us"));
    }

    void predictMeasuredFile()
    {
        const QStringList base{QStringLiteral("--predict"), source("tests/data/measured/trt09-llama2-7b-h100-tp1-fp16.csv"),
                               QStringLiteral("--scenario"), source("tests/data/measured/trt09-llama2-7b-h100-tp1-fp16.scenario.json"),
                               QStringLiteral("--set"), QStringLiteral("efficiency.bandwidth=0.75")};
        const Result r = runRidgeline(base + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonArray points = o.value(QStringLiteral("points")).toArray();
        QCOMPARE(points.size(), 31);
        // Each residual is (predicted - measured) / measured of the numbers printed beside it, and the MAPE their mean.
        double sum = 0;
        int n = 0;
        for (const QJsonValue v : points) {
            const QJsonObject itl = v.toObject().value(QStringLiteral("itl")).toObject();
            QCOMPARE(itl.value(QStringLiteral("statistic")).toString(), QStringLiteral("mean"));
            const double m = itl.value(QStringLiteral("measured_ms")).toDouble(), p = itl.value(QStringLiteral("predicted_ms")).toDouble();
            QVERIFY(m > 0 && p > 0);
            QVERIFY(std::abs(itl.value(QStringLiteral("residual")).toDouble() - (p - m) / m) < 1e-12);
            sum += std::abs((p - m) / m);
            ++n;
        }
        QVERIFY(std::abs(o.value(QStringLiteral("mape")).toObject().value(QStringLiteral("itl")).toDouble() - sum / n) < 1e-12);
        QCOMPARE(points.at(0).toObject().value(QStringLiteral("itl")).toObject().value(QStringLiteral("measured_ms")).toDouble(), 6.7616);
        QCOMPARE(points.at(3).toObject().value(QStringLiteral("load")).toString(), QStringLiteral("static_batch"));
        QVERIFY(o.value(QStringLiteral("step_cost_terms")).toArray().size() >= 3);

        const Result text = runRidgeline(base);
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("MAPE: ITL"));
        QVERIFY(text.out.contains("Step cost terms"));
        QVERIFY(text.out.contains("columns ignored")); // model, gpu, engine, ... said once
        // The per-request TTFT overhead and a scenario token budget are named among the terms only when set.
        QVERIFY(!text.out.contains("efficiency.ttft_overhead_ms") && !text.out.contains("serving.max_num_tokens"));
        const Result withTerms = runRidgeline(base + QStringList{QStringLiteral("--set"), QStringLiteral("efficiency.ttft_overhead_ms=7"),
                                                                 QStringLiteral("--set"), QStringLiteral("serving.max_num_tokens=32768")});
        QCOMPARE(withTerms.exitCode, 0);
        QVERIFY2(withTerms.out.contains("TTFT = 7 ms per request before the engine") && withTerms.out.contains("32768 per step (serving.max_num_tokens)"),
                 withTerms.out.constData());
        // The prefill attention MFU likewise, when set and not MFU prefill (docs/cost-model.md, "Serving-step costs").
        QVERIFY(!text.out.contains("efficiency.mfu_prefill_attention"));
        const Result withAttention = runRidgeline(base + QStringList{QStringLiteral("--set"), QStringLiteral("efficiency.mfu_prefill_attention=0.41")});
        QCOMPARE(withAttention.exitCode, 0);
        QVERIFY2(withAttention.out.contains("prefill attention at 0.41 of peak FLOP/s"), withAttention.out.constData());

        const Result csv = runRidgeline(base + QStringList{QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(csv.exitCode, 0);
        const QList<QByteArray> lines = csv.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 32);
        QVERIFY(lines.at(0).startsWith("label,set,load,concurrency"));

        // Refusals name the option or the file's problem.
        const Result v2 = runRidgeline(base + QStringList{QStringLiteral("--scheduler"), QStringLiteral("v2")});
        QCOMPARE(v2.exitCode, 2);
        QVERIFY2(v2.err.contains("--scheduler v2: expected v1, v0, v0-prompt-first or trtllm"), v2.err.constData());
        // vLLM V0 without chunked prefill, from the option or from the scenario key (which replaces the option).
        // (Without --scenario: the defaults, and a note that the set's scenario lies beside the file unused.)
        const Result promptFirst = runRidgeline({QStringLiteral("--predict"), source("tests/data/measured/trt09-llama2-7b-h100-tp1-fp16.csv"),
                                                 QStringLiteral("--scheduler"), QStringLiteral("v0-prompt-first")});
        QCOMPARE(promptFirst.exitCode, 0);
        QVERIFY2(promptFirst.out.contains("scheduler: vLLM V0 without chunked prefill"), promptFirst.out.constData());
        QVERIFY2(promptFirst.out.contains("trt09-llama2-7b-h100-tp1-fp16.scenario.json lies beside the file and is not used: predicted "
                                          "against the default scenario; add --scenario ")
                     && promptFirst.out.contains("tests/data/measured/trt09-llama2-7b-h100-tp1-fp16.scenario.json to predict with it"),
                 promptFirst.out.constData());
        QVERIFY(!text.out.contains("lies beside the file")); // --scenario is that file
        const Result keyed = runRidgeline(base + QStringList{QStringLiteral("--set"), QStringLiteral("serving.scheduler=v0-prompt-first")});
        QCOMPARE(keyed.exitCode, 0);
        QVERIFY2(keyed.out.contains("scheduler: vLLM V0 without chunked prefill (whole prompts first: a step that admits prompts holds no "
                                    "decodes; whole prompt's KV reserved at admission) (serving.scheduler)"),
                 keyed.out.constData());
        const Result badKey = runRidgeline(base + QStringList{QStringLiteral("--set"), QStringLiteral("serving.scheduler=v2")});
        QCOMPARE(badKey.exitCode, 2);
        QVERIFY2(badKey.err.contains("serving.scheduler = \"v2\""), badKey.err.constData());
        const Result budget = runRidgeline(base + QStringList{QStringLiteral("--token-budget"), QStringLiteral("0")});
        QCOMPARE(budget.exitCode, 2);
        QVERIFY(budget.err.contains("--token-budget 0"));
        QCOMPARE(runRidgeline({QStringLiteral("--report"), QStringLiteral("--scheduler"), QStringLiteral("v0")}).exitCode, 2);
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.csv"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("concurrency,isl,osl,itl_ms\n4,100,fifty,5\n");
        f.close();
        const Result refused = runRidgeline({QStringLiteral("--predict"), bad});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("line 2, column osl"), refused.err.constData());
    }

    /** --screenshot with --predict FILE: the window on the Calibration tab's "Predict a benchmark" page, predicted. */
    void screenshotOfAPrediction()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("predict.png"));
        const QStringList base{QStringLiteral("--predict"), source("tests/data/measured/trt09-llama2-7b-h100-tp1-fp16.csv"),
                               QStringLiteral("--scenario"), source("tests/data/measured/trt09-llama2-7b-h100-tp1-fp16.scenario.json")};
        const Result r = runRidgeline(base + QStringList{QStringLiteral("--screenshot"), path, QStringLiteral("--size"), QStringLiteral("1600x1000")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.isEmpty()); // the window, not the text report
        const QImage image(path);
        QCOMPARE(image.size(), QSize(1600, 1000));
        image.save(QStringLiteral("/tmp/ridgeline-predict-screenshot.png")); // for a person to look at

        // A file the reader refuses: status 2, naming the option and the file; --format has no meaning here.
        const QString bad = dir.filePath(QStringLiteral("bad.csv"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("concurrency,isl,osl,itl_ms\n4,100,fifty,5\n");
        f.close();
        const Result refused = runRidgeline({QStringLiteral("--predict"), bad, QStringLiteral("--screenshot"), path});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("--predict") && refused.err.contains("bad.csv") && refused.err.contains("column osl"), refused.err.constData());
        const Result format = runRidgeline(base + QStringList{QStringLiteral("--screenshot"), path, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(format.exitCode, 2);
    }

    /** --screenshot with --simulate FILE: the window on the Simulation tab with the file run (it printed the text
     *  report and wrote no picture before); a refused file is named; --format has no meaning here. */
    void screenshotOfASimulation()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("simulation.png"));
        const QString file = source("resources/simulations/disaggregated-chat-llama-3.1-70b-h100.json");
        const Result r = runRidgeline({QStringLiteral("--screenshot"), path, QStringLiteral("--size"), QStringLiteral("1600x1000"),
                                       QStringLiteral("--simulate"), file});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.isEmpty(), r.out.constData()); // the window, not the text report
        const QImage image(path);
        QCOMPARE(image.size(), QSize(1600, 1000));
        image.save(QStringLiteral("/tmp/ridgeline-simulation-screenshot.png")); // for a person to look at

        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"simulation": {"requests": 10, "pipeline_stages": 3, "classes": [{"name": "c", "rate_per_s": 1,
                    "prompt": {"dist": "fixed", "value": 10}, "output": {"dist": "fixed", "value": 10}}]}})");
        f.close();
        const Result refused = runRidgeline({QStringLiteral("--screenshot"), path, QStringLiteral("--simulate"), bad});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("--simulate") && refused.err.contains("bad.json") && refused.err.contains("PP 3 does not divide the 32 layers"),
                 refused.err.constData());
        const Result format = runRidgeline({QStringLiteral("--screenshot"), path, QStringLiteral("--simulate"), file,
                                            QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(format.exitCode, 2);
    }

    /** The shipped disaggregated example: its pools in the JSON (keys added: pipeline_stages ... prefill_replicas,
     *  each replica's pool) and in the text. */
    void simulateDisaggregatedPools()
    {
        const QString file = source("resources/simulations/disaggregated-chat-llama-3.1-70b-h100.json");
        const Result json = runRidgeline({QStringLiteral("--simulate"), file, QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        const QJsonObject sim = o.value(QStringLiteral("simulation")).toObject();
        QCOMPARE(sim.value(QStringLiteral("prefill_replicas")).toInt(), 3);
        QCOMPARE(sim.value(QStringLiteral("replicas")).toInt(), 2);
        QCOMPARE(sim.value(QStringLiteral("pipeline_stages")).toInt(), 1);
        QVERIFY(sim.value(QStringLiteral("prefill_busy_s")).toDouble() > 0);
        const QJsonArray replicas = o.value(QStringLiteral("replicas")).toArray();
        QCOMPARE(replicas.size(), 5);
        QCOMPARE(replicas.at(0).toObject().value(QStringLiteral("pool")).toString(), QStringLiteral("prefill"));
        QCOMPARE(replicas.at(2).toObject().value(QStringLiteral("pool")).toString(), QStringLiteral("prefill"));
        QCOMPARE(replicas.at(3).toObject().value(QStringLiteral("pool")).toString(), QStringLiteral("decode"));
        // Every request prefills in the prefill pool and decodes in the decode pool.
        double prefillRequests = 0, decodeRequests = 0;
        for (int i = 0; i < replicas.size(); ++i)
            (i < 3 ? prefillRequests : decodeRequests) += replicas.at(i).toObject().value(QStringLiteral("requests")).toDouble();
        QCOMPARE(prefillRequests, o.value(QStringLiteral("requests")).toDouble());
        QCOMPARE(decodeRequests, prefillRequests);
        const Result text = runRidgeline({QStringLiteral("--simulate"), file});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("Disaggregated: 3 prefill and 2 decode replicas"), text.out.constData());
        QVERIFY2(text.out.contains("     P2 ") && text.out.contains("     D1 "), text.out.constData());
    }

    void screenshotWritesAPng()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("window.png"));
        const Result r = runRidgeline({QStringLiteral("--screenshot"), path, QStringLiteral("--size"), QStringLiteral("1280x800")});
        QCOMPARE(r.exitCode, 0);
        QImage image(path);
        QCOMPARE(image.size(), QSize(1280, 800));
        const Result bad = runRidgeline({QStringLiteral("--screenshot"), QStringLiteral("/nonexistent-dir/window.png")});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY(bad.err.contains("/nonexistent-dir/window.png"));
    }

    /** --screenshot with --compare FILE...: each FILE pinned in the window; more than six refused; a bad one named. */
    void screenshotWithPinnedScenarios()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("nway.png"));
        const QString file = source("resources/scenarios/crossover-70b-h100.json");
        QStringList args{QStringLiteral("--screenshot"), path, QStringLiteral("--size"), QStringLiteral("1280x800")};
        for (int i = 0; i < 3; ++i)
            args << QStringLiteral("--compare") << file;
        const Result r = runRidgeline(args);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QImage(path).size(), QSize(1280, 800));
        // h14k: the scenario is pinned as A (the letters of --report --compare), so six files (B to G) are one too many.
        for (int i = 0; i < 3; ++i)
            args << QStringLiteral("--compare") << file;
        const Result six = runRidgeline(args);
        QCOMPARE(six.exitCode, 2);
        QVERIFY2(six.err.contains("5 at most (B to F; the scenario is A)"), six.err.constData());
        const Result bad = runRidgeline({QStringLiteral("--screenshot"), path, QStringLiteral("--compare"), dir.filePath(QStringLiteral("missing.json"))});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("missing.json"), bad.err.constData());
        const Result alone = runRidgeline({QStringLiteral("--compare"), file});
        QCOMPARE(alone.exitCode, 2);
        QVERIFY2(alone.err.contains("--compare goes with --report"), alone.err.constData());
    }

    /** Issue 15: --list-hardware prints the built-in catalogue as a text table, JSON or CSV. */
    void listHardwareText()
    {
        const Result r = runRidgeline({QStringLiteral("--list-hardware")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        const QString text = QString::fromUtf8(r.out);
        const QStringList lines = text.split(QLatin1Char('\n'));
        for (const QString& column : {QStringLiteral("device"), QStringLiteral("bf16"), QStringLiteral("fp8"), QStringLiteral("int8"),
                                      QStringLiteral("fp4"), QStringLiteral("ridge"), QStringLiteral("power"), QStringLiteral("link"),
                                      QStringLiteral("scale-up")})
            QVERIFY2(text.contains(column), qPrintable(column));
        QVERIFY(text.contains(QStringLiteral("\nSources\n")));
        for (const ridgeline::model::HardwarePreset& p : ridgeline::model::hardwarePresets()) {
            const QString name = QString::fromStdString(p.hardware.name);
            // One table row starts with the name, one source line names it with its id.
            int rows = 0;
            for (const QString& line : lines)
                rows += line.startsWith(name + QLatin1Char(' ')) ? 1 : 0;
            QVERIFY2(rows >= 1, qPrintable(name));
            QVERIFY2(text.contains(QStringLiteral("  %1 (%2;").arg(name, QString::fromStdString(p.id))), qPrintable(name));
        }
        // The H100 SXM row carries the ridge point of reference value 11 (989.4 / 3.35 = 295 FLOP/byte).
        QString h100;
        for (const QString& line : lines)
            if (line.startsWith(QStringLiteral("H100 SXM ")))
                h100 = line;
        QVERIFY2(h100.contains(QRegularExpression(QStringLiteral("\\b295\\b"))), qPrintable(h100));
        QVERIFY(!text.contains(QStringLiteral("nan"), Qt::CaseInsensitive));
    }

    /** Found by a new-user trial: the text form's devices lacked their sources; each has one, with its date. */
    void listHardwareTextSourcesAreDated()
    {
        const Result r = runRidgeline({QStringLiteral("--list-hardware")});
        QCOMPARE(r.exitCode, 0);
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(text.contains(QStringLiteral("sources, with their dates, below the table")), qPrintable(text.left(400)));
        const QString sources = text.mid(text.indexOf(QStringLiteral("\nSources\n")));
        for (const ridgeline::model::HardwarePreset& p : ridgeline::model::hardwarePresets()) {
            const QString name = QString::fromStdString(p.hardware.name);
            QString line;
            for (const QString& l : sources.split(QLatin1Char('\n')))
                if (l.startsWith(QStringLiteral("  %1 (%2;").arg(name, QString::fromStdString(p.id))))
                    line = l;
            QVERIFY2(line.contains(QRegularExpression(QStringLiteral("\\b20[0-9][0-9]\\b"))), qPrintable(name + QStringLiteral(": ") + line));
        }
    }

    /** Found by a new-user trial: the command line could not pick a catalogue device (hardware.name only renames). */
    void hardwarePresetLoadsTheDevice()
    {
        const QJsonObject r = reportFor({QStringLiteral("--set"), QStringLiteral("hardware.gpus=2"), QStringLiteral("--set"),
                                         QStringLiteral("hardware.preset=H200")});
        const auto& presets = ridgeline::model::hardwarePresets();
        const auto h200 = std::find_if(presets.begin(), presets.end(), [](const auto& p) { return p.id == "h200"; });
        QVERIFY(h200 != presets.end());
        const Result text = runRidgeline({QStringLiteral("--report"), QStringLiteral("--set"), QStringLiteral("hardware.preset=h200")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("on H200"), text.out.left(200).constData());
        QCOMPARE(at(r, QStringLiteral("gpus")), 2.0); // the tensor parallelism is kept
        // 141 GB of HBM: the KV budget follows the device's memory, not the H100's 80 GB.
        const QJsonObject h100 = reportFor({QStringLiteral("--set"), QStringLiteral("hardware.gpus=2")});
        QCOMPARE(at(r, QStringLiteral("capacity.kv_budget_bytes")) - at(h100, QStringLiteral("capacity.kv_budget_bytes")),
                 (h200->hardware.memoryBytes - 80e9) * 0.9);
        // A later --set overrides one of its figures.
        const QJsonObject later = reportFor({QStringLiteral("--set"), QStringLiteral("hardware.preset=H200"), QStringLiteral("--set"),
                                             QStringLiteral("hardware.memory_bytes=100e9")});
        const QJsonObject h100At100 = reportFor({QStringLiteral("--set"), QStringLiteral("hardware.memory_bytes=100e9")});
        QCOMPARE(at(later, QStringLiteral("capacity.kv_budget_bytes")), at(h100At100, QStringLiteral("capacity.kv_budget_bytes")));
        // An unknown name: exit 2, the nearest names listed.
        const Result bad = runRidgeline({QStringLiteral("--report"), QStringLiteral("--set"), QStringLiteral("hardware.preset=H210")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("hardware.preset = \"H210\": no such device in the catalogue; nearest: ") && bad.err.contains("h200"),
                 bad.err.constData());
        QVERIFY(bad.out.isEmpty());
    }

    /** Found by a new-user trial: a context past the model's trained one (max_position_embeddings) was not said. */
    void contextPastTheTrainedOneIsFlagged()
    {
        const QString config = source("tests/data/configs/qwen3-8b.json"); // max_position_embeddings 40960
        const Result text = runRidgeline({QStringLiteral("--report"), QStringLiteral("--model-config"), config, QStringLiteral("--set"),
                                          QStringLiteral("workload.context_tokens=65536")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("longer than the model was trained for, model.max_position_embeddings = 40,960"), text.out.constData());
        QVERIFY2(text.out.contains("than the model was trained for (model.max_position_embeddings 40960)"), text.out.constData()); // import note
        const QJsonObject r = reportFor({QStringLiteral("--model-config"), config, QStringLiteral("--set"), QStringLiteral("serving.max_context_tokens=32768"),
                                         QStringLiteral("--set"), QStringLiteral("workload.context_tokens=4096")});
        QCOMPARE(r.value(QStringLiteral("capacity")).toObject().value(QStringLiteral("max_position_embeddings")).toInt(), 40960);
        QCOMPARE(r.value(QStringLiteral("capacity")).toObject().value(QStringLiteral("context_exceeds_max_position_embeddings")).toBool(), false);
        const QJsonObject past = reportFor({QStringLiteral("--model-config"), config});
        QCOMPARE(past.value(QStringLiteral("capacity")).toObject().value(QStringLiteral("context_exceeds_max_position_embeddings")).toBool(), true);
    }

    /** Found by a new-user trial: the KV-per-token formula said L for a hybrid, whose count is of attention layers. */
    void hybridKvFormulaNamesAttentionLayers()
    {
        const Result text = runRidgeline({QStringLiteral("--report"), QStringLiteral("--model-config"),
                                          source("tests/data/configs/qwen3-coder-next-nvfp4.json")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("2 * L_attn * H_kv * h * b_kv, L_attn = 12 of L = 48 layers"), text.out.constData());
        const Result dense = runRidgeline({QStringLiteral("--report")});
        QVERIFY2(dense.out.contains("2 * L * H_kv * h * b_kv") && !dense.out.contains("L_attn"), dense.out.constData());
    }

    void listHardwareJsonAndCsv()
    {
        const auto& presets = ridgeline::model::hardwarePresets();
        const Result r = runRidgeline({QStringLiteral("--list-hardware"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonArray devices = doc.object().value(QStringLiteral("devices")).toArray();
        QCOMPARE(devices.size(), qsizetype(presets.size()));
        for (qsizetype i = 0; i < devices.size(); ++i) {
            const QJsonObject d = devices.at(i).toObject();
            const ridgeline::model::Hardware& h = presets[size_t(i)].hardware;
            QCOMPARE(d.value(QStringLiteral("id")).toString(), QString::fromStdString(presets[size_t(i)].id));
            QCOMPARE(d.value(QStringLiteral("peak_flops_bf16")).toDouble(), h.peakFlopsPerSecond);
            QCOMPARE(d.value(QStringLiteral("bandwidth_bytes_per_second")).toDouble(), h.bandwidthBytesPerSecond);
            QVERIFY(near(d.value(QStringLiteral("ridge_flop_per_byte")).toDouble(), h.peakFlopsPerSecond / h.bandwidthBytesPerSecond, 1e-12));
            // None published is null, never a made-up 0.
            QCOMPARE(d.value(QStringLiteral("peak_flops_fp4")).isNull(), !(h.peakFlopsFp4 > 0));
            QVERIFY(d.value(QStringLiteral("source")).toString().size() > 20);
            // Issue 14 trial: the scale-up domain was not listed; an added key (GPUs joined at the link's bandwidth).
            QCOMPARE(d.value(QStringLiteral("scale_up_domain")).toDouble(), double(h.scaleUpDomainGpus));
            for (const char* key : {"name", "memory_bytes", "memory_reported_bytes", "peak_flops_fp8", "peak_ops_int8",
                                    "board_power_watts", "link_bandwidth_bytes_per_second", "link"})
                QVERIFY2(d.contains(QString::fromUtf8(key)), key);
        }

        const Result csv = runRidgeline({QStringLiteral("--list-hardware"), QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(csv.exitCode, 0);
        const QStringList rows = QString::fromUtf8(csv.out).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(rows.size(), qsizetype(presets.size()) + 1);
        QVERIFY(rows.first().startsWith(QStringLiteral("id,device,memory [GB],")));
        QVERIFY2(rows.first().endsWith(QStringLiteral(",source,scale-up [GPUs]")), qPrintable(rows.first())); // added last
        QVERIFY2(rows.at(1).endsWith(QLatin1Char(',') + QString::number(presets.front().hardware.scaleUpDomainGpus)), qPrintable(rows.at(1)));
        QVERIFY(rows.at(1).startsWith(QString::fromStdString(presets.front().id) + QLatin1Char(',')));
    }

    void listHardwareRefusesWhatItCannotDo()
    {
        const Result xml = runRidgeline({QStringLiteral("--list-hardware"), QStringLiteral("--format"), QStringLiteral("xml")});
        QCOMPARE(xml.exitCode, 2);
        QVERIFY2(xml.err.contains("--format xml") && xml.err.contains("csv"), xml.err.constData());
        const Result withReport = runRidgeline({QStringLiteral("--list-hardware"), QStringLiteral("--report")});
        QCOMPARE(withReport.exitCode, 2);
        QVERIFY2(withReport.err.contains("--list-hardware goes alone"), withReport.err.constData());
        QVERIFY(withReport.out.isEmpty());
    }

    /** Issue 14: --plan prints the shipped example's ranked plans as text, JSON and CSV; bad files exit 2. */
    void planFormats()
    {
        const QString file = QStringLiteral(RIDGELINE_SOURCE_DIR "/resources/plans/llama-3.1-70b-chat.json");
        const Result text = runRidgeline({QStringLiteral("--plan"), file});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("Takeaway: Cheapest: ") && text.out.contains("Ranked plans") && text.out.contains("L4: misses ITL"),
                 text.out.constData());
        QVERIFY(text.out.contains("not percentiles"));
        const Result json = runRidgeline({QStringLiteral("--plan"), file, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        QVERIFY(!o.value(QStringLiteral("plans")).toArray().isEmpty());
        QCOMPARE(o.value(QStringLiteral("devices")).toArray().size(), 7);
        const QJsonObject first = o.value(QStringLiteral("plans")).toArray().first().toObject();
        QCOMPARE(first.value(QStringLiteral("rank")).toInt(), 1);
        QVERIFY(first.value(QStringLiteral("cost_per_million_output_tokens_all_in")).toDouble() > 0);
        // What was searched, for scripts (inputs.candidates; a trial at stop 30 found no gpu_counts in the JSON).
        const QJsonObject searched = o.value(QStringLiteral("inputs")).toObject().value(QStringLiteral("candidates")).toObject();
        QCOMPARE(searched.value(QStringLiteral("gpu_counts")).toArray(), (QJsonArray{1, 2, 4, 8}));
        QCOMPARE(searched.value(QStringLiteral("batch_caps")).toArray().size(), 9);
        QCOMPARE(searched.value(QStringLiteral("disaggregation")).toString(), QStringLiteral("both"));
        const QJsonObject h100 = searched.value(QStringLiteral("devices")).toArray().first().toObject();
        QCOMPARE(h100.value(QStringLiteral("id")).toString(), QStringLiteral("h100-sxm"));
        QCOMPARE(h100.value(QStringLiteral("price_per_gpu_hour")).toDouble(), 2.5);
        QCOMPARE(h100.value(QStringLiteral("board_power_watts")).toDouble(), 700.0); // the H100 SXM datasheet TDP
        QCOMPARE(h100.value(QStringLiteral("price_source")).toString(), QStringLiteral("plan file"));
        QCOMPARE(h100.value(QStringLiteral("power_source")).toString(), QStringLiteral("datasheet"));
        QCOMPARE(searched.value(QStringLiteral("devices")).toArray().size(), 7);
        const Result csv = runRidgeline({QStringLiteral("--plan"), file, QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(csv.exitCode, 0);
        const QList<QByteArray> rows = csv.out.trimmed().split('\n');
        QVERIFY(rows.first().startsWith("rank,device_id,device,gpus_per_instance,tp,pp,ep,"));
        QCOMPARE(rows.size(), o.value(QStringLiteral("plans")).toArray().size() + 1);
        // The simulator check's columns, last (the file simulates its best 3): filled for rank 1, empty for rank 4.
        QVERIFY2(rows.first().endsWith(",currency,simulated_ttft_p90_ms,simulated_tpot_p90_ms,simulated_goodput_fraction,"
                                       "simulated_meets_slo_at_p90"), rows.first().constData());
        const QList<QByteArray> rankOne = rows.at(1).split(','), fourth = rows.at(4).split(',');
        QVERIFY2(rankOne.constLast() == "true" || rankOne.constLast() == "false", rows.at(1).constData());
        const double jsonTtft = o.value(QStringLiteral("plans")).toArray().first().toObject().value(QStringLiteral("simulated")).toObject()
                                    .value(QStringLiteral("ttft_p90_ms")).toDouble();
        QVERIFY2(jsonTtft > 0 && std::abs(rankOne.at(rankOne.size() - 4).toDouble() / jsonTtft - 1) < 1e-9, rows.at(1).constData());
        QVERIFY2(fourth.constLast().isEmpty(), rows.at(4).constData());
    }

    /** Issue 14, h14k: one output token has no inter-token gap: the plan's ITL and tok/s/user, and the simulator's TPOT,
     *  read as an en dash in the text (not "0.0"), null in the JSON and an empty field in the CSV. In process (cheap). */
    void planWithOneOutputTokenHasNoItl()
    {
        ridgeline::model::PlanFile plan;
        const QByteArray file = R"({"model": "llama-3.1-8b", "load": {"requests_per_second": 1, "prompt_tokens": 1024, "output_tokens": 1},
                                    "slo": {"ttft_ms": 2000, "itl_ms": 0.001},
                                    "candidates": {"devices": ["h100-sxm"], "gpu_counts": [1], "batch_caps": [16],
                                                   "disaggregation": "disaggregated"},
                                    "simulate_top": 1, "simulate_requests": 100})";
        QCOMPARE(QString::fromStdString(ridgeline::model::parsePlanFile(file, QDir::tempPath(), plan)), QString());
        const ridgeline::model::PlanResult r = ridgeline::model::searchPlans(plan.request);
        QCOMPARE(int(r.plans.size()), 1); // the 1 us ITL SLO excludes nothing: there is no ITL
        const QString text = ridgeline::app::planText(plan, r);
        const QString dash = QStringLiteral("\u2013");
        const QStringList lines = text.split(QLatin1Char('\n'));
        const auto row = std::find_if(lines.begin(), lines.end(), [](const QString& l) { return l.startsWith(QLatin1String("  1 ")); });
        QVERIFY2(row != lines.end(), qPrintable(text));
        QCOMPARE(row->count(dash), 2); // ITL ms and tok/s/user
        QVERIFY2(text.contains(QStringLiteral("TPOT mean %1 ms, P90 %1 ms").arg(dash)), qPrintable(text));
        const QJsonObject json = ridgeline::app::planJson(plan, r);
        const QJsonObject first = json.value(QStringLiteral("plans")).toArray().first().toObject();
        for (const char* key : {"itl_ms", "tokens_per_second_per_user"})
            QVERIFY2(first.value(QLatin1String(key)).isNull(), key);
        QVERIFY(first.value(QStringLiteral("ttft_ms")).toDouble() > 0);
        const QJsonObject sim = first.value(QStringLiteral("simulated")).toObject();
        QVERIFY(sim.value(QStringLiteral("tpot_mean_ms")).isNull() && sim.value(QStringLiteral("tpot_p90_ms")).isNull());
        QVERIFY(sim.value(QStringLiteral("ttft_p90_ms")).toDouble() > 0);
        const QStringList csv = ridgeline::app::planCsv(plan, r).split(QLatin1Char('\n'));
        const QStringList header = csv.at(0).split(QLatin1Char(',')), cells = csv.at(1).split(QLatin1Char(','));
        for (const char* key : {"itl_ms", "tokens_per_second_per_user", "simulated_tpot_p90_ms"})
            QVERIFY2(cells.at(header.indexOf(QLatin1String(key))).isEmpty(), key);
        QVERIFY(!cells.at(header.indexOf(QStringLiteral("ttft_ms"))).isEmpty());
    }

    /** h14k: tiny figures keep significant digits ("0.00012", not "0.000"), large ones their thousands separators. */
    void smallAndLargeFiguresStayReadable()
    {
        using ridgeline::app::fixedOrSignificant;
        QCOMPARE(fixedOrSignificant(0.00012, 3), QStringLiteral("0.00012"));
        QCOMPARE(fixedOrSignificant(1.2e-5, 3), QStringLiteral("1.2e-5"));
        QCOMPARE(fixedOrSignificant(2.5, 2), QStringLiteral("2.50"));
        QCOMPARE(fixedOrSignificant(0.0, 3), QStringLiteral("0.000"));
        QCOMPARE(fixedOrSignificant(12345678.0, 2), QStringLiteral("12,345,678.00"));
        // The window's figures: 1.2e-10 tok/s per user at B = 1e9 read "0.000000000".
        QCOMPARE(ridgeline::views::format::number(1.23e-10), QStringLiteral("1.23e-10"));
        QCOMPARE(ridgeline::views::format::number(1.23e-7), QStringLiteral("0.000000123"));
        QCOMPARE(ridgeline::views::format::tokensPerSecond(2e-12), QStringLiteral("2e-12 tok/s"));
        // The report's per-user speed at B = 1e9, and a tiny price: significant digits.
        ridgeline::model::Scenario s;
        QVERIFY(ridgeline::app::buildScenario(QString(), {QStringLiteral("workload.batch=1000000000")}, s).isEmpty());
        const QString report = ridgeline::app::reportText(s, ridgeline::model::evaluate(s));
        const QString speed = report.split(QLatin1Char('\n')).filter(QStringLiteral("speed per user")).value(0);
        QVERIFY2(!speed.contains(QLatin1String(" 0.0 tok/s")) && speed.contains(QLatin1String("e-")), qPrintable(speed)); // 1.248e-5
        // An SLO of 4.5 ms: the headroom row read "ITL SLO 5 ms ... (missed)" against a 4.56 ms step (adversarial trial, stop 32).
        QVERIFY(ridgeline::app::buildScenario(QString(), {QStringLiteral("workload.itl_slo_ms=4.5,20")}, s).isEmpty());
        const QString slos = ridgeline::app::reportText(s, ridgeline::model::evaluate(s));
        const QString headroom = slos.mid(slos.indexOf(QLatin1String("SLO headroom")));
        QVERIFY2(headroom.contains(QLatin1String("ITL SLO 4.50 ms")) && headroom.contains(QLatin1String("ITL SLO 20 ms"))
                     && !headroom.contains(QLatin1String("ITL SLO 5 ms")),
                 qPrintable(headroom.left(300)));
        QVERIFY(ridgeline::app::buildScenario(QString(), {QStringLiteral("economics.price_per_gpu_hour=0.001")}, s).isEmpty());
        const QString cheap = ridgeline::app::reportText(s, ridgeline::model::evaluate(s));
        QVERIFY2(cheap.contains(QLatin1String("0.001 USD (your price)")) && !cheap.contains(QLatin1String("0.000 USD"))
                     && !cheap.contains(QLatin1String("0.00 USD")),
                 qPrintable(cheap)); // it read "0.00 USD (your price)" and "0.001 USD" per 1M as "0.001", input "0.000"
        // A plan at 12,345 req/s priced at 0.001 per GPU-hour: the load grouped, the costs not "0.000".
        ridgeline::model::PlanFile plan;
        const QByteArray file = R"({"model": "llama-3.1-8b", "load": {"requests_per_second": 12345, "prompt_tokens": 1024, "output_tokens": 128},
                                    "candidates": {"devices": ["h100-sxm"], "gpu_counts": [1], "batch_caps": [64], "disaggregation": "colocated"},
                                    "prices": {"h100-sxm": 0.001}})";
        QCOMPARE(QString::fromStdString(ridgeline::model::parsePlanFile(file, QDir::tempPath(), plan)), QString());
        const ridgeline::model::PlanResult r = ridgeline::model::searchPlans(plan.request);
        QVERIFY(!r.plans.empty());
        const QString text = ridgeline::app::planText(plan, r);
        QVERIFY2(text.contains(QLatin1String("Load: 12,345.00 requests/s")) && text.contains(QLatin1String("(1,580,160 output tokens/s)")),
                 qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("0.000")), qPrintable(text));
        const QRegularExpressionMatch cost = QRegularExpression(QStringLiteral("at ([0-9.e-]+) USD per 1M")).match(QString::fromStdString(r.takeaway));
        QVERIFY2(cost.hasMatch() && cost.captured(1).toDouble() > 0, r.takeaway.c_str());
    }

    /** h14k: --simulate's text lists the replicas that served a request and sums up the idle ones in one line (8,192
     *  replicas printed thousands of zero rows); the JSON keeps every replica. */
    void simulateSumsUpIdleReplicas()
    {
        ridgeline::model::SimulationFile file;
        const QByteArray json = R"({"simulation": {"requests": 6, "replicas": 64, "router": "round_robin", "classes": [{"name": "c",
                                    "rate_per_s": 1, "prompt": {"dist": "fixed", "value": 64}, "output": {"dist": "fixed", "value": 4}}]}})";
        QCOMPARE(QString::fromStdString(ridgeline::model::parseSimulationJson(json, QDir::tempPath(), file)), QString());
        const ridgeline::model::SimulationResult r = ridgeline::model::simulateWorkload(file.scenario, file.config);
        const QString text = ridgeline::app::simulationText(file, r, {});
        QVERIFY2(text.contains(QLatin1String("  58 replicas served no request (not listed; --format json lists every replica)")), qPrintable(text)); // not "json or csv": the CSV is one row (adversarial trial, stop 32)
        const QStringList lines = text.split(QLatin1Char('\n'));
        const qsizetype table = lines.indexOf(QRegularExpression(QStringLiteral("^Load per replica")));
        QVERIFY(table >= 0);
        QCOMPARE(lines.at(table + 8).trimmed().left(2), QStringLiteral("58")); // header, six rows, then the idle line
        const QJsonArray replicas = ridgeline::app::simulationJson(file, r, {}).value(QStringLiteral("replicas")).toArray();
        QCOMPARE(replicas.size(), 64);
        // A replica that served no request has no TTFT and no goodput: null, not 0 (adversarial trial, stop 32).
        int idle = 0;
        for (const QJsonValue& v : replicas) {
            const QJsonObject o = v.toObject();
            const bool served = o.value(QStringLiteral("requests")).toDouble() > 0;
            idle += served ? 0 : 1;
            for (const char* key : {"ttft_p99_ms", "ttft_p50_ms", "goodput_fraction"})
                QVERIFY2(o.value(QLatin1String(key)).isNull() == !served, key);
        }
        QCOMPARE(idle, 58);
    }

    /** h14f: --plan FILE --export DIR writes the file's Pareto plot (the names and columns of --export's plan_pareto) and
     *  still prints the ranked plans, unchanged, on stdout (JSON still parses). */
    void planExportWritesTheFilesParetoPlot()
    {
        const QString file = QStringLiteral(RIDGELINE_SOURCE_DIR "/resources/plans/llama-3.1-70b-chat.json");
        const Result plain = runRidgeline({QStringLiteral("--plan"), file});
        QCOMPARE(plain.exitCode, 0);
        QTemporaryDir dir;
        const Result r = runRidgeline({QStringLiteral("--plan"), file, QStringLiteral("--export"), dir.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QCOMPARE(r.out, plain.out);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files, QDir::Name),
                 (QStringList{QStringLiteral("plan_pareto.csv"), QStringLiteral("plan_pareto.pdf"), QStringLiteral("plan_pareto.png"),
                              QStringLiteral("plan_pareto.svg")}));
        QCOMPARE(QImage(dir.filePath(QStringLiteral("plan_pareto.png"))).size(), QSize(720, 480)); // --export's default plot size
        QFile svg(dir.filePath(QStringLiteral("plan_pareto.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly) && svg.readAll().contains("<svg"));
        QFile pdf(dir.filePath(QStringLiteral("plan_pareto.pdf")));
        QVERIFY(pdf.open(QIODevice::ReadOnly) && pdf.read(5) == "%PDF-");
        QFile csvFile(dir.filePath(QStringLiteral("plan_pareto.csv")));
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csvFile.readAll().trimmed().split('\n');
        QVERIFY(lines.size() > 10);
        // The file's devices only (the window's live plan searches the whole catalogue).
        const qsizetype idColumn = lines.first().split(',').indexOf("device_id");
        QVERIFY(idColumn > 0);
        const QByteArrayList fileDevices{"h100-sxm", "h200", "b200", "mi300x", "a100-80gb-sxm", "l40s", "l4"};
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArrayList cells = lines[i].split(',');
            QVERIFY2(fileDevices.contains(cells.value(idColumn)), lines[i].constData());
        }
        // The columns are the window export's plan_pareto.csv columns.
        QTemporaryDir windowDir;
        const Result window = runRidgeline({QStringLiteral("--export"), windowDir.path(), QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(window.exitCode, 0);
        QFile windowCsv(windowDir.filePath(QStringLiteral("plan_pareto.csv")));
        QVERIFY(windowCsv.open(QIODevice::ReadOnly));
        QCOMPARE(windowCsv.readLine().trimmed(), lines.first());

        // --format keeps its --plan meaning (the printed plans); --size and --dpi size the plot.
        QTemporaryDir jsonDir;
        const Result json = runRidgeline({QStringLiteral("--plan"), file, QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--export"),
                                          jsonDir.path(), QStringLiteral("--size"), QStringLiteral("640x400"), QStringLiteral("--dpi"), QStringLiteral("192")});
        QCOMPARE(json.exitCode, 0);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(json.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QVERIFY(!doc.object().value(QStringLiteral("plans")).toArray().isEmpty());
        QCOMPARE(QImage(jsonDir.filePath(QStringLiteral("plan_pareto.png"))).size(), QSize(1280, 800));
    }

    /** h14f: --plan FILE --screenshot FILE.png renders the window (the Plan tab on the file's plan) and prints the plans. */
    void planScreenshot()
    {
        const QString file = QStringLiteral(RIDGELINE_SOURCE_DIR "/resources/plans/deepseek-v3-fp8-api.json");
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("plan.png"));
        const Result r = runRidgeline({QStringLiteral("--plan"), file, QStringLiteral("--screenshot"), png, QStringLiteral("--size"), QStringLiteral("1280x800")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QVERIFY(r.out.contains("Takeaway: "));
        QCOMPARE(QImage(png).size(), QSize(1280, 800));
    }

    /** h14f: what --plan takes with --export / --screenshot, and what it still refuses; nothing is written on a bad file. */
    void planExportRefusals()
    {
        const QString file = QStringLiteral(RIDGELINE_SOURCE_DIR "/resources/plans/llama-3.1-70b-chat.json");
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model": "llama-3.1-70b", "load": {"requests_per_second": 1, "prompt_tokens": 10, "output_tokens": 10}, "pue": 11})");
        f.close();
        const QString out = dir.filePath(QStringLiteral("out"));
        const Result badFile = runRidgeline({QStringLiteral("--plan"), bad, QStringLiteral("--export"), out});
        QCOMPARE(badFile.exitCode, 2);
        QVERIFY2(badFile.err.contains("pue = 11: expected a number from 1 to 10"), badFile.err.constData());
        QVERIFY(badFile.out.isEmpty());
        QVERIFY(!QFileInfo::exists(out));
        const Result both = runRidgeline({QStringLiteral("--plan"), file, QStringLiteral("--export"), out, QStringLiteral("--screenshot"),
                                          dir.filePath(QStringLiteral("s.png"))});
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.contains("give one of them"), both.err.constData());
        const Result dpi = runRidgeline({QStringLiteral("--plan"), file, QStringLiteral("--dpi"), QStringLiteral("100")});
        QCOMPARE(dpi.exitCode, 2);
        QVERIFY2(dpi.err.contains("--dpi goes with --export"), dpi.err.constData());
        const Result size = runRidgeline({QStringLiteral("--plan"), file, QStringLiteral("--size"), QStringLiteral("800x600")});
        QCOMPARE(size.exitCode, 2);
        QVERIFY2(size.err.contains("--size goes with --screenshot or --export"), size.err.constData());
        // A file where the folder should be: exit 2 before the plans are printed.
        const Result intoFile = runRidgeline({QStringLiteral("--plan"), file, QStringLiteral("--export"), bad});
        QCOMPARE(intoFile.exitCode, 2);
        QVERIFY2(intoFile.err.contains("is a file, not a folder"), intoFile.err.constData());
        QVERIFY(intoFile.out.isEmpty());
        const Result withReport = runRidgeline({QStringLiteral("--plan"), file, QStringLiteral("--export"), out, QStringLiteral("--report")});
        QCOMPARE(withReport.exitCode, 2);
        QVERIFY2(withReport.err.contains("--plan goes alone") && withReport.err.contains("--report"), withReport.err.constData());
        const Result help = runRidgeline({QStringLiteral("--help")});
        QVERIFY2(help.out.contains("With --export DIR also writes the plan's Pareto plot"), help.out.constData());
    }

    /**
     * Issue 14: with simulate_top, a pipeline-parallel disaggregated plan is simulated (it printed "not simulated" before)
     * and its JSON "simulated" object carries the pools and the KV transfer beside the keys it had.
     */
    void planSimulatesPipelineAndDisaggregatedPlans()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("pp-disaggregated.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model": "llama-3.1-8b", "load": {"requests_per_second": 4, "prompt_tokens": 2048, "output_tokens": 128},
                    "slo": {"ttft_ms": 2000, "itl_ms": 50},
                    "candidates": {"devices": ["h100-sxm"], "gpu_counts": [2], "layouts": [{"tp": 1, "pp": 2}],
                                   "batch_caps": [16], "disaggregation": "disaggregated"},
                    "simulate_top": 1, "simulate_requests": 300})");
        f.close();
        const Result text = runRidgeline({QStringLiteral("--plan"), file});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(!text.out.contains("not simulated") && text.out.contains("prefill + ") && text.out.contains("KV transfer"),
                 text.out.constData());
        const Result json = runRidgeline({QStringLiteral("--plan"), file, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject plan = QJsonDocument::fromJson(json.out).object().value(QStringLiteral("plans")).toArray().first().toObject();
        QCOMPARE(plan.value(QStringLiteral("pp")).toInt(), 2);
        const QJsonObject sim = plan.value(QStringLiteral("simulated")).toObject();
        QVERIFY2(!sim.contains(QStringLiteral("skipped")), json.out.constData());
        QCOMPARE(sim.value(QStringLiteral("requests")).toInt(), 300);
        for (const char* key : {"ttft_mean_ms", "ttft_p90_ms", "ttft_p99_ms", "tpot_mean_ms", "tpot_p90_ms", "goodput_fraction", "kv_transfer_ms",
                                "prefill_busy_fraction", "decode_busy_fraction"})
            QVERIFY2(sim.value(QLatin1String(key)).toDouble() > 0, key);
        QVERIFY(sim.value(QStringLiteral("prefill_replicas")).toInt() >= 1);
        QVERIFY(sim.value(QStringLiteral("decode_replicas")).toInt() >= 1);
        QCOMPARE(sim.value(QStringLiteral("replicas")).toInt(), 0);
        QVERIFY(sim.contains(QStringLiteral("meets_slo_at_p90")));
    }

    /** Issue 14 trial: "currency": "EUR" printed the USD example prices as EUR. Now no price, and a note naming the devices. */
    void planCurrencyIsNotConverted()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("eur.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model": "llama-3.1-8b", "load": {"requests_per_second": 2, "prompt_tokens": 1000, "output_tokens": 100},
                    "candidates": {"devices": ["h100-sxm", "h200"], "gpu_counts": [1]}, "prices": {"h100-sxm": 2.3}, "currency": "EUR"})");
        f.close();
        const Result text = runRidgeline({QStringLiteral("--plan"), file});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("are in USD and are not converted, so no price and no cost for: h200; give \"prices\" in EUR"),
                 text.out.constData());
        const Result json = runRidgeline({QStringLiteral("--plan"), file, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonArray devices = QJsonDocument::fromJson(json.out).object().value(QStringLiteral("devices")).toArray();
        QCOMPARE(devices.size(), 2);
        QCOMPARE(devices[0].toObject().value(QStringLiteral("price_per_gpu_hour")).toDouble(), 2.3);
        QVERIFY(devices[1].toObject().value(QStringLiteral("price_per_gpu_hour")).isNull());
        const QJsonObject h200Best = devices[1].toObject().value(QStringLiteral("best_plan")).toObject();
        QVERIFY(!h200Best.isEmpty());
        QVERIFY(h200Best.value(QStringLiteral("cost_per_million_output_tokens_all_in")).isNull());
    }

    /** A failed write to standard output fails every mode (a trial: --report, --simulate, --list-hardware, --help
     *  > /dev/full exited 0 with the output lost); a screenshot is never written over a device. */
    void everyModeFailsOnAFullStdout()
    {
        if (!QFileInfo::exists(QStringLiteral("/dev/full")))
            QSKIP("no /dev/full here");
        const QList<QStringList> modes{{QStringLiteral("--report")},
                                       {QStringLiteral("--report"), QStringLiteral("--format"), QStringLiteral("json")},
                                       {QStringLiteral("--list-hardware")},
                                       {QStringLiteral("--help")},
                                       {QStringLiteral("--simulate"), QStringLiteral(RIDGELINE_SOURCE_DIR "/resources/simulations/chat-llama-3.1-8b-h100.json")}};
        for (const QStringList& args : modes) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            p.setProcessEnvironment(env);
            p.setStandardOutputFile(QStringLiteral("/dev/full"));
            p.start(QStringLiteral(RIDGELINE_BINARY), args);
            QVERIFY(p.waitForFinished(120000));
            QVERIFY2(p.exitCode() == 1, qPrintable(args.join(QLatin1Char(' '))));
            const QByteArray err = p.readAllStandardError();
            QVERIFY2(err.contains("cannot write"), err.constData());
        }
    }

    /** Trial findings: --plan > /dev/full exited 0; a fractional prompt length was taken silently; --help hid csv. */
    void planWriteFailuresAndSmallFindings()
    {
        const QString file = QStringLiteral(RIDGELINE_SOURCE_DIR "/resources/plans/llama-3.1-70b-chat.json");
        if (QFileInfo::exists(QStringLiteral("/dev/full"))) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            p.setProcessEnvironment(env);
            p.setStandardOutputFile(QStringLiteral("/dev/full"));
            p.start(QStringLiteral(RIDGELINE_BINARY), {QStringLiteral("--plan"), file, QStringLiteral("--format"), QStringLiteral("json")});
            QVERIFY(p.waitForFinished(60000));
            QCOMPARE(p.exitCode(), 1);
            const QByteArray err = p.readAllStandardError();
            QVERIFY2(err.contains("cannot write the plan to standard output"), err.constData());
        }
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("fraction.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model": "llama-3.1-8b", "load": {"requests_per_second": 1, "prompt_tokens": 2048.5, "output_tokens": 10}})");
        f.close();
        const Result r = runRidgeline({QStringLiteral("--plan"), bad});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("load.prompt_tokens = 2048.5: expected a whole number"), r.err.constData());
        const Result help = runRidgeline({QStringLiteral("--help")});
        QVERIFY2(help.out.contains("--format text|json|csv") && help.out.contains("csv too with --plan"), help.out.constData());
    }

    void planRefusesBadInput()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model": "llama-3.1-70b", "load": {"requests_per_second": 1, "prompt_tokens": 10, "output_tokens": 10},
                    "candidates": {"layouts": [{"tp": 3}]}})");
        f.close();
        const Result r = runRidgeline({QStringLiteral("--plan"), bad});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("candidates.layouts[0]") && r.err.contains("64 attention heads"), r.err.constData());
        QVERIFY(r.out.isEmpty());
        const Result xml = runRidgeline({QStringLiteral("--plan"), bad, QStringLiteral("--format"), QStringLiteral("xml")});
        QCOMPARE(xml.exitCode, 2);
        const Result withSet = runRidgeline({QStringLiteral("--plan"), bad, QStringLiteral("--set"), QStringLiteral("workload.batch=2")});
        QCOMPARE(withSet.exitCode, 2);
        QVERIFY2(withSet.err.contains("--plan goes alone"), withSet.err.constData());
    }

    /** Issue 14 trial: simulation.max_prefills_per_step was not echoed, and static batching ignored it without a word. */
    void simulationEchoesMaxPrefillsPerStep()
    {
        ridgeline::model::SimulationFile file;
        const std::string err = ridgeline::model::parseSimulationJson(
            R"({"simulation": {"policy": "chunked", "max_prefills_per_step": 3, "requests": 10, "classes": [{"name": "chat",
                "rate_per_s": 1, "prompt": {"dist": "fixed", "value": 100}, "output": {"dist": "fixed", "value": 10}}]}})",
            QString(), file);
        QVERIFY2(err.empty(), err.c_str());
        const ridgeline::model::SimulationResult none;
        QJsonObject sim = ridgeline::app::simulationJson(file, none, {}).value(QStringLiteral("simulation")).toObject();
        QCOMPARE(sim.value(QStringLiteral("max_prefills_per_step")).toInt(-1), 3);
        QVERIFY(sim.value(QStringLiteral("max_prefills_per_step_applies")).toBool(false));
        QVERIFY2(ridgeline::app::simulationText(file, none, {}).contains(QStringLiteral("At most 3 prompts prefilled per step")),
                 qPrintable(ridgeline::app::simulationText(file, none, {})));
        file.config.policy = ridgeline::model::BatchingPolicy::Static;
        sim = ridgeline::app::simulationJson(file, none, {}).value(QStringLiteral("simulation")).toObject();
        QCOMPARE(sim.value(QStringLiteral("max_prefills_per_step")).toInt(-1), 3);
        QVERIFY(!sim.value(QStringLiteral("max_prefills_per_step_applies")).toBool(true));
        QVERIFY(ridgeline::app::simulationText(file, none, {}).contains(QStringLiteral("max_prefills_per_step = 3 is ignored under the static policy")));
    }

    /** Issue 15: the score matrix and the all-positions logits, in the JSON and text report. */
    void rateSweepPercentRoundsDown()
    {
        // A trial run: 0.98995 printed as "99.00" beside "60 req/s ... misses it" at a 99 % target.
        ridgeline::model::RateSweep sweep;
        sweep.attainmentTarget = 0.99;
        ridgeline::model::RateSweepResult result;
        result.baseRatePerSecond = 10;
        ridgeline::model::RatePoint held, missed;
        held.ratePerSecond = 50;
        held.attainment = 0.99;
        missed.ratePerSecond = 60;
        missed.attainment = 0.98995;
        result.points = {held, missed};
        result.maxRatePerSecond = 50;
        result.firstMissPerSecond = 60;
        const QStringList lines = ridgeline::app::rateSweepText(sweep, result).split(QLatin1Char('\n'));
        QVERIFY2(lines.size() >= 4, qPrintable(lines.join(QLatin1Char('\n'))));
        QVERIFY2(lines[2].contains(QLatin1String(" 99.00 ")), qPrintable(lines[2]));
        QVERIFY2(lines[3].contains(QLatin1String(" 98.99 ")), qPrintable(lines[3]));
        QVERIFY2(!lines.constLast().contains(QLatin1String("factor")), qPrintable(lines.constLast())); // 60 / 50: narrow
        // A trial (stop 30): a 1:1e308 sweep printed 300-digit rates and "1 req/s" as if it were the answer.
        missed.ratePerSecond = 6.5e4;
        held.ratePerSecond = 1;
        result.points = {held, missed};
        result.maxRatePerSecond = 1;
        result.firstMissPerSecond = 6.5e4;
        result.points.push_back(missed);
        result.points.back().ratePerSecond = 1e308;
        const QStringList wide = ridgeline::app::rateSweepText(sweep, result).split(QLatin1Char('\n'));
        QVERIFY2(wide[4].contains(QLatin1String(" 1e+308 ")) && wide[4].size() < 120, qPrintable(wide[4]));
        QVERIFY2(wide.constLast().contains(QLatin1String("a factor of 6.5e+04 apart")), qPrintable(wide.constLast()));
    }

    void reportShowsHiddenBuffers()
    {
        const double prompt = 120000, vocab = 128256;
        const QJsonObject r = reportFor({QStringLiteral("--set"), QStringLiteral("workload.prompt_tokens=120000")});
        QCOMPARE(at(r, QStringLiteral("prefill.score_matrix_bytes_per_head")), prompt * prompt * 2);
        QVERIFY(near(at(r, QStringLiteral("prefill.score_matrix_bytes_per_head")), 28.8e9));
        const QJsonObject l = reportFor({QStringLiteral("--set"), QStringLiteral("workload.prompt_tokens=8192")});
        QCOMPARE(at(l, QStringLiteral("prefill.logits_bytes_all_positions")), 8192 * vocab * 4);
        QVERIFY(near(at(l, QStringLiteral("prefill.logits_bytes_all_positions")) / (1024.0 * 1024.0 * 1024.0), 3.91));
        const Result text = runRidgeline({QStringLiteral("--report"), QStringLiteral("--set"), QStringLiteral("workload.prompt_tokens=8192")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("logits, all positions") && text.out.contains("3.91 GiB"), text.out.constData());
        QVERIFY(text.out.contains("score matrix, one head"));
        // One unit for the prefill buffers: the score matrix in GiB as the logits and the KV written beside it.
        const Result big = runRidgeline({QStringLiteral("--report"), QStringLiteral("--set"), QStringLiteral("workload.prompt_tokens=120000")});
        QVERIFY2(big.out.contains("26.82 GiB if materialised"), big.out.constData());
    }
    /** --screenshot never writes through a link (as --export): a loop, a dangling link and a link to a file are refused
     *  before anything runs, naming the link, and nothing is written (adversarial trial, stop 31). */
    void screenshotDoesNotWriteThroughLinks()
    {
        QTemporaryDir dir;
        const QString loop1 = dir.filePath(QStringLiteral("loop1.png")), loop2 = dir.filePath(QStringLiteral("loop2.png"));
        QVERIFY(QFile::link(loop2, loop1) && QFile::link(loop1, loop2));
        const QString dangling = dir.filePath(QStringLiteral("dang.png")), missing = dir.filePath(QStringLiteral("nowhere.png"));
        QVERIFY(QFile::link(missing, dangling));
        // Exit 1, an output not written, as --export's link at a target's name (h14k: it was 2, an input error).
        Result r = runRidgeline({QStringLiteral("--screenshot"), loop1});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("symbolic link loop") && r.err.contains("nothing was written"), r.err.constData());
        QVERIFY(QFileInfo(loop1).isSymLink());
        r = runRidgeline({QStringLiteral("--screenshot"), dangling});
        QCOMPARE(r.exitCode, 1);
        const Result plan = runRidgeline({QStringLiteral("--plan"), QStringLiteral(RIDGELINE_SOURCE_DIR "/resources/plans/llama-3.1-70b-chat.json"),
                                          QStringLiteral("--screenshot"), dangling});
        QCOMPARE(plan.exitCode, 1); // the same in --plan's screenshot
        QVERIFY2(plan.out.isEmpty() && plan.err.contains("does not write through links"), plan.err.constData());
        QVERIFY2(r.err.contains("does not write through links"), r.err.constData());
        QVERIFY(!QFileInfo::exists(missing));
    }

    /** O = 0 with a price and a power: the per-request figures say there is no output token, not "no price" (adversarial
     *  trial, stop 31). */
    void noOutputTokensIsNotNoPrice()
    {
        const Result r = runRidgeline({QStringLiteral("--report"), QStringLiteral("--set"), QStringLiteral("workload.output_tokens=0"),
                                       QStringLiteral("--set"), QStringLiteral("economics.price_per_gpu_hour=2.5")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.out.contains("unknown (no price)") && !r.out.contains("unknown (no power)"), r.out.constData());
        QVERIFY2(r.out.contains("none: no output tokens (workload.output_tokens = 0)"), r.out.constData());
    }

};

QTEST_APPLESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
