// The toolchain's debug text files (horizon_plugin_pytorch / horizon_plugin_profiler): which file
// is which (probe by name and content), and reading each into DataTables (plus a LayerTable for
// model_check_result.txt). Layouts: the toolchain's published examples, as the fixtures in
// tests/data/toolchain show them (written by tests/gen/make_toolchain.py).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/data_table.h"
#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/model/layer_table.h"

namespace qatdoctor::core::artifacts {

enum class ToolchainKind {
    ModelCheckResult,     // model_check_result.txt / qconfig_info.txt
    ComparePerLayer,      // compare_per_layer_out.txt / .csv
    Sensitivity,          // output_<name>_<metric>_sensitive_ops.txt
    Statistic,            // statistic.txt (QuantAnalysis and profile_featuremap layouts)
    Similarity,           // similarity.txt / ordered_op_error_similarity.txt
    WeightComparison,     // weight_comparison.txt
    DeployDevice,         // deploy_device.txt
    MapperNodes,          // hb_mapper checker / makertbin logs: the node placement table
    NodeSensitivity,      // the PTQ debugger's get_sensitivity_of_nodes table (sensitivity_of_*.log)
    QconfigDtypes,        // QconfigSetter's qconfig_dtypes.pt.py (configured dtypes per module)
    QconfigChangelog,     // QconfigSetter's qconfig_changelogs.txt (what it changed, and why)
    VerifierConsistency,  // hb_verifier bc vs hbm: per output consistent, mismatched elements, max diffs
    VerifierCosine,       // hb_verifier onnx / bc pairs: per tensor cosine similarity, outputs last
};

// Registry id of the kind ("model_check_result", "compare_per_layer", "sensitive_ops",
// "statistic", "similarity", "weight_comparison", "deploy_device", "hb_mapper_nodes",
// "node_sensitivity", "qconfig_dtypes", "qconfig_changelog", "hb_verifier_consistency",
// "hb_verifier_cosine").
const char* toolchainKindId(ToolchainKind kind);

// DataTable kinds written by the readers.
inline constexpr const char* kTableComparePerLayer = "compare_per_layer";
inline constexpr const char* kTableSimilarity = "similarity";
inline constexpr const char* kTableSensitivity = "sensitivity";
inline constexpr const char* kTableStatistic = "statistic";
inline constexpr const char* kTableWeightComparison = "weight_comparison";
inline constexpr const char* kTableDeployDevice = "deploy_device";
inline constexpr const char* kTableMapperNodes = "hb_mapper_nodes";
inline constexpr const char* kTableNodeSensitivity = "node_sensitivity";
inline constexpr const char* kTableQconfigChangelog = "qconfig_changelog";
inline constexpr const char* kTableVerifierConsistency = "hb_verifier_consistency";
inline constexpr const char* kTableVerifierCosine = "hb_verifier_cosine";
inline constexpr const char* kTableMapperOutput = "hb_mapper_output";  // the quantized model's output cosines
// model_check_result sections: "model_check.summary" (one row per status sentence),
// "model_check.unfused", "model_check.called_times", "model_check.unused",
// "model_check.input_dtypes", "model_check.output_dtypes", "model_check.layer_out_qconfig",
// "model_check.weight_qconfig", "model_check.messages", "model_check.graph".
inline constexpr const char* kFormatModelCheck = "model_check_result";

// 90 = file name and content agree, 80 = content only, 55 = name only, 0 = not this kind.
int probeToolchainFile(ToolchainKind kind, const std::string& path, std::string_view head);

struct ToolchainRead {
    std::vector<DataTable> tables;
    std::optional<model::LayerTable> layers;  // model_check_result, qconfig_dtypes
    std::vector<Warning> warnings;            // damaged rows, missing columns (file + line)
    // qconfig_dtypes: the modules configured at int16, module -> dtype, for model.int16_not_applied
    std::map<std::string, std::string> expectedDtypes;
};

// Reads one file's text. Errors name the path: "artifact.empty", "artifact.binary",
// "artifact.no_table" (nothing of this kind in it).
Result<ToolchainRead> readToolchainText(ToolchainKind kind, std::string_view text, const std::string& path);

// readFile + readToolchainText. Errors as those.
Result<ToolchainRead> readToolchainFile(ToolchainKind kind, const std::string& path,
                                        const ProgressFn& progress);

}  // namespace qatdoctor::core::artifacts
