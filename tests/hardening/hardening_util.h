// Helpers of the hardening tests: temp folders and files written by the test itself.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>

#include "core/common/file_io.h"

namespace qatdoctor::test {

namespace fs = std::filesystem;

// A fresh folder under the system temp dir, removed by the destructor.
class TempDir {
public:
    explicit TempDir(const std::string& tag)
        : m_path(fs::temp_directory_path() /
                 ("qatdoctor_hardening_" + tag + "_" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name()))
    {
        fs::remove_all(m_path);
        fs::create_directories(m_path);
    }
    ~TempDir() { fs::remove_all(m_path); }
    const fs::path& path() const { return m_path; }
    std::string operator/(const std::string& name) const { return (m_path / name).string(); }

private:
    fs::path m_path;
};

inline void writeBytes(const std::string& path, std::string_view bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::string readBytes(const std::string& path)
{
    auto r = core::readFile(path);
    return r ? *r : std::string();
}

inline std::string dataPath(const std::string& rel)
{
    return std::string(QATDOCTOR_TEST_DATA) + "/" + rel;
}

// "[[[[...1...]]]]" / {"a":{"a":...}} nested depth levels.
inline std::string nestedArrays(size_t depth)
{
    return std::string(depth, '[') + "1" + std::string(depth, ']');
}
inline std::string nestedObjects(size_t depth)
{
    std::string s;
    for (size_t i = 0; i < depth; ++i) s += "{\"a\":";
    s += "1";
    s += std::string(depth, '}');
    return s;
}

// /proc/self/status RssAnon in bytes: the process's own memory, without the mapped file's pages
// (those are page cache the kernel reclaims, so they do not count against a streaming reader).
inline int64_t rssAnonBytes()
{
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    int64_t kb = -1;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "RssAnon:", 8) == 0) kb = std::atoll(line + 8);
    std::fclose(f);
    return kb < 0 ? -1 : kb * 1024;
}

// How far RssAnon rose above its level at construction, sampled every millisecond until stop().
class PeakMemoryGrowth {
public:
    PeakMemoryGrowth() : m_before(rssAnonBytes()), m_peak(m_before)
    {
        m_sampler = std::thread([this] {
            while (!m_done) {
                m_peak = std::max(m_peak.load(), rssAnonBytes());
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
    }
    ~PeakMemoryGrowth() { stop(); }
    PeakMemoryGrowth(const PeakMemoryGrowth&) = delete;
    PeakMemoryGrowth& operator=(const PeakMemoryGrowth&) = delete;
    int64_t stop()
    {
        m_done = true;
        if (m_sampler.joinable()) m_sampler.join();
        m_peak = std::max(m_peak.load(), rssAnonBytes());
        return m_peak - m_before;
    }

private:
    int64_t m_before;
    std::atomic<int64_t> m_peak;
    std::atomic<bool> m_done{false};
    std::thread m_sampler;
};

}  // namespace qatdoctor::test
