// The live watch against the diagnosis corpus: every case's files are written again into a
// temporary folder a few hundred bytes at a time (lines cut anywhere, stages one after another
// as a pipeline writes them), the watch reading after each write. What fires must be what the
// batch rules say about the finished folder, with the same evidence, and a NaN must fire at the
// first read that holds its line.
#include "core/live_watch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "core/common/check_results.h"
#include "core/logs/log_reader.h"
#include "core/rules/live_rules.h"
#include "core/rules/rule.h"
#include "core/rules/stage_views.h"

namespace qatdoctor::core::test {
namespace {

namespace fs = std::filesystem;

std::string readAll(const fs::path& p)
{
    std::ifstream f(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Pipeline order: a folder (or file) naming an earlier stage is written first.
int stageRank(const std::string& rel)
{
    static const std::pair<const char*, int> kStages[] = {{"float", 0},     {"calib", 1}, {"qat", 2},
                                                          {"quantized", 3}, {"eval", 3},  {"int", 3}};
    for (const auto& [word, rank] : kStages)
        if (rel.find(word) != std::string::npos) return rank;
    return 2;
}

struct Replay {
    std::vector<WatchedFinding> fired;
    // for each fired finding: the bytes of its evidence file written at the read before the one
    // that fired it
    std::vector<uint64_t> writtenBefore;
    fs::path root;
};

// Writes the case again into `to`, chunk bytes at a time, reading after each write.
Replay replay(const fs::path& from, const fs::path& to, size_t chunk)
{
    fs::remove_all(to);
    fs::create_directories(to);
    std::vector<std::pair<std::string, std::string>> files;  // relative path, contents
    for (const auto& e : fs::recursive_directory_iterator(from))
        if (e.is_regular_file()) files.emplace_back(fs::relative(e.path(), from).string(), readAll(e.path()));
    std::stable_sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
        return std::make_pair(stageRank(a.first), a.first) < std::make_pair(stageRank(b.first), b.first);
    });
    LiveWatch watch({to.string()});
    Replay r;
    r.root = to;
    std::map<std::string, uint64_t> written;  // absolute path -> bytes
    std::map<std::string, uint64_t> before;
    auto read = [&] {
        for (WatchedFinding& f : watch.read().fired) {
            const std::string file =
                f.live.finding.evidence.empty() ? "" : f.live.finding.evidence.front().file;
            r.writtenBefore.push_back(before.count(file) ? before[file] : 0);
            r.fired.push_back(std::move(f));
        }
        before = written;
    };
    for (const auto& [rel, text] : files) {
        const fs::path out = to / rel;
        fs::create_directories(out.parent_path());
        for (size_t at = 0; at < text.size(); at += chunk) {
            std::ofstream(out, std::ios::binary | std::ios::app) << text.substr(at, chunk);
            written[out.string()] = std::min(text.size(), at + chunk);
            read();
        }
    }
    read();
    for (WatchedFinding& f : watch.finish()) {
        r.writtenBefore.push_back(0);
        r.fired.push_back(std::move(f));
    }
    return r;
}

// The batch rules' findings on the finished folder, one per run (the watch reports each run's;
// the analysis then groups a cause shared by several runs into one finding).
std::vector<Finding> batchFindings(const fs::path& root)
{
    auto logs = logs::readLogFolder(root.string());
    EXPECT_TRUE(logs) << root;
    std::vector<Finding> out;
    if (!logs) return out;
    logs::LogSet view;
    view.root = logs->root;
    view.runs = rules::stageViews(logs->runs);
    for (const rules::Rule& rule : rules::trainingRules())
        for (Finding& f : rule.check(view, rules::defaultThresholds()).findings) out.push_back(std::move(f));
    return out;
}

uint64_t lineEnd(const std::string& text, int64_t line)
{
    size_t at = 0;
    for (int64_t l = 1; l <= line && at != std::string::npos; ++l) {
        at = text.find('\n', at);
        if (at != std::string::npos) ++at;
    }
    return at == std::string::npos ? text.size() : at;
}

TEST(LiveWatchCorpus, FiresWhatTheBatchRulesFindAtTheFirstReadThatHoldsIt)
{
    const fs::path corpus = fs::path(QATDOCTOR_TEST_DATA) / "diagnosis";
    const fs::path work = fs::temp_directory_path() / "qatdoctor_live_corpus";
    size_t cases = 0, nanCases = 0, firedTotal = 0;
    for (const auto& e : fs::directory_iterator(corpus)) {
        if (!e.is_directory()) continue;
        const std::string name = e.path().filename().string();
        SCOPED_TRACE(name);
        ++cases;
        const Replay r = replay(e.path(), work / name, 977);
        const std::vector<Finding> batch = batchFindings(work / name);
        std::multiset<std::string> live, expected;
        for (const WatchedFinding& f : r.fired) live.insert(f.live.finding.id + " @ " + f.live.run);
        for (const Finding& f : batch) expected.insert(f.id + " @ " + f.evidence.front().run);
        // a finding that escalated (info, then error) fired twice: once per severity
        std::multiset<std::string> liveOnce(live.begin(), live.end());
        for (auto it = liveOnce.begin(); it != liveOnce.end();) {
            const auto next = std::next(it);
            if (next != liveOnce.end() && *next == *it)
                it = liveOnce.erase(it);
            else
                it = next;
        }
        // (a rule may find a cause twice in one run, two sweeps against it: the watch says it once)
        EXPECT_EQ(std::set<std::string>(liveOnce.begin(), liveOnce.end()),
                  std::set<std::string>(expected.begin(), expected.end()));
        firedTotal += r.fired.size();
        for (size_t i = 0; i < r.fired.size(); ++i) {
            const Finding& f = r.fired[i].live.finding;
            const auto same = std::find_if(batch.begin(), batch.end(), [&](const Finding& b) {
                return b.id == f.id && b.severity == f.severity &&
                       b.evidence.front().run == r.fired[i].live.run;
            });
            if (same == batch.end()) continue;  // an earlier severity of an escalated finding
            ASSERT_FALSE(f.evidence.empty());
            EXPECT_EQ(f.evidence.front().file, same->evidence.front().file) << f.id;
            EXPECT_EQ(f.evidence.front().line, same->evidence.front().line) << f.id;
            EXPECT_EQ(f.evidence.front().step, same->evidence.front().step) << f.id;
            // a training NaN fires at the first read after its line was written (in formats of
            // lines: text, CSV, JSON lines)
            const std::string& file = f.evidence.front().file;
            const bool lines = file.ends_with(".log") || file.ends_with(".txt") || file.ends_with(".csv") ||
                               file.ends_with(".jsonl");
            if (f.id == "loss.nonfinite" && f.severity == Severity::Error && f.evidence.front().line > 0 &&
                lines) {
                ++nanCases;
                const uint64_t end = lineEnd(readAll(f.evidence.front().file), f.evidence.front().line);
                EXPECT_LT(r.writtenBefore[i], end)
                    << "fired a read late: " << f.evidence.front().file << ":" << f.evidence.front().line;
            }
        }
    }
    fs::remove_all(work);
    EXPECT_GE(cases, 60u);
    EXPECT_GE(nanCases, 3u);
    EXPECT_GE(firedTotal, 15u);
}

}  // namespace
}  // namespace qatdoctor::core::test
