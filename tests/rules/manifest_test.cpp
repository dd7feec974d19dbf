// The rules on REAL training runs (tests/data/runs, made by tests/gen/make_runs.py with Debian's
// python3-torch): every case triggers its expected ids with the expected evidence, triggers no
// other id of the manifest's list except the allowed ones, and the healthy case has no warning
// or error at all. One row of MANIFEST.json = one test.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/analysis.h"
#include "core/common/file_io.h"

namespace qatdoctor::core {
namespace {

using nlohmann::json;

const std::string kManifest = std::string(QATDOCTOR_TEST_DATA) + "/runs/MANIFEST.json";

json manifest()
{
    static const json doc = [] {
        auto text = readFile(kManifest);
        if (!text) return json();
        json j = json::parse(*text, nullptr, false);
        return j.is_discarded() ? json() : j;
    }();
    return doc;
}

std::vector<std::string> caseNames()
{
    std::vector<std::string> names;
    const json m = manifest();
    if (m.contains("cases"))
        for (auto& [name, c] : m["cases"].items()) names.push_back(name);
    if (names.empty()) names.push_back("manifest_missing");
    return names;
}

bool hasLogFolderLoader()
{
    for (const InputLoader& l : inputLoaders())
        if (std::string(l.id) == "log_folder") return true;
    return false;
}

const Finding* findId(const Analysis& a, const std::string& id)
{
    for (const Finding& f : a.findings)
        if (f.id == id) return &f;
    return nullptr;
}

bool endsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Line n (1-based) of a file, "" when missing.
std::string lineOf(const std::string& path, int64_t n)
{
    auto text = readFile(path);
    if (!text || n <= 0) return {};
    size_t pos = 0;
    for (int64_t i = 1; i < n; ++i) {
        pos = text->find('\n', pos);
        if (pos == std::string::npos) return {};
        ++pos;
    }
    return text->substr(pos, text->find('\n', pos) - pos);
}

std::string fmtStep(double step)
{
    return std::to_string(static_cast<long long>(step));
}

bool hasNonfiniteToken(std::string line)
{
    for (char& ch : line) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return line.find("nan") != std::string::npos || line.find("inf") != std::string::npos;
}

class RunsManifest : public ::testing::TestWithParam<std::string> {};

TEST_P(RunsManifest, FindingsMatch)
{
    const json m = manifest();
    if (!m.contains("cases")) GTEST_SKIP() << "no " << kManifest << " yet";
    if (!hasLogFolderLoader()) GTEST_SKIP() << "the log_folder loader (core/logs) is not registered yet";
    const json& c = m["cases"][GetParam()];
    const std::string root = std::string(QATDOCTOR_SOURCE_DIR) + "/" + c["root"].get<std::string>();
    AnalyzeOptions options;
    options.paths = {root};
    Result<Analysis> a = analyze(options);
    ASSERT_TRUE(a.ok()) << a.error().toString();

    const auto expect = c["expect"].get<std::vector<std::string>>();
    if (std::count(expect.begin(), expect.end(), "env.no_gpu")) {
        bool anyWarningEvent = false;
        for (const logs::Run& r : a->logs.runs)
            for (const logs::RunEvent& e : r.events)
                anyWarningEvent |= e.kind == logs::RunEvent::Kind::Warning;
        if (!anyWarningEvent)
            GTEST_SKIP() << "env.no_gpu reads WARNING lines, which the log reader does not report as "
                            "events yet (core/logs)";
    }

    std::set<std::string> problems;
    for (const Finding& f : a->findings)
        if (f.severity != Severity::Info) problems.insert(f.id);
    const auto allow = c["allow"].get<std::vector<std::string>>();
    for (const std::string& id : expect) {
        EXPECT_TRUE(problems.count(id)) << GetParam() << ": expected " << id;
        EXPECT_TRUE(a->checksRun.count(id)) << GetParam() << ": " << id << " did not run";
    }
    for (const std::string& id : m["finding_ids"].get<std::vector<std::string>>()) {
        const bool wanted =
            std::count(expect.begin(), expect.end(), id) || std::count(allow.begin(), allow.end(), id);
        if (!wanted) EXPECT_FALSE(problems.count(id)) << GetParam() << ": unexpected " << id;
    }
    if (GetParam() == "healthy") EXPECT_TRUE(problems.empty()) << "healthy run with findings";

    const json& key = c["key"];
    if (key.contains("first_nonfinite") && std::count(expect.begin(), expect.end(), "loss.nonfinite")) {
        const json& want = key["first_nonfinite"];
        const Finding* f = findId(*a, "loss.nonfinite");
        ASSERT_TRUE(f && !f->evidence.empty());
        const Evidence& e = f->evidence.front();
        EXPECT_EQ(e.run, want["run"].get<std::string>());
        EXPECT_EQ(e.step, want["step"].get<double>());
        // The manifest counts lines in the text log. When the run also has a CSV / JSONL copy
        // of the series, the log reader keeps that (more digits), so the evidence may name it:
        // then the named line itself must hold the step and the non-finite value.
        if (endsWith(e.file, ".log")) {
            EXPECT_TRUE(endsWith(e.file, want["file"].get<std::string>())) << e.file;
            EXPECT_EQ(e.line, want["line"].get<int64_t>());
        } else {
            const std::string runDir = "/" + want["run"].get<std::string>() + "/";
            EXPECT_NE(e.file.find(runDir), std::string::npos) << e.file;
            const std::string line = lineOf(e.file, e.line);
            EXPECT_NE(line.find(fmtStep(want["step"].get<double>())), std::string::npos) << line;
            EXPECT_TRUE(hasNonfiniteToken(line)) << e.file << ":" << e.line << ": " << line;
        }
    }
    if (key.contains("crash") && std::count(expect.begin(), expect.end(), "run.crashed")) {
        const json& want = key["crash"];
        const Finding* f = findId(*a, "run.crashed");
        ASSERT_TRUE(f && !f->evidence.empty());
        const Evidence& e = f->evidence.front();
        EXPECT_EQ(e.run, want["run"].get<std::string>());
        EXPECT_EQ(e.line, want["traceback_line"].get<int64_t>());
        if (want.contains("exception") && want["exception"].is_string())
            EXPECT_EQ(e.detail, want["exception"].get<std::string>());
    }
}

INSTANTIATE_TEST_SUITE_P(Cases, RunsManifest, ::testing::ValuesIn(caseNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace qatdoctor::core
