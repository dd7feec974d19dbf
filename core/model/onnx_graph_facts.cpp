#include "core/model/onnx_graph_facts.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/model/fake_quantizers.h"
#include "core/model/onnx_quant.h"

namespace qatdoctor::core::model {
namespace {

int inputAt(const GraphNode& n, size_t i)
{
    return i < n.inputs.size() ? n.inputs[i] : -1;
}

bool isConstantOp(const GraphNode& n)
{
    return n.op == "Constant" || n.op == "ConstantOfShape";
}

// Ops that read only a tensor's shape, or make a tensor from nothing but attributes and shapes.
bool startsShapeArithmetic(const GraphNode& n)
{
    return n.op == "Shape" || n.op == "Size" || n.op == "Range" || isConstantOp(n);
}

// Shape arithmetic: Shape / Size and whatever computes only on their results and constants
// (Gather, Slice, Concat, Unsqueeze, Cast, Mul... on int64 shapes), plus any op whose outputs
// are declared integer or bool without being a quantizer. It computes sizes and indices, never
// feature maps, so it is no float fallback however close to a dequantizer it sits. One pass in
// graph order: ONNX requires producers before consumers.
std::vector<bool> shapeArithmeticNodes(const ModelGraph& g)
{
    std::vector<bool> shapeTensor(g.tensors().size(), false);
    std::vector<bool> shapeNode(g.nodes().size(), false);
    for (int i = 0; i < static_cast<int>(g.nodes().size()); ++i) {
        const GraphNode& n = g.node(i);
        bool isShape = startsShapeArithmetic(n);
        if (!isShape && !isQuantizeOp(n) && !isDequantizeOp(n)) {
            bool anyInput = false, allShape = true;
            for (int in : n.inputs) {
                if (in < 0 || g.isConst(in)) continue;
                anyInput = true;
                allShape = allShape && shapeTensor[static_cast<size_t>(in)];
            }
            bool integerOut = !n.outputs.empty();
            for (int out : n.outputs) {
                const DType d = out >= 0 ? g.tensor(out).dtype : DType::Unknown;
                integerOut = integerOut && (d == DType::Int64 || d == DType::Int32 || d == DType::Bool);
            }
            isShape = (anyInput && allShape) || integerOut;
        }
        if (!isShape) continue;
        shapeNode[static_cast<size_t>(i)] = true;
        for (int out : n.outputs)
            if (out >= 0) shapeTensor[static_cast<size_t>(out)] = true;
    }
    return shapeNode;
}

}  // namespace

std::vector<std::string> layerNamesByNode(const ModelGraph& g, const std::vector<Layer>& layers)
{
    std::unordered_map<std::string, int> byName;
    for (int i = 0; i < static_cast<int>(g.nodes().size()); ++i) byName.emplace(g.node(i).name, i);
    std::vector<std::string> out(g.nodes().size());
    for (const Layer& l : layers) {
        auto it = byName.find(l.source.node);
        if (it == byName.end()) continue;
        out[static_cast<size_t>(it->second)] = l.name;
        std::vector<int> absorbed;
        const int q = traceToOutputQuantizer(g, it->second, &absorbed);
        for (int a : absorbed) out[static_cast<size_t>(a)] = l.name;
        if (q >= 0) out[static_cast<size_t>(q)] = l.name;
    }
    return out;
}

GraphQuantFacts computeGraphQuantFacts(const ModelGraph& g, const std::vector<std::string>& layerOfNode)
{
    GraphQuantFacts f;
    const int n = static_cast<int>(g.nodes().size());
    auto ref = [&](int node) { return QuantizerRef{node, layerOfNode[static_cast<size_t>(node)]}; };

    std::map<std::string, std::vector<QuantizerRef>> byScale;  // ordered: stable output
    std::vector<std::string> scaleOrder;
    for (int i = 0; i < n; ++i) {
        if (!isActivationQuantizer(g, i)) continue;
        ++f.activationQuantizers;
        const GraphNode& q = g.node(i);
        // Other tools' fake quantizers learn their scales (1.0 is a bipolar gain, not an observer's
        // default) and share equal constants through the exporter's deduplication, not an observer:
        // neither signal is evidence for them.
        if (isFakeQuantizeOp(q)) continue;
        const std::string root = g.constRoot(inputAt(q, 1));
        if (!root.empty()) {
            if (byScale[root].empty()) scaleOrder.push_back(root);
            byScale[root].push_back(ref(i));
        }
        const auto scale = g.constValue(inputAt(q, 1));
        const auto zp = g.constValue(inputAt(q, 2));
        const bool unit =
            scale && !scale->values.empty() &&
            std::all_of(scale->values.begin(), scale->values.end(), [](double s) { return s == 1.0; });
        const bool zeroZp = inputAt(q, 2) < 0 || (zp && std::all_of(zp->values.begin(), zp->values.end(),
                                                                    [](double z) { return z == 0.0; }));
        if (unit && zeroZp) f.defaultScale.push_back(ref(i));
    }
    for (const std::string& root : scaleOrder)
        if (byScale[root].size() > 1) f.sharedScales.push_back({root, byScale[root]});

    const std::vector<bool> live = nodesReachingOutputs(g);
    for (int i = 0; i < n; ++i) {
        const GraphNode& node = g.node(i);
        if (!live[static_cast<size_t>(i)] && (isQuantizeOp(node) || isDequantizeOp(node)))
            f.deadQuantizers.push_back(ref(i));
        if (node.op == "GridSample" && node.domain == "horizon") f.customGridSample.push_back(i);
    }

    // Float islands: not a quantizer, pass-through, constant, layer or absorbed follower; fed by
    // a dequantizer; its result neither goes straight into quantizers nor is a graph output.
    const std::vector<bool> shapeArithmetic = shapeArithmeticNodes(g);
    for (int i = 0; i < n; ++i) {
        const GraphNode& node = g.node(i);
        if (isQuantizeOp(node) || isDequantizeOp(node) || isPassThroughOp(node) ||
            shapeArithmetic[static_cast<size_t>(i)])
            continue;
        if (!layerOfNode[static_cast<size_t>(i)].empty() || isLayerNode(g, i)) continue;
        bool fedByDq = false;
        for (int in : node.inputs) fedByDq = fedByDq || (in >= 0 && traceToDequantizer(g, in) >= 0);
        if (!fedByDq || node.outputs.empty() || node.outputs[0] < 0) continue;
        const auto& cons = g.consumers(node.outputs[0]);
        if (!cons.empty() &&
            std::all_of(cons.begin(), cons.end(), [&](int c) { return isQuantizeOp(g.node(c)); }))
            continue;
        if (g.tensor(node.outputs[0]).graphOutput) continue;
        f.floatIslands.push_back(i);
    }
    return f;
}

}  // namespace qatdoctor::core::model
