// One engine, every entry point, the app's part: a project opened in the main window (offscreen)
// lists exactly the findings `analyze` gives for the same folder, on cases of the diagnosis corpus
// and the stage fixtures (tests/rules/entry_points_test.cpp covers the CLI's faces).
#include <gtest/gtest.h>

#include <QTest>
#include <set>

#include "core/analysis.h"
#include "ui/main_window.h"
#include "ui/pages/overview/findings_model.h"
#include "ui/pages/overview_page.h"
#include "ui/shell/language.h"

namespace qatdoctor::ui {
namespace {

TEST(EntryPointsGui, TheAppListsTheFindingsAnalyzeGives)
{
    const std::string data = QATDOCTOR_TEST_DATA;
    for (const std::string& dir :
         {data + "/diagnosis/nan_loss_folders", data + "/diagnosis/quantized_gap_one_log",
          data + "/diagnosis/not_learning_tensorboard", data + "/diagnosis/healthy_sweep",
          data + "/logs/stages/announced", data + "/logs/stages/torchvision_qat"}) {
        core::AnalyzeOptions options;
        options.paths = {dir};
        auto a = core::analyze(options);
        ASSERT_TRUE(a.ok()) << dir;
        std::multiset<std::string> expected;
        for (const core::Finding& f : a->findings) expected.insert(f.id);

        Language language;
        MainWindow w(QATDOCTOR_SOURCE_DIR, &language);
        w.setHeadless(true);
        w.openPaths({QString::fromStdString(dir)});
        ASSERT_TRUE(QTest::qWaitFor([&] { return !w.isBusy(); }, 60000)) << dir;
        auto* overview = w.findChild<OverviewPage*>();
        ASSERT_NE(overview, nullptr);
        FindingsModel* m = overview->findingsModel();
        std::multiset<std::string> shown;
        for (int r = 0; r < m->rowCount(); ++r)
            shown.insert(m->index(r, FindingsModel::IdColumn).data().toString().toStdString());
        EXPECT_EQ(shown, expected) << dir;
    }
}

}  // namespace
}  // namespace qatdoctor::ui
