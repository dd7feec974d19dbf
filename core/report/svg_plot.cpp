#include "core/report/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "core/common/number_text.h"
#include "core/common/y_scale.h"
#include "core/logs/run_palette.h"
#include "core/report/html_escape.h"

namespace qatdoctor::core::report {
namespace {

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// Rough advance of text in a sans font: Latin about half the font size a character, CJK (any
// multi-byte UTF-8 character here) a full em.
double estimatedTextWidth(const std::string& text, double fontSize)
{
    double w = 0;
    for (unsigned char ch : text) {
        if (ch < 0x80)
            w += 0.52 * fontSize;
        else if (ch >= 0xC0)
            w += fontSize;  // lead byte of a multi-byte character
    }
    return w;
}

std::string tickLabel(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", std::abs(v) < 1e-12 ? 0.0 : v);
    return buf;
}

struct Range {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    void add(double v)
    {
        if (!std::isfinite(v)) return;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    void settle()
    {
        if (!std::isfinite(lo)) lo = 0, hi = 1;
        if (hi - lo < 1e-12) lo -= 0.5, hi += 0.5;
    }
};

// 1e-5, 1e-4, ... within [lo, hi] (lo > 0).
std::vector<double> decadeTicks(double lo, double hi)
{
    std::vector<double> ticks;
    for (double e = std::ceil(std::log10(lo)); e <= std::floor(std::log10(hi)); ++e)
        ticks.push_back(std::pow(10.0, e));
    return ticks;
}

}  // namespace

YScale plotYScale(const PlotBlock& plot)
{
    if (!plot.autoScaleY) return {};
    std::vector<double> v;
    for (const PlotSeries& s : plot.series) v.insert(v.end(), s.y.begin(), s.y.end());
    for (const ReferenceLine& r : plot.references) v.push_back(r.y);
    return chooseYScale(v);
}

const char* roleColor(const std::string& role)
{
    return logs::runColor(logs::parseRole(role).value_or(logs::RunRole::Unknown), 0);
}

std::string seriesColor(const PlotSeries& s)
{
    return s.color.empty() ? roleColor(s.role) : s.color;
}

std::string legendText(const PlotSeries& s)
{
    return s.role.empty() ? s.name : s.name + " (" + s.role + ")";
}

std::vector<double> niceTicks(double lo, double hi, int target)
{
    std::vector<double> ticks;
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return ticks;
    const double raw = (hi - lo) / std::max(1, target);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * mag) {
            step = m * mag;
            break;
        }
    for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push_back(t);
    return ticks;
}

std::string renderSvgPlot(const PlotBlock& plot, int width, int height)
{
    // Named x ticks (layer names) are written slanted and need room below the axis.
    size_t longestTick = 0;
    for (const auto& [x, label] : plot.xTicks) longestTick = std::max(longestTick, label.size());
    const double tickRoom = plot.xTicks.empty() ? 18 : std::min(120.0, 10 + 4.2 * double(longestTick));
    const double left = 64, right = 16, top = 28, bottom = tickRoom + 26;
    const double legendH = 18.0 * double((plot.series.size() + plot.references.size() + 1 + 2) / 3 + 1);
    const double h = height + legendH;
    const double pw = width - left - right, ph = height - top - bottom;

    Range xr, yr;
    bool anyNonFinite = false;
    for (const PlotSeries& s : plot.series) {
        for (double x : s.x) xr.add(x);
        for (double y : s.y) yr.add(y);
        anyNonFinite = anyNonFinite || !s.nonFinite.empty();
    }
    for (const ReferenceLine& r : plot.references) yr.add(r.y);
    for (const MarkerLine& m : plot.markers) xr.add(m.x);
    for (const auto& [x, label] : plot.xTicks) xr.add(x);
    xr.settle();
    yr.settle();
    const YScale scale = plotYScale(plot);
    if (scale.valid) {
        yr.lo = scale.lo, yr.hi = scale.hi;
    } else {
        const double pad = (yr.hi - yr.lo) * 0.05;
        yr.lo -= pad, yr.hi += pad;
    }
    // Points at the first/last step stay visible; named ticks (layers) get half a slot each side.
    const double xpad = plot.xTicks.empty() ? (xr.hi - xr.lo) * 0.02 : 0.5;
    xr.lo -= xpad, xr.hi += xpad;
    auto X = [&](double x) { return left + (x - xr.lo) / (xr.hi - xr.lo) * pw; };
    // Off-scale values (outliers, or <= 0 on a log axis) are drawn on the edge they passed.
    auto Y = [&](double y) {
        const double f = scale.log ? (std::log10(yr.hi) - std::log10(std::max(y, yr.lo))) /
                                         (std::log10(yr.hi) - std::log10(yr.lo))
                                   : (yr.hi - y) / (yr.hi - yr.lo);
        return top + std::clamp(f, 0.0, 1.0) * ph;
    };

    std::string o;
    o += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"" + std::to_string(width) +
         "\" height=\"" + num(h) + "\" viewBox=\"0 0 " + std::to_string(width) + " " + num(h) +
         "\" role=\"img\">";
    o += "<title>" + htmlEscape(plot.title) + "</title>";
    o += "<text x=\"" + num(width / 2.0) +
         "\" y=\"18\" text-anchor=\"middle\" font-weight=\"bold\" font-size=\"14\">" +
         htmlEscape(plot.title) + "</text>";
    o += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(pw) + "\" height=\"" +
         num(ph) + "\" fill=\"none\" stroke=\"#888\"/>";
    std::vector<std::pair<double, std::string>> xTicks = plot.xTicks;
    if (xTicks.empty())
        for (double t : niceTicks(xr.lo, xr.hi)) xTicks.emplace_back(t, tickLabel(t));
    for (const auto& [t, label] : xTicks) {
        o += "<line x1=\"" + num(X(t)) + "\" y1=\"" + num(top) + "\" x2=\"" + num(X(t)) + "\" y2=\"" +
             num(top + ph) + "\" stroke=\"#eee\"/>";
        if (plot.xTicks.empty())
            o += "<text x=\"" + num(X(t)) + "\" y=\"" + num(top + ph + 14) +
                 "\" text-anchor=\"middle\" font-size=\"10\">" + htmlEscape(label) + "</text>";
        else
            o += "<text transform=\"translate(" + num(X(t) + 3) + "," + num(top + ph + 10) +
                 ") rotate(-40)\" text-anchor=\"end\" font-size=\"9\">" + htmlEscape(label) + "</text>";
    }
    for (double t : scale.log ? decadeTicks(yr.lo, yr.hi) : niceTicks(yr.lo, yr.hi)) {
        o += "<line x1=\"" + num(left) + "\" y1=\"" + num(Y(t)) + "\" x2=\"" + num(left + pw) + "\" y2=\"" +
             num(Y(t)) + "\" stroke=\"#eee\"/>";
        o += "<text x=\"" + num(left - 4) + "\" y=\"" + num(Y(t) + 3) +
             "\" text-anchor=\"end\" font-size=\"10\">" + tickLabel(t) + "</text>";
    }
    if (const size_t off = scale.above + scale.below; off > 0 && !plot.offScaleLabel.empty()) {
        std::string text = plot.offScaleLabel;
        if (const size_t at = text.find("%1"); at != std::string::npos)
            text.replace(at, 2, std::to_string(off));
        o += "<text class=\"offscale\" x=\"" + num(left + 4) + "\" y=\"" + num(top + 11) +
             "\" font-size=\"10\" fill=\"#666\">" + htmlEscape(text) + "</text>";
    }
    o += "<text x=\"" + num(left + pw / 2) + "\" y=\"" + num(top + ph + tickRoom + 14) +
         "\" text-anchor=\"middle\" font-size=\"11\">" + htmlEscape(plot.xLabel) + "</text>";
    o += "<text transform=\"translate(14," + num(top + ph / 2) +
         ") rotate(-90)\" text-anchor=\"middle\" font-size=\"11\">" + htmlEscape(plot.yLabel) + "</text>";

    for (const ReferenceLine& r : plot.references) {
        o += "<line x1=\"" + num(left) + "\" y1=\"" + num(Y(r.y)) + "\" x2=\"" + num(left + pw) + "\" y2=\"" +
             num(Y(r.y)) + "\" stroke=\"#444\" stroke-dasharray=\"6 4\"/>";
        o += "<text x=\"" + num(left + pw - 4) + "\" y=\"" + num(Y(r.y) - 4) +
             "\" text-anchor=\"end\" font-size=\"10\">" + htmlEscape(r.label) + "</text>";
    }
    double markerLabelY = top + 12;
    for (const MarkerLine& m : plot.markers) {
        o += std::string("<line class=\"marker\" x1=\"") + num(X(m.x)) + "\" y1=\"" + num(top) + "\" x2=\"" +
             num(X(m.x)) + "\" y2=\"" + num(top + ph) + "\" stroke=\"" + markerColor(m) +
             "\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>";
        const bool rightHalf = X(m.x) > left + pw * 0.6;  // keep the label inside the axes
        // A white ground keeps the label readable over the curves (a stroke halo would need
        // paint-order, which not every SVG viewer honours); its width is estimated.
        const double tx = X(m.x) + (rightHalf ? -4 : 4), tw = estimatedTextWidth(m.label, 10) + 4;
        o += "<rect x=\"" + num(rightHalf ? tx - tw + 2 : tx - 2) + "\" y=\"" + num(markerLabelY - 10) +
             "\" width=\"" + num(tw) + "\" height=\"13\" fill=\"#fff\" fill-opacity=\"0.85\"/>";
        o += "<text x=\"" + num(tx) + "\" y=\"" + num(markerLabelY) + "\" text-anchor=\"" +
             (rightHalf ? "end" : "start") + "\" font-size=\"10\" fill=\"" + markerColor(m) + "\">" +
             htmlEscape(m.label) + "</text>";
        markerLabelY += 13;  // a second marker's label goes below the first
    }
    std::map<std::string, int> perRole;
    for (const PlotSeries& s : plot.series) {
        const std::string color = seriesColor(s);
        // Two runs of one role share the colour; the second is dashed, further ones dotted.
        const int nth = perRole[color]++;
        const std::string dash = nth == 1   ? " stroke-dasharray=\"6 3\""
                                 : nth >= 2 ? " stroke-dasharray=\"2 2\""
                                            : "";
        std::string pts;
        auto flush = [&] {
            if (pts.empty()) return;
            o += "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"1.5\"" + dash +
                 " points=\"" + pts + "\"/>";
            pts.clear();
        };
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            if (!std::isfinite(s.y[i]) || !std::isfinite(s.x[i])) {
                flush();
                continue;
            }
            pts += num(X(s.x[i])) + "," + num(Y(s.y[i])) + " ";
        }
        flush();
        if (s.x.size() <= 20)  // a handful of evaluations would be invisible as a line alone
            for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
                if (std::isfinite(s.x[i]) && std::isfinite(s.y[i]))
                    o += "<circle cx=\"" + num(X(s.x[i])) + "\" cy=\"" + num(Y(s.y[i])) +
                         "\" r=\"2.5\" fill=\"" + color + "\"/>";
        for (size_t i : s.nonFinite) {
            if (i >= s.x.size() || !std::isfinite(s.x[i])) continue;
            const bool low = s.y[i] < 0 && std::isinf(s.y[i]);
            const double x = X(s.x[i]), y = low ? top + ph - 1 : top + 1;
            const double d = low ? -8 : 8;
            o += "<polygon class=\"nonfinite\" fill=\"#d62728\" stroke=\"" + color + "\" points=\"" + num(x) +
                 "," + num(y) + " " + num(x - 4) + "," + num(y + d) + " " + num(x + 4) + "," + num(y + d) +
                 "\"><title>" + htmlEscape(s.name) + ": " + nonFiniteText(s.y[i]) + " @ " +
                 tickLabel(s.x[i]) + "</title></polygon>";
        }
    }
    // Legend below the axes, three entries a row.
    struct Entry {
        std::string text, color, dash;
    };
    std::vector<Entry> legend;
    std::map<std::string, int> legendRole;
    for (const PlotSeries& s : plot.series) {
        const int nth = legendRole[seriesColor(s)]++;
        legend.push_back({legendText(s), seriesColor(s),
                          nth == 1   ? " stroke-dasharray=\"6 3\""
                          : nth >= 2 ? " stroke-dasharray=\"2 2\""
                                     : ""});
    }
    for (const ReferenceLine& r : plot.references)
        legend.push_back({r.label, "#444", " stroke-dasharray=\"6 4\""});
    if (anyNonFinite)
        legend.push_back({plot.nonFiniteLabel.empty() ? "NaN/Inf" : plot.nonFiniteLabel, "nonfinite", ""});
    for (size_t i = 0; i < legend.size(); ++i) {
        const double lx = left + double(i % 3) * (pw / 3), ly = height + 8 + double(i / 3) * 18.0;
        if (legend[i].color == "nonfinite")
            o += "<polygon fill=\"#d62728\" points=\"" + num(lx + 9) + "," + num(ly + 4) + " " + num(lx + 5) +
                 "," + num(ly - 4) + " " + num(lx + 13) + "," + num(ly - 4) + "\"/>";
        else
            o += "<line x1=\"" + num(lx) + "\" y1=\"" + num(ly) + "\" x2=\"" + num(lx + 18) + "\" y2=\"" +
                 num(ly) + "\" stroke=\"" + legend[i].color + "\" stroke-width=\"2\"" + legend[i].dash + "/>";
        o += "<text x=\"" + num(lx + 24) + "\" y=\"" + num(ly + 4) + "\" font-size=\"11\">" +
             htmlEscape(legend[i].text) + "</text>";
    }
    o += "</svg>";
    return o;
}

}  // namespace qatdoctor::core::report
