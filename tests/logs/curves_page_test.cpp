// GUI test (offscreen): the demo logs in the Training-curves page; real point counts, the NaN
// marker of the diverging run, decimation keeping the shape, export.
#include "ui/pages/curves_page.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <cstdlib>

#include "core/logs/log_reader.h"
#include "core/logs/run_palette.h"
#include "ui/common/live_watch_session.h"
#include "ui/plots/curve_data.h"
#include "ui/plots/curve_plot.h"

namespace qatdoctor::ui {
namespace {

std::shared_ptr<core::Analysis> loadLogs(const std::string& folder)
{
    auto set = core::logs::readLogFolder(folder);
    EXPECT_TRUE(set.ok()) << (set.ok() ? "" : set.error().toString());
    auto a = std::make_shared<core::Analysis>();
    if (set.ok()) a->logs = std::move(*set);
    return a;
}

TEST(CurveData, DecimationKeepsExtremesAndGaps)
{
    std::vector<double> x;
    std::vector<float> y;
    for (int i = 0; i < 100000; ++i) {
        x.push_back(i);
        y.push_back(i == 5000 ? 100.f : (i == 7000 ? NAN : static_cast<float>(std::sin(i * 0.01))));
    }
    y[90000] = INFINITY;
    const DecimatedCurve d = decimate(x, y.data(), y.size(), 0, 99999, 500);
    EXPECT_LE(d.x.size(), 500u * 4 + 10);
    EXPECT_NE(std::find(d.y.begin(), d.y.end(), 100.0), d.y.end());  // the spike survives
    ASSERT_EQ(d.badX.size(), 2u);
    EXPECT_EQ(d.badX[0], 7000);
    EXPECT_TRUE(std::isinf(d.badY[1]));
}

TEST(CurveData, DebiasedEmaStartsAtTheFirstValue)
{
    const std::vector<float> raw{1.f, 2.f, NAN, 3.f};
    const std::vector<float> s = smoothEma(raw, 0.6);
    EXPECT_FLOAT_EQ(s[0], 1.f);  // debiased: no pull towards 0
    EXPECT_NEAR(s[1], (0.4 * 0.6 + 0.4 * 2) / (1 - 0.36), 1e-5);
    EXPECT_TRUE(std::isnan(s[2]));
}

TEST(CurvesPage, DemoLogs)
{
    AppContext context;
    CurvesPage page(&context);
    page.resize(1200, 800);
    page.show();
    const std::string demo = std::string(QATDOCTOR_SOURCE_DIR) + "/resources/demo/logs";
    context.setAnalysis(loadLogs(demo));
    page.setMetrics({"loss", "val/acc"});
    CurvePlot* plot = page.plot();
    plot->redrawNow();
    EXPECT_GE(plot->curveCount(), 6);
    // the float run's loss: every point drawn (fewer points than pixels)
    const qsizetype src = plot->sourcePoints("float", "loss");
    EXPECT_EQ(src, 48);
    EXPECT_EQ(plot->drawnPoints("float", "loss"), 48);
    // QATDOCTOR_CURVES_SHOT=path.png saves the page as shown (to look at it)
    if (const QString shot = qEnvironmentVariable("QATDOCTOR_CURVES_SHOT"); !shot.isEmpty())
        page.grab().save(shot);

    // the tests/data/logs/hat fixture: QAT's loss goes NaN at step 13 -> 2 markers, labelled
    context.setAnalysis(loadLogs(std::string(QATDOCTOR_TEST_DATA) + "/logs/hat"));
    page.setMetrics({"loss", "val/acc"});
    plot->redrawNow();
    EXPECT_EQ(plot->sourcePoints("qat", "loss"), 15);
    EXPECT_EQ(plot->nonFiniteMarkers("qat", "loss"), 2);
    EXPECT_GE(plot->labelCount(), 1);
    EXPECT_NE(plot->readoutAt(13).indexOf("NaN"), -1);
    if (const QString shot = qEnvironmentVariable("QATDOCTOR_CURVES_SHOT"); !shot.isEmpty())
        page.grab().save(QString(shot).replace(".png", "_nan.png"));

    QTemporaryDir dir;
    for (const char* name : {"c.png", "c.svg", "c.pdf"}) {
        const QString path = dir.filePath(QString::fromLatin1(name));
        EXPECT_TRUE(page.exportPlot(path)) << name;
        EXPECT_GT(QFileInfo(path).size(), 1000) << name;
    }
}

TEST(CurveData, DifferenceAtEqualSteps)
{
    core::logs::Series qat, flt;
    for (int i = 0; i <= 10; ++i)
        flt.push(i * 10, 1.0f - 0.05f * static_cast<float>(i), static_cast<uint32_t>(i + 1));
    qat.push(20, 1.0f, 1);   // float logged step 20: 0.9
    qat.push(25, 1.0f, 2);   // between 20 and 30: 0.875
    qat.push(200, 1.0f, 3);  // past float's last step: left out
    qat.push(30, NAN, 4);
    const core::logs::Series d = differenceSeries(qat, flt);
    ASSERT_EQ(d.size(), 3u);
    EXPECT_NEAR(d.value[0], 0.1f, 1e-6);
    EXPECT_NEAR(d.value[1], 0.125f, 1e-6);
    EXPECT_TRUE(std::isnan(d.value[2]));
    EXPECT_EQ(d.step[2], 30);
}

TEST(CurvesPage, ReadsAtAGlance)
{
    AppContext context;
    CurvesPage page(&context);
    page.resize(1280, 800);
    page.show();
    EXPECT_TRUE(page.showsEmptyState());
    EXPECT_TRUE(page.emptyText().contains("Open a training log folder")) << page.emptyText().toStdString();

    // the demo: two QAT runs, each its own shade of the QAT family
    context.setAnalysis(loadLogs(std::string(QATDOCTOR_SOURCE_DIR) + "/resources/demo/logs"));
    EXPECT_FALSE(page.showsEmptyState());
    page.setMetrics({"loss", "lr"});
    CurvePlot* plot = page.plot();
    EXPECT_NE(plot->runColor("qat"), plot->runColor("qat_1gpu"));
    EXPECT_EQ(plot->runColor("qat").name(),
              QString::fromLatin1(core::logs::runColor(core::logs::RunRole::Qat, 0)));

    // the run filter (a regex) hides the other runs' curves; per-run show/hide
    page.setRunFilter("^qat");
    const QString csv = plot->visibleCsv();
    EXPECT_TRUE(csv.startsWith("run,role,metric,step,x,value\n"));
    EXPECT_TRUE(csv.contains("\nqat,qat,loss,"));
    EXPECT_TRUE(csv.contains("\nqat_1gpu,qat,loss,"));
    EXPECT_FALSE(csv.contains("\nfloat,")) << "filtered out";
    page.setRunShown("qat_1gpu", false);
    EXPECT_FALSE(plot->visibleCsv().contains("\nqat_1gpu,"));
    page.setRunFilter("");
    EXPECT_TRUE(plot->visibleCsv().contains("\nfloat,float,loss,"));
    QTemporaryDir dir;
    ASSERT_TRUE(page.exportPlot(dir.filePath("visible.csv")));
    QFile written(dir.filePath("visible.csv"));
    ASSERT_TRUE(written.open(QIODevice::ReadOnly));
    EXPECT_EQ(QString::fromUtf8(written.readAll()), plot->visibleCsv());

    // QAT − float at equal steps, one curve per chart for each QAT run
    const int before = plot->curveCount();
    plot->setDifference(true);
    EXPECT_GT(plot->curveCount(), before);
    EXPECT_TRUE(plot->curveNames().contains(QStringLiteral("qat − float · loss")));

    // an exploding loss: its chart goes logarithmic on its own, the lr chart need not
    context.setAnalysis(loadLogs(std::string(QATDOCTOR_TEST_DATA) + "/runs/divergence"));
    page.setMetrics({"loss", "val/acc"});
    plot->redrawNow();
    EXPECT_TRUE(plot->isLogY(0));
    EXPECT_FALSE(plot->isLogY(1));

    // "Show evidence": x and y zoomed so the point is in view, the point ringed
    NavigationTarget t;
    t.page = "curves";
    t.run = "qat";
    t.metric = "loss";
    t.step = 9.0;
    page.focusOn(t);
    ASSERT_TRUE(plot->focusPoint().has_value());
    const QPointF p = *plot->focusPoint();
    QCPAxisRect* rect = plot->axisRect(0);
    EXPECT_TRUE(rect->axis(QCPAxis::atBottom)->range().contains(p.x()));
    EXPECT_TRUE(rect->axis(QCPAxis::atLeft)->range().contains(p.y()));
    if (const QString shot = qEnvironmentVariable("QATDOCTOR_CURVES_SHOT"); !shot.isEmpty())
        page.grab().save(QString(shot).replace(".png", "_divergence.png"));

    // a crash: a line through every chart at the step it happened
    context.setAnalysis(loadLogs(std::string(QATDOCTOR_TEST_DATA) + "/runs/crashed"));
    EXPECT_GE(plot->markCount(), 1);
}

TEST(CurvesPage, OpensOnTheLossAndExplainsAReading)
{
    AppContext context;
    CurvesPage page(&context);
    page.resize(1200, 800);
    // a HAT float log: its loss is "loss", lr is logged too; the page must open on the loss
    context.setAnalysis(loadLogs(std::string(QATDOCTOR_TEST_DATA) + "/logs/wild/hat_float_neutral"));
    EXPECT_EQ(page.metrics(), (QStringList{"loss", "val/accuracy"}));
    // mmdetection (a fresh page: a page keeps the user's choice across analyses): loss, then
    // the detection metric, never lr
    AppContext other;
    CurvesPage mmdet(&other);
    other.setAnalysis(loadLogs(std::string(QATDOCTOR_TEST_DATA) + "/logs/wild/mmdet2_text"));
    EXPECT_EQ(mmdet.metrics(), (QStringList{"loss", "val/bbox_mAP"}));
    // the run's details: the layout and the lines its points came from
    mmdet.explainRun(0);
    QTRY_VERIFY_WITH_TIMEOUT(!mmdet.lastExplanation().isEmpty(), 10000);
    EXPECT_NE(mmdet.lastExplanation().indexOf("read as mmdet2_text"), -1)
        << mmdet.lastExplanation().toStdString();
    EXPECT_NE(mmdet.lastExplanation().indexOf("20240312_091544.log:31: "), -1);
    // QATDOCTOR_CURVES_SHOT=path.png also saves the explanation window (to look at it)
    if (const QString shot = qEnvironmentVariable("QATDOCTOR_CURVES_SHOT"); !shot.isEmpty())
        for (QDialog* d : mmdet.findChildren<QDialog*>())
            d->grab().save(QString(shot).replace(".png", "_explain.png"));
}

TEST(CurvesPage, LiveWatchingPicksUpAppendedLines)
{
    QTemporaryDir dir;
    QDir(dir.path()).mkdir("qat");
    const QString log = dir.filePath("qat/train.log");
    auto write = [&](const char* text, QIODevice::OpenMode mode) {
        QFile f(log);
        ASSERT_TRUE(f.open(mode));
        f.write(text);
    };
    write("Epoch[0] Step[0] GlobalStep[0] t: loss[1.0] \nEpoch[0] Step[1] GlobalStep[1] t: loss[0.9] \n",
          QIODevice::WriteOnly);
    AppContext context;
    CurvesPage page(&context);
    page.resize(900, 600);
    context.setAnalysis(loadLogs(dir.path().toStdString()));
    page.setMetrics({"loss"});
    EXPECT_EQ(page.plot()->sourcePoints("qat", "loss"), 2);
    page.setLiveWatching(true);
    // the first read runs as a background job; then appended lines arrive through the watcher
    QTRY_COMPARE_WITH_TIMEOUT(page.plot()->sourcePoints("qat", "loss"), qsizetype(2), 10000);
    QTest::qWait(200);
    write("Epoch[0] Step[2] GlobalStep[2] t: loss[nan] \n", QIODevice::Append);
    QTRY_COMPARE_WITH_TIMEOUT(page.plot()->sourcePoints("qat", "loss"), qsizetype(3), 10000);
    EXPECT_EQ(page.plot()->nonFiniteMarkers("qat", "loss"), 1);
    // the NaN is a live finding: a line on the curve at its step
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(page.plot()->marks().begin(), page.plot()->marks().end(),
                                         [](const CurveMark& m) { return m.kind == CurveMark::Kind::Live; }),
                             10000);
    const auto live = std::find_if(page.plot()->marks().begin(), page.plot()->marks().end(),
                                   [](const CurveMark& m) { return m.kind == CurveMark::Kind::Live; });
    EXPECT_EQ(live->step, 2);
    EXPECT_EQ(live->run, "qat");
    EXPECT_TRUE(live->label.startsWith("live: NaN/Inf during training")) << live->label.toStdString();
    // off again: the analysis' view, no live mark
    page.setLiveWatching(false);
    EXPECT_FALSE(context.liveWatch()->active());
    EXPECT_EQ(page.plot()->sourcePoints("qat", "loss"), 2);
}

}  // namespace
}  // namespace qatdoctor::ui
