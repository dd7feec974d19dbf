// Models in the layouts other exporters write (tests/gen/make_wild_models.py): the layer table,
// the lints and the simulator on a RetinaFace-style QDQ head (Conv -> LeakyRelu -> Q, a Conv
// without bias, unnamed nodes, a Shape-computed flattening), checked against ONNX Runtime's
// outputs committed beside the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/model/model_lints.h"
#include "core/model/onnx_file.h"
#include "core/model/onnx_layer_table.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::model;

namespace {

std::string wild(const std::string& file)
{
    return std::string(QATDOCTOR_TEST_DATA) + "/models/wild/" + file;
}

LayerTable table(const std::string& model)
{
    auto t = loadOnnxLayerTable(wild(model + ".onnx"));
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
    return t.ok() ? std::move(*t) : LayerTable{};
}

bool hasFlag(const Layer& l, const std::string& flag)
{
    return std::find(l.flags.begin(), l.flags.end(), flag) != l.flags.end();
}

std::vector<std::string> biasFlags(const Layer& l)
{
    std::vector<std::string> out;
    for (const std::string& f : l.flags)
        if (f.rfind("bias_", 0) == 0) out.push_back(f);
    return out;
}

}  // namespace

TEST(WildModels, ActivationsBetweenConvAndQuantizerAreFused)
{
    const LayerTable t = table("retina_qdq");
    ASSERT_EQ(t.layers.size(), 3u);
    for (const Layer& l : t.layers) {
        EXPECT_EQ(l.op, "Conv") << l.name;
        EXPECT_EQ(l.outputDtype, DType::UInt8) << l.name << ": the activation's quantizer is the conv's";
        EXPECT_TRUE(hasFlag(l, "fused")) << l.name;
        EXPECT_EQ(l.weightDtype, DType::Int8) << l.name;
        EXPECT_EQ(l.inputDtypes, std::vector<DType>{DType::UInt8}) << l.name;
    }
    EXPECT_EQ(t.layers[0].name, "body.stage1.conv");
    EXPECT_FLOAT_EQ(t.layers[2].outputQuant->scales.at(0), 1.0f / 255.0f);  // after the Sigmoid
}

TEST(WildModels, InputsAreTakenByRoleNotByWhetherTheyAreConstant)
{
    const LayerTable t = table("retina_qdq");
    ASSERT_EQ(t.layers.size(), 3u);
    EXPECT_EQ(biasFlags(t.layers[0]), std::vector<std::string>{"bias_int32"});
    EXPECT_TRUE(biasFlags(t.layers[1]).empty()) << "the second conv has no bias";
    ASSERT_TRUE(t.layers[1].weightQuant);
    EXPECT_TRUE(t.layers[1].weightQuant->perChannel());
    EXPECT_EQ(t.layers[1].weightQuant->scales.size(), 8u);

    // a constant on the data input, quantized per channel, is still the data input
    const LayerTable c = table("const_data_conv");
    const Layer* conv = c.find("prior_conv");
    ASSERT_NE(conv, nullptr);
    EXPECT_TRUE(biasFlags(*conv).empty());
    EXPECT_EQ(conv->inputDtypes, std::vector<DType>{DType::UInt8});
    EXPECT_EQ(conv->weightDtype, DType::Int8);
}

TEST(WildModels, UnnamedNodesAreNamedByIndexAndOp)
{
    const LayerTable t = table("retina_qdq");
    ASSERT_EQ(t.layers.size(), 3u);
    EXPECT_EQ(t.layers[0].source.node, "/body/stage1/conv/Conv");
    // 2 nodes quantize the input, 2 dequantize the first weight and bias, then the conv, its
    // LeakyRelu and its Q/DQ; the second conv's weight DequantizeLinear is #8
    EXPECT_EQ(t.layers[1].source.node, "#9 Conv");
    EXPECT_EQ(t.layers[1].name, "#9 Conv");
    EXPECT_EQ(t.layers[2].source.node, "#15 Conv");
}

TEST(WildModels, ShapeArithmeticIsNeverAFloatFallback)
{
    const LayerTable t = table("retina_qdq");
    std::vector<Finding> findings;
    std::set<std::string> evaluated;
    runModelLints(t, {}, findings, evaluated);
    EXPECT_TRUE(evaluated.count("model.float_fallback"));
    for (const Finding& f : findings) {
        EXPECT_NE(f.id, "model.float_fallback") << f.evidence.front().detail;
    }
}

TEST(WildModels, FakeQuantSimulationIsBitExactWithOnnxRuntime)
{
    auto m = readOnnxFile(wild("retina_qdq.onnx"));
    ASSERT_TRUE(m.ok());
    auto interp = fixedpoint::Interpreter::build(*m);
    ASSERT_TRUE(interp.ok()) << interp.error().message;
    auto x = fixedpoint::readTensorFile(wild("retina_qdq.input_0.npy"));
    ASSERT_TRUE(x.ok());
    auto out = (*interp)->run(fixedpoint::SimMode::Fake, {*x}, fixedpoint::RunOptions{}, nullptr);
    ASSERT_TRUE(out.ok()) << out.error().message;
    for (const char* opt : {"disabled", "basic"}) {
        auto ort = fixedpoint::readTensorFile(wild(std::string("retina_qdq.ort_") + opt + ".npy"));
        ASSERT_TRUE(ort.ok()) << opt;
        EXPECT_EQ(out->outputs[0].toFloats(), ort->toFloats()) << opt;
    }
    // the simulator groups the layers with the same fusion table: three, no Sigmoid of its own
    std::vector<std::string> names;
    for (const auto& l : (*interp)->layers()) names.push_back(l.name);
    EXPECT_EQ(names, (std::vector<std::string>{"body.stage1.conv", "#9 Conv", "#15 Conv"}));
}

// Power-of-two scales make every requantization multiplier exact: integer arithmetic and ONNX
// Runtime can then differ only in how they round ties. With the default rounding (half to even,
// as the QDQ specification and ONNX Runtime round) fixed point agrees with ONNX Runtime to the
// last bit, with its QDQ fused into integer kernels ('all') or run as written ('disabled');
// rounding ties away from zero parts from it.
TEST(WildModels, FixedPointWithExactMultipliersDriftsOnlyByItsTieRule)
{
    auto m = readOnnxFile(wild("pow2_qdq.onnx"));
    ASSERT_TRUE(m.ok());
    auto interp = fixedpoint::Interpreter::build(*m);
    ASSERT_TRUE(interp.ok()) << interp.error().message;
    auto x = fixedpoint::readTensorFile(wild("pow2_qdq.input_0.npy"));
    ASSERT_TRUE(x.ok());
    auto intOutput = [&](fixedpoint::RequantMode rq) {
        fixedpoint::RunOptions o;
        o.requant = rq;
        auto out = (*interp)->run(fixedpoint::SimMode::Int, {*x}, o, nullptr);
        EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().message);
        return out.ok() ? out->outputs.at(0).toFloats() : std::vector<float>{};
    };
    const auto even = intOutput(fixedpoint::RequantMode::Fixed);
    const auto away = intOutput(fixedpoint::RequantMode::fixedPoint(fixedpoint::RoundMode::HalfAwayFromZero));
    for (const char* opt : {"all", "disabled"}) {
        auto ort = fixedpoint::readTensorFile(wild(std::string("pow2_qdq.ort_") + opt + ".npy"));
        ASSERT_TRUE(ort.ok()) << opt;
        EXPECT_EQ(even, ort->toFloats()) << opt;
        size_t differ = 0;
        for (size_t i = 0; i < away.size(); ++i) differ += away[i] != ort->toFloats()[i];
        EXPECT_GT(differ, 0u) << opt << ": ties away from zero should part somewhere";
    }
}
