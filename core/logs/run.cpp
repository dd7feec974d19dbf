#include "core/logs/run.h"

#include <charconv>
#include <cstdlib>

namespace qatdoctor::core::logs {

const char* roleName(RunRole r)
{
    switch (r) {
    case RunRole::Float: return "float";
    case RunRole::Calibration: return "calibration";
    case RunRole::Qat: return "qat";
    case RunRole::Quantized: return "quantized";
    case RunRole::Unknown: break;
    }
    return "unknown";
}

std::optional<RunRole> parseRole(const std::string& name)
{
    if (name == "float") return RunRole::Float;
    if (name == "calibration") return RunRole::Calibration;
    if (name == "qat") return RunRole::Qat;
    if (name == "quantized") return RunRole::Quantized;
    if (name == "unknown") return RunRole::Unknown;
    return std::nullopt;
}

const Series* Run::find(const std::string& metric) const
{
    auto it = series.find(metric);
    return it == series.end() ? nullptr : &it->second;
}

std::optional<double> Run::metadataNumber(const std::string& key) const
{
    auto it = metadata.find(key);
    if (it == metadata.end()) return std::nullopt;
    const std::string& s = it->second;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str()) return std::nullopt;
    return v;
}

const Run* LogSet::firstWithRole(RunRole role) const
{
    for (const Run& r : runs)
        if (r.role == role) return &r;
    return nullptr;
}

}  // namespace qatdoctor::core::logs
