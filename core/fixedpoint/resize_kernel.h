// Bilinear (multilinear) Resize on integer codes, the way an integer deployment compiler runs it:
// interpolation weights as fixed-point fractions, one integer accumulation, one rounding into the
// output quantization. The source coordinates follow the ONNX specification (as the float
// Resize of ops_nn.cpp does) so the integer and fake-quant modes interpolate the same points.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <vector>

#include "core/common/result.h"
#include "core/fixedpoint/quantize.h"
#include "core/fixedpoint/tensor.h"

namespace qatdoctor::core::fixedpoint {

// Per dimension and output index: the two source indices and the weight of the second, as a
// fraction of 2^fracBits (the first gets 2^fracBits - w1).
struct LinearTap {
    int64_t i0 = 0, i1 = 0;
    int32_t w1 = 0;
};

struct LinearResizePlan {
    std::vector<int64_t> inShape, outShape;
    std::vector<std::vector<LinearTap>> taps;  // per dimension
    std::vector<int> interpolated;             // dimensions with a non-zero fraction somewhere
    int fracBits = 0;                          // per interpolated dimension
    int totalBits() const { return fracBits * static_cast<int>(interpolated.size()); }
};

// The plan of a Resize (opset 10+) or Upsample node in mode linear/bilinear. `inputs` are the
// node's inputs as tensors (X may be empty: only its shape `inShape` is used); inType (8 or 16
// bits) sets the fraction width. Errors for modes and coordinate transformations it does not
// cover (the caller then falls back).
Result<LinearResizePlan> linearResizePlan(const onnx::NodeProto& node, int64_t opset, bool upsample,
                                          const std::vector<int64_t>& inShape,
                                          const std::vector<Tensor>& inputs, DType inType = DType::UInt8);

// 8- or 16-bit codes x (zero point xZero, scale xScale) resized by `plan` (made for x's type) and
// requantized to `out`: code = zo + round(xScale / (so * 2^totalBits) * sum(W * (x - xZero))), one
// rounding; int32 sums for 8-bit data, int64 for 16-bit.
Tensor resizeLinearCodes(const LinearResizePlan& plan, const Tensor& x, int64_t xZero, double xScale,
                         const QParams& out, RequantMode mode);

}  // namespace qatdoctor::core::fixedpoint
