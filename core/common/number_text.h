// The one formatter of numbers people read (finding titles, strengths, details, tables, the
// report, the CLI's text, the GUI's cells and tooltips): "0.3123", "81.2%", "14.38", and the
// non-finite values spelled one way everywhere: "NaN", "+Inf", "-Inf". JSON keeps its own
// spelling ("nan", "inf", "-inf": finding_json.h), since readers parse it.
#pragma once

#include <cstdint>
#include <string>

namespace qatdoctor::core {

// "NaN", "+Inf", "-Inf" for a non-finite v; "" for a finite one.
const char* nonFiniteText(double v);
// v with the given significant digits (%g): "0.3123", "1.2e+04".
std::string numberText(double v, int significantDigits);
// Titles, details, strengths: four significant digits.
inline std::string shortNumber(double v)
{
    return numberText(v, 4);
}
// Evidence, table cells, scales, steps: six significant digits.
inline std::string fullNumber(double v)
{
    return numberText(v, 6);
}
// v with a fixed number of decimals (%.Nf): "14.38"; never "-0.00".
std::string fixedText(double v, int decimals);
// fixedText with a sign: "+14.38", "+0.00", "-0.20" (gains and losses).
std::string signedFixedText(double v, int decimals);
// "81.2%" for the fraction 0.812.
std::string percentText(double fraction);
// "512 B", "1.5 KiB", "6.0 MiB", "2.00 GiB".
std::string byteSizeText(uint64_t bytes);

}  // namespace qatdoctor::core
