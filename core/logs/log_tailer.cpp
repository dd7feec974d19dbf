#include "core/logs/log_tailer.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

#include "core/common/file_io.h"
#include "core/logs/line_parser.h"
#include "core/logs/log_reader.h"
#include "core/logs/mapped_file.h"
#include "core/logs/role_guess.h"
#include "core/logs/scan_util.h"

namespace qatdoctor::core::logs {
namespace fs = std::filesystem;

namespace {

constexpr size_t kProbeBytes = 64 * 1024;
constexpr int kMinFolderScore = 15;

bool isCheckpointName(const std::string& n)
{
    return n.ends_with(".pth") || n.ends_with(".pth.tar") || n.ends_with(".ckpt") || n.ends_with(".pt") ||
           n.find("checkpoint") != std::string::npos;
}

bool hasLogExtension(const std::string& name)
{
    if (name.find("tfevents") != std::string::npos) return true;
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const LogFormat& f : logFormats())
        for (const char* ext : f.extensions)
            if (*ext && (lower.ends_with(ext) || lower.find(std::string(ext) + ".") != std::string::npos)) return true;
    return false;
}

// TensorBoard writers often use a sub-folder of the run ("qat/tb/events..."): those files
// belong to the parent run.
bool isTensorBoardFolder(const std::string& name)
{
    for (const char* n : {"tb", "tensorboard", "tb_logs", "tf_logs", "events", "summary", "summaries", "tblogs"})
        if (equalsNoCase(name, n)) return true;
    return false;
}

struct FileId {
    uint64_t size = 0;
    uint64_t inode = 0;
    bool ok = false;
};

FileId statFile(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};
    return {static_cast<uint64_t>(st.st_size), static_cast<uint64_t>(st.st_ino), true};
}

// When two files hold the same points, the one with more digits wins: CSV and JSONL keep what
// the script computed, TensorBoard stores float32, text logs round to 4 places.
int formatRank(const std::string& format)
{
    if (format == "csv") return 0;
    if (format == "jsonl") return 1;
    if (format == "tfevents") return 2;
    return 3;
}

// Merges the same metric from several files of a run: ranges that overlap are the same
// points logged twice (keep the fuller copy); ranges that follow each other are concatenated.
Series mergeCopies(std::vector<std::pair<uint32_t, Series*>>& copies, const std::vector<RunFile>& files, bool move)
{
    std::sort(copies.begin(), copies.end(), [](const auto& a, const auto& b) {
        return a.second->step.front() < b.second->step.front();
    });
    auto take = [&](Series& out, std::pair<uint32_t, Series*>& c) {
        if (move && c.first == 0 && out.empty()) out = std::move(*c.second);
        else out.append(*c.second, c.first);
    };
    std::vector<std::pair<uint32_t, Series*>> kept;
    for (auto& c : copies) {
        if (!kept.empty() && c.second->step.front() <= kept.back().second->step.back()) {
            auto& prev = kept.back();
            if (c.second->size() > prev.second->size() ||
                (c.second->size() == prev.second->size() && formatRank(files[c.first].format) < formatRank(files[prev.first].format)))
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
    std::string runKey;
    const LogFormat* format = nullptr;
    ParseState state;
    ParsedLog parsed;
    FileId id;
    bool emptyWarned = false;
};

LogTailer::LogTailer(std::string root, ReadOptions options) : m_root(std::move(root)), m_options(options) {}
LogTailer::~LogTailer() = default;
LogTailer::LogTailer(LogTailer&&) noexcept = default;
LogTailer& LogTailer::operator=(LogTailer&&) noexcept = default;

void LogTailer::scan(std::vector<std::string>& added)
{
    auto known = [&](const std::string& p) {
        return std::any_of(m_files.begin(), m_files.end(), [&](const auto& t) { return t->path == p; });
    };
    auto track = [&](const std::string& path, const std::string& name, const std::string& runKey, bool mustTake) {
        if (known(path)) return;
        if (!mustTake && m_options.skipFile && m_options.skipFile(path)) return;
        auto head = readFileHead(path, kProbeBytes);
        if (!head) return;
        int score = 0;
        const LogFormat* f = probeLogFormat(name, *head, &score);
        if (!f && mustTake) f = findLogFormat("text");
        if (!f || (!mustTake && score < kMinFolderScore)) return;
        auto t = std::make_unique<Tracked>();
        t->path = path;
        t->name = name;
        t->runKey = runKey;
        t->format = f;
        m_files.push_back(std::move(t));
        added.push_back(path);
    };
    if (m_rootIsFile) {
        track(m_root, fs::path(m_root).filename().string(), "", true);
        return;
    }
    std::error_code ec;
    m_folders.clear();
    m_folders.push_back(m_root);
    m_otherFiles.clear();
    size_t seen = 0;
    fs::recursive_directory_iterator it(m_root, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        if (++seen > m_options.maxFiles) break;
        const fs::directory_entry& e = *it;
        const std::string name = e.path().filename().string();
        if (!name.empty() && name[0] == '.') {
            if (e.is_directory(ec)) it.disable_recursion_pending();
            continue;
        }
        if (e.is_directory(ec)) {
            if (it.depth() >= m_options.maxDepth) it.disable_recursion_pending();
            else m_folders.push_back(e.path().string());
            continue;
        }
        if (!e.is_regular_file(ec)) continue;
        fs::path rel = fs::relative(e.path().parent_path(), m_root, ec);
        std::string runKey = rel.generic_string();
        if (runKey == ".") runKey.clear();
        if (name.find("tfevents") != std::string::npos && isTensorBoardFolder(rel.filename().string()))
            runKey = rel.parent_path().generic_string();
        if (isCheckpointName(name) && !hasLogExtension(name)) {
            m_otherFiles.emplace_back(runKey, name);
            continue;
        }
        if (!hasLogExtension(name)) continue;
        track(e.path().string(), name, runKey, false);
    }
}

Result<bool> LogTailer::poll(const ProgressFn& progress)
{
    std::error_code ec;
    if (!fs::exists(m_root, ec)) return makeError("io.open", "no such file or folder: " + m_root, m_root);
    m_rootIsFile = !fs::is_directory(m_root, ec);
    std::vector<std::string> added;
    scan(added);
    bool changed = !added.empty();

    // Work on copies of the states so a cancelled poll leaves everything as it was.
    struct Update {
        Tracked* file;
        ParseState state;
        ParsedLog parsed;
        bool reset;
        FileId id;
    };
    std::vector<Update> updates;
    uint64_t total = 0;
    for (auto& t : m_files) {
        const FileId id = statFile(t->path);
        if (!id.ok) continue;
        const bool reset = t->id.ok && (id.inode != t->id.inode || id.size < t->state.offset);
        if (!reset && id.size == t->state.offset && t->id.ok) continue;
        updates.push_back({t.get(), reset ? ParseState{} : t->state, {}, reset, id});
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
        if (bytes.empty()) {
            if (!u.file->emptyWarned && !m_options.live)
                u.parsed.warnings.push_back(makeError("logs.empty", "empty file", u.file->path));
            continue;
        }
        const uint64_t start = u.state.offset;
        ProgressFn scaled = [&](double f, std::string_view stage) {
            const double part = total ? (static_cast<double>(done) + f * static_cast<double>(bytes.size() - start)) /
                                            static_cast<double>(total)
                                      : 1.0;
            return reportProgress(progress, part, stage);
        };
        auto parsed = parseBlocks(*u.file->format, bytes.substr(start), u.file->path, u.state, scaled,
                                  m_options.threads, !m_options.live);
        if (!parsed) return parsed.error();
        u.parsed = std::move(*parsed);
        done += bytes.size() - start;
    }
    for (Update& u : updates) {
        Tracked& t = *u.file;
        if (u.reset) t.parsed = ParsedLog{};
        if (u.reset || u.state.offset != t.state.offset || !u.parsed.warnings.empty() || !t.id.ok) changed = true;
        t.id = u.id;
        if (u.parsed.warnings.size() && u.parsed.warnings.front().code == "logs.empty") t.emptyWarned = true;
        t.state = std::move(u.state);
        flushWarningCounts(u.parsed, t.state, t.path);
        appendParsed(t.parsed, std::move(u.parsed));
    }
    if (changed) rebuild();
    return changed;
}

std::vector<std::string> LogTailer::watchedPaths() const
{
    std::vector<std::string> out = m_folders;
    for (const auto& t : m_files) out.push_back(t->path);
    return out;
}

void LogTailer::rebuild()
{
    const bool move = !m_options.live;
    std::map<std::string, std::vector<Tracked*>> byRun;
    for (auto& t : m_files) byRun[t->runKey].push_back(t.get());
    const std::string rootName = fs::path(m_root).filename().string();
    LogSet set;
    set.root = m_root;
    for (auto& [key, files] : byRun) {
        // Text logs first: their header lines hold the metadata users expect to see.
        std::stable_sort(files.begin(), files.end(), [](const Tracked* a, const Tracked* b) {
            return std::string_view(a->format->id) == "text" && std::string_view(b->format->id) != "text";
        });
        Run run;
        run.name = m_rootIsFile ? fs::path(m_root).filename().string() : key.empty() ? rootName : key;
        std::vector<std::string> folders;
        if (!m_rootIsFile) {
            if (key.empty()) folders.push_back(rootName);
            for (const auto& part : fs::path(key)) folders.push_back(part.string());
        } else {
            folders.push_back(fs::path(m_root).parent_path().filename().string());
        }
        std::vector<std::string> names;
        std::vector<RoleHint> hints;
        std::map<std::string, std::vector<std::pair<uint32_t, Series*>>> copies;
        for (Tracked* t : files) {
            const auto index = static_cast<uint32_t>(run.files.size());
            run.files.push_back({t->path, t->format->id, t->state.offset});
            names.push_back(t->name);
            for (const auto& [k, v] : t->parsed.metadata) run.metadata.emplace(k, v);
            for (const RoleHint& h : t->parsed.roleHints) hints.push_back({h.role, t->name + ": " + h.reason});
            for (RunEvent e : t->parsed.events) {
                e.file = index;
                run.events.push_back(std::move(e));
            }
            for (const Warning& w : t->parsed.warnings) set.warnings.push_back(w);
            for (size_t i = 0; i < t->parsed.names.size(); ++i)
                if (!t->parsed.series[i].empty()) copies[t->parsed.names[i]].push_back({index, &t->parsed.series[i]});
        }
        for (const auto& [k, n] : m_otherFiles)
            if (k == key) names.push_back(n);
        for (auto& [name, list] : copies) {
            Series s = mergeCopies(list, run.files, move);
            s.shrinkToFit();
            run.series.emplace(name, std::move(s));
        }
        if (move)
            for (Tracked* t : files) {
                t->parsed.series.clear();
                t->parsed.names.clear();
            }
        const RoleGuess g = guessRole(folders, names, hints);
        run.role = g.role;
        run.roleReason = g.reason;
        set.runs.push_back(std::move(run));
    }
    m_set = std::move(set);
}

}  // namespace qatdoctor::core::logs
