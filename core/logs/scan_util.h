// Small byte-level helpers shared by the line parsers: number parsing without locale or
// allocation (fast_float), ASCII case-insensitive compares, timestamps, UTF-8 and binary checks.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace qatdoctor::core::logs {

// Parses a number at p (leading '+' allowed; nan, inf, -inf, infinity in any case, as Python
// prints them). Returns the end of the number, or nullptr when p does not start one.
const char* parseNumber(const char* p, const char* end, double& out);

bool equalsNoCase(std::string_view a, std::string_view b);

// Equality for short keys without a libc call (the hot path compares keys on every line).
inline bool sameKey(std::string_view a, std::string_view b)
{
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return false;
    return true;
}
bool startsWithNoCase(std::string_view s, std::string_view prefix);
bool containsNoCase(std::string_view s, std::string_view needle);

inline bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }

// "YYYY-MM-DD HH:MM:SS[,.]fff" (or with 'T', optionally inside '[') at the start of s: the
// seconds since 1970 (UTC assumed, logs rarely say) and how many bytes it took. wholeSeconds
// receives the value without the fraction; with reuseWhole it is taken from there instead of
// parsed again (the caller checked the line starts like the previous one).
std::optional<double> parseTimestamp(std::string_view s, size_t* consumed, double* wholeSeconds = nullptr,
                                     bool reuseWhole = false);

// The kinds of damage a line can have, checked together in one pass over its bytes.
struct LineCheck {
    bool binary = false;       // NUL or other control bytes: not text
    bool invalidUtf8 = false;
};
LineCheck checkLine(std::string_view line);

}  // namespace qatdoctor::core::logs
