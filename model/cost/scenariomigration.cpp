// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/scenariomigration.h"

#include <cmath>

#include <QJsonDocument>
#include <QJsonParseError>
#include <QJsonValue>

#include "model/cost/jsoninput.h"
#include "model/cost/scenariokeys.h"

namespace ridgeline::model {

namespace {

bool knownKey(const std::string& dotted)
{
    for (const KeyInfo& k : scenarioKeys())
        if (k.key == dotted)
            return true;
    return false;
}

bool knownGroup(const std::string& group)
{
    const std::string prefix = group + ".";
    for (const KeyInfo& k : scenarioKeys())
        if (k.key.substr(0, prefix.size()) == prefix)
            return true;
    return false;
}

/** "format_version" as a whole number >= 1, 0 when absent; "" or the message. */
std::string readVersion(const QJsonObject& object, int& version)
{
    version = 0;
    const auto it = object.constFind(QStringLiteral("format_version"));
    if (it == object.constEnd())
        return {};
    if (!it->isDouble())
        return "format_version: expected a whole number such as 1";
    const double v = it->toDouble();
    if (v != std::floor(v) || v < 1 || v > 1e6)
        return "format_version = " + formatNumber(v) + ": expected a whole number >= 1";
    version = int(v);
    return {};
}

} // namespace

bool ScenarioLoadReport::migrated() const
{
    return fileVersion != kScenarioFormatVersion;
}

std::string applyJsonLenient(Scenario& scenario, const QJsonObject& object, std::vector<std::string>& ignored)
{
    int version = 0;
    if (std::string err = readVersion(object, version); !err.empty())
        return err;
    if (version <= kScenarioFormatVersion)
        return applyJson(scenario, object);

    // Newer file: keep what this version knows, name the rest.
    QJsonObject known;
    std::vector<std::string> skipped;
    for (auto group = object.begin(); group != object.end(); ++group) {
        const std::string name = group.key().toStdString();
        if (name == "format_version")
            continue;
        if (name == "title" || name == "note") {
            known.insert(group.key(), group.value());
            continue;
        }
        if (!knownGroup(name)) {
            skipped.push_back(name);
            continue;
        }
        if (!group->isObject()) {
            known.insert(group.key(), group.value()); // malformed: applyJson names it
            continue;
        }
        QJsonObject fields;
        const QJsonObject source = group->toObject();
        for (auto it = source.begin(); it != source.end(); ++it) {
            const std::string dotted = name + "." + it.key().toStdString();
            if (knownKey(dotted))
                fields.insert(it.key(), it.value());
            else
                skipped.push_back(dotted);
        }
        known.insert(group.key(), fields);
    }
    if (std::string err = applyJson(scenario, known); !err.empty())
        return err;
    ignored.insert(ignored.end(), skipped.begin(), skipped.end());
    return {};
}

std::string loadScenarioJson(const QByteArray& json, const Scenario& base, Scenario& out, ScenarioLoadReport& report)
{
    QJsonDocument doc;
    if (std::string e = parseJsonInput(json, doc); !e.empty())
        return e + (json.trimmed().isEmpty() ? " (the file is empty)" : "");
    if (!doc.isObject())
        return "expected a JSON object at the top level, such as {\"format_version\": 1, \"model\": {...}}";
    const QJsonObject object = doc.object();

    ScenarioLoadReport r;
    if (std::string err = readVersion(object, r.fileVersion); !err.empty())
        return err;
    Scenario work = base;
    if (std::string err = applyJsonLenient(work, object, r.ignored); !err.empty())
        return err;
    for (const KeyInfo& k : scenarioKeys()) {
        if (k.key == "model.active_params" || k.key == "model.head_dim")
            continue; // absent whenever unset: nothing was lost
        const std::string key(k.key);
        const size_t dot = key.find('.');
        const QJsonObject group = object.value(QString::fromStdString(key.substr(0, dot))).toObject();
        if (!group.contains(QString::fromStdString(key.substr(dot + 1))))
            r.defaulted.push_back(key);
    }
    out = std::move(work);
    report = std::move(r);
    return {};
}

} // namespace ridgeline::model
