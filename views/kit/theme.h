// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>

#include <QColor>
#include <QString>

class QWidget;

namespace ridgeline::views {

/**
 * The colours every panel and plot draws with (views::palette reads the current one), plus the
 * scale of fonts and lines. Three themes: light (the default), dark (chosen at start when the
 * system palette is dark) and the projector theme of presentation mode (high contrast, larger
 * fonts, thicker lines). Every role has a colour of its own within a theme, so a widget drawn in
 * one theme can be re-coloured into another by mapping role to role (applyTheme()).
 */
struct Theme {
    enum class Kind { Light, Dark, Presentation };

    /** The colour roles, in the order of colours(). */
    enum Role {
        Memory, Compute, Kv, Throughput, Ruling, Slo, Reference, Baseline, Grid, SubGrid, Axis, Text,
        Card, CardBorder, Window, Error, ErrorBackground, NoticeBackground,
        /// Pinned scenarios B to F of an N-way comparison (A is Baseline): views::palette::pinned().
        PinnedB, PinnedC, PinnedD, PinnedE, PinnedF, RoleCount
    };

    Kind kind = Kind::Light;
    std::array<QColor, RoleCount> colors;
    double fontScale = 1.0; ///< multiplies the plots' and panels' font sizes
    double lineScale = 1.0; ///< multiplies the plots' pen widths and marker sizes

    QColor color(Role role) const { return colors[size_t(role)]; }
    bool isDark() const { return kind == Kind::Dark; }

    static Theme light();
    static Theme dark();
    /** High contrast for a projector: black on white, saturated colours, fonts x1.3, lines x1.8. */
    static Theme presentation();
    /** light() or dark(), following the application palette (the system's colour scheme). */
    static Theme system();
};

/** The theme in force; light() until setCurrentTheme(). */
const Theme& currentTheme();

/** Makes @p theme current without touching existing widgets (call before building them). */
void setCurrentTheme(const Theme& theme);

/**
 * Re-colours and re-scales every widget under @p root from the current theme into @p theme, then
 * makes @p theme current: style sheets (each colour of the old theme replaced by its role's colour
 * in the new), custom widget palettes, every QCustomPlot (background, axes, grids, legend, graphs,
 * scatter styles, items; fonts and pen widths by the ratio of the scales) and every Qt Charts chart.
 * Data and ranges are untouched; plots are replotted (queued).
 */
void applyTheme(QWidget* root, const Theme& theme);

/** Multiplies the font of every widget under @p root (and its own) by @p ratio, each set explicitly,
 *  so a widget whose style sheet stops font propagation scales too. */
void scaleFonts(QWidget* root, double ratio);

/** The colour @p color has in @p to when it is a role colour of @p from (alpha kept); else @p color. */
QColor mapColor(const QColor& color, const Theme& from, const Theme& to);

} // namespace ridgeline::views
