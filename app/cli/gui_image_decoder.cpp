#include "app/cli/image_decoder.h"
#include "ui/pages/fixedpoint/image_input.h"

namespace qatdoctor::cli {

void installGuiImageDecoder()
{
    setImageDecoder(ui::decodeImage);
}

}  // namespace qatdoctor::cli
