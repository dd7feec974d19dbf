// The short number forms of user-visible sentences (finding titles, strengths, details): one
// place, so "0.3123" and "81.2%" read the same in the GUI, the CLI and the report.
#pragma once

#include <string>

namespace qatdoctor::core {

// "0.3123", "1.2e+04", "nan", "inf": four significant digits.
std::string shortNumber(double v);
// "81.2%" for the fraction 0.812.
std::string percentText(double fraction);

}  // namespace qatdoctor::core
