// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QByteArray>
#include <QString>
#include <QVariant>

#include "model/cost/presets.h"

namespace ridgeline::model {

/**
 * One column of the hardware catalogue table that `--list-hardware` prints and Help > Hardware
 * catalogue shows. Numeric columns are in the unit of @c unit (TB/s, TFLOP/s, ...); the JSON form
 * uses SI units and the key in @c jsonKey.
 */
struct CatalogueColumn {
    const char* header;  ///< short header for the text table and the dialog, e.g. "bf16"
    const char* unit;    ///< display unit, e.g. "TFLOP/s"; empty for text columns
    const char* jsonKey; ///< key in the JSON form (SI units), e.g. "peak_flops_bf16"
    bool numeric;        ///< true: a number (0 or absent is shown as "-"), false: text
};

/**
 * The catalogue's columns, in order: id, name, memory (datasheet GB), memory the device reports
 * (GiB), HBM bandwidth (TB/s), dense peaks bf16 / fp8 / int8 / fp4 (TFLOP/s, TOP/s), ridge point
 * (bf16 peak / bandwidth, FLOP/byte), board power (W), link (GB/s one way), link name, source, scale-up domain (GPUs
 * joined at the link's bandwidth, hardware.scale_up_domain; added last so that the CSV's columns keep their places).
 */
const std::vector<CatalogueColumn>& catalogueColumns();

/**
 * Cell @p column of @p preset: a double in the column's display unit for numeric columns (0 where
 * the vendor publishes none or the figure is not verified), a QString for text columns.
 * Ridge point = hardware.peakFlopsPerSecond / hardware.bandwidthBytesPerSecond.
 */
QVariant catalogueCell(const HardwarePreset& preset, int column);

/**
 * Cell @p column in SI units for the JSON form (B, B/s, FLOP/s, W, FLOP/byte); an invalid QVariant
 * (JSON null) where the figure is 0 (none published / not verified); text columns as QString.
 */
QVariant catalogueCellSi(const HardwarePreset& preset, int column);

/**
 * The built-in catalogue as a plain-text table (one row per device, "-" where a figure is not
 * published), followed by one "name: source" line per device.
 */
QString catalogueText();

/** The built-in catalogue as JSON: {"format_version": 1, "note": ..., "devices": [{jsonKey: value}]}. */
QByteArray catalogueJson();

/** The built-in catalogue as CSV (RFC 4180 quoting), header row "<header> [<unit>]". */
QString catalogueCsv();

} // namespace ridgeline::model
