#include "core/compare/table_diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "core/artifacts/text_lines.h"
#include "core/artifacts/toolchain_files.h"
#include "core/compare/row_pairing.h"

namespace qatdoctor::core::compare {
namespace {

// How each kind of table is read for a comparison. The layer and part columns make a row's key;
// the metric is named, or (sensitive_ops, whose metric column is named after the metric the user
// chose: L1, ATOL, ...) the first numeric column after metricAfter.
struct TableSpec {
    const char* kind;
    std::vector<const char*> layerColumns;
    std::vector<const char*> partColumns;
    std::vector<const char*> metricColumns;
    const char* metricAfter;
    bool higherIsBetter;
    bool ranked;
};

const std::vector<TableSpec>& tableSpecs()
{
    static const std::vector<TableSpec> kSpecs = {
        {artifacts::kTableComparePerLayer,
         {"mod_name", "module name", "op_name"},
         {},
         {"cosine", "similarity"},
         "",
         true,
         false},
        {artifacts::kTableSimilarity,
         {"module name", "op name", "mod_name"},
         {},
         {"similarity", "cosine"},
         "",
         true,
         false},
        {artifacts::kTableWeightComparison,
         {"weight name", "name"},
         {},
         {"similarity", "cosine"},
         "",
         true,
         false},
        {artifacts::kTableSensitivity,
         {"op_name", "op name"},
         {"sensitive_type"},
         {},
         "op_type",
         false,
         true},
        {artifacts::kTableNodeSensitivity, {"node"}, {}, {"cosine-similarity", "cosine"}, "", true, true},
        {artifacts::kTableStatistic, {"op name", "mod name", "module name"}, {"attr"}, {}, "", true, false},
    };
    return kSpecs;
}

const TableSpec* specOf(const std::string& kind)
{
    for (const TableSpec& s : tableSpecs())
        if (kind == s.kind) return &s;
    return nullptr;
}

int firstColumn(const DataTable& t, const std::vector<const char*>& names)
{
    for (const char* n : names)
        if (int c = t.column(n); c >= 0) return c;
    return -1;
}

int metricColumn(const DataTable& t, const TableSpec* spec)
{
    if (!spec) return -1;
    if (int c = firstColumn(t, spec->metricColumns); c >= 0 || !*spec->metricAfter) return c;
    const int after = t.column(spec->metricAfter);
    if (after < 0 || t.rows.empty()) return -1;
    for (size_t c = static_cast<size_t>(after) + 1; c < t.columns.size(); ++c)
        if (artifacts::parseNumber(t.rows.front()[c])) return static_cast<int>(c);
    return -1;
}

struct Layout {
    int layer = 0, part = -1, metric = -1, dtype = -1, index = -1;
};

Layout layoutOf(const DataTable& t, const TableSpec* spec)
{
    Layout l;
    if (spec) {
        l.layer = std::max(0, firstColumn(t, spec->layerColumns));
        l.part = firstColumn(t, spec->partColumns);
    }
    l.metric = metricColumn(t, spec);
    l.dtype = firstColumn(t, {"quant_dtype", "dtype"});
    l.index = firstColumn(t, {"index", ""});
    return l;
}

std::string cell(const DataTable& t, size_t row, int column)
{
    return column >= 0 && static_cast<size_t>(column) < t.rows[row].size()
               ? t.rows[row][static_cast<size_t>(column)]
               : std::string();
}

std::optional<double> number(const DataTable& t, size_t row, int column)
{
    if (column < 0) return std::nullopt;
    return artifacts::parseNumber(cell(t, row, column));
}

// Cells equal as written, or as numbers (0.5 and 0.50 are one value).
bool sameCell(const std::string& x, const std::string& y)
{
    if (x == y) return true;
    const auto a = artifacts::parseNumber(x), b = artifacts::parseNumber(y);
    if (!a || !b) return false;
    if (std::isnan(*a) || std::isnan(*b)) return std::isnan(*a) && std::isnan(*b);
    return *a == *b || std::fabs(*a - *b) <= 1e-9 * std::max(std::fabs(*a), std::fabs(*b));
}

// A similarity in [-1, 1] moves by rounding in its fourth decimal; other metrics (MSE, L1,
// sensitivities) are compared relative to their size.
Movement movementOf(std::optional<double> before, std::optional<double> after, bool higherIsBetter)
{
    if (!before || !after) return Movement::Unmeasured;
    // a metric that turned NaN / Inf is the worst move there is; one that became finite, the best
    if (std::isfinite(*before) != std::isfinite(*after))
        return std::isfinite(*after) ? Movement::Better : Movement::Worse;
    if (!std::isfinite(*before)) return Movement::Unmeasured;
    const double d = *after - *before;
    const bool similarityLike = std::fabs(*before) <= 1.0 && std::fabs(*after) <= 1.0 && higherIsBetter;
    const double scale = std::max(std::fabs(*before), std::fabs(*after));
    const bool moved = similarityLike ? std::fabs(d) >= 5e-4 : scale > 0 && std::fabs(d) / scale >= 0.05;
    if (!moved) return Movement::Unmoved;
    return (d > 0) == higherIsBetter ? Movement::Better : Movement::Worse;
}

std::string rowKey(const DataTable& t, size_t row, const Layout& l)
{
    return cell(t, row, l.layer) + '\x1f' + cell(t, row, l.part);
}

std::vector<std::pair<int, int>> pairRows(const DataTable& a, const Layout& la, const DataTable& b,
                                          const Layout& lb)
{
    std::vector<std::string> keysA, keysB;
    for (size_t i = 0; i < a.rows.size(); ++i) keysA.push_back(rowKey(a, i, la));
    for (size_t j = 0; j < b.rows.size(); ++j) keysB.push_back(rowKey(b, j, lb));
    std::vector<int> partnerOfA(a.rows.size(), -1), partnerOfB(b.rows.size(), -1);
    pairByKey(keysA, keysB, partnerOfA, partnerOfB);
    return pairsInOrderOfB(partnerOfA, partnerOfB);
}

// For each of B's columns the column of A with its name (-1: none, or a key / metric / dtype
// column, compared on its own), found once per pair of tables.
std::vector<int> otherColumnsOfA(const DataTable& a, const DataTable& b, const Layout& lb)
{
    std::vector<int> out(b.columns.size(), -1);
    for (size_t cb = 0; cb < b.columns.size(); ++cb) {
        const int c = static_cast<int>(cb);
        if (c == lb.layer || c == lb.part || c == lb.metric || c == lb.dtype || c == lb.index) continue;
        out[cb] = a.column(b.columns[cb]);
    }
    return out;
}

std::vector<FieldChange> otherCells(const DataTable& a, size_t ra, const DataTable& b, size_t rb,
                                    const std::vector<int>& columnOfA)
{
    std::vector<FieldChange> out;
    for (size_t cb = 0; cb < b.columns.size(); ++cb) {
        if (columnOfA[cb] < 0) continue;
        const std::string x = cell(a, ra, columnOfA[cb]), y = cell(b, rb, static_cast<int>(cb));
        if (!sameCell(x, y)) out.push_back({b.columns[cb], x, y, false});
    }
    return out;
}

}  // namespace

const char* movementName(Movement m)
{
    static constexpr const char* kNames[] = {"better", "worse", "unmoved", "unmeasured"};
    return kNames[static_cast<size_t>(m)];
}

const Text& movementText(Movement m)
{
    static const Text kTexts[] = {{"变好", "better"}, {"变差", "worse"}, {"不变", "unmoved"}, {"-", "-"}};
    return kTexts[static_cast<size_t>(m)];
}

size_t DataTableDiff::count(Movement m) const
{
    return static_cast<size_t>(
        std::count_if(rows.begin(), rows.end(), [&](const TableRowChange& r) { return r.movement == m; }));
}

size_t DataTableDiff::count(RowChange kind) const
{
    return static_cast<size_t>(
        std::count_if(rows.begin(), rows.end(), [&](const TableRowChange& r) { return r.kind == kind; }));
}

std::optional<DataTableDiff> diffDataTables(const DataTable& a, const DataTable& b)
{
    if (a.kind != b.kind) return std::nullopt;
    const TableSpec* spec = specOf(b.kind);
    const Layout la = layoutOf(a, spec), lb = layoutOf(b, spec);
    DataTableDiff diff;
    diff.kind = b.kind;
    diff.title = b.title;
    diff.pathA = a.sourcePath;
    diff.pathB = b.sourcePath;
    diff.higherIsBetter = spec ? spec->higherIsBetter : true;
    diff.ranked = spec && spec->ranked;
    // a metric both tables have; a sensitivity measured by another metric is not comparable
    const int metricB = lb.metric;
    const int metricA = metricB >= 0 ? a.column(b.columns[static_cast<size_t>(metricB)]) : -1;
    if (metricA >= 0) diff.metric = b.columns[static_cast<size_t>(metricB)];
    const std::vector<int> columnOfA = otherColumnsOfA(a, b, lb);
    for (const auto& [ia, ib] : pairRows(a, la, b, lb)) {
        TableRowChange row;
        row.rowA = ia;
        row.rowB = ib;
        const DataTable& named = ib >= 0 ? b : a;
        const size_t namedRow = static_cast<size_t>(ib >= 0 ? ib : ia);
        const Layout& namedLayout = ib >= 0 ? lb : la;
        row.layer = cell(named, namedRow, namedLayout.layer);
        row.part = cell(named, namedRow, namedLayout.part);
        if (ia >= 0) {
            const auto r = static_cast<size_t>(ia);
            row.lineA = r < a.rowLines.size() ? a.rowLines[r] : 0;
            row.before = number(a, r, metricA);
            row.dtypeA = cell(a, r, la.dtype);
            if (diff.ranked) row.rankA = ia + 1;
        }
        if (ib >= 0) {
            const auto r = static_cast<size_t>(ib);
            row.lineB = r < b.rowLines.size() ? b.rowLines[r] : 0;
            row.after = metricA >= 0 ? number(b, r, metricB) : std::nullopt;
            row.dtypeB = cell(b, r, lb.dtype);
            if (diff.ranked) row.rankB = ib + 1;
        }
        if (ia < 0)
            row.kind = RowChange::Added;
        else if (ib < 0)
            row.kind = RowChange::Removed;
        else {
            row.movement = movementOf(row.before, row.after, diff.higherIsBetter);
            row.cells = otherCells(a, static_cast<size_t>(ia), b, static_cast<size_t>(ib), columnOfA);
            const bool metricMoved = row.movement == Movement::Better || row.movement == Movement::Worse;
            row.kind = row.dtypeA != row.dtypeB            ? RowChange::Changed
                       : metricMoved || !row.cells.empty() ? RowChange::Retuned
                                                           : RowChange::Same;
        }
        diff.rows.push_back(std::move(row));
    }
    return diff;
}

}  // namespace qatdoctor::core::compare
