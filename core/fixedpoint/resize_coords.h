// What a Resize samples, shared by the float Resize (ops_nn.cpp) and the integer bilinear kernel
// (resize_kernel.cpp) so the two can never sample different points: its output shape and scales,
// and where each output index falls in the input (coordinate_transformation_mode).
// tf_crop_and_resize is not here: it needs the node's roi (the float op handles it itself).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/fixedpoint/tensor.h"

namespace onnx {
class NodeProto;
}

namespace qatdoctor::core::fixedpoint {

struct ResizeShape {
    std::vector<int64_t> outShape;
    std::vector<double> scales;  // per dimension (from sizes: size / input length, in float as the spec)
    bool sizesGiven = false;     // align_corners' length_resized is then the output length
};

// Sizes when given (opset 11+), else scales: the input, or Upsample's attribute. `inputs` are the
// node's inputs (an empty tensor = not given). Errors name the node: missing scales and sizes, or
// a count other than the input's rank.
Result<ResizeShape> resizeShape(const onnx::NodeProto& node, int64_t opset, bool upsample,
                                const std::vector<int64_t>& inShape, const std::vector<Tensor>& inputs);

// in, out: the dimension's input and output lengths; scale: its scale; sizesGiven: the node gave
// sizes, not scales (align_corners' length_resized is then the output length). A length-1
// pytorch_half_pixel output samples -0.5, which linear modes clamp to 0.
inline double resizeSourceCoordinate(const std::string& mode, int64_t o, double scale, double in, double out,
                                     bool sizesGiven)
{
    const double x = static_cast<double>(o);
    if (mode == "asymmetric") return x / scale;
    if (mode == "align_corners") {
        const double len = sizesGiven ? out : in * scale;  // the specification's length_resized
        return len == 1 ? 0.0 : x * (in - 1) / (len - 1);
    }
    if (mode == "pytorch_half_pixel") return out > 1 ? (x + 0.5) / scale - 0.5 : -0.5;
    if (mode == "tf_half_pixel_for_nn") return (x + 0.5) / scale;
    if (mode == "half_pixel_symmetric") {
        const double adj = out / (scale * in);
        return in / 2.0 * (1 - adj) + (x + 0.5) / scale - 0.5;
    }
    return (x + 0.5) / scale - 0.5;  // half_pixel
}

}  // namespace qatdoctor::core::fixedpoint
