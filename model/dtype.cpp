// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/dtype.h"

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
