// The JSON pieces of a Finding shared by every JSON the tool writes or reads back (analyze
// --json, the wizard walk in sessions and reports). Non-finite numbers are the strings "nan",
// "inf", "-inf": JSON has no token for them and a loss that went NaN is exactly the evidence.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "core/common/finding.h"
#include "core/common/result.h"

namespace qatdoctor::core {

nlohmann::json jsonNumber(double v);
// A step, line or count: an integer when it is one (steps are stored as doubles, but a step 100
// prints as 100, not 100.0); otherwise as jsonNumber.
nlohmann::json jsonCount(double v);
// A number, or one of the three strings; anything else is nullopt.
std::optional<double> numberFromJson(const nlohmann::json& j);

// {"run","file","line","step","metric","value","layer","detail"}, empty fields left out.
nlohmann::json evidenceToJson(const Evidence& e);
// Tolerant: fields of the wrong type are left empty (the input may be a hand-edited session).
Evidence evidenceFromJson(const nlohmann::json& j);

nlohmann::json textToJson(const Text& t);

// {"id","severity","stage","title","message","evidence","faq","strength"?,"recovered"?}: the
// finding object of every JSON output, in one language.
nlohmann::json findingToJson(const Finding& f, Lang lang);
// {"file","line","offset"?,"code","message"}
nlohmann::json warningToJson(const Warning& w);

}  // namespace qatdoctor::core
