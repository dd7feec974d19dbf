// The fixed-point simulator's kernels: a one-node model made from the bytes (any op the simulator
// runs, 1-4 inputs of small random shapes as graph inputs or int64/float initializers, random
// attributes from the names the kernels read, an opset, optionally a quantized first input),
// then the interpreter built and every mode run on seeded inputs under a 64 MiB tensor budget.
// Errors are fine; a crash, a sanitizer report, a hang or an allocation past the budget is not.
// Shared by the fuzz target (fuzz_simulator.cpp) and the replay of its findings
// (tests/hardening/fuzz_regression_test.cpp), so both make the same calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/op_registry.h"
#include "core/fixedpoint/sim_inputs.h"
#include "core/fixedpoint/simulation.h"
#include "core/model/onnx_file.h"
#include "tests/hardening/hostile_model.h"

namespace qatdoctor::test::detail {

// Reads the fuzz bytes front to back; past the end every read is 0.
class ByteReader {
public:
    ByteReader(const uint8_t* data, size_t size) : m_data(data), m_size(size) {}
    uint8_t byte() { return m_pos < m_size ? m_data[m_pos++] : 0; }
    // A small signed value, mostly in [-2, 8], sometimes far out of range.
    int64_t smallInt()
    {
        const uint8_t b = byte();
        if (b == 0xff) return int64_t(1) << 40;
        if (b == 0xfe) return -(int64_t(1) << 40);
        return static_cast<int64_t>(b % 11) - 2;
    }
    std::vector<int64_t> shape()
    {
        std::vector<int64_t> s(byte() % 5);
        for (int64_t& d : s) d = 1 + byte() % 5;
        return s;
    }

private:
    const uint8_t* m_data;
    size_t m_size;
    size_t m_pos = 0;
};

struct IntAttribute {
    const char* name;
    int maxValues;  // 1 = a single int
};

// The integer attributes the kernels read, and the string choices they branch on.
constexpr IntAttribute kIntAttributes[] = {
    {"axis", 1},
    {"axes", 3},
    {"perm", 4},
    {"pads", 6},
    {"strides", 3},
    {"kernel_shape", 3},
    {"dilations", 3},
    {"group", 1},
    {"keepdims", 1},
    {"split", 3},
    {"allowzero", 1},
    {"num_outputs", 1},
    {"transA", 1},
    {"transB", 1},
    {"ceil_mode", 1},
    {"count_include_pad", 1},
    {"to", 1},
    {"noop_with_empty_axes", 1},
    {"output_padding", 3},
    {"blocksize", 1},
};
constexpr const char* kStringAttributes[][2] = {
    {"mode", "constant"},       {"mode", "reflect"},   {"mode", "edge"},
    {"mode", "nearest"},        {"mode", "linear"},    {"mode", "cubic"},
    {"auto_pad", "SAME_UPPER"}, {"auto_pad", "VALID"}, {"coordinate_transformation_mode", "asymmetric"},
    {"nearest_mode", "floor"},
};
constexpr int64_t kOpsets[] = {11, 13, 17};

}  // namespace qatdoctor::test::detail

namespace qatdoctor::test {

// true when the model was refused somewhere along the way (an error), false when every mode ran.
inline bool runSimulatorHarness(const uint8_t* data, size_t size)
{
    namespace fp = qatdoctor::core::fixedpoint;
    using namespace detail;
    ByteReader in(data, size);
    const auto& ops = fp::specOps();
    const std::string op = ops[in.byte() % ops.size()].op;
    HostileModel m(op, kOpsets[in.byte() % 3]);
    const int inputs = 1 + in.byte() % 4;
    for (int i = 0; i < inputs; ++i) {
        const std::string name = "in" + std::to_string(i);
        const uint8_t kind = in.byte() % 4;
        std::vector<int64_t> shape = in.shape();
        if (kind == 0 || i == 0) {
            m.input(name, shape);
        } else if (kind == 1) {
            // shape-like int64 values: axes, sizes, repeats, indices
            if (shape.size() > 1) shape = {shape[0]};
            int64_t n = 1;
            for (int64_t d : shape) n *= d;
            std::vector<int64_t> values(static_cast<size_t>(n));
            for (int64_t& v : values) v = in.smallInt();
            m.initInts(name, shape, values);
        } else if (kind == 2) {
            m.initFloats(name, shape, static_cast<float>(in.smallInt()) * 0.5f);
        } else {
            m.skipInput();
        }
    }
    const int attributes = in.byte() % 5;
    for (int a = 0; a < attributes; ++a) {
        const uint8_t which = in.byte();
        if (which % 4 == 3) {
            const auto& s = kStringAttributes[which / 4 % std::size(kStringAttributes)];
            m.string(s[0], s[1]);
            continue;
        }
        const IntAttribute& attr = kIntAttributes[which % std::size(kIntAttributes)];
        std::vector<int64_t> values(attr.maxValues == 1 ? 1 : 1 + in.byte() % attr.maxValues);
        for (int64_t& v : values) v = in.smallInt();
        m.ints(attr.name, values);
    }
    if (in.byte() & 1) m.quantizeFirstInput(0.05f);
    m.outputs(1 + in.byte() % 2);

    const std::string bytes = m.serialize();
    auto model = qatdoctor::core::model::parseOnnx(bytes, "fuzz.onnx", "");
    if (!model) return true;
    auto interp = fp::Interpreter::build(*model);
    if (!interp) return true;
    fp::InputSpec spec;
    spec.seed = in.byte();
    auto prepared = fp::prepareInputs(**interp, spec);
    if (!prepared) return true;
    fp::SimulationOptions options;
    options.weights = false;
    options.compareRequant = true;
    options.maxTensorBytes = 64ull << 20;
    return !fp::simulate(**interp, *prepared, options);
}

}  // namespace qatdoctor::test
