// Internal helpers shared by the toolchain file readers.
#pragma once

#include <string>
#include <vector>

#include "core/artifacts/tabulate_reader.h"
#include "core/artifacts/toolchain_files.h"

namespace qatdoctor::core::artifacts {

DataTable toDataTable(const TextTable& t, const std::string& kind, const std::string& title,
                      const std::string& path);

// model_check_result.txt: sections -> DataTables + LayerTable (format "model_check_result").
ToolchainRead readModelCheckResult(const std::vector<TextLine>& lines, TableScan scan,
                                   const std::string& path);

// "<class 'horizon_plugin_pytorch.nn.qat.conv2d.Conv2d'>" -> "Conv2d".
std::string shortTypeName(const std::string& cell);

}  // namespace qatdoctor::core::artifacts
