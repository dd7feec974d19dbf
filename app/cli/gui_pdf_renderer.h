// Only in the GUI build of qatdoctor-cli: installs the Qt PDF renderer for `analyze --report x.pdf`.
#pragma once

namespace qatdoctor::cli {

// Keeps argc/argv for a QApplication created lazily, the first time a PDF is drawn (other
// commands never start Qt). With no DISPLAY / WAYLAND_DISPLAY it uses the offscreen platform.
void installGuiPdfRenderer(int& argc, char** argv);

}  // namespace qatdoctor::cli
