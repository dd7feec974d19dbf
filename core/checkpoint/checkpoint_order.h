// The order checkpoints are compared in, and whether training lies between two of them: the one
// home of both, so the analysis of a project (each consecutive pair) and the comparison of two
// attempts (A's checkpoint against B's) decide alike.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/checkpoint/checkpoint_layers.h"

namespace qatdoctor::core::checkpoint {

// Where a checkpoint's file name puts it in the pipeline: its stage, with a model saved right
// after prepare ("uncalibrated", "prepared") between float and calibration. nullopt: no stage.
std::optional<int> pipelineRank(const std::string& path);

// When every file name names its stage (float < prepared < calibration < QAT < quantized): by
// stage and then by name (epoch 2 before epoch 10); otherwise the order given (the CLI's A then B).
std::vector<const CheckpointRead*> orderCheckpoints(const std::vector<CheckpointRead>& checkpoints);

// Training lies between from and to, so their weights should differ: both carry quantizers (a
// float checkpoint and the QAT model prepared from it share their weights by design) and to is a
// QAT checkpoint or names no stage (calibration only observes; a converted model changes form,
// not by training).
bool trainedBetween(const CheckpointRead& from, const CheckpointRead& to);

}  // namespace qatdoctor::core::checkpoint
