#include "core/logs/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <utility>

namespace qatdoctor::core::logs {
namespace {

// The live mappings the SIGBUS handler may repair. Slots are claimed and released with atomics
// only, so the handler can read them at any moment.
struct GuardSlot {
    std::atomic<uintptr_t> begin{0}, end{0};
    std::atomic<bool> faulted{false};
    std::atomic<bool> used{false};
};
constexpr int kGuardSlots = 256;
GuardSlot g_slots[kGuardSlots];
struct sigaction g_previousSigbus;
uintptr_t g_pageSize = 4096;

void onSigbus(int sig, siginfo_t* info, void* context)
{
    const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
    for (GuardSlot& slot : g_slots) {
        const uintptr_t b = slot.begin.load(std::memory_order_acquire),
                        e = slot.end.load(std::memory_order_acquire);
        if (b == 0 || address < b || address >= e) continue;
        // a page of zeros over the one past the file's end, and the read is retried
        void* page = reinterpret_cast<void*>(address & ~(g_pageSize - 1));
        if (mmap(page, g_pageSize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            slot.faulted.store(true, std::memory_order_release);
            return;
        }
    }
    // not a guarded mapping: what would have happened without us
    if (g_previousSigbus.sa_flags & SA_SIGINFO) {
        if (g_previousSigbus.sa_sigaction) return g_previousSigbus.sa_sigaction(sig, info, context);
    } else if (g_previousSigbus.sa_handler != SIG_DFL && g_previousSigbus.sa_handler != SIG_IGN) {
        return g_previousSigbus.sa_handler(sig);
    }
    signal(SIGBUS, SIG_DFL);
    raise(SIGBUS);
}

void installGuard()
{
    static const bool kInstalled = [] {
        g_pageSize = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
        struct sigaction action {};
        action.sa_sigaction = onSigbus;
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        return sigaction(SIGBUS, &action, &g_previousSigbus) == 0;
    }();
    (void)kInstalled;
}

int claimGuard(const void* data, size_t size)
{
    installGuard();
    for (int i = 0; i < kGuardSlots; ++i) {
        bool expected = false;
        if (!g_slots[i].used.compare_exchange_strong(expected, true)) continue;
        g_slots[i].faulted.store(false);
        g_slots[i].end.store(reinterpret_cast<uintptr_t>(data) + size, std::memory_order_release);
        g_slots[i].begin.store(reinterpret_cast<uintptr_t>(data), std::memory_order_release);
        return i;
    }
    return -1;  // more live maps than slots: this one goes unguarded
}

}  // namespace

MappedFile::MappedFile(MappedFile&& o) noexcept
    : m_data(std::exchange(o.m_data, nullptr)),
      m_size(std::exchange(o.m_size, 0)),
      m_guard(std::exchange(o.m_guard, -1))
{
}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept
{
    if (this != &o) {
        release();
        m_data = std::exchange(o.m_data, nullptr);
        m_size = std::exchange(o.m_size, 0);
        m_guard = std::exchange(o.m_guard, -1);
    }
    return *this;
}

MappedFile::~MappedFile()
{
    release();
}

void MappedFile::release()
{
    if (m_guard >= 0) {
        GuardSlot& slot = g_slots[m_guard];
        slot.begin.store(0, std::memory_order_release);
        slot.end.store(0, std::memory_order_release);
        slot.used.store(false, std::memory_order_release);
        m_guard = -1;
    }
    if (m_data) munmap(m_data, m_size);
    m_data = nullptr;
}

bool MappedFile::truncatedWhileRead() const
{
    return m_guard >= 0 && g_slots[m_guard].faulted.load(std::memory_order_acquire);
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
        f.m_guard = claimGuard(p, f.m_size);
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
