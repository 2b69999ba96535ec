// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QTableWidget;

namespace ridgeline::views {

/**
 * A small read-only results table (Simulation and Calibration tabs): 8.5 pt text, fixed row
 * height, columns stretched, no scroll bars, the whole table high enough for its @p rows rows,
 * every cell pre-filled with an en dash (right aligned), object name @p objectName.
 */
QTableWidget* resultTable(const QString& objectName, int rows, int columns);

/** @p one when @p count is 1, else @p many with %1 replaced by the count with thousands separators
 *  ("1 point", "12 points"): plain English without a translation file. */
QString counted(double count, const QString& one, const QString& many);

} // namespace ridgeline::views
