#include <gtest/gtest.h>

#include <sstream>

#include "app/cli/cli_command.h"
#include "core/common/version.h"

using namespace qatdoctor::cli;

namespace {
struct CliRun {
    int code;
    std::string out, err;
};
CliRun cli(std::vector<std::string> args)
{
    std::ostringstream out, err;
    const int code = runCli(args, {out, err});
    return {code, out.str(), err.str()};
}
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
