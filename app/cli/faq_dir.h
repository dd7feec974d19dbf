// Where the CLI finds the FAQ trees: the installed layout first (bin/../share/qatdoctor/faq),
// then the source tree this was built from (running from a build folder).
#pragma once

#include <string>

namespace qatdoctor::cli {

std::string defaultFaqDir();

}  // namespace qatdoctor::cli
