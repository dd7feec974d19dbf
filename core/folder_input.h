// Opening a whole project folder: the training logs in it become runs, and the other files a
// more specific reader recognises (an exported ONNX model, a printed model, the toolchain's debug
// tables) are loaded by that reader instead of being scanned as text logs. Users point the tool
// at the folder their job wrote; a printed model read as a "log" would invent a QAT run whose
// "settings" are module attributes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/analysis.h"
#include "core/common/folder_walk.h"

namespace qatdoctor::core {

// A file in a folder that a model or artifact reader claims (score >= 50), with that reader.
struct ClaimedFile {
    std::string path;
    const InputLoader* loader = nullptr;
};

// The reader (other than the log readers) that surely reads this file, or nullptr.
const InputLoader* claimingLoader(const std::string& path, std::string_view head);

// Reads the file's head and asks claimingLoader: the skip rule for any scan of a log folder
// (the Curves page's live view uses it too, so a printed model written later is not a "run").
bool claimedByOtherReader(const std::string& path);

// The files of the scan (core/common/folder_walk.h: its walk and heads) that a model or
// artifact reader claims. A walk stopped by the entry limit says so in capped ("folder.capped",
// naming the folder).
std::vector<ClaimedFile> findClaimedFiles(const FolderScan& scan, std::vector<Warning>* capped = nullptr);

// Input-table row for folders: the logs' folder probe, or 40 for a folder that holds no log but
// a model or toolchain file.
int probeProjectFolder(const FolderScan& scan);

// Loads the claimed files with their readers (each becomes an InputItem; a damaged one is a
// warning, not a failed folder), then the logs without those files, from the same scan: the
// folder is walked once and each head read once. A folder with neither is the logs' "logs.none"
// error.
Result<void> loadProjectFolder(const FolderScan& scan, Analysis& into, const ProgressFn& progress);

}  // namespace qatdoctor::core
