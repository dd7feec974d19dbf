// Watch mode in the app (offscreen): a project opened on a log folder, Watch folder ticked on
// the Overview, lines appended by the "training": the live finding appears on top of the
// findings list, the Curves page draws it on the curve, the desktop is told, and unticking
// (or opening another project) ends it.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "ui/common/live_watch_session.h"
#include "ui/main_window.h"
#include "ui/pages/curves_page.h"
#include "ui/pages/overview/findings_model.h"
#include "ui/pages/overview_page.h"
#include "ui/shell/language.h"

namespace qatdoctor::ui {
namespace {

void append(const QString& path, const QByteArray& text)
{
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::Append));
    f.write(text);
}

QByteArray trainLine(int step, const char* loss)
{
    return QStringLiteral(
               "2026-12-03 10:00:%1,120 INFO [metric_updater.py:120] Epoch[0] Step[%2] GlobalStep[%2] "
               "qat_train: loss[%3] acc[0.81] \n")
        .arg(10 + step % 50)
        .arg(step)
        .arg(QLatin1String(loss))
        .toUtf8();
}

TEST(WatchMode, ALiveFindingReachesTheListTheCurveAndTheDesktop)
{
    QTemporaryDir dir;
    ASSERT_TRUE(QDir(dir.path()).mkdir("qat"));
    const QString log = dir.filePath("qat/train.log");
    append(log, "2026-12-03 10:00:01,001 INFO [train.py:30] ==== config ====\ntraining_step: qat\n");
    for (int step = 10; step <= 80; step += 10) append(log, trainLine(step, "0.9"));

    Language language;
    MainWindow w(QATDOCTOR_SOURCE_DIR, &language);
    w.setHeadless(true);
    w.openPaths({dir.path()});
    ASSERT_TRUE(QTest::qWaitFor([&] { return !w.isBusy(); }, 60000));
    auto* overview = w.findChild<OverviewPage*>();
    auto* curves = w.findChild<CurvesPage*>();
    ASSERT_NE(overview, nullptr);
    ASSERT_NE(curves, nullptr);
    QAbstractItemModelTester tester(overview->findingsModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    const int before = overview->findingsModel()->rowCount();
    LiveWatchSession* watch = w.context()->liveWatch();

    overview->watchBox()->setChecked(true);
    ASSERT_TRUE(watch->active());
    watch->readNow();
    EXPECT_TRUE(overview->liveText().contains("nothing new so far")) << overview->liveText().toStdString();

    // an evidence row selected before the live finding arrives still shows the same evidence
    FindingsModel* model = overview->findingsModel();
    ASSERT_GT(before, 0);
    overview->findingsView()->setCurrentIndex(model->index(0, 0, model->index(0, 0)));
    const core::Evidence* selected = model->evidenceAt(overview->findingsView()->currentIndex());
    ASSERT_NE(selected, nullptr);
    const std::string selectedFinding = model->findingAt(overview->findingsView()->currentIndex())->id;

    append(log, trainLine(90, "nan"));
    QTRY_VERIFY_WITH_TIMEOUT(overview->findingsModel()->rowCount() == before + 1, 10000);
    EXPECT_EQ(model->findingAt(overview->findingsView()->currentIndex())->id, selectedFinding);
    EXPECT_EQ(model->evidenceAt(overview->findingsView()->currentIndex()), selected);
    const QModelIndex top = overview->findingsModel()->index(0, 0);
    EXPECT_TRUE(overview->findingsModel()->isLive(top));
    EXPECT_EQ(overview->findingsModel()->findingAt(top)->id, "loss.nonfinite");
    EXPECT_EQ(overview->findingsModel()->findingAt(top)->evidence.front().step, 90);
    EXPECT_TRUE(overview->findingsModel()->data(top).toString().startsWith(QStringLiteral("● live")));
    EXPECT_TRUE(overview->liveText().contains("1 new finding")) << overview->liveText().toStdString();
    // told once, through whatever this desktop offers (offscreen: no bus, no tray: the window)
    EXPECT_FALSE(w.lastNotification().isEmpty());
    // the curve has the live line at step 90
    const auto& marks = curves->plot()->marks();
    EXPECT_TRUE(std::any_of(marks.begin(), marks.end(), [](const CurveMark& m) {
        return m.kind == CurveMark::Kind::Live && m.step == 90 && m.run == "qat";
    }));

    // QATDOCTOR_WATCH_SHOT=path.png saves the Overview and the Curves page now (to look at them)
    if (const QString shot = qEnvironmentVariable("QATDOCTOR_WATCH_SHOT"); !shot.isEmpty()) {
        w.resize(1280, 800);
        w.show();
        for (const char* page : {"overview", "curves"}) {
            w.showPage(page);
            QTest::qWait(300);
            w.grab().save(QString(shot).replace(".png", QStringLiteral("_%1.png").arg(page)));
        }
    }

    // more NaN lines: the same finding is not said again
    append(log, trainLine(100, "nan"));
    watch->readNow();
    EXPECT_EQ(overview->findingsModel()->rowCount(), before + 1);

    // off: the live rows go, the analysis' stay
    overview->watchBox()->setChecked(false);
    EXPECT_FALSE(watch->active());
    EXPECT_EQ(overview->findingsModel()->rowCount(), before);
    EXPECT_TRUE(overview->liveText().isEmpty());
}

}  // namespace
}  // namespace qatdoctor::ui
