#include "core/logs/log_tailer.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "core/common/error_codes.h"
#include "core/common/file_io.h"
#include "core/logs/csv_log_parser.h"
#include "core/logs/line_parser.h"
#include "core/logs/log_layouts.h"
#include "core/logs/log_reader.h"
#include "core/logs/mapped_file.h"
#include "core/logs/role_guess.h"
#include "core/logs/run_config.h"
#include "core/logs/scan_util.h"
#include "core/logs/stage_words.h"
#include "core/logs/text_decoding.h"

namespace qatdoctor::core::logs {
namespace fs = std::filesystem;

namespace {

constexpr size_t kProbeBytes = 64 * 1024;
// A followed log whose permissions changed under the watch: said once, until it is readable again.
constexpr const char* kNoLongerReadable =
    "permission denied: the log cannot be read any more; the points read before are kept";

bool isCheckpointName(const std::string& n)
{
    return n.ends_with(".pth") || n.ends_with(".pth.tar") || n.ends_with(".ckpt") || n.ends_with(".pt") ||
           n.find("checkpoint") != std::string::npos;
}

bool isCheckpointFolder(const std::string& name)
{
    if (!name.starts_with("checkpoint-") || name.size() == 11) return false;
    return std::all_of(name.begin() + 11, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// TensorBoard writers often use a sub-folder of the run ("qat/tb/events..."): those files
// belong to the parent run.
// Why a file found in a folder is not a training log, or nullopt when it is one. A log has a
// metric over two or more points, a step or epoch axis, a framework's layout, a log's name
// (hasLogName), a stage marker or the events of a run (a traceback, an error, a final line); a README, a JSON
// of expected numbers, a model's config.json or a table of benchmark results has none of them.
std::optional<std::string> notATrainingLog(const ParsedLog& parsed, bool namedAsLog,
                                           const std::string& layout, bool resultTable)
{
    if (resultTable)
        return "not read as a training log: a table of results (its rows are named by text, it has no step "
               "or "
               "epoch column)";
    if (parsed.counted) return std::nullopt;  // a step or epoch the file wrote
    for (const Series& s : parsed.series)
        if (s.size() >= 2 || s.hasEpoch()) return std::nullopt;
    for (const RunEvent& e : parsed.events)
        if (e.kind == RunEvent::Kind::Traceback || e.kind == RunEvent::Kind::Error ||
            e.kind == RunEvent::Kind::Finished || e.kind == RunEvent::Kind::Parameters)
            return std::nullopt;
    for (const char* generic : {"text", "jsonl", "csv", "json_history", "unknown"})
        if (layout == generic) {
            if (namedAsLog || !parsed.roleHints.empty()) return std::nullopt;  // or a stage marker
            return "not read as a training log: no metric has two or more points and nothing marks it as a "
                   "log (no step or epoch, no framework's layout, no log name); its settings are kept";
        }
    return std::nullopt;
}

bool isTensorBoardFolder(const std::string& name)
{
    for (const char* n :
         {"tb", "tensorboard", "tb_logs", "tf_logs", "events", "summary", "summaries", "tblogs"})
        if (equalsNoCase(name, n)) return true;
    return false;
}

struct FileId {
    uint64_t size = 0;
    uint64_t inode = 0;
    bool ok = false;
    int64_t mtimeNs = 0;
    std::tuple<uint64_t, uint64_t, int64_t> stamp() const { return {size, inode, mtimeNs}; }
};

FileId statFile(const std::string& path)
{
    struct stat st {};
    // a log replaced by a folder (or a FIFO) has no bytes to follow: not ok, so it is neither read
    // again at every poll nor counted as growth
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
    return {static_cast<uint64_t>(st.st_size), static_cast<uint64_t>(st.st_ino), true,
            static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

// When two files hold the same points, the one with more digits wins: CSV and JSONL keep what
// the script computed, TensorBoard stores float32, text logs round to 4 places; but a file whose
// steps are estimates (mmdet's .log.json does not say how long an epoch is; its .log does) loses.
int formatRank(const RunFile& file)
{
    if (file.stepsEstimated) return 4;
    const std::string& format = file.format;
    if (format == "csv" || format == "json_history") return 0;
    if (format == "jsonl") return 1;
    if (format == "tfevents") return 2;
    return 3;
}

// Merges the same metric from several files of a run: ranges that overlap are the same
// points logged twice (keep the fuller copy); ranges that follow each other are concatenated.
Series mergeCopies(std::vector<std::pair<uint32_t, Series*>>& copies, const std::vector<RunFile>& files,
                   bool move)
{
    std::sort(copies.begin(), copies.end(),
              [](const auto& a, const auto& b) { return a.second->step.front() < b.second->step.front(); });
    auto take = [&](Series& out, std::pair<uint32_t, Series*>& c) {
        if (move && c.first == 0 && out.empty())
            out = std::move(*c.second);
        else
            out.append(*c.second, c.first);
    };
    std::vector<std::pair<uint32_t, Series*>> kept;
    for (auto& c : copies) {
        if (!kept.empty() && c.second->step.front() <= kept.back().second->step.back()) {
            auto& prev = kept.back();
            if (c.second->size() > prev.second->size() ||
                (c.second->size() == prev.second->size() &&
                 formatRank(files[c.first]) < formatRank(files[prev.first])))
                prev = c;
            continue;
        }
        kept.push_back(c);
    }
    Series out;
    for (auto& c : kept) take(out, c);
    return out;
}

}  // namespace

struct LogTailer::Tracked {
    std::string path;
    std::string name;
    std::string runKey;     // the run it belongs to: its folder, or its folder and its stage's file
    std::string folderKey;  // its folder (relative to the root): where its settings files are
    std::string runName;    // resumed files: the loaded run they belong to
    const LogFormat* format = nullptr;
    std::string layout;  // log_layouts.h id, from the head read when the file was found
    ParseState state;
    ParseState checkpoint;     // state after the last complete line (what a resume starts from)
    bool partialTail = false;  // the one-shot read consumed a partial last line
    bool tailPoints = false;   // ... and took points from it
    ParsedLog parsed;
    FileId id;
    bool emptyWarned = false;
    // UTF-16, a UTF-8 BOM or CR-only line ends (text_decoding.h): parsed from a decoded copy,
    // whose offsets are not the file's, so every change is read again whole
    bool decoded = false;
    bool resultTable = false;  // a CSV of results named by text rows (csvIsResultTable)
    // its folder inside the opened one names a stage ("int8_test/log.txt"): a log's name, as a
    // stage in the file's own name is (hasLogName)
    bool stageFolder = false;
};

// "runs/float/" (tab completion's slash), "./runs//float": the same folder, the same run names.
LogTailer::LogTailer(std::string root, ReadOptions options)
    : m_root(normalFolderPath(std::move(root))), m_options(options)
{
}
LogTailer::~LogTailer() = default;
LogTailer::LogTailer(LogTailer&&) noexcept = default;
LogTailer& LogTailer::operator=(LogTailer&&) noexcept = default;

void LogTailer::scan(std::vector<std::string>& added)
{
    // the load's scan serves the first poll only (it lives as long as the load)
    const FolderScan* firstScan = std::exchange(m_options.scan, nullptr);
    if (firstScan && firstScan->root() != m_root) firstScan = nullptr;
    auto known = [&](const std::string& p) {
        return std::any_of(m_files.begin(), m_files.end(), [&](const auto& t) { return t->path == p; });
    };
    auto track = [&](const std::string& path, const std::string& name, const std::string& runKey,
                     bool mustTake) {
        if (known(path)) return;
        // A file turned down before is asked again only once it changed (a log whose first
        // lines were not yet metrics grows): polls do not re-read every other file's head.
        FileId id;
        if (!mustTake) {
            id = statFile(path);
            auto it = m_rejected.find(path);
            if (it != m_rejected.end() && id.ok && it->second == id.stamp()) return;
        }
        auto reject = [&](const char* why) {
            if (!mustTake && id.ok) m_rejected[path] = id.stamp();
            if (why) m_skipped[path] = why;
        };
        if (!mustTake && m_options.skipFile && m_options.skipFile(path))
            return reject(nullptr);  // another reader's
        const Result<std::string> raw = firstScan ? firstScan->head(path) : readFileHead(path, kProbeBytes);
        if (!raw) {
            // unreadable (permissions), not a regular file, a kernel file that would block: say so
            m_skipped[path] = raw.error().message;
            return;
        }
        const std::optional<std::string> decodedHead = decodeLogText(*raw);
        const std::string* head = decodedHead ? &*decodedHead : &*raw;
        int score = 0;
        const LogFormat* f = probeLogFormat(name, *head, &score);
        const std::string folderName = fs::path(runKey).filename().string();
        const bool stageFolder = !folderName.empty() && firstStageMention(folderName, kInPath).has_value();
        if (stageFolder && score < kMinFolderLogScore && (name.ends_with(".txt") || name.ends_with(".log"))) {
            // probed as a file whose name says its stage: one evaluation line makes it a log
            int named = 0;
            if (const LogFormat* g = probeLogFormat(folderName + "_" + name, *head, &named); named > score) {
                f = g;
                score = named;
            }
        }
        if (!f && mustTake) f = findLogFormat("text");
        // (a JSON document that is no history is a config, a tokenizer, a summary: no warning)
        if (!f || (!mustTake && score < kMinFolderLogScore))
            return reject(
                name.ends_with(".json")
                    ? nullptr
                    : "not read as a training log: its first 64 KiB hold no metric lines (key: value, "
                      "key[value], CSV columns with a step or epoch, JSON records with numbers)");
        m_rejected.erase(path);
        m_skipped.erase(path);
        auto t = std::make_unique<Tracked>();
        t->path = path;
        t->name = name;
        t->stageFolder = stageFolder;
        t->runKey = runKey;
        t->folderKey = runKey;
        t->format = f;
        t->layout = detectLayout(f->id, name, *head).id;
        t->decoded = decodedHead.has_value();
        t->resultTable = std::string_view(f->id) == "csv" && csvIsResultTable(*head);
        m_files.push_back(std::move(t));
        added.push_back(path);
    };
    if (m_rootIsFile) {
        track(m_root, fs::path(m_root).filename().string(), "", true);
        // the settings files beside a log opened alone are its run's too
        m_configFiles.clear();
        std::error_code dirEc;
        for (const auto& e : fs::directory_iterator(
                 fs::path(m_root).parent_path().empty() ? fs::path(".") : fs::path(m_root).parent_path(),
                 dirEc))
            if (isRunConfigFile(e.path().filename().string()) && e.is_regular_file(dirEc))
                m_configFiles.emplace_back("", e.path().string());
        return;
    }
    std::error_code ec;
    m_folders.clear();
    m_folders.push_back(m_root);
    m_otherFiles.clear();
    m_configFiles.clear();
    const FolderWalk walk = firstScan ? firstScan->walk() : walkFolder(m_root, m_options.walk);
    if (walk.capped)
        m_skipped[m_root] =
            "the folder scan stopped after " + std::to_string(m_options.walk.maxEntries) +
            " entries (a guard against opening a wrong folder): files beyond them were not read";
    for (const FolderEntry& e : walk.entries) {
        const std::string& name = e.name;
        if (e.kind == FolderEntry::Kind::Folder) {
            if (!e.listable) m_skipped[e.path] = "folder not readable (permissions): its files were not read";
            if (e.depth < m_options.walk.maxDepth) m_folders.push_back(e.path);
            continue;
        }
        if (e.kind == FolderEntry::Kind::Special) {
            // a FIFO, device or socket named like a log is never opened: it could block the scan
            if (isLogFileName(name))
                m_skipped[e.path] = "not a regular file (a FIFO, device or socket): not read";
            continue;
        }
        const fs::path path(e.path);
        fs::path rel = fs::relative(path.parent_path(), m_root, ec);
        std::string runKey = rel.generic_string();
        if (runKey == ".") runKey.clear();
        if (name.find("tfevents") != std::string::npos && isTensorBoardFolder(rel.filename().string()))
            runKey = rel.parent_path().generic_string();
        // HF Trainer copies trainer_state.json into every checkpoint-N/ of its output folder:
        // earlier prefixes of the same history (mergeCopies keeps each point once)
        // ... and mmengine keeps its scalars in <timestamp>/vis_data/ beside <timestamp>.log
        if (isCheckpointFolder(rel.filename().string()) || rel.filename() == "vis_data")
            runKey = rel.parent_path().generic_string();
        if (runKey == ".") runKey.clear();
        if (isRunConfigFile(name)) {
            m_configFiles.emplace_back(runKey, e.path);
            continue;
        }
        if (isCheckpointName(name) && !isLogFileName(name)) {
            m_otherFiles.emplace_back(runKey, name);
            continue;
        }
        if (!isLogFileName(name)) continue;
        track(e.path, name, runKey, false);
    }
    splitRunsByFileStage();
}

void LogTailer::splitRunsByFileStage()
{
    std::map<std::string, std::vector<Tracked*>> byFolder;
    for (auto& t : m_files) byFolder[t->folderKey].push_back(t.get());
    for (auto& [folder, files] : byFolder) {
        std::map<RunRole, std::vector<Tracked*>> byStage;
        for (Tracked* t : files)
            if (const auto r = stageOfWord(t->name, kInPath)) byStage[*r].push_back(t);
        for (Tracked* t : files) t->runKey = folder;
        if (byStage.size() < 2) continue;
        // each stage's files are one run, named after the folder and the first of them; files
        // naming no stage stay the folder's run
        for (auto& [role, list] : byStage) {
            std::sort(list.begin(), list.end(),
                      [](const Tracked* a, const Tracked* b) { return a->name < b->name; });
            std::string stem = list.front()->name;
            if (const size_t dot = stem.find('.'); dot != std::string::npos && dot > 0) stem.resize(dot);
            for (Tracked* t : list)
                t->runKey = folder.empty() ? stem : std::string(folder).append("/").append(stem);
        }
    }
}

Result<bool> LogTailer::poll(const ProgressFn& progress)
{
    std::error_code ec;
    if (!fs::exists(m_root, ec)) return makeError("io.open", "no such file or folder: " + m_root, m_root);
    m_rootIsFile = !fs::is_directory(m_root, ec);
    std::vector<std::string> added;
    m_restarted.clear();
    scan(added);
    bool changed = !added.empty();

    // Work on copies of the states so a cancelled poll leaves everything as it was.
    struct Update {
        Tracked* file;
        ParseState state;
        ParsedLog parsed;
        bool reset;
        FileId id;
        ParseState checkpoint;
        bool partialTail = false;
        bool tailPoints = false;
        bool restarted = false;  // truncated or replaced (not a decoded file read whole again)
    };
    if (m_base) {
        // A file of the loaded state truncated or replaced: its loaded points are stale, and
        // they are mixed into the loaded runs. Read everything again (the rare case).
        for (auto& t : m_files) {
            const FileId id = statFile(t->path);
            if (t->id.ok && id.ok && (id.inode != t->id.inode || id.size < t->state.offset)) {
                m_restarted.push_back(t->path);
                m_base.reset();
                for (auto& f : m_files) {
                    f->state = ParseState{};
                    f->parsed = ParsedLog{};
                    f->id = FileId{};
                    f->runName.clear();
                }
                changed = true;
                break;
            }
        }
    }
    std::vector<Update> updates;
    uint64_t total = 0;
    for (auto& t : m_files) {
        const FileId id = statFile(t->path);
        if (!id.ok) continue;
        if (::access(t->path.c_str(), R_OK) != 0) {
            m_skipped.try_emplace(t->path, kNoLongerReadable);
            continue;
        }
        if (const auto said = m_skipped.find(t->path);
            said != m_skipped.end() && said->second == kNoLongerReadable)
            m_skipped.erase(said);
        bool reset = t->id.ok && (id.inode != t->id.inode || id.size < t->state.offset);
        const bool unchanged =
            t->decoded ? t->id.ok && id.stamp() == t->id.stamp() : id.size == t->state.offset && t->id.ok;
        if (!reset && unchanged) continue;
        const bool restarted = reset;
        reset = reset || (t->decoded && t->id.ok);
        updates.push_back(
            {t.get(), reset ? ParseState{} : t->state, {}, reset, id, {}, false, false, restarted});
        updates.back().state.holdOpenTraceback = m_options.live;
        total += id.size - (reset ? 0 : t->state.offset);
    }
    uint64_t done = 0;
    for (Update& u : updates) {
        auto map = MappedFile::open(u.file->path);
        if (!map) {
            u.parsed.warnings.push_back(map.error());
            continue;
        }
        std::string_view bytes = map->bytes();
        if (bytes.size() > u.id.size) bytes = bytes.substr(0, u.id.size);
        std::optional<std::string> decoded;
        if (u.file->decoded && (decoded = decodeLogText(bytes))) bytes = *decoded;
        if (bytes.empty()) {
            if (!u.file->emptyWarned && !m_options.live)
                u.parsed.warnings.push_back(makeError(codes::kLogsEmpty, "empty file", u.file->path));
            continue;
        }
        const uint64_t start = u.state.offset;
        ProgressFn scaled = [&](double f, std::string_view stage) {
            const double part =
                total ? (static_cast<double>(done) + f * static_cast<double>(bytes.size() - start)) /
                            static_cast<double>(total)
                      : 1.0;
            return reportProgress(progress, part, stage);
        };
        // Complete lines first: the state after them is where a later resume continues.
        auto parsed = parseBlocks(*u.file->format, bytes.substr(start), u.file->path, u.state, scaled,
                                  m_options.threads, false);
        if (!parsed) return parsed.error();
        u.parsed = std::move(*parsed);
        u.checkpoint = u.state;
        if (!m_options.live && u.state.offset < bytes.size()) {
            auto tail = parseBlocks(*u.file->format, bytes.substr(static_cast<size_t>(u.state.offset)),
                                    u.file->path, u.state, {}, m_options.threads, true);
            if (!tail) return tail.error();
            u.partialTail = true;
            u.tailPoints = tail->points() > 0;
            appendParsed(u.parsed, std::move(*tail));
        }
        done += bytes.size() - start;
        if (map->truncatedWhileRead()) {
            // what lay past the new end read as zeros: this read is dropped, and the next look
            // reads the shrunk file from its start
            u.parsed = ParsedLog{};
            u.parsed.warnings.push_back(
                makeError("logs.truncated_while_read",
                          "the file shrank while it was read (rotated, or its job started again); "
                          "it is read again from the start",
                          u.file->path));
            u.state = ParseState{};
            u.checkpoint = ParseState{};
            u.reset = true;
            u.restarted = true;
            u.id = FileId{};
        }
    }
    // What this poll parsed, kept for appending it to the runs in place (appendInPlace)
    std::vector<std::pair<Tracked*, ParsedLog>> fresh;
    bool anyReset = false;
    for (Update& u : updates) {
        Tracked& t = *u.file;
        anyReset = anyReset || u.reset;
        if (u.reset) {
            t.parsed = ParsedLog{};
            if (u.restarted) m_restarted.push_back(t.path);
        }
        if (u.reset || u.state.offset != t.state.offset || !u.parsed.warnings.empty() || !t.id.ok)
            changed = true;
        t.id = u.id;
        if (u.parsed.warnings.size() && u.parsed.warnings.front().code == codes::kLogsEmpty)
            t.emptyWarned = true;
        t.state = std::move(u.state);
        t.checkpoint = std::move(u.checkpoint);
        t.checkpoint.warningCounts.clear();
        t.partialTail = u.partialTail;
        t.tailPoints = u.tailPoints;
        flushWarningCounts(u.parsed, t.state, t.path);
        if (m_options.live && !anyReset) fresh.emplace_back(&t, u.parsed);
        appendParsed(t.parsed, std::move(u.parsed));
    }
    // only appended to the files the runs were built from (none new, cut, replaced or turned
    // down; no checkpoint or settings file come or gone)
    const auto files = std::make_tuple(m_skipped.size(), m_otherFiles.size(), m_configFiles.size());
    const bool appendOnly =
        m_options.live && !anyReset && m_restarted.empty() && added.empty() && files == m_filesBuilt;
    if (files != m_filesBuilt) changed = true;
    if (changed && !(appendOnly && appendInPlace(fresh))) {
        rebuild();
        m_filesBuilt = files;
        ++m_rebuilds;
    }
    return changed;
}

// A live poll that only appended to files already read: the new points, events and settings go
// onto the runs as built (each read used to build every run again, a copy of every point, which
// grew with the log). Declines (then rebuild()) when a rebuild could come out otherwise: a metric
// several files of the run hold (their copies are merged), a run's own stage that changed.
bool LogTailer::appendInPlace(const std::vector<std::pair<Tracked*, ParsedLog>>& fresh)
{
    struct Target {
        Run* run;
        uint32_t file;
        std::string prefix;  // the own stage's "<stage>/", dropped from names
    };
    std::vector<Target> targets;
    for (const auto& item : fresh) {
        Tracked* const t = item.first;
        const ParsedLog& parsed = item.second;
        const std::string name = t->runName.empty() ? runNameOf(t->runKey) : t->runName;
        auto run =
            std::find_if(m_set.runs.begin(), m_set.runs.end(), [&](const Run& r) { return r.name == name; });
        if (run == m_set.runs.end()) return false;
        const auto file = std::find_if(run->files.begin(), run->files.end(),
                                       [&](const RunFile& f) { return f.path == t->path; });
        if (file == run->files.end()) return false;
        // words that may change the run's settings, or its role while it has none (a role once
        // guessed keeps to its first evidence: later hints come after it)
        if (!parsed.metadata.empty()) return false;
        std::vector<Tracked*> files;
        for (auto& other : m_files)
            if (other->runKey == t->runKey) files.push_back(other.get());
        // the stage the rebuild would strip: a loaded run's (fixed), else the role it would decide
        const RunRole own = run->role;
        const bool loaded = m_base && std::any_of(m_base->runs.begin(), m_base->runs.end(),
                                                  [&](const Run& r) { return r.name == name; });
        if (!loaded && decideRole(runFolders(t->runKey), t->runKey, files).role != run->role) return false;
        std::string prefix = stagePrefix(own);
        auto strip = [&](const std::string& n) { return withoutPrefix(n, prefix); };
        // a metric only this file holds, under one name (several copies are merged by a rebuild:
        // "loss" and the own stage's "qat/loss" in one file, or one metric in two files)
        std::set<std::string> held;
        for (const std::string& n : t->parsed.names)
            if (!held.insert(strip(n)).second) return false;
        for (const std::string& n : parsed.names)
            for (const Tracked* other : files)
                if (other != t && std::any_of(other->parsed.names.begin(), other->parsed.names.end(),
                                              [&](const std::string& o) { return strip(o) == strip(n); }))
                    return false;
        if (!parsed.roleHints.empty() && run->role == RunRole::Unknown) return false;
        targets.push_back({&*run, static_cast<uint32_t>(file - run->files.begin()), std::move(prefix)});
    }
    for (size_t i = 0; i < fresh.size(); ++i) {
        const auto& [t, parsed] = fresh[i];
        const Target& to = targets[i];
        auto strip = [&](const std::string& n) { return withoutPrefix(n, to.prefix); };
        RunFile& file = to.run->files[to.file];
        file.size = t->state.offset;
        file.stepsEstimated = t->state.stepsEstimated;
        file.unreadLines += parsed.unreadLines;
        for (uint32_t l : parsed.unreadSample)
            if (file.unreadSample.size() < kUnreadSample) file.unreadSample.push_back(l);
        for (const auto& [k, v] : parsed.metadata) to.run->metadata.emplace(strip(k), v);
        for (const auto& [n, why] : parsed.stageReasons)
            to.run->stageReasons.emplace(strip(n), t->name + ": " + why);
        for (RunEvent e : parsed.events) {
            e.file = to.file;
            to.run->events.push_back(std::move(e));
        }
        for (const Warning& w : parsed.warnings) m_set.warnings.push_back(w);
        for (size_t s = 0; s < parsed.names.size(); ++s) {
            if (parsed.series[s].empty()) continue;
            to.run->series[strip(parsed.names[s])].append(parsed.series[s], to.file);
        }
    }
    return true;
}

std::vector<std::string> LogTailer::watchedPaths() const
{
    std::vector<std::string> out = m_folders;
    for (const auto& t : m_files) out.push_back(t->path);
    return out;
}

std::string LogTailer::runNameOf(const std::string& key) const
{
    if (m_rootIsFile) return fs::path(m_root).filename().string();
    return key.empty() ? fs::path(m_root).filename().string() : key;
}

// The points, events and metadata of files into run (files new to the run are added to
// run.files); series copies of one metric from several files merge (mergeCopies) and are appended
// to what the run has.
RoleGuess LogTailer::decideRole(const std::vector<std::string>& folders, const std::string& key,
                                const std::vector<Tracked*>& files) const
{
    std::vector<std::string> names;
    std::vector<RoleHint> hints;
    for (const Tracked* t : files) {
        names.push_back(t->name);
        for (const RoleHint& h : t->parsed.roleHints) hints.push_back({h.role, t->name + ": " + h.reason});
    }
    for (const auto& [k, n] : m_otherFiles)
        if (!files.empty() && k == files.front()->folderKey && k == key) names.push_back(n);
    // the run's settings files name its stage too ("stage: float" in Lightning's hparams.yaml)
    for (const auto& [k, p] : m_configFiles)
        if (!files.empty() && k == files.front()->folderKey)
            for (const auto& [name, value] : readRunConfig(p))
                if (isStageField(name))
                    if (const auto r = stageOfWord(value, kInText | kInKey))
                        hints.push_back({*r, std::string("setting '")
                                                 .append(name)
                                                 .append(": ")
                                                 .append(value)
                                                 .append("' in ")
                                                 .append(fs::path(p).filename().string())});
    const std::optional<RoleGuess> content = settleStagesOf(files);
    RoleGuess g = guessRole(folders, names, hints, content);
    // A run that trains nothing (every series an evaluation) and whose names also name the
    // quantized model is that model's evaluation: "qat_..._deploy_int8_test" tests the int8 model
    // converted from the QAT run it is named after.
    if (!content && hints.empty() && g.role != RunRole::Quantized && evaluatesOnly(files)) {
        std::vector<std::string> words = folders;
        words.insert(words.end(), names.begin(), names.end());
        for (auto it = words.rbegin(); it != words.rend(); ++it)
            for (const StageMention& m : stageMentions(*it, kInPath))
                if (m.role == RunRole::Quantized)
                    return {RunRole::Quantized,
                            "an evaluation only, of the model its name calls quantized: '" + *it + "'"};
    }
    return g;
}

bool LogTailer::evaluatesOnly(const std::vector<Tracked*>& files)
{
    bool any = false;
    for (const Tracked* t : files)
        for (size_t i = 0; i < t->parsed.names.size(); ++i) {
            if (t->parsed.series[i].empty()) continue;
            std::string_view n = t->parsed.names[i];
            for (const RunRole r : {RunRole::Float, RunRole::Calibration, RunRole::Qat, RunRole::Quantized})
                if (const std::string p = stagePrefix(r); n.starts_with(p)) n.remove_prefix(p.size());
            if (!n.starts_with("val/") && !n.starts_with("test/")) return false;
            any = true;
        }
    return any;
}

void LogTailer::addFiles(Run& run, std::vector<Tracked*>& files, LogSet& set, bool move,
                         std::optional<RunRole> ownStage)
{
    // the own stage's "<stage>/" comes off here, the tracked files keep it (role_guess.h)
    const std::string prefix = stagePrefix(ownStage);
    auto own = [&](const std::string& name) { return withoutPrefix(name, prefix); };
    std::map<std::string, std::vector<std::pair<uint32_t, Series*>>> copies;
    for (Tracked* t : files) {
        uint32_t index = 0;
        while (index < run.files.size() && run.files[index].path != t->path) ++index;
        if (index == run.files.size()) {
            RunFile file;
            file.path = t->path;
            file.format = t->format->id;
            file.layout = t->layout;
            run.files.push_back(std::move(file));
        }
        run.files[index].size = t->state.offset;
        run.files[index].stepsEstimated = t->state.stepsEstimated;
        run.files[index].unreadLines = t->parsed.unreadLines;
        run.files[index].unreadSample = t->parsed.unreadSample;
        for (const auto& [k, v] : t->parsed.metadata) run.metadata.emplace(own(k), v);
        // why a series is its stage's (the own stage's under their names without the prefix)
        for (const auto& [name, why] : t->parsed.stageReasons)
            run.stageReasons.emplace(own(name), t->name + ": " + why);
        for (RunEvent e : t->parsed.events) {
            e.file = index;
            run.events.push_back(std::move(e));
        }
        for (const Warning& w : t->parsed.warnings) set.warnings.push_back(w);
        for (size_t i = 0; i < t->parsed.names.size(); ++i)
            if (!t->parsed.series[i].empty())
                copies[own(t->parsed.names[i])].push_back({index, &t->parsed.series[i]});
    }
    for (auto& [name, list] : copies) {
        Series s = mergeCopies(list, run.files, move);
        auto it = run.series.find(name);
        if (it == run.series.end()) {
            s.shrinkToFit();
            run.series.emplace(name, std::move(s));
        } else {
            it->second.append(s);
        }
    }
    if (move)
        for (Tracked* t : files) {
            t->parsed.series.clear();
            t->parsed.names.clear();
        }
}

std::vector<std::string> LogTailer::runFolders(const std::string& key) const
{
    std::vector<std::string> folders;
    if (m_rootIsFile) {
        folders.push_back(fs::path(m_root).parent_path().filename().string());
        return folders;
    }
    if (key.empty()) folders.push_back(fs::path(m_root).filename().string());
    for (const auto& part : fs::path(key)) folders.push_back(part.string());
    return folders;
}

std::optional<RoleGuess> LogTailer::settleStagesOf(const std::vector<Tracked*>& files)
{
    std::vector<const ParsedLog*> parsed;
    std::vector<std::string> names;
    for (const Tracked* t : files) {
        parsed.push_back(&t->parsed);
        names.push_back(t->name);
    }
    return ownStage(parsed, names);
}

void LogTailer::rebuild()
{
    if (m_base) return rebuildOnBase();
    const bool move = !m_options.live;
    std::map<std::string, std::vector<Tracked*>> byRun;
    for (auto& t : m_files) byRun[t->runKey].push_back(t.get());
    LogSet set;
    set.root = m_root;
    for (const auto& [path, why] : m_skipped) set.warnings.push_back(makeError("logs.skipped", why, path));
    for (auto& [key, files] : byRun) {
        // files that are no training log (a README, a JSON of expected numbers, a benchmark
        // table) make no run and no series; their settings go to the run of the logs beside them
        std::vector<Tracked*> settingsOnly;
        if (!m_rootIsFile)
            std::erase_if(files, [&](Tracked* t) {
                const auto why = notATrainingLog(t->parsed, hasLogName(t->name) || t->stageFolder, t->layout,
                                                 t->resultTable);
                if (!why) return false;
                set.warnings.push_back(makeError("logs.skipped", *why, t->path));
                settingsOnly.push_back(t);
                return true;
            });
        if (files.empty()) continue;
        // Text logs first: their header lines hold the metadata users expect to see.
        std::stable_sort(files.begin(), files.end(), [](const Tracked* a, const Tracked* b) {
            return std::string_view(a->format->id) == "text" && std::string_view(b->format->id) != "text";
        });
        Run run;
        run.name = runNameOf(key);
        const std::vector<std::string> folders = runFolders(key);
        // the role first: its stage's prefix is what comes off the series (role_guess.h)
        const RoleGuess g = decideRole(folders, key, files);
        addFiles(run, files, set, move, g.role);
        for (const auto& [k, p] : m_configFiles)
            if (k == files.front()->folderKey)
                for (auto& [name, value] : readRunConfig(p)) run.metadata.emplace(name, value);
        for (const Tracked* t : settingsOnly)
            for (const auto& [name, value] : t->parsed.metadata) run.metadata.emplace(name, value);
        run.role = g.role;
        run.roleReason = g.reason;
        set.runs.push_back(std::move(run));
    }
    settleFloatByElimination(set.runs);
    if (!m_options.live) set.checkpoint = makeCheckpoint();
    m_set = std::move(set);
}

void LogTailer::rebuildOnBase()
{
    // The loaded runs as they were, plus what the files gained since (trackers hold only that).
    LogSet set;
    set.root = m_base->root;
    set.warnings = m_baseWarnings;
    std::map<std::string, std::vector<Tracked*>> byName;
    for (auto& t : m_files) byName[t->runName.empty() ? runNameOf(t->runKey) : t->runName].push_back(t.get());
    for (const Run& loaded : m_base->runs) {
        Run run = loaded;
        auto it = byName.find(run.name);
        if (it != byName.end()) {
            for (Tracked* t : it->second)
                if (run.role != RunRole::Unknown) stripStagePrefix(t->parsed, run.role);
            addFiles(run, it->second, set, false);
            byName.erase(it);
        }
        set.runs.push_back(std::move(run));
    }
    // runs that appeared since the load
    for (auto& [name, files] : byName) {
        Run run;
        run.name = name;
        std::vector<std::string> folders;
        for (const auto& part : fs::path(files.front()->runKey)) folders.push_back(part.string());
        const RoleGuess g = decideRole(folders, files.front()->runKey, files);
        addFiles(run, files, set, false, g.role);
        if (run.series.empty() && run.events.empty()) continue;
        run.role = g.role;
        run.roleReason = g.reason;
        set.runs.push_back(std::move(run));
    }
    m_set = std::move(set);
}

std::shared_ptr<const TailCheckpoint> LogTailer::makeCheckpoint() const
{
    auto cp = std::make_shared<TailCheckpoint>();
    cp->root = m_root;
    cp->rootIsFile = m_rootIsFile;
    cp->folders = m_folders;
    for (const auto& t : m_files) {
        TailCheckpoint::File f;
        f.path = t->path;
        f.name = t->name;
        f.runKey = t->runKey;
        f.folderKey = t->folderKey;
        f.runName = runNameOf(t->runKey);
        f.format = t->format->id;
        f.layout = t->layout;
        f.state = t->checkpoint;
        f.size = t->id.size;
        f.inode = t->id.inode;
        f.partialTail = t->partialTail;
        f.tailPoints = t->tailPoints;
        cp->files.push_back(std::move(f));
    }
    return cp;
}

LogTailer LogTailer::resume(std::shared_ptr<const LogSet> loaded, ReadOptions options)
{
    LogTailer fresh(loaded ? loaded->root : std::string(), options);
    if (!loaded || !loaded->checkpoint || loaded->checkpoint->root != loaded->root) return fresh;
    const TailCheckpoint& cp = *loaded->checkpoint;
    LogTailer t(loaded->root, options);
    for (const TailCheckpoint::File& f : cp.files) {
        const LogFormat* format = findLogFormat(f.format);
        // a point taken from a partial last line would come again once the line is complete
        if (!format || f.tailPoints) return fresh;
        auto tr = std::make_unique<Tracked>();
        tr->path = f.path;
        tr->name = f.name;
        tr->runKey = f.runKey;
        tr->folderKey = f.folderKey;
        tr->runName = f.runName;
        tr->format = format;
        tr->layout = f.layout;
        tr->state = f.state;
        tr->checkpoint = f.state;
        tr->id = FileId{f.size, f.inode, true};
        tr->emptyWarned = true;
        t.m_files.push_back(std::move(tr));
    }
    t.m_rootIsFile = cp.rootIsFile;
    t.m_folders = cp.folders;
    t.m_base = loaded;
    // "partial last line" warnings of the load are stale: the line is read when it completes
    for (const Warning& w : loaded->warnings) {
        const bool stale = w.code == codes::kLogsPartialLine &&
                           std::any_of(cp.files.begin(), cp.files.end(), [&](const TailCheckpoint::File& f) {
                               return f.partialTail && f.path == w.file;
                           });
        if (!stale) t.m_baseWarnings.push_back(w);
    }
    t.rebuildOnBase();
    return t;
}

}  // namespace qatdoctor::core::logs
