// Each fixture in tests/data/faq_bad/<case>/ carries exactly one kind of mistake; the manifest
// (written by tests/gen/make_faq_bad.py) says which error, where, and what it must say.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/common/file_io.h"
#include "core/faq/faq_base.h"
#include "core/faq/faq_parser.h"
#include "faq_test_util.h"

using namespace qatdoctor;
using namespace qatdoctor::core::faq;

namespace {

struct BadCase {
    std::string name, file, code, pointer, message;
};

std::vector<BadCase> badCases()
{
    std::vector<BadCase> out;
    auto text = core::readFile(faqtest::badFixtureDir() + "/MANIFEST.json");
    if (!text) return out;
    for (const auto& row : nlohmann::json::parse(*text))
        out.push_back({row["case"], row["file"], row["code"], row["pointer"], row["message"]});
    return out;
}

class FaqBadTree : public ::testing::TestWithParam<BadCase> {};

}  // namespace

TEST(FaqValidator, GoodFixtureHasNoErrors)
{
    FaqLoad load = FaqBase::loadDirectory(faqtest::goodFixtureDir());
    for (const core::Error& e : load.errors) ADD_FAILURE() << e.toString();
    EXPECT_EQ(load.base.topics().size(), 2u);
}

TEST(FaqValidator, ManifestListsEveryCase)
{
    EXPECT_EQ(badCases().size(), 19u);
}

TEST_P(FaqBadTree, ReportsExactlyTheExpectedError)
{
    const BadCase& c = GetParam();
    const std::string dir = faqtest::badFixtureDir() + "/" + c.name;
    FaqLoad load = FaqBase::loadDirectory(dir);
    ASSERT_EQ(load.errors.size(), 1u) << [&] {
        std::string all;
        for (const core::Error& e : load.errors) all += e.toString() + "\n";
        return all;
    }();
    const core::Error& e = load.errors[0];
    EXPECT_EQ(e.code, c.code);
    EXPECT_EQ(e.file, dir + "/" + c.file);
    if (!c.pointer.empty()) EXPECT_EQ(e.message.rfind(c.pointer + ": ", 0), 0u) << e.message;
    EXPECT_NE(e.message.find(c.message), std::string::npos) << e.message;
    // The one-line form the CLI prints starts with the file name.
    EXPECT_EQ(e.toString().rfind(dir + "/" + c.file, 0), 0u) << e.toString();
}

INSTANTIATE_TEST_SUITE_P(Cases, FaqBadTree, ::testing::ValuesIn(badCases()),
                         [](const auto& info) { return info.param.name; });

TEST(FaqValidator, DanglingNextMessageHasFileAndPointer)
{
    const std::string dir = faqtest::badFixtureDir() + "/dangling_next";
    FaqLoad load = FaqBase::loadDirectory(dir);
    ASSERT_EQ(load.errors.size(), 1u);
    EXPECT_EQ(load.errors[0].toString(),
              dir + "/10_demo.json: /topics/0/nodes/1/answers/2/next: unknown node 'r_missing'");
}

TEST(FaqValidator, InlineSourcesAndDuplicateIdsAcrossFiles)
{
    auto good = core::readFile(faqtest::goodFixtureDir() + "/10_demo.json");
    ASSERT_TRUE(good.ok());
    std::string second = *good;
    // Same topics in a second category file: every topic id is now used twice.
    for (auto p = second.find("\"order\": 10"); p != std::string::npos; p = std::string::npos)
        second.replace(p, 11, "\"order\": 20");
    for (auto p = second.find("\"id\": \"demo\""); p != std::string::npos; p = std::string::npos)
        second.replace(p, 12, "\"id\": \"demo2\"");
    FaqLoad load = FaqBase::fromSources({{"a/10_demo.json", *good}, {"a/20_demo.json", second}});
    ASSERT_EQ(load.errors.size(), 2u);
    for (const core::Error& e : load.errors) {
        EXPECT_EQ(e.code, "faq.duplicate_id");
        EXPECT_EQ(e.file, "a/20_demo.json");
        EXPECT_NE(e.message.find("already used in a/10_demo.json"), std::string::npos) << e.message;
    }
}

TEST(FaqValidator, HostileSizesAreRefusedWithAnError)
{
    FaqLoad big = FaqBase::fromSources({{"x/10_big.json", std::string(kMaxFileBytes + 1, ' ')}});
    ASSERT_EQ(big.errors.size(), 1u);
    EXPECT_EQ(big.errors[0].code, "faq.too_large");
    EXPECT_EQ(big.errors[0].file, "x/10_big.json");
    EXPECT_TRUE(big.base.empty());

    FaqLoad notObject = FaqBase::fromSources({{"x/10_list.json", "[1, 2, 3]"}});
    ASSERT_EQ(notObject.errors.size(), 1u);
    EXPECT_EQ(notObject.errors[0].toString(), "x/10_list.json: /: expected a JSON object");
}
