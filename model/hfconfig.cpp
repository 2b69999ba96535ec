// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/hfconfig.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QString>

#include "model/jsoninput.h"
#include "model/messagetext.h"
#include "model/scenariokeys.h"

namespace ridgeline::model {

namespace {

/** Field access that remembers the first problem, naming the field and the value. */
class Fields {
public:
    explicit Fields(const QJsonObject& o) : m_o(o) {}

    bool has(const char* key) const { return m_o.contains(QLatin1String(key)) && !m_o.value(QLatin1String(key)).isNull(); }

    /** A required whole number >= 1 (and at most maximum(key)). */
    int count(const char* key)
    {
        if (!has(key)) {
            fail(std::string("config field ") + key + " is missing");
            return 0;
        }
        return countOr(key, 0, 1);
    }

    /** An optional whole number >= @p min (and at most maximum(key)), @p fallback when absent or null. */
    int countOr(const char* key, int fallback, int min = 0)
    {
        if (!has(key))
            return fallback;
        const QJsonValue v = m_o.value(QLatin1String(key));
        const double d = v.toDouble(-1);
        const std::string head = std::string("config field ") + key + " = " + text(v) + ": ";
        if (!v.isDouble() || d != std::floor(d)) {
            fail(head + "expected a whole number");
            return fallback;
        }
        if (d < min) {
            fail(head + "expected at least " + std::to_string(min));
            return fallback;
        }
        if (d > maximum(key)) {
            fail(head + "out of range (at most " + grouped(maximum(key)) + ")");
            return fallback;
        }
        return int(d);
    }

    /**
     * The largest value a count may take: far above any published model, low enough that the counts
     * and the cost model stay in range (10 million hidden, 100,000 layers, a billion-token vocabulary).
     */
    static long long maximum(const char* key)
    {
        const std::string k = key;
        if (k == "hidden_size")
            return 10000000;
        if (k == "num_hidden_layers")
            return 100000;
        if (k == "num_attention_heads" || k == "num_key_value_heads")
            return 1000000;
        if (k == "vocab_size")
            return 1000000000;
        if (k == "intermediate_size" || k == "moe_intermediate_size" || k == "shared_expert_intermediate_size")
            return 100000000;
        return 2000000000; // what an int holds
    }

    static std::string grouped(long long v)
    {
        const std::string digits = std::to_string(v);
        std::string out;
        for (size_t i = 0; i < digits.size(); ++i) {
            if (i > 0 && (digits.size() - i) % 3 == 0)
                out += ',';
            out += digits[i];
        }
        return out;
    }

    bool flag(const char* key, bool fallback)
    {
        if (!has(key))
            return fallback;
        const QJsonValue v = m_o.value(QLatin1String(key));
        if (!v.isBool()) {
            fail(std::string("config field ") + key + " = " + text(v) + ": expected true or false");
            return fallback;
        }
        return v.toBool();
    }

    std::string string(const char* key) const { return m_o.value(QLatin1String(key)).toString().toStdString(); }
    QJsonValue value(const char* key) const { return m_o.value(QLatin1String(key)); }

    void fail(const std::string& message)
    {
        if (m_error.empty())
            m_error = message;
    }
    const std::string& error() const { return m_error; }

    /** @p v as written in JSON, for a one-line message (model::jsonValueText). */
    static std::string text(const QJsonValue& v) { return jsonValueText(v); }

    /** Outside text for a one-line message or note: control characters escaped, cut after 60 characters. */
    static std::string printable(const std::string& s) { return printableText(s, 60); }

    /** A name the import keeps (model_type): a string of at most kMaxTextBytes without control characters. */
    std::string name(const char* key)
    {
        const QJsonValue v = m_o.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return {};
        if (!v.isString()) {
            fail(std::string("config field ") + key + " = " + text(v) + ": expected a string");
            return {};
        }
        const std::string s = v.toString().toStdString();
        for (size_t i = 0; i < s.size(); ++i)
            if (static_cast<unsigned char>(s[i]) < 0x20 || s[i] == 0x7f) {
                fail(std::string("config field ") + key + " = " + text(v) + ": must not contain control characters (byte "
                     + std::to_string(i + 1) + " is " + printable(s.substr(i, 1)) + ")");
                return {};
            }
        if (s.size() > kMaxTextBytes) {
            fail(std::string("config field ") + key + ": " + std::to_string(s.size()) + " bytes; at most " + std::to_string(kMaxTextBytes));
            return {};
        }
        return s;
    }

private:
    QJsonObject m_o;
    std::string m_error;
};

std::string number(double v)
{
    return QByteArray::number(v, 'f', 0).toStdString();
}

} // namespace

std::string importHfConfig(const QByteArray& json, ImportedModel& out)
{
    QJsonDocument doc;
    if (std::string e = parseJsonInput(json, doc); !e.empty())
        return e;
    if (!doc.isObject())
        return "expected a JSON object (a HuggingFace config.json)";

    ImportedModel m;
    QJsonObject root = doc.object();
    // Multimodal wrappers (Gemma 3, Llama 4, ...) keep the language model under "text_config".
    if (!root.contains(QStringLiteral("hidden_size")) && root.value(QStringLiteral("text_config")).isObject()) {
        Fields outer(root);
        const std::string outerType = outer.name("model_type");
        if (!outer.error().empty())
            return outer.error();
        root = root.value(QStringLiteral("text_config")).toObject();
        m.notes.push_back("Read the language model from \"text_config\" (the vision tower of " + outerType + " is not counted).");
        if (!root.contains(QStringLiteral("model_type")))
            root.insert(QStringLiteral("model_type"), QString::fromStdString(outerType));
    }
    Fields f(root);
    const std::string type = f.name("model_type");
    if (!f.error().empty())
        return f.error();
    m.modelType = type;
    auto is = [&](std::initializer_list<const char*> names) {
        for (const char* n : names)
            if (type == n)
                return true;
        return false;
    };
    static const std::set<std::string> known = {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe",
                                                "gemma2", "gemma3", "gemma3_text", "phi3", "deepseek_v2", "deepseek_v3", "gpt_oss"};
    if (type.empty())
        m.notes.push_back("No \"model_type\": counted as a Llama-style decoder (gated MLP, two norms per layer, no biases).");
    else if (!known.count(type))
        m.notes.push_back("model_type \"" + type + "\" is not one Ridgeline knows: counted as a Llama-style decoder "
                          "(gated MLP, two norms per layer, no biases); check the totals against the publisher's.");

    const int d = f.count("hidden_size");
    const int L = f.count("num_hidden_layers");
    const int H = f.count("num_attention_heads");
    const int V = f.count("vocab_size");
    if (!f.error().empty())
        return f.error(); // each of them named with its value: missing, not a whole number, 0, or out of range
    int Hkv = f.countOr("num_key_value_heads", -1, 1);
    if (!f.error().empty())
        return f.error();
    if (Hkv > H)
        return "config field num_key_value_heads = " + std::to_string(Hkv) + ": more than num_attention_heads ("
               + std::to_string(H) + ")";
    if (Hkv < 0) {
        Hkv = H;
        m.notes.push_back("No \"num_key_value_heads\": assumed " + std::to_string(H) + " (multi-head attention, H_kv = H).");
    }
    const bool mla = f.countOr("kv_lora_rank", 0) > 0;
    int headDim = f.countOr("head_dim", 0);
    if (headDim == 0 && !mla) {
        if (d % H != 0)
            return "config field head_dim is missing and hidden_size " + std::to_string(d)
                   + " is not a multiple of num_attention_heads " + std::to_string(H);
        headDim = d / H;
        m.notes.push_back("No \"head_dim\": assumed hidden_size / num_attention_heads = " + std::to_string(headDim) + ".");
    }
    const int intermediate = f.countOr("intermediate_size", 0);
    const bool gemma = is({"gemma2", "gemma3", "gemma3_text"});
    bool tied = false;
    if (f.has("tie_word_embeddings"))
        tied = f.flag("tie_word_embeddings", false);
    else {
        tied = gemma; // the families' own defaults: Gemma ties, the others do not
        m.notes.push_back(std::string("No \"tie_word_embeddings\": assumed ") + (tied ? "tied" : "untied")
                          + " embeddings, the default of " + (type.empty() ? "Llama-style models" : type) + ".");
    }
    if (!f.error().empty())
        return f.error();

    const double dd = d;
    // --- Attention per layer.
    double attention = 0;
    int kvLoraRank = 0, ropeDim = 0;
    if (mla) {
        kvLoraRank = f.countOr("kv_lora_rank", 0);
        ropeDim = f.countOr("qk_rope_head_dim", 0);
        const int nope = f.countOr("qk_nope_head_dim", 0);
        const int vHead = f.countOr("v_head_dim", 0);
        const int qLora = f.countOr("q_lora_rank", 0);
        if (nope == 0 || vHead == 0)
            return "MLA config (kv_lora_rank " + std::to_string(kvLoraRank) + ") needs qk_nope_head_dim and v_head_dim greater than 0";
        // Sums in double: two int fields near INT_MAX must not overflow (they are refused here instead).
        const double qHead = double(nope) + ropeDim;
        for (const auto& [what, width] : {std::pair {"qk_nope_head_dim + qk_rope_head_dim", qHead},
                                          std::pair {"kv_lora_rank + qk_rope_head_dim", double(kvLoraRank) + ropeDim},
                                          std::pair {"qk_nope_head_dim + v_head_dim", double(nope) + vHead}}) {
            if (width > 1e6)
                return std::string("MLA config: ") + what + " = " + formatNumber(width) + ": at most 1,000,000";
        }
        if (qLora > 0)
            attention += dd * qLora + qLora + double(qLora) * H * qHead; // q_a_proj, q_a_layernorm, q_b_proj
        else
            attention += dd * H * qHead; // q_proj
        attention += dd * (kvLoraRank + ropeDim) + kvLoraRank;    // kv_a_proj_with_mqa, kv_a_layernorm
        attention += double(kvLoraRank) * H * (nope + vHead);      // kv_b_proj
        attention += double(H) * vHead * dd;                       // o_proj
        headDim = int(qHead); // d_attn = H x (query/key width): the score-matrix convention
        m.notes.push_back("MLA: the cache holds the latent, L x (kv_lora_rank + qk_rope_head_dim) = " + std::to_string(L) + " x "
                          + std::to_string(kvLoraRank + ropeDim) + " per token, replicated on every tensor-parallel GPU.");
    } else {
        const double q = double(H) * headDim, kv = double(Hkv) * headDim;
        attention = dd * q + 2.0 * dd * kv + q * dd;
        bool qkvBias = f.flag("attention_bias", false), oBias = qkvBias;
        if (is({"qwen2", "qwen2_moe"})) {
            qkvBias = true; // Qwen2 projects q, k, v with bias and o without
            oBias = false;
        }
        if (qkvBias)
            attention += q + 2.0 * kv;
        if (oBias)
            attention += dd;
        if (is({"qwen3", "qwen3_moe", "gemma3", "gemma3_text"}))
            attention += 2.0 * headDim; // q_norm, k_norm
        if (is({"gpt_oss"}))
            attention += H; // attention sinks
    }
    const double norms = (gemma ? 4.0 : 2.0) * dd;

    // --- MLP or experts per layer.
    const bool mlpBias = f.flag("mlp_bias", false);
    auto gatedMlp = [&](double width) { return 3.0 * dd * width + (mlpBias ? 2.0 * width + dd : 0.0); };
    int experts = 0, perToken = 0, shared = 0, firstDense = 0, moeFreq = 1;
    double expertWidth = 0, sharedWidth = 0;
    std::vector<bool> moeLayer(size_t(L), false);
    if (is({"mixtral", "gpt_oss"}) || f.has("num_local_experts")) {
        experts = f.countOr("num_local_experts", 0);
        perToken = f.countOr("num_experts_per_tok", f.countOr("experts_per_token", 0));
        expertWidth = intermediate;
        std::fill(moeLayer.begin(), moeLayer.end(), experts > 0);
    } else if (is({"deepseek_v2", "deepseek_v3"}) || f.has("n_routed_experts")) {
        experts = f.countOr("n_routed_experts", 0);
        perToken = f.countOr("num_experts_per_tok", 0);
        shared = f.countOr("n_shared_experts", 0);
        firstDense = f.countOr("first_k_dense_replace", 0);
        moeFreq = std::max(1, f.countOr("moe_layer_freq", 1));
        expertWidth = f.countOr("moe_intermediate_size", 0);
        sharedWidth = expertWidth * shared;
        for (int i = 0; i < L; ++i)
            moeLayer[size_t(i)] = experts > 0 && i >= firstDense && i % moeFreq == 0;
    } else if (is({"qwen2_moe", "qwen3_moe"}) || f.has("num_experts")) {
        experts = f.countOr("num_experts", 0);
        perToken = f.countOr("num_experts_per_tok", 0);
        expertWidth = f.countOr("moe_intermediate_size", 0);
        sharedWidth = f.countOr("shared_expert_intermediate_size", 0);
        const int step = std::max(1, f.countOr("decoder_sparse_step", 1));
        std::set<int> mlpOnly;
        for (const QJsonValue v : f.value("mlp_only_layers").toArray())
            mlpOnly.insert(v.toInt());
        for (int i = 0; i < L; ++i)
            moeLayer[size_t(i)] = experts > 0 && !mlpOnly.count(i) && (i + 1) % step == 0;
    }
    if (!f.error().empty())
        return f.error();
    if (experts > 0 && (perToken <= 0 || perToken > experts))
        return "config field num_experts_per_tok = " + std::to_string(perToken) + ": expected 1 to " + std::to_string(experts)
               + " (the number of experts)";
    if (experts > 0 && expertWidth <= 0)
        return "config has " + std::to_string(experts) + " experts but no expert width (moe_intermediate_size or intermediate_size)";
    if (intermediate <= 0 && std::count(moeLayer.begin(), moeLayer.end(), false) > 0)
        return "config field intermediate_size is missing";

    double oneExpert = 3.0 * dd * expertWidth; // gate, up, down
    double router = double(experts) * dd;
    if (is({"gpt_oss"})) {
        oneExpert += 2.0 * expertWidth + dd; // gate_up and down biases
        router += experts;                   // router bias
    }
    if (is({"deepseek_v3"}) && f.string("topk_method") == "noaux_tc")
        router += experts; // e_score_correction_bias
    double sharedExpert = sharedWidth > 0 ? 3.0 * dd * sharedWidth : 0.0;
    if (is({"qwen2_moe"}) && sharedWidth > 0)
        sharedExpert += dd; // shared_expert_gate

    double total = 0, active = 0, expertParamsAllLayers = 0;
    int moeLayers = 0;
    for (int i = 0; i < L; ++i) {
        const double common = attention + norms;
        if (moeLayer[size_t(i)]) {
            ++moeLayers;
            total += common + router + sharedExpert + experts * oneExpert;
            active += common + router + sharedExpert + perToken * oneExpert;
            expertParamsAllLayers += oneExpert;
        } else {
            total += common + gatedMlp(intermediate);
            active += common + gatedMlp(intermediate);
        }
    }
    const double embeddings = double(V) * dd * (tied ? 1.0 : 2.0);
    total += embeddings + dd; // + final norm
    active += embeddings + dd;

    // --- Sliding windows.
    int window = 0, windowLayers = 0;
    const QJsonArray layerTypes = f.value("layer_types").toArray();
    const int configWindow = f.countOr("sliding_window", 0);
    if (!layerTypes.isEmpty()) {
        for (const QJsonValue v : layerTypes)
            if (v.toString().contains(QStringLiteral("sliding")))
                ++windowLayers;
        if (layerTypes.size() != L)
            m.notes.push_back("\"layer_types\" lists " + std::to_string(layerTypes.size()) + " layers for "
                              + std::to_string(L) + " layers; the sliding count is taken as listed.");
        window = windowLayers > 0 ? configWindow : 0;
        if (windowLayers > 0 && window == 0)
            return "config field sliding_window is missing but layer_types has sliding layers";
    } else if (configWindow > 0) {
        window = configWindow;
        if (is({"gemma2"})) {
            windowLayers = (L + 1) / 2; // even layers slide
            m.notes.push_back("Gemma 2: even layers slide over " + std::to_string(window) + " tokens, odd layers are global.");
        } else if (is({"gemma3", "gemma3_text"})) {
            const int pattern = std::max(1, f.countOr("sliding_window_pattern", 6));
            windowLayers = L - L / pattern;
            m.notes.push_back("Gemma 3: " + std::to_string(pattern - 1) + " of every " + std::to_string(pattern)
                              + " layers slide over " + std::to_string(window) + " tokens.");
        } else if (is({"qwen2", "qwen2_moe", "qwen3", "qwen3_moe"})) {
            if (f.flag("use_sliding_window", false)) {
                const int from = f.countOr("max_window_layers", 0);
                windowLayers = std::max(0, L - from);
            } else {
                window = 0; // sliding_window is set but unused
            }
        } else {
            windowLayers = L; // Mistral, Phi-3: every layer slides
            m.notes.push_back("Every layer slides over " + std::to_string(window) + " tokens (\"sliding_window\").");
        }
        if (windowLayers == 0)
            window = 0;
    }
    if (!f.error().empty())
        return f.error();

    ModelShape& s = m.shape;
    s.name = type.empty() ? std::string("Imported model") : type;
    s.params = total;
    s.activeParams = active;
    s.layers = L;
    s.hidden = d;
    s.heads = H;
    s.kvHeads = mla ? H : Hkv;
    s.headDim = headDim;
    s.vocab = V;
    s.weightDtype = DType::BF16;
    s.kvDtype = DType::BF16;
    s.experts = moeLayers > 0 ? experts : 0;
    s.expertsPerToken = moeLayers > 0 ? perToken : 0;
    s.expertParams = moeLayers > 0 ? expertParamsAllLayers : 0;
    s.kvLoraRank = kvLoraRank;
    s.ropeHeadDim = ropeDim;
    s.slidingWindow = window;
    s.slidingLayers = window > 0 ? windowLayers : 0;
    if (s.heads % s.kvHeads != 0)
        return "config fields num_attention_heads " + std::to_string(H) + " and num_key_value_heads " + std::to_string(Hkv)
               + ": the heads must be a multiple of the KV heads";
    m.totalParams = total;
    m.activeParams = active;
    if (moeLayers > 0)
        m.notes.push_back("MoE: " + std::to_string(experts) + " routed experts, " + std::to_string(perToken) + " per token"
                          + (shared > 0 ? ", " + std::to_string(shared) + " shared" : std::string()) + ", in " + std::to_string(moeLayers)
                          + " of " + std::to_string(L) + " layers; " + number(total) + " parameters in all, " + number(active)
                          + " active per token.");
    if (f.countOr("num_nextn_predict_layers", 0) > 0)
        m.notes.push_back("Multi-token-prediction layers (num_nextn_predict_layers) are not counted.");
    if (f.has("torch_dtype") && f.string("torch_dtype") != "bfloat16")
        m.notes.push_back("The config's torch_dtype is " + Fields::printable(f.string("torch_dtype")) + "; Ridgeline starts the import at bf16 weights and KV.");
    out = std::move(m);
    return {};
}

} // namespace ridgeline::model
