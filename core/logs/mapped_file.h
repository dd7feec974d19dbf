// A read-only memory map of a whole file (POSIX). Logs are read through it so a 2 GB log costs
// page cache, not a private copy.
#pragma once

#include <string>
#include <string_view>

#include "core/common/result.h"

namespace qatdoctor::core::logs {

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

private:
    void* m_data = nullptr;
    size_t m_size = 0;
};

}  // namespace qatdoctor::core::logs
