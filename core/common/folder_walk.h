// The one walk of a folder the user opened, under one set of limits: probing it (is there a log
// in it?), claiming the files other readers read (models, toolchain tables) and the log reader's
// scan all see the same entries, skip the same hidden entries and stop at the same place.
// Nothing is opened or read here (a FIFO or device is listed, never touched): callers read the
// heads they need.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/common/result.h"

namespace qatdoctor::core {

struct FolderWalkLimits {
    // Files and folders visited before the walk stops (hidden ones are not counted): a guard
    // against opening a wrong folder (a home directory, a dataset of a million images).
    size_t maxEntries = 5000;
    // The root's children are at depth 0; folders at this depth are listed but not entered.
    int maxDepth = 8;
};

struct FolderEntry {
    enum class Kind { File, Folder, Special };  // Special: a FIFO, device or socket
    std::string path;
    std::string name;  // the last component
    int depth = 0;
    Kind kind = Kind::File;
    bool listable = true;  // a folder whose entries can be read (permissions)
};

struct FolderWalk {
    std::vector<FolderEntry> entries;  // in walk order; hidden entries (".git") are left out
    bool capped = false;               // stopped at maxEntries: entries beyond were not visited
    bool rootListable = true;          // false: the root's entries cannot be read (permissions)
};

// One spelling of a folder or file path: "a/", "a//" and "a/x/.." are "a" (so are every path of a
// walk under it and every run named after it).
std::string normalFolderPath(std::string root);

// Walks root (a folder). An unreadable root gives an empty walk with rootListable false.
FolderWalk walkFolder(const std::string& root, const FolderWalkLimits& limits = {});

// One load's view of a folder: the walk, made once, and the first kHeadBytes of each file,
// read once when first asked. The probe, the claim of other readers' files and the log reader's
// first scan all read from it, so a folder is walked once and each head read once per load.
class FolderScan {
public:
    static constexpr size_t kHeadBytes = size_t{64} << 10;  // what every probe of the input table sees

    // root is normalized ("a/", "a//", "a/x/.." -> "a"), as the log reader names it.
    explicit FolderScan(std::string root, const FolderWalkLimits& limits = {});
    const std::string& root() const { return m_root; }
    const FolderWalkLimits& limits() const { return m_limits; }
    const FolderWalk& walk() const { return m_walk; }
    // The head of a file of the walk (or any path); errors as readFileHead (file_io.h), also kept.
    const Result<std::string>& head(const std::string& path) const;

private:
    std::string m_root;
    FolderWalkLimits m_limits;
    FolderWalk m_walk;
    mutable std::mutex m_mutex;
    mutable std::unordered_map<std::string, std::unique_ptr<Result<std::string>>> m_heads;
};

}  // namespace qatdoctor::core
