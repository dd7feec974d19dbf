// Two layer tables of one model compared row by row: what a configuration change did to each
// layer. Rows are matched by module name first (an ONNX node path such as "/conv1/Conv" and the
// "model." / "module." wrappers of DDP and Lightning reduced to the module path), then by position
// between matched rows when names changed (same op, in graph order). A module called twice that
// became two modules (a shared FloatFunctional split) is its one row becoming two: the second
// call's row is matched to the new module and marked Split.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/common/text.h"
#include "core/model/layer_table.h"

namespace qatdoctor::core::compare {

// Configuration changes (the layer's own dtypes, granularity, op, a quantizer gained or lost,
// sharing) make a row Changed; scales and observed ranges that moved with training, and input
// dtypes that follow a change upstream, only make it Retuned, so the "changed only" view of two
// attempts is the rows the user changed.
enum class RowChange { Same, Retuned, Changed, Added, Removed, Split };
const char* rowChangeName(RowChange kind);  // "same" | "retuned" | "changed" | "added" | ...
// "changed" / "有变化", ... for tables and the CLI.
const Text& rowChangeText(RowChange kind);
// Rows a "changed only" filter keeps: everything but Same and Retuned.
bool isConfigurationChange(RowChange kind);

enum class MatchBy { Name, Position, None };
const char* matchByName(MatchBy by);  // "name" | "position" | "none"

struct FieldChange {
    std::string field;  // "output dtype", "weight dtype", "granularity", "op", "output scale", ...
    std::string before, after;
    bool configuration = true;  // false: a value that training moves (scale, observed range)
};

// A field's name in the reader's language ("output dtype" / "输出 dtype").
std::string fieldLabel(const std::string& field, Lang lang);
// A row's changes in one cell: "output dtype int8 -> int16; output scale 0.002 -> 0.0002".
struct LayerChange;
std::string fieldsText(const LayerChange& row, Lang lang, bool configurationOnly = false);

struct LayerChange {
    int a = -1, b = -1;  // row indices in A's and B's table (-1: absent on that side)
    std::string nameA, nameB;
    std::string op;
    std::string dtypesA, dtypesB;  // weight / output dtype of each side ("int8 / float32"; "" = absent)
    MatchBy matchedBy = MatchBy::None;
    RowChange kind = RowChange::Same;
    std::vector<FieldChange> fields;

    const std::string& name() const { return nameB.empty() ? nameA : nameB; }
    const FieldChange* field(const std::string& f) const;
};

struct LayerTableDiff {
    std::string pathA, pathB;
    std::string format;             // of B's table ("onnx", "printed_module", ...)
    std::vector<LayerChange> rows;  // B's order; rows only in A where they stood in A

    size_t count(RowChange kind) const;
    size_t changedRows() const;  // configuration changes of any kind
};

// The module path a layer name stands for: "/backbone/conv1/Conv" -> "backbone.conv1",
// "module.conv1" -> "conv1", "add (/Add_1)" and the toolchain's "add(1)" -> "add" (a second call
// of one module), "merge_add[add]" -> "merge_add" (the method a FloatFunctional was called by).
std::string modulePath(const std::string& layerName);

// Row indices of A and B paired: by name, then by position in the gaps between named pairs.
struct RowPair {
    int a = -1, b = -1;
    MatchBy by = MatchBy::None;
};
std::vector<RowPair> matchLayers(const model::LayerTable& a, const model::LayerTable& b);

LayerTableDiff diffLayerTables(const model::LayerTable& a, const model::LayerTable& b);

}  // namespace qatdoctor::core::compare
