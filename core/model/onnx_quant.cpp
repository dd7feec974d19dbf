#include "core/model/onnx_quant.h"

#include <array>
#include <unordered_set>

#include "core/model/dynamic_quant.h"
#include "core/model/fake_quantizers.h"
#include "core/model/fusion.h"
#include "core/model/qoperator_layout.h"

namespace qatdoctor::core::model {
namespace {

bool opIn(const GraphNode& n, std::initializer_list<std::string_view> ops)
{
    for (std::string_view op : ops)
        if (n.op == op) return true;
    return false;
}

int inputAt(const GraphNode& n, size_t i)
{
    return i < n.inputs.size() ? n.inputs[i] : -1;
}

DType hzBits(const ModelGraph& g, const GraphNode& n)
{
    auto bits = ModelGraph::attrInt(n, "bits");
    if (!bits) {  // HzDequantize carries no bits: take them from its HzQuantize
        const int p = g.producer(inputAt(n, 0));
        if (p >= 0) bits = ModelGraph::attrInt(g.node(p), "bits");
    }
    if (!bits) return DType::Unknown;
    return *bits == 8    ? DType::Int8
           : *bits == 16 ? DType::Int16
           : *bits == 32 ? DType::Int32
                         : DType::Unknown;
}

DType tensorElementType(const ModelGraph& g, int t)
{
    if (t < 0) return DType::Unknown;
    // Declared / propagated types are exact for initializers, Constant, Identity and Cast; only
    // decode the value when they are unknown.
    if (g.tensor(t).dtype != DType::Unknown) return g.tensor(t).dtype;
    if (auto v = g.constValue(t, 1u << 16)) return v->dtype;
    return DType::Unknown;
}

// A Cast to float16 / bfloat16: what follows computes in half precision on purpose (horizon's
// FakeCast(torch.float16) exports this way), so it is not a dequantized activation any more.
bool isHalfCast(const GraphNode& n)
{
    if (n.op != "Cast") return false;
    const DType to = dtypeFromOnnx(static_cast<int32_t>(ModelGraph::attrInt(n, "to").value_or(0)));
    return to == DType::Float16 || to == DType::BFloat16;
}

// QuantizeLinear / DequantizeLinear without an output_dtype: the zero point's type. Opset 21
// lets both omit the zero point; the DequantizeLinear then has its input's type (the type its
// QuantizeLinear's output_dtype gave), the QuantizeLinear without either is uint8.
DType standardQuantizerDtype(const ModelGraph& g, const GraphNode& n)
{
    const int zp = inputAt(n, 2);
    if (zp >= 0) return tensorElementType(g, zp);
    if (n.op == "DequantizeLinear") {
        const DType in = tensorElementType(g, inputAt(n, 0));
        if (isInteger(in)) return in;
    }
    return DType::UInt8;
}

}  // namespace

bool isQuantizeOp(const GraphNode& n)
{
    return opIn(n, {"QuantizeLinear", "HzQuantize"}) || isFakeQuantizeOp(n);
}
bool isDequantizeOp(const GraphNode& n)
{
    return opIn(n, {"DequantizeLinear", "HzDequantize"}) || isFakeQuantizeOp(n);
}

bool isPassThroughOp(const GraphNode& n)
{
    return opIn(n, {"MaxPool", "GlobalAveragePool", "AveragePool", "Flatten", "Reshape", "Transpose",
                    "Squeeze", "Unsqueeze", "Identity", "Cast", "Clip"});
}

bool isFollowerOp(const GraphNode& n)
{
    return isFusedFollower(n.op);
}

bool isQLinearLayerOp(const GraphNode& n)
{
    return qoperatorLayout(n.op, n.domain) != nullptr;
}

DType quantizerDtype(const ModelGraph& g, int node)
{
    const GraphNode& n = g.node(node);
    if (n.op == "HzQuantize" || n.op == "HzDequantize") return hzBits(g, n);
    if (isFakeQuantizeOp(n)) return fakeQuantizerDtype(g, n);
    if (auto o = ModelGraph::attrInt(n, "output_dtype"); o && *o != 0)
        return dtypeFromOnnx(static_cast<int32_t>(*o));
    return standardQuantizerDtype(g, n);
}

QuantizerInfo readQuantizer(const ModelGraph& g, int node)
{
    const GraphNode& n = g.node(node);
    QuantizerInfo info;
    info.node = node;
    if (auto fake = readFakeQuantizer(g, n)) {
        info.params = std::move(*fake);
        info.scaleRoot = info.params.scaleSource;
        return info;
    }
    QuantParams& q = info.params;
    q.observer = n.op;
    const int scaleT = inputAt(n, 1);
    const int zpT = inputAt(n, 2);
    info.scaleRoot = g.constRoot(scaleT);
    if (auto s = g.constValue(scaleT)) q.scales.assign(s->values.begin(), s->values.end());
    if (auto z = g.constValue(zpT))
        for (double v : z->values) q.zeroPoints.push_back(static_cast<int64_t>(v));
    const bool hz = n.op == "HzQuantize" || n.op == "HzDequantize";
    if (hz) {
        q.dtype = hzBits(g, n);
    } else if (auto o = ModelGraph::attrInt(n, "output_dtype"); o && *o != 0) {
        q.dtype = dtypeFromOnnx(static_cast<int32_t>(*o));  // opset 21 without a zero point
    } else {
        q.dtype = standardQuantizerDtype(g, n);
    }
    if (q.scales.size() > 1) {
        const auto axis = ModelGraph::attrInt(n, "axis");
        q.axis = static_cast<int>(axis.value_or(hz ? 0 : 1));
        if (q.axis < 0) {  // negative axes count from the end of the quantized tensor's rank
            const auto dims = g.constDims(inputAt(n, 0));
            if (!dims.empty()) q.axis += static_cast<int>(dims.size());
        }
    }
    if (isQuantizeOp(n) && !n.outputs.empty()) {
        const auto& cons = g.consumers(n.outputs[0]);
        if (cons.size() == 1 && g.node(cons[0]).op == "Clip") {
            const GraphNode& clip = g.node(cons[0]);
            if (auto lo = g.constValue(inputAt(clip, 1)); lo && lo->values.size() == 1)
                q.qmin = static_cast<int64_t>(lo->values[0]);
            if (auto hi = g.constValue(inputAt(clip, 2)); hi && hi->values.size() == 1)
                q.qmax = static_cast<int64_t>(hi->values[0]);
            if (auto lo = ModelGraph::attrFloat(clip, "min"))
                q.qmin = static_cast<int64_t>(*lo);  // opset < 11
            if (auto hi = ModelGraph::attrFloat(clip, "max")) q.qmax = static_cast<int64_t>(*hi);
        }
    }
    return info;
}

QuantParams readQLinearOperand(const ModelGraph& g, const GraphNode& n, size_t scaleIdx, int perChannelAxis)
{
    QuantParams q;
    q.observer = n.op;
    if (auto s = g.constValue(inputAt(n, scaleIdx))) q.scales.assign(s->values.begin(), s->values.end());
    const int zp = inputAt(n, scaleIdx + 1);
    if (auto z = g.constValue(zp))
        for (double v : z->values) q.zeroPoints.push_back(static_cast<int64_t>(v));
    q.dtype = zp >= 0 ? tensorElementType(g, zp) : DType::UInt8;
    if (q.scales.size() > 1) q.axis = perChannelAxis;
    return q;
}

bool isConstantDequantize(const ModelGraph& g, int dqNode)
{
    const int src = inputAt(g.node(dqNode), 0);
    if (g.isConst(src)) return true;
    int p = g.producer(src);
    if (p >= 0 && g.node(p).op == "Clip") p = g.producer(inputAt(g.node(p), 0));
    return p >= 0 && isQuantizeOp(g.node(p)) && g.isConst(inputAt(g.node(p), 0));
}

int constantDequantizerOf(const ModelGraph& g, int tensor)
{
    for (int hops = 0; hops < 8 && tensor >= 0; ++hops) {
        const int p = g.producer(tensor);
        if (p < 0) return -1;
        const GraphNode& n = g.node(p);
        if (isDequantizeOp(n)) return isConstantDequantize(g, p) ? p : -1;
        if (!opIn(n, {"Transpose", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity"})) return -1;
        tensor = inputAt(n, 0);
    }
    return -1;
}

bool isConstantValue(const ModelGraph& g, int tensor)
{
    return tensor >= 0 && (g.isConst(tensor) || constantDequantizerOf(g, tensor) >= 0);
}

bool isActivationQuantizer(const ModelGraph& g, int node)
{
    const GraphNode& n = g.node(node);
    return isQuantizeOp(n) && !g.isConst(inputAt(n, 0));
}

int traceToDequantizer(const ModelGraph& g, int tensor)
{
    for (int hops = 0; hops < 32; ++hops) {
        const int p = g.producer(tensor);
        if (p < 0) return -1;
        const GraphNode& n = g.node(p);
        if (isDequantizeOp(n)) return p;
        if (!isPassThroughOp(n) || isHalfCast(n)) return -1;
        tensor = inputAt(n, 0);
    }
    return -1;
}

int traceToOutputQuantizer(const ModelGraph& g, int node, std::vector<int>* absorbed)
{
    const GraphNode& start = g.node(node);
    if (start.outputs.empty()) return -1;
    int t = start.outputs[0];
    for (int hops = 0; hops < 16 && t >= 0; ++hops) {
        if (g.tensor(t).graphOutput) return -1;
        const auto& cons = g.consumers(t);
        if (cons.size() != 1) return -1;
        const GraphNode& c = g.node(cons[0]);
        if (isQuantizeOp(c)) return cons[0];
        if (!isFollowerOp(c)) return -1;
        if (needsConstantOperand(c.op)) {
            bool anyConst = false;  // a bias, quantized or not
            for (int in : c.inputs) anyConst = anyConst || isConstantValue(g, in);
            if (!anyConst) return -1;  // a binary op between two activations is a layer of its own
        }
        if (absorbed) absorbed->push_back(cons[0]);
        t = c.outputs.empty() ? -1 : c.outputs[0];
    }
    return -1;
}

bool isLayerNode(const ModelGraph& g, int node)
{
    const GraphNode& n = g.node(node);
    if (fusionRole(n.op) == FusionRole::Compute || n.op == "GridSample" || isQLinearLayerOp(n) ||
        isIntegerProductOp(n))
        return true;
    if (opIn(n, {"Add", "Mul", "Sub", "Concat"})) {
        int activations = 0;
        for (int in : n.inputs)
            if (in >= 0 && !isConstantValue(g, in)) ++activations;
        return activations >= 2;
    }
    return false;
}

std::string quantizationForm(const ModelGraph& g)
{
    struct Form {
        const char* name;
        bool (*matches)(const GraphNode&);
    };
    static constexpr std::array<Form, 6> kForms = {{
        {"dynamic",
         [](const GraphNode& n) { return n.op == "DynamicQuantizeLinear" || isIntegerProductOp(n); }},
        {"qoperator", [](const GraphNode& n) { return isQLinearLayerOp(n); }},
        {"qonnx", [](const GraphNode& n) { return isFakeQuantizeOp(n); }},
        {"horizon", [](const GraphNode& n) { return n.op == "HzQuantize" || n.op == "HzDequantize"; }},
        {"qdq", [](const GraphNode& n) { return n.op == "QuantizeLinear" || n.op == "DequantizeLinear"; }},
        {"unknown", [](const GraphNode& n) { return isUnknownQuantizerOp(n); }},
    }};
    for (const Form& form : kForms)
        for (const GraphNode& n : g.nodes())
            if (form.matches(n)) return form.name;
    return kNotQuantized;
}

std::vector<bool> nodesReachingOutputs(const ModelGraph& g)
{
    std::vector<bool> live(g.nodes().size(), false);
    std::vector<bool> seen(g.tensors().size(), false);
    std::vector<int> stack(g.graphOutputs().begin(), g.graphOutputs().end());
    while (!stack.empty()) {
        const int t = stack.back();
        stack.pop_back();
        if (t < 0 || seen[static_cast<size_t>(t)]) continue;
        seen[static_cast<size_t>(t)] = true;
        const int p = g.producer(t);
        if (p < 0) continue;
        live[static_cast<size_t>(p)] = true;
        for (int in : g.node(p).inputs) stack.push_back(in);
    }
    return live;
}

}  // namespace qatdoctor::core::model
