// How quantization shows up in ONNX graphs, in every form users export:
// - QuantizeLinear / DequantizeLinear (opset 10-21; per-tensor and per-axis; dtype = the zero
//   point's element type; opset 21 output_dtype attribute; without either, a DequantizeLinear
//   has its input's type and a QuantizeLinear is uint8);
// - PyTorch's reduced range written as QuantizeLinear -> Clip(lo, hi) -> DequantizeLinear;
// - the toolchain's horizon::HzQuantize / HzDequantize with a `bits` attribute (8 / 16);
// - the QOperator ops, quantized in and out: QLinearConv / QLinearMatMul and ONNX Runtime's
//   com.microsoft contrib ops (core/model/qoperator_layout.h);
// - other tools' fake quantizers, float in and out (QONNX Quant, BipolarQuant, FloatQuant:
//   core/model/fake_quantizers.h), which are both a quantize and a dequantize op;
// - Cast to float16 between float ops.
// The walking rules below are the ones tests/gen/onnx_facts.py states for the fixtures.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/model/layer_table.h"
#include "core/model/model_graph.h"

namespace qatdoctor::core::model {

bool isQuantizeOp(const GraphNode& n);    // QuantizeLinear, HzQuantize, a fake quantizer
bool isDequantizeOp(const GraphNode& n);  // DequantizeLinear, HzDequantize, a fake quantizer
// Ops that keep the quantization of their input (MaxPool, Flatten, Reshape, Transpose, ...).
bool isPassThroughOp(const GraphNode& n);
// Ops absorbed into the preceding compute op: core/model/fusion.h's affine followers and
// activations (BatchNormalization, constant Div/Add..., Relu, LeakyRelu, Sigmoid...).
bool isFollowerOp(const GraphNode& n);
bool isQLinearLayerOp(const GraphNode& n);  // a QOperator op: core/model/qoperator_layout.h

struct QuantizerInfo {
    int node = -1;
    QuantParams params;     // dtype, scales, zero points, axis (-1 per-tensor), qmin/qmax from Clip
    std::string scaleRoot;  // initializer / Constant the scale comes from (shared observers)
};

// Reads a quantize / dequantize node's parameters (scale and zero point decoded).
QuantizerInfo readQuantizer(const ModelGraph& g, int node);
// Just the dtype of a quantize / dequantize node (nothing decoded unless the type is unknown).
DType quantizerDtype(const ModelGraph& g, int node);
// Parameters of a QLinear op's operand: scale at input scaleIdx, zero point at scaleIdx + 1.
QuantParams readQLinearOperand(const ModelGraph& g, const GraphNode& n, size_t scaleIdx, int perChannelAxis);

// A dequantizer of a constant (a weight or a bias): DQ(const), or DQ(Q(const)) / DQ(Clip(Q(const))).
bool isConstantDequantize(const ModelGraph& g, int dqNode);
// The dequantizer of a constant that reaches `tensor` through shape-only ops (an exporter's
// Transpose of a quantized weight before a MatMul), or -1.
int constantDequantizerOf(const ModelGraph& g, int tensor);
// A value fixed at export: a constant, or a dequantized constant (a quantized weight or bias).
bool isConstantValue(const ModelGraph& g, int tensor);
// An activation quantizer: a quantize node whose input is not a constant.
bool isActivationQuantizer(const ModelGraph& g, int node);
// Walks back from a tensor through pass-through ops to the dequantizer it comes from (-1: none).
// A Cast to float16 / bfloat16 ends the walk: past it the tensor is half precision on purpose.
int traceToDequantizer(const ModelGraph& g, int tensor);
// From a node's first output, follows single consumers through follower ops (constant operands
// only for Div/Add/Mul/Sub) to the quantizer that quantizes it. absorbed = follower node ids.
int traceToOutputQuantizer(const ModelGraph& g, int node, std::vector<int>* absorbed);
// A "layer": Conv / ConvTranspose / Gemm / MatMul, QLinear ops, GridSample, and Add / Mul / Sub /
// Concat of two or more non-constant inputs.
bool isLayerNode(const ModelGraph& g, int node);
// How a graph is quantized, by the first quantizer form found in this order: "dynamic" (ONNX
// Runtime's DynamicQuantizeLinear and integer products), "qoperator" (QLinear ops), "qonnx" (other
// tools' fake quantizers), "horizon" (HzQuantize), "qdq" (QuantizeLinear / DequantizeLinear),
// "unknown" (ops that look like quantizers and are none of these), else kNotQuantized.
std::string quantizationForm(const ModelGraph& g);
// Nodes from which some graph output is reachable.
std::vector<bool> nodesReachingOutputs(const ModelGraph& g);

}  // namespace qatdoctor::core::model
