#include "core/fixedpoint/simd_ops.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's AVX-512 headers warn about their own _mm512_undefined_* placeholders when inlined
// (GCC bug 105593, fixed in 13): silenced for the header only
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
// fp-contract=off: a multiply and an add stay two roundings, as in the scalar loops (no FMA)
#define QD_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"), optimize("fp-contract=off")))
#define QD_HAVE_X86 1
#else
#define QD_HAVE_X86 0
#endif

namespace qatdoctor::core::fixedpoint {

namespace {

#if QD_HAVE_X86
bool haveAvx512()
{
    static const bool kHave = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                              __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    return kHave;
}

QD_AVX512 void quantizeAvx512(const float* x, int64_t n, float scale, float zp, float lo, float hi,
                              uint8_t* out)
{
    const __m512 vs = _mm512_set1_ps(scale), vz = _mm512_set1_ps(zp), vlo = _mm512_set1_ps(lo),
                 vhi = _mm512_set1_ps(hi);
    for (int64_t i = 0; i < n; i += 16) {
        const int64_t left = n - i;
        const __mmask16 m = left >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << left) - 1);
        const __m512 v0 = _mm512_maskz_loadu_ps(m, x + i);
        __m512 v = _mm512_add_ps(
            _mm512_roundscale_ps(_mm512_div_ps(v0, vs), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), vz);
        const __mmask16 ordered = _mm512_cmp_ps_mask(v, v, _CMP_ORD_Q);
        v = _mm512_min_ps(_mm512_max_ps(v, vlo), vhi);
        v = _mm512_mask_blend_ps(ordered, vz, v);
        _mm_mask_storeu_epi8(out + i, m, _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(v)));
    }
}

// The division by so is the slow step (vdivpd); t * (1 / so) differs from t / so by a few ulps
// at most, which changes the rounded integer only when the quotient lies within those ulps of a
// half-integer. Such lanes (exact ties included) are rare: the whole vector is then redone with
// the division, so every lane is exactly what the division gives.
QD_AVX512 inline void addDouble8(const uint8_t* a, const uint8_t* b, __mmask8 m, const __m512d vsa,
                                 const __m512d vsb, const __m512d vso, const __m512d inv, int32_t za,
                                 int32_t zb, int32_t zo, int32_t lo, int32_t hi, uint8_t* out)
{
    const __m512d half = _mm512_set1_pd(0.5), margin = _mm512_set1_pd(0x1p-40);
    const __m512d absMask = _mm512_castsi512_pd(_mm512_set1_epi64(0x7FFFFFFFFFFFFFFF));
    const __m512d big = _mm512_set1_pd(1 << 30), small = _mm512_set1_pd(-(1 << 30));
    const __m256i ia =
        _mm256_sub_epi32(_mm256_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, a)), _mm256_set1_epi32(za));
    const __m256i ib =
        _mm256_sub_epi32(_mm256_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, b)), _mm256_set1_epi32(zb));
    const __m512d t =
        _mm512_add_pd(_mm512_mul_pd(vsa, _mm512_cvtepi32_pd(ia)), _mm512_mul_pd(vsb, _mm512_cvtepi32_pd(ib)));
    __m512d q = _mm512_mul_pd(t, inv);
    // distance of q to the nearest half-integer against a margin far above the ulps apart
    const __m512d frac = _mm512_sub_pd(q, _mm512_roundscale_pd(q, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
    const __m512d dist = _mm512_and_pd(_mm512_sub_pd(frac, half), absMask);
    const __m512d room = _mm512_add_pd(_mm512_mul_pd(_mm512_and_pd(q, absMask), margin), margin);
    if (_mm512_cmp_pd_mask(dist, room, _CMP_GT_OQ) != 0xFF) q = _mm512_div_pd(t, vso);
    __m512d v = _mm512_roundscale_pd(q, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    v = _mm512_min_pd(_mm512_max_pd(v, small), big);  // inside int32 before converting
    __m256i r = _mm256_add_epi32(_mm512_cvtpd_epi32(v), _mm256_set1_epi32(zo));
    r = _mm256_min_epi32(_mm256_max_epi32(r, _mm256_set1_epi32(lo)), _mm256_set1_epi32(hi));
    _mm_mask_storeu_epi8(out, m, _mm256_cvtepi32_epi8(r));
}

// First in float, 16 lanes: its quotient is within 6 * 2^-24 * B of the exact one, B = the largest
// (|sa (a - za)| + |sb (b - zb)|) / so over all codes, so where it lies farther than 2^-18 * B
// from every half-integer it rounds to the same integer as the double computation. Vectors with
// a lane closer than that (exact ties included) take the double path above; so does every vector
// when B is too large for the float margin to be useful.
QD_AVX512 void addAvx512(const uint8_t* a, const uint8_t* b, int64_t n, double sa, int32_t za, double sb,
                         int32_t zb, double sign, double so, int32_t zo, int32_t lo, int32_t hi, uint8_t* out)
{
    const __m512d vsa = _mm512_set1_pd(sa), vsb = _mm512_set1_pd(sign * sb), vso = _mm512_set1_pd(so);
    const __m512d inv = _mm512_set1_pd(1.0 / so);
    const double bound =
        (std::max(za, 255 - za) * std::fabs(sa) + std::max(zb, 255 - zb) * std::fabs(sb)) / std::fabs(so);
    const double marginF = (bound + 1.0) * 0x1p-18;
    int64_t i = 0;
    if (marginF < 0.25 && std::isfinite(marginF)) {
        const __m512 fsa = _mm512_set1_ps(static_cast<float>(sa)),
                     fsb = _mm512_set1_ps(static_cast<float>(sign * sb));
        const __m512 finv = _mm512_set1_ps(static_cast<float>(1.0 / so)), half = _mm512_set1_ps(0.5f);
        const __m512 margin = _mm512_set1_ps(static_cast<float>(marginF));
        const __m512 absMask = _mm512_castsi512_ps(_mm512_set1_epi32(0x7FFFFFFF));
        const __m512i vza = _mm512_set1_epi32(za), vzb = _mm512_set1_epi32(zb), vzo = _mm512_set1_epi32(zo);
        const __m512i vlo = _mm512_set1_epi32(lo), vhi = _mm512_set1_epi32(hi);
        for (; i + 16 <= n; i += 16) {
            const __m512i ia = _mm512_sub_epi32(
                _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i))), vza);
            const __m512i ib = _mm512_sub_epi32(
                _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i))), vzb);
            const __m512 t = _mm512_add_ps(_mm512_mul_ps(fsa, _mm512_cvtepi32_ps(ia)),
                                           _mm512_mul_ps(fsb, _mm512_cvtepi32_ps(ib)));
            const __m512 q = _mm512_mul_ps(t, finv);
            const __m512 frac =
                _mm512_sub_ps(q, _mm512_roundscale_ps(q, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
            const __m512 dist = _mm512_and_ps(_mm512_sub_ps(frac, half), absMask);
            if (_mm512_cmp_ps_mask(dist, margin, _CMP_GT_OQ) != 0xFFFF) {
                addDouble8(a + i, b + i, 0xFF, vsa, vsb, vso, inv, za, zb, zo, lo, hi, out + i);
                addDouble8(a + i + 8, b + i + 8, 0xFF, vsa, vsb, vso, inv, za, zb, zo, lo, hi, out + i + 8);
                continue;
            }
            __m512i r = _mm512_add_epi32(_mm512_cvtps_epi32(q), vzo);  // nearest (no lane is near a tie)
            r = _mm512_min_epi32(_mm512_max_epi32(r, vlo), vhi);
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm512_cvtepi32_epi8(r));
        }
    }
    for (; i < n; i += 8) {
        const int64_t left = n - i;
        const __mmask8 m = left >= 8 ? __mmask8(0xFF) : __mmask8((1u << left) - 1);
        addDouble8(a + i, b + i, m, vsa, vsb, vso, inv, za, zb, zo, lo, hi, out + i);
    }
}

template <class T>
QD_AVX512 void floorAvx512(T* x, int64_t n, T floor)
{
    const __m512i f = _mm512_set1_epi8(static_cast<char>(floor));
    for (int64_t i = 0; i < n; i += 64) {
        const int64_t left = n - i;
        const __mmask64 m = left >= 64 ? ~__mmask64(0) : (__mmask64(1) << left) - 1;
        const __m512i v = _mm512_maskz_loadu_epi8(m, x + i);
        _mm512_mask_storeu_epi8(x + i, m,
                                std::is_signed_v<T> ? _mm512_max_epi8(v, f) : _mm512_max_epu8(v, f));
    }
}

template <class T>
QD_AVX512 void clampAvx512(const T* x, int64_t n, T lo, T hi, T* out)
{
    const __m512i l = _mm512_set1_epi8(static_cast<char>(lo)), h = _mm512_set1_epi8(static_cast<char>(hi));
    for (int64_t i = 0; i < n; i += 64) {
        const int64_t left = n - i;
        const __mmask64 m = left >= 64 ? ~__mmask64(0) : (__mmask64(1) << left) - 1;
        const __m512i v = _mm512_maskz_loadu_epi8(m, x + i);
        const __m512i c = std::is_signed_v<T> ? _mm512_min_epi8(_mm512_max_epi8(v, l), h)
                                              : _mm512_min_epu8(_mm512_max_epu8(v, l), h);
        _mm512_mask_storeu_epi8(out + i, m, c);
    }
}
#endif

}  // namespace

bool clampRowX8(const uint8_t* x, int64_t n, int32_t lo, int32_t hi, bool isSigned, uint8_t* out)
{
#if QD_HAVE_X86
    if (haveAvx512()) {
        if (isSigned)
            clampAvx512(reinterpret_cast<const int8_t*>(x), n, static_cast<int8_t>(lo),
                        static_cast<int8_t>(hi), reinterpret_cast<int8_t*>(out));
        else
            clampAvx512(x, n, static_cast<uint8_t>(lo), static_cast<uint8_t>(hi), out);
        return true;
    }
#else
    (void)x;
    (void)n;
    (void)lo;
    (void)hi;
    (void)isSigned;
    (void)out;
#endif
    return false;
}

bool quantizeRowX8(const float* x, int64_t n, float scale, float zp, float lo, float hi, bool isSigned,
                   uint8_t* out)
{
    (void)isSigned;  // the low byte of the clamped int32 is the code either way
#if QD_HAVE_X86
    if (haveAvx512()) {
        quantizeAvx512(x, n, scale, zp, lo, hi, out);
        return true;
    }
#else
    (void)x;
    (void)n;
    (void)scale;
    (void)zp;
    (void)lo;
    (void)hi;
    (void)out;
#endif
    return false;
}

bool floorRowX8(uint8_t* x, int64_t n, int32_t floor, bool isSigned)
{
#if QD_HAVE_X86
    if (haveAvx512()) {
        if (isSigned)
            floorAvx512(reinterpret_cast<int8_t*>(x), n, static_cast<int8_t>(floor));
        else
            floorAvx512(x, n, static_cast<uint8_t>(floor));
        return true;
    }
#else
    (void)x;
    (void)n;
    (void)floor;
    (void)isSigned;
#endif
    return false;
}

bool addRowsU8(const uint8_t* a, const uint8_t* b, int64_t n, double sa, int32_t za, double sb, int32_t zb,
               double sign, double so, int32_t zo, int32_t lo, int32_t hi, uint8_t* out)
{
#if QD_HAVE_X86
    if (haveAvx512()) {
        addAvx512(a, b, n, sa, za, sb, zb, sign, so, zo, lo, hi, out);
        return true;
    }
#else
    (void)a;
    (void)b;
    (void)n;
    (void)sa;
    (void)za;
    (void)sb;
    (void)zb;
    (void)sign;
    (void)so;
    (void)zo;
    (void)lo;
    (void)hi;
    (void)out;
#endif
    return false;
}

}  // namespace qatdoctor::core::fixedpoint
