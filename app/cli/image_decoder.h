// `simulate --image FILE`: decoding image files needs Qt, which qatdoctor_cli_lib does not link.
// The qatdoctor-cli executable installs the GUI library's decoder (ui/pages/fixedpoint/
// image_input.h, the same pixels the Fixed-point page sees) at start-up in GUI builds; without
// it --image is a usage error that says so.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/common/result.h"

namespace qatdoctor::cli {

struct DecodedRgb {
    int64_t width = 0, height = 0;
    std::vector<uint8_t> rgb;  // height * width * 3, interleaved RGB
};

// Decodes path scaled to width x height (<= 0: the image's own size). Errors name the file.
using ImageDecoder =
    std::function<core::Result<DecodedRgb>(const std::string& path, int64_t width, int64_t height)>;

// Set once by main() before any command runs (unset = --image unavailable in this build).
void setImageDecoder(ImageDecoder decoder);

// Only in the GUI build of qatdoctor-cli (gui_image_decoder.cpp).
void installGuiImageDecoder();

}  // namespace qatdoctor::cli
