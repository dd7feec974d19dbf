#include "core/common/file_io.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace qatdoctor::core;
namespace fs = std::filesystem;

namespace {
fs::path tempDir()
{
    fs::path d = fs::temp_directory_path() / ("qatdoctor_io_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
}
}  // namespace

TEST(FileIo, MissingFileErrorNamesPath)
{
    auto r = readFile("/nonexistent/dir/train.log");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, "io.open");
    EXPECT_NE(r.error().message.find("/nonexistent/dir/train.log"), std::string::npos);
}

TEST(FileIo, ReadLimitIsEnforced)
{
    const fs::path p = tempDir() / "big.txt";
    {
        std::ofstream(p) << std::string(1000, 'x');
    }
    auto r = readFile(p.string(), 100);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, "io.too_large");
    auto head = readFileHead(p.string(), 100);
    ASSERT_TRUE(head.ok());
    EXPECT_EQ(head->size(), 100u);
}

TEST(FileIo, AtomicWriteReplacesAndRefusesWhenAsked)
{
    const fs::path p = tempDir() / "report.html";
    ASSERT_TRUE(writeFileAtomic(p.string(), "first").ok());
    ASSERT_TRUE(writeFileAtomic(p.string(), "second").ok());
    EXPECT_EQ(*readFile(p.string()), "second");
    auto refused = writeFileAtomic(p.string(), "third", /*overwrite=*/false);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, "io.exists");
    EXPECT_EQ(*readFile(p.string()), "second");
    // No temp files left behind.
    int files = 0;
    for (auto& e : fs::directory_iterator(p.parent_path()))
        files += e.path().filename().string().rfind("report.html", 0) == 0;
    EXPECT_EQ(files, 1);
}

TEST(FileIo, UnwritableFolderIsAnError)
{
    auto r = writeFileAtomic("/proc/qatdoctor/x.pdf", "x");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, "io.write");
    EXPECT_NE(r.error().message.find("/proc/qatdoctor/x.pdf"), std::string::npos);
}
