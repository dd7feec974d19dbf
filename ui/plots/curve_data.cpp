#include "ui/plots/curve_data.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace qatdoctor::ui {

std::vector<double> curveX(const core::logs::Series& s, XAxisMode mode, double offset, double wallStart)
{
    std::vector<double> x;
    const size_t n = s.size();
    switch (mode) {
    case XAxisMode::Step:
    case XAxisMode::QatAfterFloat:
        x.resize(n);
        for (size_t i = 0; i < n; ++i) x[i] = s.step[i] + offset;
        break;
    case XAxisMode::Epoch: {
        if (!s.hasEpoch()) break;
        x.resize(n);
        // points of one epoch spread evenly over [epoch, epoch + 1)
        for (size_t m = 0; m < s.epochs.size(); ++m) {
            const size_t b = s.epochs[m].begin;
            const size_t e = m + 1 < s.epochs.size() ? s.epochs[m + 1].begin : n;
            for (size_t i = b; i < e && i < n; ++i)
                x[i] = s.epochs[m].value + static_cast<double>(i - b) / static_cast<double>(std::max<size_t>(1, e - b));
        }
        for (size_t i = 0; i < std::min<size_t>(n, s.epochs.front().begin); ++i) x[i] = s.epochs.front().value;
        break;
    }
    case XAxisMode::WallTime:
        if (!s.hasWallTime()) break;
        x.resize(n);
        for (size_t i = 0; i < n; ++i) x[i] = (s.wallTimeAt(i).value_or(wallStart) - wallStart) / 3600.0;
        break;
    }
    return x;
}

std::vector<float> smoothEma(const std::vector<float>& y, double weight)
{
    std::vector<float> out(y.size());
    double last = 0;
    int64_t count = 0;
    for (size_t i = 0; i < y.size(); ++i) {
        const float v = y[i];
        if (!std::isfinite(v)) {
            out[i] = v;
            continue;
        }
        last = last * weight + (1.0 - weight) * v;
        ++count;
        const double debias = weight == 1.0 ? 1.0 : 1.0 - std::pow(weight, static_cast<double>(count));
        out[i] = static_cast<float>(debias > 0 ? last / debias : v);
    }
    return out;
}

DecimatedCurve decimate(const std::vector<double>& x, const float* y, size_t n, double xMin, double xMax, int pixels)
{
    DecimatedCurve out;
    if (n == 0 || x.size() < n) return out;
    pixels = std::max(1, pixels);
    const double width = xMax > xMin ? xMax - xMin : 1.0;
    const double scale = pixels / width;
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

    // range of indices to visit: first point >= xMin (minus one), last <= xMax (plus one); x is
    // mostly ascending, so binary search, with a linear fallback tolerated by bucketing.
    size_t lo = static_cast<size_t>(std::lower_bound(x.begin(), x.begin() + static_cast<long>(n), xMin) - x.begin());
    size_t hi = static_cast<size_t>(std::upper_bound(x.begin(), x.begin() + static_cast<long>(n), xMax) - x.begin());
    if (lo > 0) --lo;
    if (hi < n) ++hi;

    int64_t bucket = std::numeric_limits<int64_t>::min();
    size_t first = 0, minI = 0, maxI = 0, last = 0, count = 0;
    bool gapPending = false;
    auto flush = [&] {
        if (count == 0) return;
        size_t idx[4] = {first, minI < maxI ? minI : maxI, minI < maxI ? maxI : minI, last};
        size_t prev = SIZE_MAX;
        for (size_t k : idx) {
            if (k == prev) continue;
            out.x.push_back(x[k]);
            out.y.push_back(y[k]);
            prev = k;
        }
        count = 0;
    };
    for (size_t i = lo; i < hi; ++i) {
        const float v = y[i];
        if (!std::isfinite(v)) {
            out.badX.push_back(x[i]);
            out.badY.push_back(v);
            flush();
            if (!gapPending) {
                out.x.push_back(x[i]);
                out.y.push_back(kNaN);
                gapPending = true;
            }
            continue;
        }
        const bool prevBad = i == 0 || !std::isfinite(y[i - 1]);
        const bool nextBad = i + 1 >= n || !std::isfinite(y[i + 1]);
        if (prevBad && nextBad && n > 1) {
            out.isolatedX.push_back(x[i]);
            out.isolatedY.push_back(v);
        }
        gapPending = false;
        const auto b = static_cast<int64_t>(std::floor((x[i] - xMin) * scale));
        if (b != bucket || count == 0) {
            flush();
            bucket = b;
            first = minI = maxI = last = i;
            count = 1;
            continue;
        }
        if (v < y[minI]) minI = i;
        if (v > y[maxI]) maxI = i;
        last = i;
        ++count;
    }
    flush();
    return out;
}

}  // namespace qatdoctor::ui
