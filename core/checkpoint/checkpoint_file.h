// A checkpoint torch.save wrote, read without Python: the container (the zip archive of torch >=
// 1.6 through libzip, or the two older forms of checkpoint_legacy.h) recognised by content, the
// pickle run by the restricted VM (pickle_vm.h), and the tensors found in it with their names,
// dtypes and shapes. Tensor values are read only when asked (readTensor), one tensor at a time,
// so opening a 500 MB checkpoint reads its pickle and its directory only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/checkpoint/pickle_vm.h"
#include "core/common/memory_budget.h"
#include "core/common/result.h"
#include "core/model/dtype.h"

namespace qatdoctor::core::checkpoint {

struct TensorInfo;

// How a quantized tensor (torch's _rebuild_qtensor: the weight of a module after convert) maps
// its integers to real values: one scale and zero point, or one per channel along axis (those
// are tensors of their own in the file, read on demand like any other).
struct QTensorParams {
    std::string scheme;  // "per_tensor_affine", "per_channel_affine", "per_channel_affine_float_qparams"
    double scale = 0;    // per-tensor
    int64_t zeroPoint = 0;
    int axis = -1;  // per-channel
    std::shared_ptr<const TensorInfo> scales, zeroPoints;
    bool perChannel() const { return scales != nullptr; }
    // torch's weight-only scheme (per_channel_affine_float_qparams: Embedding, EmbeddingBag):
    // torch pickles it as per_channel_affine, its zero points a floating tensor
    bool floatZeroPoints() const;
};

struct TensorInfo {
    std::string name;  // dotted path in the checkpoint ("state_dict.conv1.weight")
    // The name the same tensor has in the float model's state_dict, where the file's layout
    // differs: a converted Linear keeps its weight in "fc._packed_params._packed_params.0", a
    // whole converted Conv in its pickled state's tenth item ("fc.weight", "conv1.weight").
    // Empty when it is name.
    std::string canonical;
    std::string dtype;  // "float32", "int64", ... (from the storage type)
    std::vector<int64_t> shape, stride;
    int64_t offset = 0;               // in elements, into the storage
    std::string storage;              // storage key
    std::string storageDir = "data";  // the archive's folder holding it (TorchScript: "constants" too)
    int64_t storageNumel = 0;
    bool parameter = false;              // rebuilt as an nn.Parameter
    std::optional<QTensorParams> quant;  // a quantized tensor's parameters
    // The same values as another tensor of the file (the bias a dynamic LSTM's packed weight
    // repeats): listed, but neither a layer's tensor nor compared.
    bool duplicate = false;
    int64_t numel() const;
    model::DType type() const;  // its dtype as the model tables name it (qint8 -> Int8)
    // Its elements' bytes, packed (numel capped at 2^40 so a hostile shape cannot overflow).
    uint64_t packedBytes() const;
};

// A module pickled whole (torch.save(model)) keeps what a state_dict drops: its class and the
// settings its constructor stored, among them how each quantizer was configured (quant_min,
// quant_max, dtype, qscheme, ch_axis, an observer's averaging_constant).
struct PickledModule {
    std::string className;  // "torch.ao.quantization.fake_quantize.FakeQuantize"
    // Its plain attributes in pickle order: numbers, strings and named constants as text
    // ("quant_min" = "-128", "dtype" = "torch.qint8"); private ("_x") and nested ones left out.
    std::vector<std::pair<std::string, std::string>> settings;
    const std::string* setting(std::string_view name) const;
};

struct CheckpointFile {
    std::string path;
    // "zip" | "legacy" (the stream of torch 0.4-1.5) | "tar" (torch < 0.4) | "torchscript"
    // (torch.jit.save's zip: its data.pkl holds the module tree, code/ its TorchScript, never run)
    std::string container;
    std::string archiveRoot;  // zip: the folder holding data.pkl
    std::vector<TensorInfo> tensors;
    // Numbers and strings outside the tensors ("epoch" = "3", "arch" = "TinyNet").
    std::vector<std::pair<std::string, std::string>> metadata;
    std::set<std::string> numericMetadata;  // metadata keys whose values are numbers in the pickle
    // Numbers a converted module keeps outside tensors, by canonical name ("conv1.scale" =
    // 0.0123: the scale and zero point a whole pickled or TorchScript module stores as plain
    // attributes or in its pickled state).
    std::map<std::string, double> scalars;
    // The _metadata torch keeps beside a state_dict: each module's version by its dotted path as
    // the tensors' (a dynamic quantized Linear is version 4, a static one 3).
    std::map<std::string, int64_t> moduleVersions;
    // The class of each object in the pickle by dotted path, a TorchBind object's by its
    // qualified name ("fc._packed_params._packed_params" =
    // "__torch__.torch.classes.quantized.LinearPackedParamsBase").
    std::map<std::string, std::string> objectClasses;
    // The dotted path of the part holding the model's tensors ("state_dict", "model", "" = the root).
    std::string modelKey;
    std::vector<std::string> classes;  // classes of pickled objects (a whole module's nn.Module types)
    // "os.system": globals torch.load would call when loading (or that reach the system in any
    // use), judged against weights_only's allowlist (pickle_globals.h)
    std::vector<std::string> dangerous;
    // Classes and globals outside that allowlist that loading only imports and builds from a state
    // (a whole pickled module's Conv2d, FakeQuantize ...): a weights_only load refuses them.
    std::vector<std::string> refusedGlobals;
    // Where the walk of the pickle stopped: a cycle (an object holding itself) or nesting too
    // deep, named by its dotted path. The rest of the file is read.
    std::vector<std::string> walkNotes;
    // legacy and tar: where each storage's bytes start in the file (after its 8-byte count)
    std::map<std::string, uint64_t> legacyOffsets;
    // Modules pickled whole, by dotted path as the tensors' ("model.conv1.weight_fake_quant").
    std::map<std::string, PickledModule> modules;

    const TensorInfo* find(const std::string& name) const;
    bool zipped() const;                 // its storages are zip entries (torch.save's zip, TorchScript)
    bool holdsQuantizedTensors() const;  // a model after convert
};

// What the file holds: "torchscript" (torch.jit.save), "whole_module" (torch.save(model)),
// "training_checkpoint" (a dict with the model under a key, or with epoch, ... beside it),
// "state_dict".
const char* checkpointKindName(const CheckpointFile& file);

// How sure the first bytes of a file make it a torch.save checkpoint: the zip archive whose first
// entry is "<folder>/data.pkl" (torch.save writes it first) or one of torch.jit.save's first
// entries ("<folder>/data/0", "<folder>/version"), the legacy stream's magic number, or a tar
// header naming one of the tar form's members.
// 0 = not one. Content only: .pt, .pth, .ckpt and .bin all occur, and so do other files so named.
int probeCheckpoint(std::string_view head);

// Opens path and reads its directory and pickle (a TorchScript archive's data.pkl and
// constants.pkl). Errors: "io.open", "checkpoint.format" (not a torch.save or torch.jit.save
// file), "checkpoint.pickle" (the byte offset),
// "checkpoint.truncated" (the file ends early), "checkpoint.zip", "checkpoint.budget" (the pickle
// holds more than budget allows; none = a budget of its own at the default).
Result<CheckpointFile> readCheckpoint(const std::string& path, MemoryBudget* budget = nullptr);

// Reads tensor values from one checkpoint, keeping its archive open between tensors: a layer
// table reads hundreds of small quantizer buffers, a diff every weight. Errors name the file and
// the tensor; every shape, stride and offset is checked against the storage before it sizes a read.
class TensorReader {
public:
    explicit TensorReader(const CheckpointFile& file);  // file must outlive the reader
    ~TensorReader();
    TensorReader(const TensorReader&) = delete;
    TensorReader& operator=(const TensorReader&) = delete;

    // The elements in logical (row-major) order, packed, in the tensor's own element bytes: two
    // tensors are byte-identical when these are equal.
    Result<std::string> packedBytes(const TensorInfo& tensor);
    // The same into a buffer the caller keeps between tensors (a diff reads every weight: fresh
    // buffers would fault in every page of the file twice).
    Result<void> readPacked(const TensorInfo& tensor, std::string& out);
    // The elements as doubles (bool and integer types converted).
    Result<std::vector<double>> values(const TensorInfo& tensor);

private:
    Result<void> storageBytes(const TensorInfo& tensor, uint64_t first, uint64_t count,
                              const std::string& what, std::string& into);
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// One tensor's values, through a reader of its own (see TensorReader).
Result<std::vector<double>> readTensor(const CheckpointFile& file, const TensorInfo& tensor);

// Decodes count packed elements of dtype into out; false when the dtype is not converted.
bool decodeElements(const std::string& dtype, const char* packed, size_t count, double* out);

// Bytes per element of a dtype name ("float32" -> 4); 0 when unknown.
size_t dtypeSize(const std::string& dtype);

}  // namespace qatdoctor::core::checkpoint
