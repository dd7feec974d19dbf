// A table read from a text artifact (similarity, sensitivity, statistics, deploy devices...),
// kept as strings with the source line of every row so the UI and report can show and cite it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace qatdoctor::core {

struct DataTable {
    std::string kind;   // "similarity", "sensitivity", "statistic", ...
    std::string title;  // shown as the table caption
    std::string sourcePath;
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;  // rows[i].size() == columns.size()
    std::vector<int64_t> rowLines;               // 1-based source line of each row

    // Index of a column by case-insensitive name, or -1.
    int column(const std::string& name) const;
};

}  // namespace qatdoctor::core
