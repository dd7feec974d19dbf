// The one way the tool writes JSON text (analyze --json, JSON reports, model/simulate/logs
// --json, sessions). Logs and names are not always UTF-8 (a GBK log of a Chinese Windows
// machine, a Latin-1 CSV header, a file name in a legacy encoding): a byte that is not valid
// UTF-8 becomes U+FFFD instead of aborting the whole output.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace qatdoctor::core {

// indent < 0: compact, one line.
std::string jsonText(const nlohmann::json& j, int indent = 2);

}  // namespace qatdoctor::core
