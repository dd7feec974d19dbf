#include "core/fixedpoint/resize_kernel.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "core/fixedpoint/node_attrs.h"
#include "core/fixedpoint/resize_coords.h"

namespace qatdoctor::core::fixedpoint {
namespace {

Error planError(const onnx::NodeProto& node, const std::string& what)
{
    return makeError("simulate.resize", "node '" + node.name() + "' (" + node.op_type() + "): " + what);
}

// Why these fraction widths: the sum of W * (x - xZero) must fit the accumulator, int32 for
// 8-bit data as in the hardware (and the int32 input of the fixed-point requantization). An 8-bit
// difference needs 9 bits with the sign, leaving 22 bits for the product of the D per-dimension
// weights, so each gets 22 / D bits, at most 15 (Q15, the usual fraction width): one interpolated
// dimension Q15, two (bilinear) Q11, three Q7. 16-bit data (17-bit differences) accumulate in
// int64 with Q15 (the weights stay 16-bit) for up to three dimensions. A weight rounded to F bits moves the
// sampled point by at most 2^-(F+1) of a pixel per dimension, so the interpolated value moves by at most D *
// range * 2^-(F+1) input steps: 0.125 for 8-bit bilinear Q11, 0.004 for one dimension in Q15, 2 for 16-bit
// bilinear Q15 (of 65535 steps: 0.003%); below one output step at equal 8-bit scales, the single rounding
// then gives at most one output step against the exact value.
int fractionBits(size_t interpolatedDims, bool wide)
{
    if (interpolatedDims == 0) return 0;
    return std::min(15, static_cast<int>((wide ? 46 : 22) / interpolatedDims));
}

// Requantization of the int64 sums of 16-bit data: in double (float mode), or the integer
// multiplier and shift of the 8-bit pipeline without its int32 saturation (fixed mode), rounding
// halves away from zero as its rounding shift does.
int64_t requantWide(int64_t acc, const Requantizer& rq, RequantMode mode)
{
    int64_t r;
    if (mode == RequantMode::Float) {
        r = static_cast<int64_t>(std::nearbyint(static_cast<double>(acc) * rq.real));
    } else {
        const int n = 31 - rq.fixed.shift;  // acc * multiplier / 2^n
        const bool negative = (acc < 0) != rq.fixed.negative;
        const __int128 p = static_cast<__int128>(acc < 0 ? -acc : acc) * rq.fixed.multiplier;
        const __int128 q = n > 0 ? (n < 127 ? (p + (static_cast<__int128>(1) << (n - 1))) >> n : 0) : p << -n;
        r = static_cast<int64_t>(negative ? -q : q);
    }
    return saturate(r + rq.zeroPoint, rq.range);
}

// The leading dimensions pass through unchanged (no interpolation, no resizing).
bool leadingIdentity(const LinearResizePlan& plan)
{
    const size_t rank = plan.inShape.size();
    if (rank < 2) return false;
    for (int d : plan.interpolated)
        if (static_cast<size_t>(d) + 2 < rank) return false;
    for (size_t d = 0; d + 2 < rank; ++d) {
        if (plan.outShape[d] != plan.inShape[d]) return false;
        for (size_t o = 0; o < plan.taps[d].size(); ++o)
            if (plan.taps[d][o].i0 != static_cast<int64_t>(o)) return false;
    }
    return true;
}

// Per output index of one of the last two dimensions: source indices and both weights (a
// dimension that does not interpolate weighs its one source 1, as in the general loop).
struct AxisTaps {
    std::vector<int64_t> i0, i1;
    std::vector<int64_t> w0, w1;
};

AxisTaps axisTaps(const LinearResizePlan& plan, size_t d)
{
    const bool interp = std::find(plan.interpolated.begin(), plan.interpolated.end(), static_cast<int>(d)) !=
                        plan.interpolated.end();
    const int64_t one = int64_t{1} << plan.fracBits;
    AxisTaps t;
    for (const LinearTap& tap : plan.taps[d]) {
        t.i0.push_back(tap.i0);
        t.i1.push_back(interp ? tap.i1 : tap.i0);
        t.w0.push_back(interp ? one - tap.w1 : 1);
        t.w1.push_back(interp ? tap.w1 : 0);
    }
    return t;
}

// The usual case, images resized in H and W: plane by plane, the same sums as the general loop
// (sum W q - xZero * 2^totalBits = sum W (q - xZero), the weights summing to 2^totalBits).
template <class T, class Requant>
void resizePlanes(const LinearResizePlan& plan, const T* x, int64_t xZero, const Requant& requant, Tensor& y)
{
    const size_t rank = plan.inShape.size();
    const int64_t H = plan.inShape[rank - 2], W = plan.inShape[rank - 1];
    const int64_t OH = plan.outShape[rank - 2], OW = plan.outShape[rank - 1];
    const int64_t planes = H * W != 0 ? shapeSize(plan.inShape) / (H * W) : 0;
    const AxisTaps ty = axisTaps(plan, rank - 2), tx = axisTaps(plan, rank - 1);
    const int64_t zeroSum = xZero * (int64_t{1} << plan.totalBits());
    for (int64_t p = 0; p < planes; ++p) {
        const T* in = x + p * H * W;
        const int64_t outBase = p * OH * OW;
        for (int64_t oy = 0; oy < OH; ++oy) {
            const T* r0 = in + ty.i0[static_cast<size_t>(oy)] * W;
            const T* r1 = in + ty.i1[static_cast<size_t>(oy)] * W;
            const int64_t wy0 = ty.w0[static_cast<size_t>(oy)], wy1 = ty.w1[static_cast<size_t>(oy)];
            for (int64_t ox = 0; ox < OW; ++ox) {
                const auto k = static_cast<size_t>(ox);
                const int64_t x0 = tx.i0[k], x1 = tx.i1[k], wx0 = tx.w0[k], wx1 = tx.w1[k];
                const int64_t acc =
                    wy0 * (wx0 * r0[x0] + wx1 * r0[x1]) + wy1 * (wx0 * r1[x0] + wx1 * r1[x1]) - zeroSum;
                y.setInt(outBase + oy * OW + ox, requant(acc));
            }
        }
    }
}

}  // namespace

Result<LinearResizePlan> linearResizePlan(const onnx::NodeProto& node, int64_t opset, bool upsample,
                                          const std::vector<int64_t>& inShape,
                                          const std::vector<Tensor>& inputs, DType inType)
{
    NodeAttrs a(node);
    const std::string mode = a.s("mode", "nearest");
    if (mode != "linear" && mode != "bilinear") return planError(node, "mode '" + mode + "' is not linear");
    const auto rank = static_cast<int64_t>(inShape.size());
    if (rank == 0) return planError(node, "needs an input of rank 1 or more");
    const bool v10 = upsample || opset < 11;
    auto shape = resizeShape(node, opset, upsample, inShape, inputs);
    if (!shape) return shape.error();
    const std::vector<double>& scales = shape->scales;
    const bool sizesGiven = shape->sizesGiven;
    LinearResizePlan plan;
    plan.inShape = inShape;
    plan.outShape = shape->outShape;
    // The tables below walk every output dimension: refuse an output past the budget first, and
    // leave them empty for an empty output, whose other dimensions may be huge (the budget bounds
    // only the product; a fuzzed 0 x 2^40 output walked the 2^40 for a minute). Its users return
    // the empty output before reading the tables.
    checkTensorBudget(plan.outShape, inType);
    plan.taps.resize(static_cast<size_t>(rank));
    if (shapeSize(plan.outShape) == 0) return plan;
    const std::string ctm = v10 ? "asymmetric" : a.s("coordinate_transformation_mode", "half_pixel");
    if (ctm == "tf_crop_and_resize") return planError(node, "tf_crop_and_resize is not simulated on codes");
    auto source = [&](size_t d, int64_t o) {
        return resizeSourceCoordinate(ctm, o, scales[d], double(inShape[d]), double(plan.outShape[d]),
                                      sizesGiven);
    };
    // exact fractions first: they decide how many dimensions interpolate, hence the width
    std::vector<std::vector<double>> fractions(static_cast<size_t>(rank));
    for (size_t d = 0; d < static_cast<size_t>(rank); ++d) {
        bool interpolates = false;
        for (int64_t o = 0; o < plan.outShape[d]; ++o) {
            const double src = std::max(0.0, std::min(source(d, o), double(inShape[d] - 1)));
            const auto i0 = static_cast<int64_t>(std::floor(src));
            plan.taps[d].push_back({i0, std::min(i0 + 1, inShape[d] - 1), 0});
            fractions[d].push_back(src - double(i0));
            interpolates = interpolates || src != double(i0);
        }
        if (interpolates) plan.interpolated.push_back(static_cast<int>(d));
    }
    plan.fracBits = fractionBits(plan.interpolated.size(), inType == DType::Int16 || inType == DType::UInt16);
    const double one = std::ldexp(1.0, plan.fracBits);
    for (int d : plan.interpolated)
        for (size_t o = 0; o < plan.taps[static_cast<size_t>(d)].size(); ++o)
            plan.taps[static_cast<size_t>(d)][o].w1 = static_cast<int32_t>(
                std::clamp(std::nearbyint(fractions[static_cast<size_t>(d)][o] * one), 0.0, one));
    return plan;
}

template <class T, class Requant>
void resizeGeneral(const LinearResizePlan& plan, const T* x, int64_t xZero, const Requant& requant, Tensor& y)
{
    const size_t rank = plan.inShape.size();
    if (rank == 0)
        return;  // Resize needs a rank >= 1 (the plan refuses less); also quiets GCC 12's
                 // -Wfree-nonheap-object false positive on the empty vectors below
    std::vector<int64_t> strides(rank, 1);
    for (size_t d = rank; d-- > 1;) strides[d - 1] = strides[d] * plan.inShape[d];
    const int64_t one = int64_t{1} << plan.fracBits;
    const size_t D = plan.interpolated.size();
    std::vector<int64_t> idx(rank, 0);
    for (int64_t i = 0; i < y.size(); ++i) {
        int64_t base = 0;  // offset of the non-interpolated dimensions (their i0)
        for (size_t d = 0; d < rank; ++d) base += plan.taps[d][static_cast<size_t>(idx[d])].i0 * strides[d];
        int64_t acc = 0;
        for (size_t corner = 0; corner < (size_t{1} << D); ++corner) {
            int64_t w = 1, off = base;
            for (size_t k = 0; k < D; ++k) {
                const auto d = static_cast<size_t>(plan.interpolated[k]);
                const LinearTap& t = plan.taps[d][static_cast<size_t>(idx[d])];
                if ((corner >> k) & 1) {
                    w *= t.w1;
                    off += (t.i1 - t.i0) * strides[d];
                } else {
                    w *= one - t.w1;
                }
            }
            if (w != 0) acc += w * (int64_t{x[off]} - xZero);
        }
        y.setInt(i, requant(acc));
        for (size_t d = rank; d-- > 0;) {
            if (++idx[d] < plan.outShape[d]) break;
            idx[d] = 0;
        }
    }
}

Tensor resizeLinearCodes(const LinearResizePlan& plan, const Tensor& x, int64_t xZero, double xScale,
                         const QParams& out, RequantMode mode)
{
    const Requantizer rq = Requantizer::make(
        xScale / (double(out.scales[0]) * std::ldexp(1.0, plan.totalBits())), out.zeroPoints[0], out.range);
    Tensor y(out.dtype, plan.outShape);
    if (y.size() == 0) return y;  // (the plan keeps no tables for an empty output)
    const bool planes = leadingIdentity(plan);
    auto run = [&](auto* tag, const auto& requant) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if (planes)
            resizePlanes(plan, x.data<T>(), xZero, requant, y);
        else
            resizeGeneral(plan, x.data<T>(), xZero, requant, y);
    };
    const auto narrow = [&](int64_t acc) { return rq.apply(acc, mode); };
    const auto wide = [&](int64_t acc) { return requantWide(acc, rq, mode); };
    switch (x.dtype()) {
        case DType::Int8:
            run(static_cast<int8_t*>(nullptr), narrow);
            break;
        case DType::UInt8:
            run(static_cast<uint8_t*>(nullptr), narrow);
            break;
        case DType::Int16:
            run(static_cast<int16_t*>(nullptr), wide);
            break;
        case DType::UInt16:
            run(static_cast<uint16_t*>(nullptr), wide);
            break;
        default:
            break;
    }
    return y;
}

}  // namespace qatdoctor::core::fixedpoint
