// Convolution and matrix-product kernels shared by the float (specification) path and the
// integer path: im2col + a row-parallel GEMM. Integer inputs arrive with their zero points
// already subtracted (int16 for 8-bit data, int32 for 16-bit data), so padding is exactly 0.
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/result.h"
#include "core/fixedpoint/thread_pool.h"

namespace onnx {
class NodeProto;
}

namespace qatdoctor::core::fixedpoint {

// 1-D and 2-D convolutions (1-D as H = 1). Pads are begin/end per spatial axis.
struct ConvGeometry {
    int64_t n = 1, c = 1, h = 1, w = 1;
    int64_t m = 1, group = 1, kh = 1, kw = 1;
    int64_t oh = 1, ow = 1;
    int64_t sh = 1, sw = 1, dh = 1, dw = 1;
    int64_t padT = 0, padL = 0;
    int spatialRank = 2;

    int64_t kernelSize() const { return (c / group) * kh * kw; }  // K of one group's GEMM
    int64_t outPixels() const { return oh * ow; }
    std::vector<int64_t> outShape() const;
};

// From the node's attributes (auto_pad, pads, strides, dilations, group, kernel_shape).
Result<ConvGeometry> convGeometry(const onnx::NodeProto& node, const std::vector<int64_t>& xShape,
                                  const std::vector<int64_t>& wShape);

// C[M][N] (+)= A[M][K] * B[K][N], rows of C split across the pool.
template <class T, class Acc>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, const T* B, Acc* C, bool accumulate, ThreadPool* pool);

// y[n][m][p] = sum W[m][k] * col[k][p] (+ bias[m]) with T = float/Acc = float, or T = int16/
// Acc = int32, or T = int32/Acc = int64. x is already offset by its zero point.
template <class T, class Acc>
void convolve(const ConvGeometry& g, const T* x, const T* w, Acc* y, ThreadPool* pool);

}  // namespace qatdoctor::core::fixedpoint
