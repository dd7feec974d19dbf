// Printed PyTorch modules (`print(model)` text): the probe, the tree parser, argument and number
// splitting, the layer table built from the tree and the model lints run on it, and the table
// compared with itself and with its second half (renamed rows matched by position).
#include <cstddef>
#include <cstdint>
#include <set>
#include <string_view>

#include "core/artifacts/printed_layers.h"
#include "core/artifacts/printed_module.h"
#include "core/compare/layer_diff.h"
#include "core/model/model_lints.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::artifacts;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = parsePrintedModule(text, "fuzz.txt");
    if (!parsed) return 0;
    for (size_t i = 0; i < parsed->nodes.size(); ++i) {
        (void)parsed->path(static_cast<int>(i));
        const ArgList args = splitArgs(parsed->nodes[i].args);
        for (const auto& [key, value] : args.named) (void)parseNumbers(value);
    }
    const model::LayerTable table = layersFromPrinted(*parsed, "fuzz.txt");
    std::vector<Finding> findings;
    std::set<std::string> evaluated;
    model::runModelLints(table, {}, findings, evaluated);
    (void)compare::diffLayerTables(table, table);
    model::LayerTable half = table;
    half.layers.erase(half.layers.begin(),
                      half.layers.begin() + static_cast<std::ptrdiff_t>(half.layers.size() / 2));
    for (model::Layer& l : half.layers) l.name += "_renamed";
    (void)compare::diffLayerTables(table, half);
    return 0;
}
