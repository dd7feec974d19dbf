// The value-level op table (interpreter_impl.h) and its rows for every mode: the quantizers, and
// the ops that carry a bypassed or widened quantizer's state on. The integer mode's rows are in
// int_mode.cpp.
#include <cstdint>

#include "core/fixedpoint/interpreter_impl.h"
#include "core/fixedpoint/node_attrs.h"

namespace qatdoctor::core::fixedpoint {
namespace {

// 8-bit -> 16-bit over the same real range: q16 = 256 * q8 (+ offset for uint8 -> int16).
QParams widen(const QParams& p, int64_t& mul, int64_t& off)
{
    mul = 1;
    off = 0;
    if (p.dtype != DType::Int8 && p.dtype != DType::UInt8) return p;
    QParams w = p;
    mul = 256;
    off = p.dtype == DType::UInt8 ? -32768 : 0;
    w.dtype = DType::Int16;
    w.range = qrange(DType::Int16);
    for (float& s : w.scales) s /= 256.0f;
    for (int64_t& z : w.zeroPoints) z = z * mul + off;
    return w;
}

ValueOut one(Value v)
{
    return Result<std::vector<Value>>(std::vector<Value>{std::move(v)});
}

// Float mode and a removed quantizer pass the value through (bypass); otherwise the codes, from
// the constant weight codes, quantize(), or the integer mode's requantization of an accumulator.
ValueOut quantizeLinear(RunContext& ctx, size_t ni, const NodeInfo& node, std::vector<Value>& in)
{
    const Value& x = in[0];
    const QOverride override = ctx.overrides[ni];
    Value o;
    if (ctx.mode == SimMode::Float || override == QOverride::Skip) {
        o.t = materialize(x);
        o.bypass = true;
        return one(std::move(o));
    }
    const std::vector<int64_t> shape = x.kind == Value::Acc       ? x.acc->acc->shape
                                       : x.kind == Value::Pending ? x.pend->shape
                                                                  : x.t.shape();
    auto p = qparamsOf(node, in, shape, DType::UInt8);
    if (!p) return Result<std::vector<Value>>(p.error());
    QParams qp = *p;
    if (override == QOverride::Int16) {
        qp = widen(*p, o.overrideMul, o.overrideOff);
        o.override16 = qp;
    }
    if (override == QOverride::None && ctx.impl.constQuant[ni]) {
        o.t = *ctx.impl.constQuant[ni];
    } else if (x.kind == Value::Plain) {
        o.t = quantize(x.t, qp);
    } else {
        const int li = ctx.layerOfNode[ni];
        auto t = requantizeValue(ctx, x, qp,
                                 li >= 0 ? ctx.layers[static_cast<size_t>(li)].name : node.proto->name());
        if (!t) return Result<std::vector<Value>>(t.error());
        o.t = *t;
    }
    return one(std::move(o));
}

// Codes become real values: kept as codes with their parameters in the integer mode (QReal),
// dequantized in the others; a bypassed quantizer's value passes through, also when a shape op
// (a Reshape between two QOperator ops) carried it on: codes are never float.
ValueOut dequantizeLinear(RunContext& ctx, size_t, const NodeInfo& node, std::vector<Value>& in)
{
    const Value& x = in[0];
    Value o;
    if (x.bypass || (x.kind == Value::Plain && x.t.dtype() == DType::Float32)) {
        o.t = x.t;
        return one(std::move(o));
    }
    Tensor codes = x.kind == Value::Plain ? x.t : materialize(x);
    QParams p;
    if (x.override16) {
        p = *x.override16;
    } else {
        auto r = qparamsOf(node, in, codes.shape(), codes.dtype());
        if (!r) return Result<std::vector<Value>>(r.error());
        p = *r;
    }
    if (ctx.mode == SimMode::Int && codes.dtype() != DType::Float32) {
        o.kind = Value::QReal;
        o.t = codes;
        o.q = p;
    } else {
        o.t = dequantize(codes, p);
    }
    return one(std::move(o));
}

// Between a bypassed or widened Q and its DQ, Clip and Cast keep the quantizer's state; Clip's
// bounds are codes of the 8-bit quantizer, moved to the widened one's.
ValueOut passQuantizerState(RunContext& ctx, size_t, const NodeInfo& node, std::vector<Value>& in)
{
    if (in.empty() || !(in[0].bypass || in[0].override16)) return std::nullopt;
    Value o = in[0];
    if (node.proto->op_type() == "Clip" && !in[0].bypass) {
        std::vector<Tensor> ins{in[0].t, {}, {}};
        for (size_t k = 1; k < 3 && k < in.size(); ++k)
            if (in[k].defined())
                ins[k] = Tensor::fromInts(DType::Int64, {},
                                          {in[k].t.atInt(0) * in[0].overrideMul + in[0].overrideOff});
        OpCall call{*node.proto, ins, ctx.impl.opset, ctx.pool, ctx.impl.folder};
        auto r = (*node.spec)(call);
        if (!r) return Result<std::vector<Value>>(r.error());
        o.t = (*r)[0];
    }
    return one(std::move(o));
}

// QLinearConv / QLinearMatMul in the float mode: the op on the real values of its operands, the
// quantizers removed as they are in QDQ graphs. An operand that arrives as codes (a weight, an
// input given in integers) is dequantized; one a bypassed QuantizeLinear passed on is real
// already. The int32 bias is at x_scale * w_scale. The result stays real and is marked bypassed,
// so the next QLinear op or DequantizeLinear takes it as it is.
ValueOut qlinearInFloat(RunContext& ctx, size_t, const NodeInfo& node, std::vector<Value>& in)
{
    if (ctx.mode != SimMode::Float || !node.floatForm || in.size() < 8) return std::nullopt;
    const bool conv = node.proto->op_type() == "QLinearConv";
    // operand at `data`, its scale and zero point after it; per-channel weights along `axis`
    auto real = [&](size_t data, int axis) -> Result<Tensor> {
        Tensor t = materialize(in[data]);
        if (in[data].bypass || t.dtype() == DType::Float32) return t;
        const std::vector<float> scales = materialize(in[data + 1]).toFloats();
        std::vector<int64_t> zps{0};
        if (in[data + 2].defined()) zps = materialize(in[data + 2]).toInts();
        auto p = makeQParams(t.dtype(), scales, zps, scales.size() > 1 ? axis : -1, t.shape());
        if (!p) return opError(*node.proto, p.error().message);
        return dequantize(t, *p);
    };
    auto x = real(0, 1);
    if (!x) return Result<std::vector<Value>>(x.error());
    const int64_t wRank = static_cast<int64_t>(materialize(in[3]).shape().size());
    auto w = real(3, conv ? 0 : static_cast<int>(wRank - 1));
    if (!w) return Result<std::vector<Value>>(w.error());
    std::vector<Tensor> ins{*x, *w};
    if (conv && in.size() > 8 && in[8].defined()) {
        const Tensor codes = materialize(in[8]);
        const std::vector<float> sx = materialize(in[1]).toFloats(), sw = materialize(in[4]).toFloats();
        std::vector<float> bias = codes.toFloats();
        for (size_t c = 0; c < bias.size(); ++c)
            bias[c] = static_cast<float>(double(bias[c]) * sx.at(0) * sw.at(sw.size() == 1 ? 0 : c));
        ins.push_back(Tensor::fromFloats(codes.shape(), bias));
    }
    OpCall call{*node.floatForm, ins, ctx.impl.opset, ctx.pool, ctx.impl.folder};
    auto r = (*findSpecOp(node.floatForm->op_type()))(call);
    if (!r) return Result<std::vector<Value>>(r.error());
    Value o;
    o.t = std::move((*r)[0]);
    o.bypass = true;
    return one(std::move(o));
}

// v / divisor + offset for every value of a float tensor, as a new tensor of its shape (the input's
// storage is shared and stays untouched); an error when the shape does not hold its values.
Result<Tensor> affineCopy(const NodeInfo& node, const Tensor& t, float divisor, float offset)
{
    Tensor out(DType::Float32, t.shape());
    if (t.dtype() != DType::Float32 || out.size() != t.size())
        return opError(*node.proto, "a float operand whose shape does not match its values");
    const float* src = t.data<float>();
    float* dst = out.data<float>();
    for (int64_t i = 0; i < out.size(); ++i) dst[i] = src[i] / divisor + offset;
    return out;
}

// ONNX Runtime's dynamic quantization in the float mode. DynamicQuantizeLinear keeps the scale and
// zero point it computes but not its rounding or saturation: its "codes" are x / scale + zero
// point as floats. The integer product after it, computed in float on (codes - zero point) and
// (weight codes - weight zero point), times the graph's scale product (input scale x weight
// scale) is then the float model's result on the stored weights.
ValueOut dynamicQuantizeInFloat(RunContext& ctx, size_t, const NodeInfo& node, std::vector<Value>& in)
{
    if (ctx.mode != SimMode::Float || in.empty()) return std::nullopt;
    const Tensor x = materialize(in[0]);
    OpCall call{*node.proto, {x}, ctx.impl.opset, ctx.pool, ctx.impl.folder};
    auto r = (*node.spec)(call);
    if (!r) return Result<std::vector<Value>>(r.error());
    if ((*r)[1].size() != 1 || (*r)[2].size() != 1) return opError(*node.proto, "no scale computed");
    auto codes = affineCopy(node, x, (*r)[1].toFloats()[0], static_cast<float>((*r)[2].atInt(0)));
    if (!codes) return Result<std::vector<Value>>(codes.error());
    std::vector<Value> out(3);
    out[0].t = std::move(*codes);
    out[1].t = (*r)[1];
    out[2].t = (*r)[2];
    return Result<std::vector<Value>>(std::move(out));
}

// MatMulInteger / ConvInteger in the float mode, when their input arrives as float codes (above):
// the float op on the operands minus their zero points, in the accumulator's units.
ValueOut integerProductInFloat(RunContext& ctx, size_t, const NodeInfo& node, std::vector<Value>& in)
{
    if (ctx.mode != SimMode::Float || !node.floatForm || in.size() < 2) return std::nullopt;
    const Tensor a = materialize(in[0]);
    if (a.dtype() != DType::Float32) return std::nullopt;
    const bool conv = node.proto->op_type() == "ConvInteger";
    auto centred = [&](const Tensor& t, size_t zeroAt, int axis) -> Result<Tensor> {
        std::vector<int64_t> zps{0};
        if (in.size() > zeroAt && in[zeroAt].defined()) zps = materialize(in[zeroAt]).toInts();
        if (zps.empty()) return opError(*node.proto, "an empty zero point");
        if (t.dtype() == DType::Float32)  // float codes: a scalar zero point
            return affineCopy(node, t, 1.0f, -static_cast<float>(zps[0]));
        auto p = makeQParams(t.dtype(), std::vector<float>(zps.size(), 1.0f), zps, zps.size() > 1 ? axis : -1,
                             t.shape());
        if (!p) return opError(*node.proto, p.error().message);
        return dequantize(t, *p);
    };
    auto x = centred(a, 2, -1);
    if (!x) return Result<std::vector<Value>>(x.error());
    const Tensor b = materialize(in[1]);
    auto w = centred(b, 3, conv ? 0 : static_cast<int>(b.rank()) - 1);
    if (!w) return Result<std::vector<Value>>(w.error());
    OpCall call{*node.floatForm, {*x, *w}, ctx.impl.opset, ctx.pool, ctx.impl.folder};
    auto r = (*findSpecOp(node.floatForm->op_type()))(call);
    if (!r) return Result<std::vector<Value>>(r.error());
    Value o;
    o.t = std::move((*r)[0]);
    return one(std::move(o));
}

ValueOut identity(RunContext&, size_t, const NodeInfo&, std::vector<Value>& in)
{
    return one(in.empty() ? Value{} : in[0]);
}

}  // namespace

Result<QParams> qparamsOf(const NodeInfo& node, const std::vector<Value>& in,
                          const std::vector<int64_t>& shape, DType fallback)
{
    if (in.size() < 2 || !in[1].defined()) return opError(*node.proto, "missing scale");
    const Tensor scale = materialize(in[1]);
    DType dtype = fallback;
    std::vector<int64_t> zps{0};
    if (in.size() > 2 && in[2].defined()) {
        dtype = in[2].t.dtype();
        zps = in[2].t.toInts();
    }
    int axis = static_cast<int>(NodeAttrs(*node.proto).i("axis", 1));
    if (scale.size() == 1) axis = -1;
    auto p = makeQParams(dtype, scale.toFloats(), zps, axis, shape);
    if (!p) return opError(*node.proto, p.error().message);
    return p;
}

void addQuantizerOps(ValueOpTable& t)
{
    t["QuantizeLinear"].anyMode = quantizeLinear;
    t["DequantizeLinear"].anyMode = dequantizeLinear;
    t["Clip"].anyMode = passQuantizerState;
    t["Cast"].anyMode = passQuantizerState;
    t["Identity"].anyMode = identity;
    t["QLinearConv"].anyMode = qlinearInFloat;
    t["QLinearMatMul"].anyMode = qlinearInFloat;
    t["DynamicQuantizeLinear"].anyMode = dynamicQuantizeInFloat;
    t["ConvInteger"].anyMode = integerProductInFloat;
    t["MatMulInteger"].anyMode = integerProductInFloat;
}

const ValueOp* findValueOp(const std::string& op)
{
    static const ValueOpTable kTable = [] {
        ValueOpTable t;
        addQuantizerOps(t);
        addIntModeOps(t);
        return t;
    }();
    auto it = kTable.find(op);
    return it == kTable.end() ? nullptr : &it->second;
}

}  // namespace qatdoctor::core::fixedpoint
