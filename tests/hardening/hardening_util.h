// Helpers of the hardening tests: temp folders and files written by the test itself.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

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

}  // namespace qatdoctor::test
