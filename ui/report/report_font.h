// The font the PDF report is drawn with: WenQuanYi Micro Hei (fonts-wqy-microhei) registered as an
// application font, so Chinese and Latin share one face and Qt embeds it in the PDF (a reader
// without CJK fonts still sees the Chinese).
#pragma once

#include <QString>

namespace qatdoctor::ui {

// Registers the font once (call on the GUI thread) and returns the family to use; falls back to
// the default family when the file is missing (Chinese then depends on the viewer's fonts).
QString reportFontFamily();

}  // namespace qatdoctor::ui
