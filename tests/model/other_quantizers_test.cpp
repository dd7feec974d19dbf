// Models quantized by other tools (tests/gen/make_dynamic_qonnx_models.py, tests/data/models/other):
// ONNX Runtime's dynamic quantization (DynamicQuantizeLinear -> MatMulInteger / ConvInteger -> Cast
// -> Mul), QONNX's fake quantizers as Brevitas and the QKeras converter write them, quantizer ops
// no reader knows, graphs without an input or a compute node, broken activation scales, a QGemm
// whose input scale is computed at run time and QLinearAveragePool's rounding. The layer table
// reads each form; the simulator runs the ONNX Runtime ones against ONNX Runtime's outputs
// (ort_reference.js). The reference is the session with every optimization and
// session.x64quantprecision: its transformer makes u8 x s8 products exact; without it, x86 without
// VNNI adds pairs of products in saturating int16 and one output of dyn_mlp is off by a step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/model/model_lints.h"
#include "core/model/onnx_file.h"
#include "core/model/onnx_layer_table.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::model;
namespace fs = std::filesystem;

namespace {

const fs::path kOther = fs::path(QATDOCTOR_TEST_DATA) / "models" / "other";

LayerTable tableOf(const std::string& model)
{
    auto t = loadOnnxLayerTable((kOther / (model + ".onnx")).string());
    EXPECT_TRUE(t) << (t ? "" : t.error().toString());
    return t ? *t : LayerTable{};
}

std::vector<std::string> namesOf(const LayerTable& t)
{
    std::vector<std::string> names;
    for (const Layer& l : t.layers) names.push_back(l.name);
    return names;
}

bool hasFlag(const Layer& l, const std::string& flag)
{
    return std::find(l.flags.begin(), l.flags.end(), flag) != l.flags.end();
}

std::vector<Finding> lintsOf(const LayerTable& t)
{
    std::vector<Finding> out;
    std::set<std::string> evaluated;
    runModelLints(t, {}, out, evaluated);
    return out;
}

const Finding* findingOf(const std::vector<Finding>& findings, const std::string& id)
{
    for (const Finding& f : findings)
        if (f.id == id) return &f;
    return nullptr;
}

// A constant of the model, decoded.
std::vector<double> constantOf(const LayerTable& t, const std::string& name)
{
    const int id = t.graph->tensorId(name);
    auto v = t.graph->constValue(id);
    EXPECT_TRUE(v.has_value()) << name;
    return v ? v->values : std::vector<double>{};
}

std::vector<double> asDoubles(const std::vector<float>& v)
{
    return {v.begin(), v.end()};
}

struct Simulated {
    std::shared_ptr<fixedpoint::Interpreter> interp;
    std::map<fixedpoint::SimMode, fixedpoint::RunResult> runs;
    std::vector<float> ort;  // ONNX Runtime: all optimizations, exact u8 x s8 products
};

Simulated simulate(const std::string& model)
{
    using fixedpoint::SimMode;
    Simulated s;
    auto m = readOnnxFile((kOther / (model + ".onnx")).string());
    EXPECT_TRUE(m.ok());
    if (!m.ok()) return s;
    auto i = fixedpoint::Interpreter::build(*m);
    EXPECT_TRUE(i.ok()) << (i.ok() ? "" : i.error().message);
    if (!i.ok()) return s;
    s.interp = *i;
    auto x = fixedpoint::readTensorFile((kOther / (model + ".input_0.npy")).string());
    auto ort = fixedpoint::readTensorFile((kOther / (model + ".ort_all.npy")).string());
    EXPECT_TRUE(x.ok() && ort.ok());
    if (!x.ok() || !ort.ok()) return s;
    s.ort = ort->toFloats();
    for (SimMode mode : {SimMode::Float, SimMode::Fake, SimMode::Int}) {
        auto r = s.interp->run(mode, {*x}, fixedpoint::RunOptions{}, nullptr);
        EXPECT_TRUE(r.ok()) << fixedpoint::simModeName(mode) << ": " << (r.ok() ? "" : r.error().message);
        if (r.ok()) s.runs[mode] = std::move(*r);
    }
    return s;
}

double maxAbsDiff(const std::vector<float>& a, const std::vector<float>& b)
{
    EXPECT_EQ(a.size(), b.size());
    double d = 0;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) d = std::max(d, std::fabs(double(a[i]) - b[i]));
    return d;
}

double cosine(const std::vector<float>& a, const std::vector<float>& b)
{
    double ab = 0, aa = 0, bb = 0;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        ab += double(a[i]) * b[i];
        aa += double(a[i]) * a[i];
        bb += double(b[i]) * b[i];
    }
    return ab / std::sqrt(aa * bb);
}

}  // namespace

TEST(DynamicQuantization, EachIntegerProductIsALayerNamedByItsWeight)
{
    // old exporter names (Gemm_0): the layer is named by its weight, encoder.weight_quantized
    const LayerTable t = tableOf("dyn_mlp");
    EXPECT_EQ(t.quantization, "dynamic");
    ASSERT_EQ(namesOf(t), (std::vector<std::string>{"encoder", "head"}));
    for (const Layer& l : t.layers) {
        EXPECT_EQ(l.op, "MatMulInteger");
        EXPECT_EQ(l.inputDtypes, std::vector<DType>{DType::UInt8}) << l.name;
        EXPECT_EQ(l.weightDtype, DType::Int8) << l.name;
        EXPECT_EQ(l.outputDtype, DType::Float32) << l.name;
        EXPECT_TRUE(hasFlag(l, "dynamic")) << l.name;
        ASSERT_TRUE(l.weightQuant) << l.name;
        EXPECT_EQ(asDoubles(l.weightQuant->scales), constantOf(t, l.name + ".weight_scale"));
        EXPECT_EQ(l.weightQuant->zeroPoints, std::vector<int64_t>{0});
        EXPECT_EQ(l.weightQuant->scaleSource, l.name + ".weight_scale");
    }
    // the bias Add after the rescale is the layer's (fused), never a layer of two activations
    EXPECT_TRUE(hasFlag(t.layers[1], "graph_output"));
}

TEST(DynamicQuantization, ConvIntegerUint8AndPerColumnScales)
{
    const LayerTable t = tableOf("dyn_cnn");
    ASSERT_EQ(namesOf(t), (std::vector<std::string>{"stem", "body", "classifier"}));
    const Layer& stem = t.layers[0];
    EXPECT_EQ(stem.op, "ConvInteger");
    EXPECT_EQ(stem.weightDtype, DType::UInt8);
    ASSERT_TRUE(stem.weightQuant);
    EXPECT_FALSE(stem.weightQuant->perChannel());
    const std::vector<double> zp = constantOf(t, "stem.weight_zero_point");
    ASSERT_EQ(zp.size(), 1u);
    EXPECT_EQ(stem.weightQuant->zeroPoints, std::vector<int64_t>{static_cast<int64_t>(zp[0])});
    EXPECT_TRUE(hasFlag(stem, "bias_float32"));  // Reshape(bias) + Add: the float bias
    const Layer& fc = t.layers[2];
    EXPECT_EQ(fc.op, "MatMulInteger");
    EXPECT_EQ(fc.weightDtype, DType::Int8);
    ASSERT_TRUE(fc.weightQuant);
    EXPECT_TRUE(fc.weightQuant->perChannel());
    EXPECT_EQ(fc.weightQuant->axis, 1);  // per column of B [K, N]
    EXPECT_EQ(asDoubles(fc.weightQuant->scales), constantOf(t, "classifier.weight_scale"));
    EXPECT_EQ(fc.weightQuant->scales.size(), 7u);
}

TEST(DynamicQuantization, SimulatorMatchesOnnxRuntimeAndRunsTheFloatModel)
{
    using fixedpoint::SimMode;
    for (const std::string model : {"dyn_mlp", "dyn_cnn"}) {
        SCOPED_TRACE(model);
        const Simulated s = simulate(model);
        ASSERT_EQ(s.runs.size(), 3u);
        const std::vector<float> fake = s.runs.at(SimMode::Fake).outputs.at(0).toFloats();
        const std::vector<float> integer = s.runs.at(SimMode::Int).outputs.at(0).toFloats();
        const std::vector<float> flt = s.runs.at(SimMode::Float).outputs.at(0).toFloats();
        // DynamicQuantizeLinear and the integer products are exact: ONNX Runtime's float32 to the bit
        EXPECT_EQ(maxAbsDiff(integer, s.ort), 0.0);
        EXPECT_EQ(maxAbsDiff(fake, s.ort), 0.0);
        // the float mode drops the activations' rounding: close to, and not equal to, the quantized
        EXPECT_GT(maxAbsDiff(flt, integer), 0.0);
        EXPECT_GT(cosine(flt, integer), 0.99);
        // the layers are the integer products, compared after their rescale (in real units)
        std::vector<std::string> names;
        for (const auto& l : s.interp->layers()) names.push_back(l.name);
        const std::vector<std::string> expected =
            model == "dyn_mlp" ? std::vector<std::string>{"encoder", "head"}
                               : std::vector<std::string>{"stem", "body", "classifier"};
        EXPECT_EQ(names, expected);
        for (size_t k = 0; k < s.interp->layers().size(); ++k)
            EXPECT_GT(cosine(s.runs.at(SimMode::Float).layerOutputs.at(k).toFloats(),
                             s.runs.at(SimMode::Int).layerOutputs.at(k).toFloats()),
                      0.99)
                << names[k];
    }
}

TEST(DynamicQuantization, QGemmBiasFollowsARunTimeInputScale)
{
    // C joins the accumulator as ONNX Runtime's kernel adds it: real value C * a_scale * b_scale
    using fixedpoint::SimMode;
    const Simulated s = simulate("qgemm_dynamic");
    ASSERT_EQ(s.runs.size(), 3u);
    const double peak = std::fabs(*std::max_element(
        s.ort.begin(), s.ort.end(), [](float a, float b) { return std::fabs(a) < std::fabs(b); }));
    for (SimMode mode : {SimMode::Fake, SimMode::Int})
        EXPECT_LE(maxAbsDiff(s.runs.at(mode).outputs.at(0).toFloats(), s.ort), 1e-6 * peak)
            << fixedpoint::simModeName(mode);
}

// QLinearAveragePool is defined as DequantizeLinear -> AveragePool in float -> QuantizeLinear
// (com.microsoft's ContribOperators.md), so a window averaging to an exact tie rounds half to even.
// ONNX Runtime's kernel does so; the reference outputs its own tests compute round half away from
// zero (std::round) and are accepted within 1. The simulator follows the definition: it equals ONNX
// Runtime everywhere and differs from the half-away reference exactly at the ties.
TEST(QLinearAveragePool, CountIncludePadRoundsTiesToEvenAsDefined)
{
    using fixedpoint::SimMode;
    for (const std::string model : {"avgpool_include_pad", "avgpool_ties"}) {
        SCOPED_TRACE(model);
        const Simulated s = simulate(model);
        ASSERT_EQ(s.runs.size(), 3u);
        EXPECT_EQ(maxAbsDiff(s.runs.at(SimMode::Fake).outputs.at(0).toFloats(), s.ort), 0.0);
        EXPECT_EQ(maxAbsDiff(s.runs.at(SimMode::Int).outputs.at(0).toFloats(), s.ort), 0.0);
    }
    // the ties model: scale 1, zero point 0, 2x2 windows, pads 1 counted in the divisor (4)
    auto x = fixedpoint::readTensorFile((kOther / "avgpool_ties.input_0.npy").string());
    ASSERT_TRUE(x.ok());
    const std::vector<float> in = x->toFloats();
    const Simulated s = simulate("avgpool_ties");
    const std::vector<float> out = s.runs.at(SimMode::Int).outputs.at(0).toFloats();
    const int64_t n = 6, m = 7;
    int ties = 0, awayDiffers = 0;
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < m; ++j) {
            double sum = 0;
            for (int64_t a = i - 1; a <= i; ++a)
                for (int64_t b = j - 1; b <= j; ++b)
                    if (a >= 0 && a < n && b >= 0 && b < n) sum += std::nearbyint(in[size_t(a * n + b)]);
            const double avg = sum / 4.0;
            const float got = out[size_t(i * m + j)];
            EXPECT_EQ(got, std::nearbyint(avg)) << i << "," << j;  // half to even (default rounding mode)
            if (avg - std::floor(avg) == 0.5) {
                ++ties;
                awayDiffers += std::round(avg) != got ? 1 : 0;
            }
        }
    EXPECT_GT(ties, 4);
    EXPECT_GT(awayDiffers, 0);
}

TEST(QonnxQuantizers, BrevitasBitWidthsAndGrids)
{
    const LayerTable t = tableOf("brevitas_cnn");
    EXPECT_EQ(t.quantization, "qonnx");
    ASSERT_EQ(namesOf(t), (std::vector<std::string>{"features.0", "features.2", "fc"}));
    const Layer& c1 = t.layers[0];
    ASSERT_TRUE(c1.weightQuant);
    EXPECT_EQ(c1.weightDtype, DType::Int4);
    EXPECT_EQ(quantBits(*c1.weightQuant), 4);
    EXPECT_EQ(c1.weightQuant->qmin, -7);  // narrow
    EXPECT_EQ(c1.weightQuant->qmax, 7);
    EXPECT_EQ(c1.weightQuant->axis, 0);
    EXPECT_EQ(asDoubles(c1.weightQuant->scales),
              constantOf(t, "/features/features.0/weight_quant/export_handler/Constant_output_0"));
    EXPECT_EQ(c1.inputDtypes, std::vector<DType>{DType::UInt8});  // the 8-bit unsigned input quantizer
    ASSERT_TRUE(c1.outputQuant);                                  // through the Relu
    EXPECT_EQ(c1.outputDtype, DType::UInt8);
    EXPECT_EQ(quantBits(*c1.outputQuant), 8);
    const Layer& c2 = t.layers[1];
    ASSERT_TRUE(c2.outputQuant);
    EXPECT_EQ(quantBits(*c2.outputQuant), 2);
    EXPECT_EQ(c2.outputDtype, DType::UInt4);
    EXPECT_EQ(dtypeCellText(c2.outputDtype, c2.outputQuant), "uint4 (2-bit)");
    EXPECT_EQ(dtypeCellText(c1.weightDtype, c1.weightQuant), "int4");  // narrow -7..7: still 4 bits
    const Layer& fc = t.layers[2];
    ASSERT_TRUE(fc.weightQuant && fc.outputQuant);
    EXPECT_EQ(fc.weightDtype, DType::Int8);
    EXPECT_EQ(quantBits(*fc.weightQuant), 8);
    EXPECT_EQ(quantBits(*fc.outputQuant), 1);  // BipolarQuant
    // a BipolarQuant's gain of 1 is no observer's default; Brevitas' shared constants no shared observer
    const auto findings = lintsOf(t);
    EXPECT_EQ(findingOf(findings, "model.unknown_quantizer"), nullptr);
    EXPECT_EQ(findingOf(findings, "model.uncalibrated_scale"), nullptr);
    EXPECT_EQ(findingOf(findings, "model.shared_quant_params"), nullptr);
    EXPECT_FALSE(hasFlag(fc, "default_scale"));
}

TEST(QonnxQuantizers, FloatQuantAndQKerasInt64Parameters)
{
    const LayerTable fp8 = tableOf("qonnx_fp8");
    EXPECT_EQ(fp8.quantization, "qonnx");
    ASSERT_EQ(fp8.layers.size(), 1u);
    EXPECT_EQ(fp8.layers[0].weightDtype, DType::Float8E4M3FN);
    EXPECT_EQ(fp8.layers[0].inputDtypes, std::vector<DType>{DType::Float8E4M3FN});
    ASSERT_TRUE(fp8.layers[0].weightQuant);
    EXPECT_EQ(quantBits(*fp8.layers[0].weightQuant), 8);

    // finn.custom_op.general, no opset_import, zero point and bit width as int64
    const LayerTable qk = tableOf("qkeras_mlp");
    ASSERT_EQ(qk.layers.size(), 1u);
    const Layer& mm = qk.layers[0];
    EXPECT_EQ(mm.inputDtypes, std::vector<DType>{DType::Int8});
    ASSERT_TRUE(mm.weightQuant && mm.outputQuant);
    EXPECT_EQ(quantBits(*mm.weightQuant), 6);
    EXPECT_EQ(mm.weightQuant->qmin, -32);
    EXPECT_EQ(mm.weightQuant->qmax, 31);
    EXPECT_EQ(quantBits(*mm.outputQuant), 6);
    EXPECT_EQ(mm.outputDtype, DType::UInt8);
}

TEST(OtherQuantizers, UnknownQuantizerOpsAreCountedNeverAFloatModel)
{
    const LayerTable t = tableOf("unknown_quantizer");
    EXPECT_EQ(t.quantization, "unknown");
    const auto findings = lintsOf(t);
    const Finding* f = findingOf(findings, "model.unknown_quantizer");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Warning);
    ASSERT_EQ(f->evidence.size(), 1u);
    EXPECT_EQ(f->evidence[0].layer, "com.acme.npu::FakeQuantize8");
    EXPECT_EQ(f->evidence[0].detail, "3 nodes");
    EXPECT_NE(f->message.en.find("com.acme.npu::FakeQuantize8 (3 nodes)"), std::string::npos);
    // a custom op that is no quantizer: a float model, no warning
    const LayerTable swish = tableOf("custom_swish");
    EXPECT_EQ(swish.quantization, kNotQuantized);
    EXPECT_EQ(findingOf(lintsOf(swish), "model.unknown_quantizer"), nullptr);
}

TEST(OtherQuantizers, AGraphWithoutInputOrComputeSaysSo)
{
    const auto noInput = lintsOf(tableOf("no_input"));
    EXPECT_NE(findingOf(noInput, "model.no_input"), nullptr);
    EXPECT_NE(findingOf(noInput, "model.no_compute"), nullptr);  // Constant and Identity only
    const auto noCompute = lintsOf(tableOf("no_compute"));
    EXPECT_EQ(findingOf(noCompute, "model.no_input"), nullptr);
    EXPECT_NE(findingOf(noCompute, "model.no_compute"), nullptr);
    const auto normal = lintsOf(tableOf("custom_swish"));
    EXPECT_EQ(findingOf(normal, "model.no_input"), nullptr);
    EXPECT_EQ(findingOf(normal, "model.no_compute"), nullptr);
}

TEST(OtherQuantizers, BrokenActivationScalesAreNamed)
{
    const auto findings = lintsOf(tableOf("broken_act_scale"));
    const Finding* f = findingOf(findings, "model.broken_scale");
    ASSERT_NE(f, nullptr);
    std::map<std::string, std::string> byLayer;
    for (const Evidence& e : f->evidence) byLayer[e.layer] = e.detail;
    ASSERT_EQ(byLayer.size(), 3u);
    EXPECT_NE(byLayer["input"].find("zero"), std::string::npos);
    EXPECT_NE(byLayer["conv1"].find("NaN"), std::string::npos);
    EXPECT_NE(byLayer["conv2"].find("negative"), std::string::npos);
}
