// Opset-21 QDQ on the fixtures of tests/gen/make_opset21_models.py: int16 / uint16 / int32 zero
// points, per-axis scales (axis 0, a negative axis, the default axis 1), output_dtype without a
// zero point, Cast to float16 around an fp16 region; and what the lints make of them. The
// manifest test checks the same files against onnx_facts.py; these state the values by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/analysis.h"
#include "core/model/model_graph.h"
#include "core/model/model_lints.h"
#include "core/model/onnx_layer_table.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::model;
namespace fs = std::filesystem;

namespace {

const fs::path kModels = fs::path(QATDOCTOR_TEST_DATA) / "models";

LayerTable load(const char* file)
{
    auto table = loadOnnxLayerTable((kModels / file).string());
    if (!table) {
        ADD_FAILURE() << table.error().toString();
        return {};
    }
    return std::move(*table);
}

const Layer& layer(const LayerTable& t, const std::string& name)
{
    static const Layer kMissing;
    const Layer* l = t.find(name);
    if (!l) ADD_FAILURE() << "no layer " << name;
    return l ? *l : kMissing;
}

bool hasFlag(const Layer& l, const char* flag)
{
    return std::find(l.flags.begin(), l.flags.end(), flag) != l.flags.end();
}

struct Lints {
    std::vector<Finding> findings;
    std::set<std::string> evaluated;
    const Finding* find(const std::string& id) const
    {
        for (const Finding& f : findings)
            if (f.id == id) return &f;
        return nullptr;
    }
};

Lints lint(const LayerTable& t, const std::map<std::string, std::string>& expect = {})
{
    Lints l;
    runModelLints(t, expect, l.findings, l.evaluated);
    return l;
}

}  // namespace

TEST(Opset21, Int16AndUint16PerAxis)
{
    const LayerTable t = load("opset21_int16.onnx");
    EXPECT_EQ(t.opset, 21);
    ASSERT_EQ(t.layers.size(), 3u);

    const Layer& conv1 = layer(t, "conv1");
    EXPECT_EQ(conv1.inputDtypes, std::vector<DType>{DType::Int16});
    EXPECT_EQ(conv1.weightDtype, DType::Int16);                // converted int16 weight
    EXPECT_EQ(granularityName(conv1), "per-channel(axis=0)");  // written as axis=-4
    ASSERT_TRUE(conv1.weightQuant);
    EXPECT_EQ(conv1.weightQuant->scales.size(), 4u);
    EXPECT_EQ(conv1.weightQuant->zeroPoints, std::vector<int64_t>(4, 0));  // typed int32_data field
    EXPECT_EQ(conv1.outputDtype, DType::Int16);
    ASSERT_TRUE(conv1.outputQuant);
    EXPECT_FLOAT_EQ(conv1.outputQuant->scales.at(0), 0.00011f);
    EXPECT_EQ(conv1.outputQuant->zeroPoints, std::vector<int64_t>{0});  // raw_data int16 scalar

    const Layer& conv2 = layer(t, "conv2");
    EXPECT_EQ(conv2.inputDtypes, std::vector<DType>{DType::Int16});
    EXPECT_EQ(conv2.weightDtype, DType::Int8);  // fake quant: Q -> DQ of the float weight
    EXPECT_EQ(granularityName(conv2), "per-channel(axis=0)");
    EXPECT_EQ(conv2.weightQuant->scales.size(), 6u);
    EXPECT_EQ(conv2.outputDtype, DType::UInt16);
    EXPECT_EQ(conv2.outputQuant->zeroPoints, std::vector<int64_t>{32768});

    const Layer& fc = layer(t, "fc");
    EXPECT_EQ(fc.op, "MatMul");
    EXPECT_EQ(fc.inputDtypes, std::vector<DType>{DType::UInt16});  // through GlobalAveragePool, Flatten
    EXPECT_EQ(fc.weightDtype, DType::Int16);
    EXPECT_EQ(granularityName(fc), "per-channel(axis=1)");  // no axis attribute: the default 1
    EXPECT_EQ(fc.weightQuant->scales.size(), 5u);
    EXPECT_EQ(fc.outputDtype, DType::Int16);  // the bias Add is absorbed, then the int16 quantizer
    EXPECT_TRUE(hasFlag(fc, "graph_output"));
    EXPECT_TRUE(hasFlag(fc, "fused"));
}

TEST(Opset21, Int16OutputIsStillLowPrecision)
{
    const Lints l = lint(load("opset21_int16.onnx"));
    const Finding* f = l.find("model.output_low_precision");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(f->evidence.size(), 1u);
    EXPECT_EQ(f->evidence[0].layer, "fc");
    EXPECT_EQ(f->evidence[0].detail,
              "output int16, scale 0.0003");  // six significant digits, not six decimals
    EXPECT_EQ(f->faq, "settings.output_high_precision");
    EXPECT_EQ(l.findings.size(), 1u);
}

TEST(Opset21, OutputDtypeWithoutZeroPointInt32BiasAndOutputs)
{
    const LayerTable t = load("opset21_int32_out.onnx");
    ASSERT_EQ(t.layers.size(), 3u);
    EXPECT_EQ(t.graphOutputs, (std::vector<std::string>{"logits", "feature"}));

    const Layer& conv1 = layer(t, "conv1");
    // Q(output_dtype=INT16) -> DQ, neither with a zero point: the DequantizeLinear is int16 too.
    EXPECT_EQ(conv1.inputDtypes, std::vector<DType>{DType::Int16});
    EXPECT_EQ(conv1.weightDtype, DType::Int8);
    EXPECT_EQ(granularityName(conv1), "per-channel(axis=0)");
    EXPECT_TRUE(hasFlag(conv1, "bias_int32"));  // DequantizeLinear of the int32 bias
    EXPECT_EQ(conv1.outputDtype, DType::UInt16);

    const Layer& headA = layer(t, "head_a");
    EXPECT_EQ(headA.op, "Gemm");
    EXPECT_EQ(headA.inputDtypes, std::vector<DType>{DType::UInt16});
    EXPECT_EQ(headA.weightDtype, DType::Int16);
    EXPECT_EQ(granularityName(headA), "per-channel(axis=0)");
    EXPECT_EQ(headA.outputDtype, DType::Int32);
    ASSERT_TRUE(headA.outputQuant);
    EXPECT_FLOAT_EQ(headA.outputQuant->scales.at(0), 1e-6f);
    EXPECT_TRUE(hasFlag(headA, "graph_output"));

    const Layer& headB = layer(t, "head_b");
    EXPECT_EQ(headB.weightDtype, DType::UInt16);
    EXPECT_EQ(granularityName(headB), "per-channel(axis=0)");
    EXPECT_EQ(headB.weightQuant->zeroPoints, (std::vector<int64_t>{32768, 32768}));
    EXPECT_EQ(headB.outputDtype, DType::Float32);
    EXPECT_FALSE(headB.outputQuant.has_value());
    EXPECT_TRUE(hasFlag(headB, "graph_output"));
}

TEST(Opset21, Int32AndFloatOutputsAreNotFlagged)
{
    const Lints l = lint(load("opset21_int32_out.onnx"));
    EXPECT_TRUE(l.evaluated.count("model.output_low_precision"));
    EXPECT_EQ(l.find("model.output_low_precision"), nullptr);
    EXPECT_TRUE(l.findings.empty());
}

TEST(Opset21, CastToFloat16Region)
{
    const LayerTable t = load("opset21_fp16.onnx");
    ASSERT_EQ(t.layers.size(), 4u);
    const Layer& conv1 = layer(t, "conv1");
    EXPECT_EQ(conv1.outputDtype, DType::Int8);

    // After DequantizeLinear -> Cast(FLOAT16) the input is float16, not the dequantizer's int8.
    const Layer& conv2 = layer(t, "conv2");
    EXPECT_EQ(conv2.inputDtypes, std::vector<DType>{DType::Float16});
    EXPECT_EQ(conv2.weightDtype, DType::Float16);
    EXPECT_TRUE(hasFlag(conv2, "float_weight"));
    EXPECT_EQ(granularityName(conv2), "");
    EXPECT_EQ(conv2.outputDtype, DType::Float16);  // Relu then Cast(FLOAT): computed in float16
    EXPECT_FALSE(conv2.outputQuant.has_value());

    const Layer& add = layer(t, "add");
    EXPECT_EQ(add.inputDtypes, (std::vector<DType>{DType::Int8, DType::UInt8}));
    EXPECT_EQ(add.outputDtype, DType::Int8);

    const Layer& fc = layer(t, "fc");
    EXPECT_EQ(fc.inputDtypes, std::vector<DType>{DType::Int8});
    EXPECT_EQ(granularityName(fc), "per-tensor");
    EXPECT_EQ(fc.outputDtype, DType::Float16);  // Cast(FLOAT16) into the graph output
    EXPECT_TRUE(hasFlag(fc, "graph_output"));

    // The graph carries the half types on the island's edges (the graph view labels them).
    ASSERT_NE(t.graph, nullptr);
    EXPECT_EQ(t.graph->tensor(t.graph->tensorId("gate_fp16")).dtype, DType::Float16);
    EXPECT_EQ(t.graph->tensor(t.graph->tensorId("relu2_out")).dtype, DType::Float16);
    EXPECT_EQ(t.graph->tensor(t.graph->tensorId("logits")).dtype, DType::Float16);
}

TEST(Opset21, Float16IslandIsNotAFloatFallback)
{
    const Lints l = lint(load("opset21_fp16.onnx"));
    EXPECT_TRUE(l.evaluated.count("model.float_fallback"));
    EXPECT_EQ(l.find("model.float_fallback"), nullptr);        // the Sigmoid after Cast(FLOAT16)
    EXPECT_EQ(l.find("model.output_low_precision"), nullptr);  // float16 output is high precision
    EXPECT_TRUE(l.findings.empty());
    // The float32 island of the torch export is still one.
    const Lints island = lint(load("qat_float_island.onnx"));
    EXPECT_NE(island.find("model.float_fallback"), nullptr);
}

TEST(Opset21, ExpectedDtypesOnInt16AndFloat16Layers)
{
    const Lints l =
        lint(load("opset21_int16.onnx"), {{"conv1", "qint16"}, {"conv2", "int16"}, {"fc", "int16"}});
    const Finding* f = l.find("model.int16_not_applied");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(f->evidence.size(), 1u);
    EXPECT_EQ(f->evidence[0].layer, "conv2");
    EXPECT_EQ(f->evidence[0].detail, "expected int16, actual uint16");

    // fp16 set where it took effect, int16 where it did not.
    const Lints h =
        lint(load("opset21_fp16.onnx"), {{"conv2", "torch.float16"}, {"fc", "float16"}, {"add", "int16"}});
    const Finding* g = h.find("model.int16_not_applied");
    ASSERT_NE(g, nullptr);
    ASSERT_EQ(g->evidence.size(), 1u);
    EXPECT_EQ(g->evidence[0].layer, "add");
    EXPECT_EQ(g->evidence[0].detail, "expected int16, actual int8");
}

TEST(Opset21, AnalyzeReadsTheFilesAsOnnx)
{
    for (const char* file : {"opset21_int16.onnx", "opset21_int32_out.onnx", "opset21_fp16.onnx"}) {
        SCOPED_TRACE(file);
        AnalyzeOptions options;
        options.paths = {(kModels / file).string()};
        auto a = analyze(options);
        ASSERT_TRUE(a) << a.error().toString();
        ASSERT_NE(a->primaryModel(), nullptr);
        EXPECT_EQ(a->primaryModel()->opset, 21);
        EXPECT_TRUE(a->primaryModel()->warnings.empty());
    }
}
