// Helpers for the logs tests: fixture paths and reading one file with its own format.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/common/file_io.h"
#include "core/logs/log_reader.h"

namespace qatdoctor::core::logs::test {

inline std::string fixture(const std::string& rel)
{
    return std::string(QATDOCTOR_TEST_DATA) + "/" + rel;
}

// Reads one file as a single-run LogSet; fails the test when it cannot.
inline LogSet readOne(const std::string& rel)
{
    auto r = readLogFile(fixture(rel));
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().toString());
    return r.ok() ? std::move(*r) : LogSet{};
}

inline const Series& seriesOf(const logs::Run& run, const std::string& name)
{
    static const Series kEmpty;
    const Series* s = run.find(name);
    EXPECT_NE(s, nullptr) << "no series " << name;
    return s ? *s : kEmpty;
}

}  // namespace qatdoctor::core::logs::test
