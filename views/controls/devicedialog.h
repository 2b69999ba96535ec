// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

#include "model/cost/presets.h"

class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace ridgeline::views {

/**
 * Hardware > Add device / Edit device: name, memory (GB), HBM bandwidth (TB/s), dense bf16 / fp8
 * peaks (TFLOP/s), int8 peak (TOP/s), link bandwidth (GB/s, per GPU, one direction) and a source
 * note. Decimal units (GB = 1e9 B). OK refuses values UserCatalogue::checkDevice() rejects and
 * names the field in the dialog (label "deviceError"); the dialog never writes anything itself.
 *
 * Object names: deviceNameEdit, deviceMemorySpinBox, deviceBandwidthSpinBox, deviceBf16SpinBox,
 * deviceFp8SpinBox, deviceInt8SpinBox, deviceLinkSpinBox, deviceSourceEdit, deviceError.
 */
class DeviceDialog final : public QDialog {
    Q_OBJECT

public:
    explicit DeviceDialog(QWidget* parent = nullptr);

    /** Fills the fields from @p device (SI units in, display units shown). */
    void setDevice(const model::HardwarePreset& device);

    /** The device the fields describe, SI units (gpus 1; id kept from setDevice()). */
    model::HardwarePreset device() const;

    /** The first problem with the fields, naming the field; "" when OK would be accepted. */
    QString problem() const;

public slots:
    /** Accepts only when problem() is empty; otherwise shows it and focuses the field. */
    void accept() override;

private:
    QLineEdit* m_name = nullptr;
    QDoubleSpinBox* m_memory = nullptr;
    QDoubleSpinBox* m_bandwidth = nullptr;
    QDoubleSpinBox* m_bf16 = nullptr;
    QDoubleSpinBox* m_fp8 = nullptr;
    QDoubleSpinBox* m_int8 = nullptr;
    QDoubleSpinBox* m_fp4 = nullptr;   ///< dense fp4 peak, TFLOP/s (0: none)
    QDoubleSpinBox* m_power = nullptr; ///< board power, W (0: unknown)
    QDoubleSpinBox* m_link = nullptr;
    QLineEdit* m_source = nullptr;
    QLabel* m_error = nullptr;
    std::string m_id;
    double m_linkLatencySeconds = 5e-6;
};

} // namespace ridgeline::views
