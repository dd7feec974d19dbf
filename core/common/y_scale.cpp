#include "core/common/y_scale.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace qatdoctor::core {
namespace {

// Outliers may be left off only when they are few: a long loss curve's first hundred steps are
// high on purpose, and a chart must never hide the start of training.
size_t maxOutliers(size_t n)
{
    return std::max<size_t>(2, n / 200);
}

double quantile(const std::vector<double>& sorted, double q)
{
    const double at = q * static_cast<double>(sorted.size() - 1);
    const auto i = static_cast<size_t>(at);
    const double frac = at - static_cast<double>(i);
    return i + 1 < sorted.size() ? sorted[i] + (sorted[i + 1] - sorted[i]) * frac : sorted[i];
}

YScale linear(double lo, double hi)
{
    YScale s;
    s.valid = true;
    const double span = hi > lo ? hi - lo : std::max(1e-6, std::fabs(hi) * 0.1);
    s.lo = lo - span * 0.05;
    s.hi = hi + span * 0.12;  // room at the top for the NaN/Inf markers
    return s;
}

YScale logarithmic(double lo, double hi)
{
    YScale s;
    s.valid = s.log = true;
    s.lo = lo / 1.3;
    s.hi = hi * 1.6;  // room at the top for the NaN/Inf markers
    return s;
}

}  // namespace

YScale chooseYScale(std::span<const double> values, YAxisMode mode)
{
    std::vector<double> v;
    v.reserve(values.size());
    for (double d : values)
        if (std::isfinite(d) && (mode != YAxisMode::Log || d > 0)) v.push_back(d);
    if (v.empty()) return {};
    std::sort(v.begin(), v.end());
    const double lo = v.front(), hi = v.back();
    if (mode == YAxisMode::Linear) return linear(lo, hi);
    if (mode == YAxisMode::Log || (lo > 0 && std::log10(hi / lo) > kLogScaleDecades))
        return logarithmic(lo, hi);
    // Tukey's far-out fences: a point beyond three interquartile ranges is an outlier. Leave
    // them off only when few, and when showing them would squeeze the bulk to a fifth or less.
    if (v.size() >= 4) {
        const double q1 = quantile(v, 0.25), q3 = quantile(v, 0.75);
        const double iqr = q3 - q1;
        const double fenceLo = q1 - 3 * iqr, fenceHi = q3 + 3 * iqr;
        const auto first = std::lower_bound(v.begin(), v.end(), fenceLo);
        const auto last = std::upper_bound(v.begin(), v.end(), fenceHi);
        const auto below = static_cast<size_t>(first - v.begin());
        const auto above = static_cast<size_t>(v.end() - last);
        if (iqr > 0 && below + above > 0 && below + above <= maxOutliers(v.size()) && first < last) {
            const double bulkLo = *first, bulkHi = *(last - 1);
            if ((hi - lo) >= 5 * (bulkHi - bulkLo)) {
                YScale s = linear(bulkLo, bulkHi);
                s.above = above;
                s.below = below;
                return s;
            }
        }
    }
    return linear(lo, hi);
}

}  // namespace qatdoctor::core
