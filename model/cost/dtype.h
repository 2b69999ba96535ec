// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ridgeline::model {

/**
 * Numeric storage format of weights or KV-cache elements.
 *
 * Bytes per element: bf16 and fp16 2, fp8 and int8 1, int4 0.5 (docs/cost-model.md section 2,
 * "b_w, b_kv"). Group-scale overhead of int4 is not counted here.
 *
 * Block-scaled formats carry their scales in the element size, since a block is their unit of storage:
 * - nvfp4: 4-bit E2M1 values plus one fp8 (E4M3) scale per 16 elements, 0.5 + 1/16 = 0.5625 B
 *   (NVIDIA NVFP4; the per-tensor fp32 scale is not counted);
 * - mxfp4: 4-bit E2M1 values plus one 8-bit E8M0 scale per 32 elements, 0.5 + 1/32 = 0.53125 B
 *   (OCP Microscaling spec v1.0, the format of gpt-oss's experts);
 * - q8_0: blocks of 32 int8 values with one fp16 scale, 34 B per 32 = 1.0625 B (llama.cpp / GGML);
 * - q4_0: blocks of 32 4-bit values with one fp16 scale, 18 B per 32 = 0.5625 B (llama.cpp / GGML).
 * New values are appended: the numeric values of the first five are stored by the window's combo boxes.
 */
enum class DType { BF16, FP16, FP8, INT8, INT4, NVFP4, MXFP4, Q8_0, Q4_0 };

/** Bytes per element of @p type, scales of the block-scaled formats included (2, 2, 1, 1, 0.5, 0.5625, 0.53125, 1.0625, 0.5625). */
double bytesPerElement(DType type);

/**
 * Bytes per weight in memory, with the quantisation scales: int4 carries one fp16 scale per group
 * of 128 weights (GPTQ/AWQ-style), 0.5 + 2/128 = 0.515625 B; the other types as bytesPerElement.
 */
double weightBytesPerParameter(DType type);

/** Group size of the int4 weight scales counted by weightBytesPerParameter. */
inline constexpr int kInt4WeightGroupSize = 128;

/** Lower-case name used in scenario files and `--set`: "bf16", "fp16", "fp8", "int8", "int4", "nvfp4", "mxfp4", "q8_0", "q4_0". */
std::string_view dtypeName(DType type);

/** Parses a dtype name (case-insensitive); std::nullopt for anything else. */
std::optional<DType> parseDType(std::string_view name);

/** All dtypes in display order. */
inline constexpr DType kAllDTypes[] = {DType::BF16,  DType::FP16,  DType::FP8,  DType::INT8, DType::INT4,
                                       DType::NVFP4, DType::MXFP4, DType::Q8_0, DType::Q4_0};

/** True for the 4-bit floating-point weight formats whose matmuls run at the fp4 peak (nvfp4, mxfp4). */
inline constexpr bool isFp4(DType type) { return type == DType::NVFP4 || type == DType::MXFP4; }

} // namespace ridgeline::model
