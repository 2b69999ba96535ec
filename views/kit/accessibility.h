// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>

class QWidget;

namespace ridgeline::views {

/**
 * Gives every keyboard-focusable widget under @p root that has no accessible name one: from its
 * QFormLayout row label, else the QLabel whose buddy it is, else a button's text, else the first
 * line of its tooltip; and an accessible description from its tooltip when it has none. Names set
 * by the widgets themselves are kept. Call after the panels are built (again for panels added later).
 */
void fillAccessibleNames(QWidget* root);

/**
 * Draws a clear focus frame (QFocusFrame, the style's focus rectangle) around whichever slider under
 * @p window has keyboard focus, so a class can see which control the arrow keys move. Owned by
 * @p window.
 */
void installSliderFocusFrame(QWidget* window);

/** The keyboard-focusable widgets under @p root without an accessible name (for tests). */
QList<QWidget*> unnamedFocusableWidgets(QWidget* root);

} // namespace ridgeline::views
