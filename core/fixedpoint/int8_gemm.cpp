#include "core/fixedpoint/int8_gemm.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace qatdoctor::core::fixedpoint {

#if defined(__x86_64__) && defined(__GNUC__)
#define QD_VNNI __attribute__((target("avx512f,avx512bw,avx512vnni")))
#define QD_HAVE_X86 1
#else
#define QD_HAVE_X86 0
#endif

bool int8FastPathAvailable()
{
#if QD_HAVE_X86
    static const bool kHave = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                              __builtin_cpu_supports("avx512vnni");
    return kHave;
#else
    return false;
#endif
}

PackedInt8Weights packInt8Weights(const int8_t* w, int64_t m, int64_t k)
{
    PackedInt8Weights p;
    p.m = m;
    p.k = k;
    p.k4 = (k + 3) / 4 * 4;
    p.w.assign(static_cast<size_t>(m * p.k4), 0);
    p.rowSums.assign(static_cast<size_t>(m), 0);
    for (int64_t r = 0; r < m; ++r)
        for (int64_t i = 0; i < k; ++i) {
            p.w[static_cast<size_t>(r * p.k4 + i)] = w[r * k + i];
            p.rowSums[static_cast<size_t>(r)] += w[r * k + i];
        }
    return p;
}

#if QD_HAVE_X86
namespace {

// Interleaves 4 rows of n bytes into dst[p*4 + j] = row_j[p] (the vpdpbusd operand layout).
QD_VNNI void interleave4(const uint8_t* r0, const uint8_t* r1, const uint8_t* r2, const uint8_t* r3, int64_t n,
                         uint8_t* dst)
{
    int64_t p = 0;
    for (; p + 16 <= n; p += 16) {
        const __m512i a = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r0 + p)));
        const __m512i b = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r1 + p)));
        const __m512i c = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r2 + p)));
        const __m512i d = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r3 + p)));
        const __m512i v = _mm512_or_si512(_mm512_or_si512(a, _mm512_slli_epi32(b, 8)),
                                          _mm512_or_si512(_mm512_slli_epi32(c, 16), _mm512_slli_epi32(d, 24)));
        _mm512_storeu_si512(dst + p * 4, v);
    }
    for (; p < n; ++p) {
        dst[p * 4 + 0] = r0[p];
        dst[p * 4 + 1] = r1[p];
        dst[p * 4 + 2] = r2[p];
        dst[p * 4 + 3] = r3[p];
    }
}

// One im2col row (kernel tap k of channel ci) of one group, padding with the zero point.
void im2colRow(const ConvGeometry& g, const uint8_t* plane, int64_t ky, int64_t kx, uint8_t pad, uint8_t* row)
{
    for (int64_t oy = 0; oy < g.oh; ++oy) {
        const int64_t iy = oy * g.sh - g.padT + ky * g.dh;
        uint8_t* out = row + oy * g.ow;
        if (iy < 0 || iy >= g.h) {
            std::memset(out, pad, static_cast<size_t>(g.ow));
            continue;
        }
        const uint8_t* in = plane + iy * g.w;
        const int64_t x0 = kx * g.dw - g.padL;
        if (g.sw == 1) {   // padding on the left/right edges, one copy in between
            const int64_t a = std::clamp<int64_t>(-x0, 0, g.ow), b = std::clamp<int64_t>(g.w - x0, a, g.ow);
            std::memset(out, pad, static_cast<size_t>(a));
            std::memcpy(out + a, in + x0 + a, static_cast<size_t>(b - a));
            std::memset(out + b, pad, static_cast<size_t>(g.ow - b));
            continue;
        }
        for (int64_t ox = 0; ox < g.ow; ++ox) {
            const int64_t ix = ox * g.sw + x0;
            out[ox] = (ix >= 0 && ix < g.w) ? in[ix] : pad;
        }
    }
}

// acc[r][j] over rows m0..m0+rows of W and NV 16-lane column blocks from p0 of the packed
// panel ([K4/4][P][4] bytes). Stores y[m][p] = acc - zero * rowSum[m]. NV is a template
// parameter so the inner loops unroll into straight vpdpbusd sequences.
template <int NV>
QD_VNNI void kernelBlockN(const uint8_t* panel, int64_t P, const PackedInt8Weights& w, int64_t m0, int64_t rows,
                          int64_t p0, int64_t cols, int32_t zero, int32_t* y, int64_t ldy)
{
    __m512i acc[4][NV];
#pragma GCC unroll 4
    for (int r = 0; r < 4; ++r)
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) acc[r][j] = _mm512_setzero_si512();
    __mmask16 masks[NV];
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
        const int64_t left = cols - j * 16;
        masks[j] = left >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << left) - 1);
    }
    const bool full = cols == NV * 16;
    const int64_t steps = w.k4 / 4;
    const int32_t* wr[4];
    for (int r = 0; r < 4; ++r) wr[r] = reinterpret_cast<const int32_t*>(w.w.data() + (m0 + std::min<int64_t>(r, rows - 1)) * w.k4);
    const uint8_t* base = panel + p0 * 4;
    const int64_t stride = P * 4;
    for (int64_t s = 0; s < steps; ++s, base += stride) {
        __m512i c[NV];
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            c[j] = full ? _mm512_loadu_si512(base + j * 64) : _mm512_maskz_loadu_epi32(masks[j], base + j * 64);
#pragma GCC unroll 4
        for (int r = 0; r < 4; ++r) {
            const __m512i wv = _mm512_set1_epi32(wr[r][s]);
#pragma GCC unroll 4
            for (int j = 0; j < NV; ++j) acc[r][j] = _mm512_dpbusd_epi32(acc[r][j], c[j], wv);
        }
    }
#pragma GCC unroll 4
    for (int r = 0; r < 4; ++r) {
        if (r >= rows) break;
        const __m512i corr = _mm512_set1_epi32(zero * w.rowSums[static_cast<size_t>(m0 + r)]);
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            _mm512_mask_storeu_epi32(y + (m0 + r) * ldy + p0 + j * 16, masks[j], _mm512_sub_epi32(acc[r][j], corr));
    }
}

void kernelBlock(const uint8_t* panel, int64_t P, const PackedInt8Weights& w, int64_t m0, int64_t rows, int64_t p0,
                 int64_t cols, int32_t zero, int32_t* y, int64_t ldy)
{
    switch ((cols + 15) / 16) {
    case 1: kernelBlockN<1>(panel, P, w, m0, rows, p0, cols, zero, y, ldy); break;
    case 2: kernelBlockN<2>(panel, P, w, m0, rows, p0, cols, zero, y, ldy); break;
    case 3: kernelBlockN<3>(panel, P, w, m0, rows, p0, cols, zero, y, ldy); break;
    default: kernelBlockN<4>(panel, P, w, m0, rows, p0, cols, zero, y, ldy); break;
    }
}

// Rows of W x the packed panel, the (m-block, p-block) grid split across the pool.
void panelGemm(const uint8_t* panel, int64_t P, const PackedInt8Weights& w, int64_t mOffset, int64_t M, int32_t zero,
               int32_t* y, ThreadPool* pool)
{
    const int64_t mb = (M + 3) / 4, pb = (P + 63) / 64;
    parallelFor(pool, mb * pb, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
            const int64_t pi = t / mb, mi = t % mb;   // m fastest: the panel block stays in cache
            const int64_t m0 = mi * 4, p0 = pi * 64;
            kernelBlock(panel, P, w, mOffset + m0, std::min<int64_t>(4, M - m0), p0, std::min<int64_t>(64, P - p0), zero,
                        y, P);
        }
    });
}

}  // namespace
#endif

void convU8S8(const ConvGeometry& g, const uint8_t* x, int32_t xZero, const PackedInt8Weights& w, int32_t* y,
              ThreadPool* pool)
{
#if QD_HAVE_X86
    const int64_t cg = g.c / g.group, mg = g.m / g.group, K = g.kernelSize(), P = g.outPixels();
    const int64_t K4 = w.k4;
    std::vector<uint8_t> rows(static_cast<size_t>(4 * P));
    std::vector<uint8_t> panel(static_cast<size_t>(K4 * P));
    const auto pad = static_cast<uint8_t>(xZero);
    const bool direct = g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.padT == 0 && g.padL == 0;
    for (int64_t n = 0; n < g.n; ++n)
        for (int64_t gi = 0; gi < g.group; ++gi) {
            const uint8_t* xg = x + (n * g.c + gi * cg) * g.h * g.w;
            for (int64_t k0 = 0; k0 < K4; k0 += 4) {
                const uint8_t* src[4];
                for (int j = 0; j < 4; ++j) {
                    const int64_t k = k0 + j;
                    uint8_t* row = rows.data() + j * P;
                    if (k >= K) {
                        std::memset(row, 0, static_cast<size_t>(P));   // weight is 0 there
                        src[j] = row;
                        continue;
                    }
                    const int64_t ci = k / (g.kh * g.kw), ky = (k / g.kw) % g.kh, kx = k % g.kw;
                    const uint8_t* plane = xg + ci * g.h * g.w;
                    if (direct) {
                        src[j] = plane;
                    } else {
                        im2colRow(g, plane, ky, kx, pad, row);
                        src[j] = row;
                    }
                }
                interleave4(src[0], src[1], src[2], src[3], P, panel.data() + k0 * P);
            }
            panelGemm(panel.data(), P, w, gi * mg, mg, xZero, y + (n * g.m) * P, pool);
        }
#else
    (void)g; (void)x; (void)xZero; (void)w; (void)y; (void)pool;
#endif
}

void gemmU8S8(int64_t M, const uint8_t* a, int32_t aZero, const PackedInt8Weights& b, int32_t* c, ThreadPool* pool)
{
#if QD_HAVE_X86
    // C^T[N][M] = B[N][K] x A^T: A's rows become the panel's columns
    const int64_t K = b.k, K4 = b.k4;
    std::vector<uint8_t> panel(static_cast<size_t>(K4 * M), 0);
    for (int64_t k = 0; k < K; ++k)
        for (int64_t m = 0; m < M; ++m) panel[static_cast<size_t>(((k / 4) * M + m) * 4 + k % 4)] = a[m * K + k];
    std::vector<int32_t> ct(static_cast<size_t>(b.m * M));
    panelGemm(panel.data(), M, b, 0, b.m, aZero, ct.data(), pool);
    for (int64_t n = 0; n < b.m; ++n)
        for (int64_t m = 0; m < M; ++m) c[m * b.m + n] = ct[static_cast<size_t>(n * M + m)];
#else
    (void)M; (void)a; (void)aZero; (void)b; (void)c; (void)pool;
#endif
}

#if QD_HAVE_X86
QD_VNNI static void requantizeRowVnni(const int32_t* acc, int64_t n, int32_t biasQ, float multiplier, int32_t zp,
                                      int32_t lo, int32_t hi, uint8_t* out)
{
    const __m512i vb = _mm512_set1_epi32(biasQ), vz = _mm512_set1_epi32(zp);
    const __m512i vlo = _mm512_set1_epi32(lo), vhi = _mm512_set1_epi32(hi);
    const __m512 vm = _mm512_set1_ps(multiplier);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512i a = _mm512_add_epi32(_mm512_loadu_si512(acc + i), vb);
        // cvtps rounds half to even under the default MXCSR, as nearbyint does
        __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(_mm512_mul_ps(_mm512_cvtepi32_ps(a), vm)), vz);
        q = _mm512_min_epi32(_mm512_max_epi32(q, vlo), vhi);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm512_cvtepi32_epi8(q));
    }
    for (; i < n; ++i) {
        const int32_t q = static_cast<int32_t>(std::nearbyint(static_cast<float>(acc[i] + biasQ) * multiplier)) + zp;
        out[i] = static_cast<uint8_t>(std::clamp(q, lo, hi));
    }
}
#endif

void requantizeRowU8(const int32_t* acc, int64_t n, int32_t biasQ, float multiplier, int32_t zp, int32_t lo, int32_t hi,
                     uint8_t* out)
{
#if QD_HAVE_X86
    if (int8FastPathAvailable()) {
        requantizeRowVnni(acc, n, biasQ, multiplier, zp, lo, hi, out);
        return;
    }
#endif
    for (int64_t i = 0; i < n; ++i) {
        const int32_t q = static_cast<int32_t>(std::nearbyint(static_cast<float>(acc[i] + biasQ) * multiplier)) + zp;
        out[i] = static_cast<uint8_t>(std::clamp(q, lo, hi));
    }
}

}  // namespace qatdoctor::core::fixedpoint
