// Lines without metrics that say which stage the log is in: a pipeline marker switches the stage
// for every line after it (HAT's "=====BEGIN QAT STAGE=====", "--stage calibration",
// "training_step: qat", "Stage float: training", "Starting QAT training", "===== Calibration
// ====="); an evaluation header names the stage of the evaluation that follows it, and only of
// that evaluation ("Evaluate Quantized model", "Testing the int8 model", "Results of the
// calibrated model:"). Prose that merely mentions a stage ("Load float checkpoint from ...",
// "Convert qat model to quantized model") is neither: the words around the stage word decide.
#pragma once

#include <optional>
#include <string_view>

#include "core/logs/stage_words.h"

namespace qatdoctor::core::logs {

struct StageHeader {
    enum class Kind { Pipeline, Evaluation };
    Kind kind = Kind::Pipeline;
    StageMention stage;  // a deployment step names only evaluations ("Evaluate on board")
};

// line: the text after a timestamp (the caller has found no metric and no counter on it).
std::optional<StageHeader> readStageHeader(std::string_view line);

// The part of a line that may name a stage, with paths, "file.py:42" sources and quoted values
// blanked out ("Saved ./calibration-checkpoint.pth.tar" names no stage).
std::string labelText(std::string_view text);

}  // namespace qatdoctor::core::logs
