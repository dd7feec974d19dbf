// A layer's weight values, read on demand from its ONNX graph (external data included): the
// float weight a fake quantizer sees, or the stored integers dequantized with the layer's
// weight quantizer (converted int8 models, QLinear ops).
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/result.h"
#include "core/model/layer_table.h"

namespace qatdoctor::core::model {

struct LayerWeights {
    std::vector<float> values;  // real values (dequantized when stored as integers)
    std::vector<int64_t> dims;
    bool storedAsIntegers = false;
};

// Errors: "model.no_graph" (table has no graph), "model.no_weight" (the layer has no constant
// weight), plus the tensor read errors of core/model/onnx_file.h.
Result<LayerWeights> readLayerWeights(const LayerTable& table, const Layer& layer);

// Values of one output channel (index along q.axis) of a weight tensor; all values when the
// quantizer is per-tensor or the channel is out of range.
std::vector<float> channelValues(const LayerWeights& w, const QuantParams& q, int64_t channel);

}  // namespace qatdoctor::core::model
