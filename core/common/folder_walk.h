// The one walk of a folder the user opened, under one set of limits: probing it (is there a log
// in it?), claiming the files other readers read (models, toolchain tables) and the log reader's
// scan all see the same entries, skip the same hidden entries and stop at the same place.
// Nothing is opened or read here (a FIFO or device is listed, never touched): callers read the
// heads they need.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

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
};

// Walks root (a folder). An unreadable root gives an empty walk.
FolderWalk walkFolder(const std::string& root, const FolderWalkLimits& limits = {});

}  // namespace qatdoctor::core
