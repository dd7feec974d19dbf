// Shared by the report tests: fixture analyses, running external checkers (python3 stdlib,
// poppler-utils), and text normalisation for comparing what a PDF or HTML shows.
#pragma once

#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "core/analysis.h"
#include "core/common/file_io.h"

namespace qatdoctor::report_test {

inline std::string testData(const std::string& rel)
{
    return std::string(QATDOCTOR_TEST_DATA) + "/" + rel;
}
inline std::string sourceDir(const std::string& rel)
{
    return std::string(QATDOCTOR_SOURCE_DIR) + "/" + rel;
}

// A fresh folder under the system temp dir, removed by the caller's TearDown.
inline std::string makeTempDir(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
}

struct CommandResult {
    int exitCode = -1;
    std::string output;  // stdout (and stderr when the command redirects it)
};

inline CommandResult run(const std::string& command)
{
    CommandResult r;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
    const int status = ::pclose(pipe);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

inline std::string shellQuote(const std::string& s)
{
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// pdftotext writes ligatures (U+FB00..FB04) and wraps table cells: compare without them and
// without any whitespace.
inline std::string normalise(std::string s)
{
    const std::pair<const char*, const char*> ligatures[] = {{"\xEF\xAC\x80", "ff"},
                                                             {"\xEF\xAC\x81", "fi"},
                                                             {"\xEF\xAC\x82", "fl"},
                                                             {"\xEF\xAC\x83", "ffi"},
                                                             {"\xEF\xAC\x84", "ffl"}};
    for (const auto& [from, to] : ligatures)
        for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p)) s.replace(p, 3, to);
    std::string out;
    for (char c : s)
        if (c != ' ' && c != '\n' && c != '\t' && c != '\r' && c != '\f') out += c;
    return out;
}

inline bool containsText(const std::string& haystack, const std::string& needle)
{
    return normalise(haystack).find(normalise(needle)) != std::string::npos;
}

inline core::Analysis analyzeOrDie(std::vector<std::string> paths)
{
    core::AnalyzeOptions o;
    o.paths = std::move(paths);
    core::Result<core::Analysis> a = core::analyze(o);
    if (!a) throw std::runtime_error(a.error().toString());
    return std::move(a).value();
}

}  // namespace qatdoctor::report_test
