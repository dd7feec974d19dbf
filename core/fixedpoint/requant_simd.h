// The float requantization (requantizeRowU8/S8) on 16 int32 sums in AVX-512 registers, one
// definition for the row kernel and the convolution epilogues that requantize in registers
// (int8_gemm.cpp, amx_conv.cpp). x86 only: include after <immintrin.h>.
#pragma once

#include <cstdint>

namespace qatdoctor::core::fixedpoint {

// clamp(zp + round(float(sum + biasQ) * multiplier), lo, hi) as 16 low bytes. cvtps rounds half
// to even under the default MXCSR, as nearbyint does in the scalar loop.
__attribute__((target("avx512f,avx512bw,avx512vl"))) inline __m128i requant16(__m512i sums, int32_t biasQ,
                                                                              float multiplier, int32_t zp,
                                                                              int32_t lo, int32_t hi)
{
    const __m512i a = _mm512_add_epi32(sums, _mm512_set1_epi32(biasQ));
    __m512i q =
        _mm512_add_epi32(_mm512_cvtps_epi32(_mm512_mul_ps(_mm512_cvtepi32_ps(a), _mm512_set1_ps(multiplier))),
                         _mm512_set1_epi32(zp));
    q = _mm512_min_epi32(_mm512_max_epi32(q, _mm512_set1_epi32(lo)), _mm512_set1_epi32(hi));
    return _mm512_cvtepi32_epi8(q);
}

}  // namespace qatdoctor::core::fixedpoint
