// simulate() end to end on the committed QAT fixtures: agreement figures, what-if, weights,
// LUT reports, findings and the JSON form.
#include "core/fixedpoint/simulation.h"

#include <gtest/gtest.h>

#include <map>

#include "core/fixedpoint/sim_inputs.h"
#include "core/fixedpoint/simulation_json.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/model/onnx_file.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::fixedpoint;

namespace {

std::shared_ptr<Interpreter> load(const std::string& name)
{
    auto m = model::readOnnxFile(std::string(QATDOCTOR_TEST_DATA) + "/models/" + name);
    EXPECT_TRUE(m.ok());
    auto i = Interpreter::build(*m);
    EXPECT_TRUE(i.ok()) << (i.ok() ? "" : i.error().message);
    return i.ok() ? *i : nullptr;
}

}  // namespace

TEST(Simulation, LayersOfTheBnExportAreNamedAndFolded)
{
    auto interp = load("qat_qdq_bn.onnx");
    ASSERT_TRUE(interp);
    std::vector<std::string> names;
    for (const auto& L : interp->layers()) names.push_back(L.name);
    EXPECT_EQ(names, (std::vector<std::string>{"conv1", "conv2", "add", "fc"}));
    const LayerInfo& conv1 = interp->layers()[0];
    EXPECT_EQ(conv1.outputQuantizers.size(), 1u);  // Div, Add, BN, Relu absorbed up to Q -> Clip -> DQ
    EXPECT_EQ(conv1.weightQuantizers.size(), 2u);
    EXPECT_GT(conv1.outputScale, 0.0f);
    auto w = interp->layerWeight(conv1);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->values.shape(), (std::vector<int64_t>{16, 3, 3, 3}));
    ASSERT_TRUE(w->quant.has_value());
    EXPECT_EQ(w->quant->scales.size(), 16u);
}

TEST(Simulation, AllModesAgreeWhereTheyShould)
{
    auto interp = load("qat_qdq.onnx");
    ASSERT_TRUE(interp);
    InputSpec spec;
    spec.files = {std::string(QATDOCTOR_TEST_DATA) + "/models/qat_qdq.input_0.npy"};
    auto in = prepareInputs(*interp, spec);
    ASSERT_TRUE(in.ok());
    SimulationOptions opt;
    opt.threads = 2;
    opt.sensitivity = true;
    double progressSeen = 0;
    auto r = simulate(*interp, in->tensors, opt, [&](double f, std::string_view) {
        progressSeen = std::max(progressSeen, f);
        return true;
    });
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_DOUBLE_EQ(progressSeen, 1.0);
    EXPECT_EQ(r->timingMs.size(), 3u);
    ASSERT_EQ(r->comparisons.size(), interp->layers().size());
    // fake vs int: the integer pipeline reproduces PyTorch int8 (tested elsewhere); per layer it
    // stays within one output step of fake-quant on this model
    for (const auto& c : r->comparisons) {
        ASSERT_TRUE(c.pairs.count("fake_int")) << c.layer;
        EXPECT_LE(c.pairs.at("fake_int").maxErrLsb, 1.001) << c.layer;
        EXPECT_GT(c.pairs.at("float_fake").cosine, 0.99) << c.layer;
    }
    EXPECT_TRUE(r->firstBadLayer.empty());
    EXPECT_TRUE(r->fallbacks.empty());
    EXPECT_TRUE(r->overflows.empty());
    ASSERT_TRUE(r->requantDiffLsb.has_value());
    EXPECT_LE(*r->requantDiffLsb, 1.0);
    EXPECT_EQ(r->weights.size(), 3u);  // conv1, conv2, fc
    for (const auto& w : r->weights) {
        EXPECT_GE(w.sqnrInt8PerChannel, w.sqnrInt8PerTensor - 1e-9) << w.layer;
        EXPECT_GT(w.sqnrInt16PerChannel, w.sqnrInt8PerChannel + 30) << w.layer;  // ~6 dB per bit
        ASSERT_TRUE(w.sqnrModel.has_value());
    }
    EXPECT_EQ(r->sensitivity.size(), interp->layers().size());
    const auto j = simulationToJson(*r, Lang::En, opt.requant);
    EXPECT_TRUE(j["timing_ms"].contains("int"));
    EXPECT_TRUE(j["first_bad_layer"].is_null());
    EXPECT_EQ(j["layers"].size(), interp->layers().size());
}

TEST(Simulation, CancelStopsWithTheCancelledCode)
{
    auto interp = load("qat_qdq.onnx");
    ASSERT_TRUE(interp);
    auto in = prepareInputs(*interp, InputSpec{});
    ASSERT_TRUE(in.ok());
    EXPECT_EQ(in->sources[0], "random(seed=0)");
    auto r =
        simulate(*interp, in->tensors, SimulationOptions{}, [](double, std::string_view) { return false; });
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, kCancelledCode);
}

TEST(Simulation, WrongInputShapeNamesTheInput)
{
    auto interp = load("qat_qdq.onnx");
    ASSERT_TRUE(interp);
    auto r =
        interp->run(SimMode::Fake, {randomTensor(DType::Float32, {1, 3, 8, 8}, 1)}, RunOptions{}, nullptr);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("input"), std::string::npos);
}

TEST(Simulation, FindingsNameTheLayer)
{
    SimulationResult r;
    r.modelPath = "m.onnx";
    r.firstBadLayer = "layer3.conv";
    r.comparisons.push_back({"layer3.conv", {{"fake_int", Agreement{0.9, 1, 1, 1, 5, 12, 10}}}, 0});
    LutReport lut;
    lut.layer = "head.sigmoid";
    lut.op = "Sigmoid";
    lut.maxErrorLsb = 3;
    r.luts.push_back(lut);
    const auto f = simulationFindings(r);
    ASSERT_EQ(f.size(), 2u);
    for (const auto& x : f) {
        EXPECT_TRUE(x.title.complete());
        EXPECT_TRUE(x.message.complete());
        ASSERT_EQ(x.evidence.size(), 1u);
    }
    EXPECT_EQ(f[0].evidence[0].layer == "layer3.conv" ? f[1].id : f[0].id, "simulation.lut_error");
}

TEST(Simulation, LookUpTablesAreReportedPerLayer)
{
    auto m = model::readOnnxFile(std::string(QATDOCTOR_TEST_DATA) + "/fixedpoint/lut_qdq.onnx");
    ASSERT_TRUE(m.ok());
    auto interp = Interpreter::build(*m);
    ASSERT_TRUE(interp.ok()) << interp.error().message;
    InputSpec spec;
    spec.files = {std::string(QATDOCTOR_TEST_DATA) + "/fixedpoint/lut_qdq.input_0.npy"};
    auto in = prepareInputs(**interp, spec);
    ASSERT_TRUE(in.ok());
    SimulationOptions opt;
    opt.compareRequant = false;
    auto r = simulate(**interp, in->tensors, opt);
    ASSERT_TRUE(r.ok()) << r.error().message;
    std::map<std::string, LutReport> luts;
    for (const auto& l : r->luts) luts[l.layer] = l;
    ASSERT_EQ(luts.size(), 4u);
    EXPECT_EQ(luts["sigmoid"].entries, 256);
    EXPECT_LE(luts["sigmoid"].maxErrorLsb, 0.5 + 1e-6);  // an 8-bit table is exact up to output rounding
    EXPECT_EQ(luts["tanh"].inputBits, 16);
    EXPECT_EQ(luts["tanh"].entries, 257);
    EXPECT_GT(luts["tanh"].maxErrorLsb, 1.0);  // interpolation between breakpoints
    EXPECT_LT(luts["tanh"].maxError, 1e-3);
    EXPECT_LE(luts["softmax"].maxErrorLsb, 1.0);
    EXPECT_GT(luts["exp"].maxErrorLsb, 10.0);  // exp(5) does not fit the output range
    EXPECT_FALSE(luts["exp"].curveX.empty());
    EXPECT_TRUE(r->fallbacks.empty());
    for (const auto& c : r->comparisons)
        if (c.layer == "sigmoid") EXPECT_LE(c.pairs.at("fake_int").maxErrLsb, 1.001);
    int lutFindings = 0;
    for (const auto& f : r->findings)
        if (f.id == "simulation.lut_error") {
            ++lutFindings;
            EXPECT_TRUE(f.evidence[0].layer == "exp" || f.evidence[0].layer == "tanh") << f.evidence[0].layer;
        }
    EXPECT_EQ(lutFindings, 2);
}
