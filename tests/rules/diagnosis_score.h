// Scores the diagnosis on the planted-problem corpus (tests/data/diagnosis, see its README): per
// finding id, the true positives (an expected id that fired), false negatives (an expected id
// that did not) and false positives (a warning or error id that fired where neither expected nor
// allowed), and how many healthy runs get a clear verdict. Shared by diagnosis_bench (prints the
// figures) and the unit test that pins them, so both count the same way.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/rules/verdict.h"

namespace qatdoctor::core::test {

struct IdScore {
    size_t truePositives = 0, falseNegatives = 0, falsePositives = 0;
    double recall() const
    {
        const size_t n = truePositives + falseNegatives;
        return n ? static_cast<double>(truePositives) / static_cast<double>(n) : 1.0;
    }
    double precision() const
    {
        const size_t n = truePositives + falsePositives;
        return n ? static_cast<double>(truePositives) / static_cast<double>(n) : 1.0;
    }
};

struct DiagnosisScore {
    std::map<std::string, IdScore> byId;
    size_t cases = 0, healthy = 0, healthyClear = 0;
    std::vector<std::string> misses;  // "case: id" for every false negative and false positive
    size_t truePositives() const
    {
        size_t n = 0;
        for (const auto& [id, s] : byId) n += s.truePositives;
        return n;
    }
    size_t expected() const
    {
        size_t n = 0;
        for (const auto& [id, s] : byId) n += s.truePositives + s.falseNegatives;
        return n;
    }
};

inline DiagnosisScore scoreDiagnosisCorpus(const std::string& dir)
{
    DiagnosisScore score;
    std::ifstream in(dir + "/MANIFEST.json");
    const nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
    if (!manifest.is_object()) return score;
    for (const auto& [name, c] : manifest["cases"].items()) {
        AnalyzeOptions options;
        options.paths = {dir + "/" + name};
        auto analysis = analyze(options);
        if (!analysis) continue;
        ++score.cases;
        std::set<std::string> fired;
        for (const Finding& f : analysis->findings)
            if (f.severity != Severity::Info) fired.insert(f.id);
        std::set<std::string> expected, allowed;
        for (const auto& id : c.value("expect", nlohmann::json::array()))
            expected.insert(id.get<std::string>());
        for (const auto& id : c.value("allow", nlohmann::json::array()))
            allowed.insert(id.get<std::string>());
        for (const std::string& id : expected) {
            IdScore& s = score.byId[id];
            if (fired.count(id)) {
                ++s.truePositives;
            } else {
                ++s.falseNegatives;
                score.misses.push_back(name + ": missed " + id);
            }
        }
        for (const std::string& id : fired)
            if (!expected.count(id) && !allowed.count(id)) {
                ++score.byId[id].falsePositives;
                score.misses.push_back(name + ": false alarm " + id);
            }
        if (c.value("healthy", false)) {
            ++score.healthy;
            if (rules::computeVerdict(*analysis, analysis->logs).clear)
                ++score.healthyClear;
            else
                score.misses.push_back(name + ": healthy but not clear");
        }
    }
    return score;
}

}  // namespace qatdoctor::core::test
