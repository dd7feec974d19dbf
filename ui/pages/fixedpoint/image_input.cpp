#include "ui/pages/fixedpoint/image_input.h"

#include <QImage>
#include <QImageReader>
#include <cstring>

namespace qatdoctor::ui {

bool isImageFile(const QString& path)
{
    const QString suffix = path.section('.', -1).toLower();
    return suffix == "png" || suffix == "jpg" || suffix == "jpeg" || suffix == "bmp" || suffix == "ppm" ||
           suffix == "pgm";
}

DecodedImage decodeImage(const QString& path, int width, int height)
{
    DecodedImage out;
    QImageReader reader(path);
    QImage image = reader.read();
    if (image.isNull()) {
        out.error = QStringLiteral("%1: cannot decode the image (%2)").arg(path, reader.errorString());
        return out;
    }
    image = image.convertToFormat(QImage::Format_RGB888);
    const int w = width > 0 ? width : image.width(), h = height > 0 ? height : image.height();
    if (w != image.width() || h != image.height())
        image = image.scaled(w, h, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    out.width = w;
    out.height = h;
    out.rgb.resize(size_t(w) * size_t(h) * 3);
    for (int y = 0; y < h; ++y)
        std::memcpy(out.rgb.data() + size_t(y) * size_t(w) * 3, image.constScanLine(y), size_t(w) * 3);
    return out;
}

}  // namespace qatdoctor::ui
