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

// QconfigSetter's save_dir files (qconfig_setter_files.cpp). Errors name the file and line.
Result<ToolchainRead> readQconfigDtypes(std::string_view text, const std::string& path);
Result<ToolchainRead> readQconfigChangelog(std::string_view text, const std::string& path);

// "<class 'horizon_plugin_pytorch.nn.qat.conv2d.Conv2d'>" -> "Conv2d".
std::string shortTypeName(const std::string& cell);

}  // namespace qatdoctor::core::artifacts
