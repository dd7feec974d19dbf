// The real knowledge base: loads without problems, covers every seed question, and every topic
// can be reached from the picker.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "core/common/file_io.h"
#include "core/faq/check_ids.h"
#include "faq_test_util.h"

using namespace qatdoctor;
using namespace qatdoctor::core::faq;

namespace {

// Question headings of the 000 seed: '#' glued to the text, ending with the full-width '？'
// (code comments inside snippets are "# " with a space; line 1 is the document title).
// The seed FAQs are the company's documents, kept beside the repository (a folder "shared/seeds"
// next to the checkout) or where QATDOCTOR_SEEDS_DIR says; nullopt when neither has them.
std::optional<std::string> seedFolder()
{
    if (const char* env = std::getenv("QATDOCTOR_SEEDS_DIR"); env && *env) return std::string(env);
    const auto beside = std::filesystem::path(QATDOCTOR_SOURCE_DIR).parent_path() / "shared" / "seeds";
    if (std::filesystem::is_directory(beside)) return beside.string();
    return std::nullopt;
}

std::vector<std::string> seedQuestionHeadings(const std::string& folder)
{
    auto text = core::readFile(folder + "/000_c0310bce0ec06bbb.txt");
    std::vector<std::string> out;
    if (!text) return out;
    std::istringstream in(*text);
    std::string line;
    const std::regex heading("^#([^#\\s].*)$");
    for (int n = 1; std::getline(in, line); ++n) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::smatch m;
        if (n > 1 && std::regex_match(line, m, heading) && m[1].str().ends_with("？"))
            out.push_back(m[1].str());
    }
    return out;
}

}  // namespace

TEST(FaqBase, RealKnowledgeBaseIsValid)
{
    const FaqLoad& load = faqtest::realFaq();
    for (const core::Error& e : load.errors) ADD_FAILURE() << e.toString();
    EXPECT_EQ(load.fileCount, 7u);
    EXPECT_EQ(load.base.categories().size(), 7u);
    EXPECT_EQ(load.base.topics().size(), 28u);
}

TEST(FaqBase, CategoriesInOrderWithChineseTitles)
{
    const auto& cats = faqtest::realFaq().base.categories();
    ASSERT_EQ(cats.size(), 7u);
    EXPECT_EQ(cats.front().title.zh, "训练环境");
    EXPECT_EQ(cats[1].title.zh, "QAT 量化训练");
    EXPECT_EQ(cats.back().title.zh, "模型导出");
    for (size_t i = 1; i < cats.size(); ++i) EXPECT_LT(cats[i - 1].order, cats[i].order);
}

TEST(FaqBase, EverySeedQuestionIsATopicReachableFromThePicker)
{
    const std::optional<std::string> seeds = seedFolder();
    if (!seeds)
        GTEST_SKIP() << "the seed FAQs are not beside the checkout (a folder shared/seeds next to it) and "
                        "QATDOCTOR_SEEDS_DIR "
                        "is not set: the coverage of every seed question is not checked";
    const FaqBase& base = faqtest::realFaq().base;
    const std::vector<std::string> headings = seedQuestionHeadings(*seeds);
    ASSERT_EQ(headings.size(), 27u) << "the 000 seed has 27 question headings";
    std::set<const Topic*> inPicker;
    for (const Category& c : base.categories())
        for (const Topic* t : base.topicsOf(c)) inPicker.insert(t);
    for (const std::string& h : headings) {
        const Topic* found = nullptr;
        for (const Topic& t : base.topics())
            if (t.source.file == "000_c0310bce0ec06bbb.txt" && t.source.heading == h) found = &t;
        ASSERT_NE(found, nullptr) << "no topic for seed heading: " << h;
        EXPECT_TRUE(inPicker.count(found)) << found->id << " is not listed in the picker";
        EXPECT_NE(found->node(found->start), nullptr) << found->id;
    }
    bool multiGpu = false;
    for (const Topic& t : base.topics())
        multiGpu = multiGpu || (t.source.file == "004_6404d1e51eaf44d3.txt" &&
                                t.source.heading.find("Calibration 过程使用多卡") != std::string::npos);
    EXPECT_TRUE(multiGpu) << "004's multi-GPU calibration mistake is not a topic";
}

TEST(FaqBase, PickerSortsByPopularity)
{
    const FaqBase& base = faqtest::realFaq().base;
    for (const Category& c : base.categories()) {
        const auto topics = base.topicsOf(c);
        EXPECT_EQ(topics.size(), c.topicIds.size());
        for (size_t i = 1; i < topics.size(); ++i)
            EXPECT_GE(topics[i - 1]->popularity, topics[i]->popularity);
    }
    const auto all = base.topicsByPopularity();
    ASSERT_EQ(all.size(), 28u);
    EXPECT_EQ(all.front()->popularity, 10);
}

TEST(FaqBase, EveryAutoIdInTheDataIsKnownAndTheListMatchesTheSchema)
{
    auto schema = core::readFile(faqtest::realFaqDir() + "/schema.json");
    ASSERT_TRUE(schema.ok());
    for (std::string_view id : knownCheckIds())
        EXPECT_NE(schema->find("\"" + std::string(id) + "\""), std::string::npos)
            << id << " missing in schema.json";
    size_t autoQuestions = 0;
    for (const Topic& t : faqtest::realFaq().base.topics())
        for (const Node& n : t.nodes)
            if (!n.autoCheck.empty()) {
                ++autoQuestions;
                EXPECT_TRUE(isKnownCheckId(n.autoCheck)) << n.autoCheck;
            }
    EXPECT_GT(autoQuestions, 10u);
    EXPECT_FALSE(isKnownCheckId("loss.bogus"));
}

TEST(FaqBase, LookupByIdAndMissingFolder)
{
    const FaqBase& base = faqtest::realFaq().base;
    const Topic* t = base.topic("qat.nan_loss");
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->source.heading, "QAT 初始 loss 很大、训练中出现 NAN / INF，应如何处理？");
    EXPECT_EQ(base.topic("no.such.topic"), nullptr);
    FaqLoad missing = FaqBase::loadDirectory("/no/such/faq");
    ASSERT_EQ(missing.errors.size(), 1u);
    EXPECT_EQ(missing.errors[0].code, "faq.no_dir");
    EXPECT_EQ(missing.errors[0].file, "/no/such/faq");
}
