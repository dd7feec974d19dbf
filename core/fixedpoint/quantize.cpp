#include "core/fixedpoint/quantize.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/fixedpoint/simd_ops.h"

namespace qatdoctor::core::fixedpoint {

QRange qrange(DType t)
{
    switch (t) {
        case DType::Int8:
            return {-128, 127};
        case DType::UInt8:
            return {0, 255};
        case DType::Int16:
            return {-32768, 32767};
        case DType::UInt16:
            return {0, 65535};
        case DType::Int32:
            return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
        case DType::UInt32:
            return {0, std::numeric_limits<uint32_t>::max()};
        default:
            return {0, 0};
    }
}

Result<QParams> makeQParams(DType dtype, std::vector<float> scales, std::vector<int64_t> zeroPoints, int axis,
                            const std::vector<int64_t>& shape)
{
    QParams p;
    p.dtype = dtype;
    p.range = qrange(dtype);
    if (p.range.max == 0)
        return makeError("simulate.qparams", std::string("not a quantized type: ") + model::dtypeName(dtype));
    if (scales.empty()) return makeError("simulate.qparams", "empty scale");
    if (zeroPoints.empty()) zeroPoints.assign(1, 0);
    if (zeroPoints.size() != scales.size() && zeroPoints.size() != 1)
        return makeError("simulate.qparams", "scale and zero point sizes differ");
    if (scales.size() > 1) {
        const int rank = static_cast<int>(shape.size());
        if (axis < 0) axis += rank;
        if (axis < 0 || axis >= rank) return makeError("simulate.qparams", "axis out of range");
        if (shape[static_cast<size_t>(axis)] != static_cast<int64_t>(scales.size()))
            return makeError("simulate.qparams", "per-axis scale size " + std::to_string(scales.size()) +
                                                     " does not match dimension " +
                                                     std::to_string(shape[static_cast<size_t>(axis)]));
        p.axis = axis;
    }
    p.scales = std::move(scales);
    p.zeroPoints = std::move(zeroPoints);
    return p;
}

AxisLayout axisLayout(const std::vector<int64_t>& shape, int axis)
{
    AxisLayout l;
    if (axis < 0 || axis >= static_cast<int>(shape.size())) {
        l.inner = shapeSize(shape);
        return l;
    }
    for (int i = 0; i < axis; ++i) l.outer *= shape[static_cast<size_t>(i)];
    l.channels = shape[static_cast<size_t>(axis)];
    for (size_t i = static_cast<size_t>(axis) + 1; i < shape.size(); ++i) l.inner *= shape[i];
    return l;
}

template <class T>
static void quantizeInto(const float* x, T* y, const QParams& p, const AxisLayout& l, RoundMode mode)
{
    // The 8-bit row kernel takes float bounds (exact for 8-bit ranges). The scalar path clamps
    // in double: float(INT32_MAX) is 2^31, which casts to INT32_MIN (3e9 came out negative), and a
    // float sum round(x/s) + zp loses the zero point's low bits beyond 2^24.
    const float lo = static_cast<float>(p.range.min), hi = static_cast<float>(p.range.max);
    const double loD = static_cast<double>(p.range.min), hiD = static_cast<double>(p.range.max);
    int64_t i = 0;
    for (int64_t o = 0; o < l.outer; ++o)
        for (int64_t c = 0; c < l.channels; ++c) {
            const float s = p.scale(c);
            const float zp = static_cast<float>(p.zeroPoint(c));
            const double zpD = static_cast<double>(p.zeroPoint(c));
            if constexpr (sizeof(T) == 1) {
                if (mode == RoundMode::HalfToEven &&
                    quantizeRowX8(x + i, l.inner, s, zp, lo, hi, std::is_signed_v<T>,
                                  reinterpret_cast<uint8_t*>(y + i))) {
                    i += l.inner;
                    continue;
                }
            }
            for (int64_t k = 0; k < l.inner; ++k, ++i) {
                // the division and rounding in float as the specification says (a rounded float
                // is an exact integer), the zero point added and the clamp done in double
                double v = static_cast<double>(roundValue(x[i] / s, mode)) + zpD;
                v = v < loD ? loD : (v > hiD ? hiD : v);  // NaN stays NaN: it gives the zero point
                y[i] = v == v ? static_cast<T>(v) : static_cast<T>(p.zeroPoint(c));
            }
        }
}

Tensor quantize(const Tensor& x, const QParams& p, RoundMode mode)
{
    Tensor y(p.dtype, x.shape());
    Tensor xf = x;
    if (x.dtype() != DType::Float32) xf = Tensor::fromFloats(x.shape(), x.toFloats());
    const AxisLayout l = axisLayout(x.shape(), p.axis);
    dispatchType(p.dtype, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
            quantizeInto<T>(xf.data<float>(), y.data<T>(), p, l, mode);
    });
    return y;
}

Tensor dequantize(const Tensor& q, const QParams& p)
{
    Tensor y(DType::Float32, q.shape());
    const AxisLayout l = axisLayout(q.shape(), p.axis);
    float* out = y.data<float>();
    dispatchType(q.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* in = q.data<T>();
        int64_t i = 0;
        for (int64_t o = 0; o < l.outer; ++o)
            for (int64_t c = 0; c < l.channels; ++c) {
                const float s = p.scale(c);
                const int64_t zp = p.zeroPoint(c);
                for (int64_t k = 0; k < l.inner; ++k, ++i)
                    out[i] = static_cast<float>(static_cast<int64_t>(in[i]) - zp) * s;
            }
    });
    return y;
}

Tensor fakeQuantize(const Tensor& x, const QParams& p, RoundMode mode)
{
    return dequantize(quantize(x, p, mode), p);
}

FixedMultiplier quantizeMultiplier(double real)
{
    FixedMultiplier m;
    if (real < 0) {
        m.negative = true;
        real = -real;
    }
    // a zero, NaN or infinite scale (a dead channel, a broken export) makes the ratio 0, NaN or
    // inf: NaN multiplies to 0, anything past 2^32 saturates every nonzero input anyway
    if (real == 0 || std::isnan(real)) return m;
    real = std::min(real, 4294967296.0);
    int shift = 0;
    const double q = std::frexp(real, &shift);
    auto qFixed = static_cast<int64_t>(std::round(q * static_cast<double>(1ll << 31)));
    if (qFixed == (1ll << 31)) {
        qFixed /= 2;
        ++shift;
    }
    if (shift < -31) {  // too small to represent: the product rounds to zero anyway
        shift = 0;
        qFixed = 0;
    }
    m.multiplier = static_cast<int32_t>(qFixed);
    m.shift = shift;
    return m;
}

int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b)
{
    if (a == b && a == std::numeric_limits<int32_t>::min()) return std::numeric_limits<int32_t>::max();
    const int64_t ab = static_cast<int64_t>(a) * b;
    const int64_t nudge = ab >= 0 ? (1ll << 30) : (1 - (1ll << 30));
    return static_cast<int32_t>((ab + nudge) / (1ll << 31));
}

int32_t roundingDivideByPOT(int32_t x, int exponent)
{
    if (exponent <= 0) return x;
    const int32_t mask = static_cast<int32_t>((1ll << exponent) - 1);
    const int32_t remainder = x & mask;
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

namespace {

// v / 2^n rounded to an integer, ties by `ties` (n >= 1). C++20 shifts of negative numbers are
// arithmetic, so `v >> n` is floor(v / 2^n).
__int128 roundingShift(__int128 v, int n, RoundMode ties)
{
    const __int128 floorQ = v >> n;
    const __int128 rem = v - (floorQ << n);  // in [0, 2^n)
    const __int128 half = __int128{1} << (n - 1);
    bool up = rem > half;
    if (rem == half) {
        switch (ties) {
            case RoundMode::HalfToEven:
                up = (floorQ & 1) != 0;
                break;
            case RoundMode::HalfAwayFromZero:
                up = v > 0;
                break;
            case RoundMode::HalfUp:
                up = true;
                break;
        }
    }
    return floorQ + (up ? 1 : 0);
}

}  // namespace

int32_t multiplyByQuantizedMultiplier(int64_t x, const FixedMultiplier& m, RoundMode ties)
{
    // The exact product fits 128 bits: |x| < 2^63, multiplier < 2^31, and quantizeMultiplier
    // keeps the shift at or below 33. One rounding, of the exact value: the tie rule alone
    // decides, as on hardware that keeps the full product.
    __int128 p = static_cast<__int128>(x) * m.multiplier;
    if (m.negative) p = -p;
    const int right = 31 - m.shift;
    const __int128 r = right > 0 ? roundingShift(p, right, ties) : p * (__int128{1} << -right);
    constexpr int64_t kMax = std::numeric_limits<int32_t>::max(), kMin = std::numeric_limits<int32_t>::min();
    return static_cast<int32_t>(r > kMax ? kMax : (r < kMin ? kMin : static_cast<int64_t>(r)));
}

const char* roundModeName(RoundMode m)
{
    switch (m) {
        case RoundMode::HalfToEven:
            return "half_even";
        case RoundMode::HalfAwayFromZero:
            return "half_away";
        case RoundMode::HalfUp:
            return "half_up";
    }
    return "half_even";
}

std::optional<RoundMode> roundModeFromName(std::string_view name)
{
    for (RoundMode m : {RoundMode::HalfToEven, RoundMode::HalfAwayFromZero, RoundMode::HalfUp})
        if (name == roundModeName(m)) return m;
    return std::nullopt;
}

const char* requantModeName(RequantMode m)
{
    return m == RequantMode::Float ? "float" : "fixed";
}

Requantizer Requantizer::make(double real, int64_t zeroPoint, QRange range)
{
    Requantizer r;
    r.real = real;
    r.fixed = quantizeMultiplier(real);
    r.zeroPoint = zeroPoint;
    r.range = range;
    return r;
}

}  // namespace qatdoctor::core::fixedpoint
