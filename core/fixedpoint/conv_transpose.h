// ConvTranspose (the gradient of Conv, used by upsampling decoders) of any spatial rank, as the
// ONNX specification defines it: each input pixel scatters kernel * value into the output at
// i * stride + k * dilation - pad_begin. Computed as a GEMM (W^T x X per group: every input
// pixel's contribution to every tap) followed by col2im, the runtimes' formulation, so float32
// sums come out in the order they use. Shared by the specification op and the integer kernel.
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/result.h"
#include "core/fixedpoint/thread_pool.h"

namespace onnx {
class NodeProto;
}

namespace qatdoctor::core::fixedpoint {

struct ConvTransposeGeometry {
    int64_t n = 1, c = 1, m = 1, group = 1;  // m = output channels = W.dim(1) * group
    std::vector<int64_t> in, kernel, out;    // spatial extents
    std::vector<int64_t> strides, dilations, padBegin;

    int64_t inPixels() const;
    int64_t kernelPixels() const;
    int64_t outPixels() const;
    std::vector<int64_t> outShape() const;  // [N, M, out...]
};

// From X [N, C, D...] and W [C, M/group, k...] shapes and the node's attributes (auto_pad,
// dilations, group, kernel_shape, output_padding, output_shape, pads, strides).
Result<ConvTransposeGeometry> convTransposeGeometry(const onnx::NodeProto& node,
                                                    const std::vector<int64_t>& xShape,
                                                    const std::vector<int64_t>& wShape);

// y (outShape, written whole, no bias) from x (N, C, in...) and w (C, M/group, kernel...).
// Instantiated for T/Acc = float/float, int16/int32 and int32/int64 (integer inputs already
// offset by their zero points).
template <class T, class Acc>
void convTranspose(const ConvTransposeGeometry& g, const T* x, const T* w, Acc* y, ThreadPool* pool);

}  // namespace qatdoctor::core::fixedpoint
