// The logs area's rows of the input table (core/input_registry.cpp): "log_folder" and
// "log_file". Loaders append runs and warnings to Analysis::logs (run names made unique when
// several log inputs are given).
#pragma once

#include <string>
#include <string_view>

#include "core/analysis.h"
#include "core/logs/log_tailer.h"

namespace qatdoctor::core::logs {

int probeLogFolderInput(const std::string& path, bool isFolder, std::string_view head);
int probeLogFileInput(const std::string& path, bool isFolder, std::string_view head);
Result<void> loadLogInput(const std::string& path, Analysis& into, const ProgressFn& progress);
// A folder with read options (core/folder_input.cpp leaves out files other readers claim).
Result<void> loadLogFolder(const std::string& path, Analysis& into, const ProgressFn& progress,
                           const ReadOptions& options);

}  // namespace qatdoctor::core::logs
