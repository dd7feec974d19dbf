// The probe of the "onnx" row of the input table (core/input_registry.cpp, which reads the model
// with loadOnnxLayerTable).
#pragma once

#include <string>
#include <string_view>

namespace qatdoctor::core::model {

// 90: .onnx file whose head looks like a ModelProto; 50: .onnx otherwise (the loader then says
// why it is not a model); 60: no .onnx extension but a ModelProto-looking head; 0: not ONNX.
int probeOnnx(const std::string& path, std::string_view head);

}  // namespace qatdoctor::core::model
