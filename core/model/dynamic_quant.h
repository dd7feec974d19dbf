// Integer products and ONNX Runtime's dynamic quantization (quantize_dynamic): MatMulInteger and
// ConvInteger multiply uint8 / int8 codes minus their zero points into an int32 accumulator. The
// real result follows as a Cast to float, a Mul by the scale product (input scale x weight scale,
// the input's from DynamicQuantizeLinear at run time) and, for a Conv, a float bias Add of the
// reshaped bias. That chain is part of the layer; the weight's scale is the constant factor of
// the scale product.
#pragma once

#include <vector>

#include "core/model/layer_table.h"
#include "core/model/model_graph.h"

namespace qatdoctor::core::model {

bool isIntegerProductOp(const GraphNode& n);  // ConvInteger, MatMulInteger

struct IntegerProduct {
    int inputQuantizer = -1;  // DynamicQuantizeLinear / QuantizeLinear giving input 0's codes
    bool dynamic = false;     // the input's scale is computed at run time
    DType inputDtype = DType::Unknown;
    int weight = -1;  // the constant weight codes (input 1), -1 when not constant
    std::optional<QuantParams> weightQuant;
    std::vector<int> rescale;  // Cast, the Mul by the scale product, a bias Add: in the layer
    int bias = -1;             // the float bias the Add reads (through a Reshape), -1: none
};

IntegerProduct readIntegerProduct(const ModelGraph& g, int node);

}  // namespace qatdoctor::core::model
