// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 13's accuracy claim on the in-flight-batching set (tests/data/measured/nim-llama3-8b-h100-tp1-fp16):
// calibrated on one half of the points (model/calibration.h, calibrateBenchmark, with TensorRT-LLM's in-flight
// scheduler and the token budget fitted), the other half, which the fit never saw, is predicted within the target:
// ITL MAPE <= 10 %, TTFT MAPE <= 15 %. The halves are bench/measured_accuracy's: alternating over the sorted
// concurrencies, and separately over the sorted prompt lengths. Each case runs one fit with the simulator in the
// loop (about a minute on a quiet machine).
#include <QtTest>

#include <cmath>
#include <map>
#include <set>

#include "model/benchmarkfile.h"
#include "model/benchmarkpredict.h"
#include "model/calibration.h"
#include "model/scenariokeys.h"

using namespace ridgeline::model;

namespace {

struct Set {
    Scenario floor;
    std::vector<BenchmarkPoint> points;
};

Set nim()
{
    const QString base = QStringLiteral(RIDGELINE_SOURCE_DIR "/tests/data/measured/nim-llama3-8b-h100-tp1-fp16");
    QFile csv(base + QStringLiteral(".csv")), sc(base + QStringLiteral(".scenario.json"));
    if (!csv.open(QIODevice::ReadOnly) || !sc.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(base));
    BenchmarkFile file;
    if (const std::string e = readBenchmarkFile(csv.readAll(), "nim", file); !e.empty())
        qFatal("%s", e.c_str());
    Set s;
    s.floor = defaultScenario();
    if (const std::string e = applyJsonText(s.floor, sc.readAll()); !e.empty())
        qFatal("%s", e.c_str());
    s.floor.efficiency = Efficiency{};
    s.points = file.points;
    return s;
}

/** The points whose key sits at an even (@p first true) or odd position among the sorted distinct keys. */
std::vector<BenchmarkPoint> half(const std::vector<BenchmarkPoint>& points, bool byConcurrency, bool first)
{
    auto key = [&](const BenchmarkPoint& p) { return byConcurrency ? p.concurrency : p.inputTokens; };
    std::set<double> levels;
    for (const BenchmarkPoint& p : points)
        levels.insert(key(p));
    std::map<double, bool> side;
    bool a = true;
    for (const double l : levels) {
        side[l] = a;
        a = !a;
    }
    std::vector<BenchmarkPoint> out;
    for (const BenchmarkPoint& p : points)
        if (side[key(p)] == first)
            out.push_back(p);
    return out;
}

} // namespace

class TestHeldOut : public QObject {
    Q_OBJECT
private slots:
    void nimPredictedOnPointsTheFitNeverSaw_data()
    {
        QTest::addColumn<bool>("byConcurrency");
        QTest::addColumn<bool>("trainOnFirst");
        // By concurrency: trained on N = 1, 5, 25, 100, 200; predicted at N = 2, 10, 50, 150, 250.
        QTest::newRow("by concurrency") << true << true;
        // By prompt length: trained on ISL 2,000; predicted at ISL 200 and 7,000 (extrapolation both ways).
        QTest::newRow("by prompt length") << false << false;
    }
    void nimPredictedOnPointsTheFitNeverSaw()
    {
        QFETCH(bool, byConcurrency);
        QFETCH(bool, trainOnFirst);
        const Set set = nim();
        const std::vector<BenchmarkPoint> train = half(set.points, byConcurrency, trainOnFirst);
        const std::vector<BenchmarkPoint> test = half(set.points, byConcurrency, !trainOnFirst);
        QVERIFY(train.size() >= 20 && test.size() >= 20 && train.size() + test.size() == set.points.size());
        BenchmarkFitOptions fo;
        fo.engine.scheduler = SchedulerVersion::TrtllmInflight;
        fo.fitTokenBudget = true;
        BenchmarkFitResult fit;
        QCOMPARE(calibrateBenchmark(set.floor, train, fo, fit), std::string());
        QVERIFY(fit.tokenBudget >= fo.minTokenBudget && fit.tokenBudget <= fo.maxTokenBudget);
        QCOMPARE(fit.calibrated.serving.maxNumTokens, fit.tokenBudget);

        const std::vector<PointPrediction> r = predictBenchmarks(fit.calibrated, test, fo.engine);
        double itl = 0, ttft = 0;
        int nItl = 0, nTtft = 0;
        for (size_t i = 0; i < test.size(); ++i) {
            QVERIFY2(r[i].error.empty(), r[i].error.c_str());
            if (const auto c = compareItl(test[i], r[i].prediction)) {
                itl += std::abs(c->residual);
                ++nItl;
            }
            if (const auto c = compareTtft(test[i], r[i].prediction)) {
                ttft += std::abs(c->residual);
                ++nTtft;
            }
        }
        QCOMPARE(nItl, int(test.size()));
        QCOMPARE(nTtft, int(test.size()));
        const double itlMape = itl / nItl, ttftMape = ttft / nTtft;
        qInfo("held out (%zu points; fitted max_num_tokens %d, TTFT overhead %.2f ms): ITL %.1f %%, TTFT %.1f %%", test.size(),
              fit.tokenBudget, fit.ttftOverheadMs.value, 100 * itlMape, 100 * ttftMape);
        QVERIFY2(itlMape <= 0.10, qPrintable(QStringLiteral("ITL MAPE %1 %").arg(100 * itlMape)));
        QVERIFY2(ttftMape <= 0.15, qPrintable(QStringLiteral("TTFT MAPE %1 %").arg(100 * ttftMape)));
    }
};

QTEST_APPLESS_MAIN(TestHeldOut)
#include "tst_heldout.moc"
