// How a chart's y axis shows a set of values, decided one way for the app's curves and the
// report's charts: linear over everything; logarithmic when the positive values span more than
// three decades (an exploding loss, a warm-up lr); or linear over the bulk when a few far
// outliers would flatten the rest into a line (they are counted so the reader is told).
#pragma once

#include <cstddef>
#include <span>

namespace qatdoctor::core {

struct YScale {
    bool valid = false;  // false: no finite value to show
    bool log = false;
    double lo = 0, hi = 1;        // the range to show (padded)
    size_t above = 0, below = 0;  // values left off the range (outliers)
};

// Decades the positive values must span before the axis turns logarithmic.
inline constexpr double kLogScaleDecades = 3.0;

// Auto: the rule above; Linear: every value, linearly; Log: the positive values, logarithmically.
enum class YAxisMode { Auto, Linear, Log };

// Non-finite values are ignored (they get markers of their own).
YScale chooseYScale(std::span<const double> values, YAxisMode mode = YAxisMode::Auto);

}  // namespace qatdoctor::core
