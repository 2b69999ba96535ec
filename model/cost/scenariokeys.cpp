// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/scenariokeys.h"

#include "model/cost/costmodel.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include "model/cost/jsoninput.h"
#include "model/cost/messagetext.h"

namespace ridgeline::model {

namespace {

using Setter = std::function<std::string(Scenario&, std::string_view)>;
using Getter = std::function<std::string(const Scenario&)>;

struct Entry {
    KeyInfo info;
    Getter get;
    Setter set;
};

std::string quoted(std::string_view v) { return "\"" + std::string(v) + "\""; }

std::string trim(std::string_view v)
{
    size_t b = 0, e = v.size();
    while (b < e && std::isspace(static_cast<unsigned char>(v[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(v[e - 1])))
        --e;
    return std::string(v.substr(b, e - b));
}

/** Parses a finite double; message naming the key on failure. */
std::string parseNumber(std::string_view key, std::string_view text, double& out)
{
    const std::string t = trim(text);
    if (t.empty())
        return std::string(key) + " = \"\": expected a number";
    const char* first = t.data();
    const char* last = t.data() + t.size();
    if (*first == '+')
        ++first;
    auto [ptr, ec] = std::from_chars(first, last, out);
    if (ec != std::errc() || ptr != last)
        return std::string(key) + " = " + quoted(t) + ": expected a number (e.g. 8.03e9)";
    if (!std::isfinite(out))
        return std::string(key) + " = " + t + ": must be a finite number";
    return {};
}

std::string parseInteger(std::string_view key, std::string_view text, int& out)
{
    double v = 0;
    if (std::string err = parseNumber(key, text, v); !err.empty())
        return err;
    if (v != std::floor(v))
        return std::string(key) + " = " + trim(text) + ": expected a whole number";
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
        // Past what the key can hold at all; the scenario's checks name the field's own range for values it can
        // hold. Not "from -2,147,483,648 to ...": that read as if negatives were allowed (adversarial trial, stop 31).
        return std::string(key) + " = " + trim(text)
               + (v > 0 ? ": too large for a whole-number key (at most 2,147,483,647)"
                        : ": too far below zero for a whole-number key");
    out = static_cast<int>(v);
    return {};
}

Entry number(std::string_view key, std::string_view unit, std::string_view help,
             std::function<double&(Scenario&)> field)
{
    return Entry{{key, KeyKind::Number, unit, help},
                 [field](const Scenario& s) { return formatNumber(field(const_cast<Scenario&>(s))); },
                 [field, key](Scenario& s, std::string_view text) {
                     double v = 0;
                     std::string err = parseNumber(key, text, v);
                     if (err.empty())
                         field(s) = v;
                     return err;
                 }};
}

Entry integer(std::string_view key, std::string_view unit, std::string_view help,
              std::function<int&(Scenario&)> field)
{
    return Entry{{key, KeyKind::Integer, unit, help},
                 [field](const Scenario& s) { return std::to_string(field(const_cast<Scenario&>(s))); },
                 [field, key](Scenario& s, std::string_view text) {
                     int v = 0;
                     std::string err = parseInteger(key, text, v);
                     if (err.empty())
                         field(s) = v;
                     return err;
                 }};
}

/** A true / false key (KeyKind::Choice), read case-insensitively; anything else is an error naming key and value. */
Entry boolean(std::string_view key, std::string_view help, std::function<bool&(Scenario&)> field)
{
    return Entry{{key, KeyKind::Choice, "", help},
                 [field](const Scenario& s) { return std::string(field(const_cast<Scenario&>(s)) ? "true" : "false"); },
                 [field, key](Scenario& s, std::string_view text) -> std::string {
                     std::string t = trim(text);
                     std::transform(t.begin(), t.end(), t.begin(),
                                    [](unsigned char c) { return char(std::tolower(c)); });
                     if (t == "true")
                         field(s) = true;
                     else if (t == "false")
                         field(s) = false;
                     else
                         return std::string(key) + " = " + quoted(t) + ": expected true or false";
                     return {};
                 }};
}

Entry dtype(std::string_view key, std::string_view help, std::function<DType&(Scenario&)> field)
{
    return Entry{{key, KeyKind::DType, "", help},
                 [field](const Scenario& s) { return std::string(dtypeName(field(const_cast<Scenario&>(s)))); },
                 [field, key](Scenario& s, std::string_view text) -> std::string {
                     const std::string t = trim(text);
                     if (auto d = parseDType(t)) {
                         field(s) = *d;
                         return {};
                     }
                     return std::string(key) + " = " + quoted(t) + ": expected one of bf16, fp16, fp8, int8, int4, nvfp4, mxfp4, q8_0, q4_0";
                 }};
}

Entry text(std::string_view key, std::string_view help, std::function<std::string&(Scenario&)> field)
{
    return Entry{{key, KeyKind::Text, "", help},
                 [field](const Scenario& s) { return field(const_cast<Scenario&>(s)); },
                 [field, key](Scenario& s, std::string_view t) {
                     // One line of printable text: a name shows in titles, reports and CSV headers.
                     if (const size_t at = findControlCharacter(t); at != std::string::npos) {
                         const auto c = static_cast<unsigned char>(t[at]);
                         char code[12];
                         if (c == 0xc2) // a C1 control, U+0080-U+009F
                             std::snprintf(code, sizeof code, "U+%04X", unsigned(static_cast<unsigned char>(t[at + 1])));
                         else
                             std::snprintf(code, sizeof code, "0x%02X", unsigned(c));
                         return std::string(key) + ": contains a control character (" + code + "); expected one line of text";
                     }
                     if (t.size() > kMaxTextBytes)
                         return std::string(key) + ": " + std::to_string(t.size()) + " bytes long; expected at most "
                                + std::to_string(kMaxTextBytes);
                     field(s) = std::string(t);
                     return std::string();
                 }};
}

const std::vector<Entry>& entries()
{
    static const std::vector<Entry> table = [] {
        std::vector<Entry> t;
        t.push_back(text("model.name", "display name of the model", [](Scenario& s) -> std::string& { return s.model.name; }));
        t.push_back(number("model.params", "parameters", "N, total parameters",
                           [](Scenario& s) -> double& { return s.model.params; }));
        // Optional keys: "" or "default" unsets them.
        t.push_back(Entry{{"model.active_params", KeyKind::Number, "parameters",
                           "N_active, parameters used per token (default: model.params)"},
                          [](const Scenario& s) { return s.model.activeParams ? formatNumber(*s.model.activeParams) : std::string(); },
                          [](Scenario& s, std::string_view v) -> std::string {
                              const std::string t = trim(v);
                              if (t.empty() || t == "default") {
                                  s.model.activeParams.reset();
                                  return {};
                              }
                              double d = 0;
                              std::string err = parseNumber("model.active_params", t, d);
                              if (err.empty())
                                  s.model.activeParams = d;
                              return err;
                          }});
        t.push_back(integer("model.layers", "layers", "L, transformer layers", [](Scenario& s) -> int& { return s.model.layers; }));
        t.push_back(integer("model.hidden", "", "d, hidden size (d_model)", [](Scenario& s) -> int& { return s.model.hidden; }));
        t.push_back(integer("model.heads", "heads", "H, query heads", [](Scenario& s) -> int& { return s.model.heads; }));
        t.push_back(integer("model.kv_heads", "heads", "H_kv, key/value heads (GQA)", [](Scenario& s) -> int& { return s.model.kvHeads; }));
        t.push_back(Entry{{"model.head_dim", KeyKind::Integer, "", "h, head dim (default: hidden / heads)"},
                          [](const Scenario& s) { return s.model.headDim ? std::to_string(*s.model.headDim) : std::string(); },
                          [](Scenario& s, std::string_view v) -> std::string {
                              const std::string t = trim(v);
                              if (t.empty() || t == "default") {
                                  s.model.headDim.reset();
                                  return {};
                              }
                              int h = 0;
                              std::string err = parseInteger("model.head_dim", t, h);
                              if (err.empty())
                                  s.model.headDim = h;
                              return err;
                          }});
        t.push_back(integer("model.vocab", "tokens", "V, vocabulary size", [](Scenario& s) -> int& { return s.model.vocab; }));
        t.push_back(dtype("model.weight_dtype", "weight precision", [](Scenario& s) -> DType& { return s.model.weightDtype; }));
        t.push_back(dtype("model.kv_dtype", "KV-cache precision", [](Scenario& s) -> DType& { return s.model.kvDtype; }));
        t.push_back(integer("model.experts", "experts", "MoE: routed experts per layer, E (0: dense)",
                            [](Scenario& s) -> int& { return s.model.experts; }));
        t.push_back(integer("model.experts_per_token", "experts", "MoE: routed experts per token, k",
                            [](Scenario& s) -> int& { return s.model.expertsPerToken; }));
        t.push_back(number("model.expert_params", "parameters", "MoE: parameters of one routed expert over all MoE layers",
                           [](Scenario& s) -> double& { return s.model.expertParams; }));
        t.push_back(integer("model.kv_lora_rank", "", "MLA: cached latent width r (0: standard K/V cache)",
                            [](Scenario& s) -> int& { return s.model.kvLoraRank; }));
        t.push_back(integer("model.rope_head_dim", "", "MLA: decoupled RoPE key width d_r cached beside the latent",
                            [](Scenario& s) -> int& { return s.model.ropeHeadDim; }));
        t.push_back(integer("model.sliding_window", "tokens", "sliding-window size (0: every layer global)",
                            [](Scenario& s) -> int& { return s.model.slidingWindow; }));
        t.push_back(integer("model.sliding_layers", "layers", "how many layers use the sliding window",
                            [](Scenario& s) -> int& { return s.model.slidingLayers; }));
        t.push_back(Entry{{"model.attention", KeyKind::Choice, "", "prefill attention FLOP: full (P x P, the seeds') or causal (half)"},
                          [](const Scenario& s) {
                              return std::string(s.model.attention == AttentionFlops::Causal ? "causal" : "full");
                          },
                          [](Scenario& s, std::string_view v) -> std::string {
                              std::string t = trim(v);
                              std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
                              if (t == "full")
                                  s.model.attention = AttentionFlops::Full;
                              else if (t == "causal")
                                  s.model.attention = AttentionFlops::Causal;
                              else
                                  return "model.attention = " + quoted(t) + ": expected full or causal";
                              return {};
                          }});
        t.push_back(boolean("model.tied_embeddings", "true when the input embedding table is also the LM head",
                            [](Scenario& s) -> bool& { return s.model.tiedEmbeddings; }));
        t.push_back(Entry{{"model.embedding_read", KeyKind::Choice, "",
                           "decode reads the input embedding table's rows for its B tokens (rows, default) or the whole table "
                           "(table: the N * b_w convention)"},
                          [](const Scenario& s) {
                              return std::string(s.model.embeddingRead == EmbeddingRead::Table ? "table" : "rows");
                          },
                          [](Scenario& s, std::string_view v) -> std::string {
                              std::string t = trim(v);
                              std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
                              if (t == "rows")
                                  s.model.embeddingRead = EmbeddingRead::Rows;
                              else if (t == "table")
                                  s.model.embeddingRead = EmbeddingRead::Table;
                              else
                                  return "model.embedding_read = " + quoted(t) + ": expected rows or table";
                              return {};
                          }});
        t.push_back(number("model.unquantized_params", "parameters",
                           "parameters held at 16 bits whatever the weight dtype (embeddings, LM head, norms, routers a "
                           "quantization config leaves out; 0: every weight at the weight dtype)",
                           [](Scenario& s) -> double& { return s.model.unquantizedParams; }));
        t.push_back(Entry{{"model.attention_layers", KeyKind::Integer, "layers",
                           "layers holding a KV cache (default: model.layers; fewer in linear-attention / state-space hybrids)"},
                          [](const Scenario& s) { return s.model.attentionLayers ? std::to_string(*s.model.attentionLayers) : std::string(); },
                          [](Scenario& s, std::string_view v) -> std::string {
                              const std::string t = trim(v);
                              if (t.empty() || t == "default") {
                                  s.model.attentionLayers.reset();
                                  return {};
                              }
                              int n = 0;
                              std::string err = parseInteger("model.attention_layers", t, n);
                              if (err.empty())
                                  s.model.attentionLayers = n;
                              return err;
                          }});
        t.push_back(number("model.state_bytes_per_sequence", "B",
                           "fixed-size recurrent state of linear-attention / state-space layers per sequence, read every decode step",
                           [](Scenario& s) -> double& { return s.model.stateBytesPerSequence; }));
        t.push_back(Entry{{"model.max_position_embeddings", KeyKind::Integer, "tokens",
                           "the context the model was trained for (config max_position_embeddings; absent or 0: not known); "
                           "a longer context is flagged in the report, not refused"},
                          [](const Scenario& s) {
                              return s.model.maxPositionEmbeddings > 0 ? std::to_string(s.model.maxPositionEmbeddings) : std::string();
                          },
                          [](Scenario& s, std::string_view v) -> std::string {
                              const std::string t = trim(v);
                              if (t.empty() || t == "default") {
                                  s.model.maxPositionEmbeddings = 0;
                                  return {};
                              }
                              int n = 0;
                              std::string err = parseInteger("model.max_position_embeddings", t, n);
                              if (err.empty())
                                  s.model.maxPositionEmbeddings = n;
                              return err;
                          }});
        t.push_back(text("hardware.name", "display name of the accelerator", [](Scenario& s) -> std::string& { return s.hardware.name; }));
        t.push_back(number("hardware.bandwidth", "B/s", "BW, peak HBM bandwidth",
                           [](Scenario& s) -> double& { return s.hardware.bandwidthBytesPerSecond; }));
        t.push_back(number("hardware.peak_flops", "FLOP/s", "dense bf16 peak FLOP/s: F_peak for bf16, fp16 and int4 weights, and for fp8 / int8 weights on a device "
                           "without that peak (else peak_flops_fp8 / peak_ops_int8 are F_peak)",
                           [](Scenario& s) -> double& { return s.hardware.peakFlopsPerSecond; }));
        t.push_back(number("hardware.memory_bytes", "B", "HBM capacity",
                           [](Scenario& s) -> double& { return s.hardware.memoryBytes; }));
        t.push_back(number("hardware.peak_flops_fp8", "FLOP/s", "dense fp8 peak (0: none; fp8 matmuls fall back to peak_flops)",
                           [](Scenario& s) -> double& { return s.hardware.peakFlopsFp8; }));
        t.push_back(number("hardware.peak_ops_int8", "OP/s", "dense int8 peak (0: none; int8 matmuls fall back to peak_flops)",
                           [](Scenario& s) -> double& { return s.hardware.peakOpsInt8; }));
        t.push_back(number("hardware.peak_flops_fp4", "FLOP/s", "dense fp4 peak (0: none; fp4 matmuls fall back to peak_flops)",
                           [](Scenario& s) -> double& { return s.hardware.peakFlopsFp4; }));
        t.push_back(integer("hardware.gpus", "GPUs", "T, GPUs in tensor parallelism",
                            [](Scenario& s) -> int& { return s.hardware.gpus; }));
        t.push_back(number("hardware.link_bandwidth", "B/s", "per-GPU one-direction link bandwidth for all-reduces",
                           [](Scenario& s) -> double& { return s.hardware.linkBandwidthBytesPerSecond; }));
        t.push_back(number("hardware.link_latency_s", "s", "latency of one all-reduce",
                           [](Scenario& s) -> double& { return s.hardware.linkLatencySeconds; }));
        t.push_back(integer("hardware.scale_up_domain", "GPUs",
                            "GPUs one scale-up domain (NVLink switch, Infinity Fabric node, TPU pod) joins at link_bandwidth; a "
                            "TP / EP group or pipeline wider than this runs at inter_node_bandwidth (0: unbounded; default 8)",
                            [](Scenario& s) -> int& { return s.hardware.scaleUpDomainGpus; }));
        t.push_back(number("hardware.inter_node_bandwidth", "B/s",
                           "per-GPU one-direction bandwidth between scale-up domains (default 50e9: a 400 Gb/s NIC per GPU, an example)",
                           [](Scenario& s) -> double& { return s.hardware.interNodeBandwidthBytesPerSecond; }));
        t.push_back(number("hardware.board_power_watts", "W", "board power (TDP) per device (0: unknown); informational",
                           [](Scenario& s) -> double& { return s.hardware.boardPowerWatts; }));
        t.push_back(integer("workload.batch", "sequences", "B, sequences decoding together", [](Scenario& s) -> int& { return s.workload.batch; }));
        t.push_back(integer("workload.context_tokens", "tokens", "S, tokens each sequence holds in the KV cache",
                            [](Scenario& s) -> int& { return s.workload.contextTokens; }));
        t.push_back(integer("workload.prompt_tokens", "tokens", "P, prompt length", [](Scenario& s) -> int& { return s.workload.promptTokens; }));
        t.push_back(integer("workload.output_tokens", "tokens", "O, output length", [](Scenario& s) -> int& { return s.workload.outputTokens; }));
        t.push_back(Entry{{"workload.itl_slo_ms", KeyKind::NumberList, "ms", "ITL SLO lines, comma list"},
                          [](const Scenario& s) {
                              std::string out;
                              for (double v : s.workload.itlSloMs)
                                  out += (out.empty() ? "" : ",") + formatNumber(v);
                              return out;
                          },
                          [](Scenario& s, std::string_view v) -> std::string {
                              std::vector<double> list;
                              std::string rest = trim(v);
                              if (rest.empty()) {
                                  s.workload.itlSloMs.clear();
                                  return {};
                              }
                              size_t start = 0;
                              while (start <= rest.size()) {
                                  size_t comma = rest.find(',', start);
                                  std::string item = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
                                  double d = 0;
                                  if (std::string err = parseNumber("workload.itl_slo_ms", item, d); !err.empty())
                                      return err;
                                  list.push_back(d);
                                  if (list.size() > size_t(kMaxItlSloLines))
                                      return "workload.itl_slo_ms: more than " + std::to_string(kMaxItlSloLines)
                                             + " values; at most " + std::to_string(kMaxItlSloLines) + " ITL SLO lines";
                                  if (comma == std::string::npos)
                                      break;
                                  start = comma + 1;
                              }
                              s.workload.itlSloMs = std::move(list);
                              return {};
                          }});
        t.push_back(number("workload.ttft_slo_ms", "ms", "TTFT SLO", [](Scenario& s) -> double& { return s.workload.ttftSloMs; }));
        t.push_back(number("workload.queue_wait_ms", "ms", "queue wait before prefill (part of TTFT)",
                           [](Scenario& s) -> double& { return s.workload.queueWaitMs; }));
        // Length distributions of the serving prediction (--predict, the benchmark calibration): docs/cost-model.md.
        for (const bool input : {true, false}) {
            const std::string_view distributionKey = input ? "workload.input_length_distribution" : "workload.output_length_distribution";
            auto shape = [input](Scenario& s) -> LengthShape& { return input ? s.workload.inputLengthShape : s.workload.outputLengthShape; };
            t.push_back(Entry{{distributionKey, KeyKind::Choice, "",
                               input ? "prompt lengths of --predict's requests around the point's mean ISL: fixed, uniform, normal or lognormal"
                                     : "output lengths of --predict's requests around the point's mean OSL: fixed, uniform, normal or lognormal"},
                              [shape](const Scenario& s) {
                                  switch (shape(const_cast<Scenario&>(s))) {
                                  case LengthShape::Uniform: return std::string("uniform");
                                  case LengthShape::Normal: return std::string("normal");
                                  case LengthShape::LogNormal: return std::string("lognormal");
                                  case LengthShape::Fixed: break;
                                  }
                                  return std::string("fixed");
                              },
                              [shape, distributionKey](Scenario& s, std::string_view v) -> std::string {
                                  std::string t = trim(v);
                                  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
                                  if (t == "fixed")
                                      shape(s) = LengthShape::Fixed;
                                  else if (t == "uniform")
                                      shape(s) = LengthShape::Uniform;
                                  else if (t == "normal")
                                      shape(s) = LengthShape::Normal;
                                  else if (t == "lognormal")
                                      shape(s) = LengthShape::LogNormal;
                                  else
                                      return std::string(distributionKey) + " = " + quoted(t) + ": expected fixed, uniform, normal or lognormal";
                                  return {};
                              }});
            t.push_back(number(input ? "workload.input_length_sd" : "workload.output_length_sd", "tokens",
                               input ? "standard deviation of the prompt lengths (input_length_distribution; 0: all at the mean)"
                                     : "standard deviation of the output lengths (output_length_distribution; 0: all at the mean)",
                               [input](Scenario& s) -> double& { return input ? s.workload.inputLengthSd : s.workload.outputLengthSd; }));
            t.push_back(integer(input ? "workload.input_length_max" : "workload.output_length_max", "tokens",
                                input ? "longest prompt a drawn length is clipped to (0: no clip)"
                                      : "longest output a drawn length is clipped to (0: no clip)",
                                [input](Scenario& s) -> int& { return input ? s.workload.inputLengthMax : s.workload.outputLengthMax; }));
        }
        t.push_back(number("serving.memory_utilization", "fraction", "fraction of HBM the server may use (default 0.90)",
                           [](Scenario& s) -> double& { return s.serving.memoryUtilization; }));
        t.push_back(number("serving.activation_reserve_bytes", "B", "HBM kept back for activations, per GPU",
                           [](Scenario& s) -> double& { return s.serving.activationReserveBytes; }));
        t.push_back(integer("serving.max_context_tokens", "tokens", "advertised max context (contiguous reservation size)",
                            [](Scenario& s) -> int& { return s.serving.maxContextTokens; }));
        t.push_back(integer("serving.block_tokens", "tokens", "paged-KV block size",
                            [](Scenario& s) -> int& { return s.serving.blockTokens; }));
        t.push_back(integer("serving.prefix_tokens", "tokens", "shared prompt prefix held by the prefix cache",
                            [](Scenario& s) -> int& { return s.serving.prefixTokens; }));
        t.push_back(integer("serving.max_num_tokens", "tokens",
                            "tokens per engine step in the serving prediction (max_num_tokens; 0: --token-budget, 8,192)",
                            [](Scenario& s) -> int& { return s.serving.maxNumTokens; }));
        t.push_back(integer("serving.max_prefills_per_step", "prompts",
                            "prompts one engine step may prefill in the serving prediction (0: no limit)",
                            [](Scenario& s) -> int& { return s.serving.maxPrefillsPerStep; }));
        t.push_back(boolean("serving.dynamic_batch_tuning",
                            "true: TensorRT-LLM's dynamic batch tuner sets each step's token budget and batch size "
                            "from the moving mean prompt and output lengths (serving prediction, trtllm scheduler; "
                            "default false)",
                            [](Scenario& s) -> bool& { return s.serving.dynamicBatchTuning; }));
        t.push_back(Entry{{"serving.api_output_us_per_token", KeyKind::Number, "us",
                           "the API server's work per streamed token, one FIFO shared with request acceptance, before the client sees "
                           "it (serving prediction; 0: none)"},
                          [](const Scenario& s) { return formatNumber(s.serving.apiOutputSeconds * 1e6); },
                          [](Scenario& s, std::string_view text) {
                              double v = 0;
                              std::string err = parseNumber("serving.api_output_us_per_token", text, v);
                              if (err.empty())
                                  s.serving.apiOutputSeconds = v / 1e6;
                              return err;
                          }});
        t.push_back(Entry{{"serving.scheduler", KeyKind::Choice, "",
                           "the engine's scheduler in the serving prediction: v1, v0, v0-prompt-first or trtllm (\"\": --scheduler's)"},
                          [](const Scenario& s) { return s.serving.scheduler ? std::string(schedulerName(*s.serving.scheduler)) : std::string(); },
                          [](Scenario& s, std::string_view v) -> std::string {
                              std::string t = trim(v);
                              std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
                              if (t.empty()) {
                                  s.serving.scheduler.reset();
                                  return {};
                              }
                              const std::optional<SchedulerVersion> parsed = parseSchedulerName(t);
                              if (!parsed)
                                  return "serving.scheduler = " + quoted(t) + ": expected v1, v0, v0-prompt-first, trtllm or \"\" (--scheduler's)";
                              s.serving.scheduler = parsed;
                              return {};
                          }});
        t.push_back(number("serving.prefix_hit_rate", "fraction", "fraction of requests that find the prefix cached",
                           [](Scenario& s) -> double& { return s.serving.prefixHitRate; }));
        t.push_back(number("speculative.acceptance", "fraction", "alpha, acceptance rate of drafted tokens",
                           [](Scenario& s) -> double& { return s.speculative.acceptance; }));
        t.push_back(integer("speculative.draft_tokens", "tokens", "k, tokens drafted per step",
                            [](Scenario& s) -> int& { return s.speculative.draftTokens; }));
        t.push_back(number("speculative.draft_cost", "fraction", "c_d, draft cost per token, fraction of a target step",
                           [](Scenario& s) -> double& { return s.speculative.draftCost; }));
        t.push_back(number("speculative.verify_cost", "fraction", "c_v, marginal verification cost per drafted position",
                           [](Scenario& s) -> double& { return s.speculative.verifyCost; }));
        t.push_back(number("efficiency.bandwidth", "fraction", "eta_bw, achieved / peak bandwidth",
                           [](Scenario& s) -> double& { return s.efficiency.bandwidth; }));
        t.push_back(number("efficiency.mfu_prefill", "fraction", "MFU during prefill",
                           [](Scenario& s) -> double& { return s.efficiency.mfuPrefill; }));
        t.push_back(number("efficiency.mfu_decode", "fraction", "MFU during decode",
                           [](Scenario& s) -> double& { return s.efficiency.mfuDecode; }));
        auto milliseconds = [](std::string_view key, std::string_view help, double Efficiency::*field) {
            return Entry{{key, KeyKind::Number, "ms", help},
                         [field](const Scenario& s) { return formatNumber(s.efficiency.*field * 1e3); },
                         [field, key](Scenario& s, std::string_view text) {
                             double v = 0;
                             std::string err = parseNumber(key, text, v);
                             if (err.empty())
                                 s.efficiency.*field = v / 1e3;
                             return err;
                         }};
        };
        t.push_back(milliseconds("efficiency.step_overhead_ms", "fixed time added to every decode step (calibration)",
                                 &Efficiency::stepOverheadSeconds));
        t.push_back(milliseconds("efficiency.prefill_overhead_ms", "fixed time added to every prefill (calibration)",
                                 &Efficiency::prefillOverheadSeconds));
        t.push_back(milliseconds("efficiency.chunk_overhead_ms", "time added per prefill chunk in a serving step (simulator, calibration)",
                                 &Efficiency::chunkOverheadSeconds));
        t.push_back(Entry{{"efficiency.per_sequence_overhead_us", KeyKind::Number, "us",
                           "time added per decoding sequence per step (sampling, scheduling; calibration)"},
                          [](const Scenario& s) { return formatNumber(s.efficiency.perSequenceOverheadSeconds * 1e6); },
                          [](Scenario& s, std::string_view text) {
                              double v = 0;
                              std::string err = parseNumber("efficiency.per_sequence_overhead_us", text, v);
                              if (err.empty())
                                  s.efficiency.perSequenceOverheadSeconds = v / 1e6;
                              return err;
                          }});
        t.push_back(milliseconds("efficiency.ttft_overhead_ms",
                                 "time added to each request's first token outside the engine (HTTP, tokenization; serving prediction, calibration)",
                                 &Efficiency::ttftOverheadSeconds));
        t.push_back(milliseconds("efficiency.frontend_serial_ms",
                                 "time each request holds the server's front end by itself (one at a time: HTTP, tokenization) before "
                                 "the engine sees it; requests sent together queue for it (serving prediction, calibration; 0: none)",
                                 &Efficiency::frontendSerialSeconds));
        t.push_back(milliseconds("efficiency.first_token_return_ms",
                                 "time from the engine emitting a request's first token to the client seeing it (detokenising and "
                                 "streaming it back; later tokens follow in order; serving prediction, calibration; 0: none)",
                                 &Efficiency::firstTokenReturnSeconds));
        t.push_back(number("efficiency.kv_bandwidth", "fraction", "eta_kv, achieved / peak bandwidth of the KV-cache read (0: eta_bw)",
                           [](Scenario& s) -> double& { return s.efficiency.kvBandwidth; }));
        t.push_back(number("efficiency.kv_bandwidth_one_sequence", "fraction",
                           "eta_kv1, achieved / peak bandwidth of one decoding sequence's KV read by itself; a step's KV read takes at "
                           "least the longest sequence's at this rate (0: no such limit)",
                           [](Scenario& s) -> double& { return s.efficiency.kvBandwidthOneSequence; }));
        t.push_back(number("efficiency.mfu_prefill_attention", "fraction",
                           "MFU of prefill attention (Q K^T, scores x V) apart from the prefill GEMMs (0: efficiency.mfu_prefill)",
                           [](Scenario& s) -> double& { return s.efficiency.mfuPrefillAttention; }));
        // Economics at the operating point (docs/cost-model.md section 5, "Economics"); issue 14.
        t.push_back(number("economics.price_per_gpu_hour", "per GPU-hour",
                           "price of one GPU-hour in economics.currency (0: the example price of the catalogue device "
                           "named hardware.name, USD only, labelled example)",
                           [](Scenario& s) -> double& { return s.economics.pricePerGpuHour; }));
        t.push_back(number("economics.pue", "",
                           "power usage effectiveness, facility / IT power, >= 1 (default 1.2, an assumption)",
                           [](Scenario& s) -> double& { return s.economics.pue; }));
        t.push_back(text("economics.currency", "label of the prices (default USD; the example prices are USD and apply only then)",
                         [](Scenario& s) -> std::string& { return s.economics.currency; }));
        return t;
    }();
    return table;
}

const Entry* find(std::string_view key)
{
    for (const Entry& e : entries())
        if (e.info.key == key)
            return &e;
    return nullptr;
}

} // namespace

const std::vector<KeyInfo>& scenarioKeys()
{
    static const std::vector<KeyInfo> keys = [] {
        std::vector<KeyInfo> k;
        for (const Entry& e : entries())
            k.push_back(e.info);
        return k;
    }();
    return keys;
}

std::string formatNumber(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    if (value == std::floor(value) && std::abs(value) < 1e9) // 1000000, not 1e+06
        return value == 0 ? std::string("0") : std::to_string(static_cast<long long>(value));
    char buf[64];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, value);
    if (ec != std::errc())
        return "?";
    std::string t(buf, ptr);
    if (const size_t e = t.find('e'); e != std::string::npos) { // 1e+12 -> 1e12, 1e-06 -> 1e-6: as usually written
        std::string exponent = t.substr(e + 1);
        const bool negative = exponent[0] == '-';
        if (exponent[0] == '+' || exponent[0] == '-')
            exponent.erase(0, 1);
        exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
        t = t.substr(0, e) + "e" + (negative ? "-" : "") + exponent;
    }
    return t;
}

std::string_view matmulPeakKey(const Hardware& hardware, DType weights)
{
    switch (matmulPeakDtype(hardware, weights)) {
    case DType::FP8: return "hardware.peak_flops_fp8";
    case DType::INT8: return "hardware.peak_ops_int8";
    case DType::NVFP4:
    case DType::MXFP4: return "hardware.peak_flops_fp4";
    default: return "hardware.peak_flops";
    }
}

std::string setKey(Scenario& scenario, std::string_view key, std::string_view value)
{
    const Entry* e = find(key);
    if (!e)
        return "unknown key \"" + std::string(key) + "\" (see ridgeline --help for the list)";
    return e->set(scenario, value);
}

std::string oneLineText(std::string_view text)
{
    std::string out(text.substr(0, kMaxTextBytes));
    if (out.size() < text.size()) // cut at a UTF-8 character boundary
        while (!out.empty() && (static_cast<unsigned char>(text[out.size()]) & 0xC0) == 0x80)
            out.pop_back();
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = ' ';
    return out;
}

std::string getKey(const Scenario& scenario, std::string_view key)
{
    const Entry* e = find(key);
    return e ? e->get(scenario) : std::string();
}

namespace {

/** The scenario key groups ("model, hardware, ...") in file order, for messages. */
std::string groupList()
{
    std::vector<std::string_view> groups;
    for (const KeyInfo& info : scenarioKeys()) {
        const std::string_view group = info.key.substr(0, info.key.find('.'));
        if (std::find(groups.begin(), groups.end(), group) == groups.end())
            groups.push_back(group);
    }
    std::string out;
    for (const std::string_view group : groups)
        out += (out.empty() ? "" : ", ") + std::string(group);
    return out;
}

} // namespace

std::string applyJson(Scenario& scenario, const QJsonObject& object)
{
    Scenario work = scenario;
    for (auto group = object.begin(); group != object.end(); ++group) {
        const std::string groupName = group.key().toStdString();
        if (groupName == "format_version") {
            if (!group->isDouble())
                return "format_version: expected a number";
            const double v = group->toDouble();
            if (v != std::floor(v) || v < 1)
                return "format_version = " + formatNumber(v) + ": expected a whole number >= 1";
            if (v > kScenarioFormatVersion)
                return "format_version = " + formatNumber(v) + ": this file is from a newer Ridgeline (this one reads up to "
                       + std::to_string(kScenarioFormatVersion) + ")";
            continue;
        }
        if (groupName == "title" || groupName == "note") { // informational text
            if (!group->isString())
                return "\"" + groupName + "\": expected a string";
            continue;
        }
        if (!group->isObject())
            return "\"" + groupName + "\": expected an object such as {\"" + groupName + "\": {...}}";
        const QJsonObject fields = group->toObject();
        // A misspelt group is refused even when empty ({"hardwre": {}}): its keys would otherwise
        // be the user's intent silently dropped.
        const bool knownGroup = std::any_of(scenarioKeys().begin(), scenarioKeys().end(), [&](const KeyInfo& info) {
            return info.key.size() > groupName.size() && info.key.substr(0, groupName.size()) == groupName
                && info.key[groupName.size()] == '.';
        });
        if (!knownGroup)
            return "unknown group \"" + groupName + "\" (groups: " + groupList() + ")";
        for (auto it = fields.begin(); it != fields.end(); ++it) {
            const std::string key = groupName + "." + it.key().toStdString();
            const Entry* e = find(key);
            if (!e)
                return "unknown key \"" + key + "\"";
            std::string textValue;
            const QJsonValue v = it.value();
            switch (e->info.kind) {
            case KeyKind::Number:
            case KeyKind::Integer:
                if (v.isNull() && (key == "model.active_params" || key == "model.head_dim"))
                    textValue = "";
                else if (!v.isDouble())
                    return key + ": expected a number, got " + jsonValueText(v);
                else
                    textValue = formatNumber(v.toDouble());
                break;
            case KeyKind::DType:
            case KeyKind::Text:
            case KeyKind::Choice:
                if (!v.isString())
                    return key + ": expected a string";
                textValue = v.toString().toStdString();
                break;
            case KeyKind::NumberList: {
                if (v.isDouble()) {
                    textValue = formatNumber(v.toDouble());
                    break;
                }
                if (!v.isArray())
                    return key + ": expected a list of numbers such as [20, 40, 100]";
                if (e->info.key == std::string_view("workload.itl_slo_ms") && v.toArray().size() > kMaxItlSloLines)
                    return key + ": " + std::to_string(v.toArray().size()) + " values; at most " + std::to_string(kMaxItlSloLines)
                           + " ITL SLO lines";
                for (const QJsonValue& item : v.toArray()) {
                    if (!item.isDouble())
                        return key + ": expected a list of numbers such as [20, 40, 100]";
                    textValue += (textValue.empty() ? "" : ",") + formatNumber(item.toDouble());
                }
                break;
            }
            }
            if (std::string err = e->set(work, textValue); !err.empty())
                return err;
        }
    }
    scenario = std::move(work);
    return {};
}

std::string applyJsonText(Scenario& scenario, const QByteArray& json)
{
    QJsonDocument doc;
    if (std::string e = parseJsonInput(json, doc); !e.empty())
        return e;
    if (!doc.isObject())
        return "expected a JSON object at the top level";
    return applyJson(scenario, doc.object());
}

QJsonObject toJson(const Scenario& scenario)
{
    QJsonObject root;
    root.insert(QStringLiteral("format_version"), kScenarioFormatVersion);
    for (const Entry& e : entries()) {
        const std::string key(e.info.key);
        const size_t dot = key.find('.');
        const QString group = QString::fromStdString(key.substr(0, dot));
        const QString name = QString::fromStdString(key.substr(dot + 1));
        const std::string value = e.get(scenario);
        QJsonObject g = root.value(group).toObject();
        switch (e.info.kind) {
        case KeyKind::Number:
        case KeyKind::Integer: {
            if (value.empty())
                continue; // an optional key never given stays absent
            double v = 0;
            std::from_chars(value.data(), value.data() + value.size(), v); // locale-independent
            g.insert(name, v);
            break;
        }
        case KeyKind::DType:
        case KeyKind::Text:
        case KeyKind::Choice:
            g.insert(name, QString::fromStdString(value));
            break;
        case KeyKind::NumberList: {
            QJsonArray list;
            for (double v : scenario.workload.itlSloMs)
                list.append(v);
            g.insert(name, list);
            break;
        }
        }
        root.insert(group, g);
    }
    return root;
}

} // namespace ridgeline::model
