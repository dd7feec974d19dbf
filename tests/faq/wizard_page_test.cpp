// The wizard page driven like a user: search, click answers, read the result, go back, add to
// the report, automatic answers with evidence and Override. Also grabs the page in zh and en
// (question and result) into the build folder so the rendering can be looked at.
#include "ui/pages/wizard_page.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTranslator>
#include <QTreeWidget>

#include "core/faq/faq_base.h"
#include "core/faq/wizard_session.h"
#include "ui/common/app_context.h"

using namespace qatdoctor;
using namespace qatdoctor::ui;

namespace {

// Buttons of a replaced question are deleted later; only the visible ones are live.
template <class W>
W* visible(QWidget& root, const QString& name)
{
    QCoreApplication::processEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    for (W* w : root.findChildren<W*>(name))
        if (w->isVisibleTo(&root)) return w;
    return nullptr;
}

QStringList visibleTexts(QWidget& root, const QString& name)
{
    QCoreApplication::processEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QStringList out;
    for (QLabel* l : root.findChildren<QLabel*>(name))
        if (l->isVisibleTo(&root)) out << l->text();
    return out;
}

// Widgets added to a shown layout appear at the next event-loop turn; grab after it.
QWidget& settled(QWidget& w)
{
    QCoreApplication::processEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return w;
}

void setUp(AppContext& ctx, core::Lang lang)
{
    ctx.setDataDir(QATDOCTOR_SOURCE_DIR);
    ctx.setLang(lang);
}

std::shared_ptr<const core::Analysis> nanAnalysis()
{
    auto a = std::make_shared<core::Analysis>();
    core::Finding f;
    f.id = "loss.nonfinite";
    f.title = {"loss 出现 NaN", "Loss contains NaN"};
    f.faq = "qat.nan_loss";
    core::Evidence e;
    e.run = "qat";
    e.file = "logs/qat/train.log";
    e.line = 1234;
    e.step = 1500;
    e.metric = "loss";
    e.value = std::nan("");
    f.evidence.push_back(e);
    a->findings.push_back(f);
    a->checksRun.insert("loss.nonfinite");
    return a;
}

}  // namespace

TEST(WizardPage, ClicksThroughOnePathToAResult)
{
    AppContext ctx;
    setUp(ctx, core::Lang::En);
    WizardPage page(&ctx);
    page.resize(1100, 760);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));

    auto* search = page.findChild<QLineEdit*>("wizardSearch");
    ASSERT_NE(search, nullptr);
    QTest::keyClicks(search, "NaN");
    auto* tree = page.findChild<QTreeWidget*>("wizardPicker");
    ASSERT_GT(tree->topLevelItemCount(), 0);
    EXPECT_EQ(tree->topLevelItem(0)->data(0, Qt::UserRole).toString(), "qat.nan_loss");
    QTest::keyClick(search, Qt::Key_Return);
    ASSERT_TRUE(page.isWalking());
    EXPECT_EQ(page.session().current()->id, "q_nonfinite");

    QTest::mouseClick(visible<QPushButton>(page, "answer_yes"), Qt::LeftButton);
    EXPECT_EQ(page.session().current()->id, "q_data");
    QTest::mouseClick(visible<QPushButton>(page, "answer_yes"), Qt::LeftButton);
    ASSERT_TRUE(page.session().atResult());
    EXPECT_EQ(page.session().current()->id, "r_data");

    // The advice shown is the knowledge base's advice for this result.
    const auto faq = core::faq::FaqBase::loadDirectory(std::string(QATDOCTOR_SOURCE_DIR) + "/faq");
    const core::faq::Node* r = faq.base.node("qat.nan_loss", "r_data");
    ASSERT_NE(r, nullptr);
    const QStringList advice = visibleTexts(page, "adviceText");
    ASSERT_EQ(advice.size(), static_cast<qsizetype>(r->advice.size()));
    EXPECT_EQ(advice[0], "1. " + QString::fromStdString(r->advice[0].en));
    EXPECT_TRUE(advice[0].contains("First make sure the input data has no abnormal values"));
    EXPECT_TRUE(visibleTexts(page, "wizardBreadcrumb").join("").contains("Symptoms"));

    // The walk is in the page state (the session file keeps it).
    QJsonObject state = ctx.pageState("wizard");
    EXPECT_EQ(state["view"].toString(), "walk");
    EXPECT_EQ(state["session"].toObject()["current"].toObject()["node"].toString(), "r_data");
    EXPECT_EQ(state["session"].toObject()["path"].toArray().size(), 2);

    // Add to report, then a rebuilt page (language switch) restores the same place.
    QTest::mouseClick(visible<QPushButton>(page, "addToReport"), Qt::LeftButton);
    state = ctx.pageState("wizard");
    ASSERT_EQ(state["reportItems"].toArray().size(), 1);
    EXPECT_EQ(state["reportItems"].toArray()[0].toObject()["node"].toString(), "r_data");
    EXPECT_FALSE(visible<QPushButton>(page, "addToReport")->isEnabled());
    WizardPage rebuilt(&ctx);
    EXPECT_TRUE(rebuilt.isWalking());
    EXPECT_EQ(rebuilt.session().current()->id, "r_data");

    // Back (button and keyboard) and Restart.
    QTest::mouseClick(visible<QPushButton>(page, "wizardBack"), Qt::LeftButton);
    EXPECT_EQ(page.session().current()->id, "q_data");
    QTest::mouseClick(visible<QPushButton>(page, "wizardRestart"), Qt::LeftButton);
    EXPECT_EQ(page.session().current()->id, "q_nonfinite");
    EXPECT_TRUE(page.session().path().empty());
}

// New session (page state restored to {}) forgets the walk and the report items; another
// analysis re-checks the automatic answers instead of keeping the old project's.
TEST(WizardPage, ANewSessionOrNewDataLeavesNoStaleAnswers)
{
    AppContext ctx;
    setUp(ctx, core::Lang::En);
    ctx.setAnalysis(nanAnalysis());
    WizardPage page(&ctx);
    page.focusOn(NavigationTarget{.page = "wizard", .faqTopic = "qat.nan_loss"});
    ASSERT_FALSE(page.session().path().empty());
    EXPECT_TRUE(page.session().path().at(0).automatic);
    EXPECT_EQ(page.session().path().at(0).answer, "yes");

    auto clean = std::make_shared<core::Analysis>();  // another project: its loss is finite
    clean->checksRun.insert("loss.nonfinite");
    ctx.setAnalysis(clean);
    ASSERT_FALSE(page.session().path().empty());
    EXPECT_EQ(page.session().path().at(0).answer, "no") << "the walk must follow the new data";

    ctx.restorePageState({});  // File > New session
    EXPECT_FALSE(page.isWalking());
    EXPECT_FALSE(page.session().started());
    EXPECT_TRUE(ctx.pageState("wizard").value("reportItems").toArray().isEmpty());
}

TEST(WizardPage, KeyboardAnswersAndBack)
{
    AppContext ctx;
    setUp(ctx, core::Lang::En);
    WizardPage page(&ctx);
    page.resize(1000, 700);
    page.show();
    page.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&page));
    page.focusOn(NavigationTarget{.page = "wizard", .faqTopic = "qat.nan_loss"});
    ASSERT_EQ(page.session().current()->id, "q_nonfinite");
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_2);  // "No, the loss has no NaN / Inf"
    EXPECT_EQ(page.session().current()->id, "q_float");
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backspace);
    EXPECT_EQ(page.session().current()->id, "q_nonfinite");
    // Down to a result with keys, and back from the result with Alt+Left.
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_1);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_1);
    ASSERT_TRUE(page.session().atResult());
    ASSERT_NE(QApplication::focusWidget(), nullptr);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Left, Qt::AltModifier);
    EXPECT_EQ(page.session().current()->id, "q_data");
}

TEST(WizardPage, TheSymptomListStartsWhereTheFindingsPoint)
{
    AppContext ctx;
    setUp(ctx, core::Lang::En);
    WizardPage page(&ctx);
    page.resize(1100, 760);
    page.show();
    auto* tree = page.findChild<QTreeWidget*>("wizardPicker");
    ASSERT_NE(tree, nullptr);
    EXPECT_EQ(tree->topLevelItem(0)->text(0), "Most common") << "no findings yet";
    ctx.setAnalysis(nanAnalysis());
    QTreeWidgetItem* fromData = tree->topLevelItem(0);
    EXPECT_EQ(fromData->text(0), "Named by your findings");
    ASSERT_GE(fromData->childCount(), 1);
    EXPECT_EQ(fromData->child(0)->data(0, Qt::UserRole).toString(), "qat.nan_loss");
    EXPECT_FALSE(fromData->child(0)->text(1).isEmpty()) << "the findings' titles";
    EXPECT_EQ(tree->currentItem(), fromData->child(0));
    // one click selects; a double-click opens the topic
    const QRect at = tree->visualItemRect(fromData->child(0));
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, at.center());
    EXPECT_FALSE(page.isWalking());
    QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, at.center());
    EXPECT_TRUE(page.isWalking());
}

TEST(WizardPage, AutoAnswerShowsEvidenceAndCanBeOverridden)
{
    AppContext ctx;
    setUp(ctx, core::Lang::En);
    ctx.setAnalysis(nanAnalysis());
    WizardPage page(&ctx);
    page.resize(1100, 760);
    page.show();
    page.focusOn(NavigationTarget{.page = "wizard", .faqTopic = "qat.nan_loss"});
    ASSERT_EQ(page.session().path().size(), 1u);
    EXPECT_TRUE(page.session().path()[0].automatic);
    EXPECT_EQ(page.session().current()->id, "q_data");

    auto* evidence = visible<QListWidget>(page, "autoEvidence");
    ASSERT_NE(evidence, nullptr);
    ASSERT_EQ(evidence->count(), 1);
    EXPECT_TRUE(evidence->item(0)->text().contains("train.log:1234"))
        << evidence->item(0)->text().toStdString();
    EXPECT_TRUE(evidence->item(0)->text().contains("step 1500"));
    EXPECT_TRUE(evidence->item(0)->text().contains("loss = NaN"));

    QSignalSpy nav(&ctx, &AppContext::navigationRequested);
    const QPoint at = evidence->visualItemRect(evidence->item(0)).center();
    QTest::mouseClick(evidence->viewport(), Qt::LeftButton, {}, at);
    EXPECT_EQ(nav.count(), 0) << "one click selects, it never changes the page";
    QTest::mouseDClick(evidence->viewport(), Qt::LeftButton, {}, at);
    ASSERT_EQ(nav.count(), 1);
    const auto target = nav.at(0).at(0).value<NavigationTarget>();
    EXPECT_EQ(target.page, "curves");
    EXPECT_EQ(target.run, "qat");
    EXPECT_EQ(target.step, 1500.0);

    QTest::mouseClick(visible<QPushButton>(page, "overrideAuto"), Qt::LeftButton);
    EXPECT_EQ(page.session().current()->id, "q_nonfinite");
    EXPECT_TRUE(page.session().path().empty());
    QTest::mouseClick(visible<QPushButton>(page, "answer_no"), Qt::LeftButton);
    EXPECT_FALSE(page.session().path()[0].automatic);
}

TEST(WizardPage, AQuestionItsCheckCouldNotAnswerSaysWhatItNeeded)
{
    AppContext ctx;
    setUp(ctx, core::Lang::En);
    auto a = std::make_shared<core::Analysis>();
    a->checksSkipped.push_back(
        {"loss.nonfinite", {"未检查：需要训练 loss", "not checked: needs a training loss"}});
    ctx.setAnalysis(a);
    WizardPage page(&ctx);
    page.resize(1100, 760);
    page.show();
    page.focusOn(NavigationTarget{.page = "wizard", .faqTopic = "qat.nan_loss"});
    EXPECT_TRUE(page.session().path().empty());  // unknown: never answered for the user
    EXPECT_EQ(page.session().current()->id, "q_nonfinite");
    const QStringList hint = visibleTexts(page, "questionAutoHint");
    ASSERT_EQ(hint.size(), 1);
    EXPECT_TRUE(hint[0].contains("not checked: needs a training loss")) << hint[0].toStdString();
    EXPECT_TRUE(hint[0].contains("loss.nonfinite")) << hint[0].toStdString();
}

// Grabs question and result pages in both languages for a human to look at.
TEST(WizardPage, Screenshots)
{
    const QString dir = QString(QATDOCTOR_SHOT_DIR);
    QDir().mkpath(dir);
    for (core::Lang lang : {core::Lang::Zh, core::Lang::En}) {
        // The chrome in Chinese too, as the app shows it (translations embedded in qatdoctor_ui).
        QTranslator zh;
        if (lang == core::Lang::Zh && zh.load(":/i18n/qatdoctor_zh_CN.qm"))
            QCoreApplication::installTranslator(&zh);
        AppContext ctx;
        setUp(ctx, lang);
        ctx.setAnalysis(nanAnalysis());
        WizardPage page(&ctx);
        page.resize(1100, 760);
        page.show();
        ASSERT_TRUE(settled(page).grab().save(dir + "/wizard_picker_" + core::langCode(lang) + ".png"));
        page.focusOn(NavigationTarget{.page = "wizard", .faqTopic = "qat.nan_loss"});
        ASSERT_TRUE(settled(page).grab().save(dir + "/wizard_question_" + core::langCode(lang) + ".png"));
        page.focusOn(NavigationTarget{.page = "wizard", .faqTopic = "settings.output_high_precision"});
        for (int i = 0; i < 6 && !page.session().atResult(); ++i)
            QTest::mouseClick(visible<QPushButton>(page, "answer_yes")
                                  ? visible<QPushButton>(page, "answer_yes")
                                  : page.findChildren<QPushButton*>().last(),
                              Qt::LeftButton);
        QCoreApplication::processEvents();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        ASSERT_TRUE(settled(page).grab().save(dir + "/wizard_result_" + core::langCode(lang) + ".png"));
    }
}
