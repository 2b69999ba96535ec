// SPDX-License-Identifier: GPL-3.0-or-later
// Readers of the serving-benchmark tools' outputs (model/files/benchmarkfile.h), each on a real output
// (tests/data/bench/README.md names the sources), checked against the file's own numbers.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "model/files/benchmarkfile.h"

using namespace ridgeline::model;

namespace {

QByteArray readData(const QString& relative)
{
    QFile f(QStringLiteral(RIDGELINE_TEST_DATA "/") + relative);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(f.fileName()));
    return f.readAll();
}

BenchmarkFile read(const QString& relative)
{
    BenchmarkFile f;
    const std::string e = readBenchmarkFile(readData(relative), relative.toStdString(), f);
    if (!e.empty())
        qFatal("%s: %s", qPrintable(relative), e.c_str());
    return f;
}

bool hasNote(const BenchmarkFile& f, const char* words)
{
    for (const std::string& n : f.notes)
        if (n.find(words) != std::string::npos)
            return true;
    return false;
}

double value(const BenchmarkPoint& p, BenchmarkMetric m, BenchmarkStatistic s)
{
    const auto v = p.latency(m, s);
    if (!v)
        qFatal("%s: no %s %s", p.label.c_str(), benchmarkStatisticKey(s), benchmarkMetricKey(m));
    return *v;
}

} // namespace

class TestBenchmarkFile : public QObject {
    Q_OBJECT
private slots:
    void vllmRequestRateWithoutConcurrency()
    {
        const BenchmarkFile f = read(QStringLiteral("bench/vllm-rate-qwen3-vl-8b.json"));
        QCOMPARE(f.format, std::string("vLLM bench serve JSON"));
        QCOMPARE(f.points.size(), size_t(1));
        const BenchmarkPoint& p = f.points[0];
        QCOMPARE(p.load, BenchmarkLoad::RequestRate); // max_concurrency null: open loop at request_rate
        QCOMPARE(p.requestRatePerSecond, 1.0);
        QCOMPARE(p.concurrency, 0.0);
        QCOMPARE(p.requests, 200LL);
        QCOMPARE(p.inputTokens, 40000.0 / 200);
        QCOMPARE(p.outputTokens, 25600.0 / 200);
        // Mean and median stay apart, each under its own statistic.
        QCOMPARE(value(p, BenchmarkMetric::Ttft, BenchmarkStatistic::Mean), 95.6344293046277);
        QCOMPARE(value(p, BenchmarkMetric::Ttft, BenchmarkStatistic::Median), 95.6995899323374);
        QCOMPARE(value(p, BenchmarkMetric::Ttft, BenchmarkStatistic::P99), 143.32562107359988);
        QCOMPARE(value(p, BenchmarkMetric::Tpot, BenchmarkStatistic::Mean), 27.911832109121164);
        QCOMPARE(value(p, BenchmarkMetric::Itl, BenchmarkStatistic::Median), 27.339585009030998);
        QVERIFY(!p.latency(BenchmarkMetric::EndToEnd, BenchmarkStatistic::Mean)); // not in the file: not invented
        QCOMPARE(*p.requestsPerSecond, 0.9827502819171137);
    }

    void vllmJsonLinesWithMetadataAndInfString()
    {
        const BenchmarkFile f = read(QStringLiteral("bench/vllm-llmd-llama-3.2-3b.jsonl"));
        QCOMPARE(f.points.size(), size_t(3));
        QCOMPARE(f.points[0].requestRatePerSecond, 10.0);
        QCOMPARE(f.points[1].requestRatePerSecond, 30.0);
        QVERIFY(std::isinf(f.points[2].requestRatePerSecond)); // "request_rate": "inf"
        QCOMPARE(f.points[2].inputTokens, 899100.0 / 900);
        QCOMPARE(f.points[2].outputTokens, 240163.0 / 900);
        QCOMPARE(value(f.points[2], BenchmarkMetric::Ttft, BenchmarkStatistic::Mean), 902.2531994799939);
        QCOMPARE(value(f.points[2], BenchmarkMetric::Itl, BenchmarkStatistic::P99), 66.37176537940839);
        QCOMPARE(value(f.points[1], BenchmarkMetric::Tpot, BenchmarkStatistic::Median), 24.64663913131863);
    }

    void sglangWithConcurrencyCapAndE2e()
    {
        const BenchmarkFile f = read(QStringLiteral("bench/sglang-sharegpt-rate5-conc256.jsonl"));
        QCOMPARE(f.format, std::string("SGLang bench_serving JSON"));
        const BenchmarkPoint& p = f.points.at(0);
        QCOMPARE(p.load, BenchmarkLoad::RequestRate);
        QCOMPARE(p.requestRatePerSecond, 5.0);
        QCOMPARE(p.concurrency, 256.0); // the cap on requests in flight
        QCOMPARE(p.inputTokens, 302118.0 / 1000);
        QCOMPARE(value(p, BenchmarkMetric::EndToEnd, BenchmarkStatistic::Median), 1537.8948565048631);
        QCOMPARE(value(p, BenchmarkMetric::Itl, BenchmarkStatistic::P95), 18.839622958330438);
    }

    void sglangInfinityLiteral()
    {
        const BenchmarkFile f = read(QStringLiteral("bench/sglang-random-infinity.jsonl"));
        const BenchmarkPoint& p = f.points.at(0);
        QVERIFY(std::isinf(p.requestRatePerSecond));
        QVERIFY(hasNote(f, "Infinity"));
        // Tokens from throughput x duration / completed: the run's 6,000 / 1,000 random lengths.
        QVERIFY(std::abs(p.inputTokens - 23196.43315263702 * 3103.9254839839414 / 12000) < 1e-9);
        QVERIFY(std::abs(p.inputTokens - 6000) < 1);
        QVERIFY(std::abs(p.outputTokens - 1000) < 1);
        QVERIFY(hasNote(f, "throughput x duration"));
        QCOMPARE(value(p, BenchmarkMetric::Tpot, BenchmarkStatistic::Mean), 50.85409914053094);
    }

    void genaiPerfCsvWithQuotedThousands()
    {
        const BenchmarkFile f = read(QStringLiteral("bench/genai-perf-cloudai.csv"));
        QCOMPARE(f.format, std::string("GenAI-Perf CSV"));
        const BenchmarkPoint& p = f.points.at(0);
        QCOMPARE(value(p, BenchmarkMetric::Ttft, BenchmarkStatistic::Mean), 1146.31); // "1,146.31"
        QCOMPARE(value(p, BenchmarkMetric::Ttft, BenchmarkStatistic::Median), 640.07);
        QCOMPARE(value(p, BenchmarkMetric::Tpot, BenchmarkStatistic::P99), 35.23); // GenAI-Perf's ITL is per-request TPOT
        QCOMPARE(value(p, BenchmarkMetric::EndToEnd, BenchmarkStatistic::Mean), 6406.20);
        QCOMPARE(p.inputTokens, 3000.05);
        QCOMPARE(p.outputTokens, 174.45);
        QCOMPARE(p.requests, 40LL);
        QVERIFY(p.steadyState);
        // No concurrency in the CSV: Little's law, 1.50 req/s x 6.4062 s = 9.6, said in a note.
        QCOMPARE(p.concurrency, std::round(1.50 * 6406.20 / 1000));
        QVERIFY(hasNote(f, "Little's law"));
        // An artifact directory's name gives it instead.
        BenchmarkFile named;
        QCOMPARE(readBenchmarkFile(readData(QStringLiteral("bench/genai-perf-cloudai.csv")),
                                   "artifacts/llama-openai-chat-concurrency16/profile_export_genai_perf.csv", named),
                 std::string());
        QCOMPARE(named.points.at(0).concurrency, 16.0);
    }

    void aiperfJson()
    {
        const BenchmarkFile f = read(QStringLiteral("bench/aiperf-export.json"));
        const BenchmarkPoint& p = f.points.at(0);
        QCOMPARE(value(p, BenchmarkMetric::Ttft, BenchmarkStatistic::Median), 175.05);
        QCOMPARE(value(p, BenchmarkMetric::Tpot, BenchmarkStatistic::P95), 35.955);
        QCOMPARE(value(p, BenchmarkMetric::EndToEnd, BenchmarkStatistic::P99), 2439.45);
        QCOMPARE(p.inputTokens, 256.0);
        QCOMPARE(p.outputTokens, 64.0);
        QCOMPARE(p.concurrency, std::round(0.8233 * 2413.5 / 1000)); // Little's law: 1.99
        QCOMPARE(p.load, BenchmarkLoad::Concurrency);
        // An artifact directory's name gives the concurrency instead, with or without a separator.
        for (const auto& [name, expected] : {std::pair{"artifacts/qwen-concurrency-8/profile_export_aiperf.json", 8.0},
                                             std::pair{"artifacts/qwen-concurrency_12/profile_export_aiperf.json", 12.0},
                                             std::pair{"artifacts/qwen-concurrency32/profile_export_aiperf.json", 32.0}}) {
            BenchmarkFile named;
            QCOMPARE(readBenchmarkFile(readData(QStringLiteral("bench/aiperf-export.json")), name, named), std::string());
            QCOMPARE(named.points.at(0).concurrency, expected);
            QVERIFY(hasNote(named, "taken from the file name"));
        }
    }

    void llmperfSummary()
    {
        const BenchmarkFile f = read(QStringLiteral("bench/llmperf-tinyllama-summary.json"));
        QCOMPARE(f.format, std::string("llmperf summary JSON"));
        const BenchmarkPoint& p = f.points.at(0);
        QCOMPARE(p.load, BenchmarkLoad::Concurrency);
        QCOMPARE(p.concurrency, 5.0);
        QCOMPARE(p.inputTokens, 259.78);
        QCOMPARE(p.outputTokens, 99.44);
        QCOMPARE(value(p, BenchmarkMetric::Ttft, BenchmarkStatistic::Mean), 0.25382229144015583 * 1000);
        QCOMPARE(value(p, BenchmarkMetric::Ttft, BenchmarkStatistic::P90), 0.4566385881018505 * 1000);
        // llmperf's "inter-token latency" is E2E / output tokens: not ITL.
        QCOMPARE(value(p, BenchmarkMetric::EndToEndPerOutputToken, BenchmarkStatistic::Mean), 0.011929198805297702 * 1000);
        QVERIFY(!p.latency(BenchmarkMetric::Itl, BenchmarkStatistic::Mean));
        QCOMPARE(p.requests, 50LL);
    }

    void measuredCsvSetsWithExtraColumns()
    {
        const BenchmarkFile nim = read(QStringLiteral("measured/nim-llama3-8b-h100-tp1-fp16.csv"));
        QCOMPARE(nim.points.size(), size_t(60));
        QVERIFY(hasNote(nim, "columns ignored"));
        QVERIFY(hasNote(nim, "model") && hasNote(nim, "gpu") && hasNote(nim, "engine"));
        const BenchmarkPoint& first = nim.points[0];
        QCOMPARE(first.load, BenchmarkLoad::Concurrency);
        QCOMPARE(first.concurrency, 1.0);
        QCOMPARE(first.inputTokens, 200.0);
        QCOMPARE(first.outputTokens, 200.0);
        QCOMPARE(value(first, BenchmarkMetric::Itl, BenchmarkStatistic::Mean), 7.3857);
        QCOMPARE(value(first, BenchmarkMetric::Ttft, BenchmarkStatistic::Mean), 12.6204);
        QCOMPARE(first.set, std::string("nim-llama3-8b-h100-tp1-fp16"));
        QCOMPARE(nim.points.back().concurrency, 250.0);
        QCOMPARE(value(nim.points.back(), BenchmarkMetric::Ttft, BenchmarkStatistic::Mean), 148827.8852);

        const BenchmarkFile trt = read(QStringLiteral("measured/trt09-llama2-7b-h100-tp1-fp16.csv"));
        QCOMPARE(trt.points.size(), size_t(31));
        QCOMPARE(trt.points[3].load, BenchmarkLoad::StaticBatch); // a batch column, no concurrency
        QCOMPARE(trt.points[3].concurrency, 8.0);
        QCOMPARE(value(trt.points[3], BenchmarkMetric::Itl, BenchmarkStatistic::Mean), 6.8202);
        QCOMPARE(read(QStringLiteral("measured/trt09-llama2-13b-a100-tp1-fp16.csv")).points.size(), size_t(30));
    }

    /** The scenario kept beside a set: the name with its last suffix replaced, only when that file is there. */
    void companionScenarioBesideTheFile()
    {
        const QString set = QStringLiteral(RIDGELINE_TEST_DATA "/measured/nim18-llama3.1-8b-h100-tp1-fp8");
        QCOMPARE(companionScenarioPath(set + QStringLiteral(".csv")),
                 QFileInfo(set + QStringLiteral(".scenario.json")).absoluteFilePath()); // dots in the name kept
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto touch = [&dir](const QString& name) {
            QFile f(dir.filePath(name));
            return f.open(QIODevice::WriteOnly);
        };
        QVERIFY(touch(QStringLiteral("run.json")));
        QCOMPARE(companionScenarioPath(dir.filePath(QStringLiteral("run.json"))), QString()); // none beside it
        QVERIFY(touch(QStringLiteral("run.scenario.json")));
        QCOMPARE(companionScenarioPath(dir.filePath(QStringLiteral("run.json"))), QFileInfo(dir.filePath(QStringLiteral("run.scenario.json"))).absoluteFilePath());
        QCOMPARE(companionScenarioPath(dir.filePath(QStringLiteral("run"))), QFileInfo(dir.filePath(QStringLiteral("run.scenario.json"))).absoluteFilePath());
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("other.scenario.json"))); // a folder is not a scenario file
        QCOMPARE(companionScenarioPath(dir.filePath(QStringLiteral("other.csv"))), QString());
        QCOMPARE(companionScenarioPath(QString()), QString());
        QCOMPARE(companionScenarioPath(dir.filePath(QStringLiteral(".csv"))), QString());
    }

    void measurementWindowColumn()
    {
        // A measurement CSV may give each point the window GenAI-Perf measured it in (measurement_window_s, seconds;
        // BenchmarkPoint::measurementWindowSeconds, h13aw): read where given, 0 where the cell is empty or the column absent.
        BenchmarkFile f;
        QCOMPARE(readBenchmarkFile("concurrency,isl,osl,itl_ms,measurement_window_s\n4,100,50,9,216\n8,100,50,9,\n16,100,50,9,648\n", "x.csv", f),
                 std::string());
        QCOMPARE(f.points.size(), size_t(3));
        QCOMPARE(f.points[0].measurementWindowSeconds, 216.0);
        QCOMPARE(f.points[1].measurementWindowSeconds, 0.0);
        QCOMPARE(f.points[2].measurementWindowSeconds, 648.0);
        QVERIFY(!hasNote(f, "columns ignored")); // a column of the format, not an extra one
        QVERIFY(hasNote(f, "--point-windows")); // and the reader says where it is used (not in a plain prediction)
        BenchmarkFile without;
        QCOMPARE(readBenchmarkFile("concurrency,isl,osl,itl_ms\n4,100,50,9\n", "x.csv", without), std::string());
        QCOMPARE(without.points.at(0).measurementWindowSeconds, 0.0);
        QVERIFY(!hasNote(without, "measurement_window_s"));
        // The NIM Llama 3 8B fp16 set carries its windows, recovered from its GenAI-Perf records (scripts/nim-measurement-windows.py):
        // three windows of 72 s or more on every point, more on the KV-bound ones.
        const BenchmarkFile nim = read(QStringLiteral("measured/nim-llama3-8b-h100-tp1-fp16.csv"));
        for (const BenchmarkPoint& p : nim.points) {
            QVERIFY2(p.measurementWindowSeconds >= 216 && std::fmod(p.measurementWindowSeconds, 72) == 0, p.label.c_str());
        }
        QCOMPARE(nim.points.front().measurementWindowSeconds, 216.0);
        QVERIFY(nim.points.back().measurementWindowSeconds > 216);
    }

    void measurementWindowRefusedWhenBad_data()
    {
        QTest::addColumn<QByteArray>("cell");
        QTest::newRow("zero") << QByteArray("0");
        QTest::newRow("negative") << QByteArray("-216");
        QTest::newRow("text") << QByteArray("long");
        QTest::newRow("nan") << QByteArray("nan");
        QTest::newRow("ns for s") << QByteArray("216000000000");
    }
    void measurementWindowRefusedWhenBad()
    {
        QFETCH(QByteArray, cell);
        BenchmarkFile f;
        const std::string e = readBenchmarkFile("concurrency,isl,osl,itl_ms,measurement_window_s\n4,100,50,9,216\n4,100,50,9," + cell + "\n", "x.csv", f);
        // The row and the field named, and the value.
        QVERIFY2(e.find("line 3") != std::string::npos && e.find("measurement_window_s") != std::string::npos
                     && e.find(cell.toStdString()) != std::string::npos,
                 e.c_str());
    }

    void measuredVllmJsonSet()
    {
        // vLLM 0.5.4 benchmark_serving.py --save-result results as vLLM wrote them, one per line (the set's source.md
        // lists the keys left out): ShareGPT prompts all sent at once (request rate "inf", no max_concurrency), so each
        // result is an open loop with no cap that simulates exactly the requests it completed.
        const BenchmarkFile f = read(QStringLiteral("measured/vllm054-llama3-8b-h100-tp1-bf16.json"));
        QCOMPARE(f.format, std::string("vLLM bench serve JSON"));
        QCOMPARE(f.points.size(), size_t(8));
        const BenchmarkPoint& first = f.points[0];
        QCOMPARE(first.load, BenchmarkLoad::RequestRate);
        QVERIFY(std::isinf(first.requestRatePerSecond));
        QCOMPARE(first.concurrency, 0.0);
        QCOMPARE(first.requests, 10LL);
        QCOMPARE(first.inputTokens, 136.9); // total_input_tokens / completed
        QCOMPARE(first.outputTokens, 186.7);
        QCOMPARE(value(first, BenchmarkMetric::Ttft, BenchmarkStatistic::Mean), 62.426355000934564);
        QCOMPARE(value(first, BenchmarkMetric::Tpot, BenchmarkStatistic::Median), 7.558259615148475);
        // The ITL keys were left out (each streamed chunk held about ten tokens): the comparison falls back to TPOT.
        QVERIFY(!first.latency(BenchmarkMetric::Itl, BenchmarkStatistic::Mean));
        QCOMPARE(f.points.back().requests, 1280LL);
        QCOMPARE(value(f.points.back(), BenchmarkMetric::Tpot, BenchmarkStatistic::Mean), 165.23496015629888);

        // The same benchmark on an A100: same prompts, so the same input tokens per request.
        const BenchmarkFile a100 = read(QStringLiteral("measured/vllm054-llama3-8b-a100-tp1-bf16.json"));
        QCOMPARE(a100.format, std::string("vLLM bench serve JSON"));
        QCOMPARE(a100.points.size(), size_t(8));
        QCOMPARE(a100.points[0].inputTokens, 136.9);
        QCOMPARE(value(a100.points[0], BenchmarkMetric::Ttft, BenchmarkStatistic::Mean), 139.22520615160465);
        QCOMPARE(a100.points.back().requests, 1280LL);
    }

    void vllmPerRequestLengthsAreKept()
    {
        // The sets' results carry vLLM's per-request input_lens and output_lens (restored from the source, see its
        // source.md): each point keeps them, in the file's order, beside the means from the totals.
        const BenchmarkFile f = read(QStringLiteral("measured/vllm054-llama3-8b-h100-tp1-bf16.json"));
        const BenchmarkPoint& first = f.points.at(0);
        QCOMPARE(first.inputLengths, (std::vector<int>{13, 25, 27, 10, 329, 29, 399, 328, 4, 205}));
        QCOMPARE(first.outputLengths, (std::vector<int>{120, 429, 233, 194, 101, 741, 9, 3, 6, 31}));
        const BenchmarkPoint& last = f.points.back();
        QCOMPARE(last.inputLengths.size(), size_t(1280));
        QCOMPARE(last.outputLengths.size(), size_t(1280));
        QCOMPARE(std::accumulate(last.inputLengths.begin(), last.inputLengths.end(), 0LL), 283459LL); // total_input_tokens
        QCOMPARE(std::accumulate(last.outputLengths.begin(), last.outputLengths.end(), 0LL), 233412LL);
        QCOMPARE(std::count(last.outputLengths.begin(), last.outputLengths.end(), 0), std::ptrdiff_t(89)); // empty texts
        QCOMPARE(last.inputTokens, 283459.0 / 1280); // the means are unchanged
        QVERIFY(hasNote(f, "per-request input_lens / output_lens: each request is simulated with its own lengths"));
        // A failed request (an errors entry) is left out, as the tool leaves it out of completed.
        BenchmarkFile g;
        QCOMPARE(readBenchmarkFile(R"({"completed": 2, "total_input_tokens": 30, "total_output_tokens": 7, "request_rate": "inf",
                                       "mean_ttft_ms": 50, "mean_tpot_ms": 9, "input_lens": [10, 99, 20], "output_lens": [3, 0, 4],
                                       "errors": ["", "Bad Request", ""]})", "r.json", g),
                 std::string());
        QCOMPARE(g.points.at(0).inputLengths, (std::vector<int>{10, 20}));
        QCOMPARE(g.points.at(0).outputLengths, (std::vector<int>{3, 4}));
        // Lists that do not hold the completed requests are not used (a note), and the point keeps its means.
        BenchmarkFile h;
        QCOMPARE(readBenchmarkFile(R"({"completed": 3, "total_input_tokens": 30, "total_output_tokens": 7, "request_rate": "inf",
                                       "mean_ttft_ms": 50, "input_lens": [10, 20], "output_lens": [3, 4]})", "r.json", h),
                 std::string());
        QVERIFY(h.points.at(0).inputLengths.empty() && h.points.at(0).outputLengths.empty());
        QVERIFY(hasNote(h, "result 1: input_lens / output_lens hold 2 requests where completed = 3: not used (the point is "
                           "simulated at its mean lengths)"));
    }

    void vllmPerRequestLengthsRefusedWhenBad_data()
    {
        QTest::addColumn<QString>("lists");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << R"("input_lens": [], "output_lens": [])"
                               << "result 1: input_lens = []: expected one token count per request (the list is empty)";
        QTest::newRow("one list") << R"("input_lens": [10, 20])"
                                  << "result 1: output_lens: missing (input_lens and output_lens come together: one entry per request each)";
        QTest::newRow("not a list") << R"("input_lens": 10, "output_lens": [3])"
                                    << "result 1: input_lens = 10: expected a list of token counts, one per request, such as [13, 25, 27]";
        QTest::newRow("lengths differ") << R"("input_lens": [10, 20], "output_lens": [3])"
                                        << "result 1: input_lens has 2 entries and output_lens 1: expected one of each per request";
        QTest::newRow("negative") << R"("input_lens": [10, 20], "output_lens": [3, -1])"
                                  << "result 1: output_lens[1] = -1: expected a whole number of tokens from 0 to 1e7";
        QTest::newRow("zero prompt") << R"("input_lens": [0, 20], "output_lens": [3, 4])"
                                     << "result 1: input_lens[0] = 0: expected a whole number of tokens from 1 to 1e7";
        QTest::newRow("fraction") << R"("input_lens": [10.5, 20], "output_lens": [3, 4])"
                                  << "result 1: input_lens[0] = 10.5: expected a whole number of tokens from 1 to 1e7";
        QTest::newRow("NaN") << R"("input_lens": [10, NaN], "output_lens": [3, 4])"
                             << "result 1: input_lens[1] = \"NaN\": expected a whole number of tokens from 1 to 1e7";
    }
    void vllmPerRequestLengthsRefusedWhenBad()
    {
        QFETCH(QString, lists);
        QFETCH(QString, message);
        BenchmarkFile f;
        const QString json = QStringLiteral(R"({"completed": 2, "total_input_tokens": 30, "total_output_tokens": 7, "request_rate": "inf",
                                                "mean_ttft_ms": 50, %1})").arg(lists);
        QCOMPARE(QString::fromStdString(readBenchmarkFile(json.toUtf8(), "r.json", f)), message);
    }

    void statisticsInColumnNames()
    {
        BenchmarkFile f;
        QCOMPARE(readBenchmarkFile("concurrency,isl,osl,median_ttft_ms,tpot_p99_s,ITL (ms)\n4,100,50,20,0.03,9\n", "x.csv", f), std::string());
        const BenchmarkPoint& p = f.points.at(0);
        QCOMPARE(value(p, BenchmarkMetric::Ttft, BenchmarkStatistic::Median), 20.0);
        QVERIFY(!p.latency(BenchmarkMetric::Ttft, BenchmarkStatistic::Mean));
        QCOMPARE(value(p, BenchmarkMetric::Tpot, BenchmarkStatistic::P99), 30.0);
        QCOMPARE(value(p, BenchmarkMetric::Itl, BenchmarkStatistic::Mean), 9.0);
        QVERIFY(hasNote(f, "column \"itl_ms\" names no statistic: read as the mean"));
    }

    void vllmClosedLoop()
    {
        BenchmarkFile f;
        QCOMPARE(readBenchmarkFile(R"({"completed": 64, "total_input_tokens": 6400, "total_output_tokens": 3200, "request_rate": "inf",
                                       "max_concurrency": 16, "mean_ttft_ms": 50, "median_itl_ms": 12})", "r.json", f),
                 std::string());
        QCOMPARE(f.points.at(0).load, BenchmarkLoad::Concurrency);
        QCOMPARE(f.points.at(0).concurrency, 16.0);
    }

    void badInputNamesTheField_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("words");
        QTest::newRow("text latency") << QByteArray(R"({"completed": 4, "total_input_tokens": 40, "total_output_tokens": 40, "mean_ttft_ms": "fast"})")
                                      << QStringLiteral("mean_ttft_ms = \"fast\"");
        QTest::newRow("negative latency") << QByteArray(R"({"completed": 4, "total_input_tokens": 40, "total_output_tokens": 40, "mean_ttft_ms": -3})")
                                          << QStringLiteral("mean_ttft_ms = -3");
        QTest::newRow("csv cell") << QByteArray("concurrency,isl,osl,itl_ms\nabc,10,10,5\n") << QStringLiteral("line 2, column concurrency");
        QTest::newRow("fractional clients") << QByteArray("concurrency,isl,osl,itl_ms\n2.5,10,10,5\n") << QStringLiteral("concurrency = 2.5");
        QTest::newRow("no load column") << QByteArray("isl,osl,itl_ms\n10,10,5\n") << QStringLiteral("concurrency, batch or request_rate");
        QTest::newRow("unknown json") << QByteArray(R"({"hello": 1})") << QStringLiteral("not a benchmark result");
        QTest::newRow("bad json line") << QByteArray("{\"completed\": 1}\n{oops\n") << QStringLiteral("line 2");
    }
    void badInputNamesTheField()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, words);
        BenchmarkFile f;
        f.format = "kept";
        const std::string e = readBenchmarkFile(bytes, "x", f);
        QVERIFY2(QString::fromStdString(e).contains(words), e.c_str());
        QCOMPARE(f.format, std::string("kept")); // nothing half-read is handed back
    }

    /**
     * Found by an adversarial trial (each read with exit 0 and a wrong number): an unclosed quote shifted the GenAI-Perf
     * columns (p99 read as avg), a nan average switched the comparison from the mean to the median, and a
     * max_concurrency of 1e12 went on to an int cast. Each is refused, the line or field and the value named.
     */
    void adversarialInputRefused()
    {
        const QByteArray csv = readData(QStringLiteral("bench/genai-perf-cloudai.csv"));
        auto refusal = [](const QByteArray& bytes, const std::string& name) {
            BenchmarkFile f;
            return QString::fromStdString(readBenchmarkFile(bytes, name, f));
        };
        QVERIFY(refusal(csv, "run.csv").isEmpty());
        QByteArray unclosed = csv;
        unclosed.replace("Time To First Token (ms),\"1,146.31\"", "Time To First Token (ms),\"1,146.31");
        QString e = refusal(unclosed, "run.csv");
        QVERIFY2(e.startsWith(QStringLiteral("line 2: a double quote is not closed (the line holds 11;")), qPrintable(e));

        QByteArray nanAverage = csv;
        nanAverage.replace("Time To First Token (ms),\"1,146.31\"", "Time To First Token (ms),nan");
        e = refusal(nanAverage, "run.csv");
        QVERIFY2(e.contains(QStringLiteral("line 2 (Time To First Token (ms)) avg = nan: expected a finite number")), qPrintable(e));

        // The measurement CSV and the profile export JSON alike.
        e = refusal("concurrency,isl,osl,\"itl_ms\n4,100,50,9\n", "x.csv");
        QVERIFY2(e.contains(QStringLiteral("line 1: a double quote")), qPrintable(e));
        QByteArray aiperf = readData(QStringLiteral("bench/aiperf-export.json"));
        QVERIFY(aiperf.contains("\"avg\": 195.84"));
        aiperf.replace("\"avg\": 195.84", "\"avg\": NaN");
        e = refusal(aiperf, "export.json");
        QVERIFY2(e.contains(QStringLiteral("time_to_first_token.avg = \"NaN\": expected a finite number")), qPrintable(e));

        const QByteArray flat = R"({"completed": 4, "total_input_tokens": 40, "total_output_tokens": 40, "mean_ttft_ms": 30,
            "request_rate": 5, "max_concurrency": 1e12})";
        e = refusal(flat, "x.json");
        QVERIFY2(e.contains(QStringLiteral("max_concurrency = 1e12: expected a whole number from 1 to 1,000,000")), qPrintable(e));
    }
};

QTEST_APPLESS_MAIN(TestBenchmarkFile)
#include "tst_benchmarkfile.moc"
