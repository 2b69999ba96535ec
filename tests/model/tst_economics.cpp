// SPDX-License-Identifier: GPL-3.0-or-later
// Economics at the window's operating point (issue 14): the scenario's economics keys, where the price and the board
// power come from, and the section 5 formulas of docs/cost-model.md worked by hand from the evaluation's GPU time per
// request (never copied from the code's output).

#include <cmath>

#include <QtTest>

#include "model/analysis/operatingeconomics.h"
#include "model/cost/costmodel.h"
#include "model/cost/messagetext.h"
#include "model/cost/presets.h"
#include "model/cost/scenariokeys.h"
#include "model/cost/scenariomigration.h"

using namespace ridgeline::model;

namespace {

ModelShape presetModel(const char* id)
{
    for (const ModelPreset& p : modelPresets())
        if (p.id == id)
            return p.shape;
    qFatal("no preset %s", id);
}

/** Llama 3.1 70B bf16 on 4 H100 SXM (the catalogue's device: 700 W TDP; example price 2.50 USD), batch 32. */
Scenario llama70bOnFourH100()
{
    Scenario s = defaultScenario();
    s.model = presetModel("llama-3.1-70b");
    const std::string error = applyHardwarePreset(s, "h100-sxm");
    if (!error.empty())
        qFatal("%s", error.c_str());
    s.hardware.gpus = 4;
    s.workload.batch = 32;
    s.workload.promptTokens = 2048;
    s.workload.outputTokens = 256;
    return s;
}

bool close(double a, double b, double rel = 1e-12) { return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b)); }

} // namespace

class TestEconomics final : public QObject {
    Q_OBJECT

private slots:
    /** Section 5 by hand: C_h = G p; $/1M out = (1 - f) C_h / 3600 / out/s x 1e6; ... with out/s = O / request GPU time. */
    void operatingPointByHand()
    {
        const Scenario s = llama70bOnFourH100();
        QVERIFY(validate(s).empty());
        const Evaluation ev = evaluate(s);
        const OperatingEconomics x = operatingEconomics(s, ev);

        // Inputs: the example price of H100 SXM (resources/plans/gpu-prices-example.json: 2.5 USD), its datasheet TDP
        // (700 W, resources/presets/hardware.json), the default PUE 1.2.
        QCOMPARE(x.priceSource, PriceSource::Example);
        QCOMPARE(x.powerSource, PowerSource::Datasheet);
        QCOMPARE(*x.inputs.pricePerGpuHour, 2.5);
        QCOMPARE(*x.inputs.boardPowerWatts, 700.0);
        QCOMPARE(x.inputs.pue, 1.2);
        QCOMPARE(Economics{}.pue, kDefaultPue); // the scenario's default PUE is the plan's
        QCOMPARE(x.currency, std::string("USD"));

        // One request: t_pre(P) of prefill and O t_step(B, P + O/2) / B of decode, GPU-seconds of the 4-GPU instance.
        const double pre = ev.workload.prefillSecondsPerRequest;
        const double dec = ev.workload.decodeSecondsPerRequest;
        QVERIFY(pre > 0 && dec > 0);
        const double outPerSecond = 256.0 / (pre + dec);
        const double inPerSecond = 2048.0 / (pre + dec);
        const double f = pre / (pre + dec);
        const double costPerHour = 4 * 2.5;                      // 10 USD per hour
        const double perSecond = costPerHour / 3600.0;
        const double allIn = perSecond / outPerSecond * 1e6;
        const double facilityWatts = 4 * 700.0 * 1.2;            // 3,360 W
        qInfo("70B on 4 H100, B 32, P 2048, O 256: t_pre %.3f ms, decode %.3f ms per request, f %.4f, out/s %.1f; "
              "$/1M out %.4f, $/1M in %.4f, J/token %.4f, tok/s/MW %.0f",
              pre * 1e3, dec * 1e3, f, outPerSecond, (1 - f) * allIn, f * perSecond / inPerSecond * 1e6,
              facilityWatts / outPerSecond, outPerSecond / (facilityWatts / 1e6));
        QVERIFY(close(*x.cost.costPerHour, costPerHour));
        QVERIFY(close(*x.cost.costPerMillionOutputTokensAllIn, allIn));
        QVERIFY(close(*x.cost.costPerMillionOutputTokens, (1 - f) * allIn));
        QVERIFY(close(*x.cost.costPerMillionInputTokens, f * perSecond / inPerSecond * 1e6));
        QVERIFY(close(*x.cost.facilityPowerWatts, facilityWatts));
        QVERIFY(close(*x.cost.joulesPerOutputToken, facilityWatts / outPerSecond));
        QVERIFY(close(*x.cost.outputTokensPerSecondPerMegawatt, outPerSecond / (facilityWatts / 1e6)));
        // The output and input shares add up to every GPU-second of the request.
        QVERIFY(close(*x.cost.costPerMillionOutputTokens * 256 + *x.cost.costPerMillionInputTokens * 2048, allIn * 256, 1e-9));
    }

    /** Issue 14 trial: the panel said "at (B, S)" but priced the request's mean context P + O/2, whatever S was. The
     *  atBatchContext figures follow S as t_step does (by hand from t_step(B, S)); the per-request ones keep their
     *  meaning; a point whose cache does not fit has no figure. */
    void atBatchContextFollowsTheContext()
    {
        Scenario s = llama70bOnFourH100();
        s.workload.contextTokens = 8192;
        const Evaluation ev = evaluate(s);
        const OperatingEconomics x = operatingEconomics(s, ev);
        QVERIFY(x.fitsAtBatchContext);
        const double step = stepSecondsAt(s, 32);                  // t_step(32, 8192) of the 4-GPU instance
        const double outPerSecond = 32.0 / step;
        const double facilityWatts = 4 * 700.0 * 1.2;
        QVERIFY(close(x.outputTokensPerSecondAtBatchContext, outPerSecond, 1e-9));
        QVERIFY(close(*x.atBatchContext.costPerMillionOutputTokens, 4 * 2.5 / 3600.0 / outPerSecond * 1e6, 1e-9));
        QVERIFY(close(*x.atBatchContext.joulesPerOutputToken, facilityWatts / outPerSecond, 1e-9));
        QVERIFY(close(*x.atBatchContext.outputTokensPerSecondPerMegawatt, outPerSecond / (facilityWatts / 1e6), 1e-9));
        QVERIFY(!x.atBatchContext.costPerMillionInputTokens); // no prefill at (B, S)

        // S moves the (B, S) figures and not the per-request ones (mean context P + O/2 = 2,176).
        Scenario shorter = s;
        shorter.workload.contextTokens = 1024;
        const OperatingEconomics y = operatingEconomics(shorter, evaluate(shorter));
        QVERIFY(*y.atBatchContext.costPerMillionOutputTokens < *x.atBatchContext.costPerMillionOutputTokens * 0.9);
        QVERIFY(close(*y.cost.costPerMillionOutputTokens, *x.cost.costPerMillionOutputTokens));
        QVERIFY(close(*y.cost.joulesPerOutputToken, *x.cost.joulesPerOutputToken));

        // 1,024 sequences of 128k tokens do not fit 4 H100: no figure at (B, S), whatever the price and power.
        Scenario huge = s;
        huge.workload.batch = 1024;
        huge.workload.contextTokens = 131072;
        const Evaluation hugeEv = evaluate(huge);
        QVERIFY(!hugeEv.capacity.fits);
        const OperatingEconomics z = operatingEconomics(huge, hugeEv);
        QVERIFY(!z.fitsAtBatchContext);
        QCOMPARE(z.outputTokensPerSecondAtBatchContext, 0.0);
        QVERIFY(!z.atBatchContext.costPerMillionOutputTokens && !z.atBatchContext.joulesPerOutputToken);
        QVERIFY(!z.atBatchContext.outputTokensPerSecondPerMegawatt && !z.atBatchContext.costPerHour);
    }

    /** Issue 14 trial: the per-request figures priced B sequences at P + O/2 that do not fit (0.06 USD/1M at batch
     *  4,096 on one GPU). They exist iff capacity.maxContextAtBatch is unbounded or >= P + O/2, whatever (B, S) does. */
    void perRequestFiguresNeedTheBatchToFit()
    {
        Scenario s = llama70bOnFourH100();
        s.workload.contextTokens = 1024; // (B, S) at S = 1,024; per request at P + O/2 = 2,176
        // The largest batch whose cache at 2,176 tokens fits, and one more: by hand from the KV budget per GPU.
        const Evaluation base = evaluate(s);
        const double perSequence = base.decode.kvBytesPerTokenPerGpu * 2176.0;
        const int fitting = int(std::floor(base.capacity.kvBudgetBytes / perSequence));
        QVERIFY(fitting > 32);
        s.workload.batch = fitting;
        const Evaluation fitsEv = evaluate(s);
        const OperatingEconomics fits = operatingEconomics(s, fitsEv);
        QVERIFY(fitsEv.capacity.maxContextAtBatch && double(*fitsEv.capacity.maxContextAtBatch) >= 2176.0);
        QVERIFY(fits.fitsPerRequest);
        QVERIFY(fits.cost.costPerMillionOutputTokens && fits.cost.joulesPerOutputToken && fits.cost.costPerHour);

        s.workload.batch = fitting + 1;
        const Evaluation overEv = evaluate(s);
        const OperatingEconomics over = operatingEconomics(s, overEv);
        QVERIFY(overEv.capacity.fits);      // B sequences at S = 1,024 still fit: the (B, S) figures exist
        QVERIFY(over.fitsAtBatchContext && over.atBatchContext.costPerMillionOutputTokens);
        QVERIFY(over.weightsFit && !over.fitsPerRequest); // at P + O/2 they do not: no per-request figure
        QVERIFY(!over.cost.costPerMillionOutputTokens && !over.cost.costPerMillionOutputTokensAllIn && !over.cost.costPerMillionInputTokens);
        QVERIFY(!over.cost.joulesPerOutputToken && !over.cost.outputTokensPerSecondPerMegawatt && !over.cost.costPerHour);

        // The trial's case: batch 4,096.
        s.workload.batch = 4096;
        QVERIFY(!operatingEconomics(s, evaluate(s)).fitsPerRequest);
    }

    /** Your price wins and scales every $ figure; PUE scales the energy figures and not the $ ones. */
    void yourPriceAndPue()
    {
        Scenario s = llama70bOnFourH100();
        const Evaluation ev = evaluate(s);
        const OperatingEconomics example = operatingEconomics(s, ev);
        QCOMPARE(setKey(s, "economics.price_per_gpu_hour", "3.75"), std::string());
        QCOMPARE(setKey(s, "economics.pue", "1.5"), std::string());
        const OperatingEconomics yours = operatingEconomics(s, evaluate(s));
        QCOMPARE(yours.priceSource, PriceSource::User);
        QVERIFY(close(*yours.cost.costPerMillionOutputTokens, *example.cost.costPerMillionOutputTokens * 3.75 / 2.5));
        QVERIFY(close(*yours.cost.costPerMillionInputTokens, *example.cost.costPerMillionInputTokens * 3.75 / 2.5));
        QVERIFY(close(*yours.cost.joulesPerOutputToken, *example.cost.joulesPerOutputToken * 1.5 / 1.2));
        QVERIFY(close(*yours.cost.outputTokensPerSecondPerMegawatt, *example.cost.outputTokensPerSecondPerMegawatt * 1.2 / 1.5));
    }

    /** No price and no power known: nullopt, never NaN or 0. Example prices only in USD; an edited device keeps them. */
    void unknownsAndExamples()
    {
        Scenario s = llama70bOnFourH100();
        s.hardware.name = "My accelerator";
        s.hardware.boardPowerWatts = 0;
        OperatingEconomics x = operatingEconomics(s, evaluate(s));
        QCOMPARE(x.priceSource, PriceSource::Unknown);
        QCOMPARE(x.powerSource, PowerSource::Unknown);
        QVERIFY(!x.inputs.pricePerGpuHour && !x.inputs.boardPowerWatts);
        QVERIFY(!x.cost.costPerMillionOutputTokens && !x.cost.costPerMillionInputTokens && !x.cost.costPerHour);
        QVERIFY(!x.cost.joulesPerOutputToken && !x.cost.outputTokensPerSecondPerMegawatt);
        QCOMPARE(priceSourceKey(x.priceSource), std::string_view("unknown"));

        // The default scenario's H100 has no board power of its own (0): the catalogue's datasheet TDP is used.
        Scenario h100 = defaultScenario();
        QCOMPARE(h100.hardware.boardPowerWatts, 0.0);
        x = operatingEconomics(h100, evaluate(h100));
        QCOMPARE(x.powerSource, PowerSource::Datasheet);
        QCOMPARE(*x.inputs.boardPowerWatts, 700.0);
        // A slider moved: "H100 SXM (edited)" still takes H100's example price; a board power that is not the
        // datasheet's is the scenario's.
        h100.hardware.name = "H100 SXM (edited)";
        h100.hardware.boardPowerWatts = 650;
        x = operatingEconomics(h100, evaluate(h100));
        QCOMPARE(x.priceSource, PriceSource::Example);
        QCOMPARE(x.powerSource, PowerSource::Scenario);
        QCOMPARE(*x.inputs.boardPowerWatts, 650.0);
        // In EUR the USD example does not apply.
        h100.economics.currency = "EUR";
        x = operatingEconomics(h100, evaluate(h100));
        QCOMPARE(x.priceSource, PriceSource::Unknown);
        QVERIFY(!x.cost.costPerMillionOutputTokens);
        QVERIFY(x.cost.joulesPerOutputToken.has_value());
    }

    void badValuesNameTheKeyAndTheValue_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("PUE below 1") << "economics.pue" << "0.9" << "economics.pue = 0.9: must be at least 1";
        QTest::newRow("PUE 0") << "economics.pue" << "0" << "economics.pue = 0: must be at least 1";
        QTest::newRow("PUE 11") << "economics.pue" << "11" << "economics.pue = 11: must be at most 10";
        QTest::newRow("negative price") << "economics.price_per_gpu_hour" << "-2" << "economics.price_per_gpu_hour = -2: must not be negative";
        // Trial findings: 1e-300 printed every cost as 0.000; a board of 1e-300 W printed 300-digit tokens/s per MW.
        QTest::newRow("tiny price") << "economics.price_per_gpu_hour" << "1e-7"
                                    << "economics.price_per_gpu_hour = 1e-7: must be 0 (the example price) or at least 0.001";
        QTest::newRow("tiny board power") << "hardware.board_power_watts" << "1e-300"
                                          << "hardware.board_power_watts = 1e-300: must be 0 (unknown) or at least 1 W";
        QTest::newRow("no currency") << "economics.currency" << "" << "economics.currency = \"\": must name the currency";
        // Issue 14 trial: scenarios took 256 characters and blanks while plan files took 8 printable ones: one rule now.
        QTest::newRow("blank currency") << "economics.currency" << "   "
                                        << "economics.currency = \"   \": must name the currency in 1 to 8 printable characters, "
                                           "no blank at either end, e.g. \"USD\" (it is blank)";
        QTest::newRow("long currency") << "economics.currency" << "Galactic credits"
                                       << "economics.currency = \"Galactic credits\": must name the currency in 1 to 8 printable "
                                          "characters, no blank at either end, e.g. \"USD\" (it is 16 characters long)";
        QTest::newRow("padded currency") << "economics.currency" << " EUR" << "economics.currency = \" EUR\": must name the currency";
    }

    /** The one currency rule (currencyProblem()) that economics.currency and a plan file's "currency" share. */
    void oneCurrencyRule()
    {
        for (const char* ok : {"USD", "EUR", "k USD", "US$", "\xE2\x82\xAC", "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"})
            QVERIFY2(currencyProblem(ok).empty(), ok); // eight euro signs are 8 characters (24 bytes)
        for (const char* bad : {"", "  ", "\t", "USD ", "ABCDEFGHI", "U\x1b[2J"})
            QVERIFY2(!currencyProblem(bad).empty(), bad);
        // Adversarial trial: invisible and format characters passed (RLO U+202E reversed the Plan tab's label).
        for (const char* bad : {"\xE2\x80\xAE" "DSU", "\xC2\xA0" "USD", "USD\xC2\xA0", "\xE2\x80\x8B", "U\xE2\x80\xA8" "SD",
                                "\xCC\x81", "US\xFF" "D"})
            QVERIFY2(!currencyProblem(bad).empty(), bad);
        QCOMPARE(currencyProblem("\xE2\x80\xAE" "DSU"),
                 std::string("must name the currency in 1 to 8 printable characters, no blank at either end, e.g. \"USD\" "
                             "(it holds an invisible or format character (U+202E))"));
    }

    /** Adversarial trial: C1 controls (U+0080-U+009F; U+009B starts an escape sequence on some terminals) reached the
     *  text output raw through economics.currency, a plan's currency and model.name. Printable non-ASCII text stays. */
    void c1ControlsAreRefused()
    {
        QCOMPARE(findControlCharacter("US\xC2\x9B" "2J"), size_t(2));
        QCOMPARE(findControlCharacter("\xC2\x80"), size_t(0));
        QCOMPARE(findControlCharacter("EUR \xE2\x82\xAC caf\xC3\xA9 \xC2\xA3"), std::string::npos); // euro sign, e acute, pound sign
        Scenario s = defaultScenario();
        QCOMPARE(setKey(s, "economics.currency", "US\xC2\x9B" "2J"),
                 std::string("economics.currency: contains a control character (U+009B); expected one line of text"));
        QCOMPARE(s.economics.currency, std::string("USD")); // nothing the user had is lost
        QCOMPARE(setKey(s, "economics.currency", "\xC2\xA3"), std::string());
        QCOMPARE(s.economics.currency, std::string("\xC2\xA3"));
    }

    void badValuesNameTheKeyAndTheValue()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, message);
        Scenario s = defaultScenario();
        QCOMPARE(setKey(s, key.toStdString(), value.toStdString()), std::string());
        const std::vector<ScenarioError> errors = validate(s);
        QCOMPARE(int(errors.size()), 1);
        QCOMPARE(QString::fromStdString(errors.front().key), key);
        QVERIFY2(QString::fromStdString(errors.front().message).startsWith(message), errors.front().message.c_str());
    }

    /** A file written before the economics keys loads as it did, with the defaults; a file with them round-trips. */
    void oldFilesLoadAndNewKeysRoundTrip()
    {
        QFile f(QStringLiteral(RIDGELINE_SOURCE_DIR "/resources/scenarios/crossover-70b-h100.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray old = f.readAll();
        QVERIFY(!old.contains("economics"));
        Scenario loaded;
        ScenarioLoadReport report;
        QCOMPARE(loadScenarioJson(old, defaultScenario(), loaded, report), std::string());
        QCOMPARE(loaded.economics.pricePerGpuHour, 0.0);
        QCOMPARE(loaded.economics.pue, 1.2);
        QCOMPARE(loaded.economics.currency, std::string("USD"));
        QVERIFY(report.ignored.empty());

        Scenario s = defaultScenario();
        QCOMPARE(applyJsonText(s, R"({"economics": {"price_per_gpu_hour": 2.75, "pue": 1.35, "currency": "EUR"}})"), std::string());
        QCOMPARE(s.economics.pricePerGpuHour, 2.75);
        QCOMPARE(s.economics.pue, 1.35);
        QCOMPARE(s.economics.currency, std::string("EUR"));
        Scenario back = defaultScenario();
        QCOMPARE(applyJson(back, toJson(s)), std::string());
        QCOMPARE(back.economics.pricePerGpuHour, 2.75);
        QCOMPARE(back.economics.pue, 1.35);
        QCOMPARE(back.economics.currency, std::string("EUR"));
        // Wrong type: refused with the key, scenario unchanged.
        const std::string error = applyJsonText(back, R"({"economics": {"pue": "high"}})");
        QVERIFY2(error.find("economics.pue") != std::string::npos, error.c_str());
        QCOMPARE(back.economics.pue, 1.35);
    }
};

QTEST_APPLESS_MAIN(TestEconomics)
#include "tst_economics.moc"
