#include "core/fixedpoint/conv_kernel.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "core/fixedpoint/kernel_checks.h"
#include "core/fixedpoint/node_attrs.h"
#include "core/fixedpoint/op_registry.h"

namespace qatdoctor::core::fixedpoint {

std::vector<int64_t> ConvGeometry::outShape() const
{
    if (spatialRank == 1) return {n, m, ow};
    return {n, m, oh, ow};
}

Result<ConvGeometry> convGeometry(const onnx::NodeProto& node, const std::vector<int64_t>& xs,
                                  const std::vector<int64_t>& ws)
{
    if (xs.size() != ws.size() || (xs.size() != 3 && xs.size() != 4))
        return opError(
            node, "only 1-D and 2-D convolutions are simulated (input " + std::to_string(xs.size()) + "-D)");
    NodeAttrs a(node);
    ConvGeometry g;
    g.spatialRank = static_cast<int>(xs.size()) - 2;
    const bool one = g.spatialRank == 1;
    g.n = xs[0];
    g.c = xs[1];
    g.h = one ? 1 : xs[2];
    g.w = xs.back();
    g.m = ws[0];
    g.group = a.i("group", 1);
    g.kh = one ? 1 : ws[2];
    g.kw = ws.back();
    if (g.group <= 0 || g.c % g.group || g.m % g.group || ws[1] * g.group != g.c)
        return opError(node, "channels do not match group");
    const auto spatial = static_cast<size_t>(g.spatialRank);
    auto strides = a.ints("strides", std::vector<int64_t>(spatial, 1));
    auto dil = a.ints("dilations", std::vector<int64_t>(spatial, 1));
    auto pads = a.ints("pads", std::vector<int64_t>(2 * spatial, 0));
    // a crafted model's window attributes are checked before they index or divide
    checkLength(strides, spatial, "strides");
    checkLength(dil, spatial, "dilations");
    checkLength(pads, 2 * spatial, "pads");
    checkAtLeast(strides, 1, "strides");
    checkAtLeast(dil, 1, "dilations");
    checkAtLeast(pads, 0, "pads");
    for (const auto* v : {&strides, &dil, &pads}) checkAtMost(*v, kWindowLimit, "a window attribute");
    if (a.has("kernel_shape") && a.ints("kernel_shape") != std::vector<int64_t>(ws.begin() + 2, ws.end()))
        return opError(node,
                       "kernel_shape does not match the weight's " + shapeString({ws.begin() + 2, ws.end()}));
    if (g.kh <= 0 || g.kw <= 0) return opError(node, "the weight has an empty window");
    g.sh = one ? 1 : strides[0];
    g.sw = strides.back();
    g.dh = one ? 1 : dil[0];
    g.dw = dil.back();
    const std::string autoPad = a.s("auto_pad", "NOTSET");
    auto outDim = [](int64_t in, int64_t k, int64_t s, int64_t d, int64_t p0, int64_t p1) {
        return (in + p0 + p1 - d * (k - 1) - 1) / s + 1;
    };
    auto fixPads = [&](int64_t in, int64_t k, int64_t s, int64_t d, int64_t& p0, int64_t& p1) {
        if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            const int64_t out = (in + s - 1) / s;
            const int64_t total = std::max<int64_t>(0, (out - 1) * s + d * (k - 1) + 1 - in);
            p0 = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
            p1 = total - p0;
        } else if (autoPad == "VALID") {
            p0 = p1 = 0;
        }
    };
    int64_t pT = one ? 0 : pads[0], pB = one ? 0 : pads[static_cast<size_t>(g.spatialRank)];
    int64_t pL = one ? pads[0] : pads[1], pR = pads.back();
    if (!one) fixPads(g.h, g.kh, g.sh, g.dh, pT, pB);
    fixPads(g.w, g.kw, g.sw, g.dw, pL, pR);
    g.padT = pT;
    g.padL = pL;
    g.oh = outDim(g.h, g.kh, g.sh, g.dh, pT, pB);
    g.ow = outDim(g.w, g.kw, g.sw, g.dw, pL, pR);
    if (g.oh <= 0 || g.ow <= 0) return opError(node, "empty output");
    return g;
}

namespace {

// c[j] += a * b[j]: the GEMM's inner loop, compiled for several vector widths and picked at load
// time (ifunc), so the portable build still uses AVX-512/AVX2 where the CPU has them. The
// per-element arithmetic (one multiply, one add, no FMA contraction) is the same in every clone;
// O3 because -O2 does not vectorise loops of unknown length.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define QD_CLONES \
    __attribute__((target_clones("avx512f", "avx2", "default"), optimize("O3", "fp-contract=off")))
#else
#define QD_CLONES
#endif

QD_CLONES void axpy(float* c, const float* b, float a, int64_t n)
{
    for (int64_t j = 0; j < n; ++j) c[j] += a * b[j];
}

QD_CLONES void axpy(int32_t* c, const int16_t* b, int32_t a, int64_t n)
{
    for (int64_t j = 0; j < n; ++j) c[j] += a * static_cast<int32_t>(b[j]);
}

void axpy(int64_t* c, const int32_t* b, int64_t a, int64_t n)
{
    for (int64_t j = 0; j < n; ++j) c[j] += a * static_cast<int64_t>(b[j]);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define QD_AVX512_EXACT __attribute__((target("avx512f"), optimize("fp-contract=off")))
bool haveAvx512f()
{
    static const bool kHave = __builtin_cpu_supports("avx512f");
    return kHave;
}

// Rows [m0, m1) of C = A x B in register tiles of 8 rows x 32 columns. Every element sees the
// same operations in the same order as the axpy loop (k ascending, one multiply then one add,
// zero coefficients skipped), so the result is bit-identical; only the memory traffic changes
// (C stays in registers, a K x 32 panel of B is reused by every row).
QD_AVX512_EXACT void gemmRowsF32(int64_t m0, int64_t m1, int64_t N, int64_t K, const float* A, const float* B,
                                 float* C, bool accumulate)
{
    constexpr int kRows = 8;
    for (int64_t n0 = 0; n0 < N; n0 += 32) {
        const int64_t left = N - n0;
        const __mmask16 k0 = left >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << left) - 1);
        const __mmask16 k1 = left >= 32   ? __mmask16(0xFFFF)
                             : left <= 16 ? __mmask16(0)
                                          : __mmask16((1u << (left - 16)) - 1);
        for (int64_t m = m0; m < m1; m += kRows) {
            const int rows = static_cast<int>(std::min<int64_t>(kRows, m1 - m));
            __m512 acc[kRows][2];
            const float* a[kRows];
            for (int r = 0; r < kRows; ++r) {
                const int64_t row = m + std::min(r, rows - 1);
                a[r] = A + row * K;
                float* c = C + row * N + n0;
                acc[r][0] = accumulate ? _mm512_maskz_loadu_ps(k0, c) : _mm512_setzero_ps();
                acc[r][1] = accumulate ? _mm512_maskz_loadu_ps(k1, c + 16) : _mm512_setzero_ps();
            }
            const float* b = B + n0;
            for (int64_t k = 0; k < K; ++k, b += N) {
                const __m512 b0 = _mm512_maskz_loadu_ps(k0, b), b1 = _mm512_maskz_loadu_ps(k1, b + 16);
#pragma GCC unroll 8
                for (int r = 0; r < kRows; ++r) {
                    const float s = a[r][k];
                    const __mmask16 nz = s != 0.0f ? __mmask16(0xFFFF) : __mmask16(0);
                    const __m512 av = _mm512_set1_ps(s);
                    acc[r][0] = _mm512_mask_add_ps(acc[r][0], nz, acc[r][0], _mm512_mul_ps(av, b0));
                    acc[r][1] = _mm512_mask_add_ps(acc[r][1], nz, acc[r][1], _mm512_mul_ps(av, b1));
                }
            }
            for (int r = 0; r < rows; ++r) {
                float* c = C + (m + r) * N + n0;
                _mm512_mask_storeu_ps(c, k0, acc[r][0]);
                _mm512_mask_storeu_ps(c + 16, k1, acc[r][1]);
            }
        }
    }
}
#endif

}  // namespace

template <class T, class Acc>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, const T* B, Acc* C, bool accumulate, ThreadPool* pool)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if constexpr (std::is_same_v<T, float> && std::is_same_v<Acc, float>) {
        if (haveAvx512f()) {
            parallelFor(pool, (M + 7) / 8, [&](int64_t b, int64_t e) {
                gemmRowsF32(b * 8, std::min(M, e * 8), N, K, A, B, C, accumulate);
            });
            return;
        }
    }
#endif
    // Blocked over N so a row of C and the B panel stay in cache; inner loop vectorises.
    constexpr int64_t kBlockN = 512;
    parallelFor(pool, M, [&](int64_t m0, int64_t m1) {
        for (int64_t n0 = 0; n0 < N; n0 += kBlockN) {
            const int64_t nb = std::min(kBlockN, N - n0);
            for (int64_t m = m0; m < m1; ++m) {
                Acc* c = C + m * N + n0;
                if (!accumulate) std::fill(c, c + nb, Acc{});
                const T* a = A + m * K;
                for (int64_t k = 0; k < K; ++k) {
                    const Acc av = static_cast<Acc>(a[k]);
                    if (av == Acc{}) continue;
                    axpy(c, B + k * N + n0, av, nb);
                }
            }
        }
    });
}

template <class T>
static void im2col(const ConvGeometry& g, const T* x, T* col)
{
    const int64_t cg = g.c / g.group;
    const int64_t P = g.outPixels();
    for (int64_t ci = 0; ci < cg; ++ci)
        for (int64_t ky = 0; ky < g.kh; ++ky)
            for (int64_t kx = 0; kx < g.kw; ++kx) {
                T* row = col + ((ci * g.kh + ky) * g.kw + kx) * P;
                const T* plane = x + ci * g.h * g.w;
                for (int64_t oy = 0; oy < g.oh; ++oy) {
                    const int64_t iy = oy * g.sh - g.padT + ky * g.dh;
                    T* out = row + oy * g.ow;
                    if (iy < 0 || iy >= g.h) {
                        std::fill(out, out + g.ow, T{});
                        continue;
                    }
                    const T* in = plane + iy * g.w;
                    for (int64_t ox = 0; ox < g.ow; ++ox) {
                        const int64_t ix = ox * g.sw - g.padL + kx * g.dw;
                        out[ox] = (ix >= 0 && ix < g.w) ? in[ix] : T{};
                    }
                }
            }
}

template <class T, class Acc>
void convolve(const ConvGeometry& g, const T* x, const T* w, Acc* y, ThreadPool* pool)
{
    const int64_t cg = g.c / g.group, mg = g.m / g.group;
    const int64_t K = g.kernelSize(), P = g.outPixels();
    const bool pointwise = g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.padT == 0 && g.padL == 0 &&
                           g.oh == g.h && g.ow == g.w;
    std::vector<T> col(pointwise ? 0 : static_cast<size_t>(K * P));
    for (int64_t n = 0; n < g.n; ++n)
        for (int64_t gi = 0; gi < g.group; ++gi) {
            const T* xg = x + (n * g.c + gi * cg) * g.h * g.w;
            const T* b = xg;
            if (!pointwise) {
                im2col(g, xg, col.data());
                b = col.data();
            }
            gemm<T, Acc>(mg, P, K, w + gi * mg * K, b, y + (n * g.m + gi * mg) * P, false, pool);
        }
}

template void gemm<float, float>(int64_t, int64_t, int64_t, const float*, const float*, float*, bool,
                                 ThreadPool*);
template void gemm<int16_t, int32_t>(int64_t, int64_t, int64_t, const int16_t*, const int16_t*, int32_t*,
                                     bool, ThreadPool*);
template void gemm<int32_t, int64_t>(int64_t, int64_t, int64_t, const int32_t*, const int32_t*, int64_t*,
                                     bool, ThreadPool*);
template void convolve<float, float>(const ConvGeometry&, const float*, const float*, float*, ThreadPool*);
template void convolve<int16_t, int32_t>(const ConvGeometry&, const int16_t*, const int16_t*, int32_t*,
                                         ThreadPool*);
template void convolve<int32_t, int64_t>(const ConvGeometry&, const int32_t*, const int32_t*, int64_t*,
                                         ThreadPool*);

}  // namespace qatdoctor::core::fixedpoint
