// Plain-text rendering of findings and warnings for the terminal, shared by subcommands.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "core/common/finding.h"
#include "core/common/result.h"

namespace qatdoctor::cli {

// One evidence line as the CLI prints it: "file:line, run r, metric, step, value, detail".
std::string evidenceLine(const core::Evidence& e, core::Lang lang);
void printFindings(std::ostream& out, const std::vector<core::Finding>& findings, core::Lang lang);
void printWarnings(std::ostream& out, const std::vector<core::Warning>& warnings);

// Rows of cells in columns padded by display width (names may be Chinese), each line starting
// with indent; the last column runs free.
void printColumns(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                  const std::string& indent);

// Exit code for a finished run: kExitFindings if any finding is at or above failOn.
int exitCodeFor(const std::vector<core::Finding>& findings, core::Severity failOn);

}  // namespace qatdoctor::cli
