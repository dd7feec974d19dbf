#include <gtest/gtest.h>

#include <sstream>

#include "app/cli/cli_command.h"
#include "tests/cli/cli_run.h"
#include "core/common/version.h"

using namespace qatdoctor::cli;

namespace {
using qatdoctor::cli::test_support::CliRun;
using qatdoctor::cli::test_support::cli;
}  // namespace

TEST(Cli, Version)
{
    CliRun r = cli({"--version"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_EQ(r.out, std::string("qatdoctor-cli ") + qatdoctor::core::kVersion + "\n");
}

TEST(Cli, HelpListsAnalyze)
{
    CliRun r = cli({"--help"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_NE(r.out.find("analyze"), std::string::npos);
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
