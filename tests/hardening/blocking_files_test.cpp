// Files that block or never end (a FIFO named like a log, a link to /proc/kmsg, a FIFO given as
// the input or as a session file) are listed as skipped with the reason, never opened for a
// blocking read; a folder scan stopped by its entry limit says so. Each case hung or lost data
// without a word before.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <string>

#include "core/analysis.h"
#include "core/common/file_io.h"
#include "core/logs/log_reader.h"
#include "core/logs/log_tailer.h"
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

// Runs check as an unprivileged user: root reads every file whatever its permissions, so under
// root (CI's containers) the check runs in a child process that gave up root first. Returns
// check's failure ("" = passed).
std::string asUnprivileged(const std::function<std::string()>& check)
{
    if (::geteuid() != 0) return check();
    int fds[2];
    if (::pipe(fds) != 0) return "pipe failed";
    const pid_t child = ::fork();
    if (child == 0) {
        ::close(fds[0]);
        std::string failure = ::setgid(65534) != 0 || ::setuid(65534) != 0 ? "cannot drop root" : check();
        if (::write(fds[1], failure.data(), failure.size()) < 0) failure = "?";
        ::_exit(failure.empty() ? 0 : 1);
    }
    ::close(fds[1]);
    std::string failure;
    char buffer[512];
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;)
        failure.append(buffer, static_cast<size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (failure.empty() && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        failure = "the check's process failed";
    return failure;
}

// A folder and everything in it readable by the unprivileged user of asUnprivileged.
void shareWithEveryone(const fs::path& root)
{
    fs::permissions(root, fs::perms::all);
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        fs::permissions(e.path(), fs::perms::all);
        if (::geteuid() == 0 && ::chown(e.path().c_str(), 65534, 65534) != 0) ADD_FAILURE() << "chown";
    }
    if (::geteuid() == 0 && ::chown(root.c_str(), 65534, 65534) != 0) ADD_FAILURE() << "chown";
}

TEST(BlockingFiles, AnUnreadableFolderIsNamed)
{
    TempDir dir("unreadable");
    writeLog(dir / "train.log");
    fs::create_directories(dir.path() / "locked");
    writeLog(dir / "locked/train.log");
    shareWithEveryone(dir.path());
    fs::permissions(dir.path() / "locked", fs::perms::none);
    const std::string failure = asUnprivileged([&]() -> std::string {
        auto set = core::logs::readLogFolder(dir.path().string());
        if (!set) return set.error().toString();
        return warningFor(set->warnings, dir / "locked") ? "" : "no warning names the locked folder";
    });
    fs::permissions(dir.path() / "locked", fs::perms::owner_all);
    EXPECT_EQ(failure, "");
}

// #48 item 14: a folder the user cannot list says "permission denied" with its path; a project
// whose only logs sit in such a folder says why nothing was found.
TEST(BlockingFiles, AnUnlistableFolderSaysPermissionDenied)
{
    TempDir dir("unlistable");
    fs::create_directories(dir.path() / "run/locked");
    writeLog(dir / "run/locked/train.log");
    shareWithEveryone(dir.path());
    fs::permissions(dir.path() / "run/locked", fs::perms::none);
    const std::string failure = asUnprivileged([&]() -> std::string {
        core::AnalyzeOptions options;
        options.paths = {dir / "run/locked"};
        auto locked = core::analyze(options);
        if (locked) return "the locked folder was read";
        if (locked.error().message != dir / "run/locked" + ": permission denied: the folder cannot be listed")
            return locked.error().message;
        options.paths = {dir / "run"};
        auto run = core::analyze(options);
        if (run) return "a folder of nothing readable was read";
        if (run.error().message.find("permission denied on 1 folder: " + dir / "run/locked") ==
            std::string::npos)
            return run.error().message;
        return "";
    });
    fs::permissions(dir.path() / "run/locked", fs::perms::owner_all);
    EXPECT_EQ(failure, "");
}

// #48 item 14: a followed log whose permissions change under the watch is a notice, said while it
// lasts and gone when the log is readable again; the points read before are kept.
TEST(BlockingFiles, AWatchedLogMadeUnreadableIsSaid)
{
    TempDir dir("watch_unreadable");
    writeLog(dir / "train.log");
    shareWithEveryone(dir.path());
    const std::string failure = asUnprivileged([&]() -> std::string {
        core::logs::ReadOptions options;
        options.live = true;
        core::logs::LogTailer tailer(dir / "train.log", options);
        if (!tailer.poll()) return "first poll failed";
        fs::permissions(dir.path() / "train.log", fs::perms::none);
        if (!tailer.poll()) return "poll of the unreadable log failed";
        const core::Warning* w = warningFor(tailer.logSet().warnings, dir / "train.log");
        if (!w || w->message.find("permission denied") == std::string::npos) return "no notice";
        if (tailer.logSet().runs.size() != 1 || tailer.logSet().runs[0].series.at("loss").value.size() != 2)
            return "the points read before were lost";
        fs::permissions(dir.path() / "train.log", fs::perms::owner_read | fs::perms::owner_write);
        if (!tailer.poll()) return "poll after the fix failed";
        if (warningFor(tailer.logSet().warnings, dir / "train.log")) return "the notice stayed";
        return "";
    });
    EXPECT_EQ(failure, "");
}

}  // namespace
}  // namespace qatdoctor::test
