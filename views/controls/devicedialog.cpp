// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/controls/devicedialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "views/kit/palette.h"
#include "document/usercatalogue.h"

namespace ridgeline::views {

namespace {

QDoubleSpinBox* deviceFigureSpin(const QString& objectName, const QString& suffix, int decimals, double maximum,
                           const QString& toolTip)
{
    auto* spin = new QDoubleSpinBox;
    spin->setObjectName(objectName);
    // 0 is allowed in the box so that OK can name the field rather than clamp silently.
    spin->setRange(0.0, maximum);
    spin->setDecimals(decimals);
    spin->setSuffix(suffix);
    spin->setGroupSeparatorShown(true);
    spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    spin->setToolTip(toolTip);
    spin->setAccessibleDescription(toolTip);
    return spin;
}

} // namespace

DeviceDialog::DeviceDialog(QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("deviceDialog"));
    setWindowTitle(tr("Device"));

    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("deviceNameEdit"));
    m_name->setPlaceholderText(tr("e.g. MI300X (our cluster)"));
    m_memory = deviceFigureSpin(QStringLiteral("deviceMemorySpinBox"), tr(" GB"), 1, 1e5,
                          tr("HBM capacity per GPU, decimal GB (1 GB = 10\u2079 B)."));
    m_bandwidth = deviceFigureSpin(QStringLiteral("deviceBandwidthSpinBox"), tr(" TB/s"), 3, 1e3,
                             tr("Peak HBM bandwidth per GPU (1 TB/s = 10\u00b9\u00b2 B/s)."));
    m_bf16 = deviceFigureSpin(QStringLiteral("deviceBf16SpinBox"), tr(" TFLOP/s"), 1, 1e6,
                        tr("Dense (not 2:4 sparse) bf16 peak per GPU."));
    m_fp8 = deviceFigureSpin(QStringLiteral("deviceFp8SpinBox"), tr(" TFLOP/s"), 1, 1e6,
                       tr("Dense fp8 peak per GPU; 0 when none is published (fp8 matmuls then use the bf16 peak)."));
    m_int8 = deviceFigureSpin(QStringLiteral("deviceInt8SpinBox"), tr(" TOP/s"), 1, 1e6,
                        tr("Dense int8 peak per GPU; 0 when none is published (int8 matmuls then use the bf16 peak)."));
    m_fp4 = deviceFigureSpin(QStringLiteral("deviceFp4SpinBox"), tr(" TFLOP/s"), 1, 1e6,
                       tr("Dense fp4 peak per GPU (NVFP4 / MXFP4); 0 when the device has none (fp4 matmuls then fall back)."));
    m_power = deviceFigureSpin(QStringLiteral("devicePowerSpinBox"), tr(" W"), 0, 1e5,
                         tr("Board power (TDP) per device; 0 when unknown. Informational."));
    // 0 means "none published" for the optional peaks and "unknown" for power (the tool tips): said in the box.
    for (QDoubleSpinBox* spin : {m_fp8, m_int8, m_fp4})
        spin->setSpecialValueText(tr("none"));
    m_power->setSpecialValueText(tr("unknown"));
    m_link = deviceFigureSpin(QStringLiteral("deviceLinkSpinBox"), tr(" GB/s"), 0, 1e5,
                        tr("GPU-to-GPU link bandwidth per GPU, one direction (NVLink 4: 450 GB/s);\n"
                           "tensor-parallel all-reduces cross it."));
    m_source = new QLineEdit;
    m_source->setObjectName(QStringLiteral("deviceSourceEdit"));
    m_source->setPlaceholderText(tr("datasheet, measurement or vendor quote"));
    m_source->setToolTip(tr("Where the figures come from; shown as the combo entry's tooltip."));

    auto* form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Memory"), m_memory);
    form->addRow(tr("HBM bandwidth"), m_bandwidth);
    form->addRow(tr("bf16 peak (dense)"), m_bf16);
    form->addRow(tr("fp8 peak (dense, 0: none)"), m_fp8);
    form->addRow(tr("int8 peak (dense, 0: none)"), m_int8);
    form->addRow(tr("fp4 peak (dense, 0: none)"), m_fp4);
    form->addRow(tr("Board power (0: unknown)"), m_power);
    form->addRow(tr("Link bandwidth"), m_link);
    form->addRow(tr("Source"), m_source);

    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("deviceError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(palette::css(palette::error())));
    m_error->setVisible(false);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->setObjectName(QStringLiteral("deviceButtons"));
    connect(buttons, &QDialogButtonBox::accepted, this, &DeviceDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &DeviceDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    setMinimumWidth(380);
}

void DeviceDialog::setDevice(const model::HardwarePreset& device)
{
    const model::Hardware& h = device.hardware;
    m_id = device.id;
    m_linkLatencySeconds = h.linkLatencySeconds;
    m_name->setText(QString::fromStdString(h.name));
    m_memory->setValue(h.memoryBytes / 1e9);
    m_bandwidth->setValue(h.bandwidthBytesPerSecond / 1e12);
    m_bf16->setValue(h.peakFlopsPerSecond / 1e12);
    m_fp8->setValue(h.peakFlopsFp8 / 1e12);
    m_int8->setValue(h.peakOpsInt8 / 1e12);
    m_fp4->setValue(h.peakFlopsFp4 / 1e12);
    m_power->setValue(h.boardPowerWatts);
    m_link->setValue(h.linkBandwidthBytesPerSecond / 1e9);
    m_source->setText(QString::fromStdString(device.source));
    m_error->setVisible(false);
}

model::HardwarePreset DeviceDialog::device() const
{
    model::HardwarePreset out;
    out.id = m_id;
    out.source = m_source->text().trimmed().toStdString();
    model::Hardware& h = out.hardware;
    h.name = m_name->text().trimmed().toStdString();
    h.memoryBytes = m_memory->value() * 1e9;
    h.bandwidthBytesPerSecond = m_bandwidth->value() * 1e12;
    h.peakFlopsPerSecond = m_bf16->value() * 1e12;
    h.peakFlopsFp8 = m_fp8->value() * 1e12;
    h.peakOpsInt8 = m_int8->value() * 1e12;
    h.peakFlopsFp4 = m_fp4->value() * 1e12;
    h.boardPowerWatts = m_power->value();
    h.linkBandwidthBytesPerSecond = m_link->value() * 1e9;
    h.linkLatencySeconds = m_linkLatencySeconds;
    h.gpus = 1;
    return out;
}

QString DeviceDialog::problem() const
{
    return UserCatalogue::checkDevice(device().hardware);
}

void DeviceDialog::accept()
{
    const QString text = problem();
    if (text.isEmpty()) {
        m_error->setVisible(false);
        QDialog::accept();
        return;
    }
    m_error->setText(text);
    m_error->setVisible(true);
    // Focus the field the sentence starts with.
    const std::pair<QString, QWidget*> fields[] = {
        {tr("Name"), m_name}, {tr("Memory"), m_memory}, {tr("HBM bandwidth"), m_bandwidth}, {tr("bf16 peak"), m_bf16},
        {tr("fp8 peak"), m_fp8}, {tr("int8 peak"), m_int8}, {tr("Link bandwidth"), m_link},
    };
    for (const auto& [name, widget] : fields) {
        if (text.startsWith(name)) {
            widget->setFocus();
            break;
        }
    }
}

} // namespace ridgeline::views
