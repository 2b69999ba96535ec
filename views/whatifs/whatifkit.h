// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

#include <QString>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFrame;
class QLabel;
class QSpinBox;
class QWidget;

/**
 * Small building blocks shared by the what-if panels (capacity, SLO headroom, workload shape,
 * prefix caching, speculative decoding, triage): cards styled like PlotPanel, titles with a live
 * takeaway, spin boxes that commit on Enter or focus loss, read-only value labels, and quiet
 * setters that re-sync a control from the scenario without emitting its change signal.
 */
namespace ridgeline::views::whatifkit {

/** A white card with the panel border, object name @p objectName. */
QFrame* card(const QString& objectName, QWidget* parent = nullptr);

/** A rich-text title label like PlotPanel's: bold heading, takeaway line below; @p toolTip on hover. */
QLabel* titleLabel(const QString& objectName, const QString& heading, const QString& toolTip);

/** Writes heading and takeaway into @p title (takeaway is plain text, escaped here); no-op when unchanged. */
void setTitle(QLabel* title, const QString& heading, const QString& takeaway);

/** A value label for a figure: selectable plain text, @p toolTip (its formula) on hover. */
QLabel* valueLabel(const QString& objectName, const QString& toolTip);

/** A caption label for a form row whose tooltip repeats @p toolTip. */
QLabel* caption(const QString& text, const QString& toolTip);

/** A QDoubleSpinBox committing on Enter / focus loss (no keyboard tracking), right aligned. */
QDoubleSpinBox* doubleSpin(const QString& objectName, double minimum, double maximum, int decimals, double step,
                           const QString& suffix, const QString& toolTip);

/** A QSpinBox committing on Enter / focus loss, with thousands separators. */
QSpinBox* integerSpin(const QString& objectName, int minimum, int maximum, const QString& suffix,
                      const QString& toolTip);

/** Sets @p value with signals blocked, only when it differs. */
/** Shows @p value in @p spin without emitting valueChanged(), unless it shows that value already (rounded to its
 *  decimals, as it would show it: no repaint); widens the box's range when the value
 *  lies outside it, so the box never shows a clamped number the model does not use. */
void setQuietly(QDoubleSpinBox* spin, double value);
void setQuietly(QSpinBox* spin, int value);
void setQuietly(QComboBox* combo, int index);
void setQuietly(QCheckBox* box, bool checked);

/** Sets @p text on @p label only when it differs (no relayout otherwise). */
void setText(QLabel* label, const QString& text);

/** Compact token count for max-context figures: 131072 -> "128k", 1048576 -> "1,024k", 2000 -> "2,000". */
QString contextTokens(double tokens);

/** Appends " (edited)" to a preset-derived name once (the controls dock's convention). */
std::string editedName(const std::string& name);

} // namespace ridgeline::views::whatifkit
