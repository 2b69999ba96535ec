// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QDialog;
class QWidget;

namespace ridgeline::views {

/**
 * Help > Hardware catalogue: the built-in accelerators (resources/presets/hardware.json) in a
 * sortable table with the columns of `ridgeline --list-hardware` (model/cost/hardwarecatalogue.h):
 * memory, bandwidth, dense peaks per dtype, ridge point, board power, link and source. Numeric
 * columns sort by value ("-", none published, sorts lowest). Object names: "hardwareCatalogueDialog",
 * table "hardwareCatalogueTable".
 */
QDialog* createHardwareCatalogueDialog(QWidget* parent);

} // namespace ridgeline::views
