// Warnings torch and the toolchain print that name a cause the rules otherwise infer from
// numbers ("must run observer before calling calculate_qparams": an observer never saw data,
// so its layer was quantized with the default scale). Each is added as evidence to the finding
// it explains (the quantized model's accuracy gap), or becomes a finding of its own when no
// finding explains it yet, so it is never left in the appendix alone.
#pragma once

#include "core/common/check_results.h"
#include "core/logs/run.h"

namespace qatdoctor::core::rules {

void explainWithKnownWarnings(const logs::LogSet& logs, CheckResults& results);

}  // namespace qatdoctor::core::rules
