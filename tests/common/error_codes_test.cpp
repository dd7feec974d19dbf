// core/common/error_codes.h lists every error and warning code: a code written anywhere in the
// sources (core/, app/, ui/) that the list lacks fails here, so the list cannot drift. Finding
// ids share some prefixes ("input.colour_format") and are told apart by the check-id list.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>

#include "core/faq/check_ids.h"

namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::set<std::string> matches(const std::string& text, const std::regex& re, int group = 1)
{
    std::set<std::string> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
        out.insert((*it)[group].str());
    return out;
}

TEST(ErrorCodes, EveryCodeInTheSourcesIsListed)
{
    const fs::path src(QATDOCTOR_SOURCE_DIR);
    const std::string header = readText(src / "core/common/error_codes.h");
    const std::set<std::string> listed = matches(header, std::regex(R"re(= "([a-z_]+\.[a-z_0-9]+)";)re"));
    ASSERT_GE(listed.size(), 90u);
    const std::regex code(
        R"re("((io|onnx|logs|printed|artifact|table|thresholds|faq|simulate|report|session|expect|input|folder)\.[a-z_0-9]+)")re");
    // codes a parser builds from its kind: "logs." + kind
    const std::regex logsKind(R"re(\bwarn\("([a-z_0-9]+)")re");
    const std::regex tfeventsKind(R"re("(tfevents_[a-z_]+)")re");
    // operator domains spelled like codes (Brevitas' QONNX ops): names, not error codes
    const std::set<std::string> domains = {"onnx.brevitas"};
    std::set<std::string> missing;
    for (const char* area : {"core", "app", "ui"}) {
        for (const auto& e : fs::recursive_directory_iterator(src / area)) {
            const std::string ext = e.path().extension().string();
            if (ext != ".cpp" && ext != ".h") continue;
            const std::string text = readText(e.path());
            std::set<std::string> found = matches(text, code);
            for (const std::string& k : matches(text, logsKind)) found.insert("logs." + k);
            for (const std::string& k : matches(text, tfeventsKind)) found.insert("logs." + k);
            for (const std::string& c : found)
                if (!listed.count(c) && !qatdoctor::core::faq::isKnownCheckId(c) && !domains.count(c))
                    missing.insert(c + " (" + fs::relative(e.path(), src).string() + ")");
        }
    }
    EXPECT_TRUE(missing.empty()) << "codes missing from core/common/error_codes.h:\n"
                                 << [&] {
                                        std::string s;
                                        for (const std::string& m : missing) s += "  " + m + "\n";
                                        return s;
                                    }();
}

}  // namespace
