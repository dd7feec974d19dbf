// JSON lines: one object per line, flat or nested ({"val": {"acc": 0.7}} -> "val/acc"), with
// the NaN / Infinity / -Infinity tokens Python's json module writes. step/global_step/iter,
// epoch and wall_time/timestamp keys are the axes; other numbers are series; a line of only
// hyper-parameters (no step or epoch) is run metadata.
#pragma once

#include <string>
#include <string_view>

#include "core/logs/parsed_log.h"

namespace qatdoctor::core::logs {

int probeJsonlLog(std::string_view name, std::string_view head);
bool parseJsonlLog(std::string_view bytes, const std::string& path, ParseState& state,
                   const LoadOptions& options, std::vector<ParsedLog>& parts);

}  // namespace qatdoctor::core::logs
