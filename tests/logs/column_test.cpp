// Column: the shared step and line buffers of the metrics of one line, and that every parser
// shares them (one copy of a row's step for all its metrics) without changing a single value.
#include "core/logs/column.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "core/logs/log_reader.h"
#include "core/logs/parsed_log.h"
#include "core/logs/run.h"

using namespace qatdoctor::core::logs;

namespace {

std::vector<double> values(const Column<double>& c)
{
    return {c.begin(), c.end()};
}

}  // namespace

TEST(Column, AColumnThatAdoptsABufferSeesOnlyWhatItAppended)
{
    Column<double> a{1, 2, 3};
    Column<double> b;
    b.adopt(a);
    EXPECT_TRUE(b.empty());
    EXPECT_EQ(a.sharers(), 2);
    b.push_back(1);
    b.push_back(2);  // the buffer's next elements: only b's end moves
    EXPECT_TRUE(b.sharesWith(a));
    EXPECT_EQ(values(b), (std::vector<double>{1, 2}));
    EXPECT_EQ(a.bufferSize(), 3u);
    b.push_back(7);  // differs from the buffer's 3: b copies its two elements and goes its own way
    EXPECT_FALSE(b.sharesWith(a));
    EXPECT_EQ(values(b), (std::vector<double>{1, 2, 7}));
    EXPECT_EQ(values(a), (std::vector<double>{1, 2, 3}));
}

TEST(Column, AColumnAtTheEndOfASharedBufferExtendsItForTheOthersToMatch)
{
    Column<double> a{1};
    Column<double> b;
    b.adopt(a);
    b.push_back(1);
    b.append(std::vector<double>{2, 3}.data(), 2);  // b is at the end: the buffer grows
    EXPECT_EQ(a.size(), 1u);
    EXPECT_EQ(b.bufferSize(), 3u);
    a.append(std::vector<double>{2, 3}.data(), 2);  // a matches what b wrote
    EXPECT_TRUE(a.sharesWith(b));
    EXPECT_EQ(values(a), (std::vector<double>{1, 2, 3}));
    a.appendFrom(b, 3, 0);
    b.push_back(4);
    a.appendFrom(b, 3, 1);  // a ends where b's element 3 is: nothing to copy
    EXPECT_TRUE(a.sharesWith(b));
    EXPECT_EQ(values(a), (std::vector<double>{1, 2, 3, 4}));
}

TEST(Column, AppendingAColumnThatSharesTheBuffer)
{
    Column<double> a{1, 2, 3};
    Column<double> b;
    b.adopt(a);
    b.append(a);  // a's elements are b's next ones: nothing copied
    EXPECT_TRUE(b.sharesWith(a));
    EXPECT_EQ(values(b), (std::vector<double>{1, 2, 3}));
    a.append(a);  // from the buffer a grows (and may move): copied first
    EXPECT_EQ(values(a), (std::vector<double>{1, 2, 3, 1, 2, 3}));
    EXPECT_EQ(values(b), (std::vector<double>{1, 2, 3}));
}

TEST(Column, SameBitsNotEqualValuesDecideSharing)
{
    Column<double> a{0.0, NAN};
    Column<double> b;
    b.adopt(a);
    b.push_back(-0.0);  // == 0.0, but another value: b must not read back +0
    EXPECT_FALSE(b.sharesWith(a));
    EXPECT_TRUE(std::signbit(b[0]));
    Column<double> c;
    c.adopt(a);
    c.push_back(0.0);
    c.push_back(NAN);  // the same NaN bits: shared
    EXPECT_TRUE(c.sharesWith(a));
    EXPECT_TRUE(std::isnan(c[1]));
}

TEST(Column, CopiesAreDeepAndSetCopiesASharedBufferFirst)
{
    Column<uint32_t> a{5, 6, 7};
    Column<uint32_t> b;
    b.adopt(a);
    for (uint32_t v : {5u, 6u, 7u}) b.push_back(v);
    const Column<uint32_t> copy = a;
    EXPECT_FALSE(copy.sharesWith(a));
    EXPECT_EQ(copy, a);
    b.set(1, 60);
    EXPECT_FALSE(b.sharesWith(a));
    EXPECT_EQ(a[1], 6u);
    EXPECT_EQ(b[1], 60u);
    Column<uint32_t> c;
    c.adopt(a);
    for (uint32_t v : {5u, 6u, 7u}) c.push_back(v);
    a.updateBuffer([](uint32_t& x) { x += 10; });  // every column on the buffer sees it
    EXPECT_EQ(c, (std::vector<uint32_t>{15, 16, 17}));
    EXPECT_EQ(copy, (std::vector<uint32_t>{5, 6, 7}));
    Column<uint32_t> moved = std::move(c);
    EXPECT_TRUE(moved.sharesWith(a));
    EXPECT_TRUE(c.empty());  // NOLINT(bugprone-use-after-move): a moved-from column is empty
}

namespace {

// rows of `step,epoch,loss,acc,lr`, and a validation line every 50 rows in the text and JSONL
std::string makeLog(const std::string& format, int rows)
{
    std::string out = format == "csv" ? "step,epoch,loss,acc,lr\n" : "";
    for (int i = 0; i < rows; ++i) {
        const std::string step = std::to_string(i), loss = std::to_string(2.0 / (1 + i % 977));
        const std::string acc = std::to_string((i % 1000) * 0.001), lr = std::to_string(0.1 - i * 1e-7);
        if (format == "csv")
            out += step + "," + std::to_string(i / 500) + "," + loss + "," + acc + "," + lr + "\n";
        if (format == "text")
            out += "Epoch[" + std::to_string(i / 500) + "] Step[" + step + "] GlobalStep[" + step +
                   "] loss[" + loss + "] acc[" + acc + "] lr=" + lr + "\n";
        if (format == "jsonl")
            out += R"({"step": )" + step + R"(, "epoch": )" + std::to_string(i / 500) + R"(, "loss": )" +
                   loss + R"(, "acc": )" + acc + R"(, "lr": )" + lr + "}\n";
        if (i % 50 == 49 && format == "text")
            out += "Epoch[" + std::to_string(i / 500) + "] GlobalStep[" + step + "] val_acc[0.5]\n";
        if (i % 50 == 49 && format == "jsonl") out += R"({"step": )" + step + R"(, "val_acc": 0.5})" + "\n";
    }
    return out;
}

}  // namespace

TEST(Column, TheMetricsOfOneLineShareTheirStepsAndLinesInEveryLineFormat)
{
    constexpr int kRows = 60000;  // ~2.5 MB: two threads split it
    for (const std::string format : {"csv", "text", "jsonl"}) {
        const std::string bytes = makeLog(format, kRows);
        for (unsigned threads : {1u, 2u}) {
            const std::string what = format + " on " + std::to_string(threads) + " thread(s)";
            auto parsed = parseLogBytes(*findLogFormat(format), bytes, "log." + format, {}, threads);
            ASSERT_TRUE(parsed.ok()) << what;
            for (Series& s : parsed->series) s.shrinkToFit();  // what the reader does
            const Series* loss = nullptr;
            std::vector<const Series*> rowMetrics;
            const Series* val = nullptr;
            for (size_t i = 0; i < parsed->names.size(); ++i) {
                const std::string& n = parsed->names[i];
                if (n == "loss" || n == "acc" || n == "lr") rowMetrics.push_back(&parsed->series[i]);
                if (n == "loss") loss = &parsed->series[i];
                if (n.find("val") != std::string::npos) val = &parsed->series[i];
            }
            ASSERT_EQ(rowMetrics.size(), 3u) << what;
            ASSERT_NE(loss, nullptr) << what;
            size_t bytesOfThree = 0;
            for (const Series* s : rowMetrics) {
                ASSERT_EQ(s->size(), static_cast<size_t>(kRows)) << what;
                EXPECT_TRUE(s->step.sharesWith(loss->step)) << what;
                EXPECT_TRUE(s->line.sharesWith(loss->line)) << what;
                bytesOfThree += s->bytes();
            }
            // 8 (step) + 4 (line) per row, + 4 per value: 24 bytes for the row's three points
            EXPECT_LT(static_cast<double>(bytesOfThree) / (3.0 * kRows), 8.2) << what;
            const uint32_t linesPerRow = 1, header = format == "csv" ? 1 : 0;
            for (size_t r = 0; r < kRows; r += 997) {
                EXPECT_EQ(loss->step[r], static_cast<double>(r)) << what;
                // text and JSONL: a validation line after every 50 rows
                const uint32_t extra = format == "csv" ? 0 : static_cast<uint32_t>(r / 50);
                EXPECT_EQ(loss->line[r], header + linesPerRow * static_cast<uint32_t>(r) + 1 + extra)
                    << what << " row " << r;
                EXPECT_EQ(loss->value[r], static_cast<float>(std::stod(std::to_string(2.0 / (1 + r % 977)))))
                    << what;
            }
            if (format != "csv") {
                ASSERT_NE(val, nullptr) << what;
                ASSERT_EQ(val->size(), static_cast<size_t>(kRows / 50)) << what;
                EXPECT_FALSE(val->step.sharesWith(loss->step)) << what;
                EXPECT_EQ(val->step[0], 49.0) << what;
                EXPECT_EQ(val->line[0], 51u) << what;
                EXPECT_EQ(val->step.back(), kRows - 1.0) << what;
            }
        }
    }
}
