// One engine, every entry point: on every case of the diagnosis corpus and the stage fixtures,
// `analyze` (the library the GUI loads through, and the CLI's --json), `diff X X` (the side under
// test) and `watch` (its rules over the finished folder) give the same finding ids. A finding
// that one face computes on its own and another misses fails here.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zip.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "core/analysis.h"
#include "core/live_watch.h"
#include "core/rules/rule.h"
#include "tests/cli/cli_run.h"

namespace qatdoctor::core {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> corpusCases()
{
    std::vector<std::string> out;
    const std::string diag = std::string(QATDOCTOR_TEST_DATA) + "/diagnosis";
    std::ifstream in(diag + "/MANIFEST.json");
    const nlohmann::json m = nlohmann::json::parse(in, nullptr, false);
    if (m.is_object())
        for (const auto& [name, c] : m["cases"].items()) out.push_back(diag + "/" + name);
    for (const auto& e : fs::directory_iterator(std::string(QATDOCTOR_TEST_DATA) + "/logs/stages"))
        if (e.is_directory()) out.push_back(e.path().string());
    return out;
}

std::set<std::string> idsOf(const std::vector<Finding>& findings)
{
    std::set<std::string> out;
    for (const Finding& f : findings) out.insert(f.id + ":" + severityName(f.severity));
    return out;
}

std::set<std::string> idsOf(const nlohmann::json& findings)
{
    std::set<std::string> out;
    for (const auto& f : findings)
        out.insert(f["id"].get<std::string>() + ":" + f["severity"].get<std::string>());
    return out;
}

TEST(EntryPoints, AnalyzeDiffAndWatchGiveTheSameFindings)
{
    std::set<std::string> ruleIds;
    for (const rules::Rule& r : rules::trainingRules()) ruleIds.insert(r.id);
    const std::vector<std::string> cases = corpusCases();
    ASSERT_GT(cases.size(), 70u);
    for (const std::string& dir : cases) {
        AnalyzeOptions options;
        options.paths = {dir};
        auto a = analyze(options);
        ASSERT_TRUE(a.ok()) << dir << ": " << a.error().toString();
        const std::set<std::string> lib = idsOf(a->findings);

        const auto cliAnalyze = cli::test_support::cli({"analyze", dir, "--json"});
        const nlohmann::json aj = nlohmann::json::parse(cliAnalyze.out, nullptr, false);
        ASSERT_TRUE(aj.is_object()) << dir << cliAnalyze.err;
        EXPECT_EQ(idsOf(aj["findings"]), lib) << dir << " (analyze --json)";

        const auto cliDiff = cli::test_support::cli({"diff", dir, dir, "--json"});
        const nlohmann::json dj = nlohmann::json::parse(cliDiff.out, nullptr, false);
        ASSERT_TRUE(dj.is_object()) << dir << cliDiff.err;
        nlohmann::json persisting = nlohmann::json::array();
        for (const auto& f : dj["comparison"]["findings"])
            if (f["change"] == "persisting") persisting.push_back(f);
        EXPECT_EQ(idsOf(persisting), lib) << dir << " (diff X X)";

        // the watch runs the training rules (the ladder and file checks belong to the analysis)
        // (a finding fires once, again only when it gets worse: its last severity counts)
        LiveWatch watch({dir});
        std::map<std::string, Severity> worst;
        std::vector<WatchedFinding> fired = watch.read().fired;
        for (WatchedFinding& w : watch.finish()) fired.push_back(std::move(w));
        for (const WatchedFinding& w : fired) {
            auto [it, fresh] = worst.emplace(w.live.finding.id, w.live.finding.severity);
            if (!fresh) it->second = std::max(it->second, w.live.finding.severity);
        }
        std::set<std::string> watched;
        for (const auto& [id, severity] : worst) watched.insert(id + ":" + severityName(severity));
        std::set<std::string> libRules;
        for (const std::string& id : lib)
            if (ruleIds.count(id.substr(0, id.find(':')))) libRules.insert(id);
        std::set<std::string> watchedRules;
        for (const std::string& id : watched)
            if (ruleIds.count(id.substr(0, id.find(':')))) watchedRules.insert(id);
        EXPECT_EQ(watchedRules, libRules) << dir << " (watch)";
    }
}

// Two checkpoints whose weights are byte-identical after QAT: `checkpoint A B` and `diff A B` say
// the same (qat.not_learning, decisive).
TEST(EntryPoints, DiffOfTwoCheckpointsSaysWhatCheckpointSays)
{
    const std::string a = std::string(QATDOCTOR_TEST_DATA) + "/checkpoints/qat_calibrated.pt";
    const std::string b = std::string(QATDOCTOR_TEST_DATA) + "/checkpoints/qat_frozen.pt";
    const auto pair = cli::test_support::cli({"checkpoint", a, b, "--json"});
    const nlohmann::json pj = nlohmann::json::parse(pair.out, nullptr, false);
    ASSERT_TRUE(pj.is_object()) << pair.err;
    std::set<std::string> fromPair;
    for (const auto& f : pj["findings"]) fromPair.insert(f["id"].get<std::string>());
    ASSERT_TRUE(fromPair.count("qat.not_learning"));
    const auto diff = cli::test_support::cli({"diff", a, b, "--json"});
    const nlohmann::json dj = nlohmann::json::parse(diff.out, nullptr, false);
    ASSERT_TRUE(dj.is_object()) << diff.err;
    bool said = false;
    for (const auto& f : dj["comparison"]["answers"])
        if (f["id"] == "qat.not_learning") {
            said = true;
            EXPECT_EQ(f["evidence_standard"]["met"], "decisive");
        }
    EXPECT_TRUE(said) << diff.out.substr(0, 2000);
}

// `checkpoint --max-memory` is the budget of each file's reading: a size too small for the pickle
// stops with a message naming the file and the budget; a size that is no size is a usage error.
TEST(EntryPoints, CheckpointMaxMemoryIsTheReadingsBudget)
{
    const std::string a = std::string(QATDOCTOR_TEST_DATA) + "/checkpoints/qat_calibrated.pt";
    EXPECT_EQ(cli::test_support::cli({"checkpoint", a, "--max-memory", "64M"}).code, 0);
    const auto tight = cli::test_support::cli({"checkpoint", a, "--max-memory", "1K"});
    EXPECT_EQ(tight.code, 2);
    EXPECT_NE(tight.err.find("qat_calibrated.pt"), std::string::npos) << tight.err;
    EXPECT_NE(tight.err.find("memory budget of 1.0 KiB (--max-memory)"), std::string::npos) << tight.err;
    EXPECT_EQ(cli::test_support::cli({"checkpoint", a, "--max-memory", "lots"}).code, 2);
}

// A checkpoint whose archive lost a weight's bytes: the weight is named, with what is wrong, in
// the text and in --json's warnings (#48 item 14), not only "some weights were not scanned".
TEST(EntryPoints, AWeightWhoseBytesAreMissingIsNamed)
{
    namespace fs = std::filesystem;
    const fs::path copy =
        fs::temp_directory_path() / ("qatdoctor_missing_" + std::to_string(::getpid()) + ".pt");
    fs::copy_file(std::string(QATDOCTOR_TEST_DATA) + "/checkpoints/qat_calibrated.pt", copy,
                  fs::copy_options::overwrite_existing);
    int code = 0;
    zip_t* z = zip_open(copy.c_str(), 0, &code);
    ASSERT_NE(z, nullptr);
    const zip_int64_t entry = zip_name_locate(z, "qat_calibrated/data/0", 0);  // conv1.weight's storage
    ASSERT_GE(entry, 0);
    ASSERT_EQ(zip_delete(z, static_cast<zip_uint64_t>(entry)), 0);
    ASSERT_EQ(zip_close(z), 0);

    const auto text = cli::test_support::cli({"checkpoint", copy.string()});
    EXPECT_NE(text.out.find("tensor conv1.weight: qat_calibrated/data/0 is missing"), std::string::npos)
        << text.out;
    const auto json = cli::test_support::cli({"checkpoint", copy.string(), "--json"});
    fs::remove(copy);
    const nlohmann::json j = nlohmann::json::parse(json.out, nullptr, false);
    ASSERT_TRUE(j.is_object()) << json.err;
    bool named = false;
    for (const auto& w : j["warnings"])
        named = named || (w["code"] == "checkpoint.scan_partial" &&
                          w["message"].get<std::string>().find("conv1.weight") != std::string::npos);
    EXPECT_TRUE(named) << j["warnings"].dump();
}

}  // namespace
}  // namespace qatdoctor::core
