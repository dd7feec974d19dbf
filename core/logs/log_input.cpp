#include "core/logs/log_input.h"

#include <algorithm>
#include <filesystem>

#include "core/logs/log_reader.h"

namespace qatdoctor::core::logs {

int probeLogFileInput(const std::string& path, std::string_view head)
{
    return probeLogFile(path, head);
}

Result<LogSet> readLogInput(const std::string& path, const ProgressFn& progress)
{
    std::error_code ec;
    return std::filesystem::is_directory(path, ec) ? readLogFolder(path, progress)
                                                   : readLogFile(path, progress);
}

void appendLogSet(LogSet& into, LogSet set)
{
    if (into.root.empty()) {
        into.root = set.root;
        into.checkpoint = set.checkpoint;  // live watching of this root continues from here
    }
    for (Run& r : set.runs) {
        std::string name = r.name;
        for (int n = 2;
             std::any_of(into.runs.begin(), into.runs.end(), [&](const Run& o) { return o.name == name; });
             ++n)
            name = r.name + " (" + std::to_string(n) + ")";
        r.name = std::move(name);
        into.runs.push_back(std::move(r));
    }
    for (Warning& w : set.warnings) into.warnings.push_back(std::move(w));
}

}  // namespace qatdoctor::core::logs
