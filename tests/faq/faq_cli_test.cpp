// qatdoctor-cli faq: list / show / search / validate (exit codes and one-line errors).
#include <gtest/gtest.h>

#include <sstream>

#include "app/cli/cli_command.h"
#include "faq_test_util.h"
#include "tests/cli/cli_run.h"

using namespace qatdoctor;
using namespace qatdoctor::cli;

namespace {
using test_support::CliRun;
CliRun runFaqCli(std::vector<std::string> args)
{
    return test_support::cli(std::move(args));
}
}  // namespace

TEST(FaqCli, ValidateRealFaq)
{
    CliRun r = runFaqCli({"faq", "validate", faqtest::realFaqDir()});
    EXPECT_EQ(r.code, kExitOk) << r.out << r.err;
    EXPECT_NE(r.out.find("OK: 7 files, 7 categories, 28 topics"), std::string::npos) << r.out;
}

TEST(FaqCli, ValidateDefaultFolderFindsTheSourceTree)
{
    CliRun r = runFaqCli({"faq", "validate"});
    EXPECT_EQ(r.code, kExitOk) << r.out << r.err;
}

TEST(FaqCli, ValidateBadTreeExitsTwoWithFileAndPointer)
{
    const std::string dir = faqtest::badFixtureDir() + "/dangling_next";
    CliRun r = runFaqCli({"faq", "validate", dir});
    EXPECT_EQ(r.code, kExitUsage);
    EXPECT_EQ(r.out, dir + "/10_demo.json: /topics/0/nodes/1/answers/2/next: unknown node 'r_missing'\n");
}

TEST(FaqCli, ListInChinese)
{
    CliRun r = runFaqCli({"faq", "list", "--lang", "zh", "--faq-dir", faqtest::realFaqDir()});
    EXPECT_EQ(r.code, kExitOk) << r.err;
    EXPECT_NE(r.out.find("训练环境 (environment)"), std::string::npos) << r.out.substr(0, 300);
    EXPECT_NE(r.out.find("qat.nan_loss"), std::string::npos);
}

TEST(FaqCli, ShowAndSearch)
{
    CliRun show = runFaqCli({"faq", "show", "qat.nan_loss", "--faq-dir", faqtest::realFaqDir()});
    EXPECT_EQ(show.code, kExitOk) << show.err;
    EXPECT_NE(show.out.find("(auto: loss.nonfinite)"), std::string::npos);
    EXPECT_NE(show.out.find("Advice:"), std::string::npos);
    EXPECT_EQ(runFaqCli({"faq", "show", "no.such"}).code, kExitUsage);

    CliRun search = runFaqCli({"faq", "search", "高精度", "--lang", "zh"});
    EXPECT_EQ(search.code, kExitOk) << search.err;
    EXPECT_NE(search.out.find("qat.check_high_precision"), std::string::npos) << search.out;
    EXPECT_EQ(runFaqCli({"faq"}).code, kExitUsage);
}
