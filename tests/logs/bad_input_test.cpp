// Damaged inputs (tests/data/logs_bad): each becomes a warning naming the file and the line or
// byte offset; the good parts are still read.
#include <chrono>
#include <cmath>

#include "core/common/progress.h"
#include "tests/logs/test_util.h"

namespace qatdoctor::core::logs::test {
namespace {

// The warnings of one damaged file, read on its own.
LogSet readBad(const std::string& name)
{
    return readOne("logs_bad/" + name);
}

const Warning* warningWithCode(const LogSet& set, const std::string& code)
{
    for (const Warning& w : set.warnings)
        if (w.code == code) return &w;
    ADD_FAILURE() << "no warning " << code;
    return nullptr;
}

TEST(BadInput, BinaryJunk)
{
    const LogSet set = readBad("binary_junk.log");
    const Warning* w = warningWithCode(set, "logs.binary");
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->line, 6);
    EXPECT_NE(w->toString().find("binary_junk.log:6"), std::string::npos);
    const Series& loss = seriesOf(set.runs.at(0), "loss");
    EXPECT_EQ(loss.size(), 6u);  // five before, one after the junk
    EXPECT_EQ(loss.step.back(), 9);
}

TEST(BadInput, PartialLastLine)
{
    const LogSet set = readBad("partial_last_line.log");
    const Warning* w = warningWithCode(set, "logs.partial_line");
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->line, 6);
    EXPECT_EQ(seriesOf(set.runs.at(0), "loss").size(), 5u);  // "loss[0.4" is not read as 0.4
}

TEST(BadInput, InvalidUtf8)
{
    const LogSet set = readBad("invalid_utf8.log");
    const Warning* w = warningWithCode(set, "logs.invalid_utf8");
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->line, 6);
    EXPECT_EQ(seriesOf(set.runs.at(0), "loss").size(), 6u);  // the line is still read
}

TEST(BadInput, GiganticLine)
{
    const LogSet set = readBad("gigantic_line.log");
    const Warning* w = warningWithCode(set, "logs.long_line");
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->line, 6);
    const Series& loss = seriesOf(set.runs.at(0), "loss");
    EXPECT_EQ(loss.size(), 6u);
    EXPECT_EQ(loss.sourceAt(5).lineOrRecord, 7u);
}

TEST(BadInput, EmptyFile)
{
    auto set = readLogFile(fixture("logs_bad/empty.log"));
    // nothing to show, but not a crash: either no run or a run without series, and a warning
    if (set.ok()) {
        ASSERT_NE(warningWithCode(*set, "logs.empty"), nullptr);
    } else {
        EXPECT_NE(set.error().message.find("empty.log"), std::string::npos);
    }
}

TEST(BadInput, CsvRowsWithWrongFieldCount)
{
    const LogSet set = readBad("bad_rows.csv");
    int n = 0;
    for (const Warning& w : set.warnings)
        if (w.code == "logs.csv_columns") {
            ++n;
            EXPECT_TRUE(w.line == 3 || w.line == 5) << w.toString();
        }
    EXPECT_EQ(n, 2);
    const Series& loss = seriesOf(set.runs.at(0), "loss");
    ASSERT_EQ(loss.size(), 3u);
    EXPECT_EQ(loss.step.back(), 4);
}

TEST(BadInput, JsonlSyntaxErrors)
{
    const LogSet set = readBad("bad_lines.jsonl");
    int n = 0;
    for (const Warning& w : set.warnings)
        if (w.code == "logs.jsonl_syntax") ++n;
    EXPECT_EQ(n, 2);
    EXPECT_EQ(seriesOf(set.runs.at(0), "loss").size(), 2u);
}

TEST(BadInput, TfEventsCrcMismatchSkipsTheRecord)
{
    const LogSet set = readBad("events.out.tfevents.crc_mismatch");
    const Warning* w = warningWithCode(set, "logs.tfevents_crc");
    ASSERT_NE(w, nullptr);
    EXPECT_GT(w->offset, 0);
    EXPECT_NE(w->message.find("record 4"), std::string::npos) << w->message;
    const Series& loss = seriesOf(set.runs.at(0), "loss");
    ASSERT_EQ(loss.size(), 5u);  // 6 written, the one at step 2 skipped
    EXPECT_EQ(loss.step[2], 3);
}

TEST(BadInput, TfEventsTruncated)
{
    const LogSet set = readBad("events.out.tfevents.truncated");
    ASSERT_NE(warningWithCode(set, "logs.tfevents_truncated"), nullptr);
    EXPECT_EQ(seriesOf(set.runs.at(0), "loss").size(), 4u);  // the last record (and the CRC-bad one) lost
}

TEST(BadInput, WholeFolderNeverFails)
{
    auto set = readLogFolder(fixture("logs_bad"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    EXPECT_GE(set->warnings.size(), 9u);
    for (const Warning& w : set->warnings) EXPECT_FALSE(w.file.empty()) << w.toString();
}

TEST(BadInput, RandomBytesDoNotCrashAnyFormat)
{
    std::string junk;
    uint32_t x = 12345;
    for (int i = 0; i < 300000; ++i) {
        x = x * 1664525u + 1013904223u;
        junk += static_cast<char>(x >> 24);
    }
    for (const LogFormat& f : logFormats()) {
        auto r = parseLogBytes(f, junk, "junk.bin");
        EXPECT_TRUE(r.ok()) << f.id;
    }
}

TEST(BadInput, CancelReturnsCancelledAndNothing)
{
    int calls = 0;
    ProgressFn cancel = [&](double, std::string_view) { return ++calls < 1; };
    auto set = readLogFolder(fixture("logs/hat"), cancel);
    ASSERT_FALSE(set.ok());
    EXPECT_EQ(set.error().code, kCancelledCode);
}

}  // namespace
}  // namespace qatdoctor::core::logs::test
