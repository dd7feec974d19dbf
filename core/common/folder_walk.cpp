#include "core/common/folder_walk.h"

#include <unistd.h>

#include <filesystem>

#include "core/common/file_io.h"

namespace qatdoctor::core {

namespace fs = std::filesystem;

FolderWalk walkFolder(const std::string& root, const FolderWalkLimits& limits)
{
    FolderWalk walk;
    // the iterator skips an unreadable root as silently as an unreadable subfolder
    walk.rootListable = ::access(root.c_str(), R_OK | X_OK) == 0;
    std::error_code ec;
    size_t seen = 0;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const fs::directory_entry& e = *it;
        FolderEntry entry;
        entry.name = e.path().filename().string();
        const bool isDir = e.is_directory(ec);
        if (!entry.name.empty() && entry.name[0] == '.') {
            if (isDir) it.disable_recursion_pending();
            continue;
        }
        if (++seen > limits.maxEntries) {
            walk.capped = true;
            break;
        }
        entry.path = e.path().string();
        entry.depth = it.depth();
        if (isDir) {
            entry.kind = FolderEntry::Kind::Folder;
            // the iterator skips an unreadable folder without a word: callers say so
            entry.listable = ::access(e.path().c_str(), R_OK | X_OK) == 0;
            if (it.depth() >= limits.maxDepth) it.disable_recursion_pending();
        } else {
            entry.kind = e.is_regular_file(ec) ? FolderEntry::Kind::File : FolderEntry::Kind::Special;
        }
        walk.entries.push_back(std::move(entry));
    }
    return walk;
}

std::string normalFolderPath(std::string root)
{
    if (root.empty()) return root;
    std::string normal = fs::path(root).lexically_normal().generic_string();
    while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
    return normal.empty() ? root : normal;
}

FolderScan::FolderScan(std::string root, const FolderWalkLimits& limits)
    : m_root(normalFolderPath(std::move(root))), m_limits(limits), m_walk(walkFolder(m_root, limits))
{
}

const Result<std::string>& FolderScan::head(const std::string& path) const
{
    const std::lock_guard lock(m_mutex);
    auto& slot = m_heads[path];
    if (!slot) slot = std::make_unique<Result<std::string>>(readFileHead(path, kHeadBytes));
    return *slot;
}

}  // namespace qatdoctor::core
