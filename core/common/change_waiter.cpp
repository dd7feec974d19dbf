#include "core/common/change_waiter.h"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <thread>

namespace qatdoctor::core {

ChangeWaiter::ChangeWaiter() : m_fd(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {}

ChangeWaiter::~ChangeWaiter()
{
    if (m_fd >= 0) ::close(m_fd);
}

void ChangeWaiter::watch(const std::vector<std::string>& paths)
{
    if (m_fd < 0) return;
    constexpr uint32_t kMask = IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM |
                               IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF;
    std::vector<std::pair<int, std::string>> kept;
    for (const auto& [wd, path] : m_watches) {
        if (std::find(paths.begin(), paths.end(), path) != paths.end())
            kept.emplace_back(wd, path);
        else
            inotify_rm_watch(m_fd, wd);
    }
    m_watches = std::move(kept);
    for (const std::string& p : paths) {
        if (std::any_of(m_watches.begin(), m_watches.end(), [&](const auto& w) { return w.second == p; }))
            continue;
        const int wd = inotify_add_watch(m_fd, p.c_str(), kMask);
        if (wd >= 0) m_watches.emplace_back(wd, p);
    }
    m_watching = m_watches.size();
}

bool ChangeWaiter::wait(std::chrono::milliseconds timeout)
{
    if (!native()) {
        std::this_thread::sleep_for(timeout);
        return false;
    }
    pollfd p{m_fd, POLLIN, 0};
    const int ready =
        ::poll(&p, 1, static_cast<int>(std::clamp<int64_t>(timeout.count(), 0, int64_t{24} * 3600 * 1000)));
    if (ready <= 0) return false;
    // drain: one wake for however many events queued; a watch the kernel dropped (its file
    // removed or renamed away: a rotation) is forgotten so the next watch() adds it again
    alignas(inotify_event) std::array<char, size_t{16} * 1024> buffer{};
    for (;;) {
        const ssize_t n = ::read(m_fd, buffer.data(), buffer.size());
        if (n <= 0) break;
        for (ssize_t at = 0; at + static_cast<ssize_t>(sizeof(inotify_event)) <= n;) {
            inotify_event event{};
            std::memcpy(&event, buffer.data() + at, sizeof event);
            // a file renamed away keeps its watch (no IN_IGNORED): its name is watched anew
            const int dropped = (event.mask & (IN_IGNORED | IN_MOVE_SELF)) ? event.wd : -1;
            if (dropped >= 0 && (event.mask & IN_MOVE_SELF)) inotify_rm_watch(m_fd, dropped);
            if (dropped >= 0) std::erase_if(m_watches, [&](const auto& w) { return w.first == dropped; });
            at += static_cast<ssize_t>(sizeof(inotify_event) + event.len);
        }
    }
    m_watching = m_watches.size();
    return true;
}

}  // namespace qatdoctor::core
