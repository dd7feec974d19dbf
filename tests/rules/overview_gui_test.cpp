// The Overview page offscreen on real analyses: its item models under QAbstractItemModelTester,
// the verdict sentence from core, navigation from a finding and its evidence, role edits, and a
// screenshot of the demo data for a look.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDir>
#include <QSignalSpy>
#include <QTranslator>
#include <QTreeView>

#include "core/analysis.h"
#include "core/rules/verdict.h"
#include "ui/common/app_context.h"
#include "ui/pages/overview/findings_model.h"
#include "ui/pages/overview/loaded_models.h"
#include "ui/pages/overview_page.h"
#include "ui/shell/progress_text.h"
#include "ui/shell/source_view.h"

namespace qatdoctor::ui {
namespace {

AnalysisPtr analyzed(std::vector<std::string> paths)
{
    core::AnalyzeOptions options;
    options.paths = std::move(paths);
    auto a = core::analyze(options);
    if (!a) {
        ADD_FAILURE() << a.error().toString();
        return std::make_shared<core::Analysis>();
    }
    return std::make_shared<const core::Analysis>(std::move(*a));
}

std::string runCase(const char* name)
{
    return std::string(QATDOCTOR_TEST_DATA) + "/runs/" + name;
}

class OverviewPageTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (!QDir(QString::fromStdString(runCase("nan_loss"))).exists()) GTEST_SKIP() << "no tests/data/runs";
    }
};

TEST_F(OverviewPageTest, ModelsPassTheTesterAndShowTheFindings)
{
    AppContext ctx;
    OverviewPage page(&ctx);
    QAbstractItemModelTester t1(page.findingsModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester t2(page.runsModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester t3(page.inputsModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);

    const AnalysisPtr a = analyzed({runCase("nan_loss")});
    ctx.setAnalysis(a);
    FindingsModel* m = page.findingsModel();
    ASSERT_EQ(m->rowCount(), static_cast<int>(a->findings.size()));
    ASSERT_GT(m->rowCount(), 0);
    const QModelIndex first = m->index(0, 0);
    EXPECT_EQ(m->index(0, FindingsModel::IdColumn).data().toString(), "loss.nonfinite");
    EXPECT_EQ(first.data().toString(), "Error");
    EXPECT_EQ(m->rowCount(first), static_cast<int>(a->findings.front().evidence.size()));
    const QString evidence = m->index(0, FindingsModel::TextColumn, first).data().toString();
    EXPECT_TRUE(evidence.contains("step 39")) << evidence.toStdString();
    EXPECT_TRUE(evidence.startsWith("qat")) << evidence.toStdString();

    EXPECT_EQ(page.verdictText().toStdString(), core::rules::computeVerdict(*a, a->logs).text.en);
    EXPECT_TRUE(page.detailsText().contains("NaN/Inf")) << page.detailsText().toStdString();

    EXPECT_EQ(page.runsModel()->rowCount(), static_cast<int>(a->logs.runs.size()));
    EXPECT_EQ(page.inputsModel()->rowCount(), 1);

    // Switching language retitles the findings and the verdict.
    ctx.setLang(core::Lang::Zh);
    EXPECT_TRUE(m->index(0, FindingsModel::TextColumn).data().toString().contains("训练中出现 NAN"));
    EXPECT_TRUE(page.verdictText().contains("问题最可能始于"));

    // A second analysis replaces the first (models reset under the tester).
    ctx.setAnalysis(analyzed({runCase("healthy")}));
    EXPECT_EQ(m->rowCount(), 0);
    EXPECT_TRUE(page.verdictText().contains("未发现问题")) << page.verdictText().toStdString();
}

TEST_F(OverviewPageTest, StrengthRecoveryAndWhatWasNotChecked)
{
    AppContext ctx;
    OverviewPage page(&ctx);
    const std::string corpus = std::string(QATDOCTOR_TEST_DATA) + "/diagnosis/";
    // a glitch the data recovered from: a clear verdict, the finding listed and marked
    ctx.setAnalysis(analyzed({corpus + "healthy_val_nan_recovers"}));
    EXPECT_TRUE(page.verdictText().startsWith("No problem found")) << page.verdictText().toStdString();
    EXPECT_TRUE(page.detailsText().contains("recovered by itself")) << page.detailsText().toStdString();
    // a measured finding shows how far past its threshold it is
    ctx.setAnalysis(analyzed({corpus + "quantized_gap_folders"}));
    EXPECT_TRUE(page.detailsText().contains("Strength: accuracy drop relative to QAT"))
        << page.detailsText().toStdString();
    // one QAT run: the batch comparison could not run, and the page lists it with its need
    ctx.setAnalysis(analyzed({corpus + "healthy_short"}));
    page.showSkippedChecks();
    EXPECT_TRUE(page.detailsText().contains("train.batch_scaled_lr_unchanged: not checked: needs"))
        << page.detailsText().toStdString();
}

TEST_F(OverviewPageTest, FindingNavigatesToCurveAndWizard)
{
    AppContext ctx;
    OverviewPage page(&ctx);
    ctx.setAnalysis(analyzed({runCase("nan_loss")}));
    QSignalSpy nav(&ctx, &AppContext::navigationRequested);

    page.showEvidence(page.findingsModel()->index(0, 0));
    ASSERT_EQ(nav.count(), 1);
    auto target = nav.takeFirst().at(0).value<NavigationTarget>();
    EXPECT_EQ(target.page, "curves");
    EXPECT_EQ(target.run, "qat");
    ASSERT_TRUE(target.step.has_value());
    EXPECT_EQ(*target.step, 39.0);
    EXPECT_EQ(target.findingId, "loss.nonfinite");

    page.findingsView()->setCurrentIndex(page.findingsModel()->index(0, 0));
    page.openInWizard();
    ASSERT_EQ(nav.count(), 1);
    target = nav.takeFirst().at(0).value<NavigationTarget>();
    EXPECT_EQ(target.page, "wizard");
    EXPECT_EQ(target.faqTopic, "qat.nan_loss");

    // focusOn selects a finding by id.
    const QModelIndex last = page.findingsModel()->index(page.findingsModel()->rowCount() - 1, 0);
    const QString lastId = page.findingsModel()->index(last.row(), FindingsModel::IdColumn).data().toString();
    NavigationTarget focus;
    focus.findingId = lastId;
    page.focusOn(focus);
    EXPECT_EQ(page.findingsView()->currentIndex().row(), last.row());
}

TEST_F(OverviewPageTest, TorchWarningIsEvidenceAndOpensItsSource)
{
    // quantized_gap: the int8 convert printed torch's "must run observer before calling
    // calculate_qparams": the warning is evidence of the gap it explains, not an appendix line
    AppContext ctx;
    OverviewPage page(&ctx);
    const AnalysisPtr a = analyzed({runCase("quantized_gap")});
    ctx.setAnalysis(a);
    const core::Finding* gap = nullptr;
    for (const core::Finding& f : a->findings)
        if (f.id == "qat.quantized_gap") gap = &f;
    ASSERT_NE(gap, nullptr);
    const core::Evidence* warning = nullptr;
    for (const core::Evidence& e : gap->evidence)
        if (e.detail.find("must run observer") != std::string::npos) warning = &e;
    ASSERT_NE(warning, nullptr);
    EXPECT_NE(warning->detail.find("default scale"), std::string::npos) << warning->detail;
    EXPECT_NE(warning->detailIn(core::Lang::Zh).find("observer 从未见过数据"), std::string::npos);
    EXPECT_TRUE(warning->file.ends_with("quantized/eval.log")) << warning->file;
    EXPECT_GT(warning->line, 0);

    // the evidence row of that line leads to the source view, at that file and line
    const QModelIndex row = page.findingsModel()->indexOfFinding("qat.quantized_gap");
    ASSERT_TRUE(row.isValid());
    const int child = static_cast<int>(warning - gap->evidence.data());
    QSignalSpy nav(&ctx, &AppContext::navigationRequested);
    page.showEvidence(page.findingsModel()->index(child, 0, row));
    ASSERT_EQ(nav.count(), 1);
    const auto target = nav.at(0).at(0).value<NavigationTarget>();
    EXPECT_EQ(target.page, "source");
    EXPECT_EQ(target.file.toStdString(), warning->file);
    EXPECT_EQ(target.line, warning->line);

    SourceView view(target.file, target.line);
    QSignalSpy ready(&view, &SourceView::ready);
    ASSERT_TRUE(ready.wait(10000));
    EXPECT_EQ(view.highlightedLine(), warning->line);
    EXPECT_TRUE(view.highlightedText().contains("must run observer")) << view.highlightedText().toStdString();
    EXPECT_TRUE(view.find("int8") || view.find("quantized"));
    EXPECT_FALSE(view.find("no such text in this log"));
    EXPECT_TRUE(view.status().contains("not found"));
}

TEST_F(OverviewPageTest, EveryInputCanBeRemoved)
{
    AppContext ctx;
    OverviewPage page(&ctx);
    const AnalysisPtr a =
        analyzed({runCase("healthy"), std::string(QATDOCTOR_TEST_DATA) + "/models/qat_qdq.onnx"});
    ctx.setAnalysis(a);
    ASSERT_EQ(page.inputsModel()->rowCount(), 2);
    QSignalSpy removal(&ctx, &AppContext::inputRemovalRequested);
    page.removeInputAt(1);
    ASSERT_EQ(removal.count(), 1);
    EXPECT_TRUE(removal.at(0).at(0).toString().endsWith("qat_qdq.onnx"));
    page.removeInputAt(7);  // no such row
    EXPECT_EQ(removal.count(), 1);
}

TEST(ProgressText, CorePhrasesReadInTheUsersLanguage)
{
    EXPECT_EQ(progressText("reading /data/qat/train.log"), "reading /data/qat/train.log");
    EXPECT_EQ(progressText("Conv"), "Conv") << "an op type is shown as it came";
    QTranslator zh;
    ASSERT_TRUE(zh.load(":/i18n/qatdoctor_zh_CN.qm"));
    QCoreApplication::installTranslator(&zh);
    EXPECT_EQ(progressText("reading /data/qat/train.log"), QString::fromUtf8("正在读取 /data/qat/train.log"));
    EXPECT_EQ(progressText("running checks"), QString::fromUtf8("正在运行检查"));
    EXPECT_EQ(progressText("what-if int16"), QString::fromUtf8("仿真：what-if int16"));
    QCoreApplication::removeTranslator(&zh);
}

TEST_F(OverviewPageTest, RoleEditAsksForReanalysis)
{
    AppContext ctx;
    OverviewPage page(&ctx);
    ctx.setAnalysis(analyzed({runCase("healthy")}));
    QSignalSpy spy(&ctx, &AppContext::roleChangeRequested);
    RunsModel* runs = page.runsModel();
    int qatRow = -1;
    for (int r = 0; r < runs->rowCount(); ++r)
        if (runs->index(r, RunsModel::NameColumn).data().toString() == "qat") qatRow = r;
    ASSERT_GE(qatRow, 0);
    const QModelIndex role = runs->index(qatRow, RunsModel::RoleColumn);
    EXPECT_TRUE(runs->flags(role) & Qt::ItemIsEditable);
    EXPECT_FALSE(runs->setData(role, "bogus"));
    EXPECT_FALSE(runs->setData(role, "qat"));  // unchanged
    EXPECT_TRUE(runs->setData(role, "float"));
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.at(0).at(0).toString(), "qat");
    EXPECT_EQ(spy.at(0).at(1).toString(), "float");
}

TEST_F(OverviewPageTest, DemoScreenshot)
{
    const QString demo = QStringLiteral(QATDOCTOR_SOURCE_DIR) + "/resources/demo";
    if (!QDir(demo + "/logs").exists()) GTEST_SKIP() << "no demo logs";
    std::vector<std::string> paths = {(demo + "/logs").toStdString()};
    if (QFile::exists(demo + "/model/demo_qat.onnx"))
        paths.push_back((demo + "/model/demo_qat.onnx").toStdString());
    AppContext ctx;
    OverviewPage page(&ctx);
    ctx.setAnalysis(analyzed(paths));
    page.resize(1200, 800);
    page.show();
    QDir().mkpath(QStringLiteral(QATDOCTOR_SHOT_DIR));
    EXPECT_TRUE(page.grab().save(QStringLiteral(QATDOCTOR_SHOT_DIR) + "/overview_demo.png"));
    EXPECT_FALSE(page.verdictText().isEmpty());
}

}  // namespace
}  // namespace qatdoctor::ui
