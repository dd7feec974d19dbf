// NumPy-style multidirectional broadcasting (ONNX's rule) shared by the elementwise kernels.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/common/result.h"
#include "core/fixedpoint/kernel_checks.h"

namespace qatdoctor::core::fixedpoint {

// The broadcast shape of several shapes, or nullopt when they are incompatible.
std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<std::vector<int64_t>>& shapes);

// Element strides of `shape` seen as `outShape` (0 on broadcast dimensions).
std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& shape,
                                      const std::vector<int64_t>& outShape);

// A MatMul's shapes by numpy's matmul rules: a 1-D operand is promoted to a matrix and its
// dimension dropped from the result; the batch dimensions (all but the last two) broadcast.
struct MatMulShape {
    int64_t m = 0, k = 0, n = 0;
    std::vector<int64_t> aBatch, bBatch, batch;  // each operand's batch dimensions, and theirs broadcast
    std::vector<int64_t> out;                    // the result's shape
};
// Errors (the message says what is wrong; callers name the node): scalar operands, inner
// dimensions that differ, batch dimensions that do not broadcast.
Result<MatMulShape> matmulShape(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// Calls f(outIndex, offsets) for every output element in order; offsets[k] indexes input k.
template <class F>
void forEachBroadcast(const std::vector<int64_t>& outShape, const std::vector<std::vector<int64_t>>& strides,
                      F&& f)
{
    const size_t rank = outShape.size(), n = strides.size();
    // an empty output may hold huge dimensions besides its zero one: nothing to visit, and the
    // product must not overflow on the way to 0
    for (int64_t d : outShape)
        if (d == 0) return;
    int64_t total = 1;
    for (int64_t d : outShape)
        if (__builtin_mul_overflow(total, d, &total)) throw KernelInputError("the output shape overflows");
    std::vector<int64_t> counter(rank, 0), offs(n, 0);
    for (int64_t i = 0; i < total; ++i) {
        f(i, offs);
        for (size_t d = rank; d-- > 0;) {
            ++counter[d];
            for (size_t k = 0; k < n; ++k) offs[k] += strides[k][d];
            if (counter[d] < outShape[d]) break;
            for (size_t k = 0; k < n; ++k) offs[k] -= strides[k][d] * counter[d];
            counter[d] = 0;
        }
    }
}

}  // namespace qatdoctor::core::fixedpoint
