// CSV/TSV metric tables with a header row (delimiter detected from the header: ',', '\t', ';'
// or '|'). Columns named step/global_step/iter become the step, epoch the epoch, wall_time or
// timestamp the wall time; every other column is a series.
#pragma once

#include <string>
#include <string_view>

#include "core/logs/parsed_log.h"

namespace qatdoctor::core::logs {

int probeCsvLog(std::string_view name, std::string_view head);
bool parseCsvLog(std::string_view bytes, const std::string& path, ParseState& state,
                 const LoadOptions& options, std::vector<ParsedLog>& parts);

}  // namespace qatdoctor::core::logs
