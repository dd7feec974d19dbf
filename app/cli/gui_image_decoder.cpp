#include "app/cli/image_decoder.h"
#include "ui/pages/fixedpoint/image_input.h"

namespace qatdoctor::cli {

void installGuiImageDecoder()
{
    setImageDecoder([](const std::string& path, int64_t width, int64_t height) -> core::Result<DecodedRgb> {
        const ui::DecodedImage img = ui::decodeImage(QString::fromStdString(path), int(width), int(height));
        if (!img.error.isEmpty()) return core::makeError("simulate.image", img.error.toStdString(), path);
        return DecodedRgb{img.width, img.height, img.rgb};
    });
}

}  // namespace qatdoctor::cli
