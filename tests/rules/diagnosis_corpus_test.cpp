// The diagnosis on the planted-problem corpus (tests/data/diagnosis): today's figures, pinned. A
// rule change that loses recall on an id, raises a false alarm, or clouds a healthy verdict
// fails here; one that gains lets the pins rise (diagnosis_bench prints the full table).
#include <gtest/gtest.h>

#include <iostream>

#include "tests/rules/diagnosis_score.h"

namespace qatdoctor::core::test {
namespace {

// Today's figures (diagnosis_bench): all 50 expected ids, no false alarm, all 12 healthy runs
// clear (healthy_val_nan_recovers keeps its warning, marked recovered, outside the verdict).
constexpr size_t PINNED_TRUE_POSITIVES = 50;
constexpr size_t PINNED_HEALTHY_CLEAR = 12;

TEST(DiagnosisCorpus, RecallAndPrecisionDoNotFallBelowTodays)
{
    const DiagnosisScore s = scoreDiagnosisCorpus(std::string(QATDOCTOR_TEST_DATA) + "/diagnosis");
    ASSERT_GE(s.cases, 62u);
    std::string misses;
    for (const std::string& m : s.misses) misses += "\n  " + m;
    // expected ids found, of all expected (the README of the corpus lists the cases)
    EXPECT_GE(s.truePositives(), PINNED_TRUE_POSITIVES) << misses;
    // no warning or error fires where the manifest neither expects nor allows it
    for (const auto& [id, sc] : s.byId) EXPECT_EQ(sc.falsePositives, 0u) << id << misses;
    EXPECT_GE(s.healthyClear, PINNED_HEALTHY_CLEAR) << misses;
    // and every id with planted cases at the bar: recall and precision of 95% or more
    for (const auto& [id, sc] : s.byId) {
        if (sc.truePositives + sc.falseNegatives == 0) continue;
        EXPECT_GE(sc.recall(), 0.95) << id << misses;
        EXPECT_GE(sc.precision(), 0.95) << id << misses;
    }
}

}  // namespace
}  // namespace qatdoctor::core::test

namespace qatdoctor::core::test {
namespace {

// The blind corpora (built by helpers that did not read the rules or the readers, scored before
// anyone looked, then folded in): today's figures, pinned. Their misses are printed (the closing
// notes of #43 say why each is left).
struct BlindPins {
    const char* folder;
    size_t cases, truePositives, healthyClear, falsePositives;
};

void expectBlindFigures(const BlindPins& pins)
{
    const DiagnosisScore s = scoreDiagnosisCorpus(std::string(QATDOCTOR_TEST_DATA) + "/" + pins.folder);
    ASSERT_EQ(s.cases, pins.cases);
    std::string misses;
    size_t falsePositives = 0;
    for (const std::string& m : s.misses) misses += "\n  " + m;
    for (const auto& [id, sc] : s.byId) falsePositives += sc.falsePositives;
    std::cout << "[ " << pins.folder << " ] expected ids found " << s.truePositives() << "/" << s.expected()
              << ", healthy clear " << s.healthyClear << "/" << s.healthy << ", false alarms "
              << falsePositives << misses << "\n";
    EXPECT_GE(s.truePositives(), pins.truePositives) << misses;
    EXPECT_GE(s.healthyClear, pins.healthyClear) << misses;
    EXPECT_LE(falsePositives, pins.falsePositives) << misses;
}

TEST(DiagnosisCorpus, BlindCorpusFiguresDoNotFall)
{
    expectBlindFigures({"diagnosis_blind", 37, 21, 14, 2});
}

TEST(DiagnosisCorpus, SecondBlindCorpusFiguresDoNotFall)
{
    expectBlindFigures({"diagnosis_blind2", 33, 15, 11, 1});
}

}  // namespace
}  // namespace qatdoctor::core::test
