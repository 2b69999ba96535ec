// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/planfile.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QStringList>

#include "model/files/hfconfig.h"
#include "model/files/inputfile.h"
#include "model/cost/economicsbounds.h"
#include "model/cost/jsoninput.h"
#include "model/cost/messagetext.h"
#include "model/cost/presets.h"
#include "model/cost/scenariokeys.h"

namespace ridgeline::model {

namespace {

std::string str(const QString& s) { return s.toStdString(); }

/** The value as JSON text for messages, cut short. */
std::string shown(const QJsonValue& v)
{
    QString text;
    if (v.isString())
        text = QLatin1Char('"') + v.toString() + QLatin1Char('"');
    else if (v.isDouble())
        text = QString::fromStdString(formatNumber(v.toDouble()));
    else if (v.isBool())
        text = v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    else if (v.isNull())
        text = QStringLiteral("null");
    else if (v.isArray())
        text = QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    else
        text = QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (text.size() > 80)
        text = text.left(77) + QStringLiteral("...");
    return str(text);
}

std::string checkKeys(const QJsonObject& o, const QString& where, const QStringList& known)
{
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!known.contains(it.key()))
            return "unknown key \"" + str(it.key()) + "\" in " + str(where) + " (known: " + str(known.join(QStringLiteral(", "))) + ")";
    return {};
}

/** A number in [lo, hi] at @p field; "" on success. */
std::string number(const QJsonValue& v, const std::string& field, double lo, double hi, double& out)
{
    if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() < lo || v.toDouble() > hi)
        return field + " = " + shown(v) + ": expected a number from " + formatNumber(lo) + " to " + formatNumber(hi);
    out = v.toDouble();
    return {};
}

std::string whole(const QJsonValue& v, const std::string& field, int lo, int hi, int& out)
{
    const double d = v.toDouble();
    if (!v.isDouble() || d != std::floor(d) || d < lo || d > hi)
        return field + " = " + shown(v) + ": expected "
               + (lo == hi ? std::to_string(lo) // format_version: not "from 1 to 1" (adversarial trial, stop 31)
                           : "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
    out = int(d);
    return {};
}

std::string wholeList(const QJsonValue& v, const std::string& field, int lo, int hi, std::vector<int>& out)
{
    if (!v.isArray() || v.toArray().isEmpty())
        return field + " = " + shown(v) + ": expected a non-empty list of whole numbers, e.g. [1, 2, 4, 8]";
    out.clear();
    int i = 0;
    for (const QJsonValue e : v.toArray()) {
        int n = 0;
        if (const std::string err = whole(e, field + "[" + std::to_string(i++) + "]", lo, hi, n); !err.empty())
            return err;
        out.push_back(n);
    }
    return {};
}

/**
 * Whether the plan reads scenario key @p key given in "set": the model, the efficiencies and the serving keys of the KV
 * budget and the simulator's blocks do; the rest of serving (prefix caching, the engine's token budget, the advertised
 * max context: the plan sizes the cache at P + O) and speculative decoding do not.
 */
bool planUsesSetKey(const std::string& key)
{
    if (key.rfind("serving.", 0) == 0)
        return key == "serving.memory_utilization" || key == "serving.activation_reserve_bytes" || key == "serving.block_tokens";
    return key.rfind("speculative.", 0) != 0;
}

/**
 * Whether scenario key @p key, which the plan reads (planUsesSetKey()), is read by the simulator check alone and not by
 * the analytic search: the per-request TTFT overhead, the first token's return path, the serial front end and the
 * per-chunk cost are terms of the simulator's serving step and request (docs/cost-model.md, "Serving-step costs"), and the cache's block size rounds
 * the simulator's blocks; the search sizes the cache in tokens. A trial (stop 30) found them listed as read while the
 * search's answer did not move.
 */
bool onlySimulatorCheckReads(const std::string& key)
{
    return key == "efficiency.ttft_overhead_ms" || key == "efficiency.frontend_serial_ms" || key == "efficiency.chunk_overhead_ms"
           || key == "efficiency.first_token_return_ms"
           || key == "serving.block_tokens";
}

/** The catalogue device of @p id, case and separators ignored when unambiguous (findHardwarePresetId()). */
const HardwarePreset* findDevice(const std::string& id)
{
    return findHardwarePresetId(id);
}

std::string deviceIds()
{
    std::string out;
    for (const HardwarePreset& p : hardwarePresets())
        out += (out.empty() ? "" : ", ") + p.id;
    return out;
}

std::string modelIds()
{
    std::string out;
    for (const ModelPreset& p : modelPresets())
        out += (out.empty() ? "" : ", ") + p.id;
    return out;
}

std::string parseModel(const QJsonValue& v, const QString& baseDir, PlanFile& out)
{
    Scenario& s = out.request.scenario;
    auto preset = [&](const QJsonValue& idValue, const std::string& field) -> std::string {
        if (!idValue.isString())
            return field + " = " + shown(idValue) + ": expected a model preset id (" + modelIds() + ")";
        for (const ModelPreset& p : modelPresets())
            if (p.id == str(idValue.toString())) {
                s.model = p.shape;
                out.modelSource = "preset " + p.id;
                return {};
            }
        return field + " = " + shown(idValue) + ": no such model preset (known: " + modelIds() + ")";
    };
    if (v.isString())
        return preset(v, "model");
    if (!v.isObject())
        return "model = " + shown(v) + ": expected a preset id, {\"preset\": id}, {\"config\": path} or model keys";
    QJsonObject o = v.toObject();
    if (o.contains(QStringLiteral("preset")) && o.contains(QStringLiteral("config")))
        return "model: give \"preset\" or \"config\", not both";
    if (o.contains(QStringLiteral("preset"))) {
        if (const std::string err = preset(o.value(QStringLiteral("preset")), "model.preset"); !err.empty())
            return err;
        o.remove(QStringLiteral("preset"));
    } else if (o.contains(QStringLiteral("config"))) {
        const QJsonValue c = o.value(QStringLiteral("config"));
        if (!c.isString() || c.toString().isEmpty())
            return "model.config = " + shown(c) + ": expected the path of a HuggingFace config.json";
        const QString path = QDir(baseDir).filePath(c.toString());
        QByteArray bytes;
        if (const std::string err = readInputFile(path, bytes); !err.empty())
            return "model.config = " + shown(c) + ": " + err;
        ImportedModel imported;
        if (const std::string err = importHfConfig(bytes, imported); !err.empty())
            return "model.config = " + shown(c) + ": " + err;
        const QFileInfo info(path);
        imported.shape.name = oneLineText(info.fileName() == QLatin1String("config.json") ? str(info.dir().dirName()) : str(info.completeBaseName()));
        s.model = imported.shape;
        out.modelSource = "config " + str(c.toString());
        for (const std::string& n : imported.notes)
            out.notes.push_back("model.config: " + n);
        o.remove(QStringLiteral("config"));
    } else {
        // Model keys alone, over the default model's: an empty object planned Llama 3.1 8B silently, and keys without a
        // name were labelled "Llama 3.1 8B (inline)" whatever they described (a trial, stop 30).
        if (o.isEmpty())
            return "model = {}: expected a preset id, {\"preset\": id}, {\"config\": path} or model keys (params, layers, hidden, "
                   "heads, kv_heads, ...)";
        out.modelSource = "inline";
        if (!o.contains(QStringLiteral("name")))
            s.model.name = "inline model";
    }
    if (o.contains(QStringLiteral("name")) && o.value(QStringLiteral("name")).toString().trimmed().isEmpty())
        return "model.name = " + shown(o.value(QStringLiteral("name"))) + ": expected a name (text that is not blank)";
    if (!o.isEmpty()) {
        if (const std::string err = applyJson(s, QJsonObject{{QStringLiteral("model"), o}}); !err.empty())
            return "model: " + err;
        if (out.modelSource != "inline")
            out.modelSource += " with overrides";
    }
    return {};
}

} // namespace

std::string parsePlanFile(const QByteArray& json, const QString& baseDir, PlanFile& out)
{
    QJsonDocument doc; // the shared reader: a duplicate key is refused, as in every other input (a trial found it taken silently)
    if (const std::string err = parseJsonInput(json, doc); !err.empty())
        return err;
    if (!doc.isObject())
        return "expected a JSON object ({\"model\": ..., \"load\": ...})";
    const QJsonObject root = doc.object();
    if (const std::string err = checkKeys(root, QStringLiteral("the plan file"),
                                          {QStringLiteral("format_version"), QStringLiteral("title"), QStringLiteral("model"),
                                           QStringLiteral("set"), QStringLiteral("load"), QStringLiteral("slo"),
                                           QStringLiteral("candidates"), QStringLiteral("prices"), QStringLiteral("use_example_prices"),
                                           QStringLiteral("currency"), QStringLiteral("power_watts"), QStringLiteral("pue"),
                                           QStringLiteral("simulate_top"), QStringLiteral("simulate_requests")});
        !err.empty())
        return err;
    out = PlanFile{};
    out.request.scenario = defaultScenario();
    if (root.contains(QStringLiteral("format_version"))) {
        int version = 0;
        if (const std::string err = whole(root.value(QStringLiteral("format_version")), "format_version", 1, kPlanFormatVersion, version);
            !err.empty())
            return err;
    }
    if (root.value(QStringLiteral("title")).isString()) // any other value is ignored, as it always was
        out.title = printableText(oneLineText(str(root.value(QStringLiteral("title")).toString())), 200);
    if (!root.contains(QStringLiteral("model")))
        return "missing \"model\" (a preset id such as \"llama-3.1-70b\", {\"config\": path} or model keys)";
    if (const std::string err = parseModel(root.value(QStringLiteral("model")), baseDir, out); !err.empty())
        return err;

    std::vector<std::string> setKeys; // the scenario keys "set" gave, to label validation errors with them
    std::vector<std::string> unusedSetKeys; // those the plan never reads: accepted, with a note (a trial: silently ignored)
    std::vector<std::string> simulatorOnlySetKeys; // read by the simulator check only, not by the analytic search: a note
    if (root.contains(QStringLiteral("set"))) {
        const QJsonValue v = root.value(QStringLiteral("set"));
        if (!v.isObject())
            return "set = " + shown(v) + ": expected an object of scenario keys, e.g. {\"efficiency.bandwidth\": 0.8}";
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const std::string key = str(it.key());
            if (key.rfind("hardware.", 0) == 0 || key.rfind("workload.", 0) == 0)
                return "set." + key + ": the plan takes hardware from \"candidates\" and the workload from \"load\" and \"slo\"";
            if (key.rfind("economics.", 0) == 0) // the scenario's economics would be ignored silently (a trial)
                return "set." + key + ": the plan takes prices, power and PUE from its own \"prices\", \"power_watts\", \"pue\" and "
                       "\"currency\" keys";
            // A number key takes a JSON number and a text key a JSON string, as scenario files do (readScenario()):
            // "batch": "64" was accepted here and refused there (adversarial trial, issue 14).
            const auto info = std::find_if(scenarioKeys().begin(), scenarioKeys().end(),
                                           [&](const KeyInfo& k) { return k.key == key; });
            const bool numberKey = info != scenarioKeys().end()
                                   && (info->kind == KeyKind::Number || info->kind == KeyKind::Integer || info->kind == KeyKind::NumberList);
            const bool textKey = info != scenarioKeys().end() && !numberKey;
            std::string value;
            if (it.value().isDouble() && !textKey)
                value = formatNumber(it.value().toDouble());
            else if (it.value().isString() && !numberKey)
                value = str(it.value().toString());
            else if (numberKey)
                return "set." + key + ": expected a number, got " + jsonValueText(it.value());
            else if (textKey)
                return "set." + key + ": expected a string, got " + jsonValueText(it.value());
            else
                return "set." + key + " = " + shown(it.value()) + ": expected a number or text";
            if (const std::string err = setKey(out.request.scenario, key, value); !err.empty())
                return "set." + key + ": " + err;
            setKeys.push_back(key);
            if (!planUsesSetKey(key))
                unusedSetKeys.push_back("set." + key);
            else if (onlySimulatorCheckReads(key))
                simulatorOnlySetKeys.push_back("set." + key);
        }
    }
    {
        // An error in a key "set" gave is labelled with it (it read "model:" whatever its key: a trial finding).
        const std::vector<ScenarioError> errors = validate(out.request.scenario);
        if (!errors.empty()) {
            const ScenarioError& e = errors.front();
            const bool fromSet = std::find(setKeys.begin(), setKeys.end(), e.key) != setKeys.end();
            return (fromSet ? "set." + e.key : std::string("model")) + ": " + e.message;
        }
    }

    if (!root.contains(QStringLiteral("load")))
        return "missing \"load\" ({\"requests_per_second\": 10, \"prompt_tokens\": 2048, \"output_tokens\": 256})";
    {
        const QJsonValue v = root.value(QStringLiteral("load"));
        if (!v.isObject())
            return "load = " + shown(v) + ": expected an object";
        const QJsonObject o = v.toObject();
        if (const std::string err = checkKeys(o, QStringLiteral("\"load\""),
                                              {QStringLiteral("requests_per_second"), QStringLiteral("prompt_tokens"), QStringLiteral("output_tokens")});
            !err.empty())
            return err;
        PlanLoad& l = out.request.load;
        for (const auto& [key, field, lo, hi] : {std::tuple{"requests_per_second", &l.requestsPerSecond, 1e-6, 1e7},
                                                 std::tuple{"prompt_tokens", &l.promptTokens, 1.0, 1e7},
                                                 std::tuple{"output_tokens", &l.outputTokens, 1.0, 1e7}}) {
            const QString k = QString::fromLatin1(key);
            if (!o.contains(k))
                return std::string("missing load.") + key;
            if (field == &l.requestsPerSecond) {
                if (const std::string err = number(o.value(k), std::string("load.") + key, lo, hi, *field); !err.empty())
                    return err;
            } else { // token counts are whole: a fractional one is refused, not rounded silently
                int tokens = 0;
                if (const std::string err = whole(o.value(k), std::string("load.") + key, int(lo), int(hi), tokens); !err.empty())
                    return err;
                *field = tokens;
            }
        }
    }
    // The model's trained context (model.max_position_embeddings, when known): a prompt longer than it cannot be served
    // as asked, so the plan refuses it; a prompt that fits with an output running past it is planned, with a note (issue
    // 14 trial: neither was flagged). The load's lengths are fixed, so every request is affected alike.
    if (std::string err = checkPlanContext(out.request, "load.prompt_tokens"); !err.empty())
        return err; // the Plan tab's live plan refuses it alike
    if (const int trained = out.request.scenario.model.maxPositionEmbeddings; trained > 0) {
        const PlanLoad& l = out.request.load;
        if (l.promptTokens + l.outputTokens > trained)
            out.notes.push_back("load: prompt + output = " + formatNumber(l.promptTokens + l.outputTokens) + " tokens run past the model's context of "
                                + std::to_string(trained) + " tokens (model.max_position_embeddings): every request's output would stop "
                                  "at the context, or a server refuse it; planned as asked");
    }
    if (root.contains(QStringLiteral("slo"))) {
        const QJsonValue v = root.value(QStringLiteral("slo"));
        if (!v.isObject())
            return "slo = " + shown(v) + ": expected an object";
        const QJsonObject o = v.toObject();
        if (const std::string err = checkKeys(o, QStringLiteral("\"slo\""), {QStringLiteral("ttft_ms"), QStringLiteral("itl_ms")}); !err.empty())
            return err;
        for (const auto& [key, field] : {std::pair{"ttft_ms", &out.request.slo.ttftMs}, std::pair{"itl_ms", &out.request.slo.itlMs}})
            if (o.contains(QString::fromLatin1(key)))
                if (const std::string err = number(o.value(QString::fromLatin1(key)), std::string("slo.") + key, 0.001, 1e7, *field); !err.empty())
                    return err;
    }

    PlanCandidates& c = out.request.candidates;
    std::vector<std::string> deviceList, duplicates;
    std::vector<int> repeatedGpuCounts;
    std::vector<std::string> repeatedLayouts;
    bool allDevices = true;
    if (root.contains(QStringLiteral("candidates"))) {
        const QJsonValue v = root.value(QStringLiteral("candidates"));
        if (!v.isObject())
            return "candidates = " + shown(v) + ": expected an object";
        const QJsonObject o = v.toObject();
        if (const std::string err = checkKeys(o, QStringLiteral("\"candidates\""),
                                              {QStringLiteral("devices"), QStringLiteral("gpu_counts"), QStringLiteral("layouts"),
                                               QStringLiteral("batch_caps"), QStringLiteral("disaggregation"), QStringLiteral("microbatches"),
                                               QStringLiteral("max_utilization")});
            !err.empty())
            return err;
        if (o.contains(QStringLiteral("devices"))) {
            const QJsonValue d = o.value(QStringLiteral("devices"));
            if (d.isString() && d.toString() == QLatin1String("all")) {
                allDevices = true;
            } else if (d.isArray() && !d.toArray().isEmpty()) {
                allDevices = false;
                int i = 0;
                for (const QJsonValue e : d.toArray()) {
                    const std::string field = "candidates.devices[" + std::to_string(i++) + "]";
                    if (!e.isString())
                        return field + " = " + shown(e) + ": no such device in the catalogue (ridgeline --list-hardware; known: " + deviceIds() + ")";
                    const HardwarePreset* found = findDevice(str(e.toString()));
                    if (!found)
                        return field + " = " + shown(e) + ": no such device in the catalogue; " + nearestHardwareText(str(e.toString()));
                    const std::string id = found->id; // "H100_SXM" is "h100-sxm"
                    if (std::find(deviceList.begin(), deviceList.end(), id) != deviceList.end()) {
                        if (std::find(duplicates.begin(), duplicates.end(), id) == duplicates.end())
                            duplicates.push_back(id); // searched once: twice would double its results
                        continue;
                    }
                    deviceList.push_back(id);
                }
            } else {
                return "candidates.devices = " + shown(d) + ": expected \"all\" or a list of catalogue ids";
            }
        }
        if (o.contains(QStringLiteral("gpu_counts"))) {
            if (const std::string err = wholeList(o.value(QStringLiteral("gpu_counts")), "candidates.gpu_counts", 1, 64, c.gpuCounts); !err.empty())
                return err;
            // A count listed twice is searched once: twice evaluated every point again (a trial: [2, 2, 2, 2] gave 4x the
            // points of [2]) and counted four times against the work budget.
            std::vector<int> once;
            for (const int n : c.gpuCounts)
                if (std::find(once.begin(), once.end(), n) == once.end())
                    once.push_back(n);
                else if (std::find(repeatedGpuCounts.begin(), repeatedGpuCounts.end(), n) == repeatedGpuCounts.end())
                    repeatedGpuCounts.push_back(n);
            c.gpuCounts = std::move(once);
        }
        if (o.contains(QStringLiteral("batch_caps")))
            if (const std::string err = wholeList(o.value(QStringLiteral("batch_caps")), "candidates.batch_caps", 1, 1000000, c.batchCaps);
                !err.empty())
                return err;
        if (o.contains(QStringLiteral("microbatches")))
            if (const std::string err = whole(o.value(QStringLiteral("microbatches")), "candidates.microbatches", 0, 1024, c.microbatches);
                !err.empty())
                return err;
        if (o.contains(QStringLiteral("max_utilization")))
            if (const std::string err = number(o.value(QStringLiteral("max_utilization")), "candidates.max_utilization", 0.05, 1.0,
                                               c.maxUtilization);
                !err.empty())
                return err;
        if (o.contains(QStringLiteral("disaggregation"))) {
            const QJsonValue d = o.value(QStringLiteral("disaggregation"));
            const QString t = d.toString();
            if (t == QLatin1String("both"))
                c.disaggregation = Disaggregation::Both;
            else if (t == QLatin1String("colocated"))
                c.disaggregation = Disaggregation::Colocated;
            else if (t == QLatin1String("disaggregated"))
                c.disaggregation = Disaggregation::Disaggregated;
            else
                return "candidates.disaggregation = " + shown(d) + ": expected \"both\", \"colocated\" or \"disaggregated\"";
        }
        if (o.contains(QStringLiteral("layouts"))) {
            const QJsonValue ls = o.value(QStringLiteral("layouts"));
            if (!ls.isArray() || ls.toArray().isEmpty())
                return "candidates.layouts = " + shown(ls) + ": expected a non-empty list of {\"tp\": n, \"pp\": n, \"ep\": n}";
            int i = 0;
            // Where each kept layout stands in the file: a message names the index as written, not the one after
            // the duplicates are dropped (a trial: an error for the file's layouts[2] named layouts[1]).
            std::vector<int> fileIndex;
            for (const QJsonValue e : ls.toArray()) {
                const int index = i++;
                const std::string field = "candidates.layouts[" + std::to_string(index) + "]";
                if (!e.isObject())
                    return field + " = " + shown(e) + ": expected {\"tp\": n, \"pp\": n, \"ep\": n}";
                const QJsonObject lo = e.toObject();
                if (const std::string err = checkKeys(lo, QString::fromStdString(field),
                                                      {QStringLiteral("tp"), QStringLiteral("pp"), QStringLiteral("ep"), QStringLiteral("microbatches")});
                    !err.empty())
                    return err;
                ParallelLayout l;
                for (const auto& [key, fieldPtr, lo0, hi] : {std::tuple{"tp", &l.tp, 1, 64}, std::tuple{"pp", &l.pp, 1, 64},
                                                             std::tuple{"ep", &l.ep, 1, 64}, std::tuple{"microbatches", &l.microbatches, 0, 1024}})
                    if (lo.contains(QString::fromLatin1(key)))
                        if (const std::string err = whole(lo.value(QString::fromLatin1(key)), field + "." + key, lo0, hi, *fieldPtr); !err.empty())
                            return err;
                if (const std::string why = layoutRefusal(out.request.scenario.model, l); !why.empty())
                    return field + " = " + shown(e) + ": " + why;
                // As a simulation file's pipeline_stages: microbatches without stages would read every weight once per
                // microbatch (a trial found them accepted here while simulation files refuse them).
                if (l.microbatches > 0 && l.pp <= 1)
                    return field + ".microbatches = " + std::to_string(l.microbatches)
                           + ": goes with pp > 1 (decode microbatches flow through the pipeline's stages; 0: min(PP, batch))";
                // A layout listed twice is searched once, as a GPU count is (twice evaluated every point again).
                if (std::any_of(c.layouts.begin(), c.layouts.end(), [&](const ParallelLayout& x) {
                        return x.tp == l.tp && x.pp == l.pp && x.ep == l.ep && x.microbatches == l.microbatches;
                    })) {
                    const std::string text = layoutText(l) + (l.microbatches > 0 ? " m" + std::to_string(l.microbatches) : std::string());
                    if (std::find(repeatedLayouts.begin(), repeatedLayouts.end(), text) == repeatedLayouts.end())
                        repeatedLayouts.push_back(text);
                    continue;
                }
                c.layouts.push_back(l);
                fileIndex.push_back(index);
            }
            // Only the GPU counts the layouts have, unless counts were given too: then every layout needs one of them, or
            // it would never be searched and its device would read "does not fit" (a trial finding).
            if (o.contains(QStringLiteral("gpu_counts"))) {
                for (size_t i = 0; i < c.layouts.size(); ++i) {
                    const ParallelLayout& l = c.layouts[i];
                    if (std::find(c.gpuCounts.begin(), c.gpuCounts.end(), l.gpus()) != c.gpuCounts.end())
                        continue;
                    std::string counts;
                    for (int n : c.gpuCounts)
                        counts += (counts.empty() ? "" : ", ") + std::to_string(n);
                    const int index = fileIndex[i];
                    return "candidates.layouts[" + std::to_string(index) + "] = " + shown(ls.toArray().at(qsizetype(index))) + ": " + layoutText(l)
                           + " has " + std::to_string(l.gpus()) + (l.gpus() == 1 ? " GPU" : " GPUs")
                           + " per instance, not one of candidates.gpu_counts [" + counts
                           + "], so it would never be searched: add " + std::to_string(l.gpus())
                           + " to gpu_counts, or leave gpu_counts out (the layouts' own counts are searched)";
                }
            } else {
                c.gpuCounts.clear();
                for (const ParallelLayout& l : c.layouts)
                    if (std::find(c.gpuCounts.begin(), c.gpuCounts.end(), l.gpus()) == c.gpuCounts.end())
                        c.gpuCounts.push_back(l.gpus());
            }
        }
    }

    if (root.contains(QStringLiteral("simulate_top")))
        if (const std::string err = whole(root.value(QStringLiteral("simulate_top")), "simulate_top", 0, 20, out.simulateTop); !err.empty())
            return err;
    if (root.contains(QStringLiteral("simulate_requests"))) {
        int n = 0;
        if (const std::string err = whole(root.value(QStringLiteral("simulate_requests")), "simulate_requests", 100, 100000, n); !err.empty())
            return err;
        out.simulateRequests = n;
    }

    // Economics: prices and power per device.
    bool useExamples = true;
    if (root.contains(QStringLiteral("use_example_prices"))) {
        const QJsonValue v = root.value(QStringLiteral("use_example_prices"));
        if (!v.isBool())
            return "use_example_prices = " + shown(v) + ": expected true or false";
        useExamples = v.toBool();
    }
    if (root.contains(QStringLiteral("currency"))) {
        const QJsonValue v = root.value(QStringLiteral("currency"));
        // economics.currency's rule, one function (a trial: scenarios took 256 characters and blanks, plan files 8).
        if (!v.isString())
            return "currency = " + shown(v) + ": expected text, a currency label such as \"USD\"";
        if (const std::string why = currencyProblem(str(v.toString())); !why.empty())
            return "currency = \"" + printableText(str(v.toString()), 40) + "\": " + why;
        out.currency = str(v.toString());
        out.request.currency = out.currency;
    }
    double pue = kDefaultPue;
    if (root.contains(QStringLiteral("pue")))
        if (const std::string err = number(root.value(QStringLiteral("pue")), "pue", kMinPue, kMaxPue, pue); !err.empty()) // economics.pue's bounds
            return err;
    auto perDevice = [&](const char* key, double lo, double hi, std::map<std::string, double>& into) -> std::string {
        if (!root.contains(QString::fromLatin1(key)))
            return {};
        const QJsonValue v = root.value(QString::fromLatin1(key));
        if (!v.isObject())
            return std::string(key) + " = " + shown(v) + ": expected an object {\"device-id\": number}";
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const std::string field = std::string(key) + "." + str(it.key());
            const HardwarePreset* found = findDevice(str(it.key()));
            if (!found)
                return field + ": no such device in the catalogue; " + nearestHardwareText(str(it.key()));
            double value = 0;
            if (const std::string err = number(it.value(), field, lo, hi, value); !err.empty())
                return err;
            into[found->id] = value;
        }
        return {};
    };
    std::map<std::string, double> prices, power;
    if (const std::string err = perDevice("prices", 1e-6, 1e4, prices); !err.empty())
        return err;
    if (const std::string err = perDevice("power_watts", 1.0, 1e5, power); !err.empty())
        return err;

    if (allDevices) // every device one can buy: a drill's rounded copy of another device is not one (issue 14 trial)
        for (const HardwarePreset& p : hardwarePresets())
            if (!p.drill)
                deviceList.push_back(p.id);
    // Example prices only in their own currency: never relabelled as another one (they are not converted).
    const bool examplesApply = useExamples && examplePricesApply(out.currency);
    std::vector<std::string> examplesUsed, unpriced;
    for (const std::string& id : deviceList) {
        const HardwarePreset* p = findDevice(id);
        PlanDevice d;
        d.id = id;
        d.hardware = p->hardware;
        d.hardware.gpus = 1;
        d.economics.pue = pue;
        if (auto it = prices.find(id); it != prices.end()) {
            d.economics.pricePerGpuHour = it->second;
            d.priceSource = "plan file";
        } else if (examplesApply && examplePricePerGpuHour(id)) {
            d.economics.pricePerGpuHour = examplePricePerGpuHour(id);
            d.priceSource = "example";
            examplesUsed.push_back(id);
        } else if (useExamples && !examplesApply && examplePricePerGpuHour(id)) {
            unpriced.push_back(id);
        }
        d.noGpuLink = noGpuLinkReason(p->link);
        if (auto it = power.find(id); it != power.end()) {
            d.economics.boardPowerWatts = it->second;
            d.powerSource = "plan file";
        } else if (p->hardware.boardPowerWatts > 0) {
            d.economics.boardPowerWatts = p->hardware.boardPowerWatts;
            d.powerSource = "datasheet";
        }
        c.devices.push_back(std::move(d));
    }
    if (!examplesUsed.empty()) {
        std::string ids;
        for (const std::string& id : examplesUsed)
            ids += (ids.empty() ? "" : ", ") + id;
        out.notes.push_back("example prices (resources/plans/gpu-prices-example.json; illustrative, not quotes) for: " + ids);
    }
    auto joined = [](const std::vector<std::string>& ids) {
        std::string text;
        for (const std::string& id : ids)
            text += (text.empty() ? "" : ", ") + id;
        return text;
    };
    if (!unpriced.empty())
        out.notes.push_back("currency " + out.currency + ": the example prices (resources/plans/gpu-prices-example.json) are in "
                            + examplePriceCurrency() + " and are not converted, so no price and no cost for: " + joined(unpriced)
                            + "; give \"prices\" in " + out.currency + " for them");
    if (!duplicates.empty())
        out.notes.push_back("candidates.devices: listed more than once, searched once: " + joined(duplicates));
    if (!repeatedGpuCounts.empty()) {
        std::vector<std::string> counts;
        for (const int n : repeatedGpuCounts)
            counts.push_back(std::to_string(n));
        out.notes.push_back("candidates.gpu_counts: listed more than once, searched once: " + joined(counts));
    }
    if (!repeatedLayouts.empty())
        out.notes.push_back("candidates.layouts: listed more than once, searched once: " + joined(repeatedLayouts));
    if (!unusedSetKeys.empty())
        out.notes.push_back("set: not used by the plan, ignored: " + joined(unusedSetKeys)
                            + " (the plan reads the model, the efficiencies and serving.memory_utilization, "
                              "serving.activation_reserve_bytes and serving.block_tokens)");
    if (!simulatorOnlySetKeys.empty())
        out.notes.push_back("set: read by the simulator check only (simulate_top), not by the analytic search and its ranking: "
                            + joined(simulatorOnlySetKeys) + (out.simulateTop > 0 ? "" : "; this file simulates no plan"));
    // The work, before any of it runs: a search or simulator checks that would take minutes are refused here.
    if (const std::string err = checkPlanWork(out.request, out.simulateTop, out.simulateRequests); !err.empty())
        return err;
    return {};
}

} // namespace ridgeline::model
