#include "core/fixedpoint/qoperator_lowering.h"

#include <algorithm>

#include "core/common/error_codes.h"
#include "core/model/qoperator_layout.h"

namespace qatdoctor::core::fixedpoint {
namespace {

// A contrib op's layout (core/model/qoperator_layout.h); QLinearConv and QLinearMatMul, ONNX's
// own, run as they are.
const model::QOperatorLayout* layoutOf(const onnx::NodeProto& n)
{
    const model::QOperatorLayout* l = model::qoperatorLayout(n.op_type(), n.domain());
    return l && l->domain == "com.microsoft" ? l : nullptr;
}

std::string input(const onnx::NodeProto& n, int i)
{
    return i >= 0 && i < n.input_size() ? n.input(i) : std::string();
}

const onnx::AttributeProto* attribute(const onnx::NodeProto& n, std::string_view name)
{
    for (const auto& a : n.attribute())
        if (a.name() == name) return &a;
    return nullptr;
}

class Lowering {
public:
    explicit Lowering(const onnx::NodeProto& node)
        : m_node(node), m_prefix("qatdoctor::" + node.name() + "::")
    {
    }

    // DequantizeLinear of the operand at `data` (its scale and zero point follow it); a scale per
    // channel applies along `axis`.
    std::string dequantized(int data, int64_t axis = 1)
    {
        std::string out = m_prefix + "dq" + std::to_string(m_count++);
        onnx::NodeProto& dq =
            add("DequantizeLinear", {input(m_node, data), input(m_node, data + 1), input(m_node, data + 2)},
                out, "/DequantizeLinear" + std::to_string(m_count - 1));
        setAxis(dq, axis);
        return out;
    }
    static void setAxis(onnx::NodeProto& n, int64_t axis)
    {
        onnx::AttributeProto* a = n.add_attribute();
        a->set_name("axis");
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(axis);
    }
    onnx::NodeProto& add(const std::string& op, std::vector<std::string> ins, const std::string& out,
                         const std::string& suffix = {})
    {
        onnx::NodeProto& n = m_out.nodes.emplace_back();
        n.set_op_type(op);
        n.set_name(m_node.name() + suffix);
        while (!ins.empty() && ins.back().empty()) ins.pop_back();  // trailing optional inputs
        for (const std::string& i : ins) n.add_input(i);
        n.add_output(out);
        return n;
    }
    std::string temp(const std::string& what) const { return m_prefix + what; }
    LoweredOp& result() { return m_out; }

private:
    const onnx::NodeProto& m_node;
    std::string m_prefix;
    int m_count = 0;
    LoweredOp m_out;
};

Error unsupported(const onnx::NodeProto& n, const std::string& what)
{
    return makeError(codes::kSimulateUnsupported,
                     "node '" + n.name() + "' (com.microsoft::" + n.op_type() + "): " + what);
}

// QGemm's int32 bias C joins the accumulator as it is (ONNX Runtime's kernel), so its real value
// is C * alpha * a_scale * b_scale[n]: the scale the int32 bias is dequantized at. Constant
// scales give a constant; an a_scale computed at run time (DynamicQuantizeLinear's) gives the
// same product as Mul nodes.
Result<std::string> gemmBiasScale(const onnx::NodeProto& n, const std::map<std::string, const Tensor*>& inits,
                                  Lowering& low)
{
    const auto* alphaAttr = attribute(n, "alpha");
    const float alpha = alphaAttr ? alphaAttr->f() : 1.0f;
    auto a = inits.find(input(n, 1));
    auto b = inits.find(input(n, 4));
    const std::string name = low.temp("bias_scale");
    if (a != inits.end() && b != inits.end()) {
        if (a->second->size() != 1) return unsupported(n, "a per-row a_scale");
        const float sa = static_cast<float>(a->second->at(0));
        std::vector<float> product = b->second->toFloats();
        for (float& s : product) s = (alpha * sa) * s;  // ONNX Runtime's order: (alpha * a_scale) * b_scale
        low.result().constants.emplace(
            name, Tensor::fromFloats(product.size() == 1 ? std::vector<int64_t>{}
                                                         : std::vector<int64_t>{int64_t(product.size())},
                                     product));
        return name;
    }
    std::string scaledA = input(n, 1);
    if (alpha != 1.0f) {
        const std::string alphaName = low.temp("alpha");
        low.result().constants.emplace(alphaName, Tensor::scalar(alpha));
        scaledA = low.temp("alpha_a_scale");
        low.add("Mul", {alphaName, input(n, 1)}, scaledA, "/alpha_Mul");
    }
    low.add("Mul", {scaledA, input(n, 4)}, name, "/bias_scale_Mul");
    return name;
}

}  // namespace

bool isQOperatorContribOp(const onnx::NodeProto& node)
{
    return layoutOf(node) != nullptr;
}

Result<LoweredOp> lowerQOperator(const onnx::NodeProto& n, const std::map<std::string, const Tensor*>& inits)
{
    const model::QOperatorLayout* layout = layoutOf(n);
    if (!layout) return unsupported(n, "not a QOperator op the simulator knows");
    if (n.output_size() < 1 || n.output(0).empty()) return unsupported(n, "no output");
    if (const auto* cl = attribute(n, "channels_last"); cl && cl->i() != 0)
        return unsupported(n, "channels_last layout");
    if (layout->op == "QLinearSoftmax")
        if (const auto* v = attribute(n, "opset"); v && v->i() < 13) {
            const auto* axis = attribute(n, "axis");
            if (!axis || axis->i() != -1) return unsupported(n, "opset < 13 softmax over coerced 2-D axes");
        }
    Lowering low(n);
    std::vector<std::string> operands;
    if (layout->concat) {
        if (n.input_size() < 5 || (n.input_size() - 2) % 3 != 0)
            return unsupported(
                n, "inputs are not Y_scale, Y_zero_point, then (tensor, scale, zero point) triples");
        for (int i = 2; i < n.input_size(); i += 3) operands.push_back(low.dequantized(i));
    } else {
        // QGemm's b_scale is per output column: axis 1 of B, or 0 when B is transposed
        const auto* transB = attribute(n, "transB");
        const int64_t bAxis = layout->op == "QGemm" && transB && transB->i() != 0 ? 0 : 1;
        for (size_t k = 0; k < layout->operands.size(); ++k)
            if (layout->operands[k] >= 0)
                operands.push_back(low.dequantized(layout->operands[k], k == 1 ? bAxis : 1));
    }
    if (layout->bias >= 0 && !input(n, layout->bias).empty()) {
        auto scale = gemmBiasScale(n, inits, low);
        if (!scale) return scale.error();
        const std::string bias = low.temp("bias");
        Lowering::setAxis(low.add("DequantizeLinear", {input(n, 6), *scale}, bias, "/bias_DequantizeLinear"),
                          0);
        operands.push_back(bias);
    }
    const bool quantizedOut = !input(n, layout->outScale).empty();
    const std::string real = quantizedOut ? low.temp("real") : n.output(0);
    onnx::NodeProto& op = low.add(std::string(layout->floatOp), operands, real);
    for (const auto& a : n.attribute())
        if (std::find(layout->attributes.begin(), layout->attributes.end(), a.name()) !=
            layout->attributes.end())
            *op.add_attribute() = a;
    if (quantizedOut)
        low.add("QuantizeLinear", {real, input(n, layout->outScale), input(n, layout->outScale + 1)},
                n.output(0), "/QuantizeLinear");
    return std::move(low.result());
}

}  // namespace qatdoctor::core::fixedpoint
