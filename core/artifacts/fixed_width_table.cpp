#include "core/artifacts/fixed_width_table.h"

#include <cctype>

namespace qatdoctor::core::artifacts {
namespace {

bool allOf(std::string_view s, char c)
{
    s = trim(s);
    if (s.size() < 8) return false;
    for (char x : s)
        if (x != c) return false;
    return true;
}

// A '=' title line: '=' runs around an optional title ("====node sensitivity====").
bool isTitleLine(std::string_view s, std::string* title)
{
    s = trim(s);
    if (s.size() < 8 || s.front() != '=' || s.back() != '=') return false;
    const size_t a = s.find_first_not_of('=');
    if (a == std::string_view::npos) {
        if (title) title->clear();
        return true;
    }
    const size_t b = s.find_last_not_of('=');
    if (title) *title = std::string(trim(s.substr(a, b - a + 1)));
    return true;
}

// "2025-07-23 11:44:31,869 ..." : the next log message.
bool isLogLine(std::string_view s)
{
    return s.size() >= 10 && std::isdigit(static_cast<unsigned char>(s[0])) && s[4] == '-' && s[7] == '-';
}

// Column starts of a header: a name begins at the line's start or after 2+ spaces.
std::vector<size_t> columnStarts(std::string_view header, std::vector<std::string>& names)
{
    std::vector<size_t> starts;
    size_t i = 0;
    while (i < header.size()) {
        while (i < header.size() && header[i] == ' ') ++i;
        if (i >= header.size()) break;
        const size_t start = i;
        size_t end = i;
        while (i < header.size()) {
            if (header[i] == ' ' && (i + 1 >= header.size() || header[i + 1] == ' ')) break;
            ++i;
            end = i;
        }
        starts.push_back(start);
        names.emplace_back(header.substr(start, end - start));
    }
    return starts;
}

}  // namespace

TableScan readFixedWidthTables(const std::vector<TextLine>& lines, const std::string& path)
{
    TableScan scan;
    for (size_t i = 1; i < lines.size(); ++i) {
        if (!allOf(lines[i].text, '-')) continue;
        const std::string_view header = lines[i - 1].text;
        if (header.size() > kMaxTableLineBytes) continue;
        TextTable t;
        const std::vector<size_t> starts = columnStarts(header, t.columns);
        if (starts.size() < 2) continue;
        t.style = "fixed";
        t.firstLine = lines[i - 1].number;
        if (i >= 2 && isTitleLine(lines[i - 2].text, &t.title)) t.firstLine = lines[i - 2].number;
        size_t j = i + 1;
        for (; j < lines.size(); ++j) {
            const std::string_view row = lines[j].text;
            if (trim(row).empty() || isTitleLine(row, nullptr) || isLogLine(row)) break;
            if (row.size() > kMaxTableLineBytes) {
                scan.warnings.push_back(makeError("table.huge_line",
                                                  path + ":" + std::to_string(lines[j].number) +
                                                      ": a line of " + std::to_string(row.size()) +
                                                      " bytes in a table, skipped",
                                                  path, lines[j].number));
                continue;
            }
            std::vector<std::string> cells;  // the spans the row reaches (fitWidthToRows pads)
            for (size_t c = 0; c < starts.size() && starts[c] < row.size(); ++c) {
                const size_t from = starts[c];
                const size_t to = c + 1 < starts.size() ? starts[c + 1] : row.size();
                cells.emplace_back(from < row.size() ? trim(row.substr(from, to > from ? to - from : 0))
                                                     : std::string_view());
            }
            if (cells.empty() || cells.front().empty()) break;  // not a row of this table
            t.rows.push_back(std::move(cells));
            t.rowLines.push_back(lines[j].number);
        }
        t.lastLine = lines[j - 1].number;
        fitWidthToRows(t, path, scan.warnings);
        if (!t.rows.empty()) scan.tables.push_back(std::move(t));
        i = j;
    }
    return scan;
}

}  // namespace qatdoctor::core::artifacts
