// Where the QOperator ops keep their quantized operands: ONNX's QLinearConv and QLinearMatMul,
// and ONNX Runtime's contrib ops (domain com.microsoft) QLinearAdd, QLinearMul, QGemm,
// QLinearAveragePool, QLinearGlobalAveragePool, QLinearSoftmax, QLinearConcat, QLinearSigmoid,
// QLinearLeakyRelu. An operand is (tensor, scale, zero point) at consecutive inputs. One table,
// read by the layer table (dtypes per role) and the simulator (which runs the contrib ops as the
// QDQ subgraphs they compute).
#pragma once

#include <array>
#include <initializer_list>
#include <string_view>

namespace qatdoctor::core::model {

struct QOperatorLayout {
    std::string_view op;
    std::string_view domain;      // "" (ONNX) or "com.microsoft"
    std::string_view floatOp;     // the float op it quantizes
    std::array<int, 2> operands;  // input index of each operand's tensor (-1: none)
    int weightOperand = -1;       // which of `operands` is a weight (0 or 1; -1: none)
    int bias = -1;                // input index of the int32 bias (-1: none)
    int outScale = -1;            // input index of the output scale (zero point after it)
    bool concat = false;          // QLinearConcat: output at 0, then (tensor, scale, zp) triples
    std::array<std::string_view, 6> attributes;  // the float op's attributes it carries ("" = none)
};

// The layout of a node's op, or null. Contrib ops match in domain com.microsoft only.
const QOperatorLayout* qoperatorLayout(std::string_view op, std::string_view domain);

}  // namespace qatdoctor::core::model
