// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/presets.h"

#include <algorithm>
#include <cctype>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "model/cost/messagetext.h"
#include "model/cost/scenariokeys.h"

namespace ridgeline::model {

namespace {

QJsonObject readResource(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("Ridgeline: built-in resource %s is missing", qPrintable(path));
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
    if (!doc.isObject())
        qFatal("Ridgeline: built-in resource %s is not a JSON object", qPrintable(path));
    return doc.object();
}

/** Applies {group: entry[group]} onto a zeroed scenario; a shipped file that fails is a build defect. */
Scenario scenarioFromEntry(const QJsonObject& entry, const QString& group, const QString& path)
{
    Scenario s;
    QJsonObject wrapper;
    wrapper.insert(group, entry.value(group));
    if (const std::string err = applyJson(s, wrapper); !err.empty())
        qFatal("Ridgeline: built-in resource %s: %s", qPrintable(path), err.c_str());
    return s;
}

} // namespace

const std::vector<ModelPreset>& modelPresets()
{
    static const std::vector<ModelPreset> presets = [] {
        std::vector<ModelPreset> out;
        const QString path = QStringLiteral(":/presets/models.json");
        for (const QJsonValue v : readResource(path).value(QStringLiteral("models")).toArray()) {
            const QJsonObject o = v.toObject();
            out.push_back({o.value(QStringLiteral("id")).toString().toStdString(),
                           scenarioFromEntry(o, QStringLiteral("model"), path).model,
                           o.value(QStringLiteral("source")).toString().toStdString()});
        }
        return out;
    }();
    return presets;
}

const std::vector<HardwarePreset>& hardwarePresets()
{
    static const std::vector<HardwarePreset> presets = [] {
        std::vector<HardwarePreset> out;
        const QString path = QStringLiteral(":/presets/hardware.json");
        for (const QJsonValue v : readResource(path).value(QStringLiteral("devices")).toArray()) {
            const QJsonObject o = v.toObject();
            out.push_back({o.value(QStringLiteral("id")).toString().toStdString(),
                           scenarioFromEntry(o, QStringLiteral("hardware"), path).hardware,
                           o.value(QStringLiteral("source")).toString().toStdString(),
                           o.value(QStringLiteral("link")).toString().toStdString(),
                           o.value(QStringLiteral("memory_reported_gib")).toDouble(),
                           o.value(QStringLiteral("drill")).toBool(false)});
        }
        return out;
    }();
    return presets;
}

namespace {

/** @p s lower-cased without spaces, dashes, underscores and dots: "H100 SXM" and "h100-sxm" compare equal. */
std::string foldedName(std::string_view s)
{
    std::string out;
    for (const char c : s)
        if (c != ' ' && c != '-' && c != '_' && c != '.')
            out += char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/** Levenshtein distance, for "did you mean". */
size_t editDistance(const std::string& a, const std::string& b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::string applyHardwarePreset(Scenario& scenario, std::string_view name)
{
    const std::string wanted = foldedName(name);
    const auto& presets = hardwarePresets();
    for (const HardwarePreset& p : presets)
        if (!wanted.empty() && (foldedName(p.id) == wanted || foldedName(p.hardware.name) == wanted)) {
            const int gpus = scenario.hardware.gpus;
            scenario.hardware = p.hardware;
            scenario.hardware.gpus = gpus;
            return {};
        }
    return "hardware.preset = \"" + printableText(name, 40) + "\": " + (wanted.empty() ? "" : "no such device in the catalogue; ")
           + nearestHardwareText(name);
}

const HardwarePreset* findHardwarePresetId(std::string_view id)
{
    const auto& presets = hardwarePresets();
    for (const HardwarePreset& p : presets)
        if (p.id == id)
            return &p;
    const std::string wanted = foldedName(id);
    const HardwarePreset* found = nullptr;
    for (const HardwarePreset& p : presets)
        if (!wanted.empty() && foldedName(p.id) == wanted) {
            if (found)
                return nullptr; // ambiguous
            found = &p;
        }
    return found;
}

std::string nearestHardwareText(std::string_view name)
{
    const std::string wanted = foldedName(name);
    const auto& presets = hardwarePresets();
    if (wanted.empty())
        return "the value is empty; give a catalogue id such as " + presets.front().id + " (--list-hardware shows them all)";
    // The nearest ids: those containing the value or within a third of its length in edits, else all of them.
    std::vector<std::pair<size_t, std::string>> near;
    for (const HardwarePreset& p : presets) {
        const std::string id = foldedName(p.id), shown = foldedName(p.hardware.name);
        const size_t d = std::min(editDistance(wanted, id), editDistance(wanted, shown));
        const bool contains = id.find(wanted) != std::string::npos || wanted.find(id) != std::string::npos
                              || shown.find(wanted) != std::string::npos;
        if (contains || d <= std::max<size_t>(2, wanted.size() / 3))
            near.emplace_back(contains ? 0 : d, p.id);
    }
    std::stable_sort(near.begin(), near.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string list;
    const bool all = near.empty();
    if (all)
        for (const HardwarePreset& p : presets)
            list += (list.empty() ? "" : ", ") + p.id;
    else
        for (size_t i = 0; i < near.size() && i < 6; ++i)
            list += (i == 0 ? "" : ", ") + near[i].second;
    return (all ? "the catalogue has " : "nearest: ") + list + " (--list-hardware shows them all)";
}

const std::vector<ScenarioPreset>& scenarioPresets()
{
    static const std::vector<ScenarioPreset> presets = [] {
        std::vector<ScenarioPreset> out;
        const QDir dir(QStringLiteral(":/scenarios"));
        for (const QFileInfo& info : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
            const QJsonObject o = readResource(info.filePath());
            Scenario s = defaultScenario();
            if (const std::string err = applyJson(s, o); !err.empty())
                qFatal("Ridgeline: built-in scenario %s: %s", qPrintable(info.filePath()), err.c_str());
            out.push_back({info.completeBaseName().toStdString(),
                           o.value(QStringLiteral("title")).toString().toStdString(), s});
        }
        return out;
    }();
    return presets;
}

} // namespace ridgeline::model
