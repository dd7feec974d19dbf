// Quantizer ops of other quantization tools, float in and float out (fake quantization):
// QONNX's Quant / IntQuant, BipolarQuant, FloatQuant and Trunc as Brevitas, FINN and the QKeras
// converter write them, in any of the domains those tools have used (onnx.brevitas,
// qonnx.custom_op.general, finn.custom_op.general, finn) and with or without an opset_import.
// Their parameters are inputs (scale, zero point, bit width, exponent and mantissa widths),
// often shared between nodes by the exporter's constant deduplication.
//
// Ops that look like a quantizer (the word "quant" in the op or its domain) but are none of the
// ones this reader or onnx_quant.h knows are reported, not read: model.unknown_quantizer.
#pragma once

#include <optional>
#include <string_view>

#include "core/model/layer_table.h"
#include "core/model/model_graph.h"

namespace qatdoctor::core::model {

bool isFakeQuantizeOp(const GraphNode& n);
// The quantizer's grid: dtype (the narrowest integer type holding its levels, or a float8
// type), every scale with its axis, zero points, the exact range when narrower than the dtype,
// and the bit width. nullopt when n is not a fake quantizer.
std::optional<QuantParams> readFakeQuantizer(const ModelGraph& g, const GraphNode& n);
// Just its dtype (no scale or zero point decoded); Unknown when n is not a fake quantizer.
DType fakeQuantizerDtype(const ModelGraph& g, const GraphNode& n);
// A node whose op or domain says "quant" that no reader of ours understands.
bool isUnknownQuantizerOp(const GraphNode& n);

}  // namespace qatdoctor::core::model
