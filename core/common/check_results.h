// What the checks of one diagnosis produced: the findings, the checks that had the data to run,
// and the ones that could not run with what they needed. The Analysis is one of these; areas
// that read or write check results (rules, model lints, artifacts, the wizard's automatic
// answers, the simulation) take this, not the whole Analysis, so they stay below it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/common/finding.h"
#include "core/common/text.h"

namespace qatdoctor::core {

// A check that could not run, and what it needed: "not checked", never "clear".
struct SkippedCheck {
    std::string id;
    Text reason;
    // What kept it from running, where that is a place in the data: the lines a reader did not
    // understand, when the check claims an absence and needs them all (finding_catalogue.h).
    std::vector<Evidence> evidence;
};

struct CheckResults {
    using SkippedCheck = core::SkippedCheck;
    std::vector<Finding> findings;    // sorted by sortFindings() once all checks ran
    std::set<std::string> checksRun;  // check ids that had the data to run (found or clear)
    std::vector<SkippedCheck> checksSkipped;
};

}  // namespace qatdoctor::core
