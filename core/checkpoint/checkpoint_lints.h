// What a single checkpoint can prove wrong, each with the key names and values as evidence. The
// scales themselves (default 1.0, zero, non-finite) are the model lints' job on the checkpoint's
// layer table (core/model/model_lints.h); these are the facts only a checkpoint carries.
//
// ids: checkpoint.uncalibrated (no activation quantizer ever saw data), checkpoint.fake_quant_disabled
//      (in a QAT checkpoint, or some quantizers on and others off), checkpoint.nonfinite_weights,
//      checkpoint.unsafe_pickle (globals a real unpickler would have executed)
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/checkpoint/checkpoint_file.h"
#include "core/common/finding.h"
#include "core/model/layer_table.h"

namespace qatdoctor::core::checkpoint {

// The stage a checkpoint's file name says it belongs to ("qat_epoch3.pth" -> Qat,
// "calib.pt" -> Calibration, "float_best.pth" -> Float); nullopt when it says none.
std::optional<Stage> stageFromFileName(const std::string& path);

struct LintContext {
    const CheckpointFile& file;
    const model::LayerTable& table;            // checkpointLayerTable(file)
    TensorReader& reader;                      // for the weights' values
    std::vector<Warning>* warnings = nullptr;  // what could not be checked (a partial NaN scan)
};

// Runs every checkpoint lint; the ids that could be decided go into evaluated.
void runCheckpointLints(const LintContext& in, std::vector<Finding>& out, std::set<std::string>& evaluated);

}  // namespace qatdoctor::core::checkpoint
