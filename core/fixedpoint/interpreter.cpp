#include "core/fixedpoint/interpreter.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <exception>
#include <set>

#include "core/fixedpoint/interpreter_impl.h"
#include "core/fixedpoint/node_attrs.h"
#include "core/fixedpoint/qoperator_lowering.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/fixedpoint/thread_pool.h"

namespace qatdoctor::core::fixedpoint {

const char* simModeName(SimMode m)
{
    switch (m) {
        case SimMode::Float:
            return "float";
        case SimMode::Fake:
            return "fake";
        case SimMode::Int:
            return "int";
    }
    return "?";
}

namespace {

// A node's specification kernel, whatever it throws (a tensor past the budget, an axis out of
// range, bad_alloc) turned into an error naming the node.
Result<std::vector<Tensor>> callKernel(const NodeInfo& n, const OpCall& call)
{
    try {
        return (*n.spec)(call);
    } catch (const std::exception& e) {
        return opError(*n.proto, e.what());
    }
}

bool isDefaultDomain(const onnx::NodeProto& n)
{
    return n.domain().empty() || n.domain() == "ai.onnx";
}

// The float op an integer-operand op computes, run in the float mode on real values
// (value_ops.cpp): QLinearConv / QLinearMatMul and the integer products of dynamic quantization.
const char* floatFormOf(const onnx::NodeProto& n)
{
    struct FloatForm {
        std::string_view op, floatOp;
    };
    static constexpr std::array<FloatForm, 4> kForms = {{{"QLinearConv", "Conv"},
                                                         {"QLinearMatMul", "MatMul"},
                                                         {"ConvInteger", "Conv"},
                                                         {"MatMulInteger", "MatMul"}}};
    if (!isDefaultDomain(n)) return nullptr;
    for (const FloatForm& f : kForms)
        if (f.op == n.op_type()) return f.floatOp.data();
    return nullptr;
}

DType valueInfoType(const onnx::ValueInfoProto& v)
{
    return v.type().has_tensor_type() ? simulatedDtype(v.type().tensor_type().elem_type()) : DType::Unknown;
}

std::vector<int64_t> valueInfoShape(const onnx::ValueInfoProto& v)
{
    std::vector<int64_t> s;
    if (!v.type().has_tensor_type()) return s;
    for (const auto& d : v.type().tensor_type().shape().dim())
        s.push_back(d.has_dim_value() ? d.dim_value() : -1);
    return s;
}

}  // namespace

Result<std::shared_ptr<Interpreter>> Interpreter::build(const model::OnnxModel& model)
{
    if (!model.proto) return makeError("simulate.model", "no model", model.path);
    auto graph = model::ModelGraph::build(model);
    if (!graph) return graph.error();
    return build(std::move(*graph));
}

Result<std::shared_ptr<Interpreter>> Interpreter::build(std::shared_ptr<const model::ModelGraph> graph)
{
    const std::string& path = graph->model().path;
    // building folds constants through the kernels: the same guard as run()
    try {
        return buildGraph(std::move(graph));
    } catch (const std::exception& e) {
        return makeError("simulate.kernel", path + ": while preparing the graph: " + e.what(), path);
    }
}

Result<std::shared_ptr<Interpreter>> Interpreter::buildGraph(std::shared_ptr<const model::ModelGraph> graph)
{
    const model::OnnxModel& model = graph->model();
    if (!model.proto) return makeError("simulate.model", "no model", model.path);
    const onnx::GraphProto& g = model.proto->graph();
    std::shared_ptr<Interpreter> self(new Interpreter());
    self->m_graph = graph;
    auto impl = std::make_shared<Impl>();
    impl->opset = model.opset ? model.opset : 13;
    impl->folder = model.folder;
    // The graph's tensor index is the interpreter's: a tensor id means the same on both sides.
    for (const model::GraphTensor& t : graph->tensors()) {
        impl->tensorIds.emplace(t.name, static_cast<int>(impl->tensorNames.size()));
        impl->tensorNames.push_back(t.name);
    }
    auto idOf = [&](const std::string& name) {
        const int id = graph->tensorId(name);
        if (id >= 0) return id;
        // (every name the proto uses is in the graph; this keeps the ids whole if one is not)
        auto [it, added] = impl->tensorIds.emplace(name, static_cast<int>(impl->tensorNames.size()));
        if (added) impl->tensorNames.push_back(name);
        return it->second;
    };
    std::map<int, Tensor> inits;
    for (const auto& t : g.initializer()) {
        auto v = tensorFromProto(t, model.folder);
        if (!v) return makeError("simulate.model", model.path + ": " + v.error().message, model.path);
        inits[idOf(t.name())] = *v;
    }
    for (const auto& in : g.input()) {
        const int id = idOf(in.name());
        if (inits.count(id)) continue;  // old exporters list initializers as inputs
        const DType t = valueInfoType(in);
        if (!in.type().has_tensor_type() || t == DType::Unknown || t == DType::Float16 ||
            t == DType::BFloat16)
            return makeError("simulate.unsupported",
                             model.path + ": input '" + in.name() + "' is not a tensor of a simulated type",
                             model.path);
        self->m_inputs.push_back(in.name());
        self->m_inputShapes.push_back(valueInfoShape(in));
        self->m_inputTypes.push_back(valueInfoType(in));
        impl->inputIds.push_back(id);
    }
    for (const auto& out : g.output()) {
        self->m_outputs.push_back(out.name());
        impl->outputIds.push_back(idOf(out.name()));
    }
    // Kahn's order (exporters usually emit sorted graphs; a cycle or a missing producer is an error)
    std::vector<NodeInfo> pending;
    std::map<std::string, const Tensor*> initializers;  // by name, for the QOperator lowering
    for (const auto& [id, t] : inits) initializers.emplace(impl->tensorNames[static_cast<size_t>(id)], &t);
    auto addNode = [&](const onnx::NodeProto& n) -> Result<void> {
        NodeInfo info;
        info.proto = &n;
        for (const auto& i : n.input()) info.inputs.push_back(i.empty() ? -1 : idOf(i));
        for (const auto& o : n.output()) info.outputs.push_back(o.empty() ? -1 : idOf(o));
        info.spec = findSpecOp(n.op_type());
        info.valueOp = findValueOp(n.op_type());
        if (const char* floatOp = floatFormOf(n)) {
            onnx::NodeProto& f = impl->lowered.emplace_back();
            f.set_op_type(floatOp);
            f.set_name(n.name());
            *f.mutable_attribute() = n.attribute();
            info.floatForm = &f;
        }
        if (!info.spec)
            return makeError(
                "simulate.unsupported",
                model.path + ": node '" + n.name() + "': op " + n.op_type() + " is not simulated",
                model.path);
        pending.push_back(info);
        return Ok{};
    };
    for (const auto& n : g.node()) {
        if (isQOperatorContribOp(n)) {
            // ONNX Runtime's QOperator ops run as the QDQ subgraphs they compute
            auto lowered = lowerQOperator(n, initializers);
            if (!lowered)
                return makeError(lowered.error().code, model.path + ": " + lowered.error().message,
                                 model.path);
            for (auto& [name, t] : lowered->constants) inits[idOf(name)] = std::move(t);
            for (onnx::NodeProto& part : lowered->nodes) {
                const bool computes = part.name() == n.name();  // the float op keeps the node's name
                if (Result<void> r = addNode(impl->lowered.emplace_back(std::move(part))); !r)
                    return r.error();
                if (computes) pending.back().loweredFrom = n.op_type();
            }
            continue;
        }
        if (!isDefaultDomain(n))
            return makeError("simulate.unsupported",
                             model.path + ": node '" + n.name() + "' is a " + n.domain() +
                                 "::" + n.op_type() + " op, which the simulator does not run",
                             model.path);
        if (Result<void> r = addNode(n); !r) return r.error();
    }
    const size_t nt = impl->tensorNames.size();
    std::vector<bool> ready(nt, false);
    for (auto& [id, t] : inits) ready[static_cast<size_t>(id)] = true;
    for (int id : impl->inputIds) ready[static_cast<size_t>(id)] = true;
    std::vector<bool> done(pending.size(), false);
    for (size_t emitted = 0; emitted < pending.size();) {
        bool progress = false;
        for (size_t i = 0; i < pending.size(); ++i) {
            if (done[i]) continue;
            bool ok = true;
            for (int in : pending[i].inputs) ok = ok && (in < 0 || ready[static_cast<size_t>(in)]);
            if (!ok) continue;
            for (int o : pending[i].outputs)
                if (o >= 0) ready[static_cast<size_t>(o)] = true;
            impl->nodes.push_back(pending[i]);
            done[i] = true;
            ++emitted;
            progress = true;
        }
        if (!progress) {
            for (size_t i = 0; i < pending.size(); ++i)
                if (!done[i])
                    return makeError("simulate.model",
                                     model.path + ": node '" + pending[i].proto->name() +
                                         "' has an input no node produces (or the graph has a cycle)",
                                     model.path);
        }
    }
    // constants: initializers, Constant nodes and ops whose inputs are all constant and cheap
    // (Identity, shape arithmetic); quantizers are not folded: their result depends on the mode.
    impl->constants.assign(nt, std::nullopt);
    for (auto& [id, t] : inits) impl->constants[static_cast<size_t>(id)] = t;
    static const std::set<std::string> kFoldable = {"Constant",  "Identity",        "Shape",  "Gather",
                                                    "Unsqueeze", "Squeeze",         "Concat", "Cast",
                                                    "Reshape",   "ConstantOfShape", "Slice"};
    for (auto& n : impl->nodes) {
        if (!kFoldable.count(n.proto->op_type())) continue;
        bool allConst = true;
        std::vector<Tensor> ins;
        for (int in : n.inputs) {
            if (in < 0) {
                ins.emplace_back();
                continue;
            }
            allConst = allConst && impl->constants[static_cast<size_t>(in)].has_value();
            if (allConst) ins.push_back(*impl->constants[static_cast<size_t>(in)]);
        }
        if (!allConst) continue;
        OpCall call{*n.proto, ins, impl->opset, nullptr, model.folder};
        auto outs = callKernel(n, call);
        if (!outs) return makeError("simulate.model", model.path + ": " + outs.error().message, model.path);
        for (size_t k = 0; k < n.outputs.size() && k < outs->size(); ++k)
            if (n.outputs[k] >= 0) impl->constants[static_cast<size_t>(n.outputs[k])] = (*outs)[k];
        n.folded = true;
    }
    // weight quantizers: their codes do not depend on the input, quantize them once
    impl->constQuant.assign(impl->nodes.size(), std::nullopt);
    for (size_t ni = 0; ni < impl->nodes.size(); ++ni) {
        auto& n = impl->nodes[ni];
        if (n.folded || n.proto->op_type() != "QuantizeLinear") continue;
        std::vector<Tensor> ins;
        bool allConst = true;
        for (int in : n.inputs) {
            if (in < 0) {
                ins.emplace_back();
                continue;
            }
            allConst = allConst && impl->constants[static_cast<size_t>(in)].has_value();
            if (allConst) ins.push_back(*impl->constants[static_cast<size_t>(in)]);
        }
        if (!allConst) continue;
        OpCall call{*n.proto, ins, impl->opset, nullptr, model.folder};
        auto outs = callKernel(n, call);  // an error shows again when the node runs
        if (outs && !outs->empty()) impl->constQuant[ni] = (*outs)[0];
    }
    impl->consumers.assign(nt, 0);
    for (const auto& n : impl->nodes)
        for (int in : n.inputs)
            if (in >= 0) ++impl->consumers[static_cast<size_t>(in)];
    self->m_impl = impl;
    self->m_layers = findLayers(*impl);
    impl->observedLayer.assign(nt, -1);
    for (size_t i = 0; i < self->m_layers.size(); ++i) {
        const int id = impl->id(self->m_layers[i].observed);
        if (id >= 0 && impl->observedLayer[static_cast<size_t>(id)] < 0)
            impl->observedLayer[static_cast<size_t>(id)] = static_cast<int>(i);
    }
    return self;
}

const Accumulator& accSums(const AccValue& a)
{
    if (!a.deferred) return *a.acc;
    if (!a.deferred->sums) {
        auto sums = std::make_shared<Accumulator>();
        sums->shape = a.acc->shape;
        sums->acc32.resize(static_cast<size_t>(shapeSize(sums->shape)));
        a.deferred->run(sums->acc32.data(), nullptr, nullptr);
        a.deferred->sums = std::move(sums);
    }
    return *a.deferred->sums;
}

Tensor materialize(const Value& v)
{
    switch (v.kind) {
        case Value::Plain:
            return v.t;
        case Value::QReal:
            return dequantize(v.t, v.q);
        case Value::Acc: {
            const AccValue& a = *v.acc;
            const Accumulator& sums = accSums(a);
            Tensor y(DType::Float32, a.acc->shape);
            const AxisLayout l = axisLayout(a.acc->shape, a.axis);
            int64_t i = 0;
            for (int64_t o = 0; o < l.outer; ++o)
                for (int64_t c = 0; c < l.channels; ++c) {
                    const double s = a.scale[static_cast<size_t>(c)], b = a.bias[static_cast<size_t>(c)];
                    for (int64_t k = 0; k < l.inner; ++k, ++i)
                        y.data<float>()[i] = static_cast<float>(
                            std::clamp(static_cast<double>(sums.at(i)) * s + b, a.lo, a.hi));
                }
            return y;
        }
        case Value::Pending:
            if (v.pend->defaultParams)
                return dequantize(v.pend->resolve(*v.pend->defaultParams), *v.pend->defaultParams);
            return v.pend->toFloat();
    }
    return v.t;
}

Value settle(const Value& v)
{
    if (v.kind != Value::Pending || !v.pend->defaultParams) return v;
    Value out;
    out.kind = Value::QReal;
    out.q = *v.pend->defaultParams;
    out.t = v.pend->resolve(out.q);
    return out;
}

namespace {

// Ops that only move or pick elements: in float they give what they would give on codes, so the
// integer mode computing them in float is not a fallback worth listing.
bool movesDataOnly(const std::string& op)
{
    static const std::set<std::string> kOps = {"Reshape", "Flatten",  "Squeeze", "Unsqueeze", "Transpose",
                                               "Slice",   "Gather",   "Split",   "Expand",    "Tile",
                                               "Dropout", "Identity", "Shape",   "Size"};
    return kOps.count(op) > 0;
}

}  // namespace

Result<RunResult> Interpreter::run(SimMode mode, const std::vector<Tensor>& inputs, const RunOptions& options,
                                   ThreadPool* pool, const ProgressFn& progress) const
{
    // A hostile model reaches the kernels with any shape and attribute: whatever a kernel throws
    // (a tensor past the budget, a bad view, bad_alloc) is an error naming the node, never an abort.
    const TensorBudgetScope budget(options.maxTensorBytes);
    size_t currentNode = SIZE_MAX;
    try {
        return runNodes(mode, inputs, options, pool, progress, currentNode);
    } catch (const std::exception& e) {
        std::string where = "the model's inputs";
        if (currentNode < m_impl->nodes.size()) {
            const onnx::NodeProto& n = *m_impl->nodes[currentNode].proto;
            where = "node '" + n.name() + "' (" + n.op_type() + ")";
        }
        return makeError("simulate.kernel", path() + ": " + where + ": " + e.what(), path());
    }
}

Result<RunResult> Interpreter::runNodes(SimMode mode, const std::vector<Tensor>& inputs,
                                        const RunOptions& options, ThreadPool* pool,
                                        const ProgressFn& progress, size_t& currentNode) const
{
    const Impl& impl = *m_impl;
    RunResult result;
    result.mode = mode;
    if (inputs.size() != m_inputs.size())
        return makeError("simulate.input",
                         path() + ": the model has " + std::to_string(m_inputs.size()) + " inputs, " +
                             std::to_string(inputs.size()) + " given",
                         path());
    const size_t nt = impl.tensorNames.size();
    std::vector<Value> values(nt);
    for (size_t i = 0; i < inputs.size(); ++i) {
        Tensor t = inputs[i];
        const DType want = m_inputTypes[i];
        if (want == DType::Float32 && t.dtype() != DType::Float32)
            t = Tensor::fromFloats(t.shape(), t.toFloats());
        const auto& shape = m_inputShapes[i];
        bool shapeOk = shape.empty() || shape.size() == t.shape().size();
        for (size_t d = 0; shapeOk && d < shape.size(); ++d)
            shapeOk = shape[d] < 0 || shape[d] == t.shape()[d];
        if (!shapeOk)
            return makeError("simulate.input",
                             "input '" + m_inputs[i] + "' has shape " + shapeString(t.shape()) +
                                 ", the model wants " + shapeString(shape),
                             path());
        values[static_cast<size_t>(impl.inputIds[i])].t = t;
    }
    // per tensor id: a float value the integer mode computed from quantized data (a fallback's
    // result), so the float ops after it are fallbacks too
    std::vector<bool> fromQuantized(nt, false);
    std::vector<int> refs = impl.consumers;
    std::vector<bool> keep(nt, false);
    for (int id : impl.outputIds) keep[static_cast<size_t>(id)] = true;

    RunContext ctx{impl,
                   options,
                   m_layers,
                   mode,
                   pool,
                   result,
                   std::vector<int>(impl.nodes.size(), -1),
                   std::vector<bool>(impl.nodes.size(), false)};
    std::vector<QOverride>& overrides = ctx.overrides;
    overrides.assign(impl.nodes.size(), QOverride::None);
    for (size_t li = 0; li < m_layers.size(); ++li) {
        const LayerInfo& L = m_layers[li];
        ctx.layerOfNode[L.nodeIndex] = static_cast<int>(li);
        const bool to16 = options.int16Layers.count(L.name) > 0;
        const bool toFloat = options.floatLayers.count(L.name) > 0;
        if (toFloat) ctx.floatNode[L.nodeIndex] = true;
        for (size_t q : L.outputQuantizers)
            if (to16 || toFloat) overrides[q] = toFloat ? QOverride::Skip : QOverride::Int16;
        for (size_t q : L.weightQuantizers)
            if ((to16 || toFloat) && impl.nodes[q].proto->op_type() == "QuantizeLinear")
                overrides[q] = toFloat ? QOverride::Skip : QOverride::Int16;
    }
    if (options.keepLayerOutputs) result.layerOutputs.resize(m_layers.size());

    auto valueOf = [&](int id) -> Value {
        if (id < 0) return {};
        const Value& v = values[static_cast<size_t>(id)];
        if (v.defined()) return v;
        Value c;
        if (impl.constants[static_cast<size_t>(id)]) c.t = *impl.constants[static_cast<size_t>(id)];
        return c;
    };

    const size_t nn = impl.nodes.size();
    for (size_t ni = 0; ni < nn; ++ni) {
        const NodeInfo& node = impl.nodes[ni];
        if (node.folded) continue;
        currentNode = ni;
        if ((ni & 7) == 0 && !reportProgress(progress, double(ni) / double(nn), node.proto->op_type()))
            return makeError(kCancelledCode, "simulation cancelled");
        const std::string& op = node.proto->op_type();
        std::vector<Value> in;
        in.reserve(node.inputs.size());
        for (int id : node.inputs) in.push_back(valueOf(id));
        std::vector<Value> outs;
        bool handled = false;
        bool intFallback = false;  // computed in float on quantized data in the integer mode
        const bool intMode = mode == SimMode::Int && !ctx.floatNode[ni];

        // the value-level table first (quantizers; the integer domain), then the kernel
        if (const ValueOp* vop = node.valueOp) {
            ValueOut r;
            if (vop->anyMode) r = vop->anyMode(ctx, ni, node, in);
            if (!r && vop->intMode && intMode && !in.empty()) r = vop->intMode(ctx, ni, node, in);
            if (r) {
                if (!*r) return r->error();
                outs = std::move(**r);
                handled = true;
            }
        }
        if (!handled) {
            std::vector<Tensor> ins;
            bool quantizedInput = false;
            for (size_t k = 0; k < in.size(); ++k) {
                const Value& v = in[k];
                const int id = node.inputs[k];
                quantizedInput = quantizedInput || v.kind != Value::Plain ||
                                 (id >= 0 && fromQuantized[static_cast<size_t>(id)]);
                ins.push_back(v.defined() ? materialize(v) : Tensor());
            }
            OpCall call{*node.proto, ins, impl.opset, pool, impl.folder};
            Result<std::vector<Tensor>> r = callKernel(node, call);
            if (!r) return makeError(r.error().code, path() + ": " + r.error().message, path());
            for (Tensor& t : *r) {
                Value o;
                o.t = std::move(t);
                outs.push_back(std::move(o));
            }
            intFallback = mode == SimMode::Int && !ctx.floatNode[ni] && quantizedInput;
            // every op the integer mode computes in float on quantized data is listed, not only
            // layers (a float Resize or pooling hides the same deployment difference)
            if (intFallback && !movesDataOnly(op))
                result.fallbacks.push_back(node.proto->name() + " (" + op + ")");
        }
        bool derivedInput = intFallback;
        for (int id : node.inputs)
            derivedInput = derivedInput || (id >= 0 && fromQuantized[static_cast<size_t>(id)]);
        for (size_t k = 0; k < node.outputs.size() && k < outs.size(); ++k) {
            const int id = node.outputs[k];
            if (id < 0) continue;
            // float results carry the fallback on (shape outputs are integers, not data)
            fromQuantized[static_cast<size_t>(id)] =
                derivedInput && outs[k].kind == Value::Plain && outs[k].t.dtype() == DType::Float32;
            const int li = impl.observedLayer[static_cast<size_t>(id)];
            if (li >= 0 && options.keepLayerOutputs) {
                Tensor f = materialize(outs[k]);
                // codes (a QLinear op's output in the fake and integer modes) compare as the real
                // values they stand for: the float mode has those
                const LayerInfo& layer = m_layers[static_cast<size_t>(li)];
                if (f.dtype() != DType::Float32 && layer.outputScale > 0)
                    f = dequantize(
                        f,
                        QParams{
                            f.dtype(), {layer.outputScale}, {layer.outputZeroPoint}, -1, qrange(f.dtype())});
                else if (f.dtype() != DType::Float32)
                    f = Tensor::fromFloats(f.shape(), f.toFloats());
                result.layerOutputs[static_cast<size_t>(li)] = f;
            }
            values[static_cast<size_t>(id)] = std::move(outs[k]);
        }
        for (int id : node.inputs)
            if (id >= 0 && --refs[static_cast<size_t>(id)] == 0 && !keep[static_cast<size_t>(id)])
                values[static_cast<size_t>(id)] = Value{};
    }
    currentNode = SIZE_MAX;
    for (int id : impl.outputIds) {
        Value v = valueOf(id);
        result.outputs.push_back(v.kind == Value::Plain ? v.t : materialize(v));
    }
    reportProgress(progress, 1.0, "done");
    return result;
}

Result<Interpreter::Weight> Interpreter::layerWeight(const LayerInfo& layer) const
{
    const Impl& impl = *m_impl;
    Weight w;
    if (layer.weight.empty()) return makeError("simulate.weight", "layer '" + layer.name + "' has no weight");
    const int id = impl.id(layer.weight);
    if (id < 0 || !impl.constants[static_cast<size_t>(id)])
        return makeError("simulate.weight", "layer '" + layer.name + "': weight is not a constant");
    Tensor values = *impl.constants[static_cast<size_t>(id)];
    for (size_t q : layer.weightQuantizers) {
        const NodeInfo& n = impl.nodes[q];
        std::vector<Value> in;
        for (int i : n.inputs) {
            Value v;
            if (i >= 0 && impl.constants[static_cast<size_t>(i)])
                v.t = *impl.constants[static_cast<size_t>(i)];
            in.push_back(v);
        }
        auto p = qparamsOf(n, in, values.shape(),
                           values.dtype() == DType::Float32 ? DType::UInt8 : values.dtype());
        if (!p) return p.error();
        w.quant = *p;
        if (values.dtype() != DType::Float32) values = dequantize(values, *p);  // integer-stored weight
        break;
    }
    if (values.dtype() != DType::Float32) values = Tensor::fromFloats(values.shape(), values.toFloats());
    w.values = values;
    return w;
}

}  // namespace qatdoctor::core::fixedpoint
