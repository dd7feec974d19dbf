#include "core/report/report_writer.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "core/analysis_json.h"
#include "core/common/file_io.h"
#include "core/common/json_text.h"
#include "core/compare/comparison.h"
#include "core/report/html_writer.h"

namespace qatdoctor::core::report {
namespace {

namespace fs = std::filesystem;

// Fails early, before minutes of hashing and drawing, on what the final write would refuse.
Result<void> checkTarget(const std::string& path, bool overwrite)
{
    std::error_code ec;
    const fs::path p(path);
    if (fs::is_directory(p, ec))
        return makeError("io.write", "cannot write " + path + ": it is a folder", path);
    if (!overwrite && fs::exists(p, ec))
        return makeError("io.exists",
                         path + " already exists (not replaced; use --force or confirm to overwrite)", path);
    fs::path folder = p.parent_path();
    if (folder.empty()) folder = ".";
    if (!fs::is_directory(folder, ec))
        return makeError("io.write",
                         "cannot write " + path + ": folder " + folder.string() + " does not exist", path);
    if (::access(folder.c_str(), W_OK) != 0)
        return makeError("io.write",
                         "cannot write " + path + ": folder " + folder.string() + " is not writable", path);
    return Ok{};
}

}  // namespace

std::optional<ReportFormat> formatForPath(const std::string& path)
{
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char ch) { return char(std::tolower(ch)); });
    if (ext == ".pdf") return ReportFormat::Pdf;
    if (ext == ".html" || ext == ".htm") return ReportFormat::Html;
    if (ext == ".json") return ReportFormat::Json;
    return std::nullopt;
}

Result<std::string> renderReport(const Analysis& analysis, ReportFormat format, const WriteOptions& options,
                                 const ProgressFn& progress)
{
    if (format == ReportFormat::Json) {
        nlohmann::json j = analysisToJson(analysis, options.report.lang);
        if (options.report.comparison)
            j["comparison"] = compare::comparisonToJson(*options.report.comparison, options.report.lang);
        return jsonText(j) + "\n";
    }
    if (format == ReportFormat::Pdf && !options.pdf)
        return makeError("report.no_pdf",
                         "PDF reports need the GUI build of QAT Doctor (Qt); write .html or .json instead");
    // Building (hashing inputs) takes the first half of the bar, drawing the second.
    Result<ReportDocument> doc = buildReport(analysis, options.report, [&](double f, std::string_view stage) {
        return reportProgress(progress, 0.5 * f, stage);
    });
    if (!doc) return doc.error();
    if (format == ReportFormat::Html) return renderHtml(*doc);
    return options.pdf(*doc, [&](double f, std::string_view stage) {
        return reportProgress(progress, 0.5 + 0.5 * f, stage);
    });
}

Result<void> checkReportTarget(const std::string& path, const WriteOptions& options)
{
    const std::optional<ReportFormat> format = formatForPath(path);
    if (!format)
        return makeError("report.format",
                         path + ": the report format follows the extension: .pdf, .html or .json", path);
    if (*format == ReportFormat::Pdf && !options.pdf)
        return makeError(
            "report.no_pdf",
            path + ": PDF reports need the GUI build of QAT Doctor (Qt); write .html or .json instead", path);
    return checkTarget(path, options.overwrite);
}

Result<void> writeReport(const Analysis& analysis, const std::string& path, const WriteOptions& options,
                         const ProgressFn& progress)
{
    if (Result<void> ok = checkReportTarget(path, options); !ok) return ok.error();
    const std::optional<ReportFormat> format = formatForPath(path);
    Result<std::string> bytes = renderReport(analysis, *format, options, progress);
    if (!bytes) return bytes.error();
    return writeFileAtomic(path, *bytes, options.overwrite);
}

}  // namespace qatdoctor::core::report
