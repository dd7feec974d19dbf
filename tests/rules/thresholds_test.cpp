// The embedded thresholds file is complete and documented; user files override a subset.
#include "core/rules/thresholds.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/common/file_io.h"

namespace qatdoctor::core::rules {
namespace {

TEST(Thresholds, EmbeddedFileEqualsTheResource)
{
    auto text = readFile(std::string(QATDOCTOR_SOURCE_DIR) + "/resources/thresholds.json");
    ASSERT_TRUE(text.ok());
    EXPECT_EQ(std::string(defaultThresholdsJson()), *text);
}

TEST(Thresholds, EveryEntryHasAValueAndAReason)
{
    auto infos = describeThresholds();
    ASSERT_TRUE(infos.ok()) << infos.error().toString();
    EXPECT_EQ(infos->size(), 26u);
    for (const ThresholdInfo& i : *infos) {
        EXPECT_GT(i.value, 0) << i.key;
        EXPECT_GT(i.reason.en.size(), 40u) << i.key;
        EXPECT_GT(i.reason.zh.size(), 40u) << i.key;
        EXPECT_NE(i.reason.zh, i.reason.en) << i.key << ": the Chinese report needs its own text";
    }
}

TEST(Thresholds, DefaultsAreSetFromTheFile)
{
    // Starting from an all-zero struct, every member must be set by the embedded file.
    auto t = applyThresholds(defaultThresholdsJson(), "embedded", Thresholds{});
    ASSERT_TRUE(t.ok());
    const double* begin = reinterpret_cast<const double*>(&*t);
    for (size_t i = 0; i < sizeof(Thresholds) / sizeof(double); ++i) EXPECT_GT(begin[i], 0) << i;
    EXPECT_EQ(t->divergenceGrowthFactor, 100);
    EXPECT_EQ(t->quantizedGapMaxDrop, 0.02);
}

TEST(Thresholds, PartialOverrideKeepsTheRest)
{
    auto t = applyThresholds(R"({"thresholds": {"quantized_gap.max_drop": 0.05,
                                                "calib_low.max_drop": {"value": 0.2, "reason": "mine"}}})",
                             "mine.json", defaultThresholds());
    ASSERT_TRUE(t.ok()) << t.error().toString();
    EXPECT_EQ(t->quantizedGapMaxDrop, 0.05);
    EXPECT_EQ(t->calibLowMaxDrop, 0.2);
    EXPECT_EQ(t->divergenceGrowthFactor, 100);
}

TEST(Thresholds, ErrorsNameTheFileAndKey)
{
    auto unknown = applyThresholds(R"({"thresholds": {"quantized_gap.maxdrop": 0.05}})", "mine.json", {});
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.error().code, "thresholds.unknown_key");
    EXPECT_NE(unknown.error().message.find("mine.json"), std::string::npos);
    EXPECT_NE(unknown.error().message.find("quantized_gap.maxdrop"), std::string::npos);

    auto negative = applyThresholds(R"({"thresholds": {"overfit.max_gap": -1}})", "mine.json", {});
    ASSERT_FALSE(negative.ok());
    EXPECT_EQ(negative.error().code, "thresholds.value");

    auto broken = applyThresholds("{nope", "mine.json", {});
    ASSERT_FALSE(broken.ok());
    EXPECT_EQ(broken.error().code, "thresholds.parse");

    auto missing = loadThresholds("/nonexistent/thresholds.json");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("/nonexistent/thresholds.json"), std::string::npos);
}

TEST(Thresholds, LoadFromFile)
{
    const auto path = std::filesystem::temp_directory_path() / "qatdoctor_thresholds_test.json";
    std::ofstream(path) << R"({"schema": 1, "thresholds": {"overfit.max_gap": 0.3}})";
    auto t = loadThresholds(path.string());
    std::filesystem::remove(path);
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t->overfitMaxGap, 0.3);
    EXPECT_EQ(t->qatStartLossRatio, 3);
}

}  // namespace
}  // namespace qatdoctor::core::rules
