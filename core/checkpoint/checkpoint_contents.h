// What a checkpoint's pickle holds, whatever container carried it: the tree the restricted VM
// built (pickle_vm.h) walked for its tensors (named by their dotted path), its numbers and strings
// (metadata), the key holding the model, the classes of a pickled module and the globals a real
// unpickler would have run. Also the table of storage element types every reader shares.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include "core/checkpoint/checkpoint_file.h"
#include "core/checkpoint/pickle_vm.h"

namespace qatdoctor::core::checkpoint {

// One element type of torch's storages: its class name, the dtype the app shows, its size and
// how one element becomes a double (nullptr: not converted, the complex types).
struct StorageType {
    std::string_view name;   // "FloatStorage"
    std::string_view dtype;  // "float32"
    size_t bytes;
    double (*read)(const char*);
};
const StorageType* storageTypeNamed(std::string_view className);
const StorageType* storageTypeOfDtype(std::string_view dtype);

// Fills out's tensors, metadata, modelKey, classes and dangerous from a pickle tree. Tensors are
// torch's rebuild calls over persistent storages (torch >= 0.4); the tar form of torch < 0.4
// pickled each tensor as a bare persistent id, its key in `persistent` (from its tensors member).
// storageDir is the archive folder of the pickle's storages ("constants" for a TorchScript
// archive's constants.pkl), rootPath the name of its root ("" = unnamed, "constants").
void describePickle(const PickleTree& tree, CheckpointFile& out,
                    const std::map<std::string, TensorInfo>& persistent = {},
                    std::string_view storageDir = "data", const std::string& rootPath = {});

// The key of a dict entry or a persistent id as text: a string, or an integer's digits ("?" else).
std::string keyText(const PickleTree& tree, NodeId id);

}  // namespace qatdoctor::core::checkpoint
