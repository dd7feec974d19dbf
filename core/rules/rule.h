// The training rules: a table of small checks over the loaded runs. Each rule says whether the
// data let it run (the wizard's "clear" needs that) and which findings it produced.
#pragma once

#include <vector>

#include "core/analysis.h"
#include "core/rules/thresholds.h"

namespace qatdoctor::core::rules {

struct RuleOutcome {
    bool ran = false;                // the data needed was there (found or clear)
    std::vector<Finding> findings;
};

struct Rule {
    const char* id;                  // the finding id the rule produces, e.g. "loss.nonfinite"
    Stage stage;                     // the stage its findings usually point at
    RuleOutcome (*check)(const Analysis& analysis, const Thresholds& thresholds);
    // What the rule needs from the logs, for people: a rule that could not run is listed as
    // "not checked" with it (Analysis::checksSkipped), never taken for "clear".
    Text needs;
};

// All training rules, in the order they run (defined in rule_table.cpp).
const std::vector<Rule>& trainingRules();

// Runs every rule over analysis.logs: appends the findings and inserts the id of every rule that
// ran into analysis.checksRun. Does not sort (runChecks does).
void runTrainingRules(Analysis& analysis, const Thresholds& thresholds);

// The "training.rules" row of the check table: thresholds from analysis.thresholdsPath (built-in
// defaults when empty; a file that cannot be used adds a warning and the defaults apply).
void runTrainingRulesCheck(Analysis& analysis);

}  // namespace qatdoctor::core::rules
