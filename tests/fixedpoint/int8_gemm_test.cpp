// The SIMD int8 path against the portable integer kernels (the reference): identical sums on
// random shapes with odd sizes, groups (incl. depthwise), strides, dilations, asymmetric padding,
// uint8 and int8 activations, 1-D convolutions, and matrix products with and without transB.
#include "core/fixedpoint/int8_gemm.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "core/fixedpoint/int_ops.h"
#include "core/fixedpoint/quantize.h"
#include "core/fixedpoint/simd_ops.h"

using namespace qatdoctor::core::fixedpoint;

namespace {

onnx::NodeProto convNode(int64_t group, std::vector<int64_t> strides, std::vector<int64_t> pads,
                         std::vector<int64_t> dil)
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

Tensor randomCodes(DType t, std::vector<int64_t> shape, std::mt19937& rng)
{
    Tensor x(t, std::move(shape));
    const int64_t lo = t == DType::UInt8 ? 0 : -128;
    for (int64_t i = 0; i < x.size(); ++i) x.setInt(i, lo + static_cast<int64_t>(rng() % 256));
    return x;
}

struct ConvCase {
    int64_t c, h, w, m, kh, kw, group, sh, sw, dh, dw, pt, pl, pb, pr;
    bool signedX;
    int rank = 2;
};

// false when the random draw has an empty output (nothing to compare)
// path: 0 = the best the CPU has (AMX where available, tap-major where it fits), 1 = AVX-512 VNNI
// kernel, 2 = that kernel with the packing of CPUs without VBMI, 3 = the AVX-VNNI (256-bit)
// kernel, 4 = the AMX panel kernel where the tap-major one would fit.
bool checkConv(const ConvCase& cs, std::mt19937& rng, ThreadPool* pool, int path = 0)
{
    const DType xt = cs.signedX ? DType::Int8 : DType::UInt8;
    const bool one = cs.rank == 1;
    Tensor x = randomCodes(
        xt, one ? std::vector<int64_t>{2, cs.c, cs.w} : std::vector<int64_t>{2, cs.c, cs.h, cs.w}, rng);
    Tensor w = randomCodes(DType::Int8,
                           one ? std::vector<int64_t>{cs.m, cs.c / cs.group, cs.kw}
                               : std::vector<int64_t>{cs.m, cs.c / cs.group, cs.kh, cs.kw},
                           rng);
    const auto node = one ? convNode(cs.group, {cs.sw}, {cs.pl, cs.pr}, {cs.dw})
                          : convNode(cs.group, {cs.sh, cs.sw}, {cs.pt, cs.pl, cs.pb, cs.pr}, {cs.dh, cs.dw});
    auto g = convGeometry(node, x.shape(), w.shape());
    if (!g) return false;
    const int64_t zero =
        cs.signedX ? static_cast<int64_t>(rng() % 256) - 128 : static_cast<int64_t>(rng() % 256);
    const Accumulator ref = convInteger(*g, x, zero, w, {0}, nullptr);
    EXPECT_FALSE(ref.wide);
    const PackedInt8Weights packed =
        packInt8Weights(w.data<int8_t>(), g->m, g->kernelSize(), g->group, g->kh * g->kw);
    std::vector<int32_t> fast(static_cast<size_t>(ref.size()), 0x7EADBEEF);
    Int8Scratch scratch;
    scratch.noAmx = path >= 1 && path <= 3;
    scratch.noVbmi = path == 2;
    scratch.noAvx512 = path == 3;
    scratch.noTapMajor = path == 4;
    // half the draws pack and multiply the panel in bands of one or a few output rows
    if (rng() % 2) scratch.panelBandBytes = 64 + static_cast<int64_t>(rng() % 4096);
    convX8S8(*g, x.data<uint8_t>(), cs.signedX, static_cast<int32_t>(zero), packed, fast.data(), pool,
             &scratch);
    int64_t i = 0;
    while (i < ref.size() && fast[static_cast<size_t>(i)] == ref.at(i)) ++i;
    if (i < ref.size())
        ADD_FAILURE() << "SIMD " << fast[static_cast<size_t>(i)] << " != portable " << ref.at(i)
                      << "c=" << cs.c << " h=" << cs.h << " w=" << cs.w << " m=" << cs.m << " k=" << cs.kh
                      << "x" << cs.kw << " group=" << cs.group << " stride=" << cs.sh << "," << cs.sw
                      << " dil=" << cs.dh << "," << cs.dw << " pads=" << cs.pt << "," << cs.pl << "," << cs.pb
                      << "," << cs.pr << " signed=" << cs.signedX << " rank=" << cs.rank << " at " << i;
    // the same call requantizing (fused into the AMX kernels' epilogues): codes as the scalar
    // float requantization of the portable sums gives them
    std::vector<int32_t> biasQ(static_cast<size_t>(cs.m));
    std::vector<float> mult(static_cast<size_t>(cs.m));
    for (int64_t m = 0; m < cs.m; ++m) {
        biasQ[static_cast<size_t>(m)] = static_cast<int32_t>(rng() % 4001) - 2000;
        mult[static_cast<size_t>(m)] = static_cast<float>(rng() % 1000 + 1) * 1e-5f;
    }
    Requant8 rq{biasQ.data(), mult.data(), cs.signedX ? -3 : 7, cs.signedX ? -128 : 7,
                cs.signedX ? 100 : 255};
    std::vector<uint8_t> codes(static_cast<size_t>(ref.size()), 0xA5);
    convX8S8(*g, x.data<uint8_t>(), cs.signedX, static_cast<int32_t>(zero), packed, nullptr, pool, &scratch,
             &rq, codes.data());
    const int64_t P = g->outPixels();
    for (int64_t j = 0; j < ref.size(); ++j) {
        const auto m = static_cast<size_t>((j / P) % cs.m);
        const auto q =
            static_cast<int32_t>(std::nearbyint(static_cast<float>(ref.at(j) + biasQ[m]) * mult[m])) + rq.zp;
        const auto want = static_cast<uint8_t>(std::clamp(q, rq.lo, rq.hi));
        if (codes[static_cast<size_t>(j)] != want) {
            ADD_FAILURE() << "requantized " << int(codes[static_cast<size_t>(j)]) << " != " << int(want)
                          << " path " << path << " c=" << cs.c << " m=" << cs.m << " at " << j;
            break;
        }
    }
    return true;
}

}  // namespace

TEST(Int8FastPath, MatchesPortableConvolutionOnFixedShapes)
{
    if (!int8FastPathAvailable()) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
    const ConvCase cases[] = {
        {3, 17, 19, 8, 7, 7, 1, 2, 2, 1, 1, 3, 3, 3, 3, false},  // resnet stem
        {16, 9, 9, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true},
        {8, 10, 7, 12, 3, 3, 4, 1, 1, 2, 2, 2, 2, 2, 2, false},
        {5, 6, 6, 70, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, false},     // pointwise, rows contiguous
        {32, 5, 5, 32, 3, 3, 32, 2, 2, 1, 1, 1, 1, 1, 1, true},    // depthwise, stride 2
        {64, 8, 8, 130, 1, 1, 1, 2, 2, 1, 1, 0, 0, 0, 0, false},   // 1x1 stride 2 (downsample)
        {7, 13, 11, 9, 2, 5, 1, 3, 1, 1, 3, 0, 4, 1, 0, true},     // stride 3, asymmetric pads
        {6, 1, 40, 6, 1, 5, 2, 1, 2, 1, 1, 0, 2, 0, 2, false, 1},  // 1-D
    };
    std::mt19937 rng(5);
    ThreadPool pool(2);
    for (int path : {0, 1, 2, 3}) {
        if (path == 3 && !avxVnniAvailable()) continue;
        for (const ConvCase& cs : cases) EXPECT_TRUE(checkConv(cs, rng, &pool, path));
    }
}

TEST(Int8FastPath, MatchesPortableConvolutionOnRandomShapes)
{
    if (!int8FastPathAvailable()) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
    std::mt19937 rng(2024);
    int compared = 0;
    auto r = [&](int64_t lo, int64_t hi) {
        return lo + static_cast<int64_t>(rng() % static_cast<uint32_t>(hi - lo + 1));
    };
    for (int iter = 0; iter < 320; ++iter) {
        ConvCase cs{};
        cs.group = r(1, 3) == 1 ? r(1, 4) : 1;
        cs.c = cs.group * r(1, 9);
        cs.m = cs.group * r(1, 14);
        cs.rank = r(1, 6) == 1 ? 1 : 2;
        cs.h = cs.rank == 1 ? 1 : r(1, 23);
        cs.w = r(1, 37);
        cs.kh = cs.rank == 1 ? 1 : r(1, 5);
        cs.kw = r(1, 5);
        cs.sh = cs.rank == 1 ? 1 : r(1, 3);
        cs.sw = r(1, 3);
        cs.dh = cs.rank == 1 ? 1 : r(1, 2);
        cs.dw = r(1, 3);
        cs.pt = cs.rank == 1 ? 0 : r(0, 3);
        cs.pb = cs.rank == 1 ? 0 : r(0, 3);
        cs.pl = r(0, 3);
        cs.pr = r(0, 3);
        cs.signedX = r(0, 1) == 1;
        ThreadPool pool(static_cast<int>(r(1, 3)));
        const int path = iter % 4 == 3 && !avxVnniAvailable() ? 0 : iter % 4;  // every path in turn
        compared += checkConv(cs, rng, &pool, path) ? 1 : 0;
        if (HasFailure()) return;
    }
    EXPECT_GT(compared, 220);
}

// Shapes the AMX tap-major kernel takes (group 1, C % 64 == 0, stride 1): kernel sizes,
// dilations, asymmetric and zero padding, rows narrower and wider than a tile, output channels
// not a multiple of 16, both signs; against the portable kernel, and the AMX panel kernel too.
TEST(Int8FastPath, TapMajorShapesMatchPortable)
{
    if (!int8FastPathAvailable()) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
    std::mt19937 rng(64);
    auto r = [&](int64_t lo, int64_t hi) {
        return lo + static_cast<int64_t>(rng() % static_cast<uint32_t>(hi - lo + 1));
    };
    const ConvCase fixed[] = {
        {64, 12, 12, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, false},    // resnet basic block, small
        {128, 7, 7, 70, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, true},      // 7x7 like layer4, odd channel count
        {64, 5, 33, 17, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, false},     // pointwise
        {192, 6, 9, 40, 2, 5, 1, 1, 1, 2, 1, 0, 3, 2, 0, true},      // dilation, asymmetric pads
        {64, 1, 50, 20, 1, 7, 1, 1, 1, 1, 2, 0, 6, 0, 6, false, 1},  // 1-D
    };
    int compared = 0;
    for (int path : {0, 4})
        for (const ConvCase& cs : fixed) compared += checkConv(cs, rng, nullptr, path) ? 1 : 0;
    for (int iter = 0; iter < 60; ++iter) {
        ConvCase cs{};
        cs.group = 1;
        cs.c = 64 * r(1, 3);
        cs.m = r(1, 50);
        cs.h = r(1, 13);
        cs.w = r(1, 40);
        cs.kh = r(1, 4);
        cs.kw = r(1, 4);
        cs.sh = cs.sw = 1;
        cs.dh = r(1, 2);
        cs.dw = r(1, 2);
        cs.pt = r(0, 2);
        cs.pb = r(0, 2);
        cs.pl = r(0, 3);
        cs.pr = r(0, 3);
        cs.signedX = r(0, 1) == 1;
        ThreadPool pool(static_cast<int>(r(1, 3)));
        compared += checkConv(cs, rng, &pool, 0) ? 1 : 0;
        if (HasFailure()) return;
    }
    EXPECT_GT(compared, 50);
}

TEST(Int8FastPath, MatrixProductMatchesPortable)
{
    if (!int8FastPathAvailable()) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
    std::mt19937 rng(11);
    struct Case {
        int64_t m, k, n;
        bool signedA, transB;
    };
    const Case cases[] = {{1, 512, 1000, false, true},
                          {7, 33, 5, true, false},
                          {65, 130, 70, false, false},
                          {3, 1, 1, true, true},
                          {130, 7, 13, true, true}};
    for (const Case& cs : cases) {
        Tensor a = randomCodes(cs.signedA ? DType::Int8 : DType::UInt8, {cs.m, cs.k}, rng);
        Tensor b = randomCodes(DType::Int8, {cs.k, cs.n}, rng);  // [K][N]
        const int64_t zero = cs.signedA ? -3 : 129;
        const Accumulator ref = matmulInteger(a, zero, b, {0}, cs.m, cs.k, cs.n, nullptr);
        PackedInt8Weights packed;
        if (cs.transB) {  // pack from the [N][K] transpose, as Gemm(transB=1) stores it
            std::vector<int8_t> bt(static_cast<size_t>(cs.k * cs.n));
            for (int64_t k = 0; k < cs.k; ++k)
                for (int64_t n = 0; n < cs.n; ++n)
                    bt[static_cast<size_t>(n * cs.k + k)] = b.data<int8_t>()[k * cs.n + n];
            packed = packInt8Weights(bt.data(), cs.n, cs.k);
        } else {
            packed = packInt8WeightsTransposed(b.data<int8_t>(), cs.k, cs.n);
        }
        for (bool narrow : {false, true}) {  // AVX-512 and, where the CPU has it, AVX-VNNI
            if (narrow && !avxVnniAvailable()) continue;
            std::vector<int32_t> fast(static_cast<size_t>(cs.m * cs.n));
            ThreadPool pool(2);
            Int8Scratch scratch;
            scratch.noAvx512 = narrow;
            gemmX8S8(cs.m, a.data<uint8_t>(), cs.signedA, static_cast<int32_t>(zero), packed, fast.data(),
                     &pool, &scratch);
            for (int64_t i = 0; i < ref.size(); ++i)
                ASSERT_EQ(fast[static_cast<size_t>(i)], ref.at(i))
                    << "m=" << cs.m << " i=" << i << " narrow=" << narrow;
        }
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
    std::vector<int8_t> outS(acc.size());
    requantizeRowS8(acc.data(), static_cast<int64_t>(acc.size()), -7, 0.0093f, -3, -128, 127, outS.data());
    const Requantizer rs = Requantizer::make(double(0.0093f), -3, {-128, 127});
    for (size_t i = 0; i < acc.size(); ++i) ASSERT_EQ(outS[i], rs.apply(acc[i] - 7, RequantMode::Float)) << i;
}

TEST(Int8FastPath, VectorQuantizeAndAddMatchScalar)
{
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> uni(-40.0f, 40.0f);
    std::vector<float> x(1003);
    for (float& v : x) v = uni(rng);
    x[0] = std::nanf("");
    x[1] = std::numeric_limits<float>::infinity();
    x[2] = -std::numeric_limits<float>::infinity();
    x[3] = 2.5f * 0.125f;  // exact halves: round half to even
    x[4] = 3.5f * 0.125f;
    x[5] = -0.5f * 0.125f;
    for (bool isSigned : {false, true}) {
        const float zp = isSigned ? -5.0f : 131.0f, lo = isSigned ? -128.0f : 0.0f,
                    hi = isSigned ? 127.0f : 255.0f;
        std::vector<uint8_t> out(x.size());
        if (!quantizeRowX8(x.data(), static_cast<int64_t>(x.size()), 0.125f, zp, lo, hi, isSigned,
                           out.data()))
            GTEST_SKIP() << "no AVX-512 on this CPU";
        for (size_t i = 0; i < x.size(); ++i) {
            float v = std::nearbyintf(x[i] / 0.125f) + zp;
            v = v < lo ? lo : (v > hi ? hi : v);
            const int64_t want = v == v ? static_cast<int64_t>(v) : static_cast<int64_t>(zp);
            const int64_t got = isSigned ? static_cast<int8_t>(out[i]) : out[i];
            ASSERT_EQ(got, want) << i << " x=" << x[i];
        }
    }
    std::vector<uint8_t> a(777), b(777), y(777);
    for (size_t i = 0; i < a.size(); ++i) {
        a[i] = static_cast<uint8_t>(rng());
        b[i] = static_cast<uint8_t>(rng());
    }
    for (double sign : {1.0, -1.0}) {
        const double sa = 0.0371, sb = 0.0213, so = 0.0449;
        ASSERT_TRUE(addRowsU8(a.data(), b.data(), 777, sa, 12, sb, 140, sign, so, 9, 0, 255, y.data()));
        for (size_t i = 0; i < a.size(); ++i) {
            const double v = (sa * double(int64_t(a[i]) - 12) + sign * sb * double(int64_t(b[i]) - 140)) / so;
            const int64_t want = std::clamp<int64_t>(static_cast<int64_t>(std::nearbyint(v)) + 9, 0, 255);
            ASSERT_EQ(y[i], want) << i;
        }
    }
}

// addRowsU8 multiplies by 1 / so and divides only near half-integers: against the division on
// scale triples where exact ties are common (so = 2 sa, so = 4 sb, equal scales) and on random
// float scales, every code pair.
TEST(Int8FastPath, VectorAddMatchesDivisionOnTiesAndRandomScales)
{
    std::vector<uint8_t> a(256 * 256), b(a.size()), y(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        a[i] = static_cast<uint8_t>(i / 256);
        b[i] = static_cast<uint8_t>(i % 256);
    }
    std::mt19937 rng(8);
    std::uniform_real_distribution<float> logScale(-9.0f, 2.0f);
    struct Scales {
        double sa, sb, so;
    };
    std::vector<Scales> cases = {{0.05, 0.05, 0.1},
                                 {0.025, 0.0125, 0.05},
                                 {0.1, 0.1, 0.1},
                                 {0.5, 0.25, 1.0},
                                 {double(0.0371f), double(0.0213f), double(0.0449f)}};
    for (int i = 0; i < 20; ++i)
        cases.push_back({double(std::exp2(logScale(rng))), double(std::exp2(logScale(rng))),
                         double(std::exp2(logScale(rng)))});
    int ties = 0;
    for (const Scales& sc : cases)
        for (double sign : {1.0, -1.0}) {
            const int32_t za = static_cast<int32_t>(rng() % 256), zb = static_cast<int32_t>(rng() % 256),
                          zo = static_cast<int32_t>(rng() % 256);
            if (!addRowsU8(a.data(), b.data(), static_cast<int64_t>(a.size()), sc.sa, za, sc.sb, zb, sign,
                           sc.so, zo, 0, 255, y.data()))
                GTEST_SKIP() << "no AVX-512 on this CPU";
            for (size_t i = 0; i < a.size(); ++i) {
                const double v =
                    (sc.sa * double(int64_t(a[i]) - za) + sign * sc.sb * double(int64_t(b[i]) - zb)) / sc.so;
                ties += v - std::floor(v) == 0.5 ? 1 : 0;
                const int64_t want =
                    std::clamp<int64_t>(static_cast<int64_t>(std::nearbyint(v)) + zo, 0, 255);
                ASSERT_EQ(y[i], want) << "a=" << int(a[i]) << " b=" << int(b[i]) << " sa=" << sc.sa
                                      << " sb=" << sc.sb << " so=" << sc.so;
            }
        }
    EXPECT_GT(ties, 10000);  // the tie cases did exercise the division
}

TEST(Int8FastPath, VectorClampMatchesScalar)
{
    std::vector<uint8_t> x(1000), y(1000, 7);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint8_t>(i * 37);
    if (!clampRowX8(x.data(), 999, 3, 127, false, y.data())) GTEST_SKIP() << "no AVX-512 on this CPU";
    for (size_t i = 0; i < 999; ++i) ASSERT_EQ(y[i], std::clamp<uint8_t>(x[i], 3, 127)) << i;
    EXPECT_EQ(y[999], 7);  // past n untouched
    ASSERT_TRUE(clampRowX8(x.data(), 1000, -64, 63, true, y.data()));
    for (size_t i = 0; i < x.size(); ++i)
        ASSERT_EQ(static_cast<int8_t>(y[i]), std::clamp<int8_t>(static_cast<int8_t>(x[i]), -64, 63)) << i;
    std::vector<uint8_t> inPlace = x;  // out may be x
    ASSERT_TRUE(clampRowX8(inPlace.data(), 1000, 0, 127, false, inPlace.data()));
    for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(inPlace[i], std::min<uint8_t>(x[i], 127)) << i;
}

TEST(Int8FastPath, VectorFloorMatchesScalar)
{
    std::vector<uint8_t> x(1000), orig;
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint8_t>(i * 37);
    orig = x;
    if (!floorRowX8(x.data(), 999, 100, false)) GTEST_SKIP() << "no AVX-512 on this CPU";
    for (size_t i = 0; i < 999; ++i) ASSERT_EQ(x[i], std::max<uint8_t>(orig[i], 100)) << i;
    EXPECT_EQ(x[999], orig[999]);  // past n untouched
    x = orig;
    ASSERT_TRUE(floorRowX8(x.data(), 1000, -5, true));
    for (size_t i = 0; i < x.size(); ++i)
        ASSERT_EQ(static_cast<int8_t>(x[i]), std::max<int8_t>(static_cast<int8_t>(orig[i]), -5)) << i;
}
