// ONNX loading and everything run on a loaded model: graph indexing, the layer table, the lints,
// the graph layout and per-layer weights (tensor values in every storage). External data is
// refused (folder "") so the harness never touches the file system.
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string_view>

#include "core/model/graph_layout.h"
#include "core/model/layer_weights.h"
#include "core/model/model_graph.h"
#include "core/model/model_lints.h"
#include "core/model/onnx_file.h"
#include "core/model/onnx_layer_table.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::model;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto model = parseOnnx(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.onnx", "");
    if (!model) return 0;
    for (const auto& t : model->proto->graph().initializer()) {
        (void)tensorAsFloats(*model, t);
        (void)tensorAsInts(*model, t);
    }
    auto graph = ModelGraph::build(*model);
    if (!graph) return 0;
    LayerTable table = buildLayerTable(*graph);
    std::vector<Finding> findings;
    std::set<std::string> evaluated;
    runModelLints(table, {}, findings, evaluated);
    (void)layoutGraph(table, LayoutOptions{});
    for (const Layer& layer : table.layers) (void)readLayerWeights(table, layer);
    return 0;
}
