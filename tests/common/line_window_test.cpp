// The source view's reading: the lines around an evidence line, on real files written here.
#include "core/common/line_window.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace qatdoctor::core {
namespace {

namespace fs = std::filesystem;

std::string writeLog(const std::string& name, const std::string& text)
{
    const fs::path p = fs::temp_directory_path() / ("qatdoctor_line_window_" + name);
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
}

TEST(LineWindow, TheLinesAroundOneLine)
{
    std::string text;
    for (int i = 1; i <= 1000; ++i) text += "Epoch[0] Step[" + std::to_string(i) + "] loss[0.5]\r\n";
    const std::string path = writeLog("crlf.log", text);
    const Result<LineWindow> w = readLineWindow(path, 500, 3);
    ASSERT_TRUE(w.ok()) << w.error().toString();
    EXPECT_EQ(w->firstLine, 497);
    ASSERT_EQ(w->lines.size(), 7u);
    EXPECT_EQ(w->lines[3], "Epoch[0] Step[500] loss[0.5]");  // line end stripped
    EXPECT_FALSE(w->reachedEnd);

    const Result<LineWindow> start = readLineWindow(path, 2, 5);
    ASSERT_TRUE(start.ok());
    EXPECT_EQ(start->firstLine, 1);
    EXPECT_EQ(start->lines.size(), 7u);
    const Result<LineWindow> end = readLineWindow(path, 999, 5);
    ASSERT_TRUE(end.ok());
    EXPECT_EQ(end->lines.back(), "Epoch[0] Step[1000] loss[0.5]");
    EXPECT_TRUE(end->reachedEnd);
    fs::remove(path);
}

TEST(LineWindow, LongLinesAreCutAndTheEndIsSaid)
{
    const std::string path =
        writeLog("long.log", "short\n" + std::string(10000, 'x') + "\nlast without newline");
    const Result<LineWindow> w = readLineWindow(path, 2, 10);
    ASSERT_TRUE(w.ok());
    ASSERT_EQ(w->lines.size(), 3u);
    EXPECT_EQ(w->lines[1].substr(0, kLineWindowMaxLineBytes), std::string(kLineWindowMaxLineBytes, 'x'));
    EXPECT_NE(w->lines[1].find("5904 more bytes"), std::string::npos) << w->lines[1].substr(4090);
    EXPECT_EQ(w->lines[2], "last without newline");

    const Result<LineWindow> past = readLineWindow(path, 40, 10);
    ASSERT_FALSE(past.ok());
    EXPECT_EQ(past.error().code, "source.past_end");
    EXPECT_NE(past.error().message.find("has 3 lines"), std::string::npos) << past.error().message;
    fs::remove(path);

    const Result<LineWindow> missing = readLineWindow(path, 1, 10);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, "io.open");
    EXPECT_NE(missing.error().message.find(path), std::string::npos);
}

}  // namespace
}  // namespace qatdoctor::core
