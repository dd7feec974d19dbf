// Max / average pooling over 1-3 spatial dimensions (ONNX semantics: pads, dilations,
// ceil_mode, auto_pad, count_include_pad), shared by the float and integer paths.
#pragma once

#include <cstdint>
#include <vector>

#include "core/common/result.h"

namespace onnx {
class NodeProto;
}

namespace qatdoctor::core::fixedpoint {

struct PoolGeometry {
    int64_t n = 1, c = 1;
    int rank = 2;
    int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, d[3] = {1, 1, 1};
    int64_t pb[3] = {0, 0, 0}, pe[3] = {0, 0, 0}, out[3] = {1, 1, 1};

    int64_t inPixels() const { return in[0] * in[1] * in[2]; }
    int64_t outPixels() const { return out[0] * out[1] * out[2]; }
    std::vector<int64_t> outShape() const;
};

// Global pooling is a window covering the whole input.
Result<PoolGeometry> poolGeometry(const onnx::NodeProto& node, const std::vector<int64_t>& xShape,
                                  bool global);

// y = max over each window (padding never wins).
template <class T>
void maxPool(const PoolGeometry& g, const T* x, T* y);
// sums[i] = sum over each window of x (Acc = double for float data, int64 for integers);
// counts[p] = divisor of output pixel p (per count_include_pad); validTaps, when given, the
// number of real (not padding) taps of each window.
template <class T, class Acc>
void sumPool(const PoolGeometry& g, const T* x, Acc* sums, std::vector<int64_t>& counts, bool countIncludePad,
             std::vector<int64_t>* validTaps = nullptr);

}  // namespace qatdoctor::core::fixedpoint
