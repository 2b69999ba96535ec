// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QString>

#include "views/kit/theme.h"

/**
 * The one palette every plot and panel uses, so a colour means the same thing everywhere:
 * blue is memory (bandwidth, weights read), orange is compute, purple is the KV cache and
 * attention, green is throughput, red marks SLO lines, dark slate is the quantity that rules
 * (t_step, total FLOP), greys are references.
 */
namespace ridgeline::views::palette {

// Each colour comes from the current views::Theme (light unless the system is dark or presentation
// mode is on); the light theme's values are the ones noted.
inline QColor memory() { return currentTheme().color(Theme::Memory); }         ///< t_mem, weights, bandwidth (#1f6fb4)
inline QColor compute() { return currentTheme().color(Theme::Compute); }       ///< t_comp, FLOP/s, compute-bound (#b0600d)
inline QColor kv() { return currentTheme().color(Theme::Kv); }                 ///< KV cache, attention term (#7b3fb0)
inline QColor throughput() { return currentTheme().color(Theme::Throughput); } ///< tokens/s (#248548)
inline QColor ruling() { return currentTheme().color(Theme::Ruling); }         ///< t_step, total (#262b36)
inline QColor slo() { return currentTheme().color(Theme::Slo); }               ///< SLO lines (#c62828)
inline QColor reference() { return currentTheme().color(Theme::Reference); }   ///< reference models, guides (#6f757f)
inline QColor baseline() { return currentTheme().color(Theme::Baseline); }     ///< pinned baseline A (#5f6b7a)
inline QColor grid() { return currentTheme().color(Theme::Grid); }             ///< major grid lines (#e3e6eb)
inline QColor subGrid() { return currentTheme().color(Theme::SubGrid); }       ///< minor grid lines (#f1f3f6)
inline QColor axis() { return currentTheme().color(Theme::Axis); }             ///< axes, tick labels (#5a606b)
inline QColor text() { return currentTheme().color(Theme::Text); }             ///< titles (#1d222b)
inline QColor card() { return currentTheme().color(Theme::Card); }             ///< panel background (#ffffff)
inline QColor cardBorder() { return currentTheme().color(Theme::CardBorder); } ///< panel border (#d5dae1)
inline QColor window() { return currentTheme().color(Theme::Window); }         ///< behind the panels (#eef1f5)
inline QColor error() { return currentTheme().color(Theme::Error); }           ///< banner text and border (#b71c1c)
inline QColor errorBackground() { return currentTheme().color(Theme::ErrorBackground); } ///< banner background (#fdecea)
inline QColor noticeBackground() { return currentTheme().color(Theme::NoticeBackground); } ///< notice bar (#e8f1fb)

/** @p color with its alpha set to @p alpha (0 transparent to 255 opaque): bands, markers and veils over a plot. */
inline QColor withAlpha(QColor color, int alpha)
{
    color.setAlpha(alpha);
    return color;
}

/** How many scenarios an N-way comparison pins at most (A to F): one colour, dash and marker each. */
inline constexpr int kMaxPinned = 6;

/**
 * The colour of pinned scenario @p slot (0 = A, the baseline colour; 1 to 5 = B to F: Paul Tol's
 * colour-blind-safe "muted" wine, teal, indigo, olive and rose, darkened to 4.5:1 on the card).
 * Each pinned scenario also has its own dash pattern and marker (views/kit/baselinelayer.h), so
 * colour is never the only cue. A slot out of range: the baseline colour.
 */
inline QColor pinned(int slot)
{
    return slot <= 0 || slot >= kMaxPinned ? baseline() : currentTheme().color(Theme::Role(Theme::PinnedB + slot - 1));
}

/** @p color as "#rrggbb" for style sheets and rich text. */
inline QString css(const QColor& color) { return color.name(QColor::HexRgb); }

} // namespace ridgeline::views::palette
