// Small text helpers shared by the artifact readers: line splitting with 1-based numbers,
// display width (tabulate pads Chinese text by terminal columns, not bytes) and a binary check.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qatdoctor::core::artifacts {

struct TextLine {
    std::string_view text;  // without the line break ("\r\n" and "\n" both accepted)
    int64_t number = 0;     // 1-based
};

std::vector<TextLine> splitLines(std::string_view text);

std::string_view trim(std::string_view s);
std::string toLower(std::string_view s);
bool startsWith(std::string_view s, std::string_view prefix);
bool containsNoCase(std::string_view haystack, std::string_view needle);

// Terminal columns of UTF-8 text: East Asian wide / full-width characters count 2, combining
// marks 0, everything else 1. Invalid bytes count 1 each.
int64_t displayWidth(std::string_view s);
// Byte offset in s where display column `col` starts (s.size() when past the end).
size_t byteAtColumn(std::string_view s, int64_t col);

// Byte offset of the first sign that the data is not text (a NUL byte, or a run of control
// bytes / invalid UTF-8); nullopt for text.
std::optional<size_t> binaryOffset(std::string_view data);

// Parses a number as Python prints it ("0.0078", "-1e-05", "inf", "-inf", "nan"); nullopt when
// the cell is not one number.
std::optional<double> parseNumber(std::string_view s);

}  // namespace qatdoctor::core::artifacts
