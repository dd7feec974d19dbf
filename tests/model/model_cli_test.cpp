// qatdoctor-cli model FILE [--json] [--expect FILE] on the committed fixtures.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli/cli_command.h"
#include "tests/cli/cli_run.h"

using namespace qatdoctor::cli;

namespace {

const std::string kModels = std::string(QATDOCTOR_TEST_DATA) + "/models/";

using qatdoctor::cli::test_support::cli;
using qatdoctor::cli::test_support::CliRun;

}  // namespace

TEST(ModelCli, JsonHasModelLayersAndFindings)
{
    const CliRun r =
        cli({"model", kModels + "qat_int16.onnx", "--json", "--expect", kModels + "qat_int16.expect.json"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["model"]["opset"], 13);
    EXPECT_EQ(j["model"]["format"], "onnx");
    EXPECT_EQ(j["model"]["inputs"], nlohmann::json::array({"input"}));
    EXPECT_EQ(j["model"]["outputs"], nlohmann::json::array({"logits"}));
    ASSERT_EQ(j["layers"].size(), 4u);
    const auto& conv1 = j["layers"][0];
    EXPECT_EQ(conv1["name"], "conv1");
    EXPECT_EQ(conv1["op"], "Conv");
    EXPECT_EQ(conv1["input_dtypes"], nlohmann::json::array({"int8"}));
    EXPECT_EQ(conv1["output_dtype"], "int16");
    EXPECT_TRUE(conv1["output_scale"].is_number());
    EXPECT_TRUE(conv1.contains("weight_dtype") && conv1.contains("weight_granularity") &&
                conv1.contains("flags"));
    ASSERT_EQ(j["findings"].size(), 1u);
    EXPECT_EQ(j["findings"][0]["id"], "model.int16_not_applied");
    EXPECT_EQ(j["findings"][0]["evidence"][0]["layer"], "conv2");
    EXPECT_EQ(j["findings"][0]["faq"], "qat.int16_not_applied");
}

TEST(ModelCli, TextTableAndDamagedFile)
{
    const CliRun ok = cli({"model", kModels + "qat_shared_add.onnx"});
    EXPECT_EQ(ok.code, kExitOk);
    EXPECT_NE(ok.out.find("opset 13"), std::string::npos);
    EXPECT_NE(ok.out.find("model.shared_quant_params"), std::string::npos);
    const CliRun bad = cli({"model", kModels + "truncated.onnx"});
    EXPECT_EQ(bad.code, kExitUsage);
    EXPECT_NE(bad.err.find("truncated.onnx"), std::string::npos);
    const CliRun err = cli({"model", kModels + "qat_uncalibrated.onnx", "--fail-on", "error"});
    EXPECT_EQ(err.code, kExitFindings);  // uncalibrated scale is an error
}

TEST(ModelCli, Opset21JsonDtypesAndGranularity)
{
    const CliRun r = cli({"model", kModels + "opset21_int32_out.onnx", "--json"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["model"]["opset"], 21);
    EXPECT_EQ(j["model"]["outputs"], nlohmann::json::array({"logits", "feature"}));
    ASSERT_EQ(j["layers"].size(), 3u);
    EXPECT_EQ(j["layers"][0]["input_dtypes"], nlohmann::json::array({"int16"}));
    EXPECT_EQ(j["layers"][0]["output_dtype"], "uint16");
    EXPECT_EQ(j["layers"][1]["name"], "head_a");
    EXPECT_EQ(j["layers"][1]["weight_dtype"], "int16");
    EXPECT_EQ(j["layers"][1]["weight_granularity"], "per-channel(axis=0)");
    EXPECT_EQ(j["layers"][1]["output_dtype"], "int32");
    EXPECT_EQ(j["layers"][2]["weight_dtype"], "uint16");
    EXPECT_EQ(j["layers"][2]["output_dtype"], "float32");
    EXPECT_TRUE(j["findings"].empty());

    const CliRun h = cli({"model", kModels + "opset21_fp16.onnx", "--json"});
    ASSERT_EQ(h.code, kExitOk) << h.err;
    const auto k = nlohmann::json::parse(h.out);
    EXPECT_EQ(k["layers"][1]["input_dtypes"], nlohmann::json::array({"float16"}));
    EXPECT_EQ(k["layers"][1]["weight_dtype"], "float16");
    EXPECT_EQ(k["layers"][3]["output_dtype"], "float16");
    EXPECT_TRUE(k["findings"].empty());
}
