// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/whatifs/whatifkit.h"

#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFrame>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include "document/format.h"
#include "views/kit/palette.h"
#include "views/kit/theme.h"

namespace ridgeline::views::whatifkit {

QFrame* card(const QString& objectName, QWidget* parent)
{
    auto* frame = new QFrame(parent);
    frame->setObjectName(objectName);
    frame->setFrameShape(QFrame::NoFrame);
    frame->setStyleSheet(QStringLiteral("QFrame#%1 { background: %2; border: 1px solid %3; border-radius: 6px; }")
                             .arg(objectName, palette::css(palette::card()), palette::css(palette::cardBorder())));
    return frame;
}

QLabel* titleLabel(const QString& objectName, const QString& heading, const QString& toolTip)
{
    auto* title = new QLabel;
    title->setObjectName(objectName);
    title->setTextFormat(Qt::RichText);
    title->setWordWrap(true);
    title->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title->setToolTip(toolTip);
    title->setAccessibleName(heading);
    title->setStyleSheet(QStringLiteral("QLabel { color: %1; background: transparent; border: none; }")
                             .arg(palette::css(palette::text())));
    setTitle(title, heading, QString());
    return title;
}

void setTitle(QLabel* title, const QString& heading, const QString& takeaway)
{
    const double scale = currentTheme().fontScale; // presentation mode: as large as the plots' titles
    const QString html = QStringLiteral("<span style=\"font-size:%1pt; font-weight:600;\">%3</span>"
                                        "<br><span style=\"font-size:%2pt;\">%4</span>")
                             .arg(10.5 * scale, 0, 'f', 1)
                             .arg(9.0 * scale, 0, 'f', 1)
                             .arg(heading.toHtmlEscaped(), takeaway.toHtmlEscaped());
    if (title->text() != html)
        title->setText(html);
    title->setAccessibleDescription(takeaway);
}

QLabel* valueLabel(const QString& objectName, const QString& toolTip)
{
    auto* label = new QLabel;
    label->setObjectName(objectName);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setToolTip(toolTip);
    label->setStyleSheet(QStringLiteral("QLabel { color: %1; background: transparent; border: none; }")
                             .arg(palette::css(palette::text())));
    return label;
}

QLabel* caption(const QString& text, const QString& toolTip)
{
    auto* label = new QLabel(text);
    label->setToolTip(toolTip);
    label->setStyleSheet(QStringLiteral("QLabel { color: %1; background: transparent; border: none; }")
                             .arg(palette::css(palette::axis())));
    return label;
}

QDoubleSpinBox* doubleSpin(const QString& objectName, double minimum, double maximum, int decimals, double step,
                           const QString& suffix, const QString& toolTip)
{
    auto* spin = new QDoubleSpinBox;
    spin->setObjectName(objectName);
    spin->setRange(minimum, maximum);
    spin->setDecimals(decimals);
    spin->setSingleStep(step);
    spin->setSuffix(suffix);
    spin->setKeyboardTracking(false);
    spin->setGroupSeparatorShown(true);
    spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    spin->setToolTip(toolTip);
    spin->setAccessibleDescription(toolTip);
    return spin;
}

QSpinBox* integerSpin(const QString& objectName, int minimum, int maximum, const QString& suffix,
                      const QString& toolTip)
{
    auto* spin = new QSpinBox;
    spin->setObjectName(objectName);
    spin->setRange(minimum, maximum);
    spin->setSuffix(suffix);
    spin->setKeyboardTracking(false);
    spin->setGroupSeparatorShown(true);
    spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    spin->setToolTip(toolTip);
    spin->setAccessibleDescription(toolTip);
    return spin;
}

void setQuietly(QDoubleSpinBox* spin, double value)
{
    // As QDoubleSpinBox::setValue() rounds it: a value it would show as it shows now is no change. Compared
    // unrounded, the link latency (2 us read back as 2e-6 s / 1e-6 = 2.0000000000000004) was set again on every
    // slider step, and QAbstractSpinBox repaints on every setValue(), the group box behind it too (issue 16, tenth stop).
    if (spin->value() == value || (std::isfinite(value) && spin->value() == QString::number(value, 'f', spin->decimals()).toDouble()))
        return;
    const QSignalBlocker blocker(spin);
    if (std::isfinite(value) && value > spin->maximum())
        spin->setMaximum(value);
    if (std::isfinite(value) && value < spin->minimum())
        spin->setMinimum(value);
    spin->setValue(value);
}

void setQuietly(QSpinBox* spin, int value)
{
    if (spin->value() == value)
        return;
    const QSignalBlocker blocker(spin);
    if (value > spin->maximum())
        spin->setMaximum(value);
    if (value < spin->minimum())
        spin->setMinimum(value);
    spin->setValue(value);
}

void setQuietly(QComboBox* combo, int index)
{
    if (combo->currentIndex() == index)
        return;
    const QSignalBlocker blocker(combo);
    combo->setCurrentIndex(index);
}

void setQuietly(QCheckBox* box, bool checked)
{
    if (box->isChecked() == checked)
        return;
    const QSignalBlocker blocker(box);
    box->setChecked(checked);
}

void setText(QLabel* label, const QString& text)
{
    if (label->text() != text)
        label->setText(text);
}

QString contextTokens(double tokens)
{
    if (!std::isfinite(tokens))
        return format::integer(tokens);
    const double rounded = std::round(tokens);
    if (rounded >= 1024 && std::fmod(rounded, 1024.0) == 0.0)
        return format::integer(rounded / 1024.0) + QStringLiteral("k");
    return format::integer(rounded);
}

std::string editedName(const std::string& name)
{
    static const std::string kSuffix = " (edited)";
    if (name.size() >= kSuffix.size() && name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
        return name;
    return name + kSuffix;
}

} // namespace ridgeline::views::whatifkit
