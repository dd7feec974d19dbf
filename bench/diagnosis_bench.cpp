// diagnosis_bench: precision and recall of every finding id on the planted-problem corpus
// (tests/data/diagnosis), and the share of healthy runs with a clear verdict. Usage:
//   build-bench/bench/diagnosis_bench [CORPUS_DIR]
#include <chrono>
#include <cstdio>

#include "tests/rules/diagnosis_score.h"

int main(int argc, char** argv)
{
    const std::string dir = argc > 1 ? argv[1] : std::string(QATDOCTOR_SOURCE_DIR) + "/tests/data/diagnosis";
    const auto t0 = std::chrono::steady_clock::now();
    const qatdoctor::core::test::DiagnosisScore s = qatdoctor::core::test::scoreDiagnosisCorpus(dir);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (s.cases == 0) {
        std::fprintf(stderr, "diagnosis_bench: no cases read from %s/MANIFEST.json\n", dir.c_str());
        return 2;
    }
    std::printf("%-34s %5s %5s %5s %9s %9s\n", "finding id", "tp", "fn", "fp", "recall", "precision");
    for (const auto& [id, sc] : s.byId)
        std::printf("%-34s %5zu %5zu %5zu %8.1f%% %8.1f%%\n", id.c_str(), sc.truePositives, sc.falseNegatives,
                    sc.falsePositives, 100 * sc.recall(), 100 * sc.precision());
    std::printf("all expected ids: %zu of %zu found (%.1f%%)\n", s.truePositives(), s.expected(),
                s.expected()
                    ? 100.0 * static_cast<double>(s.truePositives()) / static_cast<double>(s.expected())
                    : 0.0);
    std::printf("healthy runs with a clear verdict: %zu of %zu\n", s.healthyClear, s.healthy);
    std::printf("%zu cases analysed in %.0f ms (%.1f ms per case)\n", s.cases, ms,
                ms / static_cast<double>(s.cases));
    for (const std::string& m : s.misses) std::printf("  %s\n", m.c_str());
    return 0;
}
