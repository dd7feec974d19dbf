// The integer mode: what the deployed model computes. Quantized tensors travel as integer codes
// with their scale (QReal); Conv/Gemm/MatMul produce int32 accumulators whose per-channel real
// scale and bias absorb the ops a deployment compiler folds (bias, Div, BatchNormalization,
// constant Mul/Add, Relu/Clip); the next QuantizeLinear requantizes them. Elementwise ops,
// pooling and LUT ops wait (Pending) for the output quantization they are rounded to.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "core/fixedpoint/broadcast.h"
#include "core/fixedpoint/conv_transpose_int.h"
#include "core/fixedpoint/interpreter_impl.h"
#include "core/fixedpoint/lut.h"
#include "core/fixedpoint/node_attrs.h"
#include "core/fixedpoint/pool_kernel.h"
#include "core/fixedpoint/resize_kernel.h"
#include "core/fixedpoint/simd_ops.h"

namespace qatdoctor::core::fixedpoint {
namespace {

using Outs = std::optional<Result<std::vector<Value>>>;

bool perTensorQ(const Value& v)
{
    return v.kind == Value::QReal && v.q.scales.size() == 1;
}

Value qreal(Tensor t, const QParams& q)
{
    Value v;
    v.kind = Value::QReal;
    v.t = std::move(t);
    v.q = q;
    return v;
}

Outs one(Value v)
{
    return Result<std::vector<Value>>(std::vector<Value>{std::move(v)});
}

// A value whose integer result waits for the quantizer that follows it (p->resolve).
Outs pendingOut(std::shared_ptr<PendingValue> p)
{
    Value o;
    o.kind = Value::Pending;
    o.pend = std::move(p);
    return one(o);
}

// The node's specification op on these inputs: the float view of a pending node.
Tensor runSpec(const NodeInfo& node, std::vector<Tensor> ins, int64_t opset)
{
    OpCall call{*node.proto, ins, opset, nullptr, {}};
    return (*node.spec)(call).value()[0];
}

int64_t zp0(const QParams& p)
{
    return p.zeroPoints[0];
}

// Runs the specification op on integer codes (shape ops, MaxPool, nearest Resize).
Result<std::vector<Tensor>> specOnCodes(RunContext& ctx, const NodeInfo& node, const std::vector<Value>& in)
{
    std::vector<Tensor> ins;
    for (const Value& v : in)
        ins.push_back(v.defined() ? (v.kind == Value::QReal || v.kind == Value::Plain ? v.t : materialize(v))
                                  : Tensor());
    OpCall call{*node.proto, ins, ctx.impl.opset, ctx.pool, ctx.impl.folder};
    return (*node.spec)(call);
}

std::string layerName(const RunContext& ctx, size_t ni)
{
    const int li = ctx.layerOfNode[ni];
    return li >= 0 ? ctx.layers[static_cast<size_t>(li)].name : ctx.impl.nodes[ni].proto->name();
}

std::shared_ptr<AccValue> newAcc(Accumulator acc, int axis, const QParams& x, const QParams& w,
                                 int64_t channels)
{
    auto a = std::make_shared<AccValue>();
    a->acc = std::make_shared<const Accumulator>(std::move(acc));
    a->axis = axis;
    for (int64_t c = 0; c < channels; ++c) {
        a->scale.push_back(static_cast<double>(x.scales[0]) *
                           static_cast<double>(w.scale(w.scales.size() == 1 ? 0 : c)));
        a->bias.push_back(0.0);
    }
    return a;
}

Outs accValue(RunContext& ctx, size_t ni, std::shared_ptr<AccValue> a)
{
    if (a->acc->overflows) ctx.result.overflows[layerName(ctx, ni)] += a->acc->overflows;
    a->layer = layerName(ctx, ni);
    Value v;
    v.kind = Value::Acc;
    v.acc = std::move(a);
    return one(v);
}

bool addBias(AccValue& a, const Value& b)
{
    if (!b.defined()) return true;
    const Tensor bt = materialize(b);
    if (bt.size() == 1) {
        for (double& x : a.bias) x += bt.at(0);
        return true;
    }
    if (bt.size() != static_cast<int64_t>(a.bias.size())) return false;
    for (size_t c = 0; c < a.bias.size(); ++c) a.bias[c] += bt.at(static_cast<int64_t>(c));
    return true;
}

// 8-bit activations x symmetric int8 weights with int32 sums: the SIMD path (same sums as the
// portable one, which keeps every other case and is the reference in the tests).
bool fastPathFor(const Value& x, const Value& w, int64_t k)
{
    const bool symmetric =
        std::all_of(w.q.zeroPoints.begin(), w.q.zeroPoints.end(), [](int64_t z) { return z == 0; });
    return int8FastPathAvailable() && isNarrow(x.t.dtype()) && w.t.dtype() == DType::Int8 && symmetric &&
           k < 33025;
}

// Weights packed once per node and Interpreter (runs share them), keyed by the code buffer.
template <class PackFn>
std::shared_ptr<const PackedInt8Weights> packedFor(RunContext& ctx, size_t ni, const Tensor& w, PackFn packFn)
{
    std::lock_guard<std::mutex> lock(ctx.impl.packMutex);
    auto& slot = ctx.impl.packed[ni];
    if (slot.source != w.data<uint8_t>() || !slot.weights) {
        slot.source = w.data<uint8_t>();
        slot.weights = std::make_shared<PackedInt8Weights>(packFn());
    }
    return slot.weights;
}

Outs conv(RunContext& ctx, size_t ni, const NodeInfo& node, std::vector<Value>& in)
{
    if (!perTensorQ(in[0]) || in[1].kind != Value::QReal) return std::nullopt;
    auto g = convGeometry(*node.proto, in[0].t.shape(), in[1].t.shape());
    if (!g) return Result<std::vector<Value>>(g.error());
    Accumulator acc;
    std::shared_ptr<DeferredAcc> deferred;
    if (fastPathFor(in[0], in[1], g->kernelSize())) {
        const Tensor& w = in[1].t;
        auto packed = packedFor(ctx, ni, w, [&] {
            return packInt8Weights(w.data<int8_t>(), g->m, g->kernelSize(), g->group, g->kh * g->kw);
        });
        acc.shape = g->outShape();
        // run when the requantization asks (codes straight from the kernel) or the sums are read
        deferred = std::make_shared<DeferredAcc>();
        deferred->run = [geom = *g, x = in[0].t, zero = static_cast<int32_t>(zp0(in[0].q)), packed,
                         pool = ctx.pool,
                         scratch = &ctx.scratch](int32_t* sums, const Requant8* rq, uint8_t* codes) {
            convX8S8(geom, x.data<uint8_t>(), x.dtype() == DType::Int8, zero, *packed, sums, pool, scratch,
                     rq, codes);
        };
    } else {
        acc = convInteger(*g, in[0].t, zp0(in[0].q), in[1].t, in[1].q.zeroPoints, ctx.pool);
    }
    auto a = newAcc(std::move(acc), 1, in[0].q, in[1].q, g->m);
    a->deferred = std::move(deferred);
    if (in.size() > 2 && !addBias(*a, in[2])) return std::nullopt;
    return accValue(ctx, ni, a);
}

// ConvTranspose (upsampling decoders) on codes: exact integer sums (conv_transpose_int.h) into an
// accumulator like Conv's, so bias, BatchNormalization and Relu fold and the next quantizer
// requantizes once. Per-channel weights run along W's axis 1 (M / group channels, shared by the
// same channel of every group).
Outs convTransposeOp(RunContext& ctx, size_t ni, const NodeInfo& node, std::vector<Value>& in)
{
    if (!perTensorQ(in[0]) || in.size() < 2 || in[1].kind != Value::QReal || in[1].t.rank() < 3)
        return std::nullopt;
    const QParams& wq = in[1].q;
    if (wq.scales.size() > 1 && wq.axis != 1) return std::nullopt;
    auto g = convTransposeGeometry(*node.proto, in[0].t.shape(), in[1].t.shape());
    if (!g) return Result<std::vector<Value>>(g.error());
    auto acc = convTransposeInteger(*g, in[0].t, zp0(in[0].q), in[1].t, wq.zeroPoints, ctx.pool);
    if (!acc) return std::nullopt;
    auto a = std::make_shared<AccValue>();
    a->acc = std::make_shared<const Accumulator>(std::move(*acc));
    a->axis = 1;
    const int64_t perGroup = in[1].t.dim(1);
    for (int64_t m = 0; m < g->m; ++m) {
        a->scale.push_back(double(in[0].q.scales[0]) *
                           double(wq.scale(wq.scales.size() == 1 ? 0 : m % perGroup)));
        a->bias.push_back(0.0);
    }
    if (in.size() > 2 && !addBias(*a, in[2])) return std::nullopt;
    return accValue(ctx, ni, a);
}

Tensor transposeCodes(const Tensor& t)
{
    const int64_t r = t.dim(0), c = t.dim(1);
    Tensor o(t.dtype(), {c, r});
    const size_t es = elementSize(t.dtype());
    for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < c; ++j)
            std::memcpy(o.data<uint8_t>() + (j * r + i) * static_cast<int64_t>(es),
                        t.data<uint8_t>() + (i * c + j) * static_cast<int64_t>(es), es);
    return o;
}

Outs gemm(RunContext& ctx, size_t ni, const NodeInfo& node, std::vector<Value>& in, bool isGemm)
{
    if (!perTensorQ(in[0]) || in[1].kind != Value::QReal || in[1].t.rank() != 2) return std::nullopt;
    NodeAttrs a(*node.proto);
    if (isGemm && a.i("transA", 0)) return std::nullopt;
    QParams bq = in[1].q;
    const bool transB = isGemm && a.i("transB", 0);
    // per-channel weight must run along N
    if (bq.scales.size() > 1 && bq.axis != (transB ? 0 : 1)) return std::nullopt;
    const Tensor& W = in[1].t;
    const int64_t K = transB ? W.dim(1) : W.dim(0), N = transB ? W.dim(0) : W.dim(1);
    const Tensor& A = in[0].t;
    if (A.shape().back() != K) return std::nullopt;
    const int64_t M = A.size() / K;
    Accumulator acc;
    if (fastPathFor(in[0], in[1], K)) {
        auto packed = packedFor(ctx, ni, W, [&] {
            return transB ? packInt8Weights(W.data<int8_t>(), N, K)
                          : packInt8WeightsTransposed(W.data<int8_t>(), K, N);
        });
        acc.acc32.resize(static_cast<size_t>(M * N));
        gemmX8S8(M, A.data<uint8_t>(), A.dtype() == DType::Int8, static_cast<int32_t>(zp0(in[0].q)), *packed,
                 acc.acc32.data(), ctx.pool, &ctx.scratch);
    } else {
        acc =
            matmulInteger(A, zp0(in[0].q), transB ? transposeCodes(W) : W, bq.zeroPoints, M, K, N, ctx.pool);
    }
    std::vector<int64_t> shape = A.shape();
    shape.back() = N;
    acc.shape = shape;
    auto av = newAcc(std::move(acc), static_cast<int>(shape.size()) - 1, in[0].q, bq, N);
    if (isGemm) {
        const float alpha = a.f("alpha", 1.0f), beta = a.f("beta", 1.0f);
        for (double& s : av->scale) s *= alpha;
        if (in.size() > 2 && in[2].defined()) {
            Value c = in[2];
            Tensor ct = materialize(c);
            for (int64_t i = 0; i < ct.size(); ++i) ct.set(i, ct.at(i) * beta);
            Value cv;
            cv.t = ct;
            if (!addBias(*av, cv)) return std::nullopt;
        }
    }
    return accValue(ctx, ni, av);
}

// A constant operand that is a scalar or one value per accumulator channel.
std::optional<std::vector<double>> perChannelConst(const Value& v, const AccValue& a)
{
    if (v.kind != Value::Plain || v.t.empty()) return std::nullopt;
    const int64_t channels = static_cast<int64_t>(a.scale.size());
    if (v.t.size() == 1) return std::vector<double>(static_cast<size_t>(channels), v.t.at(0));
    if (v.t.size() != channels) return std::nullopt;
    // the non-unit dimension must line up with the channel axis (right-aligned broadcasting)
    const int64_t rank = static_cast<int64_t>(a.acc->shape.size());
    const auto& s = v.t.shape();
    for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d)
        if (s[static_cast<size_t>(d)] != 1 && rank - static_cast<int64_t>(s.size()) + d != a.axis)
            return std::nullopt;
    return v.t.toDoubles();
}

Outs accAffine(const std::string& op, std::vector<Value>& in)
{
    const bool accFirst = in[0].kind == Value::Acc;
    const Value& accV = accFirst ? in[0] : in[1];
    const Value& other = accFirst ? in[1] : in[0];
    auto a = std::make_shared<AccValue>(*accV.acc);
    auto k = perChannelConst(other, *a);
    if (!k || std::isfinite(a->lo) || std::isfinite(a->hi)) return std::nullopt;
    if (!accFirst && (op == "Sub" || op == "Div")) return std::nullopt;
    for (size_t c = 0; c < a->scale.size(); ++c) {
        const double v = (*k)[c];
        if (op == "Div") {
            a->scale[c] /= v;
            a->bias[c] /= v;
        } else if (op == "Mul") {
            a->scale[c] *= v;
            a->bias[c] *= v;
        } else if (op == "Add")
            a->bias[c] += v;
        else if (op == "Sub")
            a->bias[c] -= v;
    }
    Value o;
    o.kind = Value::Acc;
    o.acc = a;
    return one(o);
}

// Add (or Sub) of an accumulator and a quantized tensor with no quantizer between them: the
// residual add a deployment compiler fuses into the convolution. The other operand is rescaled
// into the accumulator's scale per channel (sb / s[c], an integer multiplier in fixed mode, one
// rounding of at most half an accumulator step), added to the int32 sums with the folded bias,
// and the sum requantized once into the output quantization.
Outs accAddQuantized(RunContext& ctx, const NodeInfo& node, std::vector<Value>& in)
{
    const std::string& op = node.proto->op_type();
    const bool accFirst = in[0].kind == Value::Acc;
    const Value accV = accFirst ? in[0] : in[1];
    const Value other = accFirst ? in[1] : in[0];
    if (!(op == "Add" || (op == "Sub" && accFirst)) || !perTensorQ(other)) return std::nullopt;
    const AccValue& a = *accV.acc;
    if (std::isfinite(a.lo) || std::isfinite(a.hi)) return std::nullopt;
    for (double sc : a.scale)
        if (sc == 0) return std::nullopt;
    const auto shape = broadcastShapes({a.acc->shape, other.t.shape()});
    if (!shape || *shape != a.acc->shape) return std::nullopt;  // the sum keeps the accumulator's shape
    const RequantMode mode = ctx.options.requant;
    const int64_t sign = op == "Sub" ? -1 : 1;
    auto p = std::make_shared<PendingValue>();
    p->resolve = [acc = accV.acc, other, sign, mode](const QParams& out) {
        const AccValue& a = *acc;
        const Accumulator& sums = accSums(a);
        const AxisLayout l = axisLayout(a.acc->shape, a.axis);
        const double sb = other.q.scales[0];
        const int64_t zb = zp0(other.q);
        std::vector<Requantizer> rq;
        std::vector<int64_t> biasQ;
        std::vector<double> toAcc;
        std::vector<FixedMultiplier> toAccFixed;
        for (size_t c = 0; c < a.scale.size(); ++c) {
            rq.push_back(Requantizer::make(a.scale[c] / out.scales[0], zp0(out), out.range));
            biasQ.push_back(static_cast<int64_t>(std::nearbyint(a.bias[c] / a.scale[c])));
            toAcc.push_back(sb / a.scale[c]);
            toAccFixed.push_back(quantizeMultiplier(sb / a.scale[c]));
        }
        Tensor y(out.dtype, a.acc->shape);
        forEachBroadcast(a.acc->shape, {broadcastStrides(other.t.shape(), a.acc->shape)},
                         [&](int64_t i, const std::vector<int64_t>& offs) {
                             const auto c = static_cast<size_t>((i / l.inner) % l.channels);
                             const int64_t xb = other.t.atInt(offs[0]) - zb;
                             const int64_t add =
                                 mode == RequantMode::Float
                                     ? static_cast<int64_t>(std::nearbyint(double(xb) * toAcc[c]))
                                     : int64_t{multiplyByQuantizedMultiplier(xb, toAccFixed[c], mode.ties)};
                             y.setInt(i, rq[c].apply(sums.at(i) + biasQ[c] + sign * add, mode));
                         });
        return y;
    };
    p->shape = a.acc->shape;
    p->toFloat = [accV, other, np = &node, accFirst, opset = ctx.impl.opset] {
        std::vector<Tensor> ins{materialize(accV), dequantize(other.t, other.q)};
        if (!accFirst) std::swap(ins[0], ins[1]);
        return runSpec(*np, ins, opset);
    };
    return pendingOut(p);
}

Outs batchNorm(const NodeInfo& node, std::vector<Value>& in)
{
    if (in[0].kind != Value::Acc || in[0].acc->axis != 1 || in.size() < 5) return std::nullopt;
    auto a = std::make_shared<AccValue>(*in[0].acc);
    if (std::isfinite(a->lo) || std::isfinite(a->hi)) return std::nullopt;
    const double eps = NodeAttrs(*node.proto).f("epsilon", 1e-5f);
    const Tensor g = materialize(in[1]), b = materialize(in[2]), m = materialize(in[3]),
                 v = materialize(in[4]);
    for (size_t c = 0; c < a->scale.size(); ++c) {
        const auto ci = static_cast<int64_t>(c);
        const double k = g.at(ci) / std::sqrt(v.at(ci) + eps);
        a->scale[c] *= k;
        a->bias[c] = a->bias[c] * k + b.at(ci) - m.at(ci) * k;
    }
    Value o;
    o.kind = Value::Acc;
    o.acc = a;
    return one(o);
}

// Relu / Clip on codes: Q is monotone, so Q(clip(x)) = clamp(Q(x), Q(lo), Q(hi)).
Value clampCodes(const Value& x, double lo, double hi)
{
    const double s = x.q.scales[0];
    const int64_t zp = zp0(x.q);
    const int64_t qlo = std::isfinite(lo) ? zp + static_cast<int64_t>(std::nearbyint(lo / s)) : x.q.range.min;
    const int64_t qhi = std::isfinite(hi) ? zp + static_cast<int64_t>(std::nearbyint(hi / s)) : x.q.range.max;
    Tensor t(x.t.dtype(), x.t.shape());
    // 8-bit codes (every Relu / Clip of a usual QAT model) by their own type: the generic element
    // access costs more than the rest of a small CNN's integer run
    auto typed = [&](auto zero) {
        using T = decltype(zero);
        const T lo8 = static_cast<T>(
            std::clamp<int64_t>(qlo, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
        const T hi8 = static_cast<T>(
            std::clamp<int64_t>(qhi, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
        const T* __restrict src = x.t.data<T>();  // t is a new tensor: no overlap
        T* __restrict dst = t.data<T>();
        const int64_t n = t.size();
        if (lo8 <= hi8 && clampRowX8(reinterpret_cast<const uint8_t*>(src), n, lo8, hi8, std::is_signed_v<T>,
                                     reinterpret_cast<uint8_t*>(dst)))
            return;
        for (int64_t i = 0; i < n; ++i) dst[i] = std::clamp(src[i], lo8, hi8);
    };
    if (x.t.dtype() == DType::UInt8)
        typed(uint8_t{});
    else if (x.t.dtype() == DType::Int8)
        typed(int8_t{});
    else
        for (int64_t i = 0; i < t.size(); ++i) t.setInt(i, std::clamp(x.t.atInt(i), qlo, qhi));
    return qreal(t, x.q);
}

Outs clampOp(const std::string& op, std::vector<Value>& in, int64_t opset, const NodeInfo& node)
{
    double lo = 0, hi = std::numeric_limits<double>::infinity();
    if (op == "Clip") {
        lo = -std::numeric_limits<double>::infinity();
        if (opset < 11) {
            NodeAttrs a(*node.proto);
            lo = a.f("min", -3.4e38f);
            hi = a.f("max", 3.4e38f);
        } else {
            if (in.size() > 1 && in[1].defined()) lo = materialize(in[1]).at(0);
            if (in.size() > 2 && in[2].defined()) hi = materialize(in[2]).at(0);
        }
    }
    if (in[0].kind == Value::Acc) {
        auto a = std::make_shared<AccValue>(*in[0].acc);
        a->lo = std::max(a->lo, lo);
        a->hi = std::min(a->hi, hi);
        Value o;
        o.kind = Value::Acc;
        o.acc = a;
        return one(o);
    }
    if (in[0].kind == Value::Pending && op == "Relu") {
        auto p = std::make_shared<PendingValue>(*in[0].pend);
        p->relu = true;
        auto base = in[0].pend;
        p->toFloat = [base] {
            Tensor f = base->defaultParams
                           ? dequantize(base->resolve(*base->defaultParams), *base->defaultParams)
                           : base->toFloat();
            for (int64_t i = 0; i < f.size(); ++i) f.data<float>()[i] = std::max(0.0f, f.data<float>()[i]);
            return f;
        };
        return pendingOut(p);
    }
    if (perTensorQ(in[0])) return one(clampCodes(in[0], lo, hi));
    return std::nullopt;
}

// Broadcasting or a per-channel operand (a scale tensor [1,C,1,1] quantized per channel, say):
// the same arithmetic with each element's own input scale (binaryCodes).
Outs broadcastPending(RunContext& ctx, const NodeInfo& node, std::vector<Value>& in)
{
    if (in[0].kind != Value::QReal || in[1].kind != Value::QReal) return std::nullopt;
    const Value a = in[0], b = in[1];
    const std::string op = node.proto->op_type();
    const RequantMode mode = ctx.options.requant;
    if (!binaryCodesFit(a.t, a.q, b.t, b.q)) return std::nullopt;  // float; listed as a fallback
    auto p = std::make_shared<PendingValue>();
    p->resolve = [a, b, op, mode](const QParams& out) {
        return *binaryCodes(op, a.t, a.q, b.t, b.q, out, mode);
    };
    p->shape = *broadcastShapes({a.t.shape(), b.t.shape()});
    p->toFloat = [a, b, np = &node, opset = ctx.impl.opset] {
        std::vector<Tensor> ins{dequantize(a.t, a.q), dequantize(b.t, b.q)};
        return runSpec(*np, ins, opset);
    };
    return pendingOut(p);
}

// Elementwise Add/Sub/Mul of two quantized tensors, rounded once into the output quantization.
Outs binaryPending(RunContext& ctx, const NodeInfo& node, std::vector<Value>& in)
{
    const std::string& op = node.proto->op_type();
    if (!perTensorQ(in[0]) || !perTensorQ(in[1]) || in[0].t.shape() != in[1].t.shape())
        return broadcastPending(ctx, node, in);
    const Value a = in[0], b = in[1];
    const RequantMode mode = ctx.options.requant;
    auto p = std::make_shared<PendingValue>();
    const double sign = op == "Sub" ? -1.0 : 1.0;
    p->resolve = [a, b, op, sign, mode](const QParams& out) {
        Tensor y(out.dtype, a.t.shape());
        const double sa = a.q.scales[0], sb = b.q.scales[0], so = out.scales[0];
        const int64_t za = zp0(a.q), zb = zp0(b.q), zo = zp0(out);
        if (op == "Mul") {
            const Requantizer r = Requantizer::make(sa * sb / so, zo, out.range);
            for (int64_t i = 0; i < y.size(); ++i)
                y.setInt(i, r.apply((a.t.atInt(i) - za) * (b.t.atInt(i) - zb), mode));
            return y;
        }
        if (mode == RequantMode::Float && a.t.dtype() == DType::UInt8 && b.t.dtype() == DType::UInt8 &&
            out.dtype == DType::UInt8) {
            const uint8_t* pa = a.t.data<uint8_t>();
            const uint8_t* pb = b.t.data<uint8_t>();
            uint8_t* py = y.data<uint8_t>();
            if (addRowsU8(pa, pb, y.size(), sa, static_cast<int32_t>(za), sb, static_cast<int32_t>(zb), sign,
                          so, static_cast<int32_t>(zo), static_cast<int32_t>(out.range.min),
                          static_cast<int32_t>(out.range.max), py))
                return y;
            for (int64_t i = 0; i < y.size(); ++i) {
                const double v =
                    (sa * double(int64_t(pa[i]) - za) + sign * sb * double(int64_t(pb[i]) - zb)) / so;
                py[i] =
                    static_cast<uint8_t>(saturate(static_cast<int64_t>(std::nearbyint(v)) + zo, out.range));
            }
            return y;
        }
        if (mode == RequantMode::Float) {
            for (int64_t i = 0; i < y.size(); ++i) {
                const double v =
                    (sa * double(a.t.atInt(i) - za) + sign * sb * double(b.t.atInt(i) - zb)) / so;
                y.setInt(i, saturate(static_cast<int64_t>(std::nearbyint(v)) + zo, out.range));
            }
            return y;
        }
        // TFLite's integer add: inputs shifted left, rescaled to twice the larger scale, summed,
        // then one output multiplier.
        const int leftShift = (a.t.dtype() == DType::Int16 || a.t.dtype() == DType::UInt16) ? 15 : 20;
        const double twiceMax = 2.0 * std::max(sa, sb);
        const FixedMultiplier ma = quantizeMultiplier(sa / twiceMax), mb = quantizeMultiplier(sb / twiceMax);
        const FixedMultiplier mo = quantizeMultiplier(twiceMax / (double(int64_t{1} << leftShift) * so));
        for (int64_t i = 0; i < y.size(); ++i) {
            const int64_t xa =
                multiplyByQuantizedMultiplier((a.t.atInt(i) - za) * (int64_t{1} << leftShift), ma, mode.ties);
            int64_t xb =
                multiplyByQuantizedMultiplier((b.t.atInt(i) - zb) * (int64_t{1} << leftShift), mb, mode.ties);
            if (sign < 0) xb = -xb;
            y.setInt(
                i, saturate(int64_t{multiplyByQuantizedMultiplier(xa + xb, mo, mode.ties)} + zo, out.range));
        }
        return y;
    };
    p->shape = a.t.shape();
    p->toFloat = [a, b, op, sign] {
        const Tensor fa = dequantize(a.t, a.q), fb = dequantize(b.t, b.q);
        Tensor y(DType::Float32, fa.shape());
        for (int64_t i = 0; i < y.size(); ++i) {
            const float x = fa.data<float>()[i], z = fb.data<float>()[i];
            y.data<float>()[i] = op == "Mul" ? x * z : (sign < 0 ? x - z : x + z);
        }
        return y;
    };
    return pendingOut(p);
}

Outs concatPending(RunContext& ctx, const NodeInfo& node, std::vector<Value>& in)
{
    for (const Value& v : in)
        if (!perTensorQ(v)) return std::nullopt;
    bool same = true;
    for (const Value& v : in)
        same = same && v.q.scales == in[0].q.scales && v.q.zeroPoints == in[0].q.zeroPoints &&
               v.t.dtype() == in[0].t.dtype();
    const std::vector<Value> ins = in;
    const NodeInfo* np = &node;
    const int64_t opset = ctx.impl.opset;
    const RequantMode mode = ctx.options.requant;
    auto p = std::make_shared<PendingValue>();
    p->resolve = [ins, np, opset, mode](const QParams& out) {
        std::vector<Tensor> parts;
        for (const Value& v : ins) {
            const Requantizer r =
                Requantizer::make(double(v.q.scales[0]) / out.scales[0], zp0(out), out.range);
            Tensor t(out.dtype, v.t.shape());
            for (int64_t i = 0; i < t.size(); ++i) t.setInt(i, r.apply(v.t.atInt(i) - zp0(v.q), mode));
            parts.push_back(t);
        }
        return runSpec(*np, parts, opset);
    };
    p->toFloat = [ins, np, opset] {
        std::vector<Tensor> parts;
        for (const Value& v : ins) parts.push_back(dequantize(v.t, v.q));
        return runSpec(*np, parts, opset);
    };
    if (same) p->defaultParams = in[0].q;
    {
        std::vector<Tensor> shapes;
        for (const Value& v : ins) shapes.push_back(v.t);
        OpCall call{*np->proto, shapes, opset, nullptr, {}};
        auto joined = (*np->spec)(call);
        if (joined) p->shape = (*joined)[0].shape();
    }
    Value o;
    o.kind = Value::Pending;
    o.pend = p;
    return one(settle(o));
}

Outs avgPool(RunContext& ctx, const NodeInfo& node, std::vector<Value>& in, bool global)
{
    if (!perTensorQ(in[0])) return std::nullopt;
    auto g = poolGeometry(*node.proto, in[0].t.shape(), global);
    if (!g) return Result<std::vector<Value>>(g.error());
    const bool includePad = NodeAttrs(*node.proto).i("count_include_pad", 0) != 0;
    const Value x = in[0];
    std::vector<int64_t> sums(static_cast<size_t>(g->n * g->c * g->outPixels()));
    // padding is real 0, i.e. the zero point, but sumPool adds nothing for it: with
    // count_include_pad the divisor counts the pads, the zero-point correction only the real taps
    std::vector<int64_t> counts, taps;
    bool ok = dispatchType(x.t.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> ||
                      std::is_same_v<T, uint16_t>)
            sumPool<T, int64_t>(*g, x.t.data<T>(), sums.data(), counts, includePad, &taps);
    });
    if (!ok || counts.empty()) return std::nullopt;
    const PoolGeometry geom = *g;
    const RequantMode mode = ctx.options.requant;
    auto p = std::make_shared<PendingValue>();
    p->resolve = [x, sums, counts, taps, geom, mode](const QParams& out) {
        Tensor y(out.dtype, geom.outShape());
        const int64_t P = geom.outPixels();
        std::vector<Requantizer> rq;
        for (int64_t cnt : counts)
            rq.push_back(Requantizer::make(double(x.q.scales[0]) / (double(cnt) * out.scales[0]), zp0(out),
                                           out.range));
        for (int64_t i = 0; i < y.size(); ++i) {
            const auto pix = static_cast<size_t>(i % P);
            y.setInt(i, rq[pix].apply(sums[static_cast<size_t>(i)] - taps[pix] * zp0(x.q), mode));
        }
        return y;
    };
    p->defaultParams = x.q;
    p->shape = geom.outShape();
    return pendingOut(p);
}

Outs lutOp(RunContext& ctx, size_t ni, const NodeInfo& node, std::vector<Value>& in)
{
    if (!perTensorQ(in[0])) return std::nullopt;
    const std::string& op = node.proto->op_type();
    const UnaryFn f =
        nonlinearFunction(*node.proto);  // with the node's attributes (Gelu's form, alpha, beta)
    if (!f) return std::nullopt;
    const Value x = in[0];
    const std::string layer = layerName(ctx, ni);
    RunResult* result = &ctx.result;
    auto p = std::make_shared<PendingValue>();
    p->resolve = [x, f, layer, op, result](const QParams& out) {
        LutReport rep;
        rep.layer = layer;
        rep.op = op;
        Tensor y = applyLut(x.t, x.q, out, f, rep);
        result->luts.push_back(rep);
        return y;
    };
    p->shape = x.t.shape();
    p->toFloat = [x, f] {
        Tensor fx = dequantize(x.t, x.q);
        for (int64_t i = 0; i < fx.size(); ++i)
            fx.data<float>()[i] = static_cast<float>(f(fx.data<float>()[i]));
        return fx;
    };
    return pendingOut(p);
}

// Softmax on codes: exp(s * (q - max)) from a table in Q16, integer sums, one rounding.
Outs softmaxOp(RunContext& ctx, size_t ni, const NodeInfo& node, std::vector<Value>& in)
{
    if (!perTensorQ(in[0]) || ctx.impl.opset < 13) return std::nullopt;
    const Value x = in[0];
    int64_t axis = NodeAttrs(*node.proto).i("axis", -1);
    if (axis < 0) axis += x.t.rank();
    const std::string layer = layerName(ctx, ni);
    RunResult* result = &ctx.result;
    auto p = std::make_shared<PendingValue>();
    p->resolve = [x, axis, layer, result](const QParams& out) {
        const AxisLayout l = axisLayout(x.t.shape(), static_cast<int>(axis));
        const double s = x.q.scales[0];
        const QRange r = qrange(x.t.dtype());
        std::vector<int64_t> table(static_cast<size_t>(r.max - r.min + 1));
        for (size_t d = 0; d < table.size(); ++d)
            table[d] = static_cast<int64_t>(std::nearbyint(std::exp(-s * double(d)) * 65536.0));
        Tensor y(out.dtype, x.t.shape());
        LutReport rep;
        rep.layer = layer;
        rep.op = "Softmax";
        rep.entries = static_cast<int>(table.size());
        double maxErr = 0, sumErr = 0;
        int64_t count = 0;
        for (int64_t o = 0; o < l.outer; ++o)
            for (int64_t k = 0; k < l.inner; ++k) {
                const int64_t base = o * l.channels * l.inner + k;
                int64_t mx = r.min;
                for (int64_t c = 0; c < l.channels; ++c) mx = std::max(mx, x.t.atInt(base + c * l.inner));
                int64_t sum = 0;
                double fsum = 0;
                for (int64_t c = 0; c < l.channels; ++c) {
                    sum += table[static_cast<size_t>(mx - x.t.atInt(base + c * l.inner))];
                    fsum += std::exp(-s * double(mx - x.t.atInt(base + c * l.inner)));
                }
                for (int64_t c = 0; c < l.channels; ++c) {
                    const int64_t e = table[static_cast<size_t>(mx - x.t.atInt(base + c * l.inner))];
                    const double v = double(e) / double(sum) / out.scales[0];
                    const int64_t q = saturate(static_cast<int64_t>(std::nearbyint(v)) + zp0(out), out.range);
                    y.setInt(base + c * l.inner, q);
                    const double exact = std::exp(-s * double(mx - x.t.atInt(base + c * l.inner))) / fsum;
                    const double err = std::fabs(double(q - zp0(out)) * out.scales[0] - exact);
                    maxErr = std::max(maxErr, err);
                    sumErr += err;
                    ++count;
                }
            }
        rep.maxError = maxErr;
        rep.meanError = count ? sumErr / double(count) : 0;
        rep.maxErrorLsb = maxErr / out.scales[0];
        result->luts.push_back(rep);
        return y;
    };
    p->shape = x.t.shape();
    p->toFloat = [x, np = &node, opset = ctx.impl.opset] {
        return runSpec(*np, {dequantize(x.t, x.q)}, opset);
    };
    return pendingOut(p);
}

// Linear Resize on 8- or 16-bit codes (resize_kernel.h): fixed-point weights, one rounding into the
// output quantization; keeps the input's quantization when no quantizer follows.
Outs resizeLinear(RunContext& ctx, const NodeInfo& node, std::vector<Value>& in)
{
    const DType type = perTensorQ(in[0]) ? in[0].t.dtype() : DType::Float32;
    if (!isNarrow(type) && type != DType::Int16 && type != DType::UInt16) return std::nullopt;
    std::vector<Tensor> ins{Tensor()};
    for (size_t k = 1; k < in.size(); ++k) {
        if (in[k].defined() && in[k].kind != Value::Plain) return std::nullopt;  // scales/sizes from data
        ins.push_back(in[k].t);
    }
    auto plan = linearResizePlan(*node.proto, ctx.impl.opset, node.proto->op_type() == "Upsample",
                                 in[0].t.shape(), ins, type);
    if (!plan) return std::nullopt;
    const Value x = in[0];
    const RequantMode mode = ctx.options.requant;
    auto p = std::make_shared<PendingValue>();
    p->resolve = [x, plan = *plan, mode](const QParams& out) {
        return resizeLinearCodes(plan, x.t, zp0(x.q), x.q.scales[0], out, mode);
    };
    p->toFloat = [x, ins, np = &node, opset = ctx.impl.opset] {
        std::vector<Tensor> fin = ins;
        fin[0] = dequantize(x.t, x.q);
        return runSpec(*np, fin, opset);
    };
    p->defaultParams = x.q;
    p->shape = plan->outShape;
    return pendingOut(p);
}

// Ops that only move or pick codes: the specification kernel runs on the codes themselves.
constexpr const char* kCodeOps[] = {"Reshape", "Flatten",       "Squeeze", "Unsqueeze", "Transpose",
                                    "Slice",   "Gather",        "Split",   "Expand",    "Tile",
                                    "MaxPool", "GlobalMaxPool", "Dropout"};
// Nonlinear ops the deployment computes by look-up table.
constexpr const char* kLutOps[] = {"Sigmoid",     "Tanh", "Exp",      "Log",      "Sqrt",
                                   "Reciprocal",  "Erf",  "Gelu",     "Softplus", "HardSwish",
                                   "HardSigmoid", "Elu",  "LeakyRelu"};

// The integer mode's handlers, one signature for the table. Most first settle their inputs (a
// pending result takes its default quantization); Relu keeps a pending input pending, so that it
// folds into the requantization of what it follows.
void settleAll(std::vector<Value>& in)
{
    for (Value& v : in) v = settle(v);
}

ValueOut codesThroughSpec(RunContext& ctx, const NodeInfo& node, std::vector<Value>& in)
{
    if (!perTensorQ(in[0])) return std::nullopt;
    auto r = specOnCodes(ctx, node, in);
    if (!r) return Result<std::vector<Value>>(r.error());
    std::vector<Value> outs;
    for (Tensor& t : *r) {
        Value plain;
        plain.t = t;
        outs.push_back(t.dtype() == in[0].t.dtype() ? qreal(t, in[0].q) : plain);
    }
    return Result<std::vector<Value>>(outs);
}

ValueOut intConv(RunContext& c, size_t ni, const NodeInfo& n, std::vector<Value>& in)
{
    settleAll(in);
    return conv(c, ni, n, in);
}
ValueOut intConvTranspose(RunContext& c, size_t ni, const NodeInfo& n, std::vector<Value>& in)
{
    settleAll(in);
    return convTransposeOp(c, ni, n, in);
}
ValueOut intGemm(RunContext& c, size_t ni, const NodeInfo& n, std::vector<Value>& in)
{
    settleAll(in);
    return gemm(c, ni, n, in, true);
}
ValueOut intMatMul(RunContext& c, size_t ni, const NodeInfo& n, std::vector<Value>& in)
{
    settleAll(in);
    return gemm(c, ni, n, in, false);
}
ValueOut intBatchNorm(RunContext&, size_t, const NodeInfo& n, std::vector<Value>& in)
{
    settleAll(in);
    return batchNorm(n, in);
}
ValueOut intRelu(RunContext& c, size_t, const NodeInfo& n, std::vector<Value>& in)
{
    if (in[0].kind != Value::Pending) in[0] = settle(in[0]);
    return clampOp("Relu", in, c.impl.opset, n);
}
ValueOut intClip(RunContext& c, size_t, const NodeInfo& n, std::vector<Value>& in)
{
    settleAll(in);
    return clampOp("Clip", in, c.impl.opset, n);
}
// Add, Sub, Mul, Div: on an accumulator, folded into its affine map (or added to the other side's
// codes); otherwise (not Div) a pending sum of two quantized values.
ValueOut intArithmetic(RunContext& c, size_t, const NodeInfo& n, std::vector<Value>& in)
{
    settleAll(in);
    const std::string& op = n.proto->op_type();
    if (in.size() != 2) return std::nullopt;
    if (in[0].kind == Value::Acc || in[1].kind == Value::Acc) {
        if (auto r = accAffine(op, in)) return r;
        return accAddQuantized(c, n, in);
    }
    if (op == "Div") return std::nullopt;
    return binaryPending(c, n, in);
}
ValueOut intConcat(RunContext& c, size_t, const NodeInfo& n, std::vector<Value>& in)
{
    settleAll(in);
    return concatPending(c, n, in);
}
ValueOut intAveragePool(RunContext& c, size_t, const NodeInfo& n, std::vector<Value>& in)
{
    settleAll(in);
    return avgPool(c, n, in, n.proto->op_type() == "GlobalAveragePool");
}
ValueOut intLut(RunContext& c, size_t ni, const NodeInfo& n, std::vector<Value>& in)
{
    settleAll(in);
    return lutOp(c, ni, n, in);
}
ValueOut intSoftmax(RunContext& c, size_t ni, const NodeInfo& n, std::vector<Value>& in)
{
    settleAll(in);
    return softmaxOp(c, ni, n, in);
}
ValueOut intResize(RunContext& c, size_t, const NodeInfo& n, std::vector<Value>& in)
{
    settleAll(in);
    const NodeAttrs attrs(*n.proto);
    if (attrs.s("mode", "nearest") != "nearest") return resizeLinear(c, n, in);
    // outside its crop box tf_crop_and_resize writes extrapolation_value, a real value that the
    // spec op on codes would store as a raw code: such a Resize runs in float
    if (attrs.s("coordinate_transformation_mode", "half_pixel") == "tf_crop_and_resize") return std::nullopt;
    return codesThroughSpec(c, n, in);
}
ValueOut intMovesCodes(RunContext& c, size_t, const NodeInfo& n, std::vector<Value>& in)
{
    settleAll(in);
    return codesThroughSpec(c, n, in);
}

}  // namespace

void addIntModeOps(ValueOpTable& t)
{
    t["Conv"].intMode = intConv;
    t["ConvTranspose"].intMode = intConvTranspose;
    t["Gemm"].intMode = intGemm;
    t["MatMul"].intMode = intMatMul;
    t["BatchNormalization"].intMode = intBatchNorm;
    t["Relu"].intMode = intRelu;
    t["Clip"].intMode = intClip;
    for (const char* op : {"Add", "Sub", "Mul", "Div"}) t[op].intMode = intArithmetic;
    t["Concat"].intMode = intConcat;
    t["AveragePool"].intMode = intAveragePool;
    t["GlobalAveragePool"].intMode = intAveragePool;
    for (const char* op : kLutOps) t[op].intMode = intLut;
    t["Softmax"].intMode = intSoftmax;
    t["Resize"].intMode = intResize;
    t["Upsample"].intMode = intResize;
    for (const char* op : kCodeOps) t[op].intMode = intMovesCodes;
}

Result<Tensor> requantizeValue(RunContext& ctx, const Value& v, const QParams& p, const std::string& layer)
{
    const RequantMode mode = ctx.options.requant;
    (void)layer;
    if (v.kind == Value::Pending) {
        Tensor t = v.pend->resolve(p);
        if (v.pend->relu) {
            const int64_t zp = zp0(p);
            if (isNarrow(t.dtype()) &&
                floorRowX8(t.data<uint8_t>(), t.size(), static_cast<int32_t>(zp), t.dtype() == DType::Int8))
                return t;
            dispatchType(t.dtype(), [&](auto* tag) {
                using T = std::remove_pointer_t<decltype(tag)>;
                if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
                    T* d = t.data<T>();
                    const auto z = static_cast<T>(zp);
                    for (int64_t i = 0; i < t.size(); ++i) d[i] = std::max(d[i], z);
                }
            });
        }
        return t;
    }
    if (v.kind == Value::QReal) {
        if (v.q.scales == p.scales && v.q.zeroPoints == p.zeroPoints && v.t.dtype() == p.dtype) return v.t;
        Tensor t(p.dtype, v.t.shape());
        const Requantizer r = Requantizer::make(double(v.q.scales[0]) / p.scales[0], zp0(p), p.range);
        for (int64_t i = 0; i < t.size(); ++i) t.setInt(i, r.apply(v.t.atInt(i) - zp0(v.q), mode));
        return t;
    }
    if (v.kind == Value::Acc) {
        const AccValue& a = *v.acc;
        Tensor t(p.dtype, a.acc->shape);
        if (mode == RequantMode::Float && (a.deferred || !a.acc->wide) &&
            (p.dtype == DType::UInt8 || p.dtype == DType::Int8) && p.scales.size() == 1) {
            const AxisLayout l = axisLayout(a.acc->shape, a.axis);
            const double so = p.scales[0];
            const int64_t zo = zp0(p);
            // qlo / qhi do not depend on the channel
            const auto qlo = static_cast<int32_t>(
                std::isfinite(a.lo)
                    ? std::max(p.range.min, zo + static_cast<int64_t>(std::nearbyint(a.lo / so)))
                    : p.range.min);
            const auto qhi = static_cast<int32_t>(
                std::isfinite(a.hi)
                    ? std::min(p.range.max, zo + static_cast<int64_t>(std::nearbyint(a.hi / so)))
                    : p.range.max);
            std::vector<int32_t> biasQ(static_cast<size_t>(l.channels));
            std::vector<float> multiplier(static_cast<size_t>(l.channels));
            for (int64_t c = 0; c < l.channels; ++c) {
                const double s = a.scale[static_cast<size_t>(c)];
                biasQ[static_cast<size_t>(c)] =
                    static_cast<int32_t>(s != 0 ? std::nearbyint(a.bias[static_cast<size_t>(c)] / s) : 0.0);
                multiplier[static_cast<size_t>(c)] =
                    static_cast<float>(s / so);  // Requantizer::make(s / so, ...).real
            }
            if (a.deferred && !a.deferred->sums && a.axis == 1) {  // the kernel writes the codes
                const Requant8 rq{biasQ.data(), multiplier.data(), static_cast<int32_t>(zo), qlo, qhi};
                a.deferred->run(nullptr, &rq, t.data<uint8_t>());
                return t;
            }
            const Accumulator& sums = accSums(a);
            for (int64_t c = 0; c < l.channels; ++c)
                for (int64_t o = 0; o < l.outer; ++o) {
                    const int64_t i = (o * l.channels + c) * l.inner;
                    const size_t ci = static_cast<size_t>(c);
                    if (p.dtype == DType::UInt8)
                        requantizeRowU8(sums.acc32.data() + i, l.inner, biasQ[ci], multiplier[ci],
                                        static_cast<int32_t>(zo), qlo, qhi, t.data<uint8_t>() + i);
                    else
                        requantizeRowS8(sums.acc32.data() + i, l.inner, biasQ[ci], multiplier[ci],
                                        static_cast<int32_t>(zo), qlo, qhi, t.data<int8_t>() + i);
                }
            return t;
        }
        const Accumulator& sums = accSums(a);
        const AxisLayout l = axisLayout(a.acc->shape, a.axis);
        const bool outPerChannel = p.scales.size() > 1;
        int64_t i = 0;
        for (int64_t o = 0; o < l.outer; ++o)
            for (int64_t c = 0; c < l.channels; ++c) {
                const double s = a.scale[static_cast<size_t>(c)];
                const double so = p.scales[outPerChannel ? static_cast<size_t>(c) : 0];
                const int64_t zo =
                    p.zeroPoints[outPerChannel && p.zeroPoints.size() > 1 ? static_cast<size_t>(c) : 0];
                const int64_t biasQ =
                    s != 0 ? static_cast<int64_t>(std::nearbyint(a.bias[static_cast<size_t>(c)] / s)) : 0;
                const Requantizer r = Requantizer::make(s / so, zo, p.range);
                const int64_t qlo =
                    std::isfinite(a.lo)
                        ? std::max(p.range.min, zo + static_cast<int64_t>(std::nearbyint(a.lo / so)))
                        : p.range.min;
                const int64_t qhi =
                    std::isfinite(a.hi)
                        ? std::min(p.range.max, zo + static_cast<int64_t>(std::nearbyint(a.hi / so)))
                        : p.range.max;
                for (int64_t k = 0; k < l.inner; ++k, ++i)
                    t.setInt(i, std::clamp(r.apply(sums.at(i) + biasQ, mode), qlo, qhi));
            }
        return t;
    }
    return quantize(v.t, p);
}

}  // namespace qatdoctor::core::fixedpoint
