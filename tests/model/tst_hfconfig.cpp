// SPDX-License-Identifier: GPL-3.0-or-later
// HuggingFace config.json import: parameter counts of real configs (tests/data/configs, as their
// publishers ship them) and one test per well-known estimator mistake, each on a model other than
// the one the issue names.

#include <cmath>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "model/cost/costmodel.h"
#include "model/files/hfconfig.h"

using namespace ridgeline::model;

namespace {

QByteArray fixture(const QString& name)
{
    QFile f(QStringLiteral(RIDGELINE_TEST_DATA "/configs/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return f.readAll();
}

ImportedModel import(const QByteArray& json)
{
    ImportedModel m;
    const std::string err = importHfConfig(json, m);
    if (!err.empty())
        qWarning("import failed: %s", err.c_str());
    return m;
}

Scenario onH100(const ModelShape& shape, int batch = 1, int context = 0)
{
    Scenario s = defaultScenario();
    s.model = shape;
    s.workload.batch = batch;
    s.workload.contextTokens = context;
    return s;
}

} // namespace

class TestHfConfig final : public QObject {
    Q_OBJECT

private slots:
    void counts_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("total");
        QTest::addColumn<double>("active");
        QTest::addColumn<double>("activeTolerance");
        QTest::addColumn<double>("kvPerToken");
        // Values from tests/data/configs/README.md.
        QTest::newRow("Llama 3.1 8B") << "llama-3.1-8b.json" << 8030261248.0 << 8030261248.0 << 0.0 << 131072.0;
        QTest::newRow("Llama 3.1 70B") << "llama-3.1-70b.json" << 70553706496.0 << 70553706496.0 << 0.0 << 327680.0;
        QTest::newRow("Llama 3.1 405B") << "llama-3.1-405b.json" << 405853388800.0 << 405853388800.0 << 0.0 << 516096.0;
        QTest::newRow("Mixtral 8x7B") << "mixtral-8x7b.json" << 46702792704.0 << 12879925248.0 << 0.0 << 131072.0;
        QTest::newRow("DeepSeek-V3 (no MTP)") << "deepseek-v3.json" << 671026419200.0 << 37.55e9 << 0.001 << 70272.0;
        QTest::newRow("Gemma 2 9B (tied)") << "gemma-2-9b.json" << 9241705984.0 << 9241705984.0 << 0.0 << 344064.0;
        QTest::newRow("Qwen2.5 3B (tied)") << "qwen2.5-3b.json" << 3085938688.0 << 3085938688.0 << 0.0 << 36864.0;
    }
    void counts()
    {
        QFETCH(QString, file);
        QFETCH(double, total);
        QFETCH(double, active);
        QFETCH(double, activeTolerance);
        QFETCH(double, kvPerToken);
        const ImportedModel m = import(fixture(file));
        QCOMPARE(m.totalParams, total);
        if (activeTolerance == 0)
            QCOMPARE(m.activeParams, active);
        else
            QVERIFY2(std::abs(m.activeParams - active) <= activeTolerance * active, qPrintable(QString::number(m.activeParams, 'f', 0)));
        QCOMPARE(kvBytesPerToken(m.shape), kvPerToken);
        QVERIFY(validate(onH100(m.shape)).empty());
        // The imported model's active count is what the cost model uses.
        QCOMPARE(m.shape.activeParamsOrTotal(), m.activeParams);
    }

    void mixtralExpertsTouchedGrowWithBatch_data()
    {
        QTest::addColumn<int>("batch");
        QTest::addColumn<double>("touched");
        QTest::newRow("B 1") << 1 << 2.0;
        QTest::newRow("B 4") << 4 << 5.47;
        QTest::newRow("B 16") << 16 << 7.92;
    }
    void mixtralExpertsTouchedGrowWithBatch()
    {
        QFETCH(int, batch);
        QFETCH(double, touched);
        const ImportedModel m = import(fixture(QStringLiteral("mixtral-8x7b.json")));
        const Evaluation e = evaluate(onH100(m.shape, batch));
        QVERIFY2(std::abs(e.decode.expertsTouched - touched) <= 0.005, qPrintable(QString::number(e.decode.expertsTouched)));
    }

    void gemmaSlidingLayersHoldTheWindow()
    {
        const ImportedModel m = import(fixture(QStringLiteral("gemma-2-9b.json")));
        QCOMPARE(m.shape.slidingWindow, 4096);
        QCOMPARE(m.shape.slidingLayers, 21);
        QCOMPARE(m.shape.headDimOrDefault(), 256);
        const double perLayer = 2.0 * 8 * 256 * 2;
        const Evaluation e = evaluate(onH100(m.shape, 1, 32768));
        QCOMPARE(e.decode.kvBytesPerSequence, perLayer * (21 * 32768.0 + 21 * 4096.0));
    }

    void qwenKvAtTensorParallel8()
    {
        const ImportedModel m = import(fixture(QStringLiteral("qwen2.5-3b.json")));
        Scenario s = onH100(m.shape);
        s.hardware.gpus = 8;
        QCOMPARE(evaluate(s).decode.kvBytesPerTokenPerGpu, 18432.0);
    }

    // --- One test per mistake, on other models.

    /** KV cache sized with query heads instead of KV heads (a GQA model other than Llama 3.1 8B). */
    void mistakeKvFromQueryHeads()
    {
        // Mistral 7B: 32 query heads, 8 KV heads, head dim 128, 32 layers.
        const ImportedModel m = import(R"({"model_type":"mistral","hidden_size":4096,"num_hidden_layers":32,
            "num_attention_heads":32,"num_key_value_heads":8,"intermediate_size":14336,"vocab_size":32000,
            "tie_word_embeddings":false,"sliding_window":null})");
        QCOMPARE(kvBytesPerToken(m.shape), 2.0 * 32 * 8 * 128 * 2);
        QCOMPARE(m.totalParams, 7241732096.0); // Mistral 7B v0.1's published count
    }

    /** Head dim taken as hidden / heads when the config gives head_dim (a model other than Gemma 2). */
    void mistakeHeadDimFromHidden()
    {
        // Qwen3 4B: hidden 2560, 32 heads, head_dim 128 (hidden / heads would be 80), 8 KV heads, 36 layers.
        const ImportedModel m = import(R"({"model_type":"qwen3","hidden_size":2560,"num_hidden_layers":36,
            "num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,"intermediate_size":9728,
            "vocab_size":151936,"tie_word_embeddings":true})");
        QCOMPARE(m.shape.headDimOrDefault(), 128);
        QCOMPARE(kvBytesPerToken(m.shape), 2.0 * 36 * 8 * 128 * 2);
        QCOMPARE(m.totalParams, 4022468096.0); // Qwen3-4B's published count
    }

    /** Latent attention sized as full heads (a model other than DeepSeek-V3). */
    void mistakeMlaAsFullHeads()
    {
        // DeepSeek-V2-Lite: 27 layers, kv_lora_rank 512, rope 64, no q_lora.
        const ImportedModel m = import(R"({"model_type":"deepseek_v2","hidden_size":2048,"num_hidden_layers":27,
            "num_attention_heads":16,"num_key_value_heads":16,"kv_lora_rank":512,"q_lora_rank":null,
            "qk_rope_head_dim":64,"qk_nope_head_dim":128,"v_head_dim":128,"intermediate_size":10944,
            "moe_intermediate_size":1408,"n_routed_experts":64,"n_shared_experts":2,"num_experts_per_tok":6,
            "first_k_dense_replace":1,"moe_layer_freq":1,"vocab_size":102400,"tie_word_embeddings":false})");
        QCOMPARE(kvBytesPerToken(m.shape), 27.0 * (512 + 64) * 2);
        QCOMPARE(m.totalParams, 15706484224.0); // DeepSeek-V2-Lite's published count
        Scenario s = onH100(m.shape);
        s.hardware.gpus = 4;
        QCOMPARE(evaluate(s).decode.kvBytesPerTokenPerGpu, 27.0 * (512 + 64) * 2); // replicated, not split
    }

    /** MoE weights counted as all experts, or as only the active ones, whatever the batch (not Mixtral). */
    void mistakeMoeIgnoresBatch()
    {
        // Qwen3-30B-A3B: 48 layers, 128 experts, 8 per token.
        const ImportedModel m = import(R"({"model_type":"qwen3_moe","hidden_size":2048,"num_hidden_layers":48,
            "num_attention_heads":32,"num_key_value_heads":4,"head_dim":128,"intermediate_size":6144,
            "moe_intermediate_size":768,"num_experts":128,"num_experts_per_tok":8,"decoder_sparse_step":1,
            "mlp_only_layers":[],"vocab_size":151936,"tie_word_embeddings":false})");
        QCOMPARE(m.totalParams, 30532122624.0); // Qwen3-30B-A3B's published count
        // The experts alone: every weight read every step (model.embedding_read = table); the embedding rows
        // decode reads by default are tested in tests/model/tst_configimport.cpp.
        ImportedModel table = m;
        table.shape.embeddingRead = EmbeddingRead::Table;
        const double activeBytes = m.activeParams * 2;
        const double totalBytes = m.totalParams * 2;
        const Evaluation one = evaluate(onH100(table.shape, 1));
        const Evaluation many = evaluate(onH100(table.shape, 64));
        const Evaluation huge = evaluate(onH100(table.shape, 4096));
        QVERIFY(std::abs(one.decode.weightBytes - activeBytes) < 1e-9 * activeBytes);
        QVERIFY(many.decode.weightBytes > 2 * activeBytes && many.decode.weightBytes < totalBytes);
        QVERIFY(std::abs(huge.decode.weightBytes - totalBytes) < 1e-6 * totalBytes);
        QCOMPARE(one.decode.residentWeightBytes, totalBytes); // every expert stays in memory
    }

    /** Tied embeddings counted twice (a model other than Qwen2.5 3B). */
    void mistakeTiedEmbeddingsTwice()
    {
        // Llama 3.2 1B ties its embeddings.
        const ImportedModel m = import(R"({"model_type":"llama","hidden_size":2048,"num_hidden_layers":16,
            "num_attention_heads":32,"num_key_value_heads":8,"head_dim":64,"intermediate_size":8192,
            "vocab_size":128256,"tie_word_embeddings":true})");
        QCOMPARE(m.totalParams, 1235814400.0);
    }

    /** Sliding-window layers sized as global (a model other than Gemma 2). */
    void mistakeSlidingAsGlobal()
    {
        // Mistral 7B v0.1 slides every layer over 4,096 tokens.
        const ImportedModel m = import(R"({"model_type":"mistral","hidden_size":4096,"num_hidden_layers":32,
            "num_attention_heads":32,"num_key_value_heads":8,"intermediate_size":14336,"vocab_size":32000,
            "tie_word_embeddings":false,"sliding_window":4096})");
        const Evaluation e = evaluate(onH100(m.shape, 1, 32768));
        QCOMPARE(e.decode.kvBytesPerSequence, 2.0 * 32 * 8 * 128 * 2 * 4096);
        QVERIFY(!e.prefill.crossoverExists || e.prefill.crossoverTokens > 0);
    }

    /** KV split across more GPUs than there are KV heads (a model other than Qwen2.5 3B). */
    void mistakeKvSplitPastHeads()
    {
        const ImportedModel m = import(fixture(QStringLiteral("llama-3.1-70b.json")));
        Scenario s = onH100(m.shape);
        s.hardware.gpus = 16; // 8 KV heads: each GPU still holds one whole head
        QCOMPARE(evaluate(s).decode.kvBytesPerTokenPerGpu, 2.0 * 80 * 1 * 128 * 2);
        s.hardware.gpus = 4; // 2 heads each
        QCOMPARE(evaluate(s).decode.kvBytesPerTokenPerGpu, 2.0 * 80 * 2 * 128 * 2);
    }

    void badConfigs_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("phrase");
        QTest::newRow("not json") << QByteArray("{") << "not valid JSON";
        QTest::newRow("array") << QByteArray("[]") << "JSON object";
        QTest::newRow("missing hidden") << QByteArray(R"({"num_hidden_layers":2,"num_attention_heads":2,"vocab_size":10})") << "hidden_size";
        QTest::newRow("negative layers") << QByteArray(R"({"hidden_size":64,"num_hidden_layers":-2,"num_attention_heads":2,"vocab_size":10})") << "num_hidden_layers";
        QTest::newRow("text heads") << QByteArray(R"({"hidden_size":64,"num_hidden_layers":2,"num_attention_heads":"two","vocab_size":10})") << "num_attention_heads";
        QTest::newRow("heads vs kv") << QByteArray(R"({"hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":3,"intermediate_size":8,"vocab_size":10})") << "num_key_value_heads";
        // Found by fuzz_hfconfig (division by zero): zero KV heads.
        QTest::newRow("zero kv heads (fuzz regression)") << QByteArray(R"({"hidden_size":3584,"num_hidden_layers":42,"num_attention_heads":16,"num_key_value_heads":0,"intermediate_size":8,"vocab_size":10})") << "num_key_value_heads";
        // Found by fuzz_hfconfig (a slow unit): 61 million layers took seconds and hundreds of MB.
        QTest::newRow("absurd layer count (fuzz regression)") << QByteArray(R"({"hidden_size":64,"num_hidden_layers":61000000,"num_attention_heads":4,"intermediate_size":8,"vocab_size":10})") << "num_hidden_layers";
        QTest::newRow("kv heads above heads") << QByteArray(R"({"hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":8,"intermediate_size":8,"vocab_size":10})") << "num_key_value_heads";
        QTest::newRow("experts per token") << QByteArray(R"({"model_type":"mixtral","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"num_local_experts":4,"num_experts_per_tok":9,"intermediate_size":8,"vocab_size":10})") << "num_experts_per_tok";
        // Found by a tester: two head widths near INT_MAX overflowed an int sum (undefined behaviour) into a negative head_dim.
        QTest::newRow("MLA widths overflowing an int") << QByteArray(R"({"model_type":"deepseek_v3","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"kv_lora_rank":512,"qk_nope_head_dim":2000000000,"qk_rope_head_dim":2000000000,"v_head_dim":128,"intermediate_size":8,"vocab_size":10})") << "qk_nope_head_dim + qk_rope_head_dim = 4e9: at most 1,000,000";
        QTest::newRow("missing intermediate") << QByteArray(R"({"hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"vocab_size":10})") << "intermediate_size";
    }
    void badConfigs()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, phrase);
        ImportedModel m;
        m.shape.name = "untouched";
        const QString err = QString::fromStdString(importHfConfig(json, m));
        QVERIFY2(err.contains(phrase), qPrintable(err));
        QCOMPARE(m.shape.name, std::string("untouched"));
    }

    /** Found by a tester: a whole number out of range was called "not a whole number", and 0 heads named four fields. */
    void refusalsNameOneFieldAndItsValue_data()
    {
        QTest::addColumn<QByteArray>("change");
        QTest::addColumn<QString>("expected");
        QTest::newRow("hidden 1e12") << QByteArray(R"("hidden_size": 1e12)")
                                     << "config field hidden_size = 1e12: out of range (at most 10,000,000)";
        QTest::newRow("intermediate 1e15") << QByteArray(R"("intermediate_size": 1e15)")
                                           << "config field intermediate_size = 1e15: out of range (at most 100,000,000)";
        QTest::newRow("vocab 1e18") << QByteArray(R"("vocab_size": 1e18)")
                                    << "config field vocab_size = 1e18: out of range (at most 1,000,000,000)";
        QTest::newRow("layers 61e6") << QByteArray(R"("num_hidden_layers": 61000000)")
                                     << "config field num_hidden_layers = 61000000: out of range (at most 100,000)";
        QTest::newRow("head_dim 3e9") << QByteArray(R"("head_dim": 3e9)")
                                      << "config field head_dim = 3e9: out of range (at most 2,000,000,000)";
        QTest::newRow("no heads") << QByteArray(R"("num_attention_heads": 0)") << "config field num_attention_heads = 0: expected at least 1";
        QTest::newRow("no vocabulary") << QByteArray(R"("vocab_size": 0)") << "config field vocab_size = 0: expected at least 1";
        QTest::newRow("half a layer") << QByteArray(R"("num_hidden_layers": 2.5)") << "config field num_hidden_layers = 2.5: expected a whole number";
        QTest::newRow("negative width") << QByteArray(R"("intermediate_size": -8)") << "config field intermediate_size = -8: expected at least 0";
        QTest::newRow("no kv heads") << QByteArray(R"("num_key_value_heads": 0)") << "config field num_key_value_heads = 0: expected at least 1";
        QTest::newRow("model type with an escape")
            << QByteArray("\"model_type\": \"llama\\u001b[31m\"")
            << "config field model_type = \"llama\\x1B[31m\": must not contain control characters (byte 6 is \\x1B)";
        QTest::newRow("model type a number") << QByteArray(R"("model_type": 3)") << "config field model_type = 3: expected a string";
    }
    void refusalsNameOneFieldAndItsValue()
    {
        QFETCH(QByteArray, change);
        QFETCH(QString, expected);
        const QByteArray good = R"({"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 8,
            "vocab_size": 10)";
        ImportedModel m;
        QCOMPARE(QString::fromStdString(importHfConfig(good + "}", m)), QString());
        QJsonObject o = QJsonDocument::fromJson(good + "}").object();
        const QJsonObject c = QJsonDocument::fromJson("{" + change + "}").object();
        QVERIFY(!c.isEmpty());
        for (auto it = c.begin(); it != c.end(); ++it)
            o.insert(it.key(), it.value());
        QCOMPARE(QString::fromStdString(importHfConfig(QJsonDocument(o).toJson(), m)), expected);
    }

    void inferredFieldsAreSaid()
    {
        const ImportedModel m = import(R"({"model_type":"somethingnew","hidden_size":1024,"num_hidden_layers":4,
            "num_attention_heads":8,"intermediate_size":4096,"vocab_size":1000})");
        QVERIFY(m.notes.size() >= 3);
        QString all;
        for (const auto& n : m.notes)
            all += QString::fromStdString(n) + QLatin1Char('\n');
        QVERIFY(all.contains(QStringLiteral("somethingnew")));
        QVERIFY(all.contains(QStringLiteral("num_key_value_heads")));
        QVERIFY(all.contains(QStringLiteral("head_dim")));
    }
};

QTEST_APPLESS_MAIN(TestHfConfig)
#include "tst_hfconfig.moc"
