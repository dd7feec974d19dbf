// Small byte-level helpers shared by the line parsers: number parsing without locale or
// allocation (fast_float), ASCII case-insensitive compares, timestamps, UTF-8 and binary checks.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace qatdoctor::core::logs {

inline bool isAlpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
inline bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Everything parseNumber's inline fast path leaves: exponents, long mantissas, nan/inf (fast_float).
const char* parseNumberSlow(const char* p, const char* end, double& out);
// A plain decimal of 16 to 19 digits at p (m its digits, frac how many follow the point, q its
// end): Python's repr of a float has 17. Returns q, or parseNumberSlow's answer where the fast
// division cannot prove its rounding.
const char* parseLongDecimal(uint64_t m, int frac, bool neg, const char* p, const char* q, const char* end,
                             double& out);

namespace detail {

// How many of the 8 bytes are ASCII digits, counted from the first (SWAR: a borrow or carry only
// crosses into bytes after a non-digit, so the first non-digit is found exactly).
inline int leadingDigits8(uint64_t raw)
{
    const uint64_t nonDigit =
        ((raw + 0x4646464646464646ull) | (raw - 0x3030303030303030ull)) & 0x8080808080808080ull;
    return nonDigit ? __builtin_ctzll(nonDigit) >> 3 : 8;
}

// The value of the first n (1..8) digits of raw (little-endian bytes, first digit lowest).
inline uint64_t digitsValue8(uint64_t raw, int n)
{
    uint64_t v = raw - 0x3030303030303030ull;
    if (n < 8) v <<= 8 * (8 - n);  // the dropped bytes become leading zero digits
    v = v * 10 + (v >> 8);
    v = (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
         (((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
        32;
    return static_cast<uint32_t>(v);
}

// Appends the digits at q to m (8 at a time while 8 bytes remain); returns the end.
inline const char* scanDigits(const char* q, const char* end, uint64_t& m, int& count)
{
    while (end - q >= 8) {
        uint64_t raw;
        std::memcpy(&raw, q, 8);
        const int n = leadingDigits8(raw);
        if (n == 0) return q;
        static constexpr uint64_t kScale[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
        m = m * kScale[n] + digitsValue8(raw, n);
        count += n;
        q += n;
        if (n < 8 || count > 19) return q;
    }
    while (q < end && isDigit(*q)) {
        m = m * 10 + static_cast<uint64_t>(*q++ - '0');
        ++count;
    }
    return q;
}

}  // namespace detail

// Parses a number at p (leading '+' allowed; nan, inf, -inf, infinity in any case, as Python
// prints them). Returns the end of the number, or nullptr when p does not start one.
// Inline fast path (Clinger): up to 15 digits and no exponent -> an exact integer mantissa divided
// by an exact power of ten, one correctly rounded IEEE division. Logs are mostly "0.1234".
[[gnu::always_inline]] inline const char* parseNumber(const char* p, const char* end, double& out)
{
    static constexpr double kPow10[] = {1e0, 1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7, 1e8,
                                        1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16};
    const char* q = p;
    const bool neg = q < end && *q == '-';
    if (neg) ++q;
    uint64_t m = 0;
    int digits = 0, frac = 0;
    // The integer part from one 8-byte word when 8 bytes remain ("0.1234" is one digit, a step
    // six or seven); longer ones go on byte by byte. Fractions go 8 digits at a time.
    // (m may wrap past 19 digits: then digits > 15 sends the text to the slow path anyway.)
    const char* ds = q;
    int lead = 8;
    if (end - q >= 8) {
        uint64_t raw;
        std::memcpy(&raw, q, 8);
        lead = detail::leadingDigits8(raw);
        if (lead == 1)
            m = (raw & 0xff) - '0';
        else if (lead > 1)
            m = detail::digitsValue8(raw, lead);
        q += lead;
    }
    if (lead == 8)
        for (unsigned d; q < end && (d = static_cast<unsigned>(static_cast<unsigned char>(*q)) - '0') < 10;
             ++q)
            m = m * 10 + d;
    digits = static_cast<int>(q - ds);
    if (q < end && *q == '.' && digits <= 15) {
        q = detail::scanDigits(q + 1, end, m, frac);
        digits += frac;
    }
    if (digits > 0 && digits <= 15 && !(q < end && (*q == 'e' || *q == 'E'))) [[likely]] {
        const double v =
            frac ? static_cast<double>(m) / kPow10[frac] : static_cast<double>(m);  // integers: exact
        out = neg ? -v : v;
        return q;
    }
    if (digits > 15 && digits <= 19 && !(q < end && (*q == '.' || *q == 'e' || *q == 'E')))
        return parseLongDecimal(m, frac, neg, p, q, end, out);
    return parseNumberSlow(p, end, out);
}

bool equalsNoCase(std::string_view a, std::string_view b);

// Equality for short keys without a libc call (the hot path compares keys on every line).
inline bool sameKey(std::string_view a, std::string_view b)
{
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return false;
    return true;
}
namespace detail {
template <class T>
inline bool sameWord(const char* a, const char* b)
{
    T x, y;
    std::memcpy(&x, a, sizeof x);
    std::memcpy(&y, b, sizeof y);
    return x == y;
}
}  // namespace detail

// memcmp for the short texts between a line's numbers, without a libc call: mostly 2 to 12
// bytes, compared as two overlapping words instead of byte by byte.
inline bool sameBytes(const char* a, const char* b, size_t n)
{
    if (n >= 8) {
        for (; n > 8; n -= 8, a += 8, b += 8)
            if (!detail::sameWord<uint64_t>(a, b)) return false;
        return detail::sameWord<uint64_t>(a + n - 8, b + n - 8);
    }
    if (n >= 4) return detail::sameWord<uint32_t>(a, b) && detail::sameWord<uint32_t>(a + n - 4, b + n - 4);
    if (n >= 2) return detail::sameWord<uint16_t>(a, b) && detail::sameWord<uint16_t>(a + n - 2, b + n - 2);
    return n == 0 || *a == *b;
}

bool startsWithNoCase(std::string_view s, std::string_view prefix);
bool containsNoCase(std::string_view s, std::string_view needle);

// "YYYY-MM-DD HH:MM:SS[,.]fff" (or with 'T', optionally inside '[') at the start of s: the
// seconds since 1970 (UTC assumed, logs rarely say) and how many bytes it took. wholeSeconds
// receives the value without the fraction; with reuseWhole it is taken from there instead of
// parsed again (the caller checked the line starts like the previous one).
std::optional<double> parseTimestamp(std::string_view s, size_t* consumed, double* wholeSeconds = nullptr,
                                     bool reuseWhole = false);

// The kinds of damage a line can have, checked together in one pass over its bytes.
struct LineCheck {
    bool binary = false;  // NUL or other control bytes: not text
    bool invalidUtf8 = false;
};
LineCheck checkLine(std::string_view line);

}  // namespace qatdoctor::core::logs
