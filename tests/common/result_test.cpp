#include "core/common/result.h"

#include <gtest/gtest.h>

#include "core/common/finding.h"

using namespace qatdoctor::core;

TEST(Result, CarriesValueOrError)
{
    Result<int> good = 42;
    ASSERT_TRUE(good.ok());
    EXPECT_EQ(*good, 42);

    Result<int> bad = makeError("io.open", "cannot open x.log", "x.log", 12);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, "io.open");
    EXPECT_EQ(bad.error().toString(), "x.log:12: cannot open x.log");
}

TEST(Result, ErrorWithOffsetPrintsOffset)
{
    Error e = makeError("tf.crc", "bad crc", "events.out", 0, 4096);
    EXPECT_EQ(e.toString(), "events.out@4096: bad crc");
}

TEST(Result, PlaceIsPrintedOnceWhenTheMessageStartsWithIt)
{
    Error e = makeError("simulate.op", "m.onnx: node 'q' is a HzQuantize op", "m.onnx");
    EXPECT_EQ(e.toString(), "m.onnx: node 'q' is a HzQuantize op");
    Error lined = makeError("logs.x", "a.log:3: bad", "a.log", 3);
    EXPECT_EQ(lined.toString(), "a.log:3: bad");
    Error other = makeError("x", "m.onnx.data missing", "m.onnx");  // a longer name is not the place
    EXPECT_EQ(other.toString(), "m.onnx: m.onnx.data missing");
}

TEST(Result, VoidResult)
{
    Result<void> ok = Ok{};
    EXPECT_TRUE(ok.ok());
    Result<void> bad = makeError("x", "y");
    EXPECT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "y");
}

TEST(Finding, SortsBySeverityThenStage)
{
    std::vector<Finding> f(3);
    f[0].id = "b";
    f[0].severity = Severity::Info;
    f[0].stage = Stage::Float;
    f[1].id = "a";
    f[1].severity = Severity::Error;
    f[1].stage = Stage::Export;
    f[2].id = "c";
    f[2].severity = Severity::Error;
    f[2].stage = Stage::Float;
    sortFindings(f);
    EXPECT_EQ(f[0].id, "c");
    EXPECT_EQ(f[1].id, "a");
    EXPECT_EQ(f[2].id, "b");
    EXPECT_EQ(parseSeverity("warning"), Severity::Warning);
    EXPECT_FALSE(parseSeverity("fatal").has_value());
}
