// A live watch of training logs as they are written: the log folders (or files) are tailed
// (logs::LogTailer reads only the bytes appended), each read is judged by the rules that can
// fire early (rules::LiveDiagnosis), and it knows when every run it follows has ended. The CLI's
// `watch`, the GUI's Watch mode and watch_bench all drive this one loop; waiting between reads
// is theirs (ChangeWaiter, a file-system watcher and a timer).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/logs/log_tailer.h"
#include "core/rules/live_rules.h"
#include "core/rules/run_end.h"

namespace qatdoctor::core {

struct WatchedFinding {
    rules::LiveFinding live;
    std::string path;  // the watched path it came from
};

struct WatchedRunEnd {
    std::string path, run;
    rules::RunEnd end;
};

struct WatchRead {
    std::vector<WatchedFinding> fired;  // in the order they became true
    bool grew = false;                  // bytes, files or runs were new
    std::vector<Warning> notices;       // new since the last read: a path missing, unreadable
};

class LiveWatch {
public:
    // paths: folders or log files; a path that does not exist yet is waited for. A loaded
    // LogSet of the first path (the GUI's analysis) makes the first read continue from it.
    explicit LiveWatch(std::vector<std::string> paths,
                       rules::Thresholds thresholds = rules::defaultThresholds(),
                       std::shared_ptr<const logs::LogSet> loaded = nullptr);
    ~LiveWatch();
    LiveWatch(LiveWatch&&) noexcept;
    LiveWatch& operator=(LiveWatch&&) noexcept;

    // Findings already reported (the GUI's analysis): not said again unless they get worse.
    void markReported(const std::vector<Finding>& findings);
    // Reads what every path gained and judges it.
    WatchRead read();
    // The end of the watch: findings held back for one more look fire as they stand.
    std::vector<WatchedFinding> finish();

    // Every run seen has ended (nothing seen yet: false), and how each did.
    bool allRunsEnded() const;
    std::vector<WatchedRunEnd> runEnds() const;
    size_t runCount() const;

    // Folders and files a change waiter should watch.
    std::vector<std::string> watchedPaths() const;
    const std::vector<std::string>& paths() const { return m_paths; }
    // The runs of one path as last read (empty before the path appears).
    const logs::LogSet& logs(size_t path) const;
    const std::vector<WatchedFinding>& fired() const { return m_fired; }

private:
    struct Source;
    std::vector<std::string> m_paths;
    std::vector<std::unique_ptr<Source>> m_sources;
    std::vector<WatchedFinding> m_fired;
};

}  // namespace qatdoctor::core
