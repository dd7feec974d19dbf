// The number reader every line parser uses: its inline fast path (word-at-a-time digits, one
// division) must give the correctly rounded double strtod gives, stop exactly where the number
// ends, and never read past the end of its bytes (each case sits in a buffer of its exact size,
// so the sanitizer build catches an over-read).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/logs/scan_util.h"

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

TEST(ParseNumber, SpecialValuesAndNonNumbers)
{
    EXPECT_TRUE(std::isnan(parseExact("nan").value));
    EXPECT_TRUE(std::isnan(parseExact("NaN,").value));
    EXPECT_EQ(parseExact("inf").value, INFINITY);
    EXPECT_EQ(parseExact("-inf]").value, -INFINITY);
    EXPECT_EQ(parseExact("+2.5E-1").value, 0.25);
    EXPECT_EQ(parseExact("12345678").value, 12345678.0);      // exactly one word of digits
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
