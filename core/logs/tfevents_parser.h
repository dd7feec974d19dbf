// TensorBoard event files (events.out.tfevents.*): TFRecord framing (length, masked CRC-32C of
// the length, data, masked CRC-32C of the data) around Event messages. Scalars come from
// Summary.Value.simple_value and from one-element tensors (float, double, int, half). A record
// whose data CRC does not match is skipped and counted; a broken length ends the file.
#pragma once

#include <string>
#include <string_view>

#include "core/logs/parsed_log.h"

namespace qatdoctor::core::logs {

int probeTfEvents(std::string_view name, std::string_view head);
bool parseTfEvents(std::string_view bytes, const std::string& path, ParseState& state,
                   const LoadOptions& options, std::vector<ParsedLog>& parts);

}  // namespace qatdoctor::core::logs
