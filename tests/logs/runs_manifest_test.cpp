// The real training runs (tests/data/runs, written by tests/gen/make_runs.py with torch) read
// back against their MANIFEST.json: roles, metadata, per-series counts, first/last values and
// the first non-finite step. One parameterised test per case.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/logs/metric_names.h"
#include "core/logs/role_guess.h"
#include "core/logs/series_stats.h"
#include "tests/logs/test_util.h"

namespace qatdoctor::core::logs::test {
namespace {

nlohmann::json manifest()
{
    std::ifstream f(fixture("runs/MANIFEST.json"));
    return f ? nlohmann::json::parse(f, nullptr, false) : nlohmann::json();
}

std::vector<std::string> caseNames()
{
    std::vector<std::string> out;
    const nlohmann::json m = manifest();
    if (m.is_object() && m.contains("cases"))
        for (auto& [k, v] : m["cases"].items()) out.push_back(k);
    return out;
}

class RunsManifest : public ::testing::TestWithParam<std::string> {};

bool near(double a, double b)
{
    return std::fabs(a - b) <= 1e-3 * std::max(1.0, std::fabs(b));
}

TEST_P(RunsManifest, MatchesExpectedValues)
{
    const nlohmann::json c = manifest()["cases"][GetParam()];
    // "root" is relative to the repository (the demo case lives in resources/demo/logs)
    auto set = readLogFolder(std::string(QATDOCTOR_SOURCE_DIR) + "/" + c["root"].get<std::string>());
    ASSERT_TRUE(set.ok()) << set.error().toString();
    for (auto& [runName, expected] : c["runs"].items()) {
        const logs::Run* run = nullptr;
        for (const logs::Run& r : set->runs)
            if (r.name == runName) run = &r;
        ASSERT_NE(run, nullptr) << runName;
        EXPECT_EQ(roleName(run->role), expected["role"].get<std::string>()) << runName;
        for (const char* key : {"batch_size", "world_size", "march"}) {
            if (!expected["metadata"].contains(key)) continue;
            ASSERT_TRUE(run->metadata.count(key)) << runName << " " << key;
            EXPECT_EQ(run->metadata.at(key), expected["metadata"][key].get<std::string>())
                << runName << " " << key;
        }
        for (auto& [tag, st] : expected["series"].items()) {
            // "<log prefix>/<metric>": the prefix names the line's stage and split, as the text
            // parser reads a labelled training line; the run's own stage's series lose the prefix
            const size_t slash = tag.find('/');
            const std::string prefix = slash == std::string::npos ? std::string() : tag.substr(0, slash);
            const std::string metric = tag.substr(slash == std::string::npos ? 0 : slash + 1);
            const std::string name =
                withoutPrefix(stagedSeriesName(metric, isValidationWord(prefix), stageOfWord(prefix),
                                               deployStepOfWord(prefix)),
                              stagePrefix(run->role));
            const Series* s = run->find(name);
            ASSERT_NE(s, nullptr) << runName << " " << tag << " -> " << name;
            EXPECT_EQ(s->size(), st["points"].get<size_t>()) << runName << " " << name;
            if (s->empty()) continue;
            EXPECT_EQ(s->step.front(), st["first_step"].get<double>()) << runName << " " << name;
            EXPECT_EQ(s->step.back(), st["last_step"].get<double>()) << runName << " " << name;
            if (st["first"].is_number())
                EXPECT_TRUE(near(s->value.front(), st["first"].get<double>())) << runName << " " << name;
            if (st["last"].is_number())
                EXPECT_TRUE(near(s->value.back(), st["last"].get<double>())) << runName << " " << name;
            const SeriesStats stats = seriesStats(*s);
            EXPECT_EQ(stats.nonFinite, st["nonfinite_points"].get<size_t>()) << runName << " " << name;
            if (st["first_nonfinite"].is_object() && st["first_nonfinite"].contains("step")) {
                ASSERT_TRUE(stats.firstNonFinite) << runName << " " << name;
                EXPECT_EQ(s->step[*stats.firstNonFinite], st["first_nonfinite"]["step"].get<double>())
                    << runName << " " << name;
            }
        }
        if (expected.contains("val") && expected["val"].is_object()) {
            for (auto& [prefix, rows] : expected["val"].items()) {
                if (!rows.is_array() || rows.empty()) continue;
                for (auto& [metric, v] : rows.back().items()) {
                    if (metric == "epoch" || metric == "line" || !v.is_number()) continue;
                    const Series* s = run->find("val/" + metric);
                    ASSERT_NE(s, nullptr) << runName << " val/" << metric;
                    EXPECT_EQ(s->size(), rows.size()) << runName << " val/" << metric;
                    EXPECT_TRUE(near(s->value.back(), v.get<double>())) << runName << " val/" << metric;
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Runs, RunsManifest, ::testing::ValuesIn(caseNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace qatdoctor::core::logs::test
