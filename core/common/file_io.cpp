#include "core/common/file_io.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string_view>

namespace qatdoctor::core {
namespace {

std::string errnoText()
{
    return std::strerror(errno);
}

class Fd {
public:
    explicit Fd(int fd) : m_fd(fd) {}
    ~Fd()
    {
        if (m_fd >= 0) ::close(m_fd);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return m_fd; }
    int release()
    {
        int fd = m_fd;
        m_fd = -1;
        return fd;
    }

private:
    int m_fd;
};

Result<std::string> readUpTo(const std::string& path, uint64_t limit, bool failIfLarger)
{
    // O_NONBLOCK: opening a FIFO must not wait for a writer; only regular files are read (a
    // FIFO, a device or a socket can block forever or never end), and a file that would block
    // a read (/proc/kmsg) fails the read instead of hanging
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) return makeError("io.open", "cannot open " + path + ": " + errnoText(), path);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        return makeError("io.read", "cannot stat " + path + ": " + errnoText(), path);
    if (S_ISDIR(st.st_mode)) return makeError("io.open", path + " is a folder, not a file", path);
    if (!S_ISREG(st.st_mode))
        return makeError("io.not_regular",
                         path + " is not a regular file (a FIFO, device or socket): not read", path);
    if (failIfLarger && S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > limit)
        return makeError(
            "io.too_large",
            path + " is " + std::to_string(st.st_size) + " bytes, over the limit of " + std::to_string(limit),
            path);
    std::string data;
    if (S_ISREG(st.st_mode)) data.reserve(static_cast<size_t>(std::min<uint64_t>(st.st_size, limit)));
    char buf[1 << 16];
    while (data.size() < limit) {
        const size_t want = static_cast<size_t>(std::min<uint64_t>(sizeof buf, limit - data.size()));
        const ssize_t got = ::read(fd.get(), buf, want);
        if (got < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return makeError("io.read", path + " would block (a kernel or device file?): not read", path);
            return makeError("io.read", "cannot read " + path + ": " + errnoText(), path, 0,
                             static_cast<int64_t>(data.size()));
        }
        if (got == 0) break;
        data.append(buf, static_cast<size_t>(got));
    }
    return data;
}

// Temporaries of writeFileAtomic: ".qatdoctor-write-XXXXXX" in the target's folder.
constexpr std::string_view kTemporaryPrefix = ".qatdoctor-write-";
// One older than this is what a killed write left behind (no write takes that long).
constexpr time_t kStaleSeconds = 600;

std::string folderOf(const std::string& path)
{
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

void removeStaleTemporaries(const std::string& folder)
{
    DIR* dir = ::opendir(folder.c_str());
    if (!dir) return;
    const time_t now = ::time(nullptr);
    while (const dirent* e = ::readdir(dir)) {
        const std::string_view name(e->d_name);
        if (!name.starts_with(kTemporaryPrefix) || name.size() != kTemporaryPrefix.size() + 6) continue;
        const std::string full = folder + "/" + std::string(name);
        struct stat st {};
        if (::lstat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) && now - st.st_mtime > kStaleSeconds)
            ::unlink(full.c_str());
    }
    ::closedir(dir);
}

}  // namespace

Result<std::string> readFile(const std::string& path, uint64_t limit)
{
    return readUpTo(path, limit, true);
}

Result<std::string> readFileHead(const std::string& path, size_t maxBytes)
{
    return readUpTo(path, maxBytes, false);
}

Result<std::string> readFileRange(const std::string& path, uint64_t offset, size_t bytes)
{
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) return makeError("io.open", "cannot open " + path + ": " + errnoText(), path);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
        return makeError("io.not_regular", path + " is not a regular file: not read", path);
    std::string data(bytes, '\0');
    size_t done = 0;
    while (done < bytes) {
        const ssize_t got =
            ::pread(fd.get(), data.data() + done, bytes - done, static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0)
            return makeError("io.read",
                             path + ": cannot read " + std::to_string(bytes) + " bytes at offset " +
                                 std::to_string(offset) +
                                 (got == 0 ? ": the file ends first" : ": " + errnoText()),
                             path, 0, static_cast<int64_t>(offset + done));
        done += static_cast<size_t>(got);
    }
    return data;
}

Result<void> writeFileAtomic(const std::string& path, std::string_view data, bool overwrite)
{
    if (!overwrite && ::access(path.c_str(), F_OK) == 0)
        return makeError("io.exists", path + " already exists (not replaced)", path);
    // only a regular file (or a link to one) is ever replaced: renaming over a FIFO, a device
    // or a socket the user named by mistake would destroy it
    struct stat existing {};
    if (overwrite && ::stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode))
        return makeError("io.not_regular", path + " exists and is not a regular file: not replaced", path);
    // The temporary file has a short name of its own beside the target (a 245-character file
    // name plus a suffix would pass the 255-byte limit), and what a killed write left of ours
    // is removed first.
    const std::string folder = folderOf(path);
    removeStaleTemporaries(folder);
    std::string tmpl = folder + "/" + std::string(kTemporaryPrefix) + "XXXXXX";
    Fd fd(::mkstemp(tmpl.data()));
    if (fd.get() < 0) return makeError("io.write", "cannot write " + path + ": " + errnoText(), path);
    const char* p = data.data();
    size_t left = data.size();
    while (left > 0) {
        const ssize_t n = ::write(fd.get(), p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            const std::string why = errnoText();
            ::unlink(tmpl.c_str());
            return makeError("io.write", "cannot write " + path + ": " + why, path);
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
    // mkstemp creates 0600; a report or session should get the usual umask-based mode.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd.get(), 0666 & ~mask);
    if (::fsync(fd.get()) != 0 || ::close(fd.release()) != 0) {
        const std::string why = errnoText();
        ::unlink(tmpl.c_str());
        return makeError("io.write", "cannot write " + path + ": " + why, path);
    }
    if (!overwrite) {
        // link() fails if the target appeared meanwhile, so a concurrent file is never replaced.
        if (::link(tmpl.c_str(), path.c_str()) != 0) {
            const std::string why = errnoText();
            ::unlink(tmpl.c_str());
            return makeError(errno == EEXIST ? "io.exists" : "io.write", "cannot write " + path + ": " + why,
                             path);
        }
        ::unlink(tmpl.c_str());
        return Ok{};
    }
    if (::rename(tmpl.c_str(), path.c_str()) != 0) {
        const std::string why = errnoText();
        ::unlink(tmpl.c_str());
        return makeError("io.write", "cannot write " + path + ": " + why, path);
    }
    return Ok{};
}

}  // namespace qatdoctor::core
