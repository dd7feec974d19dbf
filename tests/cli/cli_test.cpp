#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "app/cli/cli_command.h"
#include "core/common/version.h"
#include "tests/cli/cli_run.h"

using namespace qatdoctor::cli;

namespace {
using qatdoctor::cli::test_support::cli;
using qatdoctor::cli::test_support::CliRun;
}  // namespace

TEST(Cli, Version)
{
    CliRun r = cli({"--version"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_EQ(r.out, std::string("qatdoctor-cli ") + qatdoctor::core::kVersion + "\n");
}

TEST(Cli, HelpListsEveryCommandApartFromItsSummary)
{
    CliRun r = cli({"--help"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_NE(r.out.find("analyze"), std::string::npos);
    // the longest name once ran into its summary ("checkpointtorch.save ...")
    std::set<size_t> columns;
    for (const Command& c : commands()) {
        const size_t line = r.out.find("\n  " + std::string(c.name) + " ");
        ASSERT_NE(line, std::string::npos) << c.name << " is listed with a space after it";
        const size_t summary = r.out.find(c.summary, line);
        ASSERT_NE(summary, std::string::npos) << c.name;
        columns.insert(summary - line);
    }
    EXPECT_EQ(columns.size(), 1u) << "the summaries start in one column";
}

TEST(Cli, UnknownCommandIsUsageError)
{
    CliRun r = cli({"frobnicate"});
    EXPECT_EQ(r.code, kExitUsage);
    EXPECT_NE(r.err.find("frobnicate"), std::string::npos);
}

TEST(Cli, BadPathExitsTwoAndNamesThePath)
{
    CliRun r = cli({"analyze", "/no/such/folder/qat_logs"});
    EXPECT_EQ(r.code, kExitUsage);
    EXPECT_NE(r.err.find("/no/such/folder/qat_logs"), std::string::npos);
}

TEST(Cli, UnknownOptionIsUsageError)
{
    CliRun r = cli({"analyze", "--frob", "x"});
    EXPECT_EQ(r.code, kExitUsage);
    EXPECT_NE(r.err.find("--frob"), std::string::npos);
}

TEST(Cli, LogsExplainNamesTheLayoutAndTheSourceLines)
{
    const std::string dir = std::string(QATDOCTOR_SOURCE_DIR) + "/tests/data/logs/wild/mmdet2_text";
    CliRun r = cli({"logs", dir, "--explain"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    // the training loss: both ends, each with its file:line and the line as written
    EXPECT_NE(r.out.find("loss: 8 points, steps 50..430, read as mmdet2_text (mmdetection 2.x text log)"),
              std::string::npos)
        << r.out;
    EXPECT_NE(
        r.out.find("20240312_091544.log:31: 2024-03-12 09:16:15,902 - mmdet - INFO - Epoch [1][50/230]"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("20240312_091544.log:56: "), std::string::npos) << r.out;
    // the JSON carries the same, per run
    CliRun j = cli({"logs", dir, "--explain", "--json"});
    ASSERT_EQ(j.code, kExitOk) << j.err;
    EXPECT_NE(j.out.find("\"layout\": \"mmdet2_text\""), std::string::npos);
    EXPECT_NE(j.out.find("\"line\": 31"), std::string::npos);
    // steps are integers when they are ones (not 50.0)
    EXPECT_NE(j.out.find("\"first_step\": 50,"), std::string::npos);
    EXPECT_EQ(j.out.find("\"first_step\": 50.0"), std::string::npos);
}
