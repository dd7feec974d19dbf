#include "core/common/number_text.h"

#include <cmath>
#include <cstdio>

namespace qatdoctor::core {

std::string numberText(double v, int significantDigits)
{
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*g", significantDigits, v);
    return buf;
}

std::string percentText(double fraction)
{
    if (!std::isfinite(fraction)) return shortNumber(fraction);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", fraction * 100.0);
    return buf;
}

}  // namespace qatdoctor::core
