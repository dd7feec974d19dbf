// Where output index o of a resized dimension samples its input: ONNX Resize's
// coordinate_transformation_mode, shared by the float Resize (ops_nn.cpp) and the integer
// bilinear kernel (resize_kernel.cpp) so the two can never sample different points.
// tf_crop_and_resize is not here: it needs the node's roi (the float op handles it itself).
#pragma once

#include <cstdint>
#include <string>

namespace qatdoctor::core::fixedpoint {

// in, out: the dimension's input and output lengths; scale: its scale; sizesGiven: the node gave
// sizes, not scales (align_corners' length_resized is then the output length). A length-1
// pytorch_half_pixel output samples -0.5, which linear modes clamp to 0.
inline double resizeSourceCoordinate(const std::string& mode, int64_t o, double scale, double in, double out, bool sizesGiven)
{
    const double x = static_cast<double>(o);
    if (mode == "asymmetric") return x / scale;
    if (mode == "align_corners") {
        const double len = sizesGiven ? out : in * scale;   // the specification's length_resized
        return len == 1 ? 0.0 : x * (in - 1) / (len - 1);
    }
    if (mode == "pytorch_half_pixel") return out > 1 ? (x + 0.5) / scale - 0.5 : -0.5;
    if (mode == "tf_half_pixel_for_nn") return (x + 0.5) / scale;
    if (mode == "half_pixel_symmetric") {
        const double adj = out / (scale * in);
        return in / 2.0 * (1 - adj) + (x + 0.5) / scale - 0.5;
    }
    return (x + 0.5) / scale - 0.5;   // half_pixel
}

}  // namespace qatdoctor::core::fixedpoint
