// One-shot reading of training logs into a LogSet, and the probes the input table uses.
#pragma once

#include <string>
#include <string_view>

#include "core/common/folder_walk.h"
#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/logs/log_tailer.h"
#include "core/logs/parsed_log.h"

namespace qatdoctor::core::logs {

// Reads every log file under a folder (recursively), grouped into runs (a folder = a run; files
// side by side merge), roles guessed. Damaged parts become LogSet::warnings. Errors: "io.open",
// "logs.none" (no log file found), kCancelledCode.
Result<LogSet> readLogFolder(const std::string& path, const ProgressFn& progress = {},
                             ReadOptions options = {});
// Reads one log file as one run. Errors: "io.open", "logs.format" (not a log), kCancelledCode.
Result<LogSet> readLogFile(const std::string& path, const ProgressFn& progress = {},
                           ReadOptions options = {});

// Parses a whole file's bytes with a format (tests, benchmark), progress every few MiB.
Result<ParsedLog> parseLogBytes(const LogFormat& format, std::string_view bytes, const std::string& path,
                                const ProgressFn& progress = {}, unsigned threads = 2, bool atEnd = true);

// The same, continuing from state (bytes start at state.offset of the file).
Result<ParsedLog> parseBlocks(const LogFormat& format, std::string_view bytes, const std::string& path,
                              ParseState& state, const ProgressFn& progress, unsigned threads, bool atEnd);

// Input-table probes: a folder holding log-like files (50), a single log file (its format's score).
// The one test of a log's file name, for every place that looks for logs in a folder: an extension
// of the format table (log_formats.cpp), also before a rotation number ("train.log.1"), or a
// TensorBoard event file.
bool isLogFileName(std::string_view name);
// The probe score (LogFormat::probe) a file found in a folder needs to be read as a log.
inline constexpr int kMinFolderLogScore = 15;

// A folder holds logs when one of its files with a log's name probes as one (the same test the
// folder reader applies, so `analyze DIR` reads what `logs DIR` reads).
int probeLogFolder(const FolderScan& scan);
int probeLogFile(const std::string& path, std::string_view head);

}  // namespace qatdoctor::core::logs
