// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QRect>

class QFrame;
class QPainter;
class QWidget;

namespace ridgeline::views {

/**
 * Paints a card: @p rect filled with @p fill inside a 1 px @p border line with corners of radius @p radiusPx,
 * antialiased, pixel for pixel as Qt 6's style-sheet engine draws the rule
 * "background: FILL; border: 1px solid BORDER; border-radius: R px" on a widget of that rect (its background
 * path, then the four edges and their corner arcs, bottom, right, left, top). A rect narrower or lower than two
 * radii gets square corners, as there. Outside the rounded corners nothing is painted.
 */
void paintCard(QPainter& painter, const QRect& rect, const QColor& fill, const QColor& border, int radiusPx);

/**
 * Makes @p frame (a QFrame with no frame shape) a card without a style sheet: painted by paintCard() in the
 * current theme's palette::card() and palette::cardBorder() (read at each paint, so applyTheme() re-colours it),
 * with radius @p radiusPx, contents inset by the 1 px border, and the card's colour as the Window, Base and
 * Button colours of its palette, which its children inherit. The look is the one the style sheet
 * "QFrame#name { background: card; border: 1px solid cardBorder; border-radius: R px; }" gave, without Qt
 * installing its style-sheet style on the frame and every widget under it (issue 16: the polish of each
 * of them asked all their ancestors for a style sheet; docs/performance.md).
 */
void makeCard(QFrame* frame, int radiusPx = 6);

/** Whether makeCard() was applied to @p widget (a card painted without a style sheet). */
bool isPaintedCard(const QWidget* widget);

/**
 * Sets the colours the style sheet "background: transparent" set on @p widget: a transparent Window, Base
 * and Button (and background role) in every colour group, inherited by its children, and no automatic
 * background fill on it or, for a scroll area, its viewport.
 */
void setTransparentBackground(QWidget* widget);

/** Colours @p label's text @p color through its palette (WindowText and Text, every colour group), as the style
 *  sheet "QLabel { color: ... }" did; applyTheme() maps it. */
void setLabelColor(QWidget* label, const QColor& color);

} // namespace ridgeline::views
