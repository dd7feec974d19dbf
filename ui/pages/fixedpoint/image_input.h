// Image files as simulator input: decoded with Qt and scaled to the model's input size, as
// interleaved RGB888 bytes for core::fixedpoint::imageToTensor / compareColourForms. Shared by
// the Fixed-point page and (in GUI builds) `qatdoctor-cli simulate --image`, so both see the
// same pixels.
#pragma once

#include <QString>
#include <cstdint>
#include <vector>

namespace qatdoctor::ui {

struct DecodedImage {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;  // height * width * 3
    QString error;             // non-empty = failed (names the file)
};

bool isImageFile(const QString& path);  // by extension: png, jpg, jpeg, bmp, ppm, pgm
// width/height <= 0 keep the image's own size on that axis.
DecodedImage decodeImage(const QString& path, int width, int height);

}  // namespace qatdoctor::ui
