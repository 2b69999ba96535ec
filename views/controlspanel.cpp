// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/controlspanel.h"

#include <cmath>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>

#include "model/dtype.h"
#include "model/family.h"
#include "model/presets.h"
#include "views/format.h"
#include "views/palette.h"
#include "views/scenariodocument.h"
#include "views/valueslider.h"

namespace ridgeline::views {

namespace {

constexpr double kBillion = 1e9;
constexpr double kTera = 1e12;

bool close(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

bool sameShape(const model::ModelShape& a, const model::ModelShape& b)
{
    return close(a.params, b.params) && close(a.activeParamsOrTotal(), b.activeParamsOrTotal())
        && a.layers == b.layers && a.hidden == b.hidden && a.heads == b.heads && a.kvHeads == b.kvHeads
        && a.headDimOrDefault() == b.headDimOrDefault() && a.vocab == b.vocab && a.experts == b.experts
        && a.expertsPerToken == b.expertsPerToken && close(a.expertParams, b.expertParams)
        && a.kvLoraRank == b.kvLoraRank && a.ropeHeadDim == b.ropeHeadDim && a.slidingWindow == b.slidingWindow
        && a.slidingLayers == b.slidingLayers;
}

bool sameHardware(const model::Hardware& a, const model::Hardware& b)
{
    return close(a.bandwidthBytesPerSecond, b.bandwidthBytesPerSecond)
        && close(a.peakFlopsPerSecond, b.peakFlopsPerSecond) && close(a.memoryBytes, b.memoryBytes)
        && close(a.peakFlopsFp8, b.peakFlopsFp8) && close(a.peakOpsInt8, b.peakOpsInt8);
}

/** Appends " (edited)" to a preset-derived name once. */
std::string editedName(const std::string& name)
{
    static const std::string kSuffix = " (edited)";
    if (name.size() >= kSuffix.size() && name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
        return name;
    return name + kSuffix;
}

/** Adds a final, not user-selectable "Custom" entry to @p combo. */
void addCustomEntry(QComboBox* combo, const QString& text, const QString& toolTip)
{
    combo->addItem(text, -1);
    const int index = combo->count() - 1;
    combo->setItemData(index, toolTip, Qt::ToolTipRole);
    if (auto* model = qobject_cast<QStandardItemModel*>(combo->model()))
        model->item(index)->setFlags(model->item(index)->flags() & ~(Qt::ItemIsSelectable | Qt::ItemIsEnabled));
}

void setIndexQuietly(QComboBox* combo, int index)
{
    if (combo->currentIndex() == index)
        return;
    const QSignalBlocker blocker(combo);
    combo->setCurrentIndex(index);
}

void setQuietly(QSpinBox* spin, int value)
{
    if (spin->value() == value)
        return;
    const QSignalBlocker blocker(spin);
    spin->setValue(value);
}

void setQuietly(QDoubleSpinBox* spin, double value)
{
    if (spin->value() == value)
        return;
    const QSignalBlocker blocker(spin);
    spin->setValue(value);
}

void setQuietly(ValueSlider* slider, double value)
{
    if (slider->value() != value)
        slider->setValue(value);
}

QComboBox* dtypeCombo(const QString& objectName, const QString& toolTip)
{
    auto* combo = new QComboBox;
    combo->setObjectName(objectName);
    for (model::DType type : model::kAllDTypes) {
        const QString name = QString::fromUtf8(model::dtypeName(type).data(), qsizetype(model::dtypeName(type).size()));
        combo->addItem(QStringLiteral("%1  (%2 B)").arg(name, format::number(model::bytesPerElement(type))), int(type));
    }
    combo->setToolTip(toolTip);
    combo->setAccessibleDescription(toolTip);
    return combo;
}

QSpinBox* integerSpin(const QString& objectName, int minimum, int maximum, const QString& toolTip)
{
    auto* spin = new QSpinBox;
    spin->setObjectName(objectName);
    spin->setRange(minimum, maximum);
    spin->setKeyboardTracking(false);
    spin->setGroupSeparatorShown(true);
    spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    spin->setToolTip(toolTip);
    spin->setAccessibleDescription(toolTip);
    return spin;
}

QDoubleSpinBox* efficiencySpin(const QString& objectName, const QString& toolTip)
{
    auto* spin = new QDoubleSpinBox;
    spin->setObjectName(objectName);
    // 0 is allowed in the box so that a rejected value is reported, not silently clamped.
    spin->setRange(0.0, 1.0);
    spin->setDecimals(2);
    spin->setSingleStep(0.05);
    spin->setKeyboardTracking(false);
    spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    spin->setToolTip(toolTip);
    spin->setAccessibleDescription(toolTip);
    return spin;
}

QGroupBox* group(const QString& title)
{
    auto* box = new QGroupBox(title);
    box->setFlat(false);
    return box;
}

QString sloText(const std::vector<double>& values)
{
    QStringList parts;
    for (double value : values)
        parts.append(QString::number(value, 'g', 6));
    return parts.join(QStringLiteral(", "));
}

/** Parses "20, 40, 100" into numbers; false (with @p error) on anything else. */
bool parseSlo(const QString& text, std::vector<double>& values, QString& error)
{
    values.clear();
    const QStringList parts = text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        bool ok = false;
        const double value = part.toDouble(&ok);
        if (!ok || !std::isfinite(value) || value <= 0) {
            error = QObject::tr("\u201c%1\u201d is not a positive number of milliseconds").arg(part);
            return false;
        }
        values.push_back(value);
    }
    return true;
}

} // namespace

std::vector<int> divisors(int heads)
{
    std::vector<int> out;
    for (int d = 1; d <= heads; ++d) {
        if (heads % d == 0)
            out.push_back(d);
    }
    if (out.empty())
        out.push_back(1);
    return out;
}

ControlsPanel::ControlsPanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    setObjectName(QStringLiteral("controlsPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 8);
    layout->setSpacing(8);
    layout->addWidget(buildModelGroup());
    layout->addWidget(buildArchitectureGroup());
    layout->addWidget(buildWorkloadGroup());
    layout->addWidget(buildHardwareGroup());
    layout->addWidget(buildEfficiencyGroup());
    layout->addWidget(buildSloGroup());
    layout->addStretch(1);

    connect(m_document, &ScenarioDocument::scenarioChanged, this, &ControlsPanel::syncFromScenario);
    syncFromScenario();
}

QWidget* ControlsPanel::buildModelGroup()
{
    QGroupBox* box = group(tr("Model"));
    auto* layout = new QVBoxLayout(box);
    layout->setSpacing(4);

    m_modelPreset = new QComboBox;
    m_modelPreset->setObjectName(QStringLiteral("modelPresetCombo"));
    m_modelPreset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_modelPreset->setMinimumContentsLength(14);
    const auto& presets = model::modelPresets();
    for (int i = 0; i < int(presets.size()); ++i) {
        const model::ModelPreset& preset = presets[size_t(i)];
        m_modelPreset->addItem(QString::fromStdString(preset.shape.name), i);
        m_modelPreset->setItemData(i, QString::fromStdString(preset.source), Qt::ToolTipRole);
    }
    addCustomEntry(m_modelPreset, tr("Custom (edited)"),
                   tr("The model no longer matches a preset: a slider or an architecture field was moved."));
    m_modelPreset->setToolTip(tr("Model preset: replaces the model's shape (N, L, d, H, H_kv, h, vocabulary).\n"
                                 "The weight and KV precisions and the attention FLOP convention keep their settings.\n"
                                 "Shows \u201cCustom (edited)\u201d once a control moves away from the preset."));
    m_modelPreset->setAccessibleName(tr("Model preset"));
    connect(m_modelPreset, &QComboBox::activated, this, [this](int index) {
        const int presetIndex = m_modelPreset->itemData(index).toInt();
        const auto& presets = model::modelPresets();
        if (presetIndex < 0 || presetIndex >= int(presets.size()))
            return;
        const model::ModelShape shape = presets[size_t(presetIndex)].shape;
        m_document->edit([shape](model::Scenario& s) {
            const model::DType weights = s.model.weightDtype;
            const model::DType kv = s.model.kvDtype;
            const model::AttentionFlops attention = s.model.attention;
            s.model = shape;
            s.model.weightDtype = weights;
            s.model.kvDtype = kv;
            s.model.attention = attention;
        });
    });
    layout->addWidget(m_modelPreset);

    m_modelSize = new ValueSlider({QStringLiteral("modelSize"), tr("Model size N"), tr("B params"),
                                   tr("Total parameters N, in billions. Moving N applies the dense-family rule:\n"
                                      "L and d follow N by log-log interpolation through Llama 3.2 1B and 3B and\n"
                                      "Llama 3.1 8B, 70B and 405B (extrapolated outside), d rounded to a multiple of\n"
                                      "the 128 head dim, H = d / 128, head dim 128; H_kv is kept when it divides H.\n"
                                      "L, d, H and H_kv stay editable afterwards (Architecture, GQA slider)."),
                                   ValueSlider::Scale::Log, 0.5, 2000, 0, 0, 2, false},
                                  box);
    connect(m_modelSize, &ValueSlider::valueChanged, this, [this](double billions) {
        m_document->edit([billions](model::Scenario& s) {
            s.model = model::applyDenseFamily(s.model, billions * kBillion);
            s.model.name = tr("Dense %1 (Llama 3 family rule)").arg(format::billionParams(billions * kBillion)).toStdString();
        });
    });
    layout->addWidget(m_modelSize);

    m_kvHeads = new ValueSlider({QStringLiteral("kvHeads"), tr("KV heads H_kv"), QString(),
                                 tr("Key/value heads H_kv. The slider steps through the divisors of the query\n"
                                    "heads H only: 1 is MQA, H is MHA, anything between is GQA.\n"
                                    "KV cache per token = 2 \u00b7 L \u00b7 H_kv \u00b7 h \u00b7 b_kv."),
                                 ValueSlider::Scale::List, 1, 1024, 0, 1024, 0, true},
                                box);
    connect(m_kvHeads, &ValueSlider::valueChanged, this, [this](double heads) {
        m_document->edit([heads](model::Scenario& s) {
            s.model.kvHeads = int(std::lround(heads));
            s.model.name = editedName(s.model.name);
        });
    });
    layout->addWidget(m_kvHeads);

    auto* form = new QFormLayout;
    form->setContentsMargins(0, 4, 0, 0);
    m_weightDtype = dtypeCombo(QStringLiteral("weightDtypeCombo"),
                               tr("Bytes per weight b_w: weights read per decode step W = N \u00b7 b_w."));
    m_kvDtype = dtypeCombo(QStringLiteral("kvDtypeCombo"),
                           tr("Bytes per KV-cache element b_kv: kv_tok = 2 \u00b7 L \u00b7 H_kv \u00b7 h \u00b7 b_kv."));
    m_attention = new QComboBox;
    m_attention->setObjectName(QStringLiteral("attentionCombo"));
    m_attention->addItem(tr("full P\u00d7P (seeds)"), int(model::AttentionFlops::Full));
    m_attention->addItem(tr("causal half"), int(model::AttentionFlops::Causal));
    m_attention->setToolTip(tr("How prefill attention FLOP are counted: the whole P \u00d7 P score matrix,\n"
                               "4 \u00b7 L \u00b7 P\u00b2 \u00b7 d_attn (the seeds' convention), or the causal half that\n"
                               "causal kernels compute, 2 \u00b7 L \u00b7 P\u00b2 \u00b7 d_attn (P* doubles)."));
    m_attention->setAccessibleDescription(m_attention->toolTip());
    form->addRow(tr("Weights"), m_weightDtype);
    form->addRow(tr("KV cache"), m_kvDtype);
    form->addRow(tr("Attention"), m_attention);
    connect(m_attention, &QComboBox::activated, this, [this](int index) {
        const auto attention = model::AttentionFlops(m_attention->itemData(index).toInt());
        m_document->edit([attention](model::Scenario& s) { s.model.attention = attention; });
    });
    connect(m_weightDtype, &QComboBox::activated, this, [this](int index) {
        const auto type = model::DType(m_weightDtype->itemData(index).toInt());
        m_document->edit([type](model::Scenario& s) { s.model.weightDtype = type; });
    });
    connect(m_kvDtype, &QComboBox::activated, this, [this](int index) {
        const auto type = model::DType(m_kvDtype->itemData(index).toInt());
        m_document->edit([type](model::Scenario& s) { s.model.kvDtype = type; });
    });
    layout->addLayout(form);
    return box;
}

QWidget* ControlsPanel::buildArchitectureGroup()
{
    auto* container = new QWidget;
    auto* outer = new QVBoxLayout(container);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);

    m_architectureToggle = new QToolButton;
    m_architectureToggle->setObjectName(QStringLiteral("architectureToggle"));
    m_architectureToggle->setText(tr("Architecture (L, d, H, h)"));
    m_architectureToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_architectureToggle->setArrowType(Qt::RightArrow);
    m_architectureToggle->setCheckable(true);
    m_architectureToggle->setChecked(false);
    m_architectureToggle->setAutoRaise(true);
    m_architectureToggle->setToolTip(tr("Show or hide the architecture fields. N stays as set when you edit them;\n"
                                        "they change the KV cache and the attention terms."));
    outer->addWidget(m_architectureToggle);

    m_architecture = new QGroupBox;
    m_architecture->setObjectName(QStringLiteral("architectureGroup"));
    auto* form = new QFormLayout(m_architecture);
    m_layers = integerSpin(QStringLiteral("layersSpinBox"), 0, 1000, tr("Layers L (attention and KV terms)."));
    m_hidden = integerSpin(QStringLiteral("hiddenSpinBox"), 0, 1 << 20, tr("Hidden size d (d_model)."));
    m_hidden->setSingleStep(128);
    m_heads = integerSpin(QStringLiteral("headsSpinBox"), 0, 4096,
                          tr("Query heads H. H_kv must divide H; the GQA slider offers the divisors."));
    m_headDim = integerSpin(QStringLiteral("headDimSpinBox"), 0, 4096,
                            tr("Head dimension h. d_attn = H \u00b7 h (equal to d for most models, not all)."));
    m_attentionWidth = new QLabel;
    m_attentionWidth->setObjectName(QStringLiteral("attentionWidthLabel"));
    m_attentionWidth->setToolTip(tr("Attention width d_attn = H \u00b7 h, used by the attention FLOP terms."));
    form->addRow(tr("Layers L"), m_layers);
    form->addRow(tr("Hidden d"), m_hidden);
    form->addRow(tr("Query heads H"), m_heads);
    form->addRow(tr("Head dim h"), m_headDim);
    form->addRow(tr("d_attn = H\u00b7h"), m_attentionWidth);
    m_architecture->setVisible(false);
    outer->addWidget(m_architecture);

    connect(m_architectureToggle, &QToolButton::toggled, this, [this](bool open) {
        m_architectureToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        m_architecture->setVisible(open);
    });
    auto editInt = [this](QSpinBox* spin, int model::ModelShape::*field) {
        connect(spin, &QSpinBox::valueChanged, this, [this, field](int value) {
            m_document->edit([field, value](model::Scenario& s) {
                // The head dim shown stays put when d or H change (it no longer follows d / H).
                if (!s.model.headDim && s.model.headDimOrDefault() > 0)
                    s.model.headDim = s.model.headDimOrDefault();
                s.model.*field = value;
                s.model.name = editedName(s.model.name);
            });
        });
    };
    editInt(m_layers, &model::ModelShape::layers);
    editInt(m_hidden, &model::ModelShape::hidden);
    editInt(m_heads, &model::ModelShape::heads);
    connect(m_headDim, &QSpinBox::valueChanged, this, [this](int value) {
        m_document->edit([value](model::Scenario& s) {
            s.model.headDim = value;
            s.model.name = editedName(s.model.name);
        });
    });
    return container;
}

QWidget* ControlsPanel::buildWorkloadGroup()
{
    QGroupBox* box = group(tr("Workload"));
    auto* layout = new QVBoxLayout(box);
    layout->setSpacing(4);
    m_batch = new ValueSlider({QStringLiteral("batch"), tr("Batch B"), tr("sequences"),
                               tr("Sequences decoding together. Each decode step reads the weights once and\n"
                                  "every sequence's KV cache: R = W + B \u00b7 S \u00b7 kv_tok."),
                               ValueSlider::Scale::Log, 1, 1024, 0, 0, 0, true},
                              box);
    connect(m_batch, &ValueSlider::valueChanged, this, [this](double value) {
        m_document->edit([value](model::Scenario& s) { s.workload.batch = int(std::lround(value)); });
    });
    layout->addWidget(m_batch);

    m_context = new ValueSlider({QStringLiteral("context"), tr("Context S"), tr("tokens"),
                                 tr("Tokens each sequence holds in the KV cache during decode\n"
                                    "(0 in the box: weights only)."),
                                 ValueSlider::Scale::Log, 128, 1048576, 0, 1048576, 0, true},
                                box);
    connect(m_context, &ValueSlider::valueChanged, this, [this](double value) {
        m_document->edit([value](model::Scenario& s) { s.workload.contextTokens = int(std::lround(value)); });
    });
    layout->addWidget(m_context);

    auto* form = new QFormLayout;
    m_prompt = integerSpin(QStringLiteral("promptSpinBox"), 0, 1048576,
                           tr("Prompt length P for prefill, tokens: F_pre = 2 \u00b7 N \u00b7 P + 4 \u00b7 L \u00b7 P\u00b2 \u00b7 d_attn."));
    m_prompt->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    m_prompt->setSuffix(tr(" tokens"));
    connect(m_prompt, &QSpinBox::valueChanged, this, [this](int value) {
        m_document->edit([value](model::Scenario& s) { s.workload.promptTokens = value; });
    });
    form->addRow(tr("Prompt P"), m_prompt);
    layout->addLayout(form);
    return box;
}

QWidget* ControlsPanel::buildHardwareGroup()
{
    QGroupBox* box = group(tr("Hardware"));
    auto* layout = new QVBoxLayout(box);
    layout->setSpacing(4);
    m_hardwarePreset = new QComboBox;
    m_hardwarePreset->setObjectName(QStringLiteral("hardwarePresetCombo"));
    m_hardwarePreset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_hardwarePreset->setMinimumContentsLength(14);
    const auto& presets = model::hardwarePresets();
    for (int i = 0; i < int(presets.size()); ++i) {
        const model::HardwarePreset& preset = presets[size_t(i)];
        m_hardwarePreset->addItem(QString::fromStdString(preset.hardware.name), i);
        m_hardwarePreset->setItemData(i, QString::fromStdString(preset.source), Qt::ToolTipRole);
    }
    addCustomEntry(m_hardwarePreset, tr("Custom (edited)"),
                   tr("The hardware no longer matches a preset: a slider was moved."));
    m_hardwarePreset->setToolTip(tr("Accelerator preset: dense (not sparse) peak figures from datasheets.\n"
                                    "Replaces bandwidth, peak FLOP/s and memory capacity."));
    m_hardwarePreset->setAccessibleName(tr("Hardware preset"));
    connect(m_hardwarePreset, &QComboBox::activated, this, [this](int index) {
        const int presetIndex = m_hardwarePreset->itemData(index).toInt();
        const auto& presets = model::hardwarePresets();
        if (presetIndex < 0 || presetIndex >= int(presets.size()))
            return;
        const model::Hardware hardware = presets[size_t(presetIndex)].hardware;
        m_document->edit([hardware](model::Scenario& s) {
            const int gpus = s.hardware.gpus; // tensor parallelism is a deployment choice, not the device's
            s.hardware = hardware;
            s.hardware.gpus = gpus;
        });
    });
    layout->addWidget(m_hardwarePreset);

    m_bandwidth = new ValueSlider({QStringLiteral("bandwidth"), tr("HBM bandwidth"), tr("TB/s"),
                                   tr("Peak memory bandwidth BW (1 TB/s = 10\u00b9\u00b2 B/s). Decode reads the weights\n"
                                      "and the KV cache every step: t_mem = R / (BW \u00b7 \u03b7_bw)."),
                                   ValueSlider::Scale::Log, 0.1, 20, 0, 0, 3, false},
                                  box);
    connect(m_bandwidth, &ValueSlider::valueChanged, this, [this](double value) {
        m_document->edit([value](model::Scenario& s) {
            s.hardware.bandwidthBytesPerSecond = value * kTera;
            s.hardware.name = editedName(s.hardware.name);
        });
    });
    layout->addWidget(m_bandwidth);

    m_peakFlops = new ValueSlider({QStringLiteral("peakFlops"), tr("Peak FLOP/s"), tr("TFLOP/s"),
                                   tr("Dense peak F_peak for the compute dtype (1 TFLOP/s = 10\u00b9\u00b2 FLOP/s).\n"
                                      "Ridge point I* = F_peak / BW."),
                                   ValueSlider::Scale::Log, 10, 10000, 0, 0, 1, false},
                                  box);
    connect(m_peakFlops, &ValueSlider::valueChanged, this, [this](double value) {
        m_document->edit([value](model::Scenario& s) {
            s.hardware.peakFlopsPerSecond = value * kTera;
            s.hardware.name = editedName(s.hardware.name);
        });
    });
    layout->addWidget(m_peakFlops);

    auto* form = new QFormLayout;
    m_gpus = integerSpin(QStringLiteral("gpusSpinBox"), 0, 1024,
                         tr("T, GPUs in tensor parallelism. Weights and FLOP split T ways; the KV cache splits\n"
                            "by KV head (with H_kv < T each GPU still holds a whole head); two all-reduces per\n"
                            "layer cross the link. Times, bytes and capacity are then per GPU."));
    form->addRow(tr("GPUs (tensor parallel)"), m_gpus);
    layout->addLayout(form);
    connect(m_gpus, &QSpinBox::valueChanged, this, [this](int value) {
        m_document->edit([value](model::Scenario& s) { s.hardware.gpus = value; });
    });
    return box;
}

QWidget* ControlsPanel::buildEfficiencyGroup()
{
    QGroupBox* box = group(tr("Efficiency"));
    auto* layout = new QVBoxLayout(box);
    auto* form = new QFormLayout;
    m_bandwidthEfficiency = efficiencySpin(QStringLiteral("bandwidthEfficiencySpinBox"),
                                           tr("\u03b7_bw: achieved / peak HBM bandwidth, in (0, 1]."));
    m_mfuPrefill = efficiencySpin(QStringLiteral("mfuPrefillSpinBox"),
                                  tr("MFU during prefill: achieved / peak FLOP/s, in (0, 1]."));
    m_mfuDecode = efficiencySpin(QStringLiteral("mfuDecodeSpinBox"),
                                 tr("MFU during decode: achieved / peak FLOP/s, in (0, 1]."));
    form->addRow(tr("\u03b7_bw (bandwidth)"), m_bandwidthEfficiency);
    form->addRow(tr("MFU prefill"), m_mfuPrefill);
    form->addRow(tr("MFU decode"), m_mfuDecode);
    layout->addLayout(form);
    connect(m_bandwidthEfficiency, &QDoubleSpinBox::valueChanged, this, [this](double value) {
        m_document->edit([value](model::Scenario& s) { s.efficiency.bandwidth = value; });
    });
    connect(m_mfuPrefill, &QDoubleSpinBox::valueChanged, this, [this](double value) {
        m_document->edit([value](model::Scenario& s) { s.efficiency.mfuPrefill = value; });
    });
    connect(m_mfuDecode, &QDoubleSpinBox::valueChanged, this, [this](double value) {
        m_document->edit([value](model::Scenario& s) { s.efficiency.mfuDecode = value; });
    });

    auto* buttons = new QHBoxLayout;
    m_floorButton = new QPushButton(tr("Floor (1.0)"));
    m_floorButton->setObjectName(QStringLiteral("floorButton"));
    m_floorButton->setToolTip(tr("All efficiencies 1.0: the physical floor the formulas define."));
    m_planningButton = new QPushButton(tr("Planning (0.75 / 0.40)"));
    m_planningButton->setObjectName(QStringLiteral("planningButton"));
    m_planningButton->setToolTip(tr("The seeds' planning convention: \u03b7_bw = 0.75, MFU = 0.40 for prefill\n"
                                    "(and for decode, which rarely does better)."));
    buttons->addWidget(m_floorButton);
    buttons->addWidget(m_planningButton);
    layout->addLayout(buttons);
    connect(m_floorButton, &QPushButton::clicked, this, [this] {
        m_document->edit([](model::Scenario& s) { s.efficiency = model::Efficiency{1.0, 1.0, 1.0}; });
    });
    connect(m_planningButton, &QPushButton::clicked, this, [this] {
        m_document->edit([](model::Scenario& s) { s.efficiency = model::Efficiency{0.75, 0.40, 0.40}; });
    });
    return box;
}

QWidget* ControlsPanel::buildSloGroup()
{
    QGroupBox* box = group(tr("Service-level objectives"));
    auto* layout = new QVBoxLayout(box);
    auto* form = new QFormLayout;
    m_itlSlo = new QLineEdit;
    m_itlSlo->setObjectName(QStringLiteral("itlSloEdit"));
    m_itlSlo->setPlaceholderText(tr("e.g. 20, 40, 100"));
    m_itlSlo->setToolTip(tr("Inter-token latency SLO lines in ms, comma-separated. Each becomes a line on the\n"
                            "t_step plot with the largest batch that meets it. Press Enter to apply."));
    m_itlSlo->setAccessibleName(tr("ITL SLO lines in milliseconds"));
    m_itlSloError = new QLabel;
    m_itlSloError->setObjectName(QStringLiteral("itlSloError"));
    m_itlSloError->setWordWrap(true);
    m_itlSloError->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(palette::css(palette::error())));
    m_itlSloError->setVisible(false);
    m_ttft = new QDoubleSpinBox;
    m_ttft->setObjectName(QStringLiteral("ttftSpinBox"));
    m_ttft->setRange(0, 1e7);
    m_ttft->setDecimals(0);
    m_ttft->setSuffix(tr(" ms"));
    m_ttft->setKeyboardTracking(false);
    m_ttft->setGroupSeparatorShown(true);
    m_ttft->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_ttft->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    m_ttft->setToolTip(tr("Time-to-first-token SLO in ms, compared with the prefill time."));
    form->addRow(tr("ITL SLOs (ms)"), m_itlSlo);
    form->addRow(QString(), m_itlSloError);
    form->addRow(tr("TTFT SLO"), m_ttft);
    layout->addLayout(form);

    connect(m_itlSlo, &QLineEdit::editingFinished, this, &ControlsPanel::applySloText);
    connect(m_itlSlo, &QLineEdit::textEdited, this, [this](const QString& text) {
        std::vector<double> values;
        QString error;
        const bool ok = parseSlo(text, values, error);
        m_itlSlo->setStyleSheet(ok ? QString() : QStringLiteral("QLineEdit { border: 1px solid %1; }")
                                                     .arg(palette::css(palette::error())));
        m_itlSloError->setText(error);
        m_itlSloError->setVisible(!ok);
    });
    connect(m_ttft, &QDoubleSpinBox::valueChanged, this, [this](double value) {
        m_document->edit([value](model::Scenario& s) { s.workload.ttftSloMs = value; });
    });
    return box;
}

void ControlsPanel::applySloText()
{
    std::vector<double> values;
    QString error;
    if (!parseSlo(m_itlSlo->text(), values, error)) {
        m_itlSloError->setText(error + tr(": the SLO lines were not changed."));
        m_itlSloError->setVisible(true);
        return;
    }
    m_itlSloError->setVisible(false);
    m_itlSlo->setStyleSheet(QString());
    if (values == m_document->scenario().workload.itlSloMs)
        return;
    m_document->edit([values](model::Scenario& s) { s.workload.itlSloMs = values; });
}

void ControlsPanel::syncFromScenario()
{
    const model::Scenario& s = m_document->scenario();

    int modelIndex = m_modelPreset->count() - 1;
    const auto& models = model::modelPresets();
    for (int i = 0; i < int(models.size()); ++i) {
        if (sameShape(models[size_t(i)].shape, s.model)) {
            modelIndex = i;
            break;
        }
    }
    setIndexQuietly(m_modelPreset, modelIndex);
    setQuietly(m_modelSize, s.model.params / kBillion);

    std::vector<double> allowed;
    for (int d : divisors(s.model.heads))
        allowed.push_back(d);
    m_kvHeads->setAllowedValues(allowed);
    setQuietly(m_kvHeads, s.model.kvHeads);
    QString grouping;
    if (s.model.kvHeads <= 0 || s.model.heads <= 0 || s.model.heads % s.model.kvHeads != 0)
        grouping = tr("of %1").arg(s.model.heads);
    else if (s.model.kvHeads == 1)
        grouping = tr("of %1: MQA").arg(s.model.heads);
    else if (s.model.kvHeads == s.model.heads)
        grouping = tr("of %1: MHA").arg(s.model.heads);
    else
        grouping = tr("of %1: GQA").arg(s.model.heads);
    m_kvHeads->setUnitText(grouping);

    setIndexQuietly(m_weightDtype, m_weightDtype->findData(int(s.model.weightDtype)));
    setIndexQuietly(m_kvDtype, m_kvDtype->findData(int(s.model.kvDtype)));
    setIndexQuietly(m_attention, m_attention->findData(int(s.model.attention)));

    setQuietly(m_layers, s.model.layers);
    setQuietly(m_hidden, s.model.hidden);
    setQuietly(m_heads, s.model.heads);
    setQuietly(m_headDim, s.model.headDimOrDefault());
    m_attentionWidth->setText(format::integer(s.model.attentionWidth()));

    setQuietly(m_batch, s.workload.batch);
    setQuietly(m_context, s.workload.contextTokens);
    setQuietly(m_prompt, s.workload.promptTokens);

    int hardwareIndex = m_hardwarePreset->count() - 1;
    const auto& hardware = model::hardwarePresets();
    for (int i = 0; i < int(hardware.size()); ++i) {
        if (sameHardware(hardware[size_t(i)].hardware, s.hardware)) {
            hardwareIndex = i;
            break;
        }
    }
    setIndexQuietly(m_hardwarePreset, hardwareIndex);
    setQuietly(m_bandwidth, s.hardware.bandwidthBytesPerSecond / kTera);
    setQuietly(m_peakFlops, s.hardware.peakFlopsPerSecond / kTera);
    setQuietly(m_gpus, s.hardware.gpus);

    setQuietly(m_bandwidthEfficiency, s.efficiency.bandwidth);
    setQuietly(m_mfuPrefill, s.efficiency.mfuPrefill);
    setQuietly(m_mfuDecode, s.efficiency.mfuDecode);

    if (!m_itlSlo->hasFocus()) {
        std::vector<double> shown;
        QString error;
        if (!parseSlo(m_itlSlo->text(), shown, error) || shown != s.workload.itlSloMs || m_itlSlo->text().isEmpty()) {
            const QSignalBlocker blocker(m_itlSlo);
            m_itlSlo->setText(sloText(s.workload.itlSloMs));
        }
    }
    setQuietly(m_ttft, s.workload.ttftSloMs);
}

} // namespace ridgeline::views
