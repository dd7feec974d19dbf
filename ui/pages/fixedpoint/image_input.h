// Image files as simulator input: decoded with Qt and scaled to the model's input size, as
// interleaved RGB888 bytes. This is the core::fixedpoint::ImageDecoder of the Fixed-point page,
// its colour panel and (in GUI builds) `qatdoctor-cli simulate --image`, so all see the same
// pixels.
#pragma once

#include <QString>
#include <cstdint>
#include <string>

#include "core/common/result.h"
#include "core/fixedpoint/run_simulation.h"

namespace qatdoctor::ui {

bool isImageFile(const QString& path);  // by extension: png, jpg, jpeg, bmp, ppm, pgm
// width/height <= 0 keep the image's own size on that axis. Errors ("simulate.image") name the file.
core::Result<core::fixedpoint::RgbImage> decodeImage(const std::string& path, int64_t width, int64_t height);

}  // namespace qatdoctor::ui
