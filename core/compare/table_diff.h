// Two of the toolchain's per-layer tables of one kind compared row by row: the per-layer
// comparison (compare_per_layer_out, similarity, weight_comparison: a similarity per layer,
// higher is better), the sensitivity tables (sensitive_ops, the PTQ debugger's node table: ranked
// most sensitive first) and the statistics. Rows are matched by the layer (and, where a layer has
// several rows, the kind of row: activation / weight, input / output), columns by name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/data_table.h"
#include "core/compare/layer_diff.h"

namespace qatdoctor::core::compare {

// Which way a row's metric moved, beyond what rounding and run-to-run noise move it.
enum class Movement { Better, Worse, Unmoved, Unmeasured };
const char* movementName(Movement m);  // "better" | "worse" | "unmoved" | "unmeasured"
const Text& movementText(Movement m);  // "better" / "变好", ...

struct TableRowChange {
    std::string layer;         // as the table names it ("head.cls")
    std::string part;          // the second key when a layer has several rows ("weight"), else ""
    int rowA = -1, rowB = -1;  // indices into the tables' rows
    int64_t lineA = 0, lineB = 0;
    std::optional<double> before, after;  // the metric
    int rankA = 0, rankB = 0;             // 1-based position in a ranked table (0 = not ranked / absent)
    std::string dtypeA, dtypeB;           // the quant dtype column, when the table has one
    RowChange kind = RowChange::Same;     // Changed: the dtype changed; Retuned: other cells moved
    Movement movement = Movement::Unmeasured;
    std::vector<FieldChange> cells;  // the other cells that differ (column name, A, B)
};

struct DataTableDiff {
    std::string kind;  // the tables' kind (DataTable::kind)
    std::string title;
    std::string pathA, pathB;
    std::string metric;                // the metric column's name as B writes it ("" = no metric)
    bool higherIsBetter = true;        // similarities; false for sensitivities (lower = less sensitive)
    bool ranked = false;               // rows ordered most sensitive first
    std::vector<TableRowChange> rows;  // B's order; rows only in A where they stood in A

    size_t count(Movement m) const;
    size_t count(RowChange kind) const;
};

// Nullopt when the two tables are not of one kind.
std::optional<DataTableDiff> diffDataTables(const DataTable& a, const DataTable& b);

}  // namespace qatdoctor::core::compare
