// Quantization arithmetic: rounding, saturation, quantize/dequantize (per tensor and per axis)
// and the two requantization schemes (exact float multiply, integer multiplier + shift).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/common/result.h"
#include "core/fixedpoint/tensor.h"

namespace qatdoctor::core::fixedpoint {

// How a tie (x.5) rounds. Half to even is ONNX's and ONNX Runtime's (and PyTorch's nearbyint);
// half away from zero is C's round() and gemmlowp/TFLite's; half up (toward +infinity) is the
// add-half-then-shift of many integer datapaths. Boards that disagree with a simulator by one
// step mid-network usually differ here.
enum class RoundMode { HalfToEven, HalfAwayFromZero, HalfUp };

// "half_even", "half_away", "half_up" (the CLI's and the JSON's names).
const char* roundModeName(RoundMode m);
std::optional<RoundMode> roundModeFromName(std::string_view name);

template <class Real>  // float or double
Real roundValue(Real v, RoundMode mode)
{
    switch (mode) {
        case RoundMode::HalfToEven:
            return std::nearbyint(v);
        case RoundMode::HalfAwayFromZero:
            return std::round(v);
        case RoundMode::HalfUp:
            return std::floor(v + Real(0.5));
    }
    return std::nearbyint(v);
}

// Integer range of a quantized type ({0,0} when not an integer type).
struct QRange {
    int64_t min = 0;
    int64_t max = 0;
};
QRange qrange(DType t);

inline int64_t saturate(int64_t v, QRange r)
{
    return v < r.min ? r.min : (v > r.max ? r.max : v);
}

// round(v) (half to even) as an integer for a following saturate(): clamped to +-2^62 first,
// since casting a double beyond int64 is undefined (x86 gives INT64_MIN, so a huge positive
// product saturated to the type's minimum). NaN gives 0.
inline int64_t roundToInt64(double v)
{
    if (v != v) return 0;
    v = std::nearbyint(v);
    return static_cast<int64_t>(v < -0x1p62 ? -0x1p62 : (v > 0x1p62 ? 0x1p62 : v));
}

// Scales and zero points of one tensor: scales.size() == 1 (per tensor) or the size of `axis`.
struct QParams {
    DType dtype = DType::UInt8;
    std::vector<float> scales{1.0f};
    std::vector<int64_t> zeroPoints{0};
    int axis = -1;  // -1 = per tensor (normalised, never negative otherwise)
    QRange range;   // saturation bounds; defaults to the dtype's full range

    bool perAxis() const { return scales.size() > 1 || axis >= 0; }
    float scale(int64_t c) const { return scales[scales.size() == 1 ? 0 : static_cast<size_t>(c)]; }
    int64_t zeroPoint(int64_t c) const
    {
        return zeroPoints[zeroPoints.size() == 1 ? 0 : static_cast<size_t>(c)];
    }
};

// Builds QParams from ONNX-style inputs; checks sizes against the tensor shape.
Result<QParams> makeQParams(DType dtype, std::vector<float> scales, std::vector<int64_t> zeroPoints, int axis,
                            const std::vector<int64_t>& shape);

// ONNX QuantizeLinear: saturate(round(x / scale) + zero_point), the division done in float
// (as the specification's reference and ONNX Runtime do). Input float32; output params.dtype.
Tensor quantize(const Tensor& x, const QParams& p, RoundMode mode = RoundMode::HalfToEven);
// ONNX DequantizeLinear: (q - zero_point) * scale in float32.
Tensor dequantize(const Tensor& q, const QParams& p);
// quantize then dequantize in one pass (the fake-quant of QAT).
Tensor fakeQuantize(const Tensor& x, const QParams& p, RoundMode mode = RoundMode::HalfToEven);

// Outer/channel/inner extents of a per-axis layout: element i belongs to channel (i / inner) % channels.
struct AxisLayout {
    int64_t outer = 1, channels = 1, inner = 1;
};
AxisLayout axisLayout(const std::vector<int64_t>& shape, int axis);

// ---- integer requantization, gemmlowp/TFLite style --------------------------------------------
// real multiplier m (> 0) = q * 2^shift / 2^31 with q in [2^30, 2^31).
struct FixedMultiplier {
    int32_t multiplier = 0;
    int shift = 0;
    bool negative = false;  // folded BatchNorm with a negative gamma flips the sign
};
FixedMultiplier quantizeMultiplier(double realMultiplier);
int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b);
int32_t roundingDivideByPOT(int32_t x, int exponent);
// x * m with the integer pipeline: the exact product x * multiplier * 2^(shift - 31), rounded
// once with `ties`, saturated at int32.
int32_t multiplyByQuantizedMultiplier(int64_t x, const FixedMultiplier& m,
                                      RoundMode ties = RoundMode::HalfToEven);

// How an accumulator is requantized: a float multiply rounded half to even (what ONNX Runtime
// and the QDQ specification do), or fixed-point hardware's integer multiplier + shift, whose
// rounding of ties is a setting (--round). Float ignores `ties` (also in ==): it only carries the
// choice for the fixed-point run a simulation compares against.
struct RequantMode {
    enum class Arithmetic { FloatMultiply, FixedPoint };
    Arithmetic arithmetic = Arithmetic::FloatMultiply;
    RoundMode ties = RoundMode::HalfToEven;

    // Named as the enum values they replaced (RequantMode::Float reads as it always did).
    static const RequantMode Float;  // NOLINT(readability-identifier-naming)
    static const RequantMode Fixed;  // NOLINT(readability-identifier-naming): ties to even
    static RequantMode fixedPoint(RoundMode ties) { return {Arithmetic::FixedPoint, ties}; }
    bool isFixed() const { return arithmetic == Arithmetic::FixedPoint; }
    bool operator==(const RequantMode& o) const
    {
        return arithmetic == o.arithmetic && (!isFixed() || ties == o.ties);
    }
};
inline constexpr RequantMode RequantMode::Float{RequantMode::Arithmetic::FloatMultiply,
                                                RoundMode::HalfToEven};
inline constexpr RequantMode RequantMode::Fixed{RequantMode::Arithmetic::FixedPoint, RoundMode::HalfToEven};
// "float" / "fixed" (the rounding has its own name, roundModeName).
const char* requantModeName(RequantMode m);

// One output channel's requantization: acc (int) -> zero point + round(acc * real).
struct Requantizer {
    double real = 1.0;  // acc scale / output scale
    FixedMultiplier fixed;
    int64_t zeroPoint = 0;
    QRange range;
    static Requantizer make(double real, int64_t zeroPoint, QRange range);
    int64_t apply(int64_t acc, RequantMode mode) const
    {
        int64_t r;
        if (mode == RequantMode::Float)
            r = roundToInt64(static_cast<double>(static_cast<float>(acc) * static_cast<float>(real)));
        else
            r = multiplyByQuantizedMultiplier(acc, fixed, mode.ties);
        return saturate(r + zeroPoint, range);
    }
};

}  // namespace qatdoctor::core::fixedpoint
