// Summary numbers of a series (what `logs` prints and the rules quote): counts, first/last,
// finite min/max and the first non-finite point with its source.
#pragma once

#include <cstddef>
#include <optional>

#include "core/logs/run.h"

namespace qatdoctor::core::logs {

struct SeriesStats {
    size_t points = 0;
    size_t nonFinite = 0;
    std::optional<double> min, max;        // over finite values
    std::optional<size_t> firstNonFinite;  // index of the first NaN/Inf point
};

SeriesStats seriesStats(const Series& s);

}  // namespace qatdoctor::core::logs
