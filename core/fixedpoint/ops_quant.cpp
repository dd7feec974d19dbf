// QuantizeLinear, DequantizeLinear, QLinearConv, QLinearMatMul, ConvInteger, MatMulInteger and
// DynamicQuantizeLinear exactly as the ONNX specification defines them.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>

#include "core/fixedpoint/int_ops.h"
#include "core/fixedpoint/node_attrs.h"
#include "core/fixedpoint/op_registry.h"
#include "core/fixedpoint/quantize.h"

namespace qatdoctor::core::fixedpoint {
namespace {

using Outs = Result<std::vector<Tensor>>;

// Scale/zero point inputs at (si, zi) for a tensor of `shape`; zero point absent -> uint8 0.
Result<QParams> paramsFrom(const OpCall& c, size_t si, size_t zi, const std::vector<int64_t>& shape,
                           DType fallbackType = DType::UInt8)
{
    const Tensor& s = c.in(si);
    DType dtype = fallbackType;
    std::vector<int64_t> zps{0};
    if (c.hasInput(zi)) {
        dtype = c.in(zi).dtype();
        zps = c.in(zi).toInts();
    }
    int axis = static_cast<int>(NodeAttrs(c.node).i("axis", 1));
    if (s.rank() == 0 || s.size() == 1) axis = -1;
    auto p = makeQParams(dtype, s.toFloats(), zps, axis, shape);
    if (!p) return opError(c.node, p.error().message);
    if (axis >= 0 && p->scales.size() == 1) p->axis = -1;
    return p;
}

Outs quantizeOp(const OpCall& c)
{
    auto p = paramsFrom(c, 1, 2, c.in(0).shape());
    if (!p) return p.error();
    return std::vector<Tensor>{quantize(c.in(0), *p)};
}

Outs dequantizeOp(const OpCall& c)
{
    auto p = paramsFrom(c, 1, 2, c.in(0).shape(), c.in(0).dtype());
    if (!p) return p.error();
    return std::vector<Tensor>{dequantize(c.in(0), *p)};
}

// y = saturate(round(acc * real[ch]) + zp) with real = in_scale * w_scale[ch] / y_scale in float32.
Tensor requantizeAcc(const Accumulator& acc, const std::vector<float>& real, int64_t channels, int64_t inner,
                     const Tensor& yZero)
{
    const DType t = yZero.empty() ? DType::UInt8 : yZero.dtype();
    const int64_t zp = yZero.empty() ? 0 : yZero.atInt(0);
    const QRange r = qrange(t);
    Tensor y(t, acc.shape);
    for (int64_t i = 0; i < acc.size(); ++i) {
        const int64_t ch = (i / inner) % channels;
        const float v = static_cast<float>(acc.at(i)) * real[real.size() == 1 ? 0 : static_cast<size_t>(ch)];
        y.setInt(i, saturate(static_cast<int64_t>(std::nearbyintf(v)) + zp, r));
    }
    return y;
}

Outs qlinearConv(const OpCall& c)
{
    const Tensor& x = c.in(0);
    const Tensor& w = c.in(3);
    auto g = convGeometry(c.node, x.shape(), w.shape());
    if (!g) return g.error();
    auto acc = convInteger(*g, x, c.in(2).atInt(0), w, c.in(5).toInts(), c.pool);
    const int64_t P = g->outPixels();
    if (c.hasInput(8)) {
        const auto bias = c.in(8).toInts();
        for (int64_t i = 0; i < acc.size(); ++i) {
            const int64_t ch = (i / P) % g->m;
            if (acc.wide) acc.acc64[static_cast<size_t>(i)] += bias[static_cast<size_t>(ch)];
            else acc.acc32[static_cast<size_t>(i)] += static_cast<int32_t>(bias[static_cast<size_t>(ch)]);
        }
    }
    const float xs = c.in(1).toFloats()[0], ys = c.in(6).toFloats()[0];
    std::vector<float> real;
    for (float ws : c.in(4).toFloats()) real.push_back(xs * ws / ys);
    return std::vector<Tensor>{requantizeAcc(acc, real, g->m, P, c.in(7))};
}

// Shapes of a (possibly batched) integer MatMul: returns batch count; A is [.., M, K], B [K, N].
Outs qlinearMatMul(const OpCall& c)
{
    const Tensor& a = c.in(0);
    const Tensor& b = c.in(3);
    if (a.rank() < 2 || b.rank() != 2) return unsupported(c.node, "only [..,M,K] x [K,N] is simulated");
    const int64_t K = a.dim(a.rank() - 1), N = b.dim(1);
    const int64_t M = a.size() / K;
    auto acc = matmulInteger(a, c.in(2).atInt(0), b, c.in(5).toInts(), M, K, N, c.pool);
    std::vector<int64_t> outShape = a.shape();
    outShape.back() = N;
    acc.shape = outShape;
    const float as = c.in(1).toFloats()[0], ys = c.in(6).toFloats()[0];
    std::vector<float> real;
    for (float bs : c.in(4).toFloats()) real.push_back(as * bs / ys);
    return std::vector<Tensor>{requantizeAcc(acc, real, N, 1, c.in(7))};
}

Tensor accToInt32(const Accumulator& acc)
{
    Tensor y(DType::Int32, acc.shape);
    for (int64_t i = 0; i < acc.size(); ++i) y.data<int32_t>()[i] = static_cast<int32_t>(acc.at(i));
    return y;
}

Outs convIntegerOp(const OpCall& c)
{
    auto g = convGeometry(c.node, c.in(0).shape(), c.in(1).shape());
    if (!g) return g.error();
    const int64_t xz = c.hasInput(2) ? c.in(2).atInt(0) : 0;
    const std::vector<int64_t> wz = c.hasInput(3) ? c.in(3).toInts() : std::vector<int64_t>{0};
    return std::vector<Tensor>{accToInt32(convInteger(*g, c.in(0), xz, c.in(1), wz, c.pool))};
}

Outs matMulIntegerOp(const OpCall& c)
{
    const Tensor& a = c.in(0);
    const Tensor& b = c.in(1);
    if (a.rank() < 2 || b.rank() != 2) return unsupported(c.node, "only [..,M,K] x [K,N] is simulated");
    const int64_t K = a.dim(a.rank() - 1), N = b.dim(1), M = a.size() / K;
    const int64_t az = c.hasInput(2) ? c.in(2).atInt(0) : 0;
    if (c.hasInput(2) && c.in(2).size() > 1) return opError(c.node, "per-row A zero points are not simulated");
    auto acc = matmulInteger(a, az, b, c.hasInput(3) ? c.in(3).toInts() : std::vector<int64_t>{0}, M, K, N, c.pool);
    std::vector<int64_t> outShape = a.shape();
    outShape.back() = N;
    acc.shape = outShape;
    return std::vector<Tensor>{accToInt32(acc)};
}

Outs dynamicQuantize(const OpCall& c)
{
    const auto x = c.in(0).toFloats();
    float lo = 0, hi = 0;
    for (float v : x) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    const float scale = (hi - lo) / 255.0f;
    const float zpf = scale == 0 ? 0.0f : std::nearbyintf(std::clamp(0.0f - lo / scale, 0.0f, 255.0f));
    QParams p;
    p.dtype = DType::UInt8;
    p.range = qrange(DType::UInt8);
    p.scales = {scale == 0 ? 1.0f : scale};
    p.zeroPoints = {static_cast<int64_t>(zpf)};
    Tensor y = quantize(c.in(0), p);
    return std::vector<Tensor>{y, Tensor::scalar(scale), Tensor::fromInts(DType::UInt8, {}, {static_cast<int64_t>(zpf)})};
}

}  // namespace

void addQuantOps(std::vector<OpEntry>& t)
{
    t.push_back({"QuantizeLinear", quantizeOp});
    t.push_back({"DequantizeLinear", dequantizeOp});
    t.push_back({"QLinearConv", qlinearConv});
    t.push_back({"QLinearMatMul", qlinearMatMul});
    t.push_back({"ConvInteger", convIntegerOp});
    t.push_back({"MatMulInteger", matMulIntegerOp});
    t.push_back({"DynamicQuantizeLinear", dynamicQuantize});
}

}  // namespace qatdoctor::core::fixedpoint
