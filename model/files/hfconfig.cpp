// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/files/hfconfig.h"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QString>

#include "model/cost/costmodel.h"
#include "model/cost/jsoninput.h"
#include "model/cost/messagetext.h"
#include "model/cost/scenariokeys.h"

namespace ridgeline::model {

namespace {

/** What a Python non-finite token (NaN, Infinity, -Infinity) is read as: a string that no config holds, so that a field
 *  Ridgeline reads is refused naming the token instead of being read as absent. */
constexpr char kNonFiniteMark = '\x01';

/** "NaN", "Infinity" or "-Infinity" when @p v was that bare token in the file, else "". */
std::string nonFiniteToken(const QJsonValue& v)
{
    if (!v.isString())
        return {};
    const std::string s = v.toString().toStdString();
    return s.size() > 1 && s[0] == kNonFiniteMark ? s.substr(1) : std::string();
}

/** A JSON value for a message: a non-finite token as the file wrote it, the rest as model::jsonValueText. */
std::string valueText(const QJsonValue& v)
{
    const std::string token = nonFiniteToken(v);
    return token.empty() ? jsonValueText(v) : token;
}

/** Why a non-finite token is no count, to follow "= NaN: " (never "NaN: not a number", a tautology). */
std::string nonFiniteWhy(const std::string& token)
{
    return token == "NaN" ? "Python's not-a-number token" : "an infinite value";
}

/** "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", ... */
std::string ordinal(long long n)
{
    const long long tens = n % 100, ones = n % 10;
    const char* suffix = (tens >= 11 && tens <= 13) ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
    return std::to_string(n) + suffix;
}

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
        if (const std::string token = nonFiniteToken(v); !token.empty()) {
            fail(head + "expected a whole number, not " + nonFiniteWhy(token));
            return fallback;
        }
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

    std::string string(const char* key) const
    {
        const QJsonValue v = m_o.value(QLatin1String(key));
        return nonFiniteToken(v).empty() ? v.toString().toStdString() : std::string();
    }
    QJsonValue value(const char* key) const { return m_o.value(QLatin1String(key)); }

    void fail(const std::string& message)
    {
        if (m_error.empty())
            m_error = message;
    }
    const std::string& error() const { return m_error; }

    /** @p v as written in JSON, for a one-line message (model::jsonValueText). */
    static std::string text(const QJsonValue& v) { return valueText(v); }

    /** Outside text for a one-line message or note: control characters escaped, cut after 60 characters. */
    static std::string printable(const std::string& s) { return printableText(s, 60); }

    /** A name the import keeps (model_type): a string of at most kMaxTextBytes without control characters. */
    std::string name(const char* key)
    {
        const QJsonValue v = m_o.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return {};
        if (!v.isString() || !nonFiniteToken(v).empty()) {
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
/**
 * Replaces the bare tokens Python's json module writes for non-finite floats (Infinity, -Infinity, NaN),
 * outside strings, with a marked string (nonFiniteToken() reads it back); @return how many were replaced.
 */
int replaceNonFiniteTokens(QByteArray& text)
{
    int replaced = 0;
    QByteArray out;
    out.reserve(text.size());
    bool inString = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < text.size())
                out += text[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            out += c;
            continue;
        }
        bool matched = false;
        for (const char* token : {"-Infinity", "Infinity", "NaN"}) {
            const qsizetype n = qsizetype(std::strlen(token));
            if (text.mid(i, n) == token) {
                out += "\"\\u0001";
                out += token;
                out += '"';
                i += n - 1;
                ++replaced;
                matched = true;
                break;
            }
        }
        if (!matched)
            out += c;
    }
    if (replaced > 0)
        text = out;
    return replaced;
}

/** What one decoder layer holds, in parameters. Matrices can be quantized; "small" parameters (biases, norms,
 *  convolutions, gates of one width) stay at 16 bits under every method the import reads. */
struct LayerParams {
    enum class Mixer { Attention, Sliding, Linear, Mamba, None } mixer = Mixer::Attention;
    double attnW = 0, attnSmall = 0;
    double mixerW = 0, mixerSmall = 0; // linear attention or Mamba
    double mlpW = 0, mlpSmall = 0;     // dense MLP
    bool moe = false;
    double expertW = 0, expertSmall = 0; // one routed expert
    double sharedW = 0, sharedSmall = 0;
    double router = 0;
    double norms = 0;
    double stateBytes = 0; // fixed-size recurrent state per sequence, B

    double common() const { return attnW + attnSmall + mixerW + mixerSmall + sharedW + sharedSmall + router + norms; }
};

/** Which parts a quantization config leaves at 16 bits, per layer (-1: every layer). */
struct Exclusions {
    std::set<std::pair<int, std::string>> parts; // (layer or -1, "attn" | "mlp" | "experts" | "shared" | "mixer")
    bool lmHeadQuantized = false;
    std::vector<std::string> unrecognized;

    bool excluded(int layer, const std::string& part) const { return parts.count({-1, part}) || parts.count({layer, part}); }

    void add(const std::string& entry)
    {
        std::string e = entry;
        std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        if (e.rfind("re:", 0) == 0)
            e = e.substr(3);
        int layer = -1;
        const size_t at = e.find("layers.");
        if (at != std::string::npos && at + 7 < e.size() && std::isdigit(static_cast<unsigned char>(e[at + 7])))
            layer = std::atoi(e.c_str() + at + 7);
        auto has = [&](const char* s) { return e.find(s) != std::string::npos; };
        if (has("lm_head") || has("embed") || has("router") || has("vision") || has("visual") || has("multi_modal")
            || has("mm_projector") || has("norm") || has("mtp") || has("conv1d") || has("shared_expert_gate")
            || (has("mlp.gate") && !has("gate_proj") && !has("gate_up"))
            || (has(".gate") && !has("_proj") && !has("gate_up")))
            return; // at 16 bits anyway (embeddings, LM head, routers and gates, norms, convolutions) or not counted (vision, MTP)
        if (has("shared_expert"))
            parts.insert({layer, "shared"});
        else if (has("experts"))
            parts.insert({layer, "experts"});
        else if (has("linear_attn") || has("mamba") || has("in_proj") || has("out_proj") || (has("mixer") && !has("_proj")))
            parts.insert({layer, "mixer"}); // linear attention or Mamba (Nemotron-H names every block "mixer")
        else if (has("self_attn") || has("attention") || has("attn") || has("q_proj") || has("k_proj") || has("v_proj")
                 || has("o_proj") || has("qkv"))
            parts.insert({layer, "attn"});
        else if (has("mlp") || has("gate_proj") || has("up_proj") || has("down_proj") || has("feed_forward")) {
            parts.insert({layer, "mlp"});
            parts.insert({layer, "experts"});
            parts.insert({layer, "shared"});
        } else if (layer >= 0 && e.find('.', at + 7) == std::string::npos) {
            for (const char* p : {"attn", "mlp", "experts", "shared", "mixer"}) // a whole layer
                parts.insert({layer, p});
        } else
            unrecognized.push_back(entry);
    }
};

/** The weight format a quantization_config describes, what it leaves out, and a sentence saying so. */
struct Quantization {
    bool present = false;
    bool read = false;          // a method Ridgeline reads
    DType weights = DType::BF16;
    bool expertsOnly = false;   // MXFP4 (gpt-oss): only the routed experts are quantized
    std::optional<DType> kv;    // a KV-cache scheme the config names
    Exclusions exclusions;
    std::vector<std::string> notes;
    std::string error;          // a field Ridgeline cannot read as written, named with its value
};

std::string printableName(const QString& s) { return printableText(s.toStdString(), 60); }

std::string formatDigits(double v, int digits) { return QByteArray::number(v, 'f', digits).toStdString(); }

/** Reads a HuggingFace quantization_config (transformers' quantizer configs; vLLM's readers of the same fields). */
Quantization readQuantization(const QJsonObject& q)
{
    Quantization r;
    r.present = true;
    const QString method = q.value(QStringLiteral("quant_method")).toString().toLower();
    // A whole number from @p lo to @p hi (or @p also), @p fallback when absent; else the first error names it.
    auto whole = [&](QJsonObject o, const std::string& path, const char* key, int fallback, int lo, int hi,
                     std::optional<int> also = std::nullopt) -> int {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return fallback;
        const double d = v.isDouble() ? v.toDouble() : std::nan("");
        if (d == std::floor(d) && ((d >= lo && d <= hi) || (also && d == *also)))
            return int(d);
        if (r.error.empty())
            r.error = "config field " + path + key + " = " + valueText(v) + ": expected a whole number from " + std::to_string(lo)
                      + " to " + Fields::grouped(hi) + (also ? " (or " + std::to_string(*also) + ")" : std::string());
        return fallback;
    };
    auto exclusionList = [&](std::initializer_list<const char*> keys) {
        for (const char* k : keys)
            for (const QJsonValue v : q.value(QLatin1String(k)).toArray())
                if (v.isString())
                    r.exclusions.add(v.toString().toStdString());
    };
    auto int4Note = [&](int bits, int group, bool zeros) {
        if (bits == 4 && group > 0 && group != kInt4WeightGroupSize) {
            const double actual = 0.5 + 2.0 / group + (zeros ? 0.5 / group : 0.0);
            r.notes.push_back("The config's group size is " + std::to_string(group) + ": its checkpoint holds about "
                              + formatDigits(actual, 4) + " B per weight; Ridgeline's int4 counts one fp16 scale per "
                              + std::to_string(kInt4WeightGroupSize) + " (" + formatDigits(weightBytesPerParameter(DType::INT4), 4)
                              + " B).");
        }
    };
    if (method == QLatin1String("fp8") || method == QLatin1String("fbgemm_fp8")) {
        r.read = true;
        r.weights = DType::FP8;
        const QJsonValue blockValue = q.value(QStringLiteral("weight_block_size"));
        const QJsonArray block = blockValue.toArray();
        std::string how = "per-tensor or per-channel scales";
        auto blockSide = [](const QJsonValue& v) { return v.isDouble() && v.toDouble() >= 1 && v.toDouble() <= 1e6 && v.toDouble() == std::floor(v.toDouble()); };
        if (!blockValue.isUndefined() && !blockValue.isNull() && !(block.size() == 2 && blockSide(block[0]) && blockSide(block[1])))
            r.error = "config field quantization_config.weight_block_size = " + valueText(blockValue)
                      + ": expected two whole numbers from 1 to 1,000,000 (the block's rows and columns, e.g. [128, 128])";
        else if (block.size() == 2) {
            const double elements = double(block[0].toInt()) * block[1].toInt();
            how = "block-scaled, one fp32 scale per " + std::to_string(block[0].toInt()) + " x " + std::to_string(block[1].toInt())
                  + " block (" + formatDigits(4.0 / elements * 100.0, 3) + " % more bytes, not counted)";
        }
        r.notes.push_back("quantization_config: fp8 (e4m3) weights, " + how + ", in every linear layer of the decoder.");
        exclusionList({"modules_to_not_convert", "ignored_layers"});
    } else if (method == QLatin1String("mxfp4")) {
        r.read = true;
        r.weights = DType::MXFP4;
        r.expertsOnly = true;
        r.notes.push_back("quantization_config: MXFP4 routed experts (4-bit values, one E8M0 scale per 32: 0.53125 B per weight); "
                          "everything else at 16 bits (modules_to_not_convert).");
        exclusionList({"modules_to_not_convert"});
    } else if (method == QLatin1String("modelopt")) {
        r.read = true;
        QJsonObject inner = q.value(QStringLiteral("quantization")).isObject() ? q.value(QStringLiteral("quantization")).toObject() : q;
        const QString algo = inner.value(QStringLiteral("quant_algo")).toString().toUpper();
        if (algo.contains(QLatin1String("NVFP4")))
            r.weights = DType::NVFP4;
        else if (algo.contains(QLatin1String("FP8")))
            r.weights = DType::FP8;
        else if (algo.contains(QLatin1String("W4A16")) || algo.contains(QLatin1String("INT4")))
            r.weights = DType::INT4;
        else
            r.read = false;
        if (r.read)
            r.notes.push_back("quantization_config: ModelOpt " + printableName(algo) + ": " + std::string(dtypeName(r.weights))
                              + " weights in every linear layer of the decoder.");
        const QString kvAlgo = inner.value(QStringLiteral("kv_cache_quant_algo")).toString().toUpper();
        if (kvAlgo.contains(QLatin1String("FP8")))
            r.kv = DType::FP8;
        else if (kvAlgo.contains(QLatin1String("NVFP4")))
            r.kv = DType::NVFP4;
        for (const char* k : {"exclude_modules", "ignore"})
            for (const QJsonValue v : inner.value(QLatin1String(k)).toArray())
                if (v.isString())
                    r.exclusions.add(v.toString().toStdString());
    } else if (method == QLatin1String("awq") || method == QLatin1String("gptq")) {
        r.read = true;
        const char* bitsKey = q.contains(QStringLiteral("bits")) ? "bits" : "w_bit";
        const char* groupKey = q.contains(QStringLiteral("group_size")) ? "group_size" : "q_group_size";
        const int bits = whole(q, "quantization_config.", bitsKey, 4, 1, 64);
        // GPTQ writes group_size -1 for one scale per output channel.
        const int group = whole(q, "quantization_config.", groupKey, 128, 1, 1 << 20, -1);
        if (bits == 4)
            r.weights = DType::INT4;
        else if (bits == 8)
            r.weights = DType::INT8;
        else if (r.error.empty())
            r.error = "config field quantization_config." + std::string(bitsKey) + " = " + std::to_string(bits) + ": Ridgeline counts "
                      + method.toUpper().toStdString() + " weights of 4 or 8 bits; set model.weight_dtype by hand for another width";
        if (r.read) {
            r.notes.push_back("quantization_config: " + method.toUpper().toStdString() + " " + std::to_string(bits) + "-bit weights, group size "
                              + std::to_string(group) + ", in every linear layer of the decoder"
                              + (bits == 8 ? " (int8 matmuls assumed at the int8 peak; GPTQ kernels often run W8A16 at the bf16 peak)" : "")
                              + ".");
            int4Note(bits, group, true);
        }
        r.exclusions.lmHeadQuantized = q.value(QStringLiteral("lm_head")).toBool(false);
        exclusionList({"modules_to_not_convert"});
    } else if (method == QLatin1String("compressed-tensors")) {
        const QJsonObject groups = q.value(QStringLiteral("config_groups")).toObject();
        for (auto it = groups.begin(); it != groups.end() && !r.read; ++it) {
            const QJsonObject w = it.value().toObject().value(QStringLiteral("weights")).toObject();
            const std::string path = "quantization_config.config_groups." + printableName(it.key()) + ".weights.";
            const int bits = whole(w, path, "num_bits", 0, 1, 64);
            const bool isFloat = w.value(QStringLiteral("type")).toString() == QLatin1String("float");
            const int group = whole(w, path, "group_size", 0, 1, 1 << 20, -1);
            if (!r.error.empty())
                break;
            r.read = true;
            if (bits == 4 && isFloat)
                r.weights = group == 32 ? DType::MXFP4 : DType::NVFP4;
            else if (bits == 4)
                r.weights = DType::INT4;
            else if (bits == 8 && isFloat)
                r.weights = DType::FP8;
            else if (bits == 8)
                r.weights = DType::INT8;
            else {
                r.read = false;
                r.error = "config field " + path + "num_bits = " + std::to_string(bits)
                          + ": Ridgeline counts compressed-tensors weights of 4 or 8 bits; set model.weight_dtype by hand for another width";
                break;
            }
            if (r.read) {
                r.notes.push_back("quantization_config: compressed-tensors, " + std::to_string(bits) + "-bit " + (isFloat ? "float" : "int")
                                  + " weights (" + printableName(w.value(QStringLiteral("strategy")).toString()) + " scales"
                                  + (group > 0 ? ", group size " + std::to_string(group) : std::string()) + ") read as "
                                  + std::string(dtypeName(r.weights)) + " in every linear layer of the decoder.");
                if (!isFloat)
                    int4Note(bits, group, !w.value(QStringLiteral("symmetric")).toBool(true));
            }
        }
        const QJsonObject kv = q.value(QStringLiteral("kv_cache_scheme")).toObject();
        if (kv.value(QStringLiteral("num_bits")).toInt() == 8)
            r.kv = kv.value(QStringLiteral("type")).toString() == QLatin1String("float") ? DType::FP8 : DType::INT8;
        exclusionList({"ignore"});
    }
    if (!r.read)
        r.notes.push_back("quantization_config: quant_method \"" + printableName(method)
                          + "\" is not one Ridgeline reads; the weights are counted at bf16 (set model.weight_dtype).");
    if (r.kv)
        r.notes.push_back("The config quantizes the KV cache: KV dtype " + std::string(dtypeName(*r.kv)) + ".");
    for (const std::string& u : r.exclusions.unrecognized)
        r.notes.push_back("Left-out module \"" + printableText(u, 60) + "\" is not one Ridgeline places; counted as quantized.");
    return r;
}

/** Fields the transformers config class fills when config.json leaves them out (only those families whose published
 *  files rely on it). Source: each family's configuration_*.py in HF transformers. */
std::vector<std::string> applyFamilyDefaults(const std::string& type, QJsonObject& o)
{
    std::vector<std::pair<const char*, QJsonValue>> defaults;
    if (type == "gemma3_text" || type == "gemma3")
        defaults = {{"vocab_size", 262208}, {"hidden_size", 2304}, {"intermediate_size", 9216}, {"num_hidden_layers", 26},
                    {"num_attention_heads", 8}, {"num_key_value_heads", 4}, {"head_dim", 256}, {"sliding_window", 4096},
                    {"sliding_window_pattern", 6}};
    else if (type == "llama4_text" || type == "llama4")
        defaults = {{"vocab_size", 202048}, {"num_key_value_heads", 8}, {"head_dim", 128}, {"intermediate_size_mlp", 16384},
                    {"interleave_moe_layer_step", 1}, {"num_experts_per_tok", 1}, {"num_local_experts", 16}};
    std::vector<std::string> filled;
    for (const auto& [key, value] : defaults)
        if (!o.contains(QLatin1String(key)) || o.value(QLatin1String(key)).isNull()) {
            o.insert(QLatin1String(key), value);
            filled.push_back(std::string(key) + " " + jsonValueText(value));
        }
    return filled;
}

std::string joined(const std::vector<std::string>& items)
{
    std::string s;
    for (size_t i = 0; i < items.size(); ++i)
        s += (i == 0 ? "" : ", ") + items[i];
    return s;
}

} // namespace

std::string importHfConfig(const QByteArray& json, ImportedModel& out)
{
    QByteArray text = json;
    const int nonFinite = replaceNonFiniteTokens(text);
    QJsonDocument doc;
    if (std::string e = parseJsonInput(text, doc); !e.empty())
        return e;
    if (!doc.isObject())
        return "expected a JSON object (a HuggingFace config.json)";

    ImportedModel m;
    if (nonFinite > 0)
        m.notes.push_back("The file has " + std::to_string(nonFinite)
                          + " Python non-finite number(s) (Infinity / NaN), not JSON: fields Ridgeline reads must be finite "
                            "(a count that is NaN or Infinity is refused); the others are not read.");
    QJsonObject root = doc.object();
    // Multimodal wrappers (Gemma 3, Llama 4, Mistral 3, ...) keep the language model under "text_config".
    if (!root.contains(QStringLiteral("num_hidden_layers")) && root.value(QStringLiteral("text_config")).isObject()) {
        Fields outer(root);
        const std::string outerType = outer.name("model_type");
        if (!outer.error().empty())
            return outer.error();
        const QJsonObject wrapper = root;
        root = root.value(QStringLiteral("text_config")).toObject();
        m.notes.push_back("Read the language model from \"text_config\" (the vision tower of " + outerType + " is not counted).");
        if (!root.contains(QStringLiteral("model_type")))
            root.insert(QStringLiteral("model_type"), QString::fromStdString(outerType));
        for (const char* k : {"quantization_config", "tie_word_embeddings", "torch_dtype"})
            if (!root.contains(QLatin1String(k)) && wrapper.contains(QLatin1String(k)))
                root.insert(QLatin1String(k), wrapper.value(QLatin1String(k)));
        // The wrappers tie the text embeddings unless they say otherwise (Gemma3ForConditionalGeneration).
        if (!root.contains(QStringLiteral("tie_word_embeddings")) && (outerType == "gemma3" || outerType == "gemma3n"))
            root.insert(QStringLiteral("tie_word_embeddings"), true);
    }
    std::string type;
    {
        Fields f0(root);
        type = f0.name("model_type");
        if (!f0.error().empty())
            return f0.error();
    }
    if (const std::vector<std::string> filled = applyFamilyDefaults(type, root); !filled.empty())
        m.notes.push_back("Not in the file, taken from the transformers defaults of " + type + ": " + joined(filled) + ".");
    Fields f(root);
    m.modelType = type;
    // Families read as another: Kimi K2 is DeepSeek-V3's architecture, MiMo is Qwen2's with MTP layers.
    std::string family = type;
    if (type == "kimi_k2")
        family = "deepseek_v3";
    else if (type == "mimo")
        family = "qwen2";
    else if (type == "qwen3_5_text" || type == "qwen3_5")
        family = "qwen3_next";
    else if (type == "qwen3_5_moe_text" || type == "qwen3_5_moe")
        family = "qwen3_next";
    else if (type == "llama4_text")
        family = "llama4";
    else if (type == "ministral" || type == "mistral3")
        family = "mistral";
    auto is = [&](std::initializer_list<const char*> names) {
        for (const char* n : names)
            if (family == n)
                return true;
        return false;
    };
    static const std::set<std::string> known = {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe",
                                                "gemma2", "gemma3", "gemma3_text", "phi3", "deepseek_v2", "deepseek_v3", "gpt_oss",
                                                "llama4", "qwen3_next", "glm4_moe", "nemotron", "nemotron_h"};
    const bool knownFamily = known.count(family) > 0;

    if (f.value("block_configs").isArray())
        return "config field block_configs: per-layer blocks of differing widths (DeciLM / Llama-Nemotron NAS, model_type "
               + (type.empty() ? std::string("not given") : "\"" + type + "\"") + ") are not one Ridgeline counts";
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
    if (headDim == 0 && f.has("attention_head_dim"))
        headDim = f.countOr("attention_head_dim", 0);
    if (headDim == 0 && f.has("kv_channels"))
        headDim = f.countOr("kv_channels", 0);
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
    std::vector<LayerParams> layers(static_cast<size_t>(L));
    std::vector<std::string> readAs; // for an unknown architecture: what it was read as

    // --- Which mixer each layer has: full or sliding attention, linear attention, Mamba, or none.
    const QJsonArray layerTypes = f.value("layer_types").toArray();
    if (f.has("layer_types") && !f.value("layer_types").isArray())
        return "config field layer_types = " + Fields::text(f.value("layer_types")) + ": expected a list of layer kinds";
    if (f.has("hybrid_override_pattern") && (!f.value("hybrid_override_pattern").isString() || !nonFiniteToken(f.value("hybrid_override_pattern")).empty()))
        return "config field hybrid_override_pattern = " + Fields::text(f.value("hybrid_override_pattern"))
               + ": expected a string of one character per layer (M Mamba-2, * attention, - MLP, E MoE)";
    const std::string hybridPattern = f.string("hybrid_override_pattern");
    bool nemotronH = !hybridPattern.empty();
    if (nemotronH) {
        if (int(hybridPattern.size()) != L)
            return "config field hybrid_override_pattern has " + std::to_string(hybridPattern.size()) + " characters for "
                   + std::to_string(L) + " layers (num_hidden_layers)";
        for (int i = 0; i < L; ++i) {
            const char c = hybridPattern[size_t(i)];
            if (c == 'M')
                layers[size_t(i)].mixer = LayerParams::Mixer::Mamba;
            else if (c == '*')
                layers[size_t(i)].mixer = LayerParams::Mixer::Attention;
            else if (c == '-' || c == 'E')
                layers[size_t(i)].mixer = LayerParams::Mixer::None;
            else
                return std::string("config field hybrid_override_pattern: character '") + printableText(std::string(1, c), 4)
                       + "' at layer " + std::to_string(i) + " is not M (Mamba), * (attention), - (MLP) or E (MoE)";
        }
        readAs.push_back("a Nemotron-H-style hybrid (hybrid_override_pattern: M Mamba-2, * attention, - MLP, E MoE, one block each)");
    } else if (!layerTypes.isEmpty()) {
        for (int i = 0; i < L && i < layerTypes.size(); ++i) {
            const QString t = layerTypes[i].toString();
            auto& mixer = layers[size_t(i)].mixer;
            // transformers' names (configuration_utils.ALLOWED_LAYER_TYPES and the families' own).
            if (t == QLatin1String("full_attention") || t == QLatin1String("attention") || t == QLatin1String("global_attention"))
                mixer = LayerParams::Mixer::Attention;
            else if (t == QLatin1String("linear_attention"))
                mixer = LayerParams::Mixer::Linear;
            else if (t == QLatin1String("sliding_attention") || t == QLatin1String("chunked_attention"))
                mixer = LayerParams::Mixer::Sliding;
            else if (t == QLatin1String("mamba"))
                mixer = LayerParams::Mixer::Mamba;
            else
                return "config field layer_types[" + std::to_string(i) + "] = " + Fields::text(layerTypes[i])
                       + ": not a layer kind Ridgeline counts (full_attention, sliding_attention, chunked_attention, "
                         "linear_attention or mamba)";
        }
        if (layerTypes.size() != L)
            m.notes.push_back("\"layer_types\" lists " + std::to_string(layerTypes.size()) + " layers for "
                              + std::to_string(L) + " layers; the rest are read as full attention.");
    } else if (is({"qwen3_next"}) || f.has("full_attention_interval")) {
        const int interval = f.countOr("full_attention_interval", 4, 1);
        if (!f.error().empty())
            return f.error();
        for (int i = 0; i < L; ++i)
            if ((i + 1) % interval != 0)
                layers[size_t(i)].mixer = LayerParams::Mixer::Linear;
        m.notes.push_back("Linear attention in " + std::to_string(L - L / interval) + " of " + std::to_string(L)
                          + " layers, full attention in every " + (interval == 1 ? std::string("layer") : ordinal(interval))
                          + " (full_attention_interval).");
    }
    if (!f.error().empty())
        return f.error();

    // --- Attention per layer (full and sliding alike).
    double attention = 0, attentionSmall = 0;
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
        if (qLora > 0) {
            attention += dd * qLora + double(qLora) * H * qHead; // q_a_proj, q_b_proj
            attentionSmall += qLora;                              // q_a_layernorm
        } else
            attention += dd * H * qHead; // q_proj
        attention += dd * (kvLoraRank + ropeDim);            // kv_a_proj_with_mqa
        attentionSmall += kvLoraRank;                        // kv_a_layernorm
        attention += double(kvLoraRank) * H * (nope + vHead); // kv_b_proj
        attention += double(H) * vHead * dd;                 // o_proj
        headDim = int(qHead); // d_attn = H x (query/key width): the score-matrix convention
        m.notes.push_back("MLA: the cache holds the latent, L x (kv_lora_rank + qk_rope_head_dim) = " + std::to_string(L) + " x "
                          + std::to_string(kvLoraRank + ropeDim) + " per token, replicated on every tensor-parallel GPU.");
        readAs.push_back("MLA attention (kv_lora_rank)");
    } else {
        const double q = double(H) * headDim, kv = double(Hkv) * headDim;
        const bool outputGate = is({"qwen3_next"}) && f.flag("attn_output_gate", true);
        attention = dd * q * (outputGate ? 2.0 : 1.0) + 2.0 * dd * kv + q * dd;
        bool qkvBias = f.flag("attention_bias", false), oBias = qkvBias;
        if (is({"qwen2", "qwen2_moe"})) {
            qkvBias = true; // Qwen2 projects q, k, v with bias and o without
            oBias = false;
        }
        if (is({"glm4_moe"}))
            oBias = false; // GLM-4.5: q, k, v biases (attention_bias), o_proj without
        if (qkvBias)
            attentionSmall += q + 2.0 * kv;
        if (oBias)
            attentionSmall += dd;
        if (is({"qwen3", "qwen3_moe", "gemma3", "gemma3_text", "qwen3_next"}) || (is({"glm4_moe"}) && f.flag("use_qk_norm", false)))
            attentionSmall += 2.0 * headDim; // q_norm, k_norm
        if (is({"gpt_oss"}))
            attentionSmall += H; // attention sinks
        if (!knownFamily)
            readAs.push_back("attention with " + std::to_string(H) + " query and " + std::to_string(Hkv) + " KV heads of "
                             + std::to_string(headDim) + (qkvBias ? ", with biases" : ", without biases"));
    }
    if (!f.error().empty())
        return f.error();
    // Nemotron (Nemotron-4, Minitron) and Nemotron-H norms: LayerNorm with bias in Nemotron, RMSNorm in Nemotron-H.
    const double normWidth = is({"nemotron"}) ? 2.0 * dd : dd;
    const double layerNorms = nemotronH ? dd : (gemma ? 4.0 : 2.0) * normWidth;

    // --- Linear attention (Gated DeltaNet: Qwen3-Next, Qwen3.5) and Mamba-2 (Nemotron-H) per layer. The recurrent state
    // is held in mamba_ssm_dtype / mamba_ssm_cache_dtype when the config names float32 (4 B), else in bf16 (2 B, the
    // engines' default); the convolution's state in bf16.
    const std::string ssmDtype = f.has("mamba_ssm_cache_dtype") ? f.string("mamba_ssm_cache_dtype") : f.string("mamba_ssm_dtype");
    const double ssmBytes = ssmDtype == "float32" ? 4.0 : 2.0;
    const std::string ssmDtypeText = ssmBytes == 4.0 ? "float32 (the config's mamba_ssm dtype)" : "bf16";
    double linearW = 0, linearSmall = 0, linearState = 0;
    if (std::any_of(layers.begin(), layers.end(), [](const LayerParams& p) { return p.mixer == LayerParams::Mixer::Linear; })) {
        const int nk = f.countOr("linear_num_key_heads", 0), nv = f.countOr("linear_num_value_heads", 0);
        const int dk = f.countOr("linear_key_head_dim", 0), dv = f.countOr("linear_value_head_dim", 0);
        const int kernel = f.countOr("linear_conv_kernel_dim", 4, 1);
        if (!f.error().empty())
            return f.error();
        if (nk == 0 || nv == 0 || dk == 0 || dv == 0)
            return "config has linear-attention layers but not linear_num_key_heads, linear_num_value_heads, linear_key_head_dim "
                   "and linear_value_head_dim (Gated DeltaNet); Ridgeline reads only that kind of linear attention";
        const double keyDim = double(nk) * dk, valueDim = double(nv) * dv, convDim = 2.0 * keyDim + valueDim;
        linearW = dd * (2.0 * keyDim + 2.0 * valueDim) + dd * 2.0 * nv + valueDim * dd; // in_proj_qkvz, in_proj_ba, out_proj
        linearSmall = convDim * kernel + 2.0 * nv + dv;                                    // conv1d, dt_bias + A_log, gated norm
        linearState = double(nv) * dk * dv * ssmBytes + convDim * (kernel - 1) * 2.0; // recurrent state + conv state, B
        m.notes.push_back("Linear attention (Gated DeltaNet): no KV cache; a fixed state of " + number(linearState)
                          + " B per layer and sequence (" + std::to_string(nv) + " x " + std::to_string(dk) + " x "
                          + std::to_string(dv) + " recurrent in " + ssmDtypeText + " + the convolution's last "
                          + std::to_string(kernel - 1) + " inputs in bf16).");
    }
    double mambaW = 0, mambaSmall = 0, mambaState = 0;
    if (std::any_of(layers.begin(), layers.end(), [](const LayerParams& p) { return p.mixer == LayerParams::Mixer::Mamba; })) {
        const int heads = f.countOr("mamba_num_heads", 0), headWidth = f.countOr("mamba_head_dim", 0);
        const int groups = f.countOr("n_groups", 1), state = f.countOr("ssm_state_size", 0);
        const int kernel = f.countOr("conv_kernel", 4, 1);
        if (!f.error().empty())
            return f.error();
        if (heads == 0 || headWidth == 0 || state == 0)
            return "config has Mamba layers but not mamba_num_heads, mamba_head_dim and ssm_state_size (Mamba-2)";
        const double inner = double(heads) * headWidth, convDim = inner + 2.0 * groups * state;
        const bool bias = f.flag("use_bias", false), convBias = f.flag("use_conv_bias", true);
        mambaW = dd * (2.0 * inner + 2.0 * groups * state + heads) + inner * dd; // in_proj, out_proj
        mambaSmall = convDim * kernel + (convBias ? convDim : 0.0) + 3.0 * heads + inner
                     + (bias ? 2.0 * inner + 2.0 * groups * state + heads + dd : 0.0); // conv1d, dt_bias, A_log, D, norm
        mambaState = inner * state * ssmBytes + convDim * (kernel - 1) * 2.0; // B
        m.notes.push_back("Mamba-2 layers: no KV cache; a fixed state of " + number(mambaState) + " B per layer and sequence ("
                          + std::to_string(heads) + " heads x " + std::to_string(headWidth) + " x " + std::to_string(state)
                          + " SSM state in " + ssmDtypeText + " + the convolution's last " + std::to_string(kernel - 1)
                          + " inputs in bf16).");
    }

    // --- MLP or experts per layer.
    const bool mlpBias = f.flag("mlp_bias", false);
    const bool reluSquared = is({"nemotron"}) || nemotronH; // non-gated: up and down only
    auto mlp = [&](double width) { return (reluSquared ? 2.0 : 3.0) * dd * width; };
    auto mlpSmall = [&](double width) { return mlpBias ? (reluSquared ? width : 2.0 * width) + dd : 0.0; };
    int experts = 0, perToken = 0, shared = 0;
    double expertWidth = 0, sharedWidth = 0;
    int denseWidth = intermediate;
    std::vector<bool> moeLayer(static_cast<size_t>(L), false);
    if (f.has("num_local_experts"))
        experts = f.countOr("num_local_experts", 0);
    else if (f.has("n_routed_experts"))
        experts = f.countOr("n_routed_experts", 0);
    else if (f.has("num_experts"))
        experts = f.countOr("num_experts", 0);
    perToken = f.countOr("num_experts_per_tok", f.countOr("experts_per_token", 0));
    if (f.has("moe_intermediate_size"))
        expertWidth = f.countOr("moe_intermediate_size", 0);
    else
        expertWidth = intermediate; // Mixtral, gpt-oss, Llama 4: the experts take intermediate_size
    if (is({"llama4"})) {
        denseWidth = f.countOr("intermediate_size_mlp", intermediate);
        sharedWidth = intermediate; // one shared expert of the experts' width
        shared = 1;
    } else if (f.has("shared_expert_intermediate_size")) {
        sharedWidth = f.countOr("shared_expert_intermediate_size", 0);
        shared = sharedWidth > 0 ? 1 : 0;
    } else if (f.has("moe_shared_expert_intermediate_size")) {
        shared = std::max(1, f.countOr("n_shared_experts", 1));
        sharedWidth = double(f.countOr("moe_shared_expert_intermediate_size", 0)) * shared;
    } else if (f.has("n_shared_experts")) {
        shared = f.countOr("n_shared_experts", 0);
        sharedWidth = expertWidth * shared;
    }
    if (f.countOr("moe_latent_size", 0) > 0)
        return "config field moe_latent_size = " + std::to_string(f.countOr("moe_latent_size", 0))
               + ": latent MoE (routed experts working in a projected width, Nemotron 3 Super) is not one Ridgeline counts";
    // Where the MoE layers are.
    std::string placement = "every layer";
    if (experts > 0) {
        if (nemotronH) {
            for (int i = 0; i < L; ++i)
                moeLayer[size_t(i)] = hybridPattern[size_t(i)] == 'E';
            placement = "the E layers of hybrid_override_pattern";
        } else if (f.value("moe_layer_freq").isArray()) {
            const QJsonArray mask = f.value("moe_layer_freq").toArray();
            for (int i = 0; i < L && i < mask.size(); ++i)
                moeLayer[size_t(i)] = mask[i].toInt() != 0 || mask[i].toBool(false);
            placement = "the layers moe_layer_freq marks";
        } else if (f.has("first_k_dense_replace") || f.has("moe_layer_freq")) {
            const int firstDense = f.countOr("first_k_dense_replace", 0);
            const int freq = std::max(1, f.countOr("moe_layer_freq", 1, 1));
            for (int i = 0; i < L; ++i)
                moeLayer[size_t(i)] = i >= firstDense && i % freq == 0;
            placement = "layers " + std::to_string(firstDense) + " on" + (freq > 1 ? ", every " + ordinal(freq) : "")
                        + " (first_k_dense_replace, moe_layer_freq)";
        } else if (f.value("moe_layers").isArray()) {
            for (const QJsonValue v : f.value("moe_layers").toArray())
                if (v.toInt(-1) >= 0 && v.toInt() < L)
                    moeLayer[size_t(v.toInt())] = true;
            placement = "the layers listed in moe_layers";
        } else if (f.has("interleave_moe_layer_step")) {
            const int step = std::max(1, f.countOr("interleave_moe_layer_step", 1, 1));
            for (int i = 0; i < L; ++i)
                moeLayer[size_t(i)] = (i + 1) % step == 0;
            placement = step > 1 ? "every " + ordinal(step) + " layer (interleave_moe_layer_step)" : "every layer";
        } else {
            const int step = std::max(1, f.countOr("decoder_sparse_step", 1, 1));
            std::set<int> mlpOnly;
            for (const QJsonValue v : f.value("mlp_only_layers").toArray())
                mlpOnly.insert(v.toInt());
            for (int i = 0; i < L; ++i)
                moeLayer[size_t(i)] = !mlpOnly.count(i) && (i + 1) % step == 0;
            if (step > 1 || !mlpOnly.empty())
                placement = (step > 1 ? "every " + ordinal(step) + " layer" : std::string("every layer"))
                            + " but mlp_only_layers (decoder_sparse_step)";
        }
    }
    if (!f.error().empty())
        return f.error();
    if (nemotronH && experts == 0) {
        const long long eLayers = std::count(hybridPattern.begin(), hybridPattern.end(), 'E');
        if (eLayers > 0)
            return "config field hybrid_override_pattern has " + std::to_string(eLayers) + " E (MoE) layer"
                   + (eLayers == 1 ? "" : "s") + " but the config gives no routed-expert count (n_routed_experts, num_experts "
                   "or num_local_experts)";
    }
    if (nemotronH && std::none_of(hybridPattern.begin(), hybridPattern.end(), [](char c) { return c == 'M' || c == '*'; }))
        return "config field hybrid_override_pattern = \"" + printableText(hybridPattern, 60)
               + "\": no M (Mamba) or * (attention) layer, so no layer mixes tokens; not a language model Ridgeline counts";
    const long long moeCount = std::count(moeLayer.begin(), moeLayer.end(), true);
    if (experts > 0 && moeCount == 0)
        return "config has " + std::to_string(experts) + " routed experts but places them in none of its " + std::to_string(L)
               + " layers (" + placement + "); check first_k_dense_replace, moe_layer_freq, decoder_sparse_step or "
               + "interleave_moe_layer_step against num_hidden_layers";
    if (experts > 0 && moeCount > 0 && (perToken <= 0 || perToken > experts))
        return "config field num_experts_per_tok = " + std::to_string(perToken) + ": expected 1 to " + std::to_string(experts)
               + " (the number of experts)";
    if (experts > 0 && expertWidth <= 0)
        return "config has " + std::to_string(experts) + " experts but no expert width (moe_intermediate_size or intermediate_size)";
    bool needsDense = false;
    for (int i = 0; i < L; ++i)
        if (!moeLayer[size_t(i)] && !(nemotronH && hybridPattern[size_t(i)] != '-'))
            needsDense = true;
    if (denseWidth <= 0 && needsDense)
        return "config field intermediate_size is missing";

    double oneExpert = (reluSquared ? 2.0 : 3.0) * dd * expertWidth, oneExpertSmall = 0;
    double router = double(experts) * dd;
    if (is({"gpt_oss"})) {
        oneExpertSmall += 2.0 * expertWidth + dd; // gate_up and down biases
        router += experts;                        // router bias
    }
    if ((is({"deepseek_v3", "glm4_moe"}) && f.string("topk_method") != "greedy") || nemotronH)
        router += experts; // e_score_correction_bias (noaux_tc routing)
    const double sharedExpert = sharedWidth > 0 ? (reluSquared ? 2.0 : 3.0) * dd * sharedWidth : 0.0;
    double sharedSmall = 0;
    if (is({"qwen2_moe", "qwen3_next"}) && sharedWidth > 0)
        sharedSmall += dd; // shared_expert_gate

    // --- Fill the layers.
    for (int i = 0; i < L; ++i) {
        LayerParams& p = layers[size_t(i)];
        p.norms = layerNorms;
        switch (p.mixer) {
        case LayerParams::Mixer::Attention:
        case LayerParams::Mixer::Sliding:
            p.attnW = attention;
            p.attnSmall = attentionSmall;
            break;
        case LayerParams::Mixer::Linear:
            p.mixerW = linearW;
            p.mixerSmall = linearSmall;
            p.stateBytes = linearState;
            break;
        case LayerParams::Mixer::Mamba:
            p.mixerW = mambaW;
            p.mixerSmall = mambaSmall;
            p.stateBytes = mambaState;
            break;
        case LayerParams::Mixer::None: break;
        }
        if (nemotronH && hybridPattern[size_t(i)] != '-' && hybridPattern[size_t(i)] != 'E')
            continue; // a Mamba or attention block has no MLP of its own
        if (moeLayer[size_t(i)]) {
            p.moe = true;
            p.expertW = oneExpert;
            p.expertSmall = oneExpertSmall;
            p.sharedW = sharedExpert;
            p.sharedSmall = sharedSmall;
            p.router = router;
        } else {
            p.mlpW = mlp(denseWidth);
            p.mlpSmall = mlpSmall(denseWidth);
        }
    }

    // --- Sliding windows (Mistral, Gemma, gpt-oss, Qwen2 options) and Llama 4's chunked attention.
    int window = 0;
    int configWindow = 0;
    {
        // A window longer than any context (Infinity, 1e30) is no window: read as full attention, and said.
        const QJsonValue w = f.value("sliding_window");
        if (nonFiniteToken(w) == "Infinity" || (w.isDouble() && w.toDouble() > double(Fields::maximum("sliding_window")))) {
            m.notes.push_back("config field sliding_window = " + valueText(w) + ": longer than any context (more than "
                              + Fields::grouped(Fields::maximum("sliding_window"))
                              + " tokens); read as no window: every layer attends to the whole context.");
            for (LayerParams& p : layers)
                if (p.mixer == LayerParams::Mixer::Sliding)
                    p.mixer = LayerParams::Mixer::Attention;
        } else
            configWindow = f.countOr("sliding_window", 0);
        if (!f.error().empty())
            return f.error();
    }
    const long long listedSliding
        = std::count_if(layers.begin(), layers.end(), [](const LayerParams& p) { return p.mixer == LayerParams::Mixer::Sliding; });
    int windowLayers = int(listedSliding);
    if (!layerTypes.isEmpty()) {
        if (windowLayers > 0) {
            window = configWindow > 0 ? configWindow : f.countOr("attention_chunk_size", 0);
            if (window == 0)
                return "config field sliding_window is missing but layer_types has sliding layers";
        }
    } else if (is({"llama4"}) && f.countOr("attention_chunk_size", 0) > 0) {
        window = f.countOr("attention_chunk_size", 0);
        const QJsonArray noRope = f.value("no_rope_layers").toArray();
        const int interval = f.countOr("no_rope_layer_interval", 4, 1);
        if (!f.error().empty())
            return f.error();
        windowLayers = 0;
        for (int i = 0; i < L; ++i) {
            const bool global = noRope.size() == L ? noRope[i].toInt(1) == 0 : (i + 1) % interval == 0;
            if (!global) {
                layers[size_t(i)].mixer = LayerParams::Mixer::Sliding;
                ++windowLayers;
            }
        }
        m.notes.push_back("Llama 4: " + std::to_string(windowLayers) + " of " + std::to_string(L) + " layers attend in chunks of "
                          + std::to_string(window) + " tokens (attention_chunk_size), counted as a sliding window of that size "
                          "(an upper bound: a chunk holds 1 to " + std::to_string(window) + " tokens); the rest are global.");
    } else if (configWindow > 0) {
        window = configWindow;
        auto slide = [&](auto pred) {
            windowLayers = 0;
            for (int i = 0; i < L; ++i)
                if (layers[size_t(i)].mixer == LayerParams::Mixer::Attention && pred(i)) {
                    layers[size_t(i)].mixer = LayerParams::Mixer::Sliding;
                    ++windowLayers;
                }
        };
        if (is({"gemma2"})) {
            slide([](int i) { return i % 2 == 0; }); // even layers slide
            m.notes.push_back("Gemma 2: even layers slide over " + std::to_string(window) + " tokens, odd layers are global.");
        } else if (is({"gemma3", "gemma3_text"})) {
            const int pattern = f.countOr("sliding_window_pattern", 6, 1);
            if (!f.error().empty())
                return f.error();
            slide([pattern](int i) { return (i + 1) % pattern != 0; });
            m.notes.push_back("Gemma 3: " + std::to_string(pattern - 1) + " of every " + std::to_string(pattern)
                              + " layers slide over " + std::to_string(window) + " tokens.");
        } else if (is({"qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "qwen3_next"})) {
            if (f.flag("use_sliding_window", false)) {
                const int from = f.countOr("max_window_layers", 0);
                slide([from](int i) { return i >= from; });
            } else {
                window = 0; // sliding_window is set but unused
            }
        } else {
            slide([](int) { return true; }); // Mistral, Phi-3: every layer slides
            m.notes.push_back("Every attention layer slides over " + std::to_string(window) + " tokens (\"sliding_window\").");
        }
        if (windowLayers == 0)
            window = 0;
    }
    if (!f.error().empty())
        return f.error();

    // --- Quantization: which parameters are held at the weight dtype, which at 16 bits.
    Quantization quant;
    if (const QJsonValue q = root.value(QStringLiteral("quantization_config")); !q.isUndefined() && !q.isNull() && !q.isObject())
        return "config field quantization_config = " + valueText(q) + ": expected an object (quant_method and its fields)";
    if (root.value(QStringLiteral("quantization_config")).isObject())
        quant = readQuantization(root.value(QStringLiteral("quantization_config")).toObject());
    if (!quant.error.empty())
        return quant.error;
    for (const std::string& n : quant.notes)
        m.notes.push_back(n);

    // --- Totals.
    double total = 0, active = 0, expertParamsAllLayers = 0, quantized = 0, stateBytes = 0;
    int moeLayers = 0, attentionLayers = 0;
    for (int i = 0; i < L; ++i) {
        const LayerParams& p = layers[size_t(i)];
        const double common = p.common() + p.mlpW + p.mlpSmall;
        total += common;
        active += common;
        if (p.moe) {
            ++moeLayers;
            total += experts * (p.expertW + p.expertSmall);
            active += perToken * (p.expertW + p.expertSmall);
            expertParamsAllLayers += p.expertW + p.expertSmall;
        }
        if (p.mixer == LayerParams::Mixer::Attention || p.mixer == LayerParams::Mixer::Sliding)
            ++attentionLayers;
        stateBytes += p.stateBytes;
        if (quant.read) {
            const Exclusions& x = quant.exclusions;
            if (!x.excluded(i, "experts"))
                quantized += experts * p.expertW;
            if (!quant.expertsOnly) {
                if (!x.excluded(i, "attn"))
                    quantized += p.attnW;
                if (!x.excluded(i, "mixer"))
                    quantized += p.mixerW;
                if (!x.excluded(i, "mlp"))
                    quantized += p.mlpW;
                if (!x.excluded(i, "shared"))
                    quantized += p.sharedW;
            }
        }
    }
    const double table = double(V) * dd;
    const double embeddings = table * (tied ? 1.0 : 2.0);
    total += embeddings + normWidth; // + final norm
    active += embeddings + normWidth;
    if (quant.read && quant.exclusions.lmHeadQuantized && !tied)
        quantized += table;
    if (quant.read && !(quantized > 0)) {
        // Nothing the method quantizes is in this model (MXFP4 on a model without routed experts, every module left out):
        // every weight stays at 16 bits, and so do the matmuls; a 4-bit peak would be a wrong number.
        m.notes.push_back(std::string("quantization_config: ") + std::string(dtypeName(quant.weights)) + " quantizes "
                          + (quant.expertsOnly ? "only routed experts, and this model has none" : "none of this model's layers (all left out)")
                          + ": every weight counted at bf16.");
        quant.read = false;
        quantized = 0;
    }

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
    s.weightDtype = quant.read ? quant.weights : DType::BF16;
    s.kvDtype = quant.kv.value_or(DType::BF16);
    s.experts = moeLayers > 0 ? experts : 0;
    s.expertsPerToken = moeLayers > 0 ? perToken : 0;
    s.expertParams = moeLayers > 0 ? expertParamsAllLayers : 0;
    s.kvLoraRank = kvLoraRank;
    s.ropeHeadDim = ropeDim;
    s.slidingWindow = window;
    s.slidingLayers = window > 0 ? windowLayers : 0;
    s.tiedEmbeddings = tied;
    s.unquantizedParams = quant.read ? std::max(0.0, total - quantized) : 0.0;
    if (attentionLayers != L)
        s.attentionLayers = attentionLayers;
    s.stateBytesPerSequence = stateBytes;
    if (s.heads % s.kvHeads != 0)
        return "config fields num_attention_heads " + std::to_string(H) + " and num_key_value_heads " + std::to_string(Hkv)
               + ": the heads must be a multiple of the KV heads";
    m.totalParams = total;
    m.activeParams = active;
    m.quantizedParams = quant.read ? quantized : 0.0;
    if (quant.read)
        m.notes.push_back("Weights: " + number(quantized) + " parameters at " + std::string(dtypeName(s.weightDtype)) + ", "
                          + number(s.unquantizedParams) + " at 16 bits (embeddings" + (tied ? "" : ", LM head")
                          + ", norms, biases, routers, convolutions and the modules the config leaves out) = "
                          + formatDigits(weightBytes(s) / 1e9, 2) + " GB.");
    if (moeLayers > 0)
        m.notes.push_back("MoE: " + std::to_string(experts) + " routed experts, " + std::to_string(perToken) + " per token"
                          + (shared > 0 ? ", " + std::to_string(shared) + " shared" : std::string()) + ", in " + std::to_string(moeLayers)
                          + " of " + std::to_string(L) + " layers (" + placement + "); " + number(total) + " parameters in all, "
                          + number(active) + " active per token (counted as active: attention, dense MLPs, "
                          + (shared > 0 ? "shared experts, " : "") + "routers and norms of every layer, the " + std::to_string(perToken)
                          + " routed experts a token uses per MoE layer, and the embedding table and LM head whole; "
                            "docs/cost-model.md, \"Active parameters\").");
    if (attentionLayers != L)
        m.notes.push_back("KV cache in " + std::to_string(attentionLayers) + " of " + std::to_string(L)
                          + " layers (model.attention_layers); the others keep " + formatDigits(s.stateBytesPerSequence / 1048576.0, 1)
                          + " MiB of state per sequence (model.state_bytes_per_sequence), read every decode step.");
    {
        // What was read, always first after an unknown-architecture line: the user sees the import's basis.
        std::string summary = "Read " + (type.empty() ? std::string("the config") : type) + ": " + std::to_string(L) + " layers, hidden "
                              + std::to_string(d) + ", " + std::to_string(H) + " query heads";
        if (!mla)
            summary += " and " + std::to_string(Hkv) + " KV heads of " + std::to_string(headDim);
        summary += ", vocabulary " + std::to_string(V) + ", " + (tied ? "tied" : "untied") + " embeddings; "
                   + (quant.read ? std::string(dtypeName(s.weightDtype)) + " weights from quantization_config"
                                 : std::string("bf16 weights") + (quant.present ? "" : " (no quantization_config)"))
                   + ", " + std::string(dtypeName(s.kvDtype)) + " KV.";
        m.notes.insert(m.notes.begin(), summary);
    }
    if (!knownFamily) {
        if (experts > 0 && moeLayers > 0)
            readAs.push_back("MoE with " + std::to_string(experts) + " routed experts of width " + number(expertWidth) + " in "
                             + placement);
        else
            readAs.push_back(std::string(reluSquared ? "a non-gated" : "a gated (SwiGLU)") + " MLP of width " + std::to_string(denseWidth));
        readAs.push_back(std::to_string(nemotronH ? 1 : 2) + " norms per layer");
        m.notes.insert(m.notes.begin(), std::string(type.empty() ? "No \"model_type\"" : "model_type \"" + type + "\" is not one Ridgeline knows")
                                            + ": read as a decoder with " + joined(readAs)
                                            + "; other modules the architecture may have are not counted: check the totals against the publisher's.");
    }
    if (f.has("max_position_embeddings")) {
        s.maxPositionEmbeddings = f.countOr("max_position_embeddings", 0, 1);
        if (!f.error().empty())
            return f.error();
        m.notes.push_back("Trained context: max_position_embeddings = " + std::to_string(s.maxPositionEmbeddings)
                          + " tokens (model.max_position_embeddings); a longer context is flagged in the report.");
    }
    if (f.countOr("num_nextn_predict_layers", 0) > 0 || f.countOr("mtp_num_hidden_layers", 0) > 0)
        m.notes.push_back("Multi-token-prediction layers (num_nextn_predict_layers, mtp_num_hidden_layers) are not counted.");
    if (f.has("torch_dtype") && f.string("torch_dtype") != "bfloat16" && !quant.read)
        m.notes.push_back("The config's torch_dtype is " + Fields::printable(f.string("torch_dtype")) + "; Ridgeline starts the import at bf16 weights and KV.");
    if (!f.error().empty())
        return f.error();
    out = std::move(m);
    return {};
}

} // namespace ridgeline::model
