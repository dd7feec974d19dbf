// core/ must stay free of the GUI: no Qt Widgets, no QCustomPlot (ideally no Qt at all).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

namespace fs = std::filesystem;

TEST(CorePurity, NoQtIncludesUnderCore)
{
    const std::regex qtInclude(R"(#\s*include\s*[<"](Q[A-Za-z]+|Qt[A-Za-z]*/[^>"]*|qcustomplot\.h)[>"])");
    int scanned = 0;
    for (auto& e : fs::recursive_directory_iterator(fs::path(QATDOCTOR_SOURCE_DIR) / "core")) {
        const auto ext = e.path().extension().string();
        if (ext != ".h" && ext != ".cpp" && ext != ".hpp") continue;
        ++scanned;
        std::ifstream in(e.path());
        std::string line;
        int lineNo = 0;
        while (std::getline(in, line)) {
            ++lineNo;
            EXPECT_FALSE(std::regex_search(line, qtInclude)) << e.path() << ":" << lineNo << ": " << line;
        }
    }
    EXPECT_GT(scanned, 10);
}
