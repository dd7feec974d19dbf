#include "core/fixedpoint/broadcast.h"

#include <algorithm>

#include "core/fixedpoint/kernel_checks.h"
#include "core/fixedpoint/tensor.h"

namespace qatdoctor::core::fixedpoint {

std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<std::vector<int64_t>>& shapes)
{
    size_t rank = 0;
    for (const auto& s : shapes) rank = std::max(rank, s.size());
    std::vector<int64_t> out(rank, 1);
    for (const auto& s : shapes) {
        for (size_t i = 0; i < s.size(); ++i) {
            const size_t d = rank - s.size() + i;
            if (s[i] == out[d] || s[i] == 1) continue;
            if (out[d] == 1)
                out[d] = s[i];
            else
                return std::nullopt;
        }
    }
    return out;
}

std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& shape, const std::vector<int64_t>& outShape)
{
    // every caller's shapes come from a model: one that does not broadcast is an error, not an
    // index past the strides
    bool fits = shape.size() <= outShape.size();
    for (size_t i = 0; fits && i < shape.size(); ++i) {
        const int64_t dim = shape[i], out = outShape[outShape.size() - shape.size() + i];
        fits = dim == 1 || dim == out;
    }
    if (!fits)
        throw KernelInputError("shape " + shapeString(shape) + " does not broadcast to " +
                               shapeString(outShape));
    std::vector<int64_t> strides(outShape.size(), 0);
    int64_t stride = 1;
    for (size_t i = shape.size(); i-- > 0;) {
        const size_t d = outShape.size() - shape.size() + i;
        strides[d] = shape[i] == 1 ? 0 : stride;
        stride *= shape[i];
    }
    return strides;
}

Result<MatMulShape> matmulShape(const std::vector<int64_t>& a, const std::vector<int64_t>& b)
{
    if (a.empty() || b.empty()) return makeError("simulate.op", "scalar operands");
    std::vector<int64_t> as = a, bs = b;
    const bool aVec = as.size() == 1, bVec = bs.size() == 1;
    if (aVec) as.insert(as.begin(), 1);
    if (bVec) bs.push_back(1);
    MatMulShape s;
    s.m = as[as.size() - 2];
    s.k = as.back();
    s.n = bs.back();
    if (bs[bs.size() - 2] != s.k) return makeError("simulate.op", "inner dimensions differ");
    s.aBatch.assign(as.begin(), as.end() - 2);
    s.bBatch.assign(bs.begin(), bs.end() - 2);
    auto batch = broadcastShapes({s.aBatch, s.bBatch});
    if (!batch) return makeError("simulate.op", "batch dimensions do not broadcast");
    s.batch = *batch;
    s.out = s.batch;
    if (!aVec) s.out.push_back(s.m);
    if (!bVec) s.out.push_back(s.n);
    return s;
}

}  // namespace qatdoctor::core::fixedpoint
