// The VNNI fast path against the portable integer convolution: identical sums for strides,
// dilations, groups, padding and odd sizes.
#include <gtest/gtest.h>

#include <onnx/onnx_pb.h>

#include <random>

#include "core/fixedpoint/int8_gemm.h"
#include "core/fixedpoint/int_ops.h"
#include "core/fixedpoint/quantize.h"

using namespace qatdoctor::core::fixedpoint;

namespace {

onnx::NodeProto convNode(int64_t group, std::vector<int64_t> strides, std::vector<int64_t> pads, std::vector<int64_t> dil)
{
    onnx::NodeProto n;
    n.set_op_type("Conv");
    auto add = [&](const char* name, const std::vector<int64_t>& v) {
        auto* a = n.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (int64_t x : v) a->add_ints(x);
    };
    add("strides", strides);
    add("pads", pads);
    add("dilations", dil);
    auto* g = n.add_attribute();
    g->set_name("group");
    g->set_type(onnx::AttributeProto::INT);
    g->set_i(group);
    return n;
}

}  // namespace

TEST(Int8FastPath, MatchesPortableConvolution)
{
    if (!int8FastPathAvailable()) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
    struct Case { int64_t c, h, w, m, k, group, stride, pad, dil; };
    const Case cases[] = {{3, 17, 19, 8, 7, 1, 2, 3, 1}, {16, 9, 9, 16, 3, 1, 1, 1, 1}, {8, 10, 7, 12, 3, 4, 1, 2, 2},
                          {5, 6, 6, 70, 1, 1, 1, 0, 1}, {32, 5, 5, 32, 3, 32, 2, 1, 1}};
    std::mt19937 rng(5);
    for (const Case& cs : cases) {
        Tensor x(DType::UInt8, {1, cs.c, cs.h, cs.w});
        for (int64_t i = 0; i < x.size(); ++i) x.setInt(i, static_cast<int64_t>(rng() % 256));
        Tensor w(DType::Int8, {cs.m, cs.c / cs.group, cs.k, cs.k});
        for (int64_t i = 0; i < w.size(); ++i) w.setInt(i, static_cast<int64_t>(rng() % 256) - 128);
        const auto node = convNode(cs.group, {cs.stride, cs.stride}, {cs.pad, cs.pad, cs.pad, cs.pad}, {cs.dil, cs.dil});
        auto g = convGeometry(node, x.shape(), w.shape());
        ASSERT_TRUE(g.ok());
        const Accumulator ref = convInteger(*g, x, 37, w, {0}, nullptr);
        const PackedInt8Weights packed = packInt8Weights(w.data<int8_t>(), g->m, g->kernelSize());
        std::vector<int32_t> fast(static_cast<size_t>(ref.size()));
        ThreadPool pool(2);
        convU8S8(*g, x.data<uint8_t>(), 37, packed, fast.data(), &pool);
        for (int64_t i = 0; i < ref.size(); ++i) ASSERT_EQ(fast[static_cast<size_t>(i)], ref.at(i)) << "case c=" << cs.c << " i=" << i;
    }
}

TEST(Int8FastPath, VectorRequantizationMatchesScalar)
{
    std::vector<int32_t> acc(1000);
    for (size_t i = 0; i < acc.size(); ++i) acc[i] = static_cast<int32_t>(i * 7919 % 40000) - 20000;
    std::vector<uint8_t> out(acc.size());
    requantizeRowU8(acc.data(), static_cast<int64_t>(acc.size()), 13, 0.0071f, 5, 5, 255, out.data());
    const Requantizer r = Requantizer::make(double(0.0071f), 5, {5, 255});
    for (size_t i = 0; i < acc.size(); ++i) ASSERT_EQ(out[i], r.apply(acc[i] + 13, RequantMode::Float)) << i;
}
