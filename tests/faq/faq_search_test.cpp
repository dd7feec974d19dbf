// Search over the real knowledge base, in Chinese and English.
#include "core/faq/faq_search.h"

#include <gtest/gtest.h>

#include "faq_test_util.h"

using namespace qatdoctor;
using namespace qatdoctor::core::faq;

namespace {
bool hasTopic(const std::vector<SearchHit>& hits, const std::string& id)
{
    for (const SearchHit& h : hits)
        if (h.topic->id == id) return true;
    return false;
}
}  // namespace

TEST(FaqSearch, ChineseSubstring)
{
    const FaqBase& base = faqtest::realFaq().base;
    const auto hits = searchFaq(base, "高精度", core::Lang::Zh);
    ASSERT_FALSE(hits.empty());
    EXPECT_TRUE(hits.front().titleHit);
    EXPECT_NE(hits.front().topic->title.zh.find("高精度"), std::string::npos);
    EXPECT_TRUE(hasTopic(hits, "qat.check_high_precision"));

    const auto quant = searchFaq(base, "量化", core::Lang::Zh);
    EXPECT_GE(quant.size(), 5u);
}

TEST(FaqSearch, TitleHitsRankFirst)
{
    const auto hits = searchFaq(faqtest::realFaq().base, "量化", core::Lang::Zh);
    bool seenNonTitle = false;
    for (const SearchHit& h : hits) {
        if (!h.titleHit)
            seenNonTitle = true;
        else
            EXPECT_FALSE(seenNonTitle) << h.topic->id << " is a title hit ranked after a body hit";
    }
}

TEST(FaqSearch, EnglishIsCaseInsensitiveAndMultiTerm)
{
    const FaqBase& base = faqtest::realFaq().base;
    const auto nan = searchFaq(base, "NaN", core::Lang::En);
    ASSERT_FALSE(nan.empty());
    EXPECT_EQ(nan.front().topic->id, "qat.nan_loss");
    const auto gpu = searchFaq(base, "docker gpu", core::Lang::En);
    ASSERT_FALSE(gpu.empty());
    EXPECT_EQ(gpu.front().topic->id.rfind("env.", 0), 0u);
    EXPECT_TRUE(searchFaq(base, "docker zzzqqq", core::Lang::En).empty());
    EXPECT_TRUE(searchFaq(base, "   ", core::Lang::En).empty());
}

TEST(FaqSearch, MatchesEitherLanguageAndSnippetInTheAskedOne)
{
    const FaqBase& base = faqtest::realFaq().base;
    const auto hits = searchFaq(base, "march", core::Lang::Zh);
    ASSERT_FALSE(hits.empty());
    EXPECT_TRUE(hasTopic(hits, "settings.march"));
    // An English query shows Chinese snippets when the display language is Chinese.
    const auto lr = searchFaq(base, "learning rate", core::Lang::Zh);
    ASSERT_FALSE(lr.empty());
    EXPECT_FALSE(lr.front().snippet.empty());
}

TEST(FaqSearch, Utf8Helpers)
{
    EXPECT_EQ(foldAscii("QAT 量化 Loss"), "qat 量化 loss");
    EXPECT_EQ(utf8Prefix("量化训练", 2), "量化\xE2\x80\xA6");
    EXPECT_EQ(utf8Prefix("abc", 5), "abc");
}
