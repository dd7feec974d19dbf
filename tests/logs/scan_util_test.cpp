// The number reader every line parser uses: its inline fast path (word-at-a-time digits, one
// division) must give the correctly rounded double strtod gives, stop exactly where the number
// ends, and never read past the end of its bytes (each case sits in a buffer of its exact size,
// so the sanitizer build catches an over-read).
#include "core/logs/scan_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace qatdoctor::core::logs {
namespace {

struct Parsed {
    bool ok = false;
    double value = 0;
    size_t length = 0;
};

Parsed parseExact(const std::string& text)
{
    std::vector<char> exact(text.begin(), text.end());  // no terminator, nothing after the end
    double v = 0;
    const char* b = exact.data();
    const char* r = parseNumber(b, b + exact.size(), v);
    return r ? Parsed{true, v, static_cast<size_t>(r - b)} : Parsed{};
}

TEST(ParseNumber, AgreesWithStrtodOnRandomDecimals)
{
    std::mt19937 rng(7);
    auto digits = [&](int n) {
        std::string s;
        for (int i = 0; i < n; ++i) s += static_cast<char>('0' + rng() % 10);
        return s;
    };
    const std::vector<std::string> tails = {"", ",", " loss", "]", "s", "/5004]", "\n"};
    int checked = 0;
    for (int intDigits = 0; intDigits <= 20; ++intDigits) {
        for (int fracDigits = -1; fracDigits <= 20; ++fracDigits) {
            if (intDigits == 0 && fracDigits <= 0) continue;
            for (int rep = 0; rep < 6; ++rep) {
                std::string number = (rep % 3 == 0 ? "-" : "") + digits(intDigits);
                if (fracDigits >= 0) number += "." + digits(fracDigits);
                if (rep == 5) number += "e-" + std::to_string(rng() % 30);
                const std::string& tail = tails[static_cast<size_t>(rep + intDigits) % tails.size()];
                const Parsed p = parseExact(number + tail);
                ASSERT_TRUE(p.ok) << number + tail;
                EXPECT_EQ(p.length, number.size()) << number + tail;
                EXPECT_EQ(p.value, std::strtod(number.c_str(), nullptr)) << number;
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 2500);
}

// Python's repr and %.17g print 16 to 19 digits: the extended-precision division must round
// like strtod, also for the decimals nearest a midpoint between two doubles (the hard cases).
TEST(ParseNumber, LongDecimalsRoundLikeStrtod)
{
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<std::string> numbers;
    char buf[64];
    for (int i = 0; i < 200000; ++i) {
        const double d = i % 3 == 0 ? unit(rng) : i % 3 == 1 ? unit(rng) * 10 : std::exp(unit(rng) * 30 - 15);
        auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);  // shortest round trip
        numbers.emplace_back(buf, r.ptr);
        // the decimals of 17 and 19 significant digits nearest the midpoint above d
        const double mid = d + (std::nextafter(d, 2 * d + 1) - d) / 2;
        for (int digits : {17, 19}) {
            std::snprintf(buf, sizeof buf, "%.*f",
                          std::max(0, digits - 1 - static_cast<int>(std::floor(std::log10(mid)))), mid);
            numbers.emplace_back(buf);
        }
    }
    // integers past 2^53, halfway ones among them (2^53 + 1 rounds to even)
    for (uint64_t k = 0; k < 2000; ++k) numbers.push_back(std::to_string((uint64_t{1} << 53) + k * 3 + 1));
    numbers.push_back("9999999999999999999");
    int longOnes = 0;
    for (const std::string& n : numbers) {
        const Parsed p = parseExact(n + ",");
        ASSERT_TRUE(p.ok) << n;
        ASSERT_EQ(p.length, n.size()) << n;
        const double want = std::strtod(n.c_str(), nullptr);
        ASSERT_EQ(std::memcmp(&p.value, &want, sizeof want), 0)
            << n << " read " << p.value << " strtod " << want;
        const size_t sig = static_cast<size_t>(
            std::count_if(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; }));
        longOnes += sig > 15 && sig <= 19;
    }
    EXPECT_GT(longOnes, 400000);
}

TEST(ParseNumber, SpecialValuesAndNonNumbers)
{
    EXPECT_TRUE(std::isnan(parseExact("nan").value));
    EXPECT_TRUE(std::isnan(parseExact("NaN,").value));
    EXPECT_EQ(parseExact("inf").value, INFINITY);
    EXPECT_EQ(parseExact("-inf]").value, -INFINITY);
    EXPECT_EQ(parseExact("+2.5E-1").value, 0.25);
    EXPECT_EQ(parseExact("12345678").value, 12345678.0);  // exactly one word of digits
    EXPECT_EQ(parseExact("123456789012").value, 123456789012.0);
    EXPECT_EQ(parseExact("0.100000000").length, 11u);
    EXPECT_EQ(parseExact("1.").value, 1.0);
    EXPECT_EQ(parseExact(".5").value, 0.5);
    EXPECT_FALSE(parseExact("").ok);
    EXPECT_FALSE(parseExact("-").ok);
    EXPECT_FALSE(parseExact("abc").ok);
    EXPECT_FALSE(parseExact(",1").ok);
}

TEST(ParseTimestamp, FractionDigitsAndReuseOfTheSecond)
{
    size_t used = 0;
    double whole = 0;
    const auto t = parseTimestamp("2026-11-01 08:00:00,123 - INFO", &used, &whole);
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(used, 23u);
    EXPECT_DOUBLE_EQ(whole, 1793520000.0);
    EXPECT_DOUBLE_EQ(*t, 1793520000.123);
    const auto again = parseTimestamp("2026-11-01 08:00:00.5", &used, &whole, true);
    EXPECT_DOUBLE_EQ(*again, 1793520000.5);
    EXPECT_DOUBLE_EQ(*parseTimestamp("[2026-11-01T08:00:01]", &used), 1793520001.0);
    EXPECT_EQ(used, 21u);
    EXPECT_FALSE(parseTimestamp("2026-11-01 8:00:00", &used).has_value());
}

}  // namespace
}  // namespace qatdoctor::core::logs
