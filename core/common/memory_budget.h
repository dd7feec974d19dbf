// How much memory one reading of user files may hold of what those files claim. A few bytes of
// a hostile checkpoint can claim gigabytes in many small pieces (quantizers sharing one big
// storage, a memoized string used as twenty keys, two deflated weights compared at once), each
// within its own per-item limit; the budget adds the pieces up, so the whole stays bounded and
// the first piece past it is named in the message instead of the machine swapping.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

namespace qatdoctor::core {

// A quarter of physical memory, at least 256 MiB: the default of every --max-memory.
uint64_t defaultMemoryBudget();

class MemoryBudget {
public:
    explicit MemoryBudget(uint64_t limitBytes = 0);  // 0 = defaultMemoryBudget()
    MemoryBudget(const MemoryBudget&) = delete;
    MemoryBudget& operator=(const MemoryBudget&) = delete;

    uint64_t limit() const { return m_limit; }
    uint64_t used() const { return m_used.load(std::memory_order_relaxed); }

    // Reserves bytes; false (nothing reserved) when the total would pass the limit. Thread-safe.
    [[nodiscard]] bool take(uint64_t bytes);
    void give(uint64_t bytes);

    // Why `what` (bytes large) was not read: "tensor fc.weight needs 2.00 GiB; with 1.50 GiB already
    // held that passes the memory budget of 3.00 GiB (--max-memory)".
    std::string refusal(std::string_view what, uint64_t bytes) const;

private:
    uint64_t m_limit;
    std::atomic<uint64_t> m_used{0};
};

}  // namespace qatdoctor::core
