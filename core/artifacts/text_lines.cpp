#include "core/artifacts/text_lines.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace qatdoctor::core::artifacts {

std::vector<TextLine> splitLines(std::string_view text)
{
    std::vector<TextLine> lines;
    int64_t number = 1;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        const bool last = end == std::string_view::npos;
        if (last) end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back({line, number++});
        start = end + 1;
    }
    return lines;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

std::string toLower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

bool containsNoCase(std::string_view haystack, std::string_view needle)
{
    return toLower(haystack).find(toLower(needle)) != std::string::npos;
}

namespace {

// Decodes one UTF-8 code point at s[i]; returns its length (1 for an invalid byte).
size_t decode(std::string_view s, size_t i, char32_t& cp)
{
    const auto b = static_cast<unsigned char>(s[i]);
    size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) {
        cp = 0xFFFD;
        return 1;
    }
    cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
    for (size_t k = 1; k < len; ++k) {
        const auto c = static_cast<unsigned char>(s[i + k]);
        if ((c & 0xC0) != 0x80) {
            cp = 0xFFFD;
            return 1;
        }
        cp = (cp << 6) | (c & 0x3F);
    }
    return len;
}

int columnsOf(char32_t cp)
{
    if (cp == 0) return 0;
    if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x200B && cp <= 0x200F) || cp == 0xFE0F) return 0;
    // The wide ranges wcwidth() uses for CJK, Hangul, full-width forms and emoji.
    if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) || (cp >= 0x3041 && cp <= 0x33FF) ||
        (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
        (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
        (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) ||
        (cp >= 0x1F300 && cp <= 0x1F64F) || (cp >= 0x1F900 && cp <= 0x1F9FF) ||
        (cp >= 0x20000 && cp <= 0x3FFFD))
        return 2;
    return 1;
}

}  // namespace

int64_t displayWidth(std::string_view s)
{
    int64_t width = 0;
    for (size_t i = 0; i < s.size();) {
        char32_t cp = 0;
        i += decode(s, i, cp);
        width += columnsOf(cp);
    }
    return width;
}

size_t byteAtColumn(std::string_view s, int64_t col)
{
    int64_t width = 0;
    size_t i = 0;
    while (i < s.size() && width < col) {
        char32_t cp = 0;
        const size_t len = decode(s, i, cp);
        width += columnsOf(cp);
        i += len;
    }
    return i;
}

std::optional<size_t> binaryOffset(std::string_view data)
{
    int bad = 0;
    for (size_t i = 0; i < data.size();) {
        const auto b = static_cast<unsigned char>(data[i]);
        if (b == 0) return i;
        char32_t cp = 0;
        const size_t len = decode(data, i, cp);
        const bool control = b < 0x20 && b != '\n' && b != '\r' && b != '\t' && b != '\f';
        if (control || cp == 0xFFFD) {
            // A few stray bytes happen in pasted text (latin-1 quotes); a run of them is binary.
            if (++bad >= 8) return i;
        } else {
            bad = 0;
        }
        i += len;
    }
    return std::nullopt;
}

std::optional<double> parseNumber(std::string_view s)
{
    s = trim(s);
    if (s.empty()) return std::nullopt;
    const std::string low = toLower(s);
    if (low == "inf" || low == "+inf" || low == "infinity") return std::numeric_limits<double>::infinity();
    if (low == "-inf" || low == "-infinity") return -std::numeric_limits<double>::infinity();
    if (low == "nan" || low == "-nan") return std::numeric_limits<double>::quiet_NaN();
    if (s.front() == '+') s.remove_prefix(1);
    double v = 0;
    const char* end = s.data() + s.size();
    auto [ptr, ec] = std::from_chars(s.data(), end, v);
    if (ec != std::errc() || ptr != end) {
        // Python prints "1." for a whole float inside tensors.
        if (ec == std::errc() && ptr + 1 == end && *ptr == '.') return v;
        return std::nullopt;
    }
    return v;
}

}  // namespace qatdoctor::core::artifacts
