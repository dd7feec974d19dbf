// The Debug files page on real fixtures, offscreen: tables listed, sortable by number, the
// similarity plot with the first bad layer marked, navigation to a layer, warnings shown; the
// paste dialog's live summary. Item models run under QAbstractItemModelTester.
#include "ui/pages/artifacts_page.h"

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>

#include "core/analysis.h"
#include "ui/common/app_context.h"
#include "ui/pages/artifacts/data_table_model.h"
#include "ui/pages/paste_model_dialog.h"
#include "ui/plots/similarity_plot.h"

namespace qatdoctor::ui {
namespace {

const std::string kDir = std::string(QATDOCTOR_TEST_DATA) + "/toolchain/";

AnalysisPtr analyzeFiles(std::vector<std::string> files)
{
    core::AnalyzeOptions options;
    for (auto& f : files) options.paths.push_back(kDir + f);
    auto a = core::analyze(options);
    EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().toString());
    return a.ok() ? std::make_shared<const core::Analysis>(std::move(*a)) : nullptr;
}

int findText(QComboBox* box, const QString& part)
{
    for (int i = 0; i < box->count(); ++i)
        if (box->itemText(i).contains(part)) return i;
    return -1;
}

TEST(ArtifactsPage, EmptyStateThenComparisonTableWithPlot)
{
    AppContext context;
    ArtifactsPage page(&context);
    page.resize(1000, 700);
    EXPECT_EQ(page.tableChooser()->count(), 0);

    context.setAnalysis(analyzeFiles({"model_check_result.txt", "compare_per_layer_out.txt"}));
    ASSERT_GT(page.tableChooser()->count(), 5);
    // The comparison table is preselected and plotted with head.cls (row 4) marked.
    EXPECT_TRUE(page.tableChooser()->currentText().contains("compare_per_layer_out.txt"));
    QAbstractItemModelTester tester(page.proxyModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(page.proxyModel()->rowCount(), 8);
    EXPECT_EQ(page.similarityPlot()->pointCount(), 8);
    ASSERT_TRUE(page.similarityPlot()->markedRow().has_value());
    EXPECT_EQ(*page.similarityPlot()->markedRow(), 4);
    EXPECT_EQ(page.similarityPlot()->plot()->graphCount(), 2);  // Cosine + SQNR
    EXPECT_TRUE(page.proxyModel()->index(4, 0).data(Qt::BackgroundRole).isValid());
    EXPECT_FALSE(page.proxyModel()->index(3, 0).data(Qt::BackgroundRole).isValid());

    // Sorting by Cosine orders numerically: the lowest (head.score, 0.9301) first.
    const auto* model = qobject_cast<DataTableModel*>(page.proxyModel()->sourceModel());
    ASSERT_NE(model, nullptr);
    const int cosine = model->table()->column("Cosine");
    page.tableView()->sortByColumn(cosine, Qt::AscendingOrder);
    const int name = model->table()->column("mod_name");
    EXPECT_EQ(page.proxyModel()->index(0, name).data().toString(), "head.score");

    // Navigation selects the layer's row.
    NavigationTarget target;
    target.page = "artifacts";
    target.layer = "head.cls";
    page.focusOn(target);
    const QModelIndexList rows = page.tableView()->selectionModel()->selectedRows(name);
    ASSERT_EQ(rows.size(), 1);
    EXPECT_EQ(rows.front().data().toString(), "head.cls");

    // A model_check_result section: a plain table without plot.
    const int mcr = findText(page.tableChooser(), "Each layer out qconfig");
    ASSERT_GE(mcr, 0);
    page.tableChooser()->setCurrentIndex(mcr);
    EXPECT_FALSE(page.similarityPlot()->isVisibleTo(&page));
    EXPECT_EQ(page.proxyModel()->rowCount(), 10);
    EXPECT_EQ(context.pageState("artifacts").value("table").toString().left(28),
              "model_check.layer_out_qconfi");

    QDir().mkpath(QATDOCTOR_SHOT_DIR);
    page.tableChooser()->setCurrentIndex(findText(page.tableChooser(), "Per-layer comparison"));
    EXPECT_TRUE(page.grab().save(QString(QATDOCTOR_SHOT_DIR) + "/artifacts_page.png"));
}

TEST(ArtifactsPage, WarningsOfADamagedFileAreShown)
{
    AppContext context;
    ArtifactsPage page(&context);
    context.setAnalysis(analyzeFiles({"statistic_ragged.txt"}));
    ASSERT_EQ(page.tableChooser()->count(), 1);
    EXPECT_TRUE(page.warningLabel()->text().contains("statistic_ragged.txt:5: row has"));
    EXPECT_EQ(page.proxyModel()->rowCount(), 4);
}

TEST(PasteModelDialog, LiveSummaryOfPastedText)
{
    PasteModelDialog dialog;
    EXPECT_TRUE(dialog.summary().contains("Waiting"));
    dialog.setText(
        "(head): Conv2d(\n  4, 4, kernel_size=(1, 1)\n  (weight_fake_quant): FakeQuantize(\n"
        "    dtype=qint8, scale=tensor([0.01]), zero_point=tensor([0])\n  )\n"
        "  (activation_post_process): FakeQuantize(\n    dtype=qint8, scale=tensor([0.05]), "
        "zero_point=tensor([0])\n"
        "  )\n)\n");
    EXPECT_TRUE(dialog.summary().contains("1 layer")) << dialog.summary().toStdString();
    EXPECT_TRUE(dialog.summary().contains("model.output_low_precision")) << dialog.summary().toStdString();
    dialog.setText("hello world");
    EXPECT_TRUE(dialog.summary().contains("Not readable")) << dialog.summary().toStdString();
}

}  // namespace
}  // namespace qatdoctor::ui
