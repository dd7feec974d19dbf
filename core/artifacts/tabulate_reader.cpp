#include "core/artifacts/tabulate_reader.h"

#include <algorithm>
#include <cctype>

namespace qatdoctor::core::artifacts {
namespace {

enum class LineKind { Blank, Border, Rule, PipeRow, DashRule, Other, Huge };

bool onlyChars(std::string_view s, std::string_view allowed)
{
    return !s.empty() && s.find_first_not_of(allowed) == std::string_view::npos;
}

LineKind classify(std::string_view raw)
{
    if (raw.size() > kMaxTableLineBytes) return LineKind::Huge;
    const std::string_view t = trim(raw);
    if (t.empty()) return LineKind::Blank;
    if (t.front() == '+' && onlyChars(t, "+-=: ") && t.find('-') != std::string_view::npos)
        return LineKind::Border;
    if (t.front() == '|') {
        if (onlyChars(t, "|+-=: ") && t.find('-') != std::string_view::npos) return LineKind::Rule;
        return LineKind::PipeRow;
    }
    if (onlyChars(t, "- ") && t.find("--") != std::string_view::npos) return LineKind::DashRule;
    return LineKind::Other;
}

struct Span {
    int64_t start = 0;  // display columns
    int64_t end = 0;
};

std::vector<Span> dashSpans(std::string_view raw)
{
    std::vector<Span> spans;
    int64_t col = 0;
    for (size_t i = 0; i < raw.size(); ++i, ++col) {
        if (raw[i] == '-') {
            if (spans.empty() || spans.back().end != col)
                spans.push_back({col, col + 1});
            else
                spans.back().end = col + 1;
        }
    }
    return spans;
}

std::vector<std::string> splitPipes(std::string_view row, bool& cutShort)
{
    std::string_view t = trim(row);
    cutShort = t.empty() || t.back() != '|';
    std::vector<std::string> cells;
    size_t start = 1;  // after the leading '|'
    while (start <= t.size()) {
        size_t bar = t.find('|', start);
        if (bar == std::string_view::npos) {
            if (start < t.size()) cells.emplace_back(trim(t.substr(start)));
            break;
        }
        cells.emplace_back(trim(t.substr(start, bar - start)));
        start = bar + 1;
    }
    return cells;
}

std::string titleAbove(const std::vector<TextLine>& lines, size_t first)
{
    for (size_t back = 1; back <= 2 && back <= first; ++back) {
        const std::string_view t = trim(lines[first - back].text);
        if (t.empty()) continue;
        if (classify(lines[first - back].text) != LineKind::Other) return {};
        return std::string(t.substr(0, 200));
    }
    return {};
}

Warning warn(const std::string& code, const std::string& path, int64_t line, const std::string& what)
{
    return makeError(code, path + ":" + std::to_string(line) + ": " + what, path, line);
}

// psql / pipe table starting at lines[i]; returns the index after it.
size_t readPipeTable(const std::vector<TextLine>& lines, size_t i, const std::string& path, TableScan& scan)
{
    TextTable table;
    table.style = "psql";
    table.firstLine = lines[i].number;
    table.title = titleAbove(lines, i);
    const bool bordered = classify(lines[i].text) == LineKind::Border;
    size_t end = i;
    while (end < lines.size()) {
        const LineKind k = classify(lines[end].text);
        if (k != LineKind::Border && k != LineKind::Rule && k != LineKind::PipeRow) break;
        ++end;
    }
    // Header = the pipe rows before the first rule/border that is followed by more rows.
    std::vector<size_t> rowIdx;
    size_t headerEnd = 0;  // number of header rows in rowIdx
    bool sawRule = false;
    for (size_t k = i; k < end; ++k) {
        const LineKind kind = classify(lines[k].text);
        if (kind == LineKind::PipeRow)
            rowIdx.push_back(k);
        else if (!rowIdx.empty() && !sawRule) {
            sawRule = true;
            headerEnd = rowIdx.size();
        }
    }
    if (rowIdx.empty()) return end;
    if (!sawRule || headerEnd == rowIdx.size()) headerEnd = std::min<size_t>(1, rowIdx.size());
    for (size_t h = 0; h < headerEnd; ++h) {
        bool cut = false;
        std::vector<std::string> cells = splitPipes(lines[rowIdx[h]].text, cut);
        if (table.columns.size() < cells.size()) table.columns.resize(cells.size());
        for (size_t c = 0; c < cells.size(); ++c) {
            if (cells[c].empty()) continue;
            if (!table.columns[c].empty()) table.columns[c] += ' ';
            table.columns[c] += cells[c];
        }
    }
    const size_t ncols = table.columns.size();
    for (size_t r = headerEnd; r < rowIdx.size(); ++r) {
        const TextLine& line = lines[rowIdx[r]];
        bool cut = false;
        std::vector<std::string> cells = splitPipes(line.text, cut);
        if (cut) {
            // Its last cell may hold half a number; better no row than a wrong value.
            scan.warnings.push_back(warn("table.row_cut", path, line.number,
                                         "row ends without its closing '|' (cut short?); row dropped"));
            continue;
        }
        const size_t nonEmpty = static_cast<size_t>(
            std::count_if(cells.begin(), cells.end(), [](const std::string& c) { return !c.empty(); }));
        // tabulate prints multi-line cells as extra lines whose other cells are blank.
        if (!table.rows.empty() && !cells.empty() && cells.front().empty() && nonEmpty * 2 <= cells.size() &&
            cells.size() == ncols) {
            auto& prev = table.rows.back();
            if (prev.size() < ncols) prev.resize(ncols);  // rows are padded at the end: as wide as this one
            for (size_t c = 0; c < ncols; ++c)
                if (!cells[c].empty()) prev[c] += (prev[c].empty() ? "" : " ") + cells[c];
            continue;
        }
        if (cells.size() != ncols)
            scan.warnings.push_back(
                warn("table.ragged_row", path, line.number,
                     "row has " + std::to_string(cells.size()) + " cells, the header has " +
                         std::to_string(ncols) + "; " +
                         (cells.size() < ncols ? "missing cells left empty" : "extra cells dropped")));
        if (cells.size() > ncols) cells.resize(ncols);  // padded once the widest row is known
        table.rows.push_back(std::move(cells));
        table.rowLines.push_back(line.number);
    }
    fitWidthToRows(table, path, scan.warnings);
    table.lastLine = lines[end - 1].number;
    if (bordered && classify(lines[end - 1].text) != LineKind::Border)
        scan.warnings.push_back(warn("table.truncated", path, lines[end - 1].number,
                                     "table '" +
                                         (!table.title.empty()    ? table.title
                                          : table.columns.empty() ? std::string()
                                                                  : table.columns.front()) +
                                         "' ends without its closing border (file truncated?); " +
                                         std::to_string(table.rows.size()) + " rows kept"));
    scan.tables.push_back(std::move(table));
    return end;
}

std::vector<std::string> splitAtSpans(std::string_view raw, const std::vector<Span>& spans, bool& ragged)
{
    std::vector<std::string> cells(spans.size());
    ragged = false;
    for (size_t c = 0; c < spans.size(); ++c) {
        const size_t from = byteAtColumn(raw, spans[c].start);
        const size_t to = c + 1 < spans.size() ? byteAtColumn(raw, spans[c + 1].start) : raw.size();
        if (from >= raw.size()) break;
        std::string_view cell = raw.substr(from, to - from);
        // Text in the 2-column gap before the next column means the row does not fit the rule.
        if (c + 1 < spans.size()) {
            const size_t gapFrom = byteAtColumn(raw, spans[c].end);
            if (gapFrom < to && !trim(raw.substr(gapFrom, to - gapFrom)).empty()) ragged = true;
        }
        cells[c] = std::string(trim(cell));
    }
    return cells;
}

std::vector<std::string> splitGaps(std::string_view raw)
{
    std::vector<std::string> cells;
    const std::string_view t = trim(raw);
    size_t start = 0;
    while (start < t.size()) {
        size_t gap = t.find("  ", start);
        if (gap == std::string_view::npos) gap = t.size();
        cells.emplace_back(trim(t.substr(start, gap - start)));
        start = t.find_first_not_of(' ', gap);
        if (start == std::string_view::npos) break;
    }
    return cells;
}

// Simple table whose dashed rule is lines[i] (header at i-1); returns the index after it.
size_t readSimpleTable(const std::vector<TextLine>& lines, size_t i, const std::string& path, TableScan& scan)
{
    const std::vector<Span> spans = dashSpans(lines[i].text);
    TextTable table;
    table.style = "simple";
    table.firstLine = lines[i - 1].number;
    table.title = titleAbove(lines, i - 1);
    bool ragged = false;
    table.columns = splitAtSpans(lines[i - 1].text, spans, ragged);
    size_t k = i + 1;
    for (; k < lines.size(); ++k) {
        const LineKind kind = classify(lines[k].text);
        if (kind != LineKind::Other) break;
        if (k + 1 < lines.size() && classify(lines[k + 1].text) == LineKind::DashRule) break;  // next header
        const std::string_view raw = lines[k].text;
        std::vector<std::string> cells = splitAtSpans(raw, spans, ragged);
        if (ragged) {
            std::vector<std::string> byGap = splitGaps(raw);
            if (byGap.size() == spans.size()) {
                cells = std::move(byGap);
            } else {
                scan.warnings.push_back(
                    warn("table.ragged_row", path, lines[k].number,
                         "row does not line up with the columns of the dashed rule above; "
                         "cells split by position"));
            }
        }
        table.rows.push_back(std::move(cells));
        table.rowLines.push_back(lines[k].number);
    }
    table.lastLine = lines[k - 1].number;
    scan.tables.push_back(std::move(table));
    return k;
}

}  // namespace

std::string normalizeHeader(std::string_view name)
{
    std::string out;
    bool space = false;
    for (char c : trim(name)) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = true;
            continue;
        }
        if (space && !out.empty()) out += ' ';
        space = false;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

int TextTable::column(std::initializer_list<std::string_view> names) const
{
    for (std::string_view want : names) {
        const std::string w = normalizeHeader(want);
        for (size_t c = 0; c < columns.size(); ++c)
            if (normalizeHeader(columns[c]) == w) return static_cast<int>(c);
    }
    return -1;
}

const std::string& TextTable::cell(size_t row, int col) const
{
    static const std::string kEmpty;
    if (col < 0 || row >= rows.size() || static_cast<size_t>(col) >= rows[row].size()) return kEmpty;
    return rows[row][static_cast<size_t>(col)];
}

TableScan readTables(const std::vector<TextLine>& lines, const std::string& path)
{
    TableScan scan;
    size_t i = 0;
    while (i < lines.size()) {
        const LineKind kind = classify(lines[i].text);
        if (kind == LineKind::Huge) {
            scan.warnings.push_back(
                warn("table.huge_line", path, lines[i].number,
                     "line is " + std::to_string(lines[i].text.size()) + " bytes long; skipped"));
            ++i;
        } else if (kind == LineKind::Border || kind == LineKind::PipeRow || kind == LineKind::Rule) {
            i = readPipeTable(lines, i, path, scan);
        } else if (kind == LineKind::DashRule && i > 0 && classify(lines[i - 1].text) == LineKind::Other &&
                   dashSpans(lines[i].text).size() >= 2) {
            i = readSimpleTable(lines, i, path, scan);
        } else {
            ++i;
        }
    }
    return scan;
}

void fitWidthToRows(TextTable& table, const std::string& path, std::vector<Warning>& warnings)
{
    if (table.rows.empty()) return;
    size_t widest = 0;
    for (const auto& row : table.rows) widest = std::max(widest, row.size());
    // a real table has tens of columns: a header past this many is a claim the rows must back
    constexpr size_t kWideHeader = 256;
    if (widest < table.columns.size() && table.columns.size() > kWideHeader) {
        // columns no row fills carry no data: a wide header alone never sets the rows' width
        bool named = false;
        for (size_t c = widest; c < table.columns.size() && !named; ++c) named = !table.columns[c].empty();
        if (named)
            warnings.push_back(warn("table.wide_header", path, table.firstLine,
                                    "the table's header has " + std::to_string(table.columns.size()) +
                                        " columns, its widest row " + std::to_string(widest) +
                                        ": the columns no row fills are dropped"));
        table.columns.resize(widest);
    }
    for (auto& row : table.rows) row.resize(table.columns.size());
}

}  // namespace qatdoctor::core::artifacts
