// CSV/TSV metric tables with a header row (delimiter detected from the header: ',', '\t', ';'
// or '|'). Columns named step/global_step/iter become the step, epoch the epoch, wall_time or
// timestamp the wall time; every other column is a series.
#pragma once

#include <string>
#include <string_view>

#include "core/logs/parsed_log.h"

namespace qatdoctor::core::logs {

int probeCsvLog(std::string_view name, std::string_view head);
// A table of results, not a training history: no step, epoch or iteration column, and rows named
// by text ("resnet18,INT8,1530.8,0.65,0.899": a benchmark of FP32 / AMP / INT8 builds).
bool csvIsResultTable(std::string_view head);
bool parseCsvLog(std::string_view bytes, const std::string& path, ParseState& state,
                 const LoadOptions& options, std::vector<ParsedLog>& parts);

}  // namespace qatdoctor::core::logs
