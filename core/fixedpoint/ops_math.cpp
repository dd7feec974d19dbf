// Elementwise, normalisation, softmax and reduction kernels of the specification table.
// Float32 results are computed in double and rounded once: for +,-,*,/ and sqrt that is the
// correctly rounded float32 result (double has more than 2*24+2 bits), i.e. what float32
// hardware gives, so fake-quant stays bit-exact with other runtimes.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/fixedpoint/broadcast.h"
#include "core/fixedpoint/kernel_checks.h"
#include "core/fixedpoint/lut.h"
#include "core/fixedpoint/node_attrs.h"
#include "core/fixedpoint/op_registry.h"
#include "core/fixedpoint/simd_ops.h"

namespace qatdoctor::core::fixedpoint {
namespace {

using Outs = Result<std::vector<Tensor>>;

bool isFloatType(DType t)
{
    return t == DType::Float32 || t == DType::Float64;
}

// Binary op with broadcasting. fd on doubles (float types), fi on int64 (integer types).
template <class FD, class FI>
Outs binary(const OpCall& c, FD fd, FI fi, std::optional<DType> outType = std::nullopt)
{
    if (c.inputs.size() < 2 || !c.hasInput(0) || !c.hasInput(1)) return opError(c.node, "needs two inputs");
    const Tensor& a = c.in(0);
    const Tensor& b = c.in(1);
    auto shape = broadcastShapes({a.shape(), b.shape()});
    if (!shape)
        return opError(c.node, "shapes " + shapeString(a.shape()) + " and " + shapeString(b.shape()) +
                                   " do not broadcast");
    Tensor y(outType.value_or(a.dtype()), *shape);
    const bool flt = isFloatType(a.dtype());
    const bool same = a.shape() == b.shape();
    if (a.dtype() == DType::Float32 && b.dtype() == DType::Float32 && y.dtype() == DType::Float32 &&
        (same || b.size() == 1)) {
        const float* pa = a.data<float>();
        const float* pb = b.data<float>();
        float* py = y.data<float>();
        if (same)
            for (int64_t i = 0; i < y.size(); ++i)
                py[i] = static_cast<float>(fd(double(pa[i]), double(pb[i])));
        else
            for (int64_t i = 0; i < y.size(); ++i)
                py[i] = static_cast<float>(fd(double(pa[i]), double(pb[0])));
        return std::vector<Tensor>{y};
    }
    forEachBroadcast(*shape, {broadcastStrides(a.shape(), *shape), broadcastStrides(b.shape(), *shape)},
                     [&](int64_t i, const std::vector<int64_t>& o) {
                         if (flt)
                             y.set(i, fd(a.at(o[0]), b.at(o[1])));
                         else
                             y.setInt(i, fi(a.atInt(o[0]), b.atInt(o[1])));
                     });
    return std::vector<Tensor>{y};
}

template <class FD>
Outs unary(const OpCall& c, FD fd)
{
    if (!c.hasInput(0)) return opError(c.node, "needs an input");
    const Tensor& x = c.in(0);
    Tensor y(x.dtype(), x.shape());
    if (x.dtype() == DType::Float32) {
        const float* px = x.data<float>();
        float* py = y.data<float>();
        for (int64_t i = 0; i < x.size(); ++i) py[i] = static_cast<float>(fd(double(px[i])));
    } else {
        for (int64_t i = 0; i < x.size(); ++i) y.set(i, fd(x.at(i)));
    }
    return std::vector<Tensor>{y};
}

// Sum / Max / Min / Mean over any number of broadcast inputs.
template <class F>
Outs variadic(const OpCall& c, F f, bool mean)
{
    std::vector<std::vector<int64_t>> shapes;
    for (const Tensor& t : c.inputs) shapes.push_back(t.shape());
    auto shape = broadcastShapes(shapes);
    if (!shape || c.inputs.empty()) return opError(c.node, "inputs do not broadcast");
    std::vector<std::vector<int64_t>> strides;
    for (const Tensor& t : c.inputs) strides.push_back(broadcastStrides(t.shape(), *shape));
    Tensor y(c.in(0).dtype(), *shape);
    const bool flt = isFloatType(y.dtype());
    forEachBroadcast(*shape, strides, [&](int64_t i, const std::vector<int64_t>& o) {
        if (flt) {
            double acc = c.in(0).at(o[0]);
            for (size_t k = 1; k < c.inputs.size(); ++k) acc = f(acc, c.in(k).at(o[k]));
            if (mean) acc /= static_cast<double>(c.inputs.size());
            y.set(i, acc);
        } else {
            int64_t acc = c.in(0).atInt(o[0]);
            for (size_t k = 1; k < c.inputs.size(); ++k)
                acc = static_cast<int64_t>(f(double(acc), double(c.in(k).atInt(o[k]))));
            if (mean) acc /= static_cast<int64_t>(c.inputs.size());
            y.setInt(i, acc);
        }
    });
    return std::vector<Tensor>{y};
}

Outs clip(const OpCall& c)
{
    const Tensor& x = c.in(0);
    NodeAttrs a(c.node);
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    if (c.opset < 11) {
        lo = a.f("min", -std::numeric_limits<float>::max());
        hi = a.f("max", std::numeric_limits<float>::max());
    } else {
        if (c.hasInput(1)) lo = c.in(1).at(0);
        if (c.hasInput(2)) hi = c.in(2).at(0);
    }
    Tensor y(x.dtype(), x.shape());
    // the usual types by their own, with the generic path's arithmetic: a reduce_range QDQ export
    // clips every activation's uint8 codes, and element access through the generic path costs
    // more than the convolutions
    const int64_t ilo = std::isinf(lo) ? std::numeric_limits<int64_t>::min() : static_cast<int64_t>(lo);
    const int64_t ihi = std::isinf(hi) ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(hi);
    auto codes = [&](auto zero) {
        using T = decltype(zero);
        const T* __restrict src = x.data<T>();  // y is a new tensor: no overlap
        T* __restrict dst = y.data<T>();
        // setInt saturates to the type: so do the bounds (an empty range gives hi everywhere)
        const int64_t tlo = std::is_signed_v<T> ? -128 : 0, thi = std::is_signed_v<T> ? 127 : 255;  // 8-bit T
        const T h = static_cast<T>(std::clamp(ihi, tlo, thi));
        const T l = ilo > ihi ? h : static_cast<T>(std::clamp(ilo, tlo, thi));
        const int64_t n = x.size();
        if (clampRowX8(reinterpret_cast<const uint8_t*>(src), n, l, h, std::is_signed_v<T>,
                       reinterpret_cast<uint8_t*>(dst)))
            return;
        for (int64_t i = 0; i < n; ++i) dst[i] = std::min(std::max(src[i], l), h);
    };
    if (x.dtype() == DType::Float32) {
        const float* __restrict src = x.data<float>();
        float* __restrict dst = y.data<float>();
        // the bounds came from float tensors or attributes: exact as floats
        const auto flo = static_cast<float>(lo), fhi = static_cast<float>(hi);
        const int64_t n = x.size();
        for (int64_t i = 0; i < n; ++i) dst[i] = std::min(std::max(src[i], flo), fhi);
    } else if (x.dtype() == DType::UInt8) {
        codes(uint8_t{});
    } else if (x.dtype() == DType::Int8) {
        codes(int8_t{});
    } else if (isFloatType(x.dtype())) {
        for (int64_t i = 0; i < x.size(); ++i) y.set(i, std::min(std::max(x.at(i), lo), hi));
    } else {
        for (int64_t i = 0; i < x.size(); ++i) y.setInt(i, std::min(std::max(x.atInt(i), ilo), ihi));
    }
    return std::vector<Tensor>{y};
}

Outs softmax(const OpCall& c, bool logOut)
{
    const Tensor& x = c.in(0);
    NodeAttrs a(c.node);
    const int64_t axis = checkedAxis(a.i("axis", c.opset >= 13 ? -1 : 1), std::max<int64_t>(1, x.rank()));
    // opset < 13 flattens to 2-D at axis; 13+ works along one axis
    int64_t outer = 1, n = 1, inner = 1;
    for (int64_t i = 0; i < x.rank(); ++i) {
        if (i < axis)
            outer *= x.dim(i);
        else if (c.opset >= 13 && i > axis)
            inner *= x.dim(i);
        else
            n *= x.dim(i);
    }
    Tensor y(x.dtype(), x.shape());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t k = 0; k < inner; ++k) {
            const int64_t base = o * n * inner + k;
            double mx = -std::numeric_limits<double>::infinity();
            for (int64_t j = 0; j < n; ++j) mx = std::max(mx, x.at(base + j * inner));
            double sum = 0;
            for (int64_t j = 0; j < n; ++j) sum += std::exp(x.at(base + j * inner) - mx);
            for (int64_t j = 0; j < n; ++j) {
                const double v = x.at(base + j * inner) - mx;
                y.set(base + j * inner, logOut ? v - std::log(sum) : std::exp(v) / sum);
            }
        }
    return std::vector<Tensor>{y};
}

Outs batchNorm(const OpCall& c)
{
    if (c.inputs.size() < 5) return opError(c.node, "needs 5 inputs");
    const Tensor& x = c.in(0);
    NodeAttrs a(c.node);
    // training_mode (opset 14+): normalise with the batch's statistics and output the running
    // ones (Y, running_mean, running_var); older opsets' training outputs are not modelled
    const bool training = a.i("training_mode", 0) != 0;
    if (training ? c.opset < 14 : c.node.output_size() > 1) return unsupported(c.node, "training mode");
    const double eps = a.f("epsilon", 1e-5f);
    const int64_t channels = x.rank() > 1 ? x.dim(1) : 1;
    for (size_t k = 1; k < 5; ++k)
        if (c.in(k).size() != channels)
            return opError(c.node, "input " + std::to_string(k) + " has " + std::to_string(c.in(k).size()) +
                                       " values for " + std::to_string(channels) + " channels");
    int64_t inner = 1;
    for (int64_t i = 2; i < x.rank(); ++i) inner *= x.dim(i);
    const int64_t perBatch = channels * inner;
    const int64_t batches = perBatch != 0 ? x.size() / perBatch : 0;
    std::vector<double> batchMean, batchVar;  // population variance, as the reference's np.var
    if (training) {
        for (int64_t ch = 0; ch < channels; ++ch) {
            double sum = 0, sq = 0;
            for (int64_t n = 0; n < batches; ++n)
                for (int64_t k = 0; k < inner; ++k) sum += x.at((n * channels + ch) * inner + k);
            const double count = double(batches * inner), mean = count ? sum / count : 0.0;
            for (int64_t n = 0; n < batches; ++n)
                for (int64_t k = 0; k < inner; ++k) {
                    const double dv = x.at((n * channels + ch) * inner + k) - mean;
                    sq += dv * dv;
                }
            batchMean.push_back(mean);
            batchVar.push_back(count ? sq / count : 0.0);
        }
    }
    Tensor y(x.dtype(), x.shape());
    // float32 like the runtimes: scale = gamma / sqrt(var + eps), y = x * scale + (beta - mean * scale)
    for (int64_t ch = 0; ch < channels; ++ch) {
        const float g = static_cast<float>(c.in(1).at(ch)), b = static_cast<float>(c.in(2).at(ch));
        const float m = static_cast<float>(training ? batchMean[static_cast<size_t>(ch)] : c.in(3).at(ch));
        const float v = static_cast<float>(training ? batchVar[static_cast<size_t>(ch)] : c.in(4).at(ch));
        const float scale = g / std::sqrt(v + static_cast<float>(eps));
        const float shift = b - m * scale;
        for (int64_t n = 0; n < batches; ++n)
            for (int64_t k = 0; k < inner; ++k) {
                const int64_t i = (n * channels + ch) * inner + k;
                y.set(i, static_cast<float>(x.at(i)) * scale + shift);
            }
    }
    if (!training) return std::vector<Tensor>{y};
    const double momentum = a.f("momentum", 0.9f);
    Tensor runMean(c.in(3).dtype(), c.in(3).shape()), runVar(c.in(4).dtype(), c.in(4).shape());
    for (int64_t ch = 0; ch < channels; ++ch) {
        runMean.set(ch, c.in(3).at(ch) * momentum + batchMean[static_cast<size_t>(ch)] * (1 - momentum));
        runVar.set(ch, c.in(4).at(ch) * momentum + batchVar[static_cast<size_t>(ch)] * (1 - momentum));
    }
    return std::vector<Tensor>{y, runMean, runVar};
}

Outs reduce(const OpCall& c, int kind)
{
    const Tensor& x = c.in(0);
    NodeAttrs a(c.node);
    std::vector<int64_t> axes = a.ints("axes");
    if (c.hasInput(1)) axes = c.in(1).toInts();
    const bool keep = a.i("keepdims", 1) != 0;
    if (axes.empty() && a.i("noop_with_empty_axes", 0)) return std::vector<Tensor>{x};
    std::vector<bool> reduced(static_cast<size_t>(x.rank()), axes.empty());
    for (int64_t ax : axes) reduced[static_cast<size_t>(checkedAxis(ax, x.rank(), "axes"))] = true;
    std::vector<int64_t> outShape, keptShape;
    for (int64_t i = 0; i < x.rank(); ++i) {
        keptShape.push_back(reduced[static_cast<size_t>(i)] ? 1 : x.dim(i));
        if (!reduced[static_cast<size_t>(i)])
            outShape.push_back(x.dim(i));
        else if (keep)
            outShape.push_back(1);
    }
    const int64_t outN = shapeSize(keptShape);
    std::vector<double> acc(static_cast<size_t>(outN), kind == 2   ? -INFINITY
                                                       : kind == 3 ? INFINITY
                                                                   : (kind == 4 ? 1.0 : 0.0));
    std::vector<int64_t> count(static_cast<size_t>(outN), 0);
    auto strides = broadcastStrides(keptShape, x.shape());
    forEachBroadcast(x.shape(), {strides}, [&](int64_t i, const std::vector<int64_t>& o) {
        const double v = x.at(i);
        double& r = acc[static_cast<size_t>(o[0])];
        switch (kind) {
            case 0:
            case 1:
                r += v;
                break;
            case 2:
                r = std::max(r, v);
                break;
            case 3:
                r = std::min(r, v);
                break;
            case 4:
                r *= v;
                break;
            case 5:
                r += v * v;
                break;
            case 6:
                r += std::fabs(v);
                break;
            default:
                break;
        }
        ++count[static_cast<size_t>(o[0])];
    });
    Tensor y(x.dtype(), outShape);
    for (int64_t i = 0; i < outN; ++i) {
        double r = acc[static_cast<size_t>(i)];
        if (kind == 1 && count[static_cast<size_t>(i)])
            r /= static_cast<double>(count[static_cast<size_t>(i)]);
        if (isFloatType(x.dtype()))
            y.set(i, r);
        else
            y.setInt(i, static_cast<int64_t>(r));
    }
    return std::vector<Tensor>{y};
}

Outs where(const OpCall& c)
{
    const Tensor& cond = c.in(0);
    const Tensor& a = c.in(1);
    const Tensor& b = c.in(2);
    auto shape = broadcastShapes({cond.shape(), a.shape(), b.shape()});
    if (!shape) return opError(c.node, "inputs do not broadcast");
    Tensor y(a.dtype(), *shape);
    forEachBroadcast(*shape,
                     {broadcastStrides(cond.shape(), *shape), broadcastStrides(a.shape(), *shape),
                      broadcastStrides(b.shape(), *shape)},
                     [&](int64_t i, const std::vector<int64_t>& o) {
                         const bool pick = cond.atInt(o[0]) != 0;
                         if (isFloatType(a.dtype()))
                             y.set(i, pick ? a.at(o[1]) : b.at(o[2]));
                         else
                             y.setInt(i, pick ? a.atInt(o[1]) : b.atInt(o[2]));
                     });
    return std::vector<Tensor>{y};
}

// Gelu with its approximate attribute (opset 20); the integer mode's table uses the same gelu().
Outs geluOp(const OpCall& c)
{
    const std::string approx = NodeAttrs(c.node).s("approximate", "none");
    if (approx != "none" && approx != "tanh") return opError(c.node, "unknown approximate '" + approx + "'");
    const bool tanhForm = approx == "tanh";
    return unary(c, [tanhForm](double x) { return gelu(x, tanhForm); });
}

}  // namespace

void addMathOps(std::vector<OpEntry>& t)
{
    auto idiv = [](int64_t a, int64_t b) { return b == 0 ? int64_t{0} : a / b; };
    t.push_back(
        {"Add", [](const OpCall& c) { return binary(c, std::plus<double>(), std::plus<int64_t>()); }});
    t.push_back(
        {"Sub", [](const OpCall& c) { return binary(c, std::minus<double>(), std::minus<int64_t>()); }});
    t.push_back({"Mul", [](const OpCall& c) {
                     return binary(c, std::multiplies<double>(), std::multiplies<int64_t>());
                 }});
    t.push_back({"Div", [idiv](const OpCall& c) { return binary(c, std::divides<double>(), idiv); }});
    t.push_back(
        {"Pow", [](const OpCall& c) {
             // float32 pow like the runtimes (double pow then rounding can differ by an ulp)
             return binary(
                 c, [](double a, double b) { return double(std::pow(float(a), float(b))); },
                 [](int64_t a, int64_t b) { return static_cast<int64_t>(std::pow(double(a), double(b))); });
         }});
    t.push_back({"Mod", [](const OpCall& c) {
                     const bool fmodMode = NodeAttrs(c.node).i("fmod", 0) != 0;
                     return binary(
                         c,
                         [fmodMode](double a, double b) {
                             if (fmodMode) return std::fmod(a, b);
                             double r = std::fmod(a, b);
                             return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
                         },
                         [fmodMode](int64_t a, int64_t b) {
                             if (b == 0) return int64_t{0};
                             int64_t r = a % b;
                             if (!fmodMode && r != 0 && ((r < 0) != (b < 0))) r += b;
                             return r;
                         });
                 }});
    auto cmp = [](auto op) {
        return [op](const OpCall& c) {
            return binary(
                c, [op](double a, double b) { return double(op(a, b)); },
                [op](int64_t a, int64_t b) { return int64_t(op(a, b)); }, DType::Bool);
        };
    };
    t.push_back({"Equal", cmp(std::equal_to<double>())});
    t.push_back({"Less", cmp(std::less<double>())});
    t.push_back({"LessOrEqual", cmp(std::less_equal<double>())});
    t.push_back({"Greater", cmp(std::greater<double>())});
    t.push_back({"GreaterOrEqual", cmp(std::greater_equal<double>())});
    t.push_back({"And", cmp([](double a, double b) { return a != 0 && b != 0; })});
    t.push_back({"Or", cmp([](double a, double b) { return a != 0 || b != 0; })});
    t.push_back({"Xor", cmp([](double a, double b) { return (a != 0) != (b != 0); })});
    t.push_back({"Where", where});
    t.push_back({"Sum", [](const OpCall& c) { return variadic(c, std::plus<double>(), false); }});
    t.push_back({"Mean", [](const OpCall& c) { return variadic(c, std::plus<double>(), true); }});
    t.push_back({"Max", [](const OpCall& c) {
                     return variadic(
                         c, [](double a, double b) { return std::max(a, b); }, false);
                 }});
    t.push_back({"Min", [](const OpCall& c) {
                     return variadic(
                         c, [](double a, double b) { return std::min(a, b); }, false);
                 }});

    auto un = [](auto f) { return [f](const OpCall& c) { return unary(c, f); }; };
    t.push_back({"Relu", un([](double x) { return x > 0 ? x : 0.0; })});
    t.push_back({"Neg", un([](double x) { return -x; })});
    t.push_back({"Abs", un([](double x) { return std::fabs(x); })});
    t.push_back({"Floor", un([](double x) { return std::floor(x); })});
    t.push_back({"Ceil", un([](double x) { return std::ceil(x); })});
    t.push_back({"Round", un([](double x) { return std::nearbyint(x); })});
    t.push_back({"Sign", un([](double x) { return double((x > 0) - (x < 0)); })});
    t.push_back({"Sqrt", un([](double x) { return std::sqrt(x); })});
    t.push_back({"Reciprocal", un([](double x) { return 1.0 / x; })});
    t.push_back({"Exp", un([](double x) { return std::exp(x); })});
    t.push_back({"Log", un([](double x) { return std::log(x); })});
    t.push_back({"Sigmoid", un([](double x) { return 1.0 / (1.0 + std::exp(-x)); })});
    t.push_back({"Tanh", un([](double x) { return std::tanh(x); })});
    t.push_back({"Erf", un([](double x) { return std::erf(x); })});
    t.push_back({"Sin", un([](double x) { return std::sin(x); })});
    t.push_back({"Cos", un([](double x) { return std::cos(x); })});
    t.push_back({"Softplus", un([](double x) { return std::log1p(std::exp(x)); })});
    t.push_back({"Softsign", un([](double x) { return x / (1.0 + std::fabs(x)); })});
    t.push_back({"HardSwish", un([](double x) { return x * std::max(0.0, std::min(1.0, x / 6.0 + 0.5)); })});
    t.push_back({"Gelu", geluOp});
    t.push_back({"LeakyRelu", [](const OpCall& c) {
                     const double alpha = NodeAttrs(c.node).f("alpha", 0.01f);
                     return unary(c,
                                  [alpha](double x) { return x >= 0 ? x : double(float(alpha) * float(x)); });
                 }});
    t.push_back({"HardSigmoid", [](const OpCall& c) {
                     NodeAttrs a(c.node);
                     const double alpha = a.f("alpha", 0.2f), beta = a.f("beta", 0.5f);
                     return unary(c,
                                  [=](double x) { return std::max(0.0, std::min(1.0, alpha * x + beta)); });
                 }});
    t.push_back({"Elu", [](const OpCall& c) {
                     const double alpha = NodeAttrs(c.node).f("alpha", 1.0f);
                     return unary(c, [=](double x) { return x >= 0 ? x : alpha * (std::exp(x) - 1.0); });
                 }});
    t.push_back({"Selu", [](const OpCall& c) {
                     NodeAttrs a(c.node);
                     const double alpha = a.f("alpha", 1.67326319217681884765625f),
                                  gamma = a.f("gamma", 1.05070102214813232421875f);
                     return unary(c, [=](double x) {
                         return x > 0 ? gamma * x : gamma * (alpha * std::exp(x) - alpha);
                     });
                 }});
    t.push_back({"ThresholdedRelu", [](const OpCall& c) {
                     const double alpha = NodeAttrs(c.node).f("alpha", 1.0f);
                     return unary(c, [=](double x) { return x > alpha ? x : 0.0; });
                 }});
    t.push_back({"Clip", clip});
    t.push_back({"Softmax", [](const OpCall& c) { return softmax(c, false); }});
    t.push_back({"LogSoftmax", [](const OpCall& c) { return softmax(c, true); }});
    t.push_back({"BatchNormalization", batchNorm});
    t.push_back({"ReduceSum", [](const OpCall& c) { return reduce(c, 0); }});
    t.push_back({"ReduceMean", [](const OpCall& c) { return reduce(c, 1); }});
    t.push_back({"ReduceMax", [](const OpCall& c) { return reduce(c, 2); }});
    t.push_back({"ReduceMin", [](const OpCall& c) { return reduce(c, 3); }});
    t.push_back({"ReduceProd", [](const OpCall& c) { return reduce(c, 4); }});
    t.push_back({"ReduceSumSquare", [](const OpCall& c) { return reduce(c, 5); }});
    t.push_back({"ReduceL1", [](const OpCall& c) { return reduce(c, 6); }});
}

}  // namespace qatdoctor::core::fixedpoint
