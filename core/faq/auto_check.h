// Answers a wizard question from the user's own data: a question's "auto" check id is looked up
// in the check results (an Analysis is one). found = a Finding with that id exists (its evidence
// comes along); clear = the check ran (id in checksRun) and found nothing; unknown = no data,
// the user answers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/common/check_results.h"
#include "core/faq/faq_types.h"

namespace qatdoctor::core::faq {

enum class AutoOutcome { Unknown, Found, Clear };
const char* autoOutcomeName(AutoOutcome outcome);       // "unknown" | "found" | "clear"
AutoOutcome parseAutoOutcome(const std::string& name);  // anything else = Unknown

struct AutoAnswer {
    AutoOutcome outcome = AutoOutcome::Unknown;
    std::string check;                // the check id evaluated
    std::vector<Evidence> evidence;   // of every finding with that id (found only)
    std::vector<Text> findingTitles;  // their titles, for the UI
    std::vector<Text> standards;      // the evidence standard each met (finding_catalogue.h)
    const Answer* answer = nullptr;   // the answer marked with the outcome; null when unknown
    // Unknown because the check could not run: what it needed (CheckResults::checksSkipped), so the
    // question can say why it is left to the user ("not checked: needs ...").
    std::optional<Text> notChecked;
};

// Evaluates a check id against an analysis.
AutoAnswer evaluateCheck(const CheckResults& analysis, const std::string& checkId);

// For a question with an "auto" check: the outcome and the answer it selects. A result node,
// a manual question or a question without a matching marked answer gives Unknown.
AutoAnswer autoAnswerFor(const Node& question, const CheckResults& analysis);

}  // namespace qatdoctor::core::faq
