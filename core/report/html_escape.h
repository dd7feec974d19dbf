#pragma once

#include <string>
#include <string_view>

namespace qatdoctor::core::report {

// Text for HTML/SVG content and attribute values: & < > " ' escaped; bytes that are not valid
// UTF-8 become U+FFFD so that the file stays well-formed whatever a log line held.
std::string htmlEscape(std::string_view text);

}  // namespace qatdoctor::core::report
