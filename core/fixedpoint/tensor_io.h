// Reading and writing simulator inputs and outputs: NumPy .npy (any leading batch dimension),
// ONNX TensorProto (.pb files of ONNX test data sets, initializers, Constant values), raw
// little-endian bytes with a caller-given shape, and seeded random inputs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"
#include "core/fixedpoint/tensor.h"

namespace onnx {
class TensorProto;
}

namespace qatdoctor::core::fixedpoint {

// .npy v1/v2/v3, little-endian or single-byte dtypes, C order. Errors: "simulate.npy" naming
// pathForMessages and the header offset.
Result<Tensor> parseNpy(std::string_view bytes, const std::string& pathForMessages);
// Where a .npy keeps its array: element type, shape and the offset of the data, from the first
// bytes of the file (the header; 64 KiB always hold it). For reading a large batch a sample at a
// time. Errors as parseNpy's (the data's length is the caller's to check).
struct NpyLayout {
    DType dtype = DType::Unknown;
    std::vector<int64_t> shape;
    uint64_t dataOffset = 0;
};
Result<NpyLayout> parseNpyLayout(std::string_view head, const std::string& pathForMessages);
std::string writeNpy(const Tensor& t);

// Decodes typed fields or raw_data. External data is read from `folder` (the location must stay
// inside it); "" refuses external data. Errors name the tensor.
Result<Tensor> tensorFromProto(const onnx::TensorProto& proto, const std::string& folder = {});
// A serialized TensorProto (input_0.pb ...).
Result<Tensor> parseTensorProto(std::string_view bytes, const std::string& pathForMessages);
// The element type of an ONNX type as the simulator computes it (model::dtypeFromOnnx), Unknown
// for float16 and bfloat16, which it does not run.
DType simulatedDtype(int32_t onnxType);

// Raw little-endian values of dtype with the given shape; the byte count must match.
Result<Tensor> parseRaw(std::string_view bytes, DType dtype, const std::vector<int64_t>& shape,
                        const std::string& pathForMessages);

// Deterministic N(0,1)-like values (floats) or uniform over the type's range (integers).
Tensor randomTensor(DType dtype, const std::vector<int64_t>& shape, uint64_t seed);

// Reads an input file by extension: .npy, .pb; anything else is an error asking for a shape.
Result<Tensor> readTensorFile(const std::string& path);

}  // namespace qatdoctor::core::fixedpoint
