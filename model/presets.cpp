// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/presets.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "model/scenariokeys.h"

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
                           o.value(QStringLiteral("memory_reported_gib")).toDouble()});
        }
        return out;
    }();
    return presets;
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
