// LineShape reads a line of the previous line's exact shape word by word: it must give the
// values parseNumber gives, refuse every other shape, and the parsers that use it must read logs
// whose widths change (a step gaining a digit, a loss crossing 10) exactly.
#include "core/logs/line_shape.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/logs/log_reader.h"
#include "core/logs/scan_util.h"

namespace qatdoctor::core::logs {
namespace {

// The spans of the numbers parseNumber finds after each ": " or "[" or "," (enough for these lines).
std::vector<NumberSpan> spansOf(const std::string& line)
{
    std::vector<NumberSpan> spans;
    const char* p = line.data();
    const char* e = p + line.size();
    for (const char* q = p; q < e; ++q) {
        if (!(isDigit(*q) || *q == '-' || *q == '.') ||
            (q > p && (isDigit(q[-1]) || q[-1] == '.' || isAlpha(q[-1]))))
            continue;
        double v;
        if (const char* r = parseNumber(q, e, v)) {
            spans.push_back({q, r, false});
            q = r - 1;
        }
    }
    return spans;
}

// The line in a buffer with LineShape::kReadPast bytes after it (as a parser guarantees).
struct Padded {
    std::string bytes;
    const char* begin() const { return bytes.data(); }
    const char* end() const { return bytes.data() + bytes.size() - LineShape::kReadPast; }
};
Padded padded(const std::string& line)
{
    return {line + std::string(LineShape::kReadPast, '\n')};
}

TEST(LineShape, SameShapeGivesParseNumbersValues)
{
    std::mt19937 rng(3);
    auto digits = [&](int n) {
        std::string s;
        for (int i = 0; i < n; ++i) s += static_cast<char>('0' + rng() % 10);
        return s;
    };
    const std::string first =
        "Epoch [1/200] Step [12/5004] loss: 6.8836 lr: -0.100000 acc: 0.0149 t: 12345678";
    LineShape shape;
    ASSERT_TRUE(shape.build(first.data(), first.data() + first.size(), spansOf(first)));
    for (int i = 0; i < 500; ++i) {
        const std::string line = "Epoch [" + digits(1) + "/" + digits(3) + "] Step [" + digits(2) + "/" +
                                 digits(4) + "] loss: " + digits(1) + "." + digits(4) + " lr: -" + digits(1) +
                                 "." + digits(6) + " acc: " + digits(1) + "." + digits(4) +
                                 " t: " + digits(8);
        const Padded b = padded(line);
        double values[8];
        ASSERT_TRUE(shape.match(b.begin(), b.end(), values)) << line;
        const std::vector<NumberSpan> spans = spansOf(line);
        ASSERT_EQ(spans.size(), 8u);
        for (size_t k = 0; k < spans.size(); ++k) {
            double expected;
            parseNumber(spans[k].begin, spans[k].end, expected);
            EXPECT_EQ(values[k], expected) << line << " #" << k;
        }
    }
}

TEST(LineShape, OtherShapesAreRefused)
{
    const std::string first = "step: 120 loss: 0.5000,acc=0.25";
    LineShape shape;
    ASSERT_TRUE(shape.build(first.data(), first.data() + first.size(), spansOf(first)));
    double values[3];
    for (const char* other : {"step: 1200 loss: 0.5000,acc=0.25",    // a wider number
                              "step: 120 loss: 0.500,acc=0.250",     // same length, digits moved
                              "step: 120 Loss: 0.5000,acc=0.25",     // a letter changed
                              "step: 12a loss: 0.5000,acc=0.25",     // a digit became a letter
                              "step: 120 loss: 0.5000,acc=0.2",      // shorter
                              "step: 120 loss: -.5000,acc=0.25"}) {  // a sign where a digit was
        const Padded b = padded(other);
        EXPECT_FALSE(shape.match(b.begin(), b.end(), values)) << other;
    }
    const Padded same = padded("step: 999 loss: 1.2500,acc=0.75");
    ASSERT_TRUE(shape.match(same.begin(), same.end(), values));
    EXPECT_EQ(values[0], 999);
    EXPECT_EQ(values[1], 1.25);
    EXPECT_EQ(values[2], 0.75);
    // numbers parseNumber's fast path does not read are never shaped
    for (const std::string line :
         {"lr: 1e-3 x", "lr: 0.0009999999999975326", "step: 123456789 a", "lr: 1.5.2"}) {
        std::vector<NumberSpan> spans = spansOf(line);
        if (line == "lr: 1e-3 x")
            spans = {{line.data() + 4, line.data() + 5, false}};  // "1" before an exponent
        EXPECT_FALSE(shape.build(line.data(), line.data() + line.size(), spans)) << line;
    }
}

// Widths that change every few lines, through the text and the CSV parser (both use shapes):
// every value must be what strtod makes of the text.
TEST(LineShape, LogsWithChangingWidthsParseExactly)
{
    std::mt19937 rng(11);
    std::string text, csv = "step,loss,lr\n";
    std::vector<double> loss, lr;
    for (int i = 0; i < 3000; ++i) {
        char a[32], b[32];
        const double l = (rng() % 2000) / 100.0 + (i % 50 == 0 ? 100 : 0);  // 0.00 .. 119.99
        std::snprintf(a, sizeof a, (i / 200) % 2 ? "%.4f" : "%.6f", l);
        std::snprintf(b, sizeof b, "%.*f", 1 + (i / 300) % 8, 0.1 / (1 + i));
        loss.push_back(std::strtod(a, nullptr));
        lr.push_back(std::strtod(b, nullptr));
        text += "2026-11-01 08:00:00,000 - INFO - Step [" + std::to_string(i) + "/3000] loss: " + a +
                " lr: " + b + "\n";
        csv += std::to_string(i) + "," + a + "," + b + "\n";
    }
    for (const auto& [format, bytes] : {std::pair<const char*, std::string>{"text", text}, {"csv", csv}}) {
        auto parsed = parseLogBytes(*findLogFormat(format), bytes, "w", {}, 1);
        ASSERT_TRUE(parsed.ok()) << format;
        ASSERT_EQ(parsed->names, (std::vector<std::string>{"loss", "lr"})) << format;
        ASSERT_EQ(parsed->series[0].size(), 3000u) << format;
        for (size_t i = 0; i < 3000; ++i) {
            ASSERT_EQ(parsed->series[0].value[i], static_cast<float>(loss[i])) << format << " line " << i;
            ASSERT_EQ(parsed->series[1].value[i], static_cast<float>(lr[i])) << format << " line " << i;
        }
        EXPECT_EQ(parsed->series[0].step[2999], 2999) << format;
    }
}

// The AVX-512 reader (when this CPU has it) and the portable one agree bit for bit on lines of
// every length up to and past the 128 bytes the former takes, with up to 16 numbers of every
// width and sign, and both refuse the same changed lines.
TEST(LineShape, SimdAndPortableReadersAgree)
{
    if (!SimdLineShape::available()) GTEST_SKIP() << "no AVX-512 VBMI on this CPU";
    std::mt19937 rng(29);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    int simdLines = 0;
    for (int round = 0; round < 400; ++round) {
        // a template: words, then numbers of fixed widths and signs between them
        struct Width {
            int intLen, fracLen;
            bool negative;
        };
        std::vector<std::string> words;
        std::vector<Width> widths;
        const int numbers = pick(17);
        for (int k = 0; k <= numbers; ++k) {
            // (a word never starts with 'e': the number before it would have an exponent)
            words.push_back(
                " " + std::string(static_cast<size_t>(pick(9)), static_cast<char>('f' + pick(20))) + " ");
            if (k == numbers) break;
            Width w{pick(9), pick(9), pick(4) == 0};
            if (w.intLen == 0 && w.fracLen == 0) w.intLen = 1;
            while (w.intLen + w.fracLen > 15) --w.fracLen;
            widths.push_back(w);
        }
        auto makeLine = [&] {
            std::string line;
            for (size_t k = 0; k < widths.size(); ++k) {
                line += words[k];
                if (widths[k].negative) line += '-';
                for (int i = 0; i < widths[k].intLen; ++i) line += static_cast<char>('0' + pick(10));
                if (widths[k].fracLen) line += '.';
                for (int i = 0; i < widths[k].fracLen; ++i) line += static_cast<char>('0' + pick(10));
            }
            return line + words.back();
        };
        const std::string first = makeLine();
        std::vector<NumberSpan> spans;
        {
            const char* q = first.data();
            for (size_t k = 0; k < widths.size(); ++k) {
                q += words[k].size();
                double v;
                const char* r = parseNumber(q, first.data() + first.size(), v);
                ASSERT_NE(r, nullptr) << first;
                spans.push_back({q, r, false});
                q = r;
            }
        }
        LineShape fast, portable(ShapeKernel::Portable);
        ASSERT_TRUE(fast.build(first.data(), first.data() + first.size(), spans)) << first;
        ASSERT_TRUE(portable.build(first.data(), first.data() + first.size(), spans)) << first;
        EXPECT_FALSE(portable.usesSimd());
        EXPECT_EQ(fast.usesSimd(), first.size() <= SimdLineShape::kMaxBytes) << first.size();
        simdLines += fast.usesSimd();
        for (int i = 0; i < 20; ++i) {
            std::string line = makeLine();
            if (i % 4 == 3) {  // change one byte: a digit to a letter, or a fixed byte
                const size_t at = static_cast<size_t>(pick(static_cast<int>(line.size())));
                line[at] = isDigit(line[at]) ? 'x' : static_cast<char>(line[at] == '-' ? '1' : line[at] ^ 1);
            }
            const Padded b = padded(line);
            double a[16], c[16];
            std::memset(a, 0, sizeof a);
            std::memset(c, 0, sizeof c);
            const bool fastMatched = fast.match(b.begin(), b.end(), a);
            ASSERT_EQ(fastMatched, portable.match(b.begin(), b.end(), c)) << line;
            if (i % 4 != 3) ASSERT_TRUE(fastMatched) << line;
            if (fastMatched) EXPECT_EQ(std::memcmp(a, c, sizeof a), 0) << line;
        }
    }
    EXPECT_GT(simdLines, 100);  // both kinds of line were seen
    EXPECT_LT(simdLines, 350);
}

}  // namespace
}  // namespace qatdoctor::core::logs
