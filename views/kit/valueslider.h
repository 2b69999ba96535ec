// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <vector>

#include <QDoubleSpinBox>
#include <QString>
#include <QStringList>
#include <QWidget>

class QLabel;
class QSlider;

namespace ridgeline::views {

/**
 * A QDoubleSpinBox whose arrow keys and buttons step through a caller-supplied rule (a
 * multiplicative nudge on log scales, the next allowed value on list scales) instead of a fixed
 * increment. Without a stepper it behaves like QDoubleSpinBox.
 */
class SteppedSpinBox final : public QDoubleSpinBox {
    Q_OBJECT

public:
    /** Returns the value @p steps steps away from @p value (steps may be negative). */
    using Stepper = std::function<double(double value, int steps)>;

    explicit SteppedSpinBox(QWidget* parent = nullptr);

    /** Installs the stepping rule (empty: QDoubleSpinBox's own singleStep). */
    void setStepper(Stepper stepper);

    void stepBy(int steps) override;

private:
    Stepper m_stepper;
};

/**
 * One labelled control: a horizontal QSlider whose integer positions map linearly,
 * logarithmically or onto a list of allowed values, paired with an exact spin box and a unit
 * label. The value is in display units (billions of parameters, TB/s, tokens...); callers
 * convert to the scenario's SI units.
 *
 * Keyboard: arrow keys nudge (log: about 4.7 % per step, never less than one whole unit on
 * integer controls), Page Up / Page Down jump one decade on log scales, Home / End go to the
 * ends. The slider rounds what it produces to three significant digits (integers on integer
 * controls); the spin box accepts exact values, including ones outside the slider's range
 * when the spin range is wider.
 *
 * valueChanged() is emitted only for user edits, never from setValue().
 */
class ValueSlider final : public QWidget {
    Q_OBJECT

public:
    /** How slider positions map onto values. */
    enum class Scale { Linear, Log, List };

    /** Everything that describes one control. */
    struct Spec {
        QString name;            ///< object-name stem: "<name>Slider", "<name>SpinBox", "<name>Control"
        QString label;           ///< visible label, e.g. "Batch B"
        QString unit;            ///< unit label, e.g. "sequences"
        QString toolTip;         ///< what the control does; also the accessible description
        Scale scale = Scale::Log;
        double minimum = 1;      ///< slider range, display units
        double maximum = 1000;
        double spinMinimum = 0;  ///< spin-box range; when both are 0 the slider range is used
        double spinMaximum = 0;
        int decimals = 0;        ///< spin-box decimals
        bool integer = false;    ///< values are whole numbers
    };

    explicit ValueSlider(const Spec& spec, QWidget* parent = nullptr);

    /** The current value in display units. */
    double value() const { return m_value; }

    /** Shows @p value without emitting valueChanged(). */
    void setValue(double value);

    /** List scale only: the allowed values, ascending (e.g. the divisors of H). */
    void setAllowedValues(const std::vector<double>& values);

    /** Replaces the unit label text (e.g. to describe GQA grouping). */
    void setUnitText(const QString& text);

    /**
     * Keeps the unit label at least as wide as each of @p texts in its font (and never narrower than
     * "tokens/s"), so that a new unit text no wider than those leaves the control's size hints, and so
     * the layouts above it, as they are: a slider step then repaints the unit and lays nothing out
     * (issue 16, h16k: the KV-heads unit "of 27: GQA" / "of 8: MHA" changed its width on most
     * model-size steps). A wider text still widens the column.
     */
    void reserveUnitWidth(const QStringList& texts);

    /** Replaces the visible label (e.g. "Peak fp8" when the matmuls run in fp8). */
    void setLabelText(const QString& text);

    /** True when the last valueChanged() came from the slider (drag, keys, click), false from the spin box. */
    bool lastEditFromSlider() const { return m_lastFromSlider; }

    QSlider* slider() const { return m_slider; }
    QDoubleSpinBox* spinBox() const { return m_spinBox; }

signals:
    /** The user moved the slider or committed the spin box; @p value in display units. */
    void valueChanged(double value);

private:
    int positionForValue(double value) const;
    double valueForPosition(int position) const;
    double quantize(double value) const;
    double nudge(double value, int steps) const;
    void onSliderValueChanged(int position);
    void onSliderAction(int action);
    void onSpinValueChanged(double value);
    void configureSliderRange();
    /** Sets the unit label's minimum width from m_unitMinimumPx and m_reservedUnitTexts in its current font. */
    void applyUnitWidth();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:

    Spec m_spec;
    std::vector<double> m_allowed;
    double m_value = 0;
    bool m_lastFromSlider = false;
    int m_positionsPerDecade = 50;
    QSlider* m_slider = nullptr;
    SteppedSpinBox* m_spinBox = nullptr;
    QLabel* m_label = nullptr;
    QLabel* m_unit = nullptr;
    int m_unitMinimumPx = 0;         ///< "tokens/s" in the unit's font at construction
    QStringList m_reservedUnitTexts; ///< see reserveUnitWidth()
};

} // namespace ridgeline::views
