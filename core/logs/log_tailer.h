// Reads a log folder (or one log file) and keeps it current: each poll() reads only the bytes
// appended since the last one (per-file offsets and parser state), re-reads a file that was
// truncated or replaced (rotation), and picks up new files and new run folders. The one-shot
// readers in log_reader.h are a single poll.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "core/common/folder_walk.h"
#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/logs/parsed_log.h"
#include "core/logs/role_guess.h"

namespace qatdoctor::core::logs {

// The state of a finished read, per file: enough for a live tailer to parse only what is
// appended afterwards. Made by the reader, kept in LogSet::checkpoint.
struct TailCheckpoint {
    struct File {
        std::string path, name, runKey, folderKey, runName, format, layout;
        ParseState state;  // after the last complete line (a partial last line is re-read)
        uint64_t size = 0, inode = 0;
        bool partialTail = false;  // the load warned about a partial last line
        bool tailPoints = false;   // ... and took points from it (then a resume reads all again)
    };
    std::string root;
    bool rootIsFile = false;
    std::vector<File> files;
    std::vector<std::string> folders;
};

struct ReadOptions {
    unsigned threads = 2;   // threads per file (a big file is parsed in two halves)
    bool live = true;       // false: partial last lines are final (warned), data moved out
    FolderWalkLimits walk;  // the folder walk's limits (core/common/folder_walk.h)
    // The load's scan of the root (its walk and heads), for the first poll: the folder is then
    // not walked and no head read again. Null: the tailer walks (every later poll does).
    const FolderScan* scan = nullptr;
    // Files another reader claims (a printed model, a toolchain table in the same folder): the
    // folder scan leaves them out instead of reading them as text logs.
    std::function<bool(const std::string& path)> skipFile;
};

class LogTailer {
public:
    explicit LogTailer(std::string root, ReadOptions options = {});
    // A live tailer that starts from a loaded LogSet: its runs are kept, and the first poll
    // parses only the bytes appended since the load (a file truncated or replaced since makes
    // it read the whole folder again). Without a checkpoint: LogTailer(loaded.root).
    static LogTailer resume(std::shared_ptr<const LogSet> loaded, ReadOptions options = {});
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
    // The files the last poll read again from their start (truncated, or replaced by a new file
    // of the same name): a job that started again.
    const std::vector<std::string>& restartedFiles() const { return m_restarted; }
    // How many polls built the runs again (the others appended in place): a live tail of a
    // growing log should build them once, its cost then follows what is appended, not the log.
    size_t rebuildCount() const { return m_rebuilds; }

private:
    struct Tracked;
    void scan(std::vector<std::string>& added);
    // Files of one folder whose names name different stages ("01_float_fit.log",
    // "02_calibration.log", "03_qat_fit.log") are different runs.
    void splitRunsByFileStage();
    void rebuild();
    bool appendInPlace(const std::vector<std::pair<Tracked*, ParsedLog>>& fresh);
    void rebuildOnBase();
    void addFiles(Run& run, std::vector<Tracked*>& files, LogSet& set, bool move,
                  std::optional<RunRole> ownStage = std::nullopt);
    // The role of the run of those files (role_guess.h: content, markers, file and folder names).
    RoleGuess decideRole(const std::vector<std::string>& folders, const std::string& key,
                         const std::vector<Tracked*>& files) const;
    // The run's folder path components, outermost first (the opened folder's name included when
    // the run is the opened folder; a file opened alone: its folder).
    std::vector<std::string> runFolders(const std::string& key) const;
    std::string runNameOf(const std::string& key) const;
    // Every series of the files is an evaluation (val/, test/): the run trains nothing.
    static bool evaluatesOnly(const std::vector<Tracked*>& files);
    // role_guess.h's ownStage over the files of one run
    static std::optional<RoleGuess> settleStagesOf(const std::vector<Tracked*>& files);
    std::shared_ptr<const TailCheckpoint> makeCheckpoint() const;

    std::string m_root;
    ReadOptions m_options;
    bool m_rootIsFile = false;
    std::vector<std::unique_ptr<Tracked>> m_files;
    std::vector<std::string> m_folders;
    std::vector<std::pair<std::string, std::string>> m_otherFiles;  // (run key, name): checkpoints
    std::vector<std::pair<std::string, std::string>>
        m_configFiles;  // (run key, path): hparams.yaml, opt.yaml
    // Files turned down (not a log, or another reader's), with (size, inode, mtime ns) then.
    std::map<std::string, std::tuple<uint64_t, uint64_t, int64_t>> m_rejected;
    std::map<std::string, std::string> m_skipped;  // path -> why: log-named files not read
    LogSet m_set;
    std::shared_ptr<const LogSet> m_base;  // resumed: the loaded runs; trackers hold what came after
    std::vector<Warning> m_baseWarnings;
    std::vector<std::string> m_restarted;
    // the sizes of m_skipped, m_otherFiles, m_configFiles when the runs were last built
    std::tuple<size_t, size_t, size_t> m_filesBuilt{};
    size_t m_rebuilds = 0;
};

}  // namespace qatdoctor::core::logs
