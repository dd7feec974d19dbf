// Finding the layers of a graph: compute ops, multi-input elementwise ops and nonlinear (LUT)
// ops, each with the chain of followers a deployment compiler fuses into it (core/model/fusion.h:
// bias/Div/BN, activation; then the output quantizer) and the tensor that shows its result.
#include <onnx/onnx_pb.h>

#include <set>

#include "core/fixedpoint/interpreter_impl.h"
#include "core/model/fusion.h"
#include "core/model/model_graph.h"

namespace qatdoctor::core::fixedpoint {
namespace {

const std::set<std::string> kCompute = {"Conv",        "ConvTranspose", "Gemm",        "MatMul",
                                        "QLinearConv", "QLinearMatMul", "ConvInteger", "MatMulInteger"};
const std::set<std::string> kElementwise = {"Add", "Sub", "Mul", "Div", "Concat"};
const std::set<std::string> kNonlinear = {"Sigmoid",   "Tanh",       "Exp",      "Log", "Reciprocal",
                                          "Softmax",   "LogSoftmax", "Gelu",     "Erf", "HardSigmoid",
                                          "HardSwish", "Sqrt",       "Softplus", "Elu"};
// Besides core/model/fusion.h's affine followers and activations, the quantizers that end the
// layer and a Cast between them.
const std::set<std::string> kQuantizerFollowers = {"QuantizeLinear", "DequantizeLinear", "Cast"};

bool isConst(const Interpreter::Impl& impl, int id)
{
    return id >= 0 && impl.constants[static_cast<size_t>(id)].has_value();
}

}  // namespace

std::vector<LayerInfo> findLayers(const Interpreter::Impl& impl)
{
    // consumer lists and producers
    const size_t nt = impl.tensorNames.size();
    std::vector<std::vector<size_t>> consumersOf(nt);
    std::vector<int> producer(nt, -1);
    for (size_t i = 0; i < impl.nodes.size(); ++i) {
        if (impl.nodes[i].folded) continue;
        for (int in : impl.nodes[i].inputs)
            if (in >= 0) consumersOf[static_cast<size_t>(in)].push_back(i);
        for (int o : impl.nodes[i].outputs)
            if (o >= 0) producer[static_cast<size_t>(o)] = static_cast<int>(i);
    }
    std::vector<LayerInfo> layers;
    std::set<std::string> used;
    std::vector<bool> absorbed(impl.nodes.size(), false);
    for (size_t i = 0; i < impl.nodes.size(); ++i) {
        const NodeInfo& n = impl.nodes[i];
        // an activation already fused into the compute op before it is not a layer of its own
        if (n.folded || absorbed[i] || n.outputs.empty() || n.outputs[0] < 0) continue;
        const std::string& op = n.proto->op_type();
        int dynamicInputs = 0;
        for (int in : n.inputs) dynamicInputs += (in >= 0 && !isConst(impl, in)) ? 1 : 0;
        const bool compute = kCompute.count(op) > 0;
        const bool elementwise = kElementwise.count(op) > 0 && dynamicInputs >= 2;
        const bool nonlinear = kNonlinear.count(op) > 0;
        if (!compute && !elementwise && !nonlinear) continue;
        // a weight that is itself computed from the input (attention) is not a weight
        LayerInfo L;
        L.op = n.loweredFrom.empty() ? op : std::string(n.loweredFrom);
        L.node = n.proto->name();
        L.nodeIndex = i;
        L.nonlinear = nonlinear;
        int cur = n.outputs[0];
        std::string scaleName;
        // an integer product's accumulator becomes real through a Mul by the run-time scale
        // product (core/model/dynamic_quant.h): that Mul is the layer's, whatever its operand
        bool rescalePending = op == "ConvInteger" || op == "MatMulInteger";
        for (;;) {
            const auto& cons = consumersOf[static_cast<size_t>(cur)];
            if (cons.size() != 1) break;
            const NodeInfo& f = impl.nodes[cons[0]];
            const std::string& fop = f.proto->op_type();
            bool absorb = kQuantizerFollowers.count(fop) > 0 || model::isFusedFollower(fop);
            if (model::needsConstantOperand(fop))
                absorb = f.inputs.size() == 2 &&
                         (f.inputs[0] == cur ? isConst(impl, f.inputs[1]) : isConst(impl, f.inputs[0]));
            if (rescalePending && fop == "Mul") {
                absorb = true;
                rescalePending = false;
            }
            if (!absorb || f.outputs.empty() || f.outputs[0] < 0) break;
            absorbed[cons[0]] = true;
            if (fop == "QuantizeLinear") {
                L.outputQuantizers.push_back(cons[0]);
                if (f.inputs.size() > 1 && f.inputs[1] >= 0) {
                    scaleName = impl.tensorNames[static_cast<size_t>(f.inputs[1])];
                    if (isConst(impl, f.inputs[1]))
                        L.outputScale =
                            static_cast<float>(impl.constants[static_cast<size_t>(f.inputs[1])]->at(0));
                }
                const bool zp = f.inputs.size() > 2 && isConst(impl, f.inputs[2]);
                L.outputDtype = zp ? impl.constants[static_cast<size_t>(f.inputs[2])]->dtype() : DType::UInt8;
                L.outputZeroPoint = zp ? impl.constants[static_cast<size_t>(f.inputs[2])]->atInt(0) : 0;
            }
            cur = f.outputs[0];
            if (fop == "DequantizeLinear") break;
        }
        if (op == "QLinearConv" || op == "QLinearMatMul") {  // y_scale and y_zero_point: inputs 6, 7
            if (n.inputs.size() > 6 && isConst(impl, n.inputs[6]))
                L.outputScale = static_cast<float>(impl.constants[static_cast<size_t>(n.inputs[6])]->at(0));
            if (n.inputs.size() > 7 && isConst(impl, n.inputs[7]))
                L.outputZeroPoint = impl.constants[static_cast<size_t>(n.inputs[7])]->atInt(0);
        }
        L.observed = impl.tensorNames[static_cast<size_t>(cur)];
        L.widenable = !L.outputQuantizers.empty();
        // weight: input 1 of Conv/Gemm/MatMul (3 of QLinearConv/QLinearMatMul), back through DQ -> Clip -> Q
        const size_t wi = (op == "QLinearConv" || op == "QLinearMatMul") ? 3 : 1;
        if (compute && n.inputs.size() > wi && n.inputs[wi] >= 0) {
            int w = n.inputs[wi];
            while (!isConst(impl, w) && producer[static_cast<size_t>(w)] >= 0) {
                const NodeInfo& p = impl.nodes[static_cast<size_t>(producer[static_cast<size_t>(w)])];
                const std::string& pop = p.proto->op_type();
                if (pop != "DequantizeLinear" && pop != "QuantizeLinear" && pop != "Clip" &&
                    pop != "Identity" && pop != "Cast")
                    break;
                L.widenable = L.widenable || pop == "QuantizeLinear";
                if (pop == "DequantizeLinear" || pop == "QuantizeLinear")
                    L.weightQuantizers.insert(L.weightQuantizers.begin(),
                                              static_cast<size_t>(producer[static_cast<size_t>(w)]));
                w = p.inputs[0];
            }
            if (isConst(impl, w))
                L.weight = impl.tensorNames[static_cast<size_t>(w)];
            else
                L.weightQuantizers.clear();
        }
        std::vector<std::string> parameters;
        if (!L.weight.empty()) parameters.push_back(L.weight);
        std::string name = model::layerModuleName(L.node, scaleName, parameters);
        if (name.empty()) name = L.node.empty() ? op + "_" + std::to_string(i) : L.node;
        if (used.count(name)) name += " (" + (L.node.empty() ? std::to_string(i) : L.node) + ")";
        used.insert(name);
        L.name = name;
        layers.push_back(std::move(L));
    }
    return layers;
}

}  // namespace qatdoctor::core::fixedpoint
