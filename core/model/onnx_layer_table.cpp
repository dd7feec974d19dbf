#include "core/model/onnx_layer_table.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/model/dynamic_quant.h"
#include "core/model/fake_quantizers.h"
#include "core/model/fusion.h"
#include "core/model/onnx_quant.h"
#include "core/model/qoperator_layout.h"

namespace qatdoctor::core::model {
namespace {

int inputAt(const GraphNode& n, size_t i)
{
    return i < n.inputs.size() ? n.inputs[i] : -1;
}

bool isWeightedOp(const GraphNode& n)
{
    return fusionRole(n.op) == FusionRole::Compute;
}

// A float type reached through a Cast to float16/bfloat16 (the toolchain's fp16 form) wins over
// the float32 the tensor carries afterwards.
DType floatDtypeOf(const ModelGraph& g, int tensor)
{
    int t = tensor;
    for (int hops = 0; hops < 32 && t >= 0; ++hops) {
        const int p = g.producer(t);
        if (p < 0) break;
        const GraphNode& n = g.node(p);
        if (n.op == "Cast") {
            const DType to = dtypeFromOnnx(static_cast<int32_t>(ModelGraph::attrInt(n, "to").value_or(0)));
            if (to == DType::Float16 || to == DType::BFloat16) return to;
        }
        if (!isPassThroughOp(n)) break;
        t = inputAt(n, 0);
    }
    const DType d = tensor >= 0 ? g.tensor(tensor).dtype : DType::Unknown;
    return isFloat(d) ? d : DType::Float32;
}

// The output side of a non-QLinear layer: a Cast to float16 right after it marks fp16 output.
DType castAfter(const ModelGraph& g, int node, const std::vector<int>& absorbed)
{
    const GraphNode& last = g.node(absorbed.empty() ? node : absorbed.back());
    if (last.outputs.empty()) return DType::Unknown;
    const auto& cons = g.consumers(last.outputs[0]);
    if (cons.size() != 1 || g.node(cons[0]).op != "Cast") return DType::Unknown;
    const DType to =
        dtypeFromOnnx(static_cast<int32_t>(ModelGraph::attrInt(g.node(cons[0]), "to").value_or(0)));
    return to == DType::Float16 || to == DType::BFloat16 ? to : DType::Unknown;
}

// Conv / ConvTranspose / Gemm take (data, weight, bias) by position. MatMul has no fixed weight
// side: an operand that is a constant (or a dequantized constant) is its weight, two activations
// (attention) are both data. Every other layer op takes data only.
enum class InputRole { Data, Weight, Bias };

InputRole inputRole(const ModelGraph& g, const GraphNode& n, size_t idx)
{
    if (n.op == "MatMul")
        return idx == 1 && isConstantValue(g, inputAt(n, 1)) ? InputRole::Weight : InputRole::Data;
    if (!isWeightedOp(n)) return InputRole::Data;
    return idx == 0 ? InputRole::Data : idx == 1 ? InputRole::Weight : InputRole::Bias;
}

// A QOperator op's operands by role (core/model/qoperator_layout.h): data operands give the input
// dtypes, the weight its quantization (per output channel: axis 0 of a conv weight, the column
// axis of a matrix, or axis 0 of a transposed QGemm weight), the int32 bias a flag, and the
// output scale the output quantization (QGemm without one computes in float).
void readQOperator(const ModelGraph& g, const GraphNode& n, const QOperatorLayout& q, Layer& l)
{
    auto present = [&](int i) { return i >= 0 && inputAt(n, static_cast<size_t>(i)) >= 0; };
    if (q.concat) {
        for (size_t i = 2; i + 2 < n.inputs.size(); i += 3)
            l.inputDtypes.push_back(readQLinearOperand(g, n, i + 1, -1).dtype);
    }
    for (size_t k = 0; k < q.operands.size(); ++k) {
        const int at = q.operands[k];
        if (!present(at)) continue;
        const size_t scale = static_cast<size_t>(at) + 1;
        const bool weight = static_cast<int>(k) == q.weightOperand &&
                            (n.op != "QLinearMatMul" || g.isConst(inputAt(n, static_cast<size_t>(at))));
        if (!weight) {
            l.inputDtypes.push_back(readQLinearOperand(g, n, scale, -1).dtype);
            continue;
        }
        const bool transposed = n.op == "QGemm" && ModelGraph::attrInt(n, "transB").value_or(0) != 0;
        const int axis = n.op == "QLinearConv" || transposed ? 0 : 1;
        QuantParams w = readQLinearOperand(g, n, scale, axis);
        w.scaleSource = g.constRoot(inputAt(n, scale));
        l.weightDtype = w.dtype;
        l.weightQuant = std::move(w);
    }
    if (present(q.bias))
        l.flags.push_back(std::string("bias_") +
                          dtypeName(g.tensor(inputAt(n, static_cast<size_t>(q.bias))).dtype));
    if (!present(q.outScale)) {
        l.outputDtype = DType::Float32;
        return;
    }
    QuantParams y = readQLinearOperand(g, n, static_cast<size_t>(q.outScale), -1);
    y.scaleSource = g.constRoot(inputAt(n, static_cast<size_t>(q.outScale)));
    l.outputDtype = y.dtype;
    l.outputQuant = std::move(y);
}

struct Built {
    Layer layer;
    int outputQuantizer = -1;
    std::vector<int> absorbed;
    std::vector<std::string> parameters;  // constants it reads (weight, bias): names for naming
};

// The constant a weight or bias operand comes from, through its quantizers: its name.
std::string parameterName(const ModelGraph& g, int tensor)
{
    for (int hops = 0; hops < 8 && tensor >= 0; ++hops) {
        if (g.isConst(tensor)) return g.constRoot(tensor);
        const int p = g.producer(tensor);
        if (p < 0) break;
        const GraphNode& n = g.node(p);
        if (!isDequantizeOp(n) && !isQuantizeOp(n) && n.op != "Clip") break;
        tensor = inputAt(n, 0);
    }
    return {};
}

// The output side of a layer whose last node is `last`: a follower chain to an output quantizer
// (its dtype and scale), else the float type it computes in.
void readOutputSide(const ModelGraph& g, int last, Built& b)
{
    Layer& l = b.layer;
    b.outputQuantizer = traceToOutputQuantizer(g, last, &b.absorbed);
    if (b.outputQuantizer >= 0) {
        QuantizerInfo q = readQuantizer(g, b.outputQuantizer);
        q.params.scaleSource = q.scaleRoot;
        l.outputDtype = q.params.dtype;
        if (q.params.qmin || q.params.qmax) l.flags.push_back("reduced_range");
        l.outputQuant = std::move(q.params);
    } else {
        const DType cast = castAfter(g, last, b.absorbed);
        const int end = b.absorbed.empty() ? last : b.absorbed.back();
        const auto& outs = g.node(end).outputs;
        l.outputDtype = cast != DType::Unknown ? cast : floatDtypeOf(g, outs.empty() ? -1 : outs[0]);
    }
    if (!b.absorbed.empty()) l.flags.push_back("fused");
}

// MatMulInteger / ConvInteger with its rescale chain (core/model/dynamic_quant.h): the input's
// codes (uint8 from DynamicQuantizeLinear: flagged dynamic), the weight's codes and scales, the
// float result.
void readIntegerProductLayer(const ModelGraph& g, int id, Built& b)
{
    Layer& l = b.layer;
    const IntegerProduct ip = readIntegerProduct(g, id);
    l.inputDtypes.push_back(ip.inputDtype);
    if (ip.dynamic) l.flags.push_back("dynamic");
    if (ip.weightQuant) {
        l.weightDtype = ip.weightQuant->dtype;
        l.weightQuant = ip.weightQuant;
        b.parameters.push_back(g.tensor(ip.weight).name);
    }
    if (ip.bias >= 0) {
        l.flags.push_back(std::string("bias_") + dtypeName(g.tensor(ip.bias).dtype));
        b.parameters.push_back(g.tensor(ip.bias).name);
    }
    b.absorbed = ip.rescale;
    readOutputSide(g, ip.rescale.empty() ? id : ip.rescale.back(), b);
}

Built buildLayer(const ModelGraph& g, int id)
{
    const GraphNode& n = g.node(id);
    Built b;
    Layer& l = b.layer;
    l.op = n.domain.empty() ? n.op : n.domain + "::" + n.op;
    l.source.file = g.model().path;
    l.source.node = n.name;
    for (int t : n.inputs) l.inputs.push_back(t >= 0 ? g.tensor(t).name : std::string());
    for (int t : n.outputs) l.outputs.push_back(t >= 0 ? g.tensor(t).name : std::string());

    if (const QOperatorLayout* q = qoperatorLayout(n.op, n.domain)) {
        readQOperator(g, n, *q, l);
        return b;
    }
    if (isIntegerProductOp(n)) {
        readIntegerProductLayer(g, id, b);
        return b;
    }

    for (size_t idx = 0; idx < n.inputs.size(); ++idx) {
        const int t = n.inputs[idx];
        if (t < 0) continue;
        const int p = constantDequantizerOf(g, t);
        const bool constDq = p >= 0;
        switch (inputRole(g, n, idx)) {
            case InputRole::Weight:
                b.parameters.push_back(parameterName(g, t));
                if (constDq) {
                    QuantizerInfo q = readQuantizer(g, p);
                    q.params.scaleSource = q.scaleRoot;
                    l.weightDtype = q.params.dtype;
                    l.weightQuant = std::move(q.params);
                } else {
                    l.weightDtype = isFloat(g.tensor(t).dtype) ? g.tensor(t).dtype : DType::Float32;
                    l.flags.push_back("float_weight");
                }
                break;
            case InputRole::Bias:  // a converted bias is a DequantizeLinear of int32 codes
                b.parameters.push_back(parameterName(g, t));
                if (constDq) l.flags.push_back(std::string("bias_") + dtypeName(quantizerDtype(g, p)));
                break;
            case InputRole::Data: {
                const int dq = traceToDequantizer(g, t);
                l.inputDtypes.push_back(dq >= 0 ? quantizerDtype(g, dq) : floatDtypeOf(g, t));
                break;
            }
        }
    }

    readOutputSide(g, id, b);
    return b;
}

// For each graph output, the layer it comes from (walking back through dequantizers,
// pass-through and follower ops, or the layer's own output quantizer).
std::unordered_set<size_t> outputLayerIndices(const ModelGraph& g, const std::vector<Built>& built,
                                              const std::vector<int>& layerNodes)
{
    std::unordered_map<int, size_t> byNode, byQuantizer;
    for (size_t i = 0; i < built.size(); ++i) {
        byNode[layerNodes[i]] = i;
        if (built[i].outputQuantizer >= 0) byQuantizer[built[i].outputQuantizer] = i;
    }
    std::unordered_set<size_t> found;
    for (int out : g.graphOutputs()) {
        int t = out;
        for (int hops = 0; hops < 32; ++hops) {
            const int p = g.producer(t);
            if (p < 0) break;
            if (auto it = byNode.find(p); it != byNode.end()) {
                found.insert(it->second);
                break;
            }
            const GraphNode& n = g.node(p);
            if (auto it = byQuantizer.find(p); it != byQuantizer.end()) {
                found.insert(it->second);
                break;
            }
            if (!(isDequantizeOp(n) || isPassThroughOp(n) || isFollowerOp(n))) break;
            t = inputAt(n, 0);
        }
    }
    return found;
}

void nameLayers(std::vector<Built>& built)
{
    std::map<std::string, int> uses;
    for (Built& b : built) {
        Layer& l = b.layer;
        l.name = layerModuleName(l.source.node, l.outputQuant ? l.outputQuant->scaleSource : std::string(),
                                 b.parameters);
        if (l.name.empty()) l.name = l.source.node;
        if (uses[l.name]++ > 0) l.name += " (" + l.source.node + ")";
    }
}

}  // namespace

LayerTable buildLayerTable(std::shared_ptr<const ModelGraph> graph)
{
    const ModelGraph& g = *graph;
    LayerTable table;
    table.sourcePath = g.model().path;
    table.format = "onnx";
    table.opset = g.model().opset;
    const auto& proto = *g.model().proto;
    table.producer = proto.producer_name();
    if (!proto.producer_version().empty()) table.producer += " " + proto.producer_version();
    for (int t : g.graphInputs()) table.graphInputs.push_back(g.tensor(t).name);
    for (int t : g.graphOutputs()) table.graphOutputs.push_back(g.tensor(t).name);
    table.warnings = g.warnings();
    table.quantization = quantizationForm(g);

    std::vector<int> layerNodes;
    std::vector<Built> built;
    std::unordered_set<int> inLayer;  // nodes a layer before absorbed (a dynamic layer's rescale Mul)
    for (int i = 0; i < static_cast<int>(g.nodes().size()); ++i)
        if (isLayerNode(g, i) && !inLayer.count(i)) {
            layerNodes.push_back(i);
            built.push_back(buildLayer(g, i));
            inLayer.insert(built.back().absorbed.begin(), built.back().absorbed.end());
        }

    // Observers shared between activation quantizers (FloatFunctional called twice).
    std::unordered_map<std::string, int> quantizersPerScale;
    for (int i = 0; i < static_cast<int>(g.nodes().size()); ++i)
        if (isActivationQuantizer(g, i) && !isFakeQuantizeOp(g.node(i))) {  // see onnx_graph_facts.cpp
            const std::string root = g.constRoot(inputAt(g.node(i), 1));
            if (!root.empty()) ++quantizersPerScale[root];
        }
    const std::vector<bool> live = nodesReachingOutputs(g);
    const auto outputs = outputLayerIndices(g, built, layerNodes);
    for (size_t i = 0; i < built.size(); ++i) {
        Layer& l = built[i].layer;
        const GraphNode& n = g.node(layerNodes[i]);
        if (outputs.count(i)) l.flags.push_back("graph_output");
        if (!n.domain.empty() && !qoperatorLayout(n.op, n.domain)) l.flags.push_back("custom_op");
        if (!live[static_cast<size_t>(layerNodes[i])]) l.flags.push_back("dead");
        const int outQ = built[i].outputQuantizer;
        if (l.outputQuant && (outQ < 0 || !isFakeQuantizeOp(g.node(outQ)))) {
            const QuantParams& q = *l.outputQuant;
            if (!q.scaleSource.empty() && quantizersPerScale[q.scaleSource] > 1)
                l.flags.push_back("shared_scale");
            const bool unitScale = !q.scales.empty() && std::all_of(q.scales.begin(), q.scales.end(),
                                                                    [](float s) { return s == 1.0f; });
            const bool zeroZp =
                std::all_of(q.zeroPoints.begin(), q.zeroPoints.end(), [](int64_t z) { return z == 0; });
            if (unitScale && zeroZp) l.flags.push_back("default_scale");
        }
    }
    nameLayers(built);
    table.layers.reserve(built.size());
    for (Built& b : built) table.layers.push_back(std::move(b.layer));
    table.graph = std::move(graph);
    return table;
}

Result<void> checkExternalData(const OnnxModel& model)
{
    for (const auto& init : model.proto->graph().initializer()) {
        Result<void> r = checkExternalTensor(model, init);
        if (!r) return r;
    }
    return Ok{};
}

Result<LayerTable> loadOnnxLayerTable(const std::string& path, const ProgressFn& progress)
{
    auto sub = [&](double from, double to) {
        return ProgressFn([&progress, from, to](double f, std::string_view stage) {
            return reportProgress(progress, from + f * (to - from), stage);
        });
    };
    auto model = readOnnxFile(path, sub(0.0, 0.7));
    if (!model) return model.error();
    if (Result<void> ext = checkExternalData(*model); !ext) return ext.error();
    auto graph = ModelGraph::build(std::move(*model), sub(0.7, 0.85));
    if (!graph) return graph.error();
    if (!reportProgress(progress, 0.85, "building the layer table"))
        return makeError(kCancelledCode, "cancelled", path);
    LayerTable table = buildLayerTable(std::move(*graph));
    reportProgress(progress, 1.0, "layer table built");
    return table;
}

}  // namespace qatdoctor::core::model
