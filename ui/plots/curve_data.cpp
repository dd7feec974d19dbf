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
                    x[i] = s.epochs[m].value +
                           static_cast<double>(i - b) / static_cast<double>(std::max<size_t>(1, e - b));
            }
            for (size_t i = 0; i < std::min<size_t>(n, s.epochs.front().begin); ++i)
                x[i] = s.epochs.front().value;
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

core::logs::Series differenceSeries(const core::logs::Series& a, const core::logs::Series& b)
{
    core::logs::Series out;
    // b by ascending step (a restarted counter logs steps twice: the later value wins)
    std::vector<std::pair<double, float>> bs;
    bs.reserve(b.size());
    for (size_t i = 0; i < b.size(); ++i) bs.emplace_back(b.step[i], b.value[i]);
    std::stable_sort(bs.begin(), bs.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
    if (bs.empty()) return out;
    for (size_t i = 0; i < a.size(); ++i) {
        const double x = a.step[i];
        auto hi =
            std::upper_bound(bs.begin(), bs.end(), x, [](double v, const auto& p) { return v < p.first; });
        if (hi == bs.begin()) continue;  // before b's first step
        const auto lo = hi - 1;
        float at;
        if (lo->first == x) {
            at = lo->second;
        } else if (hi == bs.end()) {
            continue;  // past b's last step
        } else {
            const double t = (x - lo->first) / (hi->first - lo->first);
            at = static_cast<float>(lo->second + (hi->second - lo->second) * t);
        }
        out.push(x, a.value[i] - at, a.line[i]);
    }
    return out;
}

std::vector<float> smoothEma(std::span<const float> y, double weight)
{
    std::vector<float> out(y.size());
    double last = 0;
    // weight^count as a running product: pow() per point took seconds on 10 M points (and its
    // underflow path once the power reaches denormals); below 1e-300 the power is 0 for good.
    double power = 1;
    for (size_t i = 0; i < y.size(); ++i) {
        const float v = y[i];
        if (!std::isfinite(v)) {
            out[i] = v;
            continue;
        }
        last = last * weight + (1.0 - weight) * v;
        if (power != 0) power = power * weight < 1e-300 ? 0 : power * weight;
        const double debias = weight == 1.0 ? 1.0 : 1.0 - power;
        out[i] = static_cast<float>(debias > 0 ? last / debias : v);
    }
    return out;
}

namespace {

// One pixel column's points in x order: first, min and max (whichever comes first), last, each
// index once.
void appendColumn(DecimatedCurve& out, const std::vector<double>& x, const float* y, size_t first,
                  size_t minI, size_t maxI, size_t last)
{
    const size_t idx[4] = {first, std::min(minI, maxI), std::max(minI, maxI), last};
    size_t prev = SIZE_MAX;
    for (size_t k : idx) {
        if (k == prev) continue;
        out.x.push_back(x[k]);
        out.y.push_back(y[k]);
        prev = k;
    }
}

}  // namespace

DecimatedCurve decimate(const std::vector<double>& x, const float* y, size_t n, double xMin, double xMax,
                        int pixels)
{
    DecimatedCurve out;
    if (n == 0 || x.size() < n) return out;
    pixels = std::max(1, pixels);
    const double width = xMax > xMin ? xMax - xMin : 1.0;
    const double scale = pixels / width;
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

    // range of indices to visit: first point >= xMin (minus one), last <= xMax (plus one); x is
    // mostly ascending, so binary search, with a linear fallback tolerated by bucketing.
    size_t lo =
        static_cast<size_t>(std::lower_bound(x.begin(), x.begin() + static_cast<long>(n), xMin) - x.begin());
    size_t hi =
        static_cast<size_t>(std::upper_bound(x.begin(), x.begin() + static_cast<long>(n), xMax) - x.begin());
    if (lo > 0) --lo;
    if (hi < n) ++hi;

    int64_t bucket = std::numeric_limits<int64_t>::min();
    size_t first = 0, minI = 0, maxI = 0, last = 0, count = 0;
    bool gapPending = false;
    auto flush = [&] {
        if (count == 0) return;
        appendColumn(out, x, y, first, minI, maxI, last);
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

DecimationIndex::DecimationIndex(const float* y, size_t n) : m_y(y), m_n(n)
{
    for (size_t i = 0; i < n;) {
        if (std::isfinite(y[i])) {
            const bool prevBad = i == 0 || !std::isfinite(y[i - 1]);
            const bool nextBad = i + 1 >= n || !std::isfinite(y[i + 1]);
            if (prevBad && nextBad && n > 1) m_isolated.push_back(static_cast<uint32_t>(i));
            ++i;
            continue;
        }
        size_t e = i + 1;
        while (e < n && !std::isfinite(y[e])) ++e;
        m_badRuns.emplace_back(static_cast<uint32_t>(i), static_cast<uint32_t>(e));
        i = e;
    }
    // Level 0 from the points, each further level from pairs of the one below. Ties keep the
    // earlier index (as the linear scan does). Blocks holding non-finite values are never asked
    // for: queries stop at the bad runs.
    const size_t blocks0 = n >> kBaseShift;
    if (blocks0 == 0) return;
    m_min.emplace_back(blocks0);
    m_max.emplace_back(blocks0);
    for (size_t b = 0; b < blocks0; ++b) {
        const size_t s = b << kBaseShift;
        size_t mn = s, mx = s;
        for (size_t i = s + 1; i < s + (size_t{1} << kBaseShift); ++i) {
            if (y[i] < y[mn]) mn = i;
            if (y[i] > y[mx]) mx = i;
        }
        m_min[0][b] = static_cast<uint32_t>(mn);
        m_max[0][b] = static_cast<uint32_t>(mx);
    }
    while (m_min.back().size() >= 2) {
        const std::vector<uint32_t>& pmin = m_min.back();
        const std::vector<uint32_t>& pmax = m_max.back();
        std::vector<uint32_t> nmin(pmin.size() / 2), nmax(pmin.size() / 2);
        for (size_t b = 0; b < nmin.size(); ++b) {
            const uint32_t l = pmin[2 * b], r = pmin[2 * b + 1];
            nmin[b] = y[r] < y[l] ? r : l;
            const uint32_t L = pmax[2 * b], R = pmax[2 * b + 1];
            nmax[b] = y[R] > y[L] ? R : L;
        }
        m_min.push_back(std::move(nmin));
        m_max.push_back(std::move(nmax));
    }
}

void DecimationIndex::minMax(size_t b, size_t e, size_t& mn, size_t& mx) const
{
    mn = mx = b;
    size_t i = b + 1;
    auto raw = [&](size_t end) {
        for (; i < end; ++i) {
            if (m_y[i] < m_y[mn]) mn = i;
            if (m_y[i] > m_y[mx]) mx = i;
        }
    };
    // points up to the first 8-aligned index, then the largest aligned blocks that fit, in order
    raw(std::min(e, (i + 7) & ~size_t{7}));
    while (i + 8 <= e) {
        int level = 0;
        while (static_cast<size_t>(level + 1) < m_min.size()) {
            const size_t size = size_t{8} << (level + 1);
            if ((i & (size - 1)) != 0 || i + size > e) break;
            ++level;
        }
        const size_t block = i >> (kBaseShift + level);
        const uint32_t bmn = m_min[static_cast<size_t>(level)][block];
        const uint32_t bmx = m_max[static_cast<size_t>(level)][block];
        if (m_y[bmn] < m_y[mn]) mn = bmn;
        if (m_y[bmx] > m_y[mx]) mx = bmx;
        i += size_t{8} << level;
    }
    raw(e);
}

size_t DecimationIndex::bytes() const
{
    size_t b = (m_badRuns.capacity() * 8) + m_isolated.capacity() * 4;
    for (size_t l = 0; l < m_min.size(); ++l) b += (m_min[l].capacity() + m_max[l].capacity()) * 4;
    return b;
}

bool ascending(const std::vector<double>& x, size_t n)
{
    if (x.size() < n) return false;
    for (size_t i = 0; i < n; ++i)
        if (std::isnan(x[i]) || (i > 0 && x[i] < x[i - 1])) return false;
    return true;
}

DecimatedCurve decimate(const std::vector<double>& x, const DecimationIndex& index, const float* y,
                        double xMin, double xMax, int pixels)
{
    DecimatedCurve out;
    const size_t n = index.size();
    if (n == 0 || x.size() < n) return out;
    pixels = std::max(1, pixels);
    const double width = xMax > xMin ? xMax - xMin : 1.0;
    const double scale = pixels / width;
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    auto bucketOf = [&](double v) { return static_cast<int64_t>(std::floor((v - xMin) * scale)); };

    const auto xb = x.begin();
    size_t lo = static_cast<size_t>(std::lower_bound(xb, xb + static_cast<long>(n), xMin) - xb);
    size_t hi = static_cast<size_t>(std::upper_bound(xb, xb + static_cast<long>(n), xMax) - xb);
    if (lo > 0) --lo;
    if (hi < n) ++hi;
    if (lo >= hi) return out;

    for (auto it =
             std::lower_bound(index.isolated().begin(), index.isolated().end(), static_cast<uint32_t>(lo));
         it != index.isolated().end() && *it < hi; ++it) {
        out.isolatedX.push_back(x[*it]);
        out.isolatedY.push_back(y[*it]);
    }
    const auto& runs = index.badRuns();
    size_t r = static_cast<size_t>(
        std::partition_point(runs.begin(), runs.end(), [&](const auto& run) { return run.second <= lo; }) -
        runs.begin());
    bool gapPending = false;
    for (size_t i = lo; i < hi;) {
        while (r < runs.size() && runs[r].second <= i) ++r;
        if (r < runs.size() && runs[r].first <= i) {
            // non-finite stretch: every point a marker, one gap in the line
            const size_t end = std::min<size_t>(runs[r].second, hi);
            for (size_t k = i; k < end; ++k) {
                out.badX.push_back(x[k]);
                out.badY.push_back(y[k]);
            }
            if (!gapPending) {
                out.x.push_back(x[i]);
                out.y.push_back(kNaN);
                gapPending = true;
            }
            i = end;
            continue;
        }
        gapPending = false;
        const size_t limit = std::min<size_t>(hi, r < runs.size() ? runs[r].first : hi);
        const int64_t b = bucketOf(x[i]);
        // the points of this pixel column up to the next non-finite one (x ascending)
        const size_t j = static_cast<size_t>(
            std::partition_point(xb + static_cast<long>(i) + 1, xb + static_cast<long>(limit),
                                 [&](double v) { return bucketOf(v) <= b; }) -
            xb);
        size_t mn, mx;
        index.minMax(i, j, mn, mx);
        appendColumn(out, x, y, i, mn, mx, j - 1);
        i = j;
    }
    return out;
}

}  // namespace qatdoctor::ui
