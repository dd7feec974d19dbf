// The Fixed-point page offscreen on the committed QAT fixture: the background simulation fills
// the three-way table and the error chart, the int16 what-if re-runs, weights and findings show.
#include "ui/pages/fixedpoint_page.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTemporaryDir>

#include "core/analysis.h"
#include "core/model/onnx_layer_table.h"
#include "ui/common/app_context.h"
#include "ui/common/background_job.h"
#include "ui/pages/fixedpoint/colour_panel.h"
#include "ui/pages/fixedpoint/dataset_panel.h"
#include "ui/pages/fixedpoint/layer_table.h"
#include "ui/pages/overview/ladder_strip.h"
#include "ui/pages/overview_page.h"
#include "ui/plots/fixedpoint_layer_plot.h"
#include "ui/plots/fixedpoint_lut_plot.h"
#include "ui/plots/weight_histogram.h"
#include "ui/plots/weight_view.h"

namespace qatdoctor::ui {
namespace {

using Col = FixedpointLayerTable::Column;

// An analysis of the model as the app makes it: the page simulates the graph loaded there.
std::shared_ptr<core::Analysis> analysisWith(const std::string& model)
{
    core::AnalyzeOptions options;
    options.paths = {std::string(QATDOCTOR_TEST_DATA) + "/models/" + model};
    auto a = core::analyze(options);
    EXPECT_TRUE(a) << a.error().toString();
    return std::make_shared<core::Analysis>(a ? std::move(*a) : core::Analysis{});
}

bool waitFinished(FixedpointPage& page, QSignalSpy& spy)
{
    return spy.count() > 0 || spy.wait(60000);
}

TEST(FixedpointPage, FirstShownWithASmallModelSimulatesOnItsOwnOnce)
{
    AppContext ctx;
    FixedpointPage page(&ctx);
    ctx.setAnalysis(analysisWith("qat_qdq_bn.onnx"));
    QSignalSpy done(&page, &FixedpointPage::simulationFinished);
    EXPECT_EQ(page.result(), nullptr);  // nothing runs before the page is seen
    page.show();
    ASSERT_TRUE(waitFinished(page, done));
    EXPECT_TRUE(done.takeFirst().at(0).toBool()) << page.summary()->text().toStdString();
    ASSERT_NE(page.result(), nullptr);
    EXPECT_EQ(page.layerModel()->rowCount(), 4);
    ASSERT_TRUE(ctx.analysis()->simulation.has_value());  // attached like a pressed Simulate
    // Shown again: the result is kept, nothing re-runs.
    page.hide();
    page.show();
    QApplication::processEvents();
    EXPECT_FALSE(page.job()->running());
    EXPECT_EQ(done.count(), 0);
}

TEST(FixedpointPage, SimulatesThePrimaryModelInTheBackground)
{
    qRegisterMetaType<BackgroundJob*>();
    AppContext ctx;
    QSignalSpy announced(&ctx, &AppContext::jobAnnounced);
    FixedpointPage page(&ctx);
    EXPECT_EQ(announced.count(), 3);     // the simulation, the colour comparison and the dataset evaluation
    EXPECT_FALSE(page.runSimulation());  // no model yet
    ctx.setAnalysis(analysisWith("qat_qdq_bn.onnx"));
    page.setInputFile(QString(QATDOCTOR_TEST_DATA) + "/models/qat_qdq_bn.input_0.npy");
    page.setSensitivityEnabled(true);
    QSignalSpy done(&page, &FixedpointPage::simulationFinished);
    QSignalSpy progress(page.job(), &BackgroundJob::progress);
    ASSERT_TRUE(page.runSimulation());
    ASSERT_TRUE(waitFinished(page, done));
    EXPECT_TRUE(done.takeFirst().at(0).toBool()) << page.summary()->text().toStdString();
    EXPECT_GT(progress.count(), 0);
    ASSERT_EQ(page.layerModel()->rowCount(), 4);
    EXPECT_EQ(page.layerModel()->item(0, Col::ColLayer)->text(), "conv1");
    EXPECT_EQ(page.layerModel()->item(3, Col::ColLayer)->text(), "fc");
    // the table shows every figure of the chosen pair: fake vs int first, then float vs fake
    const auto& fcFakeInt = page.result()->comparisons[3].pairs.at("fake_int");
    EXPECT_EQ(page.layerModel()->item(3, Col::ColCosine)->data(Qt::UserRole).toDouble(), fcFakeInt.cosine);
    EXPECT_EQ(page.layerModel()->item(3, Col::ColMse)->data(Qt::UserRole).toDouble(), fcFakeInt.mse);
    EXPECT_EQ(page.layerModel()->item(3, Col::ColLsb)->data(Qt::UserRole).toDouble(), fcFakeInt.maxErrLsb);
    page.layerTable()->setPair("float_fake");
    const auto& fcFloatFake = page.result()->comparisons[3].pairs.at("float_fake");
    EXPECT_EQ(page.layerModel()->item(3, Col::ColL1)->data(Qt::UserRole).toDouble(), fcFloatFake.l1);
    EXPECT_EQ(page.layerModel()->item(3, Col::ColMaxAbs)->data(Qt::UserRole).toDouble(), fcFloatFake.maxAbs);
    EXPECT_NE(fcFloatFake.maxAbs, fcFakeInt.maxAbs);
    page.layerTable()->setPair("fake_int");
    EXPECT_EQ(page.layerPlot()->pointCount(), 4);
    EXPECT_EQ(page.layerPlot()->markedLayer(), -1);  // fake and int agree on this model
    EXPECT_TRUE(page.layerPlot()->hoverText(0).contains("conv1"));
    EXPECT_TRUE(page.layerPlot()->hoverText(0).contains("fake_int"));
    EXPECT_EQ(page.sensitivityModel()->rowCount(), 4);
    EXPECT_EQ(page.weightList()->count(), 3);
    EXPECT_GT(page.weightHistogram()->gridLineCount(), 0);
    // per-channel weights: one channel at a time, with that channel's scale for the grid
    const auto& conv1 = page.result()->weights[0];
    ASSERT_EQ(conv1.layer, "conv1");
    QSpinBox* channel = page.weightView()->channelPicker();
    EXPECT_FALSE(channel->isHidden());
    EXPECT_EQ(channel->maximum(), conv1.channels - 1);
    EXPECT_EQ(page.weightHistogram()->valueCount(), conv1.count / conv1.channels);  // 3x3x3 of channel 0
    const double scale0 = page.weightHistogram()->gridScale();
    channel->setValue(5);
    EXPECT_EQ(page.weightHistogram()->valueCount(), conv1.count / conv1.channels);
    EXPECT_GT(page.weightHistogram()->gridScale(), 0.0);
    EXPECT_NE(page.weightHistogram()->gridScale(), scale0);
    // no LUT op in this model: the tab says so instead of showing empty axes
    EXPECT_TRUE(page.lutPlot()->message().contains("No look-up-table op"));
    EXPECT_TRUE(page.summary()->text().contains("int"));

    // what-if: fc at int16 re-runs and reports the gain against the unchanged model
    page.setLayerTicked("fc", true);
    page.setSensitivityEnabled(false);
    ASSERT_TRUE(page.runSimulation());
    ASSERT_TRUE(waitFinished(page, done));
    EXPECT_TRUE(done.takeFirst().at(0).toBool());
    EXPECT_TRUE(page.summary()->text().contains("gain")) << page.summary()->text().toStdString();
    ASSERT_NE(page.result(), nullptr);
    EXPECT_EQ(page.layerModel()->item(3, Col::ColInt16)->checkState(), Qt::Checked);
    EXPECT_EQ(page.result()->int16Layers, std::set<std::string>{"fc"});

    // float what-if: ticking float for fc unticks its int16 (one or the other), and the run says so
    page.layerModel()->item(3, Col::ColFloat)->setCheckState(Qt::Checked);
    EXPECT_EQ(page.layerModel()->item(3, Col::ColInt16)->checkState(), Qt::Unchecked);
    EXPECT_EQ(page.layerTable()->layersAt(FixedpointLayerTable::WhatIf::Float), std::set<std::string>{"fc"});
    EXPECT_TRUE(page.layerTable()->layersAt(FixedpointLayerTable::WhatIf::Int16).empty());
    ASSERT_TRUE(page.runSimulation());
    ASSERT_TRUE(waitFinished(page, done));
    EXPECT_TRUE(done.takeFirst().at(0).toBool());
    EXPECT_EQ(page.result()->floatLayers, std::set<std::string>{"fc"});
    EXPECT_TRUE(page.summary()->text().contains("1 in float")) << page.summary()->text().toStdString();
    EXPECT_EQ(ctx.pageState("fixedpoint").value("float").toArray(), QJsonArray{"fc"});

    if (qEnvironmentVariableIsSet("QATDOCTOR_SHOT_DIR")) {
        page.resize(1200, 800);
        page.grab().save(qEnvironmentVariable("QATDOCTOR_SHOT_DIR") + "/fixedpoint_page.png");
    }
}

TEST(FixedpointPage, TakesAnImageScaledToTheModelInput)
{
    QTemporaryDir dir;
    QImage img(40, 20, QImage::Format_RGB888);
    img.fill(QColor(200, 30, 60));
    const QString png = dir.filePath("in.png");
    ASSERT_TRUE(img.save(png));
    AppContext ctx;
    FixedpointPage page(&ctx);
    ctx.setAnalysis(analysisWith("qat_qdq.onnx"));
    page.setInputFile(png);
    QSignalSpy done(&page, &FixedpointPage::simulationFinished);
    ASSERT_TRUE(page.runSimulation());
    ASSERT_TRUE(waitFinished(page, done));
    EXPECT_TRUE(done.takeFirst().at(0).toBool()) << page.summary()->text().toStdString();
    EXPECT_EQ(page.layerModel()->rowCount(), 4);
}

TEST(FixedpointPage, ColourTabShowsYuvFedToAnRgbModelSideBySide)
{
    AppContext ctx;
    FixedpointPage page(&ctx);
    FixedpointColourPanel* panel = page.colourPanel();
    ASSERT_NE(panel, nullptr);
    EXPECT_FALSE(panel->compare());  // no model, no image
    ctx.setAnalysis(analysisWith("qat_qdq.onnx"));
    page.setInputFile(QString(QATDOCTOR_TEST_DATA) + "/models/qat_qdq.input_0.npy");
    EXPECT_FALSE(panel->compare());  // not an image
    // a real PNG (48x40, tests/gen/make_colour_image.py), decoded and scaled to 32x32 by Qt
    page.setInputFile(QString(QATDOCTOR_TEST_DATA) + "/fixedpoint/scene_48x40.png");
    EXPECT_EQ(panel->trainedCombo()->currentData().toInt(), int(core::fixedpoint::ColourFormat::Rgb));
    EXPECT_EQ(panel->fedCombo()->currentData().toInt(), int(core::fixedpoint::ColourFormat::Yuv444Centered));
    QSignalSpy done(panel, &FixedpointColourPanel::comparisonFinished);
    ASSERT_TRUE(panel->compare());
    ASSERT_TRUE(done.count() > 0 || done.wait(60000));
    EXPECT_TRUE(done.takeFirst().at(0).toBool()) << panel->summary()->text().toStdString();
    ASSERT_EQ(panel->model()->rowCount(), 4);
    EXPECT_EQ(panel->model()->item(0, 0)->text(), "conv1");
    const double quantOnly = panel->model()->item(0, 2)->data(Qt::UserRole).toDouble();
    const double mismatch = panel->model()->item(0, 3)->data(Qt::UserRole).toDouble();
    EXPECT_LT(mismatch + 10.0, quantOnly);
    EXPECT_TRUE(panel->model()->horizontalHeaderItem(3)->text().contains("YUV444"));
    EXPECT_TRUE(panel->summary()->text().contains("conv1")) << panel->summary()->text().toStdString();
    ASSERT_NE(panel->result(), nullptr);
    EXPECT_EQ(panel->result()->firstBadLayer, "conv1");

    // the same form on both sides agrees everywhere
    panel->fedCombo()->setCurrentIndex(panel->fedCombo()->findData(int(core::fixedpoint::ColourFormat::Rgb)));
    ASSERT_TRUE(panel->compare());
    ASSERT_TRUE(done.count() > 0 || done.wait(60000));
    EXPECT_TRUE(done.takeFirst().at(0).toBool());
    EXPECT_TRUE(panel->result()->firstBadLayer.empty());
    EXPECT_TRUE(panel->summary()->text().contains("agree")) << panel->summary()->text().toStdString();
    if (qEnvironmentVariableIsSet("QATDOCTOR_SHOT_DIR")) {
        panel->fedCombo()->setCurrentIndex(
            panel->fedCombo()->findData(int(core::fixedpoint::ColourFormat::Yuv444Centered)));
        ASSERT_TRUE(panel->compare());
        ASSERT_TRUE(done.count() > 0 || done.wait(60000));
        page.resize(1200, 700);
        page.tabs()->setCurrentWidget(panel);
        page.grab().save(qEnvironmentVariable("QATDOCTOR_SHOT_DIR") + "/fixedpoint_colour.png");
    }
}

// A model the analysis found but could not read (a damaged file in a project folder becomes a
// warning): the page runs nothing and says which file and why.
TEST(FixedpointPage, ReportsAnUnreadableModel)
{
    AppContext ctx;
    FixedpointPage page(&ctx);
    auto a = std::make_shared<core::Analysis>();
    auto refused =
        core::model::loadOnnxLayerTable(std::string(QATDOCTOR_TEST_DATA) + "/models/not_onnx.onnx");
    ASSERT_FALSE(refused);
    a->warnings.push_back(refused.error());
    ctx.setAnalysis(a);
    EXPECT_FALSE(page.runSimulation());
    EXPECT_TRUE(page.headerText().contains("not_onnx.onnx")) << page.headerText().toStdString();
    EXPECT_TRUE(page.headerText().contains("could not be read")) << page.headerText().toStdString();
}

// A model built to part at its 16-bit Tanh table (tests/gen/make_simulation_cases.py): the chart
// marks that layer, the table colours it, and the LUT tab draws its table against the function.
TEST(FixedpointPage, MarksTheFirstBadLayerAndDrawsItsTable)
{
    AppContext ctx;
    FixedpointPage page(&ctx);
    ctx.setAnalysis(analysisWith("../fixedpoint/sim_cases/coarse_tanh.onnx"));
    page.setInputFile(QString(QATDOCTOR_TEST_DATA) + "/fixedpoint/sim_cases/coarse_tanh.input_0.npy");
    QSignalSpy done(&page, &FixedpointPage::simulationFinished);
    ASSERT_TRUE(page.runSimulation());
    ASSERT_TRUE(waitFinished(page, done));
    EXPECT_TRUE(done.takeFirst().at(0).toBool()) << page.summary()->text().toStdString();
    ASSERT_EQ(page.layerModel()->rowCount(), 2);
    EXPECT_EQ(page.layerPlot()->markedLayer(), 1);
    EXPECT_TRUE(page.layerPlot()->hoverText(1).contains("tanh"));
    EXPECT_EQ(page.layerModel()->item(1, Col::ColLayer)->foreground().color(), QColor(200, 0, 0));
    EXPECT_NE(page.layerModel()->item(0, Col::ColLayer)->foreground().color(), QColor(200, 0, 0));
    EXPECT_TRUE(page.summary()->text().contains("tanh")) << page.summary()->text().toStdString();
    EXPECT_GT(page.lutPlot()->sampleCount(), 10);
    EXPECT_TRUE(page.lutPlot()->message().isEmpty());
}

// The last simulation's settings live in the page state (the session); a fresh context that
// restores them simulates the same model again on its own, unshown, and ticks the what-if layers.
TEST(FixedpointPage, SessionStateSimulatesAgainWithTheSameSettings)
{
    QJsonObject saved;
    {
        AppContext ctx;
        FixedpointPage page(&ctx);
        ctx.setAnalysis(analysisWith("qat_qdq_bn.onnx"));
        QSignalSpy done(&page, &FixedpointPage::simulationFinished);
        ASSERT_TRUE(page.runSimulation());
        ASSERT_TRUE(waitFinished(page, done));
        const QString layer = page.layerModel()->item(1, Col::ColLayer)->text();
        page.setLayerTicked(layer, true);
        done.clear();
        ASSERT_TRUE(page.runSimulation());  // the what-if
        ASSERT_TRUE(waitFinished(page, done));
        saved = ctx.pageState("fixedpoint");
        EXPECT_TRUE(saved.value("model").toString().endsWith("qat_qdq_bn.onnx"));
        EXPECT_EQ(saved.value("int16").toArray(), QJsonArray{layer});
    }
    AppContext ctx;
    FixedpointPage page(&ctx);
    QSignalSpy done(&page, &FixedpointPage::simulationFinished);
    ctx.restorePageState(QJsonObject{{"fixedpoint", saved}});
    ctx.setAnalysis(analysisWith("qat_qdq_bn.onnx"));
    ASSERT_TRUE(waitFinished(page, done)) << "a restored session re-runs without the page being shown";
    ASSERT_TRUE(ctx.analysis()->simulation.has_value());
    const QString ticked = saved.value("int16").toArray().at(0).toString();
    bool found = false;
    for (int r = 0; r < page.layerModel()->rowCount(); ++r)
        if (page.layerModel()->item(r, Col::ColLayer)->text() == ticked) {
            found = true;
            EXPECT_EQ(page.layerModel()->item(r, Col::ColInt16)->checkState(), Qt::Checked);
        }
    EXPECT_TRUE(found);
    // a state saved for another model is not applied: the small model arriving is simulated
    // with the defaults (so the wizard's simulation answers come without a visit to the page)
    AppContext other;
    FixedpointPage otherPage(&other);
    QSignalSpy otherDone(&otherPage, &FixedpointPage::simulationFinished);
    other.restorePageState(QJsonObject{{"fixedpoint", saved}});
    other.setAnalysis(analysisWith("qat_qdq.onnx"));
    ASSERT_TRUE(waitFinished(otherPage, otherDone));
    ASSERT_NE(otherPage.result(), nullptr);
    EXPECT_TRUE(otherPage.result()->int16Layers.empty());
    EXPECT_TRUE(other.analysis()->simulation.has_value());
    EXPECT_TRUE(other.pageState("fixedpoint").value("int16").toArray().isEmpty());
}

// Another rounding for the same model and input: the summary names the layers whose integer
// results changed. The power-of-two model's multipliers are exact, so ties to even (ONNX
// Runtime's rounding) and ties away from zero part exactly where a product lands on a half.
TEST(FixedpointPage, ReRunWithAnotherRoundingNamesTheLayersThatChanged)
{
    AppContext ctx;
    FixedpointPage page(&ctx);
    ctx.setAnalysis(analysisWith("wild/pow2_qdq.onnx"));
    page.setInputFile(QString(QATDOCTOR_TEST_DATA) + "/models/wild/pow2_qdq.input_0.npy");
    QSignalSpy done(&page, &FixedpointPage::simulationFinished);
    auto simulateWith = [&](const QString& label) {
        const int index = page.requantBox()->findText(label);
        EXPECT_GE(index, 0) << label.toStdString();
        page.requantBox()->setCurrentIndex(index);
        done.clear();
        EXPECT_TRUE(page.runSimulation());
        EXPECT_TRUE(waitFinished(page, done));
        return page.summary()->text();
    };
    EXPECT_FALSE(simulateWith("fixed point, ties to even").contains("Requantization"));
    const QString away = simulateWith("fixed point, ties away from zero");
    EXPECT_TRUE(
        away.contains("Requantization fixed point, ties to even → fixed point, ties "
                      "away from zero: the integer results of"))
        << away.toStdString();
    const core::fixedpoint::SimulationResult* r = page.result();
    ASSERT_NE(r, nullptr);
    EXPECT_TRUE(away.contains(QString::fromStdString(r->layers.back().name))) << away.toStdString();
    if (qEnvironmentVariableIsSet("QATDOCTOR_SHOT_DIR")) {  // to look at, not asserted
        page.resize(1280, 800);
        page.grab().save(qEnvironmentVariable("QATDOCTOR_SHOT_DIR") + "/fixedpoint_rounding.png");
    }
    // float multiply rounds ties to even too: on exact multipliers nothing changes against it
    const QString back = simulateWith("float multiply (reference runtimes)");
    EXPECT_TRUE(
        back.contains("ties away from zero → float multiply (reference runtimes): the integer results"))
        << back.toStdString();
    const QString same = simulateWith("fixed point, ties to even");
    EXPECT_TRUE(same.contains("no layer's integer result changed")) << same.toStdString();
}

// "Evaluate on a dataset": the labelled set of tests/data/ladder in the background; the rows
// per mode, the result attached to the analysis as the ladder's simulated rungs, and the
// Overview's ladder strip showing them beside the logged stages (first bad step marked).
TEST(FixedpointPage, DatasetEvaluationJoinsTheLadder)
{
    const std::string ladder = std::string(QATDOCTOR_TEST_DATA) + "/ladder/";
    core::AnalyzeOptions options;
    options.paths = {ladder + "model.onnx",
                     std::string(QATDOCTOR_TEST_DATA) + "/diagnosis/quantized_gap_folders"};
    auto a = core::analyze(options);
    ASSERT_TRUE(a) << a.error().toString();
    AppContext ctx;
    FixedpointPage page(&ctx);
    OverviewPage overview(&ctx);
    ctx.setAnalysis(std::make_shared<core::Analysis>(std::move(*a)));
    EXPECT_EQ(overview.ladderStrip()->stageCount(), 4);
    EXPECT_EQ(overview.ladderStrip()->firstBadIndex(), 3);  // QAT -> quantized
    FixedpointDatasetPanel* panel = page.datasetPanel();
    EXPECT_FALSE(panel->evaluate());  // no dataset yet
    panel->setDataset(QString::fromStdString(ladder + "images.npy"));
    panel->setLabels(QString::fromStdString(ladder + "labels.npy"));
    QSignalSpy done(panel, &FixedpointDatasetPanel::evaluationFinished);
    ASSERT_TRUE(panel->evaluate());
    ASSERT_TRUE(done.count() > 0 || done.wait(60000));
    EXPECT_TRUE(done.takeFirst().at(0).toBool()) << panel->summary()->text().toStdString();
    ASSERT_EQ(panel->model()->rowCount(), 3);
    EXPECT_TRUE(panel->model()->item(2, 1)->text().contains(QStringLiteral("333/400")))
        << panel->model()->item(2, 1)->text().toStdString();
    EXPECT_TRUE(panel->summary()->text().contains(QStringLiteral("3 of 400 samples change their answer")));
    ASSERT_EQ(ctx.analysis()->evaluations.size(), 1u);
    EXPECT_EQ(overview.ladderStrip()->stageCount(), 7);
    EXPECT_TRUE(overview.ladderStrip()->stageText(6).contains(QStringLiteral("83.2%")))
        << overview.ladderStrip()->stageText(6).toStdString();
    EXPECT_EQ(overview.ladderStrip()->firstBadIndex(), 3);
    QTemporaryDir dir;
    const QString saved = dir.filePath(QStringLiteral("evaluation.json"));
    ASSERT_TRUE(panel->saveResult(saved));
    options.paths.push_back(saved.toStdString());
    auto again = core::analyze(options);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->ladder.rungs.size(), 7u);  // the saved result is read back as the same rungs
}

}  // namespace
}  // namespace qatdoctor::ui
