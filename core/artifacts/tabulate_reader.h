// Reads the tables Python's `tabulate` prints, as the toolchain writes them into its debug text
// files: "psql" (`+---+` borders, `|---+---|` header rule, multi-line headers), its border-less
// pipe variant, and "simple" (header, dashed rule, columns 2+ spaces apart). Columns are found by
// header name later, because their set and order change between toolchain versions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/artifacts/text_lines.h"
#include "core/common/result.h"

namespace qatdoctor::core::artifacts {

struct TextTable {
    std::string title;  // the line just above the table, e.g. "Each layer out qconfig:" ("" if none)
    std::string style;  // "psql" | "simple"
    std::vector<std::string> columns;            // multi-line headers joined with one space
    std::vector<std::vector<std::string>> rows;  // rows[i].size() == columns.size() (padded)
    std::vector<int64_t> rowLines;               // 1-based source line of each row
    int64_t firstLine = 0;                       // first line of the table (border or header)
    int64_t lastLine = 0;                        // last line that belongs to it

    // Index of the first column whose name equals one of the candidates (case-insensitive,
    // whitespace collapsed), or -1.
    int column(std::initializer_list<std::string_view> names) const;
    const std::string& cell(size_t row, int col) const;  // "" when col < 0
};

struct TableScan {
    std::vector<TextTable> tables;
    std::vector<Warning> warnings;  // ragged rows, truncated tables, skipped huge lines (file + line)
};

inline constexpr size_t kMaxTableLineBytes = 1u << 20;  // longer lines are skipped with a warning

// Rows are read as wide as they are; then every row is padded to the header's width, unless the
// header is wider than any real table (hundreds of columns): then the table is as wide as its
// widest row (the columns no row fills are dropped, with a warning naming the table). A header of 100,000
// columns over short rows makes short rows, not 100,000 cells per row.
void fitWidthToRows(TextTable& table, const std::string& path, std::vector<Warning>& warnings);

// Finds every table in the lines. `path` is only used in warning messages.
TableScan readTables(const std::vector<TextLine>& lines, const std::string& path);

// Collapses runs of whitespace to one space and lower-cases (how header names are compared).
std::string normalizeHeader(std::string_view name);

}  // namespace qatdoctor::core::artifacts
