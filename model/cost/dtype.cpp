// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/dtype.h"

#include <algorithm>
#include <cctype>

namespace ridgeline::model {

double bytesPerElement(DType type)
{
    switch (type) {
    case DType::BF16:
    case DType::FP16: return 2.0;
    case DType::FP8:
    case DType::INT8: return 1.0;
    case DType::INT4: return 0.5;
    case DType::NVFP4: return 0.5 + 1.0 / 16.0;  // one E4M3 scale per 16
    case DType::MXFP4: return 0.5 + 1.0 / 32.0;  // one E8M0 scale per 32
    case DType::Q8_0: return 34.0 / 32.0;        // 32 int8 + one fp16 scale
    case DType::Q4_0: return 18.0 / 32.0;        // 32 x 4 bit + one fp16 scale
    }
    return 2.0;
}

double weightBytesPerParameter(DType type)
{
    if (type == DType::INT4)
        return 0.5 + 2.0 / kInt4WeightGroupSize;
    return bytesPerElement(type);
}

std::string_view dtypeName(DType type)
{
    switch (type) {
    case DType::BF16: return "bf16";
    case DType::FP16: return "fp16";
    case DType::FP8: return "fp8";
    case DType::INT8: return "int8";
    case DType::INT4: return "int4";
    case DType::NVFP4: return "nvfp4";
    case DType::MXFP4: return "mxfp4";
    case DType::Q8_0: return "q8_0";
    case DType::Q4_0: return "q4_0";
    }
    return "bf16";
}

std::optional<DType> parseDType(std::string_view name)
{
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (DType t : kAllDTypes)
        if (dtypeName(t) == lower)
            return t;
    return std::nullopt;
}

} // namespace ridgeline::model
