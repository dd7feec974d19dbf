// Where a dataset evaluation's samples come from, one at a time: .npy batches (read a sample at
// a time at its offset, so a 10 GB file costs one sample of memory), ONNX TensorProto .pb files,
// folders of either, or a folder of images per class (the class folders in name order give the
// labels). Labels come from a .npy of integers in sample order, or from the class folders.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/run_simulation.h"
#include "core/fixedpoint/tensor_io.h"

namespace qatdoctor::core::fixedpoint {

struct DatasetSpec {
    std::vector<std::string> paths;  // files and folders, in sample order
    std::string labelsPath;          // .npy of integer class indices ("" = none)
    // Images: the colour form and pixel scale they are fed in, and the decoder (the caller's:
    // decoding needs Qt). Without a decoder a folder of images is an error.
    ColourFormat colour = ColourFormat::Rgb;
    float pixelScale = 1.0f;
    ImageDecoder decode;
};

class DatasetSource {
public:
    // Lists the samples (headers only; no sample is read). Errors name the file: a model without
    // exactly one input, a file whose shape the input cannot take, a labels file whose count
    // differs from the samples', an empty dataset, images without a decoder.
    static Result<DatasetSource> open(const Interpreter& interp, const DatasetSpec& spec);

    uint64_t size() const { return m_size; }
    bool labelled() const { return !m_labels.empty(); }
    const std::vector<std::string>& sources() const { return m_sources; }  // what was opened
    const std::string& labelsPath() const { return m_labelsPath; }

    // Sample i as the model's one input. Thread-safe (each call opens and reads its own bytes).
    Result<Tensor> sample(uint64_t i) const;
    // Its label (-1 when unlabelled).
    int64_t label(uint64_t i) const { return i < m_labels.size() ? m_labels[i] : -1; }
    // "images.npy[17]", "cat/003.png": where sample i is, for the worst-samples list.
    std::string where(uint64_t i) const;

private:
    enum class Kind { Npy, TensorProto, Image };
    struct Part {
        std::string path;
        Kind kind = Kind::Npy;
        uint64_t first = 0, count = 1;
        NpyLayout layout;         // Npy: where the data starts and its element type
        int64_t classIndex = -1;  // Image: the class folder's index
    };
    Result<void> addFile(const std::string& path, int64_t classIndex);
    // labelsPath: a labels file kept beside the samples is no sample
    Result<void> addFolder(const std::string& path, const std::string& labelsPath);
    const Part& partOf(uint64_t i) const;

    std::vector<int64_t> m_shape;  // one sample, as the model takes it
    DType m_dtype = DType::Float32;
    uint64_t m_sampleBytes = 0;  // in the .npy files' own element type
    std::vector<Part> m_parts;
    uint64_t m_size = 0;
    std::vector<int64_t> m_labels;
    std::vector<std::string> m_sources;
    std::string m_labelsPath;
    ColourFormat m_colour = ColourFormat::Rgb;
    float m_pixelScale = 1.0f;
    ImageDecoder m_decode;
};

}  // namespace qatdoctor::core::fixedpoint
