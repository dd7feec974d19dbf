// Where a model saved after torch.ao's convert (or quantize_dynamic) keeps what its float
// model's state_dict calls "fc.weight": one table of the layouts torch writes, so the layer table
// and the diff see the float names whatever the container.
//
//   fc._packed_params._packed_params.{0,1}            a converted Linear's state_dict (weight, bias)
//   fc._packed_params.{0,1}                           its TorchScript LinearPackedParams(Base) state
//   constants.4.{0,1}, constants.0.{1.1, 2.0}         a mobile archive's prepacked Linear and Conv
//   emb._packed_params._packed_weight                 a converted Embedding
//   conv1.{10,11,12,13}                               a whole pickled or TorchScript quantized Conv's
//                                                     state (weight, bias, scale, zero point)
//   lstm._all_weight_values.0.param.{1.J, 4.J.0}      a dynamic LSTM's cell parameters (biases,
//                                                     packed weights) of layer 0
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/checkpoint/checkpoint_file.h"

namespace qatdoctor::core::checkpoint {

// Sets the canonical name (and the duplicate mark) of file.tensors[first...], and fills
// file.scalars from the numbers found in objects' states and whole modules' settings (by dotted
// path).
void nameConvertedLayouts(CheckpointFile& file, size_t first,
                          const std::vector<std::pair<std::string, double>>& objectNumbers);

// The canonical name of a dotted path of the file (the path itself when no layout applies).
std::string canonicalPath(const CheckpointFile& file, const std::string& path);

// True for a class of torch's converted (quantized) modules, in Python or TorchScript form
// ("torch.ao.nn.quantized.modules.conv.Conv2d", "__torch__.torch.nn.quantized.dynamic...").
bool isQuantizedModuleClass(const std::string& className);
// ... of its dynamic quantization modules ("...quantized.dynamic.modules.linear.Linear").
bool isDynamicModuleClass(const std::string& className);

}  // namespace qatdoctor::core::checkpoint
