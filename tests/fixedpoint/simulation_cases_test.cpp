// simulate() on models built to go wrong (tests/gen/make_simulation_cases.py): an int16 layer whose
// accumulator overflows, a 16-bit Tanh table too coarse for its data (the first bad layer), a layer
// quantized 16x too coarsely (what the sensitivity ranking and the what-ifs must find), and the
// agreement metrics and requantization finding on values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "core/fixedpoint/compare.h"
#include "core/fixedpoint/int_ops.h"
#include "core/fixedpoint/quantize.h"
#include "core/fixedpoint/sim_inputs.h"
#include "core/fixedpoint/simulation.h"
#include "core/fixedpoint/simulation_json.h"
#include "core/model/onnx_file.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::fixedpoint;

namespace {

const std::string kCases = std::string(QATDOCTOR_TEST_DATA) + "/fixedpoint/sim_cases/";

struct Case {
    std::shared_ptr<const Interpreter> interp;
    std::vector<Tensor> inputs;
};

Case load(const std::string& name)
{
    Case c;
    auto m = model::readOnnxFile(kCases + name + ".onnx");
    EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().toString());
    if (!m) return c;
    auto i = Interpreter::build(*m);
    EXPECT_TRUE(i.ok()) << (i.ok() ? "" : i.error().toString());
    if (!i) return c;
    c.interp = *i;
    InputSpec spec;
    spec.files = {kCases + name + ".input_0.npy"};
    auto in = prepareInputs(*c.interp, spec);
    EXPECT_TRUE(in.ok()) << (in.ok() ? "" : in.error().toString());
    if (in) c.inputs = in->tensors;
    return c;
}

const Finding* findingOf(const SimulationResult& r, const std::string& id)
{
    for (const Finding& f : r.findings)
        if (f.id == id) return &f;
    return nullptr;
}

const Agreement& pairOf(const SimulationResult& r, const std::string& layer, const std::string& pair)
{
    static const Agreement none;
    for (const auto& c : r.comparisons)
        if (c.layer == layer && c.pairs.count(pair)) return c.pairs.at(pair);
    ADD_FAILURE() << layer << " has no " << pair;
    return none;
}

}  // namespace

TEST(SimulationCases, AnInt16ConvWhoseSumsPassInt32IsReportedAsOverflowing)
{
    const Case c = load("overflow_int16");
    ASSERT_TRUE(c.interp);
    auto r = simulate(*c.interp, c.inputs, SimulationOptions{});
    ASSERT_TRUE(r.ok()) << r.error().toString();
    // 3x3 outputs, each the sum of 576 products 30000 * 30000 = 5.2e11 > 2^31 - 1
    ASSERT_EQ(r->overflows.count("conv"), 1u);
    EXPECT_EQ(r->overflows.at("conv"), 9);
    ASSERT_EQ(r->comparisons.size(), 1u);
    EXPECT_EQ(r->comparisons[0].overflows, 9);
    const Finding* f = findingOf(*r, "simulation.accumulator_overflow");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Error);
    ASSERT_EQ(f->evidence.size(), 1u);
    EXPECT_EQ(f->evidence[0].layer, "conv");
    EXPECT_EQ(f->evidence[0].value, 9.0);
    const auto j = simulationToJson(*r, Lang::En, RequantMode::Float);
    EXPECT_EQ(j["overflows"]["conv"], 9);
    EXPECT_EQ(j["layers"][0]["overflows"], 9);
}

TEST(SimulationCases, ACoarse16BitTanhTableIsTheFirstBadLayer)
{
    const Case c = load("coarse_tanh");
    ASSERT_TRUE(c.interp);
    auto r = simulate(*c.interp, c.inputs, SimulationOptions{});
    ASSERT_TRUE(r.ok()) << r.error().toString();
    // the conv before it agrees to one step; the table with knots ~7.7 apart does not
    EXPECT_LE(pairOf(*r, "conv", "fake_int").maxErrLsb, 1.001);
    EXPECT_GT(pairOf(*r, "conv", "fake_int").cosine, 0.9999);
    const Agreement& tanh = pairOf(*r, "tanh", "fake_int");
    EXPECT_LT(tanh.cosine, 0.9);
    EXPECT_LT(tanh.sqnrDb, 10.0);
    EXPECT_GT(pairOf(*r, "tanh", "float_fake").cosine, 0.999);  // fake-quant itself is fine
    EXPECT_EQ(r->firstBadLayer, "tanh");
    EXPECT_TRUE(r->firstBadLayerFloat.empty());
    ASSERT_EQ(r->luts.size(), 1u);
    EXPECT_EQ(r->luts[0].inputBits, 16);
    EXPECT_GT(r->luts[0].maxError, 0.5);
    EXPECT_GT(r->luts[0].meanError, 0.1);
    EXPECT_LE(r->luts[0].meanError, r->luts[0].maxError);
    const Finding* f = findingOf(*r, "simulation.first_bad_layer");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(f->evidence.size(), 1u);
    EXPECT_EQ(f->evidence[0].layer, "tanh");
    EXPECT_NEAR(f->evidence[0].value.value_or(-1), tanh.cosine, 1e-12);
    EXPECT_NE(findingOf(*r, "simulation.lut_error"), nullptr);
    EXPECT_EQ(simulationToJson(*r, Lang::En, RequantMode::Float)["first_bad_layer"], "tanh");
}

TEST(SimulationCases, SensitivityRanksTheCoarselyQuantizedLayerFirst)
{
    const Case c = load("coarse_then_fine");
    ASSERT_TRUE(c.interp);
    SimulationOptions opt;
    opt.sensitivity = true;
    auto r = simulate(*c.interp, c.inputs, opt);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    ASSERT_EQ(r->sensitivity.size(), 2u);
    EXPECT_EQ(r->sensitivity[0].layer, "conv1");
    EXPECT_GT(r->sensitivity[0].gainDb, 10.0);  // 4 wasted bits ~ 24 dB at conv1, less at the output
    EXPECT_EQ(r->sensitivity[1].layer, "conv2");
    EXPECT_LT(std::fabs(r->sensitivity[1].gainDb), 1.0);
    // gain = the layer's output SQNR minus the unchanged model's
    const auto sq = r->outputSqnrDb();
    ASSERT_TRUE(sq.has_value());
    EXPECT_NEAR(r->sensitivity[0].outputSqnrDb - r->sensitivity[0].gainDb, *sq, 1e-9);
    EXPECT_FALSE(r->whatIf());
    EXPECT_FALSE(r->baselineOutputSqnrDb.has_value());
}

TEST(SimulationCases, Int16AndFloatWhatIfsReportTheirGainOverTheUnchangedModel)
{
    const Case c = load("coarse_then_fine");
    ASSERT_TRUE(c.interp);
    auto unchanged = simulate(*c.interp, c.inputs, SimulationOptions{});
    ASSERT_TRUE(unchanged.ok());
    const double base = *unchanged->outputSqnrDb();
    for (const char* kind : {"int16", "float"}) {
        SimulationOptions opt;
        (std::string(kind) == "int16" ? opt.int16Layers : opt.floatLayers).insert("conv1");
        auto r = simulate(*c.interp, c.inputs, opt);
        ASSERT_TRUE(r.ok()) << r.error().toString();
        EXPECT_TRUE(r->whatIf());
        ASSERT_TRUE(r->baselineOutputSqnrDb.has_value()) << kind;
        EXPECT_DOUBLE_EQ(*r->baselineOutputSqnrDb, base) << kind;
        EXPECT_GT(*r->outputSqnrDb(), base + 10.0) << kind;
        // conv1 itself: its int result now follows float closely (24.6 dB before, 41.1 after)
        EXPECT_GT(pairOf(*r, "conv1", "float_int").sqnrDb,
                  pairOf(*unchanged, "conv1", "float_int").sqnrDb + 12.0)
            << kind;
        const auto j = simulationToJson(*r, Lang::En, RequantMode::Float)["what_if"];
        EXPECT_EQ(j[std::string(kind) + "_layers"], nlohmann::json::array({"conv1"})) << kind;
        EXPECT_NEAR(j["gain_db"].get<double>(), *r->outputSqnrDb() - base, 1e-9) << kind;
    }
    const auto j = simulationToJson(*unchanged, Lang::En, RequantMode::Float)["what_if"];
    EXPECT_TRUE(j["int16_layers"].empty());
    EXPECT_TRUE(j["gain_db"].is_null());
}

TEST(SimulationCases, AgreementMetricsOfKnownTensors)
{
    const Tensor ref = Tensor::fromFloats({4}, {1, 2, 3, 4});
    const Tensor other = Tensor::fromFloats({4}, {1, 2, 3, 5});
    const Agreement g = compareTensors(ref, other, 0.5);
    EXPECT_EQ(g.count, 4);
    EXPECT_NEAR(g.cosine, 34.0 / std::sqrt(30.0 * 39.0), 1e-12);
    EXPECT_NEAR(g.mse, 0.25, 1e-12);
    EXPECT_NEAR(g.l1, 0.25, 1e-12);
    EXPECT_NEAR(g.maxAbs, 1.0, 1e-12);
    EXPECT_NEAR(g.sqnrDb, 10.0 * std::log10(30.0), 1e-9);
    EXPECT_NEAR(g.maxErrLsb, 2.0, 1e-12);
    EXPECT_EQ(compareTensors(ref, other, 0).maxErrLsb, 0.0);  // not quantized: no steps
    EXPECT_TRUE(std::isinf(compareTensors(ref, ref, 0.5).sqnrDb));
    EXPECT_TRUE(agreementBroken(g));  // cosine 0.9955 passes, SQNR 14.8 dB < 20 does not
    AgreementThresholds loose;
    loose.minSqnrDb = 10;
    EXPECT_FALSE(agreementBroken(g, loose));
}

TEST(SimulationCases, RequantizationsPartingByOneStepIsNotAFinding)
{
    SimulationResult r;
    r.modelPath = "m.onnx";
    r.requantDiffLayer = "conv2";
    r.requantDiffLsb = 1.0000001;  // one step, as a quotient of dequantized floats
    EXPECT_TRUE(simulationFindings(r).empty());
    r.requantDiffLsb = 2.0;
    const auto f = simulationFindings(r);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].id, "simulation.requant_mismatch");
    EXPECT_EQ(f[0].evidence[0].layer, "conv2");
}

// Agreements merge their sums: two halves merged equal the whole compared at once.
TEST(SimulationCases, MergedAgreementsEqualTheWholeComparedAtOnce)
{
    const Tensor refA = Tensor::fromFloats({3}, {1, -2, 3}), refB = Tensor::fromFloats({2}, {0.5f, 4});
    const Tensor othA = Tensor::fromFloats({3}, {1.5f, -2, 2}), othB = Tensor::fromFloats({2}, {0.25f, 4.5f});
    const Agreement whole = compareTensors(Tensor::fromFloats({5}, {1, -2, 3, 0.5f, 4}),
                                           Tensor::fromFloats({5}, {1.5f, -2, 2, 0.25f, 4.5f}), 0.25);
    const Agreement merged =
        mergeAgreements(compareTensors(refA, othA, 0.25), compareTensors(refB, othB, 0.25));
    EXPECT_EQ(merged.count, 5);
    EXPECT_NEAR(merged.cosine, whole.cosine, 1e-15);
    EXPECT_NEAR(merged.mse, whole.mse, 1e-15);
    EXPECT_NEAR(merged.l1, whole.l1, 1e-15);
    EXPECT_NEAR(merged.sqnrDb, whole.sqnrDb, 1e-12);
    EXPECT_EQ(merged.maxAbs, 1.0);
    EXPECT_EQ(merged.maxErrLsb, 4.0);
    EXPECT_EQ(mergeAgreements(Agreement{}, whole).mse, whole.mse);
}

// A batch of two samples: the per-layer figures are those of both samples together, the
// outputs the first sample's, and a what-if's baseline covers both too.
TEST(SimulationCases, SamplesOfABatchAreSimulatedOneAfterAnother)
{
    const Case c = load("coarse_then_fine");
    ASSERT_TRUE(c.interp);
    std::vector<float> second = c.inputs[0].toFloats();
    for (float& v : second) v = -0.5f * v + 0.3f;
    PreparedInputs both;
    both.tensors = c.inputs;
    both.moreSamples.push_back({Tensor::fromFloats(c.inputs[0].shape(), second)});
    SimulationOptions opt;
    opt.int16Layers = {"conv2"};
    auto a = simulate(*c.interp, c.inputs, opt);
    auto b = simulate(*c.interp, both.moreSamples[0], opt);
    auto r = simulate(*c.interp, both, opt);
    ASSERT_TRUE(a.ok() && b.ok() && r.ok());
    EXPECT_EQ(r->samples, 2u);
    for (size_t li = 0; li < r->comparisons.size(); ++li)
        for (const char* pair : {"float_fake", "fake_int", "float_int"}) {
            const Agreement want =
                mergeAgreements(a->comparisons[li].pairs.at(pair), b->comparisons[li].pairs.at(pair));
            const Agreement& got = r->comparisons[li].pairs.at(pair);
            EXPECT_EQ(got.count, want.count);
            EXPECT_DOUBLE_EQ(got.mse, want.mse) << li << pair;
            EXPECT_DOUBLE_EQ(got.cosine, want.cosine) << li << pair;
        }
    EXPECT_NE(r->comparisons[0].pairs.at("float_fake").mse, a->comparisons[0].pairs.at("float_fake").mse);
    EXPECT_EQ(r->outputs.at("int")[0].toFloats(), a->outputs.at("int")[0].toFloats());
    ASSERT_TRUE(r->baselineOutputSqnrDb.has_value());
    EXPECT_DOUBLE_EQ(*r->baselineOutputSqnrDb,
                     mergeAgreements(*a->baselineOutputAgreement, *b->baselineOutputAgreement).sqnrDb);
    EXPECT_DOUBLE_EQ(
        *r->outputSqnrDb(),
        mergeAgreements(a->outputAgreement.at("float_int")[0], b->outputAgreement.at("float_int")[0]).sqnrDb);
}

// ConvTranspose weights are [C, M/group, k...]: their output channels are axis 1, and the weight
// analysis quantizes per channel along it (axis 0 would be the input channels).
TEST(SimulationCases, WeightAnalysisTakesOutputChannelsOnTheGivenAxis)
{
    // column 1 is small: only a per-column (axis 1) scale keeps it
    const Tensor w = Tensor::fromFloats({2, 2, 1, 1}, {1.0f, 0.013f, -0.8f, 0.0021f});
    const WeightStats byRow = weightStats("up", w, std::nullopt, 0);
    const WeightStats byColumn = weightStats("up", w, std::nullopt, 1);
    EXPECT_EQ(byRow.channels, 2);
    EXPECT_EQ(byColumn.channels, 2);
    EXPECT_EQ(byColumn.count, 4);
    EXPECT_DOUBLE_EQ(byRow.sqnrInt8PerTensor, byColumn.sqnrInt8PerTensor);
    // per row, 0.013 and 0.0021 share a scale with 1.0 / 0.8 (steps of ~0.008 / 0.006); per
    // column they get their own and come out almost exact
    EXPECT_GT(byColumn.sqnrInt8PerChannel, byRow.sqnrInt8PerChannel);
    EXPECT_GT(byColumn.sqnrInt8PerChannel, 40.0);
}

// An int16 tensor plus a uint8 one in fixed-point requantization: both are shifted with 16-bit
// headroom, so the sum stays within one step of the exact (float-requantized) one. With 8-bit
// headroom for the int16 side the shifted codes saturate and the sums collapse.
TEST(SimulationCases, FixedPointAddOfInt16AndUint8CodesKeepsItsRange)
{
    std::vector<int64_t> av, bv;
    for (int64_t i = 0; i < 64; ++i) {
        av.push_back(-32768 + i * 1040);
        bv.push_back((i * 37) % 256);
    }
    const Tensor a = Tensor::fromInts(DType::Int16, {64}, av), b = Tensor::fromInts(DType::UInt8, {64}, bv);
    const QParams qa = *makeQParams(DType::Int16, {1.0f / 4096}, {0}, -1, {});
    const QParams qb = *makeQParams(DType::UInt8, {0.02f}, {128}, -1, {});
    const QParams qo = *makeQParams(DType::Int16, {1.0f / 2048}, {0}, -1, {});
    // the uint8 operand first: its dtype alone used to pick the headroom
    const auto exact = binaryCodes("Add", b, qb, a, qa, qo, RequantMode::Float);
    const auto fixed = binaryCodes("Add", b, qb, a, qa, qo, RequantMode::Fixed);
    ASSERT_TRUE(exact && fixed);
    for (int64_t i = 0; i < 64; ++i) EXPECT_LE(std::abs(exact->atInt(i) - fixed->atInt(i)), 1) << i;
    EXPECT_EQ(exact->atInt(0), -16384 + static_cast<int64_t>(std::nearbyint(-128 * 0.02 * 2048)));
}
