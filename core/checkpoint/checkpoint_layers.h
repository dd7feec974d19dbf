// A checkpoint's layer table: the same LayerTable the ONNX and printed-model readers build, made
// from the state_dict's names. torch's and horizon_plugin_pytorch's QAT modules keep their
// quantizers as submodules with fixed names, so the names alone say which buffer is what:
//
//   conv1.weight                                                the module's weight
//   conv1.weight_fake_quant.{scale, zero_point}                 its weight quantizer
//   conv1.activation_post_process.{scale, zero_point,
//         fake_quant_enabled, observer_enabled}                  its output quantizer
//   conv1.activation_post_process.activation_post_process.{min_val, max_val}   that one's observer
//   activation_post_process_3.scale                              an FX-inserted quantizer (a row)
//
// Bit widths are attributes, not buffers: a state_dict does not save quant_min / quant_max, so its
// quantizers keep DType::Unknown and the table says so in a warning (checkpoint.bit_width). A module
// pickled whole keeps them, with its classes: its rows get their dtypes, ranges, per-channel axis,
// observer class and averaging constant, and their ops by class.
#pragma once

#include <set>

#include "core/checkpoint/checkpoint_file.h"
#include "core/common/finding.h"
#include "core/model/layer_table.h"

namespace qatdoctor::core::checkpoint {

// Flags a row may carry (Layer::flags), read by the checkpoint lints and shown by the pages: the
// output quantizer's as named here, the weight quantizer's with "weight_" in front.
inline constexpr const char* kFlagObserverNeverRan = "observer_never_ran";  // min +inf / max -inf, or empty
inline constexpr const char* kFlagObserverNaN = "observer_nan";             // the observer saw NaN
inline constexpr const char* kFlagFakeQuantDisabled = "fake_quant_disabled";
inline constexpr const char* kFlagObserverDisabled = "observer_disabled";
inline constexpr const char* kFlagZeroPointNonFinite = "zero_point_nonfinite";
// A converted layer's: activations quantized at run time (quantize_dynamic), or never (an
// Embedding quantized weight-only); both give a float output.
inline constexpr const char* kFlagDynamic = "dynamic";
inline constexpr const char* kFlagWeightOnly = "weight_only";

// The model part of a dotted path: "state_dict.conv1" -> "conv1" (modelKey "state_dict"); paths
// outside the model part (optimizer state) give "".
std::string modelPath(const CheckpointFile& file, const std::string& path);
// The model part of a tensor's canonical name (converted_layouts.h): "state_dict.fc.weight" for
// "state_dict.fc._packed_params._packed_params.0"; "" outside the model part, and for a
// duplicate.
std::string modelTensorName(const CheckpointFile& file, const TensorInfo& tensor);

// True for a quantizer's or observer's buffer ("x.activation_post_process.scale").
bool isQuantizerTensor(const std::string& modelName);

// One row per module holding a weight or a quantizer, in the order the checkpoint lists them.
// Quantizer buffers are read through reader (they are small) and kept within budget (a warning
// names the first buffer past it); weights are not read.
model::LayerTable checkpointLayerTable(const CheckpointFile& file, TensorReader& reader,
                                       MemoryBudget& budget);

// A checkpoint as the analysis keeps it: what the file holds and its layer table.
struct CheckpointRead {
    CheckpointFile file;
    model::LayerTable table;
    // The checkpoint lints' findings and the ids they decided (checkpoint_lints.h), run once when
    // the file is read: they read weights, and nothing the user changes later alters them.
    std::vector<Finding> findings;
    std::set<std::string> evaluated;
    bool quantized() const;         // it carries quantizers: fake quant, observers or converted modules
    bool converted() const;         // it holds quantized tensors: a model after convert
    bool dynamic() const;           // some layer is dynamically quantized (kFlagDynamic)
    bool bitWidthsMissing() const;  // some quantizer's dtype is unknown (that warning)
};
// readCheckpoint and checkpointLayerTable under one budget of maxMemory bytes (0 = a quarter of
// physical memory); errors as readCheckpoint.
Result<CheckpointRead> readCheckpointLayers(const std::string& path, uint64_t maxMemory = 0);

}  // namespace qatdoctor::core::checkpoint
