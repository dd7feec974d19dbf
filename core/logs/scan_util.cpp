#include "core/logs/scan_util.h"

#include <fast_float/fast_float.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace qatdoctor::core::logs {
namespace {

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
}

int twoDigits(const char* p)
{
    return (p[0] - '0') * 10 + (p[1] - '0');
}

bool digitsAt(std::string_view s, size_t pos, size_t n)
{
    if (pos + n > s.size()) return false;
    for (size_t i = 0; i < n; ++i)
        if (!isDigit(s[pos + i])) return false;
    return true;
}

// Days from 1970-01-01 to y-m-d (proleptic Gregorian), H. Hinnant's algorithm.
int64_t daysFromCivil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

}  // namespace

const char* parseNumberSlow(const char* p, const char* end, double& out)
{
    if (p < end && *p == '+') ++p;
    if (p >= end) return nullptr;
    const char c = *p;
    // fast_float accepts "nan"/"inf"/"infinity" (any case) and a leading '-'.
    if (!isDigit(c) && c != '-' && c != '.' && c != 'n' && c != 'N' && c != 'i' && c != 'I') return nullptr;
    auto r = fast_float::from_chars(p, end, out);
    if (r.ec != std::errc()) return nullptr;
    // "nan"/"inf" only as a whole word: the "INF" of log_level='INFO' or "info" is no number.
    if (!std::isfinite(out) && r.ptr < end && (isAlpha(*r.ptr) || isDigit(*r.ptr) || *r.ptr == '_'))
        return nullptr;
    return r.ptr;
}

const char* parseLongDecimal(uint64_t m, int frac, bool neg, const char* p, const char* q, const char* end,
                             double& out)
{
#if defined(__x86_64__)
    // x87 extended precision holds m (< 10^19 < 2^64) and 10^frac (5^19 < 2^64) exactly, so the
    // division gives m / 10^frac rounded once, to 64 bits. Rounding that to a double (53 bits) is
    // the correctly rounded result unless the first rounding landed exactly on the midpoint
    // between two doubles (the 11 bits below a double's last are then 100 0000 0000; rounding
    // is monotonic, so no other case can cross a midpoint): those go to fast_float.
    static_assert(std::numeric_limits<long double>::digits == 64);
    static constexpr long double kPow10[] = {1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,
                                             1e7L,  1e8L,  1e9L,  1e10L, 1e11L, 1e12L, 1e13L,
                                             1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L};
    const long double x = static_cast<long double>(m) / kPow10[frac];
    uint64_t significand;
    std::memcpy(&significand, &x, sizeof significand);  // the low 8 bytes of the 80-bit format
    if ((significand & 0x7ff) != 0x400) {
        const auto v = static_cast<double>(x);
        out = neg ? -v : v;
        return q;
    }
#else
    (void)m, (void)frac, (void)neg, (void)q;
#endif
    return parseNumberSlow(p, end, out);
}

bool equalsNoCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

bool startsWithNoCase(std::string_view s, std::string_view prefix)
{
    return s.size() >= prefix.size() && equalsNoCase(s.substr(0, prefix.size()), prefix);
}

bool containsNoCase(std::string_view s, std::string_view needle)
{
    if (needle.empty()) return true;
    for (size_t i = 0; i + needle.size() <= s.size(); ++i)
        if (equalsNoCase(s.substr(i, needle.size()), needle)) return true;
    return false;
}

std::optional<double> parseTimestamp(std::string_view s, size_t* consumed, double* wholeSeconds,
                                     bool reuseWhole)
{
    size_t p = 0;
    if (!s.empty() && s[0] == '[') p = 1;
    double sec;
    if (reuseWhole && wholeSeconds && s.size() >= p + 19) {
        sec = *wholeSeconds;
    } else {
        if (!digitsAt(s, p, 4) || s.size() < p + 19 || s[p + 4] != '-' || !digitsAt(s, p + 5, 2) ||
            s[p + 7] != '-' || !digitsAt(s, p + 8, 2) || (s[p + 10] != ' ' && s[p + 10] != 'T') ||
            !digitsAt(s, p + 11, 2) || s[p + 13] != ':' || !digitsAt(s, p + 14, 2) || s[p + 16] != ':' ||
            !digitsAt(s, p + 17, 2))
            return std::nullopt;
        const char* d = s.data() + p;
        const int64_t year = twoDigits(d) * 100 + twoDigits(d + 2);
        const unsigned month = static_cast<unsigned>(twoDigits(d + 5));
        const unsigned day = static_cast<unsigned>(twoDigits(d + 8));
        sec = static_cast<double>(daysFromCivil(year, month, day)) * 86400.0 + twoDigits(d + 11) * 3600.0 +
              twoDigits(d + 14) * 60.0 + twoDigits(d + 17);
        if (wholeSeconds) *wholeSeconds = sec;
    }
    p += 19;
    if (p < s.size() && (s[p] == ',' || s[p] == '.')) {
        // the fraction as one integer and one division: a chain of multiply-adds per digit cost
        // more than the rest of the timestamp
        static constexpr double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
        ++p;
        uint64_t fraction = 0;
        int digits = 0;
        for (; p < s.size() && isDigit(s[p]); ++p)
            if (digits < 9) {
                fraction = fraction * 10 + static_cast<uint64_t>(s[p] - '0');
                ++digits;
            }
        sec += static_cast<double>(fraction) / kPow10[digits];
    }
    if (p < s.size() && s[p] == ']') ++p;
    if (consumed) *consumed = p;
    return sec;
}

LineCheck checkLine(std::string_view line)
{
    // One vectorisable pass: the smallest byte and the OR of all bytes.
    unsigned char lo = 0xff, any = 0;
    for (unsigned char c : line) {
        lo = c < lo ? c : lo;
        any |= c;
    }
    LineCheck r;
    if (lo < 0x20) {
        int controls = 0;
        for (unsigned char c : line) {
            if (c == 0) {
                r.binary = true;
                break;
            }
            // (a backspace is a terminal's redraw, read by consoleText)
            if (c < 0x20 && c != '\t' && c != '\r' && c != 0x1b && c != '\f' && c != '\v' && c != '\b')
                ++controls;
        }
        if (controls >= 3) r.binary = true;
    }
    if (any & 0x80) {
        const auto* p = reinterpret_cast<const unsigned char*>(line.data());
        const auto* e = p + line.size();
        while (p < e && !r.invalidUtf8) {
            const unsigned char c = *p++;
            const int n = c < 0x80           ? 0
                          : (c >> 5) == 0x6  ? 1
                          : (c >> 4) == 0xe  ? 2
                          : (c >> 3) == 0x1e ? 3
                                             : -1;
            if (n < 0 || e - p < n) {
                r.invalidUtf8 = true;
                break;
            }
            for (int i = 0; i < n; ++i, ++p)
                if ((*p & 0xc0) != 0x80) r.invalidUtf8 = true;
        }
    }
    return r;
}

}  // namespace qatdoctor::core::logs
