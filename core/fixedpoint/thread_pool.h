// A small fixed pool for data-parallel kernels. One pool per simulation run (no global state);
// parallelFor blocks until every chunk is done. threads <= 1 runs inline.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace qatdoctor::core::fixedpoint {

class ThreadPool {
public:
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int threads() const { return m_threads; }
    // Runs fn(begin, end) over [0, n) split into at most threads() contiguous chunks.
    void parallelFor(int64_t n, const std::function<void(int64_t, int64_t)>& fn);

private:
    void workerLoop(int index);

    int m_threads = 1;
    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    const std::function<void(int64_t, int64_t)>* m_job = nullptr;
    int64_t m_n = 0;
    uint64_t m_generation = 0;
    int m_pending = 0;
    bool m_stop = false;
};

// parallelFor on pool, or inline when pool is null.
inline void parallelFor(ThreadPool* pool, int64_t n, const std::function<void(int64_t, int64_t)>& fn)
{
    if (pool && pool->threads() > 1 && n > 1)
        pool->parallelFor(n, fn);
    else if (n > 0)
        fn(0, n);
}

}  // namespace qatdoctor::core::fixedpoint
