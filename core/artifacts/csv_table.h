// A small CSV reader for the profiler's .csv twins (pandas to_csv: comma separated, quoted cells
// may hold commas, quotes and line breaks).
#pragma once

#include <string>
#include <string_view>

#include "core/artifacts/tabulate_reader.h"

namespace qatdoctor::core::artifacts {

// First record = header. Rows with a different cell count are padded/cut with a warning.
TableScan readCsvTable(std::string_view text, const std::string& path);

}  // namespace qatdoctor::core::artifacts
