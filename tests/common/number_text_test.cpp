// The one number formatter: every number people read, and the non-finite ones spelled one way.
#include "core/common/number_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace qatdoctor::core {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(NumberText, NonFiniteValuesReadTheSameEverywhere)
{
    for (auto text : {numberText(NAN, 4), fixedText(NAN, 2), signedFixedText(NAN, 2), percentText(NAN)})
        EXPECT_EQ(text, "NaN");
    for (auto text : {shortNumber(kInf), fullNumber(kInf), fixedText(kInf, 1), signedFixedText(kInf, 2),
                      percentText(kInf)})
        EXPECT_EQ(text, "+Inf");
    for (auto text : {shortNumber(-kInf), fixedText(-kInf, 1), signedFixedText(-kInf, 2)})
        EXPECT_EQ(text, "-Inf");
    EXPECT_EQ(std::string(nonFiniteText(1.0)), "");
}

TEST(NumberText, FiniteForms)
{
    EXPECT_EQ(shortNumber(0.312345), "0.3123");
    EXPECT_EQ(fullNumber(0.0003), "0.0003");
    EXPECT_EQ(fullNumber(1.4013e-45), "1.4013e-45");  // a tiny scale is not "0.000000"
    EXPECT_EQ(fixedText(14.3751, 2), "14.38");
    EXPECT_EQ(fixedText(-0.001, 2), "0.00");  // zero has no sign
    EXPECT_EQ(signedFixedText(14.3751, 2), "+14.38");
    EXPECT_EQ(signedFixedText(-0.001, 2), "+0.00");
    EXPECT_EQ(signedFixedText(-0.2, 2), "-0.20");
    EXPECT_EQ(percentText(0.812), "81.2%");
    EXPECT_EQ(byteSizeText(1536), "1.5 KiB");
}

}  // namespace
}  // namespace qatdoctor::core
