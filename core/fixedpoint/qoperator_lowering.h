// ONNX Runtime's QOperator contrib ops (domain com.microsoft: QLinearAdd, QLinearMul, QGemm,
// QLinearAveragePool, QLinearGlobalAveragePool, QLinearSoftmax, QLinearConcat, QLinearSigmoid,
// QLinearLeakyRelu), written as the QDQ subgraph each one computes: DequantizeLinear on every
// quantized operand, the float op, QuantizeLinear on the output. The interpreter runs that
// subgraph, so every mode follows from what it already does with QDQ graphs: float from the
// dequantized operands (the quantizers removed), fake-quant as the specification computes, and
// the integer mode's kernels (integer Add/Mul, requantized Concat, pools, look-up tables, Gemm).
#pragma once

#include <onnx/onnx_pb.h>

#include <map>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/fixedpoint/tensor.h"

namespace qatdoctor::core::fixedpoint {

bool isQOperatorContribOp(const onnx::NodeProto& node);

struct LoweredOp {
    std::vector<onnx::NodeProto> nodes;       // in execution order
    std::map<std::string, Tensor> constants;  // new initializers (QGemm's bias scale)
};

// The QDQ form of a QOperator contrib node. The float op keeps the node's name (it is the layer);
// intermediate tensors are named "qatdoctor::<node>::..." and never collide with the model's.
// `initializers` gives the constant scales. Errors ("simulate.unsupported") name the node and the
// feature: channels_last pooling, QLinearSoftmax of opset < 13 on an inner axis.
Result<LoweredOp> lowerQOperator(const onnx::NodeProto& node,
                                 const std::map<std::string, const Tensor*>& initializers);

}  // namespace qatdoctor::core::fixedpoint
