// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/controls/controlspanel.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFontMetrics>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QStyleOptionGroupBox>
#include <QPainter>
#include <QtMath>
#include <QToolButton>
#include <QVBoxLayout>

#include "model/cost/dtype.h"
#include "model/cost/efficiencypresets.h"
#include "model/cost/family.h"
#include "model/cost/formulatext.h"
#include "model/cost/presets.h"
#include "model/cost/scenariokeys.h"
#include "document/format.h"
#include "document/presetmatch.h"
#include "views/kit/accessibility.h"
#include "views/kit/card.h"
#include "views/kit/glossary.h"
#include "views/kit/groundfill.h"
#include "views/kit/inlineblend.h"
#include "views/kit/onelinelabel.h"
#include "views/kit/palette.h"
#include "views/kit/plainlabel.h"
#include "views/kit/plotpanel.h"
#include "views/kit/theme.h"
#include "document/scenariodocument.h"
#include "document/usercatalogue.h"
#include "views/kit/valueslider.h"
#include "views/kit/units.h"
#include "views/whatifs/whatifkit.h"

namespace ridgeline::views {

namespace {

/**
 * A QComboBox sized as QComboBox::AdjustToMinimumContentsLengthWithIcon sizes one (its minimumContentsLength() 'X's of
 * its font and an icon's width, whatever its items: Qt 6.4's QComboBoxPrivate::recomputeSizeHint() for that policy),
 * with the default policy left in place: in Qt 6.4 setSizeAdjustPolicy() builds the combo's popup (its container, list
 * view and delegate: QComboBoxPrivate::adjustComboBoxSize()) at once, 0.67 M instructions a combo before the first
 * frame, for a list nobody has opened (issue 16, thirtieth stop in docs/performance.md). The popup is built when first
 * shown (or at a font change, as QComboBox::changeEvent() builds it).
 */
class MinimumLengthPresetCombo final : public QComboBox {
public:
    explicit MinimumLengthPresetCombo(int minimumContentsLength)
    {
        // Under QComboBox::AdjustToContentsOnFirstShow this stores the length and builds nothing.
        setMinimumContentsLength(minimumContentsLength);
    }

    /** As QComboBox's for the policy, measured on each call (QComboBox's cache of it is reset by every change that
     *  alters it: font, style, icon size, minimum length). */
    QSize sizeHint() const override { return minimumLengthHint(); }
    /** As QComboBox's: measured once, and again only after a style change (Qt 6.4 keeps it across font changes). */
    QSize minimumSizeHint() const override
    {
        if (!m_minimumHint.isValid())
            m_minimumHint = minimumLengthHint();
        return m_minimumHint;
    }

protected:
    void changeEvent(QEvent* event) override
    {
        if (event->type() == QEvent::StyleChange)
            m_minimumHint = QSize();
        QComboBox::changeEvent(event);
    }

private:
    QSize minimumLengthHint() const
    {
        const QFontMetrics metrics = fontMetrics();
        const QSize icon = iconSize();
        QSize hint(minimumContentsLength() * metrics.horizontalAdvance(QLatin1Char('X')) + icon.width() + 4, 0);
        if (!placeholderText().isEmpty())
            hint.setWidth(std::max(hint.width(), metrics.boundingRect(placeholderText()).width()));
        hint.setHeight(std::max(std::max(qCeil(QFontMetricsF(metrics).height()), 14) + 2, icon.height() + 2));
        QStyleOptionComboBox option;
        initStyleOption(&option);
        return style()->sizeFromContents(QStyle::CT_ComboBox, &option, hint, this);
    }

    mutable QSize m_minimumHint; ///< minimumSizeHint(), invalid until measured
};

/** QFormLayout::addRow(@p labelText, @p field) with the label a PlainLabel (its hints measured once, not three times:
 *  views/kit/plainlabel.h): the same label QFormLayout makes (no parent, @p field its buddy). */
void addPlainRow(QFormLayout* form, const QString& labelText, QWidget* field)
{
    auto* label = new PlainLabel(labelText);
    label->setBuddy(field);
    form->addRow(label, field);
}

/** A widget built after start-up as it would have been built at start, in the system's theme, then taken into the theme
 *  shown (presentation mode) as Presentation took the others: fonts scaled, colours. finish() before the widget joins
 *  its parent (inside a scaled parent its fonts would be scaled twice). As WhatIfTabs builds a tab on first show. */
class ThemedBuild {
public:
    ThemedBuild()
        : m_shown(currentTheme())
        , m_base(Theme::system())
        , m_themed(m_shown.kind != m_base.kind || m_shown.fontScale != m_base.fontScale)
    {
        if (m_themed)
            setCurrentTheme(m_base);
    }
    ThemedBuild(const ThemedBuild&) = delete;
    ThemedBuild& operator=(const ThemedBuild&) = delete;
    ~ThemedBuild()
    {
        if (m_themed && !m_finished)
            setCurrentTheme(m_shown);
    }
    /** Takes @p root (built since the constructor, no parent yet) into the theme shown, which is then current again. */
    void finish(QWidget* root) const
    {
        m_finished = true;
        if (!m_themed)
            return;
        scaleFonts(root, m_shown.fontScale / m_base.fontScale);
        applyTheme(root, m_shown);
    }

private:
    Theme m_shown;
    Theme m_base;
    bool m_themed;
    mutable bool m_finished = false;
};

constexpr double kBillion = 1e9;

QDoubleSpinBox* figureSpin(const QString& objectName, const QString& suffix, int decimals, double maximum,
                           const QString& toolTip)
{
    auto* spin = new QDoubleSpinBox;
    spin->setObjectName(objectName);
    spin->setRange(0.0, maximum);
    spin->setDecimals(decimals);
    spin->setSuffix(suffix);
    spin->setKeyboardTracking(false);
    spin->setGroupSeparatorShown(true);
    spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    spin->setToolTip(toolTip);
    spin->setAccessibleDescription(toolTip);
    return spin;
}

/** One decimal, grouped: "1,978.9". */
QString oneDecimal(double value)
{
    static const QLocale english(QLocale::English, QLocale::UnitedStates);
    return english.toString(value, 'f', 1);
}

/** The row of the scenario key table (model::scenarioKeys()) for @p key, or nullptr. */
const model::KeyInfo* keyInfo(std::string_view key)
{
    for (const model::KeyInfo& info : model::scenarioKeys())
        if (info.key == key)
            return &info;
    return nullptr;
}

/**
 * Sets @p key to @p value (in the key's unit) through the key table's setter, model::setKey: its parsing and its
 * checks (an integer key takes the nearest whole number). A refused value leaves the scenario as it was.
 */
void setKeyValue(model::Scenario& s, const std::string& key, double value)
{
    const model::KeyInfo* info = keyInfo(key);
    if (info && info->kind == model::KeyKind::Integer)
        value = std::round(value);
    const std::string error = model::setKey(s, key, model::formatNumber(value));
    if (!error.empty())
        qWarning("%s", error.c_str());
}

/** @p key's value in @p s (the key's unit) as the key table reads it, model::getKey; 0 for an unset optional. */
double keyValue(const model::Scenario& s, const std::string& key)
{
    const std::string text = model::getKey(s, key);
    double value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value); // C locale, as getKey writes it
    return value;
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

/** Shows @p combo's last ("Custom") entry under the name the status line and the report give the scenario
 *  (document::shownNames()): "Llama 3.1 8B (edited)" for a preset moved away from, the model's own name for one no preset
 *  carries (the model-size slider's "Dense 13 B (Llama 3 family rule)", an imported config), "Custom (edited)" for no
 *  name. Sets the text only when it changes. */
void nameCustomEntry(QComboBox* combo, const std::string& shownName, const char* emptyName)
{
    QString text = QString::fromStdString(shownName);
    if (shownName.empty() || shownName == emptyName)
        text = ControlsPanel::tr("Custom (edited)");
    const int index = combo->count() - 1;
    if (index >= 0 && combo->itemText(index) != text) {
        const QSignalBlocker blocker(combo);
        combo->setItemText(index, text);
    }
}

void setIndexQuietly(QComboBox* combo, int index)
{
    if (combo->currentIndex() == index)
        return;
    const QSignalBlocker blocker(combo);
    combo->setCurrentIndex(index);
}

using whatifkit::setQuietly; // spin boxes: widens the range rather than show a clamped value

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
    // (0, 1] as validate() requires: the box refuses what the scenario would reject (issue 17).
    spin->setRange(0.01, 1.0);
    spin->setDecimals(2);
    spin->setSingleStep(0.05);
    spin->setKeyboardTracking(false);
    spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    spin->setToolTip(toolTip);
    spin->setAccessibleDescription(toolTip);
    return spin;
}

/** A QGroupBox that can paint its own look (frame and title) with a painter given, as its paintEvent() does. */
class GroundGroupBox final : public QGroupBox {
public:
    using QGroupBox::QGroupBox;
    void paintGround(QPainter& painter) const
    {
        QStyleOptionGroupBox option;
        initStyleOption(&option);
        style()->drawComplexControl(QStyle::CC_GroupBox, &option, &painter, this);
    }
};

QGroupBox* group(const QString& title)
{
    auto* box = new GroundGroupBox(title);
    box->setFlat(false);
    // Its frame repainted under a changed child (a model-size step) in strips: blends on this thread, not on the
    // raster engine's pool (views/kit/inlineblend.h).
    box->setStyle(InlineBlend::groupBoxStyle());
    // Its children fill their repaints with the box's inside, one colour: a changed child no longer repaints the box
    // and the panel under it (views/kit/groundfill.h).
    GroundFill::install(box, [box](QPainter& painter) { box->paintGround(painter); });
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
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+")); // compiled once, not once a call
    const QStringList parts = text.split(separators, Qt::SkipEmptyParts);
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

namespace {
/** The KV-heads unit's forms with a three-digit H ("of 888: GQA"), the widest unit text any slider shows. */
QStringList kvHeadsUnitForms()
{
    return {ControlsPanel::tr("of %1").arg(888), ControlsPanel::tr("of %1: MQA").arg(888),
            ControlsPanel::tr("of %1: MHA").arg(888), ControlsPanel::tr("of %1: GQA").arg(888)};
}
} // namespace

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
    layout->addWidget(buildMoeGroup());
    layout->addWidget(buildWorkloadGroup());
    layout->addWidget(buildHardwareGroup());
    layout->addWidget(buildEfficiencyGroup());
    layout->addWidget(buildSloGroup());
    layout->addStretch(1);
    // One unit column for all sliders, as wide as the KV-heads unit's widest form: that unit ("of 32: GQA") follows H on
    // model-size steps, so its spin box stays put and a step lays no control out (issue 16, h16k), and every spin box
    // ends at the same x.
    for (ValueSlider* slider : findChildren<ValueSlider*>())
        slider->reserveUnitWidth(kvHeadsUnitForms());

    rebuildPresetCombos();
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &ControlsPanel::syncFromScenario);
    connect(m_document, &ScenarioDocument::evaluated, this, &ControlsPanel::syncFromEvaluation);
    syncFromScenario();
    syncFromEvaluation();
}

void ControlsPanel::setUserCatalogue(UserCatalogue* catalogue)
{
    if (m_catalogue == catalogue)
        return;
    if (m_catalogue)
        disconnect(m_catalogue, nullptr, this, nullptr);
    m_catalogue = catalogue;
    if (m_catalogue)
        connect(m_catalogue, &UserCatalogue::changed, this, &ControlsPanel::rebuildPresetCombos);
    // The window's constructor gives the catalogue just after the constructor here filled the combos with the
    // built-in presets; an empty catalogue (most users') would fill them again with the same items (0.6 M
    // instructions of start-up, issue 16, fifteenth stop in docs/performance.md).
    const bool catalogueEmpty = !m_catalogue || (m_catalogue->models().empty() && m_catalogue->devices().empty());
    if (catalogueEmpty && !m_listsUserEntries)
        return;
    rebuildPresetCombos();
}

void ControlsPanel::rebuildPresetCombos()
{
    m_modelChoices = model::modelPresets();
    m_builtinModels = m_modelChoices.size();
    m_hardwareChoices = model::hardwarePresets();
    m_builtinHardware = m_hardwareChoices.size();
    if (m_catalogue) {
        m_modelChoices.insert(m_modelChoices.end(), m_catalogue->models().begin(), m_catalogue->models().end());
        m_hardwareChoices.insert(m_hardwareChoices.end(), m_catalogue->devices().begin(), m_catalogue->devices().end());
    }
    m_listsUserEntries = m_modelChoices.size() > m_builtinModels || m_hardwareChoices.size() > m_builtinHardware;

    auto fill = [](QComboBox* combo, const auto& choices, size_t builtin, auto name, const QString& customToolTip) {
        const QSignalBlocker blocker(combo);
        combo->clear();
        for (int i = 0; i < int(choices.size()); ++i) {
            const auto& choice = choices[size_t(i)];
            const QString text = size_t(i) < builtin ? QString::fromStdString(name(choice))
                                                     : tr("%1 (yours)").arg(QString::fromStdString(name(choice)));
            combo->addItem(text, i);
            QString source = QString::fromStdString(choice.source);
            if (size_t(i) >= builtin)
                source = source.isEmpty() ? tr("From your catalogue.") : tr("From your catalogue: %1").arg(source);
            combo->setItemData(i, source, Qt::ToolTipRole);
        }
        addCustomEntry(combo, tr("Custom (edited)"), customToolTip);
    };
    fill(m_modelPreset, m_modelChoices, m_builtinModels, [](const model::ModelPreset& p) { return p.shape.name; },
         tr("The model no longer matches a preset: a slider or an architecture field was moved, or it was imported."));
    fill(m_hardwarePreset, m_hardwareChoices, m_builtinHardware,
         [](const model::HardwarePreset& p) { return p.hardware.name; },
         tr("The hardware no longer matches a preset: a slider or figure was moved."));
    // Adding an item may have made the combo current: re-select from the scenario.
    m_modelPreset->setCurrentIndex(-1);
    m_hardwarePreset->setCurrentIndex(-1);
    syncFromScenario();
}

void ControlsPanel::applyHardwareChoice(int choice)
{
    if (choice < 0 || choice >= int(m_hardwareChoices.size()))
        return;
    const model::Hardware hardware = m_hardwareChoices[size_t(choice)].hardware;
    m_document->edit([hardware](model::Scenario& s) {
        // Tensor parallelism and the all-reduce latency are deployment choices, not the device's.
        const int gpus = s.hardware.gpus;
        const double latency = s.hardware.linkLatencySeconds;
        s.hardware = hardware;
        s.hardware.gpus = gpus;
        s.hardware.linkLatencySeconds = latency;
    });
}

void ControlsPanel::selectUserDevice(int index)
{
    if (!m_catalogue || index < 0 || index >= int(m_catalogue->devices().size()))
        return;
    applyHardwareChoice(int(m_builtinHardware) + index);
}

int ControlsPanel::selectedUserDevice() const
{
    const int index = m_hardwarePreset->currentData().toInt();
    if (!m_catalogue || index < int(m_builtinHardware) || index >= int(m_hardwareChoices.size()))
        return -1;
    return index - int(m_builtinHardware);
}

int ControlsPanel::selectedUserModel() const
{
    const int index = m_modelPreset->currentData().toInt();
    if (!m_catalogue || index < int(m_builtinModels) || index >= int(m_modelChoices.size()))
        return -1;
    return index - int(m_builtinModels);
}

QWidget* ControlsPanel::buildModelGroup()
{
    QGroupBox* box = group(tr("Model"));
    auto* layout = new QVBoxLayout(box);
    layout->setSpacing(4);

    m_modelPreset = new MinimumLengthPresetCombo(14);
    m_modelPreset->setObjectName(QStringLiteral("modelPresetCombo"));
    m_modelPreset->setToolTip(tr("Model preset: replaces the model's shape (N, L, d, H, H_kv, h, vocabulary, MoE,\n"
                                 "MLA and sliding-window fields). The weight and KV precisions and the attention\n"
                                 "FLOP convention keep their settings. Your saved models follow the built-in ones,\n"
                                 "marked \u201c(yours)\u201d. Shows the preset\u2019s name marked \u201c(edited)\u201d once a control\n"
                                 "moves away from it, or the model\u2019s own name (the size slider\u2019s family rule,\n"
                                 "File > Import model config) when it is no preset."));
    m_modelPreset->setAccessibleName(tr("Model preset"));
    connect(m_modelPreset, &QComboBox::activated, this, [this](int index) {
        const int presetIndex = m_modelPreset->itemData(index).toInt();
        if (presetIndex < 0 || presetIndex >= int(m_modelChoices.size()))
            return;
        const model::ModelShape shape = m_modelChoices[size_t(presetIndex)].shape;
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
                                      "the 128 head dim, H = d / 128, head dim 128; H_kv is kept when it divides H\n"
                                      "(else the largest divisor below it, said under the slider). Moving back to\n"
                                      "where you started restores the starting model exactly.\n"
                                      "L, d, H and H_kv stay editable afterwards (Architecture, GQA slider).\n"
                                      "The result is a dense model: MoE, MLA and sliding-window fields are cleared."),
                                   ValueSlider::Scale::Log, 0.5, 2000, 0, 0, 2, false},
                                  box);
    // The dense-family rule (model/cost/family.h) makes the edit: it keeps its anchor across a run of moves.
    bind({.control = m_modelSize,
          .key = "model.params",
          .scale = kBillion,
          .command = [this](double billions) { applyModelSize(billions); },
          .alsoChanges = {"model.name", "model.active_params", "model.layers", "model.hidden", "model.heads", "model.kv_heads",
                          "model.head_dim", "model.experts", "model.experts_per_token", "model.expert_params",
                          "model.kv_lora_rank", "model.rope_head_dim", "model.sliding_window", "model.sliding_layers"}});
    layout->addWidget(m_modelSize);
    // One line under the slider, always there: the shape the size gives (L, d, H, h), or, in the error colour, that the
    // family rule had to change H_kv. It used to be a two-line note shown only then: appearing or going, it laid the
    // controls out again and moved every control below it (4 of a 24-step model-size sweep's steps; issue 16, h16m in
    // docs/performance.md). The line's size hints do not depend on its text, and its box stops the label's layout
    // requests: a new text repaints the line and nothing else.
    m_modelSizeNote = new OneLineLabel(0, box);
    m_modelSizeNote->setObjectName(QStringLiteral("modelSizeNoteLabel"));
    auto* noteBox = new LabelBox(m_modelSizeNote, false, box);
    noteBox->setObjectName(QStringLiteral("modelSizeNoteBox"));
    layout->addWidget(noteBox);

    m_kvHeads = new ValueSlider({QStringLiteral("kvHeads"), tr("KV heads H_kv"), QString(),
                                 tr("Key/value heads H_kv. The slider steps through the divisors of the query\n"
                                    "heads H only: 1 is MQA, H is MHA, anything between is GQA.\n"
                                    "KV cache per token = 2 \u00b7 L \u00b7 H_kv \u00b7 h \u00b7 b_kv."),
                                 ValueSlider::Scale::List, 1, 1024, 0, 1024, 0, true},
                                box);
    bind({.control = m_kvHeads, .key = "model.kv_heads", .mark = KeyBinding::Mark::ModelName});
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
    addPlainRow(form, tr("Weights"), m_weightDtype);
    addPlainRow(form, tr("KV cache"), m_kvDtype);
    addPlainRow(form, tr("Attention"), m_attention);
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
    // The fields are built when first opened (ensureArchitectureFields()): collapsed, they are no part of the first
    // frame (issue 16, twentieth stop in docs/performance.md).
    connect(m_architectureToggle, &QToolButton::toggled, this, [this](bool open) {
        m_architectureToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        if (open)
            ensureArchitectureFields();
        if (m_architecture)
            m_architecture->setVisible(open);
    });
    return container;
}

void ControlsPanel::ensureArchitectureFields()
{
    if (m_architecture)
        return;
    const size_t firstBinding = m_bindings.size();
    const ThemedBuild themed;
    m_architecture = new QGroupBox;
    m_architecture->setObjectName(QStringLiteral("architectureGroup"));
    auto* form = new QFormLayout(m_architecture);
    m_layers = integerSpin(QStringLiteral("layersSpinBox"), 1, 1000, tr("Layers L (attention and KV terms)."));
    m_hidden = integerSpin(QStringLiteral("hiddenSpinBox"), 1, 1 << 20, tr("Hidden size d (d_model)."));
    m_hidden->setSingleStep(128);
    m_heads = integerSpin(QStringLiteral("headsSpinBox"), 1, 4096,
                          tr("Query heads H. H_kv must divide H; the GQA slider offers the divisors."));
    m_headDim = integerSpin(QStringLiteral("headDimSpinBox"), 1, 4096,
                            tr("Head dimension h. d_attn = H \u00b7 h (equal to d for most models, not all)."));
    m_attentionWidth = new PlainLabel;
    m_attentionWidth->setObjectName(QStringLiteral("attentionWidthLabel"));
    m_attentionWidth->setToolTip(tr("Attention width d_attn = H \u00b7 h, used by the attention FLOP terms."));
    addPlainRow(form, tr("Layers L"), m_layers);
    addPlainRow(form, tr("Hidden d"), m_hidden);
    addPlainRow(form, tr("Query heads H"), m_heads);
    addPlainRow(form, tr("Head dim h"), m_headDim);
    addPlainRow(form, tr("d_attn = H\u00b7h"), m_attentionWidth);
    m_architecture->setVisible(false);
    themed.finish(m_architecture);
    qobject_cast<QBoxLayout*>(m_architectureToggle->parentWidget()->layout())->addWidget(m_architecture);

    auto pinningHeadDim = [this](QSpinBox* spin, const char* key) {
        bind({.control = spin,
              .key = key,
              .mark = KeyBinding::Mark::ModelName,
              .rule =
                  [key = std::string(key)](model::Scenario& s, double value) {
                      // The head dim shown stays put when d or H change (it no longer follows d / H).
                      if (!s.model.headDim && s.model.headDimOrDefault() > 0)
                          s.model.headDim = s.model.headDimOrDefault();
                      setKeyValue(s, key, value);
                  },
              .alsoChanges = {"model.head_dim"}});
    };
    pinningHeadDim(m_layers, "model.layers");
    pinningHeadDim(m_hidden, "model.hidden");
    pinningHeadDim(m_heads, "model.heads");
    bind({.control = m_headDim,
          .key = "model.head_dim",
          .mark = KeyBinding::Mark::ModelName,
          .read = [](const model::Scenario& s) { return double(s.model.headDimOrDefault()); }});
    fieldsBuilt(m_architecture, firstBinding);
}

QWidget* ControlsPanel::buildMoeGroup()
{
    auto* container = new QWidget;
    auto* outer = new QVBoxLayout(container);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);

    m_moeToggle = new QToolButton;
    m_moeToggle->setObjectName(QStringLiteral("moeToggle"));
    m_moeToggle->setText(tr("MoE, MLA, sliding window"));
    m_moeToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_moeToggle->setArrowType(Qt::RightArrow);
    m_moeToggle->setCheckable(true);
    m_moeToggle->setChecked(false);
    m_moeToggle->setAutoRaise(true);
    m_moeToggle->setToolTip(tr("Show or hide the mixture-of-experts, latent-attention (MLA) and sliding-window fields.\n"
                               "0 in a field switches that feature off."));
    outer->addWidget(m_moeToggle);

    // The fields are built when first opened (ensureMoeFields()), as the architecture's.
    connect(m_moeToggle, &QToolButton::toggled, this, [this](bool open) {
        m_moeToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        if (open)
            ensureMoeFields();
        if (m_moe)
            m_moe->setVisible(open);
    });
    return container;
}

void ControlsPanel::ensureMoeFields()
{
    if (m_moe)
        return;
    const size_t firstBinding = m_bindings.size();
    const ThemedBuild themed;
    m_moe = new QGroupBox;
    m_moe->setObjectName(QStringLiteral("moeGroup"));
    auto* form = new QFormLayout(m_moe);
    m_experts = integerSpin(QStringLiteral("expertsSpinBox"), 0, 4096,
                            tr("E, routed experts per MoE layer (0: dense). Changing E adds or removes whole\n"
                               "experts: N changes by \u0394E \u00b7 expert size, the shared weights stay.\n"
                               "Decode reads the shared weights plus the experts B tokens touch,\n"
                               "E (1 \u2212 (1 \u2212 k/E)^B) per layer for uniform routing: at B = 1 only k, at\n"
                               "large B all E. Every expert stays resident in HBM."));
    m_expertsPerToken = integerSpin(QStringLiteral("expertsPerTokenSpinBox"), 0, 4096,
                                    tr("k, routed experts each token uses (top-k). N_active = shared + k \u00b7 expert size:\n"
                                       "the FLOP per token and the batch-1 weight read."));
    m_expertParams = new QDoubleSpinBox;
    m_expertParams->setObjectName(QStringLiteral("expertParamsSpinBox"));
    m_expertParams->setRange(0.0, 1e5);
    m_expertParams->setDecimals(3);
    m_expertParams->setSuffix(tr(" B params"));
    m_expertParams->setKeyboardTracking(false);
    m_expertParams->setGroupSeparatorShown(true);
    m_expertParams->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_expertParams->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    m_expertParams->setToolTip(tr("Parameters of one routed expert summed over all MoE layers, in billions\n"
                                  "(Mixtral 8x7B: 3 \u00b7 4,096 \u00b7 14,336 \u00b7 32 layers = 5.64 B). Changing it changes N by\n"
                                  "E \u00b7 \u0394 and N_active by k \u00b7 \u0394."));
    m_expertParams->setAccessibleDescription(m_expertParams->toolTip());
    m_activeParams = new PlainLabel;
    m_activeParams->setObjectName(QStringLiteral("activeParamsLabel"));
    m_activeParams->setToolTip(tr("N_active = N \u2212 (E \u2212 k) \u00b7 expert size: the parameters one token uses."));
    m_kvLoraRank = integerSpin(QStringLiteral("kvLoraRankSpinBox"), 0, 1 << 16,
                               tr("MLA (DeepSeek-style latent attention): r, width of the cached KV latent (0: a standard\n"
                                  "K/V cache). kv_tok = L \u00b7 (r + d_r) \u00b7 b_kv, independent of H_kv. Under tensor\n"
                                  "parallelism the latent is replicated on every GPU (it is not split by head)."));
    m_ropeHeadDim = integerSpin(QStringLiteral("ropeHeadDimSpinBox"), 0, 4096,
                                tr("MLA: d_r, the decoupled RoPE key width cached beside the latent (DeepSeek-V3: 64)."));
    m_slidingWindow = integerSpin(QStringLiteral("slidingWindowSpinBox"), 0, 1 << 24,
                                  tr("Sliding-window attention: tokens a sliding layer holds and attends over (0: every layer\n"
                                     "global). A sliding layer holds min(S, window) tokens of cache; the other layers hold S.\n"
                                     "Prefill attention of a sliding layer grows linearly past the window."));
    m_slidingWindow->setSuffix(tr(" tokens"));
    m_slidingWindow->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    m_slidingLayers = integerSpin(QStringLiteral("slidingLayersSpinBox"), 0, 1000,
                                  tr("How many of the L layers use the window (Gemma 2: every other layer, L / 2).\n"
                                     "All L: attention never overtakes the linear term and there is no P*."));
    addPlainRow(form, tr("Experts E"), m_experts);
    addPlainRow(form, tr("Per token k"), m_expertsPerToken);
    addPlainRow(form, tr("Expert size"), m_expertParams);
    addPlainRow(form, tr("N_active"), m_activeParams);
    addPlainRow(form, tr("KV latent r"), m_kvLoraRank);
    addPlainRow(form, tr("RoPE dim d_r"), m_ropeHeadDim);
    addPlainRow(form, tr("Window"), m_slidingWindow);
    addPlainRow(form, tr("Sliding layers"), m_slidingLayers);
    m_moe->setVisible(false);
    themed.finish(m_moe);
    qobject_cast<QBoxLayout*>(m_moeToggle->parentWidget()->layout())->addWidget(m_moe);

    // The MoE rule (model::setMoeExperts) keeps the shared parameters: N and N_active follow E, k and the expert size.
    const std::vector<std::string> moeKeys = {"model.params", "model.active_params", "model.experts", "model.experts_per_token",
                                              "model.expert_params"};
    bind({.control = m_experts,
          .key = "model.experts",
          .mark = KeyBinding::Mark::ModelName,
          .rule = [](model::Scenario& s, double value) {
              model::setMoeExperts(s.model, int(std::lround(value)), s.model.expertsPerToken, s.model.expertParams);
          },
          .alsoChanges = moeKeys});
    bind({.control = m_expertsPerToken,
          .key = "model.experts_per_token",
          .mark = KeyBinding::Mark::ModelName,
          .rule = [](model::Scenario& s, double value) {
              model::setMoeExperts(s.model, s.model.experts, int(std::lround(value)), s.model.expertParams);
          },
          .alsoChanges = moeKeys});
    bind({.control = m_expertParams,
          .key = "model.expert_params",
          .scale = kBillion,
          .mark = KeyBinding::Mark::ModelName,
          .rule = [](model::Scenario& s, double value) {
              model::setMoeExperts(s.model, s.model.experts, s.model.expertsPerToken, value);
          },
          .alsoChanges = moeKeys});
    bind({.control = m_kvLoraRank, .key = "model.kv_lora_rank", .mark = KeyBinding::Mark::ModelName});
    bind({.control = m_ropeHeadDim, .key = "model.rope_head_dim", .mark = KeyBinding::Mark::ModelName});
    bind({.control = m_slidingWindow, .key = "model.sliding_window", .mark = KeyBinding::Mark::ModelName});
    bind({.control = m_slidingLayers, .key = "model.sliding_layers", .mark = KeyBinding::Mark::ModelName});
    fieldsBuilt(m_moe, firstBinding);
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
    bind({.control = m_batch, .key = "workload.batch"});
    layout->addWidget(m_batch);

    m_context = new ValueSlider({QStringLiteral("context"), tr("Context S"), tr("tokens"),
                                 tr("Tokens each sequence holds in the KV cache during decode\n"
                                    "(0 in the box: weights only)."),
                                 ValueSlider::Scale::Log, 128, 1048576, 0, 1048576, 0, true},
                                box);
    bind({.control = m_context, .key = "workload.context_tokens"});
    layout->addWidget(m_context);

    // P beside S, built like it (log scale, exact box): the prefill plots follow it.
    m_prompt = new ValueSlider({QStringLiteral("prompt"), tr("Prompt P"), tr("tokens"),
                                tr("Prompt length P for prefill, tokens: ") + model::formula(model::Quantity::PrefillFlop)
                                    + tr("\n(workload.prompt_tokens; 0 in the box: no prefill)."),
                                ValueSlider::Scale::Log, 16, 1048576, 0, 1048576, 0, true},
                               box);
    bind({.control = m_prompt, .key = "workload.prompt_tokens"});
    layout->addWidget(m_prompt);
    return box;
}

QWidget* ControlsPanel::buildHardwareGroup()
{
    QGroupBox* box = group(tr("Hardware"));
    auto* layout = new QVBoxLayout(box);
    layout->setSpacing(4);
    m_hardwarePreset = new MinimumLengthPresetCombo(14);
    m_hardwarePreset->setObjectName(QStringLiteral("hardwarePresetCombo"));
    m_hardwarePreset->setToolTip(tr("Accelerator preset: dense (not sparse) peak figures from datasheets.\n"
                                    "Replaces HBM bandwidth, bf16 / fp8 / int8 peaks, memory capacity and link\n"
                                    "bandwidth; keeps the GPU count T and the link latency (deployment choices).\n"
                                    "Your devices (Hardware > Add device) follow the built-in ones, marked \u201c(yours)\u201d."));
    m_hardwarePreset->setAccessibleName(tr("Hardware preset"));
    connect(m_hardwarePreset, &QComboBox::activated, this, [this](int index) {
        applyHardwareChoice(m_hardwarePreset->itemData(index).toInt());
    });
    layout->addWidget(m_hardwarePreset);

    m_bandwidth = new ValueSlider({QStringLiteral("bandwidth"), tr("HBM bandwidth"), tr("TB/s"),
                                   tr("Peak memory bandwidth BW (1 TB/s = 10\u00b9\u00b2 B/s). Decode reads the weights\n"
                                      "and the KV cache every step: ")
                                       + model::formula(model::Quantity::MemoryTime) + QLatin1Char('.'),
                                   ValueSlider::Scale::Log, 0.1, 20, 0, 0, 3, false},
                                  box);
    bind({.control = m_bandwidth, .key = "hardware.bandwidth", .scale = units::kTera, .mark = KeyBinding::Mark::HardwareName});
    layout->addWidget(m_bandwidth);

    m_peakFlops = new ValueSlider({QStringLiteral("peakFlops"), tr("Peak bf16"), tr("TFLOP/s"),
                                   tr("Dense peak F_peak the matmuls run at (1 TFLOP/s = 10\u00b9\u00b2 FLOP/s), labelled with\n"
                                      "their dtype: fp8 weights use the fp8 peak, int8 weights the int8 peak, every other\n"
                                      "dtype (bf16, fp16, int4 as W4A16) the bf16 peak; a device without an fp8 / int8 peak\n"
                                      "falls back to bf16. The slider moves that peak (the fp8 / int8 boxes below show the\n"
                                      "same figure). Ridge point I* = F_peak / BW."),
                                   ValueSlider::Scale::Log, 10, 10000, 0, 0, 1, false},
                                  box);
    // The peak the matmuls run at: its key follows the weights' dtype (model::matmulPeakKey).
    bind({.control = m_peakFlops,
          .keyOf = [](const model::Scenario& s) { return std::string(model::matmulPeakKey(s.hardware, s.model.weightDtype)); },
          .scale = units::kTera,
          .mark = KeyBinding::Mark::HardwareName});
    layout->addWidget(m_peakFlops);

    auto* form = new QFormLayout;
    m_peakFp8 = figureSpin(QStringLiteral("peakFp8SpinBox"), tr(" TFLOP/s"), 1, 1e5,
                           tr("Dense fp8 peak per GPU, used when the weights are fp8.\n"
                              "0: none published; fp8 matmuls then run at the bf16 peak."));
    m_peakInt8 = figureSpin(QStringLiteral("peakInt8SpinBox"), tr(" TOP/s"), 1, 1e5,
                            tr("Dense int8 peak per GPU, used when the weights are int8 (W8A8).\n"
                               "0: none published; int8 matmuls then run at the bf16 peak."));
    m_gpus = integerSpin(QStringLiteral("gpusSpinBox"), 1, 1024,
                         tr("T, GPUs in tensor parallelism. Weights and FLOP split T ways. The KV cache splits\n"
                            "by whole KV heads: each GPU holds ceil(H_kv / T) heads, so with H_kv < T every GPU\n"
                            "still holds one (the cache is replicated); an MLA latent is replicated on every GPU.\n"
                            "Two all-reduces of B \u00b7 d activations per layer cross the link, each moving\n"
                            "2 (T \u2212 1) / T of their bytes, plus the link latency. Bytes, times and capacity\n"
                            "are then per GPU."));
    m_linkBandwidth = figureSpin(QStringLiteral("linkBandwidthSpinBox"), tr(" GB/s"), 0, 1e5,
                                 tr("GPU-to-GPU link bandwidth per GPU, one direction (1 GB/s = 10\u2079 B/s;\n"
                                    "NVLink 4: 450 GB/s). Tensor-parallel all-reduces cross it; unused at T = 1."));
    m_linkLatency = figureSpin(QStringLiteral("linkLatencySpinBox"), tr(" \u00b5s"), 1, 1e5,
                               tr("Latency of one all-reduce, microseconds (1 \u00b5s = 10\u207b\u2076 s).\n"
                                  "Added per step at T > 1; a deployment choice, kept when the device changes."));
    m_computeDtype = new QLabel;
    m_computeDtype->setObjectName(QStringLiteral("computeDtypeLabel"));
    m_computeDtype->setWordWrap(true);
    m_computeDtype->setToolTip(tr("The dtype the matmuls run in follows the weights: fp8 \u2192 fp8 peak, int8 \u2192 int8\n"
                                  "peak, anything else \u2192 bf16 peak. A device without that peak falls back to bf16."));
    setLabelColor(m_computeDtype, palette::axis());
    // 0 is "no such peak published" (model::matmulPeakKey falls back to bf16): the box says so rather than "0.0".
    m_peakFp8->setSpecialValueText(tr("none"));
    m_peakInt8->setSpecialValueText(tr("none"));
    m_linkBandwidth->setMinimum(1.0); // validate() requires > 0; the box shows whole GB/s
    addPlainRow(form, tr("fp8 peak"), m_peakFp8);
    addPlainRow(form, tr("int8 peak"), m_peakInt8);
    addPlainRow(form, tr("GPUs (tensor parallel)"), m_gpus);
    addPlainRow(form, tr("Link bandwidth"), m_linkBandwidth);
    addPlainRow(form, tr("Link latency"), m_linkLatency);
    // In a box of its own: the line names the peak in use ("matmuls in bf16: 989.5 TFLOP/s"), so its text changes on
    // every step of the peak-flops slider, and QLabel::setText() then laid the Hardware group and the controls panel out
    // again (every step of a peak-flops sweep; issue 16, h16u in docs/performance.md). The box stops the request and
    // asks its layout again only when the text needs another number of lines at its width.
    auto* computeDtypeBox = new LabelBox(m_computeDtype, false);
    computeDtypeBox->setObjectName(QStringLiteral("computeDtypeBox"));
    form->addRow(computeDtypeBox);
    layout->addLayout(form);
    bind({.control = m_peakFp8, .key = "hardware.peak_flops_fp8", .scale = units::kTera, .mark = KeyBinding::Mark::HardwareName});
    bind({.control = m_peakInt8, .key = "hardware.peak_ops_int8", .scale = units::kTera, .mark = KeyBinding::Mark::HardwareName});
    bind({.control = m_gpus, .key = "hardware.gpus"});
    bind({.control = m_linkBandwidth, .key = "hardware.link_bandwidth", .scale = 1e9, .mark = KeyBinding::Mark::HardwareName});
    bind({.control = m_linkLatency, .key = "hardware.link_latency_s", .scale = 1e-6}); // a deployment choice: no "(edited)"

    // Economics (issue 14; docs/cost-model.md section 5): the price and PUE the numbers panel's cost and energy use.
    auto* price = figureSpin(QStringLiteral("priceSpinBox"), QString(), 2, 1e6,
                             tr("Price of one GPU-hour (economics.price_per_gpu_hour), in economics.currency.\n"
                                "0 (\u201cexample\u201d): the example price of the catalogue device, if any, from\n"
                                "resources/plans/gpu-prices-example.json (USD, illustrative, not a quote).\n"
                                "Drives $ per 1M output and input tokens in the numbers."));
    price->setSpecialValueText(tr("example"));
    price->setAccessibleName(tr("Price per GPU-hour"));
    auto* pue = figureSpin(QStringLiteral("pueSpinBox"), QString(), 2, 10,
                           tr("Power usage effectiveness (economics.pue): facility power / IT power, at least 1.\n"
                              "1.2 by default (an assumption). Multiplies the board power in J per output token\n"
                              "and output tokens/s per MW."));
    pue->setMinimum(1.0); // validate() requires >= 1
    pue->setSingleStep(0.05);
    pue->setStepType(QAbstractSpinBox::DefaultStepType);
    pue->setAccessibleName(tr("PUE"));
    addPlainRow(form, tr("Price/GPU-hour"), price);
    addPlainRow(form, tr("PUE"), pue);
    bind({.control = price, .key = "economics.price_per_gpu_hour"});
    bind({.control = pue, .key = "economics.pue"});
    // The currency as the suffix, elided to the width of "MMMMM" so that a long economics.currency cannot widen
    // the spin box and with it the Controls dock; the whole label is in the tool tip. Elided again only when the
    // currency or the spin box's font changed: every scenario change (each slider step) asks, and elidedText() and
    // horizontalAdvance() shape their texts each time (13 k instructions a model-size step, issue 16, twenty-fourth
    // stop in docs/performance.md).
    const QString priceTip = price->toolTip();
    auto showCurrency = [this, price, priceTip] {
        const QString currency = QString::fromStdString(m_document->scenario().economics.currency);
        const QFont font = price->font();
        const qreal dpi = QFontMetricsF(font).fontDpi();
        if (m_currencyShown && currency == m_currencyElided && font == m_currencyFont && dpi == m_currencyFontDpi)
            return;
        m_currencyShown = true;
        m_currencyElided = currency;
        m_currencyFont = font;
        m_currencyFontDpi = dpi;
        ++m_currencyElisions;
        const QFontMetrics metrics(font);
        const QString suffix = QLatin1Char(' ') + metrics.elidedText(currency, Qt::ElideRight, metrics.horizontalAdvance(QStringLiteral("MMMMM")));
        if (price->suffix() != suffix) {
            price->setSuffix(suffix);
            price->setToolTip(priceTip + tr("\nCurrency: %1").arg(currency));
        }
    };
    connect(m_document, &ScenarioDocument::scenarioChanged, price, showCurrency);
    showCurrency();
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
    addPlainRow(form, tr("\u03b7_bw (bandwidth)"), m_bandwidthEfficiency);
    addPlainRow(form, tr("MFU prefill"), m_mfuPrefill);
    addPlainRow(form, tr("MFU decode"), m_mfuDecode);
    layout->addLayout(form);
    bind({.control = m_bandwidthEfficiency, .key = "efficiency.bandwidth"});
    bind({.control = m_mfuPrefill, .key = "efficiency.mfu_prefill"});
    bind({.control = m_mfuDecode, .key = "efficiency.mfu_decode"});

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

    // Calibrated presets (issue 13): every efficiency fitted to one public measured benchmark, with its error.
    m_efficiencyPreset = new QComboBox;
    m_efficiencyPreset->setObjectName(QStringLiteral("efficiencyPresetCombo"));
    m_efficiencyPreset->setAccessibleName(tr("Measured efficiency preset"));
    m_efficiencyPreset->addItem(tr("Measured…"));
    for (const model::EfficiencyPreset& preset : model::efficiencyPresets()) {
        m_efficiencyPreset->addItem(QString::fromStdString(preset.name), QString::fromStdString(preset.id));
        m_efficiencyPreset->setItemData(m_efficiencyPreset->count() - 1,
                                        QString::fromStdString(model::efficiencyPresetDescription(preset)), Qt::ToolTipRole);
    }
    m_efficiencyPreset->setToolTip(tr("Efficiencies calibrated on public measured serving benchmarks (with the simulator in the loop),\n"
                                      "named by device, engine and batching, with the error the fit made on points it never saw.\n"
                                      "Sets every efficiency, the step, chunk, per-sequence and TTFT overheads, \u03b7_kv and the fitted token budget."));
    layout->addWidget(m_efficiencyPreset);
    connect(m_efficiencyPreset, &QComboBox::activated, this, [this](int index) {
        const model::EfficiencyPreset* preset = model::findEfficiencyPreset(m_efficiencyPreset->itemData(index).toString().toStdString());
        m_efficiencyPreset->setCurrentIndex(0); // a command, not a state: the spin boxes show what it set
        if (preset)
            m_document->edit([e = preset->efficiency, tokens = preset->maxNumTokens](model::Scenario& s) {
                s.efficiency = e;
                s.serving.maxNumTokens = tokens; // the engine budget fitted with them (0: the engine's default)
            });
    });
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
                            "t_step plot with the largest batch that meets it. Press Enter to apply.")
                         + QStringLiteral("\n\n") + glossaryTip(QStringLiteral("ITL")));
    m_itlSlo->setAccessibleName(tr("ITL SLO lines in milliseconds"));
    m_itlSloError = new QLabel;
    m_itlSloError->setObjectName(QStringLiteral("itlSloError"));
    m_itlSloError->setWordWrap(true);
    setLabelColor(m_itlSloError, palette::error());
    m_itlSloError->setVisible(false);
    m_ttft = new QDoubleSpinBox;
    m_ttft->setObjectName(QStringLiteral("ttftSpinBox"));
    m_ttft->setRange(1, 1e7); // validate(): > 0 and at most 1e9 ms
    m_ttft->setDecimals(0);
    m_ttft->setSuffix(tr(" ms"));
    m_ttft->setKeyboardTracking(false);
    m_ttft->setGroupSeparatorShown(true);
    m_ttft->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_ttft->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    m_ttft->setToolTip(tr("Time-to-first-token SLO in ms, compared with the prefill time.") + QStringLiteral("\n\n")
                       + glossaryTip(QStringLiteral("TTFT")));
    addPlainRow(form, tr("ITL SLOs (ms)"), m_itlSlo);
    form->addRow(QString(), m_itlSloError);
    addPlainRow(form, tr("TTFT SLO"), m_ttft);
    layout->addLayout(form);

    connect(m_itlSlo, &QLineEdit::editingFinished, this, &ControlsPanel::applySloText);
    connect(m_itlSlo, &QLineEdit::textEdited, this, [this](const QString& text) {
        std::vector<double> values;
        QString error;
        const bool ok = parseSlo(text, values, error);
        ++m_sloTextParses;
        m_itlSlo->setStyleSheet(ok ? QString() : QStringLiteral("QLineEdit { border: 1px solid %1; }")
                                                     .arg(palette::css(palette::error())));
        m_itlSloError->setText(error);
        m_itlSloError->setVisible(!ok);
    });
    bind({.control = m_ttft, .key = "workload.ttft_slo_ms"});
    return box;
}

void ControlsPanel::applySloText()
{
    std::vector<double> values;
    QString error;
    ++m_sloTextParses;
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

void ControlsPanel::syncCollapsedFields(const model::Scenario& s)
{
    if (m_architecture)
        m_attentionWidth->setText(format::integer(s.model.attentionWidth()));
    if (m_moe) {
        m_expertsPerToken->setEnabled(s.model.experts > 0);
        m_expertParams->setEnabled(s.model.experts > 0);
        m_activeParams->setText(s.model.isMoe() ? tr("%1 of %2 params")
                                                      .arg(format::billionParams(s.model.activeParamsOrTotal()),
                                                           format::billionParams(s.model.params))
                                                : tr("%1 params (dense)").arg(format::billionParams(s.model.params)));
        m_ropeHeadDim->setEnabled(s.model.kvLoraRank > 0);
        m_slidingLayers->setEnabled(s.model.slidingWindow > 0);
    }
}

void ControlsPanel::fieldsBuilt(QWidget* group, size_t firstBinding)
{
    // Drawn from the scenario at once, as syncFromScenario() draws the rest, and named for screen readers as the window
    // names every control after its first paint (names already set are kept).
    const model::Scenario& s = m_document->scenario();
    for (size_t i = firstBinding; i < m_bindings.size(); ++i)
        readKey(m_bindings[i], s);
    syncCollapsedFields(s);
    fillAccessibleNames(group);
}

const std::vector<KeyBinding>& ControlsPanel::keyBindings() const
{
    auto* self = const_cast<ControlsPanel*>(this); // logically const: the collapsed fields' controls, as if built at start
    self->ensureArchitectureFields();
    self->ensureMoeFields();
    return m_bindings;
}

QSpinBox* ControlsPanel::headsSpinBox() const
{
    const_cast<ControlsPanel*>(this)->ensureArchitectureFields();
    return m_heads;
}

void ControlsPanel::bind(KeyBinding binding)
{
    Q_ASSERT(binding.keyOf || keyInfo(binding.key));
    if (binding.mark == KeyBinding::Mark::ModelName)
        binding.alsoChanges.push_back("model.name");
    else if (binding.mark == KeyBinding::Mark::HardwareName)
        binding.alsoChanges.push_back("hardware.name");
    QWidget* control = binding.control;
    const size_t index = m_bindings.size();
    m_bindings.push_back(std::move(binding));
    auto write = [this, index](double shown) { writeKey(m_bindings[index], shown); };
    if (auto* slider = qobject_cast<ValueSlider*>(control))
        connect(slider, &ValueSlider::valueChanged, this, write);
    else if (auto* spin = qobject_cast<QSpinBox*>(control))
        connect(spin, &QSpinBox::valueChanged, this, [write](int value) { write(value); });
    else if (auto* spin = qobject_cast<QDoubleSpinBox*>(control))
        connect(spin, &QDoubleSpinBox::valueChanged, this, write);
    else
        Q_ASSERT_X(false, "ControlsPanel::bind", "not a ValueSlider, QSpinBox or QDoubleSpinBox");
}

void ControlsPanel::writeKey(const KeyBinding& binding, double shown)
{
    const double value = shown * binding.scale; // in the key's unit
    if (binding.command) {
        binding.command(shown);
        return;
    }
    m_document->edit([binding, value](model::Scenario& s) {
        if (binding.rule)
            binding.rule(s, value);
        else
            setKeyValue(s, binding.keyFor(s), value);
        if (binding.mark == KeyBinding::Mark::ModelName)
            s.model.name = whatifkit::editedName(s.model.name);
        else if (binding.mark == KeyBinding::Mark::HardwareName)
            s.hardware.name = whatifkit::editedName(s.hardware.name);
    });
}

void ControlsPanel::readKey(const KeyBinding& binding, const model::Scenario& s)
{
    const double shown = (binding.read ? binding.read(s) : keyValue(s, binding.keyFor(s))) / binding.scale;
    if (auto* slider = qobject_cast<ValueSlider*>(binding.control))
        setQuietly(slider, shown);
    else if (auto* spin = qobject_cast<QSpinBox*>(binding.control))
        setQuietly(spin, int(std::lround(shown)));
    else if (auto* spin = qobject_cast<QDoubleSpinBox*>(binding.control))
        setQuietly(spin, shown);
}

void ControlsPanel::applyModelSize(double billions)
{
    const model::ModelShape current = m_document->scenario().model;
    // The starting point of a run of size moves: the model as it was before the first one. Every
    // move derives from it (so H_kv comes back where it divides H again) and returning the slider to
    // its position, or typing its N, restores it exactly.
    if (!m_sizeAnchor || !document::sameModel(current, m_sizeResult)) {
        m_sizeAnchor = current;
        m_sizeAnchorPosition = m_sizeSyncedPosition;
    }
    const bool back = m_modelSize->lastEditFromSlider() ? m_modelSize->slider()->value() == m_sizeAnchorPosition
                                                        : billions * kBillion == m_sizeAnchor->params;
    model::ModelShape next = *m_sizeAnchor;
    if (!back) {
        next = model::denseFamilyMember(*m_sizeAnchor, billions * kBillion);
        next.name = tr("Dense %1 (Llama 3 family rule)").arg(format::billionParams(billions * kBillion)).toStdString();
    }
    m_sizeResult = next;
    m_document->edit([next](model::Scenario& s) { s.model = next; });
}

void ControlsPanel::syncFromEvaluation()
{
    const model::RooflineResult& roof = m_document->evaluation().roofline;
    const std::string_view dtype = model::dtypeName(roof.computeDtype);
    const QString name = QString::fromUtf8(dtype.data(), qsizetype(dtype.size()));
    const QString unit = roof.computeDtype == model::DType::INT8 ? tr("TOP/s") : tr("TFLOP/s");
    const QString peak = oneDecimal(roof.peakFlopsPerSecond / units::kTera);
    QString text;
    if (roof.computePeakFallback)
        text = tr("no %1 peak on this device: bf16 %2 TFLOP/s used").arg(name, peak);
    else
        text = tr("matmuls in %1: %2 %3").arg(name, peak, unit);
    if (m_computeDtype->text() != text)
        m_computeDtype->setText(text);
}

void ControlsPanel::showModelSizeNote(const model::ModelShape& m, int wantedKvHeads)
{
    QString text;
    QString toolTip;
    if (wantedKvHeads > 0) {
        text = tr("H_kv %1 does not divide H = %2: %3 KV heads here").arg(wantedKvHeads).arg(m.heads).arg(m.kvHeads);
        toolTip = tr("H_kv %1 does not divide H = %2 at this size: %3 KV heads here (%1 again where it divides).\n"
                     "The dense-family rule keeps H_kv where it divides H, else takes the largest divisor below it.")
                      .arg(wantedKvHeads)
                      .arg(m.heads)
                      .arg(m.kvHeads);
    } else {
        text = tr("L %1 \u00b7 d %2 \u00b7 H %3 \u00b7 h %4")
                   .arg(format::integer(m.layers), format::integer(m.hidden), format::integer(m.heads), format::integer(m.headDimOrDefault()));
        toolTip = tr("The model's shape: L layers, hidden size d, H attention heads of head dim h (Architecture below).\n"
                     "Moving N changes L and d by the dense-family rule, H = d / 128.");
    }
    const bool warn = wantedKvHeads > 0;
    if (m_modelSizeNoteWarns != warn || m_modelSizeNote->text().isEmpty()) {
        m_modelSizeNoteWarns = warn;
        QPalette pal = m_modelSizeNote->palette();
        pal.setColor(QPalette::WindowText, warn ? palette::error() : palette::axis());
        m_modelSizeNote->setPalette(pal);
        QFont font = m_modelSizeNote->font();
        font.setBold(warn);
        m_modelSizeNote->setFont(font);
    }
    if (m_modelSizeNote->text() != text)
        m_modelSizeNote->setText(text);
    if (m_modelSizeNote->toolTip() != toolTip)
        m_modelSizeNote->setToolTip(toolTip);
}

void ControlsPanel::syncFromScenario()
{
    const model::Scenario& s = m_document->scenario();

    const int modelMatch = document::matchModelPreset(m_modelChoices, s.model);
    const int hardwareMatch = document::matchHardwarePreset(m_hardwareChoices, s.hardware);
    if (modelMatch < 0 || hardwareMatch < 0) {
        const document::ShownNames names = document::shownNames(s, m_catalogue);
        if (modelMatch < 0)
            nameCustomEntry(m_modelPreset, names.model, "custom model");
        if (hardwareMatch < 0)
            nameCustomEntry(m_hardwarePreset, names.hardware, "custom hardware");
    }
    setIndexQuietly(m_modelPreset, modelMatch >= 0 ? modelMatch : m_modelPreset->count() - 1);
    {
        // The KV-heads slider offers the divisors of H: set them before it shows H_kv.
        std::vector<double> allowed;
        for (int d : divisors(s.model.heads))
            allowed.push_back(d);
        m_kvHeads->setAllowedValues(allowed);
    }
    {
        // The peak slider shows and moves the peak the matmuls use, named by its dtype.
        const model::DType peakDtype = model::matmulPeakDtype(s.hardware, s.model.weightDtype);
        const std::string_view name = model::dtypeName(peakDtype);
        m_peakFlops->setLabelText(tr("Peak %1").arg(QString::fromUtf8(name.data(), qsizetype(name.size()))));
        m_peakFlops->setUnitText(peakDtype == model::DType::INT8 ? tr("TOP/s") : tr("TFLOP/s"));
    }
    for (const KeyBinding& binding : m_bindings)
        readKey(binding, s);
    m_sizeSyncedPosition = m_modelSize->slider()->value();
    {
        const bool fromFamily = m_sizeAnchor && document::sameModel(s.model, m_sizeResult);
        const bool changed = fromFamily && s.model.kvHeads != m_sizeAnchor->kvHeads;
        showModelSizeNote(s.model, changed ? m_sizeAnchor->kvHeads : 0);
    }

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

    syncCollapsedFields(s);

    setIndexQuietly(m_hardwarePreset, hardwareMatch >= 0 ? hardwareMatch : m_hardwarePreset->count() - 1);

    if (!m_itlSlo->hasFocus()) {
        const QString text = m_itlSlo->text();
        if (!m_itlSloParsed || text != m_itlSloParsedText) {
            QString error;
            m_itlSloParsedOk = parseSlo(text, m_itlSloParsedMs, error);
            m_itlSloParsedText = text;
            m_itlSloParsed = true;
            ++m_sloTextParses;
        }
        if (!m_itlSloParsedOk || m_itlSloParsedMs != s.workload.itlSloMs || text.isEmpty()) {
            const QSignalBlocker blocker(m_itlSlo);
            m_itlSlo->setText(sloText(s.workload.itlSloMs));
        }
    }
}

} // namespace ridgeline::views
