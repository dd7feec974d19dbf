// The comparison's tables as the reader sees them: one set of columns and cells for the CLI's
// text, the report's tables and the GUI's A | B views, so all three show a change in one way.
#pragma once

#include <string>
#include <vector>

#include "core/compare/comparison.h"

namespace qatdoctor::core::compare {

struct DiffTable {
    std::string title;  // "Layers: a.onnx → b.onnx", "compare_per_layer: ..."
    std::string caption;
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;  // every row, in the diff's order
    std::vector<RowChange> kinds;                // per row
    std::vector<bool> worse;                     // per row: moved the wrong way (drawn as a regression)
    // per row: what a "changed only" view keeps (configuration changes; a debug table's rows whose
    // metric moved or dtype changed)
    std::vector<bool> changed;

    size_t changedCount() const;
};

// Columns: A, B, op, dtype A, dtype B (weight / output), change, what changed.
DiffTable layerDiffTable(const LayerTableDiff& d, Lang lang);
// Columns: layer, A, B (the metric), moved, rank (ranked tables), dtype, other cells that differ.
DiffTable dataTableDiffTable(const DataTableDiff& d, Lang lang);
// Columns: change (new, resolved, still there), severity, id, title; new findings first. Every
// row counts as changed but the ones still there.
DiffTable findingsDiffTable(const Comparison& c, Lang lang);
// Columns: stage, runs (A → B), accuracy, loss: each stage's last run on both sides. Rows whose
// accuracy fell are worse.
DiffTable runsDiffTable(const Comparison& c, Lang lang);

}  // namespace qatdoctor::core::compare
