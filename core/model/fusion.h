// Which ops a deployment compiler folds into one quantized layer. A compute op (Conv,
// ConvTranspose, Gemm, MatMul), then affine followers (BatchNormalization, Identity, Add / Sub /
// Mul / Div by a constant), then an activation, then the output quantizer: one layer with one
// quantized output. Exporters write every activation this way (ONNX Runtime's quantizer and
// vendor QDQ exports put no quantizer between a Conv and its LeakyRelu), so the activation list
// is every activation such exports use, not only Relu.
//
// One table, read by the layer table, the graph lints and the simulator's layer grouping.
#pragma once

#include <string_view>

namespace qatdoctor::core::model {

enum class FusionRole {
    None,        // ends a fused chain
    Compute,     // starts one
    Affine,      // folded into the compute op's scale and bias (Add/Sub/Mul/Div: constant operand only)
    Activation,  // applied before the output quantizer
};

FusionRole fusionRole(std::string_view op);

// An op that may follow a compute op inside its layer (Affine or Activation).
inline bool isFusedFollower(std::string_view op)
{
    const FusionRole r = fusionRole(op);
    return r == FusionRole::Affine || r == FusionRole::Activation;
}

// Add/Sub/Mul/Div: folded only when one operand is a constant (two activations make a layer).
bool needsConstantOperand(std::string_view op);

}  // namespace qatdoctor::core::model
