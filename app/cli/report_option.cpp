#include "app/cli/report_option.h"

#include <filesystem>
#include <iostream>

#include "app/cli/faq_dir.h"
#include "core/common/error_codes.h"
#include "core/faq/faq_base.h"

namespace qatdoctor::cli {
namespace {

// Set-once hook (see setPdfRenderer): main() runs before any command and before any thread.
core::report::PdfRenderer& pdfRenderer()
{
    static core::report::PdfRenderer renderer;
    return renderer;
}

}  // namespace

void setPdfRenderer(core::report::PdfRenderer renderer)
{
    pdfRenderer() = std::move(renderer);
}

int checkReportOption(const std::string& path, bool force, CommandIo io)
{
    core::report::WriteOptions options;
    options.overwrite = force;
    options.pdf = pdfRenderer();
    core::Result<void> ok = core::report::checkReportTarget(path, options);
    if (ok) return kExitOk;
    io.err << "analyze: report: " << ok.error().message << "\n";
    if (ok.error().code == core::codes::kIoExists) io.err << "analyze: add --force to replace it\n";
    return kExitUsage;
}

int writeReportOption(const core::Analysis& analysis, const std::string& path, core::Lang lang, bool force,
                      CommandIo io, const std::string& wizardJson,
                      const core::compare::Comparison* comparison)
{
    // The FAQ gives findings their advice; a report without it is still worth writing.
    const core::faq::FaqLoad faq = core::faq::FaqBase::loadDirectory(defaultFaqDir());
    core::report::WriteOptions options;
    options.report.lang = lang;
    options.report.wizardJson = wizardJson;
    options.report.comparison = comparison;
    options.report.faq = faq.base.empty() ? nullptr : &faq.base;
    options.overwrite = force;
    options.pdf = pdfRenderer();
    core::Result<void> written = core::report::writeReport(analysis, path, options);
    if (!written) {
        io.err << "analyze: report: " << written.error().message << "\n";
        if (written.error().code == core::codes::kIoExists) io.err << "analyze: add --force to replace it\n";
        return kExitUsage;
    }
    io.err << "report written to " << path << "\n";
    return kExitOk;
}

}  // namespace qatdoctor::cli
