// Graph-level quantization facts the lints need beyond the layer table: which activation
// quantizers share one scale, which sit at their initial scale, which reach no output, and
// which float ops sit between quantized ones. Rules as in tests/gen/onnx_facts.py.
#pragma once

#include <string>
#include <vector>

#include "core/model/layer_table.h"
#include "core/model/model_graph.h"

namespace qatdoctor::core::model {

struct QuantizerRef {
    int node = -1;
    std::string layer;  // the layer whose output it quantizes ("" = none), else use node name
};

struct SharedScaleGroup {
    std::string scaleSource;
    std::vector<QuantizerRef> quantizers;
};

struct GraphQuantFacts {
    int activationQuantizers = 0;
    std::vector<SharedScaleGroup> sharedScales;
    std::vector<QuantizerRef> defaultScale;    // scale 1.0 and zero point 0
    std::vector<QuantizerRef> deadQuantizers;  // quantize/dequantize nodes reaching no output
    std::vector<int> floatIslands;      // float op nodes between quantized ones (never shape arithmetic)
    std::vector<int> customGridSample;  // horizon::GridSample nodes
};

// layerOfNode: for each node id, the layer name it belongs to (compute op, its absorbed
// followers and its output quantizer), or "".
GraphQuantFacts computeGraphQuantFacts(const ModelGraph& g, const std::vector<std::string>& layerOfNode);

// The node -> layer name map for a table built from g (layers matched by source.node).
std::vector<std::string> layerNamesByNode(const ModelGraph& g, const std::vector<Layer>& layers);

}  // namespace qatdoctor::core::model
