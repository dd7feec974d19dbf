// Dtype expectations set on the Model page live in the session: set one in a main window, save
// the session (File > Save session), open it in a fresh window with its own context, and find
// the expectation and its model.int16_not_applied finding again. Offscreen (label gui); main()
// (tests/gui_test_main.cpp) points QSettings / autosave at a temporary folder.
#include <gtest/gtest.h>

#include <QAction>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/analysis.h"
#include "ui/common/app_context.h"
#include "ui/main_window.h"
#include "ui/pages/model/layer_table_model.h"
#include "ui/pages/model_page.h"
#include "ui/pages/report_page.h"
#include "ui/shell/language.h"
#include "ui/shell/session_file.h"

namespace qatdoctor::ui {
namespace {

const QString kModel = QString(QATDOCTOR_TEST_DATA) + "/models/qat_int16.onnx";

const core::Finding* findingOf(const AnalysisPtr& a, const std::string& id)
{
    if (!a) return nullptr;
    for (const core::Finding& f : a->findings)
        if (f.id == id) return &f;
    return nullptr;
}

// Waits until the window is idle and its analysis carries the int16_not_applied finding.
bool waitForExpectationFinding(MainWindow& w, int ms = 30000)
{
    return QTest::qWaitFor(
        [&] { return !w.isBusy() && findingOf(w.context()->analysis(), "model.int16_not_applied"); }, ms);
}

ModelPage* modelPage(MainWindow& w)
{
    const auto pages = w.findChildren<ModelPage*>();  // one per window (rebuilt on a language switch)
    return pages.size() == 1 ? pages.front() : nullptr;
}

QAction* saveAction(MainWindow& w)
{
    for (QAction* a : w.findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(QKeySequence::Save)) return a;
    return nullptr;
}

// The user story of #25 with two projects one after the other: open A, walk the wizard to a
// result and add it to the report, export; open B (Open replaces), export. B's report cites B
// only: none of A's files, none of A's wizard walk.
TEST(TwoProjects, TheSecondReportCitesOnlyTheSecond)
{
    Language language;
    MainWindow w(QATDOCTOR_SOURCE_DIR, &language);
    w.setHeadless(true);
    auto idle = [&] { return QTest::qWaitFor([&] { return !w.isBusy(); }, 60000); };
    const QString a = QString(QATDOCTOR_TEST_DATA) + "/runs/nan_loss";
    const QString b = QString(QATDOCTOR_TEST_DATA) + "/runs/healthy";
    auto click = [&](const QString& name) {
        QCoreApplication::processEvents();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        for (QPushButton* button : w.findChildren<QPushButton*>(name))
            if (button->isVisibleTo(&w) && button->isEnabled()) {
                QTest::mouseClick(button, Qt::LeftButton);
                return true;
            }
        return false;
    };
    QTemporaryDir dir;
    auto exportHtml = [&](const QString& name) {
        auto* report = w.findChild<ReportPage*>();
        EXPECT_NE(report, nullptr);
        QSignalSpy done(report, &ReportPage::exportFinished);
        report->exportTo(dir.filePath(name), true);
        EXPECT_TRUE(done.wait(30000));
        QFile f(dir.filePath(name));
        EXPECT_TRUE(f.open(QIODevice::ReadOnly));
        return QString::fromUtf8(f.readAll());
    };

    w.openPaths({a});
    ASSERT_TRUE(idle());
    w.context()->navigate(NavigationTarget{.page = "wizard", .faqTopic = "qat.nan_loss"});
    ASSERT_TRUE(click("answer_yes"));  // q_data: the input data has NaN (asked: the logs cannot say)
    ASSERT_TRUE(click("addToReport"));
    const QString first = exportHtml("a.html");
    EXPECT_TRUE(first.contains("runs/nan_loss"));
    EXPECT_FALSE(first.contains("The symptom wizard was not used for this report."));

    w.openPaths({b});
    ASSERT_TRUE(idle());
    const QString second = exportHtml("b.html");
    EXPECT_TRUE(second.contains("runs/healthy"));
    EXPECT_FALSE(second.contains("runs/nan_loss")) << "project A's files in project B's report";
    EXPECT_TRUE(second.contains("The symptom wizard was not used for this report."));
}

// `--lang` applies to one run; only the Language menu's choice is remembered for the next start.
TEST(LanguageChoice, OnlyTheMenuChoiceIsSaved)
{
    QSettings().setValue("language", "en");
    Language language;
    language.apply(Language::initialCode("zh"));  // what main() does with --lang zh
    EXPECT_EQ(language.current(), "zh_CN");
    EXPECT_EQ(QSettings().value("language").toString(), "en");
    EXPECT_EQ(Language::initialCode(""), "en");
    language.choose("zh_CN");  // the menu
    EXPECT_EQ(QSettings().value("language").toString(), "zh_CN");
    language.apply("en");
}

// Open replaces the open analysis (headless: without asking); Add adds; the demo is its folder,
// read as the command line reads it.
TEST(OpenAndAdd, OpenReplacesAddAddsAndTheDemoIsTheCliDemo)
{
    Language language;
    MainWindow w(QATDOCTOR_SOURCE_DIR, &language);
    w.setHeadless(true);
    auto inputsOf = [&] {
        std::vector<std::string> paths;
        if (w.context()->analysis())
            for (const auto& in : w.context()->analysis()->inputs) paths.push_back(in.path);
        return paths;
    };
    auto idle = [&] { return QTest::qWaitFor([&] { return !w.isBusy(); }, 60000); };
    const QString models = QString(QATDOCTOR_TEST_DATA) + "/models/";
    w.openPaths({models + "qat_qdq.onnx"});
    ASSERT_TRUE(idle());
    w.openPaths({models + "qat_int16.onnx"});
    ASSERT_TRUE(idle());
    ASSERT_EQ(inputsOf().size(), 1u);
    EXPECT_NE(inputsOf()[0].find("qat_int16.onnx"), std::string::npos);
    w.addPaths({models + "qat_qdq.onnx"});
    ASSERT_TRUE(idle());
    EXPECT_EQ(inputsOf().size(), 2u);
    // the Overview's "Remove from this analysis": the rest is analysed again
    w.context()->requestInputRemoval(models + "qat_int16.onnx");
    ASSERT_TRUE(idle());
    ASSERT_EQ(inputsOf().size(), 1u);
    EXPECT_NE(inputsOf()[0].find("qat_qdq.onnx"), std::string::npos);

    w.openDemo();
    ASSERT_TRUE(idle());
    core::AnalyzeOptions cli;
    cli.paths = {std::string(QATDOCTOR_SOURCE_DIR) + "/resources/demo"};
    auto expected = core::analyze(cli);
    ASSERT_TRUE(expected.ok());
    const auto app = w.context()->analysis();
    ASSERT_TRUE(app);
    EXPECT_EQ(app->inputs.size(), expected->inputs.size());
    // The app simulates a small model as soon as it arrives (the CLI does with --simulate):
    // the simulation's findings may have joined by now; every other finding is the CLI's.
    auto withoutSimulation = [](const core::Analysis& a) {
        std::vector<std::string> ids;
        for (const core::Finding& f : a.findings)
            if (!f.id.starts_with("simulation.")) ids.push_back(f.id);
        return ids;
    };
    EXPECT_EQ(withoutSimulation(*app), withoutSimulation(*expected));
    std::vector<std::string> appRuns, cliRuns;
    for (const auto& r : app->logs.runs) appRuns.push_back(r.name);
    for (const auto& r : expected->logs.runs) cliRuns.push_back(r.name);
    EXPECT_EQ(appRuns, cliRuns);
}

}  // namespace

TEST(ModelPageSession, ExpectationsSurviveSaveAndLoad)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString sessionPath = dir.filePath("int16.qatdoctor");
    Session start;
    start.inputs << kModel;
    ASSERT_TRUE(writeSessionFile(sessionPath, start));  // gives the window a path to save to

    Language language;
    {
        MainWindow w(QATDOCTOR_SOURCE_DIR, &language);
        w.setHeadless(true);
        ASSERT_TRUE(w.openSession(sessionPath));
        ASSERT_TRUE(QTest::qWaitFor(
            [&] { return !w.isBusy() && w.context()->analysis() && w.context()->analysis()->primaryModel(); },
            30000));
        EXPECT_EQ(findingOf(w.context()->analysis(), "model.int16_not_applied"), nullptr);
        ModelPage* page = modelPage(w);
        ASSERT_NE(page, nullptr);
        page->setExpectations({{"conv1", "int16"}, {"conv2", "int16"}});
        ASSERT_TRUE(waitForExpectationFinding(w));
        QAction* save = saveAction(w);
        ASSERT_NE(save, nullptr);
        save->trigger();
    }

    // On disk: the page state holds the expectation.
    QFile file(sessionPath);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonObject expected = root["pages"].toObject()["model"].toObject()["expected"].toObject();
    EXPECT_EQ(expected.value("conv2").toString(), "int16");
    EXPECT_EQ(expected.value("conv1").toString(), "int16");
    EXPECT_EQ(root["inputs"].toArray().size(), 1);

    // A fresh window (its own AppContext) opening the saved session.
    MainWindow w2(QATDOCTOR_SOURCE_DIR, &language);
    w2.setHeadless(true);
    ASSERT_TRUE(w2.openSession(sessionPath));
    ASSERT_TRUE(waitForExpectationFinding(w2));
    const AnalysisPtr a = w2.context()->analysis();
    EXPECT_EQ(a->expectedDtypes,
              (std::map<std::string, std::string>{{"conv1", "int16"}, {"conv2", "int16"}}));
    const core::Finding* f = findingOf(a, "model.int16_not_applied");
    ASSERT_EQ(f->evidence.size(), 1u);
    EXPECT_EQ(f->evidence[0].layer, "conv2");
    EXPECT_EQ(f->evidence[0].detail, "expected int16, actual int8");

    ModelPage* page2 = modelPage(w2);
    ASSERT_NE(page2, nullptr);
    const auto saved = page2->savedExpectations();
    ASSERT_TRUE(saved.has_value());
    EXPECT_EQ(saved->at("conv2"), "int16");
    LayerTableModel* m = page2->tableModel();
    EXPECT_TRUE(m->index(m->rowOf("conv2"), 0).data(LayerTableModel::FlaggedRole).toBool());
    EXPECT_FALSE(m->index(m->rowOf("conv1"), 0).data(LayerTableModel::FlaggedRole).toBool());
}

TEST(ModelPageSession, HandEditedStateKeepsOnlyKnownDtypes)
{
    AppContext ctx;
    ModelPage page(&ctx);
    EXPECT_FALSE(page.savedExpectations().has_value());
    ctx.restorePageState(QJsonObject{
        {"model",
         QJsonObject{
             {"expected", QJsonObject{{"conv2", "int16"}, {"conv1", "int17"}, {"", "int8"}, {"fc", 3}}}}}});
    const auto saved = page.savedExpectations();
    ASSERT_TRUE(saved.has_value());
    EXPECT_EQ(*saved, (std::map<std::string, std::string>{{"conv2", "int16"}}));

    // Set before any analysis: applied when the model arrives.
    QSignalSpy changed(&ctx, &AppContext::analysisChanged);
    core::AnalyzeOptions options;
    options.paths = {kModel.toStdString()};
    auto a = core::analyze(options);
    ASSERT_TRUE(a) << a.error().toString();
    ctx.setAnalysis(std::make_shared<const core::Analysis>(std::move(*a)));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return findingOf(ctx.analysis(), "model.int16_not_applied") != nullptr; }, 30000));
    EXPECT_EQ(ctx.analysis()->expectedDtypes, *saved);
}

// --page NAME:N (screenshots of a page's tabs) goes through showPage: the Model page's second tab
// is its graph; a tab it does not have, or a tab of the Start panel, is refused.
TEST(ModelPageSession, ShowPageSelectsAPageTab)
{
    Language language;
    MainWindow w(QATDOCTOR_SOURCE_DIR, &language);
    w.setHeadless(true);
    ModelPage* page = modelPage(w);
    ASSERT_NE(page, nullptr);
    auto* tabs = page->findChild<QTabWidget*>();
    ASSERT_NE(tabs, nullptr);
    ASSERT_EQ(tabs->currentIndex(), 0);
    EXPECT_TRUE(w.showPage("model:2"));
    EXPECT_EQ(w.currentPageId(), "model");
    EXPECT_EQ(tabs->currentIndex(), 1);
    EXPECT_TRUE(w.showPage("model"));
    EXPECT_EQ(tabs->currentIndex(), 1);  // a plain page name leaves the tab alone
    EXPECT_FALSE(w.showPage("model:3"));
    EXPECT_FALSE(w.showPage("model:0"));
    EXPECT_FALSE(w.showPage("model:graph"));
    EXPECT_FALSE(w.showPage("start:1"));
    EXPECT_FALSE(w.showPage("nosuchpage:1"));
}

}  // namespace qatdoctor::ui
