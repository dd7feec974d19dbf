#include "core/model/dtype.h"

#include <gtest/gtest.h>

using namespace qatdoctor::core::model;

TEST(DType, ParsesUserSpellings)
{
    EXPECT_EQ(parseDType("qint8"), DType::Int8);
    EXPECT_EQ(parseDType("torch.qint8"), DType::Int8);
    EXPECT_EQ(parseDType("'qint16'"), DType::Int16);
    EXPECT_EQ(parseDType("torch.float32"), DType::Float32);
    EXPECT_EQ(parseDType("quint8"), DType::UInt8);
    EXPECT_FALSE(parseDType("complex64").has_value());
    EXPECT_TRUE(isHighPrecision(DType::Int32));
    EXPECT_FALSE(isHighPrecision(DType::Int16));
    EXPECT_EQ(bitWidth(DType::Int16), 16);
}

TEST(DType, AQuantizersRangeNamesItsTypeOnlyWhenWhole)
{
    EXPECT_EQ(integerTypeSpanning(-128, 127), DType::Int8);
    EXPECT_EQ(integerTypeSpanning(0, 255), DType::UInt8);
    EXPECT_EQ(integerTypeSpanning(-32768, 32767), DType::Int16);
    EXPECT_EQ(integerTypeSpanning(0, 65535), DType::UInt16);
    EXPECT_FALSE(integerTypeSpanning(0, 127).has_value()) << "reduce_range: the dtype attribute decides";
    EXPECT_FALSE(integerTypeSpanning(-127, 127).has_value());
}
