// Where a simulation's inputs come from: files (.npy with or without the batch dimension, ONNX
// TensorProto .pb, raw little-endian with a shape), an ONNX test-data-set folder (input_0.pb,
// input_1.pb ... in graph input order), or seeded random values of the model's input shapes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/fixedpoint/interpreter.h"

namespace qatdoctor::core::fixedpoint {

struct InputSpec {
    std::vector<std::string> files;      // one per graph input, in order
    std::string folder;                  // ONNX test data set folder (used when files is empty)
    std::vector<int64_t> rawShape;       // for files that are neither .npy nor .pb
    DType rawDtype = DType::Float32;
    uint64_t seed = 0;                   // random inputs when no files and no folder
};

struct PreparedInputs {
    std::vector<Tensor> tensors;
    std::vector<std::string> sources;    // per input: the file, or "random(seed=N)"
    std::vector<std::string> notes;      // e.g. "took sample 0 of a batch of 8"
};

// Errors name the file: unreadable, wrong element count, shape the model cannot take.
Result<PreparedInputs> prepareInputs(const Interpreter& interp, const InputSpec& spec);

}  // namespace qatdoctor::core::fixedpoint
