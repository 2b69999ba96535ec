// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include "model/cost/scenario.h"

namespace ridgeline::model {

/** Kind of value a dotted key holds. */
enum class KeyKind { Number, Integer, DType, NumberList, Text, Choice };

/** One scenario key as spelled in scenario files and `--set` (a contract: add, never rename). */
struct KeyInfo {
    std::string_view key;    ///< dotted name, e.g. "hardware.bandwidth"
    KeyKind kind;
    std::string_view unit;   ///< SI unit or "" ("B/s", "FLOP/s", "B", "tokens", "ms", "fraction")
    std::string_view help;   ///< one line for --help and tooltips
};

/** Every key, in the order scenario files are written. */
const std::vector<KeyInfo>& scenarioKeys();

/** Current scenario file format version, written as "format_version". */
inline constexpr int kScenarioFormatVersion = 1;

/** Longest text key value (model.name, hardware.name), in UTF-8 bytes. */
inline constexpr std::size_t kMaxTextBytes = 256;

/**
 * @p text, cut to kMaxTextBytes (at a character boundary), with every control character (below 0x20, and 0x7F) replaced by a space: what a name
 * taken from outside (a file or folder name) must become before it is stored in a text key, whose
 * setter refuses control characters (they would break titles, reports and CSV headers).
 */
std::string oneLineText(std::string_view text);

/**
 * Sets exactly the field named by @p key from text @p value (no other field is re-derived).
 * Numbers accept C-locale decimal and exponent forms ("8.03e9"); lists are comma-separated.
 * Returns an empty string on success, else one sentence naming the key and the value.
 */
std::string setKey(Scenario& scenario, std::string_view key, std::string_view value);

/**
 * The key holding the peak the matmuls run at for @p weights on @p hardware (model::matmulPeakField()):
 * "hardware.peak_flops_fp8" for fp8 weights and "hardware.peak_ops_int8" for int8 weights on a device
 * with that peak, else "hardware.peak_flops" (the bf16 peak; also the fallback).
 */
std::string_view matmulPeakKey(const Hardware& hardware, DType weights);

/** Reads one key's value as text ("" for an unset optional). Unknown key: "". */
std::string getKey(const Scenario& scenario, std::string_view key);

/**
 * Applies a scenario JSON object ({"model": {...}, "hardware": {...}, ...}) onto @p scenario.
 * Keys not in the object keep their values. Unknown keys, wrong types and bad values are errors;
 * on error @p scenario is left unchanged. Returns "" on success, else the message.
 */
std::string applyJson(Scenario& scenario, const QJsonObject& object);

/** Parses scenario JSON text and applies it over @p scenario (unchanged on error). */
std::string applyJsonText(Scenario& scenario, const QByteArray& json);

/** Serialises every key of @p scenario as a nested JSON object with "format_version". */
QJsonObject toJson(const Scenario& scenario);

/**
 * Formats a double in the shortest C-locale text that reads back to the same value, as it is usually written: a
 * whole number below 1e9 in digits ("1000000", not the shorter "1e+06") and an exponent without "+" or leading
 * zeros ("1e12", "1e-6"), as messageNumber() (issue 14, h14g). Reads back to the same value either way.
 */
std::string formatNumber(double value);

} // namespace ridgeline::model
