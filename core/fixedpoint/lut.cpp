#include "core/fixedpoint/lut.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/fixedpoint/node_attrs.h"

namespace qatdoctor::core::fixedpoint {

UnaryFn nonlinearFunction(const std::string& op, float alpha, float beta)
{
    if (op == "Sigmoid") return [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
    if (op == "Tanh") return [](double x) { return std::tanh(x); };
    if (op == "Exp") return [](double x) { return std::exp(x); };
    if (op == "Log") return [](double x) { return std::log(x); };
    if (op == "Sqrt") return [](double x) { return std::sqrt(x); };
    if (op == "Reciprocal") return [](double x) { return 1.0 / x; };
    if (op == "Erf") return [](double x) { return std::erf(x); };
    if (op == "Gelu") return [](double x) { return gelu(x, false); };
    if (op == "Softplus") return [](double x) { return std::log1p(std::exp(x)); };
    if (op == "HardSwish") return [](double x) { return x * std::clamp(x / 6.0 + 0.5, 0.0, 1.0); };
    if (op == "HardSigmoid")
        return [alpha, beta](double x) { return std::clamp(alpha * x + beta, 0.0, 1.0); };
    if (op == "Elu") return [alpha](double x) { return x >= 0 ? x : alpha * (std::exp(x) - 1.0); };
    // a table too: an integer slope would round differently for every alpha
    if (op == "LeakyRelu") return [alpha](double x) { return x >= 0 ? x : alpha * x; };
    if (op == "SiLU") return [](double x) { return x / (1.0 + std::exp(-x)); };
    return {};
}

double gelu(double x, bool tanhForm)
{
    if (tanhForm) {
        const double k = std::sqrt(2.0 / 3.14159265358979323846);
        return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
    }
    return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
}

UnaryFn nonlinearFunction(const onnx::NodeProto& node)
{
    NodeAttrs a(node);
    const std::string& op = node.op_type();
    if (op == "Gelu") {
        const std::string approx = a.s("approximate", "none");
        if (approx != "none" && approx != "tanh") return {};
        const bool tanhForm = approx == "tanh";
        return [tanhForm](double x) { return gelu(x, tanhForm); };
    }
    const float alphaDefault = op == "HardSigmoid" ? 0.2f : op == "LeakyRelu" ? 0.01f : 1.0f;
    return nonlinearFunction(op, a.f("alpha", alphaDefault), a.f("beta", 0.5f));
}

namespace {

double quantizeReal(double y, const QParams& p)
{
    if (!std::isfinite(y)) y = y > 0 ? 1e30 : -1e30;
    const double q = std::nearbyint(y / p.scales[0]) + static_cast<double>(p.zeroPoints[0]);
    return std::clamp(q, static_cast<double>(p.range.min), static_cast<double>(p.range.max));
}

}  // namespace

Tensor applyLut(const Tensor& x, const QParams& inP, const QParams& outP, const UnaryFn& f, LutReport& report)
{
    const QRange inR = qrange(x.dtype());
    const bool narrow = inR.max - inR.min <= 255;
    const double si = inP.scales[0], so = outP.scales[0];
    const int64_t zi = inP.zeroPoints[0], zo = outP.zeroPoints[0];
    auto real = [&](int64_t code) { return static_cast<double>(code - zi) * si; };
    // table: value per input code (index = code - min)
    const int64_t span = inR.max - inR.min + 1;
    std::vector<int64_t> table(static_cast<size_t>(span));
    if (narrow) {
        report.inputBits = 8;
        report.entries = 256;
        for (int64_t c = inR.min; c <= inR.max; ++c)
            table[static_cast<size_t>(c - inR.min)] = static_cast<int64_t>(quantizeReal(f(real(c)), outP));
    } else {
        // 256 segments of 256 codes: breakpoints hold the output in Q8 fixed point, codes between
        // them are interpolated and rounded (the table's own error on top of quantization)
        report.inputBits = 16;
        report.entries = 257;
        const int64_t seg = span / 256;
        std::vector<int64_t> knots(257);
        for (int64_t k = 0; k <= 256; ++k) {
            const int64_t c = std::min(inR.min + k * seg, inR.max);
            double y = f(real(c));
            if (!std::isfinite(y)) y = y > 0 ? 1e30 : -1e30;
            knots[static_cast<size_t>(k)] =
                static_cast<int64_t>(std::nearbyint(std::clamp(y / so * 256.0, -1e15, 1e15)));
        }
        for (int64_t c = inR.min; c <= inR.max; ++c) {
            const int64_t off = c - inR.min, k = std::min<int64_t>(off / seg, 255), t = off - k * seg;
            const int64_t v = knots[static_cast<size_t>(k)] * (seg - t) +
                              knots[static_cast<size_t>(k + 1)] * t;  // Q8 * seg
            const int64_t q = static_cast<int64_t>(
                                  std::nearbyint(static_cast<double>(v) / static_cast<double>(seg * 256))) +
                              zo;
            table[static_cast<size_t>(off)] = std::clamp(q, outP.range.min, outP.range.max);
        }
    }
    Tensor y(outP.dtype, x.shape());
    int64_t lo = inR.max, hi = inR.min;
    std::vector<bool> seen(static_cast<size_t>(span), false);
    dispatchType(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
            const T* in = x.data<T>();
            for (int64_t i = 0; i < x.size(); ++i) {
                const int64_t c = static_cast<int64_t>(in[i]);
                seen[static_cast<size_t>(c - inR.min)] = true;
                lo = std::min(lo, c);
                hi = std::max(hi, c);
                y.setInt(i, table[static_cast<size_t>(c - inR.min)]);
            }
        }
    });
    report.inputMin = real(lo);
    report.inputMax = real(hi);
    double sum = 0, maxErr = 0;
    int64_t count = 0;
    for (int64_t c = lo; c <= hi; ++c) {
        if (!seen[static_cast<size_t>(c - inR.min)]) continue;
        const double exact = f(real(c));
        const double got = static_cast<double>(table[static_cast<size_t>(c - inR.min)] - zo) * so;
        const double e = std::isfinite(exact) ? std::fabs(got - exact) : 0.0;
        maxErr = std::max(maxErr, e);
        sum += e;
        ++count;
    }
    report.maxError = maxErr;
    report.meanError = count ? sum / static_cast<double>(count) : 0.0;
    report.maxErrorLsb = so > 0 ? maxErr / so : 0.0;
    const int64_t step = std::max<int64_t>(1, (hi - lo + 1) / 256);
    for (int64_t c = lo; c <= hi; c += step) {
        report.curveX.push_back(real(c));
        report.curveExact.push_back(f(real(c)));
        report.curveLut.push_back(static_cast<double>(table[static_cast<size_t>(c - inR.min)] - zo) * so);
    }
    return y;
}

}  // namespace qatdoctor::core::fixedpoint
