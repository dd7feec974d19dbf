// Sleeps until something in the watched folders changes, or a timeout passes. Uses inotify
// where the kernel offers it (a write wakes the waiter at once); where it does not (no inotify,
// its watch limit reached), or on a network file system, whose remote writes inotify never
// reports, the timeout is the poll: callers poll on it anyway.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace qatdoctor::core {

class ChangeWaiter {
public:
    ChangeWaiter();
    ~ChangeWaiter();
    ChangeWaiter(const ChangeWaiter&) = delete;
    ChangeWaiter& operator=(const ChangeWaiter&) = delete;

    // Watches these folders (a folder's watch sees its files written, created, moved in and
    // removed) and files (for a file watched alone), replacing the set before. Paths that cannot
    // be watched are left to the timeout.
    void watch(const std::vector<std::string>& paths);
    // True when a change woke it, false when the timeout passed.
    bool wait(std::chrono::milliseconds timeout);
    // Whether changes wake it (inotify) or only the timeout does.
    bool native() const { return m_fd >= 0 && m_watching > 0; }

private:
    int m_fd = -1;
    size_t m_watching = 0;
    std::vector<std::pair<int, std::string>> m_watches;  // (descriptor, path)
};

}  // namespace qatdoctor::core
