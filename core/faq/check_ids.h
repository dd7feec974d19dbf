// The automatic checks a wizard question may name in its "auto" field. ONE list for the whole
// product: the validator reports ids not in it, and it mirrors the checkId enum of
// faq/schema.json and KNOWN_CHECKS in tests/gen/check_faq.py (change all three together).
#pragma once

#include <span>
#include <string_view>

namespace qatdoctor::core::faq {

// Every check id the FAQ may reference, in the order of faq/schema.json.
std::span<const std::string_view> knownCheckIds();

bool isKnownCheckId(std::string_view id);

}  // namespace qatdoctor::core::faq
