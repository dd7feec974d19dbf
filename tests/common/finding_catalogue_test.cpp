// The finding catalogue: every id a check can produce has one row with an evidence standard. The
// source scan finds the ids written in the code (makeFinding calls and the tables that hold ids:
// answers, qconfig messages, known warnings, the ladder's steps), so a new id without a row fails
// here before any input exercises it; checked builds also assert in makeFinding.
#include "core/common/finding_catalogue.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace qatdoctor::core {
namespace {

namespace fs = std::filesystem;

TEST(FindingCatalogue, RowsAreCompleteAndUnique)
{
    std::set<std::string> ids;
    for (const FindingRow& r : findingCatalogue()) {
        EXPECT_TRUE(ids.insert(std::string(r.id)).second) << "twice: " << r.id;
        EXPECT_FALSE(r.meaning.en.empty() || r.meaning.zh.empty()) << r.id;
        EXPECT_FALSE(r.decisive.en.empty() || r.decisive.zh.empty()) << r.id;
        EXPECT_EQ(r.suggestive.en.empty(), r.suggestive.zh.empty()) << r.id;
    }
    EXPECT_GT(ids.size(), 70u);
}

TEST(FindingCatalogue, EveryIdInTheSourcesHasARow)
{
    // "area.name" literals where the code makes findings: makeFinding's first argument, and the
    // id column of the tables that feed it
    const std::regex made(R"re(makeFinding\(\s*"([a-z0-9_]+\.[a-z0-9_]+)")re");
    const std::regex tabled(R"re(\{\s*"((?:compare|qconfig|log|ladder)\.[a-z0-9_]+)")re");
    const std::regex ladder(R"re("(ladder\.[a-z0-9_]+)")re");
    std::set<std::string> found;
    for (const auto& e : fs::recursive_directory_iterator(fs::path(QATDOCTOR_SOURCE_DIR) / "core")) {
        if (e.path().extension() != ".cpp") continue;
        std::ifstream in(e.path());
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        for (const std::regex* re : {&made, &tabled, &ladder})
            for (std::sregex_iterator it(text.begin(), text.end(), *re), end; it != end; ++it)
                found.insert((*it)[1]);
    }
    found.erase("ladder.steps");  // the ladder's check id (checksRun), no finding
    EXPECT_GT(found.size(), 60u);
    for (const std::string& id : found) EXPECT_NE(findingRow(id), nullptr) << id << " has no catalogue row";
}

TEST(FindingCatalogue, TheLevelCapsTheSeverity)
{
    Finding f = makeFinding("qat.not_learning", Severity::Error, Stage::Qat, {}, {});
    meetStandard(f, EvidenceLevel::Corroborated);
    EXPECT_EQ(f.severity, Severity::Warning);
    meetStandard(f, EvidenceLevel::Suggestive);
    EXPECT_EQ(f.severity, Severity::Info);
    EXPECT_NE(standardText(f, Lang::Zh).find("仅有一个迹象"), std::string::npos);
    EXPECT_NE(standardText(f, Lang::En).find("byte-identical weights"), std::string::npos);
}

}  // namespace
}  // namespace qatdoctor::core
