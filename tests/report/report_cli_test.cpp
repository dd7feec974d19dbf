// `qatdoctor-cli analyze --report` through the CLI library (no Qt): HTML/JSON written, an existing
// file kept without --force (exit 2 naming it), unwritable paths exit 2, PDF without the GUI hook
// says it needs the GUI build.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli/cli_command.h"
#include "core/common/file_io.h"
#include "core/faq/faq_base.h"
#include "core/faq/wizard_session.h"
#include "core/faq/wizard_session_json.h"
#include "report_test_support.h"
#include "tests/cli/cli_run.h"

namespace qatdoctor {
namespace {

using namespace report_test;

using cli::test_support::cli;
using cli::test_support::CliRun;

class ReportCli : public ::testing::Test {
protected:
    void SetUp() override { m_dir = makeTempDir("qatdoctor-report-cli"); }
    void TearDown() override { std::filesystem::remove_all(m_dir); }
    std::string m_dir;
};

TEST_F(ReportCli, WritesHtmlAndRefusesToOverwriteWithoutForce)
{
    const std::string path = m_dir + "/demo.html";
    const std::string logs = sourceDir("resources/demo/logs");
    CliRun first = cli({"analyze", logs, "--report", path, "--lang", "zh", "--fail-on", "error"});
    EXPECT_NE(first.code, cli::kExitUsage) << first.err;
    const std::string written = *core::readFile(path);
    EXPECT_NE(written.find("lang=\"zh-CN\""), std::string::npos);
    EXPECT_NE(written.find("训练曲线"), std::string::npos);

    CliRun again = cli({"analyze", logs, "--report", path});
    EXPECT_EQ(again.code, cli::kExitUsage);
    EXPECT_NE(again.err.find(path), std::string::npos) << again.err;
    EXPECT_NE(again.err.find("--force"), std::string::npos) << again.err;
    EXPECT_EQ(*core::readFile(path), written);

    CliRun forced = cli({"analyze", logs, "--report", path, "--force", "--lang", "en"});
    EXPECT_NE(forced.code, cli::kExitUsage) << forced.err;
    EXPECT_NE(core::readFile(path)->find("lang=\"en\""), std::string::npos);
}

TEST_F(ReportCli, UnwritablePathIsExitTwoWithTheName)
{
    const std::string path = "/nonexistent-qatdoctor/out.html";
    CliRun r = cli({"analyze", sourceDir("resources/demo/logs"), "--report", path});
    EXPECT_EQ(r.code, cli::kExitUsage);
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
}

TEST_F(ReportCli, JsonReportIsTheAnalyzeJson)
{
    const std::string path = m_dir + "/a.json";
    CliRun r = cli({"analyze", testData("runs/healthy"), "--report", path});
    EXPECT_NE(r.code, cli::kExitUsage) << r.err;
    EXPECT_NE(core::readFile(path)->find("\"findings\""), std::string::npos);
}

TEST_F(ReportCli, PdfWithoutTheGuiHookSaysItNeedsTheGuiBuild)
{
    const std::string path = m_dir + "/a.pdf";
    CliRun r = cli({"analyze", testData("runs/healthy"), "--report", path});
    EXPECT_EQ(r.code, cli::kExitUsage);
    EXPECT_NE(r.err.find("GUI build"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(path));
}

// --simulate: the fixed-point results join the JSON, the findings and the report.
TEST_F(ReportCli, SimulateAddsTheSimulationToJsonAndReport)
{
    const std::string model = testData("fixedpoint/lut_qdq.onnx");
    CliRun json = cli({"analyze", model, "--simulate", "--seed", "3", "--json"});
    ASSERT_NE(json.code, cli::kExitUsage) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    ASSERT_TRUE(j["simulation"].is_object());
    EXPECT_EQ(j["simulation"]["inputs"][0]["source"], "random(seed=3)");
    EXPECT_EQ(j["simulation"]["layers"].size(), 4u);
    EXPECT_NE(std::find(j["checks_run"].begin(), j["checks_run"].end(), "simulation.lut_error"),
              j["checks_run"].end());
    CliRun plain = cli({"analyze", model, "--json"});
    EXPECT_TRUE(nlohmann::json::parse(plain.out)["simulation"].is_null());

    const std::string html = m_dir + "/sim.html";
    CliRun report = cli({"analyze", model, "--simulate", "--sensitivity", "--report", html});
    ASSERT_NE(report.code, cli::kExitUsage) << report.err;
    EXPECT_NE(report.out.find("Simulation: 4 layers compared"), std::string::npos) << report.out;
    const std::string text = *core::readFile(html);
    for (const char* want : {"Per-layer agreement", "Look-up tables", "int16 sensitivity", "tanh"})
        EXPECT_NE(text.find(want), std::string::npos) << want;
}

TEST_F(ReportCli, SimulateOptionsAreCheckedAndNeedAnOnnxModel)
{
    CliRun seedAlone = cli({"analyze", testData("models/qat_qdq.onnx"), "--seed", "1"});
    EXPECT_EQ(seedAlone.code, cli::kExitUsage);
    EXPECT_NE(seedAlone.err.find("--simulate"), std::string::npos) << seedAlone.err;
    CliRun noModel = cli({"analyze", testData("runs/healthy"), "--simulate"});
    EXPECT_EQ(noModel.code, cli::kExitUsage);
    EXPECT_NE(noModel.err.find("no ONNX model"), std::string::npos) << noModel.err;
    CliRun badInput = cli(
        {"analyze", testData("models/qat_qdq.onnx"), "--simulate", "--sim-input", m_dir + "/missing.npy"});
    EXPECT_EQ(badInput.code, cli::kExitUsage);
    EXPECT_NE(badInput.err.find("missing.npy"), std::string::npos) << badInput.err;
    // a model the simulator cannot run (Horizon's own quantize ops) still gets its other checks
    CliRun horizon = cli({"analyze", testData("models/hz_qat.onnx"), "--simulate", "--json"});
    ASSERT_NE(horizon.code, cli::kExitUsage) << horizon.err;
    EXPECT_NE(horizon.err.find("--simulate skipped"), std::string::npos) << horizon.err;
    const auto j = nlohmann::json::parse(horizon.out);
    EXPECT_TRUE(j["simulation"].is_null());
    EXPECT_FALSE(j["model"].is_null());
    bool warned = false;
    for (const auto& w : j["warnings"])
        if (w.dump().find("fixed-point simulation skipped") != std::string::npos &&
            w.dump().find("HzQuantize") != std::string::npos)
            warned = true;
    EXPECT_TRUE(warned) << j["warnings"].dump();
    CliRun help = cli({"analyze", "--bogus"});
    EXPECT_NE(help.err.find("--simulate"), std::string::npos);
    EXPECT_NE(help.err.find("--wizard FILE"), std::string::npos);
}

// --wizard FILE: a saved session's wizard walk shows in the report made by the CLI.
TEST_F(ReportCli, WizardSessionFileShowsInTheReport)
{
    const core::faq::FaqLoad faq = core::faq::FaqBase::loadDirectory(sourceDir("faq"));
    ASSERT_FALSE(faq.base.topics().empty());
    core::faq::WizardSession walk(&faq.base);
    ASSERT_TRUE(walk.start(faq.base.topics().front().id));
    const core::faq::Node* q = walk.current();
    ASSERT_TRUE(q && !q->answers.empty());
    ASSERT_TRUE(walk.answer(q->answers.front().id));
    const nlohmann::json session = {
        {"format", "qatdoctor-session"},
        {"version", 1},
        {"inputs", {sourceDir("resources/demo/logs")}},
        {"pages", {{"wizard", {{"version", 1}, {"session", core::faq::sessionToJson(walk, faq.base)}}}}}};
    const std::string sessionPath = m_dir + "/work.qatdoctor";
    ASSERT_TRUE(core::writeFileAtomic(sessionPath, session.dump(2), false));
    const std::string html = m_dir + "/wizard.html";
    CliRun r = cli({"analyze", sourceDir("resources/demo/logs"), "--report", html, "--wizard", sessionPath});
    ASSERT_NE(r.code, cli::kExitUsage) << r.err;
    const std::string text = *core::readFile(html);
    EXPECT_NE(text.find("Path taken"), std::string::npos);
    EXPECT_EQ(text.find("The symptom wizard was not used"), std::string::npos);
    EXPECT_NE(text.find(q->answers.front().label.en), std::string::npos) << q->answers.front().label.en;

    // A bare walk works too; a file that is none of these is exit 2 naming it, before any work.
    ASSERT_TRUE(
        core::writeFileAtomic(m_dir + "/walk.json", core::faq::sessionToJson(walk, faq.base).dump(), false));
    CliRun bare = cli({"analyze", sourceDir("resources/demo/logs"), "--report", m_dir + "/bare.html",
                       "--wizard", m_dir + "/walk.json"});
    EXPECT_NE(bare.code, cli::kExitUsage) << bare.err;
    EXPECT_NE(core::readFile(m_dir + "/bare.html")->find("Path taken"), std::string::npos);
    ASSERT_TRUE(core::writeFileAtomic(m_dir + "/bad.json", "{\"runs\": [", false));
    CliRun bad = cli({"analyze", sourceDir("resources/demo/logs"), "--report", m_dir + "/bad.html",
                      "--wizard", m_dir + "/bad.json"});
    EXPECT_EQ(bad.code, cli::kExitUsage);
    EXPECT_NE(bad.err.find(m_dir + "/bad.json"), std::string::npos) << bad.err;
    EXPECT_FALSE(std::filesystem::exists(m_dir + "/bad.html"));
    CliRun noReport = cli({"analyze", sourceDir("resources/demo/logs"), "--wizard", sessionPath});
    EXPECT_EQ(noReport.code, cli::kExitUsage);
}

}  // namespace
}  // namespace qatdoctor
