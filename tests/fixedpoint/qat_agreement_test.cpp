// The interpreter against real PyTorch QAT runs (tests/gen/make_models.py) and ONNX Runtime
// (tests/gen/ort_reference.js): fake mode bit-exact in float32, int mode within 1 LSB of
// PyTorch's converted int8 model.
#include <gtest/gtest.h>

#include <cmath>

#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/model/onnx_file.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::fixedpoint;

namespace {

std::string data(const std::string& f)
{
    return std::string(QATDOCTOR_TEST_DATA) + "/models/" + f;
}

struct Runs {
    std::shared_ptr<Interpreter> interp;
    Tensor input;
};

Runs load(const std::string& name)
{
    auto m = model::readOnnxFile(data(name + ".onnx"));
    EXPECT_TRUE(m.ok());
    auto i = Interpreter::build(*m);
    EXPECT_TRUE(i.ok()) << (i.ok() ? "" : i.error().message);
    auto x = readTensorFile(data(name + ".input_0.npy"));
    EXPECT_TRUE(x.ok());
    return {*i, *x};
}

double maxAbsDiff(const Tensor& a, const Tensor& b)
{
    double m = 0;
    for (int64_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a.at(i) - b.at(i)));
    return m;
}

}  // namespace

class QatAgreement : public ::testing::TestWithParam<std::string> {};

TEST_P(QatAgreement, FakeModeIsBitExactWithTorchFakeQuant)
{
    Runs r = load(GetParam());
    auto out = r.interp->run(SimMode::Fake, {r.input}, RunOptions{}, nullptr);
    ASSERT_TRUE(out.ok()) << out.error().message;
    auto torchFake = readTensorFile(data(GetParam() + ".torch_fake.npy"));
    ASSERT_TRUE(torchFake.ok());
    ASSERT_EQ(out->outputs[0].shape(), torchFake->shape());
    EXPECT_EQ(out->outputs[0].toFloats(), torchFake->toFloats());
}

TEST_P(QatAgreement, FakeModeIsBitExactWithOnnxRuntime)
{
    Runs r = load(GetParam());
    auto out = r.interp->run(SimMode::Fake, {r.input}, RunOptions{}, nullptr);
    ASSERT_TRUE(out.ok()) << out.error().message;
    for (const char* opt : {"disabled", "basic"}) {
        auto ort = readTensorFile(data(GetParam() + ".ort_" + opt + ".npy"));
        ASSERT_TRUE(ort.ok()) << opt;
        EXPECT_EQ(out->outputs[0].toFloats(), ort->toFloats()) << opt;
    }
}

TEST_P(QatAgreement, FloatModeMatchesTorchWithFakeQuantDisabled)
{
    Runs r = load(GetParam());
    auto out = r.interp->run(SimMode::Float, {r.input}, RunOptions{}, nullptr);
    ASSERT_TRUE(out.ok()) << out.error().message;
    auto ref = readTensorFile(data(GetParam() + ".float.npy"));
    ASSERT_TRUE(ref.ok());
    EXPECT_LT(maxAbsDiff(out->outputs[0], *ref), 1e-4);
}

TEST_P(QatAgreement, IntModeWithinOneLsbOfTorchInt8)
{
    Runs r = load(GetParam());
    auto ref = readTensorFile(data(GetParam() + ".torch_int8.npy"));
    ASSERT_TRUE(ref.ok());
    const float lsb = r.interp->layers().back().outputScale;
    ASSERT_GT(lsb, 0.0f);
    for (RequantMode mode : {RequantMode::Float, RequantMode::Fixed}) {
        RunOptions o;
        o.requant = mode;
        auto out = r.interp->run(SimMode::Int, {r.input}, o, nullptr);
        ASSERT_TRUE(out.ok()) << out.error().message;
        EXPECT_TRUE(out->fallbacks.empty()) << out->fallbacks.front();
        const double d = maxAbsDiff(out->outputs[0], *ref);
        std::cout << GetParam() << " int(" << requantModeName(mode) << ") vs torch int8: max " << d / lsb
                  << " LSB\n";
        EXPECT_LE(d, lsb * 1.0001) << requantModeName(mode);
    }
}

INSTANTIATE_TEST_SUITE_P(Models, QatAgreement, ::testing::Values("qat_qdq", "qat_qdq_bn"));
