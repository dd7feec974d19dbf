#include "core/model/dynamic_quant.h"

#include "core/model/onnx_quant.h"

namespace qatdoctor::core::model {
namespace {

int inputAt(const GraphNode& n, size_t i)
{
    return i < n.inputs.size() ? n.inputs[i] : -1;
}

int soleConsumer(const ModelGraph& g, int tensor)
{
    if (tensor < 0 || g.tensor(tensor).graphOutput) return -1;
    const auto& cons = g.consumers(tensor);
    return cons.size() == 1 ? cons[0] : -1;
}

int firstOutput(const GraphNode& n)
{
    return n.outputs.empty() ? -1 : n.outputs[0];
}

// The other operand of a binary node, given one of them.
int otherOperand(const GraphNode& n, int tensor)
{
    if (n.inputs.size() != 2) return -1;
    return n.inputs[0] == tensor ? n.inputs[1] : n.inputs[0];
}

// A constant, or a constant reshaped / unsqueezed by constant shapes (the Conv bias).
int constantThroughShapeOps(const ModelGraph& g, int tensor)
{
    if (tensor >= 0 && g.isConst(tensor)) return tensor;
    const int p = g.producer(tensor);
    if (p < 0) return -1;
    const GraphNode& n = g.node(p);
    if (n.op != "Reshape" && n.op != "Unsqueeze") return -1;
    for (size_t i = 1; i < n.inputs.size(); ++i)
        if (n.inputs[i] >= 0 && !g.isConst(n.inputs[i])) return -1;
    return g.isConst(inputAt(n, 0)) ? inputAt(n, 0) : -1;
}

// The weight's scale within the scale product: the constant operand of Mul(x_scale, w_scale).
int weightScaleOf(const ModelGraph& g, int scaleProduct)
{
    if (scaleProduct >= 0 && g.isConst(scaleProduct)) return -1;  // folded: the factors are gone
    const int p = g.producer(scaleProduct);
    if (p < 0 || g.node(p).op != "Mul") return -1;
    for (int in : g.node(p).inputs)
        if (in >= 0 && g.isConst(in)) return in;
    return -1;
}

}  // namespace

bool isIntegerProductOp(const GraphNode& n)
{
    return n.domain.empty() && (n.op == "MatMulInteger" || n.op == "ConvInteger");
}

IntegerProduct readIntegerProduct(const ModelGraph& g, int node)
{
    const GraphNode& n = g.node(node);
    IntegerProduct ip;
    const int x = inputAt(n, 0);
    ip.inputDtype = x >= 0 ? g.tensor(x).dtype : DType::Unknown;
    if (const int q = g.producer(x); q >= 0) {
        const GraphNode& qn = g.node(q);
        if (qn.op == "DynamicQuantizeLinear") {
            ip.inputQuantizer = q;
            ip.dynamic = true;
        } else if (isQuantizeOp(qn)) {  // opset 10: QuantizeLinear of a computed scale
            ip.inputQuantizer = q;
            ip.dynamic = !g.isConst(inputAt(qn, 1));
        }
    }

    // Cast(to float) -> Mul(acc, scale product) -> [Add(bias)]
    int scaleProduct = -1;
    int t = firstOutput(n);
    if (const int cast = soleConsumer(g, t); cast >= 0 && g.node(cast).op == "Cast") {
        ip.rescale.push_back(cast);
        t = firstOutput(g.node(cast));
        if (const int mul = soleConsumer(g, t); mul >= 0 && g.node(mul).op == "Mul") {
            ip.rescale.push_back(mul);
            scaleProduct = otherOperand(g.node(mul), t);
            t = firstOutput(g.node(mul));
            if (const int add = soleConsumer(g, t); add >= 0 && g.node(add).op == "Add") {
                const int bias = constantThroughShapeOps(g, otherOperand(g.node(add), t));
                if (bias >= 0) {
                    ip.rescale.push_back(add);
                    ip.bias = bias;
                }
            }
        }
    }

    const int w = inputAt(n, 1);
    if (w < 0 || !g.isConst(w)) return ip;
    ip.weight = w;
    QuantParams q;
    q.dtype = g.tensor(w).dtype;
    q.observer = ip.dynamic ? "DynamicQuantizeLinear" : n.op;
    if (auto z = g.constValue(inputAt(n, 3)))
        for (double v : z->values) q.zeroPoints.push_back(static_cast<int64_t>(v));
    if (q.zeroPoints.empty()) q.zeroPoints.push_back(0);
    const int scale = weightScaleOf(g, scaleProduct);
    q.scaleSource = g.constRoot(scale);
    if (auto s = g.constValue(scale)) q.scales.assign(s->values.begin(), s->values.end());
    if (q.scales.size() > 1) {
        // ConvInteger: per output channel (axis 0); MatMulInteger: per column of B (its last axis)
        const auto dims = g.constDims(w);
        q.axis = n.op == "ConvInteger" || dims.empty() ? 0 : static_cast<int>(dims.size()) - 1;
    }
    ip.weightQuant = std::move(q);
    return ip;
}

}  // namespace qatdoctor::core::model
