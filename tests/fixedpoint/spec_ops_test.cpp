// Specification ops checked against each other and against known values: batched QLinearMatMul
// against MatMul on the same integers, Gelu's two forms, ConvTranspose against a direct
// scatter, the integer ConvTranspose kernel against the float op.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>

#include "core/fixedpoint/conv_transpose_int.h"
#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/lut.h"
#include "core/fixedpoint/op_registry.h"
#include "core/fixedpoint/quantize.h"
#include "core/fixedpoint/tensor.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::fixedpoint;

namespace {

onnx::NodeProto makeNode(const std::string& op)
{
    onnx::NodeProto n;
    n.set_op_type(op);
    n.set_name(op + "_under_test");
    return n;
}

void setInts(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v)
{
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
}

void setString(onnx::NodeProto& n, const std::string& name, const std::string& v)
{
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
}

std::vector<Tensor> run(const onnx::NodeProto& n, const std::vector<Tensor>& inputs, int64_t opset = 13)
{
    const OpFn* f = findSpecOp(n.op_type());
    EXPECT_NE(f, nullptr) << n.op_type();
    if (!f) return {};
    OpCall c{n, inputs, opset, nullptr, {}};
    auto r = (*f)(c);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : std::vector<Tensor>{};
}

// Integer codes lo + (i * step) % span, as dtype.
Tensor codes(DType dtype, std::vector<int64_t> shape, int64_t lo, int64_t span, int64_t step = 7)
{
    std::vector<int64_t> v(static_cast<size_t>(shapeSize(shape)));
    for (size_t i = 0; i < v.size(); ++i) v[i] = lo + (static_cast<int64_t>(i) * step + 3) % span;
    return Tensor::fromInts(dtype, std::move(shape), v);
}

Tensor minus(const Tensor& t, int64_t zp)
{
    std::vector<float> v = t.toFloats();
    for (float& x : v) x -= static_cast<float>(zp);
    return Tensor::fromFloats(t.shape(), v);
}

}  // namespace

// Batch dimensions broadcast as MatMul's do: each batch must use its own slice of A and of B
// (the conformance case test_qlinearmatmul_3D repeats one batch and cannot see a mix-up).
TEST(SpecOps, QLinearMatMulBroadcastsBatchesLikeMatMul)
{
    const Tensor a = codes(DType::UInt8, {2, 1, 2, 3}, 3, 4), b = codes(DType::UInt8, {3, 3, 2}, 5, 4, 5);
    const Tensor one = Tensor::scalar(1.0f);
    const Tensor az = Tensor::fromInts(DType::UInt8, {}, {3}), bz = Tensor::fromInts(DType::UInt8, {}, {5});
    const Tensor yz = Tensor::fromInts(DType::UInt8, {}, {0});
    // scales 1 and codes in [0, 3] after the zero points: every sum is exact and below 256
    const auto q = run(makeNode("QLinearMatMul"), {a, one, az, b, one, bz, one, yz});
    const auto f = run(makeNode("MatMul"), {minus(a, 3), minus(b, 5)});
    ASSERT_EQ(q.size(), 1u);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(q[0].shape(), (std::vector<int64_t>{2, 3, 2, 2}));
    EXPECT_EQ(q[0].dtype(), DType::UInt8);
    EXPECT_EQ(q[0].toFloats(), f[0].toFloats());
    // a 1-D B drops its dimension: [2, 3] x [3] -> [2]
    const Tensor bv = codes(DType::UInt8, {3}, 5, 4);
    const auto qv =
        run(makeNode("QLinearMatMul"), {codes(DType::UInt8, {2, 3}, 3, 4), one, az, bv, one, bz, one, yz});
    const auto fv = run(makeNode("MatMul"), {minus(codes(DType::UInt8, {2, 3}, 3, 4), 3), minus(bv, 5)});
    ASSERT_EQ(qv.size(), 1u);
    EXPECT_EQ(qv[0].shape(), (std::vector<int64_t>{2}));
    EXPECT_EQ(qv[0].toFloats(), fv[0].toFloats());
    // MatMulInteger shares the batching: int32 sums, the same values
    const auto mi = run(makeNode("MatMulInteger"), {a, b, az, bz});
    ASSERT_EQ(mi.size(), 1u);
    EXPECT_EQ(mi[0].dtype(), DType::Int32);
    EXPECT_EQ(mi[0].toFloats(), f[0].toFloats());
}

// Gelu's two forms (opset 20) at known values (erf: 0.5 x (1 + erf(x / sqrt 2)); tanh:
// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))), and the integer mode's table function
// picks the same form from the node.
TEST(SpecOps, GeluExactAndTanhForms)
{
    const Tensor x = Tensor::fromFloats({5}, {1.0f, -1.0f, 0.5f, 3.0f, -2.0f});
    const std::vector<float> erfWant = {0.8413447f, -0.1586553f, 0.3457312f, 2.9959503f, -0.0455003f};
    const std::vector<float> tanhWant = {0.8411920f, -0.1588080f, 0.3457140f, 2.9963626f, -0.0454023f};
    onnx::NodeProto exact = makeNode("Gelu"), approx = makeNode("Gelu"), explicitNone = makeNode("Gelu");
    setString(approx, "approximate", "tanh");
    setString(explicitNone, "approximate", "none");
    const auto ye = run(exact, {x}, 20), yt = run(approx, {x}, 20), yn = run(explicitNone, {x}, 20);
    ASSERT_EQ(ye.size(), 1u);
    ASSERT_EQ(yt.size(), 1u);
    ASSERT_EQ(yn.size(), 1u);
    for (size_t i = 0; i < erfWant.size(); ++i) {
        EXPECT_NEAR(ye[0].toFloats()[i], erfWant[i], 5e-7) << i;
        EXPECT_NEAR(yt[0].toFloats()[i], tanhWant[i], 5e-7) << i;
        EXPECT_EQ(yn[0].toFloats()[i], ye[0].toFloats()[i]) << i;
    }
    // the table function of each node gives the op's values (same float32 rounding)
    const UnaryFn fe = nonlinearFunction(exact), ft = nonlinearFunction(approx);
    ASSERT_TRUE(fe && ft);
    for (size_t i = 0; i < erfWant.size(); ++i) {
        const double v = x.toFloats()[i];
        EXPECT_EQ(static_cast<float>(fe(v)), ye[0].toFloats()[i]) << i;
        EXPECT_EQ(static_cast<float>(ft(v)), yt[0].toFloats()[i]) << i;
    }
    onnx::NodeProto bad = makeNode("Gelu");
    setString(bad, "approximate", "sigmoid");
    EXPECT_FALSE(nonlinearFunction(bad));
}

namespace {

// ConvTranspose straight from the specification's definition: every input pixel scatters
// x * w into y at i * stride + k * dilation - pad_begin (2-D, integer-valued floats: exact).
std::vector<float> scatterConvTranspose(const Tensor& x, const Tensor& w, int64_t group,
                                        std::vector<int64_t> s, std::vector<int64_t> d,
                                        std::vector<int64_t> padBegin, std::vector<int64_t> out)
{
    const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3);
    const int64_t mg = w.dim(1), M = mg * group, KH = w.dim(2), KW = w.dim(3), cg = C / group;
    std::vector<float> y(static_cast<size_t>(N * M * out[0] * out[1]), 0.0f);
    const auto xv = x.toFloats(), wv = w.toFloats();
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t m = 0; m < mg; ++m)
                for (int64_t i = 0; i < H; ++i)
                    for (int64_t j = 0; j < W; ++j)
                        for (int64_t ki = 0; ki < KH; ++ki)
                            for (int64_t kj = 0; kj < KW; ++kj) {
                                const int64_t oi = i * s[0] + ki * d[0] - padBegin[0],
                                              oj = j * s[1] + kj * d[1] - padBegin[1];
                                if (oi < 0 || oi >= out[0] || oj < 0 || oj >= out[1]) continue;
                                const int64_t om = (c / cg) * mg + m;
                                y[static_cast<size_t>(((n * M + om) * out[0] + oi) * out[1] + oj)] +=
                                    xv[static_cast<size_t>(((n * C + c) * H + i) * W + j)] *
                                    wv[static_cast<size_t>(((c * mg + m) * KH + ki) * KW + kj)];
                            }
    return y;
}

Tensor smallInts(std::vector<int64_t> shape, int64_t step)
{
    std::vector<float> v(static_cast<size_t>(shapeSize(shape)));
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<float>((static_cast<int64_t>(i) * step + 5) % 9 - 4);
    return Tensor::fromFloats(std::move(shape), v);
}

}  // namespace

// Groups, strides, dilations, asymmetric pads, output_padding and SAME_LOWER together (the
// conformance cases have one group and one feature at a time), against the direct scatter.
TEST(SpecOps, ConvTransposeMatchesTheSpecificationsScatter)
{
    const Tensor x = smallInts({2, 4, 3, 4}, 7), w = smallInts({4, 3, 3, 2}, 5);  // group 2: M = 6
    onnx::NodeProto n = makeNode("ConvTranspose");
    auto* g = n.add_attribute();
    g->set_name("group");
    g->set_type(onnx::AttributeProto::INT);
    g->set_i(2);
    setInts(n, "strides", {2, 3});
    setInts(n, "dilations", {2, 1});
    setInts(n, "pads", {1, 0, 2, 1});
    setInts(n, "output_padding", {1, 2});
    const auto y = run(n, {x, w});
    ASSERT_EQ(y.size(), 1u);
    // H: 2 * 2 + 1 + 2 * 2 + 1 - 1 - 2 = 7; W: 3 * 3 + 2 + 1 + 1 - 0 - 1 = 12
    EXPECT_EQ(y[0].shape(), (std::vector<int64_t>{2, 6, 7, 12}));
    EXPECT_EQ(y[0].toFloats(), scatterConvTranspose(x, w, 2, {2, 3}, {2, 1}, {1, 0}, {7, 12}));
    // SAME_LOWER: output = input * stride, the odd padding unit at the beginning
    onnx::NodeProto same = makeNode("ConvTranspose");
    setString(same, "auto_pad", "SAME_LOWER");
    setInts(same, "strides", {2, 2});
    const Tensor w1 = smallInts({4, 2, 3, 3}, 4);
    const auto ys = run(same, {x, w1});
    ASSERT_EQ(ys.size(), 1u);
    EXPECT_EQ(ys[0].shape(), (std::vector<int64_t>{2, 2, 6, 8}));
    // full extents 2 * 2 + 3 = 7 and 2 * 3 + 3 = 9: one unit of padding, at the beginning
    EXPECT_EQ(ys[0].toFloats(), scatterConvTranspose(x, w1, 1, {2, 2}, {1, 1}, {1, 1}, {6, 8}));
}

// The integer ConvTranspose kernel against the float op on the same integers (code minus zero
// point, exact in float32 at these magnitudes): 8-bit codes with per-channel weight zero points
// (int32 sums), 16-bit codes (int64 sums), and an int16 sum beyond int32 counted as overflow.
TEST(SpecOps, IntegerConvTransposeEqualsTheFloatOpOnIntegers)
{
    onnx::NodeProto n = makeNode("ConvTranspose");
    auto* g = n.add_attribute();
    g->set_name("group");
    g->set_type(onnx::AttributeProto::INT);
    g->set_i(2);
    setInts(n, "strides", {2, 1});
    setInts(n, "pads", {0, 1, 1, 0});
    setInts(n, "output_padding", {1, 0});
    const Tensor x = codes(DType::UInt8, {2, 4, 3, 5}, 60, 140, 11);  // codes 60..199, zero point 128
    const Tensor w = codes(DType::Int8, {4, 3, 2, 3}, -90, 180, 13);  // per-channel (axis 1) zero points
    const std::vector<int64_t> wz = {3, -5, 0};
    auto geom = convTransposeGeometry(n, x.shape(), w.shape());
    ASSERT_TRUE(geom.ok());
    auto acc = convTransposeInteger(*geom, x, 128, w, wz, nullptr);
    ASSERT_TRUE(acc.ok()) << acc.error().message;
    EXPECT_FALSE(acc->wide);
    EXPECT_EQ(acc->overflows, 0);
    // the float op on (x - 128) and (w - wz[axis 1])
    std::vector<float> wf = w.toFloats();
    for (size_t i = 0; i < wf.size(); ++i) wf[i] -= static_cast<float>(wz[(i / 6) % 3]);
    const auto y = run(n, {minus(x, 128), Tensor::fromFloats(w.shape(), wf)});
    ASSERT_EQ(y.size(), 1u);
    ASSERT_EQ(acc->shape, y[0].shape());
    ASSERT_EQ(acc->size(), y[0].size());
    for (int64_t i = 0; i < acc->size(); ++i)
        ASSERT_EQ(static_cast<float>(acc->at(i)), y[0].toFloats()[static_cast<size_t>(i)]) << i;

    // 16-bit codes: int64 sums, still exact
    const Tensor x16 = codes(DType::Int16, {1, 4, 3, 5}, -300, 600, 17),
                 w16 = codes(DType::Int16, {4, 3, 2, 3}, -200, 400, 7);
    auto geom16 = convTransposeGeometry(n, x16.shape(), w16.shape());
    ASSERT_TRUE(geom16.ok());
    auto acc16 = convTransposeInteger(*geom16, x16, 0, w16, {0}, nullptr);
    ASSERT_TRUE(acc16.ok());
    EXPECT_TRUE(acc16->wide);
    const auto y16 = run(n, {minus(x16, 0), minus(w16, 0)});
    ASSERT_EQ(y16.size(), 1u);
    for (int64_t i = 0; i < acc16->size(); ++i)
        ASSERT_EQ(static_cast<float>(acc16->at(i)), y16[0].toFloats()[static_cast<size_t>(i)]) << i;

    // 4 channels x 9 taps x 30000^2 = 3.24e10 at the centre: beyond int32, kept and counted
    onnx::NodeProto plain = makeNode("ConvTranspose");
    std::vector<int64_t> big(4 * 3 * 3, 30000), bigW(4 * 1 * 3 * 3, 30000);
    const Tensor xb = Tensor::fromInts(DType::Int16, {1, 4, 3, 3}, big),
                 wb = Tensor::fromInts(DType::Int16, {4, 1, 3, 3}, bigW);
    auto geomB = convTransposeGeometry(plain, xb.shape(), wb.shape());
    ASSERT_TRUE(geomB.ok());
    auto accB = convTransposeInteger(*geomB, xb, 0, wb, {0}, nullptr);
    ASSERT_TRUE(accB.ok());
    EXPECT_EQ(accB->shape, (std::vector<int64_t>{1, 1, 5, 5}));
    EXPECT_EQ(accB->at(12), 4ll * 9 * 30000 * 30000);
    EXPECT_EQ(accB->overflows, 25);  // every output has at least one tap: >= 3.6e9
    EXPECT_FALSE(
        convTransposeInteger(*geom, x, 128, w, {1, 2}, nullptr).ok());  // 2 zero points for 3 channels
}

// The integer mode's 8-bit Gelu table built from the node follows the node's form: each table
// is the output quantization of the specification op on the dequantized input codes, and the two
// forms' tables differ (by one code at most: the forms are within 1e-3 of each other).
TEST(SpecOps, GeluTableFollowsTheNodesForm)
{
    const QParams in = *makeQParams(DType::Int8, {0.03f}, {0}, -1, {});
    const QParams out = *makeQParams(DType::Int8, {0.004f}, {-86}, -1, {});
    Tensor x(DType::Int8, {256});
    for (int i = 0; i < 256; ++i) x.setInt(i, i - 128);
    onnx::NodeProto exact = makeNode("Gelu"), approx = makeNode("Gelu");
    setString(approx, "approximate", "tanh");
    int differing = 0;
    std::vector<Tensor> tables;
    for (const onnx::NodeProto* node : {&exact, &approx}) {
        LutReport rep;
        const Tensor table = applyLut(x, in, out, nonlinearFunction(*node), rep);
        const auto spec = run(*node, {dequantize(x, in)}, 20);
        ASSERT_EQ(spec.size(), 1u);
        EXPECT_EQ(table.toInts(), quantize(spec[0], out).toInts()) << node->attribute_size();
        tables.push_back(table);
    }
    for (int i = 0; i < 256; ++i) {
        const int64_t d = std::llabs(tables[0].atInt(i) - tables[1].atInt(i));
        EXPECT_LE(d, 1) << i;
        differing += d != 0;
    }
    EXPECT_GT(differing, 0);
}

namespace {

void addInitializer(onnx::GraphProto& g, const std::string& name, const Tensor& t)
{
    auto* p = g.add_initializer();
    p->set_name(name);
    for (int64_t d : t.shape()) p->add_dims(d);
    if (t.dtype() == DType::Float32) {
        p->set_data_type(onnx::TensorProto::FLOAT);
        for (float v : t.toFloats()) p->add_float_data(v);
    } else {
        p->set_data_type(t.dtype() == DType::Int8 ? onnx::TensorProto::INT8 : onnx::TensorProto::UINT8);
        for (int64_t v : t.toInts()) p->add_int32_data(static_cast<int32_t>(v));
    }
}

void addNode(onnx::GraphProto& g, const std::string& op, const std::string& name,
             std::vector<std::string> ins, const std::string& out)
{
    auto* n = g.add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const auto& i : ins) n->add_input(i);
    n->add_output(out);
}

}  // namespace

// A QDQ model with a ConvTranspose (an upsampling decoder's layer) builds and runs in the three
// modes: the layer is found with its weight, fake mode is the specification ops in sequence,
// the integer mode sums its codes and requantizes once (both requantizations).
TEST(SpecOps, QdqConvTransposeModelRunsInEveryMode)
{
    auto proto = std::make_shared<onnx::ModelProto>();
    proto->set_ir_version(8);
    auto* opset = proto->add_opset_import();
    opset->set_version(13);
    onnx::GraphProto& g = *proto->mutable_graph();
    g.set_name("decoder");
    auto* in = g.add_input();
    in->set_name("x");
    in->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : {1, 4, 5, 5})
        in->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(d);
    g.add_output()->set_name("y");
    const Tensor wq = codes(DType::Int8, {4, 3, 4, 4}, -100, 200, 37);
    addInitializer(g, "x_s", Tensor::scalar(0.02f));
    addInitializer(g, "x_z", Tensor::fromInts(DType::UInt8, {}, {128}));
    addInitializer(g, "w_q", wq);
    addInitializer(g, "w_s", Tensor::scalar(0.01f));
    addInitializer(g, "w_z", Tensor::fromInts(DType::Int8, {}, {0}));
    addInitializer(g, "b", Tensor::fromFloats({3}, {0.25f, -0.5f, 0.125f}));
    addInitializer(g, "y_s", Tensor::scalar(0.05f));
    addInitializer(g, "y_z", Tensor::fromInts(DType::UInt8, {}, {128}));
    addNode(g, "QuantizeLinear", "/in/Q", {"x", "x_s", "x_z"}, "xq");
    addNode(g, "DequantizeLinear", "/in/DQ", {"xq", "x_s", "x_z"}, "xd");
    addNode(g, "DequantizeLinear", "/up/w_DQ", {"w_q", "w_s", "w_z"}, "wd");
    addNode(g, "ConvTranspose", "/up/ConvTranspose", {"xd", "wd", "b"}, "ct");
    setInts(*g.mutable_node(3), "strides", {2, 2});
    setInts(*g.mutable_node(3), "pads", {1, 1, 1, 1});
    addNode(g, "QuantizeLinear", "/up/Q", {"ct", "y_s", "y_z"}, "yq");
    addNode(g, "DequantizeLinear", "/up/DQ", {"yq", "y_s", "y_z"}, "y");
    model::OnnxModel m;
    m.proto = proto;
    m.path = "decoder.onnx";
    m.opset = 13;
    auto interp = Interpreter::build(m);
    ASSERT_TRUE(interp.ok()) << interp.error().message;
    ASSERT_EQ((*interp)->layers().size(), 1u);
    const LayerInfo& layer = (*interp)->layers()[0];
    EXPECT_EQ(layer.op, "ConvTranspose");
    EXPECT_EQ(layer.name, "up");
    EXPECT_EQ(layer.weight, "w_q");
    EXPECT_FLOAT_EQ(layer.outputScale, 0.05f);

    std::vector<float> xv(100);
    for (size_t i = 0; i < xv.size(); ++i)
        xv[i] = static_cast<float>((static_cast<int>(i) * 13) % 41 - 20) * 0.07f;
    const Tensor x = Tensor::fromFloats({1, 4, 5, 5}, xv);
    const QParams px = *makeQParams(DType::UInt8, {0.02f}, {128}, -1, {}),
                  pw = *makeQParams(DType::Int8, {0.01f}, {0}, -1, {});
    const QParams py = *makeQParams(DType::UInt8, {0.05f}, {128}, -1, {});
    const onnx::NodeProto& ctNode = g.node(3);
    const Tensor b = Tensor::fromFloats({3}, {0.25f, -0.5f, 0.125f});
    const auto fakeWant = run(ctNode, {fakeQuantize(x, px), dequantize(wq, pw), b});
    const auto floatWant = run(ctNode, {x, dequantize(wq, pw), b});
    ASSERT_EQ(fakeWant.size(), 1u);
    ASSERT_EQ(floatWant.size(), 1u);

    auto fake = (*interp)->run(SimMode::Fake, {x}, RunOptions{}, nullptr);
    auto flt = (*interp)->run(SimMode::Float, {x}, RunOptions{}, nullptr);
    auto integer = (*interp)->run(SimMode::Int, {x}, RunOptions{}, nullptr);
    ASSERT_TRUE(fake.ok() && flt.ok() && integer.ok());
    EXPECT_EQ(fake->outputs[0].shape(), (std::vector<int64_t>{1, 3, 10, 10}));  // 2 * (5 - 1) + 4 - 2
    EXPECT_EQ(fake->outputs[0].toFloats(), fakeQuantize(fakeWant[0], py).toFloats());
    EXPECT_EQ(flt->outputs[0].toFloats(), floatWant[0].toFloats());
    // the integer mode sums the codes exactly (convTransposeInteger) and requantizes once: within
    // one output step of fake-quant, and no float fallback
    const auto fo = fake->outputs[0].toFloats(), io = integer->outputs[0].toFloats();
    ASSERT_EQ(io.size(), fo.size());
    for (size_t i = 0; i < io.size(); ++i) ASSERT_LE(std::fabs(io[i] - fo[i]), 0.05f * 1.001f) << i;
    EXPECT_TRUE(integer->fallbacks.empty());
    auto fixed = (*interp)->run(SimMode::Int, {x}, RunOptions{RequantMode::Fixed}, nullptr);
    ASSERT_TRUE(fixed.ok());
    const auto xo = fixed->outputs[0].toFloats();
    for (size_t i = 0; i < xo.size(); ++i) ASSERT_LE(std::fabs(xo[i] - fo[i]), 0.05f * 1.001f) << i;
}

// MaxPool's Indices in 1-D and 3-D (the conformance cases are 2-D): every index points at its
// window's maximum in the flat input, and storage_order 1 gives the same element column-major.
TEST(SpecOps, MaxPoolIndicesPointAtTheMaximumInEveryRank)
{
    for (const std::vector<int64_t>& shape :
         {std::vector<int64_t>{2, 3, 11}, std::vector<int64_t>{1, 2, 5, 6, 7}}) {
        const int r = static_cast<int>(shape.size()) - 2;
        std::vector<float> xv(static_cast<size_t>(shapeSize(shape)));
        for (size_t i = 0; i < xv.size(); ++i)
            xv[i] = static_cast<float>((static_cast<int64_t>(i) * 37 + 11) % 101);
        const Tensor x = Tensor::fromFloats(shape, xv);
        std::vector<Tensor> outs[2];
        for (int order = 0; order < 2; ++order) {
            onnx::NodeProto n = makeNode("MaxPool");
            n.add_output("y");
            n.add_output("indices");
            setInts(n, "kernel_shape", std::vector<int64_t>(static_cast<size_t>(r), 3));
            setInts(n, "strides", std::vector<int64_t>(static_cast<size_t>(r), 2));
            setInts(n, "pads", std::vector<int64_t>(static_cast<size_t>(2 * r), 1));
            auto* so = n.add_attribute();
            so->set_name("storage_order");
            so->set_type(onnx::AttributeProto::INT);
            so->set_i(order);
            outs[order] = run(n, {x});
            ASSERT_EQ(outs[order].size(), 2u);
            EXPECT_EQ(outs[order][1].dtype(), DType::Int64);
        }
        const std::vector<int64_t> rowMajor = outs[0][1].toInts(), colMajor = outs[1][1].toInts();
        const std::vector<float> y = outs[0][0].toFloats();
        std::vector<int64_t> spatial(shape.begin() + 2, shape.end());
        const int64_t plane = shapeSize(spatial);
        for (size_t i = 0; i < y.size(); ++i) {
            ASSERT_EQ(xv[static_cast<size_t>(rowMajor[i])], y[i]) << i;
            // the row-major position's coordinates, recombined first-axis-fastest
            int64_t rest = rowMajor[i] % plane, col = 0, stride = 1;
            std::vector<int64_t> coord(spatial.size());
            for (size_t d = spatial.size(); d-- > 0;) {
                coord[d] = rest % spatial[d];
                rest /= spatial[d];
            }
            for (size_t d = 0; d < spatial.size(); ++d) {
                col += coord[d] * stride;
                stride *= spatial[d];
            }
            EXPECT_EQ(colMajor[i], rowMajor[i] - rowMajor[i] % plane + col) << i;
        }
    }
}
