// Every real print(model) fixture of tests/data/printed (written by tests/gen/make_printed.py from
// live PyTorch modules) read through the input table, checked against its MANIFEST.json facts.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/analysis.h"

namespace qatdoctor::core {
namespace {

using nlohmann::json;

const std::string kDir = std::string(QATDOCTOR_TEST_DATA) + "/printed/";

json manifest()
{
    std::ifstream in(kDir + "MANIFEST.json");
    return json::parse(in, nullptr, false);
}

std::vector<std::string> fileNames()
{
    std::vector<std::string> names;
    json m = manifest();
    if (m.is_object() && m.contains("files"))
        for (auto& [name, _] : m["files"].items()) names.push_back(name);
    return names;
}

// The fixture helper names two findings "printed.*"; the issue fixed them as "qat.*".
std::string findingId(std::string id)
{
    if (id.rfind("printed.", 0) == 0) id = "qat." + id.substr(8);
    return id;
}

class PrintedFixture : public ::testing::TestWithParam<std::string> {};

const model::Layer* findLayer(const model::LayerTable& t, const std::string& name)
{
    for (const auto& l : t.layers)
        if (l.name == name) return &l;
    return nullptr;
}

TEST_P(PrintedFixture, MatchesManifest)
{
    const std::string file = GetParam();
    const json entry = manifest()["files"][file];
    AnalyzeOptions options;
    options.paths = {kDir + file};
    auto analysis = analyze(options);
    ASSERT_TRUE(analysis.ok()) << analysis.error().toString();
    ASSERT_EQ(analysis->inputs.size(), 1u);
    EXPECT_EQ(analysis->inputs[0].format, "printed_module");
    ASSERT_EQ(analysis->models.size(), 1u);
    const model::LayerTable& table = analysis->models[0];
    EXPECT_EQ(table.format, "printed_module");

    if (entry.contains("expected") &&
        entry["expected"].get<std::string>().find("truncated") != std::string::npos) {
        bool warned = false;
        for (const Warning& w : table.warnings)
            warned |= w.code == "printed.truncated" && w.message.rfind(kDir + file + ":", 0) == 0;
        EXPECT_TRUE(warned) << "no truncation warning naming " << file;
        EXPECT_FALSE(table.layers.empty());
    }
    const bool elided = entry.contains("printoptions");
    for (const json& want : entry.value("layers", json::array())) {
        const std::string name = want["name"];
        SCOPED_TRACE(file + " layer " + name);
        const model::Layer* l = findLayer(table, name);
        ASSERT_NE(l, nullptr);
        const std::string type = want["type"];
        EXPECT_TRUE(l->op == type || l->op == "Quantized" + type) << l->op;
        EXPECT_GT(l->source.line, 0);
        if (want.contains("weight_dtype"))
            EXPECT_EQ(l->weightDtype, *model::parseDType(want["weight_dtype"]));
        if (want.contains("weight_granularity") && l->weightQuant)
            EXPECT_EQ(l->weightQuant->axis >= 0, want["weight_granularity"] == "per-channel");
        if (want.contains("weight_scale_count")) {
            // torch elides only tensors longer than the print threshold.
            if (elided &&
                want["weight_scale_count"].get<int>() > entry["printoptions"]["threshold"].get<int>()) {
                EXPECT_LT(l->weightQuant->scales.size(), want["weight_scale_count"].get<size_t>());
                EXPECT_NE(std::find(l->flags.begin(), l->flags.end(), "scales_elided"), l->flags.end());
            } else {
                EXPECT_EQ(l->weightQuant->scales.size(), want["weight_scale_count"].get<size_t>());
            }
        }
        if (want.contains("weight_quant_min"))
            EXPECT_EQ(l->weightQuant->qmin, want["weight_quant_min"].get<int64_t>());
        if (want.contains("weight_fake_quant_enabled"))
            EXPECT_EQ(l->weightQuant->fakeQuantEnabled, want["weight_fake_quant_enabled"].get<bool>());
        if (want.contains("weight_observer_enabled"))
            EXPECT_EQ(l->weightQuant->observerEnabled, want["weight_observer_enabled"].get<bool>());
        if (want.contains("weight_observer")) EXPECT_EQ(l->weightQuant->observer, want["weight_observer"]);
        const bool highPrecision = want.value("output_high_precision", false);
        EXPECT_EQ(std::find(l->flags.begin(), l->flags.end(), "high_precision_output") != l->flags.end(),
                  highPrecision);
        if (want.contains("dtype")) EXPECT_EQ(l->outputDtype, *model::parseDType(want["dtype"]));
        if (want.contains("output_scale") && !want["output_scale"].is_null()) {
            ASSERT_TRUE(l->outputQuant.has_value());
            ASSERT_EQ(l->outputQuant->scales.size(), 1u);
            const double s = want["output_scale"];
            // print() rounds tensors to 4 significant digits; converted modules print full floats.
            EXPECT_NEAR(l->outputQuant->scales[0], s, std::max(1e-4 * s, 6e-5)) << name;
        }
        if (want.contains("output_zero_point"))
            EXPECT_EQ(l->outputQuant->zeroPoints.at(0), want["output_zero_point"].get<int64_t>());
        if (want.contains("zero_point"))
            EXPECT_EQ(l->outputQuant->zeroPoints.at(0), want["zero_point"].get<int64_t>());
        if (want.contains("quant_min")) EXPECT_EQ(l->outputQuant->qmin, want["quant_min"].get<int64_t>());
        if (want.contains("quant_max")) EXPECT_EQ(l->outputQuant->qmax, want["quant_max"].get<int64_t>());
        if (want.contains("fake_quant_enabled"))
            EXPECT_EQ(l->outputQuant->fakeQuantEnabled, want["fake_quant_enabled"].get<bool>());
        if (want.contains("observer_enabled"))
            EXPECT_EQ(l->outputQuant->observerEnabled, want["observer_enabled"].get<bool>());
        if (want.contains("observer") && l->outputQuant)
            EXPECT_EQ(l->outputQuant->observer, want["observer"]);
        if (want.contains("observer_min_val") && want["observer_min_val"].is_number()) {
            const double lo = want["observer_min_val"];
            ASSERT_TRUE(l->outputQuant->minVal.has_value());
            if (std::isinf(lo))
                EXPECT_TRUE(std::isinf(*l->outputQuant->minVal));
            else
                EXPECT_NEAR(*l->outputQuant->minVal, lo, 1e-4 + 1e-4 * std::fabs(lo));
        }
    }

    std::set<std::string> expected;
    for (const json& id : entry["expected_findings"]) expected.insert(findingId(id));
    std::set<std::string> mine = {"model.output_low_precision", "model.uncalibrated_scale",
                                  "qat.fake_quant_disabled", "qat.observer_disabled",
                                  "model.shared_quant_params"};
    std::set<std::string> got;
    for (const Finding& f : analysis->findings) {
        if (!mine.count(f.id)) continue;
        got.insert(f.id);
        EXPECT_FALSE(f.evidence.empty()) << f.id;
        for (const Evidence& e : f.evidence) {
            EXPECT_EQ(e.file, kDir + file);
            EXPECT_GT(e.line, 0);
            EXPECT_FALSE(e.layer.empty());
        }
        EXPECT_TRUE(f.title.complete() && f.message.complete()) << f.id;
    }
    EXPECT_EQ(got, expected) << file;
    EXPECT_TRUE(analysis->checksRun.count("model.output_low_precision")) << file;
}

INSTANTIATE_TEST_SUITE_P(Manifest, PrintedFixture, ::testing::ValuesIn(fileNames()), [](const auto& info) {
    std::string n = info.param;
    for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
});

TEST(PrintedFixtures, ManifestIsPresent)
{
    EXPECT_GE(fileNames().size(), 10u);
}

TEST(PrintedFixtures, SharedFloatFunctionalIsHintedWhenTheGraphUsesItTwice)
{
    // The printout alone cannot show calls; with the same model's ONNX graph loaded it can hint.
    AnalyzeOptions options;
    options.paths = {kDir + "qat_shared_add.txt",
                     std::string(QATDOCTOR_TEST_DATA) + "/models/qat_shared_add.onnx"};
    auto analysis = analyze(options);
    ASSERT_TRUE(analysis.ok()) << analysis.error().toString();
    const Finding* hint = nullptr;
    for (const Finding& f : analysis->findings)
        if (f.id == "model.shared_quant_params" && !f.evidence.empty() &&
            f.evidence[0].file == kDir + "qat_shared_add.txt")
            hint = &f;
    ASSERT_NE(hint, nullptr);
    EXPECT_EQ(hint->evidence[0].layer, "add");
    EXPECT_NE(hint->message.en.find("hint, not proof"), std::string::npos);
    EXPECT_EQ(hint->faq, "op.shared_floatfunctional");
}

TEST(PrintedFixtures, ModelOutputNamesTheLastLayer)
{
    AnalyzeOptions options;
    options.paths = {kDir + "hz_lowprec_output.txt"};
    auto analysis = analyze(options);
    ASSERT_TRUE(analysis.ok());
    for (const Finding& f : analysis->findings)
        if (f.id == "model.output_low_precision") {
            EXPECT_EQ(f.faq, "settings.output_high_precision");
            EXPECT_EQ(f.evidence.at(0).layer, "head.0");
            return;
        }
    FAIL() << "no model.output_low_precision finding";
}

}  // namespace
}  // namespace qatdoctor::core
