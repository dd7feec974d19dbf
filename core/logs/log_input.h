// The logs area's side of the input table (core/input_registry.cpp puts what it reads into the
// Analysis): probes for a log folder and a log file, the read, and the merge of several log
// inputs into one LogSet (run names made unique).
#pragma once

#include <string>
#include <string_view>

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/logs/log_tailer.h"
#include "core/logs/run.h"

namespace qatdoctor::core::logs {

int probeLogFileInput(const std::string& path, std::string_view head);
// A folder or a file, read whole. Errors as readLogFolder / readLogFile.
Result<LogSet> readLogInput(const std::string& path, const ProgressFn& progress);
// Appends set's runs (renamed "name (2)" when the name is taken) and warnings to into; the first
// set appended gives into its root and live-watch checkpoint.
void appendLogSet(LogSet& into, LogSet set);

}  // namespace qatdoctor::core::logs
