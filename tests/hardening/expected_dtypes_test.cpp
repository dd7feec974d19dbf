// The `--expect FILE` reader (core/model/expected_dtypes.h) on the committed fixture and on
// hostile files: malformed, nested, oversized, unknown dtypes. Each is an "expect.parse" error
// naming the file (and the line for malformed JSON), never an exception or a silent pass.
#include "core/model/expected_dtypes.h"

#include <gtest/gtest.h>

#include <string>

#include "core/analysis.h"
#include "tests/hardening/hardening_util.h"

namespace qatdoctor::test {
namespace {

using namespace core;

TEST(ExpectedDtypes, FixtureReadsEveryModule)
{
    auto e = model::readExpectedDtypes(dataPath("models/qat_int16.expect.json"));
    ASSERT_TRUE(e) << e.error().toString();
    EXPECT_EQ(*e, (model::ExpectedDtypes{{"conv1", "int16"}, {"conv2", "int16"}, {"fc", "float32"}}));
}

TEST(ExpectedDtypes, MalformedJsonNamesFileAndLine)
{
    auto e =
        model::parseExpectedDtypes("{\n \"conv1\": \"int16\",\n \"conv2\" \"int16\"\n}", "x.expect.json");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, "expect.parse");
    EXPECT_EQ(e.error().file, "x.expect.json");
    EXPECT_EQ(e.error().line, 3);
    EXPECT_NE(e.error().message.find("x.expect.json"), std::string::npos) << e.error().message;
}

TEST(ExpectedDtypes, HostileShapesAreRefused)
{
    const std::string many = [] {
        std::string s = "{";
        for (size_t i = 0; i <= model::kMaxExpectedDtypes; ++i)
            s += (i ? ",\"m" : "\"m") + std::to_string(i) + "\":\"int8\"";
        return s + "}";
    }();
    for (const std::string& text :
         {std::string(), std::string("[]"), std::string("\"int16\""), std::string("{\"a\": 16}"),
          std::string("{\"a\": \"int17\"}"), std::string("{\"\": \"int16\"}"),
          std::string("{\"a\": \"int16\""), std::string("{\"a\": \"\xff\"}"), nestedObjects(100000),
          nestedArrays(100000), "{\"a\": " + nestedArrays(3) + "}", many}) {
        auto e = model::parseExpectedDtypes(text, "bad.json");
        ASSERT_FALSE(e) << text.substr(0, 80);
        EXPECT_EQ(e.error().code, "expect.parse") << text.substr(0, 80);
        EXPECT_NE(e.error().message.find("bad.json"), std::string::npos) << e.error().message;
    }
    auto ok = model::parseExpectedDtypes("{\"a\": \"torch.qint16\", \"b\": \" Float32 \"}", "ok.json");
    ASSERT_TRUE(ok) << ok.error().toString();
    EXPECT_EQ(ok->at("a"), "torch.qint16");
}

TEST(ExpectedDtypes, AnalyzeRefusesABadExpectFile)
{
    TempDir dir("expect");
    writeBytes(dir / "e.json", "{\"conv1\": \"int61\"}");
    AnalyzeOptions options;
    options.paths = {dataPath("models/qat_int16.onnx")};
    options.expectPath = dir / "e.json";
    auto a = analyze(options);
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error().code, "expect.parse");
    EXPECT_NE(a.error().message.find("int61"), std::string::npos) << a.error().message;
}

}  // namespace
}  // namespace qatdoctor::test
