// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/usercatalogue.h"

#include <algorithm>
#include <cmath>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>

#include "model/files/inputfile.h"
#include "model/cost/jsoninput.h"
#include "model/files/outputfile.h"
#include "model/cost/scenariokeys.h"
#include "document/format.h"

namespace ridgeline::views {

namespace {

constexpr int kFormatVersion = 1;

QString fromStd(const std::string& text)
{
    return QString::fromStdString(text);
}

/** A stable id from a display name: "My MI300X (lab)" -> "my-mi300x-lab", unique among @p taken. */
std::string makeId(const std::string& name, const std::vector<std::string>& taken)
{
    QString base = fromStd(name).toLower();
    base.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    base.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    if (base.isEmpty())
        base = QStringLiteral("device");
    QString id = base;
    for (int n = 2; std::find(taken.begin(), taken.end(), id.toStdString()) != taken.end(); ++n)
        id = base + QLatin1Char('-') + QString::number(n);
    return id.toStdString();
}

/** Reads a whole JSON object file; "" on success (a missing file is an empty object), else why not. */
QString readObject(const QString& path, QJsonObject& out, bool& exists)
{
    exists = QFileInfo::exists(path);
    if (!exists)
        return QString();
    QByteArray bytes;
    if (const std::string e = model::readInputFile(path, bytes); !e.empty())
        return QObject::tr("%1 cannot be read (%2)").arg(QDir::toNativeSeparators(path), QString::fromStdString(e));
    QJsonDocument document;
    if (const std::string e = model::parseJsonInput(bytes, document); !e.empty())
        return QObject::tr("%1: %2").arg(QDir::toNativeSeparators(path), QString::fromStdString(e));
    if (!document.isObject())
        return QObject::tr("%1: expected a JSON object at the top").arg(QDir::toNativeSeparators(path));
    out = document.object();
    return QString();
}

QString writeObject(const QString& path, const QJsonObject& object)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return QObject::tr("Cannot create the folder %1.").arg(QDir::toNativeSeparators(QFileInfo(path).absolutePath()));
    if (const QString why = model::writeFileAtomically(path, QJsonDocument(object).toJson(QJsonDocument::Indented));
        !why.isEmpty())
        return QObject::tr("Cannot write %1: %2.").arg(QDir::toNativeSeparators(path), why);
    return QString();
}

QJsonObject hardwareObject(const model::Hardware& h)
{
    QJsonObject o;
    o.insert(QStringLiteral("name"), fromStd(h.name));
    o.insert(QStringLiteral("bandwidth"), h.bandwidthBytesPerSecond);
    o.insert(QStringLiteral("peak_flops"), h.peakFlopsPerSecond);
    o.insert(QStringLiteral("memory_bytes"), h.memoryBytes);
    o.insert(QStringLiteral("peak_flops_fp8"), h.peakFlopsFp8);
    o.insert(QStringLiteral("peak_ops_int8"), h.peakOpsInt8);
    o.insert(QStringLiteral("peak_flops_fp4"), h.peakFlopsFp4);
    o.insert(QStringLiteral("board_power_watts"), h.boardPowerWatts);
    o.insert(QStringLiteral("link_bandwidth"), h.linkBandwidthBytesPerSecond);
    return o;
}

/** "a number > 0" checks in the device dialog's words. */
QString positive(double value, const QString& field, const QString& unit, bool zeroAllowed)
{
    if (!std::isfinite(value))
        return QObject::tr("%1 must be a finite number of %2.").arg(field, unit);
    if (zeroAllowed ? value < 0 : value <= 0)
        return zeroAllowed ? QObject::tr("%1 must be 0 (none published) or more %2, not %3.").arg(field, unit, format::plain(value))
                           : QObject::tr("%1 must be more than 0 %2, not %3.").arg(field, unit, format::plain(value));
    return QString();
}

} // namespace

UserCatalogue::UserCatalogue(QObject* parent)
    : QObject(parent)
{
    reload();
}

QString UserCatalogue::directory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

QString UserCatalogue::hardwarePath()
{
    return directory() + QStringLiteral("/hardware.json");
}

QString UserCatalogue::modelsPath()
{
    return directory() + QStringLiteral("/models.json");
}

QString UserCatalogue::checkDevice(const model::Hardware& h)
{
    if (QString::fromStdString(h.name).trimmed().isEmpty())
        return tr("Name must not be empty.");
    const QString checks[] = {
        positive(h.memoryBytes / 1e9, tr("Memory"), tr("GB"), false),
        positive(h.bandwidthBytesPerSecond / 1e12, tr("HBM bandwidth"), tr("TB/s"), false),
        positive(h.peakFlopsPerSecond / 1e12, tr("bf16 peak"), tr("TFLOP/s"), false),
        positive(h.peakFlopsFp8 / 1e12, tr("fp8 peak"), tr("TFLOP/s"), true),
        positive(h.peakOpsInt8 / 1e12, tr("int8 peak"), tr("TOP/s"), true),
        positive(h.peakFlopsFp4 / 1e12, tr("fp4 peak"), tr("TFLOP/s"), true),
        positive(h.boardPowerWatts, tr("Board power"), tr("W"), true),
        positive(h.linkBandwidthBytesPerSecond / 1e9, tr("Link bandwidth"), tr("GB/s"), false),
    };
    for (const QString& check : checks) {
        if (!check.isEmpty())
            return check;
    }
    return QString();
}

QString UserCatalogue::checkModel(const model::ModelShape& shape)
{
    if (QString::fromStdString(shape.name).trimmed().isEmpty())
        return tr("The model needs a name.");
    model::Scenario scenario = model::defaultScenario();
    scenario.model = shape;
    for (const model::ScenarioError& error : model::validate(scenario)) {
        if (error.key.rfind("model.", 0) == 0)
            return fromStd(error.message);
    }
    return QString();
}

QStringList UserCatalogue::reload()
{
    m_problems.clear();
    m_devices.clear();
    m_models.clear();
    m_hardwareMalformed = false;
    m_modelsMalformed = false;

    // Devices: the whole file or nothing.
    {
        const QString path = hardwarePath();
        QJsonObject root;
        bool exists = false;
        QString problem = readObject(path, root, exists);
        std::vector<model::HardwarePreset> devices;
        if (problem.isEmpty() && exists) {
            const QJsonValue list = root.value(QStringLiteral("devices"));
            if (!list.isArray())
                problem = tr("%1: expected a \u201cdevices\u201d array").arg(QDir::toNativeSeparators(path));
            int number = 0;
            for (const QJsonValue entry : list.toArray()) {
                ++number;
                if (!problem.isEmpty())
                    break;
                const QJsonObject o = entry.toObject();
                model::Scenario scenario;
                QJsonObject wrapper;
                wrapper.insert(QStringLiteral("hardware"), o.value(QStringLiteral("hardware")));
                std::string error;
                if (!o.value(QStringLiteral("hardware")).isObject())
                    error = "expected a \"hardware\" object";
                else
                    error = model::applyJson(scenario, wrapper);
                QString message = fromStd(error);
                if (message.isEmpty())
                    message = checkDevice(scenario.hardware);
                if (!message.isEmpty()) {
                    problem = tr("%1: device %2: %3").arg(QDir::toNativeSeparators(path)).arg(number).arg(message);
                    break;
                }
                model::HardwarePreset device;
                device.id = o.value(QStringLiteral("id")).toString().toStdString();
                device.source = o.value(QStringLiteral("source")).toString().toStdString();
                device.hardware = scenario.hardware;
                device.hardware.gpus = 1;
                devices.push_back(device);
            }
        }
        if (problem.isEmpty()) {
            m_devices = std::move(devices);
        } else {
            m_hardwareMalformed = true;
            m_problems.append(tr("Your hardware catalogue was ignored: %1.").arg(problem));
        }
    }

    // Models.
    {
        const QString path = modelsPath();
        QJsonObject root;
        bool exists = false;
        QString problem = readObject(path, root, exists);
        std::vector<model::ModelPreset> models;
        if (problem.isEmpty() && exists) {
            const QJsonValue list = root.value(QStringLiteral("models"));
            if (!list.isArray())
                problem = tr("%1: expected a \u201cmodels\u201d array").arg(QDir::toNativeSeparators(path));
            int number = 0;
            for (const QJsonValue entry : list.toArray()) {
                ++number;
                if (!problem.isEmpty())
                    break;
                const QJsonObject o = entry.toObject();
                model::Scenario scenario;
                QJsonObject wrapper;
                wrapper.insert(QStringLiteral("model"), o.value(QStringLiteral("model")));
                std::string error;
                if (!o.value(QStringLiteral("model")).isObject())
                    error = "expected a \"model\" object";
                else
                    error = model::applyJson(scenario, wrapper);
                QString message = fromStd(error);
                if (message.isEmpty())
                    message = checkModel(scenario.model);
                if (!message.isEmpty()) {
                    problem = tr("%1: model %2: %3").arg(QDir::toNativeSeparators(path)).arg(number).arg(message);
                    break;
                }
                models.push_back({o.value(QStringLiteral("id")).toString().toStdString(), scenario.model,
                                  o.value(QStringLiteral("source")).toString().toStdString()});
            }
        }
        if (problem.isEmpty()) {
            m_models = std::move(models);
        } else {
            m_modelsMalformed = true;
            m_problems.append(tr("Your model catalogue was ignored: %1.").arg(problem));
        }
    }
    emit changed();
    return m_problems;
}

void UserCatalogue::keepMalformed(const QString& path)
{
    const QString kept = path + QStringLiteral(".malformed");
    const QFileInfo info(path);
    if (!info.isFile() || info.size() > model::kMaxInputFileBytes)
        return; // a pipe or a device would block the copy or never end: not kept
    QFile::remove(kept);
    QFile::copy(path, kept);
}

QString UserCatalogue::writeDevices(const std::vector<model::HardwarePreset>& devices)
{
    if (m_hardwareMalformed)
        keepMalformed(hardwarePath());
    QJsonArray list;
    for (const model::HardwarePreset& device : devices) {
        QJsonObject o;
        o.insert(QStringLiteral("id"), fromStd(device.id));
        o.insert(QStringLiteral("source"), fromStd(device.source));
        o.insert(QStringLiteral("hardware"), hardwareObject(device.hardware));
        list.append(o);
    }
    QJsonObject root;
    root.insert(QStringLiteral("format_version"), kFormatVersion);
    root.insert(QStringLiteral("note"), QStringLiteral("Ridgeline user devices: decimal SI units (B, B/s, FLOP/s); "
                                                       "peak_flops is bf16 dense; 0 for fp8/int8 means none published."));
    root.insert(QStringLiteral("devices"), list);
    const QString error = writeObject(hardwarePath(), root);
    if (error.isEmpty())
        m_hardwareMalformed = false;
    return error;
}

QString UserCatalogue::writeModels(const std::vector<model::ModelPreset>& models)
{
    if (m_modelsMalformed)
        keepMalformed(modelsPath());
    QJsonArray list;
    for (const model::ModelPreset& preset : models) {
        model::Scenario scenario;
        scenario.model = preset.shape;
        QJsonObject o;
        o.insert(QStringLiteral("id"), fromStd(preset.id));
        o.insert(QStringLiteral("source"), fromStd(preset.source));
        o.insert(QStringLiteral("model"), model::toJson(scenario).value(QStringLiteral("model")));
        list.append(o);
    }
    QJsonObject root;
    root.insert(QStringLiteral("format_version"), kFormatVersion);
    root.insert(QStringLiteral("models"), list);
    const QString error = writeObject(modelsPath(), root);
    if (error.isEmpty())
        m_modelsMalformed = false;
    return error;
}

QString UserCatalogue::saveDevice(const model::HardwarePreset& device, int index)
{
    if (const QString problem = checkDevice(device.hardware); !problem.isEmpty())
        return problem;
    if (index >= int(m_devices.size()))
        return tr("There is no device %1 in your catalogue.").arg(index + 1);
    std::vector<model::HardwarePreset> devices = m_devices;
    model::HardwarePreset entry = device;
    entry.hardware.gpus = 1;
    if (entry.id.empty() || (index < 0 && std::any_of(devices.begin(), devices.end(),
                                                      [&](const auto& d) { return d.id == entry.id; }))) {
        std::vector<std::string> taken;
        for (size_t i = 0; i < devices.size(); ++i) {
            if (int(i) != index)
                taken.push_back(devices[i].id);
        }
        entry.id = makeId(entry.hardware.name, taken);
    }
    if (index < 0)
        devices.push_back(entry);
    else
        devices[size_t(index)] = entry;
    if (const QString error = writeDevices(devices); !error.isEmpty())
        return error;
    m_devices = std::move(devices);
    emit changed();
    return QString();
}

QString UserCatalogue::removeDevice(int index)
{
    if (index < 0 || index >= int(m_devices.size()))
        return tr("There is no device %1 in your catalogue.").arg(index + 1);
    std::vector<model::HardwarePreset> devices = m_devices;
    devices.erase(devices.begin() + index);
    if (const QString error = writeDevices(devices); !error.isEmpty())
        return error;
    m_devices = std::move(devices);
    emit changed();
    return QString();
}

QString UserCatalogue::saveModel(const model::ModelPreset& preset)
{
    if (const QString problem = checkModel(preset.shape); !problem.isEmpty())
        return problem;
    std::vector<model::ModelPreset> models = m_models;
    auto same = std::find_if(models.begin(), models.end(), [&](const auto& m) { return m.shape.name == preset.shape.name; });
    model::ModelPreset entry = preset;
    if (same != models.end()) {
        entry.id = same->id;
        *same = entry;
    } else {
        std::vector<std::string> taken;
        for (const auto& m : models)
            taken.push_back(m.id);
        entry.id = makeId(entry.shape.name, taken);
        models.push_back(entry);
    }
    if (const QString error = writeModels(models); !error.isEmpty())
        return error;
    m_models = std::move(models);
    emit changed();
    return QString();
}

} // namespace ridgeline::views
