// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace ridgeline::views {

class ScenarioDocument;
class ValueSlider;

/**
 * The controls dock's contents: model and hardware presets, the six sliders (model size N,
 * GQA KV heads, batch B, context S, HBM bandwidth, peak FLOP/s), prompt length, precisions,
 * efficiencies, SLOs and a collapsible architecture group (L, d, H, h).
 *
 * Every control edits the ScenarioDocument; on scenarioChanged() every control re-reads the
 * scenario with its signals blocked, so there is no feedback loop. Values the model rejects are
 * passed on, not clamped away: the document reports them (the window shows a banner).
 *
 * Object names: modelPresetCombo, hardwarePresetCombo, weightDtypeCombo, kvDtypeCombo;
 * attentionCombo; sliders "<stem>Slider" / "<stem>SpinBox" for stems modelSize, kvHeads, batch,
 * context, bandwidth, peakFlops; gpusSpinBox, promptSpinBox, bandwidthEfficiencySpinBox, mfuPrefillSpinBox,
 * mfuDecodeSpinBox, floorButton, planningButton, itlSloEdit, itlSloError, ttftSpinBox,
 * architectureToggle, architectureGroup, layersSpinBox, hiddenSpinBox, headsSpinBox,
 * headDimSpinBox.
 */
class ControlsPanel final : public QWidget {
    Q_OBJECT

public:
    explicit ControlsPanel(ScenarioDocument* document, QWidget* parent = nullptr);

    ValueSlider* modelSizeSlider() const { return m_modelSize; }
    ValueSlider* kvHeadsSlider() const { return m_kvHeads; }
    ValueSlider* batchSlider() const { return m_batch; }
    ValueSlider* contextSlider() const { return m_context; }
    ValueSlider* bandwidthSlider() const { return m_bandwidth; }
    ValueSlider* peakFlopsSlider() const { return m_peakFlops; }
    QComboBox* modelPresetCombo() const { return m_modelPreset; }
    QComboBox* hardwarePresetCombo() const { return m_hardwarePreset; }
    QSpinBox* headsSpinBox() const { return m_heads; }
    QToolButton* architectureToggle() const { return m_architectureToggle; }

public slots:
    /** Re-reads every control from the document's scenario, signals blocked. */
    void syncFromScenario();

private:
    QWidget* buildModelGroup();
    QWidget* buildArchitectureGroup();
    QWidget* buildWorkloadGroup();
    QWidget* buildHardwareGroup();
    QWidget* buildEfficiencyGroup();
    QWidget* buildSloGroup();
    void applySloText();

    ScenarioDocument* m_document = nullptr;

    QComboBox* m_modelPreset = nullptr;
    ValueSlider* m_modelSize = nullptr;
    ValueSlider* m_kvHeads = nullptr;
    QComboBox* m_weightDtype = nullptr;
    QComboBox* m_kvDtype = nullptr;
    QComboBox* m_attention = nullptr;

    QToolButton* m_architectureToggle = nullptr;
    QWidget* m_architecture = nullptr;
    QSpinBox* m_layers = nullptr;
    QSpinBox* m_hidden = nullptr;
    QSpinBox* m_heads = nullptr;
    QSpinBox* m_headDim = nullptr;
    QLabel* m_attentionWidth = nullptr;

    ValueSlider* m_batch = nullptr;
    ValueSlider* m_context = nullptr;
    QSpinBox* m_prompt = nullptr;

    QComboBox* m_hardwarePreset = nullptr;
    ValueSlider* m_bandwidth = nullptr;
    ValueSlider* m_peakFlops = nullptr;
    QSpinBox* m_gpus = nullptr;

    QDoubleSpinBox* m_bandwidthEfficiency = nullptr;
    QDoubleSpinBox* m_mfuPrefill = nullptr;
    QDoubleSpinBox* m_mfuDecode = nullptr;
    QPushButton* m_floorButton = nullptr;
    QPushButton* m_planningButton = nullptr;

    QLineEdit* m_itlSlo = nullptr;
    QLabel* m_itlSloError = nullptr;
    QDoubleSpinBox* m_ttft = nullptr;
};

/** The divisors of @p heads in ascending order (the allowed H_kv values: MQA 1 ... MHA H). */
std::vector<int> divisors(int heads);

} // namespace ridgeline::views
