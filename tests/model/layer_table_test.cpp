// The per-layer table and the lints on the committed ONNX fixtures, checked against the facts
// tests/gen/onnx_facts.py wrote into tests/data/models/MANIFEST.json (a new fixture = a new row).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "core/analysis.h"
#include "core/model/model_graph.h"
#include "core/model/onnx_layer_table.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::model;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kModels = fs::path(QATDOCTOR_TEST_DATA) / "models";

json manifest()
{
    std::ifstream in(kModels / "MANIFEST.json");
    return json::parse(in);
}

std::vector<std::string> modelFiles()
{
    std::vector<std::string> out;
    const json m = manifest();
    for (auto& [file, facts] : m["files"].items())
        if (facts.contains("layers")) out.push_back(file);
    return out;
}

const Layer* byNode(const LayerTable& t, const std::string& node)
{
    for (const Layer& l : t.layers)
        if (l.source.node == node) return &l;
    return nullptr;
}

std::string testName(const testing::TestParamInfo<std::string>& info)
{
    std::string s = fs::path(info.param).stem().string() + "_" + std::to_string(info.index);
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return s;
}

class ManifestModel : public testing::TestWithParam<std::string> {
protected:
    json facts() const { return manifest()["files"][GetParam()]; }
    std::string path() const { return (kModels / GetParam()).lexically_normal().string(); }
};

}  // namespace

TEST_P(ManifestModel, LayerTableMatchesFacts)
{
    const json f = facts();
    auto table = loadOnnxLayerTable(path());
    ASSERT_TRUE(table) << table.error().toString();
    EXPECT_EQ(table->format, "onnx");
    EXPECT_EQ(table->opset, f["opset"].get<int64_t>());
    ASSERT_EQ(table->layers.size(), f["layers"].size());
    std::vector<std::string> outputs;
    for (const json& o : f["outputs"]) outputs.push_back(o["name"]);
    EXPECT_EQ(table->graphOutputs, outputs);

    for (const json& fl : f["layers"]) {
        const std::string node = fl["node"];
        SCOPED_TRACE(node);
        const Layer* l = byNode(*table, node);
        ASSERT_NE(l, nullptr);
        const std::string module = fl["module"];
        if (!module.empty())
            EXPECT_TRUE(l->name == module || l->name.rfind(module + " (", 0) == 0) << l->name;
        const std::string op = fl.contains("domain")
                                   ? fl["domain"].get<std::string>() + "::" + fl["op"].get<std::string>()
                                   : fl["op"].get<std::string>();
        EXPECT_EQ(l->op, op);
        std::vector<std::string> inputs;
        for (DType d : l->inputDtypes) inputs.push_back(dtypeName(d));
        EXPECT_EQ(inputs, fl["input_dtypes"].get<std::vector<std::string>>());
        EXPECT_EQ(dtypeName(l->outputDtype), fl["output_dtype"].get<std::string>());
        if (fl["output_scale"].is_number()) {
            ASSERT_TRUE(l->outputQuant.has_value());
            ASSERT_EQ(l->outputQuant->scales.size(), 1u);
            EXPECT_FLOAT_EQ(l->outputQuant->scales[0], fl["output_scale"].get<float>());
            if (fl.contains("output_zero_point") && fl["output_zero_point"].is_number())
                EXPECT_EQ(l->outputQuant->zeroPoints.at(0), fl["output_zero_point"].get<int64_t>());
            if (fl.contains("output_clip") && fl["output_clip"][1].is_number())
                EXPECT_EQ(l->outputQuant->qmax, fl["output_clip"][1].get<int64_t>());
            if (fl.contains("output_scale_tensor"))
                EXPECT_EQ(l->outputQuant->scaleSource, fl["output_scale_tensor"].get<std::string>());
        } else if (!fl.contains("output_scale") || fl["output_scale"].is_null()) {
            EXPECT_FALSE(l->outputQuant.has_value());
        }
        if (fl.contains("weight_dtype")) {
            EXPECT_EQ(dtypeName(l->weightDtype), fl["weight_dtype"].get<std::string>());
            const json& g = fl["weight_granularity"];
            if (g.is_null()) {
                EXPECT_EQ(granularityName(*l), "");
            } else if (g == "per-channel") {
                EXPECT_EQ(granularityName(*l),
                          "per-channel(axis=" + std::to_string(fl["weight_axis"].get<int>()) + ")");
            } else {
                EXPECT_EQ(granularityName(*l), "per-tensor");
            }
            if (fl.contains("weight_scale_range")) {
                ASSERT_TRUE(l->weightQuant.has_value());
                const auto& s = l->weightQuant->scales;
                EXPECT_FLOAT_EQ(*std::min_element(s.begin(), s.end()),
                                fl["weight_scale_range"][0].get<float>());
                EXPECT_FLOAT_EQ(*std::max_element(s.begin(), s.end()),
                                fl["weight_scale_range"][1].get<float>());
            }
        }
    }
    for (const auto& [output, ol] : f["output_layers"].items()) {
        if (ol.is_null()) continue;
        const Layer* l = byNode(*table, ol["layer"]);
        ASSERT_NE(l, nullptr);
        EXPECT_NE(std::find(l->flags.begin(), l->flags.end(), "graph_output"), l->flags.end()) << l->name;
    }
}

TEST_P(ManifestModel, LintsAreExactlyTheExpectedOnes)
{
    const json f = facts();
    AnalyzeOptions options;
    options.paths = {path()};
    if (f.contains("expect_file"))
        options.expectPath = (kModels / f["expect_file"].get<std::string>()).string();
    auto analysis = analyze(options);
    ASSERT_TRUE(analysis) << analysis.error().toString();
    ASSERT_EQ(analysis->inputs.size(), 1u);
    EXPECT_EQ(analysis->inputs[0].format, "onnx");
    std::set<std::string> got;
    for (const Finding& finding : analysis->findings) {
        if (finding.id.rfind("model.", 0) != 0) continue;
        got.insert(finding.id);
        EXPECT_TRUE(finding.title.complete()) << finding.id;
        EXPECT_TRUE(finding.message.complete()) << finding.id;
        EXPECT_FALSE(finding.faq.empty()) << finding.id;
        ASSERT_FALSE(finding.evidence.empty()) << finding.id;
        for (const Evidence& e : finding.evidence) EXPECT_FALSE(e.layer.empty()) << finding.id;
    }
    const auto want = f["lints"].get<std::set<std::string>>();
    EXPECT_EQ(got, want);
    for (const char* id :
         {"model.output_low_precision", "model.shared_quant_params", "model.uncalibrated_scale",
          "model.aux_branch", "model.float_fallback", "model.custom_gridsample"})
        EXPECT_TRUE(analysis->checksRun.count(id)) << id;
    EXPECT_EQ(analysis->checksRun.count("model.int16_not_applied"), f.contains("expect_file") ? 1u : 0u);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ManifestModel, testing::ValuesIn(modelFiles()), testName);
