// The Model page offscreen on the demo model: the layer table model under
// QAbstractItemModelTester, flagged rows and the wizard link, the details pane's weight histogram
// with its quantization grid, the graph view laid out in the background, and screenshots.
#include "ui/pages/model_page.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDir>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>

#include "core/analysis.h"
#include "tests/model/chain_model.h"
#include "ui/common/app_context.h"
#include "ui/common/background_job.h"
#include "ui/pages/model/graph_view.h"
#include "ui/pages/model/layer_details.h"
#include "ui/pages/model/layer_table_model.h"
#include "ui/plots/weight_histogram.h"

namespace qatdoctor::ui {
namespace {

const std::string kDemo = std::string(QATDOCTOR_SOURCE_DIR) + "/resources/demo/model/demo_qat.onnx";

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

void shot(QWidget& w, const char* name)
{
    QDir().mkpath(QATDOCTOR_SHOT_DIR);
    w.grab().save(QString(QATDOCTOR_SHOT_DIR) + "/" + name);
}

}  // namespace

TEST(ModelPage, TableFlagsAndWizardLink)
{
    AppContext ctx;
    ModelPage page(&ctx);
    QAbstractItemModelTester tester(page.tableModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(page.tableModel()->rowCount(), 0);

    const AnalysisPtr a = analyzed({kDemo});
    ctx.setAnalysis(a);
    LayerTableModel* m = page.tableModel();
    ASSERT_EQ(m->rowCount(), static_cast<int>(a->primaryModel()->layers.size()));
    const int fc = m->rowOf("fc");
    ASSERT_GE(fc, 0);
    EXPECT_TRUE(m->index(fc, 0).data(LayerTableModel::FlaggedRole).toBool());
    EXPECT_EQ(m->index(fc, LayerTableModel::Output).data().toString(), "uint8");
    EXPECT_EQ(m->index(fc, LayerTableModel::Finding).data(LayerTableModel::FaqRole).toString(),
              "settings.output_high_precision");
    EXPECT_TRUE(m->index(fc, LayerTableModel::Finding).data().toString().contains("open in wizard"));
    EXPECT_EQ(m->index(fc, LayerTableModel::Output).data(Qt::BackgroundRole).value<QColor>(),
              LayerTableModel::dtypeColor(core::model::DType::UInt8));

    page.filterModel()->setFlaggedOnly(true);
    EXPECT_EQ(page.filterModel()->rowCount(), 3);  // fc (output), add and its second call (shared)
    page.filterModel()->setFlaggedOnly(false);
    page.filterModel()->setText("conv");
    EXPECT_EQ(page.filterModel()->rowCount(), 3);
    page.filterModel()->setText("");

    QSignalSpy nav(&ctx, &AppContext::navigationRequested);
    page.resize(1200, 700);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    page.tabs()->setCurrentIndex(0);
    const QModelIndex cell = page.filterModel()->mapFromSource(m->index(fc, LayerTableModel::Finding));
    page.tableView()->scrollTo(cell);
    const QPoint at = page.tableView()->visualRect(cell).center();
    QTest::mouseClick(page.tableView()->viewport(), Qt::LeftButton, {}, at);
    EXPECT_EQ(nav.count(), 0) << "one click selects the layer, it never changes the page";
    QTest::mouseDClick(page.tableView()->viewport(), Qt::LeftButton, {}, at);
    ASSERT_EQ(nav.count(), 1);
    const auto target = nav.at(0).at(0).value<NavigationTarget>();
    EXPECT_EQ(target.page, "wizard");
    EXPECT_EQ(target.faqTopic, "settings.output_high_precision");
}

TEST(ModelPage, DetailsHistogramAndGraph)
{
    AppContext ctx;
    ModelPage page(&ctx);
    page.resize(1300, 760);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    QSignalSpy laidOut(page.graphView(), &GraphView::layoutReady);
    ctx.setAnalysis(analyzed({kDemo}));
    ASSERT_TRUE(laidOut.wait(20000));
    const core::model::GraphLayout* layout = page.graphView()->layout();
    ASSERT_NE(layout, nullptr);
    EXPECT_GT(layout->nodes.size(), 5u);
    EXPECT_GT(layout->hiddenNodes, 0);

    QSignalSpy weights(page.details(), &LayerDetails::weightsShown);
    ASSERT_TRUE(page.selectLayer("conv2"));
    ASSERT_TRUE(weights.wait(20000));
    EXPECT_GT(page.details()->histogram()->gridLineCount(), 10);  // int8 per-channel grid over the data range
    shot(page, "model_page_table.png");

    page.tabs()->setCurrentIndex(1);
    EXPECT_TRUE(page.graphView()->centerOnLayer("conv2"));
    EXPECT_TRUE(page.graphView()->search("Add"));
    EXPECT_TRUE(page.graphView()->centerOnLayer("conv2"));
    QTest::qWait(50);
    shot(page, "model_page_graph.png");
}

TEST(ModelPage, ExpectationsSetInThePageFlagTheLayer)
{
    AppContext ctx;
    ModelPage page(&ctx);
    ctx.setAnalysis(analyzed({std::string(QATDOCTOR_TEST_DATA) + "/models/qat_int16.onnx"}));
    const int conv2 = page.tableModel()->rowOf("conv2");
    ASSERT_GE(conv2, 0);
    EXPECT_FALSE(page.tableModel()->index(conv2, 0).data(LayerTableModel::FlaggedRole).toBool());
    QSignalSpy changed(&ctx, &AppContext::analysisChanged);
    page.applyExpectations({{"conv1", "int16"}, {"conv2", "int16"}});
    ASSERT_TRUE(changed.wait(20000));
    EXPECT_TRUE(ctx.analysis()->checksRun.count("model.int16_not_applied"));
    EXPECT_TRUE(page.tableModel()->index(conv2, 0).data(LayerTableModel::FlaggedRole).toBool());
    EXPECT_FALSE(page.tableModel()
                     ->index(page.tableModel()->rowOf("conv1"), 0)
                     .data(LayerTableModel::FlaggedRole)
                     .toBool());
}

TEST(ModelPage, NoGraphForTextSources)
{
    AppContext ctx;
    ModelPage page(&ctx);
    auto a = std::make_shared<core::Analysis>();
    core::model::LayerTable t;
    t.sourcePath = "model_print.txt";
    t.format = "printed_module";
    core::model::Layer l;
    l.name = "conv1";
    l.op = "Conv2d";
    l.outputDtype = core::model::DType::Int8;
    t.layers.push_back(l);
    a->models.push_back(t);
    ctx.setAnalysis(a);
    EXPECT_EQ(page.tableModel()->rowCount(), 1);
    EXPECT_TRUE(page.graphView()->statusText().startsWith("No graph for this source"));
}

// A graph far past what the view draws one box per node: laid out in the background, grouped until
// it fits, and the status line says why. QATDOCTOR_BIG_MODEL=file.onnx runs it on a model of
// yours (a million-node one took 3.7 s and 1.1 GB here; before the bound, past 300 s and 14 GB).
TEST(ModelPage, BigGraphStaysUsable)
{
    QTemporaryDir dir;
    std::string path = qgetenv("QATDOCTOR_BIG_MODEL").toStdString();
    if (path.empty()) {
        path = QDir(dir.path()).filePath("chain.onnx").toStdString();
        std::ofstream(path, std::ios::binary) << test::chainModel(100000, 0);
    }
    AppContext ctx;
    ModelPage page(&ctx);
    page.resize(1300, 760);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    QSignalSpy laidOut(page.graphView(), &GraphView::layoutReady);
    ctx.setAnalysis(analyzed({path}));
    ASSERT_TRUE(laidOut.wait(60000));
    page.tabs()->setCurrentIndex(1);
    const core::model::GraphLayout* layout = page.graphView()->layout();
    ASSERT_NE(layout, nullptr);
    EXPECT_LE(layout->nodes.size(), static_cast<size_t>(core::model::kMaxLayoutVertices));
    EXPECT_TRUE(layout->grouping.coarsened);
    EXPECT_TRUE(page.graphView()->statusText().contains("too many to draw one by one"))
        << page.graphView()->statusText().toStdString();
    EXPECT_TRUE(page.graphView()->search("#1-"));  // a group of consecutive nodes is found by its name
    QTest::qWait(50);
    shot(page, "model_page_big_graph.png");
}

}  // namespace qatdoctor::ui
