// What every benchmark measures with: a steady clock, milliseconds between two of its points, and
// the median of runs (the middle run; the mean of the two middle ones for an even count).
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace qatdoctor::bench {

using Clock = std::chrono::steady_clock;

inline double ms(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double, std::milli>(b - a).count();
}

inline double median(std::vector<double> v)
{
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace qatdoctor::bench
