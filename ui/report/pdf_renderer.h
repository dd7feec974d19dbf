// Draws a ReportDocument as PDF: title page, contents with page numbers, one section after the
// other, running header and "page n of N" footer, tables split across pages with the header
// repeated and flagged rows marked, plots as vector graphics (QCustomPlot through QPicture), the
// text in WenQuanYi Micro Hei embedded so Chinese shows on any viewer.
#pragma once

#include <QImage>
#include <string>
#include <vector>

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/report/report_document.h"

namespace qatdoctor::ui {

// Needs a QApplication (QCustomPlot draws the plots). Callable from any thread: the plots are
// drawn on the application's thread (a worker waits for them, giving up when progress says stop
// or the application is closing), the pages on the calling thread.
// Returns the PDF bytes; kCancelledCode when progress says stop.
core::Result<std::string> renderPdf(const core::report::ReportDocument& doc,
                                    const core::ProgressFn& progress = {});

// The same pages as images (scale 1 = 96 dpi), for the Report page's preview. Same threading.
core::Result<std::vector<QImage>> renderPreview(const core::report::ReportDocument& doc, double scale,
                                                const core::ProgressFn& progress = {});

}  // namespace qatdoctor::ui
