#include "core/logs/series_stats.h"

#include <cmath>

namespace qatdoctor::core::logs {

SeriesStats seriesStats(const Series& s)
{
    SeriesStats st;
    st.points = s.size();
    float lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < s.value.size(); ++i) {
        const float v = s.value[i];
        if (!std::isfinite(v)) {
            if (!st.firstNonFinite) st.firstNonFinite = i;
            ++st.nonFinite;
            continue;
        }
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (std::isfinite(lo)) {
        st.min = lo;
        st.max = hi;
    }
    return st;
}

}  // namespace qatdoctor::core::logs
