// Metric identification by name: the one place the rules learn what a series is.
#include "core/rules/metrics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/rules/run_builder.h"

namespace qatdoctor::core::rules {
namespace {

TEST(Metrics, ClassifiesNames)
{
    struct Row {
        const char* name;
        MetricKind kind;
        bool eval;
        bool quantized;
    };
    const Row rows[] = {
        {"loss", MetricKind::Loss, false, false},
        {"train/loss", MetricKind::Loss, false, false},
        {"qat_train/loss", MetricKind::Loss, false, false},
        {"val/loss", MetricKind::Loss, true, false},
        {"loss_val", MetricKind::Loss, true, false},
        {"aux_loss_cls", MetricKind::Loss, false, false},
        {"acc", MetricKind::Accuracy, false, false},
        {"val/acc", MetricKind::Accuracy, true, false},
        {"float_val/acc", MetricKind::Accuracy, true, false},
        {"calib_val/acc", MetricKind::Accuracy, true, false},
        {"quantized/val/acc", MetricKind::Accuracy, true, true},
        {"quantized_val/acc", MetricKind::Accuracy, true, false},  // (the reader names it quantized/val/acc)
        {"eval/top1", MetricKind::Accuracy, true, false},
        {"test/mAP", MetricKind::Accuracy, true, false},
        {"validation.mIoU", MetricKind::Accuracy, true, false},
        {"accuracy", MetricKind::Accuracy, false, false},
        {"quantized/val/acc1", MetricKind::Accuracy, true, true},
        {"board/val/acc", MetricKind::Accuracy, true, false},
        {"lr", MetricKind::LearningRate, false, false},
        {"learning_rate", MetricKind::LearningRate, false, false},
        {"grad_norm", MetricKind::Other, false, false},
        {"samples_per_sec", MetricKind::Other, false, false},
    };
    for (const Row& r : rows) {
        const MetricName m = classifyMetric(r.name);
        EXPECT_EQ(m.kind, r.kind) << r.name;
        EXPECT_EQ(m.eval, r.eval) << r.name;
        EXPECT_EQ(m.quantized, r.quantized) << r.name;
    }
}

TEST(Metrics, PrefersTheCanonicalSeries)
{
    using testing::RunBuilder;
    logs::Run run = RunBuilder("qat", logs::RunRole::Qat)
                        .series("loss_cls", {1, 2, 3, 4, 5})
                        .series("loss", {1, 2})
                        .series("val/top5", {0.9})
                        .series("val/acc", {0.7})
                        .series("quantized/val/acc", {0.6})
                        .build();
    EXPECT_EQ(trainLoss(run).name, "loss");
    EXPECT_EQ(evalAccuracy(run).name, "val/acc");
    auto q = finalQuantizedAccuracy(run);
    ASSERT_TRUE(q);
    EXPECT_FLOAT_EQ(q->value, 0.6f);
}

TEST(Metrics, MediansAndScales)
{
    EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
    EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
    logs::Series pctSeries;
    pctSeries.push(0, 81.5f, 1);
    EXPECT_DOUBLE_EQ(accuracyScale(pctSeries), 0.01);
}

TEST(Metrics, LateTrendIsTheFittedFallPerTenthOfTheRun)
{
    // 10 points falling 0.1 a point to 0.1: the last 3 fitted exactly, slope -0.1 per point, one
    // point per tenth, so the line falls 0.1 per tenth against its end level 0.1
    std::vector<double> v;
    for (int i = 0; i < 10; ++i) v.push_back(1.0 - 0.1 * i);
    LateTrend t = lateTrend(v);
    EXPECT_EQ(t.fitted, 3u);
    EXPECT_NEAR(t.fittedTo, 0.1, 1e-12);
    EXPECT_NEAR(t.fittedFrom, 0.3, 1e-12);
    EXPECT_NEAR(t.dropPerTenth, 1.0, 1e-9);
    // flat: no fall; rising: negative
    EXPECT_NEAR(lateTrend(std::vector<double>(20, 0.5)).dropPerTenth, 0.0, 1e-12);
    EXPECT_LT(lateTrend({0.1, 0.2, 0.3, 0.4, 0.5, 0.6}).dropPerTenth, 0.0);
    // too short, or a line ending at or below zero: not measured
    EXPECT_TRUE(std::isnan(lateTrend({1.0, 0.5}).dropPerTenth));
    EXPECT_TRUE(std::isnan(lateTrend({0.4, 0.1, -0.2}).dropPerTenth));
}

}  // namespace
}  // namespace qatdoctor::core::rules
