#include "core/common/number_text.h"

#include <cmath>
#include <cstdio>

namespace qatdoctor::core {

const char* nonFiniteText(double v)
{
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
    return "";
}

std::string numberText(double v, int significantDigits)
{
    if (!std::isfinite(v)) return nonFiniteText(v);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*g", significantDigits, v);
    return buf;
}

std::string fixedText(double v, int decimals)
{
    if (!std::isfinite(v)) return nonFiniteText(v);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    // a tiny negative value rounds to "-0.00": zero has no sign
    if (s.front() == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
    return s;
}

std::string signedFixedText(double v, int decimals)
{
    std::string s = fixedText(v, decimals);
    return std::isfinite(v) && s.front() != '-' ? "+" + s : s;
}

std::string byteSizeText(uint64_t bytes)
{
    char buf[32];
    if (bytes < 1024)
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else if (bytes < (1u << 20))
        std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
    else if (bytes < (1ull << 30))
        std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / 1048576.0);
    else
        std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / 1073741824.0);
    return buf;
}

std::string percentText(double fraction)
{
    if (!std::isfinite(fraction)) return nonFiniteText(fraction);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", fraction * 100.0);
    return buf;
}

}  // namespace qatdoctor::core
