// Each lint names the right layers on its fixture, and damaged inputs fail with the file named.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>

#include "core/analysis.h"
#include "core/model/graph_layout.h"
#include "core/model/layer_weights.h"
#include "core/model/model_graph.h"
#include "core/model/model_lints.h"
#include "core/model/onnx_file.h"
#include "core/model/onnx_layer_table.h"
#include "tests/model/chain_model.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::model;
namespace fs = std::filesystem;

namespace {

const fs::path kModels = fs::path(QATDOCTOR_TEST_DATA) / "models";

std::vector<Finding> lintsOf(const std::string& file, const std::map<std::string, std::string>& expect = {})
{
    auto table = loadOnnxLayerTable((kModels / file).string());
    EXPECT_TRUE(table) << table.error().toString();
    std::vector<Finding> out;
    std::set<std::string> evaluated;
    if (table) runModelLints(*table, expect, out, evaluated);
    return out;
}

std::vector<std::string> layersOf(const std::vector<Finding>& findings, const std::string& id)
{
    std::vector<std::string> layers;
    for (const Finding& f : findings)
        if (f.id == id)
            for (const Evidence& e : f.evidence) layers.push_back(e.layer);
    return layers;
}

}  // namespace

TEST(ModelLints, OutputLowPrecisionNamesTheOutputLayer)
{
    const auto f = lintsOf("qat_qdq.onnx");
    EXPECT_EQ(layersOf(f, "model.output_low_precision"), std::vector<std::string>{"fc"});
    EXPECT_EQ(f.at(0).faq, "settings.output_high_precision");
    EXPECT_TRUE(lintsOf("qat_qdq_highprec.onnx").empty());
}

TEST(ModelLints, SharedQuantParamsNamesBothCalls)
{
    const auto f = lintsOf("qat_shared_add.onnx");
    EXPECT_EQ(layersOf(f, "model.shared_quant_params"), (std::vector<std::string>{"add", "add (/Add_1)"}));
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].evidence[0].detail.find("add.activation_post_process.scale"), std::string::npos);
    EXPECT_EQ(f[0].faq, "op.shared_floatfunctional");
}

TEST(ModelLints, UncalibratedScale)
{
    const auto f = lintsOf("qat_uncalibrated.onnx");
    EXPECT_EQ(layersOf(f, "model.uncalibrated_scale"), std::vector<std::string>{"conv2"});
    EXPECT_EQ(f.at(0).severity, Severity::Error);
}

TEST(ModelLints, AuxBranch)
{
    const auto f = lintsOf("qat_aux_branch.onnx");
    const auto layers = layersOf(f, "model.aux_branch");
    ASSERT_FALSE(layers.empty());
    EXPECT_EQ(layers.front(), "aux_conv");
    EXPECT_EQ(f.at(0).faq, "qat.aux_branch");
}

TEST(ModelLints, FloatFallback)
{
    const auto f = lintsOf("qat_float_island.onnx");
    EXPECT_EQ(layersOf(f, "model.float_fallback"), std::vector<std::string>{"/Sigmoid"});
}

TEST(ModelLints, Int16NotAppliedWithExpectations)
{
    const std::map<std::string, std::string> expect = {
        {"conv1", "int16"}, {"conv2", "qint16"}, {"fc", "float32"}};
    const auto f = lintsOf("qat_int16.onnx", expect);
    EXPECT_EQ(layersOf(f, "model.int16_not_applied"), std::vector<std::string>{"conv2"});
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].evidence[0].detail, "expected qint16, actual int8");
    EXPECT_TRUE(lintsOf("qat_int16.onnx", {{"conv1", "int16"}}).empty());
}

TEST(ModelLints, CustomGridSample)
{
    const auto f = lintsOf("hz_qat.onnx");
    EXPECT_EQ(layersOf(f, "model.custom_gridsample"), std::vector<std::string>{"gs"});
}

TEST(ModelLints, WorkOnATableWithoutGraph)
{
    // The artifacts area feeds printed models (no graph) to the same lints.
    auto table = loadOnnxLayerTable((kModels / "qat_shared_add.onnx").string());
    ASSERT_TRUE(table);
    table->graph.reset();
    std::vector<Finding> out;
    std::set<std::string> evaluated;
    runModelLints(*table, {}, out, evaluated);
    EXPECT_EQ(layersOf(out, "model.shared_quant_params"), (std::vector<std::string>{"add", "add (/Add_1)"}));
    EXPECT_TRUE(evaluated.count("model.output_low_precision"));
}

TEST(ModelInputs, DamagedFilesNameTheFile)
{
    struct Case {
        const char* file;
        const char* code;
    };
    for (const Case& c : {Case{"truncated.onnx", "onnx.parse"}, Case{"not_onnx.onnx", "onnx.not_onnx"},
                          Case{"external_escape/model.onnx", "onnx.external_escape"}}) {
        SCOPED_TRACE(c.file);
        AnalyzeOptions options;
        options.paths = {(kModels / c.file).string()};
        auto a = analyze(options);
        ASSERT_FALSE(a);
        EXPECT_EQ(a.error().code, c.code);
        EXPECT_NE(a.error().message.find(c.file), std::string::npos) << a.error().message;
        EXPECT_EQ(a.error().file, options.paths[0]);
    }
}

TEST(ModelInputs, ExternalDataModelReadsWeightsLazily)
{
    auto table = loadOnnxLayerTable((kModels / "external_data/model.onnx").string());
    ASSERT_TRUE(table) << table.error().toString();
    const auto& g = *table->graph;
    const int w = g.tensorId("conv1.weight");
    ASSERT_GE(w, 0);
    EXPECT_TRUE(isExternal(*g.tensor(w).initializer));
    auto values = g.constFloats(w);
    ASSERT_TRUE(values) << values.error().toString();
    int64_t count = 1;
    for (int64_t d : g.constDims(w)) count *= d;
    EXPECT_EQ(static_cast<int64_t>(values->size()), count);
}

TEST(ModelLints, NoFalsePositivesOnOnnxTestData)
{
    // Debian's libonnx-testdata: 1,000+ single-op and pytorch-converted float models. Only the
    // QLinear single-op tests really end in an 8-bit output.
    const std::set<std::string> lowPrecisionOutput = {"test_qlinearconv", "test_qlinearmatmul_2D",
                                                      "test_qlinearmatmul_3D"};
    int models = 0;
    for (const char* sub : {"node", "pytorch-converted", "pytorch-operator", "simple"}) {
        const fs::path root = fs::path(QATDOCTOR_ONNX_TESTDATA) / sub;
        if (!fs::exists(root)) continue;
        for (const auto& dir : fs::directory_iterator(root)) {
            const fs::path file = dir.path() / "model.onnx";
            if (!fs::exists(file)) continue;
            SCOPED_TRACE(file.string());
            auto table = loadOnnxLayerTable(file.string());
            ASSERT_TRUE(table) << table.error().toString();
            ++models;
            std::vector<Finding> out;
            std::set<std::string> evaluated;
            runModelLints(*table, {}, out, evaluated);
            const std::string name = dir.path().filename().string();
            if (lowPrecisionOutput.count(name)) {
                ASSERT_EQ(out.size(), 1u);
                EXPECT_EQ(out[0].id, "model.output_low_precision");
            } else {
                // single-op tests of data movement (Flatten, Cast, Constant...) really have no
                // compute node or no input: those statements must hold; any other finding is false
                for (const Finding& f : out) {
                    if (f.id == "model.no_compute")
                        EXPECT_TRUE(table->layers.empty()) << name;
                    else if (f.id == "model.no_input")
                        EXPECT_TRUE(table->graphInputs.empty()) << name;
                    else
                        ADD_FAILURE() << f.id << " on " << name;
                }
            }
        }
    }
    EXPECT_GT(models, 1000);
}

TEST(ModelLayers, QLinearConvTestModel)
{
    auto table =
        loadOnnxLayerTable(std::string(QATDOCTOR_ONNX_TESTDATA) + "/node/test_qlinearconv/model.onnx");
    ASSERT_TRUE(table);
    EXPECT_EQ(table->opset, 10);
    ASSERT_EQ(table->layers.size(), 1u);
    const Layer& l = table->layers[0];
    EXPECT_EQ(l.op, "QLinearConv");
    EXPECT_EQ(l.inputDtypes, std::vector<DType>{DType::UInt8});
    EXPECT_EQ(l.weightDtype, DType::UInt8);
    EXPECT_EQ(l.outputDtype, DType::UInt8);
}

TEST(ModelLayers, PytorchConvertedConv2dIsFloat)
{
    auto table = loadOnnxLayerTable(std::string(QATDOCTOR_ONNX_TESTDATA) +
                                    "/pytorch-converted/test_Conv2d/model.onnx");
    ASSERT_TRUE(table);
    EXPECT_EQ(table->opset, 6);
    ASSERT_EQ(table->layers.size(), 1u);
    EXPECT_EQ(table->layers[0].op, "Conv");
    EXPECT_EQ(table->layers[0].weightDtype, DType::Float32);
    EXPECT_EQ(table->layers[0].outputDtype, DType::Float32);
    EXPECT_FALSE(table->layers[0].outputQuant.has_value());
}

TEST(ModelLayers, WeightsOfFakeQuantAndConvertedModelsAgree)
{
    // The converted int8 model stores conv1's weight as int8 + per-channel scales (dequantized
    // values lie on the grid); the QAT model stores it as float and fake-quantizes it.
    auto qat = loadOnnxLayerTable((kModels / "qat_qdq.onnx").string());
    auto int8 = loadOnnxLayerTable((kModels / "quantized_int8.onnx").string());
    ASSERT_TRUE(qat && int8);
    auto wf = readLayerWeights(*qat, *qat->find("conv1"));
    auto wi = readLayerWeights(*int8, *int8->find("conv1"));
    ASSERT_TRUE(wf) << wf.error().toString();
    ASSERT_TRUE(wi) << wi.error().toString();
    EXPECT_FALSE(wf->storedAsIntegers);
    EXPECT_TRUE(wi->storedAsIntegers);
    ASSERT_EQ(wf->values.size(), wi->values.size());
    ASSERT_EQ(wf->dims, wi->dims);
    const QuantParams& q = *int8->find("conv1")->weightQuant;
    ASSERT_TRUE(q.perChannel());
    const auto ch0 = channelValues(*wi, q, 0);
    EXPECT_EQ(ch0.size(), wi->values.size() / static_cast<size_t>(wi->dims[0]));
    for (float v : ch0) {
        const float k = v / q.scales[0];
        EXPECT_NEAR(k, std::round(k), 1e-3);
    }
    // The float QAT weight of channel 0 lies about within its int8 quantizer's range (the moving
    // average observer may leave a few values just outside, to be clipped).
    const QuantParams& fq = *qat->find("conv1")->weightQuant;
    for (float v : channelValues(*wf, fq, 0)) EXPECT_LE(std::abs(v), fq.scales[0] * 128.0f * 1.1f);
}

TEST(GraphLayout, FoldsQuantizersAndGroupsByModule)
{
    auto table = loadOnnxLayerTable((kModels / "qat_qdq.onnx").string());
    ASSERT_TRUE(table);
    auto full = layoutGraph(*table, {0, false});
    auto folded = layoutGraph(*table, {0, true});
    ASSERT_TRUE(full && folded);
    EXPECT_EQ(static_cast<int>(full->nodes.size()),
              static_cast<int>(table->graph->nodes().size() + table->graphInputs.size() +
                               table->graphOutputs.size()));
    EXPECT_LT(folded->nodes.size(), full->nodes.size());
    EXPECT_GT(folded->hiddenNodes, 0);
    // conv1 feeds relu; the edge between the input and conv1 carries the input quantizer's dtype.
    int input = -1, conv1 = -1;
    for (size_t i = 0; i < folded->nodes.size(); ++i) {
        if (folded->nodes[i].op == "input") input = static_cast<int>(i);
        if (folded->nodes[i].layer == "conv1") conv1 = static_cast<int>(i);
    }
    ASSERT_GE(input, 0);
    ASSERT_GE(conv1, 0);
    bool found = false;
    for (const LayoutEdge& e : folded->edges)
        if (e.from == input && e.to == conv1) {
            found = true;
            EXPECT_EQ(e.dtype, DType::UInt8);
        }
    EXPECT_TRUE(found);
    EXPECT_LT(folded->nodes[static_cast<size_t>(input)].rank, folded->nodes[static_cast<size_t>(conv1)].rank);
    auto grouped = layoutGraph(*table, {1, true});
    ASSERT_TRUE(grouped);
    EXPECT_LT(grouped->nodes.size(), folded->nodes.size());
}

LayerTable tableOf(const std::string& bytes)
{
    auto model = parseOnnx(bytes, "chain.onnx", "");
    EXPECT_TRUE(model) << model.error().toString();
    auto graph = ModelGraph::build(*model);
    EXPECT_TRUE(graph) << graph.error().toString();
    return buildLayerTable(*graph);
}

// A drawing never has more boxes than the limit: a graph too big for the grouping asked for is
// grouped by fewer module parts, and when even those are too many, in runs of consecutive nodes;
// the layout says so. (A million-node model made the GUI build a million scene items: 14 GB.)
TEST(GraphLayout, BigGraphsAreGroupedUntilTheDrawingFits)
{
    const LayerTable modular = tableOf(qatdoctor::test::chainModel(20000, 40));
    auto asked = layoutGraph(modular, {0, true, 500});
    ASSERT_TRUE(asked) << asked.error().toString();
    EXPECT_TRUE(asked->grouping.coarsened);
    EXPECT_EQ(asked->grouping.depth, 1);  // "stage<k>": 40 groups; depth 2 has one per block
    EXPECT_EQ(asked->grouping.consecutive, 0);
    EXPECT_EQ(asked->nodes.size(), 40u + 2u);  // the groups, the input and the output
    EXPECT_EQ(asked->grouping.visibleNodes, 20000);

    const LayerTable loose = tableOf(qatdoctor::test::chainModel(20000, 0));
    auto runs = layoutGraph(loose, {2, true, 500});
    ASSERT_TRUE(runs);
    EXPECT_TRUE(runs->grouping.coarsened);
    EXPECT_EQ(runs->grouping.consecutive, 41);  // ceil(20000 / 498): 498 boxes beside input and output
    EXPECT_LE(runs->nodes.size(), 500u);
    EXPECT_EQ(runs->nodes[1].name, "#1-#41");
    EXPECT_EQ(runs->nodes[1].memberCount, 41);
    EXPECT_EQ(runs->edges.size(), runs->nodes.size() - 1);  // still one chain

    // within the limit, what was asked is what is drawn
    auto small = layoutGraph(tableOf(qatdoctor::test::chainModel(100, 0)), {0, true, 500});
    ASSERT_TRUE(small);
    EXPECT_FALSE(small->grouping.coarsened);
    EXPECT_EQ(small->nodes.size(), 102u);
}

// qat_qdq.onnx with every float scale initializer that `damage` selects set to value (its first
// element), and the model lints of the result. The ids the lints decided go to evaluated.
std::vector<Finding> lintsOfDamagedScales(const std::function<bool(const std::string&)>& damage, float value,
                                          std::set<std::string>& evaluated)
{
    std::ifstream in(kModels / "qat_qdq.onnx", std::ios::binary);
    onnx::ModelProto m;
    EXPECT_TRUE(m.ParseFromIstream(&in));
    size_t damaged = 0;
    for (auto& t : *m.mutable_graph()->mutable_initializer()) {
        if (!damage(t.name()) || t.data_type() != onnx::TensorProto::FLOAT) continue;
        if (t.float_data_size() > 0)
            t.set_float_data(0, value);
        else if (t.raw_data().size() >= 4)
            std::memcpy(t.mutable_raw_data()->data(), &value, 4);
        ++damaged;
    }
    EXPECT_GT(damaged, 0u);
    const fs::path path =
        fs::temp_directory_path() / ("qatdoctor_broken_scale_" + std::to_string(::getpid()) + ".onnx");
    std::ofstream(path, std::ios::binary) << m.SerializeAsString();
    auto table = loadOnnxLayerTable(path.string());
    fs::remove(path);
    std::vector<Finding> out;
    EXPECT_TRUE(table) << table.error().toString();
    if (table) runModelLints(*table, {}, out, evaluated);
    return out;
}

// The quantizer of the graph input belongs to no layer's weight or output: a damaged scale there
// is named too (#48 item 12), as the input's, with the initializer it comes from.
TEST(ModelLints, ABrokenInputScaleIsNamed)
{
    onnx::ModelProto m;
    std::ifstream in(kModels / "qat_qdq.onnx", std::ios::binary);
    ASSERT_TRUE(m.ParseFromIstream(&in));
    std::string scale;
    for (const auto& n : m.graph().node())
        if (n.op_type() == "QuantizeLinear" && n.input(0) == m.graph().input(0).name()) scale = n.input(1);
    ASSERT_FALSE(scale.empty()) << "no quantizer on the graph input";
    for (const float bad : {0.0f, std::nanf(""), INFINITY, -0.5f}) {
        std::set<std::string> evaluated;
        const std::vector<Finding> out =
            lintsOfDamagedScales([&](const std::string& name) { return name == scale; }, bad, evaluated);
        const Finding* f = nullptr;
        for (const Finding& x : out)
            if (x.id == "model.broken_scale") f = &x;
        ASSERT_NE(f, nullptr) << "input scale " << bad;
        ASSERT_EQ(f->evidence.size(), 1u);
        EXPECT_NE(f->evidence[0].detail.find("input scale"), std::string::npos) << f->evidence[0].detail;
        EXPECT_NE(f->evidence[0].detail.find(scale), std::string::npos) << f->evidence[0].detail;
    }
}

// A QDQ model whose scales were damaged (zero, NaN, inf, negative, subnormal, huge): every one
// is named with its layer; the fixture as shipped raises nothing.
TEST(ModelLints, BrokenScalesAreNamedWithTheirLayer)
{
    EXPECT_EQ(layersOf(lintsOf("qat_qdq.onnx"), "model.broken_scale"), std::vector<std::string>{});
    for (const float bad : {0.0f, std::nanf(""), INFINITY, -0.5f, 1e-45f, 1e38f}) {
        std::set<std::string> evaluated;
        const std::vector<Finding> out = lintsOfDamagedScales(
            [](const std::string& name) { return name.find("scale") != std::string::npos; }, bad, evaluated);
        EXPECT_TRUE(evaluated.count("model.broken_scale"));
        const std::vector<std::string> layers = layersOf(out, "model.broken_scale");
        EXPECT_FALSE(layers.empty()) << "scale " << bad;
        for (const Finding& f : out)
            if (f.id == "model.broken_scale") {
                EXPECT_EQ(f.severity, Severity::Error);
                EXPECT_NE(f.evidence.at(0).detail.find("scale"), std::string::npos)
                    << f.evidence.at(0).detail;
            }
    }
}
