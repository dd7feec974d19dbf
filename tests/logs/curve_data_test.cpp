// The min/max pyramid decimation gives exactly what the linear per-pixel scan gives, on the
// real run fixtures (tests/data/runs, the demo logs: real NaN/Inf included), at several zooms and
// widths, also with non-finite stretches, isolated points and edge values put into real series.
#include "ui/plots/curve_data.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "core/logs/log_reader.h"

namespace qatdoctor::ui {
namespace {

bool sameValues(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
    return true;
}

// Compares both decimations over ranges from the whole series to a few points, and past its ends.
// Returns how many comparisons were made.
int compareAll(const std::vector<double>& x, const std::vector<float>& y, const std::string& what)
{
    const DecimationIndex index(y.data(), y.size());
    const double x0 = x.front(), x1 = x.back(), w = x1 - x0;
    const std::pair<double, double> ranges[] = {{x0, x1},
                                                {x0 - w * 0.1, x1 + w * 0.1},
                                                {x0 + w / 3, x0 + 2 * w / 3},
                                                {x0 + w * 0.01, x0 + w * 0.05},
                                                {x0 + w * 0.5, x0 + w * 0.5 + 3},
                                                {x1 + 1, x1 + 100}};
    int n = 0;
    for (const auto& [lo, hi] : ranges) {
        for (int pixels : {1, 7, 50, 333, 1400}) {
            const DecimatedCurve a = decimate(x, y.data(), y.size(), lo, hi, pixels);
            const DecimatedCurve b = decimate(x, index, y.data(), lo, hi, pixels);
            const std::string at = what + " [" + std::to_string(lo) + ", " + std::to_string(hi) + "] " +
                                   std::to_string(pixels) + " px";
            EXPECT_TRUE(sameValues(a.x, b.x)) << at;
            EXPECT_TRUE(sameValues(a.y, b.y)) << at;
            EXPECT_TRUE(sameValues(a.badX, b.badX)) << at;
            EXPECT_TRUE(sameValues(a.badY, b.badY)) << at;
            EXPECT_TRUE(sameValues(a.isolatedX, b.isolatedX)) << at;
            EXPECT_TRUE(sameValues(a.isolatedY, b.isolatedY)) << at;
            ++n;
        }
    }
    return n;
}

TEST(CurveData, PyramidDecimationMatchesTheLinearScanOnRealRuns)
{
    namespace fs = std::filesystem;
    std::vector<std::string> folders;
    for (const auto& e : fs::directory_iterator(std::string(QATDOCTOR_TEST_DATA) + "/runs"))
        if (e.is_directory()) folders.push_back(e.path().string());
    folders.push_back(std::string(QATDOCTOR_SOURCE_DIR) + "/resources/demo/logs");
    int series = 0, withNonFinite = 0, comparisons = 0;
    for (const std::string& folder : folders) {
        auto set = core::logs::readLogFolder(folder);
        ASSERT_TRUE(set.ok()) << folder;
        for (const auto& run : set->runs) {
            for (const auto& [name, s] : run.series) {
                if (s.size() < 2) continue;
                const std::vector<double> x = curveX(s, XAxisMode::Step, 0, 0);
                if (!ascending(x, s.size())) continue;
                ++series;
                const std::string what = folder + ":" + run.name + ":" + name;
                bool nonFinite = false;
                for (float v : s.value) nonFinite |= !std::isfinite(v);
                withNonFinite += nonFinite;
                const std::vector<float> values(s.value.begin(), s.value.end());
                comparisons += compareAll(x, values, what);

                // the same real values with non-finite stretches, isolated points and edges
                std::vector<float> y = values;
                const size_t n = y.size();
                constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
                y[0] = kNaN;
                for (size_t i = n / 3; i < std::min(n, n / 3 + 5); ++i) y[i] = kNaN;
                if (n > 10) {
                    y[n / 2 - 1] = INFINITY;  // n/2 stays finite between two non-finite points
                    y[n / 2 + 1] = -INFINITY;
                }
                y[n - 1] = kNaN;
                comparisons += compareAll(x, y, what + " (with gaps)");
            }
        }
    }
    EXPECT_GE(series, 50);
    EXPECT_GE(withNonFinite, 1);  // the nan_loss and divergence runs log real NaN/Inf
    EXPECT_GT(comparisons, 1000);
}

TEST(CurveData, PyramidMinMaxMatchesBruteForceOnEveryRange)
{
    // the first minimum and maximum, ties included (values repeat), for all ranges of a real-sized array
    std::vector<float> y;
    for (int i = 0; i < 300; ++i) y.push_back(static_cast<float>((i * 37) % 23));
    const DecimationIndex index(y.data(), y.size());
    for (size_t b = 0; b < y.size(); ++b) {
        for (size_t e = b + 1; e <= y.size(); ++e) {
            size_t mn = b, mx = b;
            for (size_t i = b + 1; i < e; ++i) {
                if (y[i] < y[mn]) mn = i;
                if (y[i] > y[mx]) mx = i;
            }
            size_t pmn, pmx;
            index.minMax(b, e, pmn, pmx);
            ASSERT_EQ(pmn, mn) << b << ".." << e;
            ASSERT_EQ(pmx, mx) << b << ".." << e;
        }
    }
}

}  // namespace
}  // namespace qatdoctor::ui
