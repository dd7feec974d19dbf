// Reading ONNX ModelProto files through Debian's onnx_proto classes, and reading the values of
// tensors in any of their storages (typed fields, raw_data, external side files).
//
// Safety rules (a model file is untrusted input):
// - external data is read only on demand and only from inside the model's folder: absolute
//   locations, '..' components and symlinks leading out of the folder are refused;
// - a tensor whose declared size is larger than the bytes actually present (in raw_data or in the
//   external file) is refused before anything is allocated.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/progress.h"
#include "core/common/result.h"

namespace qatdoctor::core::model {

struct OnnxModel {  // cheap to copy
    std::shared_ptr<const onnx::ModelProto> proto;
    std::string path;    // as given
    std::string folder;  // where external data is resolved (confined to it)
    int64_t opset = 0;   // default-domain opset
};

// Reads and parses path. Errors (all name the file): "io.open", "io.too_large" (over 2 GiB: such
// models exist only in external-data form), "onnx.parse" (corrupt or truncated bytes),
// "onnx.too_deep" (graphs nested in graphs past kMaxOnnxNesting, onnx_nesting.h),
// "onnx.not_onnx" (protobuf that is not a ModelProto), "cancelled".
// The name a node the exporter left unnamed is given: "#<index> <OpType>" (its index in the graph).
std::string unnamedNodeLabel(int index, std::string_view opType);

Result<OnnxModel> readOnnxFile(const std::string& path, const ProgressFn& progress = {});

// Parses bytes already in memory; pathForMessages names the file in errors, folder is where
// external data would be read from ("" = refuse all external data).
Result<OnnxModel> parseOnnx(std::string_view bytes, const std::string& pathForMessages,
                            const std::string& folder);

// dims as int64 (empty for a scalar).
std::vector<int64_t> tensorDims(const onnx::TensorProto& t);
// Element count from dims, or -1 when a dim is negative or the product overflows.
int64_t tensorElementCount(const onnx::TensorProto& t);
bool isExternal(const onnx::TensorProto& t);

// Values of an initializer / Constant tensor, any storage (typed fields, raw_data, external data
// read lazily and confined to model.folder). Errors name the model file and the tensor:
// "onnx.tensor_type" (string/complex), "onnx.tensor_size" (declared size vs bytes present),
// "onnx.external_escape", "onnx.external_missing", "io.read".
// A tensor's values as the little-endian bytes of its own element type (the raw_data layout),
// from whichever storage holds them: typed fields (packed), raw_data (borrowed from the proto),
// external data (read). The one tensor decoder: the model's values below and the simulator's
// tensors are made from it, under the same size checks and external-data confinement.
struct TensorBytes {
    std::string owned;          // packed typed fields or external data
    std::string_view borrowed;  // raw_data of the proto (alive as long as the model)
    std::string_view view() const { return owned.empty() ? borrowed : std::string_view(owned); }
};
Result<TensorBytes> tensorBytes(const OnnxModel& model, const onnx::TensorProto& t);
Result<std::vector<float>> tensorAsFloats(const OnnxModel& model, const onnx::TensorProto& t);
Result<std::vector<int64_t>> tensorAsInts(const OnnxModel& model, const onnx::TensorProto& t);

// For an external-data tensor: checks the location (confinement) and that the file holds the
// declared bytes, without reading them. Ok for tensors stored inline.
Result<void> checkExternalTensor(const OnnxModel& model, const onnx::TensorProto& t);

// Resolves an external-data location against folder with the confinement rules above; returns
// the full path or an "onnx.external_escape" / "onnx.external_missing" error naming modelPath.
Result<std::string> resolveExternalLocation(const std::string& folder, const std::string& location,
                                            const std::string& modelPath);

// Reads [offset, offset + length) of an external-data file (length nullopt: to its end): the
// one reader of external data, for the model and the simulator alike. The location is checked
// as above, then the file is opened once (never blocking) and checked through that descriptor:
// a regular file whose real path is inside the folder, so that a symlink swapped in after the
// check cannot lead out. Only the range is read; no 2 GiB limit. Errors name modelPath.
Result<std::string> readExternalRange(const std::string& folder, const std::string& location, uint64_t offset,
                                      std::optional<uint64_t> length, const std::string& modelPath);

}  // namespace qatdoctor::core::model
