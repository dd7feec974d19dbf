// The simulator on small hostile models, each a single node whose attributes or shapes are out of
// range the way a 200-byte crafted ONNX file makes them: every one must end in an error naming the
// node (or in a correct result), never in memory corruption, a division by zero, an abort or a
// multi-gigabyte allocation. Each case ran into one of those before its fix; under the sanitizer
// build (scripts/test.sh) an out-of-bounds read fails here too.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/sim_inputs.h"
#include "core/fixedpoint/simulation.h"
#include "core/model/onnx_file.h"
#include "tests/hardening/hostile_model.h"

namespace qatdoctor::test {
namespace {

using core::fixedpoint::Interpreter;
using core::fixedpoint::SimulationOptions;

// Builds, prepares seeded inputs and simulates every mode: the first error, or "" when all ran.
std::string simulateModel(const HostileModel& m)
{
    const std::string bytes = m.serialize();
    auto model = core::model::parseOnnx(bytes, "hostile.onnx", "");
    if (!model) return model.error().toString();
    auto interp = Interpreter::build(*model);
    if (!interp) return interp.error().toString();
    core::fixedpoint::InputSpec spec;
    spec.seed = 7;
    auto inputs = core::fixedpoint::prepareInputs(**interp, spec);
    if (!inputs) return inputs.error().toString();
    SimulationOptions options;
    options.weights = false;
    auto r = core::fixedpoint::simulate(**interp, *inputs, options);
    return r ? std::string() : r.error().toString();
}

// The model must be refused, and the message must say which node and why.
void expectRefused(const HostileModel& m, const std::string& why)
{
    const std::string error = simulateModel(m);
    ASSERT_FALSE(error.empty()) << m.node().op_type() << " ran although it is malformed";
    EXPECT_NE(error.find("hostile.onnx"), std::string::npos) << error;
    EXPECT_NE(error.find(m.node().op_type()), std::string::npos) << error;
    EXPECT_NE(error.find(why), std::string::npos) << error;
}

TEST(SimulatorHostile, AxesOutOfRangeAreRefused)
{
    expectRefused(HostileModel("Concat").input("a", {2, 3}).input("b", {2, 3}).ints("axis", {5}), "axis");
    expectRefused(HostileModel("Concat").input("a", {2, 3}).input("b", {2, 3}).ints("axis", {-9}), "axis");
    expectRefused(HostileModel("Flatten").input("x", {2, 3}).ints("axis", {9}), "axis");
    expectRefused(HostileModel("Softmax").input("x", {2, 3}).ints("axis", {4}), "axis");
    expectRefused(HostileModel("Gather").input("x", {2, 3}).initInts("i", {1}, {0}).ints("axis", {6}),
                  "axis");
    expectRefused(HostileModel("Split").input("x", {2, 4}).ints("axis", {3}).outputs(2), "axis");
    expectRefused(HostileModel("Slice")
                      .input("x", {2, 3})
                      .initInts("s", {1}, {0})
                      .initInts("e", {1}, {1})
                      .initInts("ax", {1}, {7}),
                  "axis");
    expectRefused(HostileModel("Unsqueeze").input("x", {2, 3}).initInts("ax", {1}, {9}), "axis");
    expectRefused(HostileModel("Transpose").input("x", {2, 3}).ints("perm", {0, 5}), "perm");
    expectRefused(HostileModel("ReduceMean").input("x", {2, 3}).ints("axes", {4}), "axes 4 is outside");
}

TEST(SimulatorHostile, IndicesOutOfRangeAreRefused)
{
    expectRefused(HostileModel("Gather").input("x", {2, 3}).initInts("i", {1}, {100}), "index");
    expectRefused(HostileModel("Gather").input("x", {2, 3}).initInts("i", {1}, {-3}), "index");
}

TEST(SimulatorHostile, ShortOrZeroWindowAttributesAreRefused)
{
    const auto conv = [] {
        return HostileModel("Conv").input("x", {1, 1, 4, 4}).initFloats("w", {1, 1, 3, 3}, 0.5f);
    };
    expectRefused(conv().ints("pads", {1}), "pads");
    expectRefused(conv().ints("strides", {0, 0}), "strides");
    expectRefused(conv().ints("dilations", {0, 1}), "dilations");
    expectRefused(conv().ints("kernel_shape", {3}), "kernel_shape");
    expectRefused(
        HostileModel("MaxPool").input("x", {1, 1, 4, 4}).ints("kernel_shape", {2, 2}).ints("strides", {0, 0}),
        "strides");
    expectRefused(HostileModel("AveragePool")
                      .input("x", {1, 1, 4, 4})
                      .ints("kernel_shape", {2, 2})
                      .ints("strides", {0, 1}),
                  "strides");
    expectRefused(HostileModel("MaxPool").input("x", {1, 1, 4, 4}).ints("kernel_shape", {2}), "kernel_shape");
    // a weight whose channels do not match the input
    expectRefused(HostileModel("Conv").input("x", {1, 2, 4, 4}).initFloats("w", {1, 3, 3, 3}, 0.5f),
                  "channels");
}

TEST(SimulatorHostile, NegativeOrHugeShapesAreRefusedNotAllocated)
{
    expectRefused(HostileModel("Expand").input("x", {1, 3}).initInts("s", {2}, {-5, 3}), "negative");
    expectRefused(HostileModel("Tile").input("x", {2, 3}).initInts("r", {2}, {-2, 1}), "negative");
    expectRefused(HostileModel("Reshape").input("x", {2, 3}).initInts("s", {2}, {4, 4}), "Reshape");
    // 1e5 x 1e5 floats = 40 GB: past the budget before anything is allocated
    expectRefused(HostileModel("MatMul").input("a", {100000, 1}).input("b", {1, 100000}), "budget");
    // an input declared 1e6 x 1e6 x 1e6: refused when the inputs are prepared
    const std::string declared = simulateModel(HostileModel("Relu").input("x", {1000000, 1000000, 1000000}));
    EXPECT_NE(declared.find("hostile.onnx: the inputs cannot be prepared"), std::string::npos) << declared;
    EXPECT_NE(declared.find("budget"), std::string::npos) << declared;
    expectRefused(HostileModel("Resize")
                      .input("x", {1, 1, 2, 2})
                      .initFloats("roi", {0}, 0)
                      .initFloats("sc", {4}, 100000.0f),
                  "budget");
}

TEST(SimulatorHostile, MismatchedOperandsAreRefused)
{
    expectRefused(HostileModel("MatMul").input("a", {2, 3}).input("b", {4, 5}), "MatMul");
    expectRefused(HostileModel("Gemm").input("a", {2, 3}).input("b", {4, 5}), "Gemm");
    expectRefused(HostileModel("Add").input("a", {2, 3}).input("b", {4, 3}), "Add");
    expectRefused(HostileModel("Where").input("c", {2, 3}).input("a", {5}).input("b", {2, 3}), "Where");
    expectRefused(HostileModel("ConvTranspose")
                      .input("x", {1, 1, 4, 4})
                      .initFloats("w", {1, 1, 3, 3}, 0.5f)
                      .ints("pads", {1}),
                  "attribute sizes");
    expectRefused(HostileModel("ConvTranspose")
                      .input("x", {1, 1, 4, 4})
                      .initFloats("w", {1, 1, 3, 3}, 0.5f)
                      .ints("strides", {0, 0}),
                  "strides");
    expectRefused(HostileModel("BatchNormalization")
                      .input("x", {1, 3, 2, 2})
                      .initFloats("s", {1}, 1)
                      .initFloats("b", {3}, 0)
                      .initFloats("m", {3}, 0)
                      .initFloats("v", {3}, 1),
                  "channels");
}

TEST(SimulatorHostile, CountsThatNeverEndOrExplodeAreRefused)
{
    // Range with delta 0 never reaches its limit; a huge one is past the budget
    expectRefused(HostileModel("Range").initInts("s", {}, {0}).initInts("l", {}, {10}).initInts("d", {}, {0}),
                  "Range");
    expectRefused(HostileModel("Range")
                      .initInts("s", {}, {0})
                      .initInts("l", {}, {int64_t(1) << 62})
                      .initInts("d", {}, {1}),
                  "budget");
    expectRefused(HostileModel("ConstantOfShape").initInts("s", {2}, {-1, 4}), "negative");
    expectRefused(HostileModel("ConstantOfShape").initInts("s", {3}, {1 << 20, 1 << 20, 1 << 20}), "budget");
    expectRefused(HostileModel("Resize")
                      .input("x", {1, 1, 2, 2})
                      .skipInput()
                      .skipInput()
                      .initInts("sz", {4}, {1, 1, -4, 4}),
                  "negative");
}

TEST(SimulatorHostile, InterpolationThatReadsTooMuchPerOutputIsRefused)
{
    // cubic over all four axes: 256 reads per output value (a fuzzed model ran for minutes)
    expectRefused(HostileModel("Resize", 13)
                      .input("x", {2, 2, 2, 2})
                      .initFloats("roi", {0}, 0)
                      .initFloats("sc", {4}, 2.0f)
                      .string("mode", "cubic"),
                  "reading 256 input values per output value");
    // over the last two axes, as exported models do, it runs
    EXPECT_EQ(simulateModel(HostileModel("Resize", 13)
                                .input("x", {1, 1, 2, 2})
                                .initFloats("roi", {0}, 0)
                                .initFloatValues("sc", {4}, {1, 1, 2, 2})
                                .string("mode", "cubic")),
              "");
    // linear visits 2^rank corners: a rank-9 tensor is refused
    expectRefused(HostileModel("Resize", 13)
                      .input("x", {1, 1, 1, 1, 1, 1, 1, 1, 2})
                      .initFloats("roi", {0}, 0)
                      .initFloats("sc", {9}, 1.0f)
                      .string("mode", "linear"),
                  "rank-9");
}

TEST(SimulatorHostile, TheBudgetIsTheOneGiven)
{
    // 1000 x 1000 floats is 4 MB: fine by default, refused under a 1 MiB budget
    const HostileModel m = HostileModel("Relu").input("x", {1000, 1000});
    EXPECT_EQ(simulateModel(m), "");
    const std::string bytes = m.serialize();
    auto model = core::model::parseOnnx(bytes, "hostile.onnx", "");
    ASSERT_TRUE(model);
    auto interp = Interpreter::build(*model);
    ASSERT_TRUE(interp);
    core::fixedpoint::RunOptions run;
    run.maxTensorBytes = 1 << 20;
    std::vector<core::fixedpoint::Tensor> inputs{
        core::fixedpoint::Tensor::fromFloats({1000, 1000}, std::vector<float>(1000000, 1.0f))};
    auto r = (*interp)->run(core::fixedpoint::SimMode::Fake, inputs, run, nullptr);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("budget of 1.0 MiB"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("Relu"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace qatdoctor::test
