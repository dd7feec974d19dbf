#include "core/fixedpoint/simd_ops.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define QD_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
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

QD_AVX512 void quantizeAvx512(const float* x, int64_t n, float scale, float zp, float lo, float hi, uint8_t* out)
{
    const __m512 vs = _mm512_set1_ps(scale), vz = _mm512_set1_ps(zp), vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
    for (int64_t i = 0; i < n; i += 16) {
        const int64_t left = n - i;
        const __mmask16 m = left >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << left) - 1);
        const __m512 v0 = _mm512_maskz_loadu_ps(m, x + i);
        __m512 v = _mm512_add_ps(_mm512_roundscale_ps(_mm512_div_ps(v0, vs), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), vz);
        const __mmask16 ordered = _mm512_cmp_ps_mask(v, v, _CMP_ORD_Q);
        v = _mm512_min_ps(_mm512_max_ps(v, vlo), vhi);
        v = _mm512_mask_blend_ps(ordered, vz, v);
        _mm_mask_storeu_epi8(out + i, m, _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(v)));
    }
}

QD_AVX512 void addAvx512(const uint8_t* a, const uint8_t* b, int64_t n, double sa, int32_t za, double sb, int32_t zb,
                         double sign, double so, int32_t zo, int32_t lo, int32_t hi, uint8_t* out)
{
    const __m512d vsa = _mm512_set1_pd(sa), vsb = _mm512_set1_pd(sign * sb), vso = _mm512_set1_pd(so);
    const __m512d big = _mm512_set1_pd(1 << 30), small = _mm512_set1_pd(-(1 << 30));
    const __m256i vza = _mm256_set1_epi32(za), vzb = _mm256_set1_epi32(zb), vzo = _mm256_set1_epi32(zo);
    const __m256i vlo = _mm256_set1_epi32(lo), vhi = _mm256_set1_epi32(hi);
    for (int64_t i = 0; i < n; i += 8) {
        const int64_t left = n - i;
        const __mmask8 m = left >= 8 ? __mmask8(0xFF) : __mmask8((1u << left) - 1);
        const __m256i ia = _mm256_sub_epi32(_mm256_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, a + i)), vza);
        const __m256i ib = _mm256_sub_epi32(_mm256_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, b + i)), vzb);
        const __m512d t = _mm512_add_pd(_mm512_mul_pd(vsa, _mm512_cvtepi32_pd(ia)), _mm512_mul_pd(vsb, _mm512_cvtepi32_pd(ib)));
        __m512d v = _mm512_roundscale_pd(_mm512_div_pd(t, vso), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        v = _mm512_min_pd(_mm512_max_pd(v, small), big);   // inside int32 before converting
        __m256i q = _mm256_add_epi32(_mm512_cvtpd_epi32(v), vzo);
        q = _mm256_min_epi32(_mm256_max_epi32(q, vlo), vhi);
        _mm_mask_storeu_epi8(out + i, m, _mm256_cvtepi32_epi8(q));
    }
}
#endif

}  // namespace

bool quantizeRowX8(const float* x, int64_t n, float scale, float zp, float lo, float hi, bool isSigned, uint8_t* out)
{
    (void)isSigned;   // the low byte of the clamped int32 is the code either way
#if QD_HAVE_X86
    if (haveAvx512()) {
        quantizeAvx512(x, n, scale, zp, lo, hi, out);
        return true;
    }
#else
    (void)x; (void)n; (void)scale; (void)zp; (void)lo; (void)hi; (void)out;
#endif
    return false;
}

bool addRowsU8(const uint8_t* a, const uint8_t* b, int64_t n, double sa, int32_t za, double sb, int32_t zb, double sign,
               double so, int32_t zo, int32_t lo, int32_t hi, uint8_t* out)
{
#if QD_HAVE_X86
    if (haveAvx512()) {
        addAvx512(a, b, n, sa, za, sb, zb, sign, so, zo, lo, hi, out);
        return true;
    }
#else
    (void)a; (void)b; (void)n; (void)sa; (void)za; (void)sb; (void)zb; (void)sign; (void)so; (void)zo; (void)lo; (void)hi; (void)out;
#endif
    return false;
}

}  // namespace qatdoctor::core::fixedpoint
