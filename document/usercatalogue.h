// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QObject>
#include <QString>
#include <QStringList>

#include "model/cost/presets.h"
#include "model/cost/scenario.h"

namespace ridgeline::views {

/**
 * The user's own catalogue: accelerators (hardware.json) and models (models.json) kept in
 * QStandardPaths::writableLocation(AppDataLocation), in the same shape as the built-in
 * resources/presets files ({"format_version": 1, "devices": [{"id", "source", "hardware": {...}}]},
 * {"format_version": 1, "models": [{"id", "source", "model": {...}}]}, scenario key names and SI units).
 *
 * Files are written whole with QSaveFile. A file that cannot be read (not JSON, wrong shape, a bad
 * value) is ignored as a whole and reported once through loadProblems(); before the catalogue next
 * writes over it, the file is kept beside itself as "<name>.malformed" so nothing the user wrote is lost.
 */
class UserCatalogue final : public QObject {
    Q_OBJECT

public:
    /** Reads both files from directory() (a missing file is an empty catalogue). */
    explicit UserCatalogue(QObject* parent = nullptr);

    /** QStandardPaths::writableLocation(QStandardPaths::AppDataLocation). */
    static QString directory();
    /** directory() + "/hardware.json". */
    static QString hardwarePath();
    /** directory() + "/models.json". */
    static QString modelsPath();

    /** The user's devices, in file order (Hardware::gpus and link latency are not stored: deployment choices). */
    const std::vector<model::HardwarePreset>& devices() const { return m_devices; }
    /** The user's models, in file order. */
    const std::vector<model::ModelPreset>& models() const { return m_models; }

    /** One sentence per file that was ignored at the last reload(), naming the file and the field; empty when all is well. */
    QStringList loadProblems() const { return m_problems; }

    /** Re-reads both files, emits changed(); returns loadProblems(). */
    QStringList reload();

    /**
     * Adds @p device (index -1) or replaces the device at @p index, then writes hardware.json.
     * The device is checked first (checkDevice()); an empty id is made from the name.
     * @return "" on success, else the sentence to show (nothing changed then).
     */
    QString saveDevice(const model::HardwarePreset& device, int index = -1);

    /** Removes the device at @p index and writes the file; "" or the error. */
    QString removeDevice(int index);

    /** Adds @p model (replacing one with the same name), then writes models.json; "" or the error. */
    QString saveModel(const model::ModelPreset& model);

    /**
     * Checks one device's figures, naming the field in the dialog's terms: a name, memory, HBM
     * bandwidth, bf16 peak and link bandwidth finite and > 0, fp8 and int8 peaks finite and >= 0.
     * @return "" when valid, else one sentence.
     */
    static QString checkDevice(const model::Hardware& hardware);

    /** Checks a model shape with model::validate (its "model." problems only); "" or the first sentence. */
    static QString checkModel(const model::ModelShape& shape);

signals:
    /** Emitted after every reload and every successful save or removal. */
    void changed();

private:
    QString writeDevices(const std::vector<model::HardwarePreset>& devices);
    QString writeModels(const std::vector<model::ModelPreset>& models);
    void keepMalformed(const QString& path);

    std::vector<model::HardwarePreset> m_devices;
    std::vector<model::ModelPreset> m_models;
    QStringList m_problems;
    bool m_hardwareMalformed = false;
    bool m_modelsMalformed = false;
};

} // namespace ridgeline::views
