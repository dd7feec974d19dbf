// Plain-text training logs, line by line: HAT's `Epoch[0] Step[99] GlobalStep[99] prefix:
// loss[0.1234]` and `... lr=0.01`, `key: value`, `key=value`, `'key': value`, `name [value]`,
// `Epoch [3/90] Step [120/5004]` counters, Python-logging prefixes (their time becomes the wall
// time), header hyper-parameters (-> metadata) and errors, tracebacks, warnings and
// checkpoint lines (-> events).
#pragma once

#include <string>
#include <string_view>

#include "core/logs/parsed_log.h"

namespace qatdoctor::core::logs {

int probeTextLog(std::string_view name, std::string_view head);
bool parseTextLog(std::string_view bytes, const std::string& path, ParseState& state,
                  const LoadOptions& options, std::vector<ParsedLog>& parts);

}  // namespace qatdoctor::core::logs
