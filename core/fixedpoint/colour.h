// Image pixels to model input tensors in the colour forms a deployment sees. Horizon BPUs take
// centered YUV444 (each channel minus 128); a model trained on RGB or BGR and fed YUV444 on the
// board (or the reverse) loses accuracy, so the simulator can build all three from one image.
// Decoding the image file is the caller's job (Qt in ui/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/fixedpoint/tensor.h"

namespace qatdoctor::core::fixedpoint {

enum class ColourFormat { Rgb, Bgr, Yuv444Centered };
const char* colourFormatName(ColourFormat f);  // "rgb" | "bgr" | "yuv444"
std::optional<ColourFormat> parseColourFormat(const std::string& name);

// rgb: height*width*3 interleaved 8-bit RGB pixels. Returns a float32 NCHW tensor [1,3,H,W]
// with values 0..255 (RGB/BGR) or BT.601 full-range YUV minus 128 (-128..127).
Tensor imageToTensor(const uint8_t* rgb, int64_t height, int64_t width, ColourFormat format);

}  // namespace qatdoctor::core::fixedpoint
