#include "core/fixedpoint/int_ops.h"

#include <limits>
#include <type_traits>

#include "core/fixedpoint/broadcast.h"
#include "core/fixedpoint/kernel_checks.h"
#include "core/fixedpoint/quantize.h"

namespace qatdoctor::core::fixedpoint {

bool isNarrow(DType t)
{
    return t == DType::Int8 || t == DType::UInt8;
}

template <class T>
std::vector<T> offsetValues(const Tensor& x, const std::vector<int64_t>& zps, int axis)
{
    std::vector<T> out(static_cast<size_t>(x.size()));
    const AxisLayout l = axisLayout(x.shape(), zps.size() > 1 ? axis : -1);
    // a crafted model's per-channel zero points need not match the tensor's channels
    if (zps.size() > 1 && static_cast<int64_t>(zps.size()) != l.channels)
        throw KernelInputError(std::to_string(zps.size()) + " zero points for " + std::to_string(l.channels) +
                               " channels");
    dispatchType(x.dtype(), [&](auto* tag) {
        using S = std::remove_pointer_t<decltype(tag)>;
        const S* in = x.data<S>();
        int64_t i = 0;
        for (int64_t o = 0; o < l.outer; ++o)
            for (int64_t c = 0; c < l.channels; ++c) {
                const int64_t zp = zps.empty() ? 0 : zps[zps.size() == 1 ? 0 : static_cast<size_t>(c)];
                for (int64_t k = 0; k < l.inner; ++k, ++i)
                    out[static_cast<size_t>(i)] = static_cast<T>(static_cast<int64_t>(in[i]) - zp);
            }
    });
    return out;
}

template std::vector<int16_t> offsetValues<int16_t>(const Tensor&, const std::vector<int64_t>&, int);
template std::vector<int32_t> offsetValues<int32_t>(const Tensor&, const std::vector<int64_t>&, int);

bool narrowSumsFit(DType a, DType b, int64_t terms)
{
    return isNarrow(a) && isNarrow(b) && terms < 33025;
}

void countOverflows(Accumulator& a)
{
    if (!a.wide) return;
    for (int64_t v : a.acc64)
        if (v > std::numeric_limits<int32_t>::max() || v < std::numeric_limits<int32_t>::min()) ++a.overflows;
}

Accumulator convInteger(const ConvGeometry& g, const Tensor& x, int64_t xZero, const Tensor& w,
                        const std::vector<int64_t>& wZero, ThreadPool* pool)
{
    Accumulator a;
    a.shape = g.outShape();
    const int64_t n = shapeSize(a.shape);
    a.wide = !narrowSumsFit(x.dtype(), w.dtype(), g.kernelSize());
    if (!a.wide) {
        auto xv = offsetValues<int16_t>(x, {xZero}, -1);
        auto wv = offsetValues<int16_t>(w, wZero, 0);
        a.acc32.resize(static_cast<size_t>(n));
        convolve<int16_t, int32_t>(g, xv.data(), wv.data(), a.acc32.data(), pool);
    } else {
        auto xv = offsetValues<int32_t>(x, {xZero}, -1);
        auto wv = offsetValues<int32_t>(w, wZero, 0);
        a.acc64.resize(static_cast<size_t>(n));
        convolve<int32_t, int64_t>(g, xv.data(), wv.data(), a.acc64.data(), pool);
        countOverflows(a);
    }
    return a;
}

Accumulator matmulInteger(const Tensor& A, int64_t aZero, const Tensor& B, const std::vector<int64_t>& bZero,
                          int64_t M, int64_t K, int64_t N, ThreadPool* pool)
{
    Accumulator a;
    a.shape = {M, N};
    a.wide = !narrowSumsFit(A.dtype(), B.dtype(), K);
    // B is [K, N]: per-column zero points run along axis 1
    const Tensor b2 = B.reshaped({K, N});
    if (!a.wide) {
        auto av = offsetValues<int16_t>(A, {aZero}, -1);
        auto bv = offsetValues<int16_t>(b2, bZero, 1);
        a.acc32.resize(static_cast<size_t>(M * N));
        gemm<int16_t, int32_t>(M, N, K, av.data(), bv.data(), a.acc32.data(), false, pool);
    } else {
        auto av = offsetValues<int32_t>(A, {aZero}, -1);
        auto bv = offsetValues<int32_t>(b2, bZero, 1);
        a.acc64.resize(static_cast<size_t>(M * N));
        gemm<int32_t, int64_t>(M, N, K, av.data(), bv.data(), a.acc64.data(), false, pool);
        countOverflows(a);
    }
    return a;
}

namespace {

// Scale and zero point of an operand's element by its offset in the operand's own buffer.
struct OperandQ {
    std::vector<double> scale;
    std::vector<int64_t> zero;
    int64_t inner = 1, channels = 1;

    OperandQ(const Tensor& t, const QParams& q)
    {
        if (q.scales.size() > 1) {
            const AxisLayout l = axisLayout(t.shape(), q.axis);
            inner = l.inner;
            channels = l.channels;
        }
        for (int64_t c = 0; c < channels; ++c) {
            scale.push_back(q.scale(c));
            zero.push_back(q.zeroPoint(c));
        }
    }
    size_t channelOf(int64_t off) const
    {
        return channels == 1 ? 0 : static_cast<size_t>((off / inner) % channels);
    }
};

}  // namespace

bool binaryCodesFit(const Tensor& a, const QParams& qa, const Tensor& b, const QParams& qb)
{
    if (qa.scales.size() > 1 && qb.scales.size() > 1) return false;
    if (!broadcastShapes({a.shape(), b.shape()})) return false;
    auto axisFits = [](const Tensor& t, const QParams& q) {
        return q.scales.size() <= 1 || static_cast<size_t>(OperandQ(t, q).channels) == q.scales.size();
    };
    return axisFits(a, qa) && axisFits(b, qb);
}

std::optional<Tensor> binaryCodes(const std::string& op, const Tensor& a, const QParams& qa, const Tensor& b,
                                  const QParams& qb, const QParams& out, RequantMode mode)
{
    if (!binaryCodesFit(a, qa, b, qb)) return std::nullopt;
    const auto shape = broadcastShapes({a.shape(), b.shape()});
    const OperandQ pa(a, qa), pb(b, qb);
    const double so = out.scales[0];
    const int64_t zo = out.zeroPoints[0];
    const double sign = op == "Sub" ? -1.0 : 1.0;
    // per channel of the per-channel operand (index ca + cb: the other one is always 0)
    std::vector<Requantizer> mulRq;
    std::vector<FixedMultiplier> ma, mb;
    FixedMultiplier mo;
    // headroom as TFLite's Add: 20 bits for 8-bit codes, 15 when either operand is 16-bit, so a
    // shifted code still fits the int32 the fixed multiplier takes
    auto wide = [](DType t) { return t == DType::Int16 || t == DType::UInt16; };
    const int leftShift = wide(a.dtype()) || wide(b.dtype()) ? 15 : 20;
    if (op == "Mul") {
        for (int64_t c = 0; c < std::max(pa.channels, pb.channels); ++c)
            mulRq.push_back(Requantizer::make(pa.scale[pa.channels == 1 ? 0 : static_cast<size_t>(c)] *
                                                  pb.scale[pb.channels == 1 ? 0 : static_cast<size_t>(c)] /
                                                  so,
                                              zo, out.range));
    } else if (mode.isFixed()) {
        double largest = 0;
        for (double s : pa.scale) largest = std::max(largest, s);
        for (double s : pb.scale) largest = std::max(largest, s);
        const double twiceMax = 2.0 * largest;
        for (double s : pa.scale) ma.push_back(quantizeMultiplier(s / twiceMax));
        for (double s : pb.scale) mb.push_back(quantizeMultiplier(s / twiceMax));
        mo = quantizeMultiplier(twiceMax / (double(int64_t{1} << leftShift) * so));
    }
    Tensor y(out.dtype, *shape);
    auto element = [&](int64_t i, int64_t offA, int64_t offB) {
        const size_t ca = pa.channelOf(offA), cb = pb.channelOf(offB);
        const int64_t xa = a.atInt(offA) - pa.zero[ca], xb = b.atInt(offB) - pb.zero[cb];
        if (op == "Mul") {
            y.setInt(i, mulRq[ca + cb].apply(xa * xb, mode));
        } else if (mode == RequantMode::Float) {
            const double v = (pa.scale[ca] * double(xa) + sign * pb.scale[cb] * double(xb)) / so;
            y.setInt(i, saturate(static_cast<int64_t>(std::nearbyint(v)) + zo, out.range));
        } else {
            const int64_t ra =
                multiplyByQuantizedMultiplier(xa * (int64_t{1} << leftShift), ma[ca], mode.ties);
            int64_t rb = multiplyByQuantizedMultiplier(xb * (int64_t{1} << leftShift), mb[cb], mode.ties);
            if (sign < 0) rb = -rb;
            y.setInt(
                i, saturate(int64_t{multiplyByQuantizedMultiplier(ra + rb, mo, mode.ties)} + zo, out.range));
        }
    };
    if (a.shape() == b.shape()) {
        for (int64_t i = 0; i < y.size(); ++i) element(i, i, i);
    } else {
        forEachBroadcast(*shape, {broadcastStrides(a.shape(), *shape), broadcastStrides(b.shape(), *shape)},
                         [&](int64_t i, const std::vector<int64_t>& offs) { element(i, offs[0], offs[1]); });
    }
    return y;
}

}  // namespace qatdoctor::core::fixedpoint
