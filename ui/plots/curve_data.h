// The plot-side view of one series of one run: x values for the chosen axis mode, the raw
// values, the TensorBoard-style smoothed values, and per-pixel min/max decimation so ten
// million points draw in milliseconds. Plain C++ (no widgets), tested and benchmarked alone.
#pragma once

#include <cstdint>
#include <vector>

#include "core/logs/run.h"

namespace qatdoctor::ui {

enum class XAxisMode { Step, Epoch, WallTime, QatAfterFloat };

// x for every point of s: the step, the epoch (fractional within an epoch), hours since the
// run's first wall time, or step + offset ("QAT after float": offset = float's last step).
// Empty when the mode has no data (no epochs / no wall time).
std::vector<double> curveX(const core::logs::Series& s, XAxisMode mode, double offset, double wallStart);

// TensorBoard's debiased exponential moving average (weight in [0, 1)); NaN/Inf pass through
// without entering the average.
std::vector<float> smoothEma(const std::vector<float>& y, double weight);

struct DecimatedCurve {
    std::vector<double> x, y;          // line points (NaN y = a gap)
    std::vector<double> isolatedX, isolatedY;  // finite points with no finite neighbour: drawn as dots
    std::vector<double> badX, badY;    // non-finite points (y = the value: NaN, +Inf, -Inf)
};

// Keeps, per pixel column of [xMin, xMax], the first, min, max and last finite value (in
// order), so the drawn shape is exact at the pixel level. x must be ascending-ish (points are
// bucketed, not sorted). One point either side of the range is kept so lines reach the edge.
DecimatedCurve decimate(const std::vector<double>& x, const float* y, size_t n, double xMin, double xMax,
                        int pixels);

}  // namespace qatdoctor::ui
