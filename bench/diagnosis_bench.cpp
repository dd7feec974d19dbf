// diagnosis_bench: precision and recall of every finding id on each planted-problem corpus and
// on all of them together, and the share of healthy runs with a clear verdict. The corpora are the
// one we wrote (tests/data/diagnosis) and the blind ones built by helpers that never read the rules
// (tests/data/diagnosis_blind, diagnosis_blind2): a figure on the first alone says little about unseen runs.
// Usage:
//   build-bench/bench/diagnosis_bench [CORPUS_DIR...]
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/rules/diagnosis_score.h"

namespace {

using qatdoctor::core::test::DiagnosisScore;

void printScore(const char* title, const DiagnosisScore& s, double ms)
{
    std::printf("\n== %s ==\n", title);
    std::printf("%-34s %5s %5s %5s %9s %9s\n", "finding id", "tp", "fn", "fp", "recall", "precision");
    for (const auto& [id, sc] : s.byId)
        std::printf("%-34s %5zu %5zu %5zu %8.1f%% %8.1f%%\n", id.c_str(), sc.truePositives, sc.falseNegatives,
                    sc.falsePositives, 100 * sc.recall(), 100 * sc.precision());
    size_t falsePositives = 0;
    for (const auto& [id, sc] : s.byId) falsePositives += sc.falsePositives;
    std::printf(
        "all expected ids: %zu of %zu found (%.1f%%), %zu false alarms\n", s.truePositives(), s.expected(),
        s.expected() ? 100.0 * static_cast<double>(s.truePositives()) / static_cast<double>(s.expected())
                     : 0.0,
        falsePositives);
    std::printf("healthy runs with a clear verdict: %zu of %zu\n", s.healthyClear, s.healthy);
    if (ms > 0)
        std::printf("%zu cases analysed in %.0f ms (%.1f ms per case)\n", s.cases, ms,
                    ms / static_cast<double>(s.cases));
    for (const std::string& m : s.misses) std::printf("  %s\n", m.c_str());
}

void addInto(DiagnosisScore& all, const DiagnosisScore& s)
{
    for (const auto& [id, sc] : s.byId) {
        auto& a = all.byId[id];
        a.truePositives += sc.truePositives;
        a.falseNegatives += sc.falseNegatives;
        a.falsePositives += sc.falsePositives;
    }
    all.cases += s.cases;
    all.healthy += s.healthy;
    all.healthyClear += s.healthyClear;
}

}  // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> dirs(argv + 1, argv + argc);
    if (dirs.empty())
        for (const char* corpus : {"diagnosis", "diagnosis_blind", "diagnosis_blind2"})
            dirs.push_back(std::string(QATDOCTOR_SOURCE_DIR) + "/tests/data/" + corpus);
    DiagnosisScore all;
    double totalMs = 0;
    for (const std::string& dir : dirs) {
        const auto t0 = std::chrono::steady_clock::now();
        const DiagnosisScore s = qatdoctor::core::test::scoreDiagnosisCorpus(dir);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (s.cases == 0) {
            std::fprintf(stderr, "diagnosis_bench: no cases read from %s/MANIFEST.json\n", dir.c_str());
            return 2;
        }
        printScore(dir.c_str(), s, ms);
        addInto(all, s);
        totalMs += ms;
    }
    if (dirs.size() > 1) printScore("all corpora", all, totalMs);
    return 0;
}
