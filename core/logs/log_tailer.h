// Reads a log folder (or one log file) and keeps it current: each poll() reads only the bytes
// appended since the last one (per-file offsets and parser state), re-reads a file that was
// truncated or replaced (rotation), and picks up new files and new run folders. The one-shot
// readers in log_reader.h are a single poll.
#pragma once

#include <cstdint>
#include <memory>
#include <functional>
#include <string>
#include <vector>

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/logs/parsed_log.h"

namespace qatdoctor::core::logs {

struct ReadOptions {
    unsigned threads = 2;      // threads per file block
    bool live = true;          // false: partial last lines are final (warned), data moved out
    size_t maxFiles = 5000;    // folder scan limits (a wrong folder must not hang the scan)
    int maxDepth = 8;
    // Files another reader claims (a printed model, a toolchain table in the same folder): the
    // folder scan leaves them out instead of reading them as text logs.
    std::function<bool(const std::string& path)> skipFile;
};

class LogTailer {
public:
    explicit LogTailer(std::string root, ReadOptions options = {});
    ~LogTailer();
    LogTailer(LogTailer&&) noexcept;
    LogTailer& operator=(LogTailer&&) noexcept;

    // Reads what is new. Returns whether runs changed. Errors: "io.open" (root missing),
    // kCancelledCode (progress returned false; the previous state is kept unchanged).
    Result<bool> poll(const ProgressFn& progress = {});

    const LogSet& logSet() const { return m_set; }
    LogSet takeLogSet() { return std::move(m_set); }
    // Folders and files worth watching (for a file-system watcher).
    std::vector<std::string> watchedPaths() const;

private:
    struct Tracked;
    void scan(std::vector<std::string>& added);
    void rebuild();

    std::string m_root;
    ReadOptions m_options;
    bool m_rootIsFile = false;
    std::vector<std::unique_ptr<Tracked>> m_files;
    std::vector<std::string> m_folders;
    std::vector<std::pair<std::string, std::string>> m_otherFiles;  // (run key, name): checkpoints
    LogSet m_set;
};

}  // namespace qatdoctor::core::logs
