// The one y-axis rule of the app's curves and the report's charts.
#include "core/common/y_scale.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace qatdoctor::core {
namespace {

TEST(YScale, ExplodingLossGoesLogarithmic)
{
    std::vector<double> loss;
    for (int i = 0; i < 200; ++i) loss.push_back(0.5 * std::pow(1.08, i));  // 0.5 .. 2.3e6
    const YScale s = chooseYScale(loss);
    ASSERT_TRUE(s.valid);
    EXPECT_TRUE(s.log);
    EXPECT_LT(s.lo, 0.5);
    EXPECT_GT(s.hi, loss.back());
    EXPECT_EQ(s.above + s.below, 0u);
}

TEST(YScale, OneSpikeIsLeftOffTheScaleAndCounted)
{
    // a val loss around 0.4 with one evaluation at 60: two decades, so not log; linear over all
    // would squeeze the other nine points into a line
    std::vector<double> val{0.52, 0.47, 0.44, 0.43, 60.0, 0.41, 0.40, 0.40, 0.39, 0.39};
    const YScale s = chooseYScale(val);
    ASSERT_TRUE(s.valid);
    EXPECT_FALSE(s.log);
    EXPECT_EQ(s.above, 1u);
    EXPECT_EQ(s.below, 0u);
    EXPECT_LT(s.hi, 1.0);
    EXPECT_LT(s.lo, 0.39);
}

TEST(YScale, TheStartOfTrainingIsNeverHidden)
{
    // a long loss curve whose first 3% are high on purpose: too many to be outliers
    std::vector<double> loss;
    for (int i = 0; i < 1000; ++i) loss.push_back(i < 30 ? 7.0 - i * 0.2 : 0.5 + 0.01 * std::sin(i));
    const YScale s = chooseYScale(loss);
    EXPECT_EQ(s.above, 0u);
    EXPECT_GT(s.hi, 7.0);
}

TEST(YScale, NegativeValuesStayLinearAndModesAreHonoured)
{
    const std::vector<double> diff{-0.2, -0.1, 0.05, 0.3};
    EXPECT_FALSE(chooseYScale(diff).log);
    const std::vector<double> lr{1e-6, 1e-4, 1e-2, 0.1};
    EXPECT_TRUE(chooseYScale(lr).log);
    EXPECT_FALSE(chooseYScale(lr, YAxisMode::Linear).log);
    const std::vector<double> narrow{0.5, 0.6};
    const YScale log = chooseYScale(narrow, YAxisMode::Log);
    EXPECT_TRUE(log.log);
    EXPECT_GT(log.lo, 0);
    const std::vector<double> none{NAN, INFINITY};
    EXPECT_FALSE(chooseYScale(none).valid);
}

}  // namespace
}  // namespace qatdoctor::core
