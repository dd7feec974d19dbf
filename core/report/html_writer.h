// A ReportDocument as one self-contained HTML file: CSS inline, plots as inline SVG, no scripts,
// no external references (it opens the same from a ticket attachment or a USB stick).
#pragma once

#include <string>

#include "core/report/report_document.h"

namespace qatdoctor::core::report {

std::string renderHtml(const ReportDocument& doc);

}  // namespace qatdoctor::core::report
