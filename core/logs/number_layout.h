// Lines of a log repeat one layout and differ only in their numbers. A NumberLayout keeps a
// parsed line as the text between its numbers; a later line with the same text around its
// numbers has the same keys and structure, so only its numbers need parsing (word compares and
// parseNumber instead of a full scan). The text and JSONL parsers use it for their fast paths.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/logs/line_shape.h"

namespace qatdoctor::core::logs {

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
    // false = a different layout (values are then unspecified). When readableEnd leaves
    // LineShape::kReadPast bytes after e, a line of the last matched line's exact shape is read
    // through LineShape (word compares, numbers at known places).
    bool match(const char* p, const char* e, double* values, const char* readableEnd = nullptr);

private:
    bool m_valid = false;
    std::vector<std::string_view> m_literals;  // before each number, then the rest of the line
    std::vector<char> m_digitFirst;
    LineShape m_shape;                // of the last line matched (or built from)
    std::vector<NumberSpan> m_spans;  // the numbers of the line being matched
};

}  // namespace qatdoctor::core::logs
