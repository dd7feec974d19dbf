// The plot-side view of one series of one run: x values for the chosen axis mode, the raw
// values, the TensorBoard-style smoothed values, and per-pixel min/max decimation so ten
// million points draw in milliseconds. Plain C++ (no widgets), tested and benchmarked alone.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/logs/run.h"

namespace qatdoctor::ui {

enum class XAxisMode { Step, Epoch, WallTime, QatAfterFloat };

// x for every point of s: the step, the epoch (fractional within an epoch), hours since the
// run's first wall time, or step + offset ("QAT after float": offset = float's last step).
// Empty when the mode has no data (no epochs / no wall time).
std::vector<double> curveX(const core::logs::Series& s, XAxisMode mode, double offset, double wallStart);

// a − b at a's steps (the "QAT − float" curve): b's value at the same step, or linearly
// interpolated between b's neighbouring steps; a's points outside b's step range are left out.
// Non-finite values propagate (a NaN in either is a NaN in the difference).
core::logs::Series differenceSeries(const core::logs::Series& a, const core::logs::Series& b);

// TensorBoard's debiased exponential moving average (weight in [0, 1)); NaN/Inf pass through
// without entering the average.
std::vector<float> smoothEma(std::span<const float> y, double weight);

struct DecimatedCurve {
    std::vector<double> x, y;                  // line points (NaN y = a gap)
    std::vector<double> isolatedX, isolatedY;  // finite points with no finite neighbour: drawn as dots
    std::vector<double> badX, badY;            // non-finite points (y = the value: NaN, +Inf, -Inf)
};

// Keeps, per pixel column of [xMin, xMax], the first, min, max and last finite value (in
// order), so the drawn shape is exact at the pixel level. x must be ascending-ish (points are
// bucketed, not sorted). One point either side of the range is kept so lines reach the edge.
DecimatedCurve decimate(const std::vector<double>& x, const float* y, size_t n, double xMin, double xMax,
                        int pixels);

// Built once per y array so that a redraw at any zoom costs O(pixels x log n), not O(points):
// the first minimum and maximum of every block of 2^k points (k >= 3, per level), the runs of
// non-finite values and the isolated points. Keeps a pointer to y (which must outlive it).
class DecimationIndex {
public:
    DecimationIndex() = default;
    DecimationIndex(const float* y, size_t n);

    size_t size() const { return m_n; }
    // Indices of the first minimum and the first maximum of y[b, e) (b < e, all finite).
    void minMax(size_t b, size_t e, size_t& mn, size_t& mx) const;
    const std::vector<std::pair<uint32_t, uint32_t>>& badRuns() const { return m_badRuns; }  // [begin, end)
    const std::vector<uint32_t>& isolated() const { return m_isolated; }
    size_t bytes() const;

private:
    static constexpr int kBaseShift = 3;  // level 0 blocks hold 8 points
    const float* m_y = nullptr;
    size_t m_n = 0;
    std::vector<std::vector<uint32_t>> m_min, m_max;  // level L: blocks of 8 << L points
    std::vector<std::pair<uint32_t, uint32_t>> m_badRuns;
    std::vector<uint32_t> m_isolated;
};

// True when x never decreases (and holds no NaN): the precondition of the indexed decimate.
bool ascending(const std::vector<double>& x, size_t n);

// The same result as decimate(x, index's y, ...) for ascending x, in O(pixels x log n) plus the
// non-finite and isolated points in range.
DecimatedCurve decimate(const std::vector<double>& x, const DecimationIndex& index, const float* y,
                        double xMin, double xMax, int pixels);

}  // namespace qatdoctor::ui
