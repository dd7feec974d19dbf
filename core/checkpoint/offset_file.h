// A file read at offsets, never whole: the legacy checkpoints are a few small pickles and
// gigabytes of storages, read later one tensor at a time. Opened once, its size known up front,
// every read checked against an end (a tar member's, or the file's) before it sizes a buffer.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "core/checkpoint/pickle_vm.h"
#include "core/common/result.h"

namespace qatdoctor::core::checkpoint {

class OffsetFile {
public:
    // Errors: "io.open".
    static Result<OffsetFile> open(const std::string& path);
    uint64_t size() const { return m_size; }

    // count bytes at offset into `into` (resized, not cleared: a reused buffer's pages are not
    // touched twice), all before end. Errors: "checkpoint.truncated" (past end), "io.read".
    Result<void> read(uint64_t offset, uint64_t count, uint64_t end, const std::string& what,
                      std::string& into) const;
    Result<std::string> bytes(uint64_t offset, uint64_t count, uint64_t end, const std::string& what) const;
    // A little-endian 8-byte integer at offset (the byte order sys_info declares, checked by the
    // tar reader).
    Result<int64_t> integer(uint64_t offset, uint64_t end, const std::string& what) const;
    // The pickle starting at offset, read through a window that grows until the pickle ends in
    // it: its length is stored nowhere. The pickle read is charged to budget (a window read again
    // is not charged twice). Errors as unpickle and read.
    Result<PickleTree> pickle(uint64_t offset, uint64_t end, const std::string& what,
                              MemoryBudget* budget = nullptr) const;

private:
    explicit OffsetFile(std::string path) : m_path(std::move(path)) {}
    std::string m_path;
    std::unique_ptr<FILE, int (*)(FILE*)> m_file{nullptr, &std::fclose};
    uint64_t m_size = 0;
};

// An 8-byte little-endian integer at p.
int64_t littleEndian64(const char* p);
// " (byte 1234)": where an error points in a file.
std::string byteAt(uint64_t offset);

}  // namespace qatdoctor::core::checkpoint
