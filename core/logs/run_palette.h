// The colour of each run on every chart (the app's curves, the PDF and the HTML report): the
// role picks the hue family (float blue, calibration orange, QAT red, quantized purple, unknown
// grey) and the run's place among the runs of its role picks the shade, so two QAT runs differ
// at a glance and a run keeps its colour from the app to the report.
#pragma once

#include <string>
#include <vector>

#include "core/logs/run.h"

namespace qatdoctor::core::logs {

// Marks that call for attention on any chart (NaN/Inf, crash lines, evidence, the first bad
// layer): one red, in the app and the report.
inline constexpr const char* kMarkColor = "#d62728";

// "#rrggbb" of the nth run (0-based) of a role; the shades repeat after the fourth.
const char* runColor(RunRole role, size_t nthOfRole);

// The colour of each run of runs, by index, counted in the order the runs are listed.
std::vector<std::string> runColors(const std::vector<Run>& runs);

}  // namespace qatdoctor::core::logs
