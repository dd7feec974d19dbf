// The Checkpoints page on real torch.save fixtures, offscreen: the quantizer table of one
// checkpoint, the comparison of two (largest change first, "changed only"), a finding's evidence
// leading to the page, and the empty state. The item model runs under QAbstractItemModelTester.
#include "ui/pages/checkpoints_page.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>

#include "core/analysis.h"
#include "ui/common/app_context.h"
#include "ui/pages/overview/finding_navigation.h"

namespace qatdoctor::ui {
namespace {

AnalysisPtr analyzeFiles(const std::vector<std::string>& names)
{
    core::AnalyzeOptions options;
    for (const auto& n : names)
        options.paths.push_back(std::string(QATDOCTOR_TEST_DATA) + "/checkpoints/" + n);
    auto a = core::analyze(options);
    EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().toString());
    return a.ok() ? std::make_shared<const core::Analysis>(std::move(*a)) : nullptr;
}

QString cellText(const CheckpointsPage& page, int row, int column)
{
    return page.proxyModel()->index(row, column).data().toString();
}

int visibleRows(const CheckpointsPage& page)
{
    return page.proxyModel()->rowCount();
}

TEST(CheckpointsPage, QuantizersThenWhatChanged)
{
    AppContext context;
    CheckpointsPage page(&context);
    page.resize(1200, 700);
    EXPECT_EQ(page.viewChooser()->count(), 0);

    context.setAnalysis(analyzeFiles({"qat_calibrated.pt", "qat_trained.pt"}));
    ASSERT_EQ(page.viewChooser()->count(), 3);  // two checkpoints, one comparison
    QAbstractItemModelTester tester(page.proxyModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    // the comparison is shown first, largest relative change on top
    EXPECT_TRUE(page.viewChooser()->currentText().contains("qat_calibrated.pt → qat_trained.pt"));
    EXPECT_EQ(cellText(page, 0, 0), "bn1.bias");
    EXPECT_EQ(cellText(page, 0, 3), "from 0");
    EXPECT_TRUE(page.factsLabel()->text().contains("6 of 6 weights changed"));
    const int all = visibleRows(page);
    page.changedOnlyBox()->setChecked(true);
    EXPECT_LT(visibleRows(page), all);
    EXPECT_EQ(visibleRows(page), 6 + 15 + 3);  // weights, quantizer tensors, running statistics
    // the text filter and sorting keep the unchanged rows out
    page.proxyModel()->setFilterFixedString("conv1");
    page.proxyModel()->setFilterFixedString("");
    page.tableView()->sortByColumn(0, Qt::AscendingOrder);
    EXPECT_EQ(visibleRows(page), 6 + 15 + 3);

    page.viewChooser()->setCurrentIndex(0);
    page.tableView()->sortByColumn(-1, Qt::AscendingOrder);
    EXPECT_EQ(page.proxyModel()->rowCount(), 3);  // conv1, bn1, fc: "changed only" does not apply
    EXPECT_EQ(cellText(page, 0, 0), "conv1");
    EXPECT_EQ(cellText(page, 0, 2), "? / ?") << "a state_dict keeps no bit widths";
    EXPECT_EQ(cellText(page, 0, 4), "0.01306");
    EXPECT_EQ(cellText(page, 0, 6), "[-1.237, 2.094]");
    EXPECT_EQ(cellText(page, 0, 7), "1 / 1");
    EXPECT_EQ(cellText(page, 1, 7), "- / 1") << "bn1 has an output quantizer only";
    EXPECT_FALSE(page.changedOnlyBox()->isVisible());
}

TEST(CheckpointsPage, EvidenceOfAFindingLeadsHere)
{
    AppContext context;
    CheckpointsPage page(&context);
    const AnalysisPtr a = analyzeFiles({"qat_uncalibrated.pt"});
    context.setAnalysis(a);
    const core::Finding* uncalibrated = nullptr;
    for (const auto& f : a->findings)
        if (f.id == "checkpoint.uncalibrated") uncalibrated = &f;
    ASSERT_NE(uncalibrated, nullptr);
    const NavigationTarget t = routedTo(navigationFor(*uncalibrated), a.get());
    EXPECT_EQ(t.page, "checkpoints");
    page.focusOn(t);
    const QModelIndexList selected = page.tableView()->selectionModel()->selectedRows();
    ASSERT_EQ(selected.size(), 1);
    EXPECT_EQ(selected[0].data().toString(), "conv1");
    // the flagged row is highlighted
    EXPECT_TRUE(selected[0].data(Qt::BackgroundRole).isValid());
}

TEST(CheckpointsPage, SecurityWarningIsShown)
{
    AppContext context;
    CheckpointsPage page(&context);
    context.setAnalysis(analyzeFiles({"malicious.pt"}));
    EXPECT_TRUE(page.factsLabel()->text().contains("Security:"));
    EXPECT_TRUE(page.factsLabel()->text().contains("posix.system"));
    EXPECT_EQ(page.proxyModel()->rowCount(), 9);  // a float checkpoint: its tensors
}

}  // namespace
}  // namespace qatdoctor::ui
