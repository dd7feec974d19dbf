#include "app/cli/report_option.h"

#include <filesystem>
#include <iostream>

#include "core/faq/faq_base.h"

namespace qatdoctor::cli {
namespace {

// Set-once hook (see setPdfRenderer): main() runs before any command and before any thread.
core::report::PdfRenderer& pdfRenderer()
{
    static core::report::PdfRenderer renderer;
    return renderer;
}

// Installed layout first (bin/../share/qatdoctor/faq), then the source tree this was built from
// (the same search as `faq`).
std::string faqDir()
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / "share" / "qatdoctor" / "faq";
        if (fs::is_directory(installed, ec)) return installed.string();
    }
    return (fs::path(QATDOCTOR_SOURCE_DATA_DIR) / "faq").string();
}

}  // namespace

void setPdfRenderer(core::report::PdfRenderer renderer) { pdfRenderer() = std::move(renderer); }

int checkReportOption(const std::string& path, bool force, CommandIo io)
{
    core::report::WriteOptions options;
    options.overwrite = force;
    options.pdf = pdfRenderer();
    core::Result<void> ok = core::report::checkReportTarget(path, options);
    if (ok) return kExitOk;
    io.err << "analyze: report: " << ok.error().message << "\n";
    if (ok.error().code == "io.exists") io.err << "analyze: add --force to replace it\n";
    return kExitUsage;
}

int writeReportOption(const core::Analysis& analysis, const std::string& path, core::Lang lang, bool force,
                      CommandIo io, const std::string& wizardJson)
{
    // The FAQ gives findings their advice; a report without it is still worth writing.
    const core::faq::FaqLoad faq = core::faq::FaqBase::loadDirectory(faqDir());
    core::report::WriteOptions options;
    options.report.lang = lang;
    options.report.wizardJson = wizardJson;
    options.report.faq = faq.base.empty() ? nullptr : &faq.base;
    options.overwrite = force;
    options.pdf = pdfRenderer();
    core::Result<void> written = core::report::writeReport(analysis, path, options);
    if (!written) {
        io.err << "analyze: report: " << written.error().message << "\n";
        if (written.error().code == "io.exists") io.err << "analyze: add --force to replace it\n";
        return kExitUsage;
    }
    io.err << "report written to " << path << "\n";
    return kExitOk;
}

}  // namespace qatdoctor::cli
