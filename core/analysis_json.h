// The one JSON form of an Analysis: `qatdoctor-cli analyze --json`, the report's JSON, and the
// pieces that `logs --json` and `model --json` print. Stable across releases: fields are only
// added, never renamed (the README documents them).
#pragma once

#include <nlohmann/json.hpp>

#include "core/analysis.h"
#include "core/checkpoint/tensor_stats.h"
#include "core/common/finding_json.h"  // findingToJson, warningToJson

namespace qatdoctor::core {

inline constexpr int kJsonSchemaVersion = 1;

nlohmann::json logSetToJson(const logs::LogSet& logs);        // {"runs": [...], "warnings": [...]}
nlohmann::json layersToJson(const model::LayerTable& table);  // [{"name", "op", ...}]
nlohmann::json modelToJson(const model::LayerTable& table);   // {"path", "format", "inputs", "outputs"}

// {path, container, model_key, quantized, metadata, tensors, classes, dangerous, layers, warnings}
// With stats (one per tensor, checkpoint/tensor_stats.h), each tensor carries its figures.
nlohmann::json checkpointToJson(const checkpoint::CheckpointRead& checkpoint,
                                const std::vector<checkpoint::TensorStats>* stats = nullptr);
// {a, b, weights|quantizers|buffers: {compared, changed, same, reshaped},
//  tensors: [{name, role, change, dtype, numel, max_abs?, rel_l2?, problem?}]}
nlohmann::json checkpointDiffToJson(const checkpoint::CheckpointDiff& diff);

// {version, tool_version, inputs, runs, models, layers, verdict, findings, checks_run, simulation
//  (null unless a simulation was run; core/fixedpoint/simulation_summary.h), checkpoints,
//  checkpoint_diffs, warnings}
nlohmann::json analysisToJson(const Analysis& analysis, Lang lang);

}  // namespace qatdoctor::core
