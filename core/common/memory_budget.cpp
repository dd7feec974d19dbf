#include "core/common/memory_budget.h"

#include <unistd.h>

#include <algorithm>

#include "core/common/number_text.h"

namespace qatdoctor::core {

uint64_t defaultMemoryBudget()
{
    static const uint64_t kDefault = [] {
        const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
        const uint64_t physical =
            pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : (uint64_t{4} << 30);
        return std::max<uint64_t>(physical / 4, uint64_t{256} << 20);
    }();
    return kDefault;
}

MemoryBudget::MemoryBudget(uint64_t limitBytes) : m_limit(limitBytes ? limitBytes : defaultMemoryBudget()) {}

bool MemoryBudget::take(uint64_t bytes)
{
    uint64_t used = m_used.load(std::memory_order_relaxed);
    do {
        if (bytes > m_limit || used > m_limit - bytes) return false;
    } while (!m_used.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
    return true;
}

void MemoryBudget::give(uint64_t bytes)
{
    uint64_t used = m_used.load(std::memory_order_relaxed);
    while (!m_used.compare_exchange_weak(used, used - std::min(used, bytes), std::memory_order_relaxed)) {
    }
}

std::string MemoryBudget::refusal(std::string_view what, uint64_t bytes) const
{
    std::string out = std::string(what) + " needs " + byteSizeText(bytes);
    if (used() > 0) out += "; with " + byteSizeText(used()) + " already held that";
    return out + " passes the memory budget of " + byteSizeText(m_limit) + " (--max-memory)";
}

}  // namespace qatdoctor::core
