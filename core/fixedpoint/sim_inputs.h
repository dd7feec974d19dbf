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
    std::vector<std::string> files;  // one per graph input, in order
    std::string folder;              // ONNX test data set folder (used when files is empty)
    std::vector<int64_t> rawShape;   // for files that are neither .npy nor .pb
    DType rawDtype = DType::Float32;
    uint64_t seed = 0;  // random inputs when no files and no folder
};

struct PreparedInputs {
    std::vector<Tensor> tensors;  // the first sample: one tensor per graph input
    // A file holding a batch of several of the model's inputs (a .npy of 8 images for a model
    // of batch 1) gives the later samples here, each a full set like tensors; the simulation
    // runs every sample and its figures cover all of them.
    std::vector<std::vector<Tensor>> moreSamples;
    std::vector<std::string> sources;  // per input: the file, or "random(seed=N)"
    std::vector<std::string> notes;    // e.g. "a batch of 8 samples: each is simulated"

    size_t sampleCount() const { return tensors.empty() ? 0 : 1 + moreSamples.size(); }
};

// Errors name the file: unreadable, wrong element count, shape the model cannot take. At most
// kMaxSamples samples of a batch are kept (a note says so).
constexpr size_t kMaxSamples = 64;
Result<PreparedInputs> prepareInputs(const Interpreter& interp, const InputSpec& spec);

}  // namespace qatdoctor::core::fixedpoint
