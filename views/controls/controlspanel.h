// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <QFont>
#include <QString>
#include <QWidget>

#include "model/cost/presets.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace ridgeline::views {

class ScenarioDocument;
class UserCatalogue;
class ValueSlider;

/**
 * A numeric control bound to one scenario key of the `--set` table (model::scenarioKeys(),
 * model/cost/scenariokeys.h). The control shows the key's value divided by @c scale (TB/s for
 * hardware.bandwidth in B/s: scale 1e12) and one generic binding writes it back through model::setKey
 * (the table's parsing and validation; integer keys take the rounded value), in one document edit,
 * unless a rule of the model writes it instead (MoE: model::setMoeExperts; the model-size slider's
 * dense-family rule). The edit marks the preset name it leaves "(edited)".
 */
struct KeyBinding {
    enum class Mark { None, ModelName, HardwareName };

    QWidget* control = nullptr; ///< a ValueSlider, QSpinBox or QDoubleSpinBox
    std::string key{};          ///< the key it shows and edits ("" when keyOf names it per scenario)
    std::function<std::string(const model::Scenario&)> keyOf{}; ///< the key for a scenario (the peak slider's follows the weights)
    double scale = 1.0;         ///< key value = control value x scale
    Mark mark = Mark::None;     ///< the preset name an edit marks "(edited)"
    /** Writes the key's value (in the key's unit) by a rule instead of setKey (MoE, the head-dim pin). */
    std::function<void(model::Scenario&, double)> rule{};
    /** Makes the whole edit itself from the control's value (the family rule keeps an anchor across moves). */
    std::function<void(double)> command{};
    /** The key's value when getKey's text is not what the control shows (an unset optional: its default). */
    std::function<double(const model::Scenario&)> read{};
    std::vector<std::string> alsoChanges{}; ///< keys the rule (or the name mark) may change beside the key

    std::string keyFor(const model::Scenario& scenario) const { return keyOf ? keyOf(scenario) : key; }
};

/**
 * The controls dock's contents: model and hardware presets, the seven sliders (model size N,
 * GQA KV heads, batch B, context S, prompt P, HBM bandwidth, peak FLOP/s), precisions,
 * efficiencies, SLOs, a collapsible architecture group (L, d, H, h) and a collapsible "MoE / MLA /
 * sliding window" group (E, k, expert size, KV latent rank r, RoPE dim d_r, window, sliding layers);
 * in the hardware group the fp8 / int8 peaks, GPUs T, link bandwidth and latency, and a read-only
 * line naming the matmul dtype and the peak the model uses.
 *
 * The preset combos list the built-in presets, then the user's catalogue (setUserCatalogue(),
 * entries marked "(yours)"), then a disabled entry shown when nothing matches, named as the status line names the scenario
 * ("Llama 3.1 8B (edited)"; a name no preset carries as it is; "Custom (edited)" for none).
 * Choosing a device takes all its figures (peaks, memory, link bandwidth) but keeps T and the link
 * latency (deployment choices); choosing a model keeps the weight / KV precisions and the attention
 * FLOP convention.
 *
 * Every control edits the ScenarioDocument; on scenarioChanged() every control re-reads the
 * scenario with its signals blocked, so there is no feedback loop. Values the model rejects are
 * passed on, not clamped away: the document reports them (the window shows a banner).
 *
 * Object names: modelPresetCombo, hardwarePresetCombo, weightDtypeCombo, kvDtypeCombo;
 * attentionCombo; sliders "<stem>Slider" / "<stem>SpinBox" for stems modelSize, kvHeads, batch,
 * context, prompt, bandwidth, peakFlops; gpusSpinBox, bandwidthEfficiencySpinBox, mfuPrefillSpinBox,
 * mfuDecodeSpinBox, floorButton, planningButton, itlSloEdit, itlSloError, ttftSpinBox,
 * architectureToggle, architectureGroup, layersSpinBox, hiddenSpinBox, headsSpinBox,
 * headDimSpinBox; moeToggle, moeGroup, expertsSpinBox, expertsPerTokenSpinBox, expertParamsSpinBox,
 * activeParamsLabel, kvLoraRankSpinBox, ropeHeadDimSpinBox, slidingWindowSpinBox, slidingLayersSpinBox;
 * peakFp8SpinBox, peakInt8SpinBox, linkBandwidthSpinBox, linkLatencySpinBox, computeDtypeLabel; priceSpinBox
 * (economics.price_per_gpu_hour, 0 shown as "example") and pueSpinBox (economics.pue).
 */
class ControlsPanel final : public QWidget {
    Q_OBJECT

public:
    explicit ControlsPanel(ScenarioDocument* document, QWidget* parent = nullptr);

    ValueSlider* modelSizeSlider() const { return m_modelSize; }
    ValueSlider* kvHeadsSlider() const { return m_kvHeads; }
    ValueSlider* batchSlider() const { return m_batch; }
    ValueSlider* contextSlider() const { return m_context; }
    /** Prompt length P (workload.prompt_tokens), log scale like S; drives the prefill plots. */
    ValueSlider* promptSlider() const { return m_prompt; }
    ValueSlider* bandwidthSlider() const { return m_bandwidth; }
    ValueSlider* peakFlopsSlider() const { return m_peakFlops; }
    QComboBox* modelPresetCombo() const { return m_modelPreset; }
    QComboBox* hardwarePresetCombo() const { return m_hardwarePreset; }
    /** "Measured..." efficiency presets (model::efficiencyPresets()); activating one sets every efficiency in one edit. */
    QComboBox* efficiencyPresetCombo() const { return m_efficiencyPreset; }
    /** The query-heads spin box of the architecture fields (built if not yet: ensureArchitectureFields()). */
    QSpinBox* headsSpinBox() const;
    QToolButton* architectureToggle() const { return m_architectureToggle; }
    QToolButton* moeToggle() const { return m_moeToggle; }
    /** "matmuls in fp8: 1,978.9 TFLOP/s", or the bf16 fallback; from the last evaluation. */
    QLabel* computeDtypeLabel() const { return m_computeDtype; }
    /** Every slider and spin box with the scenario key it is bound to (see KeyBinding): in layout order, the collapsed
     *  architecture and MoE fields' last (in the order first opened). Builds those fields if not yet built. */
    const std::vector<KeyBinding>& keyBindings() const;

    /**
     * The architecture fields (architectureGroup: L, d, H, h, d_attn) and the MoE / MLA / sliding-window fields
     * (moeGroup) are built, bound and drawn from the scenario when their toggle first opens them, or when asked for
     * here (keyBindings(), headsSpinBox()); until then the panel holds their toggles alone. Collapsed they are no part
     * of the first frame: 11 spin boxes and 15 labels (issue 16, twentieth stop in docs/performance.md). Built once;
     * nothing happens on later calls.
     */
    void ensureArchitectureFields();
    void ensureMoeFields();

    /**
     * Lists @p catalogue's devices and models in the preset combos after the built-in ones, marked
     * "(yours)", and follows its changed() signal. nullptr: built-in presets only. Not owned. The combos
     * are filled again only when the user's entries they list would change (a catalogue with no entries
     * given to a panel that lists none, as at start-up, leaves them as they are: issue 16, fifteenth stop).
     */
    void setUserCatalogue(UserCatalogue* catalogue);

    /** Index into the catalogue's devices() of the device the scenario's hardware matches, else -1. */
    int selectedUserDevice() const;
    /** Index into the catalogue's models() of the model the scenario's model matches, else -1. */
    int selectedUserModel() const;

    /** Applies the catalogue's device @p index to the scenario as choosing it in the combo does
     *  (T and the link latency kept). Out of range: nothing happens. */
    void selectUserDevice(int index);

    /** Times the price's currency suffix was elided (QFontMetrics::elidedText(), a shaping of the text) since the panel
     *  was made: once per currency and font, not once per scenario change (issue 16, twenty-fourth stop in
     *  docs/performance.md). For tests. */
    long long currencyElisions() const { return m_currencyElisions; }
    /** Times the ITL SLO field's text was parsed into numbers since the panel was made: on the user's edits, and on a
     *  scenario change only when the field's text is not the one parsed last (issue 16, thirty-third stop in
     *  docs/performance.md: a slider step parsed the unchanged text, building a regular expression, every time).
     *  For tests. */
    long long sloTextParses() const { return m_sloTextParses; }

public slots:
    /** Re-reads every control from the document's scenario, signals blocked. */
    void syncFromScenario();
    /** Rewrites the compute-dtype line from the document's last evaluation. */
    void syncFromEvaluation();

private:
    /** Declares @p binding and connects its control's valueChanged() to writeKey(). */
    void bind(KeyBinding binding);
    /** The generic binding: writes @p shown (the control's value) to the scenario as @p binding says. */
    void writeKey(const KeyBinding& binding, double shown);
    /** The collapsed fields' texts and enabled states that no binding reads, from @p s (those built). */
    void syncCollapsedFields(const model::Scenario& s);
    /** @p group just built: its bindings from firstBinding on drawn from the scenario, its controls named. */
    void fieldsBuilt(QWidget* group, size_t firstBinding);
    /** Shows @p scenario's value of @p binding's key in its control, signals blocked. */
    static void readKey(const KeyBinding& binding, const model::Scenario& scenario);
    /** Shows @p m's shape under the model-size slider or, when @p wantedKvHeads > 0 (the H_kv the family rule could not
     *  keep, as it does not divide m.heads), that note in the error colour. One line: no layout pass (issue 16, h16m). */
    void showModelSizeNote(const model::ModelShape& m, int wantedKvHeads);
    /** The model-size slider moved to @p billions: the dense-family member from the anchor (see m_sizeAnchor). */
    void applyModelSize(double billions);
    QWidget* buildModelGroup();
    QWidget* buildArchitectureGroup();
    QWidget* buildMoeGroup();
    void rebuildPresetCombos();
    void applyHardwareChoice(int choice);
    QWidget* buildWorkloadGroup();
    QWidget* buildHardwareGroup();
    QWidget* buildEfficiencyGroup();
    QWidget* buildSloGroup();
    void applySloText();

    ScenarioDocument* m_document = nullptr;

    QString m_currencyElided;   ///< the economics.currency the price's suffix was last elided from, in m_currencyFont
    QFont m_currencyFont;
    qreal m_currencyFontDpi = 0; ///< m_currencyFont's resolution (QFontMetricsF::fontDpi(): QFont::operator== ignores it)
    bool m_currencyShown = false;
    long long m_currencyElisions = 0;

    QComboBox* m_modelPreset = nullptr;
    ValueSlider* m_modelSize = nullptr;
    QLabel* m_modelSizeNote = nullptr;          ///< the shape (L, d, H, h), or that the family rule had to change H_kv
    bool m_modelSizeNoteWarns = false;          ///< m_modelSizeNote shows the H_kv note (error colour, bold)
    std::optional<model::ModelShape> m_sizeAnchor; ///< the model before the current run of size moves
    model::ModelShape m_sizeResult;             ///< the model the last size move produced
    int m_sizeAnchorPosition = -1;              ///< slider position showing the anchor's N
    int m_sizeSyncedPosition = -1;              ///< slider position after the last sync from the scenario
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

    QToolButton* m_moeToggle = nullptr;
    QWidget* m_moe = nullptr;
    QSpinBox* m_experts = nullptr;
    QSpinBox* m_expertsPerToken = nullptr;
    QDoubleSpinBox* m_expertParams = nullptr;
    QLabel* m_activeParams = nullptr;
    QSpinBox* m_kvLoraRank = nullptr;
    QSpinBox* m_ropeHeadDim = nullptr;
    QSpinBox* m_slidingWindow = nullptr;
    QSpinBox* m_slidingLayers = nullptr;

    ValueSlider* m_batch = nullptr;
    ValueSlider* m_context = nullptr;
    ValueSlider* m_prompt = nullptr;

    QComboBox* m_hardwarePreset = nullptr;
    ValueSlider* m_bandwidth = nullptr;
    ValueSlider* m_peakFlops = nullptr;
    QSpinBox* m_gpus = nullptr;
    QDoubleSpinBox* m_peakFp8 = nullptr;
    QDoubleSpinBox* m_peakInt8 = nullptr;
    QDoubleSpinBox* m_linkBandwidth = nullptr;
    QDoubleSpinBox* m_linkLatency = nullptr;
    QLabel* m_computeDtype = nullptr;

    UserCatalogue* m_catalogue = nullptr;
    std::vector<model::ModelPreset> m_modelChoices;      ///< built-in presets, then the user's
    std::vector<model::HardwarePreset> m_hardwareChoices; ///< built-in presets, then the user's
    size_t m_builtinModels = 0;
    size_t m_builtinHardware = 0;
    bool m_listsUserEntries = false; ///< the combos list at least one of the user's models or devices

    QDoubleSpinBox* m_bandwidthEfficiency = nullptr;
    QDoubleSpinBox* m_mfuPrefill = nullptr;
    QDoubleSpinBox* m_mfuDecode = nullptr;
    QPushButton* m_floorButton = nullptr;
    QPushButton* m_planningButton = nullptr;
    QComboBox* m_efficiencyPreset = nullptr;

    QLineEdit* m_itlSlo = nullptr;
    QLabel* m_itlSloError = nullptr;
    /** The ITL SLO text syncFromScenario() parsed last, whether it parsed, and its numbers (ms): the same text parses
     *  to the same numbers, so a step that left the field alone does not parse it again. */
    QString m_itlSloParsedText;
    bool m_itlSloParsed = false; ///< m_itlSloParsedText is set
    bool m_itlSloParsedOk = false;
    std::vector<double> m_itlSloParsedMs;
    long long m_sloTextParses = 0; ///< sloTextParses()
    QDoubleSpinBox* m_ttft = nullptr;

    std::vector<KeyBinding> m_bindings; ///< every slider and spin box, by key
};

/** The divisors of @p heads in ascending order (the allowed H_kv values: MQA 1 ... MHA H). */
std::vector<int> divisors(int heads);

} // namespace ridgeline::views
