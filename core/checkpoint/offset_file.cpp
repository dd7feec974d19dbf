#include "core/checkpoint/offset_file.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <optional>

namespace qatdoctor::core::checkpoint {
namespace {

constexpr uint64_t kMaxPickleBytes = uint64_t{1} << 30;  // a state_dict's pickle is kilobytes to megabytes
// Most pickles read here are a storage's or tensor's record of a few dozen bytes, one per tensor:
// a small first window keeps their reads small; a large pickle costs a few re-reads, each 8x the last.
constexpr uint64_t kFirstWindow = uint64_t{4} << 10;

}  // namespace

std::string byteAt(uint64_t offset)
{
    return " (byte " + std::to_string(offset) + ")";
}

int64_t littleEndian64(const char* p)
{
    int64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

Result<OffsetFile> OffsetFile::open(const std::string& path)
{
    OffsetFile f(path);
    std::error_code ec;
    f.m_size = std::filesystem::file_size(path, ec);
    f.m_file.reset(ec ? nullptr : std::fopen(path.c_str(), "rb"));
    if (!f.m_file) return Error{"io.open", path + ": cannot open the file", path};
    return f;
}

Result<void> OffsetFile::read(uint64_t offset, uint64_t count, uint64_t end, const std::string& what,
                              std::string& into) const
{
    end = std::min(end, m_size);
    if (offset > end || count > end - offset)
        return Error{"checkpoint.truncated",
                     what + " is cut off: it would end past byte " + std::to_string(end), m_path, 0,
                     static_cast<int64_t>(offset)};
    into.resize(count);
    if (fseeko(m_file.get(), static_cast<off_t>(offset), SEEK_SET) != 0 ||
        std::fread(into.data(), 1, count, m_file.get()) != count)
        return Error{"io.read", what + ": cannot read" + byteAt(offset), m_path};
    return Ok{};
}

Result<std::string> OffsetFile::bytes(uint64_t offset, uint64_t count, uint64_t end,
                                      const std::string& what) const
{
    std::string out;
    if (Result<void> r = read(offset, count, end, what, out); !r) return r.error();
    return out;
}

Result<int64_t> OffsetFile::integer(uint64_t offset, uint64_t end, const std::string& what) const
{
    Result<std::string> b = bytes(offset, 8, end, what);
    if (!b) return b.error();
    return littleEndian64(b->data());
}

Result<PickleTree> OffsetFile::pickle(uint64_t offset, uint64_t end, const std::string& what,
                                      MemoryBudget* budget) const
{
    end = std::min(end, m_size);
    const uint64_t most = std::min(end - std::min(end, offset), kMaxPickleBytes);
    for (uint64_t window = std::min(kFirstWindow, most);; window = std::min(window * 8, most)) {
        // each try runs on a copy of the budget (same limit, same amount held); only the try that
        // is kept is charged to the budget itself
        const uint64_t held = budget ? budget->used() : 0;
        std::optional<MemoryBudget> attempt;
        PickleLimits limits;
        if (budget) {
            attempt.emplace(budget->limit());
            if (!attempt->take(held) || !attempt->take(window))
                return Error{"checkpoint.budget",
                             what + byteAt(offset) + ": " + budget->refusal("the pickle", window), m_path};
            limits.budget = &*attempt;
        }
        Result<std::string> b = bytes(offset, window, end, what);
        if (!b) return b.error();
        Result<PickleTree> tree = unpickle(*b, what + byteAt(offset), limits);
        if (tree || tree.error().code != "checkpoint.truncated" || window == most) {
            if (tree && attempt && !budget->take(attempt->used() - held))
                return Error{
                    "checkpoint.budget",
                    what + byteAt(offset) + ": " + budget->refusal("the pickle", attempt->used() - held),
                    m_path};
            return tree;
        }
    }
}

}  // namespace qatdoctor::core::checkpoint
