// Integer building blocks shared by the specification ops (QLinearConv, ConvInteger, ...) and the
// integer interpreter: zero-point offsetting and exact integer convolution / matrix products.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/common/no_init_allocator.h"
#include "core/fixedpoint/conv_kernel.h"
#include "core/fixedpoint/quantize.h"
#include "core/fixedpoint/tensor.h"

namespace qatdoctor::core::fixedpoint {

// Integer accumulators of one product: int32 when both operands are 8-bit (cannot overflow for
// K < 33025), else int64. `overflows` counts results outside int32 (the int16 hazard).
struct Accumulator {
    std::vector<int64_t> shape;
    std::vector<int32_t, NoInitAllocator<int32_t>> acc32;  // every kernel writes all of them
    std::vector<int64_t> acc64;
    bool wide = false;
    int64_t overflows = 0;

    int64_t size() const
    {
        return wide ? static_cast<int64_t>(acc64.size()) : static_cast<int64_t>(acc32.size());
    }
    int64_t at(int64_t i) const
    {
        return wide ? acc64[static_cast<size_t>(i)] : acc32[static_cast<size_t>(i)];
    }
};

bool isNarrow(DType t);  // int8 / uint8
// Sums of `terms` products of two codes (zero points taken off) stay inside int32: both 8-bit and
// terms < 33025 (255 * 255 * 33024 < 2^31). Otherwise the kernels accumulate in int64.
bool narrowSumsFit(DType a, DType b, int64_t terms);
// For a wide accumulator: counts the results outside int32 (what int32 hardware would overflow on).
void countOverflows(Accumulator& a);

// (x - zp) as T; zp per channel along `axis` (or one value when zps.size() == 1).
template <class T>
std::vector<T> offsetValues(const Tensor& x, const std::vector<int64_t>& zps, int axis);

// Integer convolution of (x - xzp) with (w - wzp[m]); no bias.
Accumulator convInteger(const ConvGeometry& g, const Tensor& x, int64_t xZero, const Tensor& w,
                        const std::vector<int64_t>& wZero, ThreadPool* pool);
// [M,K] x [K,N] with a zero point for A (per tensor) and B (per tensor or per column N).
Accumulator matmulInteger(const Tensor& a, int64_t aZero, const Tensor& b, const std::vector<int64_t>& bZero,
                          int64_t M, int64_t K, int64_t N, ThreadPool* pool);

// Elementwise Add / Sub / Mul of two quantized tensors with ONNX broadcasting, each per tensor
// or per channel (at most one of them per channel), rounded once into `out` (per tensor).
// Whether binaryCodes can take these operands: their shapes broadcast, at most one is per channel,
// and its scales match its channel axis.
bool binaryCodesFit(const Tensor& a, const QParams& qa, const Tensor& b, const QParams& qb);
// Mul: zo + round((a - za) * (b - zb) * sa * sb / so). Add/Sub in Float mode: zo + round((sa (a -
// za) +- sb (b - zb)) / so) in double; in Fixed mode TFLite's integer add (both inputs shifted
// left by 20 (15 for 16-bit), rescaled to twice the larger scale, summed, one output multiplier).
// nullopt when binaryCodesFit says no.
std::optional<Tensor> binaryCodes(const std::string& op, const Tensor& a, const QParams& qa, const Tensor& b,
                                  const QParams& qb, const QParams& out, RequantMode mode);

}  // namespace qatdoctor::core::fixedpoint
