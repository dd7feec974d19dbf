#include "core/fixedpoint/conv_transpose.h"

#include <onnx/onnx_pb.h>

#include <algorithm>

#include "core/fixedpoint/conv_kernel.h"
#include "core/fixedpoint/node_attrs.h"
#include "core/fixedpoint/op_registry.h"
#include "core/fixedpoint/tensor.h"

namespace qatdoctor::core::fixedpoint {
int64_t ConvTransposeGeometry::inPixels() const
{
    return shapeSize(in);
}
int64_t ConvTransposeGeometry::kernelPixels() const
{
    return shapeSize(kernel);
}
int64_t ConvTransposeGeometry::outPixels() const
{
    return shapeSize(out);
}

std::vector<int64_t> ConvTransposeGeometry::outShape() const
{
    std::vector<int64_t> s = {n, m};
    s.insert(s.end(), out.begin(), out.end());
    return s;
}

Result<ConvTransposeGeometry> convTransposeGeometry(const onnx::NodeProto& node,
                                                    const std::vector<int64_t>& xs,
                                                    const std::vector<int64_t>& ws)
{
    if (xs.size() < 3 || xs.size() != ws.size())
        return opError(
            node, "X " + shapeString(xs) + " and W " + shapeString(ws) + " need the same rank, at least 3");
    const size_t r = xs.size() - 2;
    NodeAttrs a(node);
    ConvTransposeGeometry g;
    g.n = xs[0];
    g.c = xs[1];
    g.group = a.i("group", 1);
    if (g.group <= 0 || ws[0] != g.c || g.c % g.group) return opError(node, "channels do not match group");
    g.m = ws[1] * g.group;
    g.in.assign(xs.begin() + 2, xs.end());
    g.kernel.assign(ws.begin() + 2, ws.end());
    const auto ks = a.ints("kernel_shape");
    if (!ks.empty() && ks != g.kernel) return opError(node, "kernel_shape differs from the weight's shape");
    g.strides = a.ints("strides", std::vector<int64_t>(r, 1));
    g.dilations = a.ints("dilations", std::vector<int64_t>(r, 1));
    auto outPad = a.ints("output_padding", std::vector<int64_t>(r, 0));
    auto pads = a.ints("pads");
    auto outShape = a.ints("output_shape");
    if (outShape.size() == r + 2) outShape.erase(outShape.begin(), outShape.begin() + 2);  // [N, M, ...] form
    const std::string autoPad = a.s("auto_pad", "NOTSET");
    if (g.strides.size() != r || g.dilations.size() != r || outPad.size() != r ||
        (!pads.empty() && pads.size() != 2 * r) || (!outShape.empty() && outShape.size() != r))
        return opError(node, "attribute sizes do not match the " + std::to_string(r) + " spatial axes");
    for (size_t i = 0; i < r; ++i)
        if (g.strides[i] <= 0 || g.dilations[i] <= 0)
            return opError(node, "strides and dilations must be positive");
    const bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
    if (autoPad != "NOTSET" && autoPad != "VALID" && !same)
        return opError(node, "unknown auto_pad '" + autoPad + "'");
    // the full (unpadded) extent of each axis
    std::vector<int64_t> full(r);
    for (size_t i = 0; i < r; ++i)
        full[i] = g.strides[i] * (g.in[i] - 1) + outPad[i] + (g.kernel[i] - 1) * g.dilations[i] + 1;
    g.out.assign(r, 0);
    g.padBegin.assign(r, 0);
    if (!outShape.empty() || same) {
        // output_shape given (pads ignored) or SAME (output = input * stride): the padding is
        // derived, its odd unit at the end for SAME_UPPER and at the beginning otherwise
        for (size_t i = 0; i < r; ++i) {
            g.out[i] = !outShape.empty() ? outShape[i] : g.in[i] * g.strides[i];
            // total is negative when output_shape asks for more than the full extent: halves
            // floor as in the specification's (Python) formula, the extra rows go at the end
            const int64_t total = full[i] - g.out[i];
            const int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
            g.padBegin[i] = autoPad == "SAME_UPPER" ? half : total - half;
        }
    } else {
        if (autoPad == "VALID" || pads.empty()) pads.assign(2 * r, 0);
        for (size_t i = 0; i < r; ++i) {
            g.padBegin[i] = pads[i];
            g.out[i] = full[i] - pads[i] - pads[i + r];
        }
    }
    for (size_t i = 0; i < r; ++i)
        if (g.out[i] <= 0) return opError(node, "empty output");
    return g;
}

template <class T, class Acc>
void convTranspose(const ConvTransposeGeometry& g, const T* x, const T* w, Acc* y, ThreadPool* pool)
{
    const size_t r = g.in.size();
    const int64_t cg = g.c / g.group, mg = g.m / g.group;
    const int64_t P = g.inPixels(), K = g.kernelPixels(), O = g.outPixels();
    const int64_t rows = mg * K;  // one row per (output channel, tap)
    std::fill(y, y + g.n * g.m * O, Acc{});
    if (P == 0) return;
    // per axis, tap k and input index i -> output index (or -1 outside)
    std::vector<std::vector<int64_t>> target(r);
    for (size_t d = 0; d < r; ++d) {
        target[d].resize(static_cast<size_t>(g.kernel[d] * g.in[d]));
        for (int64_t k = 0; k < g.kernel[d]; ++k)
            for (int64_t i = 0; i < g.in[d]; ++i) {
                const int64_t o = i * g.strides[d] + k * g.dilations[d] - g.padBegin[d];
                target[d][static_cast<size_t>(k * g.in[d] + i)] = o >= 0 && o < g.out[d] ? o : -1;
            }
    }
    std::vector<T> wt(static_cast<size_t>(rows * cg));  // W^T of one group: [mg * K][cg]
    std::vector<Acc> col(static_cast<size_t>(rows * P));
    const size_t last = r - 1;
    const int64_t inL = g.in[last], outL = g.out[last], sL = g.strides[last];
    const int64_t outerRows = P / inL;  // input rows along the last axis
    for (int64_t gi = 0; gi < g.group; ++gi) {
        const T* wg = w + gi * cg * rows;
        for (int64_t c = 0; c < cg; ++c)
            for (int64_t j = 0; j < rows; ++j) wt[static_cast<size_t>(j * cg + c)] = wg[c * rows + j];
        for (int64_t n = 0; n < g.n; ++n) {
            gemm<T, Acc>(rows, P, cg, wt.data(), x + (n * g.c + gi * cg) * P, col.data(), false, pool);
            // col2im: row (m, tap) adds its input pixels at their output positions. Along the
            // last axis the positions of one input row are a strided run, so the inner loop is
            // a plain strided add over the run's valid range. Output channels in parallel: each
            // writes only its own plane, its taps in order (results independent of threads).
            parallelFor(pool, mg, [&](int64_t mBegin, int64_t mEnd) {
                std::vector<int64_t> tap(r), idx(r);
                for (int64_t j = mBegin * K; j < mEnd * K; ++j) {
                    const int64_t m = j / K;
                    int64_t t = j % K;
                    for (size_t d = r; d-- > 0;) {
                        tap[d] = t % g.kernel[d];
                        t /= g.kernel[d];
                    }
                    const int64_t o0 = tap[last] * g.dilations[last] - g.padBegin[last];  // o = o0 + i * sL
                    const int64_t iLo = o0 >= 0 ? 0 : (-o0 + sL - 1) / sL;
                    const int64_t iHi = outL - 1 - o0 < 0 ? 0 : std::min(inL, (outL - 1 - o0) / sL + 1);
                    if (iLo >= iHi) continue;
                    Acc* ym = y + (n * g.m + gi * mg + m) * O;
                    const Acc* cj = col.data() + j * P;
                    std::fill(idx.begin(), idx.end(), 0);
                    for (int64_t q = 0; q < outerRows; ++q) {
                        int64_t off = 0;
                        bool inside = true;
                        for (size_t d = 0; d < last && inside; ++d) {
                            const int64_t o = target[d][static_cast<size_t>(tap[d] * g.in[d] + idx[d])];
                            inside = o >= 0;
                            off = off * g.out[d] + o;
                        }
                        if (inside) {
                            Acc* dst = ym + off * outL;
                            const Acc* src = cj + q * inL;
                            for (int64_t i = iLo; i < iHi; ++i) dst[o0 + i * sL] += src[i];
                        }
                        for (size_t d = last; d-- > 0;) {
                            if (++idx[d] < g.in[d]) break;
                            idx[d] = 0;
                        }
                    }
                }
            });
        }
    }
}

template void convTranspose<float, float>(const ConvTransposeGeometry&, const float*, const float*, float*,
                                          ThreadPool*);
template void convTranspose<int16_t, int32_t>(const ConvTransposeGeometry&, const int16_t*, const int16_t*,
                                              int32_t*, ThreadPool*);
template void convTranspose<int32_t, int64_t>(const ConvTransposeGeometry&, const int32_t*, const int32_t*,
                                              int64_t*, ThreadPool*);

}  // namespace qatdoctor::core::fixedpoint
