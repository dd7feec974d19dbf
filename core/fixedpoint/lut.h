// Look-up tables for nonlinear ops in the integer domain: a full 256-entry table for 8-bit
// inputs, and for 16-bit inputs a segmented table (257 breakpoints, linear interpolation
// between them) as NPU toolchains build them. Each table reports its error against the float
// function over the input codes actually observed.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/quantize.h"

namespace onnx {
class NodeProto;
}

namespace qatdoctor::core::fixedpoint {

using UnaryFn = std::function<double(double)>;

// The float function of a nonlinear op (attributes applied); empty when the op has no table form.
// Gelu here is the exact (erf) form: a node with approximate="tanh" needs the overload below.
UnaryFn nonlinearFunction(const std::string& op, float alpha, float beta);
// The same from the node, every attribute read with the specification's defaults (alpha, beta,
// Gelu's approximate); empty when the op has no table form or an attribute value is unknown.
// The specification op (ops_math.cpp) computes Gelu with the same gelu() below.
UnaryFn nonlinearFunction(const onnx::NodeProto& node);

// ONNX Gelu (opset 20): 0.5 x (1 + erf(x / sqrt 2)), or with approximate="tanh"
// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
double gelu(double x, bool tanhForm);

// Applies f through a table from `in` codes (params inP) to `out` params; fills report (error
// over the codes present in x, curve samples).
Tensor applyLut(const Tensor& x, const QParams& inP, const QParams& outP, const UnaryFn& f,
                LutReport& report);

}  // namespace qatdoctor::core::fixedpoint
