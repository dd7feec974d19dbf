// Element types as the quantization toolchain sees them.
#pragma once

#include <optional>
#include <string>

namespace qatdoctor::core::model {

enum class DType {
    Unknown,
    Float32,
    Float16,
    BFloat16,
    Float64,
    Int8,
    UInt8,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int64,
    Bool,
    // Narrow quantizer grids (ONNX 1.14+ element types; QONNX FloatQuant / sub-byte Quant). A
    // quantizer narrower than its type keeps its exact range in QuantParams::qmin / qmax.
    Int4,
    UInt4,
    Float8E4M3FN,
    Float8E5M2,
};

// "float32", "int8", ... (lower case; the JSON and UI spelling).
const char* dtypeName(DType t);
// Accepts our names and the spellings users paste: "qint8", "torch.qint8", "torch.float32",
// "quint8", "float", "fp16", "int16"... Unknown spellings give nullopt.
std::optional<DType> parseDType(const std::string& text);

// Float types a tensor computes in (float32, float16, bfloat16, float64); the 8-bit float grids
// are quantizer types, not these.
bool isFloat(DType t);
bool isFloat8(DType t);
bool isInteger(DType t);
int bitWidth(DType t);  // 0 for Unknown
// The integer type whose whole range is [lo, hi] (a quantizer's quant_min / quant_max): -128..127
// is int8, 0..255 uint8, and so on up to 16 bits; reduced ranges give nullopt.
std::optional<DType> integerTypeSpanning(int64_t lo, int64_t hi);
// "High precision" output in the toolchain's sense: int32 or any float type.
bool isHighPrecision(DType t);

}  // namespace qatdoctor::core::model
