#include "ui/pages/fixedpoint/image_input.h"

#include <QImage>
#include <QImageReader>
#include <cstring>

#include "core/common/error_codes.h"

namespace qatdoctor::ui {

bool isImageFile(const QString& path)
{
    const QString suffix = path.section('.', -1).toLower();
    return suffix == "png" || suffix == "jpg" || suffix == "jpeg" || suffix == "bmp" || suffix == "ppm" ||
           suffix == "pgm";
}

core::Result<core::fixedpoint::RgbImage> decodeImage(const std::string& path, int64_t width, int64_t height)
{
    QImageReader reader(QString::fromStdString(path));
    QImage image = reader.read();
    if (image.isNull())
        return core::makeError(
            core::codes::kSimulateImage,
            path + ": cannot decode the image (" + reader.errorString().toStdString() + ")", path);
    image = image.convertToFormat(QImage::Format_RGB888);
    const int w = width > 0 ? int(width) : image.width(), h = height > 0 ? int(height) : image.height();
    if (w != image.width() || h != image.height())
        image = image.scaled(w, h, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    core::fixedpoint::RgbImage out;
    out.width = w;
    out.height = h;
    out.rgb.resize(size_t(w) * size_t(h) * 3);
    for (int y = 0; y < h; ++y)
        std::memcpy(out.rgb.data() + size_t(y) * size_t(w) * 3, image.constScanLine(y), size_t(w) * 3);
    return out;
}

}  // namespace qatdoctor::ui
