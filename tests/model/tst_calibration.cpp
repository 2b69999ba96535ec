// SPDX-License-Identifier: GPL-3.0-or-later
// Calibration (issue 10): synthetic measurements made from known coefficients plus noise are
// recovered within the stated uncertainty; degenerate data fits only what it can and says so.

#include <cmath>
#include <random>

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "model/analysis/calibration.h"
#include "model/cost/costmodel.h"

using namespace ridgeline::model;

namespace {

/** Measurements from the cost model at known efficiencies, with relative Gaussian noise. */
std::vector<Measurement> synthetic(const Scenario& truth, double noise, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> gauss(0.0, noise);
    std::vector<Measurement> out;
    for (int batch : {1, 2, 4, 8, 16, 32, 64, 128})
        for (int context : {512, 2048, 8192}) {
            Scenario at = truth;
            at.workload.batch = batch;
            at.workload.contextTokens = context;
            at.workload.promptTokens = context;
            const Evaluation e = evaluate(at);
            Measurement m;
            m.batch = batch;
            m.contextTokens = context;
            m.promptTokens = context;
            m.itlMs = e.decode.stepSeconds * 1e3 * (1 + gauss(rng));
            m.ttftMs = e.prefill.seconds * 1e3 * (1 + gauss(rng));
            out.push_back(m);
        }
    return out;
}

bool notesMention(const CalibrationResult& r, const char* phrase)
{
    for (const std::string& n : r.notes)
        if (n.find(phrase) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestCalibration final : public QObject {
    Q_OBJECT

private slots:
    void recoversKnownCoefficients()
    {
        Scenario truth = defaultScenario();
        truth.efficiency.bandwidth = 0.72;
        truth.efficiency.stepOverheadSeconds = 1.5e-3;
        truth.efficiency.mfuPrefill = 0.45;
        truth.efficiency.prefillOverheadSeconds = 8e-3;
        const std::vector<Measurement> data = synthetic(truth, 0.01, 7);
        CalibrationResult r;
        QCOMPARE(QString::fromStdString(calibrate(defaultScenario(), data, r)), QString());
        auto within = [](const Coefficient& c, double expected) {
            return c.fitted && c.standardError && *c.standardError > 0 && std::abs(c.value - expected) <= 3 * *c.standardError;
        };
        QVERIFY2(within(r.bandwidthEfficiency, 0.72), qPrintable(QString::number(r.bandwidthEfficiency.value)));
        QVERIFY2(within(r.stepOverheadMs, 1.5), qPrintable(QString::number(r.stepOverheadMs.value)));
        QVERIFY2(within(r.mfuPrefill, 0.45), qPrintable(QString::number(r.mfuPrefill.value)));
        QVERIFY2(within(r.prefillOverheadMs, 8.0), qPrintable(QString::number(r.prefillOverheadMs.value)));
        QVERIFY(*r.bandwidthEfficiency.standardError < 0.02);
        QVERIFY(r.itl.mapeAfter < r.itl.mapeBefore);
        QVERIFY(r.itl.mapeAfter < 0.02);
        QVERIFY(r.ttft.mapeAfter < 0.02);
        QVERIFY(validate(r.calibrated).empty());
        QCOMPARE(r.calibrated.efficiency.bandwidth, r.bandwidthEfficiency.value);
    }

    void onePointFitsTheEfficiencyOnly()
    {
        Scenario truth = defaultScenario();
        truth.efficiency.bandwidth = 0.8;
        std::vector<Measurement> data = synthetic(truth, 0.0, 1);
        data.resize(1);
        CalibrationResult r;
        QCOMPARE(QString::fromStdString(calibrate(defaultScenario(), data, r)), QString());
        QVERIFY(r.bandwidthEfficiency.fitted);
        QVERIFY(!r.bandwidthEfficiency.standardError);
        QVERIFY(!r.stepOverheadMs.fitted);
        QVERIFY(std::abs(r.bandwidthEfficiency.value - 0.8) < 1e-9);
        QVERIFY(notesMention(r, "one point"));
    }

    void sameOperatingPointCannotSeparateOverhead()
    {
        std::vector<Measurement> data(5);
        for (size_t i = 0; i < data.size(); ++i) {
            data[i].batch = 8;
            data[i].contextTokens = 2048;
            data[i].itlMs = 7.0 + 0.1 * double(i);
        }
        CalibrationResult r;
        QCOMPARE(QString::fromStdString(calibrate(defaultScenario(), data, r)), QString());
        QVERIFY(!r.stepOverheadMs.fitted);
        QVERIFY(notesMention(r, "same operating point"));
    }

    /** Found by an adversarial trial: copies of one measurement gave eta_bw "+- 0", as if the fit were exact. */
    void identicalPointsGiveNoStandardError()
    {
        std::vector<Measurement> data(4);
        for (Measurement& m : data) {
            m.batch = 8;
            m.contextTokens = 2048;
            m.itlMs = 7.0;
        }
        CalibrationResult r;
        QCOMPARE(QString::fromStdString(calibrate(defaultScenario(), data, r)), QString());
        QVERIFY(r.bandwidthEfficiency.fitted);
        QVERIFY2(!r.bandwidthEfficiency.standardError, qPrintable(QString::number(r.bandwidthEfficiency.standardError.value_or(-1))));
        QVERIFY(notesMention(r, "standard error cannot be estimated"));
        // Repeats that scatter do tell the error.
        data[1].itlMs = 7.2;
        QCOMPARE(QString::fromStdString(calibrate(defaultScenario(), data, r)), QString());
        QVERIFY(r.bandwidthEfficiency.standardError && *r.bandwidthEfficiency.standardError > 0);
    }

    void nothingUsableIsRefused()
    {
        CalibrationResult r;
        QVERIFY(!calibrate(defaultScenario(), {}, r).empty());
        Measurement ttftWithoutPrompt;
        ttftWithoutPrompt.ttftMs = 100;
        QVERIFY(!calibrate(defaultScenario(), {ttftWithoutPrompt}, r).empty());
    }

    /** Found by a tester: an ITL of 1e9 ms fitted eta_bw = 4.9e-9 and printed a scenario Ridgeline refuses to open. */
    void fitOutsideTheModelsRangeIsRefused()
    {
        std::vector<Measurement> rows;
        QCOMPARE(parseMeasurementsCsv("batch,context_tokens,itl_ms\n1,2048,1e9\n", rows), std::string());
        CalibrationResult r;
        const QString err = QString::fromStdString(calibrate(defaultScenario(), rows, r));
        QVERIFY2(err.startsWith(QStringLiteral("the fit gives a scenario Ridgeline refuses (efficiency.bandwidth = ")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("do not match this scenario")), qPrintable(err));
        // A plausible measurement still fits.
        QCOMPARE(parseMeasurementsCsv("batch,context_tokens,itl_ms\n1,2048,25\n", rows), std::string());
        QCOMPARE(calibrate(defaultScenario(), rows, r), std::string());
        QVERIFY(validate(r.calibrated).empty());
    }

    void csvWithUnits()
    {
        std::vector<Measurement> rows;
        QCOMPARE(QString::fromStdString(parseMeasurementsCsv("concurrency, input_tokens, output_tokens, TPOT (ms), TTFT [s]\n"
                                                             "1, 2000, 300, 6.1, 0.05\n4,2000,300,6.4,0.06\n",
                                                             rows)),
                 QString());
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[1].batch, 4.0);
        QCOMPARE(rows[1].contextTokens, 2150.0);
        QCOMPARE(*rows[0].ttftMs, 50.0);
    }

    void csvRefusals_data()
    {
        QTest::addColumn<QByteArray>("csv");
        QTest::addColumn<QString>("phrase");
        QTest::newRow("unknown unit") << QByteArray("batch,itl (us)\n1,5\n") << "itl_us";
        QTest::newRow("unknown column") << QByteArray("batch,gpu_temp\n1,5\n") << "gpu_temp";
        QTest::newRow("no latency") << QByteArray("batch,context_tokens\n1,5\n") << "latency";
        QTest::newRow("bad number") << QByteArray("batch,itl_ms\n1,fast\n") << "fast";
        QTest::newRow("ragged") << QByteArray("batch,itl_ms\n1\n") << "cells";
        QTest::newRow("no rows") << QByteArray("batch,itl_ms\n") << "no data";
    }
    void csvRefusals()
    {
        QFETCH(QByteArray, csv);
        QFETCH(QString, phrase);
        std::vector<Measurement> rows;
        const QString err = QString::fromStdString(parseMeasurementsCsv(csv, rows));
        QVERIFY2(err.contains(phrase), qPrintable(err));
    }

    void vllmBenchmarkJson()
    {
        const QByteArray json = R"([{"completed": 100, "total_input_tokens": 200000, "total_output_tokens": 30000,
            "max_concurrency": 16, "mean_tpot_ms": 9.5, "median_ttft_ms": 120.0},
            {"completed": 100, "total_input_tokens": 200000, "total_output_tokens": 30000,
            "max_concurrency": 64, "mean_tpot_ms": 14.0, "median_ttft_ms": 300.0}])";
        std::vector<Measurement> rows;
        QCOMPARE(QString::fromStdString(parseVllmBenchmarkJson(json, rows)), QString());
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[0].batch, 16.0);
        QCOMPARE(rows[0].promptTokens, 2000.0);
        QCOMPARE(rows[0].contextTokens, 2150.0);
        QCOMPARE(*rows[1].itlMs, 14.0);
        const QString err = QString::fromStdString(parseVllmBenchmarkJson(R"({"completed": 10})", rows));
        QVERIFY(err.contains(QStringLiteral("total_input_tokens")));
    }

    /** Found by a tester: a negative TPOT was dropped silently, batch 0 or 2.5 accepted, "100" called missing. */
    void vllmRefusals_data()
    {
        QTest::addColumn<QByteArray>("fields");
        QTest::addColumn<QString>("expected");
        QTest::newRow("negative TPOT") << QByteArray(R"("mean_tpot_ms": -9)")
                                       << "result 1: mean_tpot_ms = -9: expected a latency from 1e-6 to 1e9 ms";
        QTest::newRow("zero TTFT") << QByteArray(R"("median_ttft_ms": 0)")
                                   << "result 1: median_ttft_ms = 0: expected a latency from 1e-6 to 1e9 ms";
        QTest::newRow("concurrency 0") << QByteArray(R"("max_concurrency": 0)")
                                       << "result 1: max_concurrency = 0: expected a whole number from 1 to 10,000,000";
        QTest::newRow("concurrency 2.5") << QByteArray(R"("max_concurrency": 2.5)")
                                         << "result 1: max_concurrency = 2.5: expected a whole number from 1 to 10,000,000";
        QTest::newRow("no input tokens") << QByteArray(R"("total_input_tokens": 0)")
                                         << "result 1: total_input_tokens = 0: expected a whole number of tokens from 1 to 1e12";
        QTest::newRow("completed as text") << QByteArray(R"("completed": "100")")
                                           << "result 1: completed = \"100\": expected a number, not text";
        QTest::newRow("fractional completed") << QByteArray(R"("completed": 99.5)")
                                              << "result 1: completed = 99.5: expected a whole number of requests from 1 to 1e12";
    }
    void vllmRefusals()
    {
        QFETCH(QByteArray, fields);
        QFETCH(QString, expected);
        // A good result, then the same with the field(s) of @p fields replaced.
        const QByteArray good = R"({"completed": 100, "total_input_tokens": 200000, "total_output_tokens": 30000,
            "max_concurrency": 16, "mean_tpot_ms": 9.5, "median_ttft_ms": 120.0)";
        std::vector<Measurement> rows;
        QCOMPARE(QString::fromStdString(parseVllmBenchmarkJson(good + "}", rows)), QString());
        QJsonObject o = QJsonDocument::fromJson(good + "}").object();
        const QJsonObject change = QJsonDocument::fromJson("{" + fields + "}").object();
        for (auto it = change.begin(); it != change.end(); ++it)
            o.insert(it.key(), it.value());
        const QString err = QString::fromStdString(parseVllmBenchmarkJson(QJsonDocument(o).toJson(), rows));
        QCOMPARE(err, expected);
        QCOMPARE(rows.size(), size_t(1)); // untouched
        QCOMPARE(QString::fromStdString(parseVllmBenchmarkJson("[" + good + "}, 3]", rows)),
                 QStringLiteral("result 2: 3: expected an object (one benchmark result)"));
    }

    /** The CSV refuses what the vLLM reader refuses, and says which line, column and value. */
    void csvValueRefusals_data()
    {
        QTest::addColumn<QByteArray>("csv");
        QTest::addColumn<QString>("expected");
        QTest::newRow("batch 1.5") << QByteArray("batch,itl_ms\n1,5\n1.5,6\n")
                                   << "line 3, column batch = 1.5: expected a whole number of sequences from 1 to 10,000,000";
        QTest::newRow("batch 0") << QByteArray("concurrency,itl_ms\n0,5\n")
                                 << "line 2, column concurrency = 0: expected a whole number of sequences from 1 to 10,000,000";
        QTest::newRow("empty batch") << QByteArray("batch,itl_ms\n,5\n") << "line 2, column batch: empty (every row needs its batch)";
        QTest::newRow("negative ITL") << QByteArray("batch,itl_ms\n1,-9\n") << "line 2, column itl_ms = -9: expected a latency from 1e-6 to 1e9 ms";
        QTest::newRow("zero TTFT in s") << QByteArray("batch,ttft_s\n1,0\n") << "line 2, column ttft_s = 0: expected a latency from 1e-9 to 1e6 s";
        QTest::newRow("negative tokens") << QByteArray("batch,input_tokens,itl_ms\n1,-5,3\n")
                                         << "line 2, column input_tokens = -5: expected a number of tokens from 0 to 1e9";
        // Found by an adversarial trial: "\"NaN\" is not a number" read as a tautology; an unclosed quote shifted the cells.
        QTest::newRow("NaN latency") << QByteArray("batch,itl_ms\n1,NaN\n") << "line 2, column itl_ms = NaN: expected a finite number";
        QTest::newRow("unclosed quote") << QByteArray("batch,itl_ms\n\"1,5\n")
                                        << "line 2: a double quote is not closed (the line holds 1;";
        QTest::newRow("two batch columns") << QByteArray("batch,itl_ms,batch\n1,5,2\n")
                                           << "column \"batch\" appears twice (columns 1 and 3): keep one";
        QTest::newRow("batch and concurrency") << QByteArray("batch,concurrency,itl_ms\n1,2,5\n")
                                               << "columns \"batch\" and \"concurrency\" both give the batch: keep one";
        QTest::newRow("ITL and TPOT") << QByteArray("batch,ITL (ms),tpot_ms\n1,5,6\n")
                                      << "columns \"itl_ms\" and \"tpot_ms\" both give the ITL: keep one";
        QTest::newRow("binary garbage") << QByteArray("batch,itl_ms,\x01\x7f\x1b!x\n1,2,3\n")
                                        << "unknown column \"\\x01\\x7F\\x1B!x\" (expected batch or concurrency";
    }
    void csvValueRefusals()
    {
        QFETCH(QByteArray, csv);
        QFETCH(QString, expected);
        std::vector<Measurement> rows;
        const QString err = QString::fromStdString(parseMeasurementsCsv(csv, rows));
        QVERIFY2(err.startsWith(expected), qPrintable(err));
        for (const QChar c : err)
            QVERIFY2(c.unicode() >= 0x20 && c.unicode() != 0x7f, qPrintable(err)); // one printable line
        QVERIFY(rows.empty());
    }

    /** More rows than kMaxMeasurements are refused before any fit (2.3 M rows took 407 s on the UI thread). */
    void tooManyMeasurementsRefused()
    {
        QByteArray csv = "batch,context_tokens,itl_ms\n";
        for (int i = 0; i < kMaxMeasurements; ++i)
            csv += QByteArray::number(1 + i % 64) + ",2048," + QByteArray::number(7.0 + 0.1 * (i % 64)) + "\n";
        std::vector<Measurement> rows;
        QCOMPARE(parseMeasurementsCsv(csv, rows), std::string());
        QCOMPARE(rows.size(), size_t(kMaxMeasurements));
        csv += "1,2048,7\n";
        rows.clear();
        const std::string err = parseMeasurementsCsv(csv, rows);
        QVERIFY2(QString::fromStdString(err).startsWith(QStringLiteral("line 10002: more than 10000 measurements; at most 10000")),
                 err.c_str());
        QVERIFY(rows.empty());
        QByteArray lines;
        for (int i = 0; i <= kMaxMeasurements; ++i)
            lines += R"({"completed": 1, "max_concurrency": 1, "mean_tpot_ms": 9.5, "total_input_tokens": 100, "total_output_tokens": 10})"
                     "\n";
        QVERIFY(QString::fromStdString(parseVllmBenchmarkJson(lines, rows)).contains(QStringLiteral("more than 10000 measurements")));
    }
};

QTEST_APPLESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
