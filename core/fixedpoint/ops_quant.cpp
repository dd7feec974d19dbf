// QuantizeLinear, DequantizeLinear, QLinearConv, QLinearMatMul, ConvInteger, MatMulInteger and
// DynamicQuantizeLinear exactly as the ONNX specification defines them.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/fixedpoint/broadcast.h"
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
        y.setInt(i, saturate(roundToInt64(v) + zp, r));
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
            if (acc.wide)
                acc.acc64[static_cast<size_t>(i)] += bias[static_cast<size_t>(ch)];
            else
                acc.acc32[static_cast<size_t>(i)] += static_cast<int32_t>(bias[static_cast<size_t>(ch)]);
        }
    }
    const float xs = c.in(1).toFloats()[0], ys = c.in(6).toFloats()[0];
    std::vector<float> real;
    for (float ws : c.in(4).toFloats()) real.push_back(xs * ws / ys);
    return std::vector<Tensor>{requantizeAcc(acc, real, g->m, P, c.in(7))};
}

// `count` elements of t from `offset`, as a tensor of `shape` (a batch of a batched product).
Tensor sliceOf(const Tensor& t, int64_t offset, int64_t count, std::vector<int64_t> shape)
{
    Tensor o(t.dtype(), std::move(shape));
    const size_t es = elementSize(t.dtype());
    if (count > 0)
        std::memcpy(o.data<uint8_t>(), t.data<uint8_t>() + static_cast<size_t>(offset) * es,
                    static_cast<size_t>(count) * es);
    return o;
}

// (A - aZero) x (B - bZero) with MatMul's shape rules (numpy matmul): a 1-D operand is promoted
// to a matrix and its dimension dropped from the result, batch dimensions broadcast. bZero is
// one value or one per column N. The accumulator's shape is the result's.
Result<Accumulator> batchedMatmulInteger(const OpCall& c, const Tensor& a, int64_t aZero, const Tensor& b,
                                         const std::vector<int64_t>& bZero)
{
    auto shape = matmulShape(a.shape(), b.shape());
    if (!shape)
        return opError(
            c.node, shape.error().message + ": " + shapeString(a.shape()) + " x " + shapeString(b.shape()));
    const int64_t M = shape->m, K = shape->k, N = shape->n;
    if (bZero.size() != 1 && static_cast<int64_t>(bZero.size()) != N)
        return opError(c.node, "B zero point size is not 1 or N");
    Accumulator acc;
    if (shape->bBatch.empty()) {
        // one B matrix: A's batch folds into the rows (one product, the fast path)
        acc = matmulInteger(a, aZero, b.reshaped({K, N}), bZero, K ? a.size() / K : 0, K, N, c.pool);
    } else {
        bool first = true;
        forEachBroadcast(
            shape->batch,
            {broadcastStrides(shape->aBatch, shape->batch), broadcastStrides(shape->bBatch, shape->batch)},
            [&](int64_t, const std::vector<int64_t>& o) {
                Accumulator part =
                    matmulInteger(sliceOf(a, o[0] * M * K, M * K, {M, K}), aZero,
                                  sliceOf(b, o[1] * K * N, K * N, {K, N}), bZero, M, K, N, c.pool);
                if (first) acc.wide = part.wide;
                first = false;
                acc.overflows += part.overflows;
                if (part.wide)
                    acc.acc64.insert(acc.acc64.end(), part.acc64.begin(), part.acc64.end());
                else
                    acc.acc32.insert(acc.acc32.end(), part.acc32.begin(), part.acc32.end());
            });
    }
    acc.shape = shape->out;
    return acc;
}

Outs qlinearMatMul(const OpCall& c)
{
    if (c.in(1).size() != 1) return unsupported(c.node, "per-row A scales are not simulated");
    if (c.in(2).size() != 1) return unsupported(c.node, "per-row A zero points are not simulated");
    auto acc = batchedMatmulInteger(c, c.in(0), c.in(2).atInt(0), c.in(3), c.in(5).toInts());
    if (!acc) return acc.error();
    const int64_t N = c.in(3).rank() == 1 ? 1 : c.in(3).shape().back();
    const float as = c.in(1).toFloats()[0], ys = c.in(6).toFloats()[0];
    std::vector<float> real;
    for (float bs : c.in(4).toFloats()) real.push_back(as * bs / ys);
    return std::vector<Tensor>{requantizeAcc(*acc, real, N, 1, c.in(7))};
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
    const int64_t az = c.hasInput(2) ? c.in(2).atInt(0) : 0;
    if (c.hasInput(2) && c.in(2).size() > 1)
        return unsupported(c.node, "per-row A zero points are not simulated");
    auto acc = batchedMatmulInteger(c, c.in(0), az, c.in(1),
                                    c.hasInput(3) ? c.in(3).toInts() : std::vector<int64_t>{0});
    if (!acc) return acc.error();
    return std::vector<Tensor>{accToInt32(*acc)};
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
    // an all-zero input has no range: ONNX Runtime (and the specification as C) emit scale 1
    return std::vector<Tensor>{y, Tensor::scalar(p.scales[0]),
                               Tensor::fromInts(DType::UInt8, {}, {static_cast<int64_t>(zpf)})};
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
