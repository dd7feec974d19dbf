// The per-layer table of an ONNX model: each compute op with its weight quantizer, input dtypes
// and output quantizer, as core/model/layer_table.h defines it.
//
// Layer names: the exporter's module path ("/layer1/conv/Conv" -> "layer1.conv"); for
// FloatFunctional calls, which carry no scope, the module named by their output quantizer's
// scale ("add.activation_post_process.scale" -> "add"); else the node name. A name used twice
// gets the node name appended ("add (/Add_1)").
//
// Flags set here: "graph_output" (its result reaches a graph output), "fused" (followers such
// as Relu/BN absorbed), "reduced_range" (Quantize -> Clip -> Dequantize), "shared_scale",
// "default_scale" (scale 1, zero point 0), "dead" (reaches no graph output), "custom_op"
// (non-standard domain), "float_weight" (weighted op with an unquantized weight).
#pragma once

#include <memory>
#include <string>

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/model/layer_table.h"
#include "core/model/model_graph.h"

namespace qatdoctor::core::model {

// Builds the table over an indexed graph (the table keeps the graph). Never fails; unreadable
// quantizer parameters become warnings.
LayerTable buildLayerTable(std::shared_ptr<const ModelGraph> graph);

// readOnnxFile + ModelGraph::build + buildLayerTable. Errors as readOnnxFile, plus
// "onnx.external_escape" / "onnx.external_missing" / "onnx.tensor_size" when an external-data
// location is unsafe or its file is too short (checked up front, without reading the data).
Result<LayerTable> loadOnnxLayerTable(const std::string& path, const ProgressFn& progress = {});

// Checks every external-data initializer of the model: location confined to the model's folder,
// file present and long enough. Nothing is read.
Result<void> checkExternalData(const OnnxModel& model);

}  // namespace qatdoctor::core::model
