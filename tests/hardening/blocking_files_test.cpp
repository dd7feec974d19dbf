// Files that block or never end (a FIFO named like a log, a link to /proc/kmsg, a FIFO given as
// the input or as a session file) are listed as skipped with the reason, never opened for a
// blocking read; a folder scan stopped by its entry limit says so. Each case hung or lost data
// without a word before.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>

#include "core/analysis.h"
#include "core/common/file_io.h"
#include "core/logs/log_reader.h"
#include "tests/hardening/hardening_util.h"

namespace qatdoctor::test {
namespace {

const core::Warning* warningFor(const std::vector<core::Warning>& warnings, const std::string& file)
{
    for (const core::Warning& w : warnings)
        if (w.file == file) return &w;
    return nullptr;
}

void writeLog(const std::string& path)
{
    writeBytes(path,
               "Epoch[0] Step[1] GlobalStep[1] qat_train: loss[0.5]\nEpoch[0] Step[2] GlobalStep[2] "
               "qat_train: loss[0.4]\n");
}

TEST(BlockingFiles, AFifoOrAKernelFileNamedLikeALogIsSkippedWithTheReason)
{
    TempDir dir("blocking");
    fs::create_directories(dir.path() / "qat");
    writeLog(dir / "qat/train.log");
    const std::string fifo = dir / "qat/pipe.log";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string kmsg = dir / "qat/kmsg.log";
    fs::create_symlink("/proc/kmsg", kmsg);
    const auto start = std::chrono::steady_clock::now();
    auto set = core::logs::readLogFolder(dir.path().string());
    ASSERT_TRUE(set) << set.error().toString();
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));  // no hang
    ASSERT_EQ(set->runs.size(), 1u);
    const core::Warning* w = warningFor(set->warnings, fifo);
    ASSERT_NE(w, nullptr);
    EXPECT_NE(w->message.find("not a regular file"), std::string::npos) << w->message;
    ASSERT_NE(warningFor(set->warnings, kmsg), nullptr);  // blocks, or not readable: either way said
}

TEST(BlockingFiles, AFifoGivenAsTheInputOrReadAsAFileIsRefused)
{
    TempDir dir("fifo_input");
    const std::string fifo = dir / "train.log";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto read = core::readFile(fifo, 1 << 20);
    ASSERT_FALSE(read);
    EXPECT_EQ(read.error().code, "io.not_regular");
    core::AnalyzeOptions options;
    options.paths = {fifo};
    auto a = core::analyze(options);
    ASSERT_FALSE(a);
    EXPECT_NE(a.error().message.find(fifo), std::string::npos) << a.error().message;
}

TEST(BlockingFiles, AScanStoppedByItsEntryLimitSaysSo)
{
    TempDir dir("capped");
    writeLog(dir / "train.log");
    fs::create_directories(dir.path() / "many");
    for (int i = 0; i < 5001; ++i) writeBytes(dir / ("many/f" + std::to_string(i) + ".txt"), "x");
    auto set = core::logs::readLogFolder(dir.path().string());
    ASSERT_TRUE(set) << set.error().toString();
    const core::Warning* w = warningFor(set->warnings, dir.path().string());
    ASSERT_NE(w, nullptr);
    EXPECT_NE(w->message.find("stopped after 5000 entries"), std::string::npos) << w->message;
}

TEST(BlockingFiles, AnUnreadableFolderIsNamed)
{
    if (::geteuid() == 0) GTEST_SKIP() << "root reads every folder";
    TempDir dir("unreadable");
    writeLog(dir / "train.log");
    fs::create_directories(dir.path() / "locked");
    writeLog(dir / "locked/train.log");
    fs::permissions(dir.path() / "locked", fs::perms::none);
    auto set = core::logs::readLogFolder(dir.path().string());
    fs::permissions(dir.path() / "locked", fs::perms::owner_all);
    ASSERT_TRUE(set) << set.error().toString();
    EXPECT_NE(warningFor(set->warnings, dir / "locked"), nullptr);
}

}  // namespace
}  // namespace qatdoctor::test
