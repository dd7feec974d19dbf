#include "core/fixedpoint/colour.h"

#include <algorithm>
#include <cmath>

namespace qatdoctor::core::fixedpoint {

const char* colourFormatName(ColourFormat f)
{
    switch (f) {
        case ColourFormat::Rgb:
            return "rgb";
        case ColourFormat::Bgr:
            return "bgr";
        case ColourFormat::Yuv444Centered:
            return "yuv444";
    }
    return "rgb";
}

std::optional<ColourFormat> parseColourFormat(const std::string& name)
{
    if (name == "rgb") return ColourFormat::Rgb;
    if (name == "bgr") return ColourFormat::Bgr;
    if (name == "yuv444" || name == "yuv") return ColourFormat::Yuv444Centered;
    return std::nullopt;
}

Tensor imageToTensor(const uint8_t* rgb, int64_t height, int64_t width, ColourFormat format)
{
    Tensor t(DType::Float32, {1, 3, height, width});
    float* out = t.data<float>();
    const int64_t plane = height * width;
    for (int64_t i = 0; i < plane; ++i) {
        const float r = rgb[i * 3], g = rgb[i * 3 + 1], b = rgb[i * 3 + 2];
        float c0 = r, c1 = g, c2 = b;
        if (format == ColourFormat::Bgr) {
            c0 = b;
            c2 = r;
        } else if (format == ColourFormat::Yuv444Centered) {
            // BT.601 full range, rounded to 8 bits as the camera pipeline delivers it, then centered
            auto u8 = [](float v) { return std::clamp(std::nearbyint(v), 0.0f, 255.0f); };
            c0 = u8(0.299f * r + 0.587f * g + 0.114f * b) - 128.0f;
            c1 = u8(-0.168736f * r - 0.331264f * g + 0.5f * b + 128.0f) - 128.0f;
            c2 = u8(0.5f * r - 0.418688f * g - 0.081312f * b + 128.0f) - 128.0f;
        }
        out[i] = c0;
        out[plane + i] = c1;
        out[2 * plane + i] = c2;
    }
    return t;
}

}  // namespace qatdoctor::core::fixedpoint
