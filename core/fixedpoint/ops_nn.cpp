// Conv, ConvTranspose, Gemm, MatMul, pooling and Resize of the specification table (float32 arithmetic).
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/fixedpoint/broadcast.h"
#include "core/fixedpoint/conv_kernel.h"
#include "core/fixedpoint/conv_transpose.h"
#include "core/fixedpoint/node_attrs.h"
#include "core/fixedpoint/op_registry.h"
#include "core/fixedpoint/pool_kernel.h"
#include "core/fixedpoint/resize_coords.h"

namespace qatdoctor::core::fixedpoint {
namespace {

using Outs = Result<std::vector<Tensor>>;

Tensor asFloat(const Tensor& t)
{
    return t.dtype() == DType::Float32 ? t : Tensor::fromFloats(t.shape(), t.toFloats());
}

// y [n, m, pixels] += bias[m]; false when the bias is not one value per output channel.
bool addChannelBias(Tensor& y, const Tensor& bias, int64_t n, int64_t m, int64_t pixels)
{
    if (bias.size() != m) return false;
    float* py = y.data<float>();
    for (int64_t i = 0; i < n; ++i)
        for (int64_t c = 0; c < m; ++c) {
            float* row = py + (i * m + c) * pixels;
            const float bv = bias.data<float>()[c];
            for (int64_t p = 0; p < pixels; ++p) row[p] += bv;
        }
    return true;
}

// Conv and ConvTranspose alike: float32 operands, the op's geometry and kernel, then the bias.
template <class Geometry, class Kernel>
Outs convolution(const OpCall& c, Geometry geometry, Kernel kernel)
{
    if (!c.hasInput(0) || !c.hasInput(1)) return opError(c.node, "needs X and W");
    const Tensor x = asFloat(c.in(0)), w = asFloat(c.in(1));
    auto g = geometry(c.node, x.shape(), w.shape());
    if (!g) return g.error();
    Tensor y(DType::Float32, g->outShape());
    kernel(*g, x.data<float>(), w.data<float>(), y.data<float>(), c.pool);
    if (c.hasInput(2) && !addChannelBias(y, asFloat(c.in(2)), g->n, g->m, g->outPixels()))
        return opError(c.node, "bias size differs from the output channels");
    return std::vector<Tensor>{y};
}

Outs conv(const OpCall& c)
{
    return convolution(
        c, [](const auto& node, const auto& xs, const auto& ws) { return convGeometry(node, xs, ws); },
        [](const auto& g, const float* x, const float* w, float* y, ThreadPool* pool) {
            convolve<float, float>(g, x, w, y, pool);
        });
}

// ConvTranspose of any spatial rank (float32, the sums in the runtimes' GEMM + col2im order).
Outs convTransposeOp(const OpCall& c)
{
    return convolution(
        c,
        [](const auto& node, const auto& xs, const auto& ws) { return convTransposeGeometry(node, xs, ws); },
        [](const auto& g, const float* x, const float* w, float* y, ThreadPool* pool) {
            convTranspose<float, float>(g, x, w, y, pool);
        });
}

Tensor transpose2d(const Tensor& t)
{
    const int64_t r = t.dim(0), cl = t.dim(1);
    Tensor o(DType::Float32, {cl, r});
    for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < cl; ++j) o.data<float>()[j * r + i] = t.data<float>()[i * cl + j];
    return o;
}

Outs gemmOp(const OpCall& c)
{
    NodeAttrs a(c.node);
    Tensor A = asFloat(c.in(0)), B = asFloat(c.in(1));
    if (A.rank() != 2 || B.rank() != 2) return opError(c.node, "Gemm needs 2-D inputs");
    if (a.i("transA", 0)) A = transpose2d(A);
    if (a.i("transB", 0)) B = transpose2d(B);
    const int64_t M = A.dim(0), K = A.dim(1), N = B.dim(1);
    if (B.dim(0) != K) return opError(c.node, "inner dimensions differ");
    const float alpha = a.f("alpha", 1.0f), beta = a.f("beta", 1.0f);
    Tensor y(DType::Float32, {M, N});
    gemm<float, float>(M, N, K, A.data<float>(), B.data<float>(), y.data<float>(), false, c.pool);
    float* py = y.data<float>();
    if (alpha != 1.0f)
        for (int64_t i = 0; i < y.size(); ++i) py[i] *= alpha;
    if (c.hasInput(2)) {
        const Tensor C = asFloat(c.in(2));
        auto strides = broadcastStrides(C.shape(), y.shape());
        forEachBroadcast(y.shape(), {strides}, [&](int64_t i, const std::vector<int64_t>& o) {
            py[i] += beta * C.data<float>()[o[0]];
        });
    }
    return std::vector<Tensor>{y};
}

Outs matmul(const OpCall& c)
{
    Tensor A = asFloat(c.in(0)), B = asFloat(c.in(1));
    auto shape = matmulShape(A.shape(), B.shape());
    if (!shape) return opError(c.node, shape.error().message);
    const int64_t M = shape->m, K = shape->k, N = shape->n;
    Tensor y(DType::Float32, shape->out);
    auto sa = broadcastStrides(shape->aBatch, shape->batch),
         sb = broadcastStrides(shape->bBatch, shape->batch);
    forEachBroadcast(shape->batch, {sa, sb}, [&](int64_t i, const std::vector<int64_t>& o) {
        gemm<float, float>(M, N, K, A.data<float>() + o[0] * M * K, B.data<float>() + o[1] * K * N,
                           y.data<float>() + i * M * N, false, c.pool);
    });
    return std::vector<Tensor>{y};
}

// MaxPool's optional Indices output: per window the flat index of its first maximum in the whole
// input (padding never counted), spatial axes row-major (storage_order 0) or column-major (1).
Tensor maxPoolIndices(const PoolGeometry& g, const Tensor& x, bool columnMajor)
{
    Tensor idx(DType::Int64, g.outShape());
    const int first = 3 - g.rank;  // the geometry's axes are right-aligned in [3]
    const int64_t P = g.inPixels(), O = g.outPixels();
    const std::vector<double> xv = x.toDoubles();
    int64_t* out = idx.data<int64_t>();
    int64_t o[3] = {0, 0, 0};
    for (int64_t plane = 0; plane < g.n * g.c; ++plane) {
        const double* xp = xv.data() + plane * P;
        for (int64_t op = 0; op < O; ++op) {
            o[0] = op / (g.out[1] * g.out[2]);
            o[1] = (op / g.out[2]) % g.out[1];
            o[2] = op % g.out[2];
            double best = -std::numeric_limits<double>::infinity();
            int64_t at[3] = {0, 0, 0};
            bool found = false;
            for (int64_t t0 = 0; t0 < g.k[0]; ++t0) {
                const int64_t i0 = o[0] * g.s[0] - g.pb[0] + t0 * g.d[0];
                if (i0 < 0 || i0 >= g.in[0]) continue;
                for (int64_t t1 = 0; t1 < g.k[1]; ++t1) {
                    const int64_t i1 = o[1] * g.s[1] - g.pb[1] + t1 * g.d[1];
                    if (i1 < 0 || i1 >= g.in[1]) continue;
                    for (int64_t t2 = 0; t2 < g.k[2]; ++t2) {
                        const int64_t i2 = o[2] * g.s[2] - g.pb[2] + t2 * g.d[2];
                        if (i2 < 0 || i2 >= g.in[2]) continue;
                        const double v = xp[(i0 * g.in[1] + i1) * g.in[2] + i2];
                        if (!found || v > best) {
                            best = v;
                            at[0] = i0;
                            at[1] = i1;
                            at[2] = i2;
                            found = true;
                        }
                    }
                }
            }
            int64_t flat = 0;
            if (columnMajor) {
                int64_t stride = 1;
                for (int j = first; j < 3; ++j) {
                    flat += at[j] * stride;
                    stride *= g.in[j];
                }
            } else {
                flat = (at[0] * g.in[1] + at[1]) * g.in[2] + at[2];
            }
            out[plane * O + op] = plane * P + flat;
        }
    }
    return idx;
}

Outs maxPoolOp(const OpCall& c, bool global)
{
    const Tensor x = c.in(0);
    const bool wantIndices = c.node.output_size() > 1 && !c.node.output(1).empty();
    auto g = poolGeometry(c.node, x.shape(), global);
    if (!g) return g.error();
    Tensor y(x.dtype(), g->outShape());
    bool ok = dispatchType(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> ||
                      std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t>)
            maxPool<T>(*g, x.data<T>(), y.data<T>());
    });
    if (!ok) return opError(c.node, "unsupported type");
    if (wantIndices)
        return std::vector<Tensor>{y, maxPoolIndices(*g, x, NodeAttrs(c.node).i("storage_order", 0) != 0)};
    return std::vector<Tensor>{y};
}

Outs avgPoolOp(const OpCall& c, bool global)
{
    const Tensor x = asFloat(c.in(0));
    auto g = poolGeometry(c.node, x.shape(), global);
    if (!g) return g.error();
    const bool includePad = NodeAttrs(c.node).i("count_include_pad", 0) != 0;
    std::vector<double> sums(static_cast<size_t>(g->n * g->c * g->outPixels()));
    std::vector<int64_t> counts;
    sumPool<float, double>(*g, x.data<float>(), sums.data(), counts, includePad);
    Tensor y(DType::Float32, g->outShape());
    const int64_t P = g->outPixels();
    for (int64_t i = 0; i < y.size(); ++i) {
        const int64_t cnt = counts[static_cast<size_t>(i % P)];
        y.data<float>()[i] =
            cnt ? static_cast<float>(sums[static_cast<size_t>(i)] / static_cast<double>(cnt)) : 0.0f;
    }
    return std::vector<Tensor>{y};
}

// Cubic convolution taps of one output coordinate (the specification's reference): the four
// pixels around src with Keys' coefficients for parameter A, indices clamped to the edge (edge
// padding), or with exclude_outside the outside taps dropped and the rest renormalised. An
// integral src takes the pixel on its left as the base (ratio 1), as the reference does.
std::vector<std::pair<int64_t, double>> cubicTaps(double src, int64_t inD, double A, bool excludeOutside)
{
    const double fl = std::floor(src);
    const double ratio = src == fl ? 1.0 : src - fl;
    const int64_t base = static_cast<int64_t>(fl - (ratio == 1.0 ? 1.0 : 0.0)) - 1;
    const double r1 = ratio + 1, q = 1 - ratio, q1 = q + 1;
    const double coef[4] = {
        ((A * r1 - 5 * A) * r1 + 8 * A) * r1 - 4 * A, ((A + 2) * ratio - (A + 3)) * ratio * ratio + 1,
        ((A + 2) * q - (A + 3)) * q * q + 1, ((A * q1 - 5 * A) * q1 + 8 * A) * q1 - 4 * A};
    std::vector<std::pair<int64_t, double>> taps;
    double sum = 0;
    for (int j = 0; j < 4; ++j) {
        const int64_t i = base + j;
        if (excludeOutside && (i < 0 || i >= inD)) continue;
        taps.push_back({std::clamp<int64_t>(i, 0, inD - 1), coef[j]});
        sum += coef[j];
    }
    if (excludeOutside && sum != 0)
        for (auto& t : taps) t.second /= sum;
    return taps;
}

constexpr int64_t kMaxResizeRank = 8;
constexpr uint64_t kMaxCubicReads = 64;

// Resize (opset 10-19 subset) and Upsample: nearest, (multi)linear and cubic.
Outs resize(const OpCall& c, bool upsample)
{
    NodeAttrs a(c.node);
    const Tensor& x = c.in(0);
    const int64_t rank = x.rank();
    // Linear interpolation visits 2^rank corners per output value: bound the rank (ONNX Runtime
    // resizes at most 5-D tensors) so the work stays a small multiple of the output's size.
    if (rank > kMaxResizeRank)
        return unsupported(c.node, "a rank-" + std::to_string(rank) + " input (at most " +
                                       std::to_string(kMaxResizeRank) + " axes are simulated)");
    const bool v10 = upsample || c.opset < 11;
    auto shape = resizeShape(c.node, c.opset, upsample, x.shape(), c.inputs);
    if (!shape) return shape.error();
    const std::vector<double>& scales = shape->scales;
    const std::vector<int64_t>& outShape = shape->outShape;
    const bool sizesGiven = shape->sizesGiven;
    const std::string mode = a.s("mode", "nearest");
    if (mode != "nearest" && mode != "linear" && mode != "bilinear" && mode != "cubic")
        return unsupported(c.node, "mode '" + mode + "' not simulated");
    const std::string ctm = v10 ? "asymmetric" : a.s("coordinate_transformation_mode", "half_pixel");
    // tf_crop_and_resize: sample the box roi = [starts, ends] (fractions of the input extent);
    // an output outside the input takes extrapolation_value
    const bool crop = ctm == "tf_crop_and_resize";
    std::vector<double> roi;
    if (crop) {
        if (!c.hasInput(1) || c.in(1).size() != 2 * rank)
            return opError(c.node, "tf_crop_and_resize needs roi of 2 x rank values");
        roi = c.in(1).toDoubles();
    }
    const double extrapolation = a.f("extrapolation_value", 0.0f);
    const std::string nearestMode = v10 ? "floor" : a.s("nearest_mode", "round_prefer_floor");
    auto source = [&](int64_t d, int64_t o) {
        const double s = scales[static_cast<size_t>(d)];
        const double in = double(x.dim(d)), out = double(outShape[static_cast<size_t>(d)]);
        if (crop) {
            const double r0 = roi[static_cast<size_t>(d)], r1 = roi[static_cast<size_t>(d + rank)];
            return out > 1 ? r0 * (in - 1) + o * (r1 - r0) * (in - 1) / (out - 1)
                           : 0.5 * (r0 + r1) * (in - 1);
        }
        return resizeSourceCoordinate(ctm, o, s, in, out, sizesGiven);
    };
    Tensor y(x.dtype(), outShape);
    // an empty output may still have one huge dimension (the budget bounds only the product):
    // nothing to compute, and the per-dimension tables below must not walk it
    if (y.size() == 0) return std::vector<Tensor>{y};
    const bool flt = x.dtype() == DType::Float32;
    // per dimension, per output index: outside the crop box (tf_crop_and_resize only)
    std::vector<std::vector<char>> outside(static_cast<size_t>(rank));
    for (int64_t d = 0; d < rank; ++d)
        for (int64_t o = 0; o < outShape[static_cast<size_t>(d)]; ++o) {
            const double src = source(d, o);
            outside[static_cast<size_t>(d)].push_back(crop && (src < 0 || src > double(x.dim(d) - 1)));
        }
    auto isOutside = [&](const std::vector<int64_t>& idx) {
        if (!crop) return false;
        for (int64_t d = 0; d < rank; ++d)
            if (outside[static_cast<size_t>(d)][static_cast<size_t>(idx[static_cast<size_t>(d)])])
                return true;
        return false;
    };
    if (mode == "cubic") {
        const double A = a.f("cubic_coeff_a", -0.75f);
        const bool exclude = a.i("exclude_outside", 0) != 0;
        std::vector<std::vector<std::vector<std::pair<int64_t, double>>>> taps(static_cast<size_t>(rank));
        for (int64_t d = 0; d < rank; ++d)
            for (int64_t o = 0; o < outShape[static_cast<size_t>(d)]; ++o) {
                auto t = cubicTaps(source(d, o), x.dim(d), A, exclude);
                std::erase_if(t, [](const auto& p) { return p.second == 0.0; });  // unscaled axes: one tap
                taps[static_cast<size_t>(d)].push_back(std::move(t));
            }
        // Each output value reads the product of its axes' taps: 4 per cubic-resized axis. Bound it
        // (ONNX Runtime resizes at most the last two axes cubically), or a small model asks for
        // billions of reads (a fuzzed 4-axis cubic Resize ran for minutes).
        uint64_t reads = 1;
        for (const auto& axis : taps) {
            size_t most = 1;
            for (const auto& t : axis) most = std::max(most, t.size());
            reads *= most;
        }
        if (reads > kMaxCubicReads)
            return unsupported(c.node, "cubic interpolation reading " + std::to_string(reads) +
                                           " input values per output value (at most " +
                                           std::to_string(kMaxCubicReads) + ": three resized axes)");
        std::vector<int64_t> inStrides(static_cast<size_t>(rank), 1);
        for (int64_t d = rank - 2; d >= 0; --d)
            inStrides[static_cast<size_t>(d)] = inStrides[static_cast<size_t>(d + 1)] * x.dim(d + 1);
        std::vector<int64_t> idx(static_cast<size_t>(rank), 0), pick(static_cast<size_t>(rank), 0);
        for (int64_t i = 0; i < y.size(); ++i) {
            double acc = 0;
            if (isOutside(idx)) {
                acc = extrapolation;
            } else {
                // every combination of the dimensions' taps (odometer over pick)
                std::fill(pick.begin(), pick.end(), 0);
                for (;;) {
                    double w = 1;
                    int64_t off = 0;
                    for (int64_t d = 0; d < rank; ++d) {
                        const auto& t =
                            taps[static_cast<size_t>(d)][static_cast<size_t>(idx[static_cast<size_t>(d)])]
                                [static_cast<size_t>(pick[static_cast<size_t>(d)])];
                        w *= t.second;
                        off += t.first * inStrides[static_cast<size_t>(d)];
                    }
                    acc += w * x.at(off);
                    int64_t d = rank - 1;
                    for (; d >= 0; --d) {
                        const auto& list =
                            taps[static_cast<size_t>(d)][static_cast<size_t>(idx[static_cast<size_t>(d)])];
                        if (++pick[static_cast<size_t>(d)] < static_cast<int64_t>(list.size())) break;
                        pick[static_cast<size_t>(d)] = 0;
                    }
                    if (d < 0) break;
                }
            }
            if (flt)
                y.data<float>()[i] = static_cast<float>(acc);
            else
                y.set(i, std::nearbyint(acc));
            for (int64_t d = rank - 1; d >= 0; --d) {
                if (++idx[static_cast<size_t>(d)] < outShape[static_cast<size_t>(d)]) break;
                idx[static_cast<size_t>(d)] = 0;
            }
        }
        return std::vector<Tensor>{y};
    }
    const bool linear = mode != "nearest";
    // per dimension, per output index: (index0, index1, weight of index1)
    struct Tap {
        int64_t i0, i1;
        double w;
    };
    std::vector<std::vector<Tap>> taps(static_cast<size_t>(rank));
    for (int64_t d = 0; d < rank; ++d) {
        const int64_t inD = x.dim(d);
        for (int64_t o = 0; o < outShape[static_cast<size_t>(d)]; ++o) {
            double src = source(d, o);
            if (linear) {
                src = std::max(0.0, std::min(src, double(inD - 1)));
                const auto i0 = static_cast<int64_t>(std::floor(src));
                const int64_t i1 = std::min(i0 + 1, inD - 1);
                taps[static_cast<size_t>(d)].push_back({i0, i1, src - double(i0)});
            } else {
                double r;
                if (nearestMode == "floor")
                    r = std::floor(src);
                else if (nearestMode == "ceil")
                    r = std::ceil(src);
                else if (nearestMode == "round_prefer_ceil")
                    r = std::floor(src + 0.5);
                else
                    r = (src - std::floor(src) == 0.5) ? std::floor(src) : std::round(src);
                const int64_t i = std::max<int64_t>(0, std::min<int64_t>(static_cast<int64_t>(r), inD - 1));
                taps[static_cast<size_t>(d)].push_back({i, i, 0.0});
            }
        }
    }
    std::vector<int64_t> inStrides(static_cast<size_t>(rank), 1);
    for (int64_t d = rank - 2; d >= 0; --d)
        inStrides[static_cast<size_t>(d)] = inStrides[static_cast<size_t>(d + 1)] * x.dim(d + 1);
    std::vector<int64_t> idx(static_cast<size_t>(rank), 0);
    for (int64_t i = 0; i < y.size(); ++i) {
        if (isOutside(idx)) {
            if (flt)
                y.data<float>()[i] = static_cast<float>(extrapolation);
            else
                y.set(i, extrapolation);
        } else if (!linear) {
            int64_t off = 0;
            for (int64_t d = 0; d < rank; ++d)
                off += taps[static_cast<size_t>(d)][static_cast<size_t>(idx[static_cast<size_t>(d)])].i0 *
                       inStrides[static_cast<size_t>(d)];
            if (flt)
                y.data<float>()[i] = x.data<float>()[off];
            else
                y.setInt(i, x.atInt(off));
        } else {
            double acc = 0;
            for (int64_t corner = 0; corner < (int64_t{1} << rank); ++corner) {
                double w = 1;
                int64_t off = 0;
                for (int64_t d = 0; d < rank; ++d) {
                    const Tap& t =
                        taps[static_cast<size_t>(d)][static_cast<size_t>(idx[static_cast<size_t>(d)])];
                    const bool hi = (corner >> d) & 1;
                    if (hi && t.w == 0) {
                        w = 0;
                        break;
                    }
                    w *= hi ? t.w : 1 - t.w;
                    off += (hi ? t.i1 : t.i0) * inStrides[static_cast<size_t>(d)];
                }
                if (w != 0) acc += w * x.at(off);
            }
            if (flt)
                y.data<float>()[i] = static_cast<float>(acc);
            else
                y.set(i, std::nearbyint(acc));
        }
        for (int64_t d = rank - 1; d >= 0; --d) {
            if (++idx[static_cast<size_t>(d)] < outShape[static_cast<size_t>(d)]) break;
            idx[static_cast<size_t>(d)] = 0;
        }
    }
    return std::vector<Tensor>{y};
}

}  // namespace

void addNnOps(std::vector<OpEntry>& t)
{
    t.push_back({"Conv", conv});
    t.push_back({"ConvTranspose", convTransposeOp});
    t.push_back({"Gemm", gemmOp});
    t.push_back({"MatMul", matmul});
    t.push_back({"MaxPool", [](const OpCall& c) { return maxPoolOp(c, false); }});
    t.push_back({"GlobalMaxPool", [](const OpCall& c) { return maxPoolOp(c, true); }});
    t.push_back({"AveragePool", [](const OpCall& c) { return avgPoolOp(c, false); }});
    t.push_back({"GlobalAveragePool", [](const OpCall& c) { return avgPoolOp(c, true); }});
    t.push_back({"Resize", [](const OpCall& c) { return resize(c, false); }});
    t.push_back({"Upsample", [](const OpCall& c) { return resize(c, true); }});
}

}  // namespace qatdoctor::core::fixedpoint
