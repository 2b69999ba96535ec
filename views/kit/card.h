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
 * with radius @p radiusPx, contents inset by the 1 px border, and no palette of its own (one would reach every
 * widget on the card: issue 16, seventeenth stop (h16s) in docs/performance.md). The look is the one the style sheet
 * "QFrame#name { background: card; border: 1px solid cardBorder; border-radius: R px; }" gave, without Qt
 * installing its style-sheet style on the frame and every widget under it (issue 16: the polish of each
 * of them asked all their ancestors for a style sheet; docs/performance.md).
 */
void makeCard(QFrame* frame, int radiusPx = 6);

/** Whether makeCard() was applied to @p widget (a card painted without a style sheet). */
bool isPaintedCard(const QWidget* widget);

/**
 * Draws no background for @p widget, as the style sheet "background: transparent" drew none: no automatic
 * background fill on it or, for a scroll area (a QChartView too), on its viewport. Its palette is left alone: a
 * transparent one would reach its children (a scroll area's scroll bars drew black; issue 16, seventeenth stop).
 */
void setTransparentBackground(QWidget* widget);

/**
 * Paints @p widget's background in the current theme's colour @p role (a Theme::Role) at each paint, as
 * autoFillBackground() with that colour as the palette's Window did, but through an event filter (the widget is
 * marked opaque, WA_OpaquePaintEvent) and with no palette of its own, which its children would inherit. The colour
 * is read from the theme in force at each paint, so applyTheme() needs no mapping for it.
 */
void paintThemeBackground(QWidget* widget, int role);

/**
 * Gives @p widget the application's palette (QApplication::palette(widget)) with every role of every colour group
 * set, again whenever the application's palette changes: the widgets under it then inherit that palette and none
 * of the colours set on @p widget's ancestors, as they did when a style sheet on it put Qt's style-sheet style on
 * them (under which no widget inherits its parent's palette). applyTheme() leaves its palette alone
 * (holdsApplicationPalette()): those colours are the system's, not the theme's. Issue 16, seventeenth stop (h16s).
 */
void holdApplicationPalette(QWidget* widget);

/** Whether holdApplicationPalette() was applied to @p widget. */
bool holdsApplicationPalette(const QWidget* widget);

/** Colours @p label's text @p color through its palette (WindowText and Text, every colour group), as the style
 *  sheet "QLabel { color: ... }" did; applyTheme() maps it. */
void setLabelColor(QWidget* label, const QColor& color);

} // namespace ridgeline::views
