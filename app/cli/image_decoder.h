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
#include "core/fixedpoint/run_simulation.h"

namespace qatdoctor::cli {

using ImageDecoder = core::fixedpoint::ImageDecoder;  // core/fixedpoint/run_simulation.h

// Set once by main() before any command runs (unset = --image unavailable in this build).
void setImageDecoder(ImageDecoder decoder);
// The decoder set (empty when none): for `simulate --image` and the image folders of --dataset.
const ImageDecoder& installedImageDecoder();

// Only in the GUI build of qatdoctor-cli (gui_image_decoder.cpp).
void installGuiImageDecoder();

}  // namespace qatdoctor::cli
