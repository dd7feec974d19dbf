#include "core/model/model_graph.h"

#include <algorithm>
#include <unordered_set>

#include "core/model/qoperator_layout.h"

namespace qatdoctor::core::model {
namespace {

const std::vector<int> kNoConsumers;

// Ops whose output keeps the element type of one input (the data input).
bool keepsInputType(std::string_view op)
{
    static const std::unordered_set<std::string_view> kOps = {"Reshape",      "Flatten",
                                                              "Transpose",    "Squeeze",
                                                              "Unsqueeze",    "Concat",
                                                              "Identity",     "Clip",
                                                              "MaxPool",      "Slice",
                                                              "Gather",       "GatherElements",
                                                              "GatherND",     "Split",
                                                              "Expand",       "Tile",
                                                              "Pad",          "Relu",
                                                              "Resize",       "Upsample",
                                                              "DepthToSpace", "SpaceToDepth",
                                                              "ReduceMax",    "ReduceMin",
                                                              "Neg",          "Abs",
                                                              "Max",          "Min",
                                                              "ScatterND",    "ScatterElements",
                                                              "Dropout",      "HzChannelShuffle"};
    return kOps.count(op) > 0;
}

bool producesBool(std::string_view op)
{
    static const std::unordered_set<std::string_view> kOps = {
        "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "Not",
        "And",   "Or",   "Xor",     "IsNaN",       "IsInf"};
    return kOps.count(op) > 0;
}

bool producesInt64(std::string_view op)
{
    static const std::unordered_set<std::string_view> kOps = {"Shape",  "Size",   "NonZero",
                                                              "ArgMax", "ArgMin", "NonMaxSuppression"};
    return kOps.count(op) > 0;
}

}  // namespace

DType dtypeFromOnnx(int32_t t)
{
    using T = onnx::TensorProto;
    switch (t) {
        case T::FLOAT:
            return DType::Float32;
        case T::FLOAT16:
            return DType::Float16;
        case T::BFLOAT16:
            return DType::BFloat16;
        case T::DOUBLE:
            return DType::Float64;
        case T::INT8:
            return DType::Int8;
        case T::UINT8:
            return DType::UInt8;
        case T::INT16:
            return DType::Int16;
        case T::UINT16:
            return DType::UInt16;
        case T::INT32:
            return DType::Int32;
        case T::UINT32:
            return DType::UInt32;
        case T::INT64:
            return DType::Int64;
        case T::BOOL:
            return DType::Bool;
        default:
            break;
    }
    // element types newer than Debian's onnx.proto (1.12): numbers from ONNX 1.14 / 1.16
    switch (t) {
        case 17:
            return DType::Float8E4M3FN;
        case 19:
            return DType::Float8E5M2;
        case 21:
            return DType::UInt4;
        case 22:
            return DType::Int4;
        default:
            return DType::Unknown;
    }
}

std::string modulePathFromNodeName(std::string_view nodeName)
{
    if (nodeName.empty() || nodeName.front() != '/') return {};
    // The scopes before the op's own name. PyTorch's exporter names each scope by the module's
    // last name part plus its numeric tail, so a child of a list repeats its parent: module
    // layer1.0.conv1 is /layer1/layer1.0/conv1/Conv. A scope that extends the previous one
    // ("layer1.0" after "layer1") replaces it.
    std::vector<std::string_view> scopes;
    size_t pos = 1;
    while (pos <= nodeName.size()) {
        const size_t next = nodeName.find('/', pos);
        if (next == std::string_view::npos) break;  // the last part is the op, not a scope
        const std::string_view scope = nodeName.substr(pos, next - pos);
        pos = next + 1;
        if (scope.empty()) continue;
        if (!scopes.empty() && scope.size() > scopes.back().size() && scope.starts_with(scopes.back()) &&
            scope[scopes.back().size()] == '.')
            scopes.back() = scope;
        else
            scopes.push_back(scope);
    }
    std::string out;
    for (const std::string_view s : scopes) {
        if (!out.empty()) out += '.';
        out += s;
    }
    return out;
}

std::string moduleFromParameterName(std::string_view name)
{
    // ONNX Runtime's quantizers append _quantized to the float initializer's name
    constexpr std::string_view kQuantizedTail = "_quantized";
    if (name.ends_with(kQuantizedTail)) name.remove_suffix(kQuantizedTail.size());
    for (std::string_view tail : {std::string_view(".weight"), std::string_view(".bias")})
        if (name.size() > tail.size() && name.ends_with(tail) && !name.starts_with("onnx::"))
            return std::string(name.substr(0, name.size() - tail.size()));
    return {};
}

std::string layerModuleName(std::string_view nodeName, std::string_view outputScaleSource,
                            const std::vector<std::string>& parameterNames)
{
    if (std::string path = modulePathFromNodeName(nodeName); !path.empty()) return path;
    constexpr std::string_view kObserver = ".activation_post_process";
    if (const size_t pos = outputScaleSource.find(kObserver); pos != std::string_view::npos && pos > 0)
        return std::string(outputScaleSource.substr(0, pos));
    for (const std::string& p : parameterNames)
        if (std::string module = moduleFromParameterName(p); !module.empty()) return module;
    return {};
}

Result<std::shared_ptr<ModelGraph>> ModelGraph::build(OnnxModel model, const ProgressFn& progress)
{
    auto g = std::shared_ptr<ModelGraph>(new ModelGraph());
    g->m_model = std::move(model);
    const onnx::GraphProto& gp = g->m_model.proto->graph();
    auto idOf = [&](const std::string& name) -> int {
        auto [it, inserted] = g->m_byName.try_emplace(name, static_cast<int>(g->m_tensors.size()));
        if (inserted) {
            GraphTensor t;
            t.name = name;
            g->m_tensors.push_back(std::move(t));
        }
        return it->second;
    };
    g->m_tensors.reserve(static_cast<size_t>(gp.node_size()) * 2 +
                         static_cast<size_t>(gp.initializer_size()));
    for (const auto& init : gp.initializer()) {
        GraphTensor& t = g->m_tensors[static_cast<size_t>(idOf(init.name()))];
        t.initializer = &init;
        t.dtype = dtypeFromOnnx(init.data_type());
    }
    auto declare = [&](const onnx::ValueInfoProto& vi) -> int {
        const int id = idOf(vi.name());
        GraphTensor& t = g->m_tensors[static_cast<size_t>(id)];
        if (vi.type().has_tensor_type() && t.dtype == DType::Unknown)
            t.dtype = dtypeFromOnnx(vi.type().tensor_type().elem_type());
        return id;
    };
    for (const auto& vi : gp.input()) {
        const int id = declare(vi);
        if (!g->m_tensors[static_cast<size_t>(id)].initializer) {
            g->m_tensors[static_cast<size_t>(id)].graphInput = true;
            g->m_inputs.push_back(id);
        }
    }
    for (const auto& vi : gp.value_info()) declare(vi);
    for (const auto& vi : gp.output()) {
        const int id = declare(vi);
        g->m_tensors[static_cast<size_t>(id)].graphOutput = true;
        g->m_outputs.push_back(id);
    }

    const int n = gp.node_size();
    g->m_nodes.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        if ((i & 1023) == 0 && !reportProgress(progress, 0.5 * i / std::max(1, n), "indexing graph"))
            return makeError(kCancelledCode, "cancelled", g->m_model.path);
        const onnx::NodeProto& np = gp.node(i);
        GraphNode node;
        node.proto = &np;
        node.op = np.op_type();
        node.domain = np.domain() == "ai.onnx" ? std::string() : np.domain();
        node.name = np.name().empty() ? unnamedNodeLabel(i, np.op_type()) : np.name();
        for (const auto& in : np.input()) node.inputs.push_back(in.empty() ? -1 : idOf(in));
        for (const auto& out : np.output()) node.outputs.push_back(out.empty() ? -1 : idOf(out));
        g->m_nodes.push_back(std::move(node));
    }
    for (int i = 0; i < n; ++i) {
        const GraphNode& node = g->m_nodes[static_cast<size_t>(i)];
        for (int in : node.inputs)
            if (in >= 0) {
                auto& cons = g->m_tensors[static_cast<size_t>(in)].consumers;
                if (cons.empty() || cons.back() != i) cons.push_back(i);
            }
        for (int out : node.outputs) {
            if (out < 0) continue;
            GraphTensor& t = g->m_tensors[static_cast<size_t>(out)];
            if (t.producer >= 0)
                g->m_warnings.push_back(makeError(
                    "onnx.duplicate_output",
                    g->m_model.path + ": tensor '" + t.name + "' is produced by two nodes ('" +
                        g->m_nodes[static_cast<size_t>(t.producer)].name + "' and '" + node.name + "')",
                    g->m_model.path));
            else
                t.producer = i;
        }
    }
    for (const GraphTensor& t : g->m_tensors)
        if (t.producer < 0 && !t.initializer && !t.graphInput && !t.consumers.empty())
            g->m_warnings.push_back(makeError(
                "onnx.dangling_input",
                g->m_model.path + ": tensor '" + t.name + "' is used but never produced", g->m_model.path));
    if (!reportProgress(progress, 0.6, "propagating dtypes"))
        return makeError(kCancelledCode, "cancelled", g->m_model.path);
    g->propagateDtypes();
    reportProgress(progress, 1.0, "graph indexed");
    return g;
}

int ModelGraph::tensorId(std::string_view name) const
{
    auto it = m_byName.find(std::string(name));
    return it == m_byName.end() ? -1 : it->second;
}

const std::vector<int>& ModelGraph::consumers(int tensor) const
{
    return tensor < 0 ? kNoConsumers : m_tensors[static_cast<size_t>(tensor)].consumers;
}

std::optional<int64_t> ModelGraph::attrInt(const GraphNode& n, std::string_view name)
{
    for (const auto& a : n.proto->attribute())
        if (a.name() == name && a.has_i()) return a.i();
    return std::nullopt;
}

std::optional<double> ModelGraph::attrFloat(const GraphNode& n, std::string_view name)
{
    for (const auto& a : n.proto->attribute())
        if (a.name() == name && a.has_f()) return a.f();
    return std::nullopt;
}

void ModelGraph::propagateDtypes()
{
    auto dt = [&](int t) { return t < 0 ? DType::Unknown : m_tensors[static_cast<size_t>(t)].dtype; };
    auto input = [&](const GraphNode& nd, size_t i) { return i < nd.inputs.size() ? nd.inputs[i] : -1; };
    // Nodes are topologically sorted in valid models; a second pass covers the ones that are not.
    for (int pass = 0; pass < 2; ++pass) {
        for (const GraphNode& nd : m_nodes) {
            if (nd.outputs.empty() || nd.outputs[0] < 0) continue;
            GraphTensor& out = m_tensors[static_cast<size_t>(nd.outputs[0])];
            if (out.dtype != DType::Unknown) continue;
            const std::string& op = nd.op;
            DType d = DType::Unknown;
            if (op == "QuantizeLinear") {
                if (auto o = attrInt(nd, "output_dtype"); o && *o != 0)
                    d = dtypeFromOnnx(static_cast<int32_t>(*o));
                else
                    d = input(nd, 2) >= 0 ? dt(input(nd, 2)) : DType::UInt8;
            } else if (op == "DequantizeLinear" || op == "HzDequantize") {
                d = input(nd, 1) >= 0 && dt(input(nd, 1)) != DType::Unknown ? dt(input(nd, 1))
                                                                            : DType::Float32;
            } else if (op == "HzQuantize") {
                // A fake quantizer: float values on the grid of an int8 / int16 type.
                const auto bits = attrInt(nd, "bits").value_or(8);
                d = bits == 16 ? DType::Int16 : bits == 8 ? DType::Int8 : DType::Unknown;
            } else if (op == "Cast") {
                d = dtypeFromOnnx(static_cast<int32_t>(attrInt(nd, "to").value_or(0)));
            } else if (op == "Constant" || op == "ConstantOfShape") {
                d = op == "Constant" ? DType::Unknown : DType::Float32;
                for (const auto& a : nd.proto->attribute()) {
                    if (a.name() == "value" && a.has_t())
                        d = dtypeFromOnnx(a.t().data_type());
                    else if (a.name() == "value_float" || a.name() == "value_floats")
                        d = DType::Float32;
                    else if (a.name() == "value_int" || a.name() == "value_ints")
                        d = DType::Int64;
                }
            } else if (const QOperatorLayout* q = qoperatorLayout(op, nd.domain)) {
                // the output zero point's type; QGemm without y_scale computes in float
                const int zp = q->outScale >= 0 ? input(nd, static_cast<size_t>(q->outScale) + 1) : -1;
                d = zp >= 0 ? dt(zp) : (op == "QGemm" ? DType::Float32 : DType::Unknown);
                if (d == DType::Unknown) d = dt(input(nd, 0));
            } else if (op == "MatMulInteger" || op == "ConvInteger") {
                d = DType::Int32;
            } else if (op == "DynamicQuantizeLinear") {
                d = DType::UInt8;
                if (nd.outputs.size() > 2 && nd.outputs[1] >= 0)
                    m_tensors[static_cast<size_t>(nd.outputs[1])].dtype = DType::Float32;
                if (nd.outputs.size() > 2 && nd.outputs[2] >= 0)
                    m_tensors[static_cast<size_t>(nd.outputs[2])].dtype = DType::UInt8;
            } else if (producesBool(op)) {
                d = DType::Bool;
            } else if (producesInt64(op)) {
                d = DType::Int64;
            } else if (op == "Where") {
                d = dt(input(nd, 1));
            } else if (keepsInputType(op)) {
                d = dt(input(nd, 0));
            } else {
                // Arithmetic and most compute ops keep their first input's type; float when unknown.
                d = dt(input(nd, 0));
                if (d == DType::Unknown && pass == 1) d = DType::Float32;
            }
            out.dtype = d;
            for (size_t k = 1; k < nd.outputs.size(); ++k) {
                const int o = nd.outputs[k];
                if (o >= 0 && m_tensors[static_cast<size_t>(o)].dtype == DType::Unknown && keepsInputType(op))
                    m_tensors[static_cast<size_t>(o)].dtype = d;
            }
        }
    }
}

const onnx::TensorProto* ModelGraph::constTensorProto(int tensor) const
{
    if (tensor < 0) return nullptr;
    const GraphTensor& t = m_tensors[static_cast<size_t>(tensor)];
    if (t.initializer) return t.initializer;
    if (t.producer < 0) return nullptr;
    const GraphNode& p = m_nodes[static_cast<size_t>(t.producer)];
    if (p.op == "Constant") {
        for (const auto& a : p.proto->attribute())
            if (a.name() == "value" && a.has_t()) return &a.t();
    }
    return nullptr;
}

bool ModelGraph::isConst(int tensor) const
{
    for (int hops = 0; hops < 32 && tensor >= 0; ++hops) {
        const GraphTensor& t = m_tensors[static_cast<size_t>(tensor)];
        if (t.initializer) return true;
        if (t.producer < 0) return false;
        const GraphNode& p = m_nodes[static_cast<size_t>(t.producer)];
        if (p.op == "Constant") return true;
        if (p.op == "ConstantOfShape") return p.inputs.empty() || isConst(p.inputs[0]);
        if (p.op != "Identity" && p.op != "Cast") return false;
        tensor = p.inputs.empty() ? -1 : p.inputs[0];
    }
    return false;
}

std::string ModelGraph::constRoot(int tensor) const
{
    for (int hops = 0; hops < 32 && tensor >= 0; ++hops) {
        const GraphTensor& t = m_tensors[static_cast<size_t>(tensor)];
        if (t.initializer) return t.name;
        if (t.producer < 0) return {};
        const GraphNode& p = m_nodes[static_cast<size_t>(t.producer)];
        if (p.op == "Constant" || p.op == "ConstantOfShape") return p.name + ":" + t.name;
        if (p.op != "Identity" && p.op != "Cast") return {};
        tensor = p.inputs.empty() ? -1 : p.inputs[0];
    }
    return {};
}

std::vector<int64_t> ModelGraph::constDims(int tensor) const
{
    for (int hops = 0; hops < 32 && tensor >= 0; ++hops) {
        if (const onnx::TensorProto* tp = constTensorProto(tensor)) return tensorDims(*tp);
        const int p = producer(tensor);
        if (p < 0) return {};
        const GraphNode& nd = m_nodes[static_cast<size_t>(p)];
        if (nd.op != "Identity" && nd.op != "Cast") return {};
        tensor = nd.inputs.empty() ? -1 : nd.inputs[0];
    }
    return {};
}

std::optional<ConstValue> ModelGraph::constValue(int tensor, size_t maxElements) const
{
    if (tensor < 0) return std::nullopt;
    if (const onnx::TensorProto* tp = constTensorProto(tensor)) {
        const int64_t count = tensorElementCount(*tp);
        if (count < 0 || static_cast<uint64_t>(count) > maxElements) return std::nullopt;
        auto vals = tensorAsFloats(m_model, *tp);
        if (!vals) return std::nullopt;
        ConstValue v;
        v.dtype = dtypeFromOnnx(tp->data_type());
        v.dims = tensorDims(*tp);
        if (v.dtype == DType::Int64 || v.dtype == DType::Int32) {
            auto ints = tensorAsInts(m_model, *tp);  // exact for large integers
            if (!ints) return std::nullopt;
            v.values.assign(ints->begin(), ints->end());
        } else {
            v.values.assign(vals->begin(), vals->end());
        }
        return v;
    }
    const int p = producer(tensor);
    if (p < 0) return std::nullopt;
    const GraphNode& nd = m_nodes[static_cast<size_t>(p)];
    if (nd.op == "Constant") {
        ConstValue v;
        for (const auto& a : nd.proto->attribute()) {
            if (a.name() == "value_float") {
                v.dtype = DType::Float32;
                v.values = {a.f()};
                return v;
            }
            if (a.name() == "value_int") {
                v.dtype = DType::Int64;
                v.values = {static_cast<double>(a.i())};
                return v;
            }
            if (a.name() == "value_floats") {
                v.dtype = DType::Float32;
                v.values.assign(a.floats().begin(), a.floats().end());
                v.dims = {static_cast<int64_t>(v.values.size())};
                return v;
            }
            if (a.name() == "value_ints") {
                v.dtype = DType::Int64;
                v.values.assign(a.ints().begin(), a.ints().end());
                v.dims = {static_cast<int64_t>(v.values.size())};
                return v;
            }
        }
        return std::nullopt;
    }
    if (nd.op == "Identity") return constValue(nd.inputs.empty() ? -1 : nd.inputs[0], maxElements);
    if (nd.op == "Cast") {
        auto v = constValue(nd.inputs.empty() ? -1 : nd.inputs[0], maxElements);
        if (!v) return std::nullopt;
        v->dtype = dtypeFromOnnx(static_cast<int32_t>(attrInt(nd, "to").value_or(0)));
        if (isInteger(v->dtype))
            for (double& x : v->values) x = static_cast<double>(static_cast<int64_t>(x));
        return v;
    }
    if (nd.op == "ConstantOfShape") {
        auto shape = constValue(nd.inputs.empty() ? -1 : nd.inputs[0], 16);
        if (!shape) return std::nullopt;
        ConstValue v;
        v.dtype = DType::Float32;
        double fill = 0.0;
        for (const auto& a : nd.proto->attribute())
            if (a.name() == "value" && a.has_t()) {
                v.dtype = dtypeFromOnnx(a.t().data_type());
                auto f = tensorAsFloats(m_model, a.t());
                if (f && !f->empty()) fill = (*f)[0];
            }
        uint64_t count = 1;
        for (double d : shape->values) {
            if (d < 0) return std::nullopt;
            v.dims.push_back(static_cast<int64_t>(d));
            count *= static_cast<uint64_t>(d);
            if (count > maxElements) return std::nullopt;
        }
        v.values.assign(static_cast<size_t>(count), fill);
        return v;
    }
    return std::nullopt;
}

Result<std::vector<float>> ModelGraph::constFloats(int tensor) const
{
    for (int hops = 0; hops < 32 && tensor >= 0; ++hops) {
        if (const onnx::TensorProto* tp = constTensorProto(tensor)) return tensorAsFloats(m_model, *tp);
        const int p = producer(tensor);
        if (p < 0) break;
        const GraphNode& nd = m_nodes[static_cast<size_t>(p)];
        if (nd.op != "Identity" && nd.op != "Cast") {
            if (auto v = constValue(tensor)) return std::vector<float>(v->values.begin(), v->values.end());
            break;
        }
        tensor = nd.inputs.empty() ? -1 : nd.inputs[0];
    }
    return makeError("onnx.not_constant", m_model.path + ": tensor is not a constant", m_model.path);
}

}  // namespace qatdoctor::core::model
