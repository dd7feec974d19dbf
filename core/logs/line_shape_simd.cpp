#include "core/logs/line_shape_simd.h"

#include <cstring>

#if defined(__x86_64__)
// GCC 12's AVX-512 headers warn about their own _mm512_undefined_* placeholders when inlined
// (GCC bug 105593, fixed in 13): silenced for the header only
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#define QD_SHAPE_SIMD __attribute__((target("avx512f,avx512bw,avx512dq,avx512vbmi")))
#endif

namespace qatdoctor::core::logs {

bool SimdLineShape::available()
{
#if defined(__x86_64__)
    static const bool kHave = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                              __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vbmi");
    return kHave;
#else
    return false;
#endif
}

void SimdLineShape::clear()
{
    m_length = 0;
    m_passes.clear();
}

bool SimdLineShape::build(const char* p, size_t length, const std::vector<ShapedNumber>& numbers,
                          const uint8_t* isDigit)
{
    clear();
    if (length == 0 || length > kMaxBytes) return false;
    static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    for (size_t k = 0; k < numbers.size(); ++k) {
        const ShapedNumber& n = numbers[k];
        const unsigned digits = n.intLen + n.fracLen;
        if (digits == 0 || digits > 15) return false;  // mantissas below 2^53: exact doubles
        if (k % 8 == 0) m_passes.emplace_back();
        Pass& pass = m_passes.back();
        const unsigned lane = k % 8, half = lane / 4;
        pass.twoHalves = half == 1;
        // the integer digits then the fraction digits, ending at the slot's last byte
        unsigned at = (lane % 4) * 16 + 16 - digits;
        for (unsigned i = 0; i < n.intLen; ++i, ++at) {
            pass.index[half][at] = static_cast<uint8_t>(n.intAt + i);
            pass.keep[half] |= 1ull << at;
        }
        for (unsigned i = 0; i < n.fracLen; ++i, ++at) {
            pass.index[half][at] = static_cast<uint8_t>(n.fracAt + i);
            pass.keep[half] |= 1ull << at;
        }
        pass.pow10[lane] = kPow10[n.fracLen];
        if (n.negative) pass.negative |= static_cast<uint8_t>(1u << lane);
        pass.count = static_cast<uint8_t>(lane + 1);
    }
    std::memset(m_fixed, 0, sizeof m_fixed);
    m_fixedMask[0] = m_fixedMask[1] = m_digitMask[0] = m_digitMask[1] = 0;
    for (size_t i = 0; i < length; ++i) {
        if (isDigit[i]) {
            m_digitMask[i / 64] |= 1ull << (i % 64);
        } else {
            m_fixed[i] = static_cast<uint8_t>(p[i]);
            m_fixedMask[i / 64] |= 1ull << (i % 64);
        }
    }
    m_length = length;
    return true;
}

#if defined(__x86_64__)
namespace {

// The digits of one 64-byte half of a line minus '0'; false if a fixed byte differs or a digit
// byte is no digit.
QD_SHAPE_SIMD inline bool checkHalf(const char* p, uint64_t loadMask, const uint8_t* fixed,
                                    uint64_t fixedMask, uint64_t digitMask, __m512i& digits)
{
    const __m512i bytes = _mm512_maskz_loadu_epi8(loadMask, p);
    if (_mm512_mask_cmpneq_epi8_mask(fixedMask, bytes, _mm512_loadu_si512(fixed))) return false;
    digits = _mm512_sub_epi8(bytes, _mm512_set1_epi8('0'));
    return !_mm512_mask_cmpgt_epu8_mask(digitMask, digits, _mm512_set1_epi8(9));
}

// The mantissas of the four numbers of one half of a pass, in the even 64-bit lanes.
QD_SHAPE_SIMD inline __m512i mantissas(__m512i low, __m512i high, const uint8_t* index, uint64_t keep)
{
    const __m512i tens = _mm512_set1_epi16(0x010a);          // byte pairs: 10a + b
    const __m512i hundreds = _mm512_set1_epi32(0x00010064);  // 16-bit pairs: 100a + b
    const __m512i d = _mm512_maskz_permutex2var_epi8(keep, low, _mm512_loadu_si512(index), high);
    __m512i x = _mm512_madd_epi16(_mm512_maddubs_epi16(d, tens), hundreds);  // 4-digit values (32 bit)
    // 8-digit values in each 64-bit lane: first four digits * 10^4 + last four
    x = _mm512_add_epi64(_mm512_mul_epu32(x, _mm512_set1_epi64(10000)), _mm512_srli_epi64(x, 32));
    // 16-digit mantissas in the even lanes: even * 10^8 + the odd lane after it
    const __m512i hundredMillion = _mm512_set_epi64(1, 100000000, 1, 100000000, 1, 100000000, 1, 100000000);
    return _mm512_add_epi64(_mm512_mul_epu32(x, hundredMillion), _mm512_bsrli_epi128(x, 8));
}

}  // namespace

QD_SHAPE_SIMD bool SimdLineShape::match(const char* p, const char* e, double* values) const
{
    if (static_cast<size_t>(e - p) != m_length) return false;
    const auto maskOf = [](size_t n) { return n >= 64 ? ~0ull : (1ull << n) - 1; };
    __m512i low, high = _mm512_setzero_si512();
    if (!checkHalf(p, maskOf(m_length), m_fixed, m_fixedMask[0], m_digitMask[0], low)) return false;
    if (m_length > 64 &&
        !checkHalf(p + 64, maskOf(m_length - 64), m_fixed + 64, m_fixedMask[1], m_digitMask[1], high))
        return false;
    const __m512i evenLanes = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i signBit = _mm512_set1_epi64(static_cast<long long>(0x8000000000000000ull));
    for (const Pass& pass : m_passes) {
        const __m512i first = mantissas(low, high, pass.index[0], pass.keep[0]);
        const __m512i second =
            pass.twoHalves ? mantissas(low, high, pass.index[1], pass.keep[1]) : _mm512_setzero_si512();
        __m512d v = _mm512_cvtepu64_pd(_mm512_permutex2var_epi64(first, evenLanes, second));  // in line order
        v = _mm512_div_pd(v, _mm512_loadu_pd(pass.pow10));
        v = _mm512_castsi512_pd(
            _mm512_mask_xor_epi64(_mm512_castpd_si512(v), pass.negative, _mm512_castpd_si512(v), signBit));
        _mm512_mask_storeu_pd(values, static_cast<__mmask8>((1u << pass.count) - 1), v);
        values += pass.count;
    }
    return true;
}
#else
bool SimdLineShape::match(const char*, const char*, double*) const
{
    return false;
}
#endif

}  // namespace qatdoctor::core::logs
