// The A | B views, offscreen, on the before / after pairs of tests/data/compare: the Model page's
// changed layers, the Debug files page's moved rows, the Overview's answers, the Curves page's
// dashed runs of B, the Report page's "What changed", and a main window comparing through
// File ▸ Compare with… whose session keeps what it compared with. The diff model runs under
// QAbstractItemModelTester.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "core/analysis.h"
#include "ui/common/app_context.h"
#include "ui/main_window.h"
#include "ui/pages/artifacts_page.h"
#include "ui/pages/compare/comparison_view.h"
#include "ui/pages/compare/diff_table_model.h"
#include "ui/pages/curves_page.h"
#include "ui/pages/model_page.h"
#include "ui/pages/overview_page.h"
#include "ui/plots/curve_plot.h"
#include "ui/shell/language.h"
#include "ui/shell/session_file.h"

namespace qatdoctor::ui {
namespace {

const std::string kData = QATDOCTOR_TEST_DATA;

AnalysisPtr analyzePath(const std::string& path)
{
    core::AnalyzeOptions options;
    options.paths = {path};
    auto a = core::analyze(options);
    EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().toString());
    return a.ok() ? std::make_shared<const core::Analysis>(std::move(*a)) : nullptr;
}

// A open, compared with B, as MainWindow::compareWith leaves the context.
void openPair(AppContext& context, const std::string& a, const std::string& b)
{
    context.setAnalysis(analyzePath(a));
    auto state = std::make_shared<ComparisonState>();
    state->paths = {QString::fromStdString(b)};
    state->other = analyzePath(b);
    state->comparison = core::compare::compareAnalyses(*context.analysis(), *state->other);
    context.setComparison(std::move(state));
}

QString cell(const ComparisonView& view, int table, int row, int column)
{
    return view.view(table)->model()->index(row, column).data().toString();
}

TEST(ComparePages, ModelPageShowsTheLayersTheChangeTouched)
{
    AppContext context;
    ModelPage page(&context);
    page.resize(1200, 700);
    EXPECT_EQ(page.tabs()->count(), 2);  // Layers, Graph: nothing compared yet
    openPair(context, kData + "/compare/int16/before", kData + "/compare/int16/after");
    ASSERT_EQ(page.tabs()->count(), 3);
    EXPECT_EQ(page.tabs()->tabText(2), "A | B");
    ComparisonView* view = page.comparisonView();
    ASSERT_EQ(view->tableCount(), 1);
    QAbstractItemModelTester tester(view->view(0)->model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(view->visibleRows(0), 2);  // conv1 and add; conv2 and fc only follow
    EXPECT_EQ(cell(*view, 0, 0, 0), "conv1");
    EXPECT_EQ(cell(*view, 0, 0, 3), "int8 / int8");
    EXPECT_EQ(cell(*view, 0, 0, 4), "int8 / int16");
    EXPECT_EQ(view->view(0)->model()->index(0, 0).data(DiffTableModel::kKindRole).toString(), "changed");
    EXPECT_TRUE(view->view(0)->model()->index(0, 0).data(Qt::BackgroundRole).isValid());
    view->setChangedOnly(false);
    EXPECT_EQ(view->visibleRows(0), 4);
    EXPECT_FALSE(view->view(0)->model()->index(1, 0).data(Qt::BackgroundRole).isValid()) << "conv2: retuned";
    context.setComparison(nullptr);
    EXPECT_EQ(page.tabs()->count(), 2);
}

TEST(ComparePages, DebugFilesPageShowsTheRowsThatMoved)
{
    AppContext context;
    ArtifactsPage page(&context);
    page.resize(1200, 700);
    openPair(context, kData + "/compare/int16/before", kData + "/compare/int16/after");
    ASSERT_EQ(page.tabs()->count(), 2);
    ComparisonView* view = page.comparisonView();
    ASSERT_EQ(view->tableCount(), 2);  // the per-layer comparison, the sensitivity
    EXPECT_EQ(view->visibleRows(0), 3);
    EXPECT_EQ(cell(*view, 0, 0, 0), "conv1");
    EXPECT_EQ(cell(*view, 0, 0, 3), "better");
    EXPECT_EQ(cell(*view, 0, 0, 4), "qint8 → qint16");
    // the sensitivity: conv1's activation went from rank 1 to 6
    bool ranked = false;
    for (int r = 0; r < view->visibleRows(1); ++r)
        ranked = ranked || (cell(*view, 1, r, 0) == "conv1 activation" && cell(*view, 1, r, 4) == "1 → 6");
    EXPECT_TRUE(ranked);
}

TEST(ComparePages, OverviewSaysWhatTookEffect)
{
    AppContext context;
    OverviewPage page(&context);
    page.resize(1200, 800);
    openPair(context, kData + "/compare/shared/before", kData + "/compare/shared/after");
    ASSERT_EQ(page.tabs()->count(), 2);
    EXPECT_EQ(page.tabs()->currentIndex(), 1) << "a new comparison opens on its tab";
    EXPECT_TRUE(page.answersText().contains("The shared quantizer is split"));
    EXPECT_TRUE(page.answersText().contains("a second call of add is now add2 with its own scale"));
    ComparisonView* view = page.comparisonView();
    ASSERT_EQ(view->tableCount(), 1);  // findings (no runs in either folder)
    EXPECT_EQ(view->visibleRows(0), 1);
    EXPECT_EQ(cell(*view, 0, 0, 2), "model.shared_quant_params");
    context.setLang(core::Lang::Zh);
    EXPECT_TRUE(page.answersText().contains("共享的量化参数已拆开"));
}

TEST(ComparePages, CurvesDrawBsRunsDashed)
{
    AppContext context;
    CurvesPage page(&context);
    page.resize(1200, 800);
    page.show();
    openPair(context, kData + "/diagnosis/healthy_folders", kData + "/diagnosis/worse_than_calib_folders");
    page.setMetrics({"loss"});
    CurvePlot* plot = page.plot();
    plot->redrawNow();
    const QStringList names = plot->curveNames();
    EXPECT_TRUE(names.contains("qat · loss")) << names.join(", ").toStdString();
    EXPECT_TRUE(names.contains("B · qat · loss")) << names.join(", ").toStdString();
    EXPECT_EQ(plot->sourcePoints("B · qat", "loss"), plot->sourcePoints("qat", "loss"));
    context.setComparison(nullptr);
    plot->redrawNow();
    EXPECT_FALSE(plot->curveNames().contains("B · qat · loss"));
}

TEST(ComparePages, MainWindowComparesAndTheSessionKeepsIt)
{
    Language language;
    MainWindow w(QATDOCTOR_SOURCE_DIR, &language);
    w.setHeadless(true);
    auto idle = [&] { return QTest::qWaitFor([&] { return !w.isBusy(); }, 60000); };
    const QString a = QString::fromStdString(kData + "/compare/output/before");
    const QString b = QString::fromStdString(kData + "/compare/output/after");
    w.openPaths({a});
    ASSERT_TRUE(idle());
    w.compareWith({b});
    ASSERT_TRUE(idle());
    ComparisonPtr c = w.context()->comparison();
    ASSERT_NE(c, nullptr);
    ASSERT_FALSE(c->comparison.answers.empty());
    EXPECT_EQ(c->comparison.answers.front().id, "compare.output_high_precision");

    QTemporaryDir dir;
    const QString session = dir.filePath("pair.qatdoctor");
    ASSERT_TRUE(writeSessionFile(session, Session{{a}, {}, {}, {b}, {}, {}}).ok());
    MainWindow again(QATDOCTOR_SOURCE_DIR, &language);
    again.setHeadless(true);
    ASSERT_TRUE(again.openSession(session));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !again.isBusy() && again.context()->comparison(); }, 60000));
    EXPECT_EQ(again.context()->comparison()->paths, QStringList{QFileInfo(b).absoluteFilePath()});
    // opening another project replaces A and ends the comparison (B was compared with A)
    w.openPaths({QString::fromStdString(kData + "/compare/shared/before")});
    ASSERT_TRUE(idle());
    EXPECT_EQ(w.context()->comparison(), nullptr);
    w.compareWith({QString::fromStdString(kData + "/compare/shared/after")});
    ASSERT_TRUE(idle());
    ASSERT_NE(w.context()->comparison(), nullptr);
    EXPECT_EQ(w.context()->comparison()->comparison.answers.front().id, "compare.shared_split");
    w.stopComparing();
    EXPECT_EQ(w.context()->comparison(), nullptr);
}

}  // namespace
}  // namespace qatdoctor::ui
