// Model lints: quantization set-up mistakes the FAQ answers, found in a LayerTable.
//
// Every lint works on a LayerTable alone (so printed models and toolchain tables can use them);
// when the table carries its ONNX graph (table.graph) the lints use the connectivity too
// (quantizers that belong to no layer, float islands, branches that reach no output).
//
// ids: model.output_low_precision, model.shared_quant_params, model.uncalibrated_scale,
//      model.aux_branch, model.float_fallback, model.int16_not_applied, model.custom_gridsample
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/common/finding.h"
#include "core/model/layer_table.h"

namespace qatdoctor::core::model {

struct GraphLintData;  // graph facts computed once per run (model_lints.cpp)

struct LintInput {
    const LayerTable& table;
    const std::map<std::string, std::string>& expectedDtypes;  // module -> dtype ("--expect FILE")
    const GraphLintData* graphData = nullptr;                  // null: each lint computes its own
};

// A lint adds findings and returns true when it had the data to decide (found or clear).
struct ModelLint {
    const char* id;
    bool (*run)(const LintInput& in, std::vector<Finding>& out);
};

// The table of lints, in the order they run.
const std::vector<ModelLint>& modelLints();

// Runs every lint over one table; the ids that could be evaluated go into `evaluated`.
void runModelLints(const LayerTable& table, const std::map<std::string, std::string>& expectedDtypes,
                   std::vector<Finding>& out, std::set<std::string>& evaluated);

}  // namespace qatdoctor::core::model
