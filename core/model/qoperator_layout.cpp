#include "core/model/qoperator_layout.h"

namespace qatdoctor::core::model {
namespace {

constexpr std::string_view kContrib = "com.microsoft";

// clang-format off
const QOperatorLayout kLayouts[] = {
    // x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp[, B]
    {"QLinearConv", "", "Conv", {0, 3}, 1, 8, 6, false, {}},
    {"QLinearMatMul", "", "MatMul", {0, 3}, 1, -1, 6, false, {}},
    // A, A_scale, A_zp, B, B_scale, B_zp, C_scale, C_zp
    {"QLinearAdd", kContrib, "Add", {0, 3}, -1, -1, 6, false, {}},
    {"QLinearMul", kContrib, "Mul", {0, 3}, -1, -1, 6, false, {}},
    // A, a_scale, a_zp, B, b_scale, b_zp, C (int32 at a_scale * b_scale), y_scale, y_zp (no y: float out)
    {"QGemm", kContrib, "Gemm", {0, 3}, 1, 6, 7, false, {"alpha", "transA", "transB"}},
    // X, X_scale, X_zp, Y_scale, Y_zp
    {"QLinearAveragePool", kContrib, "AveragePool", {0, -1}, -1, -1, 3, false,
     {"auto_pad", "ceil_mode", "count_include_pad", "kernel_shape", "pads", "strides"}},
    {"QLinearGlobalAveragePool", kContrib, "GlobalAveragePool", {0, -1}, -1, -1, 3, false, {}},
    {"QLinearSigmoid", kContrib, "Sigmoid", {0, -1}, -1, -1, 3, false, {}},
    {"QLinearLeakyRelu", kContrib, "LeakyRelu", {0, -1}, -1, -1, 3, false, {"alpha"}},
    {"QLinearSoftmax", kContrib, "Softmax", {0, -1}, -1, -1, 3, false, {"axis"}},
    // Y_scale, Y_zp, then (tensor, scale, zero point) per input
    {"QLinearConcat", kContrib, "Concat", {-1, -1}, -1, -1, 0, true, {"axis"}},
};
// clang-format on

}  // namespace

const QOperatorLayout* qoperatorLayout(std::string_view op, std::string_view domain)
{
    for (const QOperatorLayout& l : kLayouts)
        if (l.op == op && (l.domain == domain || (l.domain.empty() && domain == "ai.onnx"))) return &l;
    return nullptr;
}

}  // namespace qatdoctor::core::model
