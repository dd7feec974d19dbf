// `qatdoctor-cli analyze <case> --json` on the real runs, in-process through cli::runCli:
// finding ids, the verdict, and the exit codes of --fail-on.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli/cli_command.h"
#include "tests/cli/cli_run.h"

namespace qatdoctor::cli {
namespace {

using nlohmann::json;

using CliResult = test_support::CliRun;

CliResult runCase(const std::string& name, std::vector<std::string> extra)
{
    std::vector<std::string> args = {"analyze", std::string(QATDOCTOR_TEST_DATA) + "/runs/" + name};
    args.insert(args.end(), extra.begin(), extra.end());
    return test_support::cli(std::move(args));
}

std::set<std::string> problemIds(const json& doc)
{
    std::set<std::string> ids;
    for (const json& f : doc["findings"])
        if (f["severity"] != "info") ids.insert(f["id"].get<std::string>());
    return ids;
}

class AnalyzeE2e : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (!std::filesystem::exists(std::string(QATDOCTOR_TEST_DATA) + "/runs/healthy"))
            GTEST_SKIP() << "tests/data/runs not generated";
    }
};

TEST_F(AnalyzeE2e, HealthyIsClearAndExitsZero)
{
    const CliResult r = runCase("healthy", {"--json", "--fail-on", "warning"});
    ASSERT_EQ(r.code, kExitOk) << r.err << r.out;
    const json doc = json::parse(r.out);
    EXPECT_EQ(problemIds(doc), std::set<std::string>{});
    EXPECT_EQ(doc["verdict"]["clear"], true);
    EXPECT_TRUE(doc["verdict"]["stage"].is_null());
    EXPECT_TRUE(doc["checks_run"].size() >= 15u);
    for (const char* id : {"loss.nonfinite", "qat.quantized_gap", "calib.low_accuracy"})
        EXPECT_NE(std::find(doc["checks_run"].begin(), doc["checks_run"].end(), id), doc["checks_run"].end())
            << id;
}

TEST_F(AnalyzeE2e, WhatCouldNotBeCheckedIsListedNotCleared)
{
    // one QAT log with no float, calibration or quantized run, and no march in its settings
    const CliResult r =
        test_support::cli({"analyze", std::string(QATDOCTOR_TEST_DATA) + "/logs/wild/hat_crashed", "--json",
                           "--fail-on", "warning"});
    const json doc = json::parse(r.out);
    std::map<std::string, std::string> skipped;
    for (const json& s : doc["checks_skipped"])
        skipped[s["id"].get<std::string>()] = s["reason"].get<std::string>();
    EXPECT_EQ(skipped["qat.quantized_gap"],
              "not checked: needs the QAT and the quantized model's evaluation accuracy");
    EXPECT_EQ(skipped["calib.low_accuracy"],
              "not checked: needs the float and the calibration evaluation accuracy");
    for (const auto& [id, reason] : skipped)  // never both run and skipped
        EXPECT_EQ(std::find(doc["checks_run"].begin(), doc["checks_run"].end(), id), doc["checks_run"].end())
            << id;
}

TEST_F(AnalyzeE2e, BytesThatAreNotUtf8NeverAbortTheJson)
{
    // a GBK log (the usual encoding of a Chinese Windows machine) in a folder named in GBK too:
    // "训练" is D1 B5 C1 B7 there, invalid as UTF-8
    const auto dir = std::filesystem::temp_directory_path() / ("qatdoctor_gbk_" + std::to_string(::getpid()));
    const std::string gbk = "\xd1\xb5\xc1\xb7";
    std::filesystem::create_directories(dir / ("qat_" + gbk));
    std::ofstream log(dir / ("qat_" + gbk) / "train.log", std::ios::binary);
    log << "task_name: " << gbk << "\n";
    for (int s = 0; s < 20; ++s)
        log << "Epoch[0] Step[" << s << "] GlobalStep[" << s << "] qat_train: loss[" << 1.0 - 0.01 * s << "] "
            << gbk << "_acc[0.5]\n";
    log.close();
    const CliResult r = test_support::cli({"analyze", dir.string(), "--json"});
    EXPECT_EQ(r.code, 0) << r.err;
    const json doc = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << r.out.substr(0, 400);
    ASSERT_EQ(doc["runs"].size(), 1u);
    // the undecodable bytes are replaced, the rest of the name kept
    EXPECT_EQ(doc["runs"][0]["name"].get<std::string>().rfind("qat_", 0), 0u);
    std::filesystem::remove_all(dir);
}

TEST_F(AnalyzeE2e, ControlCharactersInNamesArePrintedEscaped)
{
    // a run folder whose name clears the screen and sets the window title when printed raw
    const auto dir = std::filesystem::temp_directory_path() / ("qatdoctor_esc_" + std::to_string(::getpid()));
    const std::string name = "qat\x1b[2J\x1b]0;owned\x07";
    std::filesystem::create_directories(dir / name);
    std::ofstream log(dir / name / "train.log");
    for (int s = 0; s < 20; ++s)
        log << "Epoch[0] Step[" << s << "] GlobalStep[" << s << "] qat_train: loss[0.5]\n";
    log.close();
    const CliResult r = test_support::cli({"analyze", dir.string()});
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
    EXPECT_EQ(r.out.find('\x07'), std::string::npos);
    EXPECT_NE(r.out.find("qat\\x1b[2J\\x1b]0;owned\\x07"), std::string::npos) << r.out;
    // JSON keeps the name exact (its own escapes)
    const json doc = json::parse(test_support::cli({"analyze", dir.string(), "--json"}).out);
    EXPECT_EQ(doc["runs"][0]["name"], name);
    std::filesystem::remove_all(dir);
}

TEST_F(AnalyzeE2e, SimulatingARefusedModelSaysWhichAndWhy)
{
    // a project folder with a log and a truncated model: not "no ONNX model among the inputs"
    const auto dir =
        std::filesystem::temp_directory_path() / ("qatdoctor_cutmodel_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / "qat");
    std::ofstream log(dir / "qat" / "train.log");
    for (int s = 0; s < 20; ++s)
        log << "Epoch[0] Step[" << s << "] GlobalStep[" << s << "] qat_train: loss[0.5]\n";
    log.close();
    std::ifstream in(std::string(QATDOCTOR_TEST_DATA) + "/models/qat_qdq.onnx", std::ios::binary);
    const std::string model((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(dir / "model.onnx", std::ios::binary) << model.substr(0, model.size() / 2);
    const CliResult r = test_support::cli({"analyze", dir.string(), "--simulate"});
    EXPECT_NE(r.err.find("model.onnx was found but could not be read"), std::string::npos) << r.err;
    std::filesystem::remove_all(dir);
}

TEST_F(AnalyzeE2e, AMarchThatIsNotLoggedIsAHintNotTheVerdict)
{
    // a healthy QAT log whose settings do not mention the march
    const auto dir =
        std::filesystem::temp_directory_path() / ("qatdoctor_march_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / "qat");
    std::ofstream log(dir / "qat" / "train.log");
    log << "batch_size=32 lr=0.001 world_size=1\n";
    for (int s = 0; s < 20; ++s)
        log << "Epoch[0] Step[" << s << "] GlobalStep[" << s << "] qat_train: loss[" << 1.0 - 0.01 * s
            << "] \n";
    log.close();
    const CliResult r = test_support::cli({"analyze", dir.string(), "--json"});
    const json doc = json::parse(r.out);
    bool hinted = false;
    for (const json& f : doc["findings"]) {
        EXPECT_NE(f["id"], "config.march");
        if (f["id"] == "config.march_not_logged") {
            hinted = true;
            EXPECT_EQ(f["severity"], "info");
        }
    }
    EXPECT_TRUE(hinted);
    // not logged is not checked: listed with what it needed, never "clear"
    bool skipped = false;
    for (const json& s : doc["checks_skipped"]) skipped = skipped || s["id"] == "config.march";
    EXPECT_TRUE(skipped);
    EXPECT_NE(doc["verdict"]["finding"], "config.march_not_logged") << doc["verdict"]["text"];
    std::filesystem::remove_all(dir);
}

TEST_F(AnalyzeE2e, NanLossIsAnErrorWithEvidence)
{
    const CliResult r = runCase("nan_loss", {"--json"});
    EXPECT_EQ(r.code, kExitFindings) << r.err;
    const json doc = json::parse(r.out);
    EXPECT_TRUE(problemIds(doc).count("loss.nonfinite"));
    const json& f = doc["findings"][0];  // sorted: errors first
    EXPECT_EQ(f["id"], "loss.nonfinite");
    EXPECT_EQ(f["severity"], "error");
    EXPECT_EQ(f["stage"], "qat");
    EXPECT_EQ(f["faq"], "qat.nan_loss");
    EXPECT_EQ(f["evidence"][0]["run"], "qat");
    EXPECT_EQ(f["evidence"][0]["step"], 39.0);
    EXPECT_EQ(f["evidence"][0]["value"], "inf");
    EXPECT_EQ(doc["verdict"]["stage"], "qat");
    EXPECT_EQ(doc["verdict"]["finding"], "loss.nonfinite");
}

TEST_F(AnalyzeE2e, FailOnSelectsTheExitCode)
{
    // batch scaled without the lr is a warning: exit 0 with the default --fail-on error, 1 with warning
    EXPECT_EQ(runCase("batch_scaled", {"--json"}).code, kExitOk);
    EXPECT_EQ(runCase("batch_scaled", {"--json", "--fail-on", "warning"}).code, kExitFindings);
    // the quantized model at 24.8 % after QAT's 91.3 % is broken: an error, so CI fails by default
    const CliResult w = runCase("quantized_gap", {"--json"});
    EXPECT_EQ(w.code, kExitFindings);
    const json doc = json::parse(w.out);
    EXPECT_TRUE(problemIds(doc).count("qat.quantized_gap"));
    EXPECT_EQ(doc["verdict"]["stage"], "export");
    EXPECT_EQ(runCase("crashed", {"--fail-on", "error"}).code, kExitFindings);
    EXPECT_EQ(runCase("quantized_gap", {"--fail-on", "bogus"}).code, kExitUsage);
}

TEST_F(AnalyzeE2e, ChineseTextAndVerdictLine)
{
    const CliResult r = runCase("calib_low", {"--lang", "zh", "--fail-on", "error"});
    EXPECT_EQ(r.code, kExitOk) << r.err;
    EXPECT_NE(r.out.find("Verdict: 问题最可能始于Calibration 阶段"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("calib.low_accuracy"), std::string::npos);
}

TEST_F(AnalyzeE2e, ThresholdOverrideFile)
{
    const auto path = std::filesystem::temp_directory_path() / "qatdoctor_e2e_thresholds.json";
    std::ofstream(path) << R"({"thresholds": {"quantized_gap.max_drop": 0.9}})";
    const CliResult r = runCase("quantized_gap", {"--json", "--thresholds", path.string()});
    std::filesystem::remove(path);
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_FALSE(problemIds(json::parse(r.out)).count("qat.quantized_gap"));

    const CliResult bad = runCase("healthy", {"--thresholds", "/nonexistent/t.json"});
    EXPECT_EQ(bad.code, kExitUsage);
    EXPECT_NE(bad.err.find("/nonexistent/t.json"), std::string::npos);
}

}  // namespace
}  // namespace qatdoctor::cli
