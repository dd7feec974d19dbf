#include "core/fixedpoint/thread_pool.h"

#include <algorithm>

namespace qatdoctor::core::fixedpoint {

ThreadPool::ThreadPool(int threads) : m_threads(std::max(1, threads))
{
    for (int i = 1; i < m_threads; ++i) m_workers.emplace_back([this, i] { workerLoop(i); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (auto& t : m_workers) t.join();
}

static void chunk(int64_t n, int parts, int index, int64_t& begin, int64_t& end)
{
    begin = n * index / parts;
    end = n * (index + 1) / parts;
}

void ThreadPool::parallelFor(int64_t n, const std::function<void(int64_t, int64_t)>& fn)
{
    const int parts = static_cast<int>(std::min<int64_t>(m_threads, n));
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_job = &fn;
        m_n = n;
        m_pending = m_threads - 1;
        ++m_generation;
    }
    m_wake.notify_all();
    int64_t b = 0, e = 0;
    chunk(n, parts, 0, b, e);
    if (b < e) fn(b, e);
    std::unique_lock<std::mutex> lock(m_mutex);
    m_done.wait(lock, [this] { return m_pending == 0; });
    m_job = nullptr;
}

void ThreadPool::workerLoop(int index)
{
    uint64_t seen = 0;
    for (;;) {
        const std::function<void(int64_t, int64_t)>* job = nullptr;
        int64_t n = 0;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
            if (m_stop) return;
            seen = m_generation;
            job = m_job;
            n = m_n;
        }
        const int parts = static_cast<int>(std::min<int64_t>(m_threads, n));
        int64_t b = 0, e = 0;
        if (index < parts) chunk(n, parts, index, b, e);
        if (job && b < e) (*job)(b, e);
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (--m_pending == 0) m_done.notify_all();
        }
    }
}

}  // namespace qatdoctor::core::fixedpoint
