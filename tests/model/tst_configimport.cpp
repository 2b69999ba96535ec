// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 15: every config.json under tests/data/configs either imports (a valid scenario, its counts
// checked against the publisher's where one is published) or is refused with a sentence naming why.
// Sources of the files: tests/data/configs/README.md.

#include <cmath>

#include <QDir>
#include <QFile>
#include <QtTest>

#include "model/cost/costmodel.h"
#include "model/cost/presets.h"
#include "model/files/hfconfig.h"
#include "model/cost/scenariokeys.h"

using namespace ridgeline::model;

namespace {

QString dataDir() { return QStringLiteral(RIDGELINE_TEST_DATA "/configs"); }

QByteArray fixture(const QString& name)
{
    QFile f(dataDir() + QLatin1Char('/') + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return f.readAll();
}

/** Files the import refuses, with a phrase of the reason it must give. */
const QMap<QString, QString>& refusals()
{
    static const QMap<QString, QString> r = {
        {QStringLiteral("nemotron-3-super-120b-a12b.json"), QStringLiteral("moe_latent_size")},
    };
    return r;
}

Scenario onH100(const ModelShape& shape, int batch = 1, int context = 0)
{
    Scenario s = defaultScenario();
    s.model = shape;
    s.workload.batch = batch;
    s.workload.contextTokens = context;
    return s;
}

ImportedModel imported(const QString& file)
{
    ImportedModel m;
    const std::string err = importHfConfig(fixture(file), m);
    if (!err.empty())
        qFatal("%s: %s", qPrintable(file), err.c_str());
    return m;
}

QString allNotes(const ImportedModel& m)
{
    QString all;
    for (const std::string& n : m.notes)
        all += QString::fromStdString(n) + QLatin1Char('\n');
    return all;
}

} // namespace

class TestConfigImport final : public QObject {
    Q_OBJECT

private slots:
    /** Every file: imported into a valid scenario, or refused with its reason. */
    void everyFile_data()
    {
        QTest::addColumn<QString>("file");
        const QStringList files = QDir(dataDir()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 25);
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << f;
    }
    void everyFile()
    {
        QFETCH(QString, file);
        ImportedModel m;
        const QString err = QString::fromStdString(importHfConfig(fixture(file), m));
        if (refusals().contains(file)) {
            QVERIFY2(err.contains(refusals().value(file)), qPrintable(file + QStringLiteral(": ") + err));
            return;
        }
        QVERIFY2(err.isEmpty(), qPrintable(err));
        const Scenario s = onH100(m.shape);
        const std::vector<ScenarioError> problems = validate(s);
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().message.c_str());
        const Evaluation e = evaluate(s);
        QVERIFY(std::isfinite(e.decode.stepSeconds) && e.decode.stepSeconds > 0);
        QVERIFY(m.activeParams <= m.totalParams);
        QVERIFY(!m.notes.empty());
        QString notes;
        for (const std::string& n : m.notes)
            notes += QStringLiteral("\n    ") + QString::fromStdString(n);
        qInfo("%s: %s params %.0f active %.0f, weights %.2f GB (%s, %.0f at 16 bit), KV %.0f B/token, state %.0f B/seq%s",
              qPrintable(file), m.modelType.c_str(), m.totalParams, m.activeParams, weightBytes(m.shape) / 1e9,
              std::string(dtypeName(m.shape.weightDtype)).c_str(), m.shape.unquantizedParams, kvBytesPerToken(m.shape),
              m.shape.stateBytesPerSequence, qPrintable(notes));
    }
    /** Published parameter counts: to the parameter where the publisher states the exact total (safetensors
     *  metadata), else within 0.5 % of the rounded figure (tolerance column > 0). */
    void publishedCounts_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("total");
        QTest::addColumn<double>("tolerance");
        // Exact: the totals of the checkpoints' safetensors metadata.
        QTest::newRow("Llama 3.2 3B (tied)") << "llama-3.2-3b.json" << 3212749824.0 << 0.0;
        QTest::newRow("Qwen2.5 7B") << "qwen2.5-7b.json" << 7615616512.0 << 0.0;
        QTest::newRow("Qwen2.5 14B") << "qwen2.5-14b.json" << 14770033664.0 << 0.0;
        QTest::newRow("Qwen2.5 32B") << "qwen2.5-32b.json" << 32763876352.0 << 0.0;
        QTest::newRow("Qwen3 8B") << "qwen3-8b.json" << 8190735360.0 << 0.0;
        QTest::newRow("Qwen3 14B") << "qwen3-14b.json" << 14768307200.0 << 0.0;
        QTest::newRow("Qwen3 32B") << "qwen3-32b.json" << 32762123264.0 << 0.0;
        QTest::newRow("Qwen3 32B FP8 (same count)") << "qwen3-32b-fp8.json" << 32762123264.0 << 0.0;
        QTest::newRow("Qwen3 30B-A3B") << "qwen3-30b-a3b.json" << 30532122624.0 << 0.0;
        QTest::newRow("DeepSeek-V3 FP8 (main model, no MTP)") << "deepseek-v3-fp8.json" << 671026419200.0 << 0.0;
        // Rounded figures, within 0.5 %: gpt-oss model card 116.83B; Meta's Llama 4 Maverick 400B (778B before issue
        // 15); NVIDIA's Nemotron 3 Nano 31.6B; DeepSeek-V2 236B; Qwen3-Next 80B.
        QTest::newRow("gpt-oss-120b 116.83B") << "gpt-oss-120b.json" << 116.83e9 << 0.005;
        QTest::newRow("Llama 4 Maverick 400B") << "llama-4-maverick-17b-128e.json" << 400e9 << 0.005;
        QTest::newRow("Nemotron 3 Nano 31.6B") << "nemotron-3-nano-30b-a3b.json" << 31.6e9 << 0.005;
        QTest::newRow("DeepSeek-V2 236B") << "deepseek-v2.json" << 236e9 << 0.005;
        QTest::newRow("Qwen3-Coder-Next (Qwen3-Next 80B-A3B shape) 80B") << "qwen3-coder-next-nvfp4.json" << 80e9 << 0.005;
    }
    void publishedCounts()
    {
        QFETCH(QString, file);
        QFETCH(double, total);
        QFETCH(double, tolerance);
        const ImportedModel m = imported(file);
        if (tolerance == 0)
            QCOMPARE(m.totalParams, total);
        else
            QVERIFY2(std::abs(m.totalParams - total) <= tolerance * total, qPrintable(QString::number(m.totalParams, 'f', 0)));
    }

    /** Llama 4 Maverick: experts in every second layer (interleave_moe_layer_step 2), a shared expert in each, dense
     *  layers at intermediate_size_mlp; 17B active as Meta states. */
    void llama4MaverickInterleaved()
    {
        const ImportedModel m = imported(QStringLiteral("llama-4-maverick-17b-128e.json"));
        QVERIFY(allNotes(m).contains(QStringLiteral("in 24 of 48 layers")));
        QVERIFY(std::abs(m.activeParams - 17e9) < 0.02 * 17e9);
        QCOMPARE(m.shape.experts, 128);
        QCOMPARE(m.shape.expertsPerToken, 1);
    }

    /** gpt-oss-120b: MXFP4 experts, the rest at 16 bits, 65.25 GB; the checkpoint is 60.8 GiB (gpt-oss model card). */
    void gptOssMxfp4Weights()
    {
        const ImportedModel m = imported(QStringLiteral("gpt-oss-120b.json"));
        QCOMPARE(m.shape.weightDtype, DType::MXFP4);
        // Only the routed experts' matrices are quantized: 36 layers x 128 experts x (2880 x 5760 + 2880 x 2880).
        QCOMPARE(m.quantizedParams, 36.0 * 128 * (2880.0 * 5760 + 2880.0 * 2880));
        QCOMPARE(m.shape.unquantizedParams, m.totalParams - m.quantizedParams);
        const double published = 60.8 * 1073741824.0;
        QVERIFY2(std::abs(weightBytes(m.shape) - published) < 0.005 * published, qPrintable(QString::number(weightBytes(m.shape))));
        QVERIFY(allNotes(m).contains(QStringLiteral("MXFP4")));
    }

    /** DeepSeek-V3's fp8 block-scaled weights: 673 GB, not 1,342 GB; the scales' share is said, not counted. */
    void deepseekFp8Weights()
    {
        const ImportedModel m = imported(QStringLiteral("deepseek-v3-fp8.json"));
        QCOMPARE(m.shape.weightDtype, DType::FP8);
        QVERIFY(weightBytes(m.shape) > 670e9 && weightBytes(m.shape) < 676e9);
        QVERIFY(allNotes(m).contains(QStringLiteral("128 x 128 block")));
        // The 16-bit part: both embedding tables, norms, routers and their correction biases.
        QVERIFY(m.shape.unquantizedParams > 2.0 * 129280 * 7168);
    }

    /** compressed-tensors NVFP4 with a 205-entry ignore list (Qwen3-Coder-Next): the quantized matrices are the
     *  release's 48 x 1539 expert and shared-expert matrices and 12 x 4 attention projections; the Gated DeltaNet,
     *  routers, shared-expert gates and the LM head stay at 16 bits. */
    void compressedTensorsIgnoreList()
    {
        const ImportedModel m = imported(QStringLiteral("qwen3-coder-next-nvfp4.json"));
        QCOMPARE(m.shape.weightDtype, DType::NVFP4);
        const double experts = 48.0 * (512 * 3 + 3) * 2048 * 512;             // routed + shared, 2048 x 512 each
        const double attention = 12.0 * (2048.0 * 8192 + 2 * 2048.0 * 512 + 4096.0 * 2048); // q (with gate), k, v, o
        QCOMPARE(m.quantizedParams, experts + attention);
        QCOMPARE(bytesPerElement(DType::NVFP4), 0.5625);
    }

    /** Hybrid attention: only the full-attention layers hold KV (Qwen3-Next: 12 of 48, not 4x the KV), the linear
     *  layers a fixed state per sequence, read every decode step. */
    void hybridLinearAttention()
    {
        const ImportedModel m = imported(QStringLiteral("qwen3-coder-next-nvfp4.json"));
        QCOMPARE(m.shape.attentionLayersOrAll(), 12);
        QCOMPARE(kvBytesPerToken(m.shape), 12.0 * 2 * 2 * 256 * 2);
        // 36 Gated DeltaNet layers: 32 x 128 x 128 recurrent + (2 x 2048 + 4096) x 3 convolution, bf16.
        QCOMPARE(m.shape.stateBytesPerSequence, 36.0 * (32 * 128 * 128 * 2 + 8192 * 3 * 2));
        const Evaluation one = evaluate(onH100(m.shape, 1, 4096));
        const Evaluation eight = evaluate(onH100(m.shape, 8, 4096));
        QCOMPARE(one.decode.kvBytesPerSequence, 4096 * 12.0 * 2 * 2 * 256 * 2 + m.shape.stateBytesPerSequence);
        QCOMPARE(eight.decode.kvBytes, 8 * one.decode.kvBytesPerSequence);
    }

    /** Nemotron-H: a Mamba-2 hybrid (hybrid_override_pattern), not a Llama: 4 attention layers of 52, Mamba state
     *  per sequence; Nemotron 3 Nano keeps its SSM state in float32 as its config says. */
    void nemotronHybrid()
    {
        const ImportedModel h = imported(QStringLiteral("nemotron-h-8b-base-8k.json"));
        QCOMPARE(h.shape.attentionLayersOrAll(), 4);
        QCOMPARE(kvBytesPerToken(h.shape), 4.0 * 2 * 8 * 128 * 2);
        // 24 Mamba layers: 128 heads x 64 x 128 state + (8192 + 2 x 8 x 128) x 3 convolution, bf16.
        QCOMPARE(h.shape.stateBytesPerSequence, 24.0 * (128 * 64 * 128 * 2 + 10240 * 3 * 2));
        const ImportedModel nano = imported(QStringLiteral("nemotron-3-nano-30b-a3b.json"));
        QCOMPARE(nano.shape.stateBytesPerSequence, 23.0 * (64 * 64 * 128 * 4 + (4096 + 2 * 8 * 128) * 3 * 2));
        QVERIFY(allNotes(nano).contains(QStringLiteral("float32")));
    }

    /** Decode reads B rows of the input embedding table by default; model.embedding_read = table restores N * b_w. */
    void embeddingRowsRead()
    {
        ModelShape q = imported(QStringLiteral("qwen3-30b-a3b.json")).shape;
        const Evaluation rows = evaluate(onH100(q));
        QCOMPARE(rows.decode.weightBytes, (3353032704.0 - 151936.0 * 2048 + 2048) * 2); // 3.04e9 parameters at B = 1
        q.embeddingRead = EmbeddingRead::Table;
        QCOMPARE(evaluate(onH100(q)).decode.weightBytes, 3353032704.0 * 2);             // 3.35e9 under the table switch

        // gpt-oss-120b: the table convention is 11 % high at B = 1 (in parameters, bf16 everywhere).
        ModelShape g = imported(QStringLiteral("gpt-oss-120b.json")).shape;
        g.weightDtype = DType::BF16;
        g.unquantizedParams = 0;
        const double rowsRead = evaluate(onH100(g)).decode.weightBytes;
        g.embeddingRead = EmbeddingRead::Table;
        const double tableRead = evaluate(onH100(g)).decode.weightBytes;
        QVERIFY2(std::abs(tableRead / rowsRead - 1.113) < 0.002, qPrintable(QString::number(tableRead / rowsRead)));

        // Tied embeddings are read once, whole, as the LM head: the switch changes nothing.
        ModelShape tied = imported(QStringLiteral("qwen3-4b.json")).shape;
        QVERIFY(tied.tiedEmbeddings);
        const double tiedRows = evaluate(onH100(tied)).decode.weightBytes;
        tied.embeddingRead = EmbeddingRead::Table;
        QCOMPARE(evaluate(onH100(tied)).decode.weightBytes, tiedRows);
        QCOMPARE(tiedRows, 4022468096.0 * 2);
    }

    /** The switch is a scenario key (add-only): --set model.embedding_read=table, and a bad value names the key. */
    void embeddingReadKey()
    {
        Scenario s = defaultScenario();
        QCOMPARE(getKey(s, "model.embedding_read"), std::string("rows"));
        QVERIFY(setKey(s, "model.embedding_read", "table").empty());
        QCOMPARE(s.model.embeddingRead, EmbeddingRead::Table);
        const std::string err = setKey(s, "model.embedding_read", "some");
        QVERIFY(err.find("model.embedding_read") != std::string::npos);
        QCOMPARE(s.model.embeddingRead, EmbeddingRead::Table);
        QVERIFY(setKey(s, "model.tied_embeddings", "true").empty());
        QVERIFY(s.model.tiedEmbeddings);
        QVERIFY(setKey(s, "model.attention_layers", "8").empty());
        QCOMPARE(s.model.attentionLayersOrAll(), 8);
        QVERIFY(setKey(s, "model.attention_layers", "40").empty());
        QVERIFY(!validate(s).empty()); // more than model.layers (32)
    }

    /** fp4 weights run at hardware.peak_flops_fp4; with none (0) they fall back to the bf16 peak, said in the roofline. */
    // The true / false keys share one reader (scenariokeys.cpp, boolean()): case-insensitive, and anything else is
    // refused with the key and the value named, the scenario unchanged.
    void booleanKeys()
    {
        for (const char* key : {"model.tied_embeddings", "serving.dynamic_batch_tuning"}) {
            Scenario s = defaultScenario();
            QCOMPARE(getKey(s, key), std::string("false"));
            QVERIFY(setKey(s, key, " TRUE ").empty());
            QCOMPARE(getKey(s, key), std::string("true"));
            const std::string err = setKey(s, key, "yes");
            QCOMPARE(err, std::string(key) + " = \"yes\": expected true or false");
            QCOMPARE(getKey(s, key), std::string("true"));
            QVERIFY(setKey(s, key, "False").empty());
            QCOMPARE(getKey(s, key), std::string("false"));
        }
        Scenario s = defaultScenario();
        QVERIFY(setKey(s, "serving.dynamic_batch_tuning", "true").empty());
        QVERIFY(s.serving.dynamicBatchTuning);
        QVERIFY(!s.model.tiedEmbeddings);
    }

    void fp4Peak()
    {
        Scenario s = defaultScenario();
        s.model.weightDtype = DType::NVFP4;
        QCOMPARE(matmulPeak(s.hardware, DType::NVFP4), s.hardware.peakFlopsPerSecond);
        QVERIFY(evaluate(s).roofline.computePeakFallback);
        s.hardware.peakFlopsFp4 = 9e15;
        QCOMPARE(matmulPeak(s.hardware, DType::MXFP4), 9e15);
        QCOMPARE(std::string(matmulPeakKey(s.hardware, DType::NVFP4)), std::string("hardware.peak_flops_fp4"));
        QVERIFY(!evaluate(s).roofline.computePeakFallback);
        QVERIFY(setKey(s, "hardware.peak_flops_fp4", "-1").empty());
        QVERIFY(!validate(s).empty());
    }

    /**
     * Found by a new-user trial: with fp4 weights the prefill attention (Q K^T, scores x V: bf16 activations) was
     * charged at the fp4 peak. Only the weight matmuls run at the weights' peak; attention at the bf16 peak.
     */
    void prefillAttentionAtTheActivationPeak()
    {
        Scenario s = defaultScenario();
        s.model.weightDtype = DType::NVFP4;
        s.hardware.peakFlopsFp4 = 4 * s.hardware.peakFlopsPerSecond;
        s.workload.promptTokens = 32768;
        const Evaluation e = evaluate(s);
        const double mfu = s.efficiency.mfuPrefill;
        const double expected = e.prefill.linearFlop / (s.hardware.peakFlopsFp4 * mfu)
                                + e.prefill.attentionFlop / (s.hardware.peakFlopsPerSecond * mfu);
        QVERIFY(e.prefill.attentionFlop > 0.2 * e.prefill.flop); // the attention share matters at this length
        QVERIFY2(std::abs(e.prefill.computeSeconds / expected - 1) < 1e-12,
                 qPrintable(QStringLiteral("%1 vs %2").arg(e.prefill.computeSeconds).arg(expected)));
        // bf16 weights: one peak for both, as before (the reference values of docs/cost-model.md).
        s.model.weightDtype = DType::BF16;
        const Evaluation b = evaluate(s);
        QCOMPARE(b.prefill.computeSeconds, b.prefill.flop / (s.hardware.peakFlopsPerSecond * mfu));
    }

    /** Found by an adversarial trial: model.attention_layers = 0 without state gave 0 sequences of capacity. */
    void noAttentionAndNoStateIsRefused()
    {
        Scenario s = defaultScenario();
        QVERIFY(setKey(s, "model.attention_layers", "0").empty());
        const std::vector<ScenarioError> errors = validate(s);
        QVERIFY(!errors.empty());
        QVERIFY2(errors.front().message.find("model.attention_layers") != std::string::npos
                     && errors.front().message.find("model.state_bytes_per_sequence > 0") != std::string::npos,
                 errors.front().message.c_str());
        // With state (a pure state-space model) the memory bounds the sequences by their state.
        QVERIFY(setKey(s, "model.state_bytes_per_sequence", "1e8").empty());
        QVERIFY(validate(s).empty());
        const Evaluation e = evaluate(s);
        QCOMPARE(e.capacity.maxSequencesContiguous, static_cast<long long>(std::floor(e.capacity.kvBudgetBytes / 1e8)));
        QVERIFY(e.capacity.maxSequencesContiguous > 0);
        QVERIFY(!e.capacity.maxContextAtBatch); // no KV: the context does not fill memory
    }

    /** Block-scaled KV formats: q8_0 is 34 bytes per 32 elements; q4_0 18 per 32. */
    void blockScaledKv()
    {
        Scenario s = defaultScenario();
        QVERIFY(setKey(s, "model.kv_dtype", "q8_0").empty());
        QCOMPARE(s.model.kvDtype, DType::Q8_0);
        QCOMPARE(kvBytesPerToken(s.model), 2.0 * 32 * 8 * 128 * 34.0 / 32.0);
        QVERIFY(setKey(s, "model.kv_dtype", "q4_0").empty());
        QCOMPARE(kvBytesPerToken(s.model), 2.0 * 32 * 8 * 128 * 18.0 / 32.0);
        QCOMPARE(weightBytesPerParameter(DType::MXFP4), 0.53125);
        QVERIFY(validate(s).empty());
    }

    /** Python's Infinity / NaN tokens are read as absent and said; inside strings they are left alone. */
    void nonFiniteTokens()
    {
        QByteArray json = fixture(QStringLiteral("qwen3-8b.json"));
        json.replace("\"rope_scaling\": null", "\"rope_scaling\": {\"factor\": Infinity, \"note\": \"NaN Infinity\"}, \"x\": -Infinity");
        ImportedModel m;
        QCOMPARE(QString::fromStdString(importHfConfig(json, m)), QString());
        QCOMPARE(m.totalParams, 8190735360.0);
        QVERIFY(allNotes(m).contains(QStringLiteral("2 Python non-finite")));
    }

    /** Kimi K2 is DeepSeek-V3's architecture under another model_type: counted as such, no unknown-type note. */
    void kimiK2AsDeepSeekV3()
    {
        QByteArray json = fixture(QStringLiteral("deepseek-v3.json"));
        json.replace("\"deepseek_v3\"", "\"kimi_k2\"");
        ImportedModel m;
        QCOMPARE(QString::fromStdString(importHfConfig(json, m)), QString());
        QCOMPARE(m.totalParams, 671026419200.0);
        QVERIFY(!allNotes(m).contains(QStringLiteral("not one Ridgeline knows")));
    }

    /** An unknown architecture is imported with a note saying plainly what it was read as. */
    void unknownArchitectureSaysWhatItWasReadAs()
    {
        QByteArray json = fixture(QStringLiteral("qwen3-30b-a3b.json"));
        json.replace("\"qwen3_moe\"", "\"brandnew_moe\"");
        ImportedModel m;
        QCOMPARE(QString::fromStdString(importHfConfig(json, m)), QString());
        const QString notes = allNotes(m);
        QVERIFY2(notes.startsWith(QStringLiteral("model_type \"brandnew_moe\" is not one Ridgeline knows: read as a decoder with attention with 32 query and 4 KV heads")), qPrintable(notes));
        QVERIFY(notes.contains(QStringLiteral("MoE with 128 routed experts")));
    }

    /** Found by an adversarial trial: MoE placement past the last layer dropped every expert (671 B read as 37 B dense). */
    void expertsPlacedInNoLayerAreRefused()
    {
        for (const char* field : {"\"first_k_dense_replace\": 3", "\"moe_layer_freq\": 1"}) {
            QByteArray json = fixture(QStringLiteral("deepseek-v3.json"));
            QVERIFY(json.contains(field));
            if (QByteArray(field).startsWith("\"first"))
                json.replace(field, "\"first_k_dense_replace\": 62");
            else
                json.replace(field, "\"moe_layer_freq\": 1000");
            ImportedModel m;
            const QString err = QString::fromStdString(importHfConfig(json, m));
            QVERIFY2(err.contains(QStringLiteral("places them in none of its 61 layers")), qPrintable(err));
        }
        // The convolution keeps kernel - 1 inputs: a kernel of 0 is refused, not a negative state.
        QByteArray json = fixture(QStringLiteral("nemotron-3-nano-30b-a3b.json"));
        json.replace("\"conv_kernel\": 4", "\"conv_kernel\": 0");
        ImportedModel m;
        const QString err = QString::fromStdString(importHfConfig(json, m));
        QVERIFY2(err.contains(QStringLiteral("conv_kernel = 0: expected at least 1")), qPrintable(err));
    }

    /** Llama-Nemotron NAS (DeciLM block_configs: per-layer widths) is refused, the reason named. */
    void blockConfigsRefused()
    {
        QByteArray json = fixture(QStringLiteral("llama-3.1-8b.json"));
        json.replace("\"model_type\": \"llama\"",
                     "\"model_type\": \"nemotron-nas\", \"block_configs\": [{\"attention\": {\"n_heads_in_group\": 8}, \"ffn\": {\"ffn_mult\": 2.625}}]");
        ImportedModel m;
        const QString err = QString::fromStdString(importHfConfig(json, m));
        QVERIFY2(err.contains(QStringLiteral("block_configs")) && err.contains(QStringLiteral("nemotron-nas")), qPrintable(err));
    }

    /** AWQ / GPTQ int4: the group size is read and the bytes it implies said beside Ridgeline's int4. */
    void awqGroupSize()
    {
        QByteArray json = fixture(QStringLiteral("qwen3-8b.json"));
        json.replace("\"rope_scaling\": null", "\"rope_scaling\": null, \"quantization_config\": {\"quant_method\": \"awq\", "
                                               "\"bits\": 4, \"group_size\": 32, \"zero_point\": true, \"modules_to_not_convert\": [\"model.layers.0.mlp\"]}");
        ImportedModel m;
        QCOMPARE(QString::fromStdString(importHfConfig(json, m)), QString());
        QCOMPARE(m.shape.weightDtype, DType::INT4);
        QVERIFY(allNotes(m).contains(QStringLiteral("group size is 32")));
        // Layer 0's MLP left out: 3 x 4096 x 12288 more parameters at 16 bits than the embeddings, norms and the rest.
        ImportedModel plain;
        json.replace(", \"modules_to_not_convert\": [\"model.layers.0.mlp\"]", "");
        QCOMPARE(QString::fromStdString(importHfConfig(json, plain)), QString());
        QCOMPARE(m.shape.unquantizedParams - plain.shape.unquantizedParams, 3.0 * 4096 * 12288);
    }

    /**
     * Found by an adversarial trial: odd values were read without a word (a wrong number, exit 0). Each is now refused
     * with the config field and its value. Rows: fixture, text replaced, replacement, the message expected (a phrase).
     */
    void adversarialRefusals_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("expected");
        const QByteArray pattern = "\"hybrid_override_pattern\": \"M-M-M-M*-M"; // (no raw strings with odd quotes: moc)
        QTest::newRow("hybrid pattern not a string") << "nemotron-h-8b-base-8k.json" << QByteArray("\"hybrid_override_pattern\": \"")
            << QByteArray("\"hybrid_override_pattern\": 52, \"was\": \"")
            << "config field hybrid_override_pattern = 52: expected a string of one character per layer";
        QTest::newRow("E layers without experts") << "nemotron-h-8b-base-8k.json" << pattern
            << QByteArray("\"hybrid_override_pattern\": \"MEM-M-M*-M")
            << "config field hybrid_override_pattern has 1 E (MoE) layer but the config gives no routed-expert count";
        QTest::newRow("pattern without attention or Mamba") << "nemotron-h-8b-base-8k.json"
            << QByteArray(R"("hybrid_override_pattern": "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-")")
            << QByteArray(R"("hybrid_override_pattern": "----------------------------------------------------")")
            << "no M (Mamba) or * (attention) layer";
        QTest::newRow("KV heads NaN") << "qwen3-8b.json" << QByteArray(R"("num_key_value_heads": 8)")
            << QByteArray(R"("num_key_value_heads": NaN)")
            << "config field num_key_value_heads = NaN: expected a whole number, not Python's not-a-number token";
        QTest::newRow("KV heads Infinity") << "qwen3-8b.json" << QByteArray(R"("num_key_value_heads": 8)")
            << QByteArray(R"("num_key_value_heads": Infinity)")
            << "config field num_key_value_heads = Infinity: expected a whole number, not an infinite value";
        QTest::newRow("sliding window NaN") << "gpt-oss-120b.json" << QByteArray(R"("sliding_window": 128)")
            << QByteArray(R"("sliding_window": NaN)") << "config field sliding_window = NaN: expected a whole number, not Python's not-a-number token";
        const QByteArray awq = R"("rope_scaling": null, "quantization_config": {"quant_method": "awq", )";
        QTest::newRow("AWQ group size 1e12") << "qwen3-8b.json" << QByteArray(R"("rope_scaling": null)")
            << awq + R"("bits": 4, "group_size": 1e12})"
            << "config field quantization_config.group_size = 1e12: expected a whole number from 1 to 1,048,576 (or -1)";
        QTest::newRow("AWQ 3 bits") << "qwen3-8b.json" << QByteArray(R"("rope_scaling": null)") << awq + R"("bits": 3, "group_size": 128})"
            << "config field quantization_config.bits = 3: Ridgeline counts AWQ weights of 4 or 8 bits";
        QTest::newRow("AWQ bits NaN") << "qwen3-8b.json" << QByteArray(R"("rope_scaling": null)") << awq + R"("bits": NaN})"
            << "config field quantization_config.bits = NaN: expected a whole number";
        QTest::newRow("quantization config a string") << "qwen3-8b.json" << QByteArray(R"("rope_scaling": null)")
            << QByteArray(R"("rope_scaling": null, "quantization_config": "fp8")")
            << "config field quantization_config = \"fp8\": expected an object";
        QTest::newRow("fp8 block of one side") << "deepseek-v3-fp8.json" << QByteArray(R"("weight_block_size": [)")
            << QByteArray(R"("weight_block_size": [128], "was": [)")
            << "config field quantization_config.weight_block_size = [128]: expected two whole numbers";
        QTest::newRow("unknown layer type") << "gpt-oss-120b.json" << QByteArray(R"("layer_types": [)")
            << QByteArray(R"("layer_types": ["banana_attention", )")
            << "config field layer_types[0] = \"banana_attention\": not a layer kind Ridgeline counts";
        QTest::newRow("no-RoPE interval 0") << "llama-4-scout-17b-16e.json" << QByteArray(R"("attention_chunk_size": 8192)")
            << QByteArray(R"("attention_chunk_size": 8192, "no_rope_layer_interval": 0)")
            << "config field no_rope_layer_interval = 0: expected at least 1";
        QTest::newRow("sliding pattern 0") << "gemma-3-4b-it.json" << QByteArray(R"("sliding_window": 1024)")
            << QByteArray(R"("sliding_window": 1024, "sliding_window_pattern": 0)")
            << "config field sliding_window_pattern = 0: expected at least 1";
        QTest::newRow("MoE step 0") << "llama-4-maverick-17b-128e.json" << QByteArray(R"("interleave_moe_layer_step": 2)")
            << QByteArray(R"("interleave_moe_layer_step": 0)") << "config field interleave_moe_layer_step = 0: expected at least 1";
        QTest::newRow("trained context Infinity") << "qwen3-8b.json" << QByteArray(R"("max_position_embeddings": 40960)")
            << QByteArray(R"("max_position_embeddings": Infinity)") << "config field max_position_embeddings = Infinity: expected a whole number, not an infinite value";
    }
    void adversarialRefusals()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, expected);
        QByteArray json = fixture(file);
        QVERIFY2(json.contains(from), from.constData());
        json.replace(json.indexOf(from), from.size(), to);
        ImportedModel m;
        m.shape.name = "untouched";
        const QString err = QString::fromStdString(importHfConfig(json, m));
        QVERIFY2(err.contains(expected), qPrintable(err));
        // Messages read naturally: never "NaN ... not a number" (item 7 of the trial), never "missing" for a value given.
        QVERIFY2(!err.contains(QStringLiteral("NaN: not a number")) && !err.contains(QStringLiteral("is missing")), qPrintable(err));
        QCOMPARE(m.shape.name, std::string("untouched"));
    }

    /** Found by the adversarial trial: accepted with a wrong number; now accepted with the assumption said. */
    void adversarialNotes()
    {
        // A window longer than any context (1e30, Infinity) is full attention, said; it was reported as "missing".
        for (const QByteArray& window : {QByteArray("1e30"), QByteArray("Infinity")}) {
            QByteArray json = fixture(QStringLiteral("gpt-oss-120b.json"));
            json.replace(R"("sliding_window": 128)", R"("sliding_window": )" + window);
            ImportedModel m;
            QCOMPARE(QString::fromStdString(importHfConfig(json, m)), QString());
            QCOMPARE(m.shape.slidingLayers, 0);
            QCOMPARE(m.shape.globalLayers(), 36);
            QVERIFY2(allNotes(m).contains(QStringLiteral("sliding_window = ") + QString::fromLatin1(window)
                                          + QStringLiteral(": longer than any context")), qPrintable(allNotes(m)));
        }
        // MXFP4 quantizes routed experts only: on a dense model nothing is at 4 bits, so neither are the matmuls.
        QByteArray dense = fixture(QStringLiteral("qwen3-8b.json"));
        dense.replace(R"("rope_scaling": null)", R"("rope_scaling": null, "quantization_config": {"quant_method": "mxfp4"})");
        ImportedModel d;
        QCOMPARE(QString::fromStdString(importHfConfig(dense, d)), QString());
        QCOMPARE(d.shape.weightDtype, DType::BF16);
        QCOMPARE(d.shape.unquantizedParams, 0.0);
        QVERIFY2(allNotes(d).contains(QStringLiteral("quantizes only routed experts, and this model has none")), qPrintable(allNotes(d)));
        // The trained context is kept (model.max_position_embeddings) and said.
        const ImportedModel q = imported(QStringLiteral("qwen3-8b.json"));
        QCOMPARE(q.shape.maxPositionEmbeddings, 40960);
        QVERIFY(allNotes(q).contains(QStringLiteral("max_position_embeddings = 40960")));
        // The active-parameter convention is said beside the count; ordinals read as English ("every 2nd", not "2th").
        const QString maverick = allNotes(imported(QStringLiteral("llama-4-maverick-17b-128e.json")));
        QVERIFY2(maverick.contains(QStringLiteral("every 2nd layer")) && !maverick.contains(QStringLiteral("2th")), qPrintable(maverick));
        QVERIFY2(maverick.contains(QStringLiteral("counted as active: attention, dense MLPs, shared experts, routers and norms")),
                 qPrintable(maverick));
    }
    /**
     * The Qwen3-30B-A3B preset (resources/presets/models.json, issue 14) is the shape its config.json imports to, and its
     * counts are the published totals: 30.5B parameters, 3.3B activated (Qwen's model card; rounded, so within 0.5 % of
     * the total and 2 % of the active figure, both rounded to 3 and 2 significant figures).
     */
    void qwen3MoePresetMatchesItsConfig()
    {
        const ModelPreset* preset = nullptr;
        for (const ModelPreset& p : modelPresets())
            if (p.id == "qwen3-30b-a3b")
                preset = &p;
        QVERIFY2(preset, "the qwen3-30b-a3b preset is in resources/presets/models.json");
        QVERIFY(QString::fromStdString(preset->source).contains(QStringLiteral("Qwen/Qwen3-30B-A3B config.json")));
        const ModelShape& m = preset->shape;
        QVERIFY(m.isMoe());
        QVERIFY2(std::abs(m.params - 30.5e9) <= 0.005 * 30.5e9, qPrintable(QString::number(m.params, 'g', 12)));
        QVERIFY2(std::abs(m.activeParamsOrTotal() - 3.3e9) <= 0.02 * 3.3e9, qPrintable(QString::number(m.activeParamsOrTotal(), 'g', 12)));
        // The same shape as the config's import: the counts, and what the cost model reads at several batches.
        const ImportedModel config = imported(QStringLiteral("qwen3-30b-a3b.json"));
        QCOMPARE(m.params, config.totalParams);
        QCOMPARE(m.activeParamsOrTotal(), config.activeParams);
        QCOMPARE(m.layers, config.shape.layers);
        QCOMPARE(m.hidden, config.shape.hidden);
        QCOMPARE(m.heads, config.shape.heads);
        QCOMPARE(m.kvHeads, config.shape.kvHeads);
        QCOMPARE(m.headDimOrDefault(), config.shape.headDimOrDefault());
        QCOMPARE(m.vocab, config.shape.vocab);
        QCOMPARE(m.experts, config.shape.experts);
        QCOMPARE(m.expertsPerToken, config.shape.expertsPerToken);
        QCOMPARE(m.expertParams, config.shape.expertParams);
        QCOMPARE(m.tiedEmbeddings, config.shape.tiedEmbeddings);
        QCOMPARE(m.maxPositionEmbeddings, config.shape.maxPositionEmbeddings);
        for (int batch : {1, 16, 256}) {
            const Evaluation a = evaluate(onH100(m, batch, 4096));
            const Evaluation b = evaluate(onH100(config.shape, batch, 4096));
            QCOMPARE(a.decode.weightBytes, b.decode.weightBytes);
            QCOMPARE(a.decode.kvBytesPerTokenPerGpu, b.decode.kvBytesPerTokenPerGpu);
            QCOMPARE(a.decode.stepSeconds, b.decode.stepSeconds);
        }
    }
};

QTEST_APPLESS_MAIN(TestConfigImport)
#include "tst_configimport.moc"
