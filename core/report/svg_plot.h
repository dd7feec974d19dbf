// A PlotBlock as inline SVG for the HTML report: axes with round ticks, labels, legend, one
// polyline per series broken where values are not finite, NaN/Inf marked by triangles at the
// plot's edge (top for NaN/+Inf, bottom for -Inf), and dashed horizontal reference lines.
#pragma once

#include <string>
#include <vector>

#include "core/common/y_scale.h"
#include "core/logs/run_palette.h"
#include "core/report/report_document.h"

namespace qatdoctor::core::report {

std::string renderSvgPlot(const PlotBlock& plot, int width = 720, int height = 360);

// "Round" tick values covering [lo, hi] (about `target` of them; 1-2-5 steps).
std::vector<double> niceTicks(double lo, double hi, int target = 6);

// The y axis of a chart with autoScaleY (both writers draw it so); invalid otherwise.
YScale plotYScale(const PlotBlock& plot);

// Stroke colour of a run role ("#rrggbb"); the PDF uses the same palette.
const char* roleColor(const std::string& role);
// A series' own colour when it has one, else its role's.
std::string seriesColor(const PlotSeries& s);
// Legend text: "name (role)", or the name alone for a series without a role.
std::string legendText(const PlotSeries& s);

// Marker lines without their own colour are drawn in this one, in both writers.
inline constexpr const char* kMarkerColor = logs::kMarkColor;
inline std::string markerColor(const MarkerLine& m)
{
    return m.color.empty() ? kMarkerColor : m.color;
}

}  // namespace qatdoctor::core::report
