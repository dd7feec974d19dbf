// The short number forms of user-visible sentences (finding titles, strengths, details): one
// place, so "0.3123" and "81.2%" read the same in the GUI, the CLI and the report.
#pragma once

#include <cstdint>
#include <string>

namespace qatdoctor::core {

// v with the given significant digits (%g): "0.3123", "1.2e+04"; non-finite values are "nan",
// "inf" and "-inf", as JSON spells them (finding_json.h).
std::string numberText(double v, int significantDigits);
// The short form of titles and details: four significant digits.
inline std::string shortNumber(double v)
{
    return numberText(v, 4);
}
// "512 B", "1.5 KiB", "6.0 MiB", "2.00 GiB".
std::string byteSizeText(uint64_t bytes);
// "81.2%" for the fraction 0.812.
std::string percentText(double fraction);

}  // namespace qatdoctor::core
