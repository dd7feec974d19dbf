// Models saved after torch.ao's convert and quantize_dynamic, in every form torch writes them
// (state_dict, whole pickled module, scripted and traced TorchScript, a training checkpoint),
// read without Python and compared with what torch itself says of them: facts.json, written by
// tests/gen/make_converted_checkpoints.py with python3-torch beside the files.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/analysis.h"
#include "core/analysis_json.h"
#include "core/checkpoint/checkpoint_diff.h"
#include "core/checkpoint/checkpoint_layers.h"
#include "core/checkpoint/tensor_stats.h"
#include "core/report/report_builder.h"

namespace qatdoctor::core::checkpoint {
namespace {

using nlohmann::json;

std::string fixture(const std::string& name)
{
    return std::string(QATDOCTOR_TEST_DATA) + "/checkpoints/converted/" + name;
}

const json& facts()
{
    static const json kFacts = [] {
        std::ifstream in(fixture("facts.json"));
        return json::parse(in);
    }();
    return kFacts;
}

CheckpointRead read(const std::string& name)
{
    Result<CheckpointRead> r = readCheckpointLayers(fixture(name));
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().toString());
    return r.ok() ? std::move(r).value() : CheckpointRead{};
}

// Two files through the whole analysis: their diff, findings and report.
Analysis analyzedPair(const std::string& a, const std::string& b)
{
    AnalyzeOptions options;
    options.paths = {fixture(a), fixture(b)};
    Result<Analysis> analysis = analyze(options);
    EXPECT_TRUE(analysis.ok()) << (analysis.ok() ? "" : analysis.error().toString());
    return analysis.ok() ? std::move(analysis).value() : Analysis{};
}

bool hasFlag(const model::Layer& l, const char* flag)
{
    return std::find(l.flags.begin(), l.flags.end(), flag) != l.flags.end();
}

// Every layer torch names in facts.json is a row with torch's dtype, scales, zero points, axis
// and output scale; the file is quantized, dynamic as torch's modules say.
void expectTorchFacts(const std::string& name)
{
    SCOPED_TRACE(name);
    const CheckpointRead c = read(name);
    const json& file = facts().at(name);
    EXPECT_TRUE(c.quantized());
    EXPECT_EQ(c.dynamic(), file.at("dynamic").get<bool>());
    for (const auto& [layerName, f] : file.at("layers").items()) {
        SCOPED_TRACE(layerName);
        const model::Layer* l = c.table.find(layerName);
        ASSERT_NE(l, nullptr);
        if (f.contains("dtype")) {
            ASSERT_TRUE(l->weightQuant.has_value());
            const model::QuantParams& w = *l->weightQuant;
            EXPECT_EQ(std::string(model::dtypeName(w.dtype)),
                      f.at("dtype").get<std::string>() == "qint8" ? "int8" : "uint8");
            const std::vector<double> scales = f.at("scales").get<std::vector<double>>();
            ASSERT_EQ(w.scales.size(), scales.size());
            for (size_t k = 0; k < scales.size(); ++k)
                EXPECT_FLOAT_EQ(w.scales[k], static_cast<float>(scales[k]));
            if (f.at("zero_points").at(0).is_number_integer())
                EXPECT_EQ(w.zeroPoints, f.at("zero_points").get<std::vector<int64_t>>());
            else
                EXPECT_EQ(w.realZeroPoints, f.at("zero_points").get<std::vector<double>>());
            EXPECT_EQ(w.axis, f.at("axis").is_null() ? -1 : f.at("axis").get<int>());
        }
        if (f.value("output_scale", json()).is_null()) {
            EXPECT_FALSE(l->outputQuant.has_value());
        } else {
            ASSERT_TRUE(l->outputQuant.has_value());
            ASSERT_EQ(l->outputQuant->scales.size(), 1u);
            EXPECT_FLOAT_EQ(l->outputQuant->scales[0],
                            static_cast<float>(f.at("output_scale").get<double>()));
            EXPECT_EQ(l->outputQuant->zeroPoints,
                      std::vector<int64_t>{f.at("output_zero_point").get<int64_t>()});
        }
        if (f.value("dynamic", false)) EXPECT_TRUE(hasFlag(*l, kFlagDynamic));
    }
}

TEST(ConvertedCheckpoint, StaticStateDictMatchesTorch)
{
    expectTorchFacts("static_sd.pt");
}
TEST(ConvertedCheckpoint, PerChannelWeightsKeepEveryChannel)
{
    expectTorchFacts("perchannel_sd.pt");
}
TEST(ConvertedCheckpoint, WholePickledModuleMatchesTorch)
{
    expectTorchFacts("static_whole.pt");
}
TEST(ConvertedCheckpoint, ScriptedArchiveMatchesTorch)
{
    expectTorchFacts("static_script.pt");
}
TEST(ConvertedCheckpoint, TracedArchiveLeavesCodeScalesUnknown)
{
    expectTorchFacts("static_traced.pt");
}
TEST(ConvertedCheckpoint, TrainingCheckpointMatchesTorch)
{
    expectTorchFacts("training_ckpt.pth");
}
TEST(ConvertedCheckpoint, DynamicRecurrentLayersByTheirFloatNames)
{
    expectTorchFacts("dynamic_sd.pt");
}
TEST(ConvertedCheckpoint, DynamicScriptedArchiveMatchesTorch)
{
    expectTorchFacts("dynamic_script.pt");
}
TEST(ConvertedCheckpoint, WeightOnlyEmbeddingKeepsRealZeroPoints)
{
    expectTorchFacts("embedding_sd.pt");
}
TEST(ConvertedCheckpoint, FxConvertMatchesTorch)
{
    expectTorchFacts("fx_sd.pt");
}

TEST(ConvertedCheckpoint, UncalibratedStaticModelIsNotDynamic)
{
    // a static convert without calibration keeps scale 1.0 / zero point 0 on every output: the
    // same numbers quantize_dynamic stands in with, here beside a converted Conv1d
    expectTorchFacts("uncalibrated_sd.pt");
    // keys "net.0.weight" under a module called net: a bare state_dict, not a checkpoint's "net"
    const CheckpointRead c = read("uncalibrated_sd.pt");
    EXPECT_EQ(c.file.modelKey, "");
    EXPECT_EQ(checkpointKindName(c.file), std::string("state_dict"));
}

TEST(ConvertedCheckpoint, MobileArchiveReadsItsPrepackedConstants)
{
    // optimize_for_mobile folds the weights into constants.pkl as prepacked TorchBind states:
    // the weights and their scales are read, without module names (the code holds them)
    const CheckpointRead c = read("static_mobile.ptl");
    EXPECT_TRUE(c.quantized());
    EXPECT_TRUE(c.file.dangerous.empty());  // TorchScript's own list helpers are not calls
    const json& layers = facts().at("static_mobile.ptl").at("layers");
    std::vector<float> expected, found;
    for (const char* name : {"stem", "mix", "head"})
        expected.push_back(static_cast<float>(layers.at(name).at("scales").at(0).get<double>()));
    for (const model::Layer& l : c.table.layers)
        if (l.weightQuant) found.push_back(l.weightQuant->scales.at(0));
    EXPECT_EQ(found, expected);
}

TEST(ConvertedCheckpoint, PackedParamsAreNeverRows)
{
    const CheckpointRead c = read("static_sd.pt");
    for (const model::Layer& l : c.table.layers) EXPECT_EQ(l.name.find("_packed_params"), std::string::npos);
    const TensorInfo* packed = c.file.find("head._packed_params._packed_params.0");
    ASSERT_NE(packed, nullptr);
    EXPECT_EQ(packed->canonical, "head.weight");
    EXPECT_EQ(c.table.find("head")->op, "Linear");
}

TEST(ConvertedCheckpoint, WholeModuleTensorsTakeTheirStateDictNames)
{
    const CheckpointRead c = read("static_whole.pt");
    EXPECT_NE(c.file.find("stem.weight"), nullptr);
    EXPECT_NE(c.file.find("mix.bias"), nullptr);
    EXPECT_EQ(c.table.find("stem")->op, "ConvReLU2d");
    EXPECT_EQ(checkpointKindName(c.file), std::string("whole_module"));
}

TEST(ConvertedCheckpoint, TorchScriptArchiveIsReadNotRefused)
{
    const CheckpointRead c = read("static_script.pt");
    EXPECT_EQ(c.file.container, "torchscript");
    // torch.jit.load builds __torch__ classes from the archive's TorchScript: no Python import
    EXPECT_TRUE(c.file.refusedGlobals.empty());
    EXPECT_TRUE(c.file.dangerous.empty());
    EXPECT_GT(probeCheckpoint(std::string("PK\x03\x04", 4) + std::string(22, '\0') +
                              std::string("\x0e\x00\x00\x00", 4) + "archive/data/0"),
              0);
}

TEST(ConvertedCheckpoint, NumbersStayNumbersInJson)
{
    const CheckpointRead c = read("training_ckpt.pth");
    const json j = checkpointToJson(c);
    EXPECT_EQ(j.at("metadata").at("epoch"), 7);
    EXPECT_DOUBLE_EQ(j.at("metadata").at("best_acc").get<double>(), 0.8125);  // a numpy float64
    EXPECT_EQ(j.at("kind"), "training_checkpoint");
    EXPECT_TRUE(j.at("converted").get<bool>());
}

TEST(ConvertedCheckpoint, JsonListsEveryPerChannelScale)
{
    const CheckpointRead c = read("perchannel_sd.pt");
    const json j = checkpointToJson(c);
    const auto stem = std::find_if(j.at("layers").begin(), j.at("layers").end(),
                                   [](const json& l) { return l.at("name") == "stem"; });
    ASSERT_NE(stem, j.at("layers").end());
    const std::vector<double> expected =
        facts().at("perchannel_sd.pt").at("layers").at("stem").at("scales").get<std::vector<double>>();
    const std::vector<double> scales = stem->at("weight_quant").at("scales").get<std::vector<double>>();
    ASSERT_EQ(scales.size(), expected.size());
    for (size_t k = 0; k < scales.size(); ++k) EXPECT_NEAR(scales[k], expected[k], 1e-7 * expected[k]);
}

TEST(ConvertedCheckpoint, TensorStatsDequantizeWithTheTensorsOwnScales)
{
    const CheckpointRead c = read("perchannel_sd.pt");
    MemoryBudget budget(uint64_t{64} << 20);
    const std::vector<TensorStats> stats = readTensorStats(c.file, budget);
    ASSERT_EQ(stats.size(), c.file.tensors.size());
    for (size_t k = 0; k < stats.size(); ++k) {
        SCOPED_TRACE(c.file.tensors[k].name);
        ASSERT_TRUE(stats[k].read) << stats[k].problem;
        EXPECT_EQ(stats[k].dequantized, c.file.tensors[k].quant.has_value());
        EXPECT_LE(stats[k].min, stats[k].max);
    }
    // a per-channel weight dequantized stays within its channels' scaled int8 range
    const size_t stem = std::distance(
        c.file.tensors.begin(), std::find_if(c.file.tensors.begin(), c.file.tensors.end(),
                                             [](const TensorInfo& t) { return t.name == "stem.weight"; }));
    ASSERT_LT(stem, stats.size());
    const double largestScale =
        *std::max_element(facts()["perchannel_sd.pt"]["layers"]["stem"]["scales"].begin(),
                          facts()["perchannel_sd.pt"]["layers"]["stem"]["scales"].end());
    EXPECT_LE(stats[stem].max, 128 * largestScale);
    EXPECT_GT(stats[stem].max, 0.0);
    // past the budget a tensor is not read, and says so
    MemoryBudget tiny(1);
    const std::vector<TensorStats> none = readTensorStats(c.file, tiny);
    EXPECT_FALSE(none[stem].read);
    EXPECT_NE(none[stem].problem.find("stem.weight"), std::string::npos);
}

TEST(ConvertedCheckpoint, FloatAndConvertedPairTheirWeights)
{
    const Analysis a = analyzedPair("float_sd.pt", "static_sd.pt");
    ASSERT_EQ(a.checkpointDiffs.size(), 1u);
    const CheckpointDiff& d = a.checkpointDiffs[0];
    EXPECT_TRUE(d.convertBetween);
    const auto change = [&](const std::string& name) {
        const auto it = std::find_if(d.tensors.begin(), d.tensors.end(),
                                     [&](const TensorChange& t) { return t.name == name; });
        return it == d.tensors.end() ? ChangeKind::Unread : it->kind;
    };
    EXPECT_EQ(change("head.weight"), ChangeKind::Quantized);  // fc.weight <-> _packed_params
    EXPECT_EQ(change("mix.weight"), ChangeKind::Quantized);
    EXPECT_EQ(change("head.bias"), ChangeKind::Same);  // convert keeps the float bias
    // the keys convert adds and fusion folds away are not a changed model
    EXPECT_FALSE(std::any_of(a.findings.begin(), a.findings.end(),
                             [](const Finding& f) { return f.id == "checkpoint.keys_changed"; }));
}

TEST(ConvertedCheckpoint, ReportNamesTheConvertedWeights)
{
    // every change kind has its words: a weight quantized by convert once aborted the report
    const Analysis a = analyzedPair("float_sd.pt", "static_sd.pt");
    report::ReportOptions reportOptions;
    reportOptions.sections = {"checkpoint"};
    reportOptions.hashInputs = false;
    Result<report::ReportDocument> doc = report::buildReport(a, reportOptions);
    ASSERT_TRUE(doc.ok());
    std::string text;
    for (const report::Block& b : doc->sections.at(0).blocks)
        for (const auto& row : b.table.rows)
            for (const std::string& cell : row) text += cell + "|";
    EXPECT_NE(text.find("head.weight|quantized (convert)|"), std::string::npos) << text;
    EXPECT_NE(text.find("head.scale|only in B|"), std::string::npos) << text;
}

TEST(ConvertedCheckpoint, DynamicPairMatchesRecurrentNames)
{
    const Analysis a = analyzedPair("dynamic_float_sd.pt", "dynamic_sd.pt");
    ASSERT_EQ(a.checkpointDiffs.size(), 1u);
    const CheckpointDiff& d = a.checkpointDiffs[0];
    EXPECT_EQ(d.count(ChangeKind::Removed), 0u);     // every float tensor found its converted one
    EXPECT_EQ(d.count(ChangeKind::Quantized), 11u);  // 8 LSTM, 2 GRU matrices, the Linear
}

}  // namespace
}  // namespace qatdoctor::core::checkpoint
