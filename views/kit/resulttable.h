// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include "document/format.h" // counted(), which the tables' captions use

class QTableWidget;

namespace ridgeline::views {

/**
 * A small read-only results table (Simulation and Calibration tabs): 8.5 pt text, fixed row
 * height, columns stretched, no scroll bars, the whole table high enough for its @p rows rows,
 * every cell pre-filled with an en dash (right aligned), object name @p objectName.
 */
QTableWidget* resultTable(const QString& objectName, int rows, int columns);

} // namespace ridgeline::views
