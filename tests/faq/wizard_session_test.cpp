// Walking the trees: answers, back, restart, topic jumps, automatic answers from a real
// check results (findings added in code; the check engine is not what is tested here) and the JSON.
#include "core/faq/wizard_session.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/faq/wizard_session_json.h"
#include "faq_test_util.h"

using namespace qatdoctor;
using namespace qatdoctor::core::faq;

namespace {

const FaqBase& demo()
{
    static const FaqLoad load = FaqBase::loadDirectory(faqtest::goodFixtureDir());
    return load.base;
}

core::CheckResults analysisWithNanLoss()
{
    core::CheckResults a;
    core::Finding f;
    f.id = "loss.nonfinite";
    f.title = {"loss 出现 NaN", "Loss contains NaN"};
    core::Evidence e;
    e.run = "qat";
    e.file = "logs/qat/train.log";
    e.line = 1234;
    e.step = 1500;
    e.metric = "loss";
    e.value = std::nan("");
    f.evidence.push_back(e);
    a.findings.push_back(f);
    a.checksRun.insert("loss.nonfinite");
    return a;
}

}  // namespace

TEST(WizardSession, AnswersBackAndRestart)
{
    WizardSession s(&demo());
    EXPECT_EQ(s.current(), nullptr);
    ASSERT_TRUE(s.start("demo.loss").ok());
    EXPECT_EQ(s.current()->id, "q_nan");
    ASSERT_TRUE(s.answer("no").ok());
    EXPECT_EQ(s.current()->id, "q_lr");
    ASSERT_TRUE(s.answer("yes").ok());
    ASSERT_TRUE(s.atResult());
    EXPECT_EQ(s.current()->advice.at(0).en, "Use a smaller learning rate");
    ASSERT_EQ(s.path().size(), 2u);
    EXPECT_EQ(s.path()[0].answer, "no");
    EXPECT_FALSE(s.path()[0].automatic);

    EXPECT_EQ(s.answer("yes").error().code, "faq.not_a_question");
    EXPECT_TRUE(s.back());
    EXPECT_EQ(s.current()->id, "q_lr");
    EXPECT_EQ(s.answer("maybe").error().code, "faq.unknown_answer");
    s.restart();
    EXPECT_EQ(s.current()->id, "q_nan");
    EXPECT_TRUE(s.path().empty());
    EXPECT_FALSE(s.back());
    EXPECT_EQ(s.start("demo.nowhere").error().code, "faq.unknown_topic");
}

TEST(WizardSession, AnswerLeadingToAnotherTopicAndLinkJump)
{
    WizardSession s(&demo());
    ASSERT_TRUE(s.start("demo.loss").ok());
    ASSERT_TRUE(s.answer("no").ok());
    ASSERT_TRUE(s.answer("no").ok());  // "topic:demo.export"
    EXPECT_EQ(s.topic()->id, "demo.export");
    EXPECT_EQ(s.current()->id, "r_export");
    // From that result, the related link goes back to demo.loss; back() undoes the jump.
    ASSERT_TRUE(s.jumpTo("demo.loss").ok());
    EXPECT_EQ(s.topic()->id, "demo.loss");
    EXPECT_EQ(s.path().back().jumpTopic, "demo.loss");
    EXPECT_TRUE(s.back());
    EXPECT_EQ(s.current()->id, "r_export");
    s.restart();
    EXPECT_EQ(s.topic()->id, "demo.loss");
    EXPECT_EQ(s.current()->id, "q_nan");
}

TEST(WizardSession, AutoAnswerFound)
{
    const core::CheckResults a = analysisWithNanLoss();
    WizardSession s(&demo());
    ASSERT_TRUE(s.start("demo.loss").ok());
    EXPECT_EQ(s.autoAdvance(a), 1);
    ASSERT_TRUE(s.atResult());
    EXPECT_EQ(s.current()->id, "r_nan");
    const PathStep& step = s.path().at(0);
    EXPECT_TRUE(step.automatic);
    EXPECT_EQ(step.answer, "yes");
    EXPECT_EQ(step.outcome, AutoOutcome::Found);
    ASSERT_EQ(step.evidence.size(), 1u);
    EXPECT_EQ(step.evidence[0].file, "logs/qat/train.log");
    EXPECT_EQ(step.evidence[0].line, 1234);
    EXPECT_TRUE(std::isnan(*step.evidence[0].value));
}

TEST(WizardSession, AutoAnswerClearAndUnknown)
{
    core::CheckResults clear;
    clear.checksRun.insert("loss.nonfinite");
    WizardSession s(&demo());
    ASSERT_TRUE(s.start("demo.loss").ok());
    EXPECT_EQ(s.autoAdvance(clear), 1);
    EXPECT_EQ(s.current()->id, "q_lr");  // manual question: stops here
    EXPECT_EQ(s.path().at(0).answer, "no");
    EXPECT_EQ(s.path().at(0).outcome, AutoOutcome::Clear);
    EXPECT_TRUE(s.path().at(0).evidence.empty());

    const core::CheckResults none;  // no data: the user answers
    ASSERT_TRUE(s.start("demo.loss").ok());
    EXPECT_EQ(s.autoAdvance(none), 0);
    EXPECT_EQ(s.current()->id, "q_nan");
    const AutoAnswer unknown = autoAnswerFor(*s.current(), none);
    EXPECT_EQ(unknown.outcome, AutoOutcome::Unknown);
    EXPECT_EQ(unknown.answer, nullptr);
    EXPECT_FALSE(unknown.notChecked);

    // a check that could not run: still unknown (never "no"), and the question can say why
    core::CheckResults skipped;
    skipped.checksSkipped.push_back(
        {"loss.nonfinite", {"未检查：需要训练 loss", "not checked: needs a training loss"}});
    ASSERT_TRUE(s.start("demo.loss").ok());
    EXPECT_EQ(s.autoAdvance(skipped), 0);
    const AutoAnswer why = autoAnswerFor(*s.current(), skipped);
    EXPECT_EQ(why.outcome, AutoOutcome::Unknown);
    EXPECT_EQ(why.answer, nullptr);
    ASSERT_TRUE(why.notChecked);
    EXPECT_EQ(why.notChecked->en, "not checked: needs a training loss");
}

TEST(WizardSession, OverrideMakesTheQuestionManual)
{
    const core::CheckResults a = analysisWithNanLoss();
    WizardSession s(&demo());
    ASSERT_TRUE(s.start("demo.loss").ok());
    ASSERT_EQ(s.autoAdvance(a), 1);
    ASSERT_TRUE(s.overrideStep(0));
    EXPECT_EQ(s.current()->id, "q_nan");
    EXPECT_TRUE(s.isOverridden("demo.loss", "q_nan"));
    EXPECT_EQ(s.autoAdvance(a), 0);
    ASSERT_TRUE(s.answer("no").ok());
    EXPECT_FALSE(s.path().at(0).automatic);
    EXPECT_EQ(s.current()->id, "q_lr");
}

// Overriding the first of two automatic answers makes that one question manual: once it is
// answered by hand, the next automatic question answers itself again.
TEST(WizardSession, AnOverrideIsOneAnswer)
{
    core::CheckResults clear;
    for (const char* id : {"loss.nonfinite", "float.not_converged", "qat.start_loss_high"})
        clear.checksRun.insert(id);
    WizardSession s(&faqtest::realFaq().base);
    ASSERT_TRUE(s.start("qat.nan_loss").ok());
    ASSERT_GE(s.autoAdvance(clear), 2);
    ASSERT_TRUE(s.overrideStep(0));
    EXPECT_TRUE(s.isOverridden("qat.nan_loss", "q_nonfinite"));
    EXPECT_FALSE(s.isOverridden("qat.nan_loss", "q_float"));
    ASSERT_TRUE(s.answer("no").ok());
    EXPECT_FALSE(s.path().at(0).automatic);
    EXPECT_GE(s.autoAdvance(clear), 1);
    ASSERT_GE(s.path().size(), 2u);
    EXPECT_EQ(s.path().at(1).node, "q_float");
    EXPECT_TRUE(s.path().at(1).automatic);
}

// New data re-checks the walk: an automatic answer the new data gives otherwise undoes the
// walk from there and answers again; data that agrees leaves it as it is.
TEST(WizardSession, NewDataRechecksEveryAutomaticAnswer)
{
    core::CheckResults clear;
    clear.checksRun.insert("loss.nonfinite");
    WizardSession s(&demo());
    ASSERT_TRUE(s.start("demo.loss").ok());
    ASSERT_EQ(s.autoAdvance(clear), 1);
    ASSERT_EQ(s.path().at(0).answer, "no");
    EXPECT_EQ(s.recheck(clear), 0);
    EXPECT_EQ(s.path().size(), 1u);
    const core::CheckResults nan = analysisWithNanLoss();
    EXPECT_EQ(s.recheck(nan), 1);
    ASSERT_GE(s.path().size(), 1u);
    EXPECT_EQ(s.path().at(0).node, "q_nan");
    EXPECT_EQ(s.path().at(0).outcome, AutoOutcome::Found);
    EXPECT_NE(s.path().at(0).answer, "no");
    // no data at all: the old automatic answer is undone, the question waits for the user
    EXPECT_EQ(s.recheck(core::CheckResults{}), 1);
    EXPECT_TRUE(s.path().empty());
    EXPECT_EQ(s.current()->id, "q_nan");
}

TEST(WizardSession, AutoAnswerOnTheRealKnowledgeBase)
{
    const core::CheckResults a = analysisWithNanLoss();
    WizardSession s(&faqtest::realFaq().base);
    ASSERT_TRUE(s.start("qat.nan_loss").ok());
    const Node* first = s.current();
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->autoCheck, "loss.nonfinite");
    EXPECT_GE(s.autoAdvance(a), 1);
    EXPECT_TRUE(s.path().at(0).automatic);
    EXPECT_EQ(s.path().at(0).outcome, AutoOutcome::Found);
}

TEST(WizardSession, JsonRoundTrip)
{
    const core::CheckResults a = analysisWithNanLoss();
    WizardSession s(&demo());
    ASSERT_TRUE(s.start("demo.loss").ok());
    ASSERT_EQ(s.autoAdvance(a), 1);
    ASSERT_TRUE(s.jumpTo("demo.export").ok());
    const nlohmann::json j = sessionToJson(s, demo());
    EXPECT_EQ(j["start"], "demo.loss");
    EXPECT_EQ(j["current"]["node"], "r_export");
    EXPECT_EQ(j["current"]["type"], "result");
    EXPECT_EQ(j["path"][0]["label"]["zh"], "是");
    EXPECT_EQ(j["path"][0]["evidence"][0]["value"], "nan");
    EXPECT_EQ(j["path"][1]["jump"], "demo.export");

    core::Result<WizardSession> back = sessionFromJson(nlohmann::json::parse(j.dump()), &demo());
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(sessionToJson(*back, demo()), j);
    EXPECT_EQ(back->path().at(0).evidence.at(0).line, 1234);
}

TEST(WizardSession, JsonFromAChangedFaqKeepsTheValidPrefix)
{
    nlohmann::json j = {{"start", "demo.loss"},
                        {"path",
                         {{{"topic", "demo.loss"}, {"node", "q_nan"}, {"answer", "no"}},
                          {{"topic", "demo.loss"}, {"node", "q_lr"}, {"answer", "gone"}}}}};
    core::Result<WizardSession> s = sessionFromJson(j, &demo());
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->path().size(), 1u);
    EXPECT_EQ(s->current()->id, "q_lr");
    EXPECT_EQ(sessionFromJson(nlohmann::json::array(), &demo()).error().code, "faq.session");
    EXPECT_EQ(sessionFromJson({{"start", "x.y"}}, &demo()).error().code, "faq.unknown_topic");
}
