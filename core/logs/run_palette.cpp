#include "core/logs/run_palette.h"

#include <array>
#include <map>

namespace qatdoctor::core::logs {
namespace {

// Shades ordered so neighbours differ in lightness as well as hue: the base colour, a dark,
// a light, then a neighbouring hue.
constexpr size_t kShades = 4;
struct Family {
    RunRole role;
    std::array<const char*, kShades> shades;
};
constexpr std::array<Family, 5> kFamilies{{
    {RunRole::Float, {"#1f77b4", "#0b3c7a", "#5fa8e0", "#17a2b8"}},
    {RunRole::Calibration, {"#ff7f0e", "#a84f00", "#ffb366", "#c9a000"}},
    {RunRole::Qat, {"#d62728", "#7f0f10", "#f08080", "#d6338f"}},
    {RunRole::Quantized, {"#9467bd", "#542a85", "#c0a0e0", "#8c564b"}},
    {RunRole::Unknown, {"#7f7f7f", "#3b3b3b", "#b0b0b0", "#9a9c1f"}},
}};

}  // namespace

const char* runColor(RunRole role, size_t nthOfRole)
{
    for (const Family& f : kFamilies)
        if (f.role == role) return f.shades[nthOfRole % kShades];
    return kFamilies.back().shades[nthOfRole % kShades];
}

std::vector<std::string> runColors(const std::vector<Run>& runs)
{
    std::vector<std::string> out;
    out.reserve(runs.size());
    std::map<RunRole, size_t> seen;
    for (const Run& r : runs) out.emplace_back(runColor(r.role, seen[r.role]++));
    return out;
}

}  // namespace qatdoctor::core::logs
