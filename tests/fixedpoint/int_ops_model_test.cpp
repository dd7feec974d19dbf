// The integer mode's kernels, one op per model (tests/gen/make_int_ops_models.py): no op falls
// back to float, the integer output stays within a stated bound of fake-quant (in output steps),
// and each new kernel gives integer codes worked out by hand.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "core/fixedpoint/int_ops.h"
#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/simulation.h"
#include "core/fixedpoint/simulation_json.h"
#include "core/fixedpoint/simulation_summary.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/model/onnx_file.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::fixedpoint;

namespace {

std::string path(const std::string& f)
{
    return std::string(QATDOCTOR_TEST_DATA) + "/models/int_ops/" + f;
}

struct Loaded {
    std::shared_ptr<Interpreter> interp;
    std::vector<Tensor> inputs;
    float outScale = 0;
};

Loaded load(const std::string& name)
{
    Loaded l;
    auto m = model::readOnnxFile(path(name + ".onnx"));
    EXPECT_TRUE(m.ok()) << name;
    if (!m.ok()) return l;
    for (const auto& init : m->proto->graph().initializer())
        if (init.name() == "out_scale") l.outScale = (*model::tensorAsFloats(*m, init))[0];
    auto i = Interpreter::build(*m);
    EXPECT_TRUE(i.ok()) << (i.ok() ? "" : i.error().message);
    if (!i.ok()) return l;
    l.interp = *i;
    for (size_t k = 0; k < l.interp->inputNames().size(); ++k) {
        auto x = readTensorFile(path(name + ".input_" + std::to_string(k) + ".npy"));
        EXPECT_TRUE(x.ok()) << name << " input " << k;
        if (x.ok()) l.inputs.push_back(*x);
    }
    return l;
}

RunResult run(const Loaded& l, SimMode mode, RequantMode rq = RequantMode::Float)
{
    RunOptions o;
    o.requant = rq;
    auto r = l.interp->run(mode, l.inputs, o, nullptr);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : RunResult{};
}

std::vector<float> floats(std::initializer_list<int> codes, int zero, float scale)
{
    std::vector<float> v;
    for (int c : codes) v.push_back(static_cast<float>(c - zero) * scale);
    return v;
}

}  // namespace

// Bound in output steps of |int - fake| per model. 1 everywhere: every kernel rounds once from a
// value within a small fraction of a step of fake-quant's (bilinear: the Q11 weights move the
// interpolated value by at most 2 * 255 * 2^-12 = 0.125 input steps, resize_kernel.cpp).
// 16-bit bilinear keeps Q15 weights (16-bit weight registers): their rounding moves the value by
// up to 2 * 65535 * 2^-16 = 2 input steps worst case; 32 of 234 codes part by one step here.
struct Case {
    const char* name;
    double boundLsb;
    double partingFloat = 0.05;  // share of codes allowed to part with float requantization
};

class IntOpsModel : public ::testing::TestWithParam<Case> {};

TEST_P(IntOpsModel, RunsInIntegersWithinBoundOfFakeQuant)
{
    const Case c = GetParam();
    Loaded l = load(c.name);
    ASSERT_TRUE(l.interp);
    ASSERT_GT(l.outScale, 0.0f);
    const RunResult fake = run(l, SimMode::Fake);
    ASSERT_EQ(fake.outputs.size(), 1u);
    for (RequantMode rq : {RequantMode::Float, RequantMode::Fixed}) {
        const RunResult in = run(l, SimMode::Int, rq);
        EXPECT_TRUE(in.fallbacks.empty()) << c.name << ": " << in.fallbacks.front();
        ASSERT_EQ(in.outputs.size(), 1u);
        ASSERT_EQ(in.outputs[0].shape(), fake.outputs[0].shape()) << c.name;
        double maxLsb = 0;
        int64_t differing = 0;
        for (int64_t i = 0; i < in.outputs[0].size(); ++i) {
            const double d = std::fabs(in.outputs[0].at(i) - fake.outputs[0].at(i)) / l.outScale;
            maxLsb = std::max(maxLsb, d);
            differing += d > 0.5;
        }
        std::cout << c.name << " int(" << requantModeName(rq) << ") vs fake: max " << maxLsb << " LSB, "
                  << differing << " of " << in.outputs[0].size() << " codes differ\n";
        EXPECT_LE(maxLsb, c.boundLsb + 1e-3) << c.name << " " << requantModeName(rq);
        // with float requantization codes part only where fake-quant's value lies next to a
        // rounding boundary (at most 3 of 144 measured); a bias of a step parts most of them.
        // Fixed requantization rounds twice, TFLite's way, and parts up to 7 of 48 here (small
        // multipliers keep few bits after the first rounding); truncating instead parts half.
        const double share = rq == RequantMode::Float ? c.partingFloat : std::max(c.partingFloat, 0.2);
        EXPECT_LE(differing, std::max<int64_t>(2, static_cast<int64_t>(share * double(in.outputs[0].size()))))
            << c.name << " " << requantModeName(rq);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Models, IntOpsModel,
    ::testing::Values(Case{"matmul", 1}, Case{"sub", 1}, Case{"mul", 1}, Case{"concat", 1},
                      Case{"avgpool_pad", 1}, Case{"avgpool_nopad", 1}, Case{"global_avgpool", 1},
                      Case{"conv_grouped", 1}, Case{"conv_dilated", 1}, Case{"resize_nearest", 1},
                      Case{"resize_bilinear_half_pixel", 1}, Case{"resize_bilinear_align_corners", 1},
                      Case{"resize_bilinear_pytorch_half_pixel", 1}, Case{"resize_bilinear_asymmetric", 1},
                      Case{"resize_linear_channels", 1}, Case{"resize_bilinear_int16", 1, 0.2},
                      Case{"resize_bilinear_int8", 1}, Case{"add_broadcast", 1}, Case{"mul_broadcast", 1},
                      Case{"conv_add_fused", 1}, Case{"leaky_relu", 1}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

// 2x2 -> 4x4 half_pixel bilinear, input and output scale 0.5, zero point 10. Input codes
// [[10, 50], [90, 250]] are the values [[0, 40], [80, 240]] in steps. The sampled rows and columns
// sit at -0.25 (clamped to 0), 0.25, 0.75 and 1.25 (clamped to 1), weights 1/4 and 3/4 (exact in
// Q11: 512 and 1536 of 2048). Rows 0 and 3: [0, 10, 30, 40] and [80, 120, 200, 240]; row 1 =
// row 0 + (row 3 - row 0) / 4 = [20, 37.5, 72.5, 90]; row 2 = row 0 + 3 (row 3 - row 0) / 4 =
// [60, 92.5, 157.5, 190]. One rounding, half to even in float requantization (37.5 -> 38,
// 72.5 -> 72, 92.5 -> 92, 157.5 -> 158) and in fixed point by default; fixed point with ties
// away from zero (or up) gives 73 and 93. Rounding the horizontal pass first would give other codes.
TEST(IntOpsModel, BilinearTwoByTwoToFourByFourByHand)
{
    Loaded l = load("resize_hand");
    ASSERT_TRUE(l.interp);
    l.inputs = {Tensor::fromFloats({1, 1, 2, 2}, floats({10, 50, 90, 250}, 10, 0.5f))};
    const auto expectFloat =
        floats({10, 20, 40, 50, 30, 48, 82, 100, 70, 102, 168, 200, 90, 130, 210, 250}, 10, 0.5f);
    const auto expectAway =
        floats({10, 20, 40, 50, 30, 48, 83, 100, 70, 103, 168, 200, 90, 130, 210, 250}, 10, 0.5f);
    const RunResult f = run(l, SimMode::Int, RequantMode::Float);
    EXPECT_TRUE(f.fallbacks.empty());
    ASSERT_EQ(f.outputs.size(), 1u);
    EXPECT_EQ(f.outputs[0].shape(), (std::vector<int64_t>{1, 1, 4, 4}));
    EXPECT_EQ(f.outputs[0].toFloats(), expectFloat);
    EXPECT_EQ(run(l, SimMode::Int, RequantMode::Fixed).outputs[0].toFloats(), expectFloat);
    for (RoundMode ties : {RoundMode::HalfAwayFromZero, RoundMode::HalfUp})
        EXPECT_EQ(run(l, SimMode::Int, RequantMode::fixedPoint(ties)).outputs[0].toFloats(), expectAway);
    // fake-quant (ONNX Resize in float, then QuantizeLinear) rounds the same halves to even
    EXPECT_EQ(run(l, SimMode::Fake).outputs[0].toFloats(), expectFloat);
}

// Broadcast Add [1,2,2] + [2,1]: a at scale 0.25 / zero 128, b at 0.5 / 100, output 0.25 / 128,
// so the output code is a + 2 (b - 100): b = 100 keeps row 0 (130, 140), b = 104 adds 8 to row 1
// (120 -> 128, 128 -> 136).
TEST(IntOpsModel, BroadcastAddByHand)
{
    const Tensor a = Tensor::fromInts(DType::UInt8, {1, 2, 2}, {130, 140, 120, 128});
    const Tensor b = Tensor::fromInts(DType::UInt8, {2, 1}, {100, 104});
    QParams qa, qb, qo;
    qa.scales = {0.25f};
    qa.zeroPoints = {128};
    qa.range = qrange(DType::UInt8);
    qb.scales = {0.5f};
    qb.zeroPoints = {100};
    qb.range = qa.range;
    qo = qa;
    for (RequantMode rq : {RequantMode::Float, RequantMode::Fixed}) {
        auto y = binaryCodes("Add", a, qa, b, qb, qo, rq);
        ASSERT_TRUE(y.has_value());
        EXPECT_EQ(y->shape(), (std::vector<int64_t>{1, 2, 2}));
        EXPECT_EQ(y->toInts(), (std::vector<int64_t>{130, 140, 128, 136})) << requantModeName(rq);
        auto s = binaryCodes("Sub", a, qa, b, qb, qo, rq);  // a - 2 (b - 100)
        EXPECT_EQ(s->toInts(), (std::vector<int64_t>{130, 140, 112, 120})) << requantModeName(rq);
    }
}

// Mul by a per-channel quantized [1,2,1] tensor (channel scales 0.5 and 0.25, zero points 100 and
// 90, codes 104 and 98 = 4 and 8 steps), a at 0.25 / 128, output 0.125 / 10: channel 0 multiplies
// (a - 128) by 4 * 0.25 * 0.5 / 0.125 = 4 (130 -> 18, 140 -> 58), channel 1 by 8 * 0.25 * 0.25 /
// 0.125 = 4 as well but from another scale (120 -> -22 saturates to 0, 128 -> 10).
TEST(IntOpsModel, PerChannelMulByHand)
{
    const Tensor a = Tensor::fromInts(DType::UInt8, {1, 2, 2}, {130, 140, 120, 128});
    const Tensor b = Tensor::fromInts(DType::UInt8, {1, 2, 1}, {104, 98});
    QParams qa, qb, qo;
    qa.scales = {0.25f};
    qa.zeroPoints = {128};
    qa.range = qrange(DType::UInt8);
    qb.scales = {0.5f, 0.25f};
    qb.zeroPoints = {100, 90};
    qb.axis = 1;
    qb.range = qa.range;
    qo.scales = {0.125f};
    qo.zeroPoints = {10};
    qo.range = qa.range;
    for (RequantMode rq : {RequantMode::Float, RequantMode::Fixed}) {
        auto y = binaryCodes("Mul", a, qa, b, qb, qo, rq);
        ASSERT_TRUE(y.has_value());
        EXPECT_EQ(y->toInts(), (std::vector<int64_t>{18, 58, 0, 10})) << requantModeName(rq);
    }
    EXPECT_FALSE(binaryCodes("Mul", b, qb, b, qb, qo, RequantMode::Float).has_value());  // both per channel
}

// Conv (1x1, weight code 2 at 0.25, input at 0.5 / zero 0: sums 2 x, accumulator scale 0.125)
// plus a tensor at 0.25 / zero 3 with no quantizer between, output 0.5 / zero 5. The operand is
// rescaled into the accumulator (0.25 / 0.125 = 2 per step) and the sum requantized once:
// x = 4, r = 5: 8 + 2 * 2 = 12 -> 12 * 0.25 = 3 -> code 8; x = 5, r = 3: 10 + 0 = 10 -> 2.5, a
// half: 2 -> 7 in float requantization (and fake-quant) and in fixed point with ties to even,
// 3 -> 8 with ties away from zero or up.
TEST(IntOpsModel, ResidualAddOnTheAccumulatorByHand)
{
    Loaded l = load("conv_add_hand");
    ASSERT_TRUE(l.interp);
    l.inputs = {Tensor::fromFloats({1, 1, 1, 2}, floats({4, 5}, 0, 0.5f)),
                Tensor::fromFloats({1, 1, 1, 2}, floats({5, 3}, 3, 0.25f))};
    const RunResult f = run(l, SimMode::Int, RequantMode::Float);
    EXPECT_TRUE(f.fallbacks.empty());
    EXPECT_EQ(f.outputs[0].toFloats(), floats({8, 7}, 5, 0.5f));
    EXPECT_EQ(run(l, SimMode::Int, RequantMode::Fixed).outputs[0].toFloats(), floats({8, 7}, 5, 0.5f));
    for (RoundMode ties : {RoundMode::HalfAwayFromZero, RoundMode::HalfUp})
        EXPECT_EQ(run(l, SimMode::Int, RequantMode::fixedPoint(ties)).outputs[0].toFloats(),
                  floats({8, 8}, 5, 0.5f));
    EXPECT_EQ(run(l, SimMode::Fake).outputs[0].toFloats(), floats({8, 7}, 5, 0.5f));
}

// Div of two quantized activations has no integer kernel (a deployment compiler needs a
// reciprocal table for it): the integer mode computes it in float and says so.
TEST(IntOpsModel, AFloatFallbackIsListed)
{
    Loaded l = load("div_fallback");
    ASSERT_TRUE(l.interp);
    const RunResult r = run(l, SimMode::Int);
    ASSERT_EQ(r.fallbacks.size(), 1u);
    EXPECT_EQ(r.fallbacks[0], "div (Div)");
    EXPECT_TRUE(run(l, SimMode::Fake).fallbacks.empty());
}

// ReduceMean is no layer; it and the float LeakyRelu computed from its float result are listed,
// the Reshape between them (data movement only) is not.
TEST(IntOpsModel, FallbacksThatAreNoLayersAreListedToo)
{
    Loaded l = load("reduce_fallback");
    ASSERT_TRUE(l.interp);
    EXPECT_EQ(run(l, SimMode::Int).fallbacks,
              (std::vector<std::string>{"reducemean (ReduceMean)", "leakyrelu (LeakyRelu)"}));
}

// The list reaches what the CLI's JSON and the Fixed-point page's summary read.
TEST(IntOpsModel, FallbacksReachTheJsonAndTheSummary)
{
    Loaded l = load("reduce_fallback");
    ASSERT_TRUE(l.interp);
    SimulationOptions opt;
    auto r = simulate(*l.interp, l.inputs, opt);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const std::vector<std::string> expect{"reducemean (ReduceMean)", "leakyrelu (LeakyRelu)"};
    EXPECT_EQ(r->fallbacks, expect);
    EXPECT_EQ(simulationToJson(*r, Lang::En, opt.requant)["fallbacks"].get<std::vector<std::string>>(),
              expect);
    EXPECT_EQ(summarizeSimulation(*r, opt, {"input_0.npy"}).fallbacks, expect);
}

// The residual model's convolution feeds the Add straight (no quantizer between) and keeps its
// weight as codes: an int16 what-if on it widens nothing, and says so instead of reporting a
// 0 dB gain as if the layer did not matter. The Add has its own output quantizer.
TEST(IntOpsModels, WhatIfSaysWhenALayerHasNothingToWiden)
{
    const Loaded l = load("conv_add_fused");
    ASSERT_TRUE(l.interp);
    auto nothingWidened = [&](const std::string& layer) {
        SimulationOptions opt;
        opt.int16Layers = {layer};
        auto r = simulate(*l.interp, l.inputs, opt);
        EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
        std::vector<std::string> layers;
        if (r.ok())
            for (const Finding& f : r->findings)
                if (f.id == "simulation.nothing_widened") layers.push_back(f.evidence.at(0).layer);
        return layers;
    };
    EXPECT_EQ(nothingWidened("conv"), std::vector<std::string>{"conv"});
    EXPECT_TRUE(nothingWidened("add").empty());
}
