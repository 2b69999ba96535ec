// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QString>

/**
 * The one palette every plot and panel uses, so a colour means the same thing everywhere:
 * blue is memory (bandwidth, weights read), orange is compute, purple is the KV cache and
 * attention, green is throughput, red marks SLO lines, dark slate is the quantity that rules
 * (t_step, total FLOP), greys are references.
 */
namespace ridgeline::views::palette {

inline QColor memory() { return QColor(0x1f, 0x6f, 0xb4); }      ///< t_mem, weights, bandwidth
inline QColor compute() { return QColor(0xe0, 0x7a, 0x10); }     ///< t_comp, FLOP/s, compute-bound
inline QColor kv() { return QColor(0x7b, 0x3f, 0xb0); }          ///< KV cache, attention term
inline QColor throughput() { return QColor(0x2a, 0x9d, 0x55); }  ///< tokens/s
inline QColor ruling() { return QColor(0x26, 0x2b, 0x36); }      ///< t_step, total
inline QColor slo() { return QColor(0xc6, 0x28, 0x28); }         ///< SLO lines
inline QColor reference() { return QColor(0x8a, 0x90, 0x99); }   ///< reference models, guides
inline QColor grid() { return QColor(0xe3, 0xe6, 0xeb); }        ///< major grid lines
inline QColor subGrid() { return QColor(0xf1, 0xf3, 0xf6); }     ///< minor grid lines
inline QColor axis() { return QColor(0x5a, 0x60, 0x6b); }        ///< axes, tick labels
inline QColor text() { return QColor(0x1d, 0x22, 0x2b); }        ///< titles
inline QColor card() { return QColor(0xff, 0xff, 0xff); }        ///< panel background
inline QColor cardBorder() { return QColor(0xd5, 0xda, 0xe1); }  ///< panel border
inline QColor window() { return QColor(0xee, 0xf1, 0xf5); }      ///< behind the panels
inline QColor error() { return QColor(0xb7, 0x1c, 0x1c); }       ///< banner text and border
inline QColor errorBackground() { return QColor(0xfd, 0xec, 0xea); } ///< banner background

/** @p color as "#rrggbb" for style sheets and rich text. */
inline QString css(const QColor& color) { return color.name(QColor::HexRgb); }

} // namespace ridgeline::views::palette
