// The training rules: a table of small checks over the loaded runs. Each rule says whether the
// data let it run (the wizard's "clear" needs that) and which findings it produced.
#pragma once

#include <optional>
#include <vector>

#include "core/common/check_results.h"
#include "core/logs/run.h"
#include "core/rules/thresholds.h"

namespace qatdoctor::core::rules {

struct RuleOutcome {
    bool ran = false;  // the data needed was there (found or clear)
    std::vector<Finding> findings;
    // Why it could not run when the rule knows better than its Rule::needs (lines not understood),
    // with those lines as evidence.
    std::optional<Text> notCheckedBecause;
    std::vector<Evidence> notCheckedEvidence;
};

struct Rule {
    const char* id;  // the finding id the rule produces, e.g. "loss.nonfinite"
    Stage stage;     // the stage its findings usually point at
    RuleOutcome (*check)(const logs::LogSet& logs, const Thresholds& thresholds);
    // What the rule needs from the logs, for people: a rule that could not run is listed as
    // "not checked" with it (CheckResults::checksSkipped), never taken for "clear".
    Text needs;
};

// All training rules, in the order they run (defined in rule_table.cpp).
const std::vector<Rule>& trainingRules();

// Runs every rule over the logs: appends the findings to results, inserts the id of every rule
// that ran into results.checksRun and lists the others in results.checksSkipped. Does not sort
// (runChecks does).
void runTrainingRules(const logs::LogSet& logs, const Thresholds& thresholds, CheckResults& results);

}  // namespace qatdoctor::core::rules
