#include "core/fixedpoint/int_ops.h"

#include <limits>
#include <type_traits>

#include "core/fixedpoint/quantize.h"

namespace qatdoctor::core::fixedpoint {

bool isNarrow(DType t) { return t == DType::Int8 || t == DType::UInt8; }

template <class T>
std::vector<T> offsetValues(const Tensor& x, const std::vector<int64_t>& zps, int axis)
{
    std::vector<T> out(static_cast<size_t>(x.size()));
    const AxisLayout l = axisLayout(x.shape(), zps.size() > 1 ? axis : -1);
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

static void countOverflows(Accumulator& a)
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
    a.wide = !(isNarrow(x.dtype()) && isNarrow(w.dtype()) && g.kernelSize() < 33025);
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
    a.wide = !(isNarrow(A.dtype()) && isNarrow(B.dtype()) && K < 33025);
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

}  // namespace qatdoctor::core::fixedpoint
