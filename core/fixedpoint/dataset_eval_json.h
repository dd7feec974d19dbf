// A dataset evaluation as a JSON document: what `simulate --dataset --out FILE` writes (a whole
// run or one shard), what `merge-sim` reads and writes, and what a project folder may hold for
// the stage ladder's "integer simulation" rung. Agreements keep their sums, so shards merge to
// the figures of the whole run.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "core/common/result.h"
#include "core/fixedpoint/dataset_eval.h"

namespace qatdoctor::core::fixedpoint {

// The document's mark: {"qatdoctor_evaluation": 1, ...}.
inline constexpr const char* kEvaluationMark = "qatdoctor_evaluation";

nlohmann::json evaluationToJson(const DatasetEvaluation& e);

// Errors ("simulate.merge" for a document of another kind or version; the JSON parser's, with
// the line) name path. The result's file is path.
Result<DatasetEvaluation> evaluationFromJson(std::string_view text, const std::string& path);

// Whether the head of a file (its first bytes) is such a document, for the input table's probe.
bool looksLikeEvaluation(std::string_view head);

}  // namespace qatdoctor::core::fixedpoint
