// Writing a report file: the format follows the extension (.pdf, .html/.htm, .json), the write is
// atomic (core::writeFileAtomic) and an existing file is kept unless overwrite is set.
// PDF drawing needs Qt, so core takes it as a function (the GUI library's renderPdf), installed
// by whoever links the GUI; without one, a PDF request is an error that says so.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/analysis.h"
#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/report/report_builder.h"

namespace qatdoctor::core::report {

enum class ReportFormat { Pdf, Html, Json };

// By extension, case-insensitive; nullopt for anything else.
std::optional<ReportFormat> formatForPath(const std::string& path);

// Draws doc into bytes (a PDF). Runs on the calling thread.
using PdfRenderer = std::function<Result<std::string>(const ReportDocument& doc, const ProgressFn& progress)>;

struct WriteOptions {
    ReportOptions report;
    bool overwrite = false;
    PdfRenderer pdf;  // empty = PDF not available in this build
};

// Errors: "report.format" (extension not .pdf/.html/.htm/.json), "report.no_pdf" (no renderer),
// "io.exists" (file there and !overwrite; checked before any work), "io.write" (folder missing
// or not writable: the message names the path), kCancelledCode, or the renderer's error.
Result<void> writeReport(const Analysis& analysis, const std::string& path, const WriteOptions& options,
                         const ProgressFn& progress = {});

// What writeReport checks before any work (extension, PDF availability, existing file, folder):
// callers with slow work before the write (the CLI's analysis) call it first to fail fast.
Result<void> checkReportTarget(const std::string& path, const WriteOptions& options);

// The bytes of one format (no file involved), for previews and tests.
Result<std::string> renderReport(const Analysis& analysis, ReportFormat format, const WriteOptions& options,
                                 const ProgressFn& progress = {});

}  // namespace qatdoctor::core::report
