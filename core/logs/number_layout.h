// Lines of a log repeat one layout and differ only in their numbers. A NumberLayout keeps a
// parsed line as the text between its numbers; a later line with the same text around its
// numbers has the same keys and structure, so only its numbers need parsing (word compares and
// parseNumber instead of a full scan). The text and JSONL parsers use it for their fast paths.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace qatdoctor::core::logs {

// Where one number of a line is. digitFirst: the number must start with a digit (a bare
// "[ 120/5004]" counter, whose '[' alone would otherwise also match a key's).
struct NumberSpan {
    const char* begin = nullptr;
    const char* end = nullptr;
    bool digitFirst = false;
};

class NumberLayout {
public:
    // The layout of the line [p, e) with numbers at spans (sorted by begin). The literals point
    // into the line: it must outlive the layout (parsers keep one per pass over mapped bytes).
    // Returns false, leaving the layout invalid, when spans overlap or lie outside the line.
    bool build(const char* p, const char* e, const std::vector<NumberSpan>& spans);
    void clear();
    bool valid() const { return m_valid; }
    size_t numbers() const { return m_digitFirst.size(); }

    // Parses a line laid out the same way: its numbers() numbers into values, in line order.
    // false = a different layout (values are then unspecified).
    bool match(const char* p, const char* e, double* values) const;

private:
    bool m_valid = false;
    std::vector<std::string_view> m_literals;  // before each number, then the rest of the line
    std::vector<char> m_digitFirst;
};

}  // namespace qatdoctor::core::logs
