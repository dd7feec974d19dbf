#include "core/logs/line_shape.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/logs/scan_util.h"

namespace qatdoctor::core::logs {
namespace {

constexpr uint64_t kHigh = 0x8080808080808080ull;

uint64_t load8(const char* p)
{
    uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
}

// 0x80 in each byte that is an ASCII digit. Per byte, without carries between bytes (unlike
// leadingDigits8, which is exact only up to the first non-digit): x = the low 7 bits, then
// x + 0x50 reaches 0x80 from '0' on and x + 0x46 from ':' on; bytes >= 0x80 are no digits.
uint64_t digitBytes(uint64_t w)
{
    const uint64_t x = w & ~kHigh;
    const uint64_t fromZero = x + 0x5050505050505050ull;
    const uint64_t pastNine = x + 0x4646464646464646ull;
    return fromZero & ~pastNine & ~w & kHigh;
}

}  // namespace

void LineShape::clear()
{
    m_length = 0;
    m_fixed.clear();
    m_fixedMask.clear();
    m_digitHigh.clear();
    m_numbers.clear();
    m_simd.clear();
}

void LineShape::reset()
{
    clear();
    m_backoff = 0;
    m_failures = 0;
}

void LineShape::learn(const char* p, const char* e, const std::vector<NumberSpan>& spans)
{
    if (m_backoff > 0) {
        --m_backoff;
        return;
    }
    if (build(p, e, spans)) {
        m_failures = 0;
    } else {
        m_failures = std::min(m_failures + 1, 12);
        m_backoff = 1 << m_failures;
    }
}

bool LineShape::build(const char* p, const char* e, const std::vector<NumberSpan>& spans)
{
    clear();
    const auto length = static_cast<size_t>(e - p);
    if (length == 0 || length > kMaxBytes) return false;
    const size_t words = (length + 7) / 8;
    std::array<uint8_t, kMaxBytes + 8> isDigit{};
    for (const NumberSpan& s : spans) {
        if (!s.begin || s.begin < p || s.end > e || s.end <= s.begin) return false;
        if (s.digitFirst && !logs::isDigit(*s.begin)) return false;
        ShapedNumber n;
        const char* q = s.begin;
        if (*q == '-') {
            n.negative = true;
            ++q;
        }
        const char* intStart = q;
        while (q < s.end && logs::isDigit(*q)) ++q;
        n.intLen = static_cast<uint8_t>(q - intStart);
        const char* fracStart = q;
        if (q < s.end && *q == '.') {
            fracStart = ++q;
            while (q < s.end && logs::isDigit(*q)) ++q;
        }
        n.fracLen = static_cast<uint8_t>(q - fracStart);
        if (q != s.end || n.intLen > 8 || n.fracLen > 8 || n.intLen + n.fracLen == 0 ||
            n.intLen + n.fracLen > 15)
            return false;
        // what follows must end the number for parseNumber too (an exponent would not)
        if (s.end < e && (*s.end == 'e' || *s.end == 'E' || *s.end == '.')) return false;
        n.intAt = static_cast<uint16_t>(intStart - p);
        n.fracAt = static_cast<uint16_t>(fracStart - p);
        for (const char* d = intStart; d < intStart + n.intLen; ++d) isDigit[static_cast<size_t>(d - p)] = 1;
        for (const char* d = fracStart; d < fracStart + n.fracLen; ++d)
            isDigit[static_cast<size_t>(d - p)] = 1;
        m_numbers.push_back(n);
    }
    for (size_t w = 0; w < words; ++w) {
        uint64_t fixed = 0, fixedMask = 0, digitHigh = 0;
        for (size_t b = 0; b < 8; ++b) {
            const size_t i = w * 8 + b;
            if (i >= length) break;
            if (isDigit[i]) {
                digitHigh |= 0x80ull << (8 * b);
            } else {
                fixed |= static_cast<uint64_t>(static_cast<uint8_t>(p[i])) << (8 * b);
                fixedMask |= 0xffull << (8 * b);
            }
        }
        m_fixed.push_back(fixed);
        m_fixedMask.push_back(fixedMask);
        m_digitHigh.push_back(digitHigh);
    }
    m_length = length;
    if (m_simdAllowed) m_simd.build(p, length, m_numbers, isDigit.data());
    return true;
}

bool LineShape::matchPortable(const char* p, const char* e, double* values) const
{
    if (static_cast<size_t>(e - p) != m_length) return false;
    const size_t words = m_fixed.size();
    for (size_t w = 0; w < words; ++w) {
        const uint64_t raw = load8(p + 8 * w);
        if (((raw ^ m_fixed[w]) & m_fixedMask[w]) != 0) return false;
        if ((digitBytes(raw) & m_digitHigh[w]) != m_digitHigh[w]) return false;
    }
    static constexpr uint64_t kPow10i[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    for (size_t k = 0; k < m_numbers.size(); ++k) {
        const ShapedNumber& n = m_numbers[k];
        // one integer digit ("0.0149", "6.88") is the common case: no word arithmetic for it
        uint64_t m = n.intLen == 1  ? static_cast<uint64_t>(p[n.intAt] - '0')
                     : n.intLen > 1 ? detail::digitsValue8(load8(p + n.intAt), n.intLen)
                                    : 0;
        double v;
        if (n.fracLen) {
            m = m * kPow10i[n.fracLen] + detail::digitsValue8(load8(p + n.fracAt), n.fracLen);
            v = static_cast<double>(m) / kPow10[n.fracLen];  // as parseNumber: one correctly rounded division
        } else {
            v = static_cast<double>(m);
        }
        values[k] = n.negative ? -v : v;
    }
    return true;
}

}  // namespace qatdoctor::core::logs
