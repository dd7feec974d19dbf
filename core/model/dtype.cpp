#include "core/model/dtype.h"

#include <algorithm>
#include <cctype>

namespace qatdoctor::core::model {

const char* dtypeName(DType t)
{
    switch (t) {
        case DType::Float32:
            return "float32";
        case DType::Float16:
            return "float16";
        case DType::BFloat16:
            return "bfloat16";
        case DType::Float64:
            return "float64";
        case DType::Int8:
            return "int8";
        case DType::UInt8:
            return "uint8";
        case DType::Int16:
            return "int16";
        case DType::UInt16:
            return "uint16";
        case DType::Int32:
            return "int32";
        case DType::UInt32:
            return "uint32";
        case DType::Int64:
            return "int64";
        case DType::Bool:
            return "bool";
        case DType::Int4:
            return "int4";
        case DType::UInt4:
            return "uint4";
        case DType::Float8E4M3FN:
            return "float8e4m3fn";
        case DType::Float8E5M2:
            return "float8e5m2";
        case DType::Unknown:
            break;
    }
    return "unknown";
}

std::optional<DType> parseDType(const std::string& text)
{
    std::string s;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c)) && c != '\'' && c != '"')
            s.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (s.rfind("torch.", 0) == 0) s = s.substr(6);
    if (s.rfind("horizon.", 0) == 0) s = s.substr(8);
    if (s == "float32" || s == "float" || s == "fp32" || s == "f32") return DType::Float32;
    if (s == "float16" || s == "half" || s == "fp16" || s == "f16") return DType::Float16;
    if (s == "bfloat16" || s == "bf16") return DType::BFloat16;
    if (s == "float64" || s == "double" || s == "fp64") return DType::Float64;
    if (s == "int8" || s == "qint8" || s == "i8") return DType::Int8;
    if (s == "uint8" || s == "quint8" || s == "u8") return DType::UInt8;
    if (s == "int16" || s == "qint16" || s == "i16") return DType::Int16;
    if (s == "uint16" || s == "quint16" || s == "u16") return DType::UInt16;
    if (s == "int32" || s == "qint32" || s == "i32") return DType::Int32;
    if (s == "uint32") return DType::UInt32;
    if (s == "int64" || s == "long") return DType::Int64;
    if (s == "bool") return DType::Bool;
    if (s == "int4" || s == "qint4" || s == "i4") return DType::Int4;
    if (s == "uint4" || s == "quint4" || s == "u4") return DType::UInt4;
    if (s == "float8e4m3fn" || s == "float8_e4m3fn" || s == "fp8e4m3") return DType::Float8E4M3FN;
    if (s == "float8e5m2" || s == "float8_e5m2" || s == "fp8e5m2") return DType::Float8E5M2;
    return std::nullopt;
}

std::optional<DType> integerTypeSpanning(int64_t lo, int64_t hi)
{
    struct Span {
        int64_t lo, hi;
        DType type;
    };
    static constexpr Span kSpans[] = {{-128, 127, DType::Int8},
                                      {0, 255, DType::UInt8},
                                      {-32768, 32767, DType::Int16},
                                      {0, 65535, DType::UInt16}};
    for (const Span& s : kSpans)
        if (s.lo == lo && s.hi == hi) return s.type;
    return std::nullopt;
}

bool isFloat(DType t)
{
    return t == DType::Float32 || t == DType::Float16 || t == DType::BFloat16 || t == DType::Float64;
}

bool isFloat8(DType t)
{
    return t == DType::Float8E4M3FN || t == DType::Float8E5M2;
}

bool isInteger(DType t)
{
    return t == DType::Int8 || t == DType::UInt8 || t == DType::Int16 || t == DType::UInt16 ||
           t == DType::Int32 || t == DType::UInt32 || t == DType::Int64 || t == DType::Int4 ||
           t == DType::UInt4;
}

int bitWidth(DType t)
{
    switch (t) {
        case DType::Int4:
        case DType::UInt4:
            return 4;
        case DType::Int8:
        case DType::UInt8:
        case DType::Bool:
        case DType::Float8E4M3FN:
        case DType::Float8E5M2:
            return 8;
        case DType::Int16:
        case DType::UInt16:
        case DType::Float16:
        case DType::BFloat16:
            return 16;
        case DType::Int32:
        case DType::UInt32:
        case DType::Float32:
            return 32;
        case DType::Int64:
        case DType::Float64:
            return 64;
        case DType::Unknown:
            break;
    }
    return 0;
}

bool isHighPrecision(DType t)
{
    return isFloat(t) || t == DType::Int32 || t == DType::UInt32 || t == DType::Int64;
}

}  // namespace qatdoctor::core::model
