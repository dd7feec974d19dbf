#include "core/fixedpoint/quantize.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/fixedpoint/lut.h"

using namespace qatdoctor::core::fixedpoint;

TEST(Quantize, RoundingModes)
{
    EXPECT_EQ(roundValue(2.5, RoundMode::HalfToEven), 2.0);
    EXPECT_EQ(roundValue(3.5, RoundMode::HalfToEven), 4.0);
    EXPECT_EQ(roundValue(-2.5, RoundMode::HalfToEven), -2.0);
    EXPECT_EQ(roundValue(2.5, RoundMode::HalfAwayFromZero), 3.0);
    EXPECT_EQ(roundValue(-2.5, RoundMode::HalfAwayFromZero), -3.0);
}

TEST(Quantize, PerTensorSaturatesAndRoundsHalfToEven)
{
    auto p = makeQParams(DType::UInt8, {0.5f}, {10}, -1, {5});
    ASSERT_TRUE(p.ok());
    const Tensor x = Tensor::fromFloats({5}, {1.25f, -100.0f, 200.0f, 0.75f, -5.25f});
    const Tensor q = quantize(x, *p);
    // 1.25/0.5 = 2.5 -> 2 (+10); -100 -> saturates at 0; 200 -> 255; 0.75/0.5 = 1.5 -> 2; -10.5 -> -10
    EXPECT_EQ(q.toInts(), (std::vector<int64_t>{12, 0, 255, 12, 0}));
    const Tensor qa = quantize(x, *p, RoundMode::HalfAwayFromZero);
    EXPECT_EQ(qa.toInts(), (std::vector<int64_t>{13, 0, 255, 12, 0}));
    EXPECT_EQ(dequantize(q, *p).toFloats(), (std::vector<float>{1.0f, -5.0f, 122.5f, 1.0f, -5.0f}));
}

TEST(Quantize, PerAxisInt8AndInt16)
{
    auto p = makeQParams(DType::Int8, {1.0f, 0.1f}, {0, 0}, 0, {2, 2});
    ASSERT_TRUE(p.ok());
    const Tensor q = quantize(Tensor::fromFloats({2, 2}, {3.4f, -200.0f, 0.34f, -0.05f}), *p);
    EXPECT_EQ(q.toInts(), (std::vector<int64_t>{3, -128, 3, 0}));  // -0.5 -> -0 (half to even)
    auto p16 = makeQParams(DType::Int16, {0.001f}, {0}, -1, {2});
    ASSERT_TRUE(p16.ok());
    EXPECT_EQ(quantize(Tensor::fromFloats({2}, {40.0f, -0.0015f}), *p16).toInts(),
              (std::vector<int64_t>{32767, -2}));
    EXPECT_FALSE(makeQParams(DType::Int8, {1.0f, 2.0f, 3.0f}, {0}, 0, {2, 2}).ok());
}

// Wide types saturate at their own ends: float(INT32_MAX) is 2^31, so a float clamp followed by a
// cast turned 3e9 into INT32_MIN; a float sum also dropped a large zero point's low bits.
TEST(Quantize, Int32SaturatesAtBothEndsAndRoundsBothWays)
{
    auto p = makeQParams(DType::Int32, {1.0f}, {0}, -1, {7});
    ASSERT_TRUE(p.ok());
    // 2147483520 is the largest float below 2^31; 2147483647.0f rounds up to 2^31 itself
    const Tensor x =
        Tensor::fromFloats({7}, {3e9f, -3e9f, 2147483520.0f, 100.5f, -100.5f, 2.5f, 2147483647.0f});
    EXPECT_EQ(quantize(x, *p).toInts(),
              (std::vector<int64_t>{2147483647, -2147483648ll, 2147483520, 100, -100, 2, 2147483647}));
    EXPECT_EQ(quantize(x, *p, RoundMode::HalfAwayFromZero).toInts(),
              (std::vector<int64_t>{2147483647, -2147483648ll, 2147483520, 101, -101, 3, 2147483647}));
    // zero point 2^24 + 1 is not a float: 2 + zp must be 16777219, not 16777218
    auto pz = makeQParams(DType::Int32, {0.5f}, {16777217}, -1, {3});
    ASSERT_TRUE(pz.ok());
    EXPECT_EQ(quantize(Tensor::fromFloats({3}, {1.0f, 1.25f, -2e9f}), *pz).toInts(),
              (std::vector<int64_t>{16777219, 16777219, -2147483648ll}));
    EXPECT_EQ(
        quantize(Tensor::fromFloats({3}, {1.0f, 1.25f, -2e9f}), *pz, RoundMode::HalfAwayFromZero).toInts(),
        (std::vector<int64_t>{16777219, 16777220, -2147483648ll}));
}

TEST(Quantize, UInt16AndUInt32SaturateAndRoundBothWays)
{
    auto p = makeQParams(DType::UInt16, {0.5f}, {100}, -1, {6});
    ASSERT_TRUE(p.ok());
    // /0.5: 2.5, -200, 80000, 1.5, -98.5, 65434.5 (+100 each)
    const Tensor x = Tensor::fromFloats({6}, {1.25f, -100.0f, 40000.0f, 0.75f, -49.25f, 32717.25f});
    EXPECT_EQ(quantize(x, *p).toInts(), (std::vector<int64_t>{102, 0, 65535, 102, 2, 65534}));
    EXPECT_EQ(quantize(x, *p, RoundMode::HalfAwayFromZero).toInts(),
              (std::vector<int64_t>{103, 0, 65535, 102, 1, 65535}));
    auto p32 = makeQParams(DType::UInt32, {1.0f}, {0}, -1, {4});
    ASSERT_TRUE(p32.ok());
    EXPECT_EQ(quantize(Tensor::fromFloats({4}, {5e9f, -1.0f, 4294967040.0f, 0.5f}), *p32).toInts(),
              (std::vector<int64_t>{4294967295ll, 0, 4294967040ll, 0}));
}

// A requantization product beyond int64 saturates at the right end (the cast of 1e23 to int64
// is undefined; on x86 it gave INT64_MIN, so a large positive sum came out as the minimum).
TEST(Quantize, HugeRequantizationProductsSaturateAtTheRightEnd)
{
    const Requantizer r = Requantizer::make(1e20, 0, qrange(DType::Int8));
    EXPECT_EQ(r.apply(1000, RequantMode::Float), 127);
    EXPECT_EQ(r.apply(-1000, RequantMode::Float), -128);
    EXPECT_EQ(r.apply(0, RequantMode::Float), 0);
    EXPECT_EQ(roundToInt64(2.5), 2);
    EXPECT_EQ(roundToInt64(-3.5), -4);
    EXPECT_EQ(roundToInt64(1e30), int64_t{1} << 62);
    EXPECT_EQ(roundToInt64(-1e30), -(int64_t{1} << 62));
    EXPECT_EQ(roundToInt64(std::nan("")), 0);
}

TEST(Quantize, FixedPointMultiplierMatchesTflite)
{
    const FixedMultiplier m = quantizeMultiplier(0.0037);
    EXPECT_GE(m.multiplier, 1 << 30);
    // round(x * 0.0037) for a spread of accumulators: one rounding of the exact product, so
    // within half a step of the exact value (the multiplier's own error is 2^-31 relative)
    for (int64_t acc : {0ll, 1ll, 135ll, 136ll, -136ll, 100000ll, -99999ll, 2000000ll}) {
        const double exact = static_cast<double>(acc) * 0.0037;
        EXPECT_NEAR(multiplyByQuantizedMultiplier(acc, m), exact, 0.5 + 1e-6) << acc;
    }
    // 0.4995 rounds to 0: gemmlowp's two roundings (high multiply, then shift) made it 1
    EXPECT_EQ(multiplyByQuantizedMultiplier(135, m), 0);
    EXPECT_EQ(roundingDivideByPOT(5, 1), 3);  // 2.5 -> 3 (away from zero)
    EXPECT_EQ(roundingDivideByPOT(-5, 1), -3);
    EXPECT_EQ(saturatingRoundingDoublingHighMul(INT32_MIN, INT32_MIN), INT32_MAX);
    const FixedMultiplier big = quantizeMultiplier(3.0);
    EXPECT_EQ(multiplyByQuantizedMultiplier(7, big), 21);
    const FixedMultiplier neg = quantizeMultiplier(-0.5);
    EXPECT_EQ(multiplyByQuantizedMultiplier(10, neg), -5);
}

// An exact multiplier (0.5): only the tie rule decides, for every rule and sign.
TEST(Quantize, FixedPointTiesFollowTheRoundingRule)
{
    const FixedMultiplier half = quantizeMultiplier(0.5);
    struct Want {
        RoundMode ties;
        int32_t of5, ofMinus5, of7, ofMinus7;
    };
    for (const Want w :
         {Want{RoundMode::HalfToEven, 2, -2, 4, -4}, Want{RoundMode::HalfAwayFromZero, 3, -3, 4, -4},
          Want{RoundMode::HalfUp, 3, -2, 4, -3}}) {
        EXPECT_EQ(multiplyByQuantizedMultiplier(5, half, w.ties), w.of5) << roundModeName(w.ties);
        EXPECT_EQ(multiplyByQuantizedMultiplier(-5, half, w.ties), w.ofMinus5) << roundModeName(w.ties);
        EXPECT_EQ(multiplyByQuantizedMultiplier(7, half, w.ties), w.of7) << roundModeName(w.ties);
        EXPECT_EQ(multiplyByQuantizedMultiplier(-7, half, w.ties), w.ofMinus7) << roundModeName(w.ties);
        EXPECT_EQ(roundModeFromName(roundModeName(w.ties)), w.ties);
    }
    EXPECT_FALSE(roundModeFromName("nearest").has_value());
    EXPECT_EQ(multiplyByQuantizedMultiplier(INT64_C(1) << 40, quantizeMultiplier(3.0)), INT32_MAX);
}

TEST(Quantize, RequantizerFloatAndFixedAgreeAwayFromTies)
{
    const Requantizer r = Requantizer::make(0.0123, 3, qrange(DType::Int8));
    for (int64_t acc = -20000; acc <= 20000; acc += 37) {
        const int64_t f = r.apply(acc, RequantMode::Float), x = r.apply(acc, RequantMode::Fixed);
        EXPECT_LE(std::llabs(f - x), 1) << acc;
    }
    EXPECT_EQ(r.apply(1000000, RequantMode::Fixed), 127);  // saturates
}

TEST(Lut, EightBitTableIsExactQuantizationOfTheFunction)
{
    QParams in = *makeQParams(DType::Int8, {0.03f}, {0}, -1, {});
    QParams out = *makeQParams(DType::UInt8, {1.0f / 256}, {0}, -1, {});
    Tensor x(DType::Int8, {256});
    for (int i = 0; i < 256; ++i) x.setInt(i, i - 128);
    LutReport rep;
    const Tensor y = applyLut(x, in, out, nonlinearFunction("Sigmoid", 0, 0), rep);
    EXPECT_EQ(rep.entries, 256);
    EXPECT_NEAR(rep.inputMin, -3.84, 1e-6);
    EXPECT_LE(rep.maxErrorLsb, 0.5 + 1e-9);  // only output rounding
    EXPECT_EQ(y.atInt(128), 128);            // sigmoid(0) = 0.5
    QParams in16 = *makeQParams(DType::Int16, {0.0005f}, {0}, -1, {});
    QParams out16 = *makeQParams(DType::Int16, {1.0f / 32768}, {0}, -1, {});
    Tensor x16(DType::Int16, {2000});
    for (int i = 0; i < 2000; ++i) x16.setInt(i, i * 30 - 30000);
    LutReport rep16;
    applyLut(x16, in16, out16, nonlinearFunction("Tanh", 0, 0), rep16);
    EXPECT_EQ(rep16.entries, 257);
    EXPECT_GT(rep16.maxErrorLsb, 0.5);  // interpolation adds its own error
    EXPECT_LT(rep16.maxError, 2e-3);
}

// A zero or broken scale makes the requantization ratio inf or NaN (found by fuzz_simulator):
// NaN multiplies to 0, inf and anything huge saturate, none of it undefined behaviour.
TEST(Quantize, MultipliersOfBrokenScalesSaturateOrVanish)
{
    using namespace qatdoctor::core::fixedpoint;
    const FixedMultiplier nan = quantizeMultiplier(std::nan(""));
    EXPECT_EQ(multiplyByQuantizedMultiplier(1000, nan), 0);
    const FixedMultiplier inf = quantizeMultiplier(INFINITY);
    EXPECT_EQ(multiplyByQuantizedMultiplier(1, inf), std::numeric_limits<int32_t>::max());
    EXPECT_EQ(multiplyByQuantizedMultiplier(-1, inf), std::numeric_limits<int32_t>::min());
    EXPECT_EQ(multiplyByQuantizedMultiplier(0, inf), 0);
    const FixedMultiplier huge = quantizeMultiplier(1e30);
    EXPECT_EQ(multiplyByQuantizedMultiplier(int64_t(1) << 40, huge), std::numeric_limits<int32_t>::max());
    // ordinary multipliers are unchanged: 0.5 halves, rounding half away from zero
    EXPECT_EQ(multiplyByQuantizedMultiplier(7, quantizeMultiplier(0.5)), 4);
    EXPECT_EQ(multiplyByQuantizedMultiplier(1000, quantizeMultiplier(3.0)), 3000);
}
