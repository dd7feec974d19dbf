#include "core/fixedpoint/pool_kernel.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <limits>

#include "core/fixedpoint/kernel_checks.h"
#include "core/fixedpoint/node_attrs.h"
#include "core/fixedpoint/op_registry.h"

namespace qatdoctor::core::fixedpoint {

std::vector<int64_t> PoolGeometry::outShape() const
{
    std::vector<int64_t> s{n, c};
    for (int i = 3 - rank; i < 3; ++i) s.push_back(out[i]);
    return s;
}

Result<PoolGeometry> poolGeometry(const onnx::NodeProto& node, const std::vector<int64_t>& xs, bool global)
{
    if (xs.size() < 3 || xs.size() > 5) return opError(node, "pooling needs a 3-D to 5-D input");
    NodeAttrs a(node);
    PoolGeometry g;
    g.rank = static_cast<int>(xs.size()) - 2;
    g.n = xs[0];
    g.c = xs[1];
    const int off = 3 - g.rank;  // spatial dims are right-aligned into [3]
    const auto ks = a.ints("kernel_shape");
    const auto st = a.ints("strides");
    const auto dl = a.ints("dilations");
    const auto pads = a.ints("pads");
    const bool ceilMode = a.i("ceil_mode", 0) != 0;
    const std::string autoPad = a.s("auto_pad", "NOTSET");
    if (!global) {
        const auto spatial = static_cast<size_t>(g.rank);
        if (ks.size() != spatial) return opError(node, "kernel_shape does not match input rank");
        // a crafted model's window attributes are checked before they index or divide
        checkAtLeast(ks, 1, "kernel_shape");
        if (!st.empty()) checkLength(st, spatial, "strides");
        if (!dl.empty()) checkLength(dl, spatial, "dilations");
        if (!pads.empty()) checkLength(pads, 2 * spatial, "pads");
        checkAtLeast(st, 1, "strides");
        checkAtLeast(dl, 1, "dilations");
        checkAtLeast(pads, 0, "pads");
        for (const auto* v : {&ks, &st, &dl, &pads}) checkAtMost(*v, kWindowLimit, "a window attribute");
    }
    for (int i = 0; i < g.rank; ++i) {
        const int j = off + i;
        g.in[j] = xs[static_cast<size_t>(2 + i)];
        if (global) {
            g.k[j] = g.in[j];
            g.out[j] = 1;
            continue;
        }
        g.k[j] = ks[static_cast<size_t>(i)];
        g.s[j] = st.empty() ? 1 : st[static_cast<size_t>(i)];
        g.d[j] = dl.empty() ? 1 : dl[static_cast<size_t>(i)];
        g.pb[j] = pads.empty() ? 0 : pads[static_cast<size_t>(i)];
        g.pe[j] = pads.empty() ? 0 : pads[static_cast<size_t>(i + g.rank)];
        const int64_t span = (g.k[j] - 1) * g.d[j] + 1;
        if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            g.out[j] = (g.in[j] + g.s[j] - 1) / g.s[j];
            const int64_t total = std::max<int64_t>(0, (g.out[j] - 1) * g.s[j] + span - g.in[j]);
            g.pb[j] = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
            g.pe[j] = total - g.pb[j];
            continue;
        }
        if (autoPad == "VALID") g.pb[j] = g.pe[j] = 0;
        const int64_t room = g.in[j] + g.pb[j] + g.pe[j] - span;
        g.out[j] = (ceilMode ? (room + g.s[j] - 1) / g.s[j] : room / g.s[j]) + 1;
        // a window must start inside the input or its begin padding
        if (ceilMode && (g.out[j] - 1) * g.s[j] >= g.in[j] + g.pb[j]) --g.out[j];
    }
    // windows past the input (a huge kernel) leave no output; huge pads one past int64
    int64_t pixels = 1;
    for (int i = 0; i < g.rank; ++i) {
        const int64_t out = g.out[off + i];
        if (out <= 0) return opError(node, "empty output");
        if (__builtin_mul_overflow(pixels, out, &pixels)) return opError(node, "the output size overflows");
    }
    if (g.outPixels() <= 0) return opError(node, "empty output");
    return g;
}

namespace {

// Vectorised per CPU (integer max is exact in every clone).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define QD_CLONES __attribute__((target_clones("avx2", "default"), optimize("O3")))
#define QD_INLINE inline __attribute__((always_inline))
#else
#define QD_CLONES
#define QD_INLINE inline
#endif

// The padded row of the 2-D max pool: begin padding, the input, and every window's reach.
int64_t rowLength(const PoolGeometry& g)
{
    return std::max(g.pb[2] + g.in[2], (g.out[2] - 1) * g.s[2] + g.k[2]) + 2;
}

// One plane of the common 2-D case (no dilation): the max over the window's rows first, then
// across. The row is stored with `lowest` on both sides (padding never wins), so the horizontal
// pass has no bounds checks; a stride-2 row is split into its even and odd elements first, so
// every tap is a contiguous run. Taps are taken in the window loops' order from `lowest` up, so
// float NaNs behave as they always did. All loops in one function, vectorised per CPU for 8-bit
// codes: the rows are short (56 elements in resnet), a call per row cost more than the work.
template <class T>
QD_INLINE void maxPoolPlaneT(const PoolGeometry& g, const T* xp, T* yp, T* rm, T* even, T* odd)
{
    const int64_t ow = g.out[2], s = g.s[2], k = g.k[2], lead = g.pb[2], w = g.in[2];
    const int64_t len = rowLength(g);
    const T lowest = std::numeric_limits<T>::lowest();
    for (int64_t oy = 0; oy < g.out[1]; ++oy) {
        const int64_t y0 = std::max<int64_t>(0, oy * g.s[1] - g.pb[1]);
        const int64_t y1 = std::min<int64_t>(g.in[1], oy * g.s[1] - g.pb[1] + g.k[1]);
        for (int64_t i = 0; i < len; ++i) rm[i] = lowest;
        for (int64_t iy = y0; iy < y1; ++iy) {
            const T* row = xp + iy * w;
            T* acc = rm + lead;
            for (int64_t i = 0; i < w; ++i) acc[i] = std::max(acc[i], row[i]);
        }
        T* out = yp + oy * ow;
        for (int64_t i = 0; i < ow; ++i) out[i] = lowest;
        if (s == 1) {
            for (int64_t t = 0; t < k; ++t)
                for (int64_t i = 0; i < ow; ++i) out[i] = std::max(out[i], rm[i + t]);
        } else if (s == 2) {
            for (int64_t i = 0; i < len / 2; ++i) {
                even[i] = rm[2 * i];
                odd[i] = rm[2 * i + 1];
            }
            for (int64_t t = 0; t < k; ++t) {
                const T* run = (t % 2 ? odd : even) + t / 2;
                for (int64_t i = 0; i < ow; ++i) out[i] = std::max(out[i], run[i]);
            }
        } else {
            for (int64_t i = 0; i < ow; ++i)
                for (int64_t t = 0; t < k; ++t) out[i] = std::max(out[i], rm[i * s + t]);
        }
    }
}

template <class T>
void maxPoolPlane(const PoolGeometry& g, const T* xp, T* yp, T* rm, T* even, T* odd)
{
    maxPoolPlaneT(g, xp, yp, rm, even, odd);
}
QD_CLONES void maxPoolPlane(const PoolGeometry& g, const uint8_t* xp, uint8_t* yp, uint8_t* rm, uint8_t* even,
                            uint8_t* odd)
{
    maxPoolPlaneT(g, xp, yp, rm, even, odd);
}
QD_CLONES void maxPoolPlane(const PoolGeometry& g, const int8_t* xp, int8_t* yp, int8_t* rm, int8_t* even,
                            int8_t* odd)
{
    maxPoolPlaneT(g, xp, yp, rm, even, odd);
}

// Calls f(outPixel, inIndex) for every valid input element of every window of one plane,
// then done(outPixel, includePadCount, validCount).
template <class F, class D>
void windows(const PoolGeometry& g, F f, D done)
{
    int64_t p = 0;
    for (int64_t o0 = 0; o0 < g.out[0]; ++o0)
        for (int64_t o1 = 0; o1 < g.out[1]; ++o1)
            for (int64_t o2 = 0; o2 < g.out[2]; ++o2, ++p) {
                const int64_t o[3] = {o0, o1, o2};
                int64_t lo[3], hi[3], padCount = 1, valid = 0;
                for (int i = 0; i < 3; ++i) {
                    lo[i] = o[i] * g.s[i] - g.pb[i];
                    // include-pad counts kernel taps inside input + padding
                    int64_t taps = 0;
                    for (int64_t t = 0; t < g.k[i]; ++t) {
                        const int64_t pos = lo[i] + t * g.d[i];
                        if (pos < g.in[i] + g.pe[i]) ++taps;
                    }
                    padCount *= taps;
                    hi[i] = lo[i];
                }
                for (int64_t t0 = 0; t0 < g.k[0]; ++t0) {
                    const int64_t i0 = lo[0] + t0 * g.d[0];
                    if (i0 < 0 || i0 >= g.in[0]) continue;
                    for (int64_t t1 = 0; t1 < g.k[1]; ++t1) {
                        const int64_t i1 = lo[1] + t1 * g.d[1];
                        if (i1 < 0 || i1 >= g.in[1]) continue;
                        const int64_t rowBase = (i0 * g.in[1] + i1) * g.in[2];
                        for (int64_t t2 = 0; t2 < g.k[2]; ++t2) {
                            const int64_t i2 = lo[2] + t2 * g.d[2];
                            if (i2 < 0 || i2 >= g.in[2]) continue;
                            f(p, rowBase + i2);
                            ++valid;
                        }
                    }
                }
                (void)hi;
                done(p, padCount, valid);
            }
}

}  // namespace

template <class T>
void maxPool(const PoolGeometry& g, const T* x, T* y)
{
    const int64_t inP = g.inPixels(), outP = g.outPixels();
    if (g.in[0] == 1 && g.k[0] == 1 && g.d[1] == 1 && g.d[2] == 1) {  // the common 2-D case, direct loops
        const int64_t len = rowLength(g);
        std::vector<T> rowMax(static_cast<size_t>(len)), even(static_cast<size_t>(len / 2 + 1)),
            odd(even.size());
        for (int64_t plane = 0; plane < g.n * g.c; ++plane)
            maxPoolPlane(g, x + plane * inP, y + plane * outP, rowMax.data(), even.data(), odd.data());
        return;
    }
    for (int64_t plane = 0; plane < g.n * g.c; ++plane) {
        const T* xp = x + plane * inP;
        T* yp = y + plane * outP;
        std::fill(yp, yp + outP, std::numeric_limits<T>::lowest());
        windows(
            g, [&](int64_t p, int64_t i) { yp[p] = std::max(yp[p], xp[i]); },
            [](int64_t, int64_t, int64_t) {});
    }
}

template <class T, class Acc>
void sumPool(const PoolGeometry& g, const T* x, Acc* sums, std::vector<int64_t>& counts, bool includePad,
             std::vector<int64_t>* validTaps)
{
    const int64_t inP = g.inPixels(), outP = g.outPixels();
    counts.assign(static_cast<size_t>(outP), 0);
    if (validTaps) validTaps->assign(static_cast<size_t>(outP), 0);
    for (int64_t plane = 0; plane < g.n * g.c; ++plane) {
        const T* xp = x + plane * inP;
        Acc* sp = sums + plane * outP;
        std::fill(sp, sp + outP, Acc{});
        windows(
            g, [&](int64_t p, int64_t i) { sp[p] += static_cast<Acc>(xp[i]); },
            [&](int64_t p, int64_t padCount, int64_t valid) {
                if (plane != 0) return;
                counts[static_cast<size_t>(p)] = includePad ? padCount : valid;
                if (validTaps) (*validTaps)[static_cast<size_t>(p)] = valid;
            });
    }
}

template void maxPool<float>(const PoolGeometry&, const float*, float*);
template void maxPool<uint8_t>(const PoolGeometry&, const uint8_t*, uint8_t*);
template void maxPool<int8_t>(const PoolGeometry&, const int8_t*, int8_t*);
template void maxPool<int16_t>(const PoolGeometry&, const int16_t*, int16_t*);
template void maxPool<uint16_t>(const PoolGeometry&, const uint16_t*, uint16_t*);
template void maxPool<int32_t>(const PoolGeometry&, const int32_t*, int32_t*);
template void sumPool<float, double>(const PoolGeometry&, const float*, double*, std::vector<int64_t>&, bool,
                                     std::vector<int64_t>*);
template void sumPool<uint8_t, int64_t>(const PoolGeometry&, const uint8_t*, int64_t*, std::vector<int64_t>&,
                                        bool, std::vector<int64_t>*);
template void sumPool<int8_t, int64_t>(const PoolGeometry&, const int8_t*, int64_t*, std::vector<int64_t>&,
                                       bool, std::vector<int64_t>*);
template void sumPool<int16_t, int64_t>(const PoolGeometry&, const int16_t*, int64_t*, std::vector<int64_t>&,
                                        bool, std::vector<int64_t>*);
template void sumPool<uint16_t, int64_t>(const PoolGeometry&, const uint16_t*, int64_t*,
                                         std::vector<int64_t>&, bool, std::vector<int64_t>*);

}  // namespace qatdoctor::core::fixedpoint
