// ONNX Runtime's QOperator form (tests/gen/make_qoperator_models.py): QLinearConv plus the
// com.microsoft contrib ops QLinearAdd, QLinearMul, QGemm, QLinearAveragePool,
// QLinearGlobalAveragePool, QLinearSoftmax, QLinearConcat, QLinearSigmoid, QLinearLeakyRelu. The
// layer table reads each with its dtypes; the simulator runs each in every mode, against ONNX
// Runtime's codes for every op (the taps model has each op's output as a graph output too).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>

#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/model/onnx_file.h"
#include "core/model/onnx_layer_table.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::fixedpoint;

namespace {

std::string wild(const std::string& file)
{
    return std::string(QATDOCTOR_TEST_DATA) + "/models/wild/" + file;
}

struct Loaded {
    std::shared_ptr<Interpreter> interp;
    Tensor input;
};

Loaded load(const std::string& model)
{
    Loaded l;
    auto m = model::readOnnxFile(wild(model + ".onnx"));
    EXPECT_TRUE(m.ok());
    if (!m.ok()) return l;
    auto i = Interpreter::build(*m);
    EXPECT_TRUE(i.ok()) << (i.ok() ? "" : i.error().message);
    if (!i.ok()) return l;
    l.interp = *i;
    auto x = readTensorFile(wild(model + ".input_0.npy"));
    EXPECT_TRUE(x.ok());
    if (x.ok()) l.input = *x;
    return l;
}

std::map<std::string, std::vector<float>> outputsIn(const Loaded& l, SimMode mode)
{
    auto r = l.interp->run(mode, {l.input}, RunOptions{}, nullptr);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    std::map<std::string, std::vector<float>> out;
    if (!r.ok()) return out;
    for (size_t k = 0; k < r->outputs.size(); ++k) out[l.interp->outputNames()[k]] = r->outputs[k].toFloats();
    return out;
}

}  // namespace

TEST(QOperator, EveryContribOpIsALayerWithItsDtypes)
{
    auto t = model::loadOnnxLayerTable(wild("qop_residual.onnx"));
    ASSERT_TRUE(t.ok()) << t.error().message;
    std::map<std::string, const model::Layer*> byOp;
    for (const model::Layer& l : t->layers) byOp.emplace(l.op, &l);  // the first of each op
    for (const char* op :
         {"QLinearAdd", "QLinearMul", "QGemm", "QLinearAveragePool", "QLinearGlobalAveragePool",
          "QLinearSoftmax", "QLinearConcat", "QLinearSigmoid", "QLinearLeakyRelu"}) {
        const std::string name = std::string("com.microsoft::") + op;
        ASSERT_TRUE(byOp.count(name)) << name;
        const model::Layer& l = *byOp[name];
        EXPECT_EQ(l.outputDtype, model::DType::UInt8) << name;
        EXPECT_FALSE(l.inputDtypes.empty()) << name;
        for (model::DType d : l.inputDtypes) EXPECT_EQ(d, model::DType::UInt8) << name;
        EXPECT_TRUE(std::find(l.flags.begin(), l.flags.end(), "custom_op") == l.flags.end()) << name;
    }
    const model::Layer& gemm = *byOp["com.microsoft::QGemm"];
    EXPECT_EQ(gemm.weightDtype, model::DType::Int8);
    ASSERT_TRUE(gemm.weightQuant);
    EXPECT_EQ(gemm.weightQuant->scales.size(), 10u);  // per output column
    EXPECT_TRUE(std::find(gemm.flags.begin(), gemm.flags.end(), "bias_int32") != gemm.flags.end());
    EXPECT_EQ(byOp["com.microsoft::QLinearConcat"]->inputDtypes.size(), 2u);
    EXPECT_EQ(byOp["com.microsoft::QLinearAdd"]->source.node, "#3 QLinearAdd");
}

// Per op: the fake-quant and the integer modes give every code exactly as ONNX Runtime does (run
// as written; the weights are 7-bit as its quantizer writes them for AVX2, whose u8 x s8 kernels
// saturate 8-bit products in int16). Fake-quant is the QDQ form of each op in float32, the integer
// mode its integer kernels. The counts are printed for the record.
TEST(QOperator, EveryOpAgreesWithOnnxRuntime)
{
    const Loaded l = load("qop_residual_taps");
    ASSERT_TRUE(l.interp);
    const auto fake = outputsIn(l, SimMode::Fake);
    const auto integer = outputsIn(l, SimMode::Int);
    for (const char* tap : {"conv1_q", "conv2_q", "add_q", "leaky_q", "pool_q", "sigmoid_q", "concat_q",
                            "mul_q", "gap_q", "fc_q", "softmax_q"}) {
        auto ort = readTensorFile(wild(std::string("qop_residual_taps.ort_disabled.") + tap + ".npy"));
        ASSERT_TRUE(ort.ok()) << tap;
        const std::vector<float> want = ort->toFloats();
        for (const auto* mode : {&fake, &integer}) {
            const std::vector<float>& got = mode->at(tap);
            ASSERT_EQ(got.size(), want.size()) << tap;
            size_t same = 0;
            float worst = 0;
            for (size_t i = 0; i < got.size(); ++i) {
                same += got[i] == want[i];
                worst = std::max(worst, std::abs(got[i] - want[i]));
            }
            std::cout << "[ conformance ] " << tap << (mode == &fake ? " fake " : " int  ") << same << "/"
                      << got.size() << " codes equal, worst " << worst << "\n";
            EXPECT_EQ(same, got.size()) << tap << ": worst " << worst;
        }
    }
    auto ort = readTensorFile(wild("qop_residual_taps.ort_disabled.npy"));
    ASSERT_TRUE(ort.ok());
    EXPECT_EQ(fake.at("output"), ort->toFloats());
}

// The float mode runs each op on the dequantized operands: QLinearConv on codes read as real
// values (what it did before) gave a cosine of -0.2 against fake-quant at the second conv.
TEST(QOperator, FloatModeComputesOnDequantizedOperands)
{
    const Loaded l = load("qop_residual");
    ASSERT_TRUE(l.interp);
    RunOptions o;
    o.keepLayerOutputs = true;
    auto flt = l.interp->run(SimMode::Float, {l.input}, o, nullptr);
    auto fake = l.interp->run(SimMode::Fake, {l.input}, o, nullptr);
    ASSERT_TRUE(flt.ok() && fake.ok());
    ASSERT_EQ(flt->layerOutputs.size(), l.interp->layers().size());
    for (size_t i = 0; i < flt->layerOutputs.size(); ++i) {
        const std::vector<float> a = flt->layerOutputs[i].toFloats(), b = fake->layerOutputs[i].toFloats();
        ASSERT_EQ(a.size(), b.size());
        double dot = 0, na = 0, nb = 0;
        for (size_t k = 0; k < a.size(); ++k) {
            dot += double(a[k]) * b[k];
            na += double(a[k]) * a[k];
            nb += double(b[k]) * b[k];
        }
        EXPECT_GT(dot / std::sqrt(na * nb), 0.99) << l.interp->layers()[i].name;
    }
}
