// `analyze ... --report FILE [--force]`: writes the report of an Analysis (PDF, HTML or JSON by
// extension). PDF drawing needs Qt; the qatdoctor-cli executable installs the GUI library's
// renderer at start-up when built with the GUI, so this library itself stays free of Qt.
#pragma once

#include <string>

#include "app/cli/cli_command.h"
#include "core/analysis.h"
#include "core/report/report_writer.h"

namespace qatdoctor::cli {

// Set once by main() before any command runs (empty = PDF unavailable in this build).
void setPdfRenderer(core::report::PdfRenderer renderer);

// Before the analysis: the same checks the write makes (existing file, folder, extension), so a
// doomed --report fails at once. kExitOk or kExitUsage after printing the error.
int checkReportOption(const std::string& path, bool force, CommandIo io);

// Writes the report; returns kExitOk, or kExitUsage after printing an error that names the file
// (existing file without --force, unwritable path, unknown extension, PDF without the GUI).
// wizardJson: the wizard walk for the report's wizard section (core/report/wizard_input.h), "" = none.
// comparison: an earlier attempt compared with this analysis (the "What changed" section), or null.
int writeReportOption(const core::Analysis& analysis, const std::string& path, core::Lang lang, bool force,
                      CommandIo io, const std::string& wizardJson = {},
                      const core::compare::Comparison* comparison = nullptr);

}  // namespace qatdoctor::cli
