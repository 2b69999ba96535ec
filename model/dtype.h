// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ridgeline::model {

/**
 * Numeric storage format of weights or KV-cache elements.
 *
 * Bytes per element: bf16 and fp16 2, fp8 and int8 1, int4 0.5 (design/cost-model.md section 2,
 * "b_w, b_kv"). Group-scale overhead of int4 is not counted here.
 */
enum class DType { BF16, FP16, FP8, INT8, INT4 };

/** Bytes per element of @p type (2, 2, 1, 1, 0.5). */
double bytesPerElement(DType type);

/**
 * Bytes per weight in memory, with the quantisation scales: int4 carries one fp16 scale per group
 * of 128 weights (GPTQ/AWQ-style), 0.5 + 2/128 = 0.515625 B; the other types as bytesPerElement.
 */
double weightBytesPerParameter(DType type);

/** Group size of the int4 weight scales counted by weightBytesPerParameter. */
inline constexpr int kInt4WeightGroupSize = 128;

/** Lower-case name used in scenario files and `--set`: "bf16", "fp16", "fp8", "int8", "int4". */
std::string_view dtypeName(DType type);

/** Parses a dtype name (case-insensitive); std::nullopt for anything else. */
std::optional<DType> parseDType(std::string_view name);

/** All dtypes in display order. */
inline constexpr DType kAllDTypes[] = {DType::BF16, DType::FP16, DType::FP8, DType::INT8, DType::INT4};

} // namespace ridgeline::model
