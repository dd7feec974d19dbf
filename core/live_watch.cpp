#include "core/live_watch.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/folder_input.h"

namespace qatdoctor::core {

struct LiveWatch::Source {
    std::string path;
    std::optional<logs::LogTailer> tailer;  // once the path exists
    std::shared_ptr<const logs::LogSet> loaded;
    rules::LiveDiagnosis diagnosis;
    std::string missingSaid;  // the last notice about the path, said once
    std::set<std::string> warningsSaid;
    logs::LogSet empty;

    Source(std::string p, const rules::Thresholds& t, std::shared_ptr<const logs::LogSet> l)
        : path(std::move(p)), loaded(std::move(l)), diagnosis(t)
    {
    }
    const logs::LogSet& logs() const { return tailer ? tailer->logSet() : empty; }
};

LiveWatch::LiveWatch(std::vector<std::string> paths, rules::Thresholds thresholds,
                     std::shared_ptr<const logs::LogSet> loaded)
    : m_paths(std::move(paths))
{
    for (size_t i = 0; i < m_paths.size(); ++i)
        m_sources.push_back(
            std::make_unique<Source>(m_paths[i], thresholds, i == 0 ? std::move(loaded) : nullptr));
}
LiveWatch::~LiveWatch() = default;
LiveWatch::LiveWatch(LiveWatch&&) noexcept = default;
LiveWatch& LiveWatch::operator=(LiveWatch&&) noexcept = default;

void LiveWatch::markReported(const std::vector<Finding>& findings)
{
    for (auto& s : m_sources) s->diagnosis.markReported(findings);
}

WatchRead LiveWatch::read()
{
    WatchRead out;
    for (auto& s : m_sources) {
        if (!s->tailer) {
            std::error_code ec;
            if (!std::filesystem::exists(s->path, ec)) {
                const std::string said = "not there yet: waiting for it to appear";
                if (s->missingSaid != said) out.notices.push_back(makeError("watch.waiting", said, s->path));
                s->missingSaid = said;
                continue;
            }
            logs::ReadOptions options;
            options.live = true;
            options.skipFile = claimedByOtherReader;  // a model or toolchain table: not a log
            s->tailer =
                s->loaded ? logs::LogTailer::resume(s->loaded, options) : logs::LogTailer(s->path, options);
            s->loaded.reset();
        }
        Result<bool> changed = s->tailer->poll();
        if (!changed) {
            // the folder went away (a job cleaning up, a rename): said once, read again when back
            if (s->missingSaid != changed.error().message) out.notices.push_back(changed.error());
            s->missingSaid = changed.error().message;
            continue;
        }
        s->missingSaid.clear();
        out.grew = out.grew || *changed;
        const logs::LogSet& set = s->tailer->logSet();
        // the set's warnings are rebuilt in run order at every read: new ones are told by content
        for (const Warning& w : set.warnings)
            if (s->warningsSaid.insert(w.toString()).second) out.notices.push_back(w);
        // a file read again from its start is its run's new attempt
        for (const std::string& file : s->tailer->restartedFiles())
            for (const logs::Run& run : set.runs)
                if (std::any_of(run.files.begin(), run.files.end(),
                                [&](const logs::RunFile& f) { return f.path == file; }))
                    s->diagnosis.restart(run.name);
        for (rules::LiveFinding& f : s->diagnosis.update(set)) {
            out.fired.push_back({std::move(f), s->path});
            m_fired.push_back(out.fired.back());
        }
    }
    return out;
}

std::vector<WatchedFinding> LiveWatch::finish()
{
    std::vector<WatchedFinding> out;
    for (auto& s : m_sources)
        for (rules::LiveFinding& f : s->diagnosis.flush(s->logs())) {
            out.push_back({std::move(f), s->path});
            m_fired.push_back(out.back());
        }
    return out;
}

size_t LiveWatch::runCount() const
{
    size_t n = 0;
    for (const auto& s : m_sources) n += s->logs().runs.size();
    return n;
}

std::vector<WatchedRunEnd> LiveWatch::runEnds() const
{
    std::vector<WatchedRunEnd> out;
    for (const auto& s : m_sources)
        for (const logs::Run& run : s->logs().runs)
            if (auto end = rules::runEnd(run)) out.push_back({s->path, run.name, std::move(*end)});
    return out;
}

bool LiveWatch::allRunsEnded() const
{
    // every path has runs (one not there yet is still to come), and each run ended or crashed
    for (const auto& s : m_sources)
        if (s->logs().runs.empty()) return false;
    const std::vector<WatchedRunEnd> ends = runEnds();
    for (const auto& s : m_sources)
        for (const logs::Run& run : s->logs().runs) {
            const auto same = [&](const auto& x) { return x.path == s->path && x.run == run.name; };
            const bool ended = std::any_of(ends.begin(), ends.end(), same);
            const bool crashed = std::any_of(m_fired.begin(), m_fired.end(), [&](const WatchedFinding& f) {
                return f.path == s->path && f.live.run == run.name && f.live.finding.id == "run.crashed";
            });
            if (!ended && !crashed) return false;
        }
    return true;
}

std::vector<std::string> LiveWatch::watchedPaths() const
{
    std::vector<std::string> out;
    for (const auto& s : m_sources) {
        if (!s->tailer) {
            // a path not there yet: its parent tells when it appears ("logs/run1/" is in "logs")
            std::string path = s->path;
            while (path.size() > 1 && path.back() == '/') path.pop_back();
            const std::filesystem::path parent = std::filesystem::path(path).parent_path();
            out.push_back(parent.empty() ? "." : parent.string());
            continue;
        }
        for (std::string& p : s->tailer->watchedPaths()) out.push_back(std::move(p));
    }
    return out;
}

const logs::LogSet& LiveWatch::logs(size_t path) const
{
    return m_sources.at(path)->logs();
}

}  // namespace qatdoctor::core
