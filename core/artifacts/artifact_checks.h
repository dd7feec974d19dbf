// Findings from what the artifact readers put into an Analysis: printed modules, model check
// results and the profiler's tables. One entry point for the "artifacts" row of the check table.
//
// Finding ids produced here:
//   model.output_low_precision  model.uncalibrated_scale  qat.fake_quant_disabled
//   qat.observer_disabled  model.shared_quant_params  model.unfused  model.float_fallback
//   model.cpu_fallback  consistency.similarity_drop  consistency.truncation  consistency.rounding
//   consistency.sensitive_ops  statistic.nonfinite
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/common/check_results.h"
#include "core/common/data_table.h"
#include "core/common/finding.h"
#include "core/model/layer_table.h"

namespace qatdoctor::core::artifacts {

// Adds findings for every printed_module / model_check_result LayerTable among models and every
// toolchain DataTable among tables to results, and inserts the ids it could evaluate into
// results.checksRun. expected: module -> configured dtype (--expect), for the int16 lint.
void runArtifactChecks(const std::vector<model::LayerTable>& models, const std::vector<DataTable>& tables,
                       const std::map<std::string, std::string>& expected, CheckResults& results);

// The pieces, for tests and for callers holding only one table.
void checkPrintedModel(const model::LayerTable& table, const std::vector<model::LayerTable>& others,
                       std::vector<Finding>& out, std::vector<std::string>& evaluated);
void checkModelCheckResult(const model::LayerTable* layers, const std::vector<const DataTable*>& sections,
                           std::vector<Finding>& out, std::vector<std::string>& evaluated);
// The qconfig check table ("model_check.messages"): one finding per message kind
// (qconfig.output_not_quantized, .fixed_input_scale, .fixed_scale, .out_dtype_mismatch,
// .weight_not_int8, .mixed_dtypes, .other), each naming its modules.
void checkQconfigMessages(const DataTable& table, std::vector<Finding>& out,
                          std::vector<std::string>& evaluated);
void checkComparisonTable(const DataTable& table, std::vector<Finding>& out,
                          std::vector<std::string>& evaluated);
void checkProfilerTable(const DataTable& table, std::vector<Finding>& out,
                        std::vector<std::string>& evaluated);

// Index of the first row where similarity clearly falls below the rows before it, or -1.
// Values are cosine-like (<= 1); NaN entries (empty cells) are skipped.
int firstSimilarityDrop(const std::vector<double>& values);

}  // namespace qatdoctor::core::artifacts
