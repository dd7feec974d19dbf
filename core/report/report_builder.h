// Builds the ReportDocument of an Analysis: title page, summary, training, symptom wizard, model,
// fixed-point and appendix, in one language. Pure: reads the Analysis (and, to hash the inputs,
// the input files), never writes anything.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/report/report_document.h"

namespace qatdoctor::core::faq {
class FaqBase;
}
namespace qatdoctor::core::compare {
struct Comparison;
}

namespace qatdoctor::core::report {

struct ReportOptions {
    Lang lang = Lang::En;
    std::set<std::string> sections;  // section ids to include; empty = all (allSectionIds())
    Paper paper = Paper::A4;
    // The wizard page's state ({"session", "reportItems"}, ui/pages/wizard_page.h) or a bare
    // wizard session (core/faq/wizard_session_json.h); "" = no wizard section content.
    std::string wizardJson;
    const faq::FaqBase* faq = nullptr;  // FAQ advice and code snippets; null = titles only
    std::string projectName;            // "" = inputSetName() of the inputs (as the window title)
    std::string date;                   // "" = now, UTC "YYYY-MM-DD HH:MM UTC"
    bool hashInputs = true;             // SHA-256 of every input file (reads them)
    // The comparison of an earlier attempt (A) with this analysis (B): the "What changed"
    // section (after the summary) and the JSON's "comparison"; null = no such section.
    const compare::Comparison* comparison = nullptr;
};

// "title", "summary", "changes", "training", "wizard", "model", "checkpoint", "fixedpoint", "appendix"
// (document order; "changes" has content only with ReportOptions::comparison).
const std::vector<std::string>& allSectionIds();
// Localised section title (for the report page's checkboxes too).
std::string sectionTitle(const std::string& id, Lang lang);

// Errors: kCancelledCode when progress says stop. Unreadable inputs while hashing are not errors:
// the row says why and a warning goes to the appendix.
Result<ReportDocument> buildReport(const Analysis& analysis, const ReportOptions& options,
                                   const ProgressFn& progress = {});

}  // namespace qatdoctor::core::report
