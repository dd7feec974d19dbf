// Integer ConvTranspose for the integer mode: 8-bit (or 16-bit) codes minus their zero points,
// exact integer sums, the accumulator returned for the caller's requantization, like
// convInteger (int_ops.h) for Conv. Not yet called by the integer mode (which computes
// ConvTranspose in float); tested against the float op on integer-valued inputs.
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/result.h"
#include "core/fixedpoint/conv_transpose.h"
#include "core/fixedpoint/int_ops.h"
#include "core/fixedpoint/tensor.h"

namespace qatdoctor::core::fixedpoint {

// (x - xZero) transposed-convolved with (w - wZero), no bias, shape g.outShape(). x is [N, C,
// in...], w is [C, M/group, kernel...]; wZero is one value or one per W axis 1 (M/group values:
// the axis per-channel ConvTranspose weights are quantized along, so a channel's zero point is
// shared by the same channel of every group). int32 sums when both operands are 8-bit and an
// output sums fewer than 33025 products (C/group * kernel pixels), else int64 with `overflows`
// counting the sums outside int32. Errors: integer types only, zero point sizes.
Result<Accumulator> convTransposeInteger(const ConvTransposeGeometry& g, const Tensor& x, int64_t xZero,
                                         const Tensor& w, const std::vector<int64_t>& wZero,
                                         ThreadPool* pool);

}  // namespace qatdoctor::core::fixedpoint
