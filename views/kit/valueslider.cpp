// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/valueslider.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QEvent>
#include <QFontMetricsF>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>

#include "views/kit/plainlabel.h"
#include "views/kit/plotpanel.h"

namespace ridgeline::views {

namespace {

constexpr int kLinearPositions = 1000;

double roundToSignificant(double value, int digits)
{
    if (value == 0.0 || !std::isfinite(value))
        return value;
    const double scale = std::pow(10.0, digits - 1 - int(std::floor(std::log10(std::abs(value)))));
    return std::round(value * scale) / scale;
}

/**
 * A horizontal QSlider whose new value repaints only the span its handle moved across (issue 16, fourteenth stop
 * in docs/performance.md). QAbstractSlider repaints the whole slider on every value change, and as a slider is not
 * opaque (the style draws its groove over the parent's background), the group box under it is painted first over the
 * whole width. What a value changes is the handle and the groove's filled part up to it: from the handle as last
 * painted to the new one, a few pixels wider for the handle's outline, the slider's full height.
 */
class StepSlider final : public QSlider {
public:
    using QSlider::QSlider;

protected:
    void sliderChange(SliderChange change) override
    {
        if (change != SliderValueChange || orientation() != Qt::Horizontal || !m_paintedHandle.isValid()) {
            QSlider::sliderChange(change); // repaints the whole slider
            return;
        }
        const QRect now = handleRect();
        const int left = std::min(now.left(), m_paintedHandle.left()) - kOutlinePx;
        const int right = std::max(now.right(), m_paintedHandle.right()) + kOutlinePx;
        update(QRect(left, 0, right - left + 1, height()));
    }
    void paintEvent(QPaintEvent* event) override
    {
        QSlider::paintEvent(event);
        m_paintedHandle = handleRect();
    }
    void resizeEvent(QResizeEvent* event) override
    {
        m_paintedHandle = QRect(); // repainted whole
        QSlider::resizeEvent(event);
    }
    void changeEvent(QEvent* event) override
    {
        m_paintedHandle = QRect(); // a new style, font or state: repainted whole
        QSlider::changeEvent(event);
    }

private:
    static constexpr int kOutlinePx = 4;
    QRect handleRect() const
    {
        QStyleOptionSlider option;
        initStyleOption(&option);
        return style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, this);
    }
    QRect m_paintedHandle; ///< the handle where the last paint drew it; invalid: the next change repaints it all
};

} // namespace

SteppedSpinBox::SteppedSpinBox(QWidget* parent)
    : QDoubleSpinBox(parent)
{
}

void SteppedSpinBox::setStepper(Stepper stepper)
{
    m_stepper = std::move(stepper);
}

void SteppedSpinBox::stepBy(int steps)
{
    if (!m_stepper) {
        QDoubleSpinBox::stepBy(steps);
        return;
    }
    setValue(m_stepper(value(), steps));
    selectAll();
}

ValueSlider::ValueSlider(const Spec& spec, QWidget* parent)
    : QWidget(parent)
    , m_spec(spec)
{
    if (m_spec.spinMinimum == 0 && m_spec.spinMaximum == 0) {
        m_spec.spinMinimum = m_spec.minimum;
        m_spec.spinMaximum = m_spec.maximum;
    }
    setObjectName(m_spec.name + QStringLiteral("Control"));

    m_label = new PlainLabel(m_spec.label, this); // hints measured once (views/kit/plainlabel.h)
    m_label->setObjectName(m_spec.name + QStringLiteral("Label"));
    QFont labelFont = m_label->font();
    labelFont.setBold(true);
    m_label->setFont(labelFont);

    m_spinBox = new SteppedSpinBox(this);
    m_spinBox->setObjectName(m_spec.name + QStringLiteral("SpinBox"));
    m_spinBox->setDecimals(m_spec.decimals);
    m_spinBox->setRange(m_spec.spinMinimum, m_spec.spinMaximum);
    m_spinBox->setGroupSeparatorShown(true);
    m_spinBox->setKeyboardTracking(false); // commit on Enter / focus out, not per keystroke
    m_spinBox->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_spinBox->setAccelerated(true);
    m_spinBox->setStepper([this](double value, int steps) { return nudge(value, steps); });
    m_spinBox->setMinimumWidth(m_spinBox->fontMetrics().horizontalAdvance(QStringLiteral("1,048,576")) + 34);

    m_unit = new PlainLabel(m_spec.unit, this);
    m_unit->setObjectName(m_spec.name + QStringLiteral("Unit"));
    m_unitMinimumPx = m_unit->fontMetrics().horizontalAdvance(QStringLiteral("tokens/s"));
    m_unit->setMinimumWidth(m_unitMinimumPx);
    // In a box: a new unit text of the same size (the KV-heads slider's "of 32: GQA", new on most model-size
    // steps) repaints the label without laying the controls out again (issue 16, tenth stop).
    auto* unitBox = new LabelBox(m_unit, false, this);

    m_slider = new StepSlider(Qt::Horizontal, this);
    m_slider->setObjectName(m_spec.name + QStringLiteral("Slider"));
    m_slider->setFocusPolicy(Qt::StrongFocus);
    m_slider->setTracking(true);
    configureSliderRange();

    m_label->setBuddy(m_spinBox);
    const QString scaleNote = m_spec.scale == Scale::Log
        ? tr("Logarithmic slider: arrow keys nudge, Page Up / Page Down move one decade.")
        : m_spec.scale == Scale::List ? tr("The slider steps through the allowed values only.")
                                      : tr("Arrow keys nudge, Page Up / Page Down take larger steps.");
    const QString tip = m_spec.toolTip.isEmpty() ? scaleNote : m_spec.toolTip + QStringLiteral("\n\n") + scaleNote;
    for (QWidget* widget : {static_cast<QWidget*>(m_label), static_cast<QWidget*>(m_spinBox),
                            static_cast<QWidget*>(m_unit), static_cast<QWidget*>(m_slider)})
        widget->setToolTip(tip);
    m_slider->setAccessibleName(m_spec.label);
    m_slider->setAccessibleDescription(tip);
    m_spinBox->setAccessibleName(m_spec.label + QStringLiteral(" (") + m_spec.unit + QStringLiteral(")"));
    m_spinBox->setAccessibleDescription(tip);

    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    layout->setHorizontalSpacing(6);
    layout->setVerticalSpacing(2);
    layout->addWidget(m_label, 0, 0);
    layout->addWidget(m_spinBox, 0, 1);
    layout->addWidget(unitBox, 0, 2);
    layout->addWidget(m_slider, 1, 0, 1, 3);
    layout->setColumnStretch(0, 1);

    connect(m_slider, &QSlider::valueChanged, this, &ValueSlider::onSliderValueChanged);
    connect(m_slider, &QSlider::actionTriggered, this, &ValueSlider::onSliderAction);
    connect(m_spinBox, &QDoubleSpinBox::valueChanged, this, &ValueSlider::onSpinValueChanged);

    setValue(m_spec.minimum);
}

void ValueSlider::configureSliderRange()
{
    const QSignalBlocker blocker(m_slider);
    switch (m_spec.scale) {
    case Scale::Log: {
        const double decades = std::log10(m_spec.maximum / m_spec.minimum);
        m_slider->setRange(0, int(std::ceil(decades * m_positionsPerDecade - 1e-9)));
        m_slider->setSingleStep(1);
        m_slider->setPageStep(m_positionsPerDecade);
        m_slider->setTickInterval(m_positionsPerDecade);
        m_slider->setTickPosition(QSlider::TicksBelow);
        break;
    }
    case Scale::Linear:
        m_slider->setRange(0, kLinearPositions);
        m_slider->setSingleStep(kLinearPositions / 100);
        m_slider->setPageStep(kLinearPositions / 10);
        break;
    case Scale::List: {
        const int count = std::max<int>(1, int(m_allowed.size()));
        m_slider->setRange(0, count - 1);
        m_slider->setSingleStep(1);
        m_slider->setPageStep(std::max(1, count / 4));
        m_slider->setTickInterval(1);
        // QSlider::setTickPosition() calls updateGeometry() even for the position it has: the KV-heads slider's
        // allowed values change on every model-size step, which laid the controls out again each time (issue 16,
        // tenth stop in docs/performance.md).
        if (const auto ticks = count <= 32 ? QSlider::TicksBelow : QSlider::NoTicks; m_slider->tickPosition() != ticks)
            m_slider->setTickPosition(ticks);
        break;
    }
    }
}

void ValueSlider::setAllowedValues(const std::vector<double>& values)
{
    if (values == m_allowed)
        return;
    m_allowed = values;
    std::sort(m_allowed.begin(), m_allowed.end());
    configureSliderRange();
    const QSignalBlocker blocker(m_slider);
    m_slider->setValue(positionForValue(m_value));
}

void ValueSlider::setLabelText(const QString& text)
{
    if (m_label->text() != text) {
        m_label->setText(text);
        m_slider->setAccessibleName(text);
    }
}

void ValueSlider::setUnitText(const QString& text)
{
    if (m_unit->text() != text)
        m_unit->setText(text);
}

void ValueSlider::reserveUnitWidth(const QStringList& texts)
{
    if (m_reservedUnitTexts.isEmpty())
        m_unit->installEventFilter(this); // a new font (presentation mode) measures the texts again
    m_reservedUnitTexts = texts;
    applyUnitWidth();
}

void ValueSlider::applyUnitWidth()
{
    // Each text with its digits replaced by the widest digit, measured in fractional pixels and rounded up, plus one
    // pixel: QLabel's size hint rounds the text's own width up, which horizontalAdvance() rounds to nearest (the unit
    // of 25 and of 128 came out 74 to 76 px against 74 reserved).
    const QFontMetricsF metrics(m_unit->font());
    QChar widestDigit = QLatin1Char('0');
    for (char digit = '1'; digit <= '9'; ++digit)
        if (metrics.horizontalAdvance(QLatin1Char(digit)) > metrics.horizontalAdvance(widestDigit))
            widestDigit = QLatin1Char(digit);
    int width = m_unitMinimumPx;
    for (QString text : std::as_const(m_reservedUnitTexts)) {
        for (QChar& c : text)
            if (c.isDigit())
                c = widestDigit;
        width = std::max(width, int(std::ceil(metrics.horizontalAdvance(text))) + 1);
    }
    if (m_unit->minimumWidth() != width)
        m_unit->setMinimumWidth(width);
}

bool ValueSlider::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_unit && event->type() == QEvent::FontChange && !m_reservedUnitTexts.isEmpty())
        applyUnitWidth();
    return QWidget::eventFilter(watched, event);
}

void ValueSlider::setValue(double value)
{
    m_value = value;
    const QSignalBlocker sliderBlocker(m_slider);
    const QSignalBlocker spinBlocker(m_spinBox);
    m_slider->setValue(positionForValue(value));
    // A value from a file or --set may lie outside the box's range while still valid (or be
    // invalid and reported by the banner): widen the range rather than show a clamped number
    // that is not the one the model uses.
    if (std::isfinite(value) && value > m_spinBox->maximum())
        m_spinBox->setMaximum(value);
    if (std::isfinite(value) && value < m_spinBox->minimum())
        m_spinBox->setMinimum(value);
    if (m_spinBox->value() != value)
        m_spinBox->setValue(value);
}

int ValueSlider::positionForValue(double value) const
{
    switch (m_spec.scale) {
    case Scale::Log: {
        if (!(value > 0))
            return 0;
        const double position = std::log10(value / m_spec.minimum) * m_positionsPerDecade;
        return std::clamp(int(std::lround(position)), m_slider->minimum(), m_slider->maximum());
    }
    case Scale::Linear: {
        const double fraction = (value - m_spec.minimum) / (m_spec.maximum - m_spec.minimum);
        return std::clamp(int(std::lround(fraction * kLinearPositions)), 0, kLinearPositions);
    }
    case Scale::List: {
        int best = 0;
        double bestDistance = std::numeric_limits<double>::infinity();
        for (int i = 0; i < int(m_allowed.size()); ++i) {
            const double distance = std::abs(m_allowed[size_t(i)] - value);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = i;
            }
        }
        return best;
    }
    }
    return 0;
}

double ValueSlider::valueForPosition(int position) const
{
    switch (m_spec.scale) {
    case Scale::Log:
        if (position >= m_slider->maximum())
            return m_spec.maximum;
        return quantize(m_spec.minimum * std::pow(10.0, double(position) / m_positionsPerDecade));
    case Scale::Linear:
        return quantize(m_spec.minimum + (m_spec.maximum - m_spec.minimum) * position / kLinearPositions);
    case Scale::List:
        if (m_allowed.empty())
            return m_value;
        return m_allowed[size_t(std::clamp(position, 0, int(m_allowed.size()) - 1))];
    }
    return m_value;
}

double ValueSlider::quantize(double value) const
{
    double result = m_spec.integer ? std::round(value) : roundToSignificant(value, 3);
    if (!m_spec.integer) {
        const double scale = std::pow(10.0, m_spec.decimals);
        result = std::round(result * scale) / scale;
    }
    return std::clamp(result, m_spec.minimum, m_spec.maximum);
}

double ValueSlider::nudge(double value, int steps) const
{
    if (steps == 0)
        return value;
    double next = value;
    switch (m_spec.scale) {
    case Scale::List: {
        if (m_allowed.empty())
            return value;
        if (steps > 0) {
            auto it = std::upper_bound(m_allowed.begin(), m_allowed.end(), value);
            for (int i = 1; i < steps && it != m_allowed.end(); ++i)
                ++it;
            next = it == m_allowed.end() ? m_allowed.back() : *it;
        } else {
            auto it = std::lower_bound(m_allowed.begin(), m_allowed.end(), value);
            for (int i = 0; i < -steps && it != m_allowed.begin(); ++i)
                --it;
            next = *it;
        }
        break;
    }
    case Scale::Log: {
        if (!(value > 0)) {
            next = steps > 0 ? m_spec.minimum : value;
            break;
        }
        next = value * std::pow(10.0, double(steps) / m_positionsPerDecade);
        next = m_spec.integer ? std::round(next) : roundToSignificant(next, 3);
        if (m_spec.integer && next == std::round(value))
            next = std::round(value) + (steps > 0 ? 1 : -1);
        break;
    }
    case Scale::Linear:
        next = value + steps * (m_spec.maximum - m_spec.minimum) / 100.0;
        break;
    }
    return std::clamp(next, m_spec.spinMinimum, m_spec.spinMaximum);
}

void ValueSlider::onSliderValueChanged(int position)
{
    const double value = valueForPosition(position);
    if (value == m_value)
        return;
    m_value = value;
    {
        const QSignalBlocker blocker(m_spinBox);
        m_spinBox->setValue(value);
    }
    m_lastFromSlider = true;
    emit valueChanged(m_value);
}

void ValueSlider::onSliderAction(int action)
{
    // On integer log sliders one position near the bottom is less than one unit: make every
    // arrow-key nudge move the value by at least one whole step.
    if (!m_spec.integer || m_spec.scale != Scale::Log)
        return;
    if (action != QSlider::SliderSingleStepAdd && action != QSlider::SliderSingleStepSub)
        return;
    const int direction = action == QSlider::SliderSingleStepAdd ? 1 : -1;
    if (valueForPosition(m_slider->sliderPosition()) != m_value)
        return;
    const double target = std::clamp(std::round(m_value) + direction, m_spec.minimum, m_spec.maximum);
    if (target == m_value)
        return;
    int position = positionForValue(target);
    while (valueForPosition(position) == m_value && position > m_slider->minimum()
           && position < m_slider->maximum())
        position += direction;
    m_slider->setSliderPosition(position);
}

void ValueSlider::onSpinValueChanged(double value)
{
    if (value == m_value)
        return;
    m_value = value;
    {
        const QSignalBlocker blocker(m_slider);
        m_slider->setValue(positionForValue(value));
    }
    m_lastFromSlider = false;
    emit valueChanged(m_value);
}

} // namespace ridgeline::views
