// `qatdoctor-cli analyze --report` through the CLI library (no Qt): HTML/JSON written, an existing
// file kept without --force (exit 2 naming it), unwritable paths exit 2, PDF without the GUI hook
// says it needs the GUI build.
#include <gtest/gtest.h>

#include <sstream>

#include "app/cli/cli_command.h"
#include "core/common/file_io.h"
#include "report_test_support.h"

namespace qatdoctor {
namespace {

using namespace report_test;

struct CliRun {
    int code = 0;
    std::string out, err;
};

CliRun cli(std::vector<std::string> args)
{
    std::ostringstream out, err;
    CliRun r;
    r.code = cli::runCli(args, {out, err});
    r.out = out.str();
    r.err = err.str();
    return r;
}

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

}  // namespace
}  // namespace qatdoctor
