// The "onnx" row of the input table (core/input_registry.cpp) and the "model.lints" check row
// (core/check_registry.cpp).
#pragma once

#include <string>
#include <string_view>

#include "core/analysis.h"

namespace qatdoctor::core::model {

// 90: .onnx file whose head looks like a ModelProto; 50: .onnx otherwise (the loader then says
// why it is not a model); 60: no .onnx extension but a ModelProto-looking head; 0: not ONNX.
int probeOnnx(const std::string& path, bool isFolder, std::string_view head);
// Reads the model into a LayerTable and appends it to into.models.
Result<void> loadOnnxInput(const std::string& path, Analysis& into, const ProgressFn& progress);
// Runs the model lints over every ONNX table of the analysis.
void runOnnxModelLints(Analysis& analysis);

}  // namespace qatdoctor::core::model
