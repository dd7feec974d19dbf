#include "core/logs/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <utility>

namespace qatdoctor::core::logs {

MappedFile::MappedFile(MappedFile&& o) noexcept
    : m_data(std::exchange(o.m_data, nullptr)), m_size(std::exchange(o.m_size, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept
{
    if (this != &o) {
        if (m_data) munmap(m_data, m_size);
        m_data = std::exchange(o.m_data, nullptr);
        m_size = std::exchange(o.m_size, 0);
    }
    return *this;
}

MappedFile::~MappedFile()
{
    if (m_data) munmap(m_data, m_size);
}

Result<MappedFile> MappedFile::open(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // a FIFO must not block the open
    if (fd < 0) return makeError("io.open", std::string("cannot open: ") + std::strerror(errno), path);
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return makeError("io.read", "not a regular file", path);
    }
    MappedFile f;
    if (st.st_size > 0) {
        void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            ::close(fd);
            return makeError("io.read", std::string("cannot map: ") + std::strerror(errno), path);
        }
        madvise(p, static_cast<size_t>(st.st_size), MADV_SEQUENTIAL);
        f.m_data = p;
        f.m_size = static_cast<size_t>(st.st_size);
    }
    ::close(fd);
    return f;
}

void releaseUnusedTail(const void* data, size_t used, size_t capacity)
{
    const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto b = (reinterpret_cast<uintptr_t>(data) + used + page - 1) & ~(page - 1);
    const auto e = (reinterpret_cast<uintptr_t>(data) + capacity) & ~(page - 1);
    if (e > b) madvise(reinterpret_cast<void*>(b), e - b, MADV_DONTNEED);
}

void adviseHugePages(const void* data, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    constexpr uintptr_t kHuge = 2u << 20;
    if (bytes < 2 * kHuge) return;
    const auto b = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
    const auto e = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
    if (e > b) madvise(reinterpret_cast<void*>(b), e - b, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

}  // namespace qatdoctor::core::logs
