// A read-only memory map of a whole file (POSIX). Logs are read through it so a 2 GB log costs
// page cache, not a private copy.
#pragma once

#include <string>
#include <string_view>

#include "core/common/result.h"

namespace qatdoctor::core::logs {

// A file that shrinks while it is mapped (logrotate's copytruncate, `python train.py > train.log`
// started again) turns every read past its new end into SIGBUS. While a MappedFile lives, its
// pages are guarded: such a read gets a page of zeros instead, and truncatedWhileRead() says
// so, so the reader can warn and read the file again. (The guard is a process-wide SIGBUS
// handler over a fixed table of live mappings: signal handling is process-wide by nature.)
class MappedFile {
public:
    MappedFile() = default;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    MappedFile(MappedFile&& o) noexcept;
    MappedFile& operator=(MappedFile&& o) noexcept;
    ~MappedFile();

    // Errors: "io.open" (missing/unreadable; names the path), "io.read" (not a regular file).
    static Result<MappedFile> open(const std::string& path);
    std::string_view bytes() const { return {static_cast<const char*>(m_data), m_size}; }
    // Some read past the file's end since open: the bytes read there were zeros.
    bool truncatedWhileRead() const;

private:
    void release();
    void* m_data = nullptr;
    size_t m_size = 0;
    int m_guard = -1;  // slot in the SIGBUS guard's table, -1 = not guarded
};

// Asks the kernel to back the 2 MiB-aligned interior of [data, data + bytes) with huge pages: the
// columns of a big log take one fault per 2 MiB instead of one per 4 KiB (page faults were a
// quarter of CSV parsing). Only a hint; a no-op for small buffers and where unsupported.
void adviseHugePages(const void* data, size_t bytes);

// Gives the whole pages of [data + used, data + capacity) back to the system (they read as zero
// if touched again). A big column's unused reserve is returned this way instead of copying the
// column into an exact-size allocation.
void releaseUnusedTail(const void* data, size_t used, size_t capacity);

// Reserves a column for n elements and advises huge pages for it.
template <class Vec>
void reserveColumn(Vec& v, size_t n)
{
    if (n <= v.capacity()) return;
    v.reserve(n);
    adviseHugePages(v.data(), v.capacity() * sizeof(typename Vec::value_type));
}

}  // namespace qatdoctor::core::logs
