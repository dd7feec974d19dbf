// A checkpoint torch.save wrote, read without Python: the container (the zip archive of torch >=
// 1.6 through libzip, or the legacy stream of back-to-back pickles and raw storages) recognised
// by content, the pickle run by the restricted VM (pickle_vm.h), and the tensors found in it
// with their names, dtypes and shapes. Tensor values are read only when asked (readTensor), one
// tensor at a time, so opening a 500 MB checkpoint reads its pickle and its directory only.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/checkpoint/pickle_vm.h"
#include "core/common/result.h"

namespace qatdoctor::core::checkpoint {

struct TensorInfo {
    std::string name;   // dotted path in the checkpoint ("state_dict.conv1.weight")
    std::string dtype;  // "float32", "int64", ... (from the storage type)
    std::vector<int64_t> shape, stride;
    int64_t offset = 0;   // in elements, into the storage
    std::string storage;  // storage key
    int64_t storageNumel = 0;
    bool parameter = false;  // rebuilt as an nn.Parameter
    int64_t numel() const;
};

struct CheckpointFile {
    std::string path;
    std::string container;    // "zip" | "legacy"
    std::string archiveRoot;  // zip: the folder holding data.pkl
    std::vector<TensorInfo> tensors;
    // Numbers and strings outside the tensors ("epoch" = "3", "arch" = "TinyNet").
    std::vector<std::pair<std::string, std::string>> metadata;
    // The dotted path of the part holding the model's tensors ("state_dict", "model", "" = the root).
    std::string modelKey;
    std::vector<std::string> classes;    // classes of pickled objects (a whole module's nn.Module types)
    std::vector<std::string> dangerous;  // "os.system": globals a real unpickler would have run
    // legacy: where each storage's bytes start in the file (after its 8-byte count)
    std::map<std::string, uint64_t> legacyOffsets;

    const TensorInfo* find(const std::string& name) const;
};

// Opens path and reads its directory and pickle. Errors: "io.open", "checkpoint.format" (not a
// torch.save file, or a TorchScript archive), "checkpoint.pickle" (the byte offset), "checkpoint.zip".
Result<CheckpointFile> readCheckpoint(const std::string& path);

// The tensor's elements as doubles (bool and integer types converted), read from the file now.
// Errors name the file and the tensor.
Result<std::vector<double>> readTensor(const CheckpointFile& file, const TensorInfo& tensor);

// Bytes per element of a dtype name ("float32" -> 4); 0 when unknown.
size_t dtypeSize(const std::string& dtype);

}  // namespace qatdoctor::core::checkpoint
