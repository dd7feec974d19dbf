#include "core/logs/log_input.h"

#include <algorithm>
#include <filesystem>

#include "core/logs/log_reader.h"

namespace qatdoctor::core::logs {

int probeLogFolderInput(const std::string& path, bool isFolder, std::string_view)
{
    return isFolder ? probeLogFolder(path) : 0;
}

int probeLogFileInput(const std::string& path, bool isFolder, std::string_view head)
{
    return isFolder ? 0 : probeLogFile(path, head);
}

namespace {

Result<void> mergeInto(Result<LogSet> set, Analysis& into)
{
    if (!set) return set.error();
    LogSet& logs = into.logs;
    if (logs.root.empty()) {
        logs.root = set->root;
        logs.checkpoint = set->checkpoint;  // live watching of this root continues from here
    }
    for (Run& r : set->runs) {
        std::string name = r.name;
        for (int n = 2; std::any_of(logs.runs.begin(), logs.runs.end(), [&](const Run& o) { return o.name == name; }); ++n)
            name = r.name + " (" + std::to_string(n) + ")";
        r.name = std::move(name);
        logs.runs.push_back(std::move(r));
    }
    for (Warning& w : set->warnings) logs.warnings.push_back(std::move(w));
    return Ok{};
}

}  // namespace

Result<void> loadLogInput(const std::string& path, Analysis& into, const ProgressFn& progress)
{
    std::error_code ec;
    return mergeInto(std::filesystem::is_directory(path, ec) ? readLogFolder(path, progress) : readLogFile(path, progress),
                     into);
}

Result<void> loadLogFolder(const std::string& path, Analysis& into, const ProgressFn& progress,
                           const ReadOptions& options)
{
    return mergeInto(readLogFolder(path, progress, options), into);
}

}  // namespace qatdoctor::core::logs
